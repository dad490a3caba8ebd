/**
 * Generated scenarios (docs/design/chobo.md#scenarios): every family listed there, each
 * built by running it on the reference interpreter and dropped when it does not reach what its
 * name says. Names are English (part of the JSON contract); a Japanese title goes alongside for
 * `chobo doc --lang ja`. Values are distinct within a scenario and numbered by first
 * appearance; numbers in names are written in the unit's scale.
 * @module
 */

import { findOne, lookup } from "../common/assert.ts";
import { type Call, isRefused, type OpName, type Outcome } from "./interp.ts";
import type { Account, Book, Bound, Move, Transfer } from "./model.ts";
import type { BuiltinReason } from "./resolve.ts";
import { type Branch, runScenario, type Scenario, type Step } from "./scenario.ts";
import {
  type Act,
  feed,
  lastOutcome,
  makeDone,
  netOf,
  pastExpiry,
  type Plan,
  planFor,
  play,
  Symbols,
  ValueNames,
  withAmounts,
} from "./search.ts";
import { accountKindText, quantityText } from "./words.ts";

/** A step while a scenario is built: acts of the search, or callers at once. */
type GenStep = Act | { readonly kind: "together"; readonly callers: readonly (readonly Plan[])[] };

/** Numbers the symbols of all calls by first appearance (callers of a together in order). */
function toScenario(name: string, steps: readonly GenStep[]): Scenario {
  const names = new ValueNames();
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

/** Collects scenarios, keeping each only when running it reaches what `reached` checks. */
class Collector {
  readonly out: Scenario[] = [];
  private readonly names = new Set<string>();
  constructor(private readonly book: Book) {}

  add(
    name: string,
    titleJa: string,
    steps: readonly GenStep[] | null,
    reached: (bs: readonly Branch[]) => boolean,
  ) {
    if (steps === null || this.names.has(name)) return;
    const scenario = { ...toScenario(name, steps), titleJa };
    if (!reached(runScenario(this.book, scenario))) return;
    this.names.add(name);
    this.out.push(scenario);
  }

  /** A scenario with one outcome whose last call ends as `kind` (and `reason`). */
  single(
    name: string,
    titleJa: string,
    steps: readonly GenStep[] | null,
    kind: Outcome["kind"],
    reason?: BuiltinReason | Bound,
  ) {
    this.add(name, titleJa, steps, (bs) => bs.length === 1 && is(lastResult(bs[0]), kind, reason));
  }
}

function refOf(m: Move, side: "lower" | "upper") {
  return side === "lower" ? m.from : m.to;
}

function touchesElsewhere(t: Transfer, m: Move, account: Account): boolean {
  return t.moves.some((n) => n !== m && (n.from.account === account || n.to.account === account));
}

/** Amounts: `amount` for the move's own parameter, 1 for any other. */
function amountsFor(t: Transfer, m: Move, amount: bigint): Map<string, bigint> {
  return new Map(
    t.params.filter((p) => p.type.kind === "amount")
      .map((p) => [p.name, m.amount.kind === "param" && m.amount.param === p.name ? amount : 1n]),
  );
}

/**
 * A prefix that leaves the account a move's `side` names at `balance` (posted), by feeding it,
 * then the plan of the move's transfer with `amount`. Null when no transfer can fill it.
 */
function atBalance(
  book: Book,
  t: Transfer,
  m: Move,
  side: "lower" | "upper",
  balance: bigint,
  amount: bigint,
) {
  const syms = new Symbols();
  const plan = planFor(t, opOf(t), syms, new Map(), amountsFor(t, m, amount));
  if (balance === 0n) return { syms, plan, prefix: [] as Act[] };
  const ref = refOf(m, side);
  const bind = new Map(ref.args.map((a) => [a, lookup(plan.strings, a, "string symbol")]));
  // Another transfer fills it when one does; else the transfer itself, with a key of its own.
  const fills = (f: Transfer) => f.moves.some((n) => n.to.account === ref.account);
  const filler = book.transfers.find((f) => f !== t && fills(f)) ?? (fills(t) ? t : undefined);
  if (filler === undefined) return null;
  const fm = findOne(
    filler.moves,
    (n) => n.to.account === ref.account,
    `move of ${filler.name} into ${ref.account.name}`,
  );
  const fillBind = new Map(fm.to.args.map((a, i) => [a, lookup(bind, ref.args[i], "string symbol")]));
  // The filler's other moves may take part of it back out (a sale and its fee): put in that much more.
  const first = amountsFor(filler, fm, balance);
  const amounts = fm.amount.kind === "param"
    ? new Map([...first, [fm.amount.param, balance + balance - netOf(filler, fm.to, first)]])
    : first;
  if (netOf(filler, fm.to, amounts) !== balance) return null;
  const fill = planFor(filler, opOf(filler), syms, fillBind, amounts);
  const prefix = feed(book, [], fill, syms);
  if (prefix === null || lastOutcome(play(book, prefix)).kind !== "done") return null;
  if (filler.pending === null) return { syms, plan, prefix };
  return {
    syms,
    plan,
    prefix: [...prefix, { kind: "call" as const, plan: planFor(filler, "post", syms, fill.strings) }],
  };
}

/**
 * The steps of a bound scenario: the account at `start`, then the move's transfer with `amount`,
 * with whatever its other accounts need fed first (a source that must hold what a move puts into a
 * bounded target). `refused` is the bound the last call must be refused by, or null when it passes.
 */
function boundSteps(
  book: Book,
  t: Transfer,
  m: Move,
  side: "lower" | "upper",
  start: bigint,
  amount: bigint,
  refused: Bound | null,
): Act[] | null {
  const built = atBalance(book, t, m, side, start, amount);
  if (built === null) return null;
  return feed(
    book,
    built.prefix,
    built.plan,
    built.syms,
    0,
    (o) => refused !== null && isRefused(o, refused),
  );
}

/**
 * Family 1: below, at and beyond each bound a transfer meets. Lower: fill to a start
 * balance, then take to one above, exactly, one below the bound. Upper: from empty, put to one
 * below, exactly, one above; where the source cannot hold that much (a wallet that moves to a
 * wallet, both with the bound), from three below the bound, put 2, 3 and 4.
 */
function boundFamilies(book: Book, c: Collector): void {
  for (const t of book.transfers) {
    const op = opOf(t);
    for (const m of t.moves) {
      if (m.amount.kind !== "param") continue;
      for (const side of ["lower", "upper"] as const) {
        const account = refOf(m, side).account;
        const bound = side === "lower" ? account.lower : account.upper;
        if (bound === null || touchesElsewhere(t, m, account)) continue;
        const k = accountKindText(account);
        const v = quantityText(bound.value, account.unit.scale);
        const word = side === "lower" ? "at least" : "at most";
        const start = side === "lower" ? (bound.value + 3n > 0n ? bound.value + 3n : 0n) : 0n;
        const near = bound.value - 3n;
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
          const steps = boundSteps(book, t, m, side, start, amount, refused) ??
            (side === "upper" && near > 0n
              ? boundSteps(book, t, m, side, near, amount - near, refused)
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
function keyFamilies(book: Book, c: Collector): void {
  for (const t of book.transfers) {
    const op = opOf(t);
    const syms = new Symbols();
    const done = makeDone(book, [], t, op, syms);
    if (done !== null) {
      const first = (done[done.length - 1] as { plan: Plan }).plan;
      c.single(
        `key: ${t.name}.${op} twice with the same key and content`,
        `キー: 同じキーと中身で ${t.name}.${op} を二度`,
        [...done, { kind: "call", plan: first }],
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
          [...done, { kind: "call", plan: second }],
          "refused",
          "key_conflict",
        );
      }
    }
    for (const m of t.moves) {
      const lower = m.from.account.lower;
      if (lower === null) continue;
      const s = new Symbols();
      const plan = planFor(t, op, s, new Map(), amountsFor(t, m, lower.value >= 0n ? 1n : -lower.value + 1n));
      const refused = feed(book, [], plan, s, 0, (o) => isRefused(o, lower));
      c.single(
        `key: ${t.name}.${op} again after it was refused with ${lower.reason}`,
        `キー: ${lower.reason} で拒否されたあとの同じ ${t.name}.${op}`,
        refused === null ? null : [...refused, { kind: "call", plan }],
        "refused",
        "already_refused",
      );
      break;
    }
  }
}

/** Family 3: the life of each hold (docs/design/chobo.md#holds). */
function holdFamilies(book: Book, c: Collector): void {
  for (const t of book.transfers) {
    if (t.pending === null) continue;
    const syms = new Symbols();
    // Held at 2, so that a part (1) and more than held (3) can be posted.
    const two = new Map(t.params.filter((p) => p.type.kind === "amount").map((p) => [p.name, 2n]));
    const held = makeDone(book, [], t, "hold", syms, new Map(), [two]);
    const fresh = new Symbols();
    c.single(
      `hold: ${t.name}.post of a hold that does not exist`,
      `仮押さえ: 無い仮押さえの ${t.name}.post`,
      [{ kind: "call", plan: planFor(t, "post", fresh) }],
      "refused",
      "no_such_hold",
    );
    if (held === null) continue;
    const hold = (held[held.length - 1] as { plan: Plan }).plan;
    const call = (op: OpName, amounts?: ReadonlyMap<string, bigint>): Act => {
      const plan = planFor(t, op, syms, hold.strings);
      return { kind: "call", plan: amounts === undefined ? plan : withAmounts(plan, amounts) };
    };
    const amounts = (f: (a: bigint) => bigint) => new Map([...hold.amounts].map(([n, a]) => [n, f(a)]));
    const hasAmounts = hold.amounts.size > 0;
    const n = t.name;
    c.single(`hold: ${n} is held, then posted in full`, `仮押さえ: ${n} を押さえて全額を確定`, [
      ...held,
      call("post"),
    ], "done");
    if (hasAmounts) {
      c.single(
        `hold: ${n} is held, then part of it is posted`,
        `仮押さえ: ${n} を押さえて一部を確定`,
        [...held, call("post", amounts((a) => a > 0n ? a - 1n : 0n))],
        "done",
      );
      c.single(
        `hold: ${n} is posted for more than it holds`,
        `仮押さえ: ${n} を押さえた額より多く確定`,
        [...held, call("post", amounts((a) => a + 1n))],
        "refused",
        "over_hold",
      );
    }
    c.single(
      `hold: ${n} is held, then voided`,
      `仮押さえ: ${n} を押さえて取消`,
      [...held, call("void")],
      "done",
    );
    c.single(
      `hold: ${n} is voided after it was posted`,
      `仮押さえ: 確定したあとの ${n} を取消`,
      [...held, call("post"), call("void")],
      "refused",
      "already_posted",
    );
    c.single(
      `hold: ${n} is posted after it was voided`,
      `仮押さえ: 取り消したあとの ${n} を確定`,
      [...held, call("void"), call("post")],
      "refused",
      "already_voided",
    );
    const past = pastExpiry(t);
    if (past === null) continue;
    const pass: Act = { kind: "pass", seconds: past.seconds, text: past.text };
    c.single(
      `pass: ${n} expires, then is posted and voided`,
      `時間: ${n} が期限切れになり、確定も取消も拒否される`,
      [...held, pass, call("post"), call("void")],
      "refused",
      "expired",
    );
    c.single(
      `pass: ${n} is held again with the same key after it expired`,
      `時間: 期限切れのあとに同じキーで ${n} を押さえ直す`,
      [...held, pass, { kind: "call", plan: hold }],
      "done_before",
    );
  }
}

/** Family 4: in a transfer of several moves, one refused move means no move happens. */
function allOrNothing(book: Book, c: Collector): void {
  for (const t of book.transfers) {
    if (t.moves.length < 2) continue;
    const op = opOf(t);
    t.moves.forEach((m, i) => {
      if (i === 0) return;
      const lower = m.from.account.lower;
      if (lower === null || m.amount.kind !== "param") return;
      const syms = new Symbols();
      const plan = planFor(t, op, syms, new Map(), amountsFor(t, m, 1000n));
      const acts = feed(book, [], plan, syms, 0, (o) => o.kind === "refused" && o.at?.move === m.index);
      c.add(
        `all or nothing: ${t.name}.${op} is refused at move ${m.index}, and no move happens`,
        `全部か無し: ${t.name}.${op} が ${m.index} つ目の移動で拒否され、どの移動も行われない`,
        acts,
        (bs) => {
          const o = lastResult(bs[0]);
          return bs.length === 1 && o?.kind === "refused" && o.at?.move === m.index;
        },
      );
    });
  }
}

/** Family 5: two callers at once for the last one (lower bound) or the last room (upper bound). */
function togetherFamilies(book: Book, c: Collector): void {
  for (const t of book.transfers) {
    const op = opOf(t);
    for (const m of t.moves) {
      if (m.amount.kind !== "param") continue;
      for (const side of ["lower", "upper"] as const) {
        const account = refOf(m, side).account;
        const bound = side === "lower" ? account.lower : account.upper;
        if (bound === null || touchesElsewhere(t, m, account)) continue;
        const start = side === "lower" ? bound.value + 1n : bound.value - 1n;
        if (start < 0n) continue;
        const built = atBalance(book, t, m, side, start, 1n);
        if (built === null) continue;
        const ref = refOf(m, side);
        const bind = new Map(ref.args.map((a) => [a, lookup(built.plan.strings, a, "string symbol")]));
        const second = planFor(t, op, built.syms, bind, amountsFor(t, m, 1n));
        // Each caller's other accounts are fed first, one after the other, so that only the bound
        // decides between them (two payers of one payee each need what they pay).
        const fedFirst = feed(book, built.prefix, built.plan, built.syms);
        const fed = fedFirst === null ? null : feed(book, fedFirst.slice(0, -1), second, built.syms);
        if (fed === null) continue;
        const k = accountKindText(account);
        const one = quantityText(1n, account.unit.scale);
        const what = side === "lower" ? `the last ${one} of ${k}` : `the last room of ${one} in ${k}`;
        const whatJa = side === "lower" ? `${k} の最後の ${one}` : `${k} の最後の空き ${one}`;
        c.add(
          `together: two callers take ${what} with ${t.name}.${op}`,
          `同時: 二つの呼び出し元が ${t.name}.${op} で ${whatJa} を取りに来る`,
          [...fed.slice(0, -1), { kind: "together", callers: [[built.plan], [second]] }],
          (bs) =>
            bs.length === 2 && bs.every((b) => {
              const last = b.steps[b.steps.length - 1];
              if (last.kind !== "together") return false;
              const results = last.callers.map((r) => r[0].outcome);
              return results.filter((o) => o.kind === "done").length === 1 &&
                results.filter((o) => isRefused(o, bound)).length === 1;
            }),
        );
      }
    }
  }
}

/** Family 6: the same account on both sides of a move, by passing the same values. */
function sameAccountFamilies(book: Book, c: Collector): void {
  for (const t of book.transfers) {
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

/** Every generated scenario of a book, family by family. */
export function generateScenarios(book: Book): Scenario[] {
  const c = new Collector(book);
  boundFamilies(book, c);
  keyFamilies(book, c);
  holdFamilies(book, c);
  allOrNothing(book, c);
  togetherFamilies(book, c);
  sameAccountFamilies(book, c);
  return c.out;
}
