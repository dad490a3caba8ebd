/**
 * What `dandori doc` says about the pieces of a plan, in English and Japanese: lengths of time, a
 * task's retries and timeout as docs/design/dandori.md#timeouts writes them, each statement as the flow writes
 * it, and what must happen to go along each edge.
 * @module
 */

import { unreachable } from "../common/assert.ts";
import { type Lang, type Text, tr } from "../common/text.ts";
import { displayWidth } from "../common/width.ts";
import { BUILTIN_ERRORS } from "./model.ts";
import type { ArmCondition, EdgeCondition, FieldPlan, Plan, StmtPlan, TaskPlan } from "./plan.ts";
import { calleeText, exprText, typeText } from "./plan_text.ts";
import { retryDelayMs } from "./rules.ts";

/** A length of time in the largest unit it is a whole number of: `30 seconds`, `7 days`, `1 分`. */
export function durationText(seconds: number, lang: Lang): string {
  const units: [number, string, string][] = [[86_400, "day", "日"], [3_600, "hour", "時間"], [
    60,
    "minute",
    "分",
  ]];
  const [size, en, ja] = units.find(([u]) => seconds % u === 0 && seconds >= u) ?? [1, "second", "秒"];
  const n = seconds / size;
  return tr(`${n} ${en}${n === 1 ? "" : "s"}`, `${n} ${ja}`)[lang];
}

/** A list in running text: `a, b and c` / `a・b・c`. */
function listText(items: readonly string[], lang: Lang): string {
  if (lang === "ja") return items.join("・");
  return items.length <= 1
    ? items.join("")
    : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** The errors a retrier takes: `*` stands for every error a declared one is not, `timeout` and `failure`. */
function retriedErrors(errors: readonly string[]): string[] {
  return errors.flatMap((e) => e === "*" ? BUILTIN_ERRORS : [e]);
}

/**
 * A task's retries as the page writes them: `2 times, 1 second and 2 seconds later (timeout, failure)`,
 * `1 秒後と 2 秒後の 2 回(timeout・failure)`; null when it is never tried again.
 */
export function retryText(t: TaskPlan, lang: Lang): string | null {
  const parts = t.retry.filter((r) => r.maxAttempts > 0).map((r) => {
    const delays = Array.from({ length: r.maxAttempts }, (_, k) => retryDelayMs(r, k + 1) / 1000);
    const errors = retriedErrors(r.errors);
    return tr(
      `${r.maxAttempts} time${r.maxAttempts === 1 ? "" : "s"}, ${
        listText(delays.map((d) => durationText(d, "en")), "en")
      } later (${errors.join(", ")})`,
      `${delays.map((d) => `${durationText(d, "ja")}後`).join("と")}の ${r.maxAttempts} 回(${
        errors.join("・")
      })`,
    )[lang];
  });
  return parts.length === 0 ? null : parts.join(lang === "ja" ? "。" : "; ");
}

/**
 * How long one attempt may take, as docs/design/dandori.md#timeouts writes it: `30 seconds`, `until \`by\``, and for
 * a callback the hand-on first (`1 minute to hand the id on, then 30 seconds`); null for none.
 */
export function timeoutText(t: TaskPlan, lang: Lang): string | null {
  const wait = t.timeout === null
    ? null
    : t.timeout.kind === "until"
    ? tr(`until \`${t.timeout.param}\``, `\`${t.timeout.param}\` まで`)[lang]
    : t.timeout.written
    ? durationText(t.timeout.seconds, lang)
    : tr(
      `${durationText(t.timeout.seconds, "en")} (no \`timeout\` written: the default wait for an answer)`,
      `${durationText(t.timeout.seconds, "ja")}(\`timeout\` が無いときの、答えを待つ既定の長さ)`,
    )[lang];
  if (t.callback === null) return wait;
  const handOn = durationText(t.callback.handOnSeconds, lang);
  if (wait === null) return tr(`${handOn} to hand the id on`, `ID を渡すのに ${handOn}`)[lang];
  return tr(`${handOn} to hand the id on, then ${wait}`, `ID を渡すのに ${handOn}、そのあと ${wait}`)[lang];
}

/** What a task calls, for a node's second line and the calls table: the callee as the flow writes it. */
export function calleeLine(t: TaskPlan): string {
  const callee = calleeText(t.callee);
  return t.callback === null ? callee : `${callee} callback`;
}

/**
 * What a task's declaration does that the flow does not say, for a node's third line: what it
 * does to the call's case, that it is retried, how long it may take.
 */
export function declarationLine(t: TaskPlan, caseName: string | null, lang: Lang): string {
  const parts: string[] = [];
  if (t.effect !== null && caseName !== null) {
    parts.push(
      t.effect.kind === "starts"
        ? tr(`starts ${caseName}`, `${caseName} を始める`)[lang]
        : tr(`sends ${t.effect.event} to ${caseName}`, `${caseName} に ${t.effect.event} を送る`)[lang],
    );
  }
  for (const r of t.retry.filter((x) => x.maxAttempts > 0)) {
    const errors = retriedErrors(r.errors);
    parts.push(
      tr(
        `retry ${r.maxAttempts}× (${errors.join(", ")})`,
        `リトライ ${r.maxAttempts} 回(${errors.join("・")})`,
      )[lang],
    );
  }
  if (t.callback !== null) {
    const handOn = durationText(t.callback.handOnSeconds, lang);
    parts.push(tr(`hands the id on within ${handOn}`, `ID を ${handOn}以内に渡す`)[lang]);
  }
  if (t.timeout !== null) {
    parts.push(
      t.timeout.kind === "until"
        ? `timeout until ${t.timeout.param}`
        : `timeout ${durationText(t.timeout.seconds, lang)}`,
    );
  }
  return parts.join(" · ");
}

/** An arm's conditions as the flow writes them: `held`, `true, false`, `none`, `some x`. */
export function armText(cs: readonly ArmCondition[]): string {
  return cs.map((c) =>
    c.kind === "values" ? c.values.join(", ") : c.kind === "none" ? "none" : `some ${c.bind}`
  )
    .join(", ");
}

/** A statement's first line as the flow writes it (without what is under it). */
export function stmtText(s: StmtPlan): string {
  switch (s.kind) {
    case "call": {
      const bind = s.bind === null
        ? ""
        : s.bind.kind === "case"
        ? `${s.bind.name} <- `
        : `let ${s.bind.name} = `;
      return `${bind}${s.call.task}(${s.call.args.map((a) => `${a.name}: ${exprText(a.value)}`).join(", ")})`;
    }
    case "let":
      return `let ${s.name} = ${exprText(s.value)}`;
    case "match":
      return `match ${s.subject.kind === "case" ? `${s.subject.case}.state` : exprText(s.subject.value)}`;
    case "wait":
      return `wait ${durationText(s.seconds, "en")}`;
    case "wait until":
      return `wait until ${exprText(s.at)}`;
    case "repeat":
      return `repeat at most ${s.atMost} times`;
    case "for": {
      const parallel = s.parallel === null
        ? ""
        : ` in parallel${s.parallel.atATime === null ? "" : `, ${s.parallel.atATime} at a time`}`;
      const collect = s.collect === null ? "" : `let ${s.collect.name} = `;
      return `${collect}for ${s.variable} in ${exprText(s.list)} at most ${s.atMost}${parallel}`;
    }
    case "yield":
      return `yield ${exprText(s.value)}`;
    case "break":
    case "pass":
      return s.kind;
    case "succeed":
      return `succeed ${s.outputs.map((o) => `${o.name} = ${exprText(o.value)}`).join(", ")}`.trimEnd();
    case "fail":
      return `fail ${s.error}${s.leaving.length === 0 ? "" : ` leaving ${s.leaving.join(", ")}`}`;
    case "period":
      return `now range`;
    default:
      return unreachable(s, "statement");
  }
}

/** What must happen to go along an edge, as its label says it; empty for the way on after a step. */
export function conditionText(w: EdgeCondition, lang: Lang): string {
  const words: Record<Exclude<EdgeCondition["kind"], "arm" | "handler" | "unhandled">, Text> = {
    next: tr("", ""),
    ok: tr("ok", "返った"),
    iteration: tr("an iteration", "イテレーション"),
    again: tr("next iteration", "次のイテレーション"),
    done: tr("all done", "回り切った"),
    break: tr("break", "break"),
    inside: tr("now inside the period", "now が期間の中"),
    outside: tr("now outside the period", "now が期間の外"),
    cancel: tr("cancelled", "キャンセル"),
    "bad response": tr("malformed answer", "形の合わない答え"),
    failed: tr("failed", "失敗"),
  };
  switch (w.kind) {
    case "arm":
      return armText(w.conditions);
    case "handler":
      return `on ${w.errors.join(", ")}`;
    case "unhandled":
      return w.errors.join(", ");
    default:
      return words[w.kind][lang];
  }
}

/** A field as the flow declares it, with its range: `quantity: int range >=1 <=100`. */
export function fieldText(f: FieldPlan): string {
  return `${f.name}: ${typeText(f.type)}${f.range === null ? "" : ` range ${f.range.text}`}`;
}

/**
 * Text cut to `columns` display columns with `…` in its middle, so a long URL or ARN keeps its
 * start and its end; text that fits is kept whole.
 */
export function shorten(text: string, columns: number): string {
  if (displayWidth(text) <= columns) return text;
  const chars = [...text];
  let head = "";
  let tail = "";
  for (let i = 0, j = chars.length - 1; i <= j;) {
    if (displayWidth(head) <= displayWidth(tail)) {
      if (displayWidth(head + chars[i] + tail) + 1 > columns) break;
      head += chars[i++];
    } else {
      if (displayWidth(head + chars[j] + tail) + 1 > columns) break;
      tail = chars[j--] + tail;
    }
  }
  return `${head}…${tail}`;
}

/**
 * Text broken into lines of at most `columns` display columns after its spaces (a word longer
 * than a line is shortened in its middle), the later lines indented by two.
 */
export function wrap(text: string, columns: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line === "" ? word : `${line} ${word}`;
    if (line !== "" && displayWidth(next) > columns) {
      lines.push(line);
      line = `  ${word}`;
    } else line = next;
  }
  lines.push(line);
  return lines.map((l) => shorten(l, columns));
}

/** Every statement of the plan, in written order, outer before inner. */
export function statementsOf(plan: Plan): StmtPlan[] {
  const out: StmtPlan[] = [];
  const walk = (ss: readonly StmtPlan[]): void => {
    for (const s of ss) {
      out.push(s);
      if (s.kind === "repeat" || s.kind === "for") walk(s.body);
      if (s.kind === "match") { for (const a of s.arms) walk(a.body); }
      if (s.kind === "call") { for (const h of s.call.handlers) walk(h.body); }
    }
  };
  walk(plan.blocks.flow);
  walk(plan.blocks.failure ?? []);
  walk(plan.blocks.cancel ?? []);
  return out;
}
