/**
 * What a caller may pass (docs/reference.md#limits): an amount from 0 to `MAX_AMOUNT`, and a string of
 * at most `MAX_STRING_BYTES` UTF-8 bytes, no U+0000, well-formed Unicode (no lone surrogate, which
 * UTF-8 cannot carry: a client would send U+FFFD and two different strings would become one key). The
 * interpreter, the SQL functions and every generated client refuse the same amounts and strings.
 * @module
 */

import { type Text, tr } from "../common/text.ts";
import { MAX_AMOUNT, MAX_STRING_BYTES, type Transfer } from "./model.ts";

/** Why the string argument `name` cannot be passed, or null when it can. */
export function stringProblem(name: string, value: string): Text | null {
  if (!value.isWellFormed()) {
    return tr(
      `${name} is not well-formed Unicode: it holds a lone surrogate`,
      `${name} は正しい Unicode ではありません(対になっていないサロゲートがあります)`,
    );
  }
  if (value.includes("\u0000")) {
    return tr(
      `${name} holds U+0000, which no string argument may`,
      `${name} に U+0000 があります。文字列の引数には使えません`,
    );
  }
  const bytes = new TextEncoder().encode(value).length;
  if (bytes > MAX_STRING_BYTES) {
    return tr(
      `${name} is ${bytes} UTF-8 bytes, longer than the ${MAX_STRING_BYTES} a string argument may be`,
      `${name} は UTF-8 で ${bytes} バイトあり、文字列の引数の上限 ${MAX_STRING_BYTES} バイトを超えます`,
    );
  }
  return null;
}

/** Why the amount argument `name` cannot be passed (docs/design/chobo.md#units-and-amounts), or null when it can. */
export function amountProblem(name: string, value: bigint): Text | null {
  if (value >= 0n && value <= MAX_AMOUNT) return null;
  return tr(
    `${name} is ${value}, outside the amounts 0 … 2⁶³ − 1`,
    `${name} は ${value} で、額の範囲 0 〜 2⁶³ − 1 の外です`,
  );
}

/**
 * Why a call cannot be made with its arguments, or null when it can: the first one refused, in
 * parameter order. Each is a failure, not a refusal: a client refuses it before anything is sent.
 */
export function callProblem(
  call: {
    readonly transfer: Transfer;
    readonly strings: ReadonlyMap<string, string>;
    readonly amounts: ReadonlyMap<string, bigint>;
  },
): Text | null {
  for (const p of call.transfer.params) {
    const text = call.strings.get(p.name);
    const amount = call.amounts.get(p.name);
    const problem = text !== undefined
      ? stringProblem(p.name, text)
      : amount !== undefined
      ? amountProblem(p.name, amount)
      : null;
    if (problem !== null) return problem;
  }
  return null;
}
