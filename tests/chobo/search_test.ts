/**
 * The operation search never under-reports silently (issue 17's acceptance, docs/design/chobo.md#scenarios):
 * the issue's own books, as found by hand, list what `run` can answer — in `chobo check`'s report, in
 * `chobo api` and on the doc page alike — and a filler that runs once per account still gets the taker's
 * refusals and the hold life of the taker in the generated scenarios.
 */

import { deepStrictEqual, ok } from "node:assert/strict";
import { apiJson } from "../../lang/chobo/api.ts";
import { checkBook } from "../../lang/chobo/check.ts";
import { buildPage } from "../../lang/chobo/doc.ts";
import type { OpRefusals } from "../../lang/chobo/refusals.ts";
import { generate } from "../../lang/chobo/scenarios.ts";
import { searchAmounts } from "../../lang/chobo/search.ts";

const BOOKS = new URL("./books/", import.meta.url).pathname;

/** The first book of the issue, with its lower bound `at least <lower>`. */
function overdraft(lower: string): string {
  return [
    "book found v1",
    "unit pcs",
    "account a(x: string) : pcs",
    `  at least ${lower} refused as too_low`,
    "account w : pcs outside",
    "transfer take(id: string, x: string, n: pcs)",
    "  key id, x",
    "  move n from a(x) to w",
    "transfer give(id: string, x: string, n: pcs)",
    "  key id, x",
    "  move n from w to a(x)",
    "",
  ].join("\n");
}

function checked(file: string, text: string) {
  const result = checkBook(file, text);
  if (result.book === null || result.report === null) throw new Error(`${file} has errors`);
  return { book: result.book, report: result.report, diagnostics: result.diagnostics };
}

function reasonsOf(report: readonly OpRefusals[], op: string): { listed: string[]; unreached: string[] } {
  const r = report.find((x) => `${x.transfer.name}.${x.op}` === op);
  if (r === undefined) throw new Error(`no ${op}`);
  return { listed: r.refusals.map((x) => x.reason), unreached: r.unreached.map((x) => x.reason) };
}

/** The reasons `api` and the doc page (both languages) list for `op`, as check's report does. */
function agree(file: string, text: string, op: string): string[] {
  const { book, report, diagnostics } = checked(file, text);
  const { listed } = reasonsOf(report, op);
  const [transfer, operation] = op.split(".");
  const api = apiJson(book, report) as {
    transfers: { name: string; operations: { op: string; refusals: { reason: string }[] }[] }[];
  };
  const fromApi = api.transfers.find((t) => t.name === transfer)!.operations.find((o) => o.op === operation)!;
  deepStrictEqual(fromApi.refusals.map((x) => x.reason), listed, `${file}: api`);
  for (const lang of ["en", "ja"] as const) {
    const page = buildPage(book, diagnostics, lang, [], report);
    const fromPage = page.transfers.find((t) => t.name === transfer)!.operations.find((o) =>
      o.op === operation
    )!;
    deepStrictEqual(fromPage.refusals.map((x) => x.reason), listed, `${file}: doc --lang ${lang}`);
  }
  return listed;
}

Deno.test("the issue's book with at least -1000 lists too_low for take.do, as with -999, in check, api and doc", () => {
  for (const lower of ["-1000", "-999", "-1001", "-5000"]) {
    const file = `found_${lower}.book`;
    const listed = agree(file, overdraft(lower), "take.do");
    for (const reason of ["too_low", "key_conflict", "already_refused"]) {
      ok(listed.includes(reason), `${file}: take.do lists ${reason} (${listed.join(", ")})`);
    }
    deepStrictEqual(reasonsOf(checked(file, overdraft(lower)).report, "take.do").unreached, [], file);
  }
});

Deno.test("a filler once per account: the taker in two moves lists key_conflict and gets its hold life and race", () => {
  for (const name of ["escrow.book", "預り金.book"]) {
    const text = Deno.readTextFileSync(BOOKS + name);
    const { book, report } = checked(name, text);
    const settle = book.transfers.find((t) => t.pending !== null)!;
    const hold = `${settle.name}.hold`;
    const listed = agree(name, text, hold);
    ok(listed.includes("key_conflict"), `${name}: ${hold} lists key_conflict (${listed.join(", ")})`);
    for (const op of ["hold", "post", "void"]) {
      deepStrictEqual(reasonsOf(report, `${settle.name}.${op}`).unreached, [], `${name}: ${op} reached all`);
    }
    const generated = generate(book);
    deepStrictEqual(generated.notes, [], `${name}: every owed scenario is generated`);
    deepStrictEqual(generated.limits, [], `${name}: within the search's limits`);
    const names = generated.scenarios.map((s) => s.name);
    for (
      const want of [
        `hold: ${settle.name} is held, then posted in full`,
        `hold: ${settle.name} is held, then part of it is posted`,
        `hold: ${settle.name} is posted for more than it holds`,
        `hold: ${settle.name} is held, then voided`,
        `hold: ${settle.name} is voided after it was posted`,
        `hold: ${settle.name} is posted after it was voided`,
        `pass: ${settle.name} expires, then is posted and voided`,
        `key: ${hold} again with the same key and another value for ${settle.params[2].name}`,
      ]
    ) {
      ok(names.includes(want), `${name}: ${want}`);
    }
    ok(
      names.some((n) => n.startsWith(`together: two callers take the last `) && n.endsWith(`with ${hold}`)),
      name,
    );
  }
});

Deno.test("a bound value written again gives the search no other amounts: 3,000 accounts of three values as three", () => {
  const book = (copies: number) => {
    const lines = ["book bounds v1", "unit pcs", "account w : pcs outside"];
    const bounds = ["at least -1000", "at most 50", "at least 7"];
    for (let i = 0; i < copies; i++) {
      bounds.forEach((b, j) => lines.push(`account a${i}_${j}(x: string) : pcs`, `  ${b} refused as r${j}`));
    }
    lines.push("transfer t(id: string, x: string, n: pcs)", "  key id");
    for (let j = 0; j < bounds.length; j++) lines.push(`  move n from w to a0_${j}(x)`);
    return checked("bounds.book", lines.join("\n") + "\n").book;
  };
  const one = book(1);
  const many = book(1000);
  deepStrictEqual(searchAmounts(many, many.units[0]), searchAmounts(one, one.units[0]));
  deepStrictEqual(searchAmounts(one, one.units[0]).amounts.slice(0, 3), [1n, 2n, 3n]);
  ok(searchAmounts(one, one.units[0]).amounts.includes(1050n), "the distance from -1000 to 50");
});
