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

const ROOT = new URL("../../", import.meta.url).pathname;
const GOLDEN = `${ROOT}tests/dandori/golden/limits/`;
const STOCK = Deno.readTextFileSync(`${ROOT}tests/dandori/flows/books/stock.book`);

const HEAD = `workflow lines v1

use book stock from "books/stock.book"

task reserve(order: string, sku: string, qty: int) -> stock.reserve
  book stock.reserve.hold
  starts stock.reserve
  errors out_of_stock

task ship(order: string, sku: string) -> stock.reserve
  book stock.reserve.post
  sends post
  errors expired
`;

/** The names of `n` cases, and their declarations. */
function cases(n: number): { names: string[]; decls: string } {
  const names = Array.from({ length: n }, (_, i) => `line${i + 1}`);
  return { names, decls: names.map((c) => `case ${c} : stock.reserve follows stock.reserve`).join("\n") };
}

function call(c: string, task: string, indent: string, handlers: readonly string[]): string {
  const args = task === "reserve" ? `order: "o", sku: "${c}", qty: 1` : `order: "o", sku: "${c}"`;
  return [`${indent}${c} <- ${task}(${args})`, ...handlers.map((h) => `${indent}  ${h}`)].join("\n");
}

/**
 * `n` holds one after another, each of which may start or not: 2^k combinations of the cases'
 * states after the k-th. All are handed over at the end, so nothing else is said.
 */
function holdsFlow(n: number): string {
  const { names, decls } = cases(n);
  const holds = names.map((c) => call(c, "reserve", "  ", ["on out_of_stock, timeout, failure => pass"]));
  return `${HEAD}\n${decls}\n\nflow\n${holds.join("\n")}\n  fail HandOver leaving ${names.join(", ")}\n`;
}

/**
 * `n` holds, then a loop that ships the k-th only once the one before is posted, written last
 * line first so that each round ships one more: the loop settles in n + 1 rounds.
 */
function chainFlow(n: number): string {
  const { names, decls } = cases(n);
  const all = names.join(", ");
  const holds = names.map((c) =>
    call(c, "reserve", "  ", [`on out_of_stock, timeout, failure => fail NotHeld leaving ${all}`])
  );
  const ships = ["on expired => pass", "on timeout, failure => pass"];
  const body = names.map((c, i) =>
    i === 0 ? call(c, "ship", "    ", ships) : [
      `    match ${names[i - 1]}.state`,
      "      held => pass",
      "      posted =>",
      call(c, "ship", "        ", ships),
    ].join("\n")
  ).reverse();
  return `${HEAD}\n${decls}\n\nflow\n${holds.join("\n")}\n  repeat at most ${n + 1} times\n${
    body.join("\n")
  }\n  fail HandOver leaving ${all}\n`;
}

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

/** The fewest holds whose combinations pass MAX_STATES: 2^n > MAX_STATES. */
const HOLDS = Math.ceil(Math.log2(MAX_STATES + 1));

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
