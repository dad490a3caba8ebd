/**
 * What stops a Lambda durable functions build (docs/targets.md#durable):
 *
 * - **E040**: one execution may use more operations than the service allows (3,000, which cannot
 *   be raised). The estimate counts the most each statement may use: a task's attempt 1 step, a
 *   callback's attempt its `createCallback` and the step that hands the id on (and the clock step
 *   of `timeout until`), a child's attempt 1 `invoke`, a wait between retries 1, a `wait` 1, a
 *   `wait until` 2 (its clock step and the wait), a statement that reads `now` 1 clock step, the
 *   period check at the start 1; a loop its most iterations; `for … in parallel` its `map` and a
 *   child context per iteration; a `match` its largest arm; a call its largest handler.
 * - **E050**: what the platform cannot run: `on cancel` (a durable execution is stopped, not
 *   cancelled into code), a task that waits for an `event` (nothing sends one into an execution
 *   but a callback), `timeout` on a child (`context.invoke` takes no timeout in SDK 2.4.0), and an
 *   input named `toString` (the SDK writes the execution's input into a log line with a template
 *   string, which throws for an object whose `toString` is not a function).
 * @module
 */

import type { Diagnostic } from "../../../lang/common/diagnostic.ts";
import { Reporter } from "../../../lang/common/reporter.ts";
import { tr } from "../../../lang/common/text.ts";
import { unreachable } from "../../../lang/common/assert.ts";
import type { DandoriCode } from "../../../lang/dandori/codes.ts";
import {
  type Plan,
  readsNow,
  stmtExprs,
  type StmtPlan,
  taskOf,
  type TaskPlan,
} from "../../../lang/dandori/plan.ts";
import type { FlowOrigin } from "../target.ts";
import { namingCheck } from "../naming.ts";
import { tsNames } from "../typescript/names.ts";

/** The most operations one durable execution may use (a service quota that cannot be raised). */
export const MAX_OPERATIONS = 3_000;

/** The most operations one attempt of a task uses. */
function attemptOperations(t: TaskPlan): number {
  switch (t.callee.kind) {
    case "flow":
    case "child":
    case "event":
      return 1;
    case "lambda":
    case "http":
    case "aws":
    case "book":
    case "own":
    case "agent":
      if (t.callback === null) return 1;
      return t.timeout?.kind === "until" ? 3 : 2;
    default:
      return unreachable(t.callee, "callee");
  }
}

function blockOperations(plan: Plan, ss: readonly StmtPlan[]): number {
  return ss.reduce((n, s) => n + stmtOperations(plan, s), 0);
}

function stmtOperations(plan: Plan, s: StmtPlan): number {
  const clock = stmtExprs(s).some(readsNow) || s.kind === "period" ? 1 : 0;
  switch (s.kind) {
    case "call": {
      const t = taskOf(plan, s.call.task);
      const handlers = Math.max(0, ...s.call.handlers.map((h) => blockOperations(plan, h.body)));
      return clock + (t.retries + 1) * attemptOperations(t) + t.retries + handlers;
    }
    case "match":
      return clock + Math.max(0, ...s.arms.map((a) => blockOperations(plan, a.body)));
    case "wait":
      return clock + 1;
    case "wait until":
      return clock + 2;
    case "repeat":
      return clock + s.atMost * blockOperations(plan, s.body);
    case "for":
      return clock + (s.parallel === null ? 0 : 1) +
        s.atMost * ((s.parallel === null ? 0 : 1) + blockOperations(plan, s.body));
    case "let":
    case "yield":
    case "break":
    case "pass":
    case "succeed":
    case "fail":
    case "period":
      return clock;
    default:
      return unreachable(s, "statement");
  }
}

/** The most operations one execution uses. */
export function executionOperations(plan: Plan): number {
  const start = plan.period === null ? 0 : 1;
  const failure = plan.blocks.failure === null ? 0 : blockOperations(plan, plan.blocks.failure);
  return start + blockOperations(plan, plan.blocks.flow) + failure;
}

/** The diagnostics that stop the build; none when durable functions can run the flow. */
export function durableCheck(plan: Plan, origin: FlowOrigin): readonly Diagnostic[] {
  const r = new Reporter<DandoriCode>(origin.path, origin.text);
  const head = { line: 1, col: 1 };
  const cancel = plan.blocks.cancel;
  if (cancel !== null) {
    r.error(
      "E050",
      { line: cancel[0]?.line ?? 1, col: 1 },
      tr(
        "Lambda durable functions (durable) cannot run `on cancel`: an execution is stopped, not cancelled into the workflow's code",
        "Lambda durable functions(durable)では `on cancel` を動かせません。実行は止められるだけで、ワークフローのコードにキャンセルが届きません",
      ),
      {
        quote: false,
        hint: tr(
          "build it for another target, or write it without `on cancel`",
          "ほかの出力先に組むか、`on cancel` を外してください",
        ),
      },
    );
  }
  for (const i of plan.inputs.filter((x) => x.name === "toString")) {
    r.error(
      "E050",
      { line: i.line, col: 1 },
      tr(
        "Lambda durable functions (durable) cannot take an input named `toString`: @aws/durable-execution-sdk-js 2.4.0 writes the execution's input into a log line as text, and an input whose `toString` is a value cannot be made text, so every execution would fail before the workflow starts",
        "Lambda durable functions(durable)では、`toString` という名前の入力を受け取れません。@aws/durable-execution-sdk-js 2.4.0 は実行の入力を文字列にしてログの行に書き、`toString` が値の入力は文字列にできないので、どの実行もワークフローが始まる前に失敗します",
      ),
      { hint: tr("rename the input", "入力の名前を変えてください") },
    );
  }
  for (const t of plan.tasks) {
    if (t.callee.kind === "event") {
      r.error(
        "E050",
        { line: t.line, col: 1 },
        tr(
          `Lambda durable functions (durable) cannot run the task \`${t.name}\`: nothing sends an \`event\` into an execution but a callback`,
          `Lambda durable functions(durable)では、タスク \`${t.name}\` を動かせません。実行に \`event\` を送る手立てがコールバックのほかに無いからです`,
        ),
        {
          hint: tr(
            "make it a `callback` task, whose id the sender is given",
            "送る側に ID を渡す `callback` のタスクにしてください",
          ),
        },
      );
    }
    if (
      (t.callee.kind === "flow" || t.callee.kind === "child") && t.timeout !== null &&
      (t.timeout.kind === "until" || t.timeout.written)
    ) {
      r.error(
        "E050",
        { line: t.line, col: 1 },
        tr(
          `Lambda durable functions (durable) cannot limit the child \`${t.name}\` with \`timeout\`: \`context.invoke\` takes no timeout`,
          `Lambda durable functions(durable)では、子 \`${t.name}\` を \`timeout\` で限れません。\`context.invoke\` はタイムアウトを取りません`,
        ),
        {
          hint: tr(
            "leave the `timeout` to the child durable function itself",
            "`timeout` は子の durable function の側に任せてください",
          ),
        },
      );
    }
  }
  const operations = executionOperations(plan);
  if (operations > MAX_OPERATIONS) {
    r.error(
      "E040",
      head,
      tr(
        `one durable execution may use ${operations} operations, more than the ${MAX_OPERATIONS} the service allows`,
        `一つの durable の実行が ${operations} 回の操作を使うことがあり、サービスが許す ${MAX_OPERATIONS} 回を超えます`,
      ),
      {
        quote: false,
        hint: tr(
          "lower the loops' `at most` or the retries, or run the largest loop's iterations as child flows",
          "ループの `at most` かリトライの回数を下げるか、いちばん大きいループのイテレーションを子のフローにしてください",
        ),
      },
    );
  }
  const names = tsNames(plan);
  return [...r.diagnostics, ...namingCheck("Lambda durable functions", names.spelled, names.refused, origin)];
}
