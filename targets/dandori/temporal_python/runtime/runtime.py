# The part of every dandori Temporal Python package that is the same for every flow
# (docs/targets.md#temporal-python): the rules every platform shares (`rules.py`, pydantic-graph's
# too, exported again here), the attempts of a call (`attempt`), activities and child workflows as
# the workflow starts them, parallel iterations (`rounds`), one run's waits for a callback or an
# event (`Run`), the clock (`now`), the errors that end a run, the heartbeats of an activity
# (`beating`), and the constants a test copy shortens. `dandori build --target temporal-python`
# copies it byte for byte as `runtime.py`. The workflow's sandbox imports it, so it reads no clock,
# timer or random number but the workflow's own.

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta
from typing import Any, NoReturn, TypedDict, TypeVar

import temporalio.activity
from temporalio import workflow
from temporalio.common import RetryPolicy, SearchAttributeKey
from temporalio.exceptions import (
    ActivityError,
    ApplicationError,
    ChildWorkflowError,
    FailureError,
    is_cancelled_exception,
)
from temporalio.exceptions import TimeoutError as TemporalTimeoutError

# The rules every host language shares (lang/dandori/rules.ts; tests/vectors/*.json), exported again.
from .rules import (
    CallRule,
    Retrier,
    TaskError,
    date_in,
    field,
    has_dot_segment,
    idempotency_key,
    is_date,
    is_int,
    is_list_of,
    is_object,
    is_time,
    json_text,
    retrier_for,
    retry_delay_ms,
    seconds_until,
    task_error,
    text,
    time_in,
    timestamp_ms,
    timestamp_text,
    url_segment,
)

#: What a package's modules read from here: this file's own names and the shared rules.
__all__ = [
    "ANSWER_WAIT_SECONDS",
    "CONTINUE_AT",
    "DANDORI_CASES",
    "HAND_ON_MS",
    "HEARTBEAT_EVERY_MS",
    "HEARTBEAT_TIMEOUT_MS",
    "UNSET",
    "Answered",
    "Attempt",
    "CallRule",
    "Resume",
    "Retrier",
    "Run",
    "Status",
    "Succeeded",
    "TaskError",
    "TaskFailure",
    "WaitTimedOut",
    "activity",
    "activity_ms",
    "attempt",
    "beating",
    "callback_id",
    "child",
    "child_id",
    "child_ms",
    "continue_from",
    "continuing",
    "date_in",
    "event_ms",
    "fail",
    "failed",
    "field",
    "has_dot_segment",
    "idempotency_key",
    "is_cancelled",
    "is_date",
    "is_int",
    "is_list_of",
    "is_object",
    "is_time",
    "json_text",
    "key",
    "ms",
    "now",
    "retrier_for",
    "retry_delay_ms",
    "rounds",
    "seconds_until",
    "show_cases",
    "sleep",
    "start_now",
    "text",
    "time_in",
    "timestamp_ms",
    "timestamp_text",
    "url_segment",
    "wait_until",
    "width",
]

R = TypeVar("R")
X = TypeVar("X")
Y = TypeVar("Y")

# ---------------------------------------------------------------------------------------------
# What a test copy shortens: every duration of the workflow goes through these, each a function
# whose `def` and `return` lines follow each other (its doc above it), so a copy finds each by its text.


# Milliseconds of a durable timer of `seconds` (waits, retry delays, callback waits).
def ms(seconds: float) -> float:
    return seconds * 1000


# Milliseconds of an event's wait of `seconds` (an event is sent from outside, so a copy keeps it longer).
def event_ms(seconds: float) -> float:
    return seconds * 1000


# The `start_to_close_timeout` in milliseconds of an activity whose one attempt may take `seconds`.
def activity_ms(seconds: float) -> float:
    return seconds * 1000


# The timeout in milliseconds of a child workflow that may take `seconds`; None: as long as it runs.
def child_ms(seconds: float | None) -> float | None:
    return None if seconds is None else seconds * 1000


# How many iterations of a parallel loop run at once, of the `k` the flow allows.
def width(k: int) -> int:
    return k


#: History length at the start of an outermost iteration that continues it as a new run.
CONTINUE_AT = 10_000


# The time as the workflow's clock says it, to the second: a run's start.
def start_now() -> str:
    return timestamp_text(workflow.now().timestamp() * 1000)


# The time as the workflow's clock says it, to the second: read once before a statement that reads `now`.
def now() -> str:
    return timestamp_text(workflow.now().timestamp() * 1000)


# ---------------------------------------------------------------------------------------------
# Limits with their reasons.

#: A task run by this worker sends a heartbeat this often (every 10 seconds).
HEARTBEAT_EVERY_MS = 10_000
#: Temporal times such a task out when no heartbeat came for this long (30 seconds).
HEARTBEAT_TIMEOUT_MS = 30_000
#: The activity that hands a callback's id on takes at most this long (the plan's `handOnSeconds`).
HAND_ON_MS = 60_000
#: An event or a callback without `timeout` waits at most one day (docs/dandori.md).
ANSWER_WAIT_SECONDS = 86_400

#: What a variable holds before the flow assigns it: never read (the checker sees to that), and
#: carried as null by a run continued as new.
UNSET: Any = None

# ---------------------------------------------------------------------------------------------
# How a run ends.


class Succeeded(Exception):
    """`succeed`: the run ends with its outputs (None for a workflow without outputs)."""

    def __init__(self, outputs: Any) -> None:
        super().__init__("succeed")
        self.outputs = outputs


class TaskFailure(Exception):
    """What a task raises for a declared error (`kind`, its name) or any other failure.

    An activity ends with it as `ApplicationError` of that type (`beating`), as it would with
    `ApplicationError(message, type=kind)` raised by a user's own task.
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def fail(error: str, reason: str | None) -> ApplicationError:
    """The workflow's failure with a dandori error name and reason (`fail`, a failed check)."""
    return ApplicationError(reason or "", reason, type=error, non_retryable=True)


def failed(e: TaskError) -> ApplicationError:
    """The failure a task's error ends the workflow with."""
    return fail(e.failure, e.reason)


def is_cancelled(e: BaseException) -> bool:
    """True when `e` is the run's cancel, as it reaches the workflow's code."""
    return is_cancelled_exception(e)


class Answered(Exception):
    """An error answered to a callback or an event."""

    def __init__(self, error: str, message: str) -> None:
        super().__init__(message)
        self.error = error
        self.message = message


class WaitTimedOut(Exception):
    """A wait for an answer that timed out."""


def _error_of(e: Exception, declared: Sequence[str]) -> tuple[str, str]:
    """What an attempt ended with: the error's name for handlers and retriers, and its message."""
    cause = e.cause if isinstance(e, (ActivityError, ChildWorkflowError)) else e
    if isinstance(cause, TemporalTimeoutError) or isinstance(e, (TemporalTimeoutError, WaitTimedOut)):
        return "timeout", ""
    kind = cause.type if isinstance(cause, ApplicationError) else e.error if isinstance(e, Answered) else None
    if isinstance(cause, FailureError):
        # The message as it came: the SDK reads an empty one as "Application error".
        message = cause.failure.message if cause.failure is not None else cause.message
    else:
        message = "" if cause is None else str(cause)
    return (kind if kind is not None and kind in declared else "failure"), message


async def sleep(seconds: float) -> None:
    """A durable timer of `seconds`."""
    await asyncio.sleep(ms(seconds) / 1000)


async def attempt(rule: CallRule, call: Callable[[int], Awaitable[R]]) -> R:
    """Tries a call as Step Functions' retriers say.

    The first retrier that takes an error decides whether it is tried again, each counting its
    own retries, waiting `retry_delay_ms` between. A cancel passes through as it is; any other
    error ends as a `TaskError`.
    """
    used: dict[int, int] = {}
    n = 1
    while True:
        try:
            return await call(n)
        except Exception as e:
            if is_cancelled_exception(e):
                raise
            name, message = _error_of(e, rule.errors)
            r = retrier_for(rule.retry, name)
            tried = 0 if r is None else used.get(id(r), 0)
            if r is None or tried >= r.max_attempts:
                raise task_error(rule.line, rule.task, name, message) from None
            used[id(r)] = tried + 1
            await sleep(retry_delay_ms(r, tried + 1) / 1000)
        n += 1


async def rounds(k: int, items: Sequence[X], iteration: Callable[[X, int], Awaitable[list[Y]]]) -> list[Y]:
    """Runs `iteration` for every item, `k` at a time, in list order.

    A failing iteration does not stop the others, and once one is cancelled no other starts. Then
    a cancel wins, else the first failure in list order is raised, else the yields of every
    iteration in list order are returned (docs/dandori.md, parallel iterations).
    """
    gate = asyncio.Semaphore(width(k))
    cancels: list[BaseException] = []

    async def one(i: int) -> list[Y]:
        async with gate:
            if cancels:
                return []
            try:
                return await iteration(items[i], i + 1)
            except BaseException as e:
                if is_cancelled_exception(e):
                    cancels.append(e)
                raise

    results = await asyncio.gather(*(one(i) for i in range(len(items))), return_exceptions=True)
    if cancels:
        raise cancels[0]
    out: list[Y] = []
    for r in results:
        if isinstance(r, BaseException):
            raise r
        out.extend(r)
    return out


# ---------------------------------------------------------------------------------------------
# What a call starts.


#: One attempt of a call, given its number (1 for the first): what `attempt` tries again.
Attempt = Callable[[int], Awaitable[Any]]


def activity(task: str, args: Any, call: dict[str, str], timeout_ms: float) -> Attempt:
    """The attempts of a task run as an activity: Temporal tries each once, the workflow retries."""

    async def one(n: int) -> Any:
        return await workflow.execute_activity(
            task,
            args=[args, call],
            start_to_close_timeout=timedelta(milliseconds=timeout_ms),
            heartbeat_timeout=timedelta(milliseconds=HEARTBEAT_TIMEOUT_MS),
            retry_policy=RetryPolicy(maximum_attempts=1),
        )

    return one


def child(
    workflow_type: str, args: Any, place: str, loops: Sequence[int], queue: str | None, seconds: float | None
) -> Attempt:
    """The attempts of a child workflow that may take `seconds` (None: as long as it runs)."""

    async def one(n: int) -> Any:
        timeout = child_ms(seconds)
        return await workflow.execute_child_workflow(
            workflow_type,
            args,
            id=child_id(place, loops, n),
            task_queue=queue,
            execution_timeout=None if timeout is None else timedelta(milliseconds=timeout),
        )

    return one


def key(place: str, loops: Sequence[int]) -> str:
    """The key of a call in this execution (continuations keep the workflow id, so keys stay)."""
    return idempotency_key(workflow.info().workflow_id, place, loops)


def child_id(place: str, loops: Sequence[int], attempt: int) -> str:
    """A child workflow's id: `<parent id>/<place>/<loop counts>/<attempt>`."""
    return f"{key(place, loops)}/{attempt}"


def callback_id(place: str, loops: Sequence[int], attempt: int) -> str:
    """The id a callback's answer comes back with: the execution and the call's place, loops and attempt."""
    call = "/".join([place, *(str(n) for n in loops), str(attempt)])
    return json_text({"workflow": workflow.info().workflow_id, "call": call})


# ---------------------------------------------------------------------------------------------
# The answers that wait: callbacks (Update `dandori.answer`) and events (Update `dandori.event`).


class Status(TypedDict):
    """Where the workflow is, as the query `dandori.status` tells it: the line it waits at, each
    case's record (None before it starts), the events it waits for."""

    at: int | None
    cases: dict[str, Any]
    events: list[str]


def _refused(message: str) -> ApplicationError:
    return ApplicationError(message, type="Error", non_retryable=True)


def _read(a: dict[str, Any] | None) -> Any:
    if a is None:
        raise WaitTimedOut("the wait timed out")
    if "ok" in a:
        return a["ok"]
    raise Answered(str(a.get("error")), str(a.get("message") or ""))


async def _condition(done: Callable[[], bool], timeout_ms: float) -> bool:
    """Waits until `done()` (True) or the durable timer of `timeout_ms` fires (False)."""
    try:
        await workflow.wait_condition(done, timeout=timeout_ms / 1000)
        return True
    except TimeoutError:
        return False


def _wait_seconds(wait: float | str) -> float:
    """A wait of `wait` seconds, or until the deadline `wait`: its seconds from the workflow's clock."""
    if not isinstance(wait, str):
        return wait
    deadline = timestamp_ms(wait)
    if deadline is None:
        raise fail("Dandori.BadInput", f"the deadline {wait} is not a timestamp")
    return seconds_until(deadline, workflow.now().timestamp() * 1000)


class Run:
    """One run's state its handlers read: where it waits, its cases' records, the callbacks it
    handed on and the events it waits for, with the answers that came."""

    def __init__(self, cases: dict[str, Any]) -> None:
        self.at: int | None = None
        self.cases = cases
        self._handed_on: set[str] = set()
        self._answers: dict[str, dict[str, Any]] = {}
        self._awaited: dict[str, None] = {}
        self._events: dict[str, dict[str, Any]] = {}

    def status(self) -> Status:
        """The answer of the query `dandori.status`."""
        return {"at": self.at, "cases": dict(self.cases), "events": list(self._awaited)}

    def validate_answer(self, a: dict[str, Any]) -> None:
        """Refuses an answer to a callback the workflow does not wait for, or one already answered."""
        id = str(a.get("id"))
        if id not in self._handed_on:
            raise _refused(f"dandori: no callback {id} is awaited")
        if id in self._answers:
            raise _refused(f"dandori: callback {id} was answered before")

    def take_answer(self, a: dict[str, Any]) -> bool:
        """Takes a callback's answer (validated first)."""
        self._answers[str(a.get("id"))] = a
        return True

    def take_signal(self, a: dict[str, Any]) -> None:
        """Takes a callback's answer sent as the signal `dandori.callback`: one not awaited is dropped."""
        id = str(a.get("id"))
        if id in self._handed_on and id not in self._answers:
            self._answers[id] = a

    def validate_event(self, a: dict[str, Any]) -> None:
        """Refuses an event the workflow does not wait for, or one that came already."""
        name = str(a.get("event"))
        if name not in self._awaited:
            raise _refused(f"dandori: the event {name} is not awaited")
        if name in self._events:
            raise _refused(f"dandori: the event {name} came already")

    def take_event(self, a: dict[str, Any]) -> bool:
        """Takes an event (validated first)."""
        self._events[str(a.get("event"))] = a
        return True

    def callback(
        self,
        place: str,
        loops: Sequence[int],
        wait: float | str,
        task: str,
        args: Any,
        call: dict[str, str],
        timeout_ms: float,
    ) -> Attempt:
        """The attempts of a callback's task: its activity hands the id on, then the run waits for the answer."""

        async def one(n: int) -> Any:
            id = callback_id(place, loops, n)
            hand_on = activity(task, args, {**call, "callback_id": id}, timeout_ms)
            return await self.await_callback(id, wait, lambda: hand_on(n))

        return one

    def event(self, name: str, wait: float | str) -> Attempt:
        """The attempts of an event's task: each waits for the event `name`."""

        async def one(n: int) -> Any:
            return await self.await_event(name, wait)

        return one

    async def await_callback(self, id: str, wait: float | str, hand_on: Callable[[], Awaitable[Any]]) -> Any:
        """Hands a callback's id on (`hand_on`, the activity) and waits for its answer.

        The wait's length is counted from when the activity returned: `wait` seconds, or until the deadline.
        """
        self._handed_on.add(id)
        try:
            await hand_on()
            got = await _condition(lambda: id in self._answers, ms(_wait_seconds(wait)))
            return _read(self._answers.get(id) if got else None)
        finally:
            self._handed_on.discard(id)

    async def await_event(self, name: str, wait: float | str) -> Any:
        """Waits for the event `name`; a timeout is the task's `timeout`."""
        self._awaited[name] = None
        try:
            got = await _condition(lambda: name in self._events, event_ms(_wait_seconds(wait)))
            return _read(self._events.get(name) if got else None)
        finally:
            self._awaited.pop(name, None)
            self._events.pop(name, None)


async def wait_until(at: str) -> None:
    """Waits until the time `at` (a time already past does not wait)."""
    t = timestamp_ms(at)
    if t is None:
        raise fail("Dandori.BadInput", f"the time {at} is not a timestamp")
    left = t - workflow.now().timestamp() * 1000
    if left > 0:
        await sleep(left / 1000)


# ---------------------------------------------------------------------------------------------
# Continue-As-New of the outermost loop, and the cases' search attribute.


class Resume(TypedDict):
    """Where a continued run starts: the outermost loop's statement, its iteration, the variables and cases."""

    at: int
    iteration: int
    vars: dict[str, Any]
    cases: dict[str, Any]


def continuing(first_here: bool) -> bool:
    """True when an outermost iteration, not the first this run makes, should start a new run."""
    if first_here:
        return False
    info = workflow.info()
    return info.get_current_history_length() >= CONTINUE_AT or info.is_continue_as_new_suggested()


def continue_from(input: Any, resume: Resume) -> NoReturn:
    """Continues the run as a new one with the same input, from `resume`."""
    workflow.continue_as_new(args=[input, resume])


#: The search attribute of the cases' states: `<case>=<state>` for every case that started.
DANDORI_CASES = SearchAttributeKey.for_keyword_list("DandoriCases")


def show_cases(cases: dict[str, Any]) -> None:
    """Writes the cases' states into `DandoriCases` when the run was started with `search_attributes=True`."""
    if workflow.memo_value("dandori.cases", False) is not True:
        return
    states = [f"{name}={c['state']}" for name, c in cases.items() if isinstance(c, dict)]
    workflow.upsert_search_attributes([DANDORI_CASES.value_set(states)])


# ---------------------------------------------------------------------------------------------
# Activities.


async def beating(work: Awaitable[R]) -> R:
    """A task run by this worker heartbeats while it works, so Temporal sees a worker that died.

    A `TaskFailure` it raises ends the activity as `ApplicationError` of its kind.
    """

    async def beat() -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_EVERY_MS / 1000)
            temporalio.activity.heartbeat()

    beats = asyncio.create_task(beat())
    try:
        return await work
    except TaskFailure as e:
        raise ApplicationError(e.message, type=e.kind, non_retryable=True) from None
    finally:
        beats.cancel()
