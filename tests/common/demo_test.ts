/**
 * `deno task demo` (examples/demo/demo.ts), in-process: the refunds book built and played on PGlite —
 * one of two refunds sent at once refused, the balances read from the database — then one scenario of
 * the orders flow on the reference interpreter, to its ending; pinned in English and Japanese. Its
 * lockfile pins the PGlite deno.lock pins, and the version its import names.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { demo } from "../../examples/demo/demo.ts";
import { assertGolden } from "../support/golden.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("deno task demo: the book on PGlite, then the flow on the interpreter, in English and Japanese", async () => {
  for (const lang of ["en", "ja"] as const) {
    const lines: string[] = [];
    strictEqual(await demo(lang, (line) => lines.push(line)), 0, lines.join("\n"));
    const text = lines.join("\n") + "\n";
    ok(text.includes("refused") || text.includes("拒否"), text);
    assertGolden(`${ROOT}tests/common/golden/demo.${lang}.txt`, text);
  }
});

Deno.test("the demo's lockfile pins the PGlite of deno.lock, at the version its import names", () => {
  const main = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.lock`));
  const own = JSON.parse(Deno.readTextFileSync(`${ROOT}examples/demo/demo.lock`));
  const name = "@electric-sql/pglite@0.5.16";
  deepStrictEqual(own.npm, { [name]: main.npm[name] });
  deepStrictEqual(Object.keys(own.specifiers), [`npm:${name}`]);
  ok(Deno.readTextFileSync(`${ROOT}examples/demo/demo.ts`).includes(`from "npm:${name}";`));
  ok(JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`)).imports["@electric-sql/pglite"] === `npm:${name}`);
});
