/**
 * What each operation of each transfer may be refused with (docs/design/chobo.md#the-checker), every reason
 * with the operations that reach it, found by the search and verified by running them. A reason the
 * search does not reach is not listed.
 * @module
 */

import { lookup } from "../common/assert.ts";
import { isRefused, type OpName } from "./interp.ts";
import type { Account, Book, Bound, Transfer } from "./model.ts";
import type { BuiltinReason } from "./resolve.ts";
import { operationsOf } from "./scenario.ts";
import {
  type Act,
  amountChoices,
  feed,
  fillAccount,
  lastOutcome,
  makeDone,
  pastExpiry,
  type Plan,
  planFor,
  play,
  Symbols,
  withAmounts,
} from "./search.ts";

/** A bound a move meets: the account, which side of it, and the bound. */
export interface BoundOf {
  readonly account: Account;
  readonly side: "lower" | "upper";
  readonly bound: Bound;
}

/**
 * One reason an operation may be refused, with a sequence that ends in that refusal: a bound's
 * reason (the book names it) with the bound behind it, or one of chobo's own with none.
 */
export type Refusal =
  & (
    | { readonly reason: string; readonly bound: BoundOf }
    | { readonly reason: BuiltinReason; readonly bound: null }
  )
  & {
    /**
     * True when the refusal uses the key (a second call answers already_refused;
     * docs/design/chobo.md#refusal-reasons).
     */
    readonly keyUsed: boolean;
    readonly example: readonly Act[];
  };

/** The refusals of one operation of one transfer. */
export interface OpRefusals {
  readonly transfer: Transfer;
  readonly op: OpName;
  readonly refusals: readonly Refusal[];
}

function verified(
  book: Book,
  acts: readonly Act[] | null,
  reason: BuiltinReason | Bound,
): readonly Act[] | null {
  return acts !== null && isRefused(lastOutcome(play(book, acts)), reason) ? acts : null;
}

/** A refusal with chobo's own `reason`, when `acts` do end in it. */
function builtin(book: Book, reason: BuiltinReason, acts: readonly Act[] | null): Refusal[] {
  const example = verified(book, acts, reason);
  return example === null ? [] : [{ reason, bound: null, keyUsed: false, example }];
}

function lastPlan(acts: readonly Act[]): Plan {
  const last = acts[acts.length - 1];
  if (last.kind !== "call") throw new Error("a found sequence ends with a call");
  return last.plan;
}

/** The bounds a transfer's moves meet, in move order (the source's lower, then the target's upper). */
function boundsOf(t: Transfer): BoundOf[] {
  const out: BoundOf[] = [];
  for (const m of t.moves) {
    const lower = m.from.account.lower;
    if (lower !== null) out.push({ account: m.from.account, side: "lower", bound: lower });
    const upper = m.to.account.upper;
    if (upper !== null) out.push({ account: m.to.account, side: "upper", bound: upper });
  }
  return out;
}

/** A sequence ending in `t.op` refused by the bound `b`, or null. */
function boundExample(book: Book, t: Transfer, op: OpName, b: BoundOf): Act[] | null {
  const choices = amountChoices(t);
  // One call of the bound's size reaches an upper bound the tried amounts stay below.
  if (b.side === "upper" && b.bound.value >= 0n) {
    choices.push(
      new Map(t.params.filter((p) => p.type.kind === "amount").map((p) => [p.name, b.bound.value + 1n])),
    );
  }
  for (const amounts of choices) {
    const syms = new Symbols();
    const acts = feed(
      book,
      [],
      planFor(t, op, syms, new Map(), amounts),
      syms,
      0,
      (o) => isRefused(o, b.bound),
    );
    if (verified(book, acts, b.bound) !== null) return acts;
  }
  return b.side === "upper" ? filledToUpper(book, t, op, b) : null;
}

/**
 * An upper bound no single call reaches from an empty account, because the source cannot hold
 * that much either (a wallet paying a wallet, both with the bound): the target filled to the bound
 * first by a transfer that puts into it, then a call of 1.
 */
function filledToUpper(book: Book, t: Transfer, op: OpName, b: BoundOf): Act[] | null {
  if (b.bound.value <= 0n) return null;
  for (const m of t.moves) {
    if (m.to.account !== b.account) continue;
    const syms = new Symbols();
    const plan = planFor(t, op, syms, new Map(), 1n);
    const target = m.to.args.map((a) => lookup(plan.strings, a, "string symbol"));
    const filled = fillAccount(book, [], m.to.account.name, target, b.bound.value, syms);
    if (filled === null) continue;
    const acts = feed(book, filled, plan, syms, 0, (o) => isRefused(o, b.bound));
    if (verified(book, acts, b.bound) !== null) return acts;
  }
  return null;
}

function holdOrDo(book: Book, t: Transfer): OpRefusals {
  const op: OpName = t.pending === null ? "do" : "hold";
  const refusals: Refusal[] = [];
  for (const b of boundsOf(t)) {
    if (refusals.some((r) => r.reason === b.bound.reason)) continue;
    const example = boundExample(book, t, op, b);
    if (example !== null) refusals.push({ reason: b.bound.reason, bound: b, keyUsed: true, example });
  }
  const nonKey = t.params.filter((p) => !t.key.includes(p.name));
  if (nonKey.length > 0) {
    const syms = new Symbols();
    const done = makeDone(book, [], t, op, syms);
    if (done !== null) {
      const first = lastPlan(done);
      const changed = nonKey[0];
      const second: Plan = changed.type.kind === "amount"
        ? withAmounts(
          first,
          new Map([...first.amounts, [changed.name, lookup(first.amounts, changed.name, "amount") + 1n]]),
        )
        : { ...first, strings: new Map([...first.strings, [changed.name, syms.fresh()]]) };
      refusals.push(...builtin(book, "key_conflict", [...done, { kind: "call", plan: second }]));
    }
  }
  const byBound = refusals.find((r) => r.bound !== null);
  if (byBound !== undefined) {
    const again = [...byBound.example, { kind: "call" as const, plan: lastPlan(byBound.example) }];
    refusals.push(...builtin(book, "already_refused", again));
  }
  const sameAccount = () => refusals.some((r) => r.bound === null && r.reason === "same_account");
  for (const m of t.moves) {
    if (m.from.account !== m.to.account || sameAccount()) continue;
    const syms = new Symbols();
    const bind = new Map<string, number>();
    m.from.args.forEach((a, i) => {
      const s = bind.get(a) ?? bind.get(m.to.args[i]) ?? syms.fresh();
      bind.set(a, s);
      bind.set(m.to.args[i], s);
    });
    refusals.push(...builtin(book, "same_account", [{ kind: "call", plan: planFor(t, op, syms, bind) }]));
  }
  return { transfer: t, op, refusals };
}

/** The refusals of `post` and `void` of a transfer that holds (docs/design/chobo.md#holds). */
function postAndVoid(book: Book, t: Transfer): OpRefusals[] {
  const syms = new Symbols();
  const held = makeDone(book, [], t, "hold", syms);
  const hold = held === null ? null : lastPlan(held);
  const call = (op: OpName, amounts?: ReadonlyMap<string, bigint>): Act => {
    const plan = planFor(t, op, syms, hold!.strings);
    return { kind: "call", plan: amounts === undefined ? plan : withAmounts(plan, amounts) };
  };
  const past = pastExpiry(t);
  const amountNames = t.params.filter((p) => p.type.kind === "amount").map((p) => p.name);
  const partial = (delta: bigint) =>
    new Map(amountNames.map((n) => {
      const a = lookup(hold!.amounts, n, "held amount");
      return [n, delta < 0n && a === 0n ? 1n : a + delta];
    }));
  const post: [BuiltinReason, Act[] | null][] = [];
  const void_: [BuiltinReason, Act[] | null][] = [];
  if (held !== null) {
    const expire: Act[] = past === null ? [] : [{ kind: "pass", seconds: past.seconds, text: past.text }];
    post.push([
      "key_conflict",
      amountNames.length === 0 ? null : [...held, call("post"), call("post", partial(-1n))],
    ]);
    post.push(["already_voided", [...held, call("void"), call("post")]]);
    post.push(["expired", past === null ? null : [...held, ...expire, call("post")]]);
    post.push(["over_hold", amountNames.length === 0 ? null : [...held, call("post", partial(1n))]]);
    void_.push(["already_posted", [...held, call("post"), call("void")]]);
    void_.push(["expired", past === null ? null : [...held, ...expire, call("void")]]);
  }
  const fresh = new Symbols();
  post.push(["no_such_hold", [{ kind: "call", plan: planFor(t, "post", fresh) }]]);
  void_.push(["no_such_hold", [{ kind: "call", plan: planFor(t, "void", fresh) }]]);
  const found = (list: [BuiltinReason, Act[] | null][]): Refusal[] =>
    list.flatMap(([reason, acts]) => builtin(book, reason, acts));
  return [{ transfer: t, op: "post", refusals: found(post) }, {
    transfer: t,
    op: "void",
    refusals: found(void_),
  }];
}

/**
 * Every operation of every transfer with the reasons it may be refused with, in the order of
 * the report: bounds, key_conflict, already_refused, same_account; for post key_conflict,
 * already_voided, expired, over_hold, no_such_hold; for void already_posted, expired, no_such_hold.
 */
export function refusalsOf(book: Book): OpRefusals[] {
  return book.transfers.flatMap((t) => {
    const first = holdOrDo(book, t);
    return operationsOf(t).length === 1 ? [first] : [first, ...postAndVoid(book, t)];
  });
}
