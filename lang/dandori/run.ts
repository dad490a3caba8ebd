/**
 * What `dandori run` prints: for people, each call with its line, attempt, the clock, its view
 * and its answer, then the ending, the cases and the clock, aligned by display width, in English
 * or Japanese; for programs, the JSON of `docs/formats.md` (「dandori run」). A child flow's calls
 * are viewed through the child's own plan.
 * @module
 */

import { unreachable } from "../common/assert.ts";
import { stringifyJson } from "../common/json.ts";
import { type Lang, tr } from "../common/text.ts";
import { displayWidth, padEnd } from "../common/width.ts";
import type { Answer, CallRecord, Ending, Run } from "./interp.ts";
import { lower } from "./lower.ts";
import type { Plan } from "./plan.ts";
import { timestampText } from "./rules.ts";
import { answerJson, type FlowScenario } from "./scenario.ts";
import type { Value } from "./values.ts";
import { type ViewName, viewOf } from "./views.ts";

/** The version of the JSON shape of `dandori run --format json`. */
export const RUN_JSON_VERSION = 1;

/** An ending as `dandori run --format json` writes it. */
export function endingJson(e: Ending): Value {
  switch (e.kind) {
    case "succeed":
      return { succeed: e.outputs };
    case "fail":
      return { fail: { error: e.error, reason: e.reason } };
    case "cancelled":
      return { cancelled: true };
    default:
      return unreachable(e, "ending");
  }
}

function callJson(plan: Plan, view: ViewName, c: CallRecord): Value {
  const out: Record<string, Value> = {
    line: BigInt(c.line),
    task: c.task,
    attempt: BigInt(c.attempt),
    at: c.at,
    view: viewOf(view, plan, c),
    answer: answerJson(c.answer),
  };
  const child = c.child;
  if (child !== null) {
    const childPlan = lower(child.flow);
    out.child = child.calls.map((x) => callJson(childPlan, view, x));
  }
  return out;
}

/** The JSON of one run; `replay` is the scenario with the answers the run was given, when they were computed. */
export function runJson(
  file: string,
  plan: Plan,
  view: ViewName,
  s: FlowScenario,
  run: Run,
  replay: Value | null,
): Value {
  const out: Record<string, Value> = {
    v: BigInt(RUN_JSON_VERSION),
    flow: file,
    scenario: s.name,
    calls: run.calls.map((c) => callJson(plan, view, c)),
    ending: endingJson(run.ending),
    cases: Object.fromEntries(run.cases),
    clock: timestampText(run.clockMs),
  };
  if (replay !== null) out.replay = replay;
  return out;
}

/** A value in a line of text: JSON on one line. */
function one(v: Value): string {
  return stringifyJson(v);
}

/** An answer as `dandori run` prints it: `ok {…}`, `timeout`, `cancelled`. */
export function answerText(a: Answer, lang: Lang): string {
  switch (a.kind) {
    case "ok":
      return `ok ${one(a.value)}`;
    case "error":
      return a.cause === null ? a.error : `${a.error}: ${a.cause}`;
    case "cancel":
      return tr("cancelled", "キャンセル")[lang];
    default:
      return unreachable(a, "answer");
  }
}

/** `succeed outcome = shipped` / `fail Dandori.BadInput: …` / `cancelled`, in the language. */
export function endingText(e: Ending, lang: Lang): string {
  switch (e.kind) {
    case "succeed": {
      const outs = e.outputs === null ? [] : Object.entries(e.outputs).map(([k, v]) => `${k} = ${one(v)}`);
      return [tr("succeed", "成功")[lang], ...outs].join(" ");
    }
    case "fail":
      return `${tr("fail", "失敗")[lang]} ${e.error}${e.reason === null ? "" : `: ${e.reason}`}`;
    case "cancelled":
      return tr("cancelled", "キャンセルで終わる")[lang];
    default:
      return unreachable(e, "ending");
  }
}

function callLines(
  plan: Plan,
  view: ViewName,
  calls: readonly CallRecord[],
  indent: string,
  lang: Lang,
): string[] {
  const lines: string[] = [];
  for (const c of calls) {
    const attempt = tr(`attempt ${c.attempt}`, `${c.attempt} 回目`)[lang];
    lines.push(`${indent}${c.at}  ${tr(`line ${c.line}`, `${c.line} 行`)[lang]}  ${c.task}  ${attempt}`);
    lines.push(`${indent}    ${one(viewOf(view, plan, c))}`);
    lines.push(`${indent}    → ${answerText(c.answer, lang)}`);
    if (c.child !== null) {
      lines.push(...callLines(lower(c.child.flow), view, c.child.calls, `${indent}    `, lang));
    }
  }
  return lines;
}

/** The text of one run, for people. */
export function runText(
  file: string,
  plan: Plan,
  view: ViewName,
  s: FlowScenario,
  run: Run,
  lang: Lang,
): string {
  const title = s.name === null ? file : `${file}: ${s.name}`;
  const lines = [title];
  if (run.calls.length === 0) lines.push(`  ${tr("no call", "呼び出しなし")[lang]}`);
  lines.push(...callLines(plan, view, run.calls, "  ", lang));
  const rows: [string, string][] = [
    [tr("ending", "終わり方")[lang], endingText(run.ending, lang)],
    ...[...run.cases].map((
      [k, v],
    ): [string, string] => [
      `${tr("case", "案件")[lang]} ${k}`,
      v === null ? tr("not started", "始まっていない")[lang] : one(v),
    ]),
    [tr("clock", "時計")[lang], timestampText(run.clockMs)],
  ];
  const width = Math.max(...rows.map(([a]) => displayWidth(a)));
  lines.push(...rows.map(([a, b]) => `  ${padEnd(a, width)}  ${b}`));
  return lines.join("\n") + "\n";
}
