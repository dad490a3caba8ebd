/** The bigint-exact JSON codec: amounts beyond 2⁵³ survive a round trip, and the text matches JSON.stringify's shape. */

import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { JsonError, parseJson, stringifyJson } from "../../lang/common/json.ts";

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
