/**
 * `worker.go`: the worker of the flow's task queue `<name>_v<n>` (docs/targets.md#temporal-go).
 * `NewWorker` registers the workflow and the activities of `Activities(own, transport)`; with a
 * `Deployment`, the worker is one version of that Worker Deployment, its build id `BuildID` (the
 * hash of the code dandori wrote), and runs stay on the version they started on (PINNED).
 * `Replay` plays histories on the workflow's code, so a new build can be checked against the runs
 * in flight before it replaces the old one. For a flow that writes `history encrypted`, `NewWorker`
 * takes an `EncryptedClient` (its payloads pass the codec the client was dialled with) and `Replay`
 * takes the codec; without it, the same bytes as for any other flow.
 * @module
 */

import { goStr } from "../go/names.ts";
import { aligned, imports } from "./go_text.ts";

/** The text of `worker.go` after its package clause. */
export function workerModule(buildId: string, encrypted: boolean): string {
  return `${
    imports(encrypted ? ["errors"] : [], [
      "go.temporal.io/sdk/activity",
      encrypted ? "go.temporal.io/sdk/converter" : "go.temporal.io/sdk/client",
      "go.temporal.io/sdk/worker",
      "go.temporal.io/sdk/workflow",
    ])
  }
// BuildID is the hash of the code dandori wrote: a Worker Deployment version's build id.
const BuildID = ${goStr(buildId)}

// WorkerConfig is what a worker is given: the tasks the user writes, the transport of the tasks
// dandori writes, and a Worker Deployment's name (empty: none), whose version BuildID the worker is.
type WorkerConfig struct {
${aligned([["Own", "OwnTasks"], ["Transport", "Transport"], ["Deployment", "string"]], "\t").join("\n")}
}

// NewWorker is the worker of TaskQueue with the workflow and its activities.
func NewWorker(c ${encrypted ? "EncryptedClient" : "client.Client"}, config WorkerConfig) worker.Worker {
\toptions := worker.Options{}
\tif config.Deployment != "" {
\t\tversion := worker.WorkerDeploymentVersion{DeploymentName: config.Deployment, BuildID: BuildID}
\t\toptions.DeploymentOptions = worker.DeploymentOptions{UseVersioning: true, Version: version, DefaultVersioningBehavior: workflow.VersioningBehaviorPinned}
\t}
\tw := worker.New(${encrypted ? "c.ddClient()" : "c"}, TaskQueue, options)
\tw.RegisterWorkflowWithOptions(${
    encrypted ? "ddEncryptedWorkflow(c.ddDataConverter())" : "Workflow"
  }, workflow.RegisterOptions{Name: WorkflowType})
\tfor name, run := range Activities(config.Own, config.Transport) {
\t\tw.RegisterActivityWithOptions(run, activity.RegisterOptions{Name: name})
\t}
\treturn w
}

${encrypted ? ENCRYPTED_REPLAY : REPLAY}\treplayer.RegisterWorkflowWithOptions(${
    encrypted ? "ddEncryptedWorkflow(data)" : "Workflow"
  }, workflow.RegisterOptions{Name: WorkflowType})
\tfor _, h := range histories {
\t\texecution := worker.ReplayWorkflowHistoryOptions{OriginalExecution: workflow.Execution{ID: h.WorkflowID, RunID: h.RunID}}
\t\tif err := replayer.ReplayWorkflowHistoryWithOptions(nil, h.History, execution); err != nil {
\t\t\treturn err
\t\t}
\t}
\treturn nil
}
${encrypted ? ENCRYPTED_WORKFLOW : ""}`;
}

/** How \`Replay\` begins for a flow without \`history encrypted\`. */
const REPLAY =
  `// Replay replays every history on this workflow's code, each as the execution it is (keys, child
// ids and callback ids are made from its workflow id); the first that does not replay is the error.
func Replay(histories []RunHistory) error {
\treplayer := worker.NewWorkflowReplayer()
`;

/** How \`Replay\` begins for an encrypted flow: it reads the payloads with the codec. */
const ENCRYPTED_REPLAY =
  `// Replay replays every history on this workflow's code, each as the execution it is (keys, child
// ids and callback ids are made from its workflow id), its payloads read with codec (the flow
// writes history encrypted); the first that does not replay is the error.
func Replay(histories []RunHistory, codec converter.PayloadCodec) error {
\tif codec == nil {
\t\treturn errors.New("dandori: the flow writes history encrypted: Replay needs a payload codec")
\t}
\tdata, failures := ddEncrypted(codec)
\treplayer, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{DataConverter: data, FailureConverter: failures})
\tif err != nil {
\t\treturn err
\t}
`;

/** The workflow as an encrypted flow's worker and Replay register it. */
const ENCRYPTED_WORKFLOW = `
// ddEncryptedWorkflow is Workflow with the data converter that reads its memo dandori.cases, which
// the codec encrypts and a Go workflow is given as it is stored (ddMemoConverter, runtime.go).
func ddEncryptedWorkflow(data converter.DataConverter) func(workflow.Context, any, *ddResume) (any, error) {
\treturn func(ctx workflow.Context, input any, resume *ddResume) (any, error) {
\t\treturn Workflow(workflow.WithValue(ctx, ddMemoConverter{}, data), input, resume)
\t}
}
`;
