/**
 * `dandori check` on the test flows: every fixture and its twin report the expected codes and exit
 * codes; every output is pinned by golden files in English and Japanese, text and JSON; the
 * acceptance flows of the book's holds; the diagnostic docs/design/dandori.md prints, character for character;
 * the stop rules; every file of tests/ parses in under 50 ms (the fastest of three parses).
 */

import { NO_SUCH_FILE } from "../../lang/dandori/env.ts";
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { Reporter } from "../../lang/common/reporter.ts";
import type { DandoriCode } from "../../lang/dandori/codes.ts";
import { checkFlow } from "../../lang/dandori/check.ts";
import { parseFlow } from "../../lang/dandori/syntax.ts";
import { assertGolden } from "../support/golden.ts";
import { type Run, runCli } from "../support/run.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const FLOWS = "tests/dandori/flows/";
const GOLDEN = `${ROOT}tests/dandori/golden/`;

interface Twin {
  readonly en: string;
  readonly ja: string;
  readonly codes: readonly string[];
  readonly exit: number;
}
const TWINS: readonly Twin[] = JSON.parse(Deno.readTextFileSync(`${ROOT}${FLOWS}expect.json`));

/** Runs `dandori <argv>` in-process: files from `files` when given, else from the disk. */
function dandori(argv: readonly string[], files?: Record<string, string | Uint8Array>): Run {
  return runCli(["dandori", ...argv], files === undefined ? {} : { files });
}

function check(name: string, lang: "en" | "ja", format: "text" | "json"): Run {
  return dandori(["check", FLOWS + name, "--lang", lang, "--format", format]);
}

function codesOf(name: string): string[] {
  const out = JSON.parse(check(name, "en", "json").stdout);
  return [...new Set<string>(out.files[0].diagnostics.map((d: { code: string }) => d.code))].sort();
}

/** Every `.flow` under a directory of the repository, as paths from that directory. */
function flowsUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (sub: string) => {
    for (const e of Deno.readDirSync(ROOT + dir + sub)) {
      if (e.isDirectory) walk(`${sub}${e.name}/`);
      else if (e.name.endsWith(".flow")) out.push(sub + e.name);
    }
  };
  walk("");
  return out.sort();
}

Deno.test("every fixture and its twin report the expected codes and exit codes, in both languages", () => {
  for (const twin of TWINS) {
    for (const name of [twin.en, twin.ja]) {
      deepStrictEqual(codesOf(name), [...twin.codes].sort(), name);
      for (const lang of ["en", "ja"] as const) {
        strictEqual(check(name, lang, "text").code, twin.exit, `${name} ${lang}`);
      }
    }
  }
});

Deno.test("every flow of tests/dandori/flows is listed once in expect.json, but the parser's tour", () => {
  const listed = TWINS.flatMap((t) => [t.en, t.ja]).sort();
  deepStrictEqual(listed, flowsUnder(FLOWS).filter((n) => n !== "syntax_tour.flow"));
  strictEqual(new Set(listed).size, listed.length);
});

Deno.test("golden output of every test flow, English and Japanese, text and JSON", () => {
  for (const name of flowsUnder(FLOWS)) {
    const stem = name.replace(/\.flow$/, "");
    for (const lang of ["en", "ja"] as const) {
      assertGolden(`${GOLDEN}${stem}.${lang}.txt`, check(name, lang, "text").stdout);
      assertGolden(`${GOLDEN}${stem}.${lang}.json`, check(name, lang, "json").stdout);
    }
  }
});

Deno.test("acceptance: a flow that holds, posts when paid, voids when not and handles expired passes with no warning", () => {
  for (const name of ["order_stock.flow", "在庫の引当.flow"]) {
    for (const lang of ["en", "ja"] as const) {
      const run = check(name, lang, "text");
      strictEqual(run.code, 0);
      strictEqual(run.stdout, `${FLOWS}${name}: ok\n`);
    }
  }
});

Deno.test("acceptance: without its handling of expired, E022 names expired with the steps that get there", () => {
  const run = check("order_stock_no_expired.flow", "en", "json");
  const diags = JSON.parse(run.stdout).files[0].diagnostics;
  strictEqual(run.code, 1);
  deepStrictEqual(diags.map((d: { code: string }) => d.code), ["E022", "E022"]);
  const post = diags[0];
  ok(post.message.includes("`post` with `expired`"), post.message);
  deepStrictEqual(post.operations, [
    "  45  reserve: goods starts in held",
    "  49  match payment.paid: true",
    "      outside, `expire` happens: goods held → expired",
  ]);
  ok(diags[1].message.includes("`void` with `expired`"), diags[1].message);
});

Deno.test("acceptance: without the void, E020 says the hold is left held, with the steps", () => {
  const text = check("order_stock_no_void.flow", "en", "text").stdout;
  strictEqual(
    text,
    `error[E020]: tests/dandori/flows/order_stock_no_void.flow:53:1: the workflow can end here with the case \`goods\` in held, which is not final (posted, voided, expired are)
    53 |     false => succeed outcome = cancelled
  the operations that get there:
      45  reserve: goods starts in held
      53  match payment.paid: false
      53  succeed
  hint: settle the case before the end, or hand it over with \`fail … leaving goods\`
tests/dandori/flows/order_stock_no_void.flow: 1 error
`,
  );
});

Deno.test("acceptance: a bool match without false is E010; a book argument the transfer lacks is E016; use rule is E018 and exit 2", () => {
  ok(
    check("paid_match.flow", "en", "text").stdout.startsWith(
      "error[E010]: tests/dandori/flows/paid_match.flow:16:1: `match` has no arm for false",
    ),
  );
  const e016 = check("book_argument.flow", "en", "text");
  ok(
    e016.stdout.startsWith(
      "error[E016]: tests/dandori/flows/book_argument.flow:7:59: `payment.do` takes no argument `memo`",
    ),
    e016.stdout,
  );
  const rule = check("uses_rule.flow", "en", "text");
  strictEqual(rule.code, 2);
  ok(
    rule.stdout.startsWith(
      "error[E018]: tests/dandori/flows/uses_rule.flow:4:1: this dandori cannot read rules",
    ),
    rule.stdout,
  );
  strictEqual(rule.stdout.split("error[").length, 2, "one E018, nothing that follows from it");
});

Deno.test("acceptance: a misspelt book operation is one E007 with the operation meant, and nothing that follows from it", () => {
  for (
    const [name, lang, hint] of [
      ["misspelt_operation.flow", "en", "did you mean `post`?"],
      ["操作の綴り.flow", "ja", "`post` のことですか?"],
    ] as const
  ) {
    const run = check(name, lang, "json");
    const diags = JSON.parse(run.stdout).files[0].diagnostics;
    strictEqual(run.code, 1);
    deepStrictEqual(diags.map((d: { code: string }) => d.code), ["E007"], name);
    strictEqual(diags[0].hint, hint);
  }
});

Deno.test("acceptance: an unknown keyword or name is one diagnostic with the nearest name, in both languages", () => {
  const hints = (name: string, lang: "en" | "ja") =>
    JSON.parse(check(name, lang, "json").stdout).files[0].diagnostics.map((d: { hint: string }) => d.hint);
  deepStrictEqual(hints("misspelt_words.flow", "en"), [
    "did you mean `task`?",
    "did you mean `lambda`?",
    "did you mean `wait`?",
  ]);
  deepStrictEqual(hints("misspelt_names.flow", "en"), [
    "did you mean `Order`?",
    "did you mean `wallet`?",
    "did you mean `unreachable`?",
    "did you mean `ping`?",
    "did you mean `address`?",
  ]);
  deepStrictEqual(hints("綴りの誤り_名前.flow", "ja"), [
    "`注文書` のことですか?",
    "`ウォレット` のことですか?",
    "`届かない` のことですか?",
    "`呼び出す` のことですか?",
    "`届け先` のことですか?",
  ]);
});

Deno.test("the E022 docs/design/dandori.md#holds-of-a-book prints for book_refusals.flow, character for character", () => {
  const text = check("book_refusals.flow", "ja", "text").stdout;
  const page = Deno.readTextFileSync(`${ROOT}docs/design/dandori.md`);
  const printed = [...page.matchAll(/```text\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) =>
    b.includes("[E022]")
  );
  ok(printed !== undefined, "the page prints an E022");
  ok(text.startsWith(printed), text);
});

Deno.test("a refusal-only handler takes only the refusals' states; one joined with timeout takes the rest too", () => {
  const diags = JSON.parse(check("book_refusals_joined.flow", "en", "json").stdout).files[0].diagnostics;
  deepStrictEqual(diags.map((d: { code: string; line: number }) => `${d.code}:${d.line}`), ["E020:45"]);
});

Deno.test("a syntax error stops before names; a name error stops before the checks along the flow", () => {
  const syntax = checkFlow("a.flow", "workflow a v1\nflow\n  wiat 3 days\n  let x = nope\n", {
    read: () => NO_SUCH_FILE,
  });
  deepStrictEqual(syntax.diagnostics.map((d) => d.code), ["E001"]);
  const names = checkFlow(
    "b.flow",
    "workflow b v1\ntask t(x: int range >=1 <=3)\nflow\n  t(x: 9)\n  let y = nope\n",
    { read: () => NO_SUCH_FILE },
  );
  deepStrictEqual(names.diagnostics.map((d) => d.code), ["E002"], "E014 of line 4 must wait");
});

Deno.test("E018 in one file makes the exit 2 even beside a file with errors; JSON has both", () => {
  const run = dandori(["check", "u.flow", "e.flow", "--format", "json"], {
    "u.flow": 'workflow u v1\nuse dates terms from "t.cal"\nflow\n  pass\n',
    "e.flow": "workflow e v1\nflow\n  break\n",
  });
  strictEqual(run.code, 2);
  const files = JSON.parse(run.stdout).files;
  deepStrictEqual(files.map((f: { diagnostics: { code: string }[] }) => f.diagnostics.map((d) => d.code)), [[
    "E018",
  ], ["E009"]]);
});

Deno.test("W901 is reported even in a flow with syntax errors, never quotes the key, and quoted lines mask it", () => {
  const key = "ghp_" + "a1".repeat(18);
  const run = dandori(["check", "k.flow", "--format", "json"], {
    "k.flow": `workflow k v1\n# ${key}\nflow\n  wiat ${key}\n`,
  });
  strictEqual(run.code, 1);
  ok(!run.stdout.includes(key));
  const diags = JSON.parse(run.stdout).files[0].diagnostics;
  deepStrictEqual(diags.map((d: { code: string }) => d.code), ["W901", "E001", "W901"]);
  ok(diags[1].excerpt.includes("ghp_…"), diags[1].excerpt);
});

Deno.test("text that is not UTF-8 is one E001 at its first bad byte; a missing file is said on stderr", () => {
  const bytes = new Uint8Array([...new TextEncoder().encode("workflow x v1\nflow\n  "), 0xff, 0x0a]);
  const run = dandori(["check", "x.flow"], { "x.flow": bytes });
  strictEqual(run.code, 1);
  ok(run.stdout.startsWith("error[E001]: x.flow:3:3: the file is not UTF-8 text"), run.stdout);
  const missing = dandori(["check", "nowhere.flow"], {});
  strictEqual(missing.code, 1);
  strictEqual(missing.stderr, "dandori check: nowhere.flow: no such file\n");
});

Deno.test("a book is read beside the flow, and a child flow beside its parent", () => {
  const run = dandori(["check", "deep/order.flow"], {
    "deep/order.flow":
      'workflow o v1\nuse book stock from "../books/stock.book"\ntask d(x: string) -> json\n  flow "child.flow"\nflow\n  d(x: "a")\n',
    "books/stock.book": Deno.readTextFileSync(`${ROOT}${FLOWS}books/stock.book`),
    "deep/child.flow": "workflow c v1\ninputs\n  x : string\nflow\n  pass\n",
  });
  strictEqual(run.stdout, "deep/order.flow: ok\n");
});

Deno.test("usage errors exit 2 and name the command", () => {
  const none = dandori(["check"]);
  strictEqual(none.code, 2);
  ok(none.stderr.startsWith("dandori check: <file.flow> is missing"), none.stderr);
  const format = dandori(["check", "a.flow", "--format", "yaml"]);
  strictEqual(format.code, 2);
  ok(format.stderr.includes("--format is one of text, json"), format.stderr);
});

/** Parses of each file the test times: the fastest counts, since a busy machine only adds time. */
const PARSES = 3;

Deno.test("every file of tests/ parses in under 50 ms", () => {
  for (const name of flowsUnder("tests/")) {
    const text = Deno.readTextFileSync(`${ROOT}tests/${name}`);
    const times = Array.from({ length: PARSES }, () => {
      const started = performance.now();
      parseFlow(text, new Reporter<DandoriCode>(name, text));
      return performance.now() - started;
    });
    const took = Math.min(...times);
    ok(took < 50, `${name}: ${took.toFixed(1)} ms at the fastest of ${PARSES}`);
  }
});

Deno.test("the end of `on cancel` leaves the workflow cancelled: a hold left held there is E020", () => {
  const stock = Deno.readTextFileSync(`${ROOT}${FLOWS}books/stock.book`);
  const run = dandori(["check", "c.flow"], {
    "books/stock.book": stock,
    "c.flow": `workflow c v1
use book stock from "books/stock.book"
task reserve(order: string, sku: string, qty: int) -> stock.reserve
  book stock.reserve.hold
  starts stock.reserve
  errors out_of_stock
task ship(order: string, sku: string) -> stock.reserve
  book stock.reserve.post
  sends post
  errors expired
case goods : stock.reserve follows stock.reserve
flow
  goods <- reserve(order: "o", sku: "s", qty: 1)
    on out_of_stock, timeout, failure => fail NotHeld
  wait 1 day
  goods <- ship(order: "o", sku: "s")
    on expired => succeed
    on timeout, failure => fail NotShipped leaving goods
on cancel
  match goods.state
    none => pass
    held => pass
`,
  });
  ok(
    run.stdout.startsWith(
      "error[E020]: c.flow:20:1: the workflow can end cancelled here with the case `goods` in held, which is not final (posted, voided, expired are)",
    ),
    run.stdout,
  );
  ok(run.stdout.includes("      15  cancelled while waiting\n"), run.stdout);
});
