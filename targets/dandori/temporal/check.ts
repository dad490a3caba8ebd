/**
 * What stops a Temporal build, on either SDK (temporal-typescript, temporal-python):
 *
 * - **E040**: one run may write more events into its history than Temporal keeps (51,200: the
 *   server's `limit.historyCount.error`, past which it terminates the run). The estimate counts
 *   the most each statement may write: an activity's attempt 6 events (scheduled, started, ended,
 *   and the workflow task that reads it), a durable timer 5, a child workflow 9, an Update 5, a
 *   case's search attribute 1; a call its attempts and the timers between them and its largest
 *   handler; a loop its most iterations; a `match` its largest arm. The outermost loops continue
 *   as new (docs/targets.md#temporal-typescript), so a run holds at most `CONTINUE_AT` events and one more iteration of them.
 *
 * `history encrypted` builds on both SDKs: the package then requires a payload codec
 * (docs/targets.md#the-payload-codec-of-history-encrypted).
 * @module
 */

import type { Diagnostic } from "../../../lang/common/diagnostic.ts";
import { Reporter } from "../../../lang/common/reporter.ts";
import { tr } from "../../../lang/common/text.ts";
import { unreachable } from "../../../lang/common/assert.ts";
import type { DandoriCode } from "../../../lang/dandori/codes.ts";
import type { Plan, StmtPlan, TaskPlan } from "../../../lang/dandori/plan.ts";
import type { FlowOrigin } from "../target.ts";
import { namingCheck } from "../naming.ts";
import { tsNames } from "../typescript/names.ts";

/** The most events Temporal keeps in one run's history (the server's default `limit.historyCount.error`). */
export const MAX_HISTORY_EVENTS = 51_200;
/** History length at which an outermost iteration continues as new (runtime.ts's `CONTINUE_AT`). */
export const CONTINUE_AT = 10_000;

/** Events each piece of a run writes at most (their sum bounds a run's history). */
const EVENTS = {
  /** WorkflowExecutionStarted and its first workflow task, then the run's ending. */
  run: 5,
  /** ActivityTaskScheduled, Started, and Completed, Failed or TimedOut, and the workflow task that reads it. */
  activity: 6,
  /** TimerStarted, TimerFired and the workflow task that reads it. */
  timer: 5,
  /** StartChildWorkflowExecutionInitiated, ChildWorkflowExecutionStarted and its ending, each read by a workflow task. */
  child: 9,
  /** WorkflowExecutionUpdateAccepted, Completed, and the workflow task that ran it. */
  update: 5,
  /** UpsertWorkflowSearchAttributes when a case moves. */
  upsert: 1,
} as const;

function task(plan: Plan, name: string): TaskPlan {
  const t = plan.tasks.find((x) => x.name === name);
  if (t === undefined) throw new Error(`the plan has no task ${name}`);
  return t;
}

/** The most events one attempt of a task writes. */
function attemptEvents(t: TaskPlan): number {
  switch (t.callee.kind) {
    case "flow":
    case "child":
      return EVENTS.child;
    case "event":
      return EVENTS.update + EVENTS.timer;
    case "lambda":
    case "http":
    case "aws":
    case "book":
    case "own":
    case "agent":
      return t.callback === null ? EVENTS.activity : EVENTS.activity + EVENTS.update + EVENTS.timer;
    default:
      return unreachable(t.callee, "callee");
  }
}

/** The most events a block writes. */
function blockEvents(plan: Plan, ss: readonly StmtPlan[]): number {
  return ss.reduce((n, s) => n + stmtEvents(plan, s), 0);
}

function stmtEvents(plan: Plan, s: StmtPlan): number {
  switch (s.kind) {
    case "call": {
      const t = task(plan, s.call.task);
      const handlers = Math.max(0, ...s.call.handlers.map((h) => blockEvents(plan, h.body)));
      return (t.retries + 1) * attemptEvents(t) + t.retries * EVENTS.timer +
        (s.call.case === null ? 0 : EVENTS.upsert) + handlers;
    }
    case "match":
      return Math.max(0, ...s.arms.map((a) => blockEvents(plan, a.body)));
    case "wait":
    case "wait until":
      return EVENTS.timer;
    case "repeat":
    case "for":
      return s.atMost * blockEvents(plan, s.body);
    case "let":
    case "yield":
    case "break":
    case "pass":
    case "succeed":
    case "fail":
    case "period":
      return 0;
    default:
      return unreachable(s, "statement");
  }
}

/** The most events one run writes: an outermost loop's iterations beyond `CONTINUE_AT` go to a new run. */
export function historyEvents(plan: Plan): number {
  const flow = plan.blocks.flow.reduce((n, s) => {
    const outermost = s.kind === "repeat" || (s.kind === "for" && s.parallel === null);
    const all = stmtEvents(plan, s);
    return n + (outermost ? Math.min(all, CONTINUE_AT + blockEvents(plan, s.body)) : all);
  }, 0);
  const failure = plan.blocks.failure === null ? 0 : blockEvents(plan, plan.blocks.failure);
  const cancel = plan.blocks.cancel === null ? 0 : blockEvents(plan, plan.blocks.cancel);
  return EVENTS.run + flow + failure + cancel;
}

/** What stops a Temporal build on either SDK: E040 when one run may write more than Temporal keeps. */
export function temporalLimits(plan: Plan, origin: FlowOrigin): readonly Diagnostic[] {
  const r = new Reporter<DandoriCode>(origin.path, origin.text);
  const head = { line: 1, col: 1 };
  const events = historyEvents(plan);
  if (events > MAX_HISTORY_EVENTS) {
    r.error(
      "E040",
      head,
      tr(
        `one run on Temporal may write ${events} events into its history, more than the ${MAX_HISTORY_EVENTS} Temporal keeps`,
        `Temporal の一つの実行が、履歴に ${events} 件の出来事を書くことがあり、Temporal が持てる ${MAX_HISTORY_EVENTS} 件を超えます`,
      ),
      {
        quote: false,
        hint: tr(
          "lower the loops' `at most`, or make the largest loop the flow's outermost one (not in parallel), so that each iteration can continue as a new run",
          "ループの `at most` を下げるか、いちばん大きいループをフローの一番外の(並列でない)ループにして、イテレーションごとに新しい実行で続けられるようにしてください",
        ),
      },
    );
  }
  return r.diagnostics;
}

/** The diagnostics that stop the temporal-typescript build; none when Temporal can run the flow. */
export function temporalCheck(plan: Plan, origin: FlowOrigin): readonly Diagnostic[] {
  const names = tsNames(plan);
  return [
    ...temporalLimits(plan, origin),
    ...namingCheck("Temporal TypeScript", names.spelled, names.refused, origin),
  ];
}
