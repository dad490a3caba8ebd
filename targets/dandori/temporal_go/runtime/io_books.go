// The books of a dandori Temporal Go package (docs/targets.md#temporal-go), written only for a
// flow that uses books: a book operation as the flow calls it, the answer, and the default
// Transport's Book, which calls chobo's Go client given in TransportOptions.Books (`postgres-go`
// or `tigerbeetle-go`: a *Book). The package is written without knowing the client's types, so the
// transfer's member, the operation's method (Do, Hold, Post, Void) and its argument structs are
// found by the names chobo gives them (ddBookTransferOf, after this file).

package dandori

import (
	"context"
	"errors"
	"reflect"
	"strconv"
)

// BookCall is a book operation as a flow calls it: strings and amounts by the transfer's parameter names.
type BookCall struct {
	Book     string         `json:"book"`
	Transfer string         `json:"transfer"`
	Op       string         `json:"op"`
	Args     map[string]any `json:"args"`
	Amounts  map[string]any `json:"amounts,omitempty"`
}

// BookResult is a book's answer: done, done_before, or refused with the reason.
type BookResult struct {
	Result string `json:"result"`
	Reason string `json:"reason,omitempty"`
}

// ddBookTransfer is what chobo's Go client names a transfer: its member of the book and its
// parameters' fields (an amount is a field of type int64).
type ddBookTransfer struct {
	Member string
	Params map[string]string
}

// ddBooked reads a book's answer: done and done_before are the result, a refusal its declared
// error or, when the task does not declare it, Dandori.Failure.<reason>.
func ddBooked(r BookResult, err error, declared []string) (any, error) {
	if err != nil {
		return nil, err
	}
	if r.Result != "refused" {
		return map[string]any{"result": r.Result}, nil
	}
	for _, d := range declared {
		if d == r.Reason {
			return nil, ddFailure(r.Reason, "")
		}
	}
	return nil, ddFailure("Dandori.Failure."+r.Reason, "")
}

// Book calls a book operation through the chobo client given for the book.
func (t ddTransport) Book(ctx context.Context, call BookCall) (BookResult, error) {
	book, ok := t.options.Books[call.Book]
	if !ok {
		return BookResult{}, errors.New("dandori: no book " + call.Book + " was given to NewTransport")
	}
	names, ok := ddBookTransferOf(call.Book, call.Transfer)
	if !ok {
		return BookResult{}, errors.New("dandori: the book " + call.Book + " has no transfer " + call.Transfer)
	}
	value := reflect.ValueOf(book)
	if value.Kind() == reflect.Pointer {
		value = value.Elem()
	}
	if value.Kind() != reflect.Struct {
		return BookResult{}, errors.New("dandori: the book " + call.Book + " is not a chobo client's *Book")
	}
	transfer := value.FieldByName(names.Member)
	ops := map[string]string{"do": "Do", "hold": "Hold", "post": "Post", "void": "Void"}
	var method reflect.Value
	if transfer.IsValid() {
		method = transfer.MethodByName(ops[call.Op])
	}
	if !method.IsValid() {
		return BookResult{}, errors.New("dandori: " + call.Book + "." + call.Transfer + " has no " + call.Op)
	}
	in := []reflect.Value{reflect.ValueOf(ctx)}
	for i := 1; i < method.Type().NumIn(); i++ {
		values := call.Args
		if i == 2 {
			values = call.Amounts
		}
		arg, err := ddBookArgument(method.Type().In(i), values, names)
		if err != nil {
			return BookResult{}, err
		}
		in = append(in, arg)
	}
	out := method.Call(in)
	if err, _ := out[1].Interface().(error); err != nil {
		return BookResult{}, err
	}
	result := BookResult{Result: out[0].FieldByName("Outcome").String(), Reason: out[0].FieldByName("Reason").String()}
	if result.Result != "done" && result.Result != "done_before" && result.Result != "refused" {
		return BookResult{}, errors.New("dandori: " + call.Book + "." + call.Transfer + "." + call.Op + " answered " + result.Result)
	}
	return result, nil
}

// ddBookArgument is one argument struct of a client's method (a pointer to one: nil when no values are given).
func ddBookArgument(t reflect.Type, values map[string]any, names ddBookTransfer) (reflect.Value, error) {
	if t.Kind() == reflect.Pointer {
		if values == nil {
			return reflect.Zero(t), nil
		}
		v, err := ddBookArgument(t.Elem(), values, names)
		if err != nil {
			return reflect.Value{}, err
		}
		p := reflect.New(t.Elem())
		p.Elem().Set(v)
		return p, nil
	}
	s := reflect.New(t).Elem()
	for name, v := range values {
		field := s.FieldByName(names.Params[name])
		if !field.IsValid() {
			continue
		}
		switch field.Kind() {
		case reflect.String:
			text, _ := v.(string)
			field.SetString(text)
		case reflect.Int64:
			n, err := ddAmount(v)
			if err != nil {
				return reflect.Value{}, errors.New("dandori: the amount " + name + ": " + err.Error())
			}
			field.SetInt(n)
		default:
			return reflect.Value{}, errors.New("dandori: the client's field " + field.Type().String() + " of " + name + " is not a string or an amount")
		}
	}
	return s, nil
}

// ddAmount is an amount as chobo's client takes it: a whole number, given as a number or as digits.
func ddAmount(v any) (int64, error) {
	if text, ok := v.(string); ok {
		return strconv.ParseInt(text, 10, 64)
	}
	f, ok := ddNum(v)
	if !ok || f != float64(int64(f)) {
		return 0, errors.New("not a whole number")
	}
	return int64(f), nil
}
