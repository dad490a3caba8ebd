/**
 * The runs a flow with errors shows (docs/design/dandori.md#the-page): no
 * scenario runs on a flow that did not pass, so the page lights instead the run each diagnostic
 * prints (the operations that get there), E020's among them. Each step of such a run names a line: a statement, an
 * arm, a handler, or what happens outside. The steps do not say how a call returned or how a loop
 * went round, so the way between two lit statements is read off the chart: the shortest way along
 * its edges (lines and jumps) — every step still follows an edge from the one before.
 * @module
 */

import { assert, lookup } from "../common/assert.ts";
import { type Lang, tr } from "../common/text.ts";
import type { ChartEdge, ChartNode, Charts } from "./chart.ts";
import { caseLines, factsAt } from "./doc_runs.ts";
import { statementsOf } from "./doc_text.ts";
import type { Example, FlowFacts } from "./facts.ts";
import type { PageRun, PageStep } from "./page.ts";
import type { Plan } from "./plan.ts";

/** Where a line of a step leads: a statement's node, or an arm's or a handler's edge out of its statement. */
type Target =
  | { readonly kind: "node"; readonly node: string }
  | {
    readonly kind: "edge";
    readonly from: string;
    readonly edge: "arm" | "handler";
    readonly index: number;
  };

function targets(plan: Plan): Map<number, Target> {
  const out = new Map<number, Target>();
  for (const s of statementsOf(plan)) {
    if (s.kind === "period") continue;
    if (s.kind === "match") {
      s.arms.forEach((a, index) => out.set(a.line, { kind: "edge", from: s.place, edge: "arm", index }));
    }
    if (s.kind === "call") {
      s.call.handlers.forEach((h, index) =>
        out.set(h.line, { kind: "edge", from: s.place, edge: "handler", index })
      );
    }
  }
  // A statement on the line of its arm or handler (`on e => fail …`) is the line's own target.
  for (const s of statementsOf(plan)) {
    if (s.kind !== "period") out.set(s.line, { kind: "node", node: s.place });
  }
  return out;
}

/** Walks the chart from its start toward each target, one step per node. */
class Walk {
  readonly steps: { node: string; edge: string | null; notes: string[] }[] = [
    { node: "start", edge: null, notes: [] },
  ];
  private readonly from: ReadonlyMap<string, readonly ChartEdge[]>;

  constructor(charts: Charts) {
    const from = new Map<string, ChartEdge[]>();
    for (const e of charts.edges) from.set(e.from, [...(from.get(e.from) ?? []), e]);
    this.from = from;
  }

  private get cur(): string {
    return this.steps[this.steps.length - 1].node;
  }

  private take(e: ChartEdge): void {
    this.steps.push({ node: e.to, edge: e.id, notes: [] });
  }

  /** The shortest way from where the walk is to `node` (breadth first, edges in the chart's order). */
  to(node: string): void {
    if (this.cur === node) return;
    const came = new Map<string, ChartEdge>();
    const queue = [this.cur];
    for (let i = 0; i < queue.length && !came.has(node); i++) {
      for (const e of this.from.get(queue[i]) ?? []) {
        if (e.to === this.cur || came.has(e.to)) continue;
        came.set(e.to, e);
        queue.push(e.to);
      }
    }
    const way: ChartEdge[] = [];
    for (let at = node; at !== this.cur;) {
      const e = came.get(at);
      assert(e !== undefined, `the chart has a way from ${this.cur} to ${node}`);
      way.unshift(e);
      at = e.from;
    }
    for (const e of way) this.take(e);
  }

  along(from: string, kind: "arm" | "handler", index: number): void {
    this.to(from);
    const e = (this.from.get(from) ?? []).find((x) => x.kind === kind && x.index === index);
    assert(e !== undefined, `${from} has its ${kind} ${index}`);
    this.take(e);
  }

  note(text: string): void {
    this.steps[this.steps.length - 1].notes.push(text);
  }
}

function exampleRun(ex: Example, plan: Plan, charts: Charts, facts: FlowFacts, lang: Lang): PageRun {
  const where = targets(plan);
  const walk = new Walk(charts);
  for (const step of ex.steps) {
    const t = step.line === null ? undefined : where.get(step.line);
    if (t?.kind === "node") walk.to(t.node);
    if (t?.kind === "edge") walk.along(t.from, t.edge, t.index);
    walk.note(step.text[lang]);
  }
  const nodes = new Map<string, ChartNode>(charts.charts.flatMap((c) => c.nodes.map((n) => [n.id, n])));
  const jumps = new Set(charts.edges.filter((e) => !e.drawn).map((e) => e.id));
  const steps: PageStep[] = walk.steps.map((s) => {
    const node = lookup(nodes, s.node, "chart node");
    const at = factsAt(node, plan, facts);
    return {
      node: s.node,
      edge: s.edge,
      jump: s.edge !== null && jumps.has(s.edge),
      label: node.title,
      note: s.notes.join(lang === "ja" ? "。" : "; "),
      calls: [],
      vars: [],
      cases: [],
      possible: at === null ? [] : caseLines(at, lang),
    };
  });
  const title = `${ex.code} ${tr(`line ${ex.line}`, `${ex.line} 行`)[lang]}: ${ex.message[lang]}`;
  return { name: ex.code, title, ending: ex.message[lang], steps, calls: [], cases: [] };
}

/**
 * The run of each of a flow's diagnostics, lit on its charts.
 *
 * @example
 * ```ts
 * const runs = exampleRuns(plan, chartsOf(plan, "en"), typed.facts, "en");
 * runs[0].name; // "E020"
 * ```
 */
export function exampleRuns(plan: Plan, charts: Charts, facts: FlowFacts, lang: Lang): PageRun[] {
  return facts.examples.map((ex) => exampleRun(ex, plan, charts, facts, lang));
}
