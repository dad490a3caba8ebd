/**
 * The runs of `dandori doc` (docs/design/dandori.md#the-page): every scenario `dandori scenarios`
 * generates, run on the reference interpreter with snapshots, lit on the charts step by step, each
 * call shown as Temporal sees it (the platform that has every feature).
 * @module
 */

import { assert, lookup, unreachable } from "../common/assert.ts";
import { stringifyJson } from "../common/json.ts";
import { type Lang, tr } from "../common/text.ts";
import type { ChartNode, Charts } from "./chart.ts";
import type { CheckedFlow } from "./checked.ts";
import { armText, statementsOf } from "./doc_text.ts";
import type { CaseFacts, EndAt, FlowFacts } from "./facts.ts";
import { type CallRecord, type Run, runFlow, type Snapshot, type Visit } from "./interp.ts";
import { type LitStep, litSteps } from "./lit.ts";
import type { Plan, StmtPlan } from "./plan.ts";
import { answerText, endingText } from "./run.ts";
import { ScenarioAnswers } from "./scenario.ts";
import { type GeneratedScenario, generateFlowScenarios } from "./scenarios.ts";
import type { PageRun, PageStep, PageValue } from "./page.ts";
import type { Value } from "./values.ts";
import { viewOf } from "./views.ts";

/** What the steps of one page are read against. */
interface Context {
  readonly plan: Plan;
  readonly charts: Charts;
  readonly nodes: ReadonlyMap<string, ChartNode>;
  readonly stmts: ReadonlyMap<string, StmtPlan>;
  readonly facts: FlowFacts;
  readonly lang: Lang;
}

/** A value on one line, as `dandori run` writes it. */
function one(v: Value): string {
  return stringifyJson(v);
}

/** Each case and the states it can be in, as the page writes them. */
export function caseLines(facts: CaseFacts, lang: Lang): string[] {
  return [...facts].map(([name, pairs]) => {
    const states = pairs.map((p) =>
      p.actual === null ? tr("not started", "始まっていない")[lang] : p.record === p.actual ? p.actual : tr(
        `${p.actual} (outside; record: ${p.record})`,
        `${p.actual}(外部で。レコードは ${p.record})`,
      )[
        lang
      ]
    );
    return `${name}: ${states.join(lang === "ja" ? "・" : ", ")}`;
  });
}

/** The ending a node stands for, for its facts. */
function endAtOf(id: string, plan: Plan): EndAt | null {
  switch (id) {
    case "flow:end":
      return { kind: "end", block: "flow" };
    case "failure:end":
      return { kind: "end", block: "failure" };
    case "cancel:end":
      return plan.blocks.cancel === null ? { kind: "cancelled" } : { kind: "end", block: "cancel" };
    case "unhandled":
      return { kind: "unhandled" };
    default:
      return null;
  }
}

/** The states the cases can be in at a node, as the checker found them: at a statement's entry, or at an end. */
export function factsAt(node: ChartNode, plan: Plan, facts: FlowFacts): CaseFacts | null {
  if (node.line > 0) return facts.entry.get(node.line) ?? null;
  const at = endAtOf(node.id, plan);
  if (at === null) return null;
  const key = JSON.stringify(at);
  return facts.ends.find((e) => JSON.stringify(e.at) === key)?.cases ?? null;
}

/** What happened at a node, from its visits and, for a call, its last attempt's answer. */
function noteOf(step: LitStep, last: CallRecord | null, c: Context, now: readonly [string, string]): string {
  const lang = c.lang;
  const said = step.events.map((v) => eventText(v, last, c, now));
  if (step.node === "start") said.unshift(tr(`the run starts at ${now[0]}`, `${now[0]} に走り始める`)[lang]);
  return said.filter((x) => x !== "").join(lang === "ja" ? "。" : "; ");
}

/** One visit in words; `now` the run's times, at the start and for every later statement. */
function eventText(v: Visit, last: CallRecord | null, c: Context, now: readonly [string, string]): string {
  const lang = c.lang;
  const error = last !== null && last.answer.kind === "error" ? last.answer.error : "";
  switch (v.kind) {
    case "stmt":
    case "inside":
      return "";
    case "arm": {
      const s = lookup(c.stmts, v.place, "statement");
      assert(s.kind === "match", "an arm is a match's");
      return tr(
        `takes ${armText(s.arms[v.index].conditions)}`,
        `${armText(s.arms[v.index].conditions)} に進む`,
      )[lang];
    }
    case "handler":
      return tr(`${error}: its handler runs`, `${error}: ハンドラが動く`)[lang];
    case "ok":
      return tr("it returned", "返った")[lang];
    case "unhandled":
      return tr(`${error}: no handler takes it`, `${error}: 受けるハンドラが無い`)[lang];
    case "cancel":
      return tr("the workflow is cancelled while it runs", "実行中にワークフローがキャンセルされる")[lang];
    case "bad response":
      return tr("the answer does not have the declared shape", "答えが宣言した形に合わない")[lang];
    case "bad input":
      return tr(
        "a value makes a path segment . or .. in the URL: the call is not made",
        "値が URL のパスに . か .. のセグメントを作るので、呼び出さない",
      )[lang];
    case "iteration":
      return tr(`iteration ${v.count}`, `${v.count} 回目のイテレーション`)[lang];
    case "done":
      return tr("every iteration is done", "回り切った")[lang];
    case "held":
      return tr(
        "the loop ends with the failure an iteration held",
        "イテレーションが持っていた失敗でループを出る",
      )[lang];
    case "outside": {
      const at = v.place === "period:start" ? now[0] : now[1];
      return tr(`now is ${at}, outside the period`, `now(${at})がその外`)[lang];
    }
    default:
      return unreachable(v, "visit");
  }
}

/** The variables of one snapshot against the one before: each marked when it is new or different. */
function values(now: ReadonlyMap<string, Value>, before: ReadonlyMap<string, Value> | null): PageValue[] {
  return [...now].map(([name, v]) => {
    const old = before?.get(name);
    return { name, value: v === null ? "none" : one(v), changed: old === undefined || one(old) !== one(v) };
  });
}

function caseValues(s: Snapshot, before: Snapshot | null, lang: Lang): PageValue[] {
  return [...s.cases].map(([name, v]) => {
    const value = v === null ? tr("not started", "始まっていない")[lang] : one(v);
    const old = before?.cases.get(name) ?? null;
    return { name, value, changed: before === null ? v !== null : one(old) !== one(v) };
  });
}

/** The attempts of the run's calls, grouped by call, in order. */
function callGroups(calls: readonly CallRecord[]): CallRecord[][] {
  const groups: CallRecord[][] = [];
  for (const c of calls) {
    if (c.attempt === 1) groups.push([]);
    groups[groups.length - 1].push(c);
  }
  return groups;
}

function attemptLine(c: CallRecord, plan: Plan, lang: Lang): string {
  const attempt = tr(`attempt ${c.attempt}`, `${c.attempt} 回目`)[lang];
  return `${c.at}  ${attempt}  ${one(viewOf("temporal", plan, c))} → ${answerText(c.answer, lang)}`;
}

/** The steps of one run: a step leaves what the run held when it went on to the next (or ended). */
function pageSteps(run: Run, now: readonly [string, string], c: Context): PageStep[] {
  const lit = litSteps(c.charts, run);
  const snapshots = run.snapshots;
  assert(snapshots !== null && snapshots.length === run.visits.length + 1, "the run kept its snapshots");
  const afters = lit.map((_, i) => snapshots[i + 1 < lit.length ? lit[i + 1].visit : run.visits.length]);
  const groups = callGroups(run.calls);
  const jumps = new Set(c.charts.edges.filter((e) => !e.drawn).map((e) => e.id));
  return lit.map((step, i) => {
    const after = afters[i];
    const before = i === 0 ? null : afters[i - 1];
    const node = lookup(c.nodes, step.node, "chart node");
    const group = step.call === null ? [] : groups[step.call];
    const last = group[group.length - 1] ?? null;
    const facts = factsAt(node, c.plan, c.facts);
    const ending = i === lit.length - 1 ? endingText(run.ending, c.lang) : "";
    return {
      node: step.node,
      edge: step.edge,
      jump: step.edge !== null && jumps.has(step.edge),
      label: node.title,
      note: [noteOf(step, last, c, now), ending].filter((x) => x !== "").join(c.lang === "ja" ? "。" : "; "),
      calls: group.map((x) => attemptLine(x, c.plan, c.lang)),
      vars: values(after.vars, before === null ? null : before.vars),
      cases: caseValues(after, before, c.lang),
      possible: facts === null ? [] : caseLines(facts, c.lang),
    };
  });
}

/**
 * Every generated scenario of a checked flow (`generated`, or generated here), run and lit on its
 * charts.
 *
 * @example
 * ```ts
 * const runs = pageRuns(checked, plan, chartsOf(plan, "en"), "en");
 * runs[0].steps[0].node; // "start"
 * ```
 */
export function pageRuns(
  flow: CheckedFlow,
  plan: Plan,
  charts: Charts,
  lang: Lang,
  generated: readonly GeneratedScenario[] = generateFlowScenarios(flow, plan).scenarios,
): PageRun[] {
  const stmts = new Map(statementsOf(plan).map((s) => [s.place, s]));
  const nodes = new Map(charts.charts.flatMap((ch) => ch.nodes.map((n) => [n.id, n])));
  const c: Context = { plan, charts, nodes, stmts, facts: flow.facts, lang };
  return generated.map((s, i) => {
    const run = runFlow(flow, {
      input: s.input,
      now: s.now,
      answers: new ScenarioAnswers(s.answers),
      execution: `run-${i + 1}`,
      children: false,
      snapshots: true,
    });
    return {
      name: s.name,
      title: `${s.name}: ${s.covers.join(", ")}`,
      ending: endingText(run.ending, lang),
      steps: pageSteps(run, s.now, c),
      calls: run.calls.map((x) => [
        String(x.line),
        x.task,
        String(x.attempt),
        x.at,
        one(viewOf("temporal", plan, x)),
        answerText(x.answer, lang),
      ]),
      cases: [...run.cases].map(([k, v]) =>
        `${k}: ${v === null ? tr("not started", "始まっていない")[lang] : one(v)}`
      ),
    };
  });
}
