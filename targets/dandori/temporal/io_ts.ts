/**
 * `io.ts`: the runtime's `io.ts` (the `Transport` port, its default implementation and how answers
 * are read) followed by the flow's book tables: for every transfer the flow calls, the member of
 * chobo's TypeScript client (`book.<member>.<op>`), its parameters' spellings and which of them
 * are amounts, spelled as chobo spells them (`targets/chobo/names.ts`) from every transfer of the
 * book.
 * @module
 */

import type { Plan } from "../../../lang/dandori/plan.ts";
import { BOOK_MEMBERS, camelCase, distinctSpellings } from "../../chobo/names.ts";
import { prop, str } from "../typescript/names.ts";
import { IO_RUNTIME } from "./runtimes.ts";

/** The book tables: member and parameter spellings of each transfer the flow calls. */
function bookNames(plan: Plan): string[] {
  const lines = [
    "",
    "// ---------------------------------------------------------------------------------------------",
    "// The flow's books.",
    "",
    "/** Each book's transfers the flow calls: the chobo client's member, its parameters' names, the amounts. */",
    "const BOOK_NAMES: {",
    "  readonly [book: string]: {",
    "    readonly [transfer: string]: {",
    "      readonly member: string;",
    "      readonly params: { readonly [name: string]: string };",
    "      readonly amounts: readonly string[];",
    "    };",
    "  };",
    "} = {",
  ];
  for (const b of plan.books) {
    const members = distinctSpellings(b.transfers.map((t) => t.name), camelCase, BOOK_MEMBERS.map(camelCase));
    // A transfer's amounts are those of every task that calls it (a hold gives its amount, a post
    // in full none): the last task alone would leave the hold's amount a number, which chobo refuses.
    const called = new Map<string, Set<string>>();
    for (const t of plan.tasks) {
      if (t.callee.kind === "book" && t.callee.book === b.name) {
        const amounts = called.get(t.callee.transfer) ?? new Set<string>();
        for (const a of t.callee.amounts) amounts.add(a);
        called.set(t.callee.transfer, amounts);
      }
    }
    lines.push(`  ${prop(b.name)}: {`);
    for (const t of b.transfers) {
      const amounts = called.get(t.name);
      if (amounts === undefined) continue;
      const params = distinctSpellings(t.params, camelCase);
      const spelled = t.params.map((p) => `${prop(p)}: ${str(params.get(p) ?? p)}`).join(", ");
      lines.push(
        `    ${prop(t.name)}: { member: ${
          str(members.get(t.name) ?? t.name)
        }, params: { ${spelled} }, amounts: [${[...amounts].map(str).join(", ")}] },`,
      );
    }
    lines.push("  },");
  }
  lines.push("};");
  return lines;
}

/** The text of `io.ts` after its header. */
export function ioModule(plan: Plan): string {
  return IO_RUNTIME + bookNames(plan).join("\n") + "\n";
}
