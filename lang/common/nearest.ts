/**
 * "Did you mean …?": the one known word a misspelt word is near, by edit distance.
 * @module
 */

import { type Text, tr } from "./text.ts";

/**
 * The most edits (a character inserted, removed, replaced, or two neighbours swapped) a typo of a
 * word of up to `SHORT_WORD` characters may have; longer words take `MAX_EDITS`. In any case the
 * edits are at most half of the longer word: a one-character name replaced by another (`箱` for
 * `個`) is another name, not a typo.
 */
const SHORT_WORD = 4;
const MAX_EDITS = 2;

/**
 * The optimal-string-alignment distance between `a` and `b`, counted in code points: how many
 * insertions, deletions, replacements and swaps of neighbours turn one into the other.
 */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => [i, ...new Array(y.length).fill(0)]);
  for (let j = 1; j <= y.length; j++) d[0][j] = j;
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[x.length][y.length];
}

/**
 * The candidate `word` is a typo of: the one nearest to it, when it is within the edits a typo of
 * its length may have and no other candidate is as near; null otherwise (an ambiguous guess is
 * not made).
 *
 * @example
 * ```ts
 * nearest("acount", ["book", "unit", "account", "transfer"]); // "account"
 * nearest("xyz", ["book", "unit"]); // null
 * ```
 */
export function nearest(word: string, candidates: Iterable<string>): string | null {
  const limit = [...word].length <= SHORT_WORD ? 1 : MAX_EDITS;
  let best: string | null = null;
  let bestDistance = Infinity;
  let tied = false;
  for (const c of new Set(candidates)) {
    if (c === word) continue;
    const distance = editDistance(word, c);
    if (distance < bestDistance) {
      best = c;
      bestDistance = distance;
      tied = false;
    } else if (distance === bestDistance) tied = true;
  }
  if (best === null || tied || bestDistance > limit) return null;
  return 2 * bestDistance <= Math.max([...word].length, [...best].length) ? best : null;
}

/** `message`, followed by "did you mean <the nearest candidate>?" when there is one. */
export function withGuess(message: Text, word: string, candidates: Iterable<string>): Text {
  const guess = nearest(word, candidates);
  if (guess === null) return message;
  return tr(`${message.en}; did you mean ${guess}?`, `${message.ja}。${guess} のことですか?`);
}
