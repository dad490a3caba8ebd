/**
 * What a book, its file name or a scenario can do to what chobo writes and prints: nothing. A file
 * name with line breaks stays on its header line, a description with control characters stays
 * inside its comment in every target and is shown escaped on the terminal and the pages, a key is
 * masked wherever it is printed and stops every command that would write it out.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { build, TARGET_NAMES } from "../../targets/chobo/targets.ts";
import { readScenarios, runScenario } from "../../lang/chobo/scenario.ts";
import { loadBook } from "../support/books.ts";
import { HOSTILE_STRINGS, LIMITS_BOOK } from "../support/hostile.ts";
import { runCli } from "../support/run.ts";

/** A file name that, written raw into a SQL header, drops the schema on load. */
const HOSTILE_FILE = "inv\nDROP SCHEMA public CASCADE;\r\n--\u2028x\u0085y.book";

/** A description with every character some host reads as a line end, an escape sequence, and a comment's end. */
const HOSTILE_BOOK = `book hostile v1
description "a\u2028b\u0085c\u001b[2J\rd */ e \u202etxt"

unit pcs

account stock(sku: string) : pcs
  description "on the\rshelves\u2029import os"
  at least 0 refused as out_of_stock
account suppliers : pcs outside

transfer receive(order: string, sku: string, qty: pcs)
  description "from a supplier */ DROP"
  key order
  move qty from suppliers to stock(sku)
`;

/** Characters no generated file may hold: every control but newline and tab, the line separators, the bidi controls. */
// deno-lint-ignore no-control-regex -- the control characters are what this test looks for
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

Deno.test("a file name and descriptions with line breaks and control characters stay inside their comments in every target", () => {
  const book = loadBook("hostile.book", HOSTILE_BOOK);
  for (const target of TARGET_NAMES) {
    const built = build(book, target, {
      file: HOSTILE_FILE,
      text: HOSTILE_BOOK,
      sha: "0123456789abcdef",
      version: "t",
    });
    ok("files" in built, target);
    for (const [name, text] of built.files) {
      const lines = text.split("\n");
      deepStrictEqual(lines.filter((l) => RAW.test(l)), [], `${target} ${name}`);
      deepStrictEqual(lines.filter((l) => /^\s*DROP|^\s*import os/.test(l)), [], `${target} ${name}`);
      const source = lines.filter((l) => l.includes("Source: "));
      ok(source.length <= 1, `${target} ${name}: ${source}`);
      for (const l of source) {
        ok(
          l.includes("inv\\nDROP SCHEMA public CASCADE;\\r\\n--\\u2028x\\u0085y.book"),
          `${target} ${name}: ${l}`,
        );
      }
    }
  }
});

// Keys are assembled at run time, so this file holds no key-shaped literal.
const AWS = "AKIA" + "Q".repeat(16);
const GHP = "ghp_" + "b2".repeat(18);
const WEBHOOK = "https://hooks.slack.com/services/" + "T0123ABCD/" + "B0456EFGH/" + "abcXYZ123";
const PEM_BEGIN = "-----" + "BEGIN PRIVATE KEY-----";
const PEM_BODY = "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQC7";

/** A book whose descriptions hold keys and whose account is named by one. */
const KEYED = `book keyed v1
description "deploy with ${AWS} and ${GHP}"

unit pcs

account ${AWS}(sku: string) : pcs
  description "alerts go to ${WEBHOOK}"
  at least 0 refused as out_of_stock
account suppliers : pcs outside

transfer receive(order: string, sku: string, qty: pcs)
  description "${PEM_BEGIN}${PEM_BODY}"
  key order
  move qty from suppliers to ${AWS}(sku)
`;

const WHOLE_KEYS = [AWS, GHP, WEBHOOK, PEM_BODY, AWS.slice(4), GHP.slice(4)];

function leaks(text: string): string[] {
  return WHOLE_KEYS.filter((k) => text.includes(k));
}

Deno.test("check and run print a book's keys masked, in report lines and names as in excerpts", () => {
  const files = {
    "keyed.book": KEYED,
    "s.json":
      `{"name": "one", "steps": [{"call": "receive.do", "args": {"order": "${GHP}", "sku": "a", "qty": 1}}]}`,
  };
  for (const lang of ["en", "ja"]) {
    const check = runCli(["chobo", "check", "keyed.book", "--lang", lang], { files });
    ok(check.stdout.includes("W901"), check.stdout);
    deepStrictEqual(leaks(check.stdout + check.stderr), [], check.stdout);
    ok(check.stdout.includes("AKIA…"), check.stdout);
    const run = runCli(["chobo", "run", "keyed.book", "--scenario", "s.json", "--lang", lang], { files });
    strictEqual(run.code, 0, run.stderr);
    deepStrictEqual(leaks(run.stdout + run.stderr), [], run.stdout);
  }
});

Deno.test("build, doc and api refuse a book with a key (W901) and write nothing; a test secret is built", () => {
  const files = { "keyed.book": KEYED };
  for (
    const argv of [
      ["build", "keyed.book", "--target", "postgres", "--out", "out"],
      ["build", "keyed.book", "--target", "tigerbeetle-python", "--out", "out"],
      ["doc", "keyed.book", "--out", "out"],
      ["doc", "keyed.book", "--format", "html"],
      ["api", "keyed.book"],
    ]
  ) {
    const r = runCli(["chobo", ...argv], { files });
    strictEqual(r.code, 1, `${argv.join(" ")}: ${r.stdout}${r.stderr}`);
    deepStrictEqual(r.written, {}, argv.join(" "));
    strictEqual(r.stdout, "", argv.join(" "));
    ok(r.stderr.includes("W901") && r.stderr.includes("ritsu: test secret"), r.stderr);
    deepStrictEqual(leaks(r.stderr), [], argv.join(" "));
  }
  const marked = KEYED.replace(`description "deploy with ${AWS} and ${GHP}"`, `description "deploy"`)
    .replaceAll(`${AWS}(sku`, "stock(sku").replace(/description "alerts[^\n]*\n/, "")
    .replace(`description "${PEM_BEGIN}${PEM_BODY}"`, `description "${AWS}" # ritsu: test secret`);
  const built = runCli(["chobo", "build", "m.book", "--target", "postgres-typescript", "--out", "out"], {
    files: { "m.book": marked },
  });
  strictEqual(built.code, 0, built.stderr);
  ok(Object.values(built.written).some((text) => text.includes(AWS)), "a test secret is written as it is");
});

Deno.test("a pasted PEM key is masked whole in E001 excerpts, its base64 lines included", () => {
  const book = `book pasted v1\n${PEM_BEGIN}\n${PEM_BODY}\n${
    PEM_BODY.slice(0, 20)
  }==\n-----END PRIVATE KEY-----\nunit pcs\n`;
  const r = runCli(["chobo", "check", "p.book"], { files: { "p.book": book } });
  strictEqual(r.code, 1);
  ok(r.stdout.includes("error[E001]"), r.stdout);
  ok(!r.stdout.includes(PEM_BODY.slice(0, 20)), r.stdout);
});

Deno.test("control characters of a book are shown escaped in check's excerpts and in the pages; HTML of a description is text in Markdown", () => {
  const book = HOSTILE_BOOK.replace(
    "from a supplier */ DROP",
    "from a supplier <img src=x onerror=alert(1)> ```",
  );
  const files = { "h.book": book };
  const check = runCli(["chobo", "check", "e.book"], {
    files: { "e.book": 'book e v1\ndescription "\u001b[2J\u0007\u009b" more\n' },
  });
  strictEqual(check.code, 1);
  ok(!RAW.test(check.stdout) && check.stdout.includes('"\\u001b[2J\\u0007\\u009b" more'), check.stdout);
  for (const lang of ["en", "ja"]) {
    const md = runCli(["chobo", "doc", "h.book", "--out", "out", "--lang", lang], { files });
    strictEqual(md.code, 0, md.stderr);
    const page = md.written["out/h.md"];
    ok(!RAW.test(page), "no raw control character in the Markdown page");
    ok(!page.includes("<img"), page);
    ok(page.includes("&lt;img src=x onerror=alert(1)&gt; \\`\\`\\`"), page);
    const html = runCli(["chobo", "doc", "h.book", "--format", "html", "--out", "out", "--lang", lang], {
      files,
    });
    strictEqual(html.code, 0, html.stderr);
    ok(!/<img/.test(html.written["out/h.html"]), "no img tag in the HTML page");
  }
});

/** A holding book whose parameters are named like members of Object.prototype. */
const PROTO_NAMES = `book protos v1

unit pcs

account stock(toString: string) : pcs
  at least 0 refused as out_of_stock
account customers : pcs outside

transfer reserve(constructor: string, toString: string, valueOf: pcs)
  key constructor
  pending never expires
  move valueOf from stock(toString) to customers
`;

Deno.test("the scenarios chobo scenarios writes for parameters named toString, constructor, valueOf run", () => {
  const written = runCli(["chobo", "scenarios", "p.book"], { files: { "p.book": PROTO_NAMES } });
  strictEqual(written.code, 0, written.stderr);
  ok(written.stdout.includes('"valueOf"'));
  const run = runCli(["chobo", "run", "p.book", "--scenario", "s.json"], {
    files: { "p.book": PROTO_NAMES, "s.json": written.stdout },
  });
  strictEqual(run.code, 0, run.stderr);
  ok(run.stdout.includes("reserve.post(constructor: constructor-1)  refused: no_such_hold"), run.stdout);
});

Deno.test("a scenario file nested past the limit, or not UTF-8, is an error with its place, not a crash", () => {
  const files = {
    "p.book": PROTO_NAMES,
    "deep.json": "[".repeat(100_000),
    "bad.json": new Uint8Array([...new TextEncoder().encode('[{"name": "\uFFFD\n  a'), 0xc3, 0x28]),
  };
  for (const lang of ["en", "ja"]) {
    const deep = runCli(["chobo", "run", "p.book", "--scenario", "deep.json", "--lang", lang], { files });
    strictEqual(deep.code, 1);
    ok(deep.stderr.includes("1:129") && deep.stderr.includes(lang === "ja" ? "入れ子" : "nest"), deep.stderr);
    ok(!deep.stderr.includes("internal error") && !deep.stderr.includes("内部の異常"), deep.stderr);
    const bad = runCli(["chobo", "run", "p.book", "--scenario", "bad.json", "--lang", lang], { files });
    strictEqual(bad.code, 1);
    ok(bad.stderr.includes("2:4") && bad.stderr.includes("UTF-8"), bad.stderr);
  }
});

Deno.test("the interpreter fails a call with a string past 256 UTF-8 bytes, a U+0000 or a lone surrogate, and changes nothing", () => {
  const book = loadBook("limits.book", LIMITS_BOOK);
  const steps = HOSTILE_STRINGS.map((h, i) => ({
    call: "receive.do",
    args: { delivery: `d-${i}`, sku: h.sku, qty: 1 },
  }));
  const [scenario] = readScenarios(book, JSON.stringify([{ name: "hostile strings", steps }]));
  const [branch] = runScenario(book, scenario);
  deepStrictEqual(
    branch.steps.map((s) => s.kind === "call" ? s.outcome.kind : s.kind),
    HOSTILE_STRINGS.map((h) => h.failed ? "failed" : "done"),
  );
  strictEqual(branch.ledger.accounts().length, HOSTILE_STRINGS.filter((h) => !h.failed).length + 1);
  const run = runCli(["chobo", "run", "limits.book", "--scenario", "s.json"], {
    files: { "limits.book": LIMITS_BOOK, "s.json": JSON.stringify([{ name: "long", steps: [steps[1]] }]) },
  });
  ok(
    run.stdout.includes("failed: sku is 257 UTF-8 bytes, longer than the 256 a string argument may be"),
    run.stdout,
  );
  const ja = runCli(["chobo", "run", "limits.book", "--scenario", "s.json", "--lang", "ja"], {
    files: {
      "limits.book": LIMITS_BOOK,
      "s.json": JSON.stringify([{ name: "surrogate", steps: [steps[5]] }]),
    },
  });
  ok(
    ja.stdout.includes("失敗する(sku は正しい Unicode ではありません(対になっていないサロゲートがあります))"),
    ja.stdout,
  );
  const tenant = runCli(["chobo", "run", "limits.book", "--scenario", "t.json"], {
    files: {
      "limits.book": LIMITS_BOOK,
      "t.json": JSON.stringify([{ name: "t", tenant: "t".repeat(257), steps }]),
    },
  });
  strictEqual(tenant.code, 1);
  ok(tenant.stderr.includes("tenant is 257 UTF-8 bytes"), tenant.stderr);
});
