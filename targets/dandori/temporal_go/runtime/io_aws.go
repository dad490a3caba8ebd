// The default Transport's Lambda and AWS calls (docs/targets.md#temporal-go), through the AWS SDK
// for Go v2, written only for a flow that calls Lambda or AWS: Go has no import put off until a
// call needs it. `io_aws.go` is this file (its package clause changed, the flow's AWS services
// imported) followed by `ddAWSClient`, the clients of the services the flow calls, and
// `ddAWSOperations`, the operations of each one's model (lang/dandori/aws_operations.ts): a client
// method that is none (a capital, a paginator, a waiter, `Options`) is never called. An
// operation's input is its arguments read as JSON into the SDK's input struct (whose fields bear
// the API's names); its output is the SDK's output as JSON without its metadata and its members
// that hold nothing; an exception is its model's name (`QueueDoesNotExist`).

package dandori

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/smithy-go"
)

// AWSConfig is the configuration the default Transport's Lambda and AWS clients are made from
// (TransportOptions.AWS, for example what config.LoadDefaultConfig gives).
type AWSConfig = aws.Config

func (t ddTransport) awsConfig() (aws.Config, error) {
	if t.options.AWS == nil {
		return aws.Config{}, errors.New("dandori: the flow calls AWS, and TransportOptions.AWS is not given")
	}
	return *t.options.AWS, nil
}

// Lambda invokes a function; its payload is the result, its errorType its error.
func (t ddTransport) Lambda(ctx context.Context, function string, payload any) (LambdaResult, error) {
	cfg, err := t.awsConfig()
	if err != nil {
		return LambdaResult{}, err
	}
	body, err := json.Marshal(payload)
	if err != nil {
		return LambdaResult{}, err
	}
	out, err := lambda.NewFromConfig(cfg).Invoke(ctx, &lambda.InvokeInput{FunctionName: aws.String(function), Payload: body})
	if err != nil {
		return LambdaResult{}, err
	}
	var v any
	if len(out.Payload) > 0 {
		if err := json.Unmarshal(out.Payload, &v); err != nil {
			return LambdaResult{}, err
		}
	}
	if out.FunctionError == nil {
		return LambdaResult{Payload: v}, nil
	}
	e, _ := v.(map[string]any)
	name, _ := e["errorType"].(string)
	if name == "" {
		name = *out.FunctionError
	}
	message, _ := e["errorMessage"].(string)
	return LambdaResult{ErrorType: name, ErrorMessage: message}, nil
}

// AWS calls an operation of the service's model by its Step Functions name (`sqs`, `sendMessage`).
func (t ddTransport) AWS(ctx context.Context, service, operation string, args map[string]any) (any, error) {
	cfg, err := t.awsConfig()
	if err != nil {
		return nil, err
	}
	client, ok := ddAWSClient(cfg, service)
	if !ok {
		return nil, errors.New("dandori: the default Transport has no AWS service " + service + ": give the worker a Transport of your own")
	}
	if !slices.Contains(ddAWSOperations(service), operation) {
		return nil, errors.New("dandori: " + service + " has no operation " + operation + " in its API")
	}
	method := reflect.ValueOf(client).MethodByName(strings.ToUpper(operation[:1]) + operation[1:])
	if !method.IsValid() || method.Type().NumIn() < 2 {
		return nil, errors.New("dandori: the AWS SDK has no " + service + ":" + operation)
	}
	// The message arguments of SNS and SQS are text: a record given there is sent as its JSON.
	sent := map[string]any{}
	for k, v := range args {
		if _, text := v.(string); !text && (k == "Message" || k == "MessageBody") {
			v = ddJSON(v)
		}
		sent[k] = v
	}
	data, err := json.Marshal(sent)
	if err != nil {
		return nil, err
	}
	input := reflect.New(method.Type().In(1).Elem())
	if err := json.Unmarshal(data, input.Interface()); err != nil {
		return nil, err
	}
	results := method.Call([]reflect.Value{reflect.ValueOf(ctx), input})
	if err, _ := results[1].Interface().(error); err != nil {
		var api smithy.APIError
		if errors.As(err, &api) {
			return nil, &AWSError{Name: api.ErrorCode(), Message: api.ErrorMessage()}
		}
		return nil, err
	}
	data, err = json.Marshal(results[0].Interface())
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	delete(out, "ResultMetadata")
	return ddHeld(out), nil
}

// ddHeld is a value without the members that hold nothing (an SDK struct has every member).
func ddHeld(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if e != nil {
				out[k] = ddHeld(e)
			}
		}
		return out
	case []any:
		out := []any{}
		for _, e := range x {
			out = append(out, ddHeld(e))
		}
		return out
	default:
		return v
	}
}
