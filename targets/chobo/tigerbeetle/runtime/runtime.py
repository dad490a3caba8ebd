# The part of every chobo TigerBeetle client in Python that is the same for every book
# (docs/targets.md#tigerbeetle), over a `tigerbeetle.ClientSync` (tigerbeetle 0.17.9). It runs the
# book's plan (`TbPlan` of targets/chobo/tigerbeetle/plan.ts, which the book's part writes as
# `_definition()`): it fills each chain template with the ids (SHA-256 from hashlib), the arguments
# and the links, sends it, and reads TigerBeetle's answers through the plan's tables; it decides no
# chain of its own. `chobo build --target tigerbeetle-python` copies it byte for byte after the
# book's part of `<book>.py`; the tests check that it sends exactly what `chobo run --show
# tigerbeetle` prints and concludes what the reference interpreter concludes. Python 3.10 or later.
#
# One write is one chain in a `create_transfers` request, all or nothing; the chains of writes made at
# once by several threads on one book value share requests up to the replica's request limit
# (`_TransferBatcher`). Before it, `do` and
# `hold` answer `same_account` themselves and create the accounts and openings the chain uses (once
# per book value); `post` and `void` read the hold first (`no_such_hold` sends nothing more) and a
# post over the hold reads the hold's state instead of posting. A result chobo does not expect, or
# an account or opening that exists with other fields (the book changed), raises
# `ChoboError`, and the chain is not sent after such an account or opening. An argument past
# docs/reference.md#limits raises `ChoboArgumentError` (a `ValueError`), a call missing an argument
# `TypeError`, before anything is sent. TigerBeetle gives expired holds back by itself, so there is
# no `expire()`.

import hashlib
import json
import secrets
import threading
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NamedTuple, Protocol, TypeVar

import tigerbeetle as _tb

# Events in one request to a replica started with `--development`; a do or hold chain longer than
# this does not build (E060, docs/codes.md#e060).
MAX_BATCH = 253
# The version of the plan this runtime runs (`TB_PLAN_VERSION` of plan.ts).
PLAN_VERSION = 1
# `user_data_32` of a floor and a room account and of their openings.
FLOOR_MARK = 1
ROOM_MARK = 2
# An amount in a book: 0 … 2⁶³ − 1 in the unit's smallest unit; a balance is a signed 64-bit integer.
MAX_AMOUNT = (1 << 63) - 1
MIN_BALANCE = -(1 << 63)
MAX_BALANCE = (1 << 63) - 1
# The longest string argument, the tenant too, in UTF-8 bytes (docs/reference.md#limits).
MAX_STRING_BYTES = 256
# The first part of every id's hash input (docs/targets.md#ids).
ID_PREFIX = "chobo/1"
# TigerBeetle takes neither 0 nor 2¹²⁸ − 1 as an id.
_MAX_ID = (1 << 128) - 1

Outcome = Literal["done", "done_before", "refused"]
HoldState = Literal["held", "posted", "voided", "expired"]
_Op = Literal["do", "hold", "post", "void"]
_Event = TypeVar("_Event")


class Result(NamedTuple):
    """What a write answered: `done`, `done_before`, or `refused` with its reason."""

    result: Outcome
    reason: str | None = None


class Balance(NamedTuple):
    """An account's numbers: posted, and held towards it and away from it."""

    posted: int
    held_in: int
    held_out: int


class ChoboError(Exception):
    """TigerBeetle answered what chobo's client cannot read as a result: the book's account or
    bound changed (docs/targets.md#changing-a-book), a balance left the 64-bit range, or a bug in
    the client."""


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


class Client(Protocol):
    """The requests of `tigerbeetle.ClientSync` (tigerbeetle 0.17.9) the client sends."""

    def create_accounts(self, accounts: list[_tb.Account]) -> list[_tb.CreateAccountResult]: ...

    def create_transfers(self, transfers: list[_tb.Transfer]) -> list[_tb.CreateTransferResult]: ...

    def lookup_accounts(self, accounts: list[int]) -> list[_tb.Account]: ...

    def lookup_transfers(self, transfers: list[int]) -> list[_tb.Transfer]: ...


# Ids (docs/targets.md#ids): SHA-256 of enc("chobo/1") ‖ enc(role) ‖ enc(part) ‖ …, where enc(s)
# is the UTF-8 byte length of s (32-bit big-endian) and then s in UTF-8.


def _digest(role: str, parts: Sequence[str]) -> bytes:
    digest = hashlib.sha256()
    for part in (ID_PREFIX, role, *parts):
        data = part.encode("utf-8")
        digest.update(len(data).to_bytes(4, "big"))
        digest.update(data)
    return digest.digest()


def _id128(role: str, parts: Sequence[str]) -> int:
    """The first 16 bytes, big-endian; 0 becomes 1 and 2¹²⁸ − 1 becomes 2¹²⁸ − 2."""
    n = int.from_bytes(_digest(role, parts)[:16], "big")
    return 1 if n == 0 else _MAX_ID - 1 if n == _MAX_ID else n


def _hex32(value: int) -> str:
    """An id as a part of another id's hash input: 32 lower-case hex digits."""
    return format(value, "032x")


def _content_text(values: Sequence[str]) -> str:
    """A list of strings as compact JSON, byte for byte what JavaScript's `JSON.stringify` writes."""
    return json.dumps(list(values), ensure_ascii=False, separators=(",", ":"))


def _random_id() -> int:
    """A random 128-bit id other than 0 and 2¹²⁸ − 1 (the status chain's ids)."""
    while True:
        n = secrets.randbits(128)
        if n != 0 and n != _MAX_ID:
            return n


def _batches(events: Sequence[_Event]) -> list[list[_Event]]:
    """Events in requests of at most `MAX_BATCH`."""
    return [list(events[i : i + MAX_BATCH]) for i in range(0, len(events), MAX_BATCH)]


def _account_text(name: str, values: Sequence[str]) -> str:
    """`stock(sku-2)`, `suppliers`."""
    return name if len(values) == 0 else f"{name}({', '.join(values)})"


# Reading the answers (docs/targets.md#results): the plan's tables (`refusals`, `status`,
# `over_hold`) and each piece's `exceeds_credits`; `exists` is done_before on the first transfer and
# key_conflict on a later one, `exists_with_different_*` key_conflict.
_EXISTS_WITH_DIFFERENT = "exists_with_different_"


class _Use(NamedTuple):
    """A TigerBeetle account an operation uses: what it stands for (for errors), its kind, its
    account kind in the plan (None for a sink) and the event."""

    text: str
    what: str
    account: Mapping[str, Any] | None
    event: _tb.Account


class _Entry(NamedTuple):
    """One transfer of a filled chain, with the refusal `exceeds_credits` on it stands for."""

    exceeds_credits: str | None
    transfer: _tb.Transfer


def _unexpected(what: str, results: Sequence[str]) -> ChoboError:
    return ChoboError(
        f"chobo: TigerBeetle answered {what} with {', '.join(results)}, "
        "which chobo's client does not expect (a bug in the client)"
    )


def _status_names(results: Sequence[_tb.CreateTransferResult]) -> list[str]:
    return [r.status.name.lower() for r in results]


def _account_flags(names: Sequence[str]) -> _tb.AccountFlags:
    flags = _tb.AccountFlags.NONE
    for name in names:
        flags |= _tb.AccountFlags[name.upper()]
    return flags


def _transfer_flags(names: Sequence[str]) -> _tb.TransferFlags:
    flags = _tb.TransferFlags.NONE
    for name in names:
        flags |= _tb.TransferFlags[name.upper()]
    return flags


class _Waiting:
    """A chain waiting for its answers; `lead` when its thread is to send next."""

    def __init__(self, events: list[_tb.Transfer]) -> None:
        self.events = events
        self.results: list[_tb.CreateTransferResult] = []
        self.error: BaseException | None = None
        self.lead = False
        self.done = threading.Event()


class _TransferBatcher:
    """Packs the chains that threads send at once on one book value into shared requests of at most
    `limit` transfers, each chain whole and in order, and gives each its own answers. One thread
    sends at a time: the first to find none sending takes every chain waiting (its own among them),
    sends them, and hands the turn to the first chain that came meanwhile, so no caller sends for
    others longer than one round. `tigerbeetle.ClientSync` blocks its caller for each request, so
    the chains that come while one is in flight go together in the next."""

    def __init__(self, client: Client, limit: int) -> None:
        self._client = client
        self.limit = limit
        self._lock = threading.Lock()
        self._waiting: list[_Waiting] = []
        self._sending = False

    def send(self, events: list[_tb.Transfer]) -> list[_tb.CreateTransferResult]:
        if len(events) > self.limit:
            raise ChoboError(f"chobo: {len(events)} transfers in one chain, more than the {self.limit} a request takes")
        mine = _Waiting(events)
        with self._lock:
            self._waiting.append(mine)
            mine.lead = not self._sending
            self._sending = True
        if not mine.lead:
            mine.done.wait()
        if mine.lead:
            self._round()
        if mine.error is not None:
            raise mine.error
        return mine.results

    def _round(self) -> None:
        with self._lock:
            waiting, self._waiting = self._waiting, []
        try:
            request: list[_Waiting] = []
            size = 0
            for w in waiting:
                if size + len(w.events) > self.limit:
                    self._dispatch(request)
                    request, size = [], 0
                request.append(w)
                size += len(w.events)
            self._dispatch(request)
        finally:
            with self._lock:
                if len(self._waiting) == 0:
                    self._sending = False
                else:
                    self._waiting[0].lead = True
                    self._waiting[0].done.set()

    def _dispatch(self, request: list[_Waiting]) -> None:
        """Sends one request of chains. A lone chain reads its answers whatever they are
        (`_chain_result` says what is wrong with them); chains side by side are told apart only by
        one answer an event."""
        try:
            results = self._client.create_transfers([e for w in request for e in w.events])
            size = sum(len(w.events) for w in request)
            if len(request) > 1 and len(results) != size:
                raise ChoboError(
                    f"chobo: TigerBeetle answered {len(results)} results for the {len(request)} chains "
                    "of one request, not one an event"
                )
            at = 0
            for w in request:
                w.results = list(results) if len(request) == 1 else list(results[at : at + len(w.events)])
                at += len(w.events)
        except BaseException as e:
            for w in request:
                w.error = e
        for w in request:
            w.done.set()


class _TigerBeetle:
    """One book value on TigerBeetle (`tigerbeetle(client, tenant)`): it runs the book's plan and
    remembers the accounts and openings it created, so it sends each once
    (docs/targets.md#before-the-chain)."""

    def __init__(self, plan: Mapping[str, Any], client: Client, tenant: str, request_limit: int | None) -> None:
        if plan["version"] != PLAN_VERSION:
            raise ChoboError(f"chobo: a plan of version {plan['version']}, not {PLAN_VERSION}, which this runtime runs")
        limit = MAX_BATCH if request_limit is None else request_limit
        if limit < MAX_BATCH:
            raise ChoboError(f"chobo: request_limit is {limit}, less than the {MAX_BATCH} transfers of E060's chain")
        self._batcher = _TransferBatcher(client, limit)
        self._plan = plan
        self._book: str = plan["book"]
        self._client = client
        self._tenant = _string("tenant", tenant)
        self._accounts: dict[str, Mapping[str, Any]] = {a["name"]: a for a in plan["accounts"]}
        self._transfers: dict[str, Mapping[str, Any]] = {t["name"]: t for t in plan["transfers"]}
        self._created: set[int] = set()

    # The calls of the book's part.

    def write(self, transfer: str, op: _Op, args: Mapping[str, str | int | None]) -> Result:
        """Runs `do`, `hold`, `post` or `void` with the arguments by parameter name."""
        t = self._transfers[transfer]
        given = self._checked(t, op, args)
        if op == "do" or op == "hold":
            return self._move(t, op, given)
        return self._settle(t, op, given)

    def status(self, transfer: str, args: Mapping[str, str]) -> HoldState | None:
        """The state of a hold by the status chain, or None when there is no hold."""
        t = self._transfers[transfer]
        key = self._key(t, self._checked(t, "void", args))
        return self._status_of(self._send(self._status_chain(t, key)))

    def balance(self, account: str, args: Sequence[str]) -> Balance:
        """An account's numbers; an account never written reads 0, 0, 0. A balance outside 64 bits
        raises: TigerBeetle's balances are 128-bit, so the write passed
        (docs/targets.md#what-the-two-targets-share)."""
        a = self._accounts[account]
        for name, value in zip(a["params"], args, strict=True):
            _string(name, value)
        own = self._account_id(a, tuple(args))
        found = [x for x in self._client.lookup_accounts([own]) if x.id == own]
        if len(found) == 0:
            return Balance(0, 0, 0)
        x = found[0]
        numbers = Balance(x.credits_posted - x.debits_posted, x.credits_pending, x.debits_pending)
        if any(n < MIN_BALANCE or n > MAX_BALANCE for n in numbers):
            raise ChoboError(
                f"chobo: the balance of {_account_text(account, args)} left the 64-bit range: "
                f"posted {numbers.posted}, held in {numbers.held_in}, held out {numbers.held_out}"
            )
        return numbers

    # The arguments.

    def _checked(self, t: Mapping[str, Any], op: _Op, args: Mapping[str, str | int | None]) -> dict[str, str | int]:
        """The arguments given, checked: strings within docs/reference.md#limits, amounts whole numbers
        from 0 to 2⁶³ − 1 (else `ChoboArgumentError`), and a partial post passes every amount."""
        given: dict[str, str | int] = {}
        for p in t["params"]:
            name: str = p["name"]
            value = args.get(name)
            if value is None:
                continue
            if not p["amount"]:
                _string(name, value)
            elif isinstance(value, bool) or not isinstance(value, int):
                raise ChoboArgumentError(f"chobo: {name} is an amount, an int, got {value!r}")
            elif not 0 <= value <= MAX_AMOUNT:
                raise ChoboArgumentError(f"chobo: {name} is an amount, a whole number from 0 to 2⁶³ − 1, got {value}")
            given[name] = value
        needed = [p["name"] for p in t["params"] if op == "do" or op == "hold" or p["name"] in t["key"]]
        missing = [name for name in needed if name not in given]
        if len(missing) > 0:
            raise TypeError(f"chobo: {t['name']}.{op} needs {', '.join(missing)}")
        amounts = [p["name"] for p in t["params"] if p["amount"]]
        if op == "post" and 0 < len([a for a in amounts if a in given]) < len(amounts):
            missing = [a for a in amounts if a not in given]
            raise TypeError(f"chobo: a partial post passes every amount, and {', '.join(missing)} is missing")
        return given

    def _key(self, t: Mapping[str, Any], args: Mapping[str, str | int]) -> tuple[str, ...]:
        return tuple(str(args[k]) for k in t["key"])

    # Ids of this book and tenant (docs/targets.md#ids).

    def _account_id(self, a: Mapping[str, Any], values: tuple[str, ...]) -> int:
        return _id128("account", (self._book, self._tenant, a["name"], *values))

    def _sink_id(self, unit: Mapping[str, Any]) -> int:
        return _id128("sink", (self._book, self._tenant, unit["name"]))

    def _transfer_id(self, t: Mapping[str, Any], op: str, key: tuple[str, ...], position: int) -> int:
        return _id128("transfer", (self._book, self._tenant, t["name"], op, *key, str(position)))

    def _content_id(self, t: Mapping[str, Any], op: str, content: str) -> int:
        return _id128("content", (self._book, self._tenant, t["name"], op, t["definition_hash"], content))

    # The plan's templates, filled.

    def _use(self, ref: Mapping[str, Any], values: Mapping[str, str | int]) -> _Use:
        """The account a piece names, with the call's values for its arguments."""
        if ref["kind"] == "sink":
            unit = self._plan["units"][ref["unit"]]
            event = _tb.Account(
                id=self._sink_id(unit),
                user_data_128=0,
                user_data_64=0,
                user_data_32=0,
                ledger=unit["ledger"],
                code=unit["sink_code"],
                flags=_tb.AccountFlags.NONE,
            )
            return _Use(f"sink of {unit['name']}", "sink", None, event)
        a = self._plan["accounts"][ref["account"]]
        args = tuple(str(values[x]) for x in ref["args"])
        own = self._account_id(a, args)
        text = _account_text(a["name"], args)
        if ref["kind"] == "account":
            event = _tb.Account(
                id=own,
                user_data_128=_id128("kind", (self._book, self._tenant, a["name"])),
                user_data_64=0,
                user_data_32=0,
                ledger=a["ledger"],
                code=a["code"],
                flags=_account_flags(a["flags"]),
            )
            return _Use(text, "account", a, event)
        what: str = ref["kind"]
        event = _tb.Account(
            id=_id128(what, (_hex32(own),)),
            user_data_128=own,
            user_data_64=0,
            user_data_32=FLOOR_MARK if what == "floor" else ROOM_MARK,
            ledger=a["ledger"],
            code=a["code"],
            flags=_tb.AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS,
        )
        return _Use(f"{what} of {text}", what, a, event)

    def _opening(self, use: _Use) -> _tb.Transfer | None:
        """The opening of a floor (−L) or room (U) account: from the sink, keyed by its id."""
        a = use.account
        if a is None or use.what == "account":
            return None
        amount: int | None = a[use.what]
        if amount is None:
            raise AssertionError(f"a {use.what} of {a['name']}, which has none")
        e = use.event
        return _tb.Transfer(
            id=_id128("opening", (_hex32(e.id),)),
            debit_account_id=self._sink_id(self._plan["units"][a["unit"]]),
            credit_account_id=e.id,
            amount=amount,
            pending_id=0,
            user_data_128=e.user_data_128,
            user_data_64=0,
            user_data_32=e.user_data_32,
            timeout=0,
            ledger=e.ledger,
            code=e.code,
            flags=_tb.TransferFlags.NONE,
        )

    def _fill(
        self,
        t: Mapping[str, Any],
        op: str,
        key: tuple[str, ...],
        content: str,
        values: Mapping[str, str | int],
        settled: Sequence[int],
        used: dict[int, _Use],
    ) -> list[_Entry]:
        """The chain template of `op` filled: ids, amounts, accounts, pending ids and flags."""
        pieces: list[Mapping[str, Any]] = t["chains"][op]["pieces"]
        if len(pieces) > MAX_BATCH:
            raise ChoboError(f"chobo: a chain of {len(pieces)} transfers, more than one request takes (E060)")
        user_data = self._content_id(t, op, content)
        out: list[_Entry] = []

        def account(ref: Mapping[str, Any] | None) -> int:
            if ref is None:
                return 0
            use = self._use(ref, values)
            used.setdefault(use.event.id, use)
            return use.event.id

        for position, p in enumerate(pieces):
            debit = account(p["debit"])
            credit = account(p["credit"])
            source = p["amount"]
            amount = (
                int(source["value"])
                if source["kind"] == "literal"
                else int(values[source["param"]])
                if source["kind"] == "param"
                else settled[source["move"] - 1]
            )
            pending = p["pending"]
            pending_id = (
                0
                if pending["kind"] == "none"
                else out[pending["position"]].transfer.id
                if pending["kind"] == "piece"
                else self._transfer_id(t, "hold", key, pending["position"])
            )
            transfer = _tb.Transfer(
                id=_random_id() if p["id"] == "random" else self._transfer_id(t, op, key, position),
                debit_account_id=debit,
                credit_account_id=credit,
                amount=amount,
                pending_id=pending_id,
                user_data_128=user_data if p["user_data_128"] == "content" else 0,
                user_data_64=0,
                user_data_32=0,
                timeout=p["timeout"],
                ledger=p["ledger"],
                code=p["code"],
                flags=_transfer_flags(p["flags"]),
            )
            out.append(_Entry(p["exceeds_credits"], transfer))
        return out

    def _status_chain(self, t: Mapping[str, Any], key: tuple[str, ...]) -> list[_Entry]:
        return self._fill(t, "status", key, "[]", {}, [], {})

    # The client's steps (targets/chobo/tigerbeetle/client.ts).

    def _send(self, chain: Sequence[_Entry]) -> list[str]:
        return _status_names(self._batcher.send([e.transfer for e in chain]))

    def _move(self, t: Mapping[str, Any], op: _Op, args: Mapping[str, str | int]) -> Result:
        if any(self._use(m["from"], args).event.id == self._use(m["to"], args).event.id for m in t["moves"]):
            return Result("refused", "same_account")
        used: dict[int, _Use] = {}
        content = _content_text([str(args[p["name"]]) for p in t["params"]])
        chain = self._fill(t, op, self._key(t, args), content, args, [], used)
        accounts = list(used.values())
        for batch in _batches([a for a in accounts if a.event.id not in self._created]):
            results = [r.status.name.lower() for r in self._client.create_accounts([a.event for a in batch])]
            _check_accounts(batch, results)
            self._created.update(a.event.id for a in batch)
        openings = [o for o in (self._opening(u) for u in accounts) if o is not None]
        for batch_of in _batches([o for o in openings if o.id not in self._created]):
            _check_openings(batch_of, accounts, _status_names(self._batcher.send(batch_of)))
            self._created.update(o.id for o in batch_of)
        return self._chain_result(t, op, chain, self._send(chain))

    def _settle(self, t: Mapping[str, Any], op: _Op, args: Mapping[str, str | int]) -> Result:
        key = self._key(t, args)
        lookups = [self._transfer_id(t, "hold", key, position) for position in t["lookups"]]
        found = {x.id: x.amount for x in self._client.lookup_transfers(lookups)}
        if lookups[0] not in found:
            return Result("refused", "no_such_hold")
        missing = [x for x in lookups if x not in found]
        if len(missing) > 0:
            raise ChoboError(f"chobo: the hold's transfer {missing[0]} is missing while the first is there")
        held = [found[x] for x in lookups]
        amounts = held
        if op == "post":
            partial = any(p["amount"] and p["name"] in args for p in t["params"])
            amounts = [
                int(args[m["amount"]["param"]]) if partial and m["amount"]["kind"] == "param" else held[i]
                for i, m in enumerate(t["moves"])
            ]
            if any(a > h for a, h in zip(amounts, held, strict=True)):
                state = self._status_of(self._send(self._status_chain(t, key)))
                if state is None:
                    raise ChoboError("chobo: the hold read before the post is not there any more")
                return Result("refused", self._plan["over_hold"][state])
        content = _content_text([str(a) for a in amounts]) if t["chains"][op]["content"] == "amounts" else "[]"
        chain = self._fill(t, op, key, content, args, amounts, {})
        return self._chain_result(t, op, chain, self._send(chain))

    # Reading the answers (docs/targets.md#results), by the plan's tables.

    def _status_of(self, results: Sequence[str]) -> HoldState | None:
        """The state a status chain's results say; None when there is no hold."""
        for first, second, state in self._plan["status"]:
            if len(results) == 2 and results[0] == first and results[1] == second:
                known: HoldState | None = state
                return known
        raise _unexpected("the status chain", results)

    def _chain_result(self, t: Mapping[str, Any], op: _Op, chain: Sequence[_Entry], results: Sequence[str]) -> Result:
        """A chain's result: its first transfer whose result is neither `created` nor
        `linked_event_failed` decides."""
        what = f"{t['name']}.{op}"
        if len(results) != len(chain):
            raise _unexpected(what, results)
        deciding = [i for i, r in enumerate(results) if r != "created" and r != "linked_event_failed"]
        if len(deciding) == 0:
            if all(r == "created" for r in results):
                return Result("done")
            raise _unexpected(what, results)
        i = deciding[0]
        r = results[i]
        if r == "exists":
            return Result("done_before") if i == 0 else Result("refused", "key_conflict")
        if r.startswith(_EXISTS_WITH_DIFFERENT):
            return Result("refused", "key_conflict")
        reason: str | None = chain[i].exceeds_credits if r == "exceeds_credits" else self._plan["refusals"].get(r)
        if reason is None:
            raise _unexpected(what, results)
        return Result("refused", reason)


def _check_accounts(uses: Sequence[_Use], results: Sequence[str]) -> None:
    """Each account is `created` or `exists`; one with other fields means the book changed."""
    if len(results) != len(uses):
        raise _unexpected("create_accounts", results)
    for use, r in zip(uses, results, strict=True):
        if r == "created" or r == "exists":
            continue
        if r.startswith(_EXISTS_WITH_DIFFERENT):
            raise ChoboError(
                f"chobo: the TigerBeetle account of {use.text} exists with different "
                f"{r[len(_EXISTS_WITH_DIFFERENT) :]}: the book's account definition changed "
                "(docs/targets.md#changing-a-book); make a new account kind instead"
            )
        raise _unexpected(f"create_accounts ({use.text})", [r])


def _check_openings(openings: Sequence[_tb.Transfer], uses: Sequence[_Use], results: Sequence[str]) -> None:
    """Each opening is `created` or `exists`; another amount means the book's bound changed."""
    if len(results) != len(openings):
        raise _unexpected("the openings", results)
    for opening, r in zip(openings, results, strict=True):
        if r == "created" or r == "exists":
            continue
        name = next((u.text for u in uses if u.event.id == opening.credit_account_id), "an account")
        if r == "exists_with_different_amount":
            raise ChoboError(
                f"chobo: the opening of {name} exists with another amount: the book's bound changed "
                "(docs/targets.md#changing-a-book); make a new account kind instead"
            )
        raise _unexpected(f"the opening of {name}", [r])
