/**
 * `dandori plan --format text`: the plan for people who want to see what every target will be
 * built from — each task's callee, errors, retriers, timeout and key, each case's machine, and
 * the statements with their places and where each error of each call goes.
 * @module
 */

import { unreachable } from "../common/assert.ts";
import { type Lang, tr } from "../common/text.ts";
import type { CalleePlan, ExprPlan, Plan, StmtPlan, TaskPlan, TypePlan } from "./plan.ts";

/** A type as the flow writes it. */
export function typeText(t: TypePlan): string {
  switch (t.kind) {
    case "num":
      return t.unit;
    case "enum":
    case "record":
      return t.name;
    case "list":
      return `list[${typeText(t.element)}]`;
    case "optional":
      return `${typeText(t.inner)}?`;
    case "int":
    case "string":
    case "bool":
    case "timestamp":
    case "date":
    case "json":
      return t.kind;
    default:
      return unreachable(t, "type");
  }
}

/** A value as the flow writes it. */
export function exprText(e: ExprPlan): string {
  switch (e.kind) {
    case "read":
      return [e.name, ...e.path.map((p) => p.field)].join(".");
    case "int":
    case "enum":
      return e.value;
    case "bool":
      return String(e.value);
    case "none":
    case "now":
      return e.kind;
    case "string":
      return `"${e.parts.map((p) => "text" in p ? p.text : `{${exprText(p.value)}}`).join("")}"`;
    case "record":
      return `{${e.fields.map((f) => `${f.name}: ${exprText(f.value)}`).join(", ")}}`;
    case "list":
      return `[${e.items.map(exprText).join(", ")}]`;
    default:
      return unreachable(e, "value");
  }
}

/**
 * What a task calls, as the plan says it: `http POST https://…/{order}`, `connect POST
 * https://…/pkg.Service/Method (protobuf's JSON: sku)`, `book stock.reserve.hold`.
 */
export function calleeText(c: CalleePlan): string {
  switch (c.kind) {
    case "lambda":
      return `lambda ${c.function}`;
    case "http": {
      const url = c.url.map((p) => "text" in p ? p.text : `{${p.param}}`).join("");
      // A `connect` task's call: its body is protobuf's JSON of the request, its answer filled.
      if (c.connect !== null) return `connect ${c.method} ${url} (protobuf's JSON: ${c.rest.join(", ")})`;
      return `http ${c.method} ${url}${c.form ? " form" : ""}${
        c.rest.length > 0 ? ` (${c.restIn}: ${c.rest.join(", ")})` : ""
      }`;
    }
    case "aws":
      return `aws ${c.service}:${c.operation}`;
    case "book":
      return `book ${c.book}.${c.transfer}.${c.op}`;
    case "flow":
      return `flow ${c.path} (${c.workflow} v${c.version})`;
    case "child":
      return `child ${
        c.platforms.workflow ?? c.platforms.stateMachine ?? c.platforms.durableFunction ??
          c.platforms.workflowTemplate ?? ""
      }`;
    case "event":
      return "event";
    case "own":
      return "own";
    case "agent":
      return `agent ${c.provider} ${JSON.stringify(c.model)} ${c.endpoint}${
        c.effort === null ? "" : ` (effort ${c.effort})`
      }`;
    default:
      return unreachable(c, "callee");
  }
}

function taskLines(t: TaskPlan, lang: Lang): string[] {
  const params = t.params.map((p) =>
    `${p.name}: ${typeText(p.type)}${p.range === null ? "" : ` range ${p.range.text}`}`
  );
  const result = t.result === null
    ? ""
    : ` -> ${typeText(t.result.type)}${t.result.range === null ? "" : ` range ${t.result.range.text}`}`;
  const none = tr("none", "なし")[lang];
  const lines = [
    `  ${t.name}(${params.join(", ")})${result}`,
    `    ${tr("calls", "呼び出し")[lang]}: ${calleeText(t.callee)}`,
  ];
  lines.push(
    `    ${tr("errors", "エラー")[lang]}: ${
      t.errors.map((e) => e.wire === null ? e.name : `${e.name} = ${e.wire}`).join(", ") || none
    }`,
  );
  lines.push(
    `    ${tr("retriers", "リトライ")[lang]}: ${
      t.retry.map((r) => `[${r.errors.join(", ")}] × ${r.maxAttempts} ${r.intervalSeconds}s ×${r.backoff}`)
        .join("; ") || none
    }`,
  );
  const timeout = t.timeout === null
    ? none
    : t.timeout.kind === "until"
    ? `until ${t.timeout.param}`
    : `${t.timeout.seconds}s${
      t.timeout.written ? "" : tr(" (the default of an answer's wait)", "(答えを待つときの既定)")[lang]
    }`;
  lines.push(`    ${tr("timeout", "タイムアウト")[lang]}: ${timeout}`);
  if (t.key !== null) lines.push(`    ${tr("key", "キー")[lang]}: ${t.key.in} ${t.key.name}`);
  if (t.callback !== null) lines.push(`    callback: ${t.callback.via}`);
  if (t.effect !== null) {
    lines.push(
      `    ${tr("case", "案件")[lang]}: ${
        t.effect.kind === "starts" ? `starts ${t.effect.machine}` : `sends ${t.effect.event}`
      }`,
    );
  }
  return lines;
}

function stmtLines(ss: readonly StmtPlan[], indent: string, lang: Lang): string[] {
  return ss.flatMap((s) => stmtLine(s, indent, lang));
}

function stmtLine(s: StmtPlan, indent: string, lang: Lang): string[] {
  const head = `${indent}${s.place}  `;
  const inner = `${indent}    `;
  switch (s.kind) {
    case "call": {
      const c = s.call;
      const bind = s.bind === null
        ? ""
        : s.bind.kind === "case"
        ? `${s.bind.name} <- `
        : `let ${s.bind.name} = `;
      const lines = [
        `${head}${bind}${c.task}(${c.args.map((a) => `${a.name}: ${exprText(a.value)}`).join(", ")})`,
      ];
      lines.push(
        `${inner}${
          c.routes.map((r) =>
            `${r.error} → ${
              typeof r.to === "number" ? tr(`handler ${r.to + 1}`, `ハンドラ ${r.to + 1}`)[lang] : r.to
            }`
          ).join(", ")
        }${c.loops.length > 0 ? `; ${tr("loops", "ループ")[lang]} ${c.loops.join(", ")}` : ""}`,
      );
      c.handlers.forEach((h, i) => {
        lines.push(
          `${inner}${tr(`handler ${i + 1}`, `ハンドラ ${i + 1}`)[lang]}: on ${h.errors.join(", ")} =>`,
        );
        lines.push(...stmtLines(h.body, `${inner}    `, lang));
      });
      return lines;
    }
    case "let":
      return [`${head}let ${s.name}: ${typeText(s.type)} = ${exprText(s.value)}`];
    case "match": {
      const subject = s.subject.kind === "case" ? `${s.subject.case}.state` : exprText(s.subject.value);
      return [
        `${head}match ${subject}`,
        ...s.arms.flatMap((a) => [
          `${inner}${
            a.conditions.map((c) =>
              c.kind === "values" ? c.values.join(", ") : c.kind === "none" ? "none" : `some ${c.bind}`
            ).join(", ")
          } =>`,
          ...stmtLines(a.body, `${inner}    `, lang),
        ]),
      ];
    }
    case "wait":
      return [`${head}wait ${s.seconds}s`];
    case "wait until":
      return [`${head}wait until ${exprText(s.at)}`];
    case "repeat":
      return [`${head}repeat at most ${s.atMost} times`, ...stmtLines(s.body, inner, lang)];
    case "for": {
      const collect = s.collect === null ? "" : `let ${s.collect.name} = `;
      const parallel = s.parallel === null
        ? ""
        : ` in parallel${s.parallel.atATime === null ? "" : `, ${s.parallel.atATime} at a time`}`;
      return [
        `${head}${collect}for ${s.variable} in ${exprText(s.list)} at most ${s.atMost}${parallel}`,
        ...stmtLines(s.body, inner, lang),
      ];
    }
    case "yield":
      return [`${head}yield ${exprText(s.value)}`];
    case "break":
    case "pass":
      return [`${head}${s.kind}`];
    case "succeed":
      return [
        `${head}succeed ${s.outputs.map((o) => `${o.name} = ${exprText(o.value)}`).join(", ")}`.trimEnd(),
      ];
    case "fail":
      return [
        `${head}fail ${s.error}${s.reason === null ? "" : ` ${exprText(s.reason)}`}${
          s.leaving.length === 0 ? "" : ` leaving ${s.leaving.join(", ")}`
        }`,
      ];
    case "period":
      return [`${head}${tr(`the period, before ${s.before}`, `動く期間の確かめ(${s.before} の前)`)[lang]}`];
    default:
      return unreachable(s, "statement");
  }
}

/** The text of a plan. */
export function planText(p: Plan, lang: Lang): string {
  const field = (f: { name: string; type: TypePlan; range: { text: string } | null }) =>
    `${f.name}: ${typeText(f.type)}${f.range === null ? "" : ` range ${f.range.text}`}`;
  const lines = [
    `${tr("the plan of", "計画:")[lang]} ${p.workflow.name} v${p.workflow.version} (plan v${p.v})`,
    `${tr("inputs", "入力")[lang]}: ${p.inputs.map(field).join(", ")}`,
    `${tr("outputs", "出力")[lang]}: ${p.outputs.map(field).join(", ")}`,
  ];
  if (p.period !== null) lines.push(`${tr("period", "動く期間")[lang]}: now range ${p.period.text}`);
  lines.push(`${tr("tasks", "タスク")[lang]}:`, ...p.tasks.flatMap((t) => taskLines(t, lang)));
  if (p.cases.length > 0) {
    lines.push(`${tr("cases", "案件")[lang]}:`);
    for (const c of p.cases) {
      lines.push(
        `  ${c.name} follows ${c.machine}: ${c.initial} → ${c.finals.join(" | ")}${
          c.external.length > 0 ? ` (external ${c.external.join(", ")})` : ""
        }`,
      );
    }
  }
  lines.push("flow", ...stmtLines(p.blocks.flow, "  ", lang));
  if (p.blocks.failure !== null) lines.push("on failure", ...stmtLines(p.blocks.failure, "  ", lang));
  if (p.blocks.cancel !== null) lines.push("on cancel", ...stmtLines(p.blocks.cancel, "  ", lang));
  lines.push(
    `${tr("graph", "グラフ")[lang]}: ${p.graph.nodes.length} ${
      tr("nodes", "ノード")[lang]
    }, ${p.graph.edges.length} ${tr("edges", "辺")[lang]}`,
  );
  return lines.join("\n") + "\n";
}
