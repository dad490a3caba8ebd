// How dandori-written activities send an agent's request (docs/targets.md#agents-on-the-wire):
// what the Transport port carries, how the answer is read, and the default Transport's way of
// sending it — openai-go's Responses API service to OpenAI (the service alone, not the client of
// every API, which would compile all of them), anthropic-sdk-go's client to Claude's Messages API
// (each with its key from the environment and told not to retry, so only the task's retry
// retries), net/http to an Open Responses server. `io_agents.go` is this file (its
// package clause changed), written only for a flow with an agent task.

package dandori

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"strings"

	anthropic "github.com/anthropics/anthropic-sdk-go/v2"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	openaioption "github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"go.temporal.io/sdk/temporal"
)

// AgentRequest is an agent's request as every platform sends it (docs/dandori.md#agents): whom it
// goes to ("openai", "claude", or "responses" for an Open Responses server), where, the headers
// that say nothing secret, and the body. The key is never here: the default Transport adds it.
type AgentRequest struct {
	Provider string            `json:"provider"`
	URL      string            `json:"url"`
	Headers  map[string]string `json:"headers"`
	Body     map[string]any    `json:"body"`
}

// AgentStopped is a model's answer that is none: a refusal, a stop short of the end, a response
// without text or without its answer.
type AgentStopped struct {
	Reason string
}

func (e *AgentStopped) Error() string {
	return "dandori: the model gave no answer: " + e.Reason
}

// AgentHTTPError is an Open Responses server's answer that is not a 2xx.
type AgentHTTPError struct {
	Status int
	Body   string
}

func (e *AgentHTTPError) Error() string {
	return "dandori: the server answered " + ddNumberText(float64(e.Status)) + ": " + e.Body
}

// ddAgentBody is an agent's body: the fixed members as JSON text, and the arguments' JSON text
// where the provider reads them (Claude: the one user message; else `input`).
func ddAgentBody(fixed, provider, input string) (map[string]any, error) {
	var body map[string]any
	if err := json.Unmarshal([]byte(fixed), &body); err != nil {
		return nil, err
	}
	if provider == "claude" {
		body["messages"] = []any{map[string]any{"role": "user", "content": input}}
	} else {
		body["input"] = input
	}
	return body, nil
}

// ddAgentResult reads what the model answered: its `answer` is the result (a Claude answer's
// enum values read without case where the shape, as JSON text, says they are; "" when none), and
// anything else a failure with an empty message, as the interpreter's says no cause (what the
// provider or the SDK said is the failure's details).
func ddAgentResult(got any, err error, shape string) (any, error) {
	if err != nil {
		name := "Error"
		var stopped *AgentStopped
		var status *AgentHTTPError
		if errors.As(err, &stopped) {
			name = "AgentStopped"
		} else if errors.As(err, &status) {
			name = "AgentHTTPError"
		}
		return nil, temporal.NewNonRetryableApplicationError("", name, nil, err.Error())
	}
	m, ok := got.(map[string]any)
	answer, has := m["answer"]
	if !ok || !has {
		return nil, ddFailure("AgentStopped", "")
	}
	if shape == "" {
		return answer, nil
	}
	var s map[string]any
	if err := json.Unmarshal([]byte(shape), &s); err != nil {
		return nil, err
	}
	return ddFolded(s, answer), nil
}

// ddFolded is v with each string where the shape has an enum ({"enum": […]}, {"list": …},
// {"record": {field: …}}) replaced by the declared value equal to it but for case.
func ddFolded(shape map[string]any, v any) any {
	if values, ok := shape["enum"].([]any); ok {
		s, isString := v.(string)
		if !isString {
			return v
		}
		for _, d := range values {
			if declared, _ := d.(string); strings.EqualFold(declared, s) {
				return declared
			}
		}
		return v
	}
	if inner, ok := shape["list"].(map[string]any); ok {
		list, isList := v.([]any)
		if !isList {
			return v
		}
		out := make([]any, len(list))
		for i, x := range list {
			out[i] = ddFolded(inner, x)
		}
		return out
	}
	fields, _ := shape["record"].(map[string]any)
	record, isRecord := v.(map[string]any)
	if !isRecord {
		return v
	}
	out := make(map[string]any, len(record))
	for k, x := range record {
		if inner, ok := fields[k].(map[string]any); ok {
			out[k] = ddFolded(inner, x)
		} else {
			out[k] = x
		}
	}
	return out
}

// ddOutputText is the first `output_text` of a Responses API response's messages: none (a
// refusal) stops the agent.
func ddOutputText(response map[string]any) (string, error) {
	output, _ := response["output"].([]any)
	for _, item := range output {
		m, _ := item.(map[string]any)
		if m["type"] != "message" {
			continue
		}
		content, _ := m["content"].([]any)
		for _, part := range content {
			p, _ := part.(map[string]any)
			if text, ok := p["text"].(string); ok && p["type"] == "output_text" {
				return text, nil
			}
		}
	}
	return "", &AgentStopped{Reason: "no output_text (a refusal)"}
}

// ddMessageText is a Messages API response's text blocks, joined: a stop other than `end_turn`
// stops the agent.
func ddMessageText(response map[string]any) (string, error) {
	if stop := response["stop_reason"]; stop != "end_turn" {
		return "", &AgentStopped{Reason: "the model stopped with " + ddJSON(stop)}
	}
	content, _ := response["content"].([]any)
	var b strings.Builder
	for _, block := range content {
		m, _ := block.(map[string]any)
		if text, ok := m["text"].(string); ok && m["type"] == "text" {
			b.WriteString(text)
		}
	}
	return b.String(), nil
}

// ddSendAgent sends an agent's request: Claude's through anthropic-sdk-go's client, OpenAI's
// through openai-go's Responses API service, the body as every platform sends it (each with the
// HTTP client given, its key from the environment, no retry of its own),
// an Open Responses server's through net/http with the headers given for it and no key.
func ddSendAgent(ctx context.Context, client *http.Client, responsesHeaders map[string]string, request AgentRequest) (any, error) {
	if client == nil {
		client = http.DefaultClient
	}
	var response map[string]any
	var text string
	var err error
	switch request.Provider {
	case "claude":
		options := []anthropicoption.RequestOption{
			anthropicoption.WithBaseURL(strings.TrimSuffix(request.URL, "/v1/messages")),
			anthropicoption.WithMaxRetries(0),
			anthropicoption.WithHTTPClient(client),
		}
		for name, value := range request.Headers {
			options = append(options, anthropicoption.WithHeader(name, value))
		}
		c := anthropic.NewClient(options...)
		if err := c.Post(ctx, "v1/messages", request.Body, &response); err != nil {
			return nil, err
		}
		text, err = ddMessageText(response)
	case "openai":
		options := []openaioption.RequestOption{
			openaioption.WithBaseURL(strings.TrimSuffix(request.URL, "/responses")),
			openaioption.WithMaxRetries(0),
			openaioption.WithHTTPClient(client),
		}
		if key, ok := os.LookupEnv("OPENAI_API_KEY"); ok {
			options = append(options, openaioption.WithAPIKey(key))
		}
		for name, value := range request.Headers {
			options = append(options, openaioption.WithHeader(name, value))
		}
		service := responses.NewResponseService(options...)
		body := openaioption.WithRequestBody("application/json", []byte(ddJSON(request.Body)))
		if _, err := service.New(ctx, responses.ResponseNewParams{}, body, openaioption.WithResponseBodyInto(&response)); err != nil {
			return nil, err
		}
		text, err = ddOutputText(response)
	default:
		headers := map[string]string{}
		for name, value := range request.Headers {
			headers[name] = value
		}
		for name, value := range responsesHeaders {
			headers[name] = value
		}
		headers["Content-Type"] = "application/json"
		body := ddJSON(request.Body)
		got, sendErr := ddSendHTTP(ctx, client, HTTPRequest{Method: http.MethodPost, URL: request.URL, Headers: headers, Body: &body})
		if sendErr != nil {
			return nil, sendErr
		}
		if got.Status < 200 || got.Status >= 300 {
			return nil, &AgentHTTPError{Status: got.Status, Body: got.Body}
		}
		if err := json.Unmarshal([]byte(got.Body), &response); err != nil {
			return nil, err
		}
		text, err = ddOutputText(response)
	}
	if err != nil {
		return nil, err
	}
	var answer any
	if err := json.Unmarshal([]byte(text), &answer); err != nil {
		return nil, err
	}
	return answer, nil
}
