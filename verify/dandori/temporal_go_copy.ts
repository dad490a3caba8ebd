/**
 * The Go code copy a Temporal Go run plays (docs/targets.md#temporal-go): the generated package with
 * what real time would make long shortened as `temporal_copy.ts` shortens the TypeScript package, to
 * the same constants — every durable timer, an event's wait, activities' and children's timeouts, the
 * heartbeat timeout and how often an activity heartbeats, parallel iterations one at a time,
 * `ddContinueAt` 1 — and the clock set to each run's scenario `now`; its heartbeat asks the runner
 * first (`dd.Beats`, which stops it for a timeout the scenario gives). Beside it the copy gets
 * `dandori_runner.go`, the adapter that gives the runner (`temporal_go_runner/`) the package as a
 * `dd.NewFlow` (an encrypted flow's with a codec of the key its job gives). Each change must find its
 * text exactly once, or the copy is not made.
 * @module
 */

import type { Plan } from "../../lang/dandori/plan.ts";
import { goMethodName } from "../../targets/dandori/go/names.ts";
import { activityTasks } from "../../targets/dandori/temporal/wire.ts";
import {
  COPY_ACTIVITY_MS,
  COPY_CHILD_MS,
  COPY_EVENT_WAIT_MS,
  COPY_HEARTBEAT_MS,
  COPY_HEARTBEAT_TIMEOUT_MS,
  COPY_TIMER_MS,
  type CopyRun,
} from "./temporal_copy.ts";

/** A duration function of runtime.go, as generated, and its body in the copy. */
function shortened(name: string, body: string): readonly [string, string, string] {
  const head = `func ${name}(seconds float64) time.Duration {\n`;
  return [
    "runtime.go",
    `${head}\treturn time.Duration(seconds * float64(time.Second))`,
    `${head}\treturn ${body}`,
  ];
}

const atMost = (ms: number) => `min(time.Duration(seconds*float64(time.Second)), ${ms}*time.Millisecond)`;

/** What the copy changes: file, text as generated, text in the copy. */
const CHANGES: readonly (readonly [string, string, string])[] = [
  shortened("ddTimer", atMost(COPY_TIMER_MS)),
  shortened("ddEventWait", atMost(COPY_EVENT_WAIT_MS)),
  shortened("ddActivityTimeout", atMost(COPY_ACTIVITY_MS)),
  shortened("ddChildTimeout", `${COPY_CHILD_MS} * time.Millisecond`),
  ["runtime.go", "func ddWidth(k int) int {\n\treturn k", "func ddWidth(k int) int {\n\treturn 1"],
  ["runtime.go", "const ddContinueAt = 10_000", "const ddContinueAt = 1"],
  [
    "runtime.go",
    "const ddHeartbeatTimeout = 30 * time.Second",
    `const ddHeartbeatTimeout = ${COPY_HEARTBEAT_TIMEOUT_MS} * time.Millisecond`,
  ],
  [
    "runtime.go",
    "func ddStartNow(ctx workflow.Context) string {\n\treturn ddTimestampText(workflow.Now(ctx).UnixMilli())",
    'func ddStartNow(ctx workflow.Context) string {\n\treturn ddNows[strings.Split(workflow.GetInfo(ctx).WorkflowExecution.ID, "/")[0]][0]',
  ],
  [
    "runtime.go",
    "func ddNow(ctx workflow.Context) string {\n\treturn ddTimestampText(workflow.Now(ctx).UnixMilli())",
    'func ddNow(ctx workflow.Context) string {\n\treturn ddNows[strings.Split(workflow.GetInfo(ctx).WorkflowExecution.ID, "/")[0]][1]',
  ],
  [
    "io.go",
    "const ddHeartbeatEvery = 10 * time.Second",
    `const ddHeartbeatEvery = ${COPY_HEARTBEAT_MS} * time.Millisecond`,
  ],
  [
    "io.go",
    "\t\t\t\tactivity.RecordHeartbeat(ctx)",
    "\t\t\t\tif dd.Beats(ctx) {\n\t\t\t\t\tactivity.RecordHeartbeat(ctx)\n\t\t\t\t}",
  ],
  ["io.go", 'import (\n\t"context"', 'import (\n\t"context"\n\n\t"dandori.invalid/verify/dd"'],
];

/**
 * The adapter of a flow's package: the package as a `dd.NewFlow`, its own tasks and Transport the
 * stubs'. An encrypted flow's (`history encrypted`) makes a codec with the key its job gives:
 * `Client` is its package's `Dial` with it (the client Dial wraps, which worker.New takes), the
 * other methods give the package that client as its `EncryptedClient` again, and `Replay` takes the codec.
 */
function adapter(pkg: string, plan: Plan, books: boolean): string {
  const encrypted = plan.workflow.historyEncrypted;
  const c = encrypted ? "f.client(c)" : "c";
  const own = activityTasks(plan).filter((t) => t.callee.kind === "own").map((t) =>
    t.callback !== null
      ? `func (o ddRunnerOwn) ${
        goMethodName(t.name)
      }(ctx context.Context, args map[string]any, call Call) error {\n\t_, err := o.s.Own(ctx)\n\treturn err\n}\n`
      : `func (o ddRunnerOwn) ${
        goMethodName(t.name)
      }(ctx context.Context, args map[string]any, call Call) (any, error) {\n\treturn o.s.Own(ctx)\n}\n`
  );
  const agent = plan.tasks.some((t) => t.callee.kind === "agent")
    ? `
func (t ddRunnerTransport) Agent(ctx context.Context, r AgentRequest) (any, error) {
\tanswer, refused, err := t.s.Agent(ctx, r.URL, r.Headers, r.Body)
\tif refused != "" {
\t\treturn nil, &AgentStopped{Reason: refused}
\t}
\treturn answer, err
}
`
    : "";
  const book = books
    ? `
func (t ddRunnerTransport) Book(ctx context.Context, call BookCall) (BookResult, error) {
\tresult, reason, err := t.s.Book(ctx, call)
\treturn BookResult{Result: result, Reason: reason}, err
}
`
    : "";
  return `// The runner's adapter of this code copy (verify/dandori/temporal_go_copy.ts).

package ${pkg}

import (
\t"context"
\t"errors"

\t"dandori.invalid/verify/dd"
\t"go.temporal.io/sdk/activity"
\t"go.temporal.io/sdk/client"
${encrypted ? '\t"go.temporal.io/sdk/converter"\n' : ""}\t"go.temporal.io/sdk/worker"
\t"go.temporal.io/sdk/workflow"
)
${encrypted ? ENCRYPTED_FLOW : PLAIN_FLOW}
type ddRunnerOwn struct{ s *dd.Stubs }

type ddRunnerTransport struct{ s *dd.Stubs }

${own.join("\n")}
func (t ddRunnerTransport) HTTP(ctx context.Context, r HTTPRequest) (HTTPResponse, error) {
\tstatus, body, err := t.s.HTTP(ctx, r.Method, r.URL, r.Headers, r.Body)
\treturn HTTPResponse{Status: status, Body: body}, err
}

func (t ddRunnerTransport) Lambda(ctx context.Context, function string, payload any) (LambdaResult, error) {
\tout, errorType, message, err := t.s.Lambda(ctx, function, payload)
\treturn LambdaResult{Payload: out, ErrorType: errorType, ErrorMessage: message}, err
}

func (t ddRunnerTransport) AWS(ctx context.Context, service, operation string, args map[string]any) (any, error) {
\tout, exception, message, err := t.s.AWS(ctx, service, operation, args)
\tif exception != "" {
\t\treturn nil, &AWSError{Name: exception, Message: message}
\t}
\treturn out, err
}
${book}${agent}
func (ddRunnerFlow) TaskQueue() string {
\treturn TaskQueue
}

func (f ddRunnerFlow) Register(w worker.Worker, s *dd.Stubs) {
\tw.RegisterWorkflowWithOptions(${
    encrypted ? "ddEncryptedWorkflow(f.data)" : "Workflow"
  }, workflow.RegisterOptions{Name: WorkflowType})
\tfor name, run := range Activities(ddRunnerOwn{s}, ddRunnerTransport{s}) {
\t\trecorded := func(ctx context.Context, args map[string]any, call Call) (any, error) {
\t\t\tctx, err := s.Record(ctx, name, args, call.Key, call.CallbackID)
\t\t\tif err != nil {
\t\t\t\treturn nil, err
\t\t\t}
\t\t\treturn run(ctx, args, call)
\t\t}
\t\tw.RegisterActivityWithOptions(recorded, activity.RegisterOptions{Name: name})
\t}
}

func (f ddRunnerFlow) Start(ctx context.Context, c client.Client, input any, id string) (client.WorkflowRun, error) {
\treturn Start(ctx, ${c}, input, StartOptions{ID: id, SearchAttributes: true})
}

func ddRunnerReply(r dd.Reply) Reply {
\treturn Reply{OK: r.OK, Error: r.Error, Message: r.Message}
}

func (f ddRunnerFlow) Answer(ctx context.Context, c client.Client, workflowID, callbackID string, r dd.Reply) (bool, error) {
\treturn Answer(ctx, ${c}, workflowID, callbackID, ddRunnerReply(r))
}

func (f ddRunnerFlow) Send(ctx context.Context, c client.Client, workflowID, event string, r dd.Reply) (bool, error) {
\treturn Send(ctx, ${c}, workflowID, event, ddRunnerReply(r))
}

func (f ddRunnerFlow) Status(ctx context.Context, c client.Client, workflowID string) (dd.Status, error) {
\twhere, err := Status(ctx, ${c}, workflowID)
\treturn dd.Status{Cases: where.Cases, Events: where.Events}, err
}

func (f ddRunnerFlow) Histories(ctx context.Context, c client.Client, workflowID, firstRunID string) ([]dd.History, error) {
\tgot, err := Histories(ctx, ${c}, workflowID, firstRunID)
\tout := []dd.History{}
\tfor _, h := range got {
\t\tout = append(out, dd.History{WorkflowID: h.WorkflowID, RunID: h.RunID, History: h.History})
\t}
\treturn out, err
}

func (f ddRunnerFlow) Replay(histories []dd.History) error {
\tin := []RunHistory{}
\tfor _, h := range histories {
\t\tin = append(in, RunHistory{WorkflowID: h.WorkflowID, RunID: h.RunID, History: h.History})
\t}
\treturn Replay(in${encrypted ? ", f.codec" : ""})
}
`;
}

/** The runner's flow of a package in clear: its clients on the runner's connection or their own. */
const PLAIN_FLOW = `
// DandoriRunner is this package as the runner plays it: a flow in clear, given no codec key.
func DandoriRunner(key *dd.CodecKey) (dd.Flow, error) {
\tif key != nil {
\t\treturn nil, errors.New("a flow in clear is given a codec key")
\t}
\treturn ddRunnerFlow{}, nil
}

type ddRunnerFlow struct{}

func (ddRunnerFlow) Client(base client.Client, options client.Options) (client.Client, error) {
\tif base == nil {
\t\treturn client.Dial(options)
\t}
\treturn client.NewClientFromExisting(base, options)
}
`;

/** The runner's flow of an encrypted package: a codec of the job's key, and every client its package's Dial. */
const ENCRYPTED_FLOW = `
// DandoriRunner is this package as the runner plays it, with a codec of the key its job gives.
func DandoriRunner(key *dd.CodecKey) (dd.Flow, error) {
\tif key == nil {
\t\treturn nil, errors.New("an encrypted flow is given no codec key")
\t}
\traw, err := key.Bytes()
\tif err != nil {
\t\treturn nil, err
\t}
\tcodec, err := NewAesGcmCodec(CodecKey{ID: key.ID, Key: raw})
\tif err != nil {
\t\treturn nil, err
\t}
\tdata, _ := ddEncrypted(codec)
\treturn ddRunnerFlow{codec: codec, data: data}, nil
}

type ddRunnerFlow struct {
\tcodec *AesGcmCodec
\tdata  converter.DataConverter
}

// Client is a client of the package's Dial, as worker.New takes it (the client Dial wraps).
func (f ddRunnerFlow) Client(_ client.Client, options client.Options) (client.Client, error) {
\tc, err := Dial(options, f.codec)
\tif err != nil {
\t\treturn nil, err
\t}
\treturn c.ddClient(), nil
}

// client is c, a client Client made, as the package's functions take it.
func (f ddRunnerFlow) client(c client.Client) EncryptedClient {
\treturn ddEncryptedClient{Client: c, data: f.data}
}
`;

/**
 * The Go copy of a flow's package `pkg` (its files as generated): the changes applied, each run's
 * clock added to runtime.go, and the adapter beside them; throws when a text is not found exactly once.
 */
export function goCopyFiles(
  pkg: string,
  plan: Plan,
  files: ReadonlyMap<string, string>,
  runs: readonly CopyRun[],
): Map<string, string> {
  const out = new Map(files);
  for (const [file, from, to] of CHANGES) {
    const text = out.get(file);
    if (text === undefined || text.split(from).length !== 2) {
      throw new Error(`the Go code copy: ${file} does not have ${JSON.stringify(from)} exactly once`);
    }
    out.set(file, text.replace(from, to));
  }
  const nows = runs.map((r) =>
    `\t${JSON.stringify(r.id)}: {${r.now.map((n) => JSON.stringify(n)).join(", ")}},\n`
  );
  out.set(
    "runtime.go",
    `${
      out.get("runtime.go")
    }\n// ddNows is the test copy's clock: each run's scenario now.\nvar ddNows = map[string][2]string{\n${
      nows.join("")
    }}\n`,
  );
  out.set("dandori_runner.go", adapter(pkg, plan, files.has("io_books.go")));
  return out;
}
