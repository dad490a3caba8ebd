/** Reading bytes as UTF-8: the first bad byte is where the platform's decoder stops, and its place is the character's. */

import { strictEqual } from "node:assert/strict";
import { decodeUtf8, firstBadByte } from "../../lang/common/utf8.ts";
import { generator } from "../support/random.ts";

/** Bytes that make every kind of sequence: ASCII, the leads and continuations, the edges of each range. */
const PIECES = [
  0x61,
  0x0a,
  0xc2,
  0xc3,
  0xa9,
  0xe0,
  0xe3,
  0x81,
  0x82,
  0xed,
  0xa0,
  0x9f,
  0xf0,
  0xf4,
  0x90,
  0x8f,
  0xbf,
];

Deno.test("firstBadByte agrees with TextDecoder's fatal mode on 100,000 random byte strings", () => {
  const next = generator(19);
  const int = (n: number) => Math.floor(next() * n);
  const fatal = new TextDecoder("utf-8", { fatal: true });
  for (let t = 0; t < 100_000; t++) {
    const bytes = new Uint8Array(int(7));
    for (let i = 0; i < bytes.length; i++) bytes[i] = next() < 0.3 ? int(256) : PIECES[int(PIECES.length)];
    const at = firstBadByte(bytes);
    let whole = true;
    try {
      fatal.decode(bytes);
    } catch {
      whole = false;
    }
    strictEqual(at === -1, whole, `${[...bytes]}`);
    if (at >= 0) {
      fatal.decode(bytes.subarray(0, at));
      strictEqual(new TextDecoder().decode(bytes.subarray(at)).startsWith("\uFFFD"), true, `${[...bytes]}`);
    }
  }
});

Deno.test("the place of a bad byte counts characters, not bytes, and keeps a BOM", () => {
  const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x0a, 0xe5, 0x9c, 0xa8, 0x61, 0x80]);
  const bad = decodeUtf8(bytes);
  strictEqual(typeof bad === "string" ? bad : `${bad.offset} ${bad.line}:${bad.col}`, "8 2:3");
  strictEqual(decodeUtf8(bytes.subarray(0, 8)), "\uFEFF\n在a");
});
