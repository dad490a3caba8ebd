/**
 * What `chobo check` says about the mistakes people make in a book: a misspelt keyword or name gets
 * "did you mean …?" (one diagnostic for a misspelt declaration, not one more for each of its
 * items), and an amount written with letters says what an amount looks like; in both languages,
 * pinned by golden files (`tests/chobo/golden/mistakes/`).
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { checkBook } from "../../lang/chobo/check.ts";
import { renderDiagnostic } from "../../lang/common/diagnostic.ts";
import { nearest } from "../../lang/common/nearest.ts";
import { assertGolden } from "../support/golden.ts";

const REFUNDS = Deno.readTextFileSync(new URL("../../examples/refunds/refunds.book", import.meta.url));
const GOLDEN = new URL("./golden/mistakes/", import.meta.url).pathname;

/** Each mistake: its name, and the replacements that make it in the refunds example. */
const MISTAKES: readonly [string, readonly (readonly [string, string])[]][] = [
  ["declaration", [["account refundable", "acount refundable"]]],
  ["items", [
    ["at least 0.00", "at lest 0.00"],
    ["  move amount from customers", "  mvoe amount from customers"],
    ["expires after 7 days", "expires after 7 dyas"],
    ['  description "the customer', '  desciption "the customer'],
  ]],
  ["names", [
    ["to customers", "to custmers"],
    ["refundable(order) to", "refundable(ordr) to"],
    [": USD outside", ": UDS outside"],
    ["key refund_id, order", "key refund_di, order"],
    ["move amount from customers", "move amout from customers"],
    ['amount: USD)\n  description "held', 'amount: USDD)\n  description "held'],
  ]],
  ["amounts", [
    ["at least 0.00", "at most 30x"],
    ["move amount from customers", "move 5usd from customers"],
    ["expires after 7 days", "expires after 7x days"],
  ]],
  ["no guess keyword", [["account refundable", "ledger refundable"]]],
  ["no guess name", [["to customers", "to world"]]],
];

function rendered(name: string, text: string, lang: "en" | "ja"): string {
  return checkBook(`${name}.book`, text).diagnostics.map((d) => renderDiagnostic(d, lang)).join("");
}

Deno.test("misspelt keywords and names say what was meant, and amounts with letters what an amount is", () => {
  for (const [name, edits] of MISTAKES) {
    let text = REFUNDS;
    for (const [from, to] of edits) {
      ok(text.includes(from), `${name}: ${from}`);
      text = text.replace(from, to);
    }
    for (const lang of ["en", "ja"] as const) {
      assertGolden(`${GOLDEN}${name.replaceAll(" ", "_")}.${lang}.txt`, rendered(name, text, lang));
    }
  }
});

Deno.test("a misspelt declaration is one diagnostic, not one more for each of its items", () => {
  const d = checkBook("x.book", REFUNDS.replace("account refundable", "acount refundable")).diagnostics;
  deepStrictEqual(d.map((x) => [x.code, x.line]), [["E001", 7]]);
  strictEqual(d[0].message.en, "acount does not start a declaration");
  strictEqual(d[0].hint?.en, "did you mean `account`?");
  strictEqual(d[0].message.ja, "acount では宣言が始まりません");
  const orphan = checkBook("y.book", 'book y v1\n  description "x"\n').diagnostics;
  strictEqual(orphan[0].message.en, "an indented line with no account or transfer above it");
});

Deno.test("a guess is made only when a known word is a slip away", () => {
  strictEqual(nearest("acount", ["book", "unit", "account", "transfer"]), "account");
  strictEqual(nearest("trasnfr", ["account", "transfer"]), "transfer");
  strictEqual(nearest("kye", ["key", "move"]), "key");
  strictEqual(nearest("ab", ["cd", "ef"]), null);
  strictEqual(nearest("uni", ["unit", "uno"]), null, "two as near: no guess");
  strictEqual(nearest("xyzzy", ["book", "unit", "account", "transfer"]), null);
  strictEqual(nearest("account", ["account"]), null, "the word itself is no guess");
  strictEqual(nearest("箱", ["個"]), null, "a one-character name for another is no typo");
});
