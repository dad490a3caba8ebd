/**
 * `tasks.ts` of the durable functions package (docs/targets.md#durable) and of Argo's `caller/`
 * (docs/targets.md#argo): the tasks a program runs, named by the task. dandori writes the `lambda`,
 * `http`, `aws` and book tasks (`task_bodies.ts`, the same bodies as Temporal's activities, sent
 * through `Transport`); the user writes the rest as `OwnTasks`. `makeTasks(own, transport)` joins them.
 * @module
 */

import type { Plan, TaskPlan } from "../../../lang/dandori/plan.ts";
import { argsType, member, prop, read } from "./names.ts";
import { ownResult, written } from "./task_bodies.ts";

/** The tasks the workflow runs in steps (not children, which it invokes). */
export function stepTasks(plan: Plan): TaskPlan[] {
  return plan.tasks.filter((t) =>
    t.callee.kind !== "flow" && t.callee.kind !== "child" && t.callee.kind !== "event"
  );
}

/** The text of `tasks.ts` after its header: `tasks`, in the plan's order. */
export function tasksModule(plan: Plan, tasks: readonly TaskPlan[]): string {
  const own = tasks.filter((t) => t.callee.kind === "own");
  const lines = [
    'import * as io from "./io.ts";',
    'import * as dd from "./runtime.ts";',
    'import type * as T from "./types.ts";',
    "",
    "/** What the workflow passes beside a task's arguments: the call's key and its callback's id. */",
    "export interface Call {",
    "  readonly key?: string;",
    "  readonly callback_id?: string;",
    "}",
    "",
    "/**",
    " * The tasks the user writes. A declared error is thrown as an `Error` whose `name` (or `type`)",
    " * is the error's name; a callback's task hands `call.callback_id` on and returns.",
    " */",
    "export interface OwnTasks {",
    ...own.map((t) => `  ${member(t.name)}(args: T.${argsType(t.name)}, call: Call): ${ownResult(t)};`),
    "}",
    "",
    "/** Every task the workflow runs in a step, by task name. */",
    "export function makeTasks(own: OwnTasks, transport: io.Transport) {",
    "  return {",
  ];
  for (const t of tasks) {
    const body = written(t, plan);
    const used = body === null || body.some((l) => l.includes("call."));
    lines.push(
      `    ${prop(t.name)}(args: T.${argsType(t.name)}, ${
        used ? "call" : "_call"
      }: Call): Promise<unknown> {`,
    );
    if (body === null) lines.push(`      return ${read("own", t.name)}(args, call);`);
    else {
      lines.push("      return (async () => {");
      for (const l of body) lines.push(`        ${l}`);
      lines.push("      })();");
    }
    lines.push("    },");
  }
  lines.push(
    "  };",
    "}",
    "",
    "/** The tasks' interface, as the workflow calls them. */",
    "export type Tasks = ReturnType<typeof makeTasks>;",
  );
  if (!lines.some((l) => l.includes("dd."))) lines.splice(1, 1);
  return lines.join("\n") + "\n";
}
