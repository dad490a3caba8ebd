/**
 * `worker.py`: the worker of the flow's task queue `<name>_v<n>` (docs/targets.md#temporal-python).
 * `worker_options` gives what `Worker` takes, with the activities of
 * `make_activities`; with `deployment`, the worker is one version of that Worker Deployment, its
 * build id `BUILD_ID` (the hash of the code dandori wrote), and runs stay on the version they
 * started on (PINNED). `make_worker` makes the worker; `replay` plays histories on the workflow's
 * code (one replayer for all of them), so a new build can be checked against the runs in flight
 * before it replaces the old one. Both run the workflow in `SANDBOX`: the SDK's sandbox, with the
 * package's `runtime`, `rules` and `types` passed through (imported once, not again for every run).
 * With both, the Python runner of `deno task verify temporal-python` took 28 % less CPU
 * (docs/targets.md#temporal-python).
 * @module
 */

import { str } from "../python/names.ts";

/**
 * The text of `worker.py` after its header. With `encrypted` (the flow writes `history encrypted`),
 * `worker_options` and `make_worker` take `client.EncryptedClient` (whose data converter passes
 * every payload through the codec) and `replay` takes the codec; without it, the same bytes as for
 * any other flow.
 */
export function workerModule(queue: string, buildId: string, encrypted: boolean): string {
  const client = encrypted ? "EncryptedClient" : "Client";
  return `from __future__ import annotations

${encrypted ? "" : "import dataclasses\n"}from collections.abc import AsyncIterator, Iterable

from temporalio.client import ${encrypted ? "" : "Client, "}WorkflowHistory
from temporalio.common import VersioningBehavior, WorkerDeploymentVersion
from temporalio.converter import ${encrypted ? "PayloadCodec" : "DataConverter"}
from temporalio.worker import Replayer, Worker, WorkerConfig, WorkerDeploymentConfig
from temporalio.worker.workflow_sandbox import (
    SandboxedWorkflowRunner,
    SandboxRestrictions,
)

from .activities import OwnTasks, make_activities
from .client import ${encrypted ? "EncryptedClient, data_converter, ordered" : "PayloadConverter, ordered"}
from .io import Transport
from .workflow import workflows

#: The task queue of this workflow and its version.
TASK_QUEUE = ${str(queue)}

#: The hash of the code dandori wrote: a Worker Deployment version's build id.
BUILD_ID = ${str(buildId)}

#: The sandbox the workflow runs in. It imports this package's \`runtime\`, \`rules\` and \`types\`
#: once, beside the SDK, not again for every run: they hold no state and read no clock but the
#: workflow's.
SANDBOX = SandboxedWorkflowRunner(
    restrictions=SandboxRestrictions.default.with_passthrough_modules(
        f"{__package__}.runtime", f"{__package__}.rules", f"{__package__}.types"
    )
)


def worker_options(
    client: ${client}, own: OwnTasks, transport: Transport, deployment: str | None = None
) -> WorkerConfig:
    """What \`Worker\` takes for this workflow: its client is \`client\` with \`client.PayloadConverter\`.

    With \`deployment\` (a Worker Deployment's name) the worker is its version \`BUILD_ID\`, and runs
    stay on the version they started on.
    """
    options: WorkerConfig = {
        "client": ordered(client),
        "task_queue": TASK_QUEUE,
        "workflows": workflows,
        "workflow_runner": SANDBOX,
        "activities": make_activities(own, transport),
    }
    if deployment is not None:
        options["deployment_config"] = WorkerDeploymentConfig(
            version=WorkerDeploymentVersion(deployment_name=deployment, build_id=BUILD_ID),
            use_worker_versioning=True,
            default_versioning_behavior=VersioningBehavior.PINNED,
        )
    return options


def make_worker(client: ${client}, own: OwnTasks, transport: Transport, deployment: str | None = None) -> Worker:
    """The worker of this workflow's task queue."""
    return Worker(**worker_options(client, own, transport, deployment))


${encrypted ? ENCRYPTED_REPLAY : REPLAY}
    async def each() -> AsyncIterator[WorkflowHistory]:
        for history in histories:
            yield history

    await replayer.replay_workflows(each())
`;
}

const REPLAY = `async def replay(histories: Iterable[WorkflowHistory]) -> None:
    """Replays every history (as \`fetch_history\` or \`WorkflowHistory.from_json\` gives it) on this
    workflow's code; raises on the first that does not replay."""
    converter = dataclasses.replace(DataConverter.default, payload_converter_class=PayloadConverter)
    replayer = Replayer(workflows=workflows, workflow_runner=SANDBOX, data_converter=converter)
`;

const ENCRYPTED_REPLAY = `async def replay(histories: Iterable[WorkflowHistory], codec: PayloadCodec) -> None:
    """Replays every history (as \`fetch_history\` or \`WorkflowHistory.from_json\` gives it) on this
    workflow's code, its payloads read through \`codec\`; raises on the first that does not replay."""
    replayer = Replayer(workflows=workflows, workflow_runner=SANDBOX, data_converter=data_converter(codec))
`;
