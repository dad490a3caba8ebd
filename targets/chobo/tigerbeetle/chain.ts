/**
 * What one operation sends to TigerBeetle (docs/design/chobo.md#tigerbeetle), as plain data with every field
 * a client sends: the accounts and openings to create, the ids read before a post or void, and
 * the chain of one `create_transfers` request.
 *
 * **Bounds.** Each move becomes up to 6 transfers, in this order (`movePieces`):
 *
 * | piece        | when                                  | debit → credit        | amount |
 * |--------------|---------------------------------------|-----------------------|--------|
 * | `move`       | always                                | from → to             | a      |
 * | `probe`      | from has a lower bound L > 0          | from → sink (pending) | L      |
 * | `probe_void` | after `probe`                         | voids `probe`         | L      |
 * | `from_floor` | from has a lower bound L < 0          | floor(from) → sink    | a      |
 * | `from_room`  | from has an upper bound               | sink → room(from)     | a      |
 * | `to_room`    | to has an upper bound                 | room(to) → sink       | a      |
 * | `to_floor`   | to has a lower bound L < 0            | sink → floor(to)      | a      |
 *
 * An account with a lower bound ≥ 0 carries `debits_must_not_exceed_credits`; floors and rooms
 * always do; an account with a lower bound below 0, or none, does not. A hold makes every piece
 * but `probe_void` pending with the hold's expiry as `timeout` (0 for `never expires`); `do`
 * makes only the probe pending (timeout 0: it is voided in the same chain). Every transfer but
 * the last carries `linked`.
 *
 * **Fields** (where the design points at a plan this repository does not have, the choice is ours;
 * docs/targets.md#fields):
 * - Accounts: `user_data_128` = the kind id (role `kind` of docs/targets.md#ids), `code` = role `code` (book,
 *   `account`, kind), `ledger` = the unit's. Floor and room accounts take the `code` of the account they
 *   bound, `user_data_128` = that account's id (one lookup by `user_data_128` finds an account's
 *   floor, room and openings) and `user_data_32` = 1 (floor) or 2 (room). The sink of a unit takes
 *   role `code` (book, `sink`, unit) and zero `user_data_*`. `user_data_64` is 0 everywhere.
 * - Openings: sink → floor with −L, sink → room with U; `code`, `user_data_128` and `user_data_32`
 *   as their floor or room account; `timeout` 0; no flags.
 * - Chains: `user_data_128` = role `content` on every transfer, `user_data_64` and `user_data_32`
 *   0, `code` = the transfer kind's code, `ledger` = the move's unit's.
 * - Post and void: one transfer per pending piece of the hold, in the hold's order, `pending_id`
 *   = that piece's id; `debit_account_id`, `credit_account_id`, `ledger` and `code` are 0, so
 *   TigerBeetle takes them from the pending transfer (the design says so for `code`; for the
 *   accounts it also means a post is built from the key alone). The amount is what each move
 *   posts (a full post: the amount read before), or for a void the amount read: the
 *   exact pending amount, which a void always takes and a retry meets as `exists` (the probe's void
 *   likewise sends L).
 * - The order accounts are created in: as the chain first names them, each transfer's debit
 *   account before its credit account. Openings follow in the order of their floor and room.
 * - The status chain (docs/design/chobo.md#tigerbeetle): a void of the hold's first transfer (amount 0,
 *   every inherited field 0), then a transfer from the unit's sink to itself (amount 0), both
 *   with random ids and zero `user_data_*`. The void sends amount 0: a status read knows no
 *   amount. The sink need not exist: `accounts_must_be_different` is a check of the event itself,
 *   made before any account is looked up.
 * @module
 */

import { accountId, holdId, ledgerOf, transferCode } from "../../../lang/chobo/ids.ts";
import { unreachable } from "../../../lang/common/assert.ts";
import {
  type AccountId,
  amountArg,
  type Call,
  callContent,
  isPartialPost,
  keyValues,
  moveAmount,
  stringArg,
} from "../../../lang/chobo/interp.ts";
import type { Account, Book, Move, Transfer } from "../../../lang/chobo/model.ts";
import {
  accountCode,
  contentId,
  floorId,
  kindId,
  openingId,
  roomId,
  sinkCode,
  sinkId,
  transferId,
} from "./ids.ts";

/**
 * Events in one request to a replica started with `--development` (E060, docs/design/chobo.md#the-checker).
 */
export const MAX_BATCH = 253;
/** The longest chain of one operation: it must fit in one request (E060). */
export const MAX_CHAIN = MAX_BATCH;
/** At most this many transfers per move (a lower > 0 and upper account to a lower < 0 and upper one). */
export const MAX_PIECES_PER_MOVE = 6;
/** `user_data_32` of a floor account and its opening. */
export const FLOOR_MARK = 1;
/** `user_data_32` of a room account and its opening. */
export const ROOM_MARK = 2;

/** TigerBeetle's account flags, by name. */
export type AccountFlag =
  | "linked"
  | "debits_must_not_exceed_credits"
  | "credits_must_not_exceed_debits"
  | "history"
  | "imported"
  | "closed";

/** TigerBeetle's transfer flags, by name, in bit order. */
export type TransferFlag =
  | "linked"
  | "pending"
  | "post_pending_transfer"
  | "void_pending_transfer"
  | "balancing_debit"
  | "balancing_credit"
  | "closing_debit"
  | "closing_credit"
  | "imported";

/**
 * An account as `create_accounts` receives it. The balances, `reserved` and `timestamp` are 0 in
 * every event (the cluster owns them) and left out.
 */
export interface TbAccount {
  readonly id: bigint;
  readonly user_data_128: bigint;
  readonly user_data_64: bigint;
  readonly user_data_32: number;
  readonly ledger: number;
  readonly code: number;
  readonly flags: readonly AccountFlag[];
}

/** A transfer as `create_transfers` receives it (`timestamp`, always 0, left out). */
export interface TbTransfer {
  readonly id: bigint;
  readonly debit_account_id: bigint;
  readonly credit_account_id: bigint;
  readonly amount: bigint;
  readonly pending_id: bigint;
  readonly user_data_128: bigint;
  readonly user_data_64: bigint;
  readonly user_data_32: number;
  readonly timeout: number;
  readonly ledger: number;
  readonly code: number;
  readonly flags: readonly TransferFlag[];
}

/** Which chobo account a TigerBeetle account is: a book's account, its floor or room, or a sink. */
export type AccountWhat =
  | { readonly kind: "account"; readonly account: Account; readonly args: readonly string[] }
  | { readonly kind: "floor" | "room"; readonly account: Account; readonly args: readonly string[] }
  | { readonly kind: "sink"; readonly unit: Book["units"][number] };

/** An account to create, with what it stands for. */
export interface AccountEvent {
  readonly what: AccountWhat;
  readonly event: TbAccount;
}

/** What a transfer of a move's chain does (see the module's table). */
export type MoveRole =
  | "move"
  | "probe"
  | "probe_void"
  | "from_floor"
  | "from_room"
  | "to_room"
  | "to_floor";

/** What a transfer of a chain does: a move's piece, or one of the status chain's two. */
export type ChainRole = MoveRole | "status_void" | "status_refusal";

/** One transfer of a chain, with its role and the move (1-based) it belongs to. */
export interface ChainEntry {
  readonly role: ChainRole;
  readonly move: number | null;
  readonly transfer: TbTransfer;
}

/** What `do` or `hold` sends: accounts, then openings, each in requests of `MAX_BATCH`, then the chain. */
export interface MoveSends {
  readonly accounts: readonly AccountEvent[];
  readonly openings: readonly TbTransfer[];
  readonly chain: readonly ChainEntry[];
}

/** The pieces of one move, in chain order (the module's table). */
export function movePieces(m: Move): MoveRole[] {
  const from = m.from.account;
  const to = m.to.account;
  const pieces: MoveRole[] = ["move"];
  if (from.lower !== null && from.lower.value > 0n) pieces.push("probe", "probe_void");
  if (from.lower !== null && from.lower.value < 0n) pieces.push("from_floor");
  if (from.upper !== null) pieces.push("from_room");
  if (to.upper !== null) pieces.push("to_room");
  if (to.lower !== null && to.lower.value < 0n) pieces.push("to_floor");
  if (pieces.length > MAX_PIECES_PER_MOVE) throw new Error(`${pieces.length} pieces in one move`);
  return pieces;
}

/** The length of a `do` or `hold` chain of `t`; a post or void chain is never longer. */
export function chainLength(t: Transfer): number {
  return t.moves.reduce((n, m) => n + movePieces(m).length, 0);
}

/** Every piece of `t`'s `do`/`hold` chain with its position. */
function layout(t: Transfer): { role: MoveRole; move: Move; position: number }[] {
  return t.moves.flatMap((m) => movePieces(m).map((role) => ({ role, move: m }))).map((s, position) => ({
    ...s,
    position,
  }));
}

/** The pieces a post or void settles: every pending piece of the hold (the probe is already voided). */
function settledPieces(t: Transfer) {
  return layout(t).filter((s) => s.role !== "probe" && s.role !== "probe_void");
}

/**
 * The roles of the chain an operation of `t` sends, in order, each with its move (1-based; null for
 * the status chain's second): what `chobo api` writes as `targets.tigerbeetle.chains`.
 */
export function chainRoles(
  t: Transfer,
  op: "do" | "hold" | "post" | "void" | "status",
): { readonly role: ChainRole; readonly move: number | null }[] {
  switch (op) {
    case "do":
    case "hold":
      return layout(t).map((s) => ({ role: s.role, move: s.move.index }));
    case "post":
    case "void":
      return settledPieces(t).map((s) => ({ role: s.role, move: s.move.index }));
    case "status":
      return [{ role: "status_void", move: 1 }, { role: "status_refusal", move: null }];
  }
}

/** Events split into requests of at most `MAX_BATCH`. */
export function requests<T>(events: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < events.length; i += MAX_BATCH) out.push(events.slice(i, i + MAX_BATCH));
  return out;
}

/** A transfer's fields in TigerBeetle's order (`Transfer` of tigerbeetle.zig), whatever built it. */
function inOrder(t: TbTransfer): TbTransfer {
  return {
    id: t.id,
    debit_account_id: t.debit_account_id,
    credit_account_id: t.credit_account_id,
    amount: t.amount,
    pending_id: t.pending_id,
    user_data_128: t.user_data_128,
    user_data_64: t.user_data_64,
    user_data_32: t.user_data_32,
    timeout: t.timeout,
    ledger: t.ledger,
    code: t.code,
    flags: t.flags,
  };
}

/** `linked` on every transfer but the last, before the other flags. */
function linkChain(entries: readonly Omit<ChainEntry, "transfer">[], transfers: readonly TbTransfer[]) {
  return entries.map((e, i): ChainEntry => ({
    ...e,
    transfer: inOrder(
      i < transfers.length - 1 ? { ...transfers[i], flags: ["linked", ...transfers[i].flags] } : transfers[i],
    ),
  }));
}

function dataOf(book: Book, tenant: string, what: AccountWhat): TbAccount {
  if (what.kind === "sink") {
    return {
      id: sinkId(book, tenant, what.unit),
      user_data_128: 0n,
      user_data_64: 0n,
      user_data_32: 0,
      ledger: ledgerOf(what.unit),
      code: sinkCode(book, what.unit),
      flags: [],
    };
  }
  const a = what.account;
  const own = accountId(book, tenant, a.name, what.args);
  if (what.kind === "account") {
    return {
      id: own,
      user_data_128: kindId(book, tenant, a.name),
      user_data_64: 0n,
      user_data_32: 0,
      ledger: ledgerOf(a.unit),
      code: accountCode(book, a.name),
      flags: a.lower !== null && a.lower.value >= 0n ? ["debits_must_not_exceed_credits"] : [],
    };
  }
  return {
    id: what.kind === "floor" ? floorId(own) : roomId(own),
    user_data_128: own,
    user_data_64: 0n,
    user_data_32: what.kind === "floor" ? FLOOR_MARK : ROOM_MARK,
    ledger: ledgerOf(a.unit),
    code: accountCode(book, a.name),
    flags: ["debits_must_not_exceed_credits"],
  };
}

/** The opening of a floor (−L) or room (U) account: from the sink, keyed by the floor's or room's id. */
function openingOf(book: Book, tenant: string, e: AccountEvent): TbTransfer | null {
  const what = e.what;
  if (what.kind !== "floor" && what.kind !== "room") return null;
  const a = what.account;
  const amount = what.kind === "floor" ? -a.lower!.value : a.upper!.value;
  return {
    id: openingId(e.event.id),
    debit_account_id: sinkId(book, tenant, a.unit),
    credit_account_id: e.event.id,
    amount,
    pending_id: 0n,
    user_data_128: e.event.user_data_128,
    user_data_64: 0n,
    user_data_32: e.event.user_data_32,
    timeout: 0,
    ledger: e.event.ledger,
    code: e.event.code,
    flags: [],
  };
}

/** The account and its arguments a move names on one side, with the call's values. */
function sideOf(call: Call, m: Move, side: "from" | "to"): { account: Account; args: string[] } {
  const ref = m[side];
  return { account: ref.account, args: ref.args.map((a) => stringArg(call, a)) };
}

function sameId(a: AccountId, b: AccountId): boolean {
  return a.account === b.account && a.args.length === b.args.length &&
    a.args.every((v, i) => v === b.args[i]);
}

/**
 * What a `do` or `hold` call sends, with the tenant; null when a move's from and to are the same
 * account, which the client answers `same_account` without sending anything
 * (docs/design/chobo.md#order-of-checks).
 */
export function moveSends(book: Book, tenant: string, call: Call): MoveSends | null {
  const t = call.transfer;
  const sides = t.moves.map((m) => ({ m, from: sideOf(call, m, "from"), to: sideOf(call, m, "to") }));
  if (
    sides.some(({ from, to }) =>
      sameId({ account: from.account.name, args: from.args }, { account: to.account.name, args: to.args })
    )
  ) {
    return null;
  }
  const key = keyValues(call);
  const held = call.op === "hold";
  const timeout = held && t.pending?.expires === "after" ? Number(t.pending.seconds) : 0;
  const userData = contentId(book, tenant, t, call.op, callContent(call));
  const code = transferCode(book, t);

  const accounts = new Map<bigint, AccountEvent>();
  const use = (what: AccountWhat): bigint => {
    const event = dataOf(book, tenant, what);
    if (!accounts.has(event.id)) accounts.set(event.id, { what, event });
    return event.id;
  };
  const entries: Omit<ChainEntry, "transfer">[] = [];
  const transfers: TbTransfer[] = [];
  for (const { m, from, to } of sides) {
    const amount = moveAmount(call, m);
    const sink = (): bigint => use({ kind: "sink", unit: m.unit });
    for (const role of movePieces(m)) {
      const position = transfers.length;
      const id = transferId(book, tenant, t, call.op, key, position);
      const base = {
        id,
        amount,
        pending_id: 0n,
        user_data_128: userData,
        user_data_64: 0n,
        user_data_32: 0,
        timeout: held ? timeout : 0,
        ledger: ledgerOf(m.unit),
        code,
        flags: held ? ["pending"] as TransferFlag[] : [],
      };
      const between = (debit: () => bigint, credit: () => bigint) => {
        const debit_account_id = debit();
        return { ...base, debit_account_id, credit_account_id: credit() };
      };
      let transfer: TbTransfer;
      switch (role) {
        case "move":
          transfer = between(() => use({ kind: "account", ...from }), () => use({ kind: "account", ...to }));
          break;
        case "probe":
          transfer = {
            ...between(() => use({ kind: "account", ...from }), sink),
            amount: from.account.lower!.value,
            flags: ["pending"],
          };
          break;
        case "probe_void":
          transfer = {
            ...base,
            debit_account_id: 0n,
            credit_account_id: 0n,
            amount: from.account.lower!.value,
            pending_id: transfers[position - 1].id,
            timeout: 0,
            ledger: 0,
            code: 0,
            flags: ["void_pending_transfer"],
          };
          break;
        case "from_floor":
          transfer = between(() => use({ kind: "floor", ...from }), sink);
          break;
        case "from_room":
          transfer = between(sink, () => use({ kind: "room", ...from }));
          break;
        case "to_room":
          transfer = between(() => use({ kind: "room", ...to }), sink);
          break;
        case "to_floor":
          transfer = between(sink, () => use({ kind: "floor", ...to }));
          break;
        default:
          return unreachable(role, "piece of a move");
      }
      entries.push({ role, move: m.index });
      transfers.push(transfer);
    }
  }
  const events = [...accounts.values()];
  return {
    accounts: events,
    openings: events.flatMap((e) => openingOf(book, tenant, e) ?? []),
    chain: linkChain(entries, transfers),
  };
}

/**
 * The ids a post or void reads with `lookup_transfers` first (docs/design/chobo.md#tigerbeetle,
 * "read before post and void"): the hold's transfer of each move, in move order. The first is `holdId`.
 */
export function holdLookups(book: Book, tenant: string, t: Transfer, key: readonly string[]): bigint[] {
  return layout(t).filter((s) => s.role === "move").map((s) =>
    transferId(book, tenant, t, "hold", key, s.position)
  );
}

/**
 * The amount each move of a hold holds, from what `lookup_transfers` found for `holdLookups`;
 * null when the hold is not there. Throws when only part of a hold is there, which one chain
 * cannot leave.
 */
export function heldAmounts(lookups: readonly bigint[], found: readonly TbTransfer[]): bigint[] | null {
  const byId = new Map(found.map((f) => [f.id, f]));
  if (!byId.has(lookups[0])) return null;
  return lookups.map((id) => {
    const f = byId.get(id);
    if (f === undefined) throw new Error(`the hold's transfer ${id} is missing while the first is there`);
    return f.amount;
  });
}

/** What each move of a post posts: its amount argument in a partial post, else what it holds. */
export function postAmounts(call: Call, held: readonly bigint[]): bigint[] {
  const t = call.transfer;
  const partial = isPartialPost(call);
  return t.moves.map((m, i) =>
    partial && m.amount.kind === "param" ? amountArg(call, m.amount.param) : held[i]
  );
}

/** A post or void chain for the amounts read before (`heldAmounts`). */
export function settleChain(book: Book, tenant: string, call: Call, held: readonly bigint[]): ChainEntry[] {
  const t = call.transfer;
  const op = call.op;
  if (op !== "post" && op !== "void") throw new Error(`${op} does not settle a hold`);
  const key = keyValues(call);
  const amounts = op === "post" ? postAmounts(call, held) : [...held];
  const content = op === "post" ? JSON.stringify(amounts.map(String)) : "[]";
  const userData = contentId(book, tenant, t, op, content);
  const pieces = settledPieces(t);
  return linkChain(
    chainRoles(t, op),
    pieces.map((s, i) => ({
      id: transferId(book, tenant, t, op, key, i),
      debit_account_id: 0n,
      credit_account_id: 0n,
      amount: amounts[s.move.index - 1],
      pending_id: transferId(book, tenant, t, "hold", key, s.position),
      user_data_128: userData,
      user_data_64: 0n,
      user_data_32: 0,
      timeout: 0,
      ledger: 0,
      code: 0,
      flags: [op === "post" ? "post_pending_transfer" : "void_pending_transfer"],
    })),
  );
}

/** True when a post asks for more than a move holds: the client reads the status instead. */
export function isOverHold(call: Call, held: readonly bigint[]): boolean {
  return call.op === "post" && postAmounts(call, held).some((a, i) => a > held[i]);
}

/** The status chain of a hold (see the module's notes), with its two random ids. */
export function statusChain(
  book: Book,
  tenant: string,
  t: Transfer,
  key: readonly string[],
  ids: readonly [bigint, bigint],
): ChainEntry[] {
  const unit = t.moves[0].unit;
  const sink = sinkId(book, tenant, unit);
  const zero = { user_data_128: 0n, user_data_64: 0n, user_data_32: 0, timeout: 0 };
  return linkChain(chainRoles(t, "status"), [
    {
      id: ids[0],
      debit_account_id: 0n,
      credit_account_id: 0n,
      amount: 0n,
      pending_id: holdId(book, tenant, t, key),
      ...zero,
      ledger: 0,
      code: 0,
      flags: ["void_pending_transfer"],
    },
    {
      id: ids[1],
      debit_account_id: sink,
      credit_account_id: sink,
      amount: 0n,
      pending_id: 0n,
      ...zero,
      ledger: ledgerOf(unit),
      code: transferCode(book, t),
      flags: [],
    },
  ]);
}

/** What a post or void sends after the read: its chain, or the status chain when it is over the hold. */
export function settleSends(
  book: Book,
  tenant: string,
  call: Call,
  held: readonly bigint[],
  statusIds: readonly [bigint, bigint],
): { readonly status: boolean; readonly chain: readonly ChainEntry[] } {
  if (isOverHold(call, held)) {
    return { status: true, chain: statusChain(book, tenant, call.transfer, keyValues(call), statusIds) };
  }
  return { status: false, chain: settleChain(book, tenant, call, held) };
}
