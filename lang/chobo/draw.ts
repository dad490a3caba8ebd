/**
 * The HTML page of `chobo doc --format html` (docs/design/chobo.md#the-page): one file with its style, its
 * script and an SVG flow chart that this module lays out itself, so that it opens offline and loads nothing.
 * It writes what `doc.ts` gathered in a `Page`; the Markdown page says the same things.
 * @module
 */

import { MONOSPACE, pageStyle } from "../common/style.ts";
import { displayWidth } from "../common/width.ts";
import type { Page, PageAccount, PageFlow, PageTransfer } from "./page.ts";

/** Font size of the chart's text, in pixels. */
const FONT = 12;
/**
 * Width of one display column of chart text. The chart's font is monospace (12 px monospace is
 * 7.2 px a column, CJK two columns); the margin keeps text inside its box whatever font stands in.
 */
const CELL = 7.4;
/** Baseline to baseline in a box. */
const LINE = 16;
const PAD_X = 10;
const PAD_Y = 6;
const MARGIN = 16;
/** Between two boxes of one column. */
const ROW_GAP = 28;
/** The narrowest space between two columns. */
const MIN_GAP = 64;
/** Space on either side of a label in the space between columns. */
const LABEL_PAD = 14;
const LABEL_H = 16;
/** Between two vertical tracks of long moves in one space between columns. */
const TRACK = 10;
/** How much higher each loop above a box reaches than the one inside it. */
const LOOP = 22;
/** Between two lanes under the boxes. */
const LANE = 22;
const HEAD = 8;
const CORNER = 6;
/** The order within columns is swept four times each way (docs/design/chobo.md#the-page). */
const SWEEPS = 4;

type Point = readonly [number, number];

/** One account's box; `x` and `y` are set by the layout. */
interface Box {
  readonly account: PageAccount;
  readonly lines: readonly string[];
  readonly w: number;
  readonly h: number;
  readonly col: number;
  /** Room above the box for its loops and their labels. */
  readonly loopSpace: number;
  x: number;
  y: number;
}

/**
 * How a move is drawn: `loop` between accounts of one kind (above the box), `adjacent` to the next
 * column either way, `long` across two or more columns (under the boxes). No move stays within a
 * column: a move that `columnsOf` follows goes right, and one it does not goes back to an account
 * on the path, which is further left.
 */
type Kind = "loop" | "adjacent" | "long";

interface Edge {
  readonly flow: PageFlow;
  readonly index: number;
  readonly from: Box;
  readonly to: Box;
  readonly kind: Kind;
}

interface Label {
  readonly edge: Edge;
  readonly w: number;
  x: number;
  y: number;
}

function fail(what: string): never {
  throw new Error(`chobo doc: ${what}`);
}

/** Text for HTML and SVG, in content and in quoted attributes. */
function esc(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

/** A coordinate with one decimal, the same string for the same page on every machine. */
function px(v: number): string {
  return String(Math.round(v * 10) / 10);
}

function textWidth(s: string): number {
  return displayWidth(s) * CELL;
}

/**
 * The column of every account. Moves are followed depth first from the accounts nothing flows
 * into (else from the first outside account the book takes from); a move back to an account on
 * the path (a return, a refund) is not followed, and every other move puts its target in a
 * column right of its source (longest path). Also gives the order in which accounts were found.
 */
function columnsOf(
  accounts: readonly PageAccount[],
  flows: readonly PageFlow[],
): { col: Map<string, number>; found: string[] } {
  const ids = accounts.map((a) => a.id);
  const outside = new Set(accounts.filter((a) => a.outside).map((a) => a.id));
  const moves = flows.filter((f) => f.from !== f.to);
  const targets = new Set(moves.map((f) => f.to));
  const forward = new Map<string, string[]>(ids.map((id) => [id, []]));
  const seen = new Set<string>();
  const onPath = new Set<string>();
  const found: string[] = [];
  const finished: string[] = [];
  const visit = (v: string) => {
    seen.add(v);
    onPath.add(v);
    found.push(v);
    for (const f of moves) {
      if (f.from !== v || onPath.has(f.to)) continue;
      forward.get(v)!.push(f.to);
      if (!seen.has(f.to)) visit(f.to);
    }
    onPath.delete(v);
    finished.push(v);
  };
  while (seen.size < ids.length) {
    const free = ids.filter((id) => !seen.has(id) && !targets.has(id));
    // Every account left has a move into it, so some move starts at an account left.
    const start = free.length > 0 ? free : [
      (moves.find((f) => !seen.has(f.from) && outside.has(f.from)) ??
        moves.find((f) => !seen.has(f.from)) ?? fail("an account with no way in")).from,
    ];
    for (const id of start) if (!seen.has(id)) visit(id);
  }
  const col = new Map(ids.map((id) => [id, 0]));
  // Reversed finishing order is a topological order of the moves followed.
  for (const v of finished.toReversed()) {
    for (const w of forward.get(v)!) col.set(w, Math.max(col.get(w)!, col.get(v)! + 1));
  }
  return { col, found };
}

/**
 * The accounts of each column from top to bottom: first in the order they were found, then
 * sorted by the average position of their neighbours in the column before (left to right) and
 * in the column after (right to left), `SWEEPS` times, so that fewer arrows cross.
 */
function orderColumns(col: Map<string, number>, found: readonly string[], flows: readonly PageFlow[]) {
  const columns: string[][] = Array.from({ length: Math.max(0, ...col.values()) + 1 }, () => []);
  for (const id of found) columns[col.get(id)!].push(id);
  const neighbours = new Map<string, string[]>(found.map((id) => [id, []]));
  for (const f of flows) {
    if (f.from === f.to) continue;
    neighbours.get(f.from)!.push(f.to);
    neighbours.get(f.to)!.push(f.from);
  }
  const reorder = (k: number, by: number) => {
    const place = new Map(columns[by].map((id, i) => [id, i]));
    const index = new Map(columns[k].map((id, i) => [id, i]));
    const key = new Map(columns[k].map((id, i) => {
      const near = neighbours.get(id)!.filter((n) => place.has(n)).map((n) => place.get(n)!);
      return [id, near.length === 0 ? i : near.reduce((a, b) => a + b, 0) / near.length];
    }));
    columns[k].sort((a, b) => key.get(a)! - key.get(b)! || index.get(a)! - index.get(b)!);
  };
  for (let sweep = 0; sweep < SWEEPS; sweep++) {
    for (let k = 1; k < columns.length; k++) reorder(k, k - 1);
    for (let k = columns.length - 2; k >= 0; k--) reorder(k, k + 1);
  }
  return columns;
}

function boxLines(a: PageAccount, outsideWord: string): string[] {
  const name = a.params.length === 0 ? a.name : `${a.name}(${a.params.join(", ")})`;
  return a.outside ? [name, `${a.unit} · ${outsideWord}`] : [name, a.unit, ...a.bounds];
}

/** A polyline with rounded corners. */
function rounded(points: readonly Point[]): string {
  const toward = ([x, y]: Point, [qx, qy]: Point, r: number): string => {
    const len = Math.hypot(qx - x, qy - y);
    return len === 0 ? `${px(x)} ${px(y)}` : `${px(x + (qx - x) * r / len)} ${px(y + (qy - y) * r / len)}`;
  };
  let d = `M${px(points[0][0])} ${px(points[0][1])}`;
  for (let i = 1; i < points.length - 1; i++) {
    const [p0, p, p1] = [points[i - 1], points[i], points[i + 1]];
    const r = Math.min(
      CORNER,
      Math.hypot(p[0] - p0[0], p[1] - p0[1]) / 2,
      Math.hypot(p1[0] - p[0], p1[1] - p[1]) / 2,
    );
    d += ` L${toward(p, p0, r)} Q${px(p[0])} ${px(p[1])} ${toward(p, p1, r)}`;
  }
  const last = points[points.length - 1];
  return `${d} L${px(last[0])} ${px(last[1])}`;
}

/** An arrowhead with its tip at (x, y), pointing right (1), left (-1) or down (0). */
function head(x: number, y: number, way: 1 | -1 | 0): string {
  if (way === 0) {
    return `M${px(x)} ${px(y)} L${px(x - HEAD / 2)} ${px(y - HEAD)} L${px(x + HEAD / 2)} ${px(y - HEAD)} Z`;
  }
  const back = x - way * HEAD;
  return `M${px(x)} ${px(y)} L${px(back)} ${px(y - HEAD / 2)} L${px(back)} ${px(y + HEAD / 2)} Z`;
}

/** The y of the S-curve from `a` to `b` (horizontal at both ends) where it crosses `x`. */
function curveY(a: Point, b: Point, x: number): number {
  const mid = (a[0] + b[0]) / 2;
  const at = (t: number, p: number, q: number, r: number, s: number) =>
    (1 - t) ** 3 * p + 3 * (1 - t) ** 2 * t * q + 3 * (1 - t) * t ** 2 * r + t ** 3 * s;
  let lo = 0;
  let hi = 1;
  const rising = b[0] > a[0];
  for (let i = 0; i < 30; i++) {
    const t = (lo + hi) / 2;
    if ((at(t, a[0], mid, mid, b[0]) < x) === rising) lo = t;
    else hi = t;
  }
  return at((lo + hi) / 2, a[1], a[1], b[1], b[1]);
}

/**
 * The flow chart as SVG at its natural size: accounts as boxes in columns (see `columnsOf`,
 * `orderColumns`), moves as arrows that carry `data-transfer`, pending ones dashed.
 */
function flowChart(page: Page): string {
  const { col, found } = columnsOf(page.accounts, page.flows);
  const columns = orderColumns(col, found, page.flows);
  const loopCount = new Map<string, number>();
  for (const f of page.flows) if (f.from === f.to) loopCount.set(f.from, (loopCount.get(f.from) ?? 0) + 1);
  const boxes = new Map<string, Box>(page.accounts.map((a) => {
    const lines = boxLines(a, page.words.outside);
    const loops = loopCount.get(a.id) ?? 0;
    return [a.id, {
      account: a,
      lines,
      w: Math.max(...lines.map(textWidth)) + 2 * PAD_X,
      h: lines.length * LINE + 2 * PAD_Y,
      col: col.get(a.id)!,
      loopSpace: loops === 0 ? 0 : loops * LOOP + LABEL_H + 4,
      x: 0,
      y: 0,
    }];
  }));
  const box = (id: string) => boxes.get(id) ?? fail(`a move names the account ${id}, which the page lacks`);
  const edges: Edge[] = page.flows.map((flow, index) => {
    const from = box(flow.from);
    const to = box(flow.to);
    const span = Math.abs(to.col - from.col);
    if (from !== to && span === 0) fail(`the move ${flow.label} stays within a column`);
    const kind: Kind = from === to ? "loop" : span === 1 ? "adjacent" : "long";
    return { flow, index, from, to, kind };
  });

  // Rows: each column centred on the tallest.
  const heights = columns.map((ids) =>
    ids.reduce((sum, id) => sum + box(id).loopSpace + box(id).h, 0) + ROW_GAP * Math.max(0, ids.length - 1)
  );
  const tallest = Math.max(0, ...heights);
  columns.forEach((ids, k) => {
    let y = MARGIN + (tallest - heights[k]) / 2;
    for (const id of ids) {
      const b = box(id);
      b.y = y + b.loopSpace;
      y = b.y + b.h + ROW_GAP;
    }
  });
  const center = (b: Box) => b.y + b.h / 2;

  // Long moves: one lane each under the boxes, the shorter ones nearer; a vertical track in the
  // space after their source column and before their target column, the deeper lane nearer the box.
  const long = edges.filter((e) => e.kind === "long")
    .sort((a, b) => Math.abs(a.to.col - a.from.col) - Math.abs(b.to.col - b.from.col) || a.index - b.index);
  const lane = new Map(long.map((e, i) => [e, i]));
  const laneY = (e: Edge) => MARGIN + tallest + LANE * (lane.get(e)! + 1);
  const leftTracks: Edge[][] = columns.map(() => []);
  const rightTracks: Edge[][] = columns.map(() => []);
  for (const e of long) {
    if (e.to.col > e.from.col) {
      leftTracks[e.from.col].push(e);
      rightTracks[e.to.col - 1].push(e);
    } else {
      rightTracks[e.from.col - 1].push(e);
      leftTracks[e.to.col].push(e);
    }
  }
  for (const tracks of [...leftTracks, ...rightTracks]) tracks.sort((a, b) => lane.get(b)! - lane.get(a)!);

  const labelW = (e: Edge) => textWidth(e.flow.label) + 8;

  // Columns and the spaces between them.
  const colW = columns.map((ids) => Math.max(0, ...ids.map((id) => box(id).w)));
  const middle = columns.map((_, k) => {
    const across = edges.filter((e) => e.kind === "adjacent" && Math.min(e.from.col, e.to.col) === k);
    return Math.max(MIN_GAP, ...across.map((e) => labelW(e) + 2 * LABEL_PAD));
  });
  const colX: number[] = [];
  let x = MARGIN;
  columns.forEach((_, k) => {
    colX.push(x);
    x += colW[k] +
      (k === columns.length - 1
        ? MARGIN
        : (leftTracks[k].length + rightTracks[k].length + 1) * TRACK + middle[k]);
  });
  const width = x;
  for (const b of boxes.values()) b.x = colX[b.col] + (colW[b.col] - b.w) / 2;
  const colRight = (k: number) => colX[k] + colW[k];
  const middleX = (k: number) => colRight(k) + leftTracks[k].length * TRACK + TRACK / 2;
  const leftTrackX = (k: number, e: Edge) => colRight(k) + TRACK * (leftTracks[k].indexOf(e) + 1);
  const rightTrackX = (k: number, e: Edge) => colX[k + 1] - TRACK * (rightTracks[k].indexOf(e) + 1);

  // Ports: where arrows meet a box's side, spread along it in the order of where they go.
  type Side = "left" | "right";
  const ports = new Map<string, { edge: Edge; key: number }[]>();
  const attach = (b: Box, side: Side, edge: Edge, other: Box) => {
    const at = `${b.account.id} ${side}`;
    const key = edge.kind === "long" ? Number.MAX_SAFE_INTEGER / 2 + lane.get(edge)! : center(other);
    ports.set(at, [...ports.get(at) ?? [], { edge, key }]);
  };
  for (const e of edges) {
    if (e.kind === "loop") continue;
    const rightward = e.to.col > e.from.col;
    attach(e.from, rightward ? "right" : "left", e, e.to);
    attach(e.to, rightward ? "left" : "right", e, e.from);
  }
  for (const list of ports.values()) list.sort((a, b) => a.key - b.key || a.edge.index - b.edge.index);
  const portY = (b: Box, side: Side, e: Edge) => {
    const list = ports.get(`${b.account.id} ${side}`)!;
    const i = list.findIndex((p) => p.edge === e);
    return b.y + b.h * (i + 1) / (list.length + 1);
  };

  const arrows: string[] = [];
  const labels: Label[] = [];
  const loopsDrawn = new Map<Box, number>();
  for (const e of edges) {
    const { from, to } = e;
    let line: string;
    let tip: string;
    let label: Point;
    if (e.kind === "loop") {
      const i = loopsDrawn.get(from) ?? 0;
      loopsDrawn.set(from, i + 1);
      const cx = from.x + from.w / 2;
      const d = 14 + 10 * i;
      const rise = LOOP * (i + 1);
      const top = from.y;
      const c = top - rise * 4 / 3;
      line = `M${px(cx - d)} ${px(top)} C${px(cx - d)} ${px(c)} ${px(cx + d)} ${px(c)} ${px(cx + d)} ${
        px(top - HEAD)
      }`;
      tip = head(cx + d, top, 0);
      label = [cx - labelW(e) / 2, top - rise - LABEL_H - 2];
    } else if (e.kind === "adjacent") {
      const rightward = to.col > from.col;
      const a: Point = [rightward ? from.x + from.w : from.x, portY(from, rightward ? "right" : "left", e)];
      const tipX = rightward ? to.x : to.x + to.w;
      const b: Point = [tipX - (rightward ? HEAD : -HEAD), portY(to, rightward ? "left" : "right", e)];
      const mid = (a[0] + b[0]) / 2;
      line = `M${px(a[0])} ${px(a[1])} C${px(mid)} ${px(a[1])} ${px(mid)} ${px(b[1])} ${px(b[0])} ${
        px(b[1])
      }`;
      tip = head(tipX, b[1], rightward ? 1 : -1);
      const k = Math.min(from.col, to.col);
      const lx = middleX(k) + middle[k] / 2;
      label = [lx - labelW(e) / 2, curveY(a, b, lx) - LABEL_H / 2];
    } else {
      const rightward = to.col > from.col;
      const y1 = portY(from, rightward ? "right" : "left", e);
      const y2 = portY(to, rightward ? "left" : "right", e);
      const t1 = rightward ? leftTrackX(from.col, e) : rightTrackX(from.col - 1, e);
      const t2 = rightward ? rightTrackX(to.col - 1, e) : leftTrackX(to.col, e);
      const ly = laneY(e);
      const start = rightward ? from.x + from.w : from.x;
      const tipX = rightward ? to.x : to.x + to.w;
      line = rounded([[start, y1], [t1, y1], [t1, ly], [t2, ly], [t2, y2], [
        tipX - (rightward ? HEAD : -HEAD),
        y2,
      ]]);
      tip = head(tipX, y2, rightward ? 1 : -1);
      label = [(t1 + t2) / 2 - labelW(e) / 2, ly - LABEL_H / 2];
    }
    const cls = e.flow.pending ? "arrow pending" : "arrow";
    arrows.push(
      `<g class="${cls}" data-transfer="${esc(e.flow.transfer)}"><title>${esc(e.flow.label)}</title>` +
        `<path class="line" d="${line}"/><path class="head" d="${tip}"/></g>`,
    );
    labels.push({ edge: e, w: labelW(e), x: label[0], y: label[1] });
  }

  // Labels that overlap one placed before are pushed down below it.
  const placed: Label[] = [];
  const overlap = (a: Label, b: Label) =>
    a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + LABEL_H && b.y < a.y + LABEL_H;
  for (const l of labels.toSorted((a, b) => a.y - b.y || a.x - b.x || a.edge.index - b.edge.index)) {
    for (let pushed = true; pushed;) {
      pushed = false;
      for (const p of placed) {
        if (overlap(l, p)) {
          l.y = p.y + LABEL_H + 2;
          pushed = true;
        }
      }
    }
    placed.push(l);
  }

  const height = Math.max(MARGIN + tallest, ...long.map(laneY), ...labels.map((l) => l.y + LABEL_H)) + MARGIN;
  const boxSvg = [...boxes.values()].map((b) => {
    const cx = b.x + b.w / 2;
    const text = b.lines.map((line, i) =>
      `<text${i === 0 ? ' class="name"' : ""} x="${px(cx)}" y="${px(b.y + PAD_Y + i * LINE + 12)}">${
        esc(line)
      }</text>`
    ).join("");
    const title = b.account.description === null ? "" : `<title>${esc(b.account.description)}</title>`;
    return `<g class="${b.account.outside ? "box outside" : "box"}" data-account="${
      esc(b.account.id)
    }">${title}` +
      `<rect x="${px(b.x)}" y="${px(b.y)}" width="${px(b.w)}" height="${px(b.h)}" rx="${
        b.account.outside ? 12 : 3
      }"/>${text}</g>`;
  });
  const labelSvg = labels.map((l) =>
    `<g class="flow-label" data-transfer="${esc(l.edge.flow.transfer)}">` +
    `<rect x="${px(l.x)}" y="${px(l.y)}" width="${px(l.w)}" height="${LABEL_H}" rx="3"/>` +
    `<text x="${px(l.x + l.w / 2)}" y="${px(l.y + 12)}">${esc(l.edge.flow.label)}</text></g>`
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" class="flow-chart" width="${px(width)}" height="${
    px(height)
  }" ` +
    `viewBox="0 0 ${px(width)} ${px(height)}" role="img" aria-label="${esc(page.words.flow)}">\n` +
    `<g class="arrows">${arrows.join("\n")}</g>\n<g class="boxes">${boxSvg.join("\n")}</g>\n` +
    `<g class="labels">${labelSvg.join("\n")}</g>\n</svg>`;
}

function table(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  { caption = "", cls = "" }: { caption?: string; cls?: string } = {},
): string {
  return `<div class="frame"><table${cls === "" ? "" : ` class="${cls}"`}>` +
    (caption === "" ? "" : `<caption>${caption}</caption>`) +
    `<thead><tr>${head.map((h) => `<th>${h}</th>`).join("")}</tr></thead><tbody>\n` +
    rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>\n`).join("") +
    `</tbody></table></div>`;
}

function codeBlock(lines: readonly string[]): string {
  return `<div class="frame"><pre><code>${esc(lines.join("\n"))}</code></pre></div>`;
}

function transferSection(page: Page, t: PageTransfer): string {
  const w = page.words;
  const out = [
    `<section class="transfer" id="transfer-${esc(t.name)}">`,
    `<h3><code>${esc(t.name)}</code></h3>`,
  ];
  if (t.description !== null) out.push(`<p>${esc(t.description)}</p>`);
  out.push(`<h4>${esc(w.moves)}</h4>`, codeBlock(t.moves));
  // The builder's key line starts with its own word for "key", which the heading already says.
  out.push(`<h4>${esc(w.key)}</h4>`, `<p>${esc(t.key.replace(/^(key|キー): /, ""))}</p>`);
  if (t.ending !== null) out.push(`<h4>${esc(w.hold_ends)}</h4>`, `<p>${esc(t.ending)}</p>`);
  if (t.lifecycle !== null) {
    out.push(
      `<h4>${esc(w.lifecycle)}</h4>`,
      table([esc(w.state), "<code>post</code>", "<code>void</code>"], t.lifecycle.map((r) => r.map(esc))),
    );
  }
  if (t.operations.some((o) => o.refusals.length > 0)) {
    out.push(`<h4>${esc(w.refusals)}</h4>`);
    for (const o of t.operations) {
      if (o.refusals.length === 0) continue;
      const rows = o.refusals.map((r) => [
        `<code>${esc(r.reason)}</code>`,
        esc(r.meaning) +
        (r.example.length === 0 ? "" : `<details><summary>${esc(w.operations_that_get_there)}</summary>` +
          `<pre>${esc(r.example.join("\n"))}</pre></details>`),
      ]);
      out.push(
        table([esc(w.reason), esc(w.meaning)], rows, { caption: `<code>${esc(`${t.name}.${o.op}`)}</code>` }),
      );
    }
  }
  out.push("</section>");
  return out.join("\n");
}

/** The scenarios as the stepper's script reads them; `<` and the line separators escaped for a script element. */
function scenarioJson(page: Page): string {
  const data = { scenarios: page.scenarios.map((s) => ({ title: s.title, outcomes: s.outcomes })) };
  return JSON.stringify(data).replaceAll("<", "\\u003c").replaceAll(">", "\\u003e").replaceAll("&", "\\u0026")
    .replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");
}

function stepper(page: Page): string {
  const w = page.words;
  const option = (i: number) => `<option value="${i}">${esc(page.scenarios[i].title)}</option>`;
  const indices = page.scenarios.map((_, i) => i);
  const group = (byHand: boolean, label: string) => {
    const inGroup = indices.filter((i) => page.scenarios[i].handWritten === byHand);
    return inGroup.length === 0
      ? []
      : [`<optgroup label="${esc(label)}">`, ...inGroup.map(option), "</optgroup>"];
  };
  const options = page.scenarios.some((s) => s.handWritten)
    ? [...group(true, w.hand_written), ...group(false, w.generated)].join("\n")
    : indices.map(option).join("\n");
  return `<section id="scenarios">
<h2>${esc(w.scenarios)}</h2>
<div class="controls">
<label>${esc(w.scenario)} <select id="scenario">
${options}
</select></label>
<label id="outcome-choice" hidden>${esc(w.outcome)} <select id="outcome"></select></label>
</div>
<div class="stepper">
<div class="steps-pane">
<div class="nav"><button type="button" id="previous">← ${esc(w.previous)}</button>
<span id="position" data-word="${esc(w.step)}" aria-live="polite"></span>
<button type="button" id="next">${esc(w.next)} →</button></div>
<ol id="steps"></ol>
</div>
<div class="state-pane">
<div class="frame chart" id="stepper-chart"></div>
<h3>${esc(w.balances)}</h3>
<div class="frame"><table id="balances"><thead><tr><th>${esc(w.name)}</th><th>${esc(w.posted)}</th><th>${
    esc(w.holds)
  }</th></tr></thead><tbody></tbody></table></div>
<div id="holds-box"><h3>${esc(w.holds)}</h3>
<div class="frame"><table id="holds"><thead><tr><th>${esc(w.name)}</th><th>${
    esc(w.state)
  }</th></tr></thead><tbody></tbody></table></div></div>
</div>
</div>
<script type="application/json" id="chobo-scenarios">${scenarioJson(page)}</script>
<script>${SCRIPT}</script>
</section>`;
}

/**
 * The HTML page of a book: one self-contained file (inline style, script and SVG; nothing loaded
 * from anywhere), light and dark, readable 360 px wide. The same page gives the same bytes.
 *
 * @example
 * ```ts
 * Deno.writeTextFileSync("inventory.html", pageHtml(buildPage(book, warnings, "en")));
 * ```
 */
export function pageHtml(page: Page): string {
  const w = page.words;
  const accounts = table(
    [w.name, w.split_by, w.unit, w.bounds, w.description].map(esc),
    page.accounts.map((a) => [
      `<code>${esc(a.name)}</code>`,
      esc(a.params.join(", ")),
      esc(a.unit),
      a.outside ? esc(w.outside) : a.bounds.map((b) => `<span class="bound">${esc(b)}</span>`).join("<br>"),
      esc(a.description ?? ""),
    ]),
    { cls: "accounts" },
  );
  const sections = [
    `<header>\n<h1>${esc(page.title)}</h1>`,
    ...(page.description === null ? [] : [`<p class="description">${esc(page.description)}</p>`]),
    ...page.intro.map((p) => `<p>${esc(p)}</p>`),
    "</header>",
    `<section id="accounts">\n<h2>${esc(w.accounts)}</h2>\n${accounts}\n</section>`,
    `<section id="flow">\n<h2>${esc(w.flow)}</h2>\n<div class="frame chart">\n${
      flowChart(page)
    }\n</div>\n</section>`,
    `<section id="transfers">\n<h2>${esc(w.transfers)}</h2>`,
    ...page.transfers.map((t) => transferSection(page, t)),
    "</section>",
    ...(page.warnings.length === 0 ? [] : [
      `<section id="warnings">\n<h2>${esc(w.warnings)}</h2>\n` +
      codeBlock(page.warnings.map((x) => x.trimEnd())) + "\n</section>",
    ]),
    ...(page.scenarios.length === 0 ? [] : [stepper(page)]),
  ];
  return `<!DOCTYPE html>
<html lang="${esc(page.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="${esc(page.generator)}">
<title>${esc(page.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${sections.join("\n")}
</main>
</body>
</html>
`;
}

/** The rules of the flow chart between accounts, inside the shared look. */
const CHART_STYLE = `
.flow-chart { font: ${FONT}px ${MONOSPACE}; }
.flow-chart text { fill: var(--fg); text-anchor: middle; }
.flow-chart .name { font-weight: 700; }
.box rect { fill: var(--box); stroke: var(--fg); stroke-width: 1.2; }
.box.outside rect { stroke-dasharray: 5 3; }
.arrow .line { fill: none; stroke: var(--arrow); stroke-width: 1.5; }
.arrow.pending .line { stroke-dasharray: 6 4; }
.arrow .head { fill: var(--arrow); }
.arrow.lit .line { stroke: var(--lit); stroke-width: 3; }
.arrow.lit .head { fill: var(--lit); }
.arrow.lit.refused .line { stroke: var(--refused); }
.arrow.lit.refused .head { fill: var(--refused); }
.flow-label rect { fill: var(--bg); opacity: 0.9; }
.flow-label.lit rect { fill: var(--lit-bg); opacity: 1; stroke: var(--lit); }
.flow-label.lit text { font-weight: 700; }
.flow-label.lit.refused rect { fill: var(--refused-bg); stroke: var(--refused); }
.flow-label.lit.refused text { text-decoration: line-through; }
`;

const STYLE = pageStyle(CHART_STYLE);

/**
 * The stepper: reads the embedded scenarios, shows one step (its balances and holds, the changed
 * cells marked with a class and a sign), lights the arrows of the transfers it called, and keeps
 * the choice in `#scenario=…&step=…&outcome=…` (1-based).
 */
const SCRIPT = `
(() => {
  "use strict";
  const data = JSON.parse(document.getElementById("chobo-scenarios").textContent);
  const byId = (id) => document.getElementById(id);
  const scenarioSelect = byId("scenario");
  const outcomeSelect = byId("outcome");
  const outcomeChoice = byId("outcome-choice");
  const stepList = byId("steps");
  const previous = byId("previous");
  const next = byId("next");
  const position = byId("position");
  const balances = byId("balances").tBodies[0];
  const holds = byId("holds").tBodies[0];
  const holdsBox = byId("holds-box");
  const stepperChart = byId("stepper-chart");
  stepperChart.append(document.querySelector("#flow svg").cloneNode(true));
  const marked = document.querySelectorAll("[data-transfer]");
  let s = 0;
  let o = 0;
  let i = 0;
  const steps = () => data.scenarios[s].outcomes[o];

  function fromHash() {
    const p = new URLSearchParams(location.hash.slice(1));
    const pick = (key, count) => {
      const n = Number(p.get(key));
      return Number.isInteger(n) && n >= 1 && n <= count ? n - 1 : 0;
    };
    s = pick("scenario", data.scenarios.length);
    o = pick("outcome", data.scenarios[s].outcomes.length);
    i = pick("step", steps().length);
  }
  function toHash() {
    history.replaceState(null, "", "#scenario=" + (s + 1) + "&step=" + (i + 1) + "&outcome=" + (o + 1));
  }
  function span(className, text) {
    const e = document.createElement("span");
    e.className = className;
    e.textContent = text;
    return e;
  }
  function fill() {
    const scenario = data.scenarios[s];
    scenarioSelect.value = String(s);
    outcomeChoice.hidden = scenario.outcomes.length < 2;
    outcomeSelect.replaceChildren(...scenario.outcomes.map((_, n) => new Option(String(n + 1), String(n))));
    outcomeSelect.value = String(o);
    stepList.replaceChildren(...steps().map((step, n) => {
      const button = document.createElement("button");
      button.type = "button";
      button.append(span("call", step.label), span(step.refused ? "result refused" : "result", step.result));
      button.addEventListener("click", () => go(n));
      const li = document.createElement("li");
      li.append(button);
      return li;
    }));
  }
  function cell(row, text, changed) {
    const td = row.insertCell();
    if (changed) {
      td.className = "changed";
      const mark = span("mark", "●");
      mark.setAttribute("aria-hidden", "true");
      td.append(mark, "\\u00a0");
    }
    td.append(text);
  }
  function show() {
    const list = steps();
    const step = list[i];
    position.textContent = position.dataset.word + " " + (step ? i + 1 : 0) + " / " + list.length;
    previous.disabled = i <= 0;
    next.disabled = i >= list.length - 1;
    [...stepList.children].forEach((li, n) => {
      if (n === i) li.firstChild.setAttribute("aria-current", "step");
      else li.firstChild.removeAttribute("aria-current");
    });
    const before = new Map(i > 0 ? list[i - 1].balances.map((b) => [b.account, b]) : []);
    balances.replaceChildren();
    for (const b of step ? step.balances : []) {
      const row = balances.insertRow();
      const old = before.get(b.account);
      let posted = b.changed && (!old || old.posted !== b.posted);
      const held = b.changed && (old ? old.held !== b.held : b.held !== "");
      if (b.changed) {
        row.className = "changed";
        posted = posted || !held;
      }
      cell(row, b.account, false);
      cell(row, b.posted, posted);
      cell(row, b.held, held);
    }
    holds.replaceChildren();
    for (const h of step ? step.holds : []) {
      const row = holds.insertRow();
      if (h.changed) row.className = "changed";
      cell(row, h.hold, false);
      cell(row, h.state, h.changed);
    }
    holdsBox.hidden = !step || step.holds.length === 0;
    const called = new Set(step ? step.transfers : []);
    for (const e of marked) {
      const on = called.has(e.dataset.transfer);
      e.classList.toggle("lit", on);
      e.classList.toggle("refused", on && step.refused);
    }
    reveal();
  }
  // On a narrow screen the stepper's chart scrolls sideways: bring the lit arrows into its view.
  function reveal() {
    const lit = [...stepperChart.querySelectorAll(".lit")].map((e) => e.getBoundingClientRect());
    if (lit.length === 0) return;
    const frame = stepperChart.getBoundingClientRect();
    const left = Math.min(...lit.map((r) => r.left)) - frame.left + stepperChart.scrollLeft;
    const right = Math.max(...lit.map((r) => r.right)) - frame.left + stepperChart.scrollLeft;
    if (left < stepperChart.scrollLeft || right > stepperChart.scrollLeft + stepperChart.clientWidth) {
      stepperChart.scrollLeft = (left + right - stepperChart.clientWidth) / 2;
    }
  }
  function go(n) {
    if (n < 0 || n >= steps().length) return;
    i = n;
    show();
    toHash();
  }
  previous.addEventListener("click", () => go(i - 1));
  next.addEventListener("click", () => go(i + 1));
  scenarioSelect.addEventListener("change", () => {
    s = Number(scenarioSelect.value);
    o = 0;
    i = 0;
    fill();
    show();
    toHash();
  });
  outcomeSelect.addEventListener("change", () => {
    o = Number(outcomeSelect.value);
    i = Math.min(i, Math.max(0, steps().length - 1));
    fill();
    show();
    toHash();
  });
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.defaultPrevented) return;
    const by = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
    if (by === 0) return;
    // Arrows keep their own meaning in form fields and in a frame that scrolls sideways.
    const t = e.target instanceof Element ? e.target : null;
    const frame = t && t.closest(".frame");
    if (t && t.closest("select, input, textarea")) return;
    if (frame && frame.scrollWidth > frame.clientWidth) return;
    e.preventDefault();
    go(i + by);
  });
  // A hash that only names a section (#accounts) is left alone.
  const chosen = () => location.hash.includes("scenario=");
  window.addEventListener("hashchange", () => {
    if (!chosen()) return;
    fromHash();
    fill();
    show();
  });
  if (chosen()) fromHash();
  fill();
  show();
  if (chosen()) byId("scenarios").scrollIntoView();
})();
`;
