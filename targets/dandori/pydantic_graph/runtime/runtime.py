# The part of every dandori pydantic-graph package that is the same for every flow
# (docs/targets.md#pydantic-graph): the rules every platform shares (`rules.py`, the temporal-python
# target's too, exported again here), the attempts of a call (`attempt`), the limits of a call
# (`within`), parallel iterations (`rounds`), callbacks answered in the same process (`Callbacks`),
# the clock every wait goes through (`Clock`), and the errors that end a run.
# `dandori build --target pydantic-graph` copies it byte for byte as `runtime.py`.

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol, TypeVar

# The rules every host language shares (lang/dandori/rules.ts; tests/vectors/*.json), exported again.
from .rules import (
    CallRule as CallRule,
    Retrier as Retrier,
    TaskError as TaskError,
    date_in as date_in,
    field as field,
    has_dot_segment as has_dot_segment,
    idempotency_key as idempotency_key,
    is_date as is_date,
    is_int as is_int,
    is_list_of as is_list_of,
    is_object as is_object,
    is_time as is_time,
    json_text as json_text,
    retrier_for as retrier_for,
    retry_delay_ms as retry_delay_ms,
    seconds_until as seconds_until,
    task_error as task_error,
    text as text,
    time_in as time_in,
    timestamp_ms as timestamp_ms,
    timestamp_text as timestamp_text,
    url_segment as url_segment,
)

R = TypeVar("R")
I = TypeVar("I")
Y = TypeVar("Y")

# ---------------------------------------------------------------------------------------------
# Limits with their reasons.

#: The call that hands a callback's id on takes at most this long (docs/dandori.md, callbacks).
HAND_ON_SECONDS = 60
#: A callback without `timeout` waits at most one day (docs/dandori.md).
ANSWER_WAIT_SECONDS = 86_400


def at_a_time(k: int) -> int:
    """How many iterations of a parallel loop run at once, of the `k` the flow allows."""
    return k


# ---------------------------------------------------------------------------------------------
# The clock: every wait, retry delay and `now` goes through `Deps.clock`.


class Clock(Protocol):
    """Where a run reads the time and waits; a test passes one that advances without sleeping."""

    def now(self) -> str:
        """The time as a flow writes a `timestamp`, to the second."""
        ...

    def time(self) -> float:
        """Seconds since 1970."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Waits `seconds`."""
        ...

    async def wait_for(self, answered: asyncio.Event, seconds: float) -> bool:
        """Waits until `answered` is set (True) or `seconds` pass (False)."""
        ...


class SystemClock:
    """The clock of the machine, with asyncio's waits."""

    def now(self) -> str:
        return timestamp_text(self.time() * 1000)

    def time(self) -> float:
        return datetime.datetime.now(datetime.timezone.utc).timestamp()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    async def wait_for(self, answered: asyncio.Event, seconds: float) -> bool:
        try:
            await asyncio.wait_for(answered.wait(), seconds)
            return True
        except TimeoutError:
            return False


def clock_ms(clock: Clock) -> int:
    """The clock's time in whole milliseconds."""
    return round(clock.time() * 1000)


# ---------------------------------------------------------------------------------------------
# How a run ends.


class Failure(Exception):
    """The run's failure with a dandori error name and reason (`fail`, a failed check)."""

    def __init__(self, error: str, reason: str | None) -> None:
        super().__init__(reason or error)
        self.error = error
        self.reason = reason


class Succeeded(Exception):
    """`succeed` in a parallel iteration: the run ends with its outputs once every iteration ended."""

    def __init__(self, outputs: Any) -> None:
        super().__init__("succeed")
        self.outputs = outputs


class TaskFailure(Exception):
    """What a task raises for a declared error (`kind`, its name) or any other failure."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def failed(e: TaskError) -> Failure:
    """The failure a task's error ends the run with."""
    return Failure(e.failure, e.reason)


# ---------------------------------------------------------------------------------------------
# Calls.


class Answered(Exception):
    """An error answered to a callback."""

    def __init__(self, error: str, message: str) -> None:
        super().__init__(message)
        self.error = error
        self.message = message


class WaitTimedOut(Exception):
    """A wait for an answer that timed out."""


def _error_of(e: Exception, declared: Sequence[str]) -> tuple[str, str]:
    """What an attempt ended with: the error's name for handlers and retriers, and its message."""
    if isinstance(e, (TimeoutError, WaitTimedOut)):
        return "timeout", ""
    if isinstance(e, TaskFailure):
        return (e.kind if e.kind in declared else "failure"), e.message
    if isinstance(e, Answered):
        return (e.error if e.error in declared else "failure"), e.message
    return "failure", str(e)


async def attempt(rule: CallRule, call: Callable[[int], Awaitable[R]], clock: Clock) -> R:
    """Tries a call as Step Functions' retriers say.

    The first retrier that takes an error decides whether it is tried again, each counting its
    own retries, waiting `retry_delay_ms` on the clock between; the error after them is a `TaskError`.
    """
    used: dict[int, int] = {}
    n = 1
    while True:
        try:
            return await call(n)
        except Exception as e:
            name, message = _error_of(e, rule.errors)
            r = retrier_for(rule.retry, name)
            tried = 0 if r is None else used.get(id(r), 0)
            if r is None or tried >= r.max_attempts:
                raise task_error(rule.line, rule.task, name, message) from e
            used[id(r)] = tried + 1
            await clock.sleep(retry_delay_ms(r, tried + 1) / 1000)
        n += 1


async def within(work: Awaitable[R], seconds: float) -> R:
    """One attempt that may take at most `seconds` (asyncio's `wait_for`): past them, a timeout."""
    return await asyncio.wait_for(work, seconds)


async def rounds(k: int, items: Sequence[I], iteration: Callable[[I, int], Awaitable[list[Y]]]) -> list[Y]:
    """Runs `iteration` for every item, `k` at a time, in list order.

    A failing iteration does not stop the others; then the first failure in list order is
    raised, else the yields of every iteration in list order are returned.
    """
    results: list[list[Y] | Exception | None] = [None] * len(items)
    queue = list(range(len(items)))

    async def lane() -> None:
        while queue:
            i = queue.pop(0)
            try:
                results[i] = await iteration(items[i], i + 1)
            except Exception as e:
                results[i] = e

    await asyncio.gather(*(lane() for _ in range(min(k, len(items)))))
    out: list[Y] = []
    for r in results:
        if isinstance(r, Exception):
            raise r
        assert r is not None, "every iteration ended"
        out.extend(r)
    return out


def key(run_id: str, place: str, loops: Sequence[int]) -> str:
    """The key of a call in this run."""
    return idempotency_key(run_id, place, loops)


def callback_id(run_id: str, place: str, loops: Sequence[int], n: int) -> str:
    """The id a callback's answer comes back with: the run and the call's place, loops and attempt."""
    return json_text({"workflow": run_id, "call": "/".join([place, *(str(x) for x in loops), str(n)])})


# ---------------------------------------------------------------------------------------------
# Callbacks, answered in the same process (`Deps.callbacks.answer`).


class Callbacks:
    """The callbacks a run waits for, and the answers that came to them."""

    def __init__(self) -> None:
        self._waiting: dict[str, asyncio.Event] = {}
        self._answers: dict[str, dict[str, Any]] = {}

    def answer(self, callback_id: str, answer: dict[str, Any]) -> None:
        """Answers a callback: `{"ok": value}` or `{"error": name, "message": text}`.

        Refuses an id the run does not wait for, and a second answer.
        """
        event = self._waiting.get(callback_id)
        if event is None:
            raise KeyError(f"dandori: no callback {callback_id} is awaited")
        if callback_id in self._answers:
            raise KeyError(f"dandori: callback {callback_id} was answered before")
        self._answers[callback_id] = answer
        event.set()

    async def wait(
        self, callback_id: str, clock: Clock, wait: float | str, hand_on: Callable[[], Awaitable[object]]
    ) -> Any:
        """Hands a callback's id on (within `HAND_ON_SECONDS`) and waits for its answer.

        The wait is counted from when the hand-on returned: `wait` seconds, or until the deadline.
        """
        self._waiting[callback_id] = asyncio.Event()
        try:
            await within(hand_on(), HAND_ON_SECONDS)
            seconds = wait if not isinstance(wait, str) else _seconds_to(wait, clock)
            if not await clock.wait_for(self._waiting[callback_id], seconds):
                raise WaitTimedOut("the wait timed out")
            got = self._answers[callback_id]
            if "ok" in got:
                return got["ok"]
            raise Answered(str(got.get("error")), str(got.get("message") or ""))
        finally:
            del self._waiting[callback_id]
            self._answers.pop(callback_id, None)


def _seconds_to(deadline: str, clock: Clock) -> int:
    t = timestamp_ms(deadline)
    if t is None:
        raise Failure("Dandori.BadInput", f"the deadline {deadline} is not a timestamp")
    return seconds_until(t, clock_ms(clock))


async def wait_until(clock: Clock, at: str) -> None:
    """Waits until the time `at` (a time already past does not wait)."""
    t = timestamp_ms(at)
    if t is None:
        raise Failure("Dandori.BadInput", f"the time {at} is not a timestamp")
    left = t - clock_ms(clock)
    if left > 0:
        await clock.sleep(left / 1000)
