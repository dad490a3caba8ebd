/**
 * `tasks.py`: every task of the flow as a method of the `Tasks` the graph calls through
 * `Deps.tasks`. dandori writes the `lambda`, `http`, `aws` and book tasks: each builds what it sends
 * from its arguments (the `transport` view of `lang/dandori/views.ts`: the payload with its key and
 * callback id, the URL with its segments escaped, the query or the body, the AWS arguments, the
 * book call) and sends it through `io.Transport`. The user writes the rest as `OwnTasks`, child
 * flows among them (docs/targets.md#pydantic-graph). `make_tasks(own, transport)` joins them.
 * @module
 */

import type { Plan } from "../../../lang/dandori/plan.ts";
import { argsType } from "../python/names.ts";
import { ownResult, ownTasks, written } from "../python/task_bodies.ts";
import { ident } from "./names.ts";

/** The text of `tasks.py` after its header. */
export function tasksModule(plan: Plan): string {
  const own = ownTasks(plan);
  const lines = [
    "from __future__ import annotations",
    "",
    "import typing",
    "",
    "from . import io",
    "from . import runtime as dd",
    "from . import types as T",
    "",
    "",
    "class Call(typing.TypedDict, total=False):",
    '    """What the graph passes beside a task\'s arguments: the call\'s key and its callback\'s id."""',
    "",
    "    key: str",
    "    callback_id: str",
    "",
    "",
    "class OwnTasks(typing.Protocol):",
    '    """The tasks the user writes (child flows among them).',
    "",
    "    A declared error is raised as `dd.TaskFailure(name, message)`; a callback's task hands",
    '    `call["callback_id"]` on and returns.',
    '    """',
  ];
  for (const t of own) {
    lines.push(
      "",
      `    async def ${ident(t.name)}(self, args: T.${argsType(t.name)}, call: Call) -> ${ownResult(t)}: ...`,
    );
  }
  lines.push(
    "",
    "",
    "class Tasks(typing.Protocol):",
    '    """Every task of the workflow, as the graph calls it."""',
  );
  for (const t of plan.tasks) {
    lines.push(
      "",
      `    async def ${ident(t.name)}(self, args: dict[str, typing.Any], call: Call) -> typing.Any: ...`,
    );
  }
  lines.push(
    "",
    "",
    "class _Tasks:",
    "    def __init__(self, own: OwnTasks, transport: io.Transport) -> None:",
    "        self._own = own",
    "        self._transport = transport",
  );
  for (const t of plan.tasks) {
    const body = written(t, plan);
    lines.push(
      "",
      `    async def ${ident(t.name)}(self, args: dict[str, typing.Any], call: Call) -> typing.Any:`,
    );
    if (body === null) {
      lines.push(
        `        return await self._own.${ident(t.name)}(typing.cast("T.${argsType(t.name)}", args), call)`,
      );
    } else for (const l of body) lines.push(`        ${l}`);
  }
  lines.push(
    "",
    "",
    "def make_tasks(own: OwnTasks, transport: io.Transport) -> Tasks:",
    '    """Every task of the workflow: the user\'s own, and those dandori writes over `transport`."""',
    "    return _Tasks(own, transport)",
  );
  return lines.join("\n") + "\n";
}
