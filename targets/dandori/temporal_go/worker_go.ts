/**
 * `worker.go`: the worker of the flow's task queue `<name>_v<n>` (docs/targets.md#temporal-go).
 * `NewWorker` registers the workflow and the activities of `Activities(own, transport)`; with a
 * `Deployment`, the worker is one version of that Worker Deployment, its build id `BuildID` (the
 * hash of the code dandori wrote), and runs stay on the version they started on (PINNED).
 * `Replay` plays histories on the workflow's code, so a new build can be checked against the runs
 * in flight before it replaces the old one.
 * @module
 */

import { goStr } from "../go/names.ts";
import { aligned, imports } from "./go_text.ts";

/** The text of `worker.go` after its package clause. */
export function workerModule(buildId: string): string {
  return `${
    imports([], [
      "go.temporal.io/sdk/activity",
      "go.temporal.io/sdk/client",
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
func NewWorker(c client.Client, config WorkerConfig) worker.Worker {
\toptions := worker.Options{}
\tif config.Deployment != "" {
\t\tversion := worker.WorkerDeploymentVersion{DeploymentName: config.Deployment, BuildID: BuildID}
\t\toptions.DeploymentOptions = worker.DeploymentOptions{UseVersioning: true, Version: version, DefaultVersioningBehavior: workflow.VersioningBehaviorPinned}
\t}
\tw := worker.New(c, TaskQueue, options)
\tw.RegisterWorkflowWithOptions(Workflow, workflow.RegisterOptions{Name: WorkflowType})
\tfor name, run := range Activities(config.Own, config.Transport) {
\t\tw.RegisterActivityWithOptions(run, activity.RegisterOptions{Name: name})
\t}
\treturn w
}

// Replay replays every history on this workflow's code, each as the execution it is (keys, child
// ids and callback ids are made from its workflow id); the first that does not replay is the error.
func Replay(histories []RunHistory) error {
\treplayer := worker.NewWorkflowReplayer()
\treplayer.RegisterWorkflowWithOptions(Workflow, workflow.RegisterOptions{Name: WorkflowType})
\tfor _, h := range histories {
\t\texecution := worker.ReplayWorkflowHistoryOptions{OriginalExecution: workflow.Execution{ID: h.WorkflowID, RunID: h.RunID}}
\t\tif err := replayer.ReplayWorkflowHistoryWithOptions(nil, h.History, execution); err != nil {
\t\t\treturn err
\t\t}
\t}
\treturn nil
}
`;
}
