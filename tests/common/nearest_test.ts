/**
 * The name a slip was meant to be (lang/common/nearest.ts): a letter left out, added, changed or two
 * swapped; never a word too short for its edits to be slips; ties to the first.
 */

import { strictEqual } from "node:assert/strict";
import { didYouMean, nearest } from "../../lang/common/nearest.ts";

Deno.test("nearest: slips of one or two edits, swaps counting once, in words long enough for them", () => {
  const cases: [string, readonly string[], string | null][] = [
    ["walet", ["payees", "wallet"], "wallet"],
    ["pots", ["hold", "post", "void"], "post"],
    ["wiat", ["wait", "match"], "wait"],
    ["tsk", ["task", "case"], "task"],
    ["acount", ["account", "transfer"], "account"],
    ["do", ["to"], null],
    ["post", ["post", "pots"], null],
    ["transfr", ["unit"], null],
    ["会人", ["会員", "店"], null],
    ["無いもの", ["無い"], null],
    ["ウォレト", ["ウォレット"], "ウォレット"],
    ["圓", ["円"], null],
    ["hald", ["hold", "held"], null],
  ];
  for (const [word, known, want] of cases) strictEqual(nearest(word, known), want, word);
});

Deno.test("didYouMean says it in both languages, or nothing", () => {
  const t = didYouMean("walet", ["wallet"]);
  strictEqual(t?.en, "did you mean `wallet`?");
  strictEqual(t?.ja, "`wallet` のことですか?");
  strictEqual(didYouMean("zzz", ["wallet"]), null);
});
