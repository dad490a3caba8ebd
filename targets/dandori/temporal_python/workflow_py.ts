/**
 * `workflow.py`: the flow as one Temporal workflow class (docs/targets.md#temporal-python) for the
 * Python SDK: `@workflow.defn(name="<name>_v<n>")`, the query `dandori.status`, the Updates
 * `dandori.answer` and `dandori.event` with their validators, the signal `dandori.callback`, and
 * `run`, whose statements `statements_py.ts` prints. The module imports only `runtime.py` and
 * `types.py` beside the SDK, all deterministic, so the SDK's sandbox re-imports it as it is.
 *
 * | what | code |
 * |---|---|
 * | a run's state the handlers read | `self._state` (`dd.Run`), made before `run` starts, so the query answers from the first instruction |
 * | the input | checked by `T.is_WorkflowInput` (`Dandori.BadInput`), taken as JSON (`typing.Any`) so the SDK's converter never refuses it first |
 * | the outermost `repeat` and non-parallel `for` | continue as new (`dd.CONTINUE_AT`); a continued run gets `resume` and skips the statements before its loop |
 * | `on failure` | an `except dd.TaskError` around the flow |
 * | `on cancel` | an `except BaseException` that `dd.is_cancelled` tells a cancel by; it runs and raises the cancel again |
 * @module
 */

import { assigned, type Plan, type StmtPlan } from "../../../lang/dandori/plan.ts";
import { taskTables } from "../python/code.ts";
import { str } from "../python/names.ts";
import { activitySeconds, activityTasks } from "../temporal/wire.ts";
import { ident } from "./names.ts";
import { block, type Ctx, declare, forLoop, PyOut, readNames, repeat, stmt } from "./statements_py.ts";

/** The outermost loops that continue as new: `repeat` and `for` not in parallel, at the flow's top. */
function outermost(plan: Plan): Set<number> {
  const out = new Set<number>();
  plan.blocks.flow.forEach((s, i) => {
    if (s.kind === "repeat" || (s.kind === "for" && s.parallel === null)) out.add(i);
  });
  return out;
}

/** The flow's statements; with an outermost loop, each runs unless a continued run starts after it. */
function flowBody(out: PyOut, depth: number, ctx: Ctx, vars: readonly string[]): void {
  const loops = outermost(ctx.plan);
  const ss = ctx.plan.blocks.flow;
  if (loops.size === 0) return block(out, depth, ss, ctx);
  // A period check goes with the statement it checks.
  for (let i = 0; i < ss.length; i++) {
    const s = ss[i];
    const group: StmtPlan[] = s.kind === "period" && i + 1 < ss.length ? [s, ss[++i]] : [s];
    const index = i;
    out.line(depth, `if dd_from <= ${index}:`);
    const inner: Ctx = { ...ctx, nows: new Set() };
    const before = out.lines.length;
    for (const g of group) {
      const cont = loops.has(index) && g === ss[index] ? { index, vars } : null;
      if (cont !== null && g.kind === "repeat") repeat(out, depth + 1, g, inner, cont);
      else if (cont !== null && g.kind === "for") forLoop(out, depth + 1, g, inner, cont);
      else stmt(out, depth + 1, g, inner);
    }
    if (out.lines.length === before) out.line(depth + 1, "pass");
  }
}

/** Each activity's `start_to_close_timeout` in milliseconds. */
function activityTable(plan: Plan): string[] {
  const tasks = activityTasks(plan);
  if (tasks.length === 0) return [];
  return [
    "#: Each activity's `start_to_close_timeout` in milliseconds; Temporal tries it once, the workflow retries.",
    "A: dict[str, float] = {",
    ...tasks.map((t) =>
      `    ${str(t.name)}: ${
        t.callback !== null ? "dd.HAND_ON_MS" : `dd.activity_ms(${activitySeconds(t)})`
      },`
    ),
    "}",
  ];
}

/** The class's handlers: the query, the Updates with their validators, the signal. */
const HANDLERS = `    @workflow.query(name="dandori.status")
    def status(self) -> dd.Status:
        """Where the workflow is: the line it waits at, each case's record, the events it waits for."""
        return self._state.status()

    @workflow.update(name="dandori.answer")
    def answer(self, a: dict[str, typing.Any]) -> bool:
        """A callback's answer: \`{"id": …, "ok": …}\` or \`{"id": …, "error": …, "message": …}\`."""
        return self._state.take_answer(a)

    @answer.validator
    def validate_answer(self, a: dict[str, typing.Any]) -> None:
        """Refuses an id the workflow does not wait for, and a second answer."""
        self._state.validate_answer(a)

    @workflow.update(name="dandori.event")
    def event(self, a: dict[str, typing.Any]) -> bool:
        """An event: \`{"event": …, "ok": …}\` or \`{"event": …, "error": …, "message": …}\`."""
        return self._state.take_event(a)

    @event.validator
    def validate_event(self, a: dict[str, typing.Any]) -> None:
        """Refuses an event the workflow does not wait for, and one that came already."""
        self._state.validate_event(a)

    @workflow.signal(name="dandori.callback")
    def callback(self, a: dict[str, typing.Any]) -> None:
        """A callback's answer as a signal: one the workflow does not wait for is dropped."""
        self._state.take_signal(a)
`;

/** The text of `workflow.py` after its header. */
export function workflowModule(plan: Plan, type: string): string {
  const out = new PyOut();
  const vars = assigned(plan.blocks.flow, new Map());
  if (plan.blocks.failure !== null) assigned(plan.blocks.failure, vars);
  if (plan.blocks.cancel !== null) assigned(plan.blocks.cancel, vars);
  const continues = outermost(plan).size > 0;
  const flowVars = continues ? [...assigned(plan.blocks.flow, new Map()).keys()] : [];
  const reads = new Set([...readNames(plan), ...flowVars]);
  const ctx: Ctx = { loops: [], collect: null, plan, nows: new Set(), reads };
  const cases = plan.cases.map((c) => `${str(c.name)}: None`).join(", ");
  // A workflow without outputs ends with None (`T.WorkflowOutput` is then no type but None itself).
  const output = plan.outputs.length === 0 ? "None" : "T.WorkflowOutput";
  const ended = plan.outputs.length === 0 ? ["except dd.Succeeded:", "    return"] : [
    "except dd.Succeeded as e:",
    '    return typing.cast("T.WorkflowOutput", e.outputs)',
  ];
  out.lines.push(
    "from __future__ import annotations",
    "",
    "import typing",
    "",
    "from temporalio import workflow",
    "",
    "from . import runtime as dd",
    "from . import types as T",
    "",
    ...taskTables(plan),
    ...(activityTable(plan).length === 0 ? [] : ["", ...activityTable(plan)]),
    "",
    "",
    `@workflow.defn(name=${str(type)})`,
    "class Workflow:",
    `    """The workflow ${plan.workflow.name} v${plan.workflow.version}: its status, the answers it takes, and its run."""`,
    "",
    "    def __init__(self) -> None:",
    `        self._state = dd.Run({${cases}})`,
    "",
    HANDLERS,
    "    @workflow.run",
    `    async def run(self, input: typing.Any, resume: dd.Resume | None = None) -> ${output}:`,
    '        """Runs the flow on `input`; a run continued as new gets `resume`."""',
  );
  const d = 2;
  out.line(d, "if not T.is_WorkflowInput(input):");
  out.line(
    d + 1,
    `raise dd.fail("Dandori.BadInput", "the execution's input does not have the declared shape")`,
  );
  out.line(d, "if resume is not None:");
  out.line(d + 1, 'self._state.cases.update(resume["cases"])');
  if (plan.period !== null) {
    const p = plan.period;
    out.line(d, "if resume is None:");
    out.line(d + 1, "dd_start = dd.start_now()");
    out.line(
      d + 1,
      `if not dd.time_in(dd_start, ${p.first === null ? "None" : str(p.first)}, ${
        p.after === null ? "None" : str(p.after)
      }):`,
    );
    out.line(
      d + 2,
      `raise dd.fail("Dandori.OutOfPeriod", "the run starts at " + dd_start + ${
        str(`, outside the period the workflow runs in, ${p.text}`)
      })`,
    );
  }
  declare(out, d, vars, reads);
  if (continues) {
    out.line(d, 'dd_from = 0 if resume is None else resume["at"]');
    if (flowVars.length > 0) {
      out.line(d, "if resume is not None:");
      for (const v of flowVars) out.line(d + 1, `${ident(v)} = resume["vars"][${str(ident(v))}]`);
    }
  }
  const empty = plan.outputs.length === 0 ? "return" : 'return typing.cast("T.WorkflowOutput", {})';
  out.line(d, "try:");
  if (plan.blocks.failure !== null) {
    out.line(d + 1, "try:");
    flowBody(out, d + 2, ctx, flowVars);
    out.line(d + 2, empty);
    out.line(d + 1, "except dd.TaskError:");
    block(out, d + 2, plan.blocks.failure, ctx);
    out.line(d + 2, "raise");
  } else {
    flowBody(out, d + 1, ctx, flowVars);
    out.line(d + 1, empty);
  }
  for (const l of ended) out.line(d, l);
  out.line(d, "except dd.TaskError as e:");
  out.line(d + 1, "raise dd.failed(e) from None");
  if (plan.blocks.cancel !== null) {
    out.line(d, "except BaseException as e:");
    out.line(d + 1, "if not dd.is_cancelled(e):");
    out.line(d + 2, "raise");
    out.line(d + 1, "try:");
    block(out, d + 2, plan.blocks.cancel, ctx);
    for (const l of ended) out.line(d + 1, l);
    out.line(d + 1, "except dd.TaskError as e:");
    out.line(d + 2, "raise dd.failed(e) from None");
    out.line(d + 1, "raise");
  }
  out.lines.push(
    "",
    "",
    "#: The workflows a worker of this package runs.",
    "workflows = [Workflow]",
  );
  return out.lines.join("\n") + "\n";
}
