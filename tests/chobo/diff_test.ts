/**
 * `diffBooks` (E050, E051, W107: what changed since the base revision) on books written here and on
 * the fixture pairs of tests/chobo/fixtures/diff/, and `readAtRevision` on a throwaway git repository.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { checkBook } from "../../lang/chobo/check.ts";
import { type ChoboCode, CODES } from "../../lang/chobo/codes.ts";
import { diffBooks } from "../../lang/chobo/diff.ts";
import type { Diagnostic } from "../../lang/common/diagnostic.ts";
import { readAtRevision } from "../../commands/git.ts";
import { Reporter } from "../../lang/common/reporter.ts";

const FIXTURES = new URL("./fixtures/diff/", import.meta.url).pathname;

/** The base book every case edits: bounds on both sides, money with decimals, a hold and a do. */
const BASE = `book shop v1
description "a small shop"

unit pcs
unit USD scale 2

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account wallet(member: string) : USD
  at least 0 refused as short
  at most 1000 refused as over_limit
account suppliers : pcs outside
account customers : pcs outside
account bank : USD outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)

transfer reserve(order: string, sku: string, qty: pcs)
  key order, sku
  pending expires after 30 minutes
  move qty from stock(sku) to customers

transfer top_up(slip: string, member: string, amount: USD)
  key slip, member
  move amount from bank to wallet(member)

transfer pay(order: string, member: string)
  key order, member
  move 2.50 from wallet(member) to bank
`;

/** The base book with each `[from, to]` replaced once; a replacement that does not apply fails. */
function edit(...changes: readonly (readonly [string, string])[]): string {
  let text = BASE;
  for (const [from, to] of changes) {
    ok(text.includes(from), `the base book has no ${JSON.stringify(from)}`);
    text = text.replace(from, to);
  }
  return text;
}

function book(text: string) {
  const result = checkBook("x.book", text);
  ok(result.book !== null, result.diagnostics.map((d) => `${d.code} ${d.message.en}`).join("\n"));
  return result.book;
}

function diff(before: string, after: string): Diagnostic[] {
  const r = new Reporter<ChoboCode>("x.book", after);
  diffBooks(book(before), book(after), r);
  return r.diagnostics;
}

/** The one diagnostic of `diagnostics`, checked for its code, line and English and Japanese words. */
function only(
  diagnostics: readonly Diagnostic[],
  code: string,
  line: number,
  en: readonly string[],
  ja: readonly string[],
): Diagnostic {
  deepStrictEqual(diagnostics.map((d) => d.code), [code], diagnostics.map((d) => d.message.en).join("\n"));
  const [d] = diagnostics;
  strictEqual(d.line, line);
  strictEqual(d.col, line === 0 ? 0 : 1);
  strictEqual(d.severity, code.startsWith("E") ? "error" : "warning");
  for (const words of en) ok(d.message.en.includes(words), `${d.message.en}\n  lacks ${words}`);
  for (const words of ja) ok(d.message.ja.includes(words), `${d.message.ja}\n  lacks ${words}`);
  ok(d.hint !== null && d.hint.en !== d.hint.ja);
  return d;
}

const STOCK_LINE = 7;
const WALLET_LINE = 9;
const RECEIVE_LINE = 16;
const RESERVE_LINE = 20;
const PAY_LINE = 29;

Deno.test("the base book is clean, and compared with itself gives nothing", () => {
  strictEqual(checkBook("x.book", BASE).diagnostics.length, 0);
  deepStrictEqual(diff(BASE, BASE), []);
});

Deno.test("E050: the unit of an account changed", () => {
  const now = edit(
    ["unit pcs\n", "unit pcs\nunit boxes\n"],
    ["account stock(sku: string) : pcs", "account stock(sku: string) : boxes"],
    ["account suppliers : pcs", "account suppliers : boxes"],
    ["account customers : pcs", "account customers : boxes"],
    [
      "receive(delivery: string, sku: string, qty: pcs)",
      "receive(delivery: string, sku: string, qty: boxes)",
    ],
    ["reserve(order: string, sku: string, qty: pcs)", "reserve(order: string, sku: string, qty: boxes)"],
  );
  const ds = diff(BASE, now);
  // The transfers whose parameters are typed in the unit changed as well.
  deepStrictEqual(ds.map((d) => d.code), ["E050", "E050", "E050", "E051", "E051"]);
  strictEqual(ds[0].line, STOCK_LINE + 1);
  strictEqual(ds[0].message.en, "the account stock changed since the base revision: unit pcs → boxes");
  strictEqual(ds[0].message.ja, "勘定 stock が前のリビジョンから変わっています: 単位 pcs → boxes");
  ok(ds[3].message.en.includes("qty: pcs) → (delivery: string, sku: string, qty: boxes)"), ds[3].message.en);
});

Deno.test("E050: the scale of an account's unit changed", () => {
  const ds = diff(BASE, edit(["unit USD scale 2", "unit USD scale 3"]));
  deepStrictEqual(ds.map((d) => d.code), ["E050", "E050", "E051"]);
  const [wallet, bank, topUp] = ds;
  strictEqual(wallet.line, WALLET_LINE);
  strictEqual(
    wallet.message.en,
    "the account wallet changed since the base revision: unit USD scale 2 → USD scale 3",
  );
  ok(bank.message.en.startsWith("the account bank "));
  ok(topUp.message.en.includes("amount: USD scale 2) → (slip: string, member: string, amount: USD scale 3)"));
});

Deno.test("E050: an account turned outside", () => {
  const now = edit([
    "account stock(sku: string) : pcs\n  at least 0 refused as out_of_stock",
    "account stock(sku: string) : pcs outside",
  ]);
  only(diff(BASE, now), "E050", STOCK_LINE, [
    "inside account → outside account",
    "at least 0 refused as out_of_stock → no lower bound",
  ], ["中の勘定 → 外の勘定", "at least 0 refused as out_of_stock → 下限なし"]);
});

Deno.test("E050: an account's parameters changed", () => {
  only(diff(BASE, edit(["account stock(sku: string)", "account stock(item: string)"])), "E050", STOCK_LINE, [
    "the account stock changed since the base revision: parameters (sku) → (item)",
  ], ["引数 (sku) → (item)"]);
});

Deno.test("E050: a bound's value changed, and a bound went away", () => {
  only(
    diff(BASE, edit(["at least 0 refused as out_of_stock", "at least 3 refused as out_of_stock"])),
    "E050",
    STOCK_LINE,
    [
      "the account stock changed since the base revision: at least 0 → at least 3",
    ],
    ["at least 0 → at least 3"],
  );
  only(
    diff(BASE, edit(["  at most 1000 refused as over_limit\n", "  at most 2000.50 refused as over_limit\n"])),
    "E050",
    WALLET_LINE,
    ["the account wallet changed since the base revision: at most 1000.00 → at most 2000.50"],
    ["at most 1000.00 → at most 2000.50"],
  );
  only(
    diff(
      edit(["at least 0 refused as short", "at least -500.00 refused as short"]),
      edit(["at least 0 refused as short", "at least -1000 refused as short"]),
    ),
    "E050",
    WALLET_LINE,
    ["the account wallet changed since the base revision: at least -500.00 → at least -1000.00"],
    ["勘定 wallet が前のリビジョンから変わっています: at least -500.00 → at least -1000.00"],
  );
  only(diff(BASE, edit(["  at most 1000 refused as over_limit\n", ""])), "E050", WALLET_LINE, [
    "at most 1000.00 refused as over_limit → no upper bound",
  ], ["at most 1000.00 refused as over_limit → 上限なし"]);
});

Deno.test("E050: a bound's reason changed", () => {
  only(diff(BASE, edit(["refused as out_of_stock", "refused as sold_out"])), "E050", STOCK_LINE, [
    "at least 0 refused as out_of_stock → at least 0 refused as sold_out",
  ], ["at least 0 refused as out_of_stock → at least 0 refused as sold_out"]);
});

Deno.test("E050: several changes to one account are one diagnostic", () => {
  const d = only(
    diff(
      BASE,
      edit(["account stock(sku: string)", "account stock(item: string)"], ["at least 0", "at least 1"]),
    ),
    "E050",
    STOCK_LINE,
    ["parameters (sku) → (item); at least 0 → at least 1"],
    ["引数 (sku) → (item)、at least 0 → at least 1"],
  );
  ok(d.hint!.en.includes("new name"));
});

Deno.test("E051: a parameter's type changed, and the parameters were reordered", () => {
  const typed = BASE.replace(
    "pay(order: string, member: string)",
    "pay(order: string, member: string, memo: string)",
  );
  only(
    diff(typed, typed.replace("memo: string", "memo: USD")),
    "E051",
    PAY_LINE,
    ["the transfer pay changed since the base revision: parameters (order: string, member: string, memo: string) → (order: string, member: string, memo: USD scale 2)"],
    ["振替 pay が前のリビジョンから変わっています: 引数 (order: string, member: string, memo: string) → (order: string, member: string, memo: USD scale 2)"],
  );
  only(
    diff(BASE, edit(["receive(delivery: string, sku: string", "receive(sku: string, delivery: string"])),
    "E051",
    RECEIVE_LINE,
    ["parameters (delivery: string, sku: string, qty: pcs) → (sku: string, delivery: string, qty: pcs)"],
    ["引数 (delivery: string, sku: string, qty: pcs) → (sku: string, delivery: string, qty: pcs)"],
  );
});

Deno.test("E051: the key changed", () => {
  only(diff(BASE, edit(["key delivery, sku", "key delivery"])), "E051", RECEIVE_LINE, [
    "the transfer receive changed since the base revision: key delivery, sku → key delivery",
  ], ["key delivery, sku → key delivery"]);
  only(diff(BASE, edit(["key delivery, sku", "key sku, delivery"])), "E051", RECEIVE_LINE, [
    "key delivery, sku → key sku, delivery",
  ], []);
});

Deno.test("E051: a transfer started holding, and one stopped", () => {
  only(
    diff(BASE, edit(["key delivery, sku\n", "key delivery, sku\n  pending never expires\n"])),
    "E051",
    RECEIVE_LINE,
    ["no pending (done at once) → pending never expires"],
    ["pending なし(すぐに確定) → pending never expires"],
  );
  const d = only(diff(BASE, edit(["  pending expires after 30 minutes\n", ""])), "E051", RESERVE_LINE, [
    "pending expires after 30 minutes → no pending (done at once)",
  ], ["pending expires after 30 minutes → pending なし(すぐに確定)"]);
  ok(d.hint!.en.includes("key_conflict"));
});

Deno.test("E051: the expiry of a hold changed", () => {
  only(diff(BASE, edit(["after 30 minutes", "after 2 hours"])), "E051", RESERVE_LINE, [
    "pending expires after 30 minutes → pending expires after 2 hours",
  ], ["pending expires after 30 minutes → pending expires after 2 hours"]);
  only(diff(BASE, edit(["after 30 minutes", "after 3600 seconds"])), "E051", RESERVE_LINE, [
    "after 30 minutes → pending expires after 1 hour",
  ], []);
  only(diff(BASE, edit(["after 30 minutes", "after 90 seconds"])), "E051", RESERVE_LINE, [
    "after 30 minutes → pending expires after 90 seconds",
  ], []);
  only(
    diff(BASE, edit(["pending expires after 30 minutes", "pending never expires"])),
    "E051",
    RESERVE_LINE,
    [
      "pending expires after 30 minutes → pending never expires",
    ],
    [],
  );
});

Deno.test("E051: a move changed, was added, or its amount changed", () => {
  only(
    diff(BASE, edit(["from stock(sku) to customers", "from stock(sku) to suppliers"])),
    "E051",
    RESERVE_LINE,
    [
      "move 1: move qty from stock(sku) to customers → move qty from stock(sku) to suppliers",
    ],
    ["1 つ目の移動: move qty from stock(sku) to customers → move qty from stock(sku) to suppliers"],
  );
  only(
    diff(
      BASE,
      edit([
        "  move qty from suppliers to stock(sku)\n",
        "  move qty from suppliers to stock(sku)\n  move 1 from suppliers to stock(sku)\n",
      ]),
    ),
    "E051",
    RECEIVE_LINE,
    ["move 2: none → move 1 from suppliers to stock(sku)"],
    ["2 つ目の移動: なし → move 1 from suppliers to stock(sku)"],
  );
  only(diff(BASE, edit(["move 2.50 from", "move 3 from"])), "E051", PAY_LINE, [
    "move 1: move 2.50 from wallet(member) to bank → move 3.00 from wallet(member) to bank",
  ], []);
});

Deno.test("W107: an account kind was removed", () => {
  const now = edit(
    ["account customers : pcs outside\n", ""],
    [
      "transfer reserve(order: string, sku: string, qty: pcs)\n  key order, sku\n  pending expires after 30 minutes\n  move qty from stock(sku) to customers\n\n",
      "",
    ],
  );
  const ds = diff(BASE, now);
  deepStrictEqual(ds.map((d) => [d.code, d.line, d.col, d.excerpt]), [["W107", 0, 0, null], [
    "W107",
    0,
    0,
    null,
  ]]);
  strictEqual(
    ds[0].message.en,
    "the account customers of the base revision is gone: its balances stay in the database, and this book no longer reaches them",
  );
  strictEqual(
    ds[0].message.ja,
    "前のリビジョンにあった勘定 customers がありません。残高はデータベースに残り、この帳簿からはもう触れません",
  );
  strictEqual(
    ds[1].message.en,
    "the transfer reserve of the base revision is gone: its holds stay in the database, and this book can no longer post or void them",
  );
});

Deno.test("W107: a transfer kind that does not hold was removed", () => {
  only(
    diff(
      BASE,
      edit([
        "\ntransfer pay(order: string, member: string)\n  key order, member\n  move 2.50 from wallet(member) to bank\n",
        "",
      ]),
    ),
    "W107",
    0,
    ["the transfer pay of the base revision is gone: the balances it moved and its keys stay in the database"],
    ["前のリビジョンにあった振替 pay がありません"],
  );
});

Deno.test("W107: the book was renamed", () => {
  const d = only(diff(BASE, edit(["book shop v1", "book store v2"])), "W107", 1, [
    "the book was renamed from shop to store",
    "the balances and holds under shop stay in the database",
  ], ["帳簿の名前が shop から store に変わっています"]);
  strictEqual(d.excerpt, "book store v2");
});

Deno.test("no diagnostic: a new version, new descriptions, additions, reordering, the same values written differently", () => {
  const now = edit(
    ['book shop v1\ndescription "a small shop"', 'book shop v7\ndescription "the shop, with gift cards"'],
    ["unit USD scale 2\n", "unit USD scale 2\nunit cards\n"],
    [
      "account stock(sku: string) : pcs\n  at least 0 refused as out_of_stock\n",
      "",
    ],
    [
      "account bank : USD outside\n",
      'account bank : USD outside\naccount stock(sku: string) : pcs\n  description "on the shelf"\n  at least 0 refused as out_of_stock\naccount gift_cards(member: string) : cards\n  at least 0 refused as no_cards\naccount printer : cards outside\n',
    ],
    ["pending expires after 30 minutes", "pending expires after 1800 seconds"],
    ["move 2.50 from", "move 2.5 from"],
    ["key order, member\n", 'description "paying at the till"\n  key order, member\n'],
  ) + `
transfer issue(slip: string, member: string, n: cards)
  key slip, member
  move n from printer to gift_cards(member)

transfer redeem(slip: string, member: string, n: cards)
  key slip, member
  move n from gift_cards(member) to printer
`;
  strictEqual(checkBook("x.book", now).diagnostics.length, 0);
  deepStrictEqual(diff(BASE, now), []);
});

Deno.test("diagnostics come in base order: accounts, then transfers, then the book's name", () => {
  const now = edit(
    ["book shop v1", "book store v1"],
    ["at most 1000", "at most 10"],
    ["at least 0 refused as out_of_stock", "at least 1 refused as out_of_stock"],
    ["key delivery, sku", "key sku"],
    [
      "\ntransfer pay(order: string, member: string)\n  key order, member\n  move 2.50 from wallet(member) to bank\n",
      "",
    ],
    ["after 30 minutes", "after 1 day"],
  );
  deepStrictEqual(
    diff(BASE, now).map((d) => `${d.code}:${d.line}:${d.message.en.split(" ").slice(0, 3).join(" ")}`),
    [
      `E050:${STOCK_LINE}:the account stock`,
      `E050:${WALLET_LINE}:the account wallet`,
      `E051:${RECEIVE_LINE}:the transfer receive`,
      `E051:${RESERVE_LINE}:the transfer reserve`,
      "W107:0:the transfer pay",
      "W107:1:the book was",
    ],
  );
});

Deno.test("every registry example of E050, E051 and W107 gives exactly its code", () => {
  const examples = CODES.filter((c) => c.stage.kind === "diff");
  deepStrictEqual(examples.map((c) => c.code), ["E050", "E051", "W107"]);
  for (const c of examples) {
    if (c.stage.kind !== "diff") continue;
    deepStrictEqual(diff(c.stage.before, c.example).map((d) => d.code), [c.code], c.code);
  }
});

/** The fixture pairs: `<name>.before.book` at the base, `<name>.book` now; Japanese names and English twins. */
const PAIRS = [
  { ja: "勘定の変更", en: "account_change", code: "E050" },
  { ja: "振替の変更", en: "transfer_change", code: "E051" },
  { ja: "消した振替", en: "removed_transfer", code: "W107" },
] as const;

Deno.test("every fixture pair is clean on its own and gives exactly its code; twins agree", () => {
  for (const pair of PAIRS) {
    const found: string[][] = [];
    for (const name of [pair.ja, pair.en]) {
      const texts = [`${name}.before.book`, `${name}.book`].map((file) => {
        const text = Deno.readTextFileSync(FIXTURES + file);
        deepStrictEqual(checkBook(file, text).diagnostics.map((d) => d.code), [], file);
        return text;
      });
      const ds = diff(texts[0], texts[1]);
      deepStrictEqual(ds.map((d) => d.code), [pair.code], name);
      found.push(ds.map((d) => `${d.code}:${d.line}:${d.col}`));
    }
    deepStrictEqual(found[0], found[1], pair.en);
  }
});

Deno.test("every book in fixtures/diff/ belongs to a listed pair", () => {
  const listed = PAIRS.flatMap((p) => [p.ja, p.en]).flatMap((n) => [`${n}.book`, `${n}.before.book`]).sort();
  const present = [...Deno.readDirSync(FIXTURES)].map((e) => e.name).sort();
  deepStrictEqual(present, listed);
});

/** Runs git in `dir` with an identity of its own, so the test needs no git configuration. */
function git(dir: string, ...args: string[]): void {
  const out = new Deno.Command("git", {
    args: [
      "-C",
      dir,
      "-c",
      "user.name=chobo test",
      "-c",
      "user.email=test@example.invalid",
      "-c",
      "commit.gpgsign=false",
      ...args,
    ],
    stdin: "null",
  }).outputSync();
  strictEqual(out.code, 0, new TextDecoder().decode(out.stderr));
}

Deno.test("examples/bound-change: v2 beside v1 gives nothing, raising card's cap in place gives E050", () => {
  const dir = new URL("../../examples/bound-change/", import.meta.url).pathname;
  const v1 = Deno.readTextFileSync(`${dir}v1.book`);
  deepStrictEqual(diff(v1, Deno.readTextFileSync(`${dir}v2.book`)), []);
  const inPlace = v1.replace("giftcards v1", "giftcards v2").replace(
    "  at most 500.00 refused",
    "  at most 1000.00 refused",
  );
  only(diff(v1, inPlace), "E050", 7, ["at most 500.00 → at most 1000.00"], ["at most 1000.00"]);
});

Deno.test("readAtRevision reads a committed file, and says why when it cannot", () => {
  const repo = Deno.makeTempDirSync({ prefix: "chobo_git_" });
  const outside = Deno.makeTempDirSync({ prefix: "chobo_nogit_" });
  try {
    git(repo, "init", "--quiet");
    Deno.mkdirSync(`${repo}/books`);
    const path = `${repo}/books/在庫.book`;
    Deno.writeTextFileSync(path, "book 在庫 v1\n");
    git(repo, "add", ".");
    git(repo, "commit", "--quiet", "-m", "v1");
    Deno.writeTextFileSync(path, "book 在庫 v2\n");
    Deno.writeTextFileSync(`${repo}/books/new.book`, "book new v1\n");

    deepStrictEqual(readAtRevision(path, "HEAD"), { text: "book 在庫 v1\n" });
    deepStrictEqual(readAtRevision(`${repo}/books/../books/在庫.book`, "HEAD"), { text: "book 在庫 v1\n" });

    deepStrictEqual(readAtRevision(`${repo}/books/new.book`, "HEAD"), { absent: true });
    const errors = [
      readAtRevision(path, "no-such-rev"),
      readAtRevision(path, "--output=x"),
      readAtRevision(`${repo}/books`, "HEAD"),
      readAtRevision(`${outside}/在庫.book`, "HEAD"),
    ].map((r) => {
      ok("error" in r, JSON.stringify(r));
      ok(!r.error.en.includes("\n") && !r.error.ja.includes("\n") && r.error.en !== r.error.ja);
      return r.error.en;
    });
    strictEqual(errors[0], `no-such-rev is not a revision in the repository of ${path}`);
    strictEqual(errors[1], `--output=x is not a revision in the repository of ${path}`);
    strictEqual(errors[2], `${repo}/books at revision HEAD is not a file`);
    strictEqual(errors[3], `${outside}/在庫.book is not in a git work tree, so it has no revision HEAD`);
  } finally {
    Deno.removeSync(repo, { recursive: true });
    Deno.removeSync(outside, { recursive: true });
  }
});
