/**
 * The page's charts as SVG, laid out by dandori itself (docs/design/dandori.md#the-page): a `.flow` has no
 * jumps, only nesting, so the nesting is the layout. The main line goes straight down; the arms of
 * a `match` and the handlers of a call stand to the right and rejoin the main line below (under a
 * `match` stands its first arm that goes on, the arms that end go right); a loop is a frame around
 * its body, with the way back to its next iteration on its left and the way out on its right. The
 * text is monospace, so every width is computed here, and the same chart gives the same bytes.
 * @module
 */

import { assert, lookup, unreachable } from "../common/assert.ts";
import { displayWidth } from "../common/width.ts";
import type { Chart, ChartEdge, ChartNode, Charts } from "./chart.ts";
import type { Plan, StmtPlan } from "./plan.ts";

/** Font size of the chart's text, in pixels. */
export const FONT = 12;
/** Width of one display column of 12 px monospace (7.2 px), with room for a font that stands in. */
const CELL = 7.4;
/** Baseline to baseline in a node. */
const LINE = 16;
const PAD_X = 10;
const PAD_Y = 6;
const MARGIN = 16;
/** Between two pieces of a column: room for an edge's label above the lower one. */
const GAP = 36;
/** Between a piece and the branches right of it. */
const SIDE_GAP = 32;
/** A frame's lanes: the way back on its left, the way out on its right. */
const LANE = 16;
/** Inside a frame, above its loop's node and beside its body. */
const FRAME_PAD = 10;
/** Inside a frame below its body: room for the label of the way back and its lane. */
const FRAME_FOOT = 30;
/** How far a hexagon's and a parallelogram's points reach out beside their text. */
const POINT = 10;
const LABEL_H = 16;
const HEAD = 7;
/** At most this many label moves when labels overlap: a label that cannot find room stays. */
const MAX_LABEL_MOVES = 12;

type Point = readonly [number, number];

/** A node's box, placed by the layout. */
interface Box {
  readonly node: ChartNode;
  readonly w: number;
  readonly h: number;
  x: number;
  y: number;
}

interface Rect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/** A part of a column: its size, where its main line is, and how to put it somewhere. */
interface Piece {
  readonly w: number;
  readonly h: number;
  /** The x of its main line from its left. */
  readonly spine: number;
  place(x: number, y: number): void;
}

/** A coordinate with one decimal: the same string for the same chart on every machine. */
function px(v: number): string {
  return String(Math.round(v * 10) / 10);
}

/** Text for SVG, in content and in quoted attributes. */
export function esc(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

function textWidth(s: string): number {
  return displayWidth(s) * CELL;
}

function nodeBox(n: ChartNode): Box {
  const text = Math.max(...n.lines.map(textWidth));
  const h = n.lines.length * LINE + 2 * PAD_Y;
  const sides = n.shape === "match" || n.shape === "event"
    ? 2 * POINT
    : n.shape === "start" || n.shape === "end"
    ? h / 2
    : 0;
  return { node: n, w: text + 2 * PAD_X + sides + (n.unhandled ? 12 : 0), h, x: 0, y: 0 };
}

function leaf(b: Box): Piece {
  return {
    w: b.w,
    h: b.h,
    spine: b.w / 2,
    place(x, y) {
      b.x = x;
      b.y = y;
    },
  };
}

/** Pieces one under another, their main lines on one line. */
function column(pieces: readonly Piece[]): Piece {
  const spine = Math.max(0, ...pieces.map((p) => p.spine));
  const right = Math.max(0, ...pieces.map((p) => p.w - p.spine));
  const h = pieces.reduce((sum, p) => sum + p.h, 0) + GAP * Math.max(0, pieces.length - 1);
  return {
    w: spine + right,
    h,
    spine,
    place(x, y) {
      let at = y;
      for (const p of pieces) {
        p.place(x + spine - p.spine, at);
        at += p.h + GAP;
      }
    },
  };
}

/** `main` on the main line, `sides` to its right from `below` down, left to right. */
function branching(head: Piece, main: Piece | null, sides: readonly Piece[]): Piece {
  const stem = main === null ? head : column([head, main]);
  const sideTop = head.h + GAP;
  const sideW = sides.reduce((sum, p) => sum + p.w, 0) + SIDE_GAP * Math.max(0, sides.length - 1);
  const h = Math.max(stem.h, sides.length === 0 ? 0 : sideTop + Math.max(...sides.map((p) => p.h)));
  return {
    w: stem.w + (sides.length === 0 ? 0 : SIDE_GAP + sideW),
    h,
    spine: stem.spine,
    place(x, y) {
      stem.place(x, y);
      let at = x + stem.w + SIDE_GAP;
      for (const p of sides) {
        p.place(at, y + sideTop);
        at += p.w + SIDE_GAP;
      }
    },
  };
}

/** A loop: its node over its body, in a frame with a lane on each side. */
function framed(inner: Piece, frame: string, rects: Map<string, Rect>): Piece {
  const w = inner.w + 2 * (LANE + FRAME_PAD);
  const h = inner.h + FRAME_PAD + FRAME_FOOT;
  return {
    w,
    h,
    spine: LANE + FRAME_PAD + inner.spine,
    place(x, y) {
      rects.set(frame, { x, y, w, h });
      inner.place(x + LANE + FRAME_PAD, y + FRAME_PAD);
    },
  };
}

/** True when a list of statements can go on past its end (its last one does not end or leave). */
function goesOn(ss: readonly StmtPlan[]): boolean {
  const last = ss[ss.length - 1];
  if (last === undefined) return true;
  switch (last.kind) {
    case "succeed":
    case "fail":
    case "break":
      return false;
    case "match":
      return last.arms.some((a) => goesOn(a.body));
    case "call":
    case "let":
    case "wait":
    case "wait until":
    case "repeat":
    case "for":
    case "yield":
    case "pass":
    case "period":
      return true;
    default:
      return unreachable(last, "statement");
  }
}

/** Lays out the statements of one block as pieces. */
class Pieces {
  constructor(
    private readonly boxes: ReadonlyMap<string, Box>,
    readonly rects: Map<string, Rect>,
  ) {}

  private box(id: string): Box {
    return lookup(this.boxes, id, "node's box");
  }

  list(ss: readonly StmtPlan[]): Piece {
    return column(ss.filter((s) => s.kind !== "period").map((s) => this.stmt(s)));
  }

  private stmt(s: StmtPlan): Piece {
    const head = leaf(this.box(s.place));
    switch (s.kind) {
      case "call":
        return branching(head, null, s.call.handlers.map((h) => this.list(h.body)));
      case "match": {
        const main = Math.max(0, s.arms.findIndex((a) => goesOn(a.body)));
        return branching(
          head,
          this.list(s.arms[main].body),
          s.arms.filter((_, i) => i !== main).map((a) => this.list(a.body)),
        );
      }
      case "repeat":
      case "for":
        return framed(column([head, this.list(s.body)]), s.place, this.rects);
      default:
        return head;
    }
  }
}

/** Where an edge runs and where its label goes. */
interface Route {
  readonly points: readonly Point[];
  readonly label: Point;
}

/** Routes the edges of one chart over the placed boxes and frames. */
class Router {
  constructor(
    private readonly boxes: ReadonlyMap<string, Box>,
    private readonly rects: ReadonlyMap<string, Rect>,
  ) {}

  private box(id: string): Box {
    return lookup(this.boxes, id, "node's box");
  }

  private frame(id: string | null): Rect {
    assert(id !== null, "a way in or out of a loop is in a frame");
    return lookup(this.rects, id, "frame");
  }

  route(e: ChartEdge): Route {
    const s = this.box(e.from);
    const t = this.box(e.to);
    const sx = s.x + s.w / 2;
    const tx = t.x + t.w / 2;
    const sb = s.y + s.h;
    if (e.kind === "again") return this.back(s, t);
    if (e.kind === "done" || e.kind === "break") return this.out(e, s, t);
    if (Math.abs(sx - tx) < 0.5 && t.y > sb) {
      return { points: [[sx, sb], [tx, t.y]], label: [sx, (sb + t.y) / 2 - LABEL_H / 2] };
    }
    if (tx > sx && t.y > s.y) {
      const y = s.y + s.h / 2;
      return { points: [[s.x + s.w, y], [tx, y], [tx, t.y]], label: [tx, sb + 4] };
    }
    const turn = t.y - GAP / 2;
    return { points: [[sx, sb], [sx, turn], [tx, turn], [tx, t.y]], label: [sx, sb + 4] };
  }

  /** To the loop's node: down to the bottom of its frame, along its left lane, into the node's left side. */
  private back(s: Box, t: Box): Route {
    const f = this.frame(t.node.id);
    const sx = s.x + s.w / 2;
    const bottom = f.y + f.h - LANE / 2;
    const lane = f.x + LANE / 2;
    const ty = t.y + t.h / 2;
    return {
      points: [[sx, s.y + s.h], [sx, bottom], [lane, bottom], [lane, ty], [t.x, ty]],
      label: [sx, s.y + s.h + 4],
    };
  }

  /** Out of a loop: along its frame's right lane, under the frame, to the statement after it. */
  private out(e: ChartEdge, s: Box, t: Box): Route {
    const f = this.frame(e.kind === "done" ? s.node.id : s.node.loop);
    const sy = s.y + s.h / 2;
    const lane = f.x + f.w - LANE / 2;
    const below = f.y + f.h + GAP / 2;
    const tx = t.x + t.w / 2;
    // A `done` is labelled under the frame, a `break` on its lane beside the frame, so the two do not meet.
    const label: Point = e.kind === "done"
      ? [(lane + tx) / 2, below - LABEL_H / 2]
      : [lane, (sy + below) / 2];
    if (t.y > f.y + f.h) {
      return { points: [[s.x + s.w, sy], [lane, sy], [lane, below], [tx, below], [tx, t.y]], label };
    }
    // A `break` whose loop is the last statement of another goes back to that loop's node.
    const outer = this.frame(t.node.id);
    const left = outer.x + LANE / 2;
    const ty = t.y + t.h / 2;
    return {
      points: [[s.x + s.w, sy], [lane, sy], [lane, below], [left, below], [left, ty], [t.x, ty]],
      label,
    };
  }
}

/** An arrowhead with its tip at `tip`, coming from `from`. */
function head(from: Point, tip: Point): string {
  const len = Math.hypot(tip[0] - from[0], tip[1] - from[1]) || 1;
  const ux = (tip[0] - from[0]) / len;
  const uy = (tip[1] - from[1]) / len;
  const bx = tip[0] - ux * HEAD;
  const by = tip[1] - uy * HEAD;
  return `M${px(tip[0])} ${px(tip[1])} L${px(bx - uy * HEAD / 2)} ${px(by + ux * HEAD / 2)} L${
    px(bx + uy * HEAD / 2)
  } ${px(by - ux * HEAD / 2)} Z`;
}

/** The line of a route, stopping short of the tip so the head covers its end. */
function pathOf(points: readonly Point[]): string {
  const last = points[points.length - 1];
  const prev = points[points.length - 2];
  const len = Math.hypot(last[0] - prev[0], last[1] - prev[1]) || 1;
  const end: Point = [last[0] - (last[0] - prev[0]) / len * HEAD, last[1] - (last[1] - prev[1]) / len * HEAD];
  return [...points.slice(0, -1), end].map((p, i) => `${i === 0 ? "M" : "L"}${px(p[0])} ${px(p[1])}`).join(
    " ",
  );
}

function shapeSvg(b: Box): string {
  const { x, y, w, h } = b;
  const r = (rx: number) =>
    `<rect x="${px(x)}" y="${px(y)}" width="${px(w)}" height="${px(h)}" rx="${px(rx)}"/>`;
  const poly = (ps: readonly Point[]) =>
    `<polygon points="${ps.map((p) => `${px(p[0])},${px(p[1])}`).join(" ")}"/>`;
  switch (b.node.shape) {
    case "start":
    case "end":
      return r(h / 2);
    case "wait":
      return r(10);
    case "task":
    case "step":
    case "loop":
      return r(3);
    case "match":
      return poly([[x, y + h / 2], [x + POINT, y], [x + w - POINT, y], [x + w, y + h / 2], [
        x + w - POINT,
        y + h,
      ], [
        x + POINT,
        y + h,
      ]]);
    case "event":
      return poly([[x + POINT, y], [x + w, y], [x + w - POINT, y + h], [x, y + h]]);
    default:
      return unreachable(b.node.shape, "shape");
  }
}

function nodeSvg(b: Box): string {
  const n = b.node;
  const inset = n.shape === "match" || n.shape === "event"
    ? POINT
    : n.shape === "start" || n.shape === "end"
    ? b.h / 4
    : 0;
  const text = n.lines.map((line, i) =>
    `<text${i === 0 ? ' class="first"' : ""} x="${px(b.x + PAD_X + inset)}" y="${
      px(b.y + PAD_Y + i * LINE + 12)
    }">${esc(line)}</text>`
  ).join("");
  const mark = n.unhandled
    ? `<g class="mark" data-mark="${esc(n.id)}"><circle cx="${px(b.x + b.w - 8)}" cy="${
      px(b.y + 8)
    }" r="7"/>` +
      `<text x="${px(b.x + b.w - 8)}" y="${px(b.y + 12)}">!</text></g>`
    : "";
  return `<g class="node ${n.shape}" data-node="${esc(n.id)}">${shapeSvg(b)}${text}${mark}</g>`;
}

/** Labels that overlap one placed before are moved down below it. */
function spread(labels: { x: number; y: number; w: number }[]): void {
  const placed: { x: number; y: number; w: number }[] = [];
  const overlap = (a: { x: number; y: number; w: number }, b: { x: number; y: number; w: number }) =>
    a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + LABEL_H && b.y < a.y + LABEL_H;
  for (const l of labels) {
    for (let moves = 0; moves < MAX_LABEL_MOVES && placed.some((p) => overlap(l, p)); moves++) {
      l.y += LABEL_H + 2;
    }
    placed.push(l);
  }
}

/** The blocks' statements by block. */
function blockStatements(plan: Plan, chart: Chart): readonly StmtPlan[] {
  const ss = chart.block === "flow"
    ? plan.blocks.flow
    : chart.block === "failure"
    ? plan.blocks.failure
    : plan.blocks.cancel;
  assert(ss !== null, `the chart of ${chart.block} has its block`);
  return ss;
}

/**
 * One chart as SVG at its natural size: nodes carry `data-node`, lines `data-edge`, a call's `!`
 * `data-mark`, so the page's script can light a run.
 *
 * @example
 * ```ts
 * const charts = chartsOf(plan, "en");
 * const svg = chartSvg(plan, charts.charts[0], charts, "flow");
 * ```
 */
export function chartSvg(plan: Plan, chart: Chart, all: Charts, label: string): string {
  const boxes = new Map(chart.nodes.map((n) => [n.id, nodeBox(n)]));
  const pieces = new Pieces(boxes, new Map());
  const start = leaf(lookup(boxes, chart.nodes[0].id, "start"));
  const ends = chart.nodes.filter((n) => n.shape === "end" && n.line === 0).map((n) =>
    leaf(lookup(boxes, n.id, "end"))
  );
  const body = column([start, pieces.list(blockStatements(plan, chart)), ...ends]);
  body.place(MARGIN, MARGIN);
  const router = new Router(boxes, pieces.rects);
  const ids = new Set(chart.nodes.map((n) => n.id));
  const edges = all.edges.filter((e) => e.drawn && ids.has(e.from));
  const routes = edges.map((e) => ({ e, r: router.route(e) }));
  const labels = routes.filter(({ e }) => e.label !== "").map(({ e, r }) => {
    const w = textWidth(e.label) + 8;
    return { e, x: r.label[0] - w / 2, y: r.label[1], w };
  });
  spread(labels);
  const width = Math.max(body.w + 2 * MARGIN, ...labels.map((l) => l.x + l.w + MARGIN));
  const height = Math.max(body.h + 2 * MARGIN, ...labels.map((l) => l.y + LABEL_H + MARGIN));
  const frames = [...pieces.rects].map(([id, f]) => {
    const parallel = chart.frames.find((x) => x.id === id)?.parallel === true;
    return `<rect class="loop-frame${parallel ? " parallel" : ""}" data-frame="${esc(id)}" x="${
      px(f.x)
    }" y="${px(f.y)}" width="${px(f.w)}" height="${px(f.h)}" rx="6"/>`;
  });
  const lines = routes.map(({ e, r }) =>
    `<g class="edge ${e.kind}" data-edge="${esc(e.id)}"><path class="line" d="${pathOf(r.points)}"/>` +
    `<path class="head" d="${head(r.points[r.points.length - 2], r.points[r.points.length - 1])}"/></g>`
  );
  const labelSvg = labels.map((l) =>
    `<g class="edge-label" data-edge="${esc(l.e.id)}"><rect x="${px(l.x)}" y="${px(l.y)}" width="${
      px(l.w)
    }" height="${LABEL_H}" rx="3"/>` +
    `<text x="${px(l.x + l.w / 2)}" y="${px(l.y + 12)}">${esc(l.e.label)}</text></g>`
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" class="flow-chart" width="${px(width)}" height="${
    px(height)
  }" ` +
    `viewBox="0 0 ${px(width)} ${px(height)}" role="img" aria-label="${esc(label)}">\n` +
    `<g class="frames">${frames.join("")}</g>\n<g class="edges">${lines.join("\n")}</g>\n` +
    `<g class="nodes">${[...boxes.values()].map(nodeSvg).join("\n")}</g>\n<g class="labels">${
      labelSvg.join("\n")
    }</g>\n</svg>`;
}
