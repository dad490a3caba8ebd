# The rules every dandori Python package shares, whichever platform runs it (the pydantic-graph and
# the temporal-python targets): which retrier takes an error, how long a retry waits, seconds until
# a time, keys, URL segments and a URL's dot segments, time ranges, the checks of values, and a
# call's errors as the run reads them (`TaskError`, `task_error`) with how it is tried (`CallRule`).
# `dandori build` copies it byte for byte as `rules.py` beside `runtime.py`, which exports it again,
# so generated code reads everything from `runtime.py`. It imports nothing of its package: the same
# rules in TypeScript are targets/dandori/typescript/runtime/rules.ts, and both pass
# tests/vectors/*.json.

from __future__ import annotations

import datetime
import json
import math
import re
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Retrier:
    """One retrier in Step Functions' order; `*` among the errors takes every error."""

    errors: tuple[str, ...]
    max_attempts: int
    interval_seconds: float
    #: `BackoffRate` as decimal text.
    backoff: str


def retrier_for(retriers: Sequence[Retrier], error: str) -> Retrier | None:
    """The retrier that takes `error`: the first whose errors name it, or `*`; None when none does."""
    for r in retriers:
        if error in r.errors or "*" in r.errors:
            return r
    return None


def retry_delay_ms(r: Retrier, retry: int) -> int:
    """How long the `retry`-th retry (1 for the first) waits, in whole milliseconds rounded down."""
    return math.floor(r.interval_seconds * 1000 * math.pow(float(r.backoff), retry - 1))


def seconds_until(deadline_ms: float, now_ms: float) -> int:
    """The seconds a wait until `deadline_ms` lasts from `now_ms`: rounded up, never less than 1."""
    return max(1, math.ceil((deadline_ms - now_ms) / 1000))


def idempotency_key(execution: str, place: str, loops: Sequence[int]) -> str:
    """A call's key: `<execution>/<place>/<loop counts…>`."""
    return "/".join([execution, place, *(str(n) for n in loops)])


def json_text(value: object) -> str:
    """JSON as JavaScript's `JSON.stringify` writes it: no spaces, characters as they are."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def url_segment(value: object) -> str:
    """A value written into a URL: a string as it is, missing as empty, else JSON; then escaped."""
    text = value if isinstance(value, str) else "" if value is None else json_text(value)
    return urllib.parse.quote(text, safe="!*'()")


_DOT_SEGMENT = re.compile(r"^[a-z]+://[^/?]*/(?:[^?]*/)?(?:\.|%2e)(?:\.|%2e)?(?:[/?]|$)", re.IGNORECASE)


def has_dot_segment(url: str) -> bool:
    """True when a path segment of a URL a call built is `.` or `..` (`%2e` is a dot), as the WHATWG URL
    parser reads one: the call is not sent, the run fails with `Dandori.BadInput`."""
    return _DOT_SEGMENT.search(url) is not None


def time_in(value: str, first: str | None, after: str | None) -> bool:
    """True when `value` is in `[first, after)`, compared on its first 19 characters."""
    s = value[:19]
    return (first is None or s >= first) and (after is None or s < after)


def date_in(value: str, first: str | None, last: str | None) -> bool:
    """True when the date `value` is in `[first, last]`, compared as text."""
    return (first is None or value >= first) and (last is None or value <= last)


_TIMESTAMP = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def timestamp_ms(text: str) -> int | None:
    """Milliseconds since 1970 of a `timestamp`, or None when it is not one."""
    if _TIMESTAMP.fullmatch(text) is None:
        return None
    try:
        t = datetime.datetime.strptime(text[:19], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=datetime.UTC)
    except ValueError:
        return None
    fraction = text[20:-1] if len(text) > 20 else ""
    return round(t.timestamp()) * 1000 + (int(fraction[:3].ljust(3, "0")) if fraction != "" else 0)


def timestamp_text(ms: float) -> str:
    """A time as a flow writes a `timestamp`: to the second, in UTC."""
    t = datetime.datetime.fromtimestamp(math.floor(ms / 1000), datetime.UTC)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


# ---------------------------------------------------------------------------------------------
# Values and their checks.


def is_object(v: object) -> bool:
    """True when `v` is a JSON object (a record)."""
    return isinstance(v, dict)


def field(v: object, name: str) -> Any:
    """A record's field, or None."""
    return v.get(name) if isinstance(v, dict) else None


def is_int(v: object, lower: int | None, upper: int | None) -> bool:
    """True when `v` is an integer in `[lower, upper]` (None: open)."""
    return (
        isinstance(v, int)
        and not isinstance(v, bool)
        and abs(v) <= 2**53 - 1
        and (lower is None or v >= lower)
        and (upper is None or v <= upper)
    )


def is_time(v: object, first: str | None, after: str | None) -> bool:
    """True when `v` is a `timestamp` in `[first, after)` (None: open)."""
    return isinstance(v, str) and timestamp_ms(v) is not None and time_in(v, first, after)


def is_date(v: object, first: str | None, last: str | None) -> bool:
    """True when `v` is a `date` of the calendar in `[first, last]` (None: open)."""
    if not isinstance(v, str) or _DATE.fullmatch(v) is None:
        return False
    try:
        datetime.date.fromisoformat(v)
    except ValueError:
        return False
    return date_in(v, first, last)


def is_list_of(v: object, item: Callable[[object], bool]) -> bool:
    """True when `v` is a list whose every item passes `item`."""
    return isinstance(v, list) and all(item(e) for e in v)


def text(v: object) -> str:
    """A value written into a string: strings as they are, numbers as digits, bools as words."""
    if isinstance(v, str):
        return v
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return json_text(v)


# ---------------------------------------------------------------------------------------------
# A call's errors as the run reads them, and how a call is tried.


class TaskError(Exception):
    """A task's error after its retries, on its way to a handler or `on failure`.

    `error` is what handlers match (a declared name, `timeout`, `failure`); `failure` is the
    workflow's error when nothing handles it, with `reason`.
    """

    def __init__(self, error: str, failure: str, reason: str | None) -> None:
        super().__init__(reason or error)
        self.error = error
        self.failure = failure
        self.reason = reason


def task_error(line: int, task: str, name: str, message: str) -> TaskError:
    """The task's error as the run reads it (docs/dandori.md, errors)."""
    cause = "" if message == "" else f": {message}"
    if name == "timeout":
        return TaskError(name, "Dandori.Timeout", f"line {line}: {task} timed out{cause}")
    if name == "failure":
        return TaskError(name, "Dandori.Failure", f"line {line}: {task} failed{cause}")
    return TaskError(name, name, None if message == "" else message)


@dataclass(frozen=True)
class CallRule:
    """How a call is tried: its line and task for reasons, its declared errors and its retriers."""

    line: int
    task: str
    errors: tuple[str, ...]
    retry: tuple[Retrier, ...]
