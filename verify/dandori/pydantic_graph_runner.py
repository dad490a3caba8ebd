"""The pydantic-graph runner (docs/targets.md#pydantic-graph, its verification): one process per flow,
started by `pydantic_graph.ts` with a jobs file. It imports the flow's generated package, runs every
scenario on real pydantic-graph through the generated `graph` with `make_tasks(own, transport)`, where
only `Transport` and the user's tasks are stubs (named as test doubles below) that record what is sent
and answer from the scenario, a clock that advances without sleeping, and callbacks answered through
`Deps.callbacks` (an unknown id and a second answer must be refused). Parallel iterations run one at a
time (`dd.at_a_time` returns 1), so calls come in the interpreter's order. It prints, for every run,
its calls as sent with the clock at each, its ending, its cases and its clock at the end.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from typing import Any

from pydantic_graph_answers import cause, http_answer, lambda_answer

jobs = json.loads(open(sys.argv[1], encoding="utf-8").read())
sys.path.insert(0, jobs["dir"])


class Flow:
    """One flow's generated package, its runtime patched for the runner, and its tasks' wire names."""

    def __init__(self, job: dict[str, Any]) -> None:
        package = job["package"]
        self.graph = importlib.import_module(f"{package}.graph")
        self.dd = importlib.import_module(f"{package}.runtime")
        self.io = importlib.import_module(f"{package}.io")
        self.tasks = importlib.import_module(f"{package}.tasks")
        self.wires: dict[str, dict[str, str]] = {name: info["wires"] for name, info in job["tasks"].items()}
        self.by_attr: dict[str, str] = {info["attr"]: name for name, info in job["tasks"].items()}
        setattr(self.dd, "at_a_time", lambda k: 1)
        setattr(self.dd, "within", stepping_within)


class SteppingClock:
    """Test double of `Deps.clock`: advances by what each wait asks, without sleeping.

    Its first `now` is the scenario's start, every later one the scenario's second time.
    """

    def __init__(self, dd: Any, now: list[str]) -> None:
        start = dd.timestamp_ms(now[0])
        assert start is not None, "the scenario starts at a timestamp"
        self.ms: int = start
        self.texts = now
        self.reads = 0

    def now(self) -> str:
        text = self.texts[0 if self.reads == 0 else 1]
        self.reads += 1
        return str(text)

    def time(self) -> float:
        return self.ms / 1000

    async def sleep(self, seconds: float) -> None:
        self.ms += round(seconds * 1000)

    async def wait_for(self, answered: asyncio.Event, seconds: float) -> bool:
        if answered.is_set():
            return True
        self.ms += round(seconds * 1000)
        return False


class Run:
    """One scenario's answers and what its run did."""

    def __init__(self, flow: Flow, scenario: dict[str, Any]) -> None:
        self.flow = flow
        self.id: str = scenario["id"]
        self.answers: list[dict[str, Any]] = scenario["answers"]
        self.next = 0
        self.calls: list[dict[str, Any]] = []
        #: Each as the Text of lang/common/text.ts, in English and Japanese.
        self.problems: list[dict[str, str]] = []
        self.clock = SteppingClock(flow.dd, scenario["now"])
        self.callbacks = flow.dd.Callbacks()
        self.current: tuple[dict[str, Any], str | None] | None = None
        self.unknown_tried = False
        self.blocked = False

    def take(self) -> dict[str, Any]:
        if self.next >= len(self.answers):
            raise RuntimeError("the scenario has no answer left for this call")
        a = self.answers[self.next]
        self.next += 1
        return a

    def answer_callback(self, callback_id: str, a: dict[str, Any]) -> None:
        value = {"ok": a["ok"]} if "ok" in a else {"error": a["error"], "message": a.get("cause") or ""}
        if not self.unknown_tried:
            self.unknown_tried = True
            unknown = self.flow.dd.json_text({"workflow": self.id, "call": "s0/0"})
            try:
                self.callbacks.answer(unknown, value)
                self.problems.append(
                    {
                        "en": f"an answer to the unknown callback {unknown} was taken",
                        "ja": f"待っていないコールバック {unknown} への答えが受け付けられた",
                    }
                )
            except KeyError:
                pass
        self.callbacks.answer(callback_id, value)
        try:
            self.callbacks.answer(callback_id, value)
            self.problems.append(
                {"en": f"a second answer to {callback_id} was taken", "ja": f"{callback_id} への二度目の答えが受け付けられた"}
            )
        except KeyError:
            pass

    async def before(self) -> dict[str, Any] | None:
        """The current answer; None when it answered a callback (or lets its wait time out)."""
        assert self.current is not None, "a stub is called inside a task"
        a, callback_id = self.current
        if callback_id is not None:
            if a.get("error") != "timeout":
                self.answer_callback(callback_id, a)
            return None
        if a.get("error") == "timeout":
            await self.block()
        return a

    async def block(self) -> None:
        """Blocks the attempt the scenario times out, until `stepping_within` times it out."""
        self.blocked = True
        await asyncio.Event().wait()


class RecordingTransport:
    """Test double of `io.Transport`: records what is sent, in the `transport` view's shape, and answers."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.io = run.flow.io
        self.dd = run.flow.dd

    def record(self, view: dict[str, Any]) -> str:
        self.run.calls[-1]["transport"] = view
        return str(self.run.calls[-1]["pydantic-graph"]["task"])

    def wire(self, task: str, error: str) -> str | None:
        return self.run.flow.wires[task].get(error)

    async def http(self, request: Any) -> Any:
        json_body = request.headers.get("Content-Type") == "application/json"
        view: dict[str, Any] = {"method": request.method, "url": request.url, "headers": request.headers}
        if request.body is not None:
            view["body"] = json.loads(request.body) if json_body else request.body
        task = self.record({"http": view})
        a = await self.run.before()
        if a is None:
            return self.io.HttpResponse(200, "")
        return http_answer(self.io, a, None if "ok" in a else self.wire(task, a["error"]))

    async def lambda_(self, function: str, payload: Any) -> Any:
        task = self.record({"lambda": function, "payload": payload})
        a = await self.run.before()
        if a is None:
            return self.io.LambdaPayload(None)
        return lambda_answer(self.io, a, None if "ok" in a else self.wire(task, a["error"]))

    async def aws(self, service: str, operation: str, args: dict[str, Any]) -> Any:
        task = self.record({"aws": f"{service}:{operation}", "args": args})
        a = await self.run.before()
        if a is None:
            return {}
        if "ok" in a:
            return a["ok"]
        raise self.io.AwsError(self.wire(task, a["error"]) or "InternalFailure", cause(a))

    async def book(self, call: dict[str, Any]) -> Any:
        self.record(dict(call))
        a = await self.run.before()
        if a is None:
            return {"result": "done"}
        if "ok" in a:
            return a["ok"]
        if a["error"] == "failure":
            raise self.dd.TaskFailure("Error", cause(a))
        return {"result": "refused", "reason": a["error"]}

    async def agent(self, request: Any) -> Any:
        """An agent's request as sent; the answer wrapped in `{"answer": …}`, a failure raised as a refusal is."""
        self.record({"agent": {"url": request.url, "headers": request.headers, "body": request.body}})
        a = await self.run.before()
        if a is None:
            raise RuntimeError("an agent's call has no callback")
        if "ok" in a:
            return {"answer": a["ok"]}
        raise RuntimeError(cause(a))


class AnsweringOwnTasks:
    """Test double of the user's `OwnTasks`: each answers from the scenario."""

    def __init__(self, run: Run) -> None:
        self.run = run

    def __getattr__(self, attr: str) -> Any:
        async def own(args: Any, call: Any) -> Any:
            a = await self.run.before()
            if a is None:
                return None
            if "ok" in a:
                return a["ok"]
            raise self.run.flow.dd.TaskFailure("Error" if a["error"] == "failure" else a["error"], cause(a))

        return own


class RecordingTasks:
    """The generated tasks, each call recorded as the graph makes it (the `pydantic-graph` view) first."""

    def __init__(self, tasks: Any, run: Run) -> None:
        self.tasks = tasks
        self.run = run

    def __getattr__(self, attr: str) -> Any:
        made = getattr(self.tasks, attr)
        name = self.run.flow.by_attr[attr]

        async def recorded(args: Any, call: Any) -> Any:
            a = self.run.take()
            view: dict[str, Any] = {"task": name, "args": args}
            if "key" in call:
                view["key"] = call["key"]
            if "callback_id" in call:
                view["callback_id"] = call["callback_id"]
            self.run.calls.append({"pydantic-graph": view, "at": self.run.flow.dd.timestamp_text(self.run.clock.ms)})
            self.run.current = (a, call.get("callback_id"))
            return await made(args, call)

        return recorded


#: The run being played (scenarios run one after another).
CURRENT: list[Run] = []


async def stepping_within(work: Any, seconds: float) -> Any:
    """Test double of `dd.within`: an attempt the stub blocks times out (the scenario's `timeout`),
    and the stepping clock moves by the attempt's `seconds`, as the interpreter's does; any other
    attempt runs to its end."""
    run = CURRENT[-1]
    attempt = asyncio.ensure_future(work)
    while not attempt.done():
        if run.blocked:
            run.blocked = False
            attempt.cancel()
            run.clock.ms += round(seconds * 1000)
            raise TimeoutError()
        await asyncio.wait({attempt}, timeout=0.01)
    return attempt.result()




async def play(flow: Flow, scenario: dict[str, Any]) -> dict[str, Any]:
    run = Run(flow, scenario)
    CURRENT.append(run)
    tasks = flow.tasks.make_tasks(AnsweringOwnTasks(run), RecordingTransport(run))
    deps = flow.graph.Deps(tasks=RecordingTasks(tasks, run), run_id=run.id, clock=run.clock, callbacks=run.callbacks)
    state = flow.graph.initial_state(scenario["input"])
    ending: Any
    try:
        outputs = await flow.graph.graph.run(state=state, deps=deps, inputs=flow.graph.Start())
        ending = {"succeed": outputs}
    except flow.dd.Failure as e:
        ending = {"fail": {"error": e.error, "reason": e.reason}}
    except Exception as e:
        ending = {"error": f"{type(e).__name__}: {e}"}
    if run.next != len(run.answers) and "error" not in ending:
        left = len(run.answers) - run.next
        run.problems.append({"en": f"{left} answers were left", "ja": f"答えが {left} 個残った"})
    return {
        "id": run.id,
        "calls": run.calls,
        "ending": ending,
        "cases": state.dd_cases,
        "clock": flow.dd.timestamp_text(run.clock.ms),
        "problems": run.problems,
    }


async def main() -> None:
    results: list[dict[str, Any]] = []
    for job in jobs["flows"]:
        flow = Flow(job)
        for s in job["scenarios"]:
            results.append({**await play(flow, s), "id": f"{job['package']}#{s['id']}"})
    print(json.dumps({"results": results}, ensure_ascii=False))


asyncio.run(main())
