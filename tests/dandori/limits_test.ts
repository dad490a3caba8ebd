/**
 * The case analysis's limits (docs/design/dandori.md#cases; `MAX_STATES`, `MAX_LOOP_ROUNDS`): a flow that
 * reaches one gets E023 where the analysis gave up, instead of passing unfollowed; the same flow
 * one step below the limit passes clean. The flows are built from the limits, so they stay at the
 * limit when it changes; the E023 texts are pinned in both languages.
 */

import { NO_SUCH_FILE } from "../../lang/dandori/env.ts";
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { MAX_LOOP_ROUNDS, MAX_STATES } from "../../lang/dandori/limits.ts";
import { checkFlow } from "../../lang/dandori/check.ts";
import { assertGolden } from "../support/golden.ts";
import { runCli } from "../support/run.ts";
import { chainFlow, HOLDS, holdsFlow } from "../../verify/dandori/big_flows.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const GOLDEN = `${ROOT}tests/dandori/golden/limits/`;
const STOCK = Deno.readTextFileSync(`${ROOT}tests/dandori/flows/books/stock.book`);

function codes(text: string): string[] {
  const result = checkFlow("lines.flow", text, {
    read: (p) =>
      p === "books/stock.book" ? { bytes: new TextEncoder().encode(STOCK), real: p } : NO_SUCH_FILE,
  });
  return result.diagnostics.map((d) => `${d.code}:${d.line}`);
}

function lineOf(text: string, prefix: string): number {
  return text.split("\n").findIndex((l) => l.startsWith(prefix)) + 1;
}

Deno.test("E023 where the states at one statement pass MAX_STATES; one hold fewer passes clean", () => {
  strictEqual(2 ** (HOLDS - 1) <= MAX_STATES && 2 ** HOLDS > MAX_STATES, true);
  deepStrictEqual(codes(holdsFlow(HOLDS - 1)), []);
  const text = holdsFlow(HOLDS);
  deepStrictEqual(codes(text), [`E023:${lineOf(text, `  line${HOLDS} <- reserve`)}`]);
  for (const lang of ["en", "ja"] as const) {
    const run = runCli(["dandori", "check", "lines.flow", "--lang", lang], {
      files: { "lines.flow": text, "books/stock.book": STOCK },
    });
    strictEqual(run.code, 1);
    ok(run.stdout.includes(String(MAX_STATES)), run.stdout);
    assertGolden(`${GOLDEN}states.${lang}.txt`, run.stdout);
  }
});

Deno.test("E023 at a loop that has not settled after MAX_LOOP_ROUNDS rounds; one case fewer passes clean", () => {
  deepStrictEqual(codes(chainFlow(MAX_LOOP_ROUNDS - 1)), []);
  const text = chainFlow(MAX_LOOP_ROUNDS);
  deepStrictEqual(codes(text), [`E023:${lineOf(text, "  repeat")}`]);
  for (const lang of ["en", "ja"] as const) {
    const run = runCli(["dandori", "check", "lines.flow", "--lang", lang], {
      files: { "lines.flow": text, "books/stock.book": STOCK },
    });
    strictEqual(run.code, 1);
    ok(run.stdout.includes(String(MAX_LOOP_ROUNDS)), run.stdout);
    assertGolden(`${GOLDEN}rounds.${lang}.txt`, run.stdout);
  }
});
