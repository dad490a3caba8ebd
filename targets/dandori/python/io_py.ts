/**
 * `io.py`: the runtime's `io.py` (the `Transport` port, its default implementation and how answers
 * are read) followed by the flow's book tables: for every transfer the flow calls, the member of
 * chobo's Python client (`book.<member>.<op>`), its parameters' keywords and which of them are
 * amounts, spelled as chobo spells them (`targets/chobo/names.ts`) from every transfer of the book.
 * @module
 */

import type { Plan } from "../../../lang/dandori/plan.ts";
import { BOOK_MEMBERS, distinctSpellings, spell } from "../../chobo/names.ts";
import { str } from "./names.ts";
import { IO_RUNTIME } from "./runtimes.ts";

const python = (n: string) => spell(n, "python");

function tuple(items: readonly string[]): string {
  return `(${items.join(", ")}${items.length === 1 ? "," : ""})`;
}

function bookNames(plan: Plan): string[] {
  const lines = [
    "",
    "",
    "# ---------------------------------------------------------------------------------------------",
    "# The flow's books.",
    "",
    "#: Each book transfer the flow calls: the chobo client member, its parameters spelled, its amounts.",
    "BOOK_NAMES: dict[str, dict[str, tuple[str, dict[str, str], tuple[str, ...]]]] = {",
  ];
  for (const b of plan.books) {
    const members = distinctSpellings(b.transfers.map((t) => t.name), python, BOOK_MEMBERS.map(python));
    const called = new Map<string, readonly string[]>();
    for (const t of plan.tasks) {
      if (t.callee.kind === "book" && t.callee.book === b.name) {
        called.set(t.callee.transfer, t.callee.amounts);
      }
    }
    lines.push(`    ${str(b.name)}: {`);
    for (const t of b.transfers) {
      const amounts = called.get(t.name);
      if (amounts === undefined) continue;
      const params = distinctSpellings(t.params, python);
      const spelled = t.params.map((p) => `${str(p)}: ${str(params.get(p) ?? p)}`).join(", ");
      lines.push(
        `        ${str(t.name)}: (${str(members.get(t.name) ?? t.name)}, {${spelled}}, ${
          tuple(amounts.map(str))
        }),`,
      );
    }
    lines.push("    },");
  }
  lines.push("}");
  return lines;
}

/** The text of `io.py` after its header. */
export function ioModule(plan: Plan): string {
  return IO_RUNTIME + bookNames(plan).join("\n") + "\n";
}
