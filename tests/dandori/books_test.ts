/**
 * The book port (docs/design/dandori.md#books): what dandori reads of a `.book`
 * through chobo's checker — units as dandori's unit types, accounts and their bounds, transfers
 * with parameters, key, moves and expiry, the reasons of every operation, and the hold machine.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { type BookPort, readBook } from "../../lang/dandori/books.ts";
import { rowOf } from "../../lang/dandori/machine.ts";

function read(path: string): BookPort {
  const result = readBook(path, Deno.readFileSync(new URL(path, import.meta.url)));
  if (!("book" in result)) throw new Error(`${path}: ${result.errors.map((d) => d.message.en).join("; ")}`);
  return result.book;
}

Deno.test("在庫.book: units, accounts, transfers, reasons and the hold machine of 引当", () => {
  const book = read("./flows/books/在庫.book");
  strictEqual(book.name, "在庫");
  deepStrictEqual(book.units, [{ name: "個", tax: null, unitId: null, spelling: null }]);
  const stock = book.accounts.find((a) => a.name === "在庫")!;
  deepStrictEqual(stock.lower, { value: 0n, reason: "在庫切れ" });
  strictEqual(stock.outside, false);
  const hold = book.transfers.find((t) => t.name === "引当")!;
  deepStrictEqual(hold.key, ["注文", "sku"]);
  strictEqual(hold.pending, 1800n);
  deepStrictEqual(hold.ops, ["hold", "post", "void"]);
  deepStrictEqual(hold.moves, [{ from: "在庫", to: "客" }]);
  ok(hold.reasons.get("hold")!.includes("在庫切れ"));
  ok(hold.reasons.get("post")!.includes("expired"));
  ok(hold.reasons.get("void")!.includes("already_posted"));
  ok(!hold.reasons.get("void")!.includes("already_voided"));
  const m = hold.machine!;
  deepStrictEqual(m.states, ["held", "posted", "voided", "expired"]);
  deepStrictEqual(m.finals, ["posted", "voided", "expired"]);
  deepStrictEqual(m.external, ["expire"]);
  strictEqual(rowOf(m, "held", "expire").next, "expired");
  strictEqual(rowOf(m, "expired", "post").refused, "expired");
  strictEqual(rowOf(m, "posted", "void").refused, "already_posted");
  strictEqual(
    rowOf(m, "posted", "post").refused,
    null,
    "posting a posted hold again is done before (docs/design/chobo.md#keys-and-content)",
  );
  const receive = book.transfers.find((t) => t.name === "入荷")!;
  strictEqual(receive.machine, null);
  deepStrictEqual(receive.ops, ["do"]);
});

Deno.test("a hold that never expires has no expire and cannot be refused with expired", () => {
  const book = read("../chobo/books/allocation.book");
  const payout = book.transfers.find((t) => t.name === "payout")!;
  strictEqual(payout.pending, "never");
  deepStrictEqual(payout.machine!.external, []);
  ok(!payout.machine!.events.includes("expire"));
  ok(!payout.reasons.get("post")!.includes("expired"));
  deepStrictEqual(book.units.map((u) => u.spelling), ["money[JPY]"]);
});

Deno.test("a book with errors gives chobo's diagnostics", () => {
  const result = readBook(
    "broken.book",
    Deno.readFileSync(new URL("./flows/books/broken.book", import.meta.url)),
  );
  ok("errors" in result && result.errors[0].code === "E002");
});
