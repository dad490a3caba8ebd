/**
 * The reference interpreter (docs/design/chobo.md): the one place that decides what a book means.
 * PostgreSQL and TigerBeetle are checked against it, scenario by scenario (P5).
 *
 * A `Ledger` is one tenant's state: balances (posted, held out, held in) per account, holds with
 * their per-move amounts, state and expiry, and the keys used per transfer and operation. Every
 * operation is all or nothing: a refused or failed operation changes nothing.
 * @module
 */

import { callProblem } from "./arguments.ts";
import { assert, lookup } from "../common/assert.ts";
import { type Text, tr } from "../common/text.ts";
import type { Bound, Move, Transfer } from "./model.ts";
import type { BuiltinReason } from "./resolve.ts";

/**
 * The operations (docs/design/chobo.md#transfers-and-operations): `do` for immediate transfers,
 * `hold`/`post`/`void` for pending ones.
 */
export type OpName = "do" | "hold" | "post" | "void";

/** The smallest and largest balance: PostgreSQL `bigint`, a signed 64-bit integer. */
export const MIN_BALANCE = -(1n << 63n);
export const MAX_BALANCE = (1n << 63n) - 1n;

/** One account: its kind and the values of its string parameters. */
export interface AccountId {
  readonly account: string;
  readonly args: readonly string[];
}

/** The three numbers of an account. */
export interface Balance {
  readonly posted: bigint;
  readonly heldOut: bigint;
  readonly heldIn: bigint;
}

/** The states of a hold (docs/design/chobo.md#holds). */
export type HoldState = "held" | "posted" | "voided" | "expired";

/** One hold: which transfer and key, what each move holds, its state and times. */
export interface Hold {
  readonly transfer: string;
  readonly key: readonly string[];
  readonly moves: readonly { readonly from: AccountId; readonly to: AccountId; readonly amount: bigint }[];
  readonly state: HoldState;
  /** Per-move amounts posted, once posted. */
  readonly posted: readonly bigint[] | null;
  readonly createdAt: bigint;
  readonly expiresAt: bigint | null;
}

/**
 * A call with checked arguments by parameter name: the string arguments the operation passes
 * (every one for `do` and `hold`, the key's for `post` and `void`), and the amounts (every one for
 * `do`, `hold` and a partial `post`, none for `void` and a full `post`).
 */
export interface Call {
  readonly transfer: Transfer;
  readonly op: OpName;
  readonly strings: ReadonlyMap<string, string>;
  readonly amounts: ReadonlyMap<string, bigint>;
}

/** The string argument `name` of `call`, which its operation passes. */
export function stringArg(call: Call, name: string): string {
  return lookup(call.strings, name, `string argument of ${call.transfer.name}.${call.op}`);
}

/** The amount argument `name` of `call`, which its operation passes. */
export function amountArg(call: Call, name: string): bigint {
  return lookup(call.amounts, name, `amount argument of ${call.transfer.name}.${call.op}`);
}

/** The values of the call's key, in the key's order. */
export function keyValues(call: Call): string[] {
  return call.transfer.key.map((k) => stringArg(call, k));
}

/** What move `m` of the call's transfer moves: its literal amount, or its parameter's argument. */
export function moveAmount(call: Call, m: Move): bigint {
  return m.amount.kind === "literal" ? m.amount.value : amountArg(call, m.amount.param);
}

/** True for a post that passes its amounts: it posts them instead of what is held. */
export function isPartialPost(call: Call): boolean {
  return call.op === "post" && call.amounts.size > 0;
}

/** The arguments the call passes, in the transfer's parameter order: how a call is shown and written. */
export function callArgs(call: Call): [string, string | bigint][] {
  return call.transfer.params.flatMap((p): [string, string | bigint][] => {
    const value = p.type.kind === "string" ? call.strings.get(p.name) : call.amounts.get(p.name);
    return value === undefined ? [] : [[p.name, value]];
  });
}

/**
 * What a `do` or `hold` call's key is compared by (docs/design/chobo.md#keys-and-content): every argument as
 * text, in the transfer's parameter order.
 */
export function callContent(call: Call): string {
  assert(call.op === "do" || call.op === "hold", `${call.op} has no content of its arguments`);
  return JSON.stringify(
    call.transfer.params.map((p) =>
      p.type.kind === "string" ? stringArg(call, p.name) : String(amountArg(call, p.name))
    ),
  );
}

/** Where a bound refused a move: the move, the account and its numbers at that point. */
export interface BoundRefusal {
  readonly move: number;
  readonly side: "lower" | "upper";
  readonly account: AccountId;
  readonly amount: bigint;
  readonly balance: Balance;
  readonly bound: Bound;
}

/**
 * The result of one operation (docs/design/chobo.md#transfers-and-operations): done, done before, refused
 * with a reason, or failed. A refusal's reason is a `BuiltinReason` or the reason of the bound that refused;
 * `at` says where, when whoever ran the operation can tell (the reference interpreter can, a client cannot).
 */
export type Outcome =
  | { readonly kind: "done" }
  | { readonly kind: "done_before" }
  | { readonly kind: "refused"; readonly reason: string; readonly at: BoundRefusal | null }
  | { readonly kind: "failed"; readonly why: Text };

/** A refusal with one of chobo's own reasons, which no bound stands behind. */
export function refused(reason: BuiltinReason): Outcome {
  return { kind: "refused", reason, at: null };
}

/** True when `o` is refused with chobo's own `reason`, or with the reason of the bound `reason`. */
export function isRefused(o: Outcome | null, reason: BuiltinReason | Bound): boolean {
  return o?.kind === "refused" && o.reason === (typeof reason === "string" ? reason : reason.reason);
}

interface KeyRecord {
  readonly content: string;
  readonly refusedByBound: boolean;
}

/** The display form of an account: `stock(sku-2)`, `suppliers`. */
export function accountText(id: AccountId): string {
  return id.args.length === 0 ? id.account : `${id.account}(${id.args.join(", ")})`;
}

/** The display form of a hold: `reserve(order-3, sku-2)`. */
export function holdText(h: { transfer: string; key: readonly string[] }): string {
  return `${h.transfer}(${h.key.join(", ")})`;
}

function idKey(id: AccountId): string {
  return JSON.stringify([id.account, ...id.args]);
}

const ZERO: Balance = { posted: 0n, heldOut: 0n, heldIn: 0n };

/** An account and its balance. */
export interface AccountBalance {
  readonly id: AccountId;
  readonly balance: Balance;
}

/** One change made while a trial records: the table, the entry and what it was before. */
type Change =
  | { readonly table: "balances"; readonly key: string; readonly before: AccountBalance | undefined }
  | { readonly table: "holds"; readonly key: string; readonly before: Hold | undefined }
  | { readonly table: "keys"; readonly key: string; readonly before: KeyRecord | undefined }
  | { readonly table: "clock"; readonly before: bigint }
  | { readonly table: "expiring"; readonly transfer: string }
  | { readonly table: "expired"; readonly transfer: string; readonly before: number };

/**
 * The holds of one transfer that expire, in the order they were made, which is the order they
 * expire in (one duration, and a clock that only moves on); `passed` of them the clock has reached.
 * `made` numbers each among all the ledger's holds, to give expired holds back in the order made.
 */
interface Expiring {
  readonly holds: { readonly key: string; readonly expiresAt: bigint; readonly made: number }[];
  passed: number;
}

/**
 * One tenant's state. `apply` runs an operation, `pass` moves the clock and expires the holds it
 * reaches; `clone` gives an independent copy. A `trial` records every change so that it can be
 * taken back: how a `together` tries each order of its calls from one state without copying the
 * ledger for each.
 */
export class Ledger {
  /** The changes since the trial began, oldest first; null when no trial is recording. */
  private journal: Change[] | null = null;

  private constructor(
    private readonly accountOrder: ReadonlyMap<string, number>,
    private now_: bigint,
    private readonly balances_: Map<string, AccountBalance>,
    private readonly holds_: Map<string, Hold>,
    private readonly keys: Map<string, KeyRecord>,
    private readonly expiring: Map<string, Expiring>,
  ) {}

  /** An empty ledger for a book whose account kinds are declared in `accountNames` order. */
  static empty(accountNames: readonly string[]): Ledger {
    return new Ledger(
      new Map(accountNames.map((n, i) => [n, i])),
      0n,
      new Map(),
      new Map(),
      new Map(),
      new Map(),
    );
  }

  /** An independent copy of the state as it is now (a copy records no trial). */
  clone(): Ledger {
    return new Ledger(
      this.accountOrder,
      this.now_,
      new Map(this.balances_),
      new Map(this.holds_),
      new Map(this.keys),
      new Map([...this.expiring].map(([t, e]) => [t, { holds: [...e.holds], passed: e.passed }])),
    );
  }

  /** How many rows `clone` copies: accounts, holds and keys. */
  get size(): number {
    return this.balances_.size + this.holds_.size + this.keys.size;
  }

  /**
   * Runs `f` while every change is recorded, then takes them all back: the ledger is as it was,
   * even when `f` throws. Inside, `mark` and `undo` take back part of them.
   */
  trial(f: () => void): void {
    assert(this.journal === null, "one trial at a time");
    this.journal = [];
    try {
      f();
    } finally {
      this.undo(0);
      this.journal = null;
    }
  }

  /** Where the trial is now, for `undo` to come back to. */
  mark(): number {
    assert(this.journal !== null, "a mark inside a trial");
    return this.journal.length;
  }

  /** Takes back every change of the trial since `mark`. */
  undo(mark: number): void {
    const journal = this.journal;
    assert(journal !== null && mark <= journal.length, "undo to a mark of the trial");
    for (let i = journal.length - 1; i >= mark; i--) {
      const c = journal[i];
      switch (c.table) {
        case "balances":
          restore(this.balances_, c.key, c.before);
          break;
        case "holds":
          restore(this.holds_, c.key, c.before);
          break;
        case "keys":
          restore(this.keys, c.key, c.before);
          break;
        case "clock":
          this.now_ = c.before;
          break;
        case "expiring":
          lookup(this.expiring, c.transfer, "holds of a transfer that expire").holds.pop();
          break;
        case "expired":
          lookup(this.expiring, c.transfer, "holds of a transfer that expire").passed = c.before;
          break;
      }
    }
    journal.length = mark;
  }

  /**
   * The balances and holds' states that differ from what they were at `mark`, as a canonical text:
   * two states reached from the one at `mark` by operations are equal as `snapshot` says exactly
   * when these texts are. `everything` adds what else a later operation reads (the keys used, what
   * each hold posted), so that equal texts mean equal answers to every operation after.
   */
  changesSince(mark: number, everything: boolean): string {
    const journal = this.journal;
    assert(journal !== null && mark <= journal.length, "changes since a mark of the trial");
    const first = new Map<string, { was: string; now: () => string }>();
    for (let i = mark; i < journal.length; i++) {
      const c = journal[i];
      if (c.table === "clock" || c.table === "expiring" || c.table === "expired") continue;
      if (first.has(`${c.table}:${c.key}`)) continue;
      const key = c.key;
      if (c.table === "balances") {
        first.set(`balances:${key}`, {
          was: rowText(c.before),
          now: () => rowText(this.balances_.get(key)),
        });
      } else if (c.table === "holds") {
        first.set(`holds:${key}`, {
          was: holdStateText(c.before, everything),
          now: () => holdStateText(this.holds_.get(key), everything),
        });
      } else if (everything) {
        first.set(`keys:${key}`, { was: keyText(c.before), now: () => keyText(this.keys.get(key)) });
      }
    }
    const changed: string[] = [];
    for (const [id, { was, now }] of first) {
      const text = now();
      if (text !== was) changed.push(`${id}=${text}`);
    }
    return changed.sort().join("\n");
  }

  private setBalance(key: string, row: AccountBalance): void {
    this.journal?.push({ table: "balances", key, before: this.balances_.get(key) });
    this.balances_.set(key, row);
  }

  private setHold(key: string, hold: Hold): void {
    this.journal?.push({ table: "holds", key, before: this.holds_.get(key) });
    this.holds_.set(key, hold);
  }

  private setKey(key: string, record: KeyRecord): void {
    this.journal?.push({ table: "keys", key, before: this.keys.get(key) });
    this.keys.set(key, record);
  }

  /** Seconds since the scenario began. */
  get now(): bigint {
    return this.now_;
  }

  /** A balance; accounts never used read as zero. */
  balance(id: AccountId): Balance {
    return this.balances_.get(idKey(id))?.balance ?? ZERO;
  }

  /** Every account an operation named, by the book's order of account kinds, then first use. */
  accounts(): AccountBalance[] {
    const rows = [...this.balances_.values()];
    return rows.map((row, i) => ({ row, i }))
      .sort((a, b) =>
        (this.accountOrder.get(a.row.id.account) ?? 0) - (this.accountOrder.get(b.row.id.account) ?? 0) ||
        a.i - b.i
      )
      .map(({ row }) => row);
  }

  /** Every hold, in the order they were made. */
  holds(): Hold[] {
    return [...this.holds_.values()];
  }

  /** A canonical text of balances and holds, equal for equal states whatever the order of use. */
  snapshot(): string {
    const balances = [...this.balances_.entries()].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
      .map(([k, v]) => [k, String(v.balance.posted), String(v.balance.heldOut), String(v.balance.heldIn)]);
    const holds = [...this.holds_.entries()].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
      .map(([k, h]) => [k, h.state]);
    return JSON.stringify([balances, holds]);
  }

  /**
   * Moves the clock; every held hold whose expiry it reaches expires (docs/design/chobo.md#time-and-expiry).
   */
  pass(seconds: bigint): Hold[] {
    this.journal?.push({ table: "clock", before: this.now_ });
    this.now_ += seconds;
    const reached: { key: string; made: number; hold: Hold }[] = [];
    for (const [transfer, e] of this.expiring) {
      let passed = e.passed;
      for (; passed < e.holds.length; passed++) {
        const { key, expiresAt, made } = e.holds[passed];
        if (expiresAt > this.now_) break;
        const hold = lookup(this.holds_, key, "a hold that expires");
        if (hold.state === "held") reached.push({ key, made, hold });
      }
      if (passed === e.passed) continue;
      this.journal?.push({ table: "expired", transfer, before: e.passed });
      e.passed = passed;
    }
    return reached.sort((a, b) => a.made - b.made).map(({ key, hold }) => {
      for (const [k, row] of this.release(hold)) this.setBalance(k, row);
      const ended = { ...hold, state: "expired" as const };
      this.setHold(key, ended);
      return ended;
    });
  }

  /** Files a new hold that expires behind the earlier ones of its transfer (see `Expiring`). */
  private expiresLater(transfer: string, key: string, expiresAt: bigint): void {
    const e = this.expiring.get(transfer) ?? { holds: [], passed: 0 };
    this.expiring.set(transfer, e);
    const last = e.holds[e.holds.length - 1];
    assert(
      last === undefined || last.expiresAt <= expiresAt,
      "a transfer's holds expire in the order they are made",
    );
    const made = [...this.expiring.values()].reduce((n, x) => n + x.holds.length, 0);
    this.journal?.push({ table: "expiring", transfer });
    e.holds.push({ key, expiresAt, made });
  }

  /**
   * Runs one operation; an argument no target can take (an amount outside 0 … 2⁶³ − 1, a string past
   * docs/reference.md#limits) fails it, changing nothing: a failure, not a refusal.
   */
  apply(call: Call): Outcome {
    const problem = callProblem(call);
    if (problem !== null) return { kind: "failed", why: problem };
    switch (call.op) {
      case "do":
      case "hold":
        return this.move(call);
      case "post":
        return this.post(call);
      case "void":
        return this.void_(call);
    }
  }

  /** Each move's accounts with their values, and their keys (made once: a call may have thousands of moves). */
  private resolved(call: Call): {
    from: AccountId;
    to: AccountId;
    fromKey: string;
    toKey: string;
    amount: bigint;
    move: Move;
  }[] {
    const arg = (name: string) => stringArg(call, name);
    return call.transfer.moves.map((m) => {
      const from = { account: m.from.account.name, args: m.from.args.map(arg) };
      const to = { account: m.to.account.name, args: m.to.args.map(arg) };
      return { move: m, from, to, fromKey: idKey(from), toKey: idKey(to), amount: moveAmount(call, m) };
    });
  }

  private touch(key: string, id: AccountId): void {
    if (!this.balances_.has(key)) this.setBalance(key, { id, balance: ZERO });
  }

  /**
   * `do` and `hold`: same_account, then the key, then bounds move by move
   * (docs/design/chobo.md#order-of-checks).
   */
  private move(call: Call): Outcome {
    const moves = this.resolved(call);
    for (const m of moves) {
      this.touch(m.fromKey, m.from);
      this.touch(m.toKey, m.to);
    }
    if (moves.some((m) => m.fromKey === m.toKey)) return refused("same_account");
    const key = keyValues(call);
    const keyId = JSON.stringify([call.transfer.name, call.op, ...key]);
    const content = callContent(call);
    const used = this.keys.get(keyId);
    if (used !== undefined) {
      if (used.refusedByBound) return refused("already_refused");
      return used.content === content ? { kind: "done_before" } : refused("key_conflict");
    }
    const scratch = new Map<string, AccountBalance>();
    const read = (key: string) => scratch.get(key)?.balance ?? this.balances_.get(key)?.balance ?? ZERO;
    for (const [i, m] of moves.entries()) {
      const from = read(m.fromKey);
      const lower = m.move.from.account.lower;
      if (lower !== null && from.posted - from.heldOut - m.amount < lower.value) {
        this.setKey(keyId, { content, refusedByBound: true });
        return boundRefusal(i + 1, "lower", m.from, m.amount, from, lower);
      }
      const to = read(m.toKey);
      const upper = m.move.to.account.upper;
      if (upper !== null && to.posted + to.heldIn + m.amount > upper.value) {
        this.setKey(keyId, { content, refusedByBound: true });
        return boundRefusal(i + 1, "upper", m.to, m.amount, to, upper);
      }
      const held = call.op === "hold";
      const fromAfter = held
        ? { ...from, heldOut: from.heldOut + m.amount }
        : { ...from, posted: from.posted - m.amount };
      scratch.set(m.fromKey, { id: m.from, balance: fromAfter });
      const to2 = read(m.toKey);
      const toAfter = held
        ? { ...to2, heldIn: to2.heldIn + m.amount }
        : { ...to2, posted: to2.posted + m.amount };
      scratch.set(m.toKey, { id: m.to, balance: toAfter });
    }
    const failure = outOfRange(scratch);
    if (failure !== null) return failure;
    for (const [k, row] of scratch) this.setBalance(k, row);
    this.setKey(keyId, { content, refusedByBound: false });
    if (call.op === "hold") {
      const pending = call.transfer.pending!;
      const holdKey = JSON.stringify([call.transfer.name, ...key]);
      const expiresAt = pending.expires === "after" ? this.now_ + pending.seconds : null;
      this.setHold(holdKey, {
        transfer: call.transfer.name,
        key,
        moves: moves.map(({ from, to, amount }) => ({ from, to, amount })),
        state: "held",
        posted: null,
        createdAt: this.now_,
        expiresAt,
      });
      if (expiresAt !== null) this.expiresLater(call.transfer.name, holdKey, expiresAt);
    }
    return { kind: "done" };
  }

  private findHold(call: Call): [string, Hold] | null {
    const k = JSON.stringify([call.transfer.name, ...keyValues(call)]);
    const h = this.holds_.get(k);
    return h === undefined ? null : [k, h];
  }

  /**
   * The balances after a hold ends: its held amounts come back out, and `posted` (per move) moves
   * for real. Nothing is checked against bounds: the hold was checked for the worst case.
   */
  private release(
    h: Hold,
    posted: readonly bigint[] | null = null,
  ): Map<string, AccountBalance> {
    const scratch = new Map<string, AccountBalance>();
    const read = (id: AccountId) => scratch.get(idKey(id))?.balance ?? this.balance(id);
    h.moves.forEach((m, i) => {
      const p = posted === null ? 0n : posted[i];
      const from = read(m.from);
      scratch.set(idKey(m.from), {
        id: m.from,
        balance: { ...from, heldOut: from.heldOut - m.amount, posted: from.posted - p },
      });
      const to = read(m.to);
      scratch.set(idKey(m.to), {
        id: m.to,
        balance: { ...to, heldIn: to.heldIn - m.amount, posted: to.posted + p },
      });
    });
    return scratch;
  }

  /**
   * `post`: the hold, its state, then the amounts (docs/design/chobo.md#order-of-checks); a full post posts
   * what was held.
   */
  private post(call: Call): Outcome {
    const found = this.findHold(call);
    if (found === null) return refused("no_such_hold");
    const [k, h] = found;
    const partial = isPartialPost(call);
    const amounts = call.transfer.moves.map((m, i) =>
      partial && m.amount.kind === "param" ? amountArg(call, m.amount.param) : h.moves[i].amount
    );
    switch (h.state) {
      case "posted":
        return h.posted!.every((a, i) => a === amounts[i])
          ? { kind: "done_before" }
          : refused("key_conflict");
      case "voided":
        return refused("already_voided");
      case "expired":
        return refused("expired");
    }
    if (amounts.some((a, i) => a > h.moves[i].amount)) return refused("over_hold");
    const after = this.release(h, amounts);
    const failure = outOfRange(after);
    if (failure !== null) return failure;
    for (const [key, row] of after) this.setBalance(key, row);
    this.setHold(k, { ...h, state: "posted", posted: amounts });
    return { kind: "done" };
  }

  /** `void`: the hold and its state (docs/design/chobo.md#holds). */
  private void_(call: Call): Outcome {
    const found = this.findHold(call);
    if (found === null) return refused("no_such_hold");
    const [k, h] = found;
    switch (h.state) {
      case "posted":
        return refused("already_posted");
      case "voided":
        return { kind: "done_before" };
      case "expired":
        return refused("expired");
    }
    for (const [key, row] of this.release(h)) this.setBalance(key, row);
    this.setHold(k, { ...h, state: "voided" });
    return { kind: "done" };
  }
}

function rowText(row: AccountBalance | undefined): string {
  return row === undefined ? "none" : `${row.balance.posted} ${row.balance.heldOut} ${row.balance.heldIn}`;
}

function holdStateText(h: Hold | undefined, everything: boolean): string {
  if (h === undefined) return "none";
  return everything ? `${h.state} ${h.posted?.join(",") ?? ""}` : h.state;
}

function keyText(k: KeyRecord | undefined): string {
  return k === undefined ? "none" : `${k.refusedByBound} ${k.content}`;
}

function restore<V>(map: Map<string, V>, key: string, before: V | undefined): void {
  if (before === undefined) map.delete(key);
  else map.set(key, before);
}

function boundRefusal(
  move: number,
  side: "lower" | "upper",
  account: AccountId,
  amount: bigint,
  balance: Balance,
  bound: Bound,
): Outcome {
  return { kind: "refused", reason: bound.reason, at: { move, side, account, amount, balance, bound } };
}

function overflow(): Outcome {
  return {
    kind: "failed",
    why: tr("a balance would leave the 64-bit range", "残高が 64 ビットの整数の範囲を出ます"),
  };
}

function outOfRange(rows: ReadonlyMap<string, { balance: Balance }>): Outcome | null {
  for (const { balance } of rows.values()) {
    for (const v of [balance.posted, balance.heldOut, balance.heldIn]) {
      if (v < MIN_BALANCE || v > MAX_BALANCE) return overflow();
    }
  }
  return null;
}
