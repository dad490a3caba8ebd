/**
 * `besidePath` (lang/common/paths.ts) says what `node:path`'s `normalize(join(dirname(file), path))`
 * says, for the paths flows write and for random ones of `.`, `..`, empty and repeated segments.
 */

import { strictEqual } from "node:assert/strict";
import { dirname, join, normalize } from "node:path";
import { besidePath } from "../../lang/common/paths.ts";
import { generator } from "../support/random.ts";

const SEED = 38;
const RANDOM_PAIRS = 20_000;
const SEGMENTS = ["a", "b", ".", "..", "", "ü", "...", "書"];

function nodeBeside(file: string, path: string): string {
  return normalize(join(dirname(file), path));
}

Deno.test("besidePath: the paths flows write", () => {
  const written: readonly [string, string, string][] = [
    ["examples/orders/orders.flow", "../inventory/inventory.book", "examples/inventory/inventory.book"],
    ["orders.flow", "../x.book", "../x.book"],
    ["/repo/a.flow", "../../../x.book", "/x.book"],
    ["a/b.flow", "./c/./d.flow", "a/c/d.flow"],
  ];
  for (const [file, path, want] of written) {
    strictEqual(besidePath(file, path), want);
    strictEqual(nodeBeside(file, path), want);
  }
});

Deno.test("besidePath: as node:path over random paths", () => {
  const random = generator(SEED);
  const pick = (n: number) => Math.floor(random() * n);
  const path = () => {
    const segments = Array.from({ length: pick(5) }, () => SEGMENTS[pick(SEGMENTS.length)]);
    return `${pick(3) === 0 ? "/" : ""}${segments.join("/")}${pick(4) === 0 ? "/" : ""}`;
  };
  for (let i = 0; i < RANDOM_PAIRS; i++) {
    const [file, written] = [path(), path()];
    strictEqual(besidePath(file, written), nodeBeside(file, written), JSON.stringify([file, written]));
  }
});
