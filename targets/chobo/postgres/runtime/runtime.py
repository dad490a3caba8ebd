# The part of every chobo PostgreSQL client in Python that is the same for every book
# (docs/targets.md#postgresql-clients): sending one statement on a DB-API connection (psycopg 3 or
# psycopg2, `%s` placeholders), retrying serialization failures and deadlocks, and reading the
# answers. `chobo build --target postgres-python` copies it byte for byte after the book's part of
# `<book>.py`. Python 3.10 or later.
#
# Transactions: the client never commits or rolls back. On a connection in autocommit mode every
# call is a transaction of its own, so a call that failed with 40001 or 40P01 changed nothing and is
# sent again with the same arguments (the key makes that safe). On a connection that is not in
# autocommit mode the driver opens a transaction before the first statement, and that transaction
# is the caller's: a failed call aborts it, the second try meets 25P02, and the client raises the
# first error; the caller rolls back and retries its transaction as a whole. That is the price of
# committing a call together with the caller's own rows.

import random
import time
from collections.abc import Mapping, Sequence
from typing import Literal, NamedTuple, Protocol, TypeVar

# At most 30 tries; before try n + 1 a random wait of 0 … min(2ⁿ⁻¹, 128) ms, so the waits add up to
# 1.5 s on average and 2.9 s at most (docs/targets.md#postgresql-clients).
MAX_TRIES = 30
MAX_WAIT_MS = 128
# A serialization failure and a deadlock: the call changed nothing and may be sent again.
RETRIED_SQLSTATES = ("40001", "40P01")
# The caller's transaction was aborted by the failed try, so nothing more can be sent in it.
IN_FAILED_TRANSACTION = "25P02"
# The longest string argument, the tenant too, in UTF-8 bytes (docs/reference.md#limits).
MAX_STRING_BYTES = 256
# The largest amount: 2⁶³ − 1.
MAX_AMOUNT = (1 << 63) - 1


Outcome = Literal["done", "done_before", "refused"]
HoldState = Literal["held", "posted", "voided", "expired"]
_OUTCOMES: tuple[Outcome, ...] = ("done", "done_before", "refused")
_HOLD_STATES: tuple[HoldState, ...] = ("held", "posted", "voided", "expired")
_Word = TypeVar("_Word", bound=str)


class Result(NamedTuple):
    """What a write answered: `done`, `done_before`, or `refused` with its reason."""

    result: Outcome
    reason: str | None = None


class Balance(NamedTuple):
    """An account's numbers: posted, and held towards it and away from it."""

    posted: int
    held_in: int
    held_out: int


class ChoboArgumentError(ValueError):
    """An argument chobo refuses before anything is sent (docs/reference.md#limits): a string that
    is not well-formed Unicode (a lone surrogate), holds U+0000 or is longer than 256 UTF-8 bytes;
    an amount that is not an int from 0 to 2⁶³ − 1."""


def _string(name: str, value: object) -> str:
    """The string argument `name` (a tenant or a parameter), or `ChoboArgumentError`."""
    if not isinstance(value, str):
        raise ChoboArgumentError(f"chobo: {name} is a string, got {value!r}")
    try:
        data = value.encode("utf-8")
    except UnicodeEncodeError:
        raise ChoboArgumentError(f"chobo: {name} is not well-formed Unicode: it holds a lone surrogate") from None
    if "\0" in value:
        raise ChoboArgumentError(f"chobo: {name} holds U+0000, which no string argument may")
    if len(data) > MAX_STRING_BYTES:
        raise ChoboArgumentError(
            f"chobo: {name} is {len(data)} UTF-8 bytes, longer than the {MAX_STRING_BYTES} a string argument may be"
        )
    return value


def _amount(name: str, value: object, optional: bool = False) -> int | None:
    """The amount argument `name`, None where it may be left out (a post in full), or `ChoboArgumentError`."""
    if optional and value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_AMOUNT:
        raise ChoboArgumentError(f"chobo: {name} is an amount, an int from 0 to 2^63 - 1, got {value!r}")
    return value


class Cursor(Protocol):
    """The part of a DB-API cursor the client uses."""

    def execute(self, query: str, params: Sequence[object], /) -> object: ...

    def fetchone(self) -> object: ...

    def close(self) -> object: ...


class Connection(Protocol):
    """A DB-API connection: psycopg 3's `Connection` or psycopg2's `connection`."""

    def cursor(self) -> Cursor: ...


def _sqlstate(error: BaseException) -> str | None:
    """The SQLSTATE of a driver's error: psycopg 3 calls it `sqlstate`, psycopg2 `pgcode`."""
    for attribute in ("sqlstate", "pgcode"):
        code = getattr(error, attribute, None)
        if isinstance(code, str):
            return code
    return None


def _columns(row: object, names: tuple[str, ...]) -> list[object]:
    """The named columns of a row, whether the connection gives tuples or mappings."""
    if isinstance(row, Mapping):
        return [row[name] for name in names]
    if isinstance(row, Sequence) and not isinstance(row, str) and len(row) == len(names):
        return list(row)
    raise TypeError(f"chobo: expected a row of {', '.join(names)}, got {row!r}")


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"chobo: expected text, got {value!r}")
    return value


def _one_of(value: object, words: tuple[_Word, ...]) -> _Word:
    for word in words:
        if value == word:
            return word
    raise TypeError(f"chobo: expected one of {', '.join(words)}, got {value!r}")


class _Postgres:
    """A connection and a tenant: every call sends one statement, the tenant first."""

    def __init__(self, conn: Connection, tenant: str) -> None:
        self._conn = conn
        self._tenant = _string("tenant", tenant)

    def _send(self, query: str, params: Sequence[object]) -> object:
        """Sends one statement and returns its one row, retrying 40001 and 40P01."""
        first: Exception | None = None
        for attempt in range(MAX_TRIES):
            if attempt > 0:
                time.sleep(random.uniform(0, min(1 << (attempt - 1), MAX_WAIT_MS)) / 1000)
            try:
                cursor = self._conn.cursor()
                try:
                    cursor.execute(query, params)
                    return cursor.fetchone()
                finally:
                    cursor.close()
            except Exception as error:
                code = _sqlstate(error)
                if first is not None and code == IN_FAILED_TRANSACTION:
                    raise first from None
                if code not in RETRIED_SQLSTATES or attempt == MAX_TRIES - 1:
                    raise
                if first is None:
                    first = error
        raise AssertionError("unreachable: the last try returns or raises")

    def result(self, query: str, args: Sequence[str | int | None]) -> Result:
        result, reason = _columns(self._send(query, (self._tenant, *args)), ("result", "reason"))
        return Result(_one_of(result, _OUTCOMES), None if reason is None else _text(reason))

    def balance(self, query: str, args: Sequence[str]) -> Balance:
        posted, held_in, held_out = _columns(
            self._send(query, (self._tenant, *args)), ("posted", "held_in", "held_out")
        )
        return Balance(int(_text(posted)), int(_text(held_in)), int(_text(held_out)))

    def state(self, query: str, args: Sequence[str]) -> HoldState | None:
        (state,) = _columns(self._send(query, (self._tenant, *args)), ("state",))
        return None if state is None else _one_of(state, _HOLD_STATES)

    def count(self, query: str) -> int:
        (n,) = _columns(self._send(query, ()), ("n",))
        if not isinstance(n, int):
            raise TypeError(f"chobo: expected an integer, got {n!r}")
        return n
