/**
 * `chobo check` on the fixture books: every diagnostic in English and Japanese, text and JSON,
 * pinned by golden files; Japanese-named fixtures and their English twins report the same codes.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { checkBook } from "../lang/chobo/check.ts";
import { renderDiagnostic } from "../lang/common/diagnostic.ts";
import { emittedChoboCodes } from "./support/codes.ts";
import { assertGolden } from "./support/golden.ts";
import { runCli } from "./support/run.ts";

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
  for (const code of emittedChoboCodes()) ok(covered.has(code), `no fixture reports ${code}`);
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
      "tests/books/在庫.book",
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
