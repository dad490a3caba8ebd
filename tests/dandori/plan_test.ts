/**
 * The plan (`dandori plan`): its JSON is pinned for every test and example flow that passes the
 * check; its graph reaches exactly the statements the checker's case analysis reaches; every call
 * of the structured form is a node of the graph with an edge for each way it ends; and the text
 * form reads in both languages.
 */

import { maskText } from "../../lang/common/secrets.ts";
import { visible } from "../../lang/common/visible.ts";
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { stringifyJson } from "../../lang/common/json.ts";
import type { Plan, StmtPlan } from "../../lang/dandori/plan.ts";
import { everyRunnableFlow } from "../support/flows.ts";
import { assertGolden } from "../support/golden.ts";
import { runCli } from "../support/run.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const GOLDEN = `${ROOT}tests/dandori/golden/plan/`;
const FLOWS = everyRunnableFlow();

function stem(path: string): string {
  return path.replace(/^tests\/dandori\/flows\//, "").replace(/\.flow$/, "");
}

Deno.test("dandori plan: the JSON of every test and example flow is pinned, and the command prints it", async (t) => {
  for (const f of FLOWS) {
    await t.step(f.path, () => {
      const json = stringifyJson(f.plan, 2) + "\n";
      assertGolden(`${GOLDEN}${stem(f.path)}.json`, json);
      const run = runCli(["dandori", "plan", f.path]);
      strictEqual(run.code, 0, run.stderr);
      // The command prints the plan as every output is shown: keys masked (key.flow names one).
      strictEqual(run.stdout, visible(maskText(json)));
    });
  }
});

Deno.test("dandori plan --format text: pinned in both languages for the test flows", () => {
  for (const f of FLOWS.filter((x) => x.path.startsWith("tests/"))) {
    for (const lang of ["en", "ja"] as const) {
      const run = runCli(["dandori", "plan", f.path, "--format", "text", "--lang", lang]);
      strictEqual(run.code, 0, run.stderr);
      assertGolden(`${GOLDEN}${stem(f.path)}.${lang}.txt`, run.stdout);
    }
  }
});

/** The lines of the statements a graph reaches from its start, `on failure` and `on cancel` included. */
function reachedLines(p: Plan): Set<number> {
  const next = new Map<string, string[]>();
  for (const e of p.graph.edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const seen = new Set<string>(["start"]);
  const queue = ["start"];
  while (queue.length > 0) {
    const n = queue.shift() ?? "";
    for (const m of next.get(n) ?? []) {
      if (seen.has(m)) continue;
      seen.add(m);
      queue.push(m);
    }
  }
  const lines = new Set<number>();
  for (const node of p.graph.nodes) {
    if (seen.has(node.id) && node.place !== null && node.kind !== "period") lines.add(node.line);
  }
  return lines;
}

Deno.test("the plan's graph reaches exactly the statements the checker reaches, on every flow", () => {
  for (const f of FLOWS) {
    const checker = [...f.checked.reached].sort((a, b) => a - b);
    const graph = [...reachedLines(f.plan)].sort((a, b) => a - b);
    deepStrictEqual(graph, checker, f.path);
  }
});

function calls(ss: readonly StmtPlan[]): Extract<StmtPlan, { kind: "call" }>[] {
  return ss.flatMap((s) => {
    switch (s.kind) {
      case "call":
        return [s, ...s.call.handlers.flatMap((h) => calls(h.body))];
      case "match":
        return s.arms.flatMap((a) => calls(a.body));
      case "repeat":
      case "for":
        return calls(s.body);
      default:
        return [];
    }
  });
}

Deno.test("every call is a node with an ok edge, an edge per handler, and one for its unhandled errors", () => {
  for (const f of FLOWS) {
    const b = f.plan.blocks;
    for (const s of [...calls(b.flow), ...calls(b.failure ?? []), ...calls(b.cancel ?? [])]) {
      const out = f.plan.graph.edges.filter((e) => e.from === s.place);
      ok(out.some((e) => e.when.kind === "ok" || e.when.kind === "again"), `${f.path}: ${s.place} ok`);
      strictEqual(
        out.filter((e) => e.when.kind === "handler").length,
        s.call.handlers.length,
        `${f.path}: ${s.place}`,
      );
      const unhandled = s.call.routes.some((r) => typeof r.to !== "number");
      strictEqual(out.some((e) => e.when.kind === "unhandled"), unhandled, `${f.path}: ${s.place} unhandled`);
    }
  }
});
