/**
 * What a caller may pass as a string (docs/reference.md#limits): at most `MAX_STRING_BYTES` UTF-8 bytes,
 * no U+0000, well-formed Unicode (no lone surrogate, which UTF-8 cannot carry: a client would send
 * U+FFFD and two different strings would become one key). The interpreter, the SQL functions and
 * every generated client refuse the same strings.
 * @module
 */

import { type Text, tr } from "../common/text.ts";
import { MAX_STRING_BYTES, type Transfer } from "./model.ts";

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

/** Why a call cannot be made with its string arguments, or null when it can: the first one refused, in parameter order. */
export function callProblem(
  call: { readonly transfer: Transfer; readonly strings: ReadonlyMap<string, string> },
): Text | null {
  for (const p of call.transfer.params) {
    const value = call.strings.get(p.name);
    if (value === undefined) continue;
    const problem = stringProblem(p.name, value);
    if (problem !== null) return problem;
  }
  return null;
}
