/**
 * `worker.py`: the worker of the flow's task queue `<name>_v<n>` (docs/targets.md#temporal-python).
 * `worker_options` gives what `Worker` takes, with the activities of
 * `make_activities`; with `deployment`, the worker is one version of that Worker Deployment, its
 * build id `BUILD_ID` (the hash of the code dandori wrote), and runs stay on the version they
 * started on (PINNED). `make_worker` makes the worker; `replay` plays histories on the workflow's
 * code, so a new build can be checked against the runs in flight before it replaces the old one.
 * @module
 */

import { str } from "../python/names.ts";

/** The text of `worker.py` after its header. */
export function workerModule(queue: string, buildId: string): string {
  return `from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from temporalio.client import Client, WorkflowHistory
from temporalio.common import VersioningBehavior, WorkerDeploymentVersion
from temporalio.converter import DataConverter
from temporalio.worker import Replayer, Worker, WorkerConfig, WorkerDeploymentConfig

from .activities import OwnTasks, make_activities
from .client import PayloadConverter, ordered
from .io import Transport
from .workflow import workflows

#: The task queue of this workflow and its version.
TASK_QUEUE = ${str(queue)}

#: The hash of the code dandori wrote: a Worker Deployment version's build id.
BUILD_ID = ${str(buildId)}


def worker_options(
    client: Client, own: OwnTasks, transport: Transport, deployment: str | None = None
) -> WorkerConfig:
    """What \`Worker\` takes for this workflow: its client is \`client\` with \`client.PayloadConverter\`.

    With \`deployment\` (a Worker Deployment's name) the worker is its version \`BUILD_ID\`, and runs
    stay on the version they started on.
    """
    options: WorkerConfig = {
        "client": ordered(client),
        "task_queue": TASK_QUEUE,
        "workflows": workflows,
        "activities": make_activities(own, transport),
    }
    if deployment is not None:
        options["deployment_config"] = WorkerDeploymentConfig(
            version=WorkerDeploymentVersion(deployment_name=deployment, build_id=BUILD_ID),
            use_worker_versioning=True,
            default_versioning_behavior=VersioningBehavior.PINNED,
        )
    return options


def make_worker(client: Client, own: OwnTasks, transport: Transport, deployment: str | None = None) -> Worker:
    """The worker of this workflow's task queue."""
    return Worker(**worker_options(client, own, transport, deployment))


async def replay(histories: Iterable[WorkflowHistory]) -> None:
    """Replays every history (as \`fetch_history\` or \`WorkflowHistory.from_json\` gives it) on this
    workflow's code; raises on the first that does not replay."""
    converter = dataclasses.replace(DataConverter.default, payload_converter_class=PayloadConverter)
    replayer = Replayer(workflows=workflows, data_converter=converter)
    for history in histories:
        await replayer.replay_workflow(history)
`;
}
