/**
 * `dandori doc` (docs/design/dandori.md#the-page): the Markdown of every test and example flow is pinned in both
 * languages; every example's `doc.md` and `doc.ja.md` are current; a flow whose names and types
 * resolve is drawn even with errors (exit 1, the diagnostics on stderr and on the page), one whose
 * names or types do not is not; the HTML is one self-contained, deterministic file; and every lit
 * run is connected — each step follows an edge of the drawing from the step before, and the
 * statements lit are exactly those the run passed — which a removed edge, an extra lit statement
 * or a missing one breaks.
 */

import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { type Charts, chartsOf } from "../../lang/dandori/chart.ts";
import { buildFlowPage } from "../../lang/dandori/doc.ts";
import { runFlow } from "../../lang/dandori/interp.ts";
import { litSteps } from "../../lang/dandori/lit.ts";
import type { FlowPage, PageRun, PageStep } from "../../lang/dandori/page.ts";
import { ScenarioAnswers } from "../../lang/dandori/scenario.ts";
import { generateFlowScenarios } from "../../lang/dandori/scenarios.ts";
import { flowPaths } from "../../verify/dandori/flows.ts";
import { everyRunnableFlow, flowCheck } from "../support/flows.ts";
import { assertGolden } from "../support/golden.ts";
import { runCli } from "../support/run.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const GOLDEN = `${ROOT}tests/dandori/golden/doc/`;
const FLOWS = [...flowPaths(ROOT, "tests/dandori/flows/"), ...flowPaths(ROOT, "examples/")];

function stem(path: string): string {
  return path.replace(/^tests\/dandori\/flows\//, "").replace(/\.flow$/, "");
}

const check = flowCheck;

/** Whether `dandori doc` draws a flow: its names and types resolve, and it holds no key (W901). */
function drawn(path: string): boolean {
  const c = check(path);
  return c.typedFlow !== null && !c.diagnostics.some((d) => d.code === "W901");
}

Deno.test("dandori doc: the Markdown of every test and example flow is pinned in both languages", async (t) => {
  for (const path of FLOWS) {
    await t.step(path, () => {
      for (const lang of ["en", "ja"] as const) {
        const run = runCli(["dandori", "doc", path, "--lang", lang]);
        if (!drawn(path)) {
          // Names or types that do not resolve leave nothing to draw, and a key must not reach a
          // page: the diagnostics say why.
          strictEqual(run.stdout, "", path);
          ok(run.code === 1 || run.code === 2, `${path}: ${run.code}`);
          ok(/(error|エラー)\[E\d{3}\]|W901/.test(run.stderr), run.stderr);
          continue;
        }
        ok(run.code === 0 || run.code === 1, `${path}: ${run.code} ${run.stderr}`);
        strictEqual(
          run.code === 1,
          run.stderr.includes("[E"),
          `${path}: errors on stderr exactly when exit 1`,
        );
        assertGolden(`${GOLDEN}${stem(path)}.${lang}.md`, run.stdout);
      }
    });
  }
});

/**
 * The example flows and their pages: `<dir>.flow` beside `doc.md`, any other flow beside
 * `<name>.doc.md`. The `stepfunctions/` copies of an example (the same flow with what a state
 * machine needs) have no page of their own: their page is the example's.
 */
function examplePages(): { flow: string; page: string; lang: "en" | "ja" }[] {
  return flowPaths(ROOT, "examples/").filter((f) => !f.includes("/stepfunctions/")).map((flow) => {
    const dir = flow.slice(0, flow.lastIndexOf("/"));
    const name = flow.slice(dir.length + 1).replace(/(\.ja)?\.flow$/, "");
    const lang = flow.endsWith(".ja.flow") ? "ja" : "en";
    const base = name === dir.split("/").pop() ? "doc" : `${name}.doc`;
    return { flow, page: `${dir}/${base}${lang === "ja" ? ".ja" : ""}.md`, lang };
  });
}

Deno.test("every example flow's doc.md and doc.ja.md are what dandori doc writes now", () => {
  const pages = examplePages();
  strictEqual(
    pages.length,
    12,
    "orders, billing, shipping and its child deliver, payments, inquiry, each in English and Japanese",
  );
  for (const { flow, page, lang } of pages) {
    const run = runCli(["dandori", "doc", flow, "--lang", lang]);
    strictEqual(run.code, 0, run.stderr);
    if (Deno.env.get("RITSU_BLESS") === "1") Deno.writeTextFileSync(`${ROOT}${page}`, run.stdout);
    strictEqual(run.stdout, Deno.readTextFileSync(`${ROOT}${page}`), `${page} is stale: RITSU_BLESS=1`);
    ok(run.stdout.includes("```mermaid\nflowchart TD"), page);
    ok(run.stdout.includes(lang === "ja" ? "## 呼び出し" : "## Calls"), page);
  }
});

Deno.test("a flow with errors is drawn, with its diagnostics on stderr and on the page, and no run", () => {
  const run = runCli(["dandori", "doc", "tests/dandori/flows/order_stock_no_void.flow"]);
  strictEqual(run.code, 1);
  ok(run.stderr.includes("error[E020]"), run.stderr);
  ok(run.stdout.startsWith("# order_stock v1"));
  ok(run.stdout.includes("## What the check says") && run.stdout.includes("error[E020]"));
  ok(run.stdout.includes("no scenario is generated") && !run.stdout.includes("<details>"));
  const unresolved = runCli(["dandori", "doc", "tests/dandori/flows/names_types.flow"]);
  strictEqual(unresolved.code, 1);
  strictEqual(unresolved.stdout, "");
  const unsupported = runCli(["dandori", "doc", "tests/dandori/flows/uses_rule.flow"]);
  strictEqual(unsupported.code, 2);
  ok(unsupported.stderr.includes("E018"));
});

Deno.test("a flow that holds a key (W901) is not drawn, and nothing is written", () => {
  for (const format of ["md", "html"]) {
    const run = runCli([
      "dandori",
      "doc",
      "tests/dandori/flows/key.flow",
      "--format",
      format,
      "--out",
      "out",
    ]);
    strictEqual(run.code, 1);
    deepStrictEqual([run.stdout, run.written], ["", {}]);
    ok(run.stderr.includes("W901") && run.stderr.includes("ritsu: test secret"), run.stderr);
  }
});

Deno.test("--out writes <dir>/<flow file name>.md or .html and nothing else", () => {
  const md = runCli(["dandori", "doc", "examples/orders/orders.ja.flow", "--lang", "ja", "--out", "out"]);
  strictEqual(md.code, 0);
  deepStrictEqual(Object.keys(md.written), ["out/orders.ja.md"]);
  ok(md.written["out/orders.ja.md"].startsWith("# 注文 v1"));
  const html = runCli([
    "dandori",
    "doc",
    "examples/billing/billing.flow",
    "--format",
    "html",
    "--out",
    "out/",
  ]);
  strictEqual(html.code, 0);
  deepStrictEqual(Object.keys(html.written), ["out/billing.html"]);
});

Deno.test("dandori doc html: every drawn flow gives one self-contained page, the same bytes each time", async (t) => {
  for (const path of FLOWS.filter(drawn)) {
    await t.step(path, () => {
      for (const lang of ["en", "ja"] as const) {
        const run = runCli(["dandori", "doc", path, "--format", "html", "--lang", lang]);
        ok(run.code === 0 || run.code === 1, run.stderr);
        const html = run.stdout;
        strictEqual(runCli(["dandori", "doc", path, "--format", "html", "--lang", lang]).stdout, html);
        ok(html.startsWith("<!DOCTYPE html>") && html.includes(`<html lang="${lang}">`));
        ok(!/<(link|img|iframe)\b|\bsrc=|\bhref="(?!#)|url\(/i.test(html), "nothing is loaded from outside");
        ok(html.includes('<svg xmlns="http://www.w3.org/2000/svg" class="flow-chart"'));
        const json = html.match(/<script type="application\/json" id="dandori-runs">([^<]*)<\/script>/)?.[1];
        const page = buildFlowPage(check(path), lang);
        // A flow that passes shows its scenarios; one with errors, the runs its diagnostics print (maybe none).
        strictEqual(run.code === 0 ? page.examples.length : page.runs.length, 0);
        const titles = json === undefined ? [] : JSON.parse(json).runs.map((r: { title: string }) => r.title);
        deepStrictEqual(titles, (run.code === 0 ? page.runs : page.examples).map((r) => r.title));
      }
    });
  }
});

/** Why a lit run is not connected, or null: each step follows an edge of the drawing (a line or a jump) from the step before, the first being the start. */
function brokenChain(charts: Charts, run: PageRun): string | null {
  const edges = new Map(charts.edges.map((e) => [e.id, e]));
  const steps: readonly PageStep[] = run.steps;
  if (steps[0]?.node !== "start" || steps[0].edge !== null) {
    return `${run.name}: it does not begin at the start`;
  }
  for (let i = 1; i < steps.length; i++) {
    const e = steps[i].edge === null ? undefined : edges.get(steps[i].edge ?? "");
    if (e === undefined || e.from !== steps[i - 1].node || e.to !== steps[i].node) {
      return `${run.name}: step ${i + 1} (${steps[i].node}) follows no edge from ${steps[i - 1].node}`;
    }
  }
  return null;
}

/**
 * Why a page's runs are not connected, or null: each is a chain of the drawing's edges, and the
 * statements it lights are exactly the statements the run passed (`passed`, by run).
 */
function disconnected(page: FlowPage, passed: readonly ReadonlySet<string>[]): string | null {
  const statements = new Set(
    page.charts.charts.flatMap((c) => c.nodes.filter((n) => n.line > 0).map((n) => n.id)),
  );
  for (const [r, run] of page.runs.entries()) {
    const broken = brokenChain(page.charts, run);
    if (broken !== null) return broken;
    const lit = new Set(run.steps.map((s) => s.node).filter((n) => statements.has(n)));
    const want = [...passed[r]].sort();
    if (JSON.stringify([...lit].sort()) !== JSON.stringify(want)) {
      return `${run.name}: lights ${[...lit].sort().join(" ")}, passes ${want.join(" ")}`;
    }
  }
  return null;
}

/** The statements each generated run of a flow passes, as its visits say (a failed period check lights its statement). */
function passedStatements(f: ReturnType<typeof everyRunnableFlow>[number]): Set<string>[] {
  return generateFlowScenarios(f.checked, f.plan).scenarios.map((s) => {
    const run = runFlow(f.checked, {
      input: s.input,
      now: s.now,
      answers: new ScenarioAnswers(s.answers),
      execution: "run",
      children: false,
    });
    return new Set(
      run.visits.flatMap((v) =>
        v.kind === "stmt"
          ? [v.place]
          : v.kind === "outside" && v.place !== "period:start"
          ? [v.place.replace(/:period$/, "")]
          : []
      ),
    );
  });
}

const RUNNABLE = everyRunnableFlow();

Deno.test("every lit run of every flow is connected, and lights exactly what it passes", async (t) => {
  for (const f of RUNNABLE) {
    await t.step(f.path, () => {
      const page = buildFlowPage(check(f.path), "en");
      ok(page.runs.length > 0);
      strictEqual(disconnected(page, passedStatements(f)), null);
    });
  }
});

Deno.test("the runs of a flow with errors, its diagnostics' own, are lit as connected as a scenario's", async (t) => {
  for (const path of FLOWS) {
    const c = check(path);
    if (c.typedFlow === null || c.checked !== null) continue;
    await t.step(path, () => {
      const page = buildFlowPage(c, "en");
      strictEqual(page.runs.length, 0);
      for (const run of page.examples) strictEqual(brokenChain(page.charts, run), null);
    });
  }
});

function withoutEdge(charts: Charts, id: string): Charts {
  return { ...charts, edges: charts.edges.filter((e) => e.id !== id) };
}

Deno.test("the connectivity check catches a removed edge, a statement lit too many and one lit too few", () => {
  const orders = RUNNABLE.find((f) => f.path === "examples/orders/orders.flow");
  const loops = RUNNABLE.find((f) => f.path === "tests/dandori/flows/loops_run.flow");
  ok(orders !== undefined && loops !== undefined);
  for (const f of [orders, loops]) {
    const page = buildFlowPage(check(f.path), "en");
    const passed = passedStatements(f);
    strictEqual(disconnected(page, passed), null);
    const used = new Set(page.runs.flatMap((r) => r.steps.flatMap((s) => s.edge === null ? [] : [s.edge])));
    ok(used.size > 10, `${f.path}: its runs go along many edges`);
    for (const id of used) {
      ok(
        disconnected({ ...page, charts: withoutEdge(page.charts, id) }, passed) !== null,
        `${f.path}: without ${id}`,
      );
    }
    const run = page.runs[0];
    const extra = page.charts.charts[0].nodes.find((n) => n.line > 0 && !passed[0].has(n.id));
    ok(extra !== undefined);
    const more = [...run.steps, { ...run.steps[run.steps.length - 1], node: extra.id }];
    ok(disconnected({ ...page, runs: [{ ...run, steps: more }, ...page.runs.slice(1)] }, passed) !== null);
    const lastStatement = run.steps.findLastIndex((s) => s.node.startsWith("s"));
    const fewer = run.steps.filter((_, i) => i !== lastStatement);
    ok(disconnected({ ...page, runs: [{ ...run, steps: fewer }, ...page.runs.slice(1)] }, passed) !== null);
  }
});

Deno.test("a run is lit only along the drawing's edges: without one it needs, lighting it stops", () => {
  const f = RUNNABLE.find((x) => x.path === "examples/orders/orders.flow");
  ok(f !== undefined);
  const charts = chartsOf(f.plan, "en");
  const s = generateFlowScenarios(f.checked, f.plan).scenarios[0];
  const run = runFlow(f.checked, {
    input: s.input,
    now: s.now,
    answers: new ScenarioAnswers(s.answers),
    execution: "run",
    children: false,
  });
  const needed = litSteps(charts, run)[1].edge;
  ok(needed !== null);
  throws(() => litSteps(withoutEdge(charts, needed), run), /the chart has no next edge out of start/);
});

/**
 * A flow whose text tries to act on the page: HTML, a fence, a link, emphasis and control characters
 * in its description, backticks and a tag in a string it passes.
 */
const HOSTILE_FLOW = [
  "workflow hostile v1",
  'description "ships <img src=x onerror=alert(1)> ``` [link](http://x) *now* \u001b[2J\u202e"',
  "",
  "task tell(message: string)",
  '  lambda "arn:aws:lambda:ap-northeast-1:123456789012:function:tell"',
  "",
  "flow",
  '  tell(message: "a `tick` and ``two`` <b>bold</b>")',
  "  succeed",
  "",
].join("\n");

/** Characters no page may hold raw: every control but newline and tab, the line separators, the bidi controls. */
// deno-lint-ignore no-control-regex -- the control characters are what this test looks for
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

Deno.test("text of a flow is shown on the page, not read: no tag, no early end of a code span, no control character", () => {
  const files = { "h.flow": HOSTILE_FLOW };
  for (const lang of ["en", "ja"] as const) {
    const md = runCli(["dandori", "doc", "h.flow", "--out", "out", "--lang", lang], { files });
    strictEqual(md.code, 0, md.stderr);
    const page = md.written["out/h.md"];
    ok(!RAW.test(page), "no raw control character in the Markdown page");
    ok(!page.includes("<img"), page);
    ok(
      page.includes(
        String.raw`&lt;img src=x onerror=alert(1)&gt; \`\`\` \[link\](http://x) \*now\* \u001b\[2J\u202e`,
      ),
    );
    // A call with backticks is one code span, fenced by more backticks than it has: `<b>` stays code.
    ok(page.includes('```tell(message: "a `tick` and ``two`` <b>bold</b>")```'), page);
    const html = runCli(["dandori", "doc", "h.flow", "--format", "html", "--out", "out", "--lang", lang], {
      files,
    });
    strictEqual(html.code, 0, html.stderr);
    const text = html.written["out/h.html"];
    ok(
      !RAW.test(text) && !/<img|<b>/.test(text),
      "no raw control character and no tag of the flow's in the HTML page",
    );
  }
});

/** A page's lit runs as text: each step's node, the edge it came by (its kind and label) and its note. */
function litText(page: FlowPage): string {
  const edges = new Map(page.charts.edges.map((e) => [e.id, e]));
  return page.runs.map((r) =>
    [
      r.title,
      ...r.steps.map((s) => {
        const e = s.edge === null ? undefined : edges.get(s.edge);
        const via = e === undefined
          ? ""
          : ` ← ${e.kind}${e.label === "" ? "" : ` "${e.label}"`}${s.jump ? " (jump)" : ""}`;
        return `  ${s.node}${via}${s.note === "" ? "" : `: ${s.note}`}`;
      }),
      `  = ${r.ending}`,
    ].join("\n")
  ).join("\n") + "\n";
}

Deno.test("the lit runs of every example page, their steps and notes, are pinned in the page's language", () => {
  for (const { flow, lang } of examplePages()) {
    assertGolden(
      `${GOLDEN}lit/${stem(flow).replace(/^examples\//, "")}.${lang}.txt`,
      litText(buildFlowPage(check(flow), lang)),
    );
  }
});
