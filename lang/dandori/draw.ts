/**
 * The HTML page of `dandori doc --format html` (docs/design/dandori.md#the-page): one file with its style,
 * its script and SVG charts that `layout.ts` lays out, so it opens offline and loads nothing; the
 * charts and tables show without the script. The script lights a run: choose a scenario, step with
 * the buttons, the arrow keys or a click; the nodes and edges passed light up, the step's own most,
 * and the variables and cases after the step are shown with what changed marked. The choice lives
 * in the hash (`#scenario=3&step=2`). It writes what `doc.ts` gathered in a `FlowPage`.
 * @module
 */

import { MONOSPACE, pageStyle } from "../common/style.ts";
import { visible } from "../common/visible.ts";
import { chartSvg, esc, FONT } from "./layout.ts";
import type { FlowPage, PageRun } from "./page.ts";

function table(head: readonly string[], rows: readonly (readonly string[])[], cls = ""): string {
  return `<div class="frame"><table${cls === "" ? "" : ` class="${cls}"`}>` +
    `<thead><tr>${head.map((h) => `<th>${h}</th>`).join("")}</tr></thead><tbody>\n` +
    rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>\n`).join("") +
    `</tbody></table></div>`;
}

/** Text with its `code` spans as `<code>`, the rest escaped. */
function prose(s: string): string {
  return s.split("`").map((part, i) => i % 2 === 1 ? `<code>${esc(part)}</code>` : esc(part)).join("");
}

function codes(items: readonly string[]): string {
  return items.length === 0 ? "—" : items.map((x) => `<code>${esc(x)}</code>`).join(", ");
}

function lines(items: readonly string[]): string {
  return items.map(prose).join("<br>");
}

function headerHtml(page: FlowPage): string {
  const w = page.words;
  const start = [
    `<dt>${esc(w.inputs)}</dt><dd>${codes(page.inputs)}</dd>`,
    `<dt>${esc(w.outputs)}</dt><dd>${codes(page.outputs)}</dd>`,
    ...(page.period === null ? [] : [`<dt>${esc(w.period)}</dt><dd><code>${esc(page.period)}</code></dd>`]),
  ];
  return [
    `<header>\n<h1>${esc(page.title)}</h1>`,
    ...(page.description === null ? [] : [`<p class="description">${esc(page.description)}</p>`]),
    `<dl class="start">${start.join("")}</dl>`,
    ...page.intro.map((p) => `<p>${prose(p)}</p>`),
    "</header>",
  ].join("\n");
}

function typesHtml(page: FlowPage): string[] {
  const w = page.words;
  const out: string[] = [];
  if (page.records.length > 0) {
    out.push(
      `<section id="records">\n<h2>${esc(w.records)}</h2>\n${
        table(
          [esc(w.name), esc(w.fields)],
          page.records.map((r) => [`<code>${esc(r.name)}</code>`, codes(r.fields)]),
        )
      }\n</section>`,
    );
  }
  if (page.enums.length > 0) {
    out.push(
      `<section id="enums">\n<h2>${esc(w.enums)}</h2>\n${
        table(
          [esc(w.name), esc(w.values)],
          page.enums.map((e) => [`<code>${esc(e.name)}</code>`, codes(e.values)]),
        )
      }\n</section>`,
    );
  }
  return out;
}

function chartsHtml(page: FlowPage): string {
  const parts = page.charts.charts.map((c) => {
    const note = page.notes[c.block];
    return `<h3>${esc(c.title)}</h3>\n<div class="frame chart" data-chart="${esc(c.block)}">\n${
      chartSvg(page.plan, c, page.charts, c.title)
    }\n</div>${note === undefined ? "" : `\n<p>${prose(note)}</p>`}`;
  });
  return `<section id="flow">\n<h2>${esc(page.words.charts)}</h2>\n${parts.join("\n")}\n</section>`;
}

function tablesHtml(page: FlowPage): string[] {
  const w = page.words;
  const withCases = page.calls.some((c) => c.after.length > 0);
  const head = [w.line, w.call, w.callee, w.retry, w.timeout, w.errors, ...(withCases ? [w.after] : [])].map(
    esc,
  );
  const calls = page.calls.map((c) => [
    String(c.line),
    `${c.unhandled ? '<span class="unhandled">!</span> ' : ""}<code>${esc(c.call)}</code>`,
    `<code>${esc(c.callee)}</code>`,
    esc(c.retry),
    prose(c.timeout),
    lines(c.errors),
    ...(withCases ? [lines(c.after)] : []),
  ]);
  const endings = page.endings.map((e) => [
    prose(e.where),
    e.statement === null ? prose(e.how) : `${prose(e.how)}: <code>${esc(e.statement)}</code>`,
    e.cases.length === 0 ? "—" : lines(e.cases),
  ]);
  const out = [
    `<section id="calls">\n<h2>${esc(w.calls)}</h2>\n${table(head, calls, "calls")}\n</section>`,
    `<section id="endings">\n<h2>${esc(w.endings)}</h2>\n${
      table([w.where, w.how, w.cases].map(esc), endings)
    }\n</section>`,
  ];
  if (page.diagnostics.length > 0) {
    out.push(
      `<section id="check">\n<h2>${esc(w.check)}</h2>\n<div class="frame"><pre><code>${
        esc(page.diagnostics.map((d) => d.trimEnd()).join("\n"))
      }</code></pre></div>\n</section>`,
    );
  }
  return out;
}

/** The runs the stepper steps through: the generated scenarios, or for a flow with errors its diagnostics' runs. */
function shownRuns(page: FlowPage): readonly PageRun[] {
  return page.runs.length > 0 ? page.runs : page.examples;
}

/** The runs as the stepper's script reads them; `<`, `>`, `&` and the line separators escaped for a script element. */
function runsJson(page: FlowPage): string {
  const jumps = Object.fromEntries(page.charts.edges.filter((e) => !e.drawn).map((e) => [e.id, e.from]));
  const data = {
    jumps,
    runs: shownRuns(page).map((r) => ({ title: r.title, steps: r.steps })),
  };
  return JSON.stringify(data).replaceAll("<", "\\u003c").replaceAll(">", "\\u003e").replaceAll("&", "\\u0026")
    .replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");
}

function stepperHtml(page: FlowPage): string {
  const w = page.words;
  const runs = shownRuns(page);
  const intro = page.hasErrors ? `\n<p>${prose(w.no_runs)}</p>` : "";
  if (runs.length === 0) return `<section id="runs">\n<h2>${esc(w.runs)}</h2>${intro}\n</section>`;
  const options = runs.map((r, i) => `<option value="${i}">${esc(r.title)}</option>`).join("\n");
  const valueTable = (id: string, first: string) =>
    `<div class="frame"><table id="${id}"><thead><tr><th>${esc(first)}</th><th>${
      esc(w.value)
    }</th></tr></thead><tbody></tbody></table></div>`;
  return `<section id="runs">
<h2>${esc(w.runs)}</h2>${intro}
<div class="controls">
<label>${esc(w.scenario)} <select id="scenario">
${options}
</select></label>
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
<div id="step-detail"><p id="step-note"></p><div class="frame" id="step-calls-frame"><pre><code id="step-calls"></code></pre></div></div>
<div id="values-box">
<h3>${esc(w.variables)}</h3>
${valueTable("vars", w.name)}
<h3>${esc(w.cases)}</h3>
${valueTable("cases", w.name)}
</div>
<h3>${esc(w.possible)}</h3>
<ul id="possible"></ul>
</div>
</div>
<script type="application/json" id="dandori-runs">${runsJson(page)}</script>
<script>${SCRIPT}</script>
</section>`;
}

/**
 * The HTML page of a flow: one self-contained file (inline style, script and SVG; nothing loaded
 * from anywhere), light and dark, readable 360 px wide. The same page gives the same bytes. Every
 * character that would act instead of show is escaped (`visible`), in a file as on stdout.
 *
 * @example
 * ```ts
 * Deno.writeTextFileSync("orders.html", flowPageHtml(buildFlowPage(check, "en")));
 * ```
 */
export function flowPageHtml(page: FlowPage): string {
  return visible(pageText(page));
}

function pageText(page: FlowPage): string {
  const sections = [
    headerHtml(page),
    ...typesHtml(page),
    chartsHtml(page),
    ...tablesHtml(page),
    stepperHtml(page),
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

/** The rules of the flow's charts and the stepper's panes, inside the shared look. */
const CHART_STYLE = `
:root { --passed-bg: #eef6ff; }
@media (prefers-color-scheme: dark) { :root { --passed-bg: #0b1f3a; } }
.flow-chart { font: ${FONT}px ${MONOSPACE}; }
.flow-chart text { fill: var(--fg); white-space: pre; }
.node rect, .node polygon { fill: var(--box); stroke: var(--fg); stroke-width: 1.2; }
.node .first { font-weight: 700; }
.node.passed rect, .node.passed polygon { fill: var(--passed-bg); stroke: var(--lit); }
.node.lit rect, .node.lit polygon { fill: var(--lit-bg); stroke: var(--lit); stroke-width: 3; }
.mark circle { fill: var(--refused-bg); stroke: var(--refused); }
.mark text { fill: var(--refused); font-weight: 700; text-anchor: middle; }
.mark.lit circle { fill: var(--refused); }
.mark.lit text { fill: var(--bg); }
.loop-frame { fill: none; stroke: var(--muted); stroke-width: 1.2; }
.loop-frame.parallel { stroke-dasharray: 6 3; }
.edge .line { fill: none; stroke: var(--arrow); stroke-width: 1.5; }
.edge .head { fill: var(--arrow); }
.edge.again .line { stroke-dasharray: 4 3; }
.edge.passed .line { stroke: var(--lit); }
.edge.passed .head { fill: var(--lit); }
.edge.lit .line { stroke: var(--lit); stroke-width: 3; stroke-dasharray: none; }
.edge.lit .head { fill: var(--lit); }
.edge-label rect { fill: var(--bg); opacity: 0.9; }
.edge-label text { fill: var(--muted); text-anchor: middle; }
.edge-label.lit rect { fill: var(--lit-bg); stroke: var(--lit); opacity: 1; }
.edge-label.lit text { fill: var(--fg); font-weight: 700; }
.start { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.25rem 1rem; margin: 0.75rem 0; }
.start dt { font-weight: 600; }
.start dd { margin: 0; overflow-wrap: anywhere; }
.calls td { overflow-wrap: anywhere; }
.unhandled { color: var(--refused); font-weight: 700; }
#stepper-chart { max-height: 70vh; overflow: auto; }
#stepper-chart h4 { margin: 0.5rem 0 0.25rem; }
#step-calls-frame[hidden], #values-box[hidden] { display: none; }
#possible { margin: 0.25rem 0; padding-left: 1.5rem; }
`;

const STYLE = pageStyle(CHART_STYLE);

/**
 * The stepper: reads the embedded runs, shows one step (its note, its call's attempts, the
 * variables and cases after it with what changed marked, the states the check found there),
 * lights the nodes and edges passed and the step's own, and keeps the choice in
 * `#scenario=…&step=…` (1-based).
 */
const SCRIPT = `
(() => {
  "use strict";
  const data = JSON.parse(document.getElementById("dandori-runs").textContent);
  const byId = (id) => document.getElementById(id);
  const scenarioSelect = byId("scenario");
  const stepList = byId("steps");
  const previous = byId("previous");
  const next = byId("next");
  const position = byId("position");
  const note = byId("step-note");
  const calls = byId("step-calls");
  const callsFrame = byId("step-calls-frame");
  const vars = byId("vars").tBodies[0];
  const cases = byId("cases").tBodies[0];
  const possible = byId("possible");
  const valuesBox = byId("values-box");
  const stepperChart = byId("stepper-chart");
  for (const frame of document.querySelectorAll("#flow .chart")) {
    const title = document.createElement("h4");
    title.textContent = frame.previousElementSibling ? frame.previousElementSibling.textContent : "";
    stepperChart.append(title, frame.querySelector("svg").cloneNode(true));
  }
  let s = 0;
  let i = 0;
  const steps = () => data.runs[s].steps;

  function fromHash() {
    const p = new URLSearchParams(location.hash.slice(1));
    const pick = (key, count) => {
      const n = Number(p.get(key));
      return Number.isInteger(n) && n >= 1 && n <= count ? n - 1 : 0;
    };
    s = pick("scenario", data.runs.length);
    i = pick("step", steps().length);
  }
  function toHash() {
    history.replaceState(null, "", "#scenario=" + (s + 1) + "&step=" + (i + 1));
  }
  function span(className, text) {
    const e = document.createElement("span");
    e.className = className;
    e.textContent = text;
    return e;
  }
  function fill() {
    scenarioSelect.value = String(s);
    stepList.replaceChildren(...steps().map((step, n) => {
      const button = document.createElement("button");
      button.type = "button";
      button.append(span("call", step.label), span("result", step.note));
      button.addEventListener("click", () => go(n));
      const li = document.createElement("li");
      li.append(button);
      return li;
    }));
  }
  function rows(body, values) {
    body.replaceChildren();
    for (const v of values) {
      const row = body.insertRow();
      if (v.changed) row.className = "changed";
      row.insertCell().textContent = v.name;
      const td = row.insertCell();
      if (v.changed) {
        td.className = "changed";
        const mark = span("mark", "●");
        mark.setAttribute("aria-hidden", "true");
        td.append(mark, " ");
      }
      td.append(v.value);
    }
  }
  function light() {
    const list = steps();
    const passedNodes = new Set(list.slice(0, i).map((x) => x.node));
    const passedEdges = new Set(list.slice(1, i).map((x) => x.edge));
    const step = list[i];
    for (const e of document.querySelectorAll("[data-node]")) {
      const id = e.dataset.node;
      e.classList.toggle("lit", id === step.node);
      e.classList.toggle("passed", id !== step.node && passedNodes.has(id));
    }
    for (const e of document.querySelectorAll("[data-edge]")) {
      const id = e.dataset.edge;
      e.classList.toggle("lit", id === step.edge);
      e.classList.toggle("passed", id !== step.edge && passedEdges.has(id));
    }
    const from = step.jump ? data.jumps[step.edge] : null;
    for (const e of document.querySelectorAll("[data-mark]")) e.classList.toggle("lit", e.dataset.mark === from);
  }
  function show() {
    const list = steps();
    const step = list[i];
    position.textContent = position.dataset.word + " " + (i + 1) + " / " + list.length;
    previous.disabled = i <= 0;
    next.disabled = i >= list.length - 1;
    [...stepList.children].forEach((li, n) => {
      if (n === i) li.firstChild.setAttribute("aria-current", "step");
      else li.firstChild.removeAttribute("aria-current");
    });
    note.textContent = step.label + (step.note === "" ? "" : " — " + step.note);
    calls.textContent = step.calls.join("\\n");
    callsFrame.hidden = step.calls.length === 0;
    rows(vars, step.vars);
    rows(cases, step.cases);
    // A diagnostic's run has no values: the check follows states, not values.
    valuesBox.hidden = step.vars.length === 0 && step.cases.length === 0;
    possible.replaceChildren(...step.possible.map((p) => {
      const li = document.createElement("li");
      li.textContent = p;
      return li;
    }));
    light();
    reveal();
  }
  // The stepper's charts scroll in their frame: bring the step's node into its view.
  function reveal() {
    const lit = stepperChart.querySelector(".node.lit");
    if (!lit) return;
    const r = lit.getBoundingClientRect();
    const frame = stepperChart.getBoundingClientRect();
    if (r.left < frame.left || r.right > frame.right) {
      stepperChart.scrollLeft += (r.left + r.right - frame.left - frame.right) / 2;
    }
    if (r.top < frame.top || r.bottom > frame.bottom) {
      stepperChart.scrollTop += (r.top + r.bottom - frame.top - frame.bottom) / 2;
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
    i = 0;
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
  // A hash that only names a section (#calls) is left alone.
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
  if (chosen()) byId("runs").scrollIntoView();
})();
`;
