# The part of every chobo TigerBeetle client in Python that is the same for every book
# (docs/targets.md#tigerbeetle): the ids (SHA-256 from hashlib), the accounts, openings and chain
# each operation sends, how TigerBeetle's answers read, and the client's steps over a
# `tigerbeetle.ClientSync` (tigerbeetle 0.17.9). `chobo build --target tigerbeetle-python` copies it byte for byte after the
# book's part of `<book>.py`. It is targets/chobo/tigerbeetle/{ids,chain,results,client}.ts in
# Python: the tests check that it sends exactly what `chobo run --show tigerbeetle` prints, and
# concludes what the reference interpreter concludes. Python 3.10 or later.
#
# One write is one chain in one `create_transfers` request, all or nothing. Before it, `do` and
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
from collections.abc import Mapping, Sequence
from typing import Literal, NamedTuple, Protocol, TypeVar

import tigerbeetle as _tb

# Events in one request to a replica started with `--development`; a do or hold chain longer than
# this does not build (E060, docs/codes.md#e060).
MAX_BATCH = 253
# A move is at most 6 transfers (docs/targets.md#one-move-up-to-6-transfers).
MAX_PIECES_PER_MOVE = 6
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
_Role = Literal[
    "move",
    "probe",
    "probe_void",
    "from_floor",
    "from_room",
    "to_room",
    "to_floor",
    "status_void",
    "status_refusal",
]
_What = Literal["account", "floor", "room", "sink"]
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


# The book's definition, as the book's part of the file writes it.


class _Unit(NamedTuple):
    name: str
    scale: int


class _Bound(NamedTuple):
    value: int
    reason: str


class _Account(NamedTuple):
    name: str
    params: tuple[str, ...]
    unit: _Unit
    lower: _Bound | None
    upper: _Bound | None


class _Param(NamedTuple):
    name: str
    amount: bool


class _Side(NamedTuple):
    """An account a move names, with the transfer's parameters passed to it."""

    account: str
    args: tuple[str, ...]


class _Move(NamedTuple):
    """A move of `value`, or of the amount parameter `param` when it is not None."""

    unit: _Unit
    source: _Side
    target: _Side
    param: str | None
    value: int


class _Transfer(NamedTuple):
    """A kind of transfer; `timeout` is its hold's expiry in seconds, 0 for `never expires` or none."""

    name: str
    params: tuple[_Param, ...]
    key: tuple[str, ...]
    timeout: int
    moves: tuple[_Move, ...]
    definition_hash: str


class _BookDef(NamedTuple):
    name: str
    accounts: tuple[_Account, ...]
    transfers: tuple[_Transfer, ...]


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


def _leading(role: str, parts: Sequence[str], size: int) -> int:
    """The first `size` bytes, big-endian, 0 read as 1 (`ledger`, `code`)."""
    n = int.from_bytes(_digest(role, parts)[:size], "big")
    return 1 if n == 0 else n


def _hex32(value: int) -> str:
    """An id as a part of another id's hash input: 32 lower-case hex digits."""
    return format(value, "032x")


def _ledger(unit: _Unit) -> int:
    return _leading("ledger", (unit.name, str(unit.scale)), 4)


def _code(book: str, of: str, name: str) -> int:
    return _leading("code", (book, of, name), 2)


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


class _Use(NamedTuple):
    """A TigerBeetle account an operation uses: what it stands for (for errors) and the event."""

    text: str
    what: _What
    account: _Account | None
    event: _tb.Account


class _Entry(NamedTuple):
    """One transfer of a chain, with its role and the move (1-based) it belongs to."""

    role: _Role
    move: int | None
    transfer: _tb.Transfer


class _Sends(NamedTuple):
    """What `do` or `hold` sends: accounts, then openings, each in requests of `MAX_BATCH`, then the chain."""

    accounts: list[_Use]
    openings: list[_tb.Transfer]
    chain: list[_Entry]


class _Piece(NamedTuple):
    role: _Role
    move: int
    position: int


# Reading the answers (docs/targets.md#results): a chain's result is decided by its first transfer
# whose result is neither `created` nor `linked_event_failed`. `exists` (done_before on the first
# transfer, key_conflict on a later one), `exists_with_different_*` (key_conflict) and
# `exceeds_credits` (a bound's reason, by the transfer's role) are read in `_chain_result`.
_REFUSALS: Mapping[str, str] = {
    "id_already_failed": "already_refused",
    "accounts_must_be_different": "same_account",
    "pending_transfer_already_posted": "already_posted",
    "pending_transfer_already_voided": "already_voided",
    "pending_transfer_expired": "expired",
    "exceeds_pending_transfer_amount": "over_hold",
}
# The two results 0.17.9 gave the status chain for each state of a hold (docs/targets.md#results).
_STATUS_RESULTS: tuple[tuple[str, str, HoldState | None], ...] = (
    ("linked_event_failed", "accounts_must_be_different", "held"),
    ("pending_transfer_already_posted", "linked_event_failed", "posted"),
    ("pending_transfer_already_voided", "linked_event_failed", "voided"),
    ("pending_transfer_expired", "linked_event_failed", "expired"),
    ("pending_transfer_not_found", "linked_event_failed", None),
)
# A post over the hold answers by the hold's state (docs/targets.md#before-the-chain), as the
# reference interpreter checks the state before the amounts (docs/reference.md#meaning).
_OVER_HOLD: Mapping[HoldState, str] = {
    "held": "over_hold",
    "posted": "key_conflict",
    "voided": "already_voided",
    "expired": "expired",
}
_EXISTS_WITH_DIFFERENT = "exists_with_different_"


def _unexpected(what: str, results: Sequence[str]) -> ChoboError:
    return ChoboError(
        f"chobo: TigerBeetle answered {what} with {', '.join(results)}, "
        "which chobo's client does not expect (a bug in the client)"
    )


def _status_names(results: Sequence[_tb.CreateTransferResult]) -> list[str]:
    return [r.status.name.lower() for r in results]


def _status_of(results: Sequence[str]) -> HoldState | None:
    """The state a status chain's results say; None when there is no hold."""
    for first, second, state in _STATUS_RESULTS:
        if len(results) == 2 and results[0] == first and results[1] == second:
            return state
    raise _unexpected("the status chain", results)


class _TigerBeetle:
    """One book value on TigerBeetle (`tigerbeetle(client, tenant)`): it remembers the accounts and
    openings it created, so it sends each once (docs/targets.md#before-the-chain)."""

    def __init__(self, book: _BookDef, client: Client, tenant: str) -> None:
        self._book = book
        self._client = client
        self._tenant = _string("tenant", tenant)
        self._accounts = {a.name: a for a in book.accounts}
        self._transfers = {t.name: t for t in book.transfers}
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
        return _status_of(self._send(self._status_chain(t, key)))

    def balance(self, account: str, args: Sequence[str]) -> Balance:
        """An account's numbers; an account never written reads 0, 0, 0. A balance outside 64 bits
        raises: TigerBeetle's balances are 128-bit, so the write passed
        (docs/targets.md#what-the-two-targets-share)."""
        a = self._accounts[account]
        for name, value in zip(a.params, args, strict=True):
            _string(name, value)
        own = self._account_id(a, tuple(args))
        found = [x for x in self._client.lookup_accounts([own]) if x.id == own]
        if len(found) == 0:
            return Balance(0, 0, 0)
        x = found[0]
        numbers = Balance(x.credits_posted - x.debits_posted, x.credits_pending, x.debits_pending)
        if any(n < MIN_BALANCE or n > MAX_BALANCE for n in numbers):
            raise ChoboError(
                f"chobo: the balance of {_account_text(a.name, args)} left the 64-bit range: "
                f"posted {numbers.posted}, held in {numbers.held_in}, held out {numbers.held_out}"
            )
        return numbers

    # The arguments.

    def _checked(self, t: _Transfer, op: _Op, args: Mapping[str, str | int | None]) -> dict[str, str | int]:
        """The arguments given, checked: strings within docs/reference.md#limits, amounts whole numbers
        from 0 to 2⁶³ − 1 (else `ChoboArgumentError`), and a partial post passes every amount."""
        given: dict[str, str | int] = {}
        for p in t.params:
            value = args.get(p.name)
            if value is None:
                continue
            if not p.amount:
                _string(p.name, value)
            elif isinstance(value, bool) or not isinstance(value, int):
                raise ChoboArgumentError(f"chobo: {p.name} is an amount, an int, got {value!r}")
            elif not 0 <= value <= MAX_AMOUNT:
                raise ChoboArgumentError(
                    f"chobo: {p.name} is an amount, a whole number from 0 to 2⁶³ − 1, got {value}"
                )
            given[p.name] = value
        needed = [p.name for p in t.params if op == "do" or op == "hold" or p.name in t.key]
        missing = [name for name in needed if name not in given]
        if len(missing) > 0:
            raise TypeError(f"chobo: {t.name}.{op} needs {', '.join(missing)}")
        amounts = [p.name for p in t.params if p.amount]
        if op == "post" and 0 < len([a for a in amounts if a in given]) < len(amounts):
            missing = [a for a in amounts if a not in given]
            raise TypeError(f"chobo: a partial post passes every amount, and {', '.join(missing)} is missing")
        return given

    def _key(self, t: _Transfer, args: Mapping[str, str | int]) -> tuple[str, ...]:
        return tuple(str(args[k]) for k in t.key)

    def _side(self, side: _Side, args: Mapping[str, str | int]) -> tuple[_Account, tuple[str, ...]]:
        return self._accounts[side.account], tuple(str(args[a]) for a in side.args)

    # Ids of this book and tenant.

    def _account_id(self, a: _Account, values: tuple[str, ...]) -> int:
        return _id128("account", (self._book.name, self._tenant, a.name, *values))

    def _sink_id(self, unit: _Unit) -> int:
        return _id128("sink", (self._book.name, self._tenant, unit.name))

    def _transfer_id(self, t: _Transfer, op: _Op, key: tuple[str, ...], position: int) -> int:
        return _id128("transfer", (self._book.name, self._tenant, t.name, op, *key, str(position)))

    def _content_id(self, t: _Transfer, op: _Op, content: str) -> int:
        return _id128("content", (self._book.name, self._tenant, t.name, op, t.definition_hash, content))

    # The accounts and the chains (targets/chobo/tigerbeetle/chain.ts).

    def _pieces(self, m: _Move) -> list[_Role]:
        """The pieces of one move, in chain order (docs/targets.md#one-move-up-to-6-transfers)."""
        source = self._accounts[m.source.account]
        target = self._accounts[m.target.account]
        pieces: list[_Role] = ["move"]
        if source.lower is not None and source.lower.value > 0:
            pieces += ["probe", "probe_void"]
        if source.lower is not None and source.lower.value < 0:
            pieces.append("from_floor")
        if source.upper is not None:
            pieces.append("from_room")
        if target.upper is not None:
            pieces.append("to_room")
        if target.lower is not None and target.lower.value < 0:
            pieces.append("to_floor")
        if len(pieces) > MAX_PIECES_PER_MOVE:
            raise AssertionError(f"{len(pieces)} pieces in one move")
        return pieces

    def _layout(self, t: _Transfer) -> list[_Piece]:
        """Every piece of `t`'s do or hold chain with its move and position."""
        roles = [(role, i + 1) for i, m in enumerate(t.moves) for role in self._pieces(m)]
        return [_Piece(role, move, position) for position, (role, move) in enumerate(roles)]

    def _own(self, a: _Account, values: tuple[str, ...]) -> _Use:
        event = _tb.Account(
            id=self._account_id(a, values),
            user_data_128=_id128("kind", (self._book.name, self._tenant, a.name)),
            user_data_64=0,
            user_data_32=0,
            ledger=_ledger(a.unit),
            code=_code(self._book.name, "account", a.name),
            flags=(
                _tb.AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS
                if a.lower is not None and a.lower.value >= 0
                else _tb.AccountFlags.NONE
            ),
        )
        return _Use(_account_text(a.name, values), "account", a, event)

    def _bounding(self, what: Literal["floor", "room"], a: _Account, values: tuple[str, ...]) -> _Use:
        """The floor or room of an account: flagged, `user_data_128` = the account's id."""
        own = self._account_id(a, values)
        event = _tb.Account(
            id=_id128(what, (_hex32(own),)),
            user_data_128=own,
            user_data_64=0,
            user_data_32=FLOOR_MARK if what == "floor" else ROOM_MARK,
            ledger=_ledger(a.unit),
            code=_code(self._book.name, "account", a.name),
            flags=_tb.AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS,
        )
        return _Use(f"{what} of {_account_text(a.name, values)}", what, a, event)

    def _sink(self, unit: _Unit) -> _Use:
        event = _tb.Account(
            id=self._sink_id(unit),
            user_data_128=0,
            user_data_64=0,
            user_data_32=0,
            ledger=_ledger(unit),
            code=_code(self._book.name, "sink", unit.name),
            flags=_tb.AccountFlags.NONE,
        )
        return _Use(f"sink of {unit.name}", "sink", None, event)

    def _opening(self, use: _Use) -> _tb.Transfer | None:
        """The opening of a floor (−L) or room (U) account: from the sink, keyed by its id."""
        a = use.account
        if a is None or use.what == "account" or use.what == "sink":
            return None
        if use.what == "floor":
            if a.lower is None:
                raise AssertionError(f"a floor of {a.name}, which has no lower bound")
            amount = -a.lower.value
        else:
            if a.upper is None:
                raise AssertionError(f"a room of {a.name}, which has no upper bound")
            amount = a.upper.value
        e = use.event
        return _tb.Transfer(
            id=_id128("opening", (_hex32(e.id),)),
            debit_account_id=self._sink_id(a.unit),
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

    def _move_sends(self, t: _Transfer, op: _Op, args: Mapping[str, str | int]) -> _Sends | None:
        """What a do or hold sends; None when a move's from and to are the same account."""
        sides = [(m, self._side(m.source, args), self._side(m.target, args)) for m in t.moves]
        if any(source[0].name == target[0].name and source[1] == target[1] for _, source, target in sides):
            return None
        key = self._key(t, args)
        held = op == "hold"
        timeout = t.timeout if held else 0
        user_data = self._content_id(t, op, _content_text([str(args[p.name]) for p in t.params]))
        code = _code(self._book.name, "transfer", t.name)
        pending = _tb.TransferFlags.PENDING if held else _tb.TransferFlags.NONE
        used: dict[int, _Use] = {}

        def use(u: _Use) -> int:
            used.setdefault(u.event.id, u)
            return u.event.id

        entries: list[_Entry] = []
        for index, (m, (source, source_values), (target, target_values)) in enumerate(sides, start=1):
            amount = m.value if m.param is None else int(args[m.param])
            # A probe hold is of the lower bound L > 0 (the pieces have one only then).
            probe = 0 if source.lower is None else source.lower.value
            for role in self._pieces(m):
                position = len(entries)
                transfer_id = self._transfer_id(t, op, key, position)
                if role == "probe_void":
                    transfer = _tb.Transfer(
                        id=transfer_id,
                        debit_account_id=0,
                        credit_account_id=0,
                        amount=probe,
                        pending_id=entries[position - 1].transfer.id,
                        user_data_128=user_data,
                        user_data_64=0,
                        user_data_32=0,
                        timeout=0,
                        ledger=0,
                        code=0,
                        flags=_tb.TransferFlags.VOID_PENDING_TRANSFER,
                    )
                    entries.append(_Entry(role, index, transfer))
                    continue
                if role == "move":
                    ends = (self._own(source, source_values), self._own(target, target_values))
                elif role == "probe":
                    ends = (self._own(source, source_values), self._sink(m.unit))
                elif role == "from_floor":
                    ends = (self._bounding("floor", source, source_values), self._sink(m.unit))
                elif role == "from_room":
                    ends = (self._sink(m.unit), self._bounding("room", source, source_values))
                elif role == "to_room":
                    ends = (self._bounding("room", target, target_values), self._sink(m.unit))
                elif role == "to_floor":
                    ends = (self._sink(m.unit), self._bounding("floor", target, target_values))
                else:
                    raise AssertionError(f"no {role} piece in a move")
                # The debit account is named before the credit account: the order accounts are created in.
                debit = use(ends[0])
                credit = use(ends[1])
                transfer = _tb.Transfer(
                    id=transfer_id,
                    debit_account_id=debit,
                    credit_account_id=credit,
                    amount=probe if role == "probe" else amount,
                    pending_id=0,
                    user_data_128=user_data,
                    user_data_64=0,
                    user_data_32=0,
                    timeout=timeout,
                    ledger=_ledger(m.unit),
                    code=code,
                    flags=_tb.TransferFlags.PENDING if role == "probe" else pending,
                )
                entries.append(_Entry(role, index, transfer))
        accounts = list(used.values())
        openings = [o for o in (self._opening(u) for u in accounts) if o is not None]
        return _Sends(accounts, openings, _linked(entries))

    def _hold_lookups(self, t: _Transfer, key: tuple[str, ...]) -> list[int]:
        """The hold's transfer of each move, in move order; the first is the hold's id."""
        return [self._transfer_id(t, "hold", key, p.position) for p in self._layout(t) if p.role == "move"]

    def _settle_chain(
        self, t: _Transfer, op: _Op, key: tuple[str, ...], amounts: Sequence[int]
    ) -> list[_Entry]:
        """Posts or voids every pending piece of the hold (not the probe), in the hold's order."""
        content = _content_text([str(a) for a in amounts]) if op == "post" else "[]"
        user_data = self._content_id(t, op, content)
        flags = (
            _tb.TransferFlags.POST_PENDING_TRANSFER
            if op == "post"
            else _tb.TransferFlags.VOID_PENDING_TRANSFER
        )
        pieces = [p for p in self._layout(t) if p.role != "probe" and p.role != "probe_void"]
        return _linked(
            [
                _Entry(
                    p.role,
                    p.move,
                    _tb.Transfer(
                        id=self._transfer_id(t, op, key, i),
                        debit_account_id=0,
                        credit_account_id=0,
                        amount=amounts[p.move - 1],
                        pending_id=self._transfer_id(t, "hold", key, p.position),
                        user_data_128=user_data,
                        user_data_64=0,
                        user_data_32=0,
                        timeout=0,
                        ledger=0,
                        code=0,
                        flags=flags,
                    ),
                )
                for i, p in enumerate(pieces)
            ]
        )

    def _status_chain(self, t: _Transfer, key: tuple[str, ...]) -> list[_Entry]:
        """A void of the hold's first transfer and a transfer from the sink to itself, random ids:
        the second is always refused, so nothing is written and the first's result is the state."""
        unit = t.moves[0].unit
        sink = self._sink_id(unit)
        void = _tb.Transfer(
            id=_random_id(),
            debit_account_id=0,
            credit_account_id=0,
            amount=0,
            pending_id=self._transfer_id(t, "hold", key, 0),
            user_data_128=0,
            user_data_64=0,
            user_data_32=0,
            timeout=0,
            ledger=0,
            code=0,
            flags=_tb.TransferFlags.VOID_PENDING_TRANSFER,
        )
        refusal = _tb.Transfer(
            id=_random_id(),
            debit_account_id=sink,
            credit_account_id=sink,
            amount=0,
            pending_id=0,
            user_data_128=0,
            user_data_64=0,
            user_data_32=0,
            timeout=0,
            ledger=_ledger(unit),
            code=_code(self._book.name, "transfer", t.name),
            flags=_tb.TransferFlags.NONE,
        )
        return _linked([_Entry("status_void", 1, void), _Entry("status_refusal", None, refusal)])

    # The client's steps (targets/chobo/tigerbeetle/client.ts).

    def _send(self, chain: Sequence[_Entry]) -> list[str]:
        return _status_names(self._client.create_transfers([e.transfer for e in chain]))

    def _move(self, t: _Transfer, op: _Op, args: Mapping[str, str | int]) -> Result:
        sends = self._move_sends(t, op, args)
        if sends is None:
            return Result("refused", "same_account")
        for batch in _batches([a for a in sends.accounts if a.event.id not in self._created]):
            results = [r.status.name.lower() for r in self._client.create_accounts([a.event for a in batch])]
            _check_accounts(batch, results)
            self._created.update(a.event.id for a in batch)
        for openings in _batches([o for o in sends.openings if o.id not in self._created]):
            _check_openings(openings, sends.accounts, _status_names(self._client.create_transfers(openings)))
            self._created.update(o.id for o in openings)
        return self._chain_result(t, op, sends.chain, self._send(sends.chain))

    def _settle(self, t: _Transfer, op: _Op, args: Mapping[str, str | int]) -> Result:
        key = self._key(t, args)
        lookups = self._hold_lookups(t, key)
        found = {x.id: x.amount for x in self._client.lookup_transfers(lookups)}
        if lookups[0] not in found:
            return Result("refused", "no_such_hold")
        missing = [x for x in lookups if x not in found]
        if len(missing) > 0:
            raise ChoboError(f"chobo: the hold's transfer {missing[0]} is missing while the first is there")
        held = [found[x] for x in lookups]
        if op == "void":
            amounts = held
        else:
            partial = any(p.amount and p.name in args for p in t.params)
            amounts = [
                int(args[m.param]) if partial and m.param is not None else held[i]
                for i, m in enumerate(t.moves)
            ]
            if any(a > h for a, h in zip(amounts, held, strict=True)):
                return self._over_hold(_status_of(self._send(self._status_chain(t, key))))
        chain = self._settle_chain(t, op, key, amounts)
        return self._chain_result(t, op, chain, self._send(chain))

    def _over_hold(self, state: HoldState | None) -> Result:
        if state is None:
            raise ChoboError("chobo: the hold read before the post is not there any more")
        return Result("refused", _OVER_HOLD[state])

    def _bound_reason(self, t: _Transfer, e: _Entry) -> str | None:
        """The reason `exceeds_credits` on a chain transfer stands for, or None where no bound is checked."""
        if e.move is None:
            return None
        m = t.moves[e.move - 1]
        if e.role == "move" or e.role == "probe" or e.role == "from_floor":
            lower = self._accounts[m.source.account].lower
            return None if lower is None else lower.reason
        if e.role == "to_room":
            upper = self._accounts[m.target.account].upper
            return None if upper is None else upper.reason
        return None

    def _chain_result(self, t: _Transfer, op: _Op, chain: Sequence[_Entry], results: Sequence[str]) -> Result:
        """The result of one operation's chain from its per-transfer results (docs/targets.md#results)."""
        what = f"{t.name}.{op}"
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
        if r == "exceeds_credits":
            reason = self._bound_reason(t, chain[i])
            if reason is None:
                raise _unexpected(what, results)
            return Result("refused", reason)
        if r in _REFUSALS:
            return Result("refused", _REFUSALS[r])
        raise _unexpected(what, results)


def _linked(entries: list[_Entry]) -> list[_Entry]:
    """`linked` on every transfer but the last."""
    for e in entries[:-1]:
        e.transfer.flags |= _tb.TransferFlags.LINKED
    return entries


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
