/**
 * The modules of lang/dandori import one another without a cycle, type-only imports included: a
 * stage reads the ones below it, and what two stages share lives in a module below both.
 */

import { deepStrictEqual, ok } from "node:assert/strict";

const DIR = new URL("../../lang/dandori/", import.meta.url).pathname;

/** The modules of lang/dandori each module imports or re-exports, by file name. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const e of Deno.readDirSync(DIR)) {
    if (!e.name.endsWith(".ts")) continue;
    const text = Deno.readTextFileSync(DIR + e.name);
    const deps = [...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+"\.\/([^"/]+\.ts)"/gms)].map((m) =>
      m[1]
    );
    graph.set(e.name, deps);
  }
  return graph;
}

/** Every cycle met by a depth-first walk, each as the modules around it. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const done = new Set<string>();
  const path: string[] = [];
  const found: string[] = [];
  const visit = (n: string) => {
    path.push(n);
    for (const m of graph.get(n) ?? []) {
      const back = path.indexOf(m);
      if (back >= 0) found.push([...path.slice(back), m].join(" → "));
      else if (!done.has(m)) visit(m);
    }
    path.pop();
    done.add(n);
  };
  for (const n of [...graph.keys()].sort()) if (!done.has(n)) visit(n);
  return found;
}

Deno.test("the import graph of lang/dandori has no cycle, type-only imports included", () => {
  const graph = importGraph();
  deepStrictEqual(cycles(new Map([["a.ts", ["b.ts"]], ["b.ts", ["a.ts"]]])), ["a.ts → b.ts → a.ts"]);
  ok(graph.get("check.ts")?.includes("children.ts"), "the walk reads the imports");
  deepStrictEqual(cycles(graph), []);
});
