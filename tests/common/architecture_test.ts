/**
 * The house's shape, kept by a test (docs/architecture.md): imports run down the floors only —
 * `lang/` imports nothing of `commands/`, `targets/` or `verify/`; `targets/` nothing of
 * `commands/` or `verify/`; `verify/` nothing of `commands/`; the core of a language never imports
 * its views (the pages, the run and report texts, `api`, the plan's text) — and no import cycle
 * exists anywhere, type-only imports included. Imports are read from the modules' tokens
 * (`tests/support/imports.ts`): static, type-only, side-effect, `export … from` and literal dynamic
 * ones. The test also shows the rules fail on a planted upward import of each form and on a planted
 * cycle, and pass over decoys (an import in a comment, a string, a template, a regular expression).
 */

import { deepStrictEqual, ok } from "node:assert/strict";
import { type ImportForm, importsIn } from "../support/imports.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const FOLDERS = ["lang", "targets", "commands", "verify"];

/** The views of each language: above its core, read by commands and targets, never by the core. */
const VIEWS: readonly string[] = [
  "lang/chobo/api.ts",
  "lang/chobo/doc.ts",
  "lang/chobo/draw.ts",
  "lang/chobo/page.ts",
  "lang/chobo/report.ts",
  "lang/chobo/run.ts",
  "lang/dandori/chart.ts",
  "lang/dandori/doc.ts",
  "lang/dandori/doc_endings.ts",
  "lang/dandori/doc_examples.ts",
  "lang/dandori/doc_notes.ts",
  "lang/dandori/doc_runs.ts",
  "lang/dandori/doc_text.ts",
  "lang/dandori/draw.ts",
  "lang/dandori/layout.ts",
  "lang/dandori/lit.ts",
  "lang/dandori/masked.ts",
  "lang/dandori/mermaid.ts",
  "lang/dandori/page.ts",
  "lang/dandori/plan_text.ts",
  "lang/dandori/run.ts",
  "lang/playground/answers.ts",
  "lang/playground/html.ts",
  "lang/playground/main.ts",
  "lang/playground/words.ts",
];

/** Module → the modules of this repository it imports (relative imports of every form, type-only ones too). */
type Graph = Map<string, string[]>;

/** The modules the floors hold, by path from the repository's root, with their text. */
function readTree(): Map<string, string> {
  const tree = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(`${ROOT}${dir}`)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) walk(path);
      else if (e.name.endsWith(".ts") && !path.includes("/runtime/")) {
        tree.set(path, Deno.readTextFileSync(`${ROOT}${path}`));
      }
    }
  };
  FOLDERS.forEach(walk);
  for (const top of ["cli.ts", "mod.ts"]) tree.set(top, Deno.readTextFileSync(`${ROOT}${top}`));
  return tree;
}

function graphOf(tree: ReadonlyMap<string, string>): Graph {
  return new Map([...tree].map(([path, text]) => [path, importsOf(path, text)]));
}

function readGraph(): Graph {
  return graphOf(readTree());
}

/** The modules of this repository `text` (the module at `path`) imports, by every form. */
function importsOf(path: string, text: string): string[] {
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  const out = new Set<string>();
  for (const { specifier } of importsIn(text)) {
    if (specifier.startsWith("./") || specifier.startsWith("../")) out.add(normalize(`${dir}/${specifier}`));
  }
  return [...out].sort();
}

function normalize(path: string): string {
  const parts: string[] = [];
  for (const p of path.split("/")) {
    if (p === "" || p === ".") continue;
    if (p === "..") parts.pop();
    else parts.push(p);
  }
  return parts.join("/");
}

/** The floors each floor must not import: everything above it. */
const ABOVE: Readonly<Record<string, readonly string[]>> = {
  lang: ["commands", "verify", "targets"],
  targets: ["commands", "verify"],
  verify: ["commands"],
};

/** The imports that run up a floor, as `from → to`. */
function upward(graph: Graph): string[] {
  const floor = (p: string) => p.split("/")[0];
  const out: string[] = [];
  for (const [from, tos] of graph) {
    for (const to of tos) {
      const f = floor(from);
      const t = floor(to);
      const bad = (ABOVE[f] ?? []).includes(t) ||
        (f === "lang" && !VIEWS.includes(from) && VIEWS.includes(to));
      if (bad) out.push(`${from} → ${to}`);
    }
  }
  return out.sort();
}

/** Every import cycle, each once, from its smallest module. */
function cycles(graph: Graph): string[] {
  const found = new Set<string>();
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, "open");
    stack.push(n);
    for (const m of graph.get(n) ?? []) {
      if (state.get(m) === "open") {
        const loop = stack.slice(stack.indexOf(m));
        const start = loop.indexOf([...loop].sort()[0]);
        found.add([...loop.slice(start), ...loop.slice(0, start), loop[start]].join(" → "));
      } else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, "done");
  };
  for (const n of [...graph.keys()].sort()) if (!state.has(n)) visit(n);
  return [...found].sort();
}

Deno.test("imports run down the floors, and the core never imports its views", () => {
  const graph = readGraph();
  ok(graph.size > 100, `${graph.size} modules`);
  deepStrictEqual(upward(graph), []);
});

Deno.test("no import cycle, type-only imports included", () => {
  deepStrictEqual(cycles(readGraph()), []);
});

Deno.test("a planted upward import and a planted cycle are caught", () => {
  const graph = readGraph();
  const planted: Graph = new Map(graph);
  planted.set("lang/dandori/interp.ts", [
    ...(graph.get("lang/dandori/interp.ts") ?? []),
    "targets/chobo/targets.ts",
  ]);
  planted.set("lang/chobo/model.ts", [...(graph.get("lang/chobo/model.ts") ?? []), "lang/chobo/report.ts"]);
  planted.set("verify/chobo/stores.ts", [...(graph.get("verify/chobo/stores.ts") ?? []), "commands/io.ts"]);
  deepStrictEqual(upward(planted), [
    "lang/chobo/model.ts → lang/chobo/report.ts",
    "lang/dandori/interp.ts → targets/chobo/targets.ts",
    "verify/chobo/stores.ts → commands/io.ts",
  ]);
  const loop: Graph = new Map(graph);
  loop.set("lang/common/text.ts", [...(graph.get("lang/common/text.ts") ?? []), "lang/common/diagnostic.ts"]);
  ok(
    cycles(loop).some((c) => c.includes("lang/common/diagnostic.ts → lang/common/text.ts")),
    cycles(loop).join("\n"),
  );
});

/** Each form of import, planted in a copy of the tree: each must be read, and with its form. */
const PLANTED: readonly (readonly [ImportForm, string])[] = [
  ["static", `import { TARGETS } from "../../targets/chobo/targets.ts";`],
  ["type-only", `import type { ChoboTargetName } from "../../targets/chobo/targets.ts";`],
  ["side-effect", `import "../../targets/chobo/targets.ts";`],
  ["export-from", `export { TARGETS } from "../../targets/chobo/targets.ts";`],
  ["export-from", `export * from "../../targets/chobo/targets.ts";`],
  ["dynamic", `const targets = await import("../../targets/chobo/targets.ts");`],
  // An `import("…")` type reads as the call does.
  ["dynamic", `type T = typeof import("../../targets/chobo/targets.ts");`],
];

/** What looks like an import and is not one: in a comment, a string, a template, a regular expression. */
const DECOYS: readonly string[] = [
  `// import "../../targets/chobo/targets.ts";`,
  `/* import { TARGETS } from "../../targets/chobo/targets.ts"; */`,
  `const said = 'import "../../targets/chobo/targets.ts";';`,
  'const printed = `import { TARGETS } from "../../targets/chobo/targets.ts";\\n${x.map((y) => `${y}`)}`;',
  `const matcher = /import "(\\.\\.\\/[^"]+)"/;`,
  "const computed = await import(`../../targets/${name}.ts`);",
];

Deno.test("every form of import is read: a planted one of each form in lang/ is caught, and decoys are not", () => {
  const tree = readTree();
  const model = "lang/chobo/model.ts";
  const text = tree.get(model) ?? "";
  for (const [form, line] of PLANTED) {
    deepStrictEqual(importsIn(line), [{ specifier: "../../targets/chobo/targets.ts", form }], line);
    const planted = new Map(tree).set(model, `${text}\n${line}\n`);
    deepStrictEqual(upward(graphOf(planted)), [`${model} → targets/chobo/targets.ts`], line);
  }
  for (const line of DECOYS) {
    deepStrictEqual(importsIn(line), [], line);
    deepStrictEqual(upward(graphOf(new Map(tree).set(model, `${text}\n${line}\n`))), [], line);
  }
});

/** What a program in examples/ imports of the floors, besides the library API and the examples' own files. */
function floorImports(path: string, text: string): string[] {
  return importsOf(path, text).filter((m) => m !== "mod.ts" && !m.startsWith("examples/"));
}

Deno.test("a program in examples/ (the demo) reaches the floors through the library API alone", () => {
  const programs: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(`${ROOT}${dir}`)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) walk(path);
      else if (e.name.endsWith(".ts")) programs.push(path);
    }
  };
  walk("examples");
  ok(programs.includes("examples/demo/demo.ts"), programs.join(", "));
  for (const path of programs) {
    deepStrictEqual(floorImports(path, Deno.readTextFileSync(`${ROOT}${path}`)), [], path);
  }
  deepStrictEqual(importsOf("examples/demo/demo.ts", Deno.readTextFileSync(`${ROOT}examples/demo/demo.ts`)), [
    "mod.ts",
  ]);
  const planted = `import { lower } from "../../lang/dandori/lower.ts";\n`;
  deepStrictEqual(floorImports("examples/demo/demo.ts", planted), ["lang/dandori/lower.ts"]);
});

/** The modules `entry` reaches, itself included, by every form of import. */
function reached(entry: string, graph: Graph): string[] {
  const seen = new Set<string>([entry]);
  for (const m of seen) for (const n of graph.get(m) ?? []) seen.add(n);
  return [...seen].sort();
}

/** The `node:` and `npm:` modules the modules of `tree` at `paths` import, as `module → specifier`. */
function outsideImports(tree: ReadonlyMap<string, string>, paths: readonly string[]): string[] {
  return paths.flatMap((p) =>
    importsIn(tree.get(p) ?? "").map((i) => i.specifier).filter((s) => /^(node|npm):/.test(s)).map((s) =>
      `${p} → ${s}`
    )
  );
}

Deno.test("the playground's script reaches no node: or npm: module (the browser bundle holds none)", () => {
  const tree = readTree();
  const graph = graphOf(tree);
  const modules = reached("lang/playground/main.ts", graph);
  ok(modules.includes("lang/dandori/resolve.ts") && modules.length > 80, `${modules.length} modules`);
  deepStrictEqual(outsideImports(tree, modules), []);
  const planted = new Map(tree).set(
    "lang/dandori/resolve.ts",
    `import { join } from "node:path";\n${tree.get("lang/dandori/resolve.ts")}`,
  );
  deepStrictEqual(outsideImports(planted, modules), ["lang/dandori/resolve.ts → node:path"]);
});

/** chobo's TigerBeetle client printers: each reads the chains only through the plan (`TbPlan`). */
const TB_PRINTERS = [
  "targets/chobo/tigerbeetle/typescript.ts",
  "targets/chobo/tigerbeetle/python.ts",
  "targets/chobo/tigerbeetle/go.ts",
];

/** The modules of `targets/chobo/tigerbeetle/` a TigerBeetle printer may import: the plan and the embedded runtimes. */
const TB_PRINTER_READS = ["targets/chobo/tigerbeetle/plan.ts", "targets/chobo/tigerbeetle/runtimes.ts"];

/** What a TigerBeetle printer imports from its own folder beyond the plan and the runtimes. */
function tbPrinterStrays(path: string, text: string): string[] {
  return importsOf(path, text).filter((m) =>
    m.startsWith("targets/chobo/tigerbeetle/") && !TB_PRINTER_READS.includes(m)
  );
}

Deno.test("chobo's TigerBeetle printers import only the plan of their folder, and its runtimes import nothing of the repository", () => {
  for (const path of TB_PRINTERS) {
    deepStrictEqual(tbPrinterStrays(path, Deno.readTextFileSync(`${ROOT}${path}`)), [], path);
  }
  for (const file of ["runtime.ts", "runtime.py", "runtime.go"]) {
    const text = Deno.readTextFileSync(`${ROOT}targets/chobo/tigerbeetle/runtime/${file}`);
    ok(
      !/from "\.\.?\/|^import (chobo|targets)/m.test(text),
      `runtime/${file} imports nothing of the repository`,
    );
  }
  const planted = `import { moveSends } from "./chain.ts";\n`;
  deepStrictEqual(tbPrinterStrays("targets/chobo/tigerbeetle/go.ts", planted), [
    "targets/chobo/tigerbeetle/chain.ts",
  ]);
});
