/**
 * What the Python clients of both targets share: how tuples and keyword-only
 * signatures are written, and how a name is kept free of another in the same scope.
 * @module
 */

import { oneLine } from "../../lang/common/visible.ts";

/** `base`, or `base_`, `base__` … : the first that no member of the same scope takes. */
export function fresh(base: string, taken: ReadonlySet<string>): string {
  let name = base;
  while (taken.has(name)) name += "_";
  return name;
}

/** A tuple expression: `()`, `(a,)`, `(a, b)`. */
export function tuple(items: readonly string[]): string {
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
}

/** Keyword-only parameters after `self`: `self, *, a: str, b: int`. */
export function signature(params: readonly string[]): string {
  return params.length === 0 ? "self" : `self, *, ${params.join(", ")}`;
}

/**
 * A Python string literal in `quote`s: the quote and the backslash escaped, and every character
 * `oneLine` escapes written as Python reads its escape (`\\n`, `\\u2028`, …), so the literal is one line.
 */
export function pythonLiteral(s: string, quote: "'" | '"'): string {
  return `${quote}${oneLine(s.replace(quote === "'" ? /[\\']/g : /[\\"]/g, (c) => `\\${c}`))}${quote}`;
}

/** A docstring: `"""…"""` when the text can be written so, else a literal in `quote`s. */
export function docstring(s: string, quote: "'" | '"'): string {
  return /["\\]/.test(s) || oneLine(s) !== s ? pythonLiteral(s, quote) : `"""${s}"""`;
}
