/**
 * `runScenario` tries a `together`'s orders on one ledger it takes back after each, and follows only
 * the first of the orders that reach the same state with the same results. This test holds it, with a
 * fixed seed, to the plain way written here: a copy of the ledger for every order of every outcome, and
 * the outcomes merged when their results per step and their `snapshot` are equal, first found first
 * (docs/decisions.md#the-interpreter). Scenarios are random mixes of the calls that the test books'
 * generated scenarios make, in `together` steps of 1–3 callers between single calls and `pass` steps;
 * the two must give the same outcomes in the same order, with the same order of calls shown for each.
 */

import { deepStrictEqual, ok } from "node:assert/strict";
import { checkBook } from "../../lang/chobo/check.ts";
import { type Call, Ledger, type Outcome } from "../../lang/chobo/interp.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { runJson } from "../../lang/chobo/run.ts";
import {
  type Branch,
  runScenario,
  type Scenario,
  type Step,
  type StepResult,
} from "../../lang/chobo/scenario.ts";
import { generateScenarios } from "../../lang/chobo/scenarios.ts";
import { stringifyJson } from "../../lang/common/json.ts";
import { generator } from "../support/random.ts";

const SEED = 0x70_6e_74;
const SCENARIOS_PER_BOOK = 30;
const BOOKS = new URL("./books/", import.meta.url).pathname;

function outcomeKey(o: Outcome): string {
  return o.kind === "refused" ? `refused:${o.reason}` : o.kind;
}

function stepKey(s: StepResult): unknown {
  switch (s.kind) {
    case "call":
      return outcomeKey(s.outcome);
    case "pass":
      return s.expired.map((h) => [h.transfer, ...h.key]);
    case "together":
      return s.callers.map((c) => c.map((r) => outcomeKey(r.outcome)));
  }
}

function* interleavings(counts: readonly number[]): Generator<number[]> {
  const total = counts.reduce((a, b) => a + b, 0);
  const left = [...counts];
  const order: number[] = [];
  function* go(): Generator<number[]> {
    if (order.length === total) {
      yield [...order];
      return;
    }
    for (let c = 0; c < left.length; c++) {
      if (left[c] === 0) continue;
      left[c]--;
      order.push(c);
      yield* go();
      order.pop();
      left[c]++;
    }
  }
  yield* go();
}

/** Every order of every outcome on a copy of its ledger, merged after each step. */
function plainRun(book: Book, scenario: Scenario): Branch[] {
  let branches: Branch[] = [{ steps: [], ledger: Ledger.empty(book.accounts.map((a) => a.name)) }];
  for (const step of scenario.steps) {
    const next: Branch[] = [];
    for (const b of branches) {
      if (step.kind === "call") {
        const ledger = b.ledger.clone();
        next.push({
          steps: [...b.steps, { kind: "call", call: step.call, outcome: ledger.apply(step.call) }],
          ledger,
        });
      } else if (step.kind === "pass") {
        const ledger = b.ledger.clone();
        const expired = ledger.pass(step.seconds);
        next.push({
          steps: [...b.steps, { kind: "pass", text: step.text, seconds: step.seconds, expired }],
          ledger,
        });
      } else {
        for (const order of interleavings(step.callers.map((c) => c.length))) {
          const ledger = b.ledger.clone();
          const results = step.callers.map(() => [] as { call: Call; outcome: Outcome }[]);
          const done = step.callers.map(() => 0);
          for (const c of order) {
            const call = step.callers[c][done[c]++];
            results[c].push({ call, outcome: ledger.apply(call) });
          }
          next.push({ steps: [...b.steps, { kind: "together", callers: results, order }], ledger });
        }
      }
    }
    const seen = new Set<string>();
    branches = next.filter((b) => {
      const key = JSON.stringify([b.steps.map(stepKey), b.ledger.snapshot()]);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  return branches;
}

function shown(s: Scenario, branches: readonly Branch[]): string {
  const orders = branches.map((b) => b.steps.flatMap((st) => st.kind === "together" ? [st.order] : []));
  return stringifyJson({ run: runJson(s, branches), orders }, 2);
}

Deno.test("a together's orders tried on one ledger give the outcomes of a copy per order (fixed seed)", () => {
  const random = generator(SEED);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  let branched = 0;
  for (
    const name of [...Deno.readDirSync(BOOKS)].map((e) => e.name).filter((n) => n.endsWith(".book")).sort()
  ) {
    const book = checkBook(name, Deno.readTextFileSync(BOOKS + name)).book;
    ok(book !== null, name);
    const calls = generateScenarios(book).flatMap((s) =>
      s.steps.flatMap((st) =>
        st.kind === "call" ? [st.call] : st.kind === "together" ? st.callers.flat() : []
      )
    );
    ok(calls.length > 0, name);
    for (let n = 0; n < SCENARIOS_PER_BOOK; n++) {
      const steps: Step[] = [];
      for (let i = int(1, 4); i > 0; i--) {
        const r = random();
        if (r < 0.45) steps.push({ kind: "call", call: pick(calls) });
        else if (r < 0.55) steps.push({ kind: "pass", seconds: 3600n, text: "1 hours" });
        else {
          const callers = Array.from(
            { length: int(1, 3) },
            () => Array.from({ length: int(1, 2) }, () => pick(calls)),
          );
          steps.push({ kind: "together", callers });
        }
      }
      const scenario: Scenario = { name: `random ${n}`, tenant: "", steps };
      const plain = plainRun(book, scenario);
      if (plain.length > 1) branched++;
      deepStrictEqual(
        shown(scenario, runScenario(book, scenario)),
        shown(scenario, plain),
        `${name}: random ${n}`,
      );
    }
  }
  ok(branched > 50, `only ${branched} scenarios had more than one outcome`);
});
