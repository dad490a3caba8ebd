/**
 * `client.go`: how a program starts the workflow and talks to it (docs/targets.md#temporal-go):
 * `Start` (an id is never used twice: `REJECT_DUPLICATE`, and a running one is an error too;
 * `SearchAttributes` writes `DandoriCases`), `Answer` (a callback's answer, by Update), `Send` (an
 * event, by Update), `Status` (the query) and `Histories` (every run of one execution, its
 * continuations included, for `Replay`). For a flow that writes `history encrypted`, each of them
 * takes an `EncryptedClient`, a `client.Client` with a method no other package can write, which
 * only `Dial(options, codec)` returns: a client whose payloads pass the codec (`codec.go`).
 * @module
 */

import { goStr } from "../go/names.ts";
import { aligned, imports } from "./go_text.ts";

/** The text of `client.go` after its package clause; without `encrypted`, the same bytes as for any other flow. */
export function clientModule(type: string, events: readonly string[], encrypted: boolean): string {
  const c = encrypted ? "EncryptedClient" : "client.Client";
  return `${
    imports(encrypted ? ["context", "errors"] : ["context"], [
      "go.temporal.io/api/enums/v1 enumspb",
      "go.temporal.io/api/history/v1 historypb",
      "go.temporal.io/sdk/client",
      ...(encrypted ? ["go.temporal.io/sdk/converter"] : []),
    ])
  }
// WorkflowType is the workflow's type: <name>_v<n>.
const WorkflowType = ${goStr(type)}

// TaskQueue is the task queue of the workflow and its version: <name>_v<n>.
const TaskQueue = ${goStr(type)}

// Events are the events the workflow may wait for (Send takes one of them).
func Events() []string {
\treturn []string{${events.map(goStr).join(", ")}}
}
${encrypted ? ENCRYPTED_CLIENT : ""}
// StartOptions is how a run is started: its workflow id (keys, child ids and callback ids are made
// from it, so it is never used twice), and whether the cases' states are written into the search
// attribute DandoriCases (it must be registered first).
type StartOptions struct {
${aligned([["ID", "string"], ["SearchAttributes", "bool"]], "\t").join("\n")}
}

// Start starts a run with its input (a WorkflowInput, or any value whose JSON is one).
func Start(ctx context.Context, c ${c}, input any, options StartOptions) (client.WorkflowRun, error) {
\tstart := client.StartWorkflowOptions{ID: options.ID, TaskQueue: TaskQueue, WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE, WorkflowExecutionErrorWhenAlreadyStarted: true, Memo: map[string]any{"dandori.cases": options.SearchAttributes}}
\treturn c.ExecuteWorkflow(ctx, start, WorkflowType, input)
}

// Reply is a callback's or an event's answer: the value OK, or, when Error is not empty, the
// declared error of that name with its message.
type Reply struct {
${aligned([["OK", "any"], ["Error", "string"], ["Message", "string"]], "\t").join("\n")}
}

// fields is the answer as the workflow reads it, beside the field that names what it answers.
func (r Reply) fields(name, value string) map[string]any {
\tif r.Error == "" {
\t\treturn map[string]any{name: value, "ok": r.OK}
\t}
\treturn map[string]any{name: value, "error": r.Error, "message": r.Message}
}

// Answer answers a callback; true when the workflow took it, an error when it refuses the id.
func Answer(ctx context.Context, c ${c}, workflowID, callbackID string, r Reply) (bool, error) {
\treturn ddUpdate(ctx, c, workflowID, "dandori.answer", r.fields("id", callbackID))
}

// Send sends an event; an error when the workflow does not wait for it.
func Send(ctx context.Context, c ${c}, workflowID, event string, r Reply) (bool, error) {
\treturn ddUpdate(ctx, c, workflowID, "dandori.event", r.fields("event", event))
}

func ddUpdate(ctx context.Context, c ${c}, workflowID, name string, arg map[string]any) (bool, error) {
\tupdate := client.UpdateWorkflowOptions{WorkflowID: workflowID, UpdateName: name, Args: []any{arg}, WaitForStage: client.WorkflowUpdateStageCompleted}
\thandle, err := c.UpdateWorkflow(ctx, update)
\tif err != nil {
\t\treturn false, err
\t}
\tvar took bool
\terr = handle.Get(ctx, &took)
\treturn took, err
}

// Status is where the run is: the line it waits at, the cases, the events it waits for.
func Status(ctx context.Context, c ${c}, workflowID string) (Where, error) {
\tvalue, err := c.QueryWorkflow(ctx, workflowID, "", "dandori.status")
\tif err != nil {
\t\treturn Where{}, err
\t}
\tvar where Where
\terr = value.Get(&where)
\treturn where, err
}

// RunHistory is one run's history, with its ids.
type RunHistory struct {
${
    aligned([["WorkflowID", "string"], ["RunID", "string"], ["History", "*historypb.History"]], "\t").join(
      "\n",
    )
  }
}

// Histories is every run of one execution from its first run on, following each Continue-As-New.
func Histories(ctx context.Context, c ${c}, workflowID, firstRunID string) ([]RunHistory, error) {
\tout := []RunHistory{}
\tfor runID := firstRunID; runID != ""; {
\t\tevents := c.GetWorkflowHistory(ctx, workflowID, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
\t\thistory := &historypb.History{}
\t\tfor events.HasNext() {
\t\t\tevent, err := events.Next()
\t\t\tif err != nil {
\t\t\t\treturn nil, err
\t\t\t}
\t\t\thistory.Events = append(history.Events, event)
\t\t}
\t\tout = append(out, RunHistory{WorkflowID: workflowID, RunID: runID, History: history})
\t\trunID = ""
\t\tif n := len(history.Events); n > 0 {
\t\t\trunID = history.Events[n-1].GetWorkflowExecutionContinuedAsNewEventAttributes().GetNewExecutionRunId()
\t\t}
\t}
\treturn out, nil
}
`;
}

/** The client of an encrypted flow, and \`Dial\`, which alone makes one. */
const ENCRYPTED_CLIENT = `
// EncryptedClient is a client whose every payload passes a payload codec (the flow writes
// \`history encrypted\`): the only client Start, Answer, Send, Status, Histories and NewWorker take,
// made only by Dial (no other package can write its unexported method).
type EncryptedClient interface {
\tclient.Client
\tddClient() client.Client
\tddDataConverter() converter.DataConverter
}

type ddEncryptedClient struct {
\tclient.Client
\tdata converter.DataConverter
}

// ddClient is the client Dial made, which worker.New takes (the SDK refuses a client another type wraps).
func (c ddEncryptedClient) ddClient() client.Client {
\treturn c.Client
}

// ddDataConverter is the client's data converter, with which its worker's workflow reads the memo.
func (c ddEncryptedClient) ddDataConverter() converter.DataConverter {
\treturn c.data
}

// Dial connects a client whose every payload passes codec (an *AesGcmCodec, or any codec of the
// same wire format) and whose failures keep their message and stack trace in encoded attributes,
// which the codec encrypts; it sets options.DataConverter and options.FailureConverter.
func Dial(options client.Options, codec converter.PayloadCodec) (EncryptedClient, error) {
\tif codec == nil {
\t\treturn nil, errors.New("dandori: the flow writes history encrypted: Dial needs a payload codec")
\t}
\toptions.DataConverter, options.FailureConverter = ddEncrypted(codec)
\tc, err := client.Dial(options)
\tif err != nil {
\t\treturn nil, err
\t}
\treturn ddEncryptedClient{Client: c, data: options.DataConverter}, nil
}
`;
