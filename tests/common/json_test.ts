/** The bigint-exact JSON codec: amounts beyond 2⁵³ survive a round trip, and the text matches JSON.stringify's shape. */

import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { JsonError, MAX_JSON_DEPTH, parseJson, stringifyJson } from "../../lang/common/json.ts";

Deno.test("integers are bigint and come back as the same digits", () => {
  const text =
    '{"qty": 9223372036854775807, "neg": -9007199254740993, "f": 1.5, "s": "a\\"b", "l": [true, null]}';
  const v = parseJson(text) as Record<string, unknown>;
  strictEqual(v.qty, 9223372036854775807n);
  strictEqual(v.neg, -9007199254740993n);
  strictEqual(v.f, 1.5);
  strictEqual(v.s, 'a"b');
  strictEqual(
    stringifyJson(v),
    '{"qty":9223372036854775807,"neg":-9007199254740993,"f":1.5,"s":"a\\"b","l":[true,null]}',
  );
});

Deno.test("indented output has the shape of JSON.stringify", () => {
  const plain = { a: [1, { b: "x", c: [] }], d: {}, e: "在庫" };
  strictEqual(stringifyJson(plain, 2), JSON.stringify(plain, null, 2));
  strictEqual(stringifyJson({ u: undefined, n: 1n }), '{"n":1}');
});

Deno.test("errors say where", () => {
  throws(() => parseJson('{"a": 1,\n "a": 2}'), (e: unknown) => e instanceof JsonError && e.line === 2);
  throws(() => parseJson("[1, 2"), JsonError);
  throws(() => parseJson("{} x"), JsonError);
  deepStrictEqual(parseJson("[]"), []);
});

Deno.test("a key named like a member of Object.prototype is a member like any other", () => {
  const v = parseJson('{"__proto__": {"polluted": 1}, "x": 2}') as Record<string, unknown>;
  deepStrictEqual(Object.keys(v), ["__proto__", "x"]);
  strictEqual(Object.getPrototypeOf(v), null);
  strictEqual(({} as Record<string, unknown>).polluted, undefined);
  const empty = parseJson("{}") as Record<string, unknown>;
  for (const name of ["toString", "valueOf", "constructor", "hasOwnProperty", "__proto__"]) {
    strictEqual(empty[name], undefined, name);
    strictEqual(name in empty, false, name);
  }
  strictEqual(stringifyJson(v), '{"__proto__":{"polluted":1},"x":2}');
});

Deno.test(`arrays and objects nest at most MAX_JSON_DEPTH (${MAX_JSON_DEPTH}) deep, and deeper is an error with its place`, () => {
  const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
  strictEqual(stringifyJson(parseJson(deep(MAX_JSON_DEPTH))), deep(MAX_JSON_DEPTH));
  throws(
    () => parseJson(deep(MAX_JSON_DEPTH + 1)),
    (e: unknown) => e instanceof JsonError && e.col === MAX_JSON_DEPTH + 1 && e.message.includes("nest"),
  );
  throws(() => parseJson('{"a":'.repeat(100_000)), (e: unknown) => e instanceof JsonError);
});

Deno.test("bytes are read as UTF-8 and refused at the first bad byte, a U+FFFD the text holds being no bad byte", () => {
  const bytes = new TextEncoder().encode('["\uFFFD", "a\nbé');
  const bad = new Uint8Array([...bytes, 0xff, 0x22, 0x5d]);
  throws(
    () => parseJson(bad),
    (e: unknown) => e instanceof JsonError && e.line === 2 && e.col === 3 && e.message.includes("UTF-8"),
  );
  deepStrictEqual(parseJson(new TextEncoder().encode('["\uFFFD"]')), ["\uFFFD"]);
});
