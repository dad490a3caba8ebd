/**
 * The known name a misspelt one was meant to be: "did you mean `wallet`?" under an unknown keyword or
 * name, in both languages' checkers. A name is near when it is a few edits away (a letter left out,
 * added, changed, or two letters swapped) and long enough for them to be slips, not another word.
 * @module
 */

import { type Text, tr } from "./text.ts";

/** The most edits a slip is taken to be: more, and the name is another name, not a misspelling. */
export const MAX_SLIP_EDITS = 2;

/**
 * A word this many letters long per edit is still recognisable: `do` is not a slip of `to`, nor
 * `会人` of `会員`, nor `無いもの` of `無い`; `walet` is of `wallet`.
 */
const LETTERS_PER_EDIT = 3;

/** The edits from `a` to `b`: insertions, deletions, changes and swaps of two neighbours, by code point. */
function edits(a: readonly string[], b: readonly string[]): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/**
 * The known name nearest to `word`, when it is near enough to be what was meant; null when none is,
 * when two different names are as near (a guess would be a coin toss), or when `word` is known itself.
 *
 * @example
 * ```ts
 * nearest("walet", ["wallet", "payees"]); // "wallet"
 * ```
 */
export function nearest(word: string, known: Iterable<string>): string | null {
  const w = [...word];
  let best: { name: string; edits: number; tied: boolean } | null = null;
  for (const name of new Set(known)) {
    if (name === word) return null;
    const n = edits(w, [...name]);
    const letters = Math.max(w.length, [...name].length);
    if (n > MAX_SLIP_EDITS || n * LETTERS_PER_EDIT > letters) continue;
    if (best === null || n < best.edits) best = { name, edits: n, tied: false };
    else if (n === best.edits) best.tied = true;
  }
  return best === null || best.tied ? null : best.name;
}

/** "did you mean `wallet`?", for the known name nearest to `word`; null when none is near. */
export function didYouMean(word: string, known: Iterable<string>): Text | null {
  const name = nearest(word, known);
  return name === null ? null : tr(`did you mean \`${name}\`?`, `\`${name}\` のことですか?`);
}

/** `message`, followed by "did you mean `wallet`?" when a known name is near `word`. */
export function withGuess(message: Text, word: string, known: Iterable<string>): Text {
  const guess = didYouMean(word, known);
  return guess === null ? message : tr(`${message.en}; ${guess.en}`, `${message.ja}。${guess.ja}`);
}
