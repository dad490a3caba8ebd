// The wire runner of temporal-go (verify/dandori/temporal_go_wire.ts, and agent_wire.ts for the
// agents' calls): every call of the jobs file through its generated activity (`Activities(nil,
// transport)` of the flow's package), run in the Go SDK's test activity environment as a worker runs
// it, once through the generated io.go's default `NewTransport` — net/http with each URL's scheme and
// host replaced by the local server's, the AWS SDK for Go v2 with Lambda's requests sent to the local
// server and the others to moto, openai-go and anthropic-sdk-go with the same HTTP client — and,
// unless it is an AWS call (moto answers it) or a probe (the server answers it 500), once through a
// stub that answers what the verify run's stub answers. Around the first it tells the local server
// which call it sends (`<control><id>/before`) and that it has sent it (`…/after`), so the server
// answers it and checks what arrived. It prints each call's two outcomes, and the outcome of
// `sns:publish` to a topic that does not exist (`aws_error`). packages.go, written beside this file
// for each run, names every flow's package.

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
)

// options is what a flow's default Transport is given.
type options struct {
	HTTP *http.Client
	AWS  *aws.Config
}

// answer is the stub's answer to one call: an HTTP response, a Lambda function's result, or an
// agent's answer (`{"ok": …}`, else a refusal).
type answer struct {
	HTTP struct {
		Status int    `json:"status"`
		Body   string `json:"body"`
	} `json:"http"`
	Lambda struct {
		Payload      any    `json:"payload"`
		ErrorType    string `json:"errorType"`
		ErrorMessage string `json:"errorMessage"`
	} `json:"lambda"`
	Agent map[string]any `json:"agent"`
}

// flowPackage is one flow's generated package as packages.go hands it over: its activities
// through the default Transport and through the stub, and its Transport's AWS (nil when the flow
// calls no AWS operation).
type flowPackage struct {
	sent func(o options) map[string]any
	stub func(a answer) map[string]any
	aws  func(o options, service, operation string, args map[string]any) string
}

// packages are the flows' packages by their directory in the module.
var packages = map[string]flowPackage{}

// activitiesOf is a package's activities as values the test environment registers.
func activitiesOf[F any](activities map[string]F) map[string]any {
	out := map[string]any{}
	for name, fn := range activities {
		out[name] = fn
	}
	return out
}

type call struct {
	ID      string            `json:"id"`
	Package string            `json:"package"`
	Task    string            `json:"task"`
	Kind    string            `json:"kind"`
	Args    any               `json:"args"`
	Call    map[string]string `json:"call"`
	Answer  answer            `json:"answer"`
	Probe   bool              `json:"probe"`
}

type jobs struct {
	Local    string `json:"local"`
	Control  string `json:"control"`
	Moto     string `json:"moto"`
	Region   string `json:"region"`
	AWSError struct {
		Package   string         `json:"package"`
		Service   string         `json:"service"`
		Operation string         `json:"operation"`
		Args      map[string]any `json:"args"`
	} `json:"aws_error"`
	Calls []call `json:"calls"`
}

type result struct {
	ID   string  `json:"id"`
	Sent string  `json:"sent"`
	Stub *string `json:"stub"`
}

// redirect sends every request to the origin it names for the request's host, path and query kept.
type redirect func(host string) string

func (r redirect) RoundTrip(req *http.Request) (*http.Response, error) {
	to, err := url.Parse(r(req.URL.Host))
	if err != nil {
		return nil, err
	}
	out := req.Clone(req.Context())
	out.URL.Scheme = to.Scheme
	out.URL.Host = to.Host
	out.Host = ""
	return http.DefaultTransport.RoundTrip(out)
}

// text is a value's JSON.
func text(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf(`{"error":"json","message":%q}`, err.Error())
	}
	return string(b)
}

// failureText is an error as the other wire runners print it: its type and message.
func failureText(err error) string {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return text(map[string]any{"error": app.Type(), "message": app.Message()})
	}
	return text(map[string]any{"error": "failure", "message": err.Error()})
}

// quiet is the test environment's logger: stdout carries the runner's one line alone.
var quiet = log.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))

// outcome runs one activity as a worker does and says what it ended with: its result, or its error.
func outcome(fn any, task string, args any, c map[string]string) string {
	suite := testsuite.WorkflowTestSuite{}
	suite.SetLogger(quiet)
	env := suite.NewTestActivityEnvironment()
	env.RegisterActivityWithOptions(fn, activity.RegisterOptions{Name: task})
	got, err := env.ExecuteActivity(task, args, c)
	if err != nil {
		return failureText(err)
	}
	var v any
	if err := got.Get(&v); err != nil {
		return failureText(err)
	}
	return text(map[string]any{"ok": v})
}

// control tells the local server where the runner is; it answers once it is ready.
func control(j jobs, what string) {
	response, err := http.Post(j.Local+j.Control+what, "text/plain", nil)
	if err != nil {
		fail(err)
	}
	response.Body.Close()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail(err)
	}
	var j jobs
	if err := json.Unmarshal(data, &j); err != nil {
		fail(err)
	}
	toLocal := &http.Client{Transport: redirect(func(string) string { return j.Local })}
	toAWS := &http.Client{Transport: redirect(func(host string) string {
		if strings.HasPrefix(host, "lambda.") {
			return j.Local
		}
		return j.Moto
	})}
	credentials := aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
		return aws.Credentials{AccessKeyID: "testing", SecretAccessKey: "testing", Source: "dandori-wire"}, nil
	})
	cfg := aws.Config{Region: j.Region, Credentials: credentials, HTTPClient: toAWS}
	o := options{HTTP: toLocal, AWS: &cfg}
	results := []result{}
	for _, c := range j.Calls {
		p, ok := packages[c.Package]
		if !ok {
			fail(errors.New("no package " + c.Package))
		}
		control(j, c.ID+"/before")
		sent := outcome(p.sent(o)[c.Task], c.Task, c.Args, c.Call)
		control(j, c.ID+"/after")
		r := result{ID: c.ID, Sent: sent}
		if c.Kind != "aws" && !c.Probe {
			stub := outcome(p.stub(c.Answer)[c.Task], c.Task, c.Args, c.Call)
			r.Stub = &stub
		}
		results = append(results, r)
	}
	var awsError *string
	if e := j.AWSError; e.Package != "" {
		got := packages[e.Package].aws(o, e.Service, e.Operation, e.Args)
		awsError = &got
	}
	fmt.Println(text(map[string]any{"results": results, "aws_error": awsError}))
}
