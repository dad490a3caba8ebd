/**
 * What a scenario file can do to `dandori run`: nothing but be refused with its place. Inputs
 * named like members of Object.prototype are inputs like any other; a file nested past the limit
 * or not UTF-8 is an error, in both languages, never a crash.
 */

import { ok, strictEqual } from "node:assert/strict";
import { runCli } from "../support/run.ts";

const FLOW =
  "workflow w v1\ninputs\n  valueOf : string\n  toString : int\n  constructor : bool\nflow\n  succeed\n";

Deno.test("the scenarios dandori scenarios writes for inputs named valueOf, toString, constructor run", () => {
  const written = runCli(["dandori", "scenarios", "w.flow"], { files: { "w.flow": FLOW } });
  strictEqual(written.code, 0, written.stderr);
  ok(written.stdout.includes('"toString"'), written.stdout);
  const run = runCli(["dandori", "run", "w.flow", "--scenario", "s.json"], {
    files: { "w.flow": FLOW, "s.json": written.stdout },
  });
  strictEqual(run.code, 0, run.stderr);
  ok(run.stdout.includes("ending  succeed"), run.stdout);
  // An input the file leaves out is missing, not Object.prototype's toString.
  const missing = runCli(["dandori", "run", "w.flow", "--scenario", "s.json"], {
    files: {
      "w.flow": FLOW,
      "s.json": '{"name": "r", "input": {"valueOf": "v", "constructor": true}, "answers": []}',
    },
  });
  strictEqual(missing.code, 0, missing.stderr);
  ok(missing.stdout.includes("fail Dandori.BadInput"), missing.stdout);
});

Deno.test("a scenario file nested past the limit, or not UTF-8, is an error with its place, not a crash", () => {
  const files = {
    "w.flow": FLOW,
    "deep.json": '{"a":'.repeat(50_000),
    "bad.json": new Uint8Array([...new TextEncoder().encode('{"name":\n "r\uFFFD'), 0xed, 0xa0, 0x80]),
  };
  for (const lang of ["en", "ja"]) {
    const deep = runCli(["dandori", "run", "w.flow", "--scenario", "deep.json", "--lang", lang], { files });
    strictEqual(deep.code, 1);
    ok(deep.stderr.includes("1:641") && deep.stderr.includes(lang === "ja" ? "入れ子" : "nest"), deep.stderr);
    const bad = runCli(["dandori", "run", "w.flow", "--scenario", "bad.json", "--lang", lang], { files });
    strictEqual(bad.code, 1);
    ok(bad.stderr.includes("2:5") && bad.stderr.includes("UTF-8"), bad.stderr);
  }
});
