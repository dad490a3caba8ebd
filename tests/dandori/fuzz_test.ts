/**
 * Fuzzing `dandori check` with a fixed seed: the test flows with one line deleted or duplicated,
 * truncations, random bytes, and token soup from the keyword table, every one with the books and
 * child flows of tests/dandori/flows beside it. Every run must end in exit 0, 1 or 2 with its diagnostics
 * and one summary line; an internal error or an uncaught exception fails the test.
 */

import { ok } from "node:assert/strict";
import { KEYWORDS } from "../../lang/dandori/syntax.ts";
import { generator } from "../support/random.ts";
import { type Run, runCli } from "../support/run.ts";

const FLOWS = new URL("./flows/", import.meta.url).pathname;

/** The files of tests/dandori/flows by their path from it: the flows to vary, and what they read. */
function beside(): { flows: Uint8Array[]; files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>();
  const walk = (sub: string) => {
    for (const e of Deno.readDirSync(FLOWS + sub)) {
      if (e.isDirectory) walk(`${sub}${e.name}/`);
      else files.set(sub + e.name, Deno.readFileSync(FLOWS + sub + e.name));
    }
  };
  walk("");
  const flows = [...files].filter(([name]) => name.endsWith(".flow")).map(([, bytes]) => bytes);
  return { flows, files };
}

function inputs(seed: number, flows: readonly Uint8Array[]): Uint8Array[] {
  const random = generator(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const out: Uint8Array[] = [];
  for (const flow of flows) {
    const lines = decoder.decode(flow).split("\n");
    lines.forEach((_, i) => {
      out.push(encoder.encode(lines.filter((_, j) => j !== i).join("\n")));
      out.push(encoder.encode([...lines.slice(0, i + 1), ...lines.slice(i)].join("\n")));
    });
  }
  for (let i = 0; i < 400; i++) {
    const flow = pick(flows);
    out.push(flow.slice(0, Math.floor(random() * flow.length)));
  }
  for (let i = 0; i < 400; i++) {
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
    ".",
    "=>",
    "<-",
    "->",
    "?",
    "[",
    "]",
    "{",
    "}",
    "\n",
    "\n  ",
    "\n    ",
    "\n      ",
    "x",
    "goods",
    "stock.reserve",
    "stock.reserve.hold",
    "books/stock.book",
    "在庫",
    "0",
    "-1",
    "1.5",
    "1kg",
    "2026-01-01",
    '"s"',
    '"',
    "#",
    "…",
    "\t",
    "v1",
  ];
  for (let i = 0; i < 600; i++) {
    const n = 1 + Math.floor(random() * 60);
    const soup = [
      'workflow f v1\nuse book stock from "books/stock.book"\n',
      ...Array.from({ length: n }, () => pick(words)),
    ];
    out.push(encoder.encode(soup.join(" ")));
  }
  return out;
}

/** Runs `dandori check f.flow` in-process with `f.flow` and the files of tests/dandori/flows beside it. */
function check(flow: Uint8Array, files: ReadonlyMap<string, Uint8Array>): Run {
  return runCli(["dandori", "check", "f.flow"], { files: { ...Object.fromEntries(files), "f.flow": flow } });
}

Deno.test("fuzz: at least 2,000 inputs, each ends in exit 0, 1 or 2 with diagnostics and one summary line", () => {
  const { flows, files } = beside();
  const all = inputs(20261130, flows);
  ok(all.length >= 2000, `only ${all.length} inputs`);
  for (const [i, bytes] of all.entries()) {
    const where = `input ${i}: ${JSON.stringify(new TextDecoder().decode(bytes).slice(0, 300))}`;
    let run;
    try {
      run = check(bytes, files);
    } catch (e) {
      throw new Error(`${where}: ${e instanceof Error ? e.stack : e}`);
    }
    ok(run.code === 0 || run.code === 1 || run.code === 2, `${where}: exit ${run.code}`);
    ok(run.stderr === "", `${where}: ${run.stderr}`);
    const summaries = run.stdout.split("\n").filter((l) => l.startsWith("f.flow: "));
    ok(summaries.length === 1, `${where}: no summary line`);
    if (run.code === 1) ok(run.stdout.includes("error["), `${where}: exit 1 without an error`);
    if (run.code === 2) ok(run.stdout.includes("error[E018]"), `${where}: exit 2 without E018`);
  }
});
