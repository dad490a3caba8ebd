// How dandori-written activities reach the outside (docs/targets.md#temporal-go): what the
// Transport port carries, the HTTP of the default Transport (net/http), how an answer becomes a
// result or a declared error, and the heartbeat of every activity. `io.go` is this file (its
// package clause changed) followed by the flow's Transport, its options and its default; the
// Lambda and AWS calls are in `io_aws.go` and the books in `io_books.go`, written only for a flow
// that calls them.

package dandori

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
)

// Call is what the workflow passes beside a task's arguments: the call's key and its callback's id.
type Call struct {
	Key        string `json:"key,omitempty"`
	CallbackID string `json:"callback_id,omitempty"`
}

// HTTPRequest is an HTTP request as it is sent: the body is the exact text (nil: no body).
type HTTPRequest struct {
	Method  string            `json:"method"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Body    *string           `json:"body,omitempty"`
}

// HTTPResponse is an HTTP response: its status and its body's text.
type HTTPResponse struct {
	Status int    `json:"status"`
	Body   string `json:"body"`
}

// LambdaResult is a Lambda function's answer: its payload, or the function's error (ErrorType not empty).
type LambdaResult struct {
	Payload      any    `json:"payload"`
	ErrorType    string `json:"errorType,omitempty"`
	ErrorMessage string `json:"errorMessage,omitempty"`
}

// AWSError is an AWS operation's error: the exception's name and message.
type AWSError struct {
	Name    string `json:"name"`
	Message string `json:"message"`
}

func (e *AWSError) Error() string {
	return e.Name + ": " + e.Message
}

// ddHeartbeatEvery is how often an activity heartbeats while it works (a test copy shortens it
// with the heartbeat timeout).
const ddHeartbeatEvery = 10 * time.Second

// ddBeating runs an activity's work, heartbeating while it works so that Temporal sees a worker
// that died; none it returns travels as JSON null.
func ddBeating(ctx context.Context, work func() (any, error)) (any, error) {
	done := make(chan struct{})
	defer close(done)
	go func() {
		tick := time.NewTicker(ddHeartbeatEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	got, err := work()
	if err != nil {
		return nil, err
	}
	if got == nil {
		return ddNone(), nil
	}
	return got, nil
}

// ddFailure is the error an activity fails with: a declared name as its type, anything else a failure.
func ddFailure(name, message string) error {
	return temporal.NewNonRetryableApplicationError(message, name, nil)
}

// ddDeclared is the declared error of what came over the wire (pairs of name and wire), or the wire itself.
func ddDeclared(errs [][2]string, wire string) string {
	for _, e := range errs {
		if e[1] == wire {
			return e[0]
		}
	}
	return wire
}

// ddHTTPResult reads an HTTP answer: a 2xx body is the result (JSON, or none when empty), a
// declared status its error.
func ddHTTPResult(r HTTPResponse, err error, errs [][2]string) (any, error) {
	if err != nil {
		return nil, err
	}
	if r.Status >= 200 && r.Status < 300 {
		if r.Body == "" {
			return nil, nil
		}
		var v any
		if err := json.Unmarshal([]byte(r.Body), &v); err != nil {
			return nil, err
		}
		return v, nil
	}
	status := ddNumberText(float64(r.Status))
	name := ddDeclared(errs, status)
	if name == status {
		name = "HTTP " + status
	}
	return nil, ddFailure(name, r.Body)
}

// ddLambdaResult reads a Lambda function's answer: its payload, or its declared errorType.
func ddLambdaResult(r LambdaResult, err error, errs [][2]string) (any, error) {
	if err != nil {
		return nil, err
	}
	if r.ErrorType == "" {
		return r.Payload, nil
	}
	return nil, ddFailure(ddDeclared(errs, r.ErrorType), r.ErrorMessage)
}

// ddAWSResult reads an AWS operation's answer: its output, or its declared exception.
func ddAWSResult(out any, err error, errs [][2]string) (any, error) {
	if err == nil {
		return out, nil
	}
	var e *AWSError
	if errors.As(err, &e) {
		return nil, ddFailure(ddDeclared(errs, e.Name), e.Message)
	}
	return nil, ddFailure(ddDeclared(errs, "Error"), err.Error())
}

// ddPayload is a Lambda's payload or an AWS call's arguments: the task's arguments, the key where
// it goes (keyField, empty: nowhere), and the callback's id (an SQS message body carries it inside).
func ddPayload(args map[string]any, call Call, keyField string, callback bool, sqs bool) map[string]any {
	p := map[string]any{}
	for k, v := range args {
		p[k] = v
	}
	if keyField != "" {
		p[keyField] = call.Key
	}
	if !callback {
		return p
	}
	if !sqs {
		p["callback_id"] = call.CallbackID
		return p
	}
	body := map[string]any{}
	if record, ok := p["MessageBody"].(map[string]any); ok {
		for k, v := range record {
			body[k] = v
		}
	} else {
		body["message"] = p["MessageBody"]
	}
	body["callback_id"] = call.CallbackID
	p["MessageBody"] = body
	return p
}

// ddPairs is the arguments of names the task was given, as `name=value` pairs joined by `&`, each escaped.
func ddPairs(args map[string]any, names []string) string {
	pairs := []string{}
	for _, n := range names {
		if v, ok := args[n]; ok {
			pairs = append(pairs, ddSegment(n)+"="+ddSegment(v))
		}
	}
	return strings.Join(pairs, "&")
}

// ddWithQuery is a URL with the query pairs after it (none: as it is).
func ddWithQuery(url, pairs string) string {
	if pairs == "" {
		return url
	}
	if strings.Contains(url, "?") {
		return url + "&" + pairs
	}
	return url + "?" + pairs
}

// ddSendHTTP sends a request through net/http: the default Transport's HTTP.
func ddSendHTTP(ctx context.Context, client *http.Client, r HTTPRequest) (HTTPResponse, error) {
	var body io.Reader
	if r.Body != nil {
		body = strings.NewReader(*r.Body)
	}
	request, err := http.NewRequestWithContext(ctx, r.Method, r.URL, body)
	if err != nil {
		return HTTPResponse{}, err
	}
	for k, v := range r.Headers {
		request.Header.Set(k, v)
	}
	if client == nil {
		client = http.DefaultClient
	}
	response, err := client.Do(request)
	if err != nil {
		return HTTPResponse{}, err
	}
	defer response.Body.Close()
	text, err := io.ReadAll(response.Body)
	if err != nil {
		return HTTPResponse{}, err
	}
	return HTTPResponse{Status: response.StatusCode, Body: string(text)}, nil
}
