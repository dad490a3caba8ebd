/**
 * The operation search (docs/design/chobo.md#the-checker): concrete calls that reach a given result, found by
 * running them on the reference interpreter — never guessed.
 *
 * Calls get distinct values (`order-1`, `sku-2`, numbered by first appearance) and amounts from the
 * book: the small `BASE_AMOUNTS`, every bound and the distances between bounds, one either side of each
 * (`searchAmounts`). When an account a call takes from is short, a transfer that puts into it is called
 * first with all the call lacks there (and that one's own sources in turn, up to `MAX_FEED_DEPTH` deep).
 * One `Search` spends at most `MAX_SEARCH_STEPS` of the interpreter's work; what it has not found by
 * then is not reached, and the limit is said (`Search.limits`).
 * @module
 */

import { findOne, lookup } from "../common/assert.ts";
import {
  type AccountId,
  type Call,
  Ledger,
  moveAmount,
  type OpName,
  type Outcome,
  stringArg,
} from "./interp.ts";
import {
  type Account,
  type AccountRef,
  type Book,
  MAX_AMOUNT,
  type Move,
  type Transfer,
  type Unit,
} from "./model.ts";

/** The amounts every search tries, whatever the book, in order. */
export const BASE_AMOUNTS: readonly bigint[] = [1n, 2n, 3n, 5n, 10n, 100n, 1000n];

/**
 * How many amounts one unit's search tries at most: the base ones, then those of single bounds, then
 * the distances between two bounds, in the book's order. A book whose bounds give more says so.
 */
export const MAX_AMOUNTS_PER_UNIT = 40;

/** How many transfers deep the search goes to fill the accounts a call takes from. */
export const MAX_FEED_DEPTH = 3;

/** Combinations of amounts tried when a transfer has several amount parameters. */
const MAX_COMBINATIONS = 343;

/**
 * How many sequences one question of a search may run before it gives up: feeding tries every transfer
 * that fills an account, three deep, so a book whose accounts nothing can fill would otherwise take
 * seconds for nothing. A question given up is not reached.
 */
export const MAX_PLAYS = 400;

/**
 * How much of the interpreter's work one search may spend: every move an operation checks and every
 * row of a ledger copied for the next act counts one. About half a second here; a book that needs
 * more (thousands of moves and accounts) gets what was found by then, and the rest is not reached.
 */
export const MAX_SEARCH_STEPS = 600_000;

/** A limit of the search that was reached: the findings past it are incomplete, and say so. */
export type LimitReached =
  | { readonly limit: "MAX_SEARCH_STEPS"; readonly steps: number }
  | {
    readonly limit: "MAX_AMOUNTS_PER_UNIT";
    readonly unit: string;
    readonly tried: number;
    readonly found: number;
  };

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
 * The amounts tried for one unit's parameters: `BASE_AMOUNTS`, then for every bound `b` of an account
 * of the unit |b| − 1, |b|, |b| + 1 (an account starts at 0, so that is how far a move goes to meet it),
 * then for every two bounds their distance and one either side (from one bound to the other), those from
 * 1 to `MAX_AMOUNT`, each once, smallest first; at most `MAX_AMOUNTS_PER_UNIT`, and `found` says how many
 * the book gave.
 */
export function searchAmounts(book: Book, unit: Unit): { amounts: bigint[]; found: number } {
  // Each value once, in the book's order: a value written again gives no amount it did not give.
  const bounds = [
    ...new Set(
      book.accounts.filter((a) => a.unit.name === unit.name)
        .flatMap((a) => [a.lower, a.upper]).flatMap((b) => b === null ? [] : [b.value]),
    ),
  ];
  const abs = (v: bigint) => v < 0n ? -v : v;
  const around = (v: bigint) => [v - 1n, v, v + 1n];
  const candidates = [
    ...BASE_AMOUNTS,
    ...bounds.flatMap((b) => around(abs(b))),
    ...bounds.flatMap((b, i) => bounds.slice(i + 1).flatMap((c) => around(abs(b - c)))),
  ];
  const all = [...new Set(candidates.filter((a) => a >= 1n && a <= MAX_AMOUNT))];
  const kept = all.slice(0, MAX_AMOUNTS_PER_UNIT).sort((a, b) => a < b ? -1 : a > b ? 1 : 0);
  return { amounts: kept, found: all.length };
}

/**
 * One search over a book: the amounts it tries per unit, and its budget of interpreter work, which
 * every sequence it runs spends. `limits` says which limits it reached.
 */
export class Search {
  private readonly amounts = new Map<string, readonly bigint[]>();
  private readonly choices = new Map<Transfer, readonly ReadonlyMap<string, bigint>[]>();
  private readonly into = new Map<Account, { transfer: Transfer; move: Move }[]>();
  private readonly outOf = new Map<Account, { transfer: Transfer; move: Move }[]>();
  private readonly empty: Ledger;
  private readonly reached: LimitReached[] = [];
  private steps = 0;

  constructor(readonly book: Book) {
    for (const u of book.units) {
      const { amounts, found } = searchAmounts(book, u);
      this.amounts.set(u.name, amounts);
      if (found > amounts.length) {
        this.reached.push({ limit: "MAX_AMOUNTS_PER_UNIT", unit: u.name, tried: amounts.length, found });
      }
    }
    for (const transfer of book.transfers) {
      for (const move of transfer.moves) {
        for (
          const [index, account] of [[this.into, move.to.account], [this.outOf, move.from.account]] as const
        ) {
          const list = index.get(account) ?? [];
          list.push({ transfer, move });
          index.set(account, list);
        }
      }
    }
    this.empty = Ledger.empty(book.accounts.map((a) => a.name));
  }

  /** The empty sequence on a fresh ledger of the book. */
  start(): Run {
    return Run.start(this.empty.clone());
  }

  /** The amounts tried for parameters of `unit`. */
  amountsOf(unit: Unit): readonly bigint[] {
    return lookup(this.amounts, unit.name, `amounts of the unit ${unit.name}`);
  }

  /** Every combination of amounts tried for `t` (`amountChoices`), made once per transfer. */
  choicesOf(t: Transfer): readonly ReadonlyMap<string, bigint>[] {
    const known = this.choices.get(t);
    if (known !== undefined) return known;
    const made = amountChoices(this, t);
    this.choices.set(t, made);
    return made;
  }

  /** Every move that puts into (`"to"`) or takes from (`"from"`) an account kind, in the book's order. */
  movesOn(account: Account, side: "to" | "from"): readonly { transfer: Transfer; move: Move }[] {
    return (side === "to" ? this.into : this.outOf).get(account) ?? [];
  }

  /** Spends `n` steps of the budget; false (and the limit recorded) once it is spent. */
  spend(n: number): boolean {
    if (this.exhausted) return false;
    this.steps += n;
    if (this.steps <= MAX_SEARCH_STEPS) return true;
    this.reached.push({ limit: "MAX_SEARCH_STEPS", steps: MAX_SEARCH_STEPS });
    return false;
  }

  /** True once the budget is spent: every later question is not reached. */
  get exhausted(): boolean {
    return this.reached.some((l) => l.limit === "MAX_SEARCH_STEPS");
  }

  /** The limits reached so far. */
  get limits(): readonly LimitReached[] {
    return [...this.reached];
  }
}

/** Makes fresh symbols for one sequence, and counts the runs its question spends. */
export class Symbols {
  private next = 1;
  private plays = 0;
  fresh(): number {
    return this.next++;
  }
  /** False once the question has run `MAX_PLAYS` sequences. */
  spend(): boolean {
    return ++this.plays <= MAX_PLAYS;
  }
}

/**
 * Turns symbols into values named after the parameter where each first appears (`sku-2`), in the
 * order calls are turned: one `ValueNames` per sequence.
 */
export class ValueNames {
  private constructor(private readonly names: Map<number, string>, private counter: number) {}

  static empty(): ValueNames {
    return new ValueNames(new Map(), 0);
  }

  clone(): ValueNames {
    return new ValueNames(new Map(this.names), this.counter);
  }

  /** The value a symbol was named, once a call passed it. */
  valueOf(sym: number): string {
    return lookup(this.names, sym, "value name");
  }

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
  const names = ValueNames.empty();
  return acts.flatMap((act) => act.kind === "call" ? [names.call(act.plan)] : []);
}

/** Runs acts on a fresh ledger of `book`: how the views replay what a search found. */
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

/**
 * A sequence as the search grows it: its acts, the ledger after them, and the last call with its
 * outcome. `then` extends a copy, so one run is the prefix of many.
 */
export class Run {
  private constructor(
    readonly acts: readonly Act[],
    readonly ledger: Ledger,
    private readonly names: ValueNames,
    private readonly log: Played["calls"],
    private readonly lastCall: { readonly call: Call; readonly outcome: Outcome } | null,
  ) {}

  /** The empty sequence on `ledger`, an empty one (`Search.start`). */
  static start(ledger: Ledger): Run {
    return new Run([], ledger, ValueNames.empty(), [], null);
  }

  /** This run and then `act`, on copies; null when the search's budget is spent. */
  then(search: Search, act: Act): Run | null {
    const moves = act.kind === "call" ? act.plan.transfer.moves.length : 0;
    if (!search.spend(this.ledger.size + moves + 1)) return null;
    const ledger = this.ledger.clone();
    const names = this.names.clone();
    if (act.kind === "pass") {
      ledger.pass(act.seconds);
      return new Run([...this.acts, act], ledger, names, [...this.log, { pass: act.text }], null);
    }
    const call = names.call(act.plan);
    const last = { call, outcome: ledger.apply(call) };
    return new Run([...this.acts, act], ledger, names, [...this.log, last], last);
  }

  /** The run as the views show it: each act's call and outcome, and the ledger at the end (as `play` gives). */
  get played(): Played {
    return { calls: this.log, ledger: this.ledger };
  }

  /** The value the symbol `sym` stands for in this run, once a call passed it. */
  valueOf(sym: number): string {
    return this.names.valueOf(sym);
  }

  /** The last act's call and its outcome; a run that ends in a pass or is empty has none. */
  get last(): { readonly call: Call; readonly outcome: Outcome } {
    if (this.lastCall === null) throw new Error("a found sequence ends with a call");
    return this.lastCall;
  }

  /** The outcome of the last act, a call. */
  get outcome(): Outcome {
    return this.last.outcome;
  }

  /** The plan of the last act, a call. */
  get plan(): Plan {
    const act = this.acts[this.acts.length - 1];
    if (act?.kind !== "call") throw new Error("a found sequence ends with a call");
    return act.plan;
  }
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

/**
 * Every combination of the tried amounts over a transfer's amount parameters, smallest first; past
 * `MAX_COMBINATIONS`, the n-th amount of each parameter's unit together.
 */
export function amountChoices(search: Search, transfer: Transfer): Map<string, bigint>[] {
  const params = transfer.params.flatMap((p) =>
    p.type.kind === "amount" ? [{ name: p.name, amounts: search.amountsOf(p.type.unit) }] : []
  );
  let choices: Map<string, bigint>[] = [new Map()];
  for (const p of params) {
    const grown: Map<string, bigint>[] = [];
    for (const c of choices) {
      for (const a of p.amounts) grown.push(new Map([...c, [p.name, a]]));
    }
    choices = grown;
    if (choices.length > MAX_COMBINATIONS) {
      const longest = Math.max(...params.map((q) => q.amounts.length));
      return Array.from(
        { length: longest },
        (_, i) => new Map(params.map((q) => [q.name, q.amounts[Math.min(i, q.amounts.length - 1)]])),
      );
    }
  }
  return choices;
}

/** The symbols of an account named in a move of `plan`, by the move's parameter names. */
function refSymbols(plan: Plan, args: readonly string[]): number[] {
  return args.map((a) => lookup(plan.strings, a, "string symbol"));
}

/** What one account lacks for a call: how much must come in (lower) or go out (upper) first. */
interface Shortfall {
  readonly ref: AccountRef;
  readonly side: "lower" | "upper";
  readonly need: bigint;
}

/**
 * What every bounded account `call` meets lacks for all of its moves to pass their bounds on `ledger`:
 * the bounds counted as the interpreter counts them (docs/design/chobo.md#bounds), move by move in
 * written order, so that one filling call brings all a call takes from an account — which is what a
 * filler that runs once per account (its key the account's parameters) allows. This only plans: every
 * sequence is then run on the interpreter, which decides.
 */
function shortfalls(ledger: Ledger, call: Call): Shortfall[] {
  const held = call.op === "hold";
  const balances = new Map<string, { posted: bigint; heldOut: bigint; heldIn: bigint }>();
  const found = new Map<string, { ref: AccountRef; side: "lower" | "upper"; need: bigint }>();
  const row = (ref: AccountRef) => {
    const id: AccountId = { account: ref.account.name, args: ref.args.map((a) => stringArg(call, a)) };
    const key = JSON.stringify([id.account, ...id.args]);
    const known = balances.get(key);
    if (known !== undefined) return { key, b: known };
    const b = { ...ledger.balance(id) };
    balances.set(key, b);
    return { key, b };
  };
  const lack = (key: string, ref: AccountRef, side: "lower" | "upper", need: bigint) => {
    const k = `${side} ${key}`;
    const before = found.get(k);
    if (need > 0n && (before === undefined || need > before.need)) found.set(k, { ref, side, need });
  };
  for (const m of call.transfer.moves) {
    const a = moveAmount(call, m);
    const from = row(m.from);
    const lower = m.from.account.lower;
    if (lower !== null) lack(from.key, m.from, "lower", lower.value - (from.b.posted - from.b.heldOut - a));
    if (held) from.b.heldOut += a;
    else from.b.posted -= a;
    const to = row(m.to);
    const upper = m.to.account.upper;
    if (upper !== null) lack(to.key, m.to, "upper", to.b.posted + to.b.heldIn + a - upper.value);
    if (held) to.b.heldIn += a;
    else to.b.posted += a;
  }
  return [...found.values()];
}

/** How `feed` goes on. */
export interface FeedOptions {
  /** How deep this feed is inside another; 0 for the call a question is about. */
  readonly depth?: number;
  /**
   * An outcome to stop at although a bound refused it. With one, each round fills only the account
   * that refused, by what that move lacked, so the call can still be refused further on.
   */
  readonly accept?: (o: Outcome) => boolean;
}

/**
 * Calls that make `plan` (after `prefix`) end in an outcome that is not a bound refusal, or one
 * `accept` takes: each account a bound refuses is met by first calling a transfer that fills (or
 * drains) it. Returns the run ending in the plan's call, or null.
 */
export function feed(
  search: Search,
  prefix: Run,
  plan: Plan,
  syms: Symbols,
  options: FeedOptions = {},
): Run | null {
  const depth = options.depth ?? 0;
  let before = prefix;
  for (let round = 0; round <= plan.transfer.moves.length; round++) {
    if (!syms.spend()) return null;
    const run = before.then(search, { kind: "call", plan });
    if (run === null) return null;
    const { call, outcome } = run.last;
    if (outcome.kind !== "refused" || outcome.at === null || options.accept?.(outcome)) return run;
    if (depth >= MAX_FEED_DEPTH || !search.spend(plan.transfer.moves.length)) return null;
    const at = outcome.at;
    const wants: Shortfall[] = options.accept === undefined ? shortfalls(before.ledger, call) : [{
      ref: at.side === "lower" ? call.transfer.moves[at.move - 1].from : call.transfer.moves[at.move - 1].to,
      side: at.side,
      need: at.side === "lower"
        ? at.bound.value + at.balance.heldOut + at.amount - at.balance.posted
        : at.balance.posted + at.balance.heldIn + at.amount - at.bound.value,
    }];
    for (const w of wants) {
      const fed = feedAccount(search, before, refSymbols(plan, w.ref.args), w, syms, depth);
      if (fed === null) return null;
      before = fed;
    }
  }
  return null;
}

/**
 * `prefix` and calls that add `want.need` to (lower) or take it from (upper) the account
 * `account(target)`, with a transfer that moves into (or out of) it, posted for real.
 */
function feedAccount(
  search: Search,
  prefix: Run,
  target: readonly number[],
  want: Shortfall,
  syms: Symbols,
  depth: number,
): Run | null {
  for (
    const { transfer: t, move: m } of search.movesOn(want.ref.account, want.side === "lower" ? "to" : "from")
  ) {
    const ref = want.side === "lower" ? m.to : m.from;
    const bind = new Map<string, number>();
    ref.args.forEach((a, i) => bind.set(a, target[i]));
    const op = t.pending === null ? "do" : "hold";
    for (const amounts of feedingAmounts(search, t, ref, want.side, want.need)) {
      const plan = planFor(t, op, syms, bind, amounts);
      const done = feed(search, prefix, plan, syms, { depth: depth + 1 });
      if (done === null || done.outcome.kind !== "done") continue;
      if (op === "do") return done;
      const posted = done.then(search, { kind: "call", plan: planFor(t, "post", syms, plan.strings) });
      if (posted !== null && posted.outcome.kind === "done") return posted;
    }
  }
  return null;
}

/**
 * The net change a transfer's moves make to the account `ref` names (the same account and the same
 * parameters), for given amounts.
 */
export function netOf(t: Transfer, ref: AccountRef, amounts: ReadonlyMap<string, bigint>): bigint {
  const same = (r: AccountRef) =>
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
  search: Search,
  t: Transfer,
  ref: AccountRef,
  side: "lower" | "upper",
  need: bigint,
): Map<string, bigint>[] {
  const out: Map<string, bigint>[] = [];
  for (const c of search.choicesOf(t)) {
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
  search: Search,
  prefix: Run,
  transfer: Transfer,
  op: OpName,
  syms: Symbols,
  bind: ReadonlyMap<string, number> = new Map(),
  first: readonly Map<string, bigint>[] = [],
): Run | null {
  for (const amounts of [...first, ...search.choicesOf(transfer)]) {
    const plan = planFor(transfer, op, syms, bind, amounts);
    const run = feed(search, prefix, plan, syms);
    if (run !== null && run.outcome.kind === "done") return run;
    if (search.exhausted) return null;
  }
  return null;
}

/**
 * How many calls `bringTo` makes at most to bring an account to a balance with a transfer whose move
 * is a literal (`move 1 from shelf(title) to borrowed(member)` five times for `at most 5`).
 */
export const MAX_FILL_CALLS = 20;

/**
 * `prefix` and calls that leave the account `account(target)`, unused so far, at exactly `balance`
 * posted, with a transfer that puts into it (above 0) or takes from it (below 0) — others before
 * `last`. A move with an amount parameter is one call with that amount and 1 for every other amount;
 * when its other moves take back part (a sale and its fee), the amount is raised by what was missing,
 * once. A move of a literal amount is called as often as that divides the balance, up to
 * `MAX_FILL_CALLS`, each call with values of its own. Each call's sources are fed and a hold is
 * posted. Null when no transfer does.
 */
export function bringTo(
  search: Search,
  prefix: Run,
  account: Account,
  target: readonly number[],
  balance: bigint,
  syms: Symbols,
  last: Transfer | null = null,
): Run | null {
  if (balance === 0n) return prefix;
  const into = balance > 0n;
  const wanted = into ? balance : -balance;
  const moves = search.movesOn(account, into ? "to" : "from");
  const order = [...moves.filter((x) => x.transfer !== last), ...moves.filter((x) => x.transfer === last)];
  for (const { transfer: f, move: m } of order) {
    const ref = into ? m.to : m.from;
    const posted = (run: Run) => {
      const b = run.ledger.balance({ account: account.name, args: target.map((s) => run.valueOf(s)) });
      return b.heldIn === 0n && b.heldOut === 0n ? b.posted : null;
    };
    const bind = new Map(ref.args.map((a, i) => [a, target[i]]));
    if (m.amount.kind === "literal") {
      const each = m.amount.value;
      if (each <= 0n || wanted % each !== 0n || wanted / each > BigInt(MAX_FILL_CALLS)) continue;
      let run: Run | null = prefix;
      for (let n = 0n; n < wanted / each && run !== null; n++) {
        run = callDone(search, run, f, bind, new Map(), syms);
      }
      if (run !== null && run !== prefix && posted(run) === balance) return run;
      continue;
    }
    let amount = wanted;
    for (let tries = 0; tries < 2 && amount > 0n; tries++) {
      const amounts = new Map([[m.amount.param, amount]]);
      const run = callDone(search, prefix, f, bind, amounts, syms);
      const reached = run === null ? null : posted(run);
      if (run === null || reached === null) break;
      if (reached === balance) return run;
      amount += into ? balance - reached : reached - balance;
    }
  }
  return null;
}

/**
 * `prefix` and a call of `f` (`amounts` where given, 1 for every other amount) that is done, its
 * sources fed, and posted when it holds; null when it is not.
 */
function callDone(
  search: Search,
  prefix: Run,
  f: Transfer,
  bind: ReadonlyMap<string, number>,
  amounts: ReadonlyMap<string, bigint>,
  syms: Symbols,
): Run | null {
  const all = new Map(
    f.params.filter((p) => p.type.kind === "amount").map((p) => [p.name, amounts.get(p.name) ?? 1n]),
  );
  const plan = planFor(f, f.pending === null ? "do" : "hold", syms, bind, all);
  const run = feed(search, prefix, plan, syms);
  if (run === null || run.outcome.kind !== "done") return null;
  if (f.pending === null) return run;
  const end = run.then(search, { kind: "call", plan: planFor(f, "post", syms, plan.strings) });
  return end !== null && end.outcome.kind === "done" ? end : null;
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
