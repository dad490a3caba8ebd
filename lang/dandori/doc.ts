/**
 * `dandori doc` (docs/design/dandori.md#the-page): the page the people who approve a workflow read — what is
 * called and how, where every error goes, how each run ends and which states its cases can be left
 * in, and every generated scenario lit step by step. `buildFlowPage` gathers it from the checked
 * flow (the plan, and the facts of the case analysis), so it is the same for every platform and
 * needs nothing to run; `flowPageMarkdown` writes it with Mermaid charts; `draw.ts` the HTML.
 * @module
 */

import { assert, findOne } from "../common/assert.ts";
import { hasErrors, renderDiagnostic } from "../common/diagnostic.ts";
import { code, escapeHtml, fenced, inline } from "../common/markdown.ts";
import { visible } from "../common/visible.ts";
import { type Lang, tr } from "../common/text.ts";
import { VERSION } from "../common/version.ts";
import { chartsOf } from "./chart.ts";
import type { TypedFlow } from "./checked.ts";
import { exampleRuns } from "./doc_examples.ts";
import { caseLines, pageRuns } from "./doc_runs.ts";
import { calleeLine, fieldText, retryText, statementsOf, stmtText, timeoutText } from "./doc_text.ts";
import { flowIntro, flowNotes } from "./doc_notes.ts";
import { pageEndings } from "./doc_endings.ts";
import type { FlowCheck } from "./env.ts";
import { lower } from "./lower.ts";
import { mermaidChart } from "./mermaid.ts";
import type { FlowPage, PageCall, WordKey } from "./page.ts";
import type { Plan, StmtPlan } from "./plan.ts";
import type { GeneratedScenario } from "./scenarios.ts";

const WORDS: Record<WordKey, [string, string]> = {
  inputs: ["Inputs", "入力"],
  outputs: ["Outputs", "出力"],
  records: ["Records", "レコード"],
  enums: ["Enums", "列挙"],
  period: ["The period it runs in", "動く期間"],
  charts: ["The flow", "流れ"],
  calls: ["Calls", "呼び出し"],
  endings: ["How it ends", "終わり方"],
  check: ["What the check says", "検査の結果"],
  runs: ["Runs", "実行"],
  name: ["name", "名前"],
  fields: ["fields", "フィールド"],
  values: ["values", "値"],
  value: ["value", "値"],
  line: ["line", "行"],
  call: ["call", "呼び出し"],
  callee: ["calls", "呼ぶもの"],
  retry: ["retry", "リトライ"],
  timeout: ["timeout", "タイムアウト"],
  errors: ["where each error goes", "エラーごとの行き先"],
  after: ["cases after", "呼び出しのあとの案件"],
  where: ["where", "どこで"],
  how: ["how", "どう終わるか"],
  cases: ["cases", "案件"],
  task: ["task", "タスク"],
  attempt: ["attempt", "回目"],
  at: ["at", "時刻"],
  view: ["as Temporal sees it", "Temporal からの見え方"],
  answer: ["answer", "答え"],
  ending: ["ending", "終わり方"],
  step: ["step", "ステップ"],
  variables: ["variables", "変数"],
  possible: ["the states the check found here", "検査が見た、ここでの状態"],
  previous: ["previous", "前へ"],
  next: ["next", "次へ"],
  scenario: ["scenario", "シナリオ"],
  no_runs: [
    "The check found errors, so no scenario is generated: the reference interpreter runs only a flow that passes. The check's examples show a run that reaches each error; the HTML page lights each on the charts.",
    "検査でエラーが見つかったので、シナリオは作りません。参照インタプリタは検査を通ったフローだけを走らせます。検査の結果の「そうなる例」が、それぞれのエラーに至る実行で、HTML のページではそれを図の上で光らせます。",
  ],
};

function callRow(s: StmtPlan & { kind: "call" }, flow: TypedFlow, plan: Plan, lang: Lang): PageCall {
  const task = findOne(plan.tasks, (t) => t.name === s.call.task, `task ${s.call.task}`);
  const errors = s.call.routes.map((r) => {
    const goes = typeof r.to === "number"
      ? tr(
        `its handler (line ${s.call.handlers[r.to].line})`,
        `ハンドラ(${s.call.handlers[r.to].line} 行)`,
      )[lang]
      : r.to === "on failure"
      ? "`on failure`"
      : tr("the workflow fails", "ワークフローが失敗する")[lang];
    return `${r.error} → ${goes}`;
  });
  const after = plan.cases.length === 0
    ? []
    : [...flow.facts.after.get(s.line) ?? []].map(([outcome, facts]) =>
      `${outcome}: ${caseLines(facts, lang).join(lang === "ja" ? "、" : "; ")}`
    );
  return {
    line: s.line,
    call: stmtText(s),
    callee: calleeLine(task),
    retry: retryText(task, lang) ?? "—",
    timeout: timeoutText(task, lang) ?? "—",
    errors,
    after,
    unhandled: s.call.routes.some((r) => typeof r.to !== "number"),
  };
}

/**
 * Everything the page of a flow shows, in one language, for a flow whose names and types resolved
 * (`FlowCheck.typedFlow`); its runs when it passed the whole check: those of `generated` when the
 * caller has generated its scenarios already (`dandori doc` does, to refuse a flow too large before
 * drawing it), else generated here.
 */
export function buildFlowPage(
  check: FlowCheck,
  lang: Lang,
  generated?: readonly GeneratedScenario[],
): FlowPage {
  const flow = check.typedFlow;
  assert(flow !== null, "a page is drawn of a flow whose names and types resolved");
  const plan = lower(flow);
  const charts = chartsOf(plan, lang);
  const words = Object.fromEntries(Object.entries(WORDS).map(([k, v]) => [k, tr(...v)[lang]])) as Record<
    WordKey,
    string
  >;
  return {
    lang,
    title: `${plan.workflow.name} v${plan.workflow.version}`,
    description: plan.workflow.description,
    intro: flowIntro(lang),
    words,
    inputs: plan.inputs.map(fieldText),
    outputs: plan.outputs.map(fieldText),
    records: plan.records.map((r) => ({ name: r.name, fields: r.fields.map(fieldText) })),
    enums: plan.enums.map((e) => ({ name: e.name, values: e.values })),
    period: plan.period === null ? null : `now range ${plan.period.text}`,
    plan,
    charts,
    notes: flowNotes(plan, lang),
    calls: statementsOf(plan).flatMap((s) => s.kind === "call" ? [callRow(s, flow, plan, lang)] : []),
    endings: pageEndings(flow, plan, lang),
    diagnostics: check.diagnostics.map((d) => renderDiagnostic(d, lang)),
    hasErrors: hasErrors(check.diagnostics),
    runs: check.checked === null ? [] : pageRuns(check.checked, plan, charts, lang, generated),
    examples: check.checked === null ? exampleRuns(plan, charts, flow.facts, lang) : [],
    generator: `dandori ${VERSION}`,
  };
}

function cell(s: string): string {
  return s.replaceAll("|", "\\|").replaceAll("\n", "<br>");
}

function table(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [
    `| ${head.map(cell).join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ];
}

/** A list of code in running text: `` `a`, `b` `` (none: —). */
function codes(items: readonly string[], lang: Lang): string {
  return items.length === 0 ? "—" : items.map(code).join(lang === "ja" ? "、" : ", ");
}

function headMarkdown(page: FlowPage): string[] {
  const w = page.words;
  const out = [`# ${page.title}`, ""];
  if (page.description !== null) out.push(inline(page.description), "");
  out.push(
    `${w.inputs}: ${codes(page.inputs, page.lang)}`,
    "",
    `${w.outputs}: ${codes(page.outputs, page.lang)}`,
    "",
  );
  if (page.period !== null) out.push(`${w.period}: \`${page.period}\``, "");
  for (const p of page.intro) out.push(p, "");
  if (page.records.length > 0) {
    out.push(
      `## ${w.records}`,
      "",
      ...table([w.name, w.fields], page.records.map((r) => [r.name, codes(r.fields, page.lang)])),
      "",
    );
  }
  if (page.enums.length > 0) {
    out.push(
      `## ${w.enums}`,
      "",
      ...table([w.name, w.values], page.enums.map((e) => [e.name, codes(e.values, page.lang)])),
      "",
    );
  }
  return out;
}

function chartsMarkdown(page: FlowPage): string[] {
  const out = [`## ${page.words.charts}`, ""];
  for (const c of page.charts.charts) {
    out.push(`### ${c.title}`, "", "```mermaid", mermaidChart(c, page.charts), "```", "");
    const note = page.notes[c.block];
    if (note !== undefined) out.push(note, "");
  }
  return out;
}

function tablesMarkdown(page: FlowPage): string[] {
  const w = page.words;
  const calls = page.calls.map((c) => [
    String(c.line),
    `${c.unhandled ? "! " : ""}${code(c.call)}`,
    code(c.callee),
    c.retry,
    c.timeout,
    c.errors.join("\n"),
    ...(page.calls.some((x) => x.after.length > 0) ? [c.after.join("\n")] : []),
  ]);
  const head = [w.line, w.call, w.callee, w.retry, w.timeout, w.errors];
  if (page.calls.some((x) => x.after.length > 0)) head.push(w.after);
  const out = [`## ${w.calls}`, "", ...table(head, calls), ""];
  const endings = page.endings.map((e) => [
    e.where,
    e.statement === null ? e.how : `${e.how}: ${code(e.statement)}`,
    e.cases.join("\n") || "—",
  ]);
  out.push(`## ${w.endings}`, "", ...table([w.where, w.how, w.cases], endings), "");
  if (page.diagnostics.length > 0) {
    out.push(`## ${w.check}`, "", ...fenced("text", page.diagnostics.map((d) => d.trimEnd())), "");
  }
  return out;
}

function runsMarkdown(page: FlowPage): string[] {
  const w = page.words;
  const out = [`## ${w.runs}`, ""];
  if (page.hasErrors) out.push(w.no_runs, "");
  for (const r of page.runs) {
    out.push("<details>", `<summary>${escapeHtml(r.title)}</summary>`, "");
    if (r.calls.length > 0) {
      out.push(
        ...table(
          [w.line, w.task, w.attempt, w.at, w.view, w.answer],
          // The view and the answer carry the run's values: code, never Markdown.
          r.calls.map((c) => c.map((x, i) => i >= 4 ? code(x) : x)),
        ),
        "",
      );
    }
    out.push(`${w.ending}: ${code(r.ending)}`, "");
    if (r.cases.length > 0) out.push(`${w.cases}: ${codes(r.cases, page.lang)}`, "");
    out.push("</details>", "");
  }
  return out;
}

/**
 * The Markdown page: the head, the charts, the calls and endings tables, the check, one `<details>`
 * per run. Every character that would act instead of show is escaped (`visible`), in a file written
 * with `--out` as on stdout.
 */
export function flowPageMarkdown(page: FlowPage): string {
  return visible(
    [...headMarkdown(page), ...chartsMarkdown(page), ...tablesMarkdown(page), ...runsMarkdown(page)].join(
      "\n",
    ),
  );
}
