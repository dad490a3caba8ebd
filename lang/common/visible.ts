/**
 * Text from a file made harmless to show: no character of a book, a flow, a scenario or a file
 * name can move a terminal's cursor, ring its bell, reorder a line (the bidirectional controls) or
 * end a line where the reader does not see one. Each such character is written as `\uXXXX`, which
 * reads the same in a terminal, in JSON strings and in comments.
 *
 * - `visible` keeps `\n` and `\t`: for text of many lines, such as a command's output.
 * - `oneLine` escapes those too (`\n`, `\r` and `\t` by their letters): for one line, such as a
 *   file name in a generated header or a description in a comment.
 * @module
 */

/**
 * C0 but tab and newline, DEL, C1 (U+0085 among them), U+2028, U+2029, and the bidirectional
 * controls U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069.
 */
const SHOWN_ESCAPED =
  // deno-lint-ignore no-control-regex -- the control characters are what this module escapes
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

function escaped(c: string): string {
  if (c === "\n") return "\\n";
  if (c === "\r") return "\\r";
  if (c === "\t") return "\\t";
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * `text` with every character that would act instead of show written as `\uXXXX`; lines and tabs
 * stay.
 *
 * @example
 * ```ts
 * visible("stock\u001b[2J"); // "stock\\u001b[2J"
 * ```
 */
export function visible(text: string): string {
  return text.replace(SHOWN_ESCAPED, escaped);
}

/**
 * `text` on one line: as `visible`, and `\n`, `\r`, `\t` written as `\\n`, `\\r`, `\\t`.
 *
 * @example
 * ```ts
 * oneLine("inv\nDROP SCHEMA public;"); // "inv\\nDROP SCHEMA public;"
 * ```
 */
export function oneLine(text: string): string {
  return visible(text).replace(/[\n\r\t]/g, escaped);
}
