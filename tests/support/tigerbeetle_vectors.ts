/**
 * The shared vectors of `tests/vectors/tigerbeetle_answers.json`: one call of a TigerBeetle client
 * over scripted answers, the requests it sends and what it answers. The TypeScript, Python and Go
 * runtimes each play every case in their own tests and are held to the same `sent` and `outcome`
 * here, so a runtime that reads an answer otherwise fails by the case's name.
 * @module
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { parseJson } from "../../lang/common/json.ts";

const FILE = new URL("../vectors/tigerbeetle_answers.json", import.meta.url);

/** One case: a call (`<transfer>.<op>` with its arguments) and how TigerBeetle answers it. */
export interface TbVectorCase {
  readonly name: string;
  readonly call: string;
  readonly args: Readonly<Record<string, string | bigint>>;
  /** Each create_transfers' results in turn; `created`: every transfer created. */
  readonly transfers: readonly (readonly string[] | "created")[];
  /** What every transfer lookup_transfers asks for holds; absent: nothing found. */
  readonly held?: bigint;
  /** Each request as `<kind> <events or ids>`. */
  readonly sent: readonly string[];
  /** `done`, `done_before`, `refused:<reason>`, `state:<state or none>` or `failed`. */
  readonly outcome: string;
}

/** The vectors: the path of their book (from the repository's root) and the cases. */
export interface TbVectors {
  readonly book: string;
  readonly cases: readonly TbVectorCase[];
}

/** The vector file, read. */
export function tigerbeetleVectors(): TbVectors {
  // deno-lint-ignore no-explicit-any
  const v = parseJson(Deno.readTextFileSync(FILE)) as any;
  ok(
    typeof v.rule === "string" && typeof v.book === "string" && v.cases.length > 0,
    "tigerbeetle_answers.json",
  );
  return v as TbVectors;
}

/** The path of the vector file, for a runtime's own test to read. */
export const TIGERBEETLE_VECTORS_FILE = FILE.pathname;

/** What a runtime did with one case: its requests as `<kind> <n>`, and its answer as `outcome` spells it. */
export interface TbVectorPlay {
  readonly sent: readonly string[];
  readonly outcome: string;
  /** Scripted answers it did not ask for. */
  readonly left: number;
}

/**
 * Holds what a runtime played to every case, in order. An error of the client may say anything
 * after `failed`; `failedText` tells it (each language writes its own error).
 */
export function assertTbVectors(
  label: string,
  played: readonly TbVectorPlay[],
  failedText: (outcome: string) => boolean,
): void {
  const { cases } = tigerbeetleVectors();
  strictEqual(played.length, cases.length, `${label}: cases played`);
  for (const [i, c] of cases.entries()) {
    const p = played[i];
    const where = `${label}: ${c.name}`;
    deepStrictEqual(p.sent, c.sent, `${where}: requests`);
    if (c.outcome === "failed") ok(failedText(p.outcome), `${where}: ${p.outcome}`);
    else strictEqual(p.outcome, c.outcome, where);
    strictEqual(p.left, 0, `${where}: scripted answers left`);
  }
}
