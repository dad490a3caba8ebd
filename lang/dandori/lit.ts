/**
 * A run lit on the charts (docs/design/dandori.md#the-page): the interpreter's visits followed
 * over the chart's edges, one step per node the run arrives at, each with the edge it arrived by.
 * The visits say what happened at a node (the arm taken, the handler entered, the call's result,
 * the iteration); the edge whose condition that is leads to the next node. A step that cannot be
 * reached so is a bug of the page or of the plan, and stops the page (an assertion): a lit run is
 * connected by construction, and `tests/dandori/doc_test.ts` checks it again from the page's data.
 * @module
 */

import { assert, lookup, unreachable } from "../common/assert.ts";
import type { ChartEdge, ChartNode, Charts } from "./chart.ts";
import type { EdgeCondition } from "./plan.ts";
import type { Run, Visit } from "./interp.ts";

/** One node a run arrives at. */
export interface LitStep {
  readonly node: string;
  /** The edge it arrived by (a line or a jump); null for the run's first step, the start. */
  readonly edge: string | null;
  /** What happened at the node while the run was there, in order (the visits past the arrival). */
  readonly events: readonly Visit[];
  /** The index of the call's attempts among the run's calls grouped by call, for a call's step; null for a call not made (`Dandori.BadInput`). */
  readonly call: number | null;
  /** The visit being read when the run arrived here: `Run.snapshots` at it is what the step before left. */
  readonly visit: number;
}

/** How the run leaves the node it is at: an edge's kind, and the arm's or handler's index. */
interface Leave {
  readonly kind: EdgeCondition["kind"];
  readonly index: number | null;
}

/** Kinds an edge back to a loop's head stands for (the lowering writes `again` there instead). */
const AGAIN_FOR: ReadonlySet<EdgeCondition["kind"]> = new Set(["next", "ok", "done", "inside"]);

class Replay {
  readonly steps: {
    node: string;
    edge: string | null;
    events: Visit[];
    call: number | null;
    visit: number;
  }[] = [];
  private out: Leave | null = { kind: "next", index: null };
  private calls = 0;
  private visit = 0;
  private readonly nodes: ReadonlyMap<string, ChartNode>;
  private readonly from: ReadonlyMap<string, readonly ChartEdge[]>;

  constructor(charts: Charts) {
    this.nodes = new Map(charts.charts.flatMap((c) => c.nodes.map((n) => [n.id, n])));
    const from = new Map<string, ChartEdge[]>();
    for (const e of charts.edges) from.set(e.from, [...(from.get(e.from) ?? []), e]);
    this.from = from;
    this.steps.push({ node: "start", edge: null, events: [], call: null, visit: 0 });
  }

  private get cur(): string {
    return this.steps[this.steps.length - 1].node;
  }

  /** Goes along the edge the pending way out names, to the node it leads to. */
  private leave(): void {
    const out = this.out;
    assert(out !== null, `the run has no way out of ${this.cur}`);
    const edge = (this.from.get(this.cur) ?? []).find((e) =>
      (e.kind === out.kind || (e.kind === "again" && AGAIN_FOR.has(out.kind))) && e.index === out.index
    );
    assert(edge !== undefined, `the chart has no ${out.kind} edge out of ${this.cur}`);
    const node = lookup(this.nodes, edge.to, "chart node");
    this.steps.push({ node: node.id, edge: edge.id, events: [], call: null, visit: this.visit });
    this.out = this.defaultOut(node);
  }

  /** Goes on until the run is at `place`, which the visit says it reached. */
  private arrive(place: string): void {
    for (let guard = 0; this.cur !== place; guard++) {
      assert(guard <= this.from.size, `the run does not reach ${place} from ${this.cur}`);
      this.leave();
    }
  }

  /** How a run leaves a node it only passes: on after a step, `break` out of a loop, a `fail` that ends a parallel iteration. */
  private defaultOut(n: ChartNode): Leave | null {
    const has = (kind: EdgeCondition["kind"]) => (this.from.get(n.id) ?? []).some((e) => e.kind === kind);
    if (n.shape === "step" || n.shape === "wait" || n.shape === "start") {
      return { kind: has("break") ? "break" : "next", index: null };
    }
    if (n.shape === "end" && has("failed")) return { kind: "failed", index: null };
    return null;
  }

  /** A call answered (its last attempt's answer is read): its step is the next of the run's calls. */
  private answered(): void {
    const step = this.steps[this.steps.length - 1];
    if (step.call === null && isCall(lookup(this.nodes, step.node, "chart node"))) step.call = this.calls++;
  }

  private at(v: Visit, out: Leave | null): void {
    this.steps[this.steps.length - 1].events.push(v);
    this.out = out;
  }

  read(v: Visit, index: number): void {
    this.visit = index;
    const way = (kind: EdgeCondition["kind"], i: number | null = null) => ({ kind, index: i });
    switch (v.kind) {
      case "stmt":
        return this.arrive(v.place);
      case "arm":
        return this.at(v, way(v.kind, v.index));
      case "handler":
        this.answered();
        return this.at(v, way(v.kind, v.index));
      case "ok":
      case "unhandled":
      case "cancel":
      case "bad response":
        this.answered();
        return this.at(v, way(v.kind));
      case "bad input": {
        // The call is not made: its step has no attempts, and in a parallel iteration it ends there.
        const failed = (this.from.get(this.cur) ?? []).some((e) => e.kind === "failed");
        return this.at(v, failed ? way("failed") : null);
      }
      case "iteration":
        this.arrive(v.place);
        return this.at(v, way("iteration"));
      case "done":
        if (this.out?.kind === "break") return this.leave();
        this.arrive(v.place);
        return this.at(v, way("done"));
      case "held":
        // A statement that fails of itself (a loop over more items than its `at most`) leaves no
        // visit of its own: the run leaves it by its `failed` edge to the loop that holds the failure.
        if (this.out === null && (this.from.get(this.cur) ?? []).some((e) => e.kind === "failed")) {
          this.out = way("failed");
        }
        this.arrive(v.place);
        return this.at(v, way(v.by));
      case "outside":
        // The start's check is not drawn: a run that starts outside the period stops at the start.
        if (v.place === "period:start") return this.at(v, null);
        this.arrive(v.place.replace(/:period$/, ""));
        return this.at(v, way("outside"));
      case "inside":
        return;
      default:
        return unreachable(v, "visit");
    }
  }

  /** After the last visit: on to the end the run's last way out leads to. */
  finish(visits: number): void {
    this.visit = visits;
    // A run with no visit ended before its start: its input does not fit (Dandori.BadInput).
    if (visits === 0) return;
    for (let guard = 0; this.out !== null; guard++) {
      assert(guard <= this.from.size, `the run does not end from ${this.cur}`);
      this.leave();
    }
  }

  get callSteps(): number {
    return this.calls;
  }
}

/** A call's node: a task, or one that waits for a value from outside. */
function isCall(n: ChartNode): boolean {
  return n.shape === "task" || n.shape === "event";
}

/**
 * The steps of a run on the charts of its flow.
 *
 * @example
 * ```ts
 * const steps = litSteps(chartsOf(plan, "en"), runFlow(flow, plan, { …, snapshots: true }));
 * steps[0].node; // "start"
 * ```
 */
export function litSteps(charts: Charts, run: Run): LitStep[] {
  const replay = new Replay(charts);
  run.visits.forEach((v, i) => replay.read(v, i));
  replay.finish(run.visits.length);
  const groups = run.calls.filter((c) => c.attempt === 1).length;
  assert(replay.callSteps === groups, `every call of the run is a step (${replay.callSteps} of ${groups})`);
  return replay.steps;
}
