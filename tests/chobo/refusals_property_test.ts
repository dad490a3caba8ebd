/**
 * The check never under-reports silently (docs/design/chobo.md#the-checker): on every test and example
 * book and on random books (fixed seed), every reason the reference interpreter answers an operation with
 * — in the generated scenarios and in random sequences of calls — is in that operation's "may be refused"
 * list or among the reasons named as not reached within the search.
 */

import { fail, ok } from "node:assert/strict";
import { checkBook } from "../../lang/chobo/check.ts";
import { Ledger, type Outcome } from "../../lang/chobo/interp.ts";
import type { Book } from "../../lang/chobo/model.ts";
import type { OpRefusals } from "../../lang/chobo/refusals.ts";
import { runScenario } from "../../lang/chobo/scenario.ts";
import { generateScenarios } from "../../lang/chobo/scenarios.ts";
import { everyBook } from "../support/books.ts";
import { genBook, genStep, Random } from "../support/random_books.ts";

const SEED = 0x0517_2026;
const RANDOM_BOOKS = 40;
const SEQUENCES = 4;
const STEPS = 40;

/** What the report allows per `transfer.op`: the reasons found and those named as not reached. */
function allowed(report: readonly OpRefusals[]): Map<string, Set<string>> {
  return new Map(report.map((r) => [
    `${r.transfer.name}.${r.op}`,
    new Set([...r.refusals, ...r.unreached].map((x) => x.reason)),
  ]));
}

/** Every refusal of a book's generated scenarios and random sequences, as `transfer.op` and reason. */
function refusals(book: Book, rnd: Random): { op: string; reason: string; where: string }[] {
  const out: { op: string; reason: string; where: string }[] = [];
  const note = (o: Outcome, op: string, where: string) => {
    if (o.kind === "refused") out.push({ op, reason: o.reason, where });
  };
  for (const s of generateScenarios(book)) {
    for (const b of runScenario(book, s)) {
      for (const step of b.steps) {
        if (step.kind === "call") note(step.outcome, `${step.call.transfer.name}.${step.call.op}`, s.name);
        if (step.kind !== "together") continue;
        for (const r of step.callers.flat()) note(r.outcome, `${r.call.transfer.name}.${r.call.op}`, s.name);
      }
    }
  }
  for (let n = 0; n < SEQUENCES; n++) {
    const ledger = Ledger.empty(book.accounts.map((a) => a.name));
    for (let i = 0; i < STEPS; i++) {
      const step = genStep(rnd, book, ledger);
      if (step.kind === "pass") ledger.pass(step.seconds);
      else note(ledger.apply(step.call), `${step.call.transfer.name}.${step.call.op}`, `sequence ${n}`);
    }
  }
  return out;
}

Deno.test("every reason run answers is one the check lists as may be refused or as not reached", () => {
  const rnd = new Random(SEED);
  const books: { name: string; text: string }[] = everyBook().map((path) => ({
    name: path,
    text: Deno.readTextFileSync(path),
  }));
  for (let i = 0; books.length < everyBook().length + RANDOM_BOOKS; i++) {
    if (i > 50 * RANDOM_BOOKS) fail("the random books do not check");
    const text = genBook(rnd, i);
    const { book } = checkBook(`gen${i}.book`, text);
    if (book !== null && book.transfers.length > 0) books.push({ name: `gen${i}.book`, text });
  }
  let checked = 0;
  let unreachedSeen = 0;
  for (const { name, text } of books) {
    const { book, report } = checkBook(name, text);
    if (book === null || report === null) fail(`${name} has errors`);
    const may = allowed(report);
    for (const r of refusals(book, rnd)) {
      checked++;
      const listed = may.get(r.op);
      if (listed === undefined || !listed.has(r.reason)) {
        fail(
          `${name}: ${r.where}: ${r.op} was refused with ${r.reason}, which the check does not name\n${text}`,
        );
      }
      const op = report.find((o) => `${o.transfer.name}.${o.op}` === r.op);
      if (op?.unreached.some((u) => u.reason === r.reason)) unreachedSeen++;
    }
  }
  // The property says something only if runs are refused often, and some with a reason the search missed.
  ok(checked > 2000, `only ${checked} refusals checked`);
  ok(unreachedSeen > 0, "no run met a reason named as not reached");
});
