"""The Python runner of verify/chobo/runners/README.md: plays every job of a jobs.json through the
generated postgres-python clients on a real server, all at once, and prints what each step
answered, every statement each job's client sent, and the rows its tenant ended with.

    python3 verify/chobo/runners/python/runner.py <jobs.json>

Jobs run on threads sharing one psycopg_pool of `pool` connections in autocommit mode, so each
call is a transaction of its own and the client may retry it. A step between jobs takes a pooled
connection for one statement; the callers of a `together` each take a connection of their own,
all of them at once, and start together. A `pass` whose `expire()` raised answers
`failed:<message>` instead of null, so the comparison sees it.
"""

import json
import re
import sys
import threading
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo
from psycopg_pool import ConnectionPool

from common import HoldClock, call, failure, load_client, play_all

Statement = dict[str, object]
Step = str | None | list[list[str]]

# What a job's tenant ends with (README): its accounts' numbers and its holds' states.
ACCOUNTS = (
    "select id::text, posted::text, held_in::text, held_out::text"
    " from {}.balances where tenant = %s order by id"
)
HOLDS = "select id::text, state from {}.holds where tenant = %s order by id"
# How long a step may wait for a pooled connection before the runner gives up.
CHECKOUT_TIMEOUT_S = 600.0


def dollar_placeholders(query: str) -> str:
    """The statement as `chobo run --show postgres` prints it: `$1 …` for `%s`, `%` for `%%`."""
    n = 0

    def replace(m: re.Match[str]) -> str:
        nonlocal n
        if m.group(0) == "%%":
            return "%"
        n += 1
        return f"${n}"

    return re.sub(r"%[s%]", replace, query)


def value_text(v: object) -> str | None:
    return None if v is None else str(v)


class Recorder:
    """Every statement one job's clients sent, in the order sent."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.sent: list[Statement] = []

    def record(self, query: str, params: Sequence[object]) -> None:
        with self._lock:
            self.sent.append({"text": dollar_placeholders(query), "values": [value_text(v) for v in params]})


class RecordingCursor:
    """A cursor of a dedicated connection that writes down what it executes."""

    def __init__(self, cursor: psycopg.Cursor[Any], recorder: Recorder) -> None:
        self._cursor = cursor
        self._recorder = recorder

    def execute(self, query: str, params: Sequence[object], /) -> object:
        self._recorder.record(query, params)
        return self._cursor.execute(query, params)

    def fetchone(self) -> object:
        return self._cursor.fetchone()

    def close(self) -> None:
        self._cursor.close()


class RecordingConnection:
    """A dedicated connection (a `together` caller's) as the client sees it."""

    def __init__(self, conn: psycopg.Connection[Any], recorder: Recorder) -> None:
        self._conn = conn
        self._recorder = recorder

    def cursor(self) -> RecordingCursor:
        return RecordingCursor(self._conn.cursor(), self._recorder)


class PooledCursor:
    """A cursor that takes a pooled connection for each statement, as `pg`'s `Pool.query` does."""

    def __init__(self, pool: ConnectionPool[psycopg.Connection[Any]], recorder: Recorder) -> None:
        self._pool = pool
        self._recorder = recorder
        self._row: object = None

    def execute(self, query: str, params: Sequence[object], /) -> object:
        self._recorder.record(query, params)
        conn = self._pool.getconn(timeout=CHECKOUT_TIMEOUT_S)
        try:
            with conn.cursor() as cursor:
                cursor.execute(query, params)
                self._row = cursor.fetchone()
        finally:
            self._pool.putconn(conn)
        return self

    def fetchone(self) -> object:
        return self._row

    def close(self) -> None:
        self._row = None


class PooledConnection:
    """The shared pool as one DB-API connection: the connection of a job's steps."""

    def __init__(self, pool: ConnectionPool[psycopg.Connection[Any]], recorder: Recorder) -> None:
        self._pool = pool
        self._recorder = recorder

    def cursor(self) -> PooledCursor:
        return PooledCursor(self._pool, self._recorder)


class Job:
    """One job's clients, what they sent, and the holds that decide its waits and lateness."""

    def __init__(self, runner: "Runner", job: dict[str, Any]) -> None:
        self.runner = runner
        self.book: str = job["book"]
        self.tenant: str = job["tenant"]
        self.client = runner.clients[self.book]
        self.members: dict[str, Any] = runner.members[self.book]
        self.recorder = Recorder()
        self.clock = HoldClock(runner.expiry_s, runner.margin_s)

    def call(self, value: Any, step: dict[str, Any]) -> str:
        """One `do`/`hold`/`post`/`void` through a book value, as the step's answer."""
        answer = call(value, self.members, step)
        self.clock.answered(step, answer)
        return answer

    def together(self, callers: list[list[dict[str, Any]]]) -> list[list[str]]:
        """Each caller on a connection of its own, all starting at once."""
        pool = self.runner.pool
        if len(callers) > self.runner.size:
            raise ValueError(f"{len(callers)} callers at once need more than {self.runner.size} connections")
        with self.runner.checkout:
            conns = [pool.getconn(timeout=CHECKOUT_TIMEOUT_S) for _ in callers]
        try:
            start = threading.Barrier(len(callers))
            answers: list[list[str]] = [[] for _ in callers]

            def caller(i: int) -> None:
                value = self.client.postgres(RecordingConnection(conns[i], self.recorder), self.tenant)
                start.wait()
                answers[i].extend(self.call(value, step) for step in callers[i])

            threads = [threading.Thread(target=caller, args=(i,)) for i in range(len(callers))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            return answers
        finally:
            for conn in conns:
                pool.putconn(conn)

    def pass_time(self, value: Any) -> Step:
        """Waits until every hold is past its expiry and the margin, then calls `expire()`."""
        self.clock.until_expired()
        with self.runner.expiring:
            try:
                value.expire()
            except Exception as error:
                return failure(error)
        return None

    def rows(self) -> tuple[list[list[str]], list[list[str]]]:
        """The tenant's accounts and holds, read with plain SQL, not through the client."""
        conn = self.runner.pool.getconn(timeout=CHECKOUT_TIMEOUT_S)
        try:
            with conn.cursor() as cursor:
                schema = sql.Identifier(self.book)
                cursor.execute(sql.SQL(ACCOUNTS).format(schema), (self.tenant,))
                accounts = [list(row) for row in cursor.fetchall()]
                cursor.execute(sql.SQL(HOLDS).format(schema), (self.tenant,))
                holds = [list(row) for row in cursor.fetchall()]
        finally:
            self.runner.pool.putconn(conn)
        return accounts, holds

    def play(self, steps: list[dict[str, Any]]) -> dict[str, object]:
        value = self.client.postgres(PooledConnection(self.runner.pool, self.recorder), self.tenant)
        answers: list[Step] = []
        for step in steps:
            if "pass" in step:
                answers.append(self.pass_time(value))
                continue
            self.clock.check()
            answers.append(self.together(step["together"]) if "together" in step else self.call(value, step))
        accounts, holds = self.rows()
        # After the read: a hold that expired before it ended may have been given back by another job.
        self.clock.check()
        return {
            "steps": answers,
            "late": self.clock.late,
            "sent": self.recorder.sent,
            "accounts": accounts,
            "holds": holds,
        }


class Runner:
    """The pool, the clients, and the locks every job shares."""

    def __init__(self, jobs: dict[str, Any], pool: ConnectionPool[psycopg.Connection[Any]]) -> None:
        self.pool = pool
        self.size: int = jobs["pool"]
        self.expiry_s: float = jobs["expiry_ms"] / 1000
        self.margin_s: float = jobs["margin_ms"] / 1000
        self.members: dict[str, Any] = jobs["members"]
        self.clients = {book: load_client(book, where) for book, where in jobs["clients"].items()}
        # Calls of expire() go one at a time (README); a `together` takes all its connections while
        # no other `together` takes any, so two of them never each hold a part of what the other waits for.
        self.expiring = threading.Lock()
        self.checkout = threading.Lock()

    def play(self, job: dict[str, Any]) -> dict[str, object]:
        return {"id": job["id"], **Job(self, job).play(job["steps"])}


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: runner.py <jobs.json>", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        jobs: dict[str, Any] = json.load(f)
    conninfo = make_conninfo(host=jobs["socket_dir"], user="postgres", dbname="postgres")
    with ConnectionPool(
        conninfo, min_size=jobs["pool"], max_size=jobs["pool"], kwargs={"autocommit": True}, open=True
    ) as pool:
        pool.wait()
        runner = Runner(jobs, pool)
        play_all(jobs["jobs"], lambda _, job: runner.play(job))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
