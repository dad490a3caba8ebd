/**
 * Golden files: compare an output with the file that pins it, or write the file anew when
 * `RITSU_BLESS=1` (then review the diff in git).
 * @module
 */

import { strictEqual } from "node:assert/strict";
import { dirname } from "node:path";

/** Asserts `actual` equals the golden file at `path` (or writes it under RITSU_BLESS=1). */
export function assertGolden(path: string, actual: string): void {
  if (Deno.env.get("RITSU_BLESS") === "1") {
    Deno.mkdirSync(dirname(path), { recursive: true });
    Deno.writeTextFileSync(path, actual);
    return;
  }
  let expected: string;
  try {
    expected = Deno.readTextFileSync(path);
  } catch {
    throw new Error(`${path} is missing; run the tests with RITSU_BLESS=1 to write it`);
  }
  strictEqual(
    actual,
    expected,
    `${path} differs; run with RITSU_BLESS=1 and review the diff if the change is meant`,
  );
}
