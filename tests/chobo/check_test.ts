/**
 * `chobo check` on the fixture books: every diagnostic in English and Japanese, text and JSON,
 * pinned by golden files; Japanese-named fixtures and their English twins report the same codes.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { checkBook } from "../../lang/chobo/check.ts";
import { renderDiagnostic } from "../../lang/common/diagnostic.ts";
import { emittedChoboCodes } from "../support/codes.ts";
import { assertGolden } from "../support/golden.ts";
import { runCli } from "../support/run.ts";

const FIXTURES = new URL("./fixtures/", import.meta.url).pathname;
const BOOKS = new URL("./books/", import.meta.url).pathname;
const GOLDEN = new URL("./golden/check/", import.meta.url).pathname;

interface Twin {
  readonly ja: string;
  readonly en: string;
  readonly codes: readonly string[];
}
const TWINS: readonly Twin[] = JSON.parse(Deno.readTextFileSync(`${FIXTURES}expect.json`));

/** Runs `chobo check <name>` with the file in memory, so diagnostics show the bare name. */
function checkFixture(dir: string, name: string, lang: "en" | "ja", format: "text" | "json") {
  return runCli(["chobo", "check", name, "--lang", lang, "--format", format], {
    files: { [name]: Deno.readFileSync(dir + name) },
  });
}

function codesOf(dir: string, name: string): string[] {
  const out = JSON.parse(checkFixture(dir, name, "en", "json").stdout);
  return [...new Set<string>(out.files[0].diagnostics.map((d: { code: string }) => d.code))].sort();
}

Deno.test("every fixture and its twin report the expected codes and exit codes", () => {
  for (const twin of TWINS) {
    for (const name of [twin.ja, twin.en]) {
      deepStrictEqual(codesOf(FIXTURES, name), [...twin.codes], name);
      const errors = twin.codes.some((c) => c.startsWith("E"));
      for (const lang of ["en", "ja"] as const) {
        strictEqual(checkFixture(FIXTURES, name, lang, "text").code, errors ? 1 : 0, `${name} ${lang}`);
      }
    }
  }
});

Deno.test("every fixture book is listed once in expect.json", () => {
  const listed = TWINS.flatMap((t) => [t.ja, t.en]).sort();
  const present = [...Deno.readDirSync(FIXTURES)].map((e) => e.name).filter((n) => n.endsWith(".book"))
    .sort();
  deepStrictEqual(listed, present);
  strictEqual(new Set(listed).size, listed.length);
});

const DIFF = `${FIXTURES}diff/`;
/** The `--diff-base` fixtures: `<name>.book` now, `<name>.before.book` at the base revision. */
const DIFF_BOOKS = [...Deno.readDirSync(DIFF)].map((e) => e.name)
  .filter((n) => n.endsWith(".book") && !n.endsWith(".before.book")).sort();

function checkAgainstBase(name: string) {
  const before = DIFF + name.replace(/\.book$/, ".before.book");
  const base = checkBook(before, Deno.readTextFileSync(before)).book!;
  return checkBook(name, Deno.readTextFileSync(DIFF + name), { base }).diagnostics;
}

Deno.test("golden output of every --diff-base fixture, English and Japanese", () => {
  for (const name of DIFF_BOOKS) {
    const diagnostics = checkAgainstBase(name);
    ok(diagnostics.length > 0, name);
    for (const lang of ["en", "ja"] as const) {
      const text = diagnostics.map((d) => renderDiagnostic(d, lang)).join("");
      assertGolden(`${GOLDEN}diff/${name.replace(/\.book$/, "")}.${lang}.txt`, text);
    }
  }
});

Deno.test("every code the checker emits has a fixture", () => {
  const covered = new Set(TWINS.flatMap((t) => t.codes));
  for (const name of DIFF_BOOKS) for (const d of checkAgainstBase(name)) covered.add(d.code);
  // E060 and E061 are a build's: their fixtures are tests/chobo/fixtures/build/ (tigerbeetle_test, postgres_test).
  for (const code of emittedChoboCodes()) {
    if (code !== "E060" && code !== "E061") ok(covered.has(code), `no fixture reports ${code}`);
  }
});

Deno.test("golden output of every fixture and test book, English and Japanese, text and JSON", () => {
  const books = [
    ...TWINS.flatMap((t) => [t.ja, t.en]).map((name) => [FIXTURES, name] as const),
    ...[...Deno.readDirSync(BOOKS)].filter((e) => e.name.endsWith(".book")).map((e) =>
      [BOOKS, e.name] as const
    ),
  ];
  for (const [dir, name] of books) {
    for (const lang of ["en", "ja"] as const) {
      const stem = name.replace(/\.book$/, "");
      assertGolden(`${GOLDEN}${stem}.${lang}.txt`, checkFixture(dir, name, lang, "text").stdout);
      assertGolden(`${GOLDEN}${stem}.${lang}.json`, checkFixture(dir, name, lang, "json").stdout);
    }
  }
});

Deno.test("在庫.book and the English inventory book print `<file>: ok` first and exit 0 in both languages", () => {
  for (
    const path of [
      "tests/chobo/books/在庫.book",
      "examples/inventory/inventory.book",
      "examples/inventory/inventory.ja.book",
    ]
  ) {
    for (const lang of ["en", "ja"]) {
      const run = runCli(["chobo", "check", path, "--lang", lang]);
      strictEqual(run.code, 0);
      strictEqual(run.stdout.split("\n")[0], `${path}: ok`);
    }
  }
});

Deno.test("a syntax error stops before names are resolved; a name error stops before behaviour checks", () => {
  const syntax = checkBook("a.book", "book a v1\nunit pcs\nacount x : pcs\naccount y : kg\n").diagnostics;
  deepStrictEqual(syntax.map((d) => d.code), ["E001"]);
  const names = checkBook(
    "b.book",
    "book b v1\nunit pcs\nunit kg\naccount y : kg outside\naccount z : lb outside\n",
  ).diagnostics;
  deepStrictEqual(names.map((d) => d.code), ["E002"], "W105 for the unused unit pcs must wait");
});

Deno.test("W901 is reported even in a book with syntax errors, and never quotes the key", () => {
  const key = "AKIA" + "Q".repeat(16);
  const run = runCli(["chobo", "check", "k.book", "--format", "json"], {
    files: { "k.book": `book k v1\n# ${key}\nbroken line here\n` },
  });
  const diags = JSON.parse(run.stdout).files[0].diagnostics;
  deepStrictEqual(diags.map((d: { code: string }) => d.code).sort(), ["E001", "W901"]);
  ok(!run.stdout.includes(key));
  const w901 = diags.find((d: { code: string }) => d.code === "W901");
  strictEqual(w901.excerpt, "");
  ok(w901.message.includes("AKIA") && w901.message.includes("20"));
});

Deno.test("a quoted line masks a key on it", () => {
  const key = "ghp_" + "a1".repeat(18);
  const diags = checkBook("m.book", `book m v1\nunit pcs ${key}\n`).diagnostics;
  const e001 = diags.find((d) => d.code === "E001")!;
  ok(e001.excerpt !== null && !e001.excerpt.includes(key) && e001.excerpt.includes("ghp_…"));
});

Deno.test("text that is not UTF-8 is one E001 at its first bad byte", () => {
  const bytes = new Uint8Array([...new TextEncoder().encode("book x v1\nunit "), 0xff, 0x0a]);
  const run = runCli(["chobo", "check", "x.book"], { files: { "x.book": bytes } });
  strictEqual(run.code, 1);
  ok(run.stdout.startsWith("error[E001]: x.book:2:6: the file is not UTF-8 text"), run.stdout);
});

Deno.test("the W103 and W104 diagnostics of the order fixtures, character for character", () => {
  const expected: [string, "en" | "ja", string][] = [
    [
      "order.book",
      "en",
      `warning[W103]: order.book:15:3: move 1 takes from shop_sales(shop) before move 2 puts into it: when shop_sales(shop) is short at that point, the call is refused with sales_short, even when the two moves together would leave enough
    15 |   move fee from shop_sales(shop) to fee_income
  the operations that get there:
       1  sale.do(order: order-1, shop: shop-2, price: 1, fee: 1)  refused: sales_short (move 1 takes 1 from shop_sales(shop-2): posted 0, held out 0)
  hint: write the move that puts into shop_sales(shop) first
`,
    ],
    [
      "hold_order.book",
      "en",
      `warning[W104]: hold_order.book:14:3: in a hold, what move 1 puts into held(order) is held coming in, and does not count when move 2 takes from held(order): unless held(order) has enough already, the hold is refused with held_short
    14 |   move price from held(order) to shop_payout
  the operations that get there:
       1  settle.hold(order: order-1, price: 1)  refused: held_short (move 2 takes 1 from held(order-1): posted 0, held out 0, held in 1)
  hint: have what it takes in held(order) beforehand, or take it in another transfer after the hold is posted
`,
    ],
    [
      "順序.book",
      "en",
      `warning[W103]: 順序.book:15:3: move 1 takes from 店の売上(店) before move 2 puts into it: when 店の売上(店) is short at that point, the call is refused with 売上不足, even when the two moves together would leave enough
    15 |   move 手数料 from 店の売上(店) to 手数料収入
  the operations that get there:
       1  売上.do(注文: 注文-1, 店: 店-2, 代金: 1, 手数料: 1)  refused: 売上不足 (move 1 takes 1 from 店の売上(店-2): posted 0, held out 0)
  hint: write the move that puts into 店の売上(店) first
`,
    ],
    [
      "仮押さえの順序.book",
      "ja",
      `警告[W104]: 仮押さえの順序.book:14:3: 仮押さえでは、1 つ目の移動が 預り(注文) へ入れる額は入ってくる仮押さえになり、2 つ目の移動が 預り(注文) から取るときに数えられません。預り(注文) にはじめから足りるだけの残高が無ければ、預り不足 で拒否されます
    14 |   move 代金 from 預り(注文) to 店への支払
  そうなる例:
       1  決済.hold(注文: 注文-1, 代金: 1)  預り不足 で拒否される(2 つ目の移動が 預り(注文-1) から 1 を取ろうとしたときの残高は、確定 0、出ていく仮押さえ 0、入ってくる仮押さえ 1)
  ヒント: 取る分をはじめから 預り(注文) に入れておくか、確定のあとで取る別の振替にしてください
`,
    ],
  ];
  for (const [name, lang, text] of expected) {
    const run = checkFixture(FIXTURES, name, lang, "text");
    ok(run.stdout.startsWith(text), `${name}:\n${run.stdout}`);
  }
});

Deno.test("acceptance: W104's book with its two moves swapped still gets W104, at the move that takes", () => {
  const run = checkFixture(FIXTURES, "hold_order_swapped.book", "en", "text");
  ok(
    run.stdout.startsWith(
      `warning[W104]: hold_order_swapped.book:14:3: in a hold, what move 2 puts into held(order) is held coming in, and does not count when move 1 takes from held(order): unless held(order) has enough already, the hold is refused with held_short
    14 |   move price from held(order) to shop_payout
  the operations that get there:
       1  settle.hold(order: order-1, price: 1)  refused: held_short (move 1 takes 1 from held(order-1): posted 0, held out 0)
`,
    ),
    run.stdout,
  );
});

Deno.test("acceptance: an unknown keyword or name is one diagnostic with the nearest name, in both languages", () => {
  const hints = (name: string, lang: "en" | "ja") =>
    JSON.parse(checkFixture(FIXTURES, name, lang, "json").stdout).files[0].diagnostics.map((
      d: { hint: string },
    ) => d.hint);
  deepStrictEqual(hints("misspelt_words.book", "en"), [
    "did you mean `account`?",
    "did you mean `move`?",
    "did you mean `least`?",
  ]);
  deepStrictEqual(hints("misspelt_names.book", "ja"), [
    "`JPY` のことですか?",
    "`wallet` のことですか?",
    "`amount` のことですか?",
    "`member` のことですか?",
  ]);
  deepStrictEqual(hints("綴りの誤り_名前.book", "ja").slice(1, 3), [
    "`ウォレット` のことですか?",
    "`手数料額` のことですか?",
  ]);
});

Deno.test("the report of 在庫.book after the diagnostics, character for character, in both languages", () => {
  const en = `在庫.book: ok
  入荷.do    may be refused: key_conflict
  引当.hold  may be refused: 在庫切れ (在庫(sku) at least 0), key_conflict, already_refused
  引当.post  may be refused: key_conflict, already_voided, expired, over_hold, no_such_hold
  引当.void  may be refused: already_posted, expired, no_such_hold
  返品.do    may be refused: key_conflict
  key: 入荷 once per 納品書, sku; a second call that differs only in 数 is refused with key_conflict
  key: 引当 once per 注文, sku; a second call that differs only in 数 is refused with key_conflict; holding again with the same key after the hold has ended answers done_before and holds nothing
  key: 返品 once per 返品伝票, sku; a second call that differs only in 数 is refused with key_conflict
`;
  const ja = `在庫.book: ok
  入荷.do    拒否されうる理由: key_conflict
  引当.hold  拒否されうる理由: 在庫切れ(在庫(sku) at least 0)、key_conflict、already_refused
  引当.post  拒否されうる理由: key_conflict、already_voided、expired、over_hold、no_such_hold
  引当.void  拒否されうる理由: already_posted、expired、no_such_hold
  返品.do    拒否されうる理由: key_conflict
  キー: 入荷 は、納品書 と sku の組ごとに一度だけ動きます。キーが同じで 数 が違う二度目の呼び出しは、key_conflict で拒否されます。
  キー: 引当 は、注文 と sku の組ごとに一度だけ動きます。キーが同じで 数 が違う二度目の呼び出しは、key_conflict で拒否されます。仮押さえが終わったあとに同じキーでもう一度押さえると、done_before が返り、何も押さえません。
  キー: 返品 は、返品伝票 と sku の組ごとに一度だけ動きます。キーが同じで 数 が違う二度目の呼び出しは、key_conflict で拒否されます。
`;
  strictEqual(checkFixture(BOOKS, "在庫.book", "en", "text").stdout, en);
  strictEqual(checkFixture(BOOKS, "在庫.book", "ja", "text").stdout, ja);
});
