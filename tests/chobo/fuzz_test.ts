/**
 * Fuzzing `chobo check` with a fixed seed: random bytes, truncations, fixtures with one line
 * deleted or duplicated, and token soup. Every run must end in exit 0 or 1 with its diagnostics
 * and a summary line; an internal error (exit 2) or an uncaught exception fails the test.
 */

import { ok } from "node:assert/strict";
import { KEYWORDS } from "../../lang/chobo/syntax.ts";
import { runCli } from "../support/run.ts";
import { generator } from "../support/random.ts";

function sources(): Uint8Array[] {
  const dirs = ["tests/chobo/fixtures/", "tests/chobo/books/", "examples/inventory/"];
  return dirs.flatMap((dir) =>
    [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".book")).map((e) =>
      Deno.readFileSync(dir + e.name)
    )
  );
}

function inputs(seed: number): Uint8Array[] {
  const random = generator(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const books = sources();
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const out: Uint8Array[] = [];
  for (const book of books) {
    const lines = decoder.decode(book).split("\n");
    lines.forEach((_, i) => {
      out.push(encoder.encode(lines.filter((_, j) => j !== i).join("\n")));
      out.push(encoder.encode([...lines.slice(0, i + 1), ...lines.slice(i)].join("\n")));
    });
  }
  for (let i = 0; i < 600; i++) {
    const book = pick(books);
    out.push(book.slice(0, Math.floor(random() * book.length)));
  }
  for (let i = 0; i < 600; i++) {
    const bytes = new Uint8Array(Math.floor(random() * 300));
    for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(random() * 256);
    out.push(bytes);
  }
  const words = [
    ...KEYWORDS.flatMap((row) => row.words),
    "(",
    ")",
    ",",
    ":",
    "\n",
    "\n  ",
    "\n    ",
    "x",
    "在庫",
    "0",
    "-1",
    "1.5",
    "9223372036854775808",
    '"s"',
    '"',
    "#",
    "\t",
    "\uFEFF",
    "か\u3099",
    "v1",
  ];
  for (let i = 0; i < 800; i++) {
    const n = 1 + Math.floor(random() * 60);
    const soup = ["book f v1\n", ...Array.from({ length: n }, () => pick(words))].join(" ");
    out.push(encoder.encode(soup));
  }
  return out;
}

Deno.test("fuzz: at least 2,000 inputs, each ends in exit 0 or 1 with diagnostics and one summary line", () => {
  const all = inputs(20261130);
  ok(all.length >= 2000, `only ${all.length} inputs`);
  for (const [i, bytes] of all.entries()) {
    const run = runCli(["chobo", "check", "f.book"], { files: { "f.book": bytes } });
    const where = `input ${i}: ${JSON.stringify(new TextDecoder().decode(bytes).slice(0, 200))}`;
    ok(run.code === 0 || run.code === 1, `${where}: exit ${run.code}\n${run.stderr}`);
    ok(run.stderr === "", `${where}: ${run.stderr}`);
    const summaries = run.stdout.split("\n").filter((l) => l.startsWith("f.book: "));
    ok(summaries.length === 1, `${where}: no summary line`);
    if (run.code === 1) ok(run.stdout.includes("error["), `${where}: exit 1 without an error`);
  }
});
