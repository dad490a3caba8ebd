/**
 * The charts of `dandori doc` (docs/design/dandori.md#the-page), drawn from the plan's graph: one chart per block
 * (`flow`, `on failure`, `on cancel`), the same for the Mermaid text and the page's own SVG.
 *
 * - Each statement is a node of its shape: a task a rectangle, a task that waits for a value from
 *   outside (`event`, `callback`) a parallelogram, `match` a hexagon, a wait a rounded box, the
 *   start and every end a stadium; a loop's statement heads a frame around its body.
 * - The edges within a block are lines labelled with what must happen to go along them.
 * - An error no handler takes is not a line (lines to `on failure` from almost every
 *   call would fill the chart): its call carries a mark (`!`), and the edge is a jump, which lights
 *   its target when a run goes along it. Cancels, malformed answers and a parallel loop's held
 *   failures are jumps too.
 * - Period checks are not drawn (docs/design/dandori.md#the-page): an edge through one goes to the statement it checks, and a
 *   check that fails is a jump from that statement.
 * @module
 */

import { assert, lookup, unreachable } from "../common/assert.ts";
import { type Lang, tr } from "../common/text.ts";
import { calleeLine, conditionText, declarationLine, stmtText, wrap } from "./doc_text.ts";
import type { EdgeCondition, EdgePlan, NodePlan, Plan, StmtPlan, TaskPlan } from "./plan.ts";

/**
 * The widest line of a node, in display columns: 48 columns of 12 px monospace are about 360 px,
 * the narrowest screen the page is read on, so a node fits it even when its chart scrolls.
 */
export const MAX_NODE_COLUMNS = 48;

/** A block of the flow: each is a chart of its own. */
export type ChartBlock = NodePlan["block"];

/** The shape of a node. */
export type Shape = "start" | "end" | "task" | "event" | "match" | "wait" | "step" | "loop";

/** One node of a chart: a statement, a block's start, or an end. */
export interface ChartNode {
  /** The plan's node id (`s60`, `start`, `flow:end`…), unique over the page. */
  readonly id: string;
  readonly block: ChartBlock;
  readonly shape: Shape;
  /** The statement's line, 0 for a start or an end. */
  readonly line: number;
  /** The statement as the flow writes it (its first line), or the start's or the end's words. */
  readonly title: string;
  /** The text, wrapped, a line each: the statement; for a call, what it calls and what its declaration adds. */
  readonly lines: readonly string[];
  /** A call some error of which no handler takes (its `!`). */
  readonly unhandled: boolean;
  /** The innermost loop it is in, by the loop's id; a loop's own node is in its own frame. */
  readonly loop: string | null;
}

/** One edge: a line in its block's chart, or a jump. */
export interface ChartEdge {
  /** `e<n>`, in the order of the plan's edges. */
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly kind: EdgeCondition["kind"];
  /** The arm's or the handler's index, for those edges. */
  readonly index: number | null;
  readonly label: string;
  /** False for a jump: its source's mark and its target light instead of a line. */
  readonly drawn: boolean;
}

/** A loop's frame: its body, with the way back on its left and the way out on its right. */
export interface ChartFrame {
  readonly id: string;
  readonly parent: string | null;
  readonly parallel: boolean;
}

/** One block's chart. */
export interface Chart {
  readonly block: ChartBlock;
  readonly title: string;
  /** In the order of the plan's nodes: a block's start first, its statements in written order. */
  readonly nodes: readonly ChartNode[];
  readonly frames: readonly ChartFrame[];
}

/** Every chart of a flow, and every edge (a jump may go from one chart to another). */
export interface Charts {
  readonly charts: readonly Chart[];
  readonly edges: readonly ChartEdge[];
}

/** A block's start first, then the statements in written order, then the ends. */
function nodeRank(n: ChartNode): number {
  return n.shape === "start" && n.line === 0 ? -1 : n.line === 0 ? Number.MAX_SAFE_INTEGER : n.line;
}

function edgeIndex(e: ChartEdge): number {
  return Number(e.id.slice(1));
}

/** The conditions that are lines; the others are jumps. */
const DRAWN: ReadonlySet<EdgeCondition["kind"]> = new Set([
  "next",
  "ok",
  "arm",
  "handler",
  "iteration",
  "again",
  "done",
  "break",
  "inside",
]);

/** A statement with the loop it is in (a loop itself: its own) and the loop around that. */
interface Placed {
  readonly stmt: StmtPlan;
  readonly loop: string | null;
  readonly outer: string | null;
}

function placeStatements(plan: Plan): Map<string, Placed> {
  const out = new Map<string, Placed>();
  const walk = (ss: readonly StmtPlan[], outer: string | null): void => {
    for (const s of ss) {
      const loop = s.kind === "repeat" || s.kind === "for" ? s.place : outer;
      out.set(s.place, { stmt: s, loop, outer });
      if (s.kind === "repeat" || s.kind === "for") walk(s.body, s.place);
      if (s.kind === "match") { for (const a of s.arms) walk(a.body, outer); }
      if (s.kind === "call") { for (const h of s.call.handlers) walk(h.body, outer); }
    }
  };
  walk(plan.blocks.flow, null);
  walk(plan.blocks.failure ?? [], null);
  walk(plan.blocks.cancel ?? [], null);
  return out;
}

/** The words of the nodes that are not statements. */
function endWords(id: string, lang: Lang): string {
  const words: Record<string, [string, string]> = {
    start: ["start", "開始"],
    failure: ["on failure", "on failure"],
    cancel: ["on cancel", "on cancel"],
    "flow:end": ["the end: the workflow succeeds", "終わり: ワークフローが成功する"],
    "failure:end": [
      "the end: the workflow fails with the error",
      "終わり: そのエラーでワークフローが失敗する",
    ],
    "cancel:end": ["the workflow is cancelled", "ワークフローがキャンセルで終わる"],
    unhandled: ["the workflow fails", "ワークフローが失敗する"],
  };
  return tr(...lookup(new Map(Object.entries(words)), id, "node word"))[lang];
}

function shapeOf(s: StmtPlan, tasks: ReadonlyMap<string, TaskPlan>): Shape {
  switch (s.kind) {
    case "call": {
      const t = lookup(tasks, s.call.task, "task");
      return t.callee.kind === "event" || t.callback !== null ? "event" : "task";
    }
    case "match":
      return "match";
    case "wait":
    case "wait until":
      return "wait";
    case "repeat":
    case "for":
      return "loop";
    case "succeed":
    case "fail":
      return "end";
    case "let":
    case "yield":
    case "pass":
    case "break":
      return "step";
    case "period":
      throw new Error("dandori doc: a period check is not drawn");
    default:
      return unreachable(s, "statement");
  }
}

function linesOf(s: StmtPlan, tasks: ReadonlyMap<string, TaskPlan>, lang: Lang): string[] {
  const first = `${s.line}: ${stmtText(s)}`;
  if (s.kind !== "call") return [first];
  const t = lookup(tasks, s.call.task, "task");
  const third = declarationLine(t, s.call.case?.name ?? null, lang);
  return [first, calleeLine(t), ...(third === "" ? [] : [third])];
}

/**
 * Where an edge into a period check goes on: the statement the check is before (past the start's
 * check, which leads to the first statement's own when that reads `now`).
 */
function throughChecks(plan: Plan): Map<string, string> {
  const inside = new Map<string, string>();
  for (const e of plan.graph.edges) if (e.when.kind === "inside") inside.set(e.from, e.to);
  const through = new Map<string, string>();
  for (const from of inside.keys()) {
    let to = lookup(inside, from, "period check");
    while (inside.has(to)) to = lookup(inside, to, "period check");
    through.set(from, to);
  }
  return through;
}

/** The chart edges of the plan's edges: lines and jumps, the period checks contracted away. */
function chartEdges(plan: Plan, lang: Lang): ChartEdge[] {
  const checks = new Set(plan.graph.nodes.filter((n) => n.kind === "period").map((n) => n.id));
  const through = throughChecks(plan);
  const kept = plan.graph.edges.flatMap((e): EdgePlan[] => {
    if (checks.has(e.from)) {
      // A check that fails goes on from the statement it checks; the start's has no statement.
      if (e.when.kind !== "outside" || e.from === "period:start") return [];
      return [{ ...e, from: lookup(through, e.from, "checked statement") }];
    }
    const to = checks.has(e.to) ? lookup(through, e.to, "checked statement") : e.to;
    if (e.to === "cancel:end" && e.when.kind === "cancel" && plan.blocks.cancel === null) return [];
    return [{ ...e, to }];
  });
  return kept.map((e, i) => ({
    id: `e${i}`,
    from: e.from,
    to: e.to,
    kind: e.when.kind,
    index: e.when.kind === "arm" || e.when.kind === "handler" ? e.when.index : null,
    label: conditionText(e.when, lang),
    drawn: DRAWN.has(e.when.kind),
  }));
}

/**
 * The charts of a plan, in the page's language.
 *
 * @example
 * ```ts
 * const { charts, edges } = chartsOf(lower(flow), "en");
 * charts.map((c) => c.title); // ["flow", "on failure"]
 * ```
 */
export function chartsOf(plan: Plan, lang: Lang): Charts {
  const tasks = new Map(plan.tasks.map((t) => [t.name, t]));
  const placed = placeStatements(plan);
  const edges = chartEdges(plan, lang);
  const targets = new Set(edges.map((e) => e.to));
  const unhandled = new Set(
    edges.filter((e) => e.kind === "unhandled" && placed.has(e.from)).map((e) => e.from),
  );
  const nodes = plan.graph.nodes.flatMap((n): ChartNode[] => {
    if (n.kind === "period" || n.id === "period:outside") return [];
    if (n.place === null) {
      if (n.kind === "end" && !targets.has(n.id)) return [];
      const shape = n.kind === "end" ? "end" : "start";
      return [{
        id: n.id,
        block: n.block,
        shape,
        line: 0,
        title: endWords(n.id, lang),
        lines: [endWords(n.id, lang)],
        unhandled: false,
        loop: null,
      }];
    }
    const p = lookup(placed, n.place, "statement");
    const lines = linesOf(p.stmt, tasks, lang);
    return [{
      id: n.id,
      block: n.block,
      shape: shapeOf(p.stmt, tasks),
      line: n.line,
      title: lines[0],
      lines: lines.flatMap((l) => wrap(l, MAX_NODE_COLUMNS)),
      unhandled: unhandled.has(n.id) && p.stmt.kind === "call",
      loop: p.loop,
    }];
  });
  nodes.sort((a, b) => nodeRank(a) - nodeRank(b));
  const order = new Map(nodes.map((n, i) => [n.id, i]));
  const from = (e: ChartEdge) => lookup(order, e.from, "edge's node");
  const sorted = edges.toSorted((a, b) => from(a) - from(b) || edgeIndex(a) - edgeIndex(b))
    .map((e, i) => ({ ...e, id: `e${i}` }));
  const frames = [...placed.values()].flatMap((p): (ChartFrame & { block: ChartBlock })[] => {
    const s = p.stmt;
    if (s.kind !== "repeat" && s.kind !== "for") return [];
    const block = nodes.find((n) => n.id === s.place)?.block;
    assert(block !== undefined, `the loop ${s.place} is a node`);
    return [{ id: s.place, parent: p.outer, parallel: s.kind === "for" && s.parallel !== null, block }];
  });
  const titles: Record<ChartBlock, string> = { flow: "flow", failure: "on failure", cancel: "on cancel" };
  const blocks: ChartBlock[] = ["flow", "failure", "cancel"];
  return {
    charts: blocks.filter((b) => nodes.some((n) => n.block === b && n.shape === "start")).map((b) => ({
      block: b,
      title: titles[b],
      nodes: nodes.filter((n) => n.block === b),
      frames: frames.filter((f) => f.block === b).map(({ id, parent, parallel }) => ({
        id,
        parent,
        parallel,
      })),
    })),
    edges: sorted,
  };
}
