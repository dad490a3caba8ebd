/**
 * What a flow is on Temporal whichever SDK runs it (docs/targets.md#temporal-typescript,
 * docs/targets.md#temporal-python): the names and limits both packages put on the wire, so a
 * TypeScript worker and a Python one run the same workflow type on the same task queue, call the
 * same activities with the same timeouts and start the same child workflows.
 * @module
 */

import { unreachable } from "../../../lang/common/assert.ts";
import type { Plan, TaskPlan } from "../../../lang/dandori/plan.ts";

/** The workflow type and task queue of a flow: `<name>_v<n>`. */
export function workflowType(plan: Plan): string {
  return `${plan.workflow.name}_v${plan.workflow.version}`;
}

/** The events a flow may wait for, in the tasks' order. */
export function eventNames(plan: Plan): string[] {
  return plan.tasks.filter((t) => t.callee.kind === "event").map((t) => t.name);
}

/** The tasks that run as activities (not child workflows or events). */
export function activityTasks(plan: Plan): TaskPlan[] {
  return plan.tasks.filter((t) =>
    t.callee.kind !== "flow" && t.callee.kind !== "child" && t.callee.kind !== "event"
  );
}

/** The seconds one attempt of a task without a written `timeout` may take: an HTTP Task's (an agent's too), Lambda's, else a year. */
export const DEFAULT_SECONDS = {
  http: 60,
  lambda: 900,
  other: 365 * 86_400,
} as const;

/** The seconds `startToCloseTimeout` gives one attempt of a task run as an activity. */
export function activitySeconds(task: TaskPlan): number {
  if (task.timeout?.kind === "after" && task.timeout.written && task.callback === null) {
    return task.timeout.seconds;
  }
  switch (task.callee.kind) {
    case "http":
    case "agent":
      return DEFAULT_SECONDS.http;
    case "lambda":
      return DEFAULT_SECONDS.lambda;
    case "aws":
    case "book":
    case "own":
    case "flow":
    case "child":
    case "event":
      return DEFAULT_SECONDS.other;
    default:
      return unreachable(task.callee, "callee");
  }
}

/**
 * The workflow type a child task starts: its `workflow`, else a `flow` task's `<name>_v<n>` or a
 * child task's name; and the task queue it names (null: the parent's).
 */
export function childWorkflow(task: TaskPlan): { readonly type: string; readonly queue: string | null } {
  const callee = task.callee;
  switch (callee.kind) {
    case "flow":
      return {
        type: callee.platforms.workflow ?? `${callee.workflow}_v${callee.version}`,
        queue: callee.platforms.queue,
      };
    case "child":
      return { type: callee.platforms.workflow ?? task.name, queue: callee.platforms.queue };
    case "lambda":
    case "http":
    case "aws":
    case "book":
    case "own":
    case "event":
    case "agent":
      return unreachable(callee.kind as never, "a child's callee");
    default:
      return unreachable(callee, "callee");
  }
}
