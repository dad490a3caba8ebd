/**
 * The Lambda function of each book a flow uses (docs/targets.md#the-book-lambdas):
 * `lambda/book_<book>_handler.py`, which takes the payload of a book task's Task and runs the
 * operation on chobo's Python client of the book (`chobo build --target postgres-python` or
 * `tigerbeetle-python`). The user hands it the book value: `handler = make_handler(lambda:
 * postgres(conn, tenant="…"))`.
 *
 * The file declares, as `Protocol`s, just the operations the flow's tasks call, with chobo's
 * names for them (targets/chobo/names.ts, from the transfers the plan lists), so `mypy --strict`
 * checks that the client handed in has them. A refusal raises an exception named after its
 * reason (`dandori_book.py`, copied beside it), which Step Functions matches as the task's
 * declared error.
 * @module
 */

import { assert, lookup } from "../../../lang/common/assert.ts";
import type { BookUsePlan, Plan } from "../../../lang/dandori/plan.ts";
import { oneLine } from "../../../lang/common/visible.ts";
import { transferMembers } from "../../chobo/names.ts";
import { type FlowOrigin, headerLines } from "../target.ts";

/** The file name of a book's Lambda. */
export function bookHandlerFile(book: string): string {
  return `lambda/book_${book}_handler.py`;
}

/** What the flow calls of one operation of a transfer, with the parameters it passes. */
interface Used {
  readonly strings: Set<string>;
  readonly amounts: Set<string>;
  /** Amounts a partial post passes apart (`amounts`). */
  readonly posted: Set<string>;
  /** Whether some task does it with every argument in `args` (all but a partial post), or as a partial post. */
  full: boolean;
  partial: boolean;
}

/** A Python string literal. */
function py(text: string): string {
  return JSON.stringify(text);
}

/** The book Lambda of `book`: its Protocols, and the handler that dispatches each operation. */
export function bookHandler(plan: Plan, book: BookUsePlan, origin: FlowOrigin): string {
  const m = transferMembers(book.transfers, "python");
  const used = new Map<string, Map<string, Used>>();
  for (const t of plan.tasks) {
    const c = t.callee;
    if (c.kind !== "book" || c.book !== book.name) continue;
    const ops = used.get(c.transfer) ?? new Map<string, Used>();
    used.set(c.transfer, ops);
    const u = ops.get(c.op) ??
      {
        strings: new Set<string>(),
        amounts: new Set<string>(),
        posted: new Set<string>(),
        full: false,
        partial: false,
      };
    ops.set(c.op, u);
    c.strings.forEach((n) => u.strings.add(n));
    const partial = c.op === "post" && c.amounts.length > 0;
    c.amounts.forEach((n) => (partial ? u.posted : u.amounts).add(n));
    if (partial) u.partial = true;
    else u.full = true;
  }
  const out: string[] = [
    ...headerLines(plan, origin).map((l) => `# ${l}`),
    `# ${
      oneLine(
        `The Lambda function of the book \`${book.name}\` (${book.path}) for Step Functions: the book tasks' Tasks call it.`,
      )
    }`,
    "",
    "from __future__ import annotations",
    "",
    "from collections.abc import Callable",
    "from typing import Protocol",
    "",
    "from dandori_book import Event, Handler, Result, handler_of",
    "",
  ];
  const transfers = book.transfers.filter((t) => used.has(t.name));
  for (const t of transfers) {
    const member = lookup(m.transfers, t.name, "transfer");
    const params = lookup(m.transferParams, t.name, "transfer");
    out.push("", `class _Transfer_${member}(Protocol):`);
    for (const [op, u] of lookup(used, t.name, "transfer")) {
      const args = [
        ...t.params.filter((p) => u.strings.has(p)).map((p) => `${lookup(params, p, "parameter")}: str`),
        ...t.params.filter((p) => u.amounts.has(p)).map((p) => `${lookup(params, p, "parameter")}: int`),
        ...t.params.filter((p) => u.posted.has(p)).map((p) =>
          `${lookup(params, p, "parameter")}: int | None = None`
        ),
      ];
      out.push(`    def ${op}(self${args.length === 0 ? "" : `, *, ${args.join(", ")}`}) -> Result: ...`, "");
    }
  }
  out.push(
    "",
    "class Book(Protocol):",
    `    """The transfers of the book \`${book.name}\` the flow's tasks call: chobo's client of the book has them."""`,
  );
  for (const t of transfers) {
    const member = lookup(m.transfers, t.name, "transfer");
    out.push("", "    @property", `    def ${member}(self) -> _Transfer_${member}: ...`);
  }
  out.push(
    "",
    "",
    "def make_handler(open_book: Callable[[], Book]) -> Handler:",
    `    """The Lambda handler of the book: \`handler = make_handler(lambda: postgres(conn, tenant=...))\`."""`,
    "",
    "    def call(event: Event) -> Result:",
    "        book = open_book()",
  );
  for (const t of transfers) {
    const member = lookup(m.transfers, t.name, "transfer");
    const params = lookup(m.transferParams, t.name, "transfer");
    for (const [op, u] of lookup(used, t.name, "transfer")) {
      const arg = (p: string, read: string) => `${lookup(params, p, "parameter")}=event.${read}(${py(p)})`;
      const full = [
        ...t.params.filter((p) => u.strings.has(p)).map((p) => arg(p, "text")),
        ...t.params.filter((p) => u.amounts.has(p)).map((p) => arg(p, "amount")),
      ];
      const partial = [...full, ...t.params.filter((p) => u.posted.has(p)).map((p) => arg(p, "posted"))];
      out.push(`        if event.transfer == ${py(t.name)} and event.op == ${py(op)}:`);
      if (u.partial) {
        out.push(
          "            if event.partial:",
          `                return book.${member}.${op}(${partial.join(", ")})`,
        );
      }
      if (u.full) out.push(`            return book.${member}.${op}(${full.join(", ")})`);
    }
  }
  assert(transfers.length > 0, "a book's Lambda is written for a book the flow calls");
  out.push(
    `        raise ValueError(f"dandori: the flow calls no {event.transfer}.{event.op} of the book ${book.name}")`,
    "",
    "    return handler_of(call)",
    "",
  );
  return out.join("\n");
}
