/**
 * JSON with exact integers: integer literals are read as `bigint` and `bigint` values are written
 * as bare digits, so an amount beyond 2⁵³ never passes through a JS `number`.
 * @module
 */

/** A JSON value as this codec reads it: integers are `bigint`, other numbers `number`. */
export type Json = null | boolean | bigint | number | string | Json[] | { [key: string]: Json };

/** Why a text is not JSON, with the place. */
export class JsonError extends Error {
  constructor(message: string, readonly line: number, readonly col: number) {
    super(message);
  }
}

/**
 * Parses JSON; integers become `bigint`. Duplicate keys are an error (a scenario with two `args`
 * would otherwise silently lose one).
 *
 * @example
 * ```ts
 * parseJson('{"qty": 9223372036854775807}'); // { qty: 9223372036854775807n }
 * ```
 */
export function parseJson(text: string): Json {
  let i = 0;
  const fail = (message: string): never => {
    const before = text.slice(0, i);
    const line = before.split("\n").length;
    throw new JsonError(message, line, i - before.lastIndexOf("\n"));
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const value = (): Json => {
    space();
    const ch = text[i];
    if (ch === "{") {
      i++;
      const obj: { [key: string]: Json } = {};
      space();
      if (text[i] === "}") {
        i++;
        return obj;
      }
      for (;;) {
        space();
        if (text[i] !== '"') fail("expected a key in double quotes");
        const key = string();
        if (Object.hasOwn(obj, key)) fail(`the key "${key}" appears twice`);
        space();
        if (text[i] !== ":") fail("expected ':'");
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
        fail("expected ',' or '}'");
      }
    }
    if (ch === "[") {
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
        fail("expected ',' or ']'");
      }
    }
    if (ch === '"') return string();
    for (const [word, v] of [["true", true], ["false", false], ["null", null]] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    const m = /^-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i));
    if (m === null) {
      return fail(i >= text.length ? "unexpected end of the text" : `unexpected character '${ch}'`);
    }
    i += m[0].length;
    return m[1] === undefined && m[2] === undefined ? BigInt(m[0]) : Number(m[0]);
  };
  const string = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") i++;
      else if (text.charCodeAt(i) < 0x20) fail("a control character in a string");
      i++;
    }
    if (i >= text.length) fail("a string that is not closed");
    i++;
    try {
      return JSON.parse(text.slice(start, i));
    } catch {
      i = start;
      return fail("a string with a bad escape");
    }
  };
  const result = value();
  space();
  if (i < text.length) fail("more text after the value");
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
