/**
 * The names a book takes in the clients (docs/targets.md, "Generated names"): ASCII words take each
 * language's convention, other names are kept, and collisions get `_2`, `_3` … in declared order;
 * the examples are those of the docs' table.
 */

import { deepStrictEqual } from "node:assert/strict";
import { asciiWords, camelCase, type ClientLang, members, pascalCase } from "../../targets/chobo/names.ts";
import { typeNames } from "../../targets/chobo/typescript_names.ts";
import { loadBook } from "../support/books.ts";

/** A book whose names are the docs' examples: snake_case, camelCase, Japanese, keywords, odd underscores. */
const NAMES_BOOK = `book names v1

unit pcs

account shop_sales(shop_id: string) : pcs
  at least 0 refused as short
account 在庫(sku: string) : pcs
  at least 0 refused as short
account _spare : pcs outside

transfer take_back(return_id: string, orderId: string, class: string, 数: pcs)
  key return_id
  move 数 from _spare to shop_sales(orderId)

transfer takeBack(order_ID: string, a__b: string, n: pcs)
  key order_ID
  move n from _spare to 在庫(a__b)

transfer balance(k: string, n: pcs)
  key k
  move n from _spare to 在庫(k)

transfer 引当(注文: string, n: pcs)
  key 注文
  pending never expires
  move n from 在庫(注文) to _spare
`;

/** Every name of a book in one language, as plain objects. */
function spelled(lang: ClientLang) {
  const m = members(loadBook("names.book", NAMES_BOOK), lang);
  const params = (ps: ReadonlyMap<string, ReadonlyMap<string, string>>) =>
    Object.fromEntries([...ps].map(([k, v]) => [k, Object.fromEntries(v)]));
  return {
    transfers: Object.fromEntries(m.transfers),
    accounts: Object.fromEntries(m.accounts),
    transferParams: params(m.transferParams),
    accountParams: params(m.accountParams),
  };
}

Deno.test("ASCII words are split at single underscores; any other name is not ASCII words", () => {
  deepStrictEqual(asciiWords("take_back"), ["take", "back"]);
  deepStrictEqual(asciiWords("orderId"), ["orderId"]);
  deepStrictEqual(asciiWords("sku2_v3"), ["sku2", "v3"]);
  for (const other of ["引当", "sku_在庫", "_spare", "spare_", "a__b", "_"]) {
    deepStrictEqual(asciiWords(other), null, other);
  }
  deepStrictEqual(
    ["take_back", "order_ID", "orderId", "引当", "a__b"].map((n) => [camelCase(n), pascalCase(n)]),
    [["takeBack", "TakeBack"], ["orderID", "OrderID"], ["orderId", "OrderId"], ["引当", "引当"], [
      "a__b",
      "a__b",
    ]],
  );
});

Deno.test("TypeScript: camelCase members and fields; the second takeBack and a balance transfer get _2", () => {
  deepStrictEqual(spelled("typescript"), {
    transfers: { take_back: "takeBack", takeBack: "takeBack_2", balance: "balance_2", 引当: "引当" },
    accounts: { shop_sales: "shopSales", 在庫: "在庫", _spare: "_spare" },
    transferParams: {
      take_back: { return_id: "returnId", orderId: "orderId", class: "class", 数: "数" },
      takeBack: { order_ID: "orderID", a__b: "a__b", n: "n" },
      balance: { k: "k", n: "n" },
      引当: { 注文: "注文", n: "n" },
    },
    accountParams: { shop_sales: { shop_id: "shopId" }, 在庫: { sku: "sku" }, _spare: {} },
  });
  const book = loadBook("names.book", NAMES_BOOK);
  deepStrictEqual(
    Object.fromEntries(typeNames(book.transfers.map((t) => t.name))),
    { take_back: "TakeBack", takeBack: "TakeBack_2", balance: "Balance", 引当: "引当" },
  );
  deepStrictEqual(
    Object.fromEntries(typeNames(book.accounts.map((a) => a.name))),
    { shop_sales: "ShopSales", 在庫: "在庫", _spare: "_spare" },
  );
});

Deno.test("Go: exported CamelCase without initialisms; X before a name without an ASCII first letter", () => {
  deepStrictEqual(spelled("go"), {
    transfers: { take_back: "TakeBack", takeBack: "TakeBack_2", balance: "Balance_2", 引当: "X引当" },
    accounts: { shop_sales: "ShopSales", 在庫: "X在庫", _spare: "X_spare" },
    transferParams: {
      take_back: { return_id: "ReturnId", orderId: "OrderId", class: "Class", 数: "X数" },
      takeBack: { order_ID: "OrderID", a__b: "A__b", n: "N" },
      balance: { k: "K", n: "N" },
      引当: { 注文: "X注文", n: "N" },
    },
    accountParams: { shop_sales: { shop_id: "ShopId" }, 在庫: { sku: "Sku" }, _spare: {} },
  });
});

Deno.test("Python: the book's spelling, a keyword with _ after it, a balance transfer with _2", () => {
  deepStrictEqual(spelled("python"), {
    transfers: { take_back: "take_back", takeBack: "takeBack", balance: "balance_2", 引当: "引当" },
    accounts: { shop_sales: "shop_sales", 在庫: "在庫", _spare: "_spare" },
    transferParams: {
      take_back: { return_id: "return_id", orderId: "orderId", class: "class_", 数: "数" },
      takeBack: { order_ID: "order_ID", a__b: "a__b", n: "n" },
      balance: { k: "k", n: "n" },
      引当: { 注文: "注文", n: "n" },
    },
    accountParams: { shop_sales: { shop_id: "shop_id" }, 在庫: { sku: "sku" }, _spare: {} },
  });
});
