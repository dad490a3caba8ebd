/**
 * The code registry and `chobo explain`: every code of the design's table is registered once, every
 * code the checker emits is registered, every example reproduces its code, and the text of
 * `explain` is pinned in both languages (`docs/codes.md`, `docs/codes.ja.md`).
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { checkBook } from "../../lang/chobo/check.ts";
import { build } from "../../targets/chobo/targets.ts";
import { e060Diagnostics } from "../../targets/chobo/tigerbeetle/e060.ts";
import { CODES } from "../../lang/chobo/codes.ts";
import { emittedChoboCodes } from "../support/codes.ts";
import { assertGolden } from "../support/golden.ts";
import { runCli } from "../support/run.ts";

/** The 30 codes, in the design's order (docs/design/chobo.md#the-checker). */
const DESIGN_TABLE = [
  "E001",
  "E002",
  "E003",
  "E004",
  "E005",
  "E010",
  "E011",
  "E012",
  "E013",
  "E014",
  "E020",
  "E021",
  "E022",
  "E023",
  "E030",
  "E031",
  "E040",
  "E041",
  "E050",
  "E051",
  "E060",
  "E061",
  "W101",
  "W102",
  "W103",
  "W104",
  "W105",
  "W106",
  "W107",
  "W901",
];

Deno.test("the registry holds the 30 codes of the design's table, in its order", () => {
  deepStrictEqual(CODES.map((c) => c.code), DESIGN_TABLE);
  for (const c of CODES) strictEqual(c.severity, c.code.startsWith("E") ? "error" : "warning", c.code);
});

Deno.test("every code the checker emits is registered", () => {
  const registered = new Set(CODES.map((c) => c.code));
  const emitted = emittedChoboCodes();
  ok(emitted.size >= 20, `only ${emitted.size} codes found in the checker's source`);
  for (const code of emitted) ok(registered.has(code), `${code} is emitted but not registered`);
});

Deno.test("every code is reported by some stage, and its example reproduces it", () => {
  const emitted = emittedChoboCodes();
  for (const c of CODES) {
    if (c.stage.kind === "build" && c.stage.target === "postgres") {
      const book = checkBook("example.book", c.example).book;
      ok(book !== null, `${c.code}: the example has errors`);
      const result = build(book, "postgres", {
        file: "example.book",
        text: c.example,
        sha: "0",
        version: "0",
      });
      ok(
        "diagnostics" in result && result.diagnostics.some((d) => d.code === c.code),
        `${c.code}: the build passes`,
      );
      continue;
    }
    if (c.stage.kind === "build" && c.stage.target.startsWith("tigerbeetle")) {
      const book = checkBook("example.book", c.example).book;
      ok(book !== null, `${c.code}: the example has errors`);
      const codes = e060Diagnostics(book, { file: "example.book", text: c.example }).map((d) => d.code);
      ok(codes.includes(c.code), `${c.code}: the TigerBeetle chains fit`);
      continue;
    }
    ok(emitted.has(c.code), `${c.code} is registered but nothing reports it`);
    const base = c.stage.kind === "diff"
      ? checkBook("base.book", c.stage.before).book ?? undefined
      : undefined;
    if (c.stage.kind === "diff") ok(base !== undefined, `${c.code}: the base book has errors`);
    const codes = checkBook("example.book", c.example, { base }).diagnostics.map((d) => d.code);
    ok(codes.includes(c.code), `${c.code}: the example reports ${codes.join(" ") || "nothing"}`);
  }
});

Deno.test("explain prints one code in both languages; lower case works", () => {
  const en = runCli(["chobo", "explain", "e020"]);
  strictEqual(en.code, 0);
  ok(en.stdout.startsWith("E020 (error): "), en.stdout);
  const ja = runCli(["chobo", "explain", "E020", "--lang", "ja"]);
  ok(ja.stdout.startsWith("E020(エラー): ") || ja.stdout.startsWith("E020 (エラー): "), ja.stdout);
});

Deno.test("explain --all in text and Markdown, both languages, pinned; docs/codes*.md are current", () => {
  const golden = new URL("./golden/explain/", import.meta.url).pathname;
  for (const lang of ["en", "ja"] as const) {
    assertGolden(`${golden}all.${lang}.txt`, runCli(["chobo", "explain", "--all", "--lang", lang]).stdout);
    const markdown = runCli(["chobo", "explain", "--all", "--format", "markdown", "--lang", lang]).stdout;
    assertGolden(
      new URL(`../../docs/codes${lang === "ja" ? ".ja" : ""}.md`, import.meta.url).pathname,
      markdown,
    );
  }
});
