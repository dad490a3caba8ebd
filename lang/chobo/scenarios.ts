/**
 * Generated scenarios (docs/design/chobo.md#scenarios): every family listed there, each
 * built by running it on the reference interpreter and dropped when it does not reach what its
 * name says. Names are English (part of the JSON contract); a Japanese title goes alongside for
 * `chobo doc --lang ja`. Values are distinct within a scenario and numbered by first
 * appearance; numbers in names are written in the unit's scale.
 *
 * The life of every hold and a race for the last unit of every bound an operation meets are owed:
 * where one is not generated, `generate` says why (`ScenarioNote`). One `Search` budget covers the
 * whole generation; when it is spent, generation stops and says so.
 * @module
 */

import { lookup } from "../common/assert.ts";
import { type Call, isRefused, type OpName, type Outcome } from "./interp.ts";
import {
  type Account,
  type AccountRef,
  type Book,
  type Bound,
  MAX_AMOUNT,
  type Move,
  type Transfer,
} from "./model.ts";
import type { BuiltinReason } from "./resolve.ts";
import { type Branch, runScenario, type Scenario, type Step } from "./scenario.ts";
import {
  type Act,
  bringTo,
  feed,
  type LimitReached,
  makeDone,
  pastExpiry,
  type Plan,
  planFor,
  Search,
  Symbols,
  ValueNames,
  withAmounts,
} from "./search.ts";
import { accountKindText, quantityText } from "./words.ts";

/** A step while a scenario is built: acts of the search, or callers at once. */
type GenStep = Act | { readonly kind: "together"; readonly callers: readonly (readonly Plan[])[] };

/** Why an owed race for the last unit of a bound was not generated. */
export type RaceGap =
  /** A move of the transfer also puts into the account it takes from (or takes from what it fills). */
  | "both_ways"
  /** Every key parameter chooses an account, so two calls on one account have one key. */
  | "no_free_key"
  /** One call alone is refused by the bound (an upper bound below what one call puts in). */
  | "one_call_too_many"
  /** No transfer brought the account to one call short of the bound within the search. */
  | "no_fill"
  /** The race was built and run, and did not end with one call done and the other refused. */
  | "not_reached";

/** A scenario the generator owes and did not generate, and why (the views write it in both languages). */
export type ScenarioNote =
  | { readonly kind: "hold"; readonly transfer: string }
  | { readonly kind: "hold_step"; readonly name: string; readonly titleJa: string }
  | {
    readonly kind: "race";
    readonly transfer: string;
    readonly op: OpName;
    readonly account: string;
    readonly side: "lower" | "upper";
    readonly why: RaceGap;
  };

/** What the generator made: the scenarios, what it owed and did not make, and the limits it reached. */
export interface Generated {
  readonly scenarios: readonly Scenario[];
  readonly notes: readonly ScenarioNote[];
  readonly limits: readonly LimitReached[];
}

/** Numbers the symbols of all calls by first appearance (callers of a together in order). */
function toScenario(name: string, steps: readonly GenStep[]): Scenario {
  const names = ValueNames.empty();
  const concrete = (plan: Plan): Call => names.call(plan);
  const out: Step[] = steps.map((s) => {
    if (s.kind === "call") return { kind: "call", call: concrete(s.plan) };
    if (s.kind === "pass") return { kind: "pass", seconds: s.seconds, text: s.text };
    return { kind: "together", callers: s.callers.map((c) => c.map(concrete)) };
  });
  return { name, tenant: "", steps: out };
}

function lastResult(b: Branch): Outcome | null {
  const last = b.steps[b.steps.length - 1];
  return last?.kind === "call" ? last.outcome : null;
}

/** True when `o` ends as `kind`, and a refusal with `reason` (chobo's own or a bound's) if given. */
function is(o: Outcome | null, kind: Outcome["kind"], reason?: BuiltinReason | Bound): boolean {
  if (o === null) return false;
  if (kind === "refused") return reason === undefined ? o.kind === "refused" : isRefused(o, reason);
  return o.kind === kind;
}

function opOf(t: Transfer): OpName {
  return t.pending === null ? "do" : "hold";
}

/** What running a scenario costs the budget: each call's moves, those of a `together` once per order. */
function cost(steps: readonly GenStep[]): number {
  return steps.reduce((n, s) => {
    if (s.kind === "call") return n + s.plan.transfer.moves.length + 1;
    if (s.kind === "pass") return n + 1;
    const calls = s.callers.flat();
    let orders = 1;
    for (let i = 2; i <= calls.length; i++) orders *= i;
    return n + orders * calls.reduce((k, p) => k + p.transfer.moves.length + 1, 0);
  }, 0);
}

/**
 * True when every amount the steps pass is one a caller may (0 … `MAX_AMOUNT`): a generated step never
 * passes one outside, which every target refuses before it is sent (a failure, not what a scenario is for).
 */
function amountsInRange(steps: readonly GenStep[]): boolean {
  const plans = steps.flatMap((s) =>
    s.kind === "call" ? [s.plan] : s.kind === "together" ? s.callers.flat() : []
  );
  return plans.every((p) => [...p.amounts.values()].every((a) => a >= 0n && a <= MAX_AMOUNT));
}

/** Collects scenarios, keeping each only when running it reaches what `reached` checks. */
class Collector {
  readonly out: Scenario[] = [];
  readonly notes: ScenarioNote[] = [];
  private readonly names = new Set<string>();
  constructor(readonly search: Search) {}

  get book(): Book {
    return this.search.book;
  }

  /** True when the scenario was kept (or one of its name was already). */
  add(
    name: string,
    titleJa: string,
    steps: readonly GenStep[] | null,
    reached: (bs: readonly Branch[]) => boolean,
  ): boolean {
    if (this.names.has(name)) return true;
    if (steps === null || !amountsInRange(steps) || !this.search.spend(cost(steps))) return false;
    const scenario = { ...toScenario(name, steps), titleJa };
    if (!reached(runScenario(this.book, scenario))) return false;
    this.names.add(name);
    this.out.push(scenario);
    return true;
  }

  /** A scenario with one outcome whose last call ends as `kind` (and `reason`). */
  single(
    name: string,
    titleJa: string,
    steps: readonly GenStep[] | null,
    kind: Outcome["kind"],
    reason?: BuiltinReason | Bound,
  ): boolean {
    return this.add(name, titleJa, steps, (bs) => bs.length === 1 && is(lastResult(bs[0]), kind, reason));
  }

  /** A scenario owed by the design: when it is not kept, a note says so (unless the budget ran out). */
  owed(
    name: string,
    titleJa: string,
    steps: readonly GenStep[] | null,
    kind: Outcome["kind"],
    reason?: BuiltinReason | Bound,
  ): void {
    if (!this.single(name, titleJa, steps, kind, reason) && !this.search.exhausted) {
      this.notes.push({ kind: "hold_step", name, titleJa });
    }
  }
}

function refOf(m: Move, side: "lower" | "upper"): AccountRef {
  return side === "lower" ? m.from : m.to;
}

function sameRef(a: AccountRef, b: AccountRef): boolean {
  return a.account === b.account && a.args.length === b.args.length &&
    a.args.every((x, i) => x === b.args[i]);
}

/** How many moves of each transfer touch each account kind (a move from a kind to itself once). */
function touchCounts(t: Transfer): Map<Account, number> {
  const counts = new Map<Account, number>();
  for (const m of t.moves) {
    for (const a of new Set([m.from.account, m.to.account])) counts.set(a, (counts.get(a) ?? 0) + 1);
  }
  return counts;
}

/** Amounts: `amount` for the move's own parameter, 1 for any other. */
function amountsFor(t: Transfer, m: Move, amount: bigint): Map<string, bigint> {
  return new Map(
    t.params.filter((p) => p.type.kind === "amount")
      .map((p) => [p.name, m.amount.kind === "param" && m.amount.param === p.name ? amount : 1n]),
  );
}

/**
 * A prefix that leaves the account a move's `side` names at `balance` (posted), by filling it,
 * then the plan of the move's transfer with `amount`. Null when no transfer can fill it.
 */
function atBalance(
  search: Search,
  t: Transfer,
  m: Move,
  side: "lower" | "upper",
  balance: bigint,
  amount: bigint,
) {
  const syms = new Symbols();
  const plan = planFor(t, opOf(t), syms, new Map(), amountsFor(t, m, amount));
  const ref = refOf(m, side);
  const target = ref.args.map((a) => lookup(plan.strings, a, "string symbol"));
  const prefix = bringTo(search, search.start(), ref.account, target, balance, syms, t);
  return prefix === null ? null : { syms, plan, prefix };
}

/**
 * The steps of a bound scenario: the account at `start`, then the move's transfer with `amount`,
 * with whatever its other accounts need fed first (a source that must hold what a move puts into a
 * bounded target). `refused` is the bound the last call must be refused by, or null when it passes.
 */
function boundSteps(
  search: Search,
  t: Transfer,
  m: Move,
  side: "lower" | "upper",
  start: bigint,
  amount: bigint,
  refused: Bound | null,
): readonly Act[] | null {
  const built = atBalance(search, t, m, side, start, amount);
  if (built === null) return null;
  const run = feed(search, built.prefix, built.plan, built.syms, {
    accept: (o) => refused !== null && isRefused(o, refused),
  });
  return run?.acts ?? null;
}

/**
 * Family 1: below, at and beyond each bound a transfer meets. Lower: fill to a start balance, then
 * take to one above, exactly, one below the bound. Upper: from empty, put to one below, exactly, one
 * above. Where one call from there cannot (a source that cannot hold that much: a wallet that moves to
 * a wallet, both with the bound; an amount past 2⁶³ − 1, as one beyond `at most 2⁶³ − 1` or `at least
 * −(2⁶³ − 1)` would take), from three inside the bound, move 2, 3 and 4.
 */
function boundFamilies(c: Collector): void {
  for (const t of c.book.transfers) {
    const op = opOf(t);
    const touches = touchCounts(t);
    for (const m of t.moves) {
      if (m.amount.kind !== "param") continue;
      for (const side of ["lower", "upper"] as const) {
        const account = refOf(m, side).account;
        const bound = side === "lower" ? account.lower : account.upper;
        if (bound === null || lookup(touches, account, "account touched") > 1) continue;
        const k = accountKindText(account);
        const v = quantityText(bound.value, account.unit.scale);
        const word = side === "lower" ? "at least" : "at most";
        const start = side === "lower" ? (bound.value + 3n > 0n ? bound.value + 3n : 0n) : 0n;
        const near = side === "lower" ? bound.value + 3n : bound.value - 3n;
        const cases: [bigint, string, string, boolean][] = side === "lower"
          ? [
            [start - bound.value - 1n, `one above ${word} ${v}`, `下限 ${v} の一つ上`, true],
            [start - bound.value, `exactly on ${word} ${v}`, `下限 ${v} ちょうど`, true],
            [start - bound.value + 1n, `one beyond ${word} ${v}`, `下限 ${v} を一つ超える`, false],
          ]
          : [
            [bound.value - 1n, `one below ${word} ${v}`, `上限 ${v} の一つ下`, true],
            [bound.value, `exactly on ${word} ${v}`, `上限 ${v} ちょうど`, true],
            [bound.value + 1n, `one beyond ${word} ${v}`, `上限 ${v} を一つ超える`, false],
          ];
        for (const [amount, en, ja, passes] of cases) {
          if (amount < 0n) continue;
          const refused = passes ? null : bound;
          // From three inside the bound the same balance is reached with 2, 3 or 4, where one call from
          // the start cannot reach it (an amount past 2⁶³ − 1, a source that cannot hold that much).
          const nearAmount = side === "lower" ? amount - (start - near) : amount - (near - start);
          const steps =
            (amount <= MAX_AMOUNT ? boundSteps(c.search, t, m, side, start, amount, refused) : null) ??
              (near !== start && (side === "lower" ? near < 0n : near > 0n) && nearAmount >= 0n
                ? boundSteps(c.search, t, m, side, near, nearAmount, refused)
                : null);
          c.single(
            `bound: ${t.name}.${op} leaves ${k} ${en}`,
            `境界: ${t.name}.${op} のあとの ${k} が${ja}`,
            steps,
            passes ? "done" : "refused",
            passes ? undefined : bound,
          );
        }
      }
    }
  }
}

/** Family 2: the same key again — same content, other content, and after a bound refused it. */
function keyFamilies(c: Collector): void {
  const search = c.search;
  for (const t of c.book.transfers) {
    const op = opOf(t);
    const syms = new Symbols();
    const done = makeDone(search, c.search.start(), t, op, syms);
    if (done !== null) {
      const first = done.plan;
      c.single(
        `key: ${t.name}.${op} twice with the same key and content`,
        `キー: 同じキーと中身で ${t.name}.${op} を二度`,
        [...done.acts, { kind: "call", plan: first }],
        "done_before",
      );
      const other = t.params.find((p) => !t.key.includes(p.name));
      if (other !== undefined) {
        const second: Plan = other.type.kind === "amount"
          ? withAmounts(
            first,
            new Map([...first.amounts, [other.name, lookup(first.amounts, other.name, "amount") + 1n]]),
          )
          : { ...first, strings: new Map([...first.strings, [other.name, syms.fresh()]]) };
        c.single(
          `key: ${t.name}.${op} again with the same key and another value for ${other.name}`,
          `キー: 同じキーで ${other.name} だけ違う ${t.name}.${op}`,
          [...done.acts, { kind: "call", plan: second }],
          "refused",
          "key_conflict",
        );
      }
    }
    const m = t.moves.find((m) => m.from.account.lower !== null);
    if (m === undefined) continue;
    const lower = m.from.account.lower!;
    const s = new Symbols();
    const plan = planFor(t, op, s, new Map(), amountsFor(t, m, lower.value >= 0n ? 1n : -lower.value + 1n));
    const refused = feed(search, c.search.start(), plan, s, { accept: (o) => isRefused(o, lower) });
    c.single(
      `key: ${t.name}.${op} again after it was refused with ${lower.reason}`,
      `キー: ${lower.reason} で拒否されたあとの同じ ${t.name}.${op}`,
      refused === null ? null : [...refused.acts, { kind: "call", plan }],
      "refused",
      "already_refused",
    );
  }
}

/** Family 3: the life of each hold (docs/design/chobo.md#holds); a hold not made is said. */
function holdFamilies(c: Collector): void {
  for (const t of c.book.transfers) {
    if (t.pending === null) continue;
    const syms = new Symbols();
    // Held at 2, so that a part (1) and more than held (3) can be posted.
    const two = new Map(t.params.filter((p) => p.type.kind === "amount").map((p) => [p.name, 2n]));
    const held = makeDone(c.search, c.search.start(), t, "hold", syms, new Map(), [two]);
    const fresh = new Symbols();
    c.owed(
      `hold: ${t.name}.post of a hold that does not exist`,
      `仮押さえ: 無い仮押さえの ${t.name}.post`,
      [{ kind: "call", plan: planFor(t, "post", fresh) }],
      "refused",
      "no_such_hold",
    );
    if (held === null) {
      if (!c.search.exhausted) c.notes.push({ kind: "hold", transfer: t.name });
      continue;
    }
    const hold = held.plan;
    const call = (op: OpName, amounts?: ReadonlyMap<string, bigint>): Act => {
      const plan = planFor(t, op, syms, hold.strings);
      return { kind: "call", plan: amounts === undefined ? plan : withAmounts(plan, amounts) };
    };
    const amounts = (f: (a: bigint) => bigint) => new Map([...hold.amounts].map(([n, a]) => [n, f(a)]));
    const hasAmounts = hold.amounts.size > 0;
    const n = t.name;
    const h = held.acts;
    c.owed(`hold: ${n} is held, then posted in full`, `仮押さえ: ${n} を押さえて全額を確定`, [
      ...h,
      call("post"),
    ], "done");
    if (hasAmounts) {
      c.owed(
        `hold: ${n} is held, then part of it is posted`,
        `仮押さえ: ${n} を押さえて一部を確定`,
        [...h, call("post", amounts((a) => a > 0n ? a - 1n : 0n))],
        "done",
      );
      c.owed(
        `hold: ${n} is posted for more than it holds`,
        `仮押さえ: ${n} を押さえた額より多く確定`,
        [...h, call("post", amounts((a) => a + 1n))],
        "refused",
        "over_hold",
      );
    }
    c.owed(`hold: ${n} is held, then voided`, `仮押さえ: ${n} を押さえて取消`, [...h, call("void")], "done");
    c.owed(
      `hold: ${n} is voided after it was posted`,
      `仮押さえ: 確定したあとの ${n} を取消`,
      [...h, call("post"), call("void")],
      "refused",
      "already_posted",
    );
    c.owed(
      `hold: ${n} is posted after it was voided`,
      `仮押さえ: 取り消したあとの ${n} を確定`,
      [...h, call("void"), call("post")],
      "refused",
      "already_voided",
    );
    const past = pastExpiry(t);
    if (past === null) continue;
    const pass: Act = { kind: "pass", seconds: past.seconds, text: past.text };
    c.owed(
      `pass: ${n} expires, then is posted and voided`,
      `時間: ${n} が期限切れになり、確定も取消も拒否される`,
      [...h, pass, call("post"), call("void")],
      "refused",
      "expired",
    );
    c.owed(
      `pass: ${n} is held again with the same key after it expired`,
      `時間: 期限切れのあとに同じキーで ${n} を押さえ直す`,
      [...h, pass, { kind: "call", plan: hold }],
      "done_before",
    );
  }
}

/**
 * Family 4: in a transfer of several moves, one refused move means no move happens — once per
 * account the moves after the first take from (the same account again teaches nothing new).
 */
function allOrNothing(c: Collector): void {
  for (const t of c.book.transfers) {
    if (t.moves.length < 2) continue;
    const op = opOf(t);
    const seen: AccountRef[] = [];
    t.moves.forEach((m, i) => {
      if (i === 0 || seen.some((r) => sameRef(r, m.from))) return;
      seen.push(m.from);
      const lower = m.from.account.lower;
      if (lower === null || m.amount.kind !== "param") return;
      const syms = new Symbols();
      const plan = planFor(t, op, syms, new Map(), amountsFor(t, m, 1000n));
      const run = feed(c.search, c.search.start(), plan, syms, {
        accept: (o) => o.kind === "refused" && o.at?.move === m.index,
      });
      c.add(
        `all or nothing: ${t.name}.${op} is refused at move ${m.index}, and no move happens`,
        `全部か無し: ${t.name}.${op} が ${m.index} つ目の移動で拒否され、どの移動も行われない`,
        run === null ? null : run.acts,
        (bs) => {
          const o = lastResult(bs[0]);
          return bs.length === 1 && o?.kind === "refused" && o.at?.move === m.index;
        },
      );
    });
  }
}

/** What one call of `t` with every amount 1 takes from (lower) or puts into (upper) `ref`, or why no race. */
function perCall(t: Transfer, ref: AccountRef, side: "lower" | "upper"): bigint | RaceGap {
  let used = 0n;
  for (const m of t.moves) {
    const a = m.amount.kind === "literal" ? m.amount.value : 1n;
    if (sameRef(side === "lower" ? m.from : m.to, ref)) used += a;
    else if (sameRef(side === "lower" ? m.to : m.from, ref)) return "both_ways";
  }
  return used;
}

/**
 * Family 5: two callers at once for the last units (lower bound) or the last room (upper bound), for
 * every bound an operation meets: the account is brought to what one call needs, and both call with
 * keys of their own; where that cannot be built, a note says why.
 */
function togetherFamilies(c: Collector): void {
  const search = c.search;
  for (const t of c.book.transfers) {
    const op = opOf(t);
    const done: AccountRef[][] = [[], []];
    for (const m of t.moves) {
      for (const [i, side] of (["lower", "upper"] as const).entries()) {
        const ref = refOf(m, side);
        const bound = side === "lower" ? ref.account.lower : ref.account.upper;
        if (bound === null || done[i].some((r) => sameRef(r, ref))) continue;
        done[i].push(ref);
        if (search.exhausted) return;
        const why = race(c, t, op, ref, side, bound);
        if (why !== null && !search.exhausted) {
          c.notes.push({
            kind: "race",
            transfer: t.name,
            op,
            account: accountKindText(ref.account),
            side,
            why,
          });
        }
      }
    }
  }
}

/** One race of family 5, or why it was not generated. */
function race(
  c: Collector,
  t: Transfer,
  op: OpName,
  ref: AccountRef,
  side: "lower" | "upper",
  bound: Bound,
): RaceGap | null {
  const search = c.search;
  const used = perCall(t, ref, side);
  if (typeof used === "string") return used;
  const start = side === "lower" ? bound.value + used : bound.value - used;
  if (side === "upper" && start < 0n) return "one_call_too_many";
  const args = new Set(t.moves.flatMap((m) => [...m.from.args, ...m.to.args]));
  const free = t.key.filter((k) => !args.has(k));
  if (free.length === 0) return "no_free_key";
  const syms = new Symbols();
  const ones = new Map(t.params.filter((p) => p.type.kind === "amount").map((p) => [p.name, 1n]));
  const first = planFor(t, op, syms, new Map(), ones);
  const second: Plan = {
    ...first,
    strings: new Map([...first.strings, ...free.map((k) => [k, syms.fresh()] as const)]),
  };
  const target = ref.args.map((a) => lookup(first.strings, a, "string symbol"));
  const brought = bringTo(search, c.search.start(), ref.account, target, start, syms, t);
  if (brought === null) return "no_fill";
  // Every other account the calls meet gets what both need: the first call fed, then the second.
  const one = feed(search, brought, first, syms);
  const atBound = (o: Outcome) =>
    o.kind === "refused" && o.at !== null && o.at.side === side &&
    sameRef(refOf(t.moves[o.at.move - 1], side), ref);
  const two = one === null ? null : feed(search, one, second, syms, { accept: atBound });
  if (one === null || two === null) return "no_fill";
  const feeds = [...one.acts.slice(brought.acts.length, -1), ...two.acts.slice(one.acts.length, -1)];
  const k = accountKindText(ref.account);
  const n = quantityText(used, ref.account.unit.scale);
  const what = side === "lower" ? `the last ${n} of ${k}` : `the last room of ${n} in ${k}`;
  const whatJa = side === "lower" ? `${k} の最後の ${n}` : `${k} の最後の空き ${n}`;
  const kept = c.add(
    `together: two callers take ${what} with ${t.name}.${op}`,
    `同時: 二つの呼び出し元が ${t.name}.${op} で ${whatJa} を取りに来る`,
    [...brought.acts, ...feeds, { kind: "together", callers: [[first], [second]] }],
    (bs) =>
      bs.length === 2 && bs.every((b) => {
        const last = b.steps[b.steps.length - 1];
        if (last.kind !== "together") return false;
        const results = last.callers.map((r) => r[0].outcome);
        return results.filter((o) => o.kind === "done").length === 1 &&
          results.filter((o) => isRefused(o, bound)).length === 1;
      }),
  );
  return kept ? null : "not_reached";
}

/** Family 6: the same account on both sides of a move, by passing the same values. */
function sameAccountFamilies(c: Collector): void {
  for (const t of c.book.transfers) {
    for (const m of t.moves) {
      if (m.from.account !== m.to.account) continue;
      const syms = new Symbols();
      const bind = new Map<string, number>();
      m.from.args.forEach((a, i) => {
        const s = bind.get(a) ?? syms.fresh();
        bind.set(a, s);
        bind.set(m.to.args[i], s);
      });
      c.single(
        `same account: ${t.name}.${opOf(t)} moves from and to the same ${accountKindText(m.from.account)}`,
        `同じ勘定: ${t.name}.${opOf(t)} の元と先が同じ ${accountKindText(m.from.account)}`,
        [{ kind: "call", plan: planFor(t, opOf(t), syms, bind) }],
        "refused",
        "same_account",
      );
    }
  }
}

/**
 * Every generated scenario of a book, family by family, with what was owed and not generated, and
 * the limits reached (generation stops when its budget is spent).
 */
export function generate(book: Book): Generated {
  const c = new Collector(new Search(book));
  for (const family of [boundFamilies, keyFamilies, holdFamilies, allOrNothing, togetherFamilies]) {
    family(c);
    if (c.search.exhausted) break;
  }
  if (!c.search.exhausted) sameAccountFamilies(c);
  return { scenarios: c.out, notes: c.notes, limits: c.search.limits };
}

/** Every generated scenario of a book (`generate` says also what was not generated). */
export function generateScenarios(book: Book): Scenario[] {
  return [...generate(book).scenarios];
}
