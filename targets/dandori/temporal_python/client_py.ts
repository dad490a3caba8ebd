/**
 * `client.py`: how a program starts the workflow and talks to it (docs/targets.md#temporal-python):
 * `start` (an id is never used twice, `REJECT_DUPLICATE`; `search_attributes=True` writes
 * `DandoriCases`), `answer` (a callback's answer, by Update), `send` (an event, by Update),
 * `status` (the query) and `histories` (every run of one execution, its continuations included,
 * for `replay`). The wire names are the TypeScript package's, and so are the payloads: every
 * function here, and `worker.make_worker`, use the client given with `PayloadConverter` (`ordered`),
 * which writes JSON with its keys in their order and None as JSON's null, as TypeScript's SDK does
 * (Python's own sorts the keys, so a record written into a string would read otherwise, and writes
 * None as `binary/null`, which TypeScript's SDK reads as `undefined`).
 * @module
 */

import { str } from "../python/names.ts";
import { tuple } from "../python/code.ts";

/** The text of `client.py` after its header. */
export function clientModule(type: string, queue: string, events: readonly string[]): string {
  const names = events.map(str);
  return `from __future__ import annotations

import dataclasses
import json
import typing

from google.protobuf.message import Message
from temporalio.api.common.v1 import Payload
from temporalio.client import Client, WorkflowHandle, WorkflowHistory
from temporalio.common import WorkflowIDReusePolicy
from temporalio.converter import (
    AdvancedJSONEncoder,
    CompositePayloadConverter,
    DefaultPayloadConverter,
    EncodingPayloadConverter,
    JSONPlainPayloadConverter,
)

from . import types as T
from .runtime import Status

#: The workflow type and its task queue: \`<name>_v<n>\`.
WORKFLOW_TYPE = ${str(type)}
TASK_QUEUE = ${str(queue)}

#: The events the workflow may wait for (\`send\` takes one of them).
EVENTS: tuple[str, ...] = ${tuple(names)}
EventName = ${names.length === 0 ? "typing.Never" : `typing.Literal[${names.join(", ")}]`}


class _JsonInOrder(JSONPlainPayloadConverter):
    """JSON as TypeScript's SDK writes it: keys in their order, None as \`null\`; bytes and protobuf
    messages are left to the SDK's own converters."""

    def to_payload(self, value: typing.Any) -> Payload | None:
        if isinstance(value, (bytes, Message)):
            return None
        data = json.dumps(value, cls=AdvancedJSONEncoder, separators=(",", ":"))
        return Payload(metadata={"encoding": self.encoding.encode()}, data=data.encode())


class PayloadConverter(CompositePayloadConverter):
    """The SDK's default converters, with JSON written in order before any of them."""

    def __init__(self) -> None:
        others: list[EncodingPayloadConverter] = [
            c
            for c in DefaultPayloadConverter.default_encoding_payload_converters
            if not isinstance(c, JSONPlainPayloadConverter)
        ]
        super().__init__(_JsonInOrder(), *others)


def ordered(client: Client) -> Client:
    """\`client\` with \`PayloadConverter\` for its payloads, its codec and all else as they were."""
    config = client.config()
    config["data_converter"] = dataclasses.replace(
        config["data_converter"], payload_converter_class=PayloadConverter
    )
    return Client(**config)


async def start(
    client: Client, input: T.WorkflowInput, *, id: str, search_attributes: bool = False
) -> WorkflowHandle[typing.Any, typing.Any]:
    """Starts a run; its handle.

    \`id\` is the workflow id: keys, child ids and callback ids are made from it, so it is never used
    twice. \`search_attributes\` writes the cases' states into \`DandoriCases\` (register it first).
    """
    return await ordered(client).start_workflow(
        WORKFLOW_TYPE,
        input,
        id=id,
        task_queue=TASK_QUEUE,
        id_reuse_policy=WorkflowIDReusePolicy.REJECT_DUPLICATE,
        memo={"dandori.cases": search_attributes},
    )


async def answer(client: Client, workflow_id: str, callback_id: str, a: dict[str, typing.Any]) -> bool:
    """Answers a callback (\`{"ok": value}\` or \`{"error": name, "message": text}\`).

    True when the workflow took it; raises when it refuses the id.
    """
    took: bool = await ordered(client).get_workflow_handle(workflow_id).execute_update(
        "dandori.answer", {"id": callback_id, **a}, result_type=bool
    )
    return took


async def send(client: Client, workflow_id: str, event: EventName, a: dict[str, typing.Any]) -> bool:
    """Sends an event (\`{"ok": value}\` or \`{"error": name, "message": text}\`); raises when the
    workflow does not wait for it."""
    took: bool = await ordered(client).get_workflow_handle(workflow_id).execute_update(
        "dandori.event", {"event": event, **a}, result_type=bool
    )
    return took


async def status(client: Client, workflow_id: str) -> Status:
    """Where the run is: the line it waits at, the cases, the events it waits for."""
    got: Status = await ordered(client).get_workflow_handle(workflow_id).query("dandori.status")
    return got


async def histories(client: Client, workflow_id: str, first_run_id: str) -> list[WorkflowHistory]:
    """Every run of one execution from its first run on, following each Continue-As-New."""
    out: list[WorkflowHistory] = []
    run_id: str | None = first_run_id
    while run_id is not None:
        history = await client.get_workflow_handle(workflow_id, run_id=run_id).fetch_history()
        out.append(history)
        last = history.events[-1] if len(history.events) > 0 else None
        continued = last is not None and last.HasField("workflow_execution_continued_as_new_event_attributes")
        run_id = (
            last.workflow_execution_continued_as_new_event_attributes.new_execution_run_id or None
            if continued and last is not None
            else None
        )
    return out
`;
}
