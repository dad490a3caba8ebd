/**
 * `activities.ts`: every task that runs as an activity, named by the task (docs/targets.md#temporal-typescript). dandori writes
 * the `lambda`, `http`, `aws` and book tasks: each builds what it sends from its arguments (the
 * `transport` view of `lang/dandori/views.ts`: the payload with its key and callback id, the URL
 * with its segments escaped, the query or the body, the AWS arguments, the book call) and sends
 * it through `Transport`. The user writes the rest as `OwnTasks`. `makeActivities(own, transport)`
 * joins them; every one heartbeats while it works.
 * @module
 */

import type { Plan } from "../../../lang/dandori/plan.ts";
import { argsType, member, prop, read } from "../typescript/names.ts";
import { ownResult, written } from "../typescript/task_bodies.ts";
import { activityTasks } from "./wire.ts";

/** The text of `activities.ts` after its header. */
export function activitiesModule(plan: Plan): string {
  const tasks = activityTasks(plan);
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
    " * The tasks the user writes. A declared error is thrown as `ApplicationFailure` with the error's",
    " * name as its `type`; a callback's task hands `call.callback_id` on and returns.",
    " */",
    "export interface OwnTasks {",
    ...own.map((t) => `  ${member(t.name)}(args: T.${argsType(t.name)}, call: Call): ${ownResult(t)};`),
    "}",
    "",
    "/** Every activity of the workflow, by task name. */",
    "export function makeActivities(own: OwnTasks, transport: io.Transport) {",
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
    if (body === null) lines.push(`      return io.beating(() => ${read("own", t.name)}(args, call));`);
    else {
      lines.push("      return io.beating(async () => {");
      for (const l of body) lines.push(`        ${l}`);
      lines.push("      });");
    }
    lines.push("    },");
  }
  lines.push(
    "  };",
    "}",
    "",
    "/** The activities' interface, as the workflow's proxies read it. */",
    "export type Activities = ReturnType<typeof makeActivities>;",
  );
  if (!lines.some((l) => l.includes("dd."))) lines.splice(1, 1);
  return lines.join("\n") + "\n";
}
