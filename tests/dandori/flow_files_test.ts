/**
 * The books and child flows a flow names (docs/dandori.md#files-a-flow-names): read by real path
 * inside the repository of the flow given (the working directory where there is none), the
 * refusal naming the boundary and never quoting the file; each child checked once however many
 * tasks and flows run it, at most `MAX_CHILD_FLOWS` of them.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { checkFlow } from "../../lang/dandori/check.ts";
import { type FileRead, NO_SUCH_FILE } from "../../lang/dandori/env.ts";
import { MAX_CHILD_FLOWS } from "../../lang/dandori/limits.ts";
import { runCli } from "../support/run.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const STOCK = Deno.readTextFileSync(`${ROOT}tests/dandori/flows/books/stock.book`);

/** A flow that reads the book at `path` and does nothing with it. */
function usesBook(path: string): string {
  return `workflow w v1\n\nuse book stock from "${path}"\n\ninputs\n  x : string\n\nflow\n  succeed\n`;
}

/** A flow `name` whose tasks each run the child at a path of `children` (none: it runs nothing). */
function runs(name: string, children: readonly string[]): string {
  const tasks = children.map((c, i) => `task run_${i}(order: string)\n  flow "${c}"\n`).join("\n");
  const calls = children.map((_, i) => `  run_${i}(order: order)\n`).join("");
  return `workflow ${name} v1\n\ninputs\n  order : string\n\n${tasks}\nflow\n${calls}  succeed\n`;
}

Deno.test("a flow in flows/ reads ../books/ of its repository when checked from flows/", () => {
  const files = { "a.flow": usesBook("../books/stock.book"), "../books/stock.book": STOCK };
  const run = runCli(["dandori", "check", "a.flow"], {
    files,
    cwd: "/memory/shop/flows",
    repository: "/memory/shop",
  });
  strictEqual(run.code, 0, run.stdout);
});

Deno.test("in no repository the boundary is the working directory, and the refusal names it", () => {
  const files = { "a.flow": usesBook("../books/stock.book"), "../books/stock.book": STOCK };
  for (
    const [lang, said] of [["en", "outside the working directory /memory/shop/flows"], [
      "ja",
      "作業ディレクトリ /memory/shop/flows の外",
    ]]
  ) {
    const run = runCli(["dandori", "check", "a.flow", "--lang", lang], { files, cwd: "/memory/shop/flows" });
    strictEqual(run.code, 1);
    ok(run.stdout.includes("E005") && run.stdout.includes(said), run.stdout);
  }
});

Deno.test("a path through a symlinked directory is refused by its real path, and the file is not quoted", () => {
  const files = {
    "shop/a.flow": usesBook("linkdir/stock.book"),
    "shop/b.flow": runs("b", ["linkdir/creds.flow"]),
    "outside/stock.book": STOCK,
    "outside/creds.flow": "hunter2 is the password\n",
  };
  const links = { "shop/linkdir": "../outside" };
  for (const flow of ["shop/a.flow", "shop/b.flow"]) {
    const run = runCli(["dandori", "check", flow], { files, links, repository: "/memory/shop" });
    strictEqual(run.code, 1, flow);
    ok(run.stdout.includes(flow.endsWith("a.flow") ? "E005" : "E015"), run.stdout);
    ok(run.stdout.includes("outside the repository /memory/shop"), run.stdout);
    ok(run.stdout.includes("is /memory/outside/"), run.stdout);
    ok(!run.stdout.includes("hunter2"), run.stdout);
  }
  // The same link inside the repository is read.
  const inside = runCli(["dandori", "check", "shop/a.flow"], {
    files: { "shop/a.flow": usesBook("linkdir/stock.book"), "shop/books/stock.book": STOCK },
    links: { "shop/linkdir": "books" },
    repository: "/memory/shop",
  });
  strictEqual(inside.code, 0, inside.stdout);
});

Deno.test("on disk: a symlinked directory out of a git repository is refused, naming the repository", () => {
  const dir = Deno.realPathSync(Deno.makeTempDirSync());
  try {
    Deno.mkdirSync(`${dir}/repo`);
    Deno.mkdirSync(`${dir}/outside`);
    new Deno.Command("git", { args: ["init", "-q", `${dir}/repo`] }).outputSync();
    Deno.writeTextFileSync(`${dir}/outside/creds.flow`, "hunter2 is the password\n");
    Deno.symlinkSync(`${dir}/outside`, `${dir}/repo/linkdir`);
    Deno.writeTextFileSync(`${dir}/repo/a.flow`, runs("a", ["linkdir/creds.flow"]));
    const run = runCli(["dandori", "check", `${dir}/repo/a.flow`]);
    strictEqual(run.code, 1);
    ok(run.stdout.includes(`is ${dir}/outside/creds.flow, outside the repository ${dir}/repo`), run.stdout);
    ok(!run.stdout.includes("hunter2"), run.stdout);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a file named outside by `..` or by an absolute path is refused, not read", () => {
  const files = {
    "flows/a.flow": usesBook("../../proc/self/environ"),
    "flows/b.flow": usesBook("/etc/passwd"),
    "/proc/self/environ": "SECRET=hunter2\n",
  };
  const outside = runCli(["dandori", "check", "flows/a.flow"], { files });
  strictEqual(outside.code, 1);
  ok(outside.stdout.includes("is /proc/self/environ, outside the working directory /memory"), outside.stdout);
  ok(!outside.stdout.includes("hunter2"), outside.stdout);
  // An absolute path in a flow is read from the flow's directory, as every path it names.
  const absolute = runCli(["dandori", "check", "flows/b.flow"], { files });
  ok(absolute.stdout.includes("looked for flows/etc/passwd"), absolute.stdout);
});

Deno.test("a flow that runs itself through a link to its own directory is stopped", () => {
  const files = { "a.flow": runs("a", ["again/a.flow"]) };
  const run = runCli(["dandori", "check", "a.flow"], { files, links: { again: "." } });
  strictEqual(run.code, 1);
  ok(run.stdout.includes("which is running already: a flow cannot run itself"), run.stdout);
});

/** The 18-file diamond: each flow runs the next twice (2¹⁷ runs of the last, one file). */
function diamond(depth: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 1; i <= depth; i++) {
    files[`f${i}.flow`] = runs(`f${i}`, i === depth ? [] : [`f${i + 1}.flow`, `f${i + 1}.flow`]);
  }
  return files;
}

Deno.test("each child is checked once: the 18-file diamond reads each file once per task that names it", () => {
  const files = diamond(18);
  const reads = new Map<string, number>();
  const read = (p: string): FileRead => {
    reads.set(p, (reads.get(p) ?? 0) + 1);
    return p in files ? { bytes: new TextEncoder().encode(files[p]), real: `/${p}` } : NO_SUCH_FILE;
  };
  const result = checkFlow("f1.flow", files["f1.flow"], { read });
  deepStrictEqual(result.diagnostics, []);
  ok(result.checked !== null);
  // Two tasks name each of f2 … f18: two reads each, one check each.
  deepStrictEqual([...reads.values()], Array(17).fill(2));
  const run = runCli(["dandori", "check", "f1.flow"], { files });
  strictEqual(run.code, 0, run.stdout);
});

Deno.test(`a check reads at most MAX_CHILD_FLOWS (${MAX_CHILD_FLOWS}) child flows, and says so past it`, () => {
  const files: Record<string, string> = {};
  const last = MAX_CHILD_FLOWS + 1;
  for (let i = 0; i <= last; i++) files[`c${i}.flow`] = runs(`c${i}`, i === last ? [] : [`c${i + 1}.flow`]);
  for (
    const [lang, said] of [["en", `its limit (MAX_CHILD_FLOWS)`], [
      "ja",
      `上限の ${MAX_CHILD_FLOWS} 個(MAX_CHILD_FLOWS)`,
    ]]
  ) {
    const run = runCli(["dandori", "check", "c0.flow", "--lang", lang], { files });
    strictEqual(run.code, 1);
    ok(run.stdout.includes(said), run.stdout);
  }
  delete files[`c${last}.flow`];
  files[`c${last - 1}.flow`] = runs(`c${last - 1}`, []);
  strictEqual(runCli(["dandori", "check", "c0.flow"], { files }).code, 0);
});
