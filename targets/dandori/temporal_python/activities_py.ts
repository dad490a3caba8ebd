/**
 * `activities.py`: every task that runs as an activity, named by the task
 * (docs/targets.md#temporal-python). dandori writes the `lambda`, `http`, `aws` and book tasks with
 * the bodies pydantic-graph's tasks have (`../python/task_bodies.ts`), sending through `io.py`'s
 * `Transport`; the user writes the rest as `OwnTasks`. Each activity is a method of `_Activities`
 * defined with `@activity.defn(name=<task>)` and heartbeats while it works (`dd.beating`);
 * `make_activities(own, transport)` gives them for a worker.
 * @module
 */

import type { Plan } from "../../../lang/dandori/plan.ts";
import { argsType, str } from "../python/names.ts";
import { ownResult, written } from "../python/task_bodies.ts";
import { activityTasks } from "../temporal/wire.ts";
import { ident } from "./names.ts";

/** The text of `activities.py` after its header. */
export function activitiesModule(plan: Plan): string {
  const tasks = activityTasks(plan);
  const own = tasks.filter((t) => t.callee.kind === "own");
  const lines = [
    "from __future__ import annotations",
    "",
    "import typing",
    "",
    ...(tasks.length === 0 ? [] : ["from temporalio import activity", ""]),
    "from . import io",
    ...(tasks.length === 0 ? [] : ["from . import runtime as dd"]),
    ...(own.length === 0 ? [] : ["from . import types as T"]),
    "",
    "",
    "class Call(typing.TypedDict, total=False):",
    '    """What the workflow passes beside a task\'s arguments: the call\'s key and its callback\'s id."""',
    "",
    "    key: str",
    "    callback_id: str",
    "",
    "",
    "class OwnTasks(typing.Protocol):",
    '    """The tasks the user writes.',
    "",
    "    A declared error is raised as `dd.TaskFailure(name, message)`, or as `ApplicationError` with the",
    "    error's name as its `type`; a callback's task hands `call[\"callback_id\"]` on and returns.",
    '    """',
  ];
  for (const t of own) {
    lines.push(
      "",
      `    async def ${ident(t.name)}(self, args: T.${argsType(t.name)}, call: Call) -> ${ownResult(t)}: ...`,
    );
  }
  if (tasks.length === 0) {
    lines.push(
      "",
      "",
      "def make_activities(own: OwnTasks, transport: io.Transport) -> list[typing.Callable[..., typing.Any]]:",
      '    """Every activity of the workflow: it has none (its tasks are child workflows and events)."""',
      "    return []",
    );
    return lines.join("\n") + "\n";
  }
  lines.push(
    "",
    "",
    "class _Activities:",
    '    """Every activity of the workflow, by task name."""',
    "",
    "    def __init__(self, own: OwnTasks, transport: io.Transport) -> None:",
    "        self._own = own",
    "        self._transport = transport",
  );
  for (const t of tasks) {
    const body = written(t, plan);
    lines.push(
      "",
      `    @activity.defn(name=${str(t.name)})`,
      `    async def ${ident(t.name)}(self, args: dict[str, typing.Any], call: Call) -> typing.Any:`,
    );
    if (body === null) {
      lines.push(
        `        return await dd.beating(self._own.${ident(t.name)}(typing.cast("T.${
          argsType(t.name)
        }", args), call))`,
      );
    } else {
      lines.push("        async def work() -> typing.Any:");
      for (const l of body) lines.push(`            ${l}`);
      lines.push("", "        return await dd.beating(work())");
    }
  }
  lines.push(
    "",
    "",
    "def make_activities(own: OwnTasks, transport: io.Transport) -> list[typing.Callable[..., typing.Any]]:",
    '    """Every activity of the workflow: the user\'s own, and those dandori writes over `transport`."""',
    `    a = _Activities(own, transport)`,
    `    return [${tasks.map((t) => `a.${ident(t.name)}`).join(", ")}]`,
  );
  return lines.join("\n") + "\n";
}
