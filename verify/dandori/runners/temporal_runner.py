"""The Temporal Python runner (docs/targets.md#the-runner-contract): one process for every flow of a
jobs file (`verify/dandori/temporal_contract.ts` says what it is given and prints), started by
`verify/dandori/temporal_play.ts` for `deno task verify temporal-python`.

    python3 temporal_runner.py <jobs.json>

One client connection for every flow; per flow, its code copy imported as a package of its own (a link
`dd_flow_<n>` to the copy in a temp dir on `sys.path`), its generated worker (`worker_options`, with only
`Transport` and the user's tasks swapped for stubs that record what is sent and answer from the
scenario; an interceptor records each activity as the workflow called it and stops a timed-out stub's
heartbeats) in the flow's namespace, and a worker of the child stub (`temporal_child_stub.py`) per child
queue. The runs of all flows share `limits.atOnce` lanes, in the order given; each is started with the
generated `start` (search attributes on), its callbacks answered through the generated `answer` (a
repeat and an unknown id must be refused), its events sent through `send` when `status` says they are
awaited, its cancels asked of the server. When a flow's last run ends, its workers stop, its histories
replay on the generated `replay`, and its line is printed. A flow that writes `history encrypted` gets its
package's own codec (`codec.py`) with the key the harness gives (`codecKey`): its worker, its client and
its `replay` take it.
A flow given a `part` other than `"whole"` is played by half here (its workflow alone, or its
activities, child stubs and answers alone until stdin is closed), the other half by another runner on
the same server and namespace.
What `temporal_runner.ts` does for TypeScript.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import importlib
import json
import logging
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import timedelta
from types import ModuleType
from typing import Any

from temporal_child_stub import CHILD_STUB_ACTIVITY, ChildStub
from temporalio import activity
from temporalio.client import Client, WorkflowFailureError, WorkflowHistory
from temporalio.common import SearchAttributeKey
from temporalio.exceptions import ApplicationError, CancelledError
from temporalio.runtime import (
    LogForwardingConfig,
    LoggingConfig,
    Runtime,
    TelemetryConfig,
    TelemetryFilter,
)
from temporalio.worker import (
    ActivityInboundInterceptor,
    ActivityOutboundInterceptor,
    ExecuteActivityInput,
    Interceptor,
    Worker,
)

#: The search attribute of the cases' states, as the generated `runtime.py` writes it.
DANDORI_CASES = SearchAttributeKey.for_keyword_list("DandoriCases")

#: The recording of the activity this task runs in (its stubs mute its heartbeats through it).
_current: contextvars.ContextVar[_Recording] = contextvars.ContextVar("dandori_recording")


def compact(value: Any) -> str:
    """JSON as `JSON.stringify` writes it: keys in order, no spaces."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@dataclass
class RunState:
    """One run's answers, what it sent, and what went wrong."""

    answers: list[dict[str, Any]]
    next: int = 0
    calls: list[dict[str, Any]] = field(default_factory=list)
    problems: list[dict[str, str]] = field(default_factory=list)
    #: The timeouts the server must make: activities that stop heartbeating, children that do not end.
    timeouts_given: int = 0
    late: bool = False
    late_why: list[str] = field(default_factory=list)
    unknown_tried: bool = False
    unknown_event_tried: bool = False
    #: Set when the run has ended: what a stub the scenario times out waits for.
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    #: The current activity's answer and its callback's id.
    current: tuple[dict[str, Any], str | None] | None = None

    def take(self) -> dict[str, Any]:
        if self.next >= len(self.answers):
            raise RuntimeError("the scenario has no answer left for this call")
        a = self.answers[self.next]
        self.next += 1
        return a


def is_timeout(a: dict[str, Any]) -> bool:
    return a.get("error") == "timeout"


def cause(a: dict[str, Any]) -> str:
    return str(a.get("cause") or "") if "error" in a else ""


def failure(message: str) -> ApplicationError:
    """A failure that is no declared error, with the scenario's cause as its message."""
    return ApplicationError(message, type="Error", non_retryable=True)


def key_bytes(hex_digits: str) -> bytes:
    """A codec key's bytes from its lowercase hexadecimal digits (`CodecKeyJson.hex`); raises on any other text."""
    if re.fullmatch(r"(?:[0-9a-f]{2})*", hex_digits) is None:
        raise RuntimeError("a codec key is not lowercase hexadecimal digits")
    return bytes.fromhex(hex_digits)


def answer_value(a: dict[str, Any]) -> dict[str, Any]:
    """What `answer` and `send` are given for a scenario's answer."""
    return {"ok": a["ok"]} if "ok" in a else {"error": a["error"], "message": cause(a)}


class _Muted(ActivityOutboundInterceptor):
    """An activity's heartbeats, dropped once its stub times it out."""

    def __init__(self, next: ActivityOutboundInterceptor, owner: _Recording) -> None:
        super().__init__(next)
        self._owner = owner

    def heartbeat(self, *details: Any) -> None:
        if not self._owner.muted:
            super().heartbeat(*details)


class _Recording(ActivityInboundInterceptor):
    """Records each activity as the workflow called it (the `temporal` view), then runs it as generated."""

    def __init__(self, next: ActivityInboundInterceptor, play: FlowPlay) -> None:
        super().__init__(next)
        self._play = play
        self.muted = False

    def init(self, outbound: ActivityOutboundInterceptor) -> None:
        super().init(_Muted(outbound, self))

    async def execute_activity(self, input: ExecuteActivityInput) -> Any:
        info = activity.info()
        s = self._play.state(info.workflow_id)
        a = s.take()
        args = input.args[0] if len(input.args) > 0 else None
        call = input.args[1] if len(input.args) > 1 and isinstance(input.args[1], dict) else {}
        temporal: dict[str, Any] = {"activity": info.activity_type, "args": args}
        if "key" in call:
            temporal["key"] = call["key"]
        if "callback_id" in call:
            temporal["callback_id"] = call["callback_id"]
        s.calls.append({"temporal": temporal})
        s.current = (a, call.get("callback_id"))
        _current.set(self)
        return await super().execute_activity(input)


class _Interceptor(Interceptor):
    def __init__(self, play: FlowPlay) -> None:
        self._play = play

    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        return _Recording(next, self._play)


class Stubs:
    """The stubs of one flow's worker: `Transport`, the user's tasks, the child stub's activity."""

    def __init__(self, play: FlowPlay) -> None:
        self._play = play

    def _state(self) -> RunState:
        return self._play.state(activity.info().workflow_id)

    def _wire(self, error: str) -> str | None:
        info = self._play.job["tasks"].get(activity.info().activity_type)
        return None if info is None else info["wires"].get(error)

    async def _block(self, s: RunState) -> Any:
        """Blocks a timed-out activity without heartbeats until its run has ended, so the server times it out."""
        s.timeouts_given += 1
        _current.get().muted = True
        await s.ended.wait()
        raise RuntimeError("the stub blocked until its run ended")

    async def _cancel_here(self, workflow_id: str) -> Any:
        """Asks the server to cancel the run, then waits until this activity is cancelled."""
        await self._play.client.get_workflow_handle(workflow_id.split("/")[0]).cancel()
        await activity.wait_for_cancelled()
        raise CancelledError("cancelled")

    async def _answer_callback(self, s: RunState, id: str, a: dict[str, Any]) -> None:
        """The answer of a callback through the generated `answer`: a repeat and an unknown id must be refused."""
        answer = self._play.client_py.answer
        client = self._play.client
        workflow_id = json.loads(id)["workflow"]
        value = answer_value(a)

        async def took(callback: str) -> str | None:
            try:
                await answer(client, workflow_id, callback, value)
                return None
            except Exception as e:
                return f"{type(e).__name__}: {e}"

        if not s.unknown_tried:
            s.unknown_tried = True
            unknown = compact({"workflow": workflow_id, "call": "s0/0"})
            if await took(unknown) is None:
                s.problems.append({"kind": "unknown callback taken", "callback": unknown})
        refused = await took(id)
        if refused is not None:
            s.late_why.append(f"the answer to {id} was refused: {refused}")
            s.late = True
            return
        if await took(id) is None:
            s.problems.append({"kind": "second answer taken", "callback": id})

    async def _before(self, s: RunState) -> dict[str, Any] | None:
        """What a stub does with the current answer before it answers: block, cancel, or hand a callback on."""
        if s.current is None:
            raise RuntimeError("a stub was called outside an activity")
        a, callback = s.current
        if "cancel" in a:
            return await self._cancel_here(activity.info().workflow_id)
        if callback is not None:
            if not is_timeout(a):
                await self._answer_callback(s, callback, a)
            return None
        if is_timeout(a):
            return await self._block(s)
        return a

    # The stub `Transport`: records what is sent, in the `transport` view's shape, and answers.

    async def http(self, request: Any) -> Any:
        io = self._play.io
        s = self._state()
        sent: dict[str, Any] = {"method": request.method, "url": request.url, "headers": request.headers}
        if request.body is not None:
            is_json = request.headers.get("Content-Type") == "application/json"
            sent["body"] = json.loads(request.body) if is_json else request.body
        s.calls[-1]["transport"] = {"http": sent}
        a = await self._before(s)
        if a is None:
            return io.HttpResponse(200, "")
        if "error" not in a:
            return io.HttpResponse(200, "" if a["ok"] is None else compact(a["ok"]))
        wire = self._wire(a["error"])
        return io.HttpResponse(500 if wire is None else int(wire), cause(a))

    async def lambda_(self, function: str, payload: Any) -> Any:
        io = self._play.io
        s = self._state()
        s.calls[-1]["transport"] = {"lambda": function, "payload": payload}
        a = await self._before(s)
        if a is None:
            return io.LambdaPayload(None)
        if "error" not in a:
            return io.LambdaPayload(a["ok"])
        return io.LambdaError(self._wire(a["error"]) or "Error", cause(a))

    async def aws(self, service: str, operation: str, args: dict[str, Any]) -> Any:
        s = self._state()
        s.calls[-1]["transport"] = {"aws": f"{service}:{operation}", "args": args}
        a = await self._before(s)
        if a is None:
            return {}
        if "error" not in a:
            return a["ok"]
        raise self._play.io.AwsError(self._wire(a["error"]) or "InternalFailure", cause(a))

    async def book(self, call: Any) -> Any:
        s = self._state()
        s.calls[-1]["transport"] = call
        a = await self._before(s)
        if a is None:
            return {"result": "done"}
        if "error" not in a:
            return a["ok"]
        if a["error"] == "failure":
            raise failure(cause(a))
        return {"result": "refused", "reason": a["error"]}

    async def agent(self, request: Any) -> Any:
        """An agent's request as sent; the answer wrapped in `{"answer": …}`, a failure raised as a refusal is."""
        s = self._state()
        s.calls[-1]["transport"] = {"agent": {"url": request.url, "headers": request.headers, "body": request.body}}
        a = await self._before(s)
        if a is None:
            raise RuntimeError("an agent's call has no callback")
        if "error" not in a:
            return {"answer": a["ok"]}
        raise RuntimeError(cause(a))

    async def own(self, args: Any, call: Any) -> Any:
        """Every user's task: answers from the scenario."""
        s = self._state()
        a = await self._before(s)
        if a is None:
            return None
        if "error" not in a:
            return a["ok"]
        if a["error"] == "failure":
            raise failure(cause(a))
        raise ApplicationError(cause(a), type=a["error"], non_retryable=True)

    async def child_stub(self, c: dict[str, Any]) -> Any:
        """The child stub's activity: records the child as started, and answers from the scenario."""
        s = self._play.state(c["id"])
        a = s.take()
        s.calls.append({"temporal": {"child": c["child"], "id": c["id"], "queue": c["queue"], "input": c["input"]}})
        every = self._play.limits["heartbeatMs"] / 1000

        async def beat() -> None:
            while True:
                activity.heartbeat()
                await asyncio.sleep(every)

        beats = asyncio.create_task(beat())
        try:
            if "cancel" in a:
                return await self._cancel_here(c["id"])
            if "error" not in a:
                return a["ok"]
            if is_timeout(a):
                s.timeouts_given += 1
                await activity.wait_for_cancelled()
                raise CancelledError("cancelled")
            if a["error"] == "failure":
                raise failure(cause(a))
            raise ApplicationError(cause(a), type=a["error"], non_retryable=True)
        finally:
            beats.cancel()

    async def events(self, id: str, done: asyncio.Event) -> None:
        """Sends each event the run waits for, as `status` says, with the scenario's next answer."""
        play = self._play
        client, generated = play.client, play.client_py
        s = play.state(id)
        handled: str | None = None
        while not done.is_set():
            await asyncio.sleep(play.limits["eventPollMs"] / 1000)
            try:
                st = await generated.status(client, id)
            except Exception:
                continue
            if handled is not None:
                if handled not in st["events"]:
                    handled = None
                continue
            if len(st["events"]) == 0:
                continue
            name = st["events"][0]
            a = s.take()
            s.calls.append({"temporal": {"event": name}, "transport": {"event": name}})
            handled = name
            if "cancel" in a:
                await client.get_workflow_handle(id).cancel()
                continue
            if is_timeout(a):
                continue
            value = answer_value(a)
            if not s.unknown_event_tried:
                s.unknown_event_tried = True
                try:
                    await generated.send(client, id, "dandori.not-awaited", value)
                    s.problems.append({"kind": "event not awaited taken"})
                except Exception:
                    pass
            try:
                await generated.send(client, id, name, value)
            except Exception as e:
                s.late_why.append(f"the event {name} was refused: {type(e).__name__}: {e}")
                s.late = True


class _Own:
    """The user's tasks: every name is the stub that answers from the scenario."""

    def __init__(self, stubs: Stubs) -> None:
        self._stubs = stubs

    def __getattr__(self, name: str) -> Any:
        return self._stubs.own


class FlowPlay:
    """One flow in this process: its client, generated modules, workers, the state of its runs, what they did."""

    def __init__(self, job: dict[str, Any], runs: list[dict[str, Any]], client: Client, limits: dict[str, Any]) -> None:
        self.job = job
        self.limits = limits
        self.client = Client(client.service_client, namespace=job["namespace"])
        self.states = {r["id"]: RunState(list(r["answers"])) for r in runs}
        self.results: list[dict[str, Any]] = []
        self.histories: list[WorkflowHistory] = []
        self.left = len(runs)
        self.stubs = Stubs(self)
        self.workers: list[Worker] = []
        self.running: asyncio.Future[Any] | None = None
        self.worker_py: ModuleType | None = None
        self.client_py: Any = None
        self.io: Any = None
        #: An encrypted flow's codec (its package's `codec.AesGcmCodec`), None for any other flow.
        self.codec: Any = None
        #: What of the flow this runner plays (`temporal_contract.ts`'s `FlowPart`).
        self.part: str = job.get("part", "whole")
        #: Runs whose end is watched here: the runner of activities alone starts none of its runs.
        self.watched: dict[str, asyncio.Task[None]] = {}

    def state(self, workflow_id: str) -> RunState:
        id = workflow_id.split("/")[0]
        s = self.states.get(id)
        if s is None:
            raise RuntimeError(f"{self.job['flow']}: no run for {workflow_id}")
        if self.part == "activities" and id not in self.watched:
            # An activity of the run is running, so the run exists: its end (continuations followed) ends a block.
            self.watched[id] = asyncio.create_task(self._watch(id, s))
        return s

    async def _watch(self, id: str, s: RunState) -> None:
        # However the run ended (a failure raises), it has ended.
        with contextlib.suppress(Exception):
            await self.client.get_workflow_handle(id).result()
        s.ended.set()

    def start(self, package: str) -> None:
        """Imports the code copy and starts its workers."""
        self.worker_py = importlib.import_module(f"{package}.worker")
        self.client_py = importlib.import_module(f"{package}.client")
        self.io = importlib.import_module(f"{package}.io")
        if self.job.get("encrypted"):
            # The package's own codec with the harness's key: its worker, client and `replay` take it.
            # The child stub's workers read payloads in clear: no encrypted test flow calls a child.
            if self.job["children"]:
                raise RuntimeError("an encrypted flow's children are not played")
            given = self.job["codecKey"]
            if given is None:
                raise RuntimeError("an encrypted flow is given no codec key")
            codec_py = importlib.import_module(f"{package}.codec")
            self.codec = codec_py.AesGcmCodec(codec_py.CodecKey(given["id"], key_bytes(given["hex"])))
            self.client = Client(
                self.client.service_client,
                namespace=self.job["namespace"],
                data_converter=self.client_py.data_converter(self.codec),
            )
        elif self.job["codecKey"] is not None:
            raise RuntimeError("a flow in clear is given a codec key")
        heartbeat = timedelta(milliseconds=self.limits["heartbeatMs"])
        options = self.worker_py.worker_options(self.client, _Own(self.stubs), self.stubs)
        # A worker without activities polls no activity task, one without workflows no workflow task
        # (and a flow whose tasks are all children has no activities to run).
        if self.part == "workflow":
            options["activities"] = []
        if self.part == "activities":
            options["workflows"] = []
        if self.part != "activities" or len(options["activities"]) > 0:
            self.workers.append(
                Worker(**options, interceptors=[_Interceptor(self)], max_heartbeat_throttle_interval=heartbeat)
            )
        stubs = self.stubs

        @activity.defn(name=CHILD_STUB_ACTIVITY)
        async def child_stub(c: dict[str, Any]) -> Any:
            return await stubs.child_stub(c)

        for c in [] if self.part == "workflow" else self.job["children"]:
            self.workers.append(
                Worker(
                    self.client_py.ordered(self.client),
                    task_queue=c["queue"],
                    workflows=[ChildStub],
                    activities=[child_stub],
                    max_heartbeat_throttle_interval=heartbeat,
                )
            )
        self.running = asyncio.ensure_future(asyncio.gather(*(w.run() for w in self.workers)))

    async def finish(self) -> dict[str, Any]:
        """Stops the workers; a whole flow's or its workflow's: replays every history on the generated `replay`,
        writes them when asked; the flow's line. Its activities' line holds each run's calls."""
        if self.part == "activities":
            for s in self.states.values():
                s.ended.set()
        await asyncio.gather(*(w.shutdown() for w in self.workers))
        if self.part == "activities":
            return {"flow": self.job["flow"], "results": self.activities_results(), "replay": None, "histories": 0}
        replay: str | None = None
        try:
            assert self.worker_py is not None
            if self.codec is None:
                await self.worker_py.replay(self.histories)
            else:
                await self.worker_py.replay(self.histories, self.codec)
        except Exception as e:
            replay = f"{type(e).__name__}: {e}"
        if self.job["historiesFile"] is not None:
            with open(self.job["historiesFile"], "w", encoding="utf-8") as f:
                json.dump([{"workflowId": h.workflow_id, "history": json.loads(h.to_json())} for h in self.histories], f)
        return {"flow": self.job["flow"], "results": self.results, "replay": replay, "histories": len(self.histories)}

    def activities_results(self) -> list[dict[str, Any]]:
        """What the stubs saw of each run, once every run has ended: its calls, whether it was late, its problems."""
        out: list[dict[str, Any]] = []
        for id, s in self.states.items():
            if s.next != len(s.answers):
                s.late_why.append(f"it ended with {len(s.answers) - s.next} answers not given")
                s.late = True
            out.append(
                {
                    **failed_run(self, {"id": id}, RuntimeError()),
                    "ending": None,
                }
            )
        return out


def ending_of(result: Any, error: BaseException | None) -> Any:
    """A run's ending as `endingJson` writes it, or `{error}`/`{failed}` for what no flow ends with."""
    if error is None:
        return {"succeed": result}
    if isinstance(error, WorkflowFailureError):
        c = error.cause
        if isinstance(c, CancelledError):
            return {"cancelled": True}
        if isinstance(c, ApplicationError):
            message = c.failure.message if c.failure is not None else c.message
            details = c.details
            reason = details[0] if len(details) > 0 and details[0] is not None else (None if message == "" else message)
            return {"fail": {"error": c.type, "reason": reason}}
        return {"failed": f"{type(c).__name__}: {c}"}
    return {"error": f"{type(error).__name__}: {error}"}


def count_events(histories: list[WorkflowHistory], attributes: str) -> int:
    """How many events with `attributes` (such as `activity_task_timed_out_event_attributes`) the histories hold."""
    return sum(1 for h in histories for e in h.events if e.HasField(attributes))


def failed_run(play: FlowPlay, run: dict[str, Any], e: BaseException) -> dict[str, Any]:
    """A run the runner could not play to its end: its ending says why."""
    s = play.state(run["id"])
    return {
        "id": run["id"],
        "calls": s.calls,
        "ending": {"error": f"{type(e).__name__}: {e}"},
        "query": None,
        "searchAttribute": None,
        "late": s.late,
        "lateWhy": s.late_why,
        "problems": s.problems,
        "runs": 0,
        "ms": 0,
        "events": 0,
    }


async def play_run(play: FlowPlay, run: dict[str, Any]) -> dict[str, Any]:
    """Plays one run of `play` to its ending; what it did."""
    client, generated, limits = play.client, play.client_py, play.limits
    s = play.state(run["id"])
    started = time.monotonic()
    handle = await generated.start(client, run["input"], id=run["id"], search_attributes=True)
    done = asyncio.Event()
    watching = asyncio.create_task(play.stubs.events(run["id"], done)) if play.job["events"] else None
    result_task = asyncio.ensure_future(handle.result())
    assert play.running is not None
    finished, _ = await asyncio.wait(
        {result_task, play.running}, timeout=limits["runMs"] / 1000, return_when=asyncio.FIRST_COMPLETED
    )
    done.set()
    ended = time.monotonic()
    if watching is not None:
        await watching
    if result_task not in finished:
        result_task.cancel()
        if play.running in finished:
            raise RuntimeError(f"its worker stopped: {play.running.exception()}")
        try:
            await handle.terminate("the run took longer than its limit")
        except Exception:
            pass
        return {
            **failed_run(play, run, RuntimeError()),
            "ending": {"error": f"did not end within {limits['runMs'] / 1000} s"},
            "late": True,
            "lateWhy": [*s.late_why, "it took longer than its limit"],
            "ms": (time.monotonic() - started) * 1000,
        }
    error = result_task.exception()
    result = None if error is not None else result_task.result()
    try:
        query = (await generated.status(client, run["id"]))["cases"]
    except Exception as e:
        # The query of an ended run is answered by its worker replaying it: on a busy machine the RPC
        # can time out first (once in 1,002 runs at a load of 17), which is late, not wrong.
        query = {"error": f"{type(e).__name__}: {e}"}
        s.late_why.append(f"the query dandori.status failed: {type(e).__name__}: {e}")
        s.late = True
    described = await client.get_workflow_handle(run["id"]).describe()
    sa = described.typed_search_attributes.get(DANDORI_CASES) or []
    histories: list[WorkflowHistory] = await generated.histories(client, run["id"], handle.first_execution_run_id)
    timed_out = count_events(histories, "activity_task_timed_out_event_attributes") + count_events(
        histories, "child_workflow_execution_timed_out_event_attributes"
    )
    whole = play.part == "whole"
    # When the stubs are another runner's, the timeouts the scenario gives are the most the server may make.
    given = s.timeouts_given if whole else sum(1 for a in run["answers"] if is_timeout(a))
    if timed_out > given:
        s.late_why.append(f"{timed_out} timeouts where the scenario gave {given}")
        s.late = True
    play.histories.extend(histories)
    # A run that ended before it was given all its answers was late (a shortened timer fired first) or wrong;
    # the runner of its activities says so when the stubs are there.
    if whole and s.next != len(s.answers):
        s.late_why.append(f"it ended with {len(s.answers) - s.next} answers not given")
        s.late = True
    return {
        "id": run["id"],
        "calls": s.calls,
        "ending": ending_of(result, error),
        "query": query,
        "searchAttribute": list(sa),
        "late": s.late,
        "lateWhy": s.late_why,
        "problems": s.problems,
        "runs": len(histories),
        "ms": (ended - started) * 1000,
        "events": max(len(h.events) for h in histories),
    }


def line(value: dict[str, Any]) -> None:
    """Prints a flow's line once, whole: stdout carries these lines alone."""
    sys.stdout.write(json.dumps(value, ensure_ascii=False) + "\n")
    sys.stdout.flush()


async def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        jobs = json.load(f)
    limits = jobs["limits"]
    links = tempfile.mkdtemp(prefix="dandori-temporal-python-")
    # Every module is compiled once, into `links` (removed with it), even where PYTHONDONTWRITEBYTECODE
    # is set: the SDK's sandbox imports a package's modules again for every workflow it runs, and
    # without the cache compiled their source again each time (a quarter of the runner's work).
    sys.pycache_prefix = f"{links}/pycache"
    sys.dont_write_bytecode = False
    sys.path.insert(0, links)
    client = await Client.connect(jobs["address"])
    flows: list[dict[str, Any]] = jobs["flows"]
    plays = [
        FlowPlay(job, [r for r in jobs["runs"] if r["flow"] == i], client, limits) for i, job in enumerate(flows)
    ]
    waiting: list[dict[str, Any]] = [r for r in jobs["runs"] if flows[r["flow"]].get("part", "whole") != "activities"]
    up: set[int] = set()
    flow_up = asyncio.Event()
    finishing: list[asyncio.Task[None]] = []

    async def finish(play: FlowPlay) -> None:
        try:
            line(await play.finish())
        except Exception as e:
            line({"flow": play.job["flow"], "error": f"{type(e).__name__}: {e}"})

    async def next_run() -> dict[str, Any] | None:
        nonlocal flow_up
        while True:
            at = next((i for i, r in enumerate(waiting) if r["flow"] in up), None)
            if at is not None:
                return waiting.pop(at)
            if len(waiting) == 0:
                return None
            await flow_up.wait()

    async def starting() -> None:
        nonlocal flow_up
        order = list(dict.fromkeys([*(r["flow"] for r in jobs["runs"]), *range(len(flows))]))
        for i in order:
            play = plays[i]
            try:
                os.symlink(play.job["dir"], f"{links}/dd_flow_{i}")
                play.start(f"dd_flow_{i}")
            except Exception as e:
                line({"flow": play.job["flow"], "error": f"{type(e).__name__}: {e}"})
                waiting[:] = [r for r in waiting if r["flow"] != i]
                play.left = -1
            if play.left == 0:
                finishing.append(asyncio.create_task(finish(play)))
            up.add(i)
            flow_up.set()
            flow_up = asyncio.Event()
            await asyncio.sleep(0)

    async def lane() -> None:
        while (run := await next_run()) is not None:
            play = plays[run["flow"]]
            try:
                result = await play_run(play, run)
            except Exception as e:
                result = failed_run(play, run, e)
            play.results.append(result)
            play.state(run["id"]).ended.set()
            play.left -= 1
            if play.left == 0:
                finishing.append(asyncio.create_task(finish(play)))

    async def served(started: asyncio.Task[None]) -> None:
        """Once stdin is closed (every run has ended), the flows played by their activities alone finish."""
        if not any(p.part == "activities" for p in plays):
            return
        await started
        # What is written does not matter: the end of stdin says every run has ended.
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        for play in plays:
            if play.part == "activities" and play.left > 0:
                finishing.append(asyncio.create_task(finish(play)))

    try:
        started = asyncio.create_task(starting())
        await asyncio.gather(started, served(started), *(lane() for _ in range(limits["atOnce"])))
        await asyncio.gather(*finishing)
    finally:
        shutil.rmtree(links)


if __name__ == "__main__":
    # The SDK's logs (its core's too, which would print on stdout) go to stderr through `logging`.
    logging.basicConfig(level=logging.ERROR, stream=sys.stderr)
    core = LoggingConfig(
        filter=TelemetryFilter(core_level="ERROR", other_level="ERROR"),
        forwarding=LogForwardingConfig(logger=logging.getLogger("temporalio.core")),
    )
    Runtime.set_default(Runtime(telemetry=TelemetryConfig(logging=core)))
    asyncio.run(main())
    # Every line is out; blocked stubs and the SDK's threads are not waited for.
    sys.stdout.flush()
    os._exit(0)
