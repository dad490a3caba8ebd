/**
 * The Markdown page's charts (docs/design/dandori.md#the-page): one Mermaid `flowchart TD` per block,
 * in the page's shapes — a task `["…"]`, a task that waits for a value from outside `[/"…"/]`, `match`
 * `{{"…"}}`, a wait `("…")`, the start and every end `(["…"])` — loops as subgraphs with the way
 * back to their statement (dotted) and the `break` out. Jumps are not drawn (`chart.ts`).
 * @module
 */

import { unreachable } from "../common/assert.ts";
import type { Chart, ChartEdge, ChartFrame, ChartNode, Charts, Shape } from "./chart.ts";

/** A Mermaid id for a node or a frame: the plan's ids have `:`, and Mermaid reserves `end`. */
function idOf(id: string): string {
  return `n_${id.replaceAll(/[^A-Za-z0-9]/g, "_")}`;
}

/**
 * Text inside a Mermaid label's quotes: its quotes, `<`, `>`, `&`, `|`, backticks and `%` as
 * Mermaid's entities, so no character of a flow ends the label, opens a tag, starts a Markdown
 * string or makes a directive (Mermaid reads `%%{…}%%` anywhere in a chart's text).
 */
export function labelText(s: string): string {
  return s.replaceAll("#", "#35;").replaceAll('"', "#quot;").replaceAll("<", "#lt;").replaceAll(">", "#gt;")
    .replaceAll("&", "#amp;").replaceAll("|", "#124;").replaceAll("`", "#96;").replaceAll("%", "#37;");
}

function shaped(shape: Shape, label: string): string {
  switch (shape) {
    case "start":
    case "end":
      return `(["${label}"])`;
    case "task":
    case "step":
    case "loop":
      return `["${label}"]`;
    case "event":
      return `[/"${label}"/]`;
    case "match":
      return `{{"${label}"}}`;
    case "wait":
      return `("${label}")`;
    default:
      return unreachable(shape, "shape");
  }
}

function nodeLine(n: ChartNode, indent: string): string {
  const lines = n.unhandled ? [`! ${n.lines[0]}`, ...n.lines.slice(1)] : n.lines;
  return `${indent}${idOf(n.id)}${shaped(n.shape, lines.map(labelText).join("<br>"))}`;
}

function edgeLine(e: ChartEdge): string {
  const arrow = e.kind === "again" ? "-.->" : "-->";
  return e.label === ""
    ? `    ${idOf(e.from)} ${arrow} ${idOf(e.to)}`
    : `    ${idOf(e.from)} ${arrow}|"${labelText(e.label)}"| ${idOf(e.to)}`;
}

/** The nodes of a frame (and the frames in it), nested as the loops nest. */
function frameLines(chart: Chart, frame: ChartFrame | null, indent: string): string[] {
  const own = frame?.id ?? null;
  const out: string[] = [];
  for (const n of chart.nodes) if (n.loop === own) out.push(nodeLine(n, indent));
  for (const f of chart.frames) {
    if (f.parent !== own) continue;
    out.push(`${indent}subgraph ${idOf(`frame ${f.id}`)} [" "]`);
    out.push(...frameLines(chart, f, `${indent}    `));
    out.push(`${indent}end`);
  }
  return out;
}

/**
 * The Mermaid text of one chart.
 *
 * @example
 * ```ts
 * const { charts, edges } = chartsOf(plan, "en");
 * console.log(mermaidChart(charts[0], { charts, edges }));
 * ```
 */
export function mermaidChart(chart: Chart, all: Charts): string {
  const ids = new Set(chart.nodes.map((n) => n.id));
  const edges = all.edges.filter((e) => e.drawn && ids.has(e.from));
  return ["flowchart TD", ...frameLines(chart, null, "    "), ...edges.map(edgeLine)].join("\n");
}
