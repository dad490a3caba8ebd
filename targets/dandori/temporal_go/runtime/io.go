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

// ddSent is how one value is written into a Connect request (lang/dandori/connect.ts's Sent): as
// it is ("as is"), a number as decimal text ("int64"), or a message field by field ("message").
type ddSent struct {
	Kind   string        `json:"kind"`
	Fields []ddSentField `json:"fields"`
}

// ddSentField is a field of a Connect request: the flow's name for it, its JSON name, how its
// value is written.
type ddSentField struct {
	Name string `json:"name"`
	JSON string `json:"json"`
	Sent ddSent `json:"sent"`
}

// ddFillField is a field a Connect answer's reader fills: Zero (JSON text, empty when none) when it
// has no presence, Message when its values are messages.
type ddFillField struct {
	JSON    string          `json:"json"`
	Zero    json.RawMessage `json:"zero"`
	Message string          `json:"message"`
}

// ddFillTable is the response's message and every message it may hold, each with the fields a
// reader fills.
type ddFillTable struct {
	Top      string `json:"top"`
	Messages []struct {
		Name   string        `json:"name"`
		Fields []ddFillField `json:"fields"`
	} `json:"messages"`
}

// ddMaxFillDepth is how deep in messages a Connect answer is filled (lang/dandori/proto.ts's
// MAX_MESSAGE_DEPTH).
const ddMaxFillDepth = 32

// ddProtoJSON is a Connect request's body as protobuf's JSON (request: the plan's table as JSON
// text): each argument given under its JSON name, in the request's order, a number sent to a 64-bit
// field as decimal text.
func ddProtoJSON(request string, args map[string]any) (string, error) {
	var fields []ddSentField
	if err := json.Unmarshal([]byte(request), &fields); err != nil {
		return "", err
	}
	var b strings.Builder
	ddWriteSentFields(&b, fields, args)
	return b.String(), nil
}

func ddWriteSentFields(b *strings.Builder, fields []ddSentField, args map[string]any) {
	b.WriteByte('{')
	first := true
	for _, f := range fields {
		v, ok := args[f.Name]
		if !ok || v == nil {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		ddWriteString(b, f.JSON)
		b.WriteByte(':')
		ddWriteSent(b, f.Sent, v)
	}
	b.WriteByte('}')
}

func ddWriteSent(b *strings.Builder, s ddSent, v any) {
	switch x := v.(type) {
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			ddWriteSent(b, s, e)
		}
		b.WriteByte(']')
		return
	case float64:
		if s.Kind == "int64" {
			ddWriteString(b, ddNumberText(x))
			return
		}
	case map[string]any:
		if s.Kind == "message" {
			ddWriteSentFields(b, s.Fields, x)
			return
		}
	}
	ddWriteJSON(b, v)
}

// ddFilled reads a Connect answer as protobuf reads it (fill: the plan's table as JSON text): every
// field without presence left out or null filled with its zero value, in the answer and in every
// message in it, down to ddMaxFillDepth messages.
func ddFilled(fill string, v any, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	var t ddFillTable
	if err := json.Unmarshal([]byte(fill), &t); err != nil {
		return nil, err
	}
	return ddFillMessage(t, t.Top, v, 0), nil
}

func ddFillMessage(t ddFillTable, name string, v any, depth int) any {
	m, ok := v.(map[string]any)
	var fields []ddFillField
	for _, x := range t.Messages {
		if x.Name == name {
			fields = x.Fields
		}
	}
	if !ok || depth > ddMaxFillDepth || fields == nil {
		return v
	}
	out := make(map[string]any, len(m))
	for k, e := range m {
		out[k] = e
	}
	for _, f := range fields {
		e := out[f.JSON]
		// A list of messages has a zero value ([]), one message has none: each is filled only as what
		// it is.
		hasZero := len(f.Zero) > 0
		switch {
		case e == nil && hasZero:
			var zero any
			_ = json.Unmarshal(f.Zero, &zero)
			out[f.JSON] = zero
		case e == nil || f.Message == "":
		case hasZero:
			if items, ok := e.([]any); ok {
				filled := make([]any, len(items))
				for i, item := range items {
					filled[i] = ddFillMessage(t, f.Message, item, depth+1)
				}
				out[f.JSON] = filled
			}
		default:
			out[f.JSON] = ddFillMessage(t, f.Message, e, depth+1)
		}
	}
	return out
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
