/**
 * Text written into generated code's comments can never leave them: a file name, a description,
 * a name. Every target writes user text into a comment through these two functions, so that no
 * line terminator of any host language (`\n`, `\r`, U+0085, U+2028, U+2029) or other control
 * character reaches the output raw.
 *
 * - `oneLine` escapes every control character and line terminator (`\n` as `\\n`, others as
 *   `\\u{XXXX}`): for one line, such as a header's file name.
 * - `commentLines` splits a text at every line terminator into lines, each made safe with
 *   `oneLine`: for a description written as one comment line per line.
 * @module
 */

/** Characters any host language may read as the end of a line. */
const LINE_END = /\r\n|[\n\r\u0085\u2028\u2029]/;

/** Control characters and line terminators: C0, DEL, C1, U+2028, U+2029. */
// deno-lint-ignore no-control-regex -- the control characters are what this module escapes
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/gu;

/**
 * The text on one line, every control character escaped.
 *
 * @example
 * ```ts
 * oneLine("inv\nDROP SCHEMA public;"); // "inv\\nDROP SCHEMA public;"
 * ```
 */
export function oneLine(text: string): string {
  return text.replace(
    CONTROL,
    (c) =>
      c === "\n"
        ? "\\n"
        : c === "\r"
        ? "\\r"
        : c === "\t"
        ? "\\t"
        : `\\u{${c.codePointAt(0)?.toString(16).padStart(4, "0")}}`,
  );
}

/** The lines of a text split at every line terminator, each made safe for one comment line. */
export function commentLines(text: string): string[] {
  return text.split(LINE_END).map(oneLine);
}
