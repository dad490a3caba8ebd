/**
 * What each operation of each transfer may be refused with (docs/design/chobo.md#the-checker), every reason
 * with the operations that reach it, found by the search and verified by running them. A reason the
 * book's structure allows (a bound a move meets, the key, a state of the hold) that the search did not
 * reach within its limits is listed as not reached, so the report never under-reports silently.
 * @module
 */

import { lookup } from "../common/assert.ts";
import { isRefused, type OpName } from "./interp.ts";
import type { Account, Book, Bound, Transfer } from "./model.ts";
import type { BuiltinReason } from "./resolve.ts";
import { operationsOf } from "./scenario.ts";
import {
  type Act,
  bringTo,
  feed,
  type LimitReached,
  makeDone,
  pastExpiry,
  type Plan,
  planFor,
  type Played,
  type Run,
  Search,
  Symbols,
  withAmounts,
} from "./search.ts";

/** A bound a move meets: the account, which side of it, and the bound. */
export interface BoundOf {
  readonly account: Account;
  readonly side: "lower" | "upper";
  readonly bound: Bound;
}

/** A reason by its name: a bound's reason (the book names it) with the bound behind it, or one of chobo's own. */
export type ReasonOf =
  | { readonly reason: string; readonly bound: BoundOf }
  | { readonly reason: BuiltinReason; readonly bound: null };

/** One reason an operation may be refused, with a sequence that ends in that refusal. */
export type Refusal = ReasonOf & {
  /**
   * True when the refusal uses the key (a second call answers already_refused;
   * docs/design/chobo.md#refusal-reasons).
   */
  readonly keyUsed: boolean;
  readonly example: readonly Act[];
  /** The example as the interpreter answered it, call by call. */
  readonly played: Played;
};

/** The refusals of one operation of one transfer. */
export interface OpRefusals {
  readonly transfer: Transfer;
  readonly op: OpName;
  readonly refusals: readonly Refusal[];
  /** The reasons the book's structure allows that the search did not reach, in the report's order. */
  readonly unreached: readonly ReasonOf[];
  /** The limits the search had reached when it was done with this operation. */
  readonly limits: readonly LimitReached[];
}

function verified(run: Run | null, reason: BuiltinReason | Bound): Run | null {
  return run !== null && isRefused(run.outcome, reason) ? run : null;
}

/** A refusal with chobo's own `reason`, when `run` does end in it. */
function builtin(reason: BuiltinReason, run: Run | null): Refusal[] {
  const example = verified(run, reason);
  return example === null
    ? []
    : [{ reason, bound: null, keyUsed: false, example: example.acts, played: example.played }];
}

/** `acts` run one after another after `from`; null when the budget is spent. */
function extend(search: Search, from: Run | null, acts: readonly Act[]): Run | null {
  let run = from;
  for (const act of acts) {
    if (run === null) return null;
    run = run.then(search, act);
  }
  return run;
}

/** The bounds a transfer's moves meet, in move order (the source's lower, then the target's upper). */
export function boundsOf(t: Transfer): BoundOf[] {
  const out: BoundOf[] = [];
  for (const m of t.moves) {
    const lower = m.from.account.lower;
    if (lower !== null) out.push({ account: m.from.account, side: "lower", bound: lower });
    const upper = m.to.account.upper;
    if (upper !== null) out.push({ account: m.to.account, side: "upper", bound: upper });
  }
  return out;
}

/**
 * Every reason the interpreter can answer `t.op` with, by the book's structure alone, in the report's
 * order (see `refusalsOf`): each bound's reason once, with the first bound that has it.
 */
export function possibleReasons(t: Transfer, op: OpName): ReasonOf[] {
  const amounts = t.params.some((p) => p.type.kind === "amount");
  const expires = t.pending?.expires === "after";
  const mine = (list: [BuiltinReason, boolean][]): ReasonOf[] =>
    list.filter(([, possible]) => possible).map(([reason]) => ({ reason, bound: null }));
  switch (op) {
    case "do":
    case "hold": {
      const bounds = boundsOf(t);
      const byReason = bounds.filter((b, i) =>
        bounds.findIndex((c) => c.bound.reason === b.bound.reason) === i
      )
        .map((b) => ({ reason: b.bound.reason, bound: b }));
      return [
        ...byReason,
        ...mine([
          ["key_conflict", t.params.some((p) => !t.key.includes(p.name))],
          ["already_refused", bounds.length > 0],
          ["same_account", t.moves.some((m) => m.from.account === m.to.account)],
        ]),
      ];
    }
    case "post":
      return mine([
        ["key_conflict", amounts],
        ["already_voided", true],
        ["expired", expires],
        ["over_hold", amounts],
        ["no_such_hold", true],
      ]);
    case "void":
      return mine([["already_posted", true], ["expired", expires], ["no_such_hold", true]]);
  }
}

/**
 * A sequence ending in `t.op` refused by the bound `b`, or null: each tried combination of amounts on
 * fresh accounts, then, for an upper bound above 0, the same after the account was filled to it.
 */
function boundExample(search: Search, t: Transfer, op: OpName, b: BoundOf): Run | null {
  const accept = (o: Parameters<typeof isRefused>[0]) => isRefused(o, b.bound);
  for (const amounts of search.choicesOf(t)) {
    const syms = new Symbols();
    const run = feed(search, search.start(), planFor(t, op, syms, new Map(), amounts), syms, {
      accept,
    });
    if (verified(run, b.bound) !== null) return run;
    if (search.exhausted) return null;
  }
  if (b.side === "lower" || b.bound.value <= 0n) return null;
  for (const m of t.moves.filter((m) => m.to.account === b.account)) {
    const syms = new Symbols();
    const plan = planFor(t, op, syms);
    const target = m.to.args.map((a) => lookup(plan.strings, a, "string symbol"));
    const full = bringTo(search, search.start(), b.account, target, b.bound.value, syms);
    if (full === null) continue;
    const run = feed(search, full, plan, syms, { accept });
    if (verified(run, b.bound) !== null) return run;
  }
  return null;
}

function holdOrDo(search: Search, t: Transfer): Refusal[] {
  const op: OpName = t.pending === null ? "do" : "hold";
  const refusals: Refusal[] = [];
  for (const b of boundsOf(t)) {
    if (refusals.some((r) => r.reason === b.bound.reason)) continue;
    const run = boundExample(search, t, op, b);
    if (run !== null) {
      refusals.push({
        reason: b.bound.reason,
        bound: b,
        keyUsed: true,
        example: run.acts,
        played: run.played,
      });
    }
  }
  const nonKey = t.params.filter((p) => !t.key.includes(p.name));
  if (nonKey.length > 0) {
    const syms = new Symbols();
    const done = makeDone(search, search.start(), t, op, syms);
    if (done !== null) {
      const first = done.plan;
      const changed = nonKey[0];
      const second: Plan = changed.type.kind === "amount"
        ? withAmounts(
          first,
          new Map([...first.amounts, [changed.name, lookup(first.amounts, changed.name, "amount") + 1n]]),
        )
        : { ...first, strings: new Map([...first.strings, [changed.name, syms.fresh()]]) };
      refusals.push(...builtin("key_conflict", done.then(search, { kind: "call", plan: second })));
    }
  }
  const byBound = refusals.find((r) => r.bound !== null);
  if (byBound !== undefined) {
    const last = byBound.example[byBound.example.length - 1];
    refusals.push(
      ...builtin("already_refused", extend(search, search.start(), [...byBound.example, last])),
    );
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
    const plan = planFor(t, op, syms, bind);
    refusals.push(...builtin("same_account", search.start().then(search, { kind: "call", plan })));
  }
  return refusals;
}

/** The refusals of `post` and `void` of a transfer that holds (docs/design/chobo.md#holds). */
function postAndVoid(search: Search, t: Transfer): { post: Refusal[]; void: Refusal[] } {
  const syms = new Symbols();
  const held = makeDone(search, search.start(), t, "hold", syms);
  const post: [BuiltinReason, Run | null][] = [];
  const void_: [BuiltinReason, Run | null][] = [];
  if (held !== null) {
    const hold = held.plan;
    const call = (op: OpName, amounts?: ReadonlyMap<string, bigint>): Act => {
      const plan = planFor(t, op, syms, hold.strings);
      return { kind: "call", plan: amounts === undefined ? plan : withAmounts(plan, amounts) };
    };
    const past = pastExpiry(t);
    const amountNames = t.params.filter((p) => p.type.kind === "amount").map((p) => p.name);
    const partial = (delta: bigint) =>
      new Map(amountNames.map((n) => {
        const a = lookup(hold.amounts, n, "held amount");
        return [n, delta < 0n && a === 0n ? 1n : a + delta];
      }));
    const after = (acts: readonly Act[]) => extend(search, held, acts);
    const expire: Act[] = past === null ? [] : [{ kind: "pass", seconds: past.seconds, text: past.text }];
    post.push([
      "key_conflict",
      amountNames.length === 0 ? null : after([call("post"), call("post", partial(-1n))]),
    ]);
    post.push(["already_voided", after([call("void"), call("post")])]);
    post.push(["expired", past === null ? null : after([...expire, call("post")])]);
    post.push(["over_hold", amountNames.length === 0 ? null : after([call("post", partial(1n))])]);
    void_.push(["already_posted", after([call("post"), call("void")])]);
    void_.push(["expired", past === null ? null : after([...expire, call("void")])]);
  }
  const fresh = new Symbols();
  const alone = (op: OpName) => search.start().then(search, { kind: "call", plan: planFor(t, op, fresh) });
  post.push(["no_such_hold", alone("post")]);
  void_.push(["no_such_hold", alone("void")]);
  const found = (list: [BuiltinReason, Run | null][]): Refusal[] =>
    list.flatMap(([reason, run]) => builtin(reason, run));
  return { post: found(post), void: found(void_) };
}

/** One operation's report: what was found, and what the book allows that was not. */
function opReport(search: Search, t: Transfer, op: OpName, refusals: readonly Refusal[]): OpRefusals {
  const unreached = possibleReasons(t, op).filter((p) => !refusals.some((r) => r.reason === p.reason));
  return { transfer: t, op, refusals, unreached, limits: search.limits };
}

/**
 * Every operation of every transfer with the reasons it may be refused with, in the order of
 * the report: bounds, key_conflict, already_refused, same_account; for post key_conflict,
 * already_voided, expired, over_hold, no_such_hold; for void already_posted, expired, no_such_hold.
 * One `search` (by default a fresh one) spends its budget over all of them.
 */
export function refusalsOf(book: Book, search: Search = new Search(book)): OpRefusals[] {
  return book.transfers.flatMap((t) => {
    const first = opReport(search, t, t.pending === null ? "do" : "hold", holdOrDo(search, t));
    if (operationsOf(t).length === 1) return [first];
    const { post, void: void_ } = postAndVoid(search, t);
    return [first, opReport(search, t, "post", post), opReport(search, t, "void", void_)];
  });
}
