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
import { genBook, genStep, Random } from "../support/random_books.ts";

const SEED = 0x5eed_2024;
const BOOKS = 520;
const MAX_ATTEMPTS = 5000;

// ---------------------------------------------------------------------------------------------
// Operation sequences (genBook and genStep: tests/support/random_books.ts)

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
