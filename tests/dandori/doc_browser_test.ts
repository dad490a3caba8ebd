/// <reference lib="dom" />
/// <reference lib="deno.ns" />
/**
 * The HTML page of `dandori doc` (docs/design/dandori.md#the-page) in headless Chromium, for every example flow and
 * a flow with errors: it loads nothing, logs no error, fits 360 px in light and dark, draws every
 * node and every edge without nodes overlapping, and its stepper moves with the buttons, the arrow
 * keys and the step list, keeps the choice in the hash, lights the step's node and edge and what
 * the run passed before, a jump's `!`, and marks the variables and cases the step changed (a flow
 * with errors steps through its diagnostics' runs). Mermaid
 * renders every chart of the Markdown page. Screenshots are taken when RITSU_SCREENSHOTS names a directory (tests/support/pages.ts).
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { buildFlowPage, flowPageMarkdown } from "../../lang/dandori/doc.ts";
import { flowPageHtml } from "../../lang/dandori/draw.ts";
import type { FlowPage } from "../../lang/dandori/page.ts";
import { flowPaths } from "../../verify/dandori/flows.ts";
import {
  type Browser,
  chromiumInstalled,
  launchChromium,
  type Tab,
  validateMermaid,
  VERSIONS,
} from "../support/mermaid.ts";
import { flowCheck } from "../support/flows.ts";
import { close, open, screenshot, screenshotsDir, screenshotsLine } from "../support/pages.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

function pageOf(path: string, lang: "en" | "ja"): FlowPage {
  return buildFlowPage(flowCheck(path), lang);
}

/** Every example flow in its own language, and a flow with errors (drawn, with no run). */
const PAGES: readonly [string, FlowPage][] = [
  ...flowPaths(ROOT, "examples/").map((p): [string, FlowPage] => {
    const lang = p.endsWith(".ja.flow") ? "ja" : "en";
    return [p.replace(/^examples\//, "").replace(/\//g, "-").replace(/\.flow$/, ""), pageOf(p, lang)];
  }),
  ["order_stock_no_void", pageOf("tests/dandori/flows/order_stock_no_void.flow", "en")],
];

interface Rect {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

function apart(a: Rect, b: Rect): boolean {
  return a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
}

async function checkCharts(browser: Browser, url: string, page: FlowPage): Promise<void> {
  const opened = await open(browser, url, 1200, "light");
  const drawn = await opened.tab.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("#flow .chart")].map((frame) => ({
      block: frame.dataset.chart ?? "",
      nodes: [...frame.querySelectorAll<SVGGElement>("g.node")].map((g) => {
        const r = g.querySelector("rect, polygon")!.getBoundingClientRect();
        return { id: g.dataset.node ?? "", left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      }),
      edges: [...frame.querySelectorAll<SVGGElement>("g.edge")].map((g) => g.dataset.edge ?? ""),
    }))
  );
  deepStrictEqual(drawn.map((c) => c.block), page.charts.charts.map((c) => c.block));
  for (const [i, chart] of page.charts.charts.entries()) {
    deepStrictEqual(
      drawn[i].nodes.map((n) => n.id),
      chart.nodes.map((n) => n.id),
      `${chart.block}: every node`,
    );
    const ids = new Set(chart.nodes.map((n) => n.id));
    const lines = page.charts.edges.filter((e) => e.drawn && ids.has(e.from)).map((e) => e.id);
    deepStrictEqual(drawn[i].edges, lines, `${chart.block}: every line, and no jump drawn`);
    for (const [j, a] of drawn[i].nodes.entries()) {
      for (const b of drawn[i].nodes.slice(j + 1)) ok(apart(a, b), `${a.id} and ${b.id} overlap`);
    }
  }
  await close(opened);
}

async function checkNarrow(browser: Browser, url: string, shots: string | null, name: string): Promise<void> {
  for (const scheme of ["light", "dark"] as const) {
    for (const width of [360, 1200]) {
      const opened = await open(browser, url, width, scheme);
      const { scrollWidth, natural } = await opened.tab.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        natural: [...document.querySelectorAll("#flow svg")].every((svg) =>
          Math.abs(Number(svg.getAttribute("width")) - svg.getBoundingClientRect().width) < 1
        ),
      }));
      ok(scrollWidth <= width, `${name} at ${width} px is ${scrollWidth} px wide`);
      ok(natural, "every chart is drawn at its natural size, scrolling in its frame");
      await screenshot(opened.tab, shots, `${name}-${width}-${scheme}.png`);
      await close(opened);
    }
  }
}

function hash(tab: Tab): Promise<string> {
  return tab.evaluate(() => location.hash);
}

/** The step shown: its index, the nodes and edges lit and passed in the page's own charts, the marks lit. */
function shown(tab: Tab) {
  return tab.evaluate(() => {
    const ids = (
      selector: string,
      key: "node" | "edge" | "mark",
    ) => [
      ...new Set(
        [...document.querySelectorAll<HTMLElement>(`#flow ${selector}`)].map((e) => e.dataset[key] ?? ""),
      ),
    ];
    return {
      step: [...document.querySelectorAll("#steps button")].findIndex((b) => b.hasAttribute("aria-current")),
      scenario: (document.getElementById("scenario") as HTMLSelectElement).value,
      lit: ids("g.node.lit", "node"),
      passed: ids("g.node.passed", "node"),
      edges: ids("g.edge.lit", "edge"),
      marks: ids("g.mark.lit", "mark"),
      changed: document.querySelectorAll("#vars tr.changed, #cases tr.changed").length,
      stepperLit: document.querySelectorAll("#stepper-chart g.node.lit").length,
    };
  });
}

/** The stepper of a page: its generated scenarios, or for a flow with errors its diagnostics' runs. */
async function checkStepper(browser: Browser, url: string, page: FlowPage): Promise<void> {
  const runs = page.runs.length > 0 ? page.runs : page.examples;
  ok(runs.length > 0, "the page has runs to step through");
  let opened = await open(browser, url, 1200, "light");
  let tab = opened.tab;
  const first = runs[0].steps;
  let now = await shown(tab);
  deepStrictEqual([now.step, now.lit, now.stepperLit], [0, ["start"], 1], "the first step of the first run");
  ok(first.length >= 3);
  await tab.click("#next");
  strictEqual(await hash(tab), "#scenario=1&step=2");
  now = await shown(tab);
  deepStrictEqual([now.step, now.lit, now.passed], [1, [first[1].node], ["start"]]);
  deepStrictEqual(now.edges, first[1].edge !== null && !first[1].jump ? [first[1].edge] : []);
  await tab.keyboard.press("ArrowRight");
  strictEqual(await hash(tab), "#scenario=1&step=3");
  strictEqual((await shown(tab)).lit[0], first[2].node);
  await tab.keyboard.press("ArrowLeft");
  strictEqual(await hash(tab), "#scenario=1&step=2");
  await tab.click("#steps li:nth-child(1) button");
  strictEqual(await hash(tab), "#scenario=1&step=1");
  await close(opened);

  // A hash on load chooses the run and the step; the run's path so far is lit as passed.
  const longest = runs.reduce(
    (best, r, i) => r.steps.length > runs[best].steps.length ? i : best,
    0,
  );
  const steps = runs[longest].steps;
  const chosen = `#scenario=${longest + 1}&step=${steps.length}`;
  opened = await open(browser, url + chosen, 360, "light");
  tab = opened.tab;
  now = await shown(tab);
  strictEqual(await hash(tab), chosen);
  deepStrictEqual([now.scenario, now.step, now.lit], [String(longest), steps.length - 1, [
    steps[steps.length - 1].node,
  ]]);
  const before = new Set(steps.slice(0, -1).map((s) => s.node));
  before.delete(steps[steps.length - 1].node);
  deepStrictEqual(now.passed.toSorted(), [...before].sort(), "every node passed before is lit as passed");
  strictEqual(
    now.changed,
    [...steps[steps.length - 1].vars, ...steps[steps.length - 1].cases].filter((v) => v.changed).length,
  );
  await close(opened);

  // A step that goes along a jump lights its target, and the `!` of the call it comes from.
  const jumpTo = runs.flatMap((r, s) => r.steps.flatMap((step, i) => step.jump ? [{ s, i, step }] : []))
    .find((x) =>
      x.step.edge !== null && page.charts.edges.find((e) => e.id === x.step.edge)?.kind === "unhandled"
    );
  if (jumpTo !== undefined) {
    opened = await open(browser, `${url}#scenario=${jumpTo.s + 1}&step=${jumpTo.i + 1}`, 1200, "dark");
    now = await shown(opened.tab);
    const from = page.charts.edges.find((e) => e.id === jumpTo.step.edge)?.from;
    deepStrictEqual([now.lit, now.marks, now.edges], [[jumpTo.step.node], [from], []]);
    await close(opened);
  }
}

Deno.test({
  name: "dandori doc html: in Chromium, and Mermaid renders the Markdown page's charts",
  // playwright-core keeps its connection's timers alive across steps.
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    if (!chromiumInstalled()) {
      console.log("SKIP: dandori: doc: chromium is not installed");
      return;
    }
    const browser = await launchChromium();
    const dir = await Deno.makeTempDir({ prefix: "dandori_doc_" });
    const shots = await screenshotsDir("dandori_doc");
    try {
      console.log(
        `chromium ${browser.version()}, playwright-core ${VERSIONS.playwrightCore}, mermaid ${VERSIONS.mermaid}`,
      );
      for (const [name, page] of PAGES) {
        const file = `${dir}/${name}.html`;
        await Deno.writeTextFile(file, flowPageHtml(page));
        const url = `file://${file}`;
        await t.step(
          `${name}: every node and every line, no node over another`,
          () => checkCharts(browser, url, page),
        );
        await t.step(`${name}: fits 360 px in light and dark`, () => checkNarrow(browser, url, shots, name));
        await t.step(`${name}: the stepper`, () => checkStepper(browser, url, page));
        await t.step(`${name}: Mermaid renders every chart`, async () => {
          const texts = [...flowPageMarkdown(page).matchAll(/```mermaid\n([\s\S]*?)\n```/g)].map((m) => m[1]);
          strictEqual(texts.length, page.charts.charts.length);
          for (const svg of await validateMermaid(texts, browser)) ok(svg.startsWith("<svg"));
        });
      }
    } finally {
      await browser.close();
    }
    console.log(screenshotsLine("dandori doc", shots));
  },
});
