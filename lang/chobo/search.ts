/**
 * The operation search (docs/design/chobo.md#the-checker): concrete calls that reach a given result, found by
 * running them on the reference interpreter — never guessed.
 *
 * Calls get distinct values (`order-1`, `sku-2`, numbered by first appearance) and small amounts.
 * When an account a call takes from is short, a transfer that puts into it is called first (and
 * that one's own sources in turn, up to three deep); amounts are tried from 1, 2, 3, 5, 10, 100,
 * 1000 and their combinations.
 * @module
 */

import { findOne, lookup } from "../common/assert.ts";
import { type Call, Ledger, type OpName, type Outcome } from "./interp.ts";
import type { Book, Move, Transfer } from "./model.ts";

/** The amounts tried, in order. */
export const AMOUNTS: readonly bigint[] = [1n, 2n, 3n, 5n, 10n, 100n, 1000n];

/** How many transfers deep the search goes to fill the accounts a call takes from. */
export const MAX_FEED_DEPTH = 3;

/** Combinations of amounts tried when a transfer has several amount parameters. */
const MAX_COMBINATIONS = 343;

/** A call with symbolic string values (numbers standing for distinct values) and amounts. */
export interface Plan {
  readonly transfer: Transfer;
  readonly op: OpName;
  /** String parameter → symbol; only the parameters the operation passes. */
  readonly strings: ReadonlyMap<string, number>;
  readonly amounts: ReadonlyMap<string, bigint>;
}

/** One act of a found sequence: a call, or the clock moving on. */
export type Act = { readonly kind: "call"; readonly plan: Plan } | {
  readonly kind: "pass";
  readonly seconds: bigint;
  readonly text: string;
};

/** A sequence run: each act's call (null for a pass) and outcome, and the ledger at the end. */
export interface Played {
  readonly calls: readonly ({ call: Call; outcome: Outcome } | { pass: string })[];
  readonly ledger: Ledger;
}

/**
 * How many sequences one search may run before it gives up: feeding tries every transfer that
 * fills an account, three deep, so a book whose accounts nothing can fill would otherwise take
 * seconds for nothing. A search that gives up reports nothing, like one that found nothing.
 */
export const MAX_PLAYS = 400;

/** Makes fresh symbols for one sequence, and counts the runs its search spends. */
export class Symbols {
  private next = 1;
  private plays = 0;
  fresh(): number {
    return this.next++;
  }
  /** False once the search has run `MAX_PLAYS` sequences. */
  spend(): boolean {
    return ++this.plays <= MAX_PLAYS;
  }
}

/**
 * Turns symbols into values named after the parameter where each first appears (`sku-2`), in the
 * order calls are turned: one `ValueNames` per sequence.
 */
export class ValueNames {
  private readonly names = new Map<number, string>();
  private counter = 0;

  /** The call of `plan` with its symbols named. */
  call(plan: Plan): Call {
    const strings = new Map<string, string>();
    const amounts = new Map<string, bigint>();
    for (const p of plan.transfer.params) {
      const sym = plan.strings.get(p.name);
      if (sym !== undefined) {
        if (!this.names.has(sym)) this.names.set(sym, `${p.name}-${++this.counter}`);
        strings.set(p.name, lookup(this.names, sym, "value name"));
      }
      const amount = plan.amounts.get(p.name);
      if (amount !== undefined) amounts.set(p.name, amount);
    }
    return { transfer: plan.transfer, op: plan.op, strings, amounts };
  }
}

/** The calls of a sequence's acts, values named by first appearance. */
export function concretize(acts: readonly Act[]): Call[] {
  const names = new ValueNames();
  return acts.flatMap((act) => act.kind === "call" ? [names.call(act.plan)] : []);
}

/** Runs acts on a fresh ledger of `book`. */
export function play(book: Book, acts: readonly Act[]): Played {
  const ledger = Ledger.empty(book.accounts.map((a) => a.name));
  const calls = concretize(acts);
  let next = 0;
  const out: Played["calls"][number][] = [];
  for (const act of acts) {
    if (act.kind === "pass") {
      ledger.pass(act.seconds);
      out.push({ pass: act.text });
    } else {
      const call = calls[next++];
      out.push({ call, outcome: ledger.apply(call) });
    }
  }
  return { calls: out, ledger };
}

/** The outcome of the last call of a played sequence. */
export function lastOutcome(p: Played): Outcome {
  const last = p.calls[p.calls.length - 1];
  if (last === undefined || !("outcome" in last)) throw new Error("a sequence ends with a call");
  return last.outcome;
}

/** A plan for `transfer.op` with fresh symbols except where `bind` says, and one amount for all. */
export function planFor(
  transfer: Transfer,
  op: OpName,
  syms: Symbols,
  bind: ReadonlyMap<string, number> = new Map(),
  amounts: ReadonlyMap<string, bigint> | bigint = 1n,
): Plan {
  const strings = new Map<string, number>();
  const amountMap = new Map<string, bigint>();
  for (const p of transfer.params) {
    const passed = op === "do" || op === "hold" || transfer.key.includes(p.name);
    if (!passed) continue;
    if (p.type.kind === "string") strings.set(p.name, bind.get(p.name) ?? syms.fresh());
    else amountMap.set(p.name, typeof amounts === "bigint" ? amounts : amounts.get(p.name) ?? 1n);
  }
  return { transfer, op, strings, amounts: amountMap };
}

/** The same plan with other amounts (a partial post passes every amount parameter). */
export function withAmounts(plan: Plan, amounts: ReadonlyMap<string, bigint>): Plan {
  return { ...plan, amounts };
}

/** Every combination of the tried amounts over a transfer's amount parameters, smallest first. */
export function amountChoices(transfer: Transfer): Map<string, bigint>[] {
  const names = transfer.params.filter((p) => p.type.kind === "amount").map((p) => p.name);
  let choices: Map<string, bigint>[] = [new Map()];
  for (const name of names) {
    const grown: Map<string, bigint>[] = [];
    for (const c of choices) {
      for (const a of AMOUNTS) grown.push(new Map([...c, [name, a]]));
    }
    choices = grown;
    if (choices.length > MAX_COMBINATIONS) {
      return AMOUNTS.map((a) => new Map(names.map((n) => [n, a])));
    }
  }
  return choices;
}

/** The symbols of an account named in a move of `plan`, by the move's parameter names. */
function refSymbols(plan: Plan, args: readonly string[]): number[] {
  return args.map((a) => lookup(plan.strings, a, "string symbol"));
}

/**
 * Calls that make `plan` (after `prefix`) end in an outcome that is not a bound refusal, or one
 * `accept` takes: each bound that refuses it is met by first calling a transfer that fills (or
 * drains) that account. Returns the prefix with the feeding calls and the plan at the end, or null.
 */
export function feed(
  book: Book,
  prefix: readonly Act[],
  plan: Plan,
  syms: Symbols,
  depth = 0,
  accept: (o: Outcome) => boolean = () => false,
): Act[] | null {
  let acts: Act[] = [...prefix, { kind: "call", plan }];
  for (let round = 0; round <= plan.transfer.moves.length; round++) {
    if (!syms.spend()) return null;
    const outcome = lastOutcome(play(book, acts));
    if (accept(outcome) || outcome.kind !== "refused" || outcome.at === null) return acts;
    if (depth >= MAX_FEED_DEPTH) return null;
    const at = outcome.at;
    const move = plan.transfer.moves[at.move - 1];
    const ref = at.side === "lower" ? move.from : move.to;
    const need = at.side === "lower"
      ? at.bound.value + at.balance.heldOut + at.amount - at.balance.posted
      : at.balance.posted + at.balance.heldIn + at.amount - at.bound.value;
    const target = refSymbols(plan, ref.args);
    const fed = feedAccount(book, acts.slice(0, -1), ref.account.name, target, need, at.side, syms, depth);
    if (fed === null) return null;
    acts = [...fed, { kind: "call", plan }];
  }
  return null;
}

/**
 * Calls that add `need` to (lower) or take `need` from (upper) the account `account(target)`,
 * with a transfer that moves into (or out of) it, posted for real.
 */
function feedAccount(
  book: Book,
  prefix: readonly Act[],
  account: string,
  target: readonly number[],
  need: bigint,
  side: "lower" | "upper",
  syms: Symbols,
  depth: number,
): Act[] | null {
  for (const t of book.transfers) {
    for (const m of t.moves) {
      const ref = side === "lower" ? m.to : m.from;
      if (ref.account.name !== account) continue;
      const bind = new Map<string, number>();
      ref.args.forEach((a, i) => bind.set(a, target[i]));
      const op = t.pending === null ? "do" : "hold";
      for (const amounts of feedingAmounts(t, ref, side, need)) {
        const plan = planFor(t, op, syms, bind, amounts);
        const done = feed(book, prefix, plan, syms, depth + 1);
        if (done === null || lastOutcome(play(book, done)).kind !== "done") continue;
        if (op === "do") return done;
        const post: Act = { kind: "call", plan: planFor(t, "post", syms, plan.strings) };
        const posted = [...done, post];
        if (lastOutcome(play(book, posted)).kind === "done") return posted;
      }
    }
  }
  return null;
}

/**
 * `prefix` and calls that put `need` into the account `account(target)` (posted), by a transfer
 * that moves into it; null when none can.
 */
export function fillAccount(
  book: Book,
  prefix: readonly Act[],
  account: string,
  target: readonly number[],
  need: bigint,
  syms: Symbols,
): Act[] | null {
  return feedAccount(book, prefix, account, target, need, "lower", syms, 0);
}

/**
 * The net change a transfer's moves make to the account `ref` names (the same account and the same
 * parameters), for given amounts.
 */
export function netOf(t: Transfer, ref: Move["from"], amounts: ReadonlyMap<string, bigint>): bigint {
  const same = (r: Move["from"]) =>
    r.account === ref.account && r.args.length === ref.args.length &&
    r.args.every((a, i) => a === ref.args[i]);
  let net = 0n;
  for (const m of t.moves) {
    const a = m.amount.kind === "literal" ? m.amount.value : lookup(amounts, m.amount.param, "amount");
    if (same(m.to)) net += a;
    if (same(m.from)) net -= a;
  }
  return net;
}

/**
 * Amounts for a feeding transfer that move at least `need` into (lower) or out of (upper) the
 * account `ref` names, over all its moves: each tried combination whose net goes the right way,
 * scaled up until it is enough. A transfer whose later move takes back part of what an earlier
 * one put in (a sale and its fee) is fed only by combinations where the first is larger.
 */
function feedingAmounts(
  t: Transfer,
  ref: Transfer["moves"][number]["to"],
  side: "lower" | "upper",
  need: bigint,
): Map<string, bigint>[] {
  const out: Map<string, bigint>[] = [];
  for (const c of amountChoices(t)) {
    const net = side === "upper" ? -netOf(t, ref, c) : netOf(t, ref, c);
    if (net <= 0n) continue;
    const k = (need + net - 1n) / net;
    out.push(new Map([...c].map(([name, a]) => [name, a * k])));
    if (out.length >= 3) break;
  }
  return out;
}

/**
 * `prefix` and the calls that make `transfer.op` done, trying the amounts `first` and then each
 * tried combination; null when none is done.
 */
export function makeDone(
  book: Book,
  prefix: readonly Act[],
  transfer: Transfer,
  op: OpName,
  syms: Symbols,
  bind = new Map<string, number>(),
  first: readonly Map<string, bigint>[] = [],
): Act[] | null {
  for (const amounts of [...first, ...amountChoices(transfer)]) {
    const plan = planFor(transfer, op, syms, bind, amounts);
    const acts = feed(book, prefix, plan, syms);
    if (acts !== null && lastOutcome(play(book, acts)).kind === "done") return acts;
  }
  return null;
}

/** The time words of a hold's expiry, one unit past it: `30 minutes` → `31 minutes`. */
export function pastExpiry(transfer: Transfer): { seconds: bigint; text: string } | null {
  const pending = transfer.pending;
  if (pending === null || pending.expires === "never") return null;
  const units: [bigint, string][] = [[86400n, "days"], [3600n, "hours"], [60n, "minutes"], [1n, "seconds"]];
  const [per, word] = findOne(units, ([u]) => pending.seconds % u === 0n, "time unit (1 second divides all)");
  const n = pending.seconds / per + 1n;
  return { seconds: n * per, text: `${n} ${word}` };
}
