/**
 * JSON with exact integers: integer literals are read as `bigint` and `bigint` values are written
 * as bare digits, so an amount beyond 2⁵³ never passes through a JS `number`.
 *
 * What a hostile file cannot do (docs/reference.md#limits): an object read here has no prototype,
 * so a key named `toString`, `constructor` or `__proto__` is a member like any other and a reader's
 * `obj[name]` sees only what the file wrote; values nest at most `MAX_JSON_DEPTH` deep; bytes that
 * are not UTF-8 are refused at the first bad one.
 * @module
 */

import { type Text, tr } from "./text.ts";
import { decodeUtf8 } from "./utf8.ts";

/** How deep arrays and objects may nest in a file this codec reads. */
export const MAX_JSON_DEPTH = 128;

/** A JSON value as this codec reads it: integers are `bigint`, other numbers `number`. */
export type Json = null | boolean | bigint | number | string | Json[] | { [key: string]: Json };

/** Why a text is not JSON, in both languages, with the place. */
export class JsonError extends Error {
  constructor(readonly text: Text, readonly line: number, readonly col: number) {
    super(text.en);
  }
}

/**
 * Parses JSON; integers become `bigint`. Duplicate keys are an error (a scenario with two `args`
 * would otherwise silently lose one). Bytes are read as UTF-8, and refused at their first bad byte.
 *
 * @example
 * ```ts
 * parseJson('{"qty": 9223372036854775807}'); // { qty: 9223372036854775807n }
 * ```
 */
export function parseJson(input: string | Uint8Array): Json {
  const text = typeof input === "string" ? input : decodeUtf8(input);
  if (typeof text !== "string") {
    throw new JsonError(
      tr(`not UTF-8 text (byte ${text.offset})`, `UTF-8 のテキストではありません(${text.offset} バイト目)`),
      text.line,
      text.col,
    );
  }
  let i = 0;
  let depth = 0;
  const fail = (message: Text): never => {
    const before = text.slice(0, i);
    const line = before.split("\n").length;
    throw new JsonError(message, line, i - before.lastIndexOf("\n"));
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const nested = <T>(read: () => T): T => {
    if (++depth > MAX_JSON_DEPTH) {
      fail(
        tr(
          `arrays and objects nest more than ${MAX_JSON_DEPTH} deep`,
          `配列とオブジェクトの入れ子が ${MAX_JSON_DEPTH} 段を超えています`,
        ),
      );
    }
    const v = read();
    depth--;
    return v;
  };
  const value = (): Json => {
    space();
    const ch = text[i];
    if (ch === "{") return nested(object);
    if (ch === "[") return nested(array);
    if (ch === '"') return string();
    for (const [word, v] of [["true", true], ["false", false], ["null", null]] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    const m = /^-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (m === null) {
      return fail(
        i >= text.length
          ? tr("unexpected end of the text", "テキストが途中で終わっています")
          : tr(`unexpected character '${ch}'`, `ここに '${ch}' は来られません`),
      );
    }
    i += m[0].length;
    return m[1] === undefined && m[2] === undefined ? BigInt(m[0]) : Number(m[0]);
  };
  const object = (): Json => {
    i++;
    const obj: { [key: string]: Json } = Object.create(null);
    space();
    if (text[i] === "}") {
      i++;
      return obj;
    }
    for (;;) {
      space();
      if (text[i] !== '"') {
        fail(tr("expected a key in double quotes", "二重引用符で囲んだキーが来るはずです"));
      }
      const key = string();
      if (Object.hasOwn(obj, key)) fail(tr(`the key "${key}" appears twice`, `キー "${key}" が二度あります`));
      space();
      if (text[i] !== ":") fail(tr("expected ':'", "':' が来るはずです"));
      i++;
      obj[key] = value();
      space();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === "}") {
        i++;
        return obj;
      }
      fail(tr("expected ',' or '}'", "',' か '}' が来るはずです"));
    }
  };
  const array = (): Json => {
    i++;
    const arr: Json[] = [];
    space();
    if (text[i] === "]") {
      i++;
      return arr;
    }
    for (;;) {
      arr.push(value());
      space();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === "]") {
        i++;
        return arr;
      }
      fail(tr("expected ',' or ']'", "',' か ']' が来るはずです"));
    }
  };
  const string = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") i++;
      else if (text.charCodeAt(i) < 0x20) {
        fail(tr("a control character in a string", "文字列の中に制御文字があります"));
      }
      i++;
    }
    if (i >= text.length) fail(tr("a string that is not closed", "文字列が閉じていません"));
    i++;
    try {
      return JSON.parse(text.slice(start, i));
    } catch {
      i = start;
      return fail(tr("a string with a bad escape", "文字列のエスケープが正しくありません"));
    }
  };
  const result = value();
  space();
  if (i < text.length) fail(tr("more text after the value", "値の後にまだテキストがあります"));
  return result;
}

/**
 * Writes JSON with `bigint` as bare digits; `indent` spaces per level as in `JSON.stringify`
 * (none: one line). `undefined` members are left out, as `JSON.stringify` does.
 *
 * @example
 * ```ts
 * stringifyJson({ qty: 1n << 62n }); // '{"qty":4611686018427387904}'
 * ```
 */
export function stringifyJson(value: unknown, indent = 0): string {
  const write = (v: unknown, depth: number): string | undefined => {
    if (typeof v === "bigint") return v.toString();
    if (v === null || typeof v !== "object") return JSON.stringify(v);
    const inner = indent === 0 ? "" : "\n" + " ".repeat(indent * (depth + 1));
    const outer = indent === 0 ? "" : "\n" + " ".repeat(indent * depth);
    const colon = indent === 0 ? ":" : ": ";
    if (Array.isArray(v)) {
      if (v.length === 0) return "[]";
      return `[${v.map((x) => inner + (write(x, depth + 1) ?? "null")).join(",")}${outer}]`;
    }
    const members = Object.entries(v).flatMap(([k, x]) => {
      const written = write(x, depth + 1);
      return written === undefined ? [] : [`${inner}${JSON.stringify(k)}${colon}${written}`];
    });
    return members.length === 0 ? "{}" : `{${members.join(",")}${outer}}`;
  };
  return write(value, 0) ?? "null";
}
