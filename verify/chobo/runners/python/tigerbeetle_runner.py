"""The Python runner of verify/chobo/runners/README.md 「TigerBeetle」: plays every job of a jobs.json at
once through each book's generated tigerbeetle-python client on tigerbeetle 0.17.9 (or, in tests
only, on the test double's bridge), and prints what each step answered, what each operation sent,
and the accounts and holds at the end.

    python3 verify/chobo/runners/python/tigerbeetle_runner.py <jobs.json>

Jobs run on threads sharing the `connections` clients; the callers of a `together` each run on a
thread of their own and start together. The file is not named `tigerbeetle.py`: Python puts a
script's directory first on the path, so that name would hide the package it drives.
"""

import dataclasses
import json
import sys
import threading
import time
import urllib.error
import urllib.request
from types import ModuleType
from typing import Any, Protocol

import tigerbeetle as tb

from common import HoldClock, call, client_strings, failure, load_client, play_all, python_name

Request = dict[str, object]
Operation = dict[str, list[Request]]
Step = str | None | list[list[str]]

ACCOUNT_FIELDS = ("id", "user_data_128", "user_data_64", "user_data_32", "ledger", "code", "flags")
TRANSFER_FIELDS = (
    "id",
    "debit_account_id",
    "credit_account_id",
    "amount",
    "pending_id",
    "user_data_128",
    "user_data_64",
    "user_data_32",
    "timeout",
    "ledger",
    "code",
    "flags",
)
# How often a pass reads the held amounts while it waits for them to return.
SETTLE_POLL_S = 0.1


class Client(Protocol):
    """The requests of `tigerbeetle.ClientSync` the generated clients send (their runtime's `Client`)."""

    def create_accounts(self, accounts: list[tb.Account]) -> list[tb.CreateAccountResult]: ...

    def create_transfers(self, transfers: list[tb.Transfer]) -> list[tb.CreateTransferResult]: ...

    def lookup_accounts(self, accounts: list[int]) -> list[tb.Account]: ...

    def lookup_transfers(self, transfers: list[int]) -> list[tb.Transfer]: ...


class Connection(Client, Protocol):
    """One of the runner's clients, which it closes at the end."""

    def close(self) -> None: ...


def fields(event: tb.Account | tb.Transfer, names: tuple[str, ...]) -> dict[str, str]:
    """The event's fields as decimal strings; flags as the number TigerBeetle gets."""
    return {name: str(int(getattr(event, name))) for name in names}


class Recording:
    """The same client, with every request written down in `requests` before it is sent."""

    def __init__(self, client: Client) -> None:
        self._client = client
        self.requests: list[Request] = []

    def create_accounts(self, accounts: list[tb.Account]) -> list[tb.CreateAccountResult]:
        self.requests.append(
            {"kind": "create_accounts", "events": [fields(a, ACCOUNT_FIELDS) for a in accounts]}
        )
        return self._client.create_accounts(accounts)

    def create_transfers(self, transfers: list[tb.Transfer]) -> list[tb.CreateTransferResult]:
        self.requests.append(
            {"kind": "create_transfers", "events": [fields(t, TRANSFER_FIELDS) for t in transfers]}
        )
        return self._client.create_transfers(transfers)

    def lookup_accounts(self, accounts: list[int]) -> list[tb.Account]:
        self.requests.append({"kind": "lookup_accounts", "ids": [str(i) for i in accounts]})
        return self._client.lookup_accounts(accounts)

    def lookup_transfers(self, transfers: list[int]) -> list[tb.Transfer]:
        self.requests.append({"kind": "lookup_transfers", "ids": [str(i) for i in transfers]})
        return self._client.lookup_transfers(transfers)


def every_field(event: tb.Account | tb.Transfer) -> dict[str, str]:
    """Every field of the library's type as a decimal string, as the bridge takes an event."""
    return {f.name: str(int(getattr(event, f.name))) for f in dataclasses.fields(event)}


def numbers(found: dict[str, str], of: type[tb.Account] | type[tb.Transfer]) -> dict[str, int]:
    """The fields of the library's type but flags, from an event the bridge found."""
    return {f.name: int(found[f.name]) for f in dataclasses.fields(of) if f.name != "flags"}


class DoubleBridge:
    """A client of the TEST DOUBLE's bridge (README, tests only), not TigerBeetle: the four methods
    of `tigerbeetle.ClientSync`, each a POST of the events or ids with every field a decimal string,
    answered with the library's own types so the generated client sees what ClientSync gives."""

    def __init__(self, url: str) -> None:
        self._url = url

    def _post(self, operation: str, body: dict[str, object]) -> Any:
        request = urllib.request.Request(
            f"{self._url}/{operation}",
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"the test double's bridge: {error.read().decode()}") from error

    def create_accounts(self, accounts: list[tb.Account]) -> list[tb.CreateAccountResult]:
        answer = self._post("create_accounts", {"events": [every_field(a) for a in accounts]})
        return [
            tb.CreateAccountResult(timestamp=0, status=tb.CreateAccountStatus(int(s)))
            for s in answer["results"]
        ]

    def create_transfers(self, transfers: list[tb.Transfer]) -> list[tb.CreateTransferResult]:
        answer = self._post("create_transfers", {"events": [every_field(t) for t in transfers]})
        return [
            tb.CreateTransferResult(timestamp=0, status=tb.CreateTransferStatus(int(s)))
            for s in answer["results"]
        ]

    def lookup_accounts(self, accounts: list[int]) -> list[tb.Account]:
        answer = self._post("lookup_accounts", {"ids": [str(i) for i in accounts]})
        return [
            tb.Account(**numbers(a, tb.Account), flags=tb.AccountFlags(int(a["flags"])))
            for a in answer["found"]
        ]

    def lookup_transfers(self, transfers: list[int]) -> list[tb.Transfer]:
        answer = self._post("lookup_transfers", {"ids": [str(i) for i in transfers]})
        return [
            tb.Transfer(**numbers(t, tb.Transfer), flags=tb.TransferFlags(int(t["flags"])))
            for t in answer["found"]
        ]

    def close(self) -> None:
        """Nothing to close: each request is a connection of its own."""


def hex_id(value: int) -> str:
    return f"{value:032x}"


class Job:
    """One job: its book value on its client, what each operation sent, and its clock of holds."""

    def __init__(self, runner: "Runner", job: dict[str, Any], index: int) -> None:
        self.runner = runner
        self.index = index
        self.tenant: str = job["tenant"]
        self.module: ModuleType = runner.modules[job["book"]]
        self.members: dict[str, Any] = runner.members[job["book"]]
        self.client = runner.clients[index % len(runner.clients)]
        self.clock = HoldClock(runner.expiry_s, runner.margin_s)

    def book(self, client: Client) -> Any:
        return self.module.tigerbeetle(client, tenant=self.tenant)

    def call(self, value: Any, recording: Recording, step: dict[str, Any]) -> tuple[str, Operation]:
        """One call through a book value on `recording`, with the requests it sent."""
        recording.requests = []
        answer = call(value, self.members, step)
        self.clock.answered(step, answer)
        return answer, {"requests": recording.requests}

    def together(self, callers: list[list[dict[str, Any]]]) -> tuple[list[list[str]], list[Operation]]:
        """Caller `c` on a new book value on client `(index + c) mod connections`, all at once."""
        clients = self.runner.clients
        start = threading.Barrier(len(callers))
        answers: list[list[str]] = [[] for _ in callers]
        operations: list[list[Operation]] = [[] for _ in callers]

        def caller(c: int) -> None:
            recording = Recording(clients[(self.index + c) % len(clients)])
            value = self.book(recording)
            start.wait()
            for step in callers[c]:
                answer, operation = self.call(value, recording, step)
                answers[c].append(answer)
                operations[c].append(operation)

        threads = [threading.Thread(target=caller, args=(c,)) for c in range(len(callers))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return answers, [op for ops in operations for op in ops]

    def settle(self, maps: list[dict[str, str]]) -> bool:
        """Reads `debits_pending` until one of the maps holds, at most `settle_ms`; False when none did."""
        ids = list(dict.fromkeys(account for m in maps for account in m))
        until = time.monotonic() + self.runner.settle_s
        while True:
            found = {
                hex_id(a.id): str(a.debits_pending)
                for a in self.client.lookup_accounts([int(account, 16) for account in ids])
            }
            if any(all(found.get(account, "0") == held for account, held in m.items()) for m in maps):
                return True
            if time.monotonic() > until:
                return False
            time.sleep(SETTLE_POLL_S)

    def end(self, job: dict[str, Any]) -> tuple[list[list[str]], list[str | None]]:
        """The accounts read directly, then each hold's state through a new book value."""
        accounts = [
            [
                hex_id(a.id),
                str(a.credits_posted - a.debits_posted),
                str(a.credits_pending),
                str(a.debits_pending),
            ]
            for a in self.client.lookup_accounts([int(account, 16) for account in job["accounts"]])
        ]
        reader = self.book(self.client)
        holds: list[str | None] = []
        for hold in job["holds"]:
            transfer = getattr(reader, python_name(self.members["transfers"][hold["call"]]))
            try:
                holds.append(transfer.status(**client_strings(self.members, hold)))
            except Exception as error:
                holds.append(failure(error))
        return accounts, holds

    def play(self, job: dict[str, Any]) -> dict[str, object]:
        recording = Recording(self.client)
        value = self.book(recording)
        steps: list[Step] = []
        sent: list[list[Operation]] = []
        for step in job["steps"]:
            if "pass" in step:
                self.clock.until_expired()
                sent.append([])
                steps.append(None if self.settle(step["held_out"]) else "unsettled")
            elif "together" in step:
                self.clock.check()
                answers, operations = self.together(step["together"])
                steps.append(answers)
                sent.append(operations)
            else:
                self.clock.check()
                answer, operation = self.call(value, recording, step)
                steps.append(answer)
                sent.append([operation])
        accounts, holds = self.end(job)
        self.clock.check()
        return {
            "id": job["id"],
            "steps": steps,
            "late": self.clock.late,
            "sent": sent,
            "accounts": accounts,
            "holds": holds,
        }


class Runner:
    """The clients, the generated modules, and the times every job shares."""

    def __init__(self, jobs: dict[str, Any], clients: list[Connection]) -> None:
        self.clients = clients
        self.expiry_s: float = jobs["expiry_ms"] / 1000
        self.margin_s: float = jobs["margin_ms"] / 1000
        self.settle_s: float = jobs["settle_ms"] / 1000
        self.members: dict[str, Any] = jobs["members"]
        self.modules = {book: load_client(book, where) for book, where in jobs["clients"].items()}


def connect(jobs: dict[str, Any]) -> Connection:
    """A client of cluster 0 at `addresses`, or (tests only) of the test double's bridge."""
    if "double" in jobs:
        return DoubleBridge(jobs["double"])
    return tb.ClientSync(cluster_id=0, replica_addresses=jobs["addresses"])


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: tigerbeetle_runner.py <jobs.json>", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        jobs: dict[str, Any] = json.load(f)
    clients: list[Connection] = []
    try:
        for _ in range(jobs["connections"]):
            clients.append(connect(jobs))
        runner = Runner(jobs, clients)
        play_all(jobs["jobs"], lambda i, job: Job(runner, job, i).play(job))
    finally:
        for client in clients:
            client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
