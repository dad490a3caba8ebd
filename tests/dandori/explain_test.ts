/**
 * dandori's code registry and `dandori explain`: every code the checker emits is registered, every
 * registered example reproduces its code, the registry and the list of codes not checked cover the
 * design's table (docs/design/dandori.md#checks) and the codes this toolchain adds to it, and `explain` is pinned in both languages
 * (`docs/dandori-codes.md`, `docs/dandori-codes.ja.md`).
 */

import { NO_SUCH_FILE } from "../../lang/dandori/env.ts";
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { checkFlow } from "../../lang/dandori/check.ts";
import { lower } from "../../lang/dandori/lower.ts";
import { buildFlow, DANDORI_TARGETS } from "../../targets/dandori/targets.ts";
import { CODES, NOT_CHECKED } from "../../lang/dandori/codes.ts";
import {
  explainAllJson,
  explainAllMarkdown,
  explainAllText,
  explainText,
  findCode,
} from "../../lang/dandori/explain.ts";
import { assertGolden } from "../support/golden.ts";

/** The codes of the design's table, in its order (docs/design/dandori.md#checks). */
const DESIGN_TABLE = [
  "E001",
  "E002",
  "E003",
  "E004",
  "E005",
  "E006",
  "E007",
  "E008",
  "E009",
  "E010",
  "E011",
  "E012",
  "E013",
  "E014",
  "E015",
  "E016",
  "E017",
  "E018",
  "E020",
  "E021",
  "E022",
  "E030",
  "E031",
  "E040",
  "E050",
  "E906",
  "W030",
  "W032",
  "W101",
  "W102",
  "W103",
  "W104",
  "W901",
  "W902",
  "W904",
];

/**
 * The codes this toolchain adds to the design's table, each with the code it follows in the
 * registry: E023 says the case analysis reached a limit, beside the case analysis's E020–E022.
 */
const ADDED: readonly { readonly code: string; readonly after: string }[] = [{ code: "E023", after: "E022" }];

/** The registry's order: the design's table with the added codes in their places. */
const TABLE = DESIGN_TABLE.flatMap((c) => [c, ...ADDED.filter((a) => a.after === c).map((a) => a.code)]);

/**
 * Every code a diagnostic call names in the checker's source and in the targets' build checks:
 * `.error("E…"`, `.warning("W…"`, `note(…, "E…"`.
 */
function emittedCodes(): Set<string> {
  const codes = new Set<string>();
  const dir = new URL("../../lang/dandori/", import.meta.url).pathname;
  for (const e of Deno.readDirSync(dir)) {
    if (!e.name.endsWith(".ts") || e.name === "codes.ts" || e.name === "explain.ts") continue;
    for (const m of Deno.readTextFileSync(dir + e.name).matchAll(/"([EW]\d{3})"/g)) codes.add(m[1]);
  }
  // What a target's build reports (E040, E050): each target's check.
  const folders: Record<string, string> = {
    "temporal-typescript": "temporal",
    "temporal-python": "temporal_python",
    "temporal-go": "temporal_go",
    "pydantic-graph": "pydantic_graph",
    stepfunctions: "stepfunctions",
    durable: "durable",
    argo: "argo",
  };
  for (const t of DANDORI_TARGETS) {
    const check = new URL(`../../targets/dandori/${folders[t.name]}/check.ts`, import.meta.url);
    for (const m of Deno.readTextFileSync(check).matchAll(/"([EW]\d{3})"/g)) codes.add(m[1]);
  }
  // What both languages report through lang/common (an unreadable file, key-shaped values).
  const common = Deno.readTextFileSync(new URL("../../lang/common/reporter.ts", import.meta.url));
  for (const m of common.matchAll(/\.(?:error|warning)\(\s*"([EW]\d{3})"/g)) codes.add(m[1]);
  return codes;
}

Deno.test("the registry follows the design's table and the added codes; with the codes not checked, it covers them once", () => {
  const registered = CODES.map((c) => c.code);
  for (const a of ADDED) strictEqual(DESIGN_TABLE.includes(a.code), false, `${a.code} is not the design's`);
  deepStrictEqual(registered, TABLE.filter((c) => registered.includes(c)));
  deepStrictEqual([...registered, ...NOT_CHECKED.map((n) => n.code)].sort(), [...TABLE].sort());
  for (const c of CODES) strictEqual(c.severity, c.code.startsWith("E") ? "error" : "warning", c.code);
});

Deno.test("every code the checker emits is registered, and every registered code is emitted", () => {
  const emitted = emittedCodes();
  deepStrictEqual([...emitted].sort(), CODES.map((c) => c.code).sort());
});

Deno.test("every example reproduces its code, with the files it reads (a build's code through that build)", () => {
  const encoder = new TextEncoder();
  for (const c of CODES) {
    const files = c.files;
    const result = checkFlow("example.flow", c.example, {
      read: (p) => p in files ? { bytes: encoder.encode(files[p]), real: p } : NO_SUCH_FILE,
    });
    let codes = result.diagnostics.map((d) => d.code);
    if (c.build !== undefined) {
      deepStrictEqual(codes, [], `${c.code}: the example checks clean before its build`);
      ok(result.checked !== null);
      const origin = { file: "example.flow", path: "example.flow", text: c.example, sha: "0", version: "0" };
      const build = buildFlow(lower(result.checked), c.build.target, origin, {
        express: c.build.flags.includes("--express"),
        yaml: null,
      });
      codes = "diagnostics" in build ? build.diagnostics.map((d) => d.code) : [];
    }
    ok(codes.includes(c.code), `${c.code}: the example reports ${codes.join(" ") || "nothing"}`);
    deepStrictEqual([...new Set(codes)], [c.code], `${c.code}: the example reports only its code`);
  }
});

Deno.test("explain prints one code in both languages; lower case works", () => {
  const e022 = findCode("e022");
  ok(e022 !== undefined);
  ok(explainText(e022, "en").startsWith("E022 (error): A refusal the book may answer is not handled\n"));
  ok(explainText(e022, "ja").includes("    --- books/stock.book\n"));
  strictEqual(findCode("E999"), undefined);
});

Deno.test("explain --all as text, Markdown and JSON in both languages is pinned; docs/dandori-codes*.md are current", () => {
  const golden = new URL("./golden/explain/", import.meta.url).pathname;
  for (const lang of ["en", "ja"] as const) {
    assertGolden(`${golden}all.${lang}.txt`, explainAllText(lang));
    assertGolden(`${golden}all.${lang}.json`, JSON.stringify(explainAllJson(lang), null, 2) + "\n");
    assertGolden(
      new URL(`../../docs/dandori-codes${lang === "ja" ? ".ja" : ""}.md`, import.meta.url).pathname,
      explainAllMarkdown(lang),
    );
  }
});
