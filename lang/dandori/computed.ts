/**
 * `--books computed`: a flow and its books run together. Book tasks are answered by chobo's
 * reference interpreter in this process instead of the scenario: each book starts from the
 * scenario's `books` steps, ages with the run's clock (a hold expires at its deadline), and
 * every answer is the one chobo gives, written as a scenario writes answers — so the run is the
 * plain run of the scenario with those answers written in (`replay`).
 *
 * - done and done before are `{"ok": {"result": "done"}}` and `{"ok": {"result": "done_before"}}`;
 * - a refusal whose reason the task declares is `{"error": "<reason>"}`; one it does not declare
 *   is a failure, `{"error": "failure", "cause": "Dandori.Failure.<reason>"}` (docs/design/dandori.md#books);
 * - an operation chobo cannot do (a 64-bit overflow) is a failure with chobo's reason.
 * @module
 */

import { assert, findOne, lookup, unreachable } from "../common/assert.ts";
import { type Call, Ledger } from "../chobo/interp.ts";
import type { Book } from "../chobo/model.ts";
import { runScenario } from "../chobo/scenario.ts";
import type { CheckedFlow } from "./checked.ts";
import type { Answer, Answers, Attempt } from "./interp.ts";
import type { FlowScenario } from "./scenario.ts";
import type { Value } from "./values.ts";

/** Answers of book tasks computed by chobo; every other call's from `rest`. */
export class BooksComputed implements Answers {
  private readonly ledgers = new Map<string, Ledger>();
  private readonly books = new Map<string, Book>();
  private agedSeconds = 0;

  constructor(
    flow: CheckedFlow,
    s: FlowScenario,
    private readonly startMs: number,
    private readonly rest: Answers,
  ) {
    for (const [name, port] of flow.model.books) {
      this.books.set(name, port.chobo);
      const steps = s.books.get(name);
      if (steps === undefined) {
        this.ledgers.set(name, Ledger.empty(port.chobo.accounts.map((a) => a.name)));
        continue;
      }
      const branches = runScenario(port.chobo, steps);
      assert(branches.length === 1, "a book's steps before a run are one after another");
      this.ledgers.set(name, branches[0].ledger);
    }
  }

  next(a: Attempt): Answer {
    const b = a.task.book;
    if (b === null) return this.rest.next(a);
    const ledger = lookup(this.ledgers, b.book, "book's ledger");
    const book = lookup(this.books, b.book, "book");
    const transfer = findOne(
      book.transfers,
      (t) => t.name === b.transfer.name,
      `transfer ${b.transfer.name}`,
    );
    const strings = new Map<string, string>();
    const amounts = new Map<string, bigint>();
    for (const p of transfer.params) {
      const v: Value | undefined = a.args[p.name];
      if (v === undefined) continue;
      if (p.type.kind === "string") strings.set(p.name, String(v));
      else {
        assert(typeof v === "bigint", `an amount of ${transfer.name} is an integer`);
        amounts.set(p.name, v);
      }
    }
    const call: Call = { transfer, op: b.op, strings, amounts };
    const outcome = ledger.apply(call);
    switch (outcome.kind) {
      case "done":
      case "done_before":
        return { kind: "ok", value: { result: outcome.kind } };
      case "refused":
        return a.task.errors.has(outcome.reason)
          ? { kind: "error", error: outcome.reason, cause: null }
          : { kind: "error", error: "failure", cause: `Dandori.Failure.${outcome.reason}` };
      case "failed":
        return { kind: "error", error: "failure", cause: outcome.why.en };
      default:
        return unreachable(outcome, "outcome");
    }
  }

  advance(clockMs: number): void {
    const seconds = Math.floor((clockMs - this.startMs) / 1000);
    if (seconds <= this.agedSeconds) return;
    for (const ledger of this.ledgers.values()) ledger.pass(BigInt(seconds - this.agedSeconds));
    this.agedSeconds = seconds;
  }
}
