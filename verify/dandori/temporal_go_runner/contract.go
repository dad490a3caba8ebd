// Package dd is the Temporal Go runner of deno task verify temporal-go (docs/targets.md#the-runner-contract):
// the shapes of verify/dandori/temporal_contract.ts in Go (this file), the stubs every flow's worker
// is given (stubs.go) and the play of a jobs file (runner.go). Go cannot load a package at run time,
// so verify/dandori/temporal_go_build.ts writes one module of every flow's code copy, each with an
// adapter (dandori_runner.go) that gives this package the flow as a Flow, and a main.go that hands
// them to Main; it builds that module into one binary a verification.
package dd

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
)

// Answer is one answer of a scenario: {"ok": value}, {"error": name, "cause": text} or {"cancel": true}.
type Answer map[string]any

// isCancel is true for {"cancel": true}.
func (a Answer) isCancel() bool {
	_, ok := a["cancel"]
	return ok
}

// errorOf is the declared error's name and its cause, or ok false for an answer that is a value.
func (a Answer) errorOf() (name string, cause string, ok bool) {
	e, has := a["error"]
	if !has {
		return "", "", false
	}
	name, _ = e.(string)
	cause, _ = a["cause"].(string)
	return name, cause, true
}

// isTimeout is true for {"error": "timeout"}.
func (a Answer) isTimeout() bool {
	name, _, ok := a.errorOf()
	return ok && name == "timeout"
}

// TaskInfo is a task as the stubs need it: its kind and its declared errors' wire names.
type TaskInfo struct {
	Kind  string            `json:"kind"`
	Wires map[string]string `json:"wires"`
}

// Limits is how long things may take, the same for every flow of a jobs file.
type Limits struct {
	AtOnce      int `json:"atOnce"`
	RunMs       int `json:"runMs"`
	HeartbeatMs int `json:"heartbeatMs"`
	EventPollMs int `json:"eventPollMs"`
}

// FlowJobs is one flow: where its code copy is, where it runs, and what its stubs need.
type FlowJobs struct {
	Flow          string              `json:"flow"`
	Namespace     string              `json:"namespace"`
	Dir           string              `json:"dir"`
	Tasks         map[string]TaskInfo `json:"tasks"`
	Children      []ChildQueue        `json:"children"`
	Events        bool                `json:"events"`
	HistoriesFile *string             `json:"historiesFile"`
	// CodecKey is the key of an encrypted flow's codec, the same for every runner that plays the flow;
	// nil for a flow in clear.
	CodecKey *CodecKey `json:"codecKey"`
	// Part is what of the flow this runner plays: "whole", "workflow" (its workflow alone) or
	// "activities" (its activities, child stubs and answers alone, until stdin is closed).
	Part string `json:"part"`
}

// CodecKey is a codec's key as the jobs file carries it: its id, and its bytes as lowercase hexadecimal digits.
type CodecKey struct {
	ID  string `json:"id"`
	Hex string `json:"hex"`
}

// Bytes is the key's bytes, or an error when its text is not lowercase hexadecimal digits.
func (k CodecKey) Bytes() ([]byte, error) {
	if strings.ToLower(k.Hex) != k.Hex {
		return nil, errors.New("a codec key is not lowercase hexadecimal digits")
	}
	key, err := hex.DecodeString(k.Hex)
	if err != nil {
		return nil, errors.New("a codec key is not lowercase hexadecimal digits")
	}
	return key, nil
}

// ChildQueue is a queue a flow starts children on, where a worker of child stubs runs.
type ChildQueue struct {
	Queue string `json:"queue"`
}

// RunJob is one run to play.
type RunJob struct {
	Flow    int      `json:"flow"`
	ID      string   `json:"id"`
	Input   any      `json:"input"`
	Answers []Answer `json:"answers"`
}

// Jobs is the jobs file.
type Jobs struct {
	Address string     `json:"address"`
	Limits  Limits     `json:"limits"`
	Flows   []FlowJobs `json:"flows"`
	Runs    []RunJob   `json:"runs"`
}

// Problem is something a run did that it must not.
type Problem struct {
	Kind     string `json:"kind"`
	Callback string `json:"callback,omitempty"`
}

// SentCall is one call as sent: the temporal view, and the transport view of what reached Transport.
type SentCall struct {
	Temporal  any `json:"temporal"`
	Transport any `json:"transport,omitempty"`
}

// Result is what one run did (temporal_contract.ts's RunResult).
type Result struct {
	ID              string      `json:"id"`
	Calls           []*SentCall `json:"calls"`
	Ending          any         `json:"ending"`
	Query           any         `json:"query"`
	SearchAttribute any         `json:"searchAttribute"`
	Late            bool        `json:"late"`
	LateWhy         []string    `json:"lateWhy"`
	Problems        []Problem   `json:"problems"`
	Runs            int         `json:"runs"`
	Ms              float64     `json:"ms"`
	Events          int         `json:"events"`
}

// FlowLine is a flow's line on stdout: its runs' results and whether its histories replay.
type FlowLine struct {
	Flow      string   `json:"flow"`
	Results   []Result `json:"results"`
	Replay    *string  `json:"replay"`
	Histories int      `json:"histories"`
}

// FlowError is the line of a flow that could not be played.
type FlowError struct {
	Flow  string `json:"flow"`
	Error string `json:"error"`
}

// Reply is a callback's or an event's answer as the generated Answer and Send take it.
type Reply struct {
	OK      any
	Error   string
	Message string
}

// Status is what the generated Status says of a run: its cases and the events it waits for.
type Status struct {
	Cases  map[string]any
	Events []string
}

// History is one run's history with its ids, as the generated Histories gives it.
type History struct {
	WorkflowID string
	RunID      string
	History    *historypb.History
}

// NewFlow is one flow's generated package as the runner uses it, made with the key its job gives
// (its adapter's DandoriRunner, dandori_runner.go): an error for a flow that writes history encrypted
// given no key, or for a flow in clear given one.
type NewFlow func(key *CodecKey) (Flow, error)

// Flow is one flow's generated package as the runner uses it.
type Flow interface {
	TaskQueue() string
	// Client is the flow's client in options' namespace, on base's connection (nil: on one of its
	// own). A flow that writes history encrypted has the client of its package's Dial, with a codec
	// of the key it was made with, always on a connection of its own; every other method is given
	// only a client this method made.
	Client(base client.Client, options client.Options) (client.Client, error)
	// Register registers the workflow and its activities, with the stubs' Transport and own tasks and
	// every activity recorded as the workflow called it.
	Register(w worker.Worker, s *Stubs)
	Start(ctx context.Context, c client.Client, input any, id string) (client.WorkflowRun, error)
	Answer(ctx context.Context, c client.Client, workflowID, callbackID string, r Reply) (bool, error)
	Send(ctx context.Context, c client.Client, workflowID, event string, r Reply) (bool, error)
	Status(ctx context.Context, c client.Client, workflowID string) (Status, error)
	Histories(ctx context.Context, c client.Client, workflowID, firstRunID string) ([]History, error)
	Replay(histories []History) error
}

// decodeExact reads JSON keeping every number's digits (json.Number).
func decodeExact(text []byte, into any) error {
	d := json.NewDecoder(bytes.NewReader(text))
	d.UseNumber()
	return d.Decode(into)
}
