/**
 * The table of task items and call methods (lang/dandori/items.ts): pinned in both languages as
 * a matrix, so a change to what a method takes shows in review; its columns are the methods this
 * dandori resolves, and asking it of one it does not is a bug.
 */

import { deepStrictEqual, throws } from "node:assert/strict";
import { AssertionError } from "../../lang/common/assert.ts";
import { tr } from "../../lang/common/text.ts";
import { CHECKED_METHODS, type ItemAspect, itemRefusal, TASK_ITEMS } from "../../lang/dandori/items.ts";
import type { Method } from "../../lang/dandori/model.ts";
import { assertGolden } from "../support/golden.ts";

const GOLDEN = new URL("./golden/items/", import.meta.url).pathname;

/** Every method of `Method`, in its order. */
const METHODS: readonly Method[] = [
  "lambda",
  "http",
  "aws",
  "connect",
  "agent",
  "jev",
  "book",
  "flow",
  "event",
  "child",
  "own",
];

Deno.test("the table's columns are the methods but jev, which stops at E018", () => {
  deepStrictEqual(CHECKED_METHODS, METHODS.filter((m) => m !== "jev"));
  throws(() => itemRefusal("key", "jev"), AssertionError);
});

Deno.test("the table, aspect by method, is pinned in English and Japanese", () => {
  const takes = tr("takes it", "書ける");
  for (const lang of ["en", "ja"] as const) {
    const lines: string[] = [];
    for (const aspect of Object.keys(TASK_ITEMS) as ItemAspect[]) {
      lines.push(aspect);
      for (const m of CHECKED_METHODS) lines.push(`  ${m}: ${itemRefusal(aspect, m)?.[lang] ?? takes[lang]}`);
    }
    assertGolden(`${GOLDEN}table.${lang}.txt`, lines.join("\n") + "\n");
  }
});
