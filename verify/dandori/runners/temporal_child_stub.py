"""The child stub of the Temporal Python runner (docs/targets.md#the-runner-contract): the workflow
`temporal_runner.py` runs on each child queue of a flow, whatever the child's type (Temporal's dynamic
workflow). It asks the activity `dandori_child_stub` for its ending, which records the child as started
and answers from the parent's scenario; a declared error ends the child as the same error. As
`verify/dandori/temporal_child_stub.ts` does for the TypeScript runner.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from temporalio import workflow
from temporalio.common import RawValue, RetryPolicy
from temporalio.exceptions import ActivityError, ApplicationError

#: The activity the child asks for its ending.
CHILD_STUB_ACTIVITY = "dandori_child_stub"


@workflow.defn(dynamic=True)
class ChildStub:
    """Every child type: its ending is the stub activity's answer."""

    @workflow.run
    async def run(self, args: Sequence[RawValue]) -> Any:
        info = workflow.info()
        given = workflow.payload_converter().from_payload(args[0].payload) if len(args) > 0 else None
        call = {"child": info.workflow_type, "id": info.workflow_id, "queue": info.task_queue, "input": given}
        try:
            return await workflow.execute_activity(
                CHILD_STUB_ACTIVITY,
                call,
                start_to_close_timeout=timedelta(seconds=60),
                heartbeat_timeout=timedelta(seconds=10),
                retry_policy=RetryPolicy(maximum_attempts=1),
            )
        except ActivityError as e:
            cause = e.cause
            if isinstance(cause, ApplicationError):
                message = cause.failure.message if cause.failure is not None else cause.message
                raise ApplicationError(message, type=cause.type, non_retryable=True) from None
            raise
