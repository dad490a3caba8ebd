/**
 * Flows at the case analysis's limits (docs/design/dandori.md#cases; `MAX_STATES`, `MAX_LOOP_ROUNDS`),
 * built from the limits so that they stay at them when they change: `holdsFlow(HOLDS)` is the fewest
 * holds whose combinations of the cases' states pass `MAX_STATES`, `chainFlow(MAX_LOOP_ROUNDS)` a loop
 * that has not settled after `MAX_LOOP_ROUNDS` rounds; one fewer of each checks clean, at the limit.
 * `tests/dandori/limits_test.ts` holds the E023s; `deno task bench check` times the flows one below.
 * Each reads `books/stock.book` of tests/dandori/flows beside it.
 * @module
 */

import { MAX_STATES } from "../../lang/dandori/limits.ts";

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
export function holdsFlow(n: number): string {
  const { names, decls } = cases(n);
  const holds = names.map((c) => call(c, "reserve", "  ", ["on out_of_stock, timeout, failure => pass"]));
  return `${HEAD}\n${decls}\n\nflow\n${holds.join("\n")}\n  fail HandOver leaving ${names.join(", ")}\n`;
}

/**
 * `n` holds, then a loop that ships the k-th only once the one before is posted, written last
 * line first so that each round ships one more: the loop settles in n + 1 rounds.
 */
export function chainFlow(n: number): string {
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

/** The fewest holds whose combinations pass MAX_STATES: 2^n > MAX_STATES. */
export const HOLDS = Math.ceil(Math.log2(MAX_STATES + 1));
