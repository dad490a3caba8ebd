/**
 * Reading bytes as UTF-8 exactly: a text that is not UTF-8 is refused at its first bad byte, never
 * decoded with U+FFFD in its place (a U+FFFD the text itself holds is not mistaken for one).
 * @module
 */

/** The bytes a sequence's second byte may be after each lead byte (WHATWG Encoding, UTF-8 decoder). */
function secondRange(lead: number): readonly [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/** How many bytes follow the lead byte `b`, or -1 when `b` cannot begin a sequence. */
function following(b: number): number {
  if (b < 0x80) return 0;
  if (b >= 0xc2 && b <= 0xdf) return 1;
  if (b >= 0xe0 && b <= 0xef) return 2;
  if (b >= 0xf0 && b <= 0xf4) return 3;
  return -1;
}

/**
 * The offset of the first byte that begins a sequence that is not UTF-8 (a stray continuation
 * byte, an overlong form, a surrogate, a sequence cut short), or -1 when all of `bytes` is UTF-8.
 *
 * @example
 * ```ts
 * firstBadByte(new Uint8Array([0x61, 0xff])); // 1
 * ```
 */
export function firstBadByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const n = following(bytes[i]);
    if (n < 0 || i + n >= bytes.length && n > 0) return i;
    if (n > 0) {
      const [low, high] = secondRange(bytes[i]);
      if (bytes[i + 1] < low || bytes[i + 1] > high) return i;
      for (let k = 2; k <= n; k++) {
        if (bytes[i + k] < 0x80 || bytes[i + k] > 0xbf) return i;
      }
    }
    i += n + 1;
  }
  return -1;
}

/** Where a text stops being UTF-8: the byte's offset, and the line and column of the character it begins. */
export interface BadByte {
  readonly offset: number;
  readonly line: number;
  readonly col: number;
}

/**
 * `bytes` as text when they are UTF-8, else where they stop being so. A BOM is kept as U+FEFF, so a
 * reader that refuses one can say where it is.
 */
export function decodeUtf8(bytes: Uint8Array): string | BadByte {
  const offset = firstBadByte(bytes);
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  if (offset < 0) return decoder.decode(bytes);
  const before = decoder.decode(bytes.subarray(0, offset));
  const last = before.slice(before.lastIndexOf("\n") + 1);
  return { offset, line: before.split("\n").length, col: [...last].length + 1 };
}
