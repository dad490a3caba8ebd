/**
 * `workflow.ts` (docs/targets.md#durable): the flow as one durable function, its statements printed by
 * `../typescript/statements.ts` in the durable dialect, and `makeHandler(own, transport)`:
 *
 * | statement | code |
 * |---|---|
 * | call | `dd.attempt` over a `context.step` (`dd.step`, never retried by the SDK; unkeyed tasks that may change outside data at most once), a callback (`dd.awaitCallback`: `createCallback` and the step that hands the id on within 60 s) or a child (`dd.invoke`) |
 * | retry delays, `wait` | `context.wait` |
 * | `wait until`, `now`, `timeout until` | the clock read in a step (`<line> clock`), so a replay reads the same |
 * | `for … in parallel` | `dd.map` over `context.map`, each iteration with its own child context `dc` |
 * | `on failure` | a `catch` of `dd.TaskError` |
 * @module
 */

import { assert, unreachable } from "../../../lang/common/assert.ts";
import { READING_AWS, SAFE_HTTP } from "../../../lang/dandori/lints.ts";
import {
  assigned,
  iterationVariables,
  type Plan,
  type StmtPlan,
  type TaskPlan,
} from "../../../lang/dandori/plan.ts";
import { ident, prop, read, readMaybe, str } from "../typescript/names.ts";
import {
  block,
  casesType,
  type Ctx,
  declare,
  type Dialect,
  endsBlock,
  expr,
  maybeMissing,
  otherBlock,
  Out,
  stmt,
  taskTables,
  tooMany,
  waitOf,
} from "../typescript/statements.ts";
import { tsType } from "../typescript/types_ts.ts";
import { DEFAULT_SECONDS } from "../temporal/wire.ts";

/** The seconds one attempt of a task's step may take, or null for no limit of dandori's. */
export function stepSeconds(task: TaskPlan): number | null {
  if (task.timeout?.kind === "after" && task.timeout.written && task.callback === null) {
    return task.timeout.seconds;
  }
  if (task.callee.kind === "http" || task.callee.kind === "agent") return DEFAULT_SECONDS.http;
  if (task.callee.kind === "lambda") return DEFAULT_SECONDS.lambda;
  return null;
}

/** True when a task may change outside data and has no key: its step runs at most once per attempt (docs/targets.md#durable). */
export function atMostOnce(task: TaskPlan): boolean {
  if (task.key !== null || task.idempotent) return false;
  const c = task.callee;
  switch (c.kind) {
    case "lambda":
    case "own":
      return true;
    case "http":
      return !SAFE_HTTP.includes(c.method);
    case "aws":
      return !READING_AWS.test(c.operation);
    case "book":
    case "flow":
    case "child":
    case "event":
    case "agent":
      return false;
    default:
      return unreachable(c, "callee");
  }
}

/** The durable function a child task invokes. */
function childFunction(task: TaskPlan): string {
  const c = task.callee;
  if (c.kind === "flow") return c.platforms.durableFunction ?? `${c.workflow}_v${c.version}`;
  if (c.kind === "child") return c.platforms.durableFunction ?? task.name;
  throw new Error(`dandori: ${task.name} is not a child`);
}

/** The code of one attempt. */
function attemptCode(task: TaskPlan, args: string, place: string, loops: string, line: number): string {
  const name = str(`${line} ${task.name}`);
  const meta = (id: string | null) => {
    const parts = [
      ...(task.key !== null ? [`key: dd.key(dc, ${str(place)}, ${loops})`] : []),
      ...(id !== null ? [`callback_id: ${id}`] : []),
    ];
    return parts.length === 0 ? "{}" : `{ ${parts.join(", ")} }`;
  };
  const callee = task.callee;
  switch (callee.kind) {
    case "flow":
    case "child":
      return `() => dd.invoke(dc, ${name}, ${str(childFunction(task))}, ${args})`;
    case "event":
      throw new Error(`dandori: the event task ${task.name} is E050 on durable functions`);
    case "lambda":
    case "http":
    case "aws":
    case "book":
    case "own":
    case "agent":
      if (task.callback !== null) {
        return `() => dd.awaitCallback(dc, ${name}, ${waitOf(task.timeout, args)}, ${
          atMostOnce(task)
        }, (id) => ${read("tasks", task.name)}(${args}, ${meta("id")}))`;
      }
      return `() => dd.step(dc, ${name}, ${atMostOnce(task)}, ${stepSeconds(task)}, () => ${
        read("tasks", task.name)
      }(${args}, ${meta(null)}))`;
    default:
      return unreachable(callee, "callee");
  }
}

function parallel(out: Out, depth: number, s: Extract<StmtPlan, { kind: "for" }>, ctx: Ctx): void {
  assert(s.parallel !== null, "a parallel loop");
  const list = `list_${s.place}`;
  const i = `i_${s.place}`;
  const elem = tsType(s.element, "T.");
  const collType = s.collect === null ? "unknown" : tsType(s.collect.type, "T.").replace(/\[\]$/, "");
  out.line(depth, "{");
  out.line(depth + 1, `const ${list}: ${elem}[] = ${expr(s.list, s.place, ctx.plan)};`);
  tooMany(out, depth + 1, s.line, list, s.atMost);
  const k = s.parallel.atATime === null ? `${list}.length` : String(s.parallel.atATime);
  const assign = s.collect === null ? "" : `${ident(s.collect.name)} = `;
  out.line(
    depth + 1,
    `${assign}await dd.map(dc, ${str(`${s.line} for`)}, ${k}, ${list}, async (dc: DurableContext, ${
      ident(s.variable)
    }: ${elem}, ${i}: number) => {`,
  );
  out.line(depth + 2, `const ys: ${collType}[] = [];`);
  declare(out, depth + 2, iterationVariables(s));
  block(out, depth + 2, s.body, {
    ...ctx,
    loops: [...ctx.loops, { place: s.place, counter: i }],
    collect: "ys",
  });
  if (!endsBlock(s.body)) out.line(depth + 2, "return ys;");
  out.line(depth + 1, "});");
  out.line(depth, "}");
}

/** How durable functions run the statements that differ between the targets. */
const DURABLE: Dialect = {
  now: (line) => `await dd.now(dc, ${str(`${line} clock`)})`,
  wait: (line, seconds) => [`await dd.wait(dc, ${str(`${line} wait`)}, ${seconds});`],
  waitUntil: (line, at) => [`await dd.waitUntil(dc, ${str(`${line} wait`)}, ${at});`],
  attempt: attemptCode,
  attemptFirst: "dc, ",
  where: false,
  showCases: false,
  parallel,
};

/** The text of `workflow.ts` after its header. */
export function workflowModule(plan: Plan): string {
  const out = new Out();
  const vars = assigned(plan.blocks.flow, new Map());
  if (plan.blocks.failure !== null) assigned(plan.blocks.failure, vars);
  out.lines.push(
    'import { type DurableContext, withDurableExecution } from "@aws/durable-execution-sdk-js";',
    'import * as io from "./io.ts";',
    'import * as dd from "./runtime.ts";',
    'import { makeTasks, type OwnTasks, type Tasks } from "./tasks.ts";',
    'import * as T from "./types.ts";',
    "",
    ...taskTables(plan),
    "",
    `/** The workflow ${plan.workflow.name} v${plan.workflow.version} over the durable context \`dc\`. */`,
    "export async function workflow(dc: DurableContext, tasks: Tasks, input: T.WorkflowInput): Promise<T.WorkflowOutput> {",
  );
  const d = 1;
  if (plan.cases.length > 0) {
    out.line(
      d,
      `const cases: ${casesType(plan)} = { ${plan.cases.map((c) => `${prop(c.name)}: null`).join(", ")} };`,
    );
  }
  out.line(d, "if (!T.isWorkflowInput(input)) {");
  out.line(
    d + 1,
    `throw dd.fail("Dandori.BadInput", "the execution's input does not have the declared shape");`,
  );
  out.line(d, "}");
  if (plan.period !== null) {
    const p = plan.period;
    out.line(d, 'const dd_start = await dd.now(dc, "start clock");');
    out.line(
      d,
      `if (!dd.timeIn(dd_start, ${p.first === null ? "null" : str(p.first)}, ${
        p.after === null ? "null" : str(p.after)
      })) {`,
    );
    out.line(
      d + 1,
      `throw dd.fail("Dandori.OutOfPeriod", "the run starts at " + dd_start + ${
        str(`, outside the period the workflow runs in, ${p.text}`)
      });`,
    );
    out.line(d, "}");
  }
  for (const i of plan.inputs) {
    out.line(
      d,
      `const ${ident(i.name)} = ${
        maybeMissing(i.type) ? `${readMaybe("input", i.name)} ?? null` : read("input", i.name)
      };`,
    );
  }
  declare(out, d, vars);
  const empty = plan.outputs.length === 0 ? "null" : "{} as T.WorkflowOutput";
  const ctx: Ctx = { loops: [], collect: null, block: "flow", plan, nows: new Set(), dialect: DURABLE };
  out.line(d, "try {");
  if (plan.blocks.failure !== null) {
    out.line(d + 1, "try {");
    for (const s of plan.blocks.flow) stmt(out, d + 2, s, ctx);
    out.line(d + 2, `return ${empty};`);
    out.line(d + 1, "} catch (e) {");
    out.line(d + 2, "if (!(e instanceof dd.TaskError)) throw e;");
    otherBlock(out, d + 2, plan, plan.blocks.failure, "failure", DURABLE);
    out.line(d + 2, "throw e;");
    out.line(d + 1, "}");
  } else {
    for (const s of plan.blocks.flow) stmt(out, d + 1, s, ctx);
    out.line(d + 1, `return ${empty};`);
  }
  out.line(d, "} catch (e) {");
  out.line(d + 1, "if (e instanceof dd.Succeeded) return e.outputs as T.WorkflowOutput;");
  out.line(d + 1, "if (e instanceof dd.TaskError) throw dd.failed(e);");
  out.line(d + 1, "throw e;");
  out.line(d, "}");
  out.line(0, "}");
  out.lines.push(
    "",
    "/**",
    " * The Lambda handler of the workflow, with the user's tasks and the `Transport` dandori-written",
    " * tasks send through: `export const handler = makeHandler(myTasks)`.",
    " */",
    "export function makeHandler(own: OwnTasks, transport: io.Transport = io.transport()) {",
    "  const tasks = makeTasks(own, transport);",
    "  return withDurableExecution((input: T.WorkflowInput, dc: DurableContext) => workflow(dc, tasks, input));",
    "}",
  );
  return out.lines.join("\n") + "\n";
}
