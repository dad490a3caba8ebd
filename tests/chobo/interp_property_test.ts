/**
 * A property test of the reference interpreter (docs/design/chobo.md) with a fixed seed: small random
 * books written as text and checked with `checkBook`, each run through a random sequence of `do`,
 * `hold`, `post`, `void` and `pass`. After every step:
 *
 * - every account that began within its bounds is within them by the conservative count
 *   (docs/design/chobo.md#bounds): `posted − held_out ≥ L` and `posted + held_in ≤ U`;
 * - per unit, the posted balances sum to 0 and held in sums to held out; the holds in state
 *   `held` account exactly for every account's held out and held in;
 * - a refused or failed operation, and a `done_before`, changed nothing
 *   (docs/design/chobo.md#transfers-and-operations);
 * - the same call again, on a copy, answers what docs/design/chobo.md#keys-and-content and
 *   docs/design/chobo.md#holds say (`expectedRepeat`) and changes nothing.
 *
 * A failure names the seed, the book, its text and the steps so far (calls with their arguments and
 * outcomes), so it reproduces.
 */

import { fail } from "node:assert/strict";
import { checkBook } from "../../lang/chobo/check.ts";
import {
  type AccountId,
  accountText,
  type Balance,
  type Call,
  callArgs,
  type Hold,
  Ledger,
  type Outcome,
} from "../../lang/chobo/interp.ts";
import type { Account, Book } from "../../lang/chobo/model.ts";
import { operationsOf } from "../../lang/chobo/scenario.ts";
import { generator } from "../support/random.ts";

const SEED = 0x5eed_2024;
const BOOKS = 520;
const MAX_ATTEMPTS = 5000;

class Random {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = generator(seed);
  }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
}

// ---------------------------------------------------------------------------------------------
// Books, as text

interface GenUnit {
  readonly name: string;
  readonly scale: number;
}

interface GenAccount {
  readonly name: string;
  readonly unit: GenUnit;
  readonly param: boolean;
}

/** An amount in the unit's smallest unit, written as a literal of that unit (`-0.05`, `1.00`). */
function literal(v: bigint, scale: number): string {
  if (scale === 0) return String(v);
  const sign = v < 0n ? "-" : "";
  const abs = v < 0n ? -v : v;
  const d = 10n ** BigInt(scale);
  return `${sign}${abs / d}.${String(abs % d).padStart(scale, "0")}`;
}

/**
 * One small random book: 1–2 units, 2–5 accounts, 1–4 transfers of 1–3 moves.
 *
 * The shapes are weighted for the checker's operation search (docs/design/chobo.md#the-checker), which
 * `checkBook` runs on every book and whose cost grows with the moves, the amount parameters (7 tried amounts
 * each) and the bounds it has to feed: every unit gets an outside account to feed from, and at most one
 * transfer per book has two amount parameters (with two moves).
 */
function genBook(rnd: Random, index: number): string {
  const allUnits: GenUnit[] = [{ name: "pcs", scale: 0 }, { name: "USD", scale: 2 }];
  const units = rnd.chance(0.4) ? allUnits : [rnd.pick(allUnits)];
  const out: string[] = [`book gen${index} v1`, ""];
  for (const u of units) out.push(u.scale === 0 ? `unit ${u.name}` : `unit ${u.name} scale ${u.scale}`);
  out.push("");

  const accounts: GenAccount[] = [];
  const nAccounts = rnd.int(units.length + 1, 5);
  for (let i = 0; i < nAccounts; i++) {
    const unit = i < units.length ? units[i] : rnd.pick(units);
    const outside = i < units.length || rnd.chance(0.15);
    const param = !outside && rnd.chance(0.6);
    const a: GenAccount = { name: `a${i}`, unit, param };
    accounts.push(a);
    out.push(`account ${a.name}${param ? "(p: string)" : ""} : ${unit.name}${outside ? " outside" : ""}`);
    if (outside) continue;
    // An inside account has at least one bound (E020); a lower bound above 0 begins outside it.
    const hasUpper = rnd.chance(0.35);
    let lower: bigint | null = null;
    if (!hasUpper || rnd.chance(0.6)) {
      lower = BigInt(rnd.pick([-10, -3, -1, 0, 0, 0, 0, 0, 0, 1, 5]));
      out.push(`  at least ${literal(lower, unit.scale)} refused as low${i}`);
    }
    if (hasUpper) {
      const floor = lower !== null && lower > 0n ? lower : 0n;
      const upper = floor + BigInt(rnd.pick([0, 3, 10, 10, 100, 1000]));
      out.push(`  at most ${literal(upper, unit.scale)} refused as high${i}`);
    }
  }
  out.push("");

  const nTransfers = rnd.pick([1, 2, 2, 3, 3, 4]);
  let twoAmounts = false;
  for (let t = 0; t < nTransfers; t++) {
    // A unit whose accounts allow a move between two different accounts.
    const viable = units.filter((u) => {
      const of = accounts.filter((a) => a.unit === u);
      return of.length >= 2 || of.some((a) => a.param);
    });
    if (viable.length === 0) break;
    const unit = rnd.pick(viable);
    const of = accounts.filter((a) => a.unit === unit);
    const keys = rnd.chance(0.5) ? ["k0", "k1"] : ["k0"];
    const two: boolean = !twoAmounts && rnd.chance(0.12);
    twoAmounts ||= two;
    const amounts = two ? ["q0", "q1"] : ["q0"];
    const params = [...keys.map((k) => `${k}: string`), ...amounts.map((q) => `${q}: ${unit.name}`)];
    out.push(`transfer t${t}(${params.join(", ")})`);
    out.push(`  key ${keys.join(", ")}`);
    const pending = rnd.int(0, 2);
    if (pending === 1) out.push(`  pending expires after ${rnd.int(1, 120)} seconds`);
    if (pending === 2) out.push("  pending never expires");
    const nMoves = two ? 2 : rnd.pick([1, 1, 1, 2, 2, 3]);
    const ref = (a: GenAccount) => a.param ? `${a.name}(${rnd.pick(keys)})` : a.name;
    for (let m = 0; m < nMoves; m++) {
      let from = "", to = "";
      // Never from an account to itself with the same arguments (E012).
      for (let tries = 0; tries < 20 && from === to; tries++) {
        from = ref(rnd.pick(of));
        to = ref(rnd.pick(of));
      }
      if (from === to) continue;
      const amount = m < amounts.length
        ? amounts[m]
        : rnd.chance(0.7)
        ? rnd.pick(amounts)
        : literal(BigInt(rnd.pick([0, 1, 2, 5])), unit.scale);
      out.push(`  move ${amount} from ${from} to ${to}`);
    }
    out.push("");
  }
  return out.join("\n");
}

// ---------------------------------------------------------------------------------------------
// Operation sequences

type Step = { readonly kind: "call"; readonly call: Call } | {
  readonly kind: "pass";
  readonly seconds: bigint;
};

const STRING_VALUES = ["x", "y", "x", "y", "z", "w"];
const AMOUNTS = [0n, 1n, 2n, 3n, 5n, 10n, 100n];

function amount(rnd: Random): bigint {
  return rnd.chance(0.04) ? 1n << 62n : rnd.pick(AMOUNTS);
}

/**
 * One step: a `pass` of 0–100 seconds, or a call with values from a small pool, so keys repeat
 * and accounts coincide. A `post` or `void` names an existing hold more often than not.
 */
function genStep(rnd: Random, book: Book, ledger: Ledger): Step {
  if (rnd.chance(0.15)) return { kind: "pass", seconds: BigInt(rnd.int(0, 100)) };
  const transfer = rnd.pick(book.transfers);
  const ops = operationsOf(transfer);
  const op = ops.length === 1 ? ops[0] : rnd.pick(["hold", "hold", "post", "post", "void"] as const);
  const strings = new Map<string, string>();
  const amounts = new Map<string, bigint>();
  const partial = op === "post" && rnd.chance(0.5);
  const holds = ledger.holds().filter((h) => h.transfer === transfer.name);
  const existing = (op === "post" || op === "void") && holds.length > 0 && rnd.chance(0.6)
    ? rnd.pick(holds).key
    : null;
  for (const p of transfer.params) {
    if (p.type.kind === "string") {
      if (op === "do" || op === "hold" || transfer.key.includes(p.name)) {
        strings.set(p.name, existing?.[transfer.key.indexOf(p.name)] ?? rnd.pick(STRING_VALUES));
      }
    } else if (op === "do" || op === "hold" || partial) {
      amounts.set(p.name, amount(rnd));
    }
  }
  return { kind: "call", call: { transfer, op, strings, amounts } };
}

function callText(call: Call): string {
  const args = callArgs(call).map(([k, v]) => `${k}: ${typeof v === "bigint" ? `${v}n` : JSON.stringify(v)}`);
  return `${call.transfer.name}.${call.op}(${args.join(", ")})`;
}

function outcomeText(o: Outcome): string {
  switch (o.kind) {
    case "done":
    case "done_before":
      return o.kind;
    case "refused":
      return `refused ${o.reason}${o.at === null ? "" : ` (bound, move ${o.at.move})`}`;
    case "failed":
      return `failed: ${o.why.en}`;
  }
}

// ---------------------------------------------------------------------------------------------
// What the same call answers the second time

type Expected = { readonly kind: "done_before" } | { readonly kind: "refused"; readonly reason: string } | {
  readonly kind: "failed";
};

/**
 * The answer to the same call again, right after `first`, with nothing in between.
 *
 * - `done` or `done_before` → `done_before`: the key is used with the same content
 *   (docs/design/chobo.md#keys-and-content). For `post` the content is the posted amounts and for
 *   `void` nothing; a posted hold posted again with the same amounts, and a voided hold voided again,
 *   answer `done_before` (the table of docs/design/chobo.md#holds).
 * - a `do`/`hold` refused by a bound → `already_refused`, whatever the content (the key is used:
 *   docs/design/chobo.md#refusal-reasons). `already_refused` stays `already_refused`.
 * - any other refusal leaves the key unused and is checked again against the same state, so it
 *   answers the same reason: `key_conflict` (the earlier content is unchanged), `same_account`
 *   (decided by the arguments alone), `already_posted`, `already_voided`, `expired` (a hold's ended
 *   state never changes), `over_hold` (the hold is unchanged), and `no_such_hold` (it changes only
 *   if a hold is made in between; nothing is).
 * - `failed` (a balance would leave the 64-bit range) changed nothing and may be retried with the
 *   same arguments (docs/design/chobo.md#transfers-and-operations): on the same state it fails again.
 */
function expectedRepeat(call: Call, first: Outcome): Expected {
  switch (first.kind) {
    case "done":
    case "done_before":
      return { kind: "done_before" };
    case "failed":
      return { kind: "failed" };
    case "refused":
      if (
        (call.op === "do" || call.op === "hold") && (first.at !== null || first.reason === "already_refused")
      ) {
        return { kind: "refused", reason: "already_refused" };
      }
      return { kind: "refused", reason: first.reason };
  }
}

function matches(expected: Expected, o: Outcome): boolean {
  if (expected.kind !== o.kind) return false;
  return expected.kind !== "refused" || (o.kind === "refused" && o.reason === expected.reason);
}

// ---------------------------------------------------------------------------------------------
// State and invariants

function idKey(id: AccountId): string {
  return JSON.stringify([id.account, ...id.args]);
}

const isZero = (b: Balance) => b.posted === 0n && b.heldOut === 0n && b.heldIn === 0n;

/**
 * The observable state, with accounts at all-zero balances left out (an account a refused `do` or
 * `hold` named gets a zero row by design: `accounts` lists them, docs/decisions.md#the-interpreter), holds
 * with their state and posted amounts, and the clock.
 */
function stateOf(ledger: Ledger): string {
  const balances = ledger.accounts().filter((a) => !isZero(a.balance))
    .map((a) => [idKey(a.id), String(a.balance.posted), String(a.balance.heldOut), String(a.balance.heldIn)])
    .sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
  const holds = ledger.holds().map((h) => [
    h.transfer,
    h.key,
    h.state,
    h.posted?.map(String) ?? null,
    h.moves.map((m) => [idKey(m.from), idKey(m.to), String(m.amount)]),
    String(h.createdAt),
    h.expiresAt === null ? null : String(h.expiresAt),
  ]).sort((a, b) => JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);
  return JSON.stringify([String(ledger.now), balances, holds]);
}

/** Every invariant of one ledger; returns what is wrong, or null. */
function violation(book: Book, ledger: Ledger): string | null {
  const kinds = new Map<string, Account>(book.accounts.map((a) => [a.name, a]));
  const posted = new Map<string, bigint>();
  const heldOut = new Map<string, bigint>();
  const heldIn = new Map<string, bigint>();
  const add = (m: Map<string, bigint>, k: string, v: bigint) => m.set(k, (m.get(k) ?? 0n) + v);
  for (const { id, balance } of ledger.accounts()) {
    const kind = kinds.get(id.account);
    if (kind === undefined) return `the ledger knows ${accountText(id)}, which the book does not declare`;
    const unit = kind.unit.name;
    add(posted, unit, balance.posted);
    add(heldOut, unit, balance.heldOut);
    add(heldIn, unit, balance.heldIn);
    // Began within its bounds: 0 is within [lower, upper]. An account with a lower bound above 0
    // begins outside it and is exempt.
    const lower = kind.lower?.value ?? null;
    const upper = kind.upper?.value ?? null;
    const began = (lower === null || lower <= 0n) && (upper === null || upper >= 0n);
    if (balance.heldOut < 0n || balance.heldIn < 0n) {
      return `${accountText(id)}: negative held amounts ${balance.heldOut}/${balance.heldIn}`;
    }
    if (!began) continue;
    if (lower !== null && balance.posted - balance.heldOut < lower) {
      return `${accountText(id)}: posted − held out = ${balance.posted - balance.heldOut} < lower ${lower}`;
    }
    if (upper !== null && balance.posted + balance.heldIn > upper) {
      return `${accountText(id)}: posted + held in = ${balance.posted + balance.heldIn} > upper ${upper}`;
    }
  }
  for (const [unit, sum] of posted) {
    if (sum !== 0n) return `the posted balances of ${unit} sum to ${sum}, not 0`;
    if (heldIn.get(unit) !== heldOut.get(unit)) {
      return `${unit}: held in sums to ${heldIn.get(unit)}, held out to ${heldOut.get(unit)}`;
    }
  }
  // The holds in state `held` account exactly for every account's held out and held in.
  const out = new Map<string, bigint>();
  const inn = new Map<string, bigint>();
  const live: Hold[] = ledger.holds().filter((h) => h.state === "held");
  for (const h of live) {
    if (h.expiresAt !== null && h.expiresAt <= ledger.now) {
      return `the hold ${h.transfer}(${
        h.key.join(", ")
      }) is still held at ${ledger.now}, past its expiry ${h.expiresAt}`;
    }
    for (const m of h.moves) {
      add(out, idKey(m.from), m.amount);
      add(inn, idKey(m.to), m.amount);
    }
  }
  const ids = new Set([...ledger.accounts().map((a) => idKey(a.id)), ...out.keys(), ...inn.keys()]);
  let totalOut = 0n;
  for (const k of ids) {
    const row = ledger.accounts().find((a) => idKey(a.id) === k);
    const b = row?.balance ?? { posted: 0n, heldOut: 0n, heldIn: 0n };
    totalOut += b.heldOut;
    if (b.heldOut !== (out.get(k) ?? 0n)) {
      return `${k}: held out ${b.heldOut}, but the held holds take ${out.get(k) ?? 0n} from it`;
    }
    if (b.heldIn !== (inn.get(k) ?? 0n)) {
      return `${k}: held in ${b.heldIn}, but the held holds bring ${inn.get(k) ?? 0n} to it`;
    }
  }
  const heldTotal = live.reduce((s, h) => s + h.moves.reduce((t, m) => t + m.amount, 0n), 0n);
  if (heldTotal !== totalOut) return `the held holds hold ${heldTotal}, but Σ held out is ${totalOut}`;
  return null;
}

// ---------------------------------------------------------------------------------------------

Deno.test("interpreter properties: bounds, sums, refusals change nothing, repeats (fixed seed)", () => {
  // Books and steps draw from separate generators: a book's steps come from SEED + its number.
  const rnd = new Random(SEED);
  let accepted = 0;
  let attempts = 0;
  let steps = 0;
  let checkMs = 0;
  const outcomes = new Map<string, number>();
  while (accepted < BOOKS) {
    attempts++;
    if (attempts > MAX_ATTEMPTS) fail(`only ${accepted} of ${MAX_ATTEMPTS} generated books were accepted`);
    const text = genBook(rnd, attempts);
    const t0 = performance.now();
    const { book } = checkBook(`gen${attempts}.book`, text);
    checkMs += performance.now() - t0;
    if (book === null || book.transfers.length === 0) continue;
    accepted++;
    const ledger = Ledger.empty(book.accounts.map((a) => a.name));
    const log: string[] = [];
    const problem = (what: string) =>
      fail(
        [
          `seed ${SEED}, book ${attempts} (accepted #${accepted}; its steps from seed ${SEED} + ${attempts}): ${what}`,
          "--- book ---",
          text,
          "--- steps ---",
          ...log.map((l, i) => `${i + 1}. ${l}`),
        ].join("\n"),
      );
    const start = violation(book, ledger);
    if (start !== null) problem(`the empty ledger: ${start}`);
    const stepRnd = new Random(SEED + attempts);
    const n = stepRnd.int(10, 40);
    for (let i = 0; i < n; i++) {
      const step = genStep(stepRnd, book, ledger);
      steps++;
      if (step.kind === "pass") {
        const expired = ledger.pass(step.seconds);
        log.push(`pass ${step.seconds} seconds → expired ${expired.length}`);
      } else {
        const { call } = step;
        const before = stateOf(ledger);
        const outcome = ledger.apply(call);
        log.push(`${callText(call)} → ${outcomeText(outcome)}`);
        const tag = `${call.op} ${
          outcome.kind !== "refused" ? outcome.kind : outcome.at !== null ? "bound" : outcome.reason
        }`;
        outcomes.set(tag, (outcomes.get(tag) ?? 0) + 1);
        if (outcome.kind !== "done" && stateOf(ledger) !== before) {
          problem(`${outcomeText(outcome)} changed the state\nbefore: ${before}\nafter:  ${stateOf(ledger)}`);
        }
        // The same call again, on a copy.
        const copy = ledger.clone();
        const unchanged = stateOf(copy);
        const again = copy.apply(call);
        const expected = expectedRepeat(call, outcome);
        if (!matches(expected, again)) {
          problem(
            `repeating ${callText(call)} answered ${outcomeText(again)}, expected ${
              expected.kind === "refused" ? `refused ${expected.reason}` : expected.kind
            }`,
          );
        }
        if (stateOf(copy) !== unchanged) {
          problem(
            `repeating ${callText(call)} changed the state\nbefore: ${unchanged}\nafter:  ${stateOf(copy)}`,
          );
        }
      }
      const wrong = violation(book, ledger);
      if (wrong !== null) problem(wrong);
    }
  }
  // The generator must reach the interesting cases, or the properties say little.
  for (
    const tag of [
      "do done",
      "hold done",
      "post done",
      "void done",
      "do done_before",
      "do bound",
      "hold bound",
      "post over_hold",
      "void no_such_hold",
      "hold already_refused",
      "do key_conflict",
      "do same_account",
      "post expired",
      "void already_posted",
      "post already_voided",
    ]
  ) {
    if ((outcomes.get(tag) ?? 0) === 0) {
      fail(`no step answered "${tag}": ${JSON.stringify([...outcomes].sort())}`);
    }
  }
  const failed = [...outcomes].filter(([tag]) => tag.endsWith(" failed")).reduce((n, [, c]) => n + c, 0);
  if (failed === 0) {
    fail(`no step failed (a balance leaving the 64-bit range): ${JSON.stringify([...outcomes])}`);
  }
  if (accepted < 500) fail(`only ${accepted} books`);
  console.log(
    `${accepted} books accepted of ${attempts} generated, ${steps} steps; checkBook took ${
      Math.round(checkMs)
    } ms`,
  );
  console.log([...outcomes].sort().map(([tag, n]) => `${tag}: ${n}`).join(", "));
});
