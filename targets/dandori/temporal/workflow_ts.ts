/**
 * `workflow.ts`: the flow as one Temporal workflow function (docs/targets.md#temporal-typescript), its statements printed by
 * `../typescript/statements.ts` in Temporal's dialect:
 *
 * | statement | code |
 * |---|---|
 * | call | `dd.attempt` over the activity, the child workflow, the callback or the event |
 * | `wait`, `wait until`, `now` | `wf.sleep`, `dd.waitUntil`, `dd.now()` (the workflow's own clock) |
 * | `repeat`, `for` | the outermost ones continue as new (`dd.CONTINUE_AT`) |
 * | `for … in parallel` | `dd.rounds`, each iteration a closure with its own variables |
 * | `on failure`, `on cancel` | a `catch` of `dd.TaskError`; `on cancel` in `CancellationScope.nonCancellable` |
 * @module
 */

import { assert, unreachable } from "../../../lang/common/assert.ts";
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
  forLoop,
  lookupType,
  maybeMissing,
  otherBlock,
  Out,
  repeat,
  stmt,
  taskTables,
  tooMany,
  waitOf,
} from "../typescript/statements.ts";
import { tsType } from "../typescript/types_ts.ts";
import { activitySeconds, childWorkflow } from "./wire.ts";

/** One attempt of a call: a closure over the attempt's number `n`. */
function attemptCode(
  task: TaskPlan,
  args: string,
  place: string,
  loops: string,
): string {
  const callee = task.callee;
  const meta = (id: string | null) => {
    const parts = [
      ...(task.key !== null ? [`key: dd.key(${str(place)}, ${loops})`] : []),
      ...(id !== null ? [`callback_id: ${id}`] : []),
    ];
    return parts.length === 0 ? "{}" : `{ ${parts.join(", ")} }`;
  };
  switch (callee.kind) {
    case "event":
      return `() => dd.awaitEvent(${str(task.name)}, ${waitOf(task.timeout, args)})`;
    case "flow":
    case "child": {
      const { type, queue } = childWorkflow(task);
      const seconds = task.timeout?.kind === "after" ? String(task.timeout.seconds) : "null";
      return `(n) => wf.executeChild(${str(type)}, { workflowId: dd.childId(${str(place)}, ${loops}, n), ${
        queue === null ? "" : `taskQueue: ${str(queue)}, `
      }args: [${args}], ...dd.childTimeout(${seconds}) })`;
    }
    case "lambda":
    case "http":
    case "aws":
    case "book":
    case "own":
    case "agent":
      if (task.callback !== null) {
        return `(n) => {\n  const id = dd.callbackId(${
          str(place)
        }, ${loops}, n);\n  return dd.awaitCallback(id, ${waitOf(task.timeout, args)}, () => ${
          read("A", task.name)
        }(${args}, ${meta("id")}));\n}`;
      }
      return `() => ${read("A", task.name)}(${args}, ${meta(null)})`;
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
    `${assign}await dd.rounds(${k}, ${list}, async (${ident(s.variable)}: ${elem}, ${i}: number) => {`,
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
/** How Temporal runs the statements that differ between the targets. */
const TEMPORAL: Dialect = {
  now: () => "dd.now()",
  wait: (line, seconds) => [`dd.where.at = ${line};`, `await wf.sleep(dd.ms(${seconds}));`],
  waitUntil: (line, at) => [`dd.where.at = ${line};`, `await dd.waitUntil(${at});`],
  attempt: (task, args, place, loops) => attemptCode(task, args, place, loops),
  attemptFirst: "",
  where: true,
  showCases: true,
  parallel,
};

// ---------------------------------------------------------------------------------------------
// The module

/** The outermost loops that continue as new: `repeat` and `for` not in parallel, at the flow's top. */
function outermost(plan: Plan): Set<number> {
  const out = new Set<number>();
  plan.blocks.flow.forEach((s, i) => {
    if (s.kind === "repeat" || (s.kind === "for" && s.parallel === null)) out.add(i);
  });
  return out;
}

function flowBody(out: Out, depth: number, plan: Plan, vars: readonly string[]): void {
  const loops = outermost(plan);
  const ctx: Ctx = { loops: [], collect: null, block: "flow", plan, nows: new Set(), dialect: TEMPORAL };
  const ss = plan.blocks.flow;
  if (loops.size === 0) {
    for (const s of ss) stmt(out, depth, s, ctx);
    return;
  }
  // With an outermost loop, each statement runs unless a continued run starts after it; a period
  // check goes with the statement it checks.
  for (let i = 0; i < ss.length; i++) {
    const s = ss[i];
    const group = s.kind === "period" && i + 1 < ss.length ? [s, ss[++i]] : [s];
    const index = i;
    out.line(depth, `if (dd_from <= ${index}) {`);
    const inner: Ctx = { ...ctx, nows: new Set() };
    for (const g of group) {
      const cont = loops.has(index) && g === ss[index] ? { index, vars } : null;
      if (cont !== null && g.kind === "repeat") repeat(out, depth + 1, g, inner, cont);
      else if (cont !== null && g.kind === "for") forLoop(out, depth + 1, g, inner, cont);
      else stmt(out, depth + 1, g, inner);
    }
    out.line(depth, "}");
  }
}

function proxies(plan: Plan): string[] {
  const activities = plan.tasks.filter((t) => !["flow", "child", "event"].includes(t.callee.kind));
  if (activities.length === 0) return [];
  const lines = [
    "/** Each activity with its timeouts; Temporal tries it once, the workflow retries. */",
    "const A = {",
  ];
  for (const t of activities) {
    const start = t.callback !== null ? "dd.HAND_ON_MS" : `dd.activityMs(${activitySeconds(t)})`;
    lines.push(
      `  ${
        prop(t.name)
      }: wf.proxyActivities<Activities>({ startToCloseTimeout: ${start}, heartbeatTimeout: dd.HEARTBEAT_TIMEOUT_MS, retry: { maximumAttempts: 1 } })${
        read("", t.name)
      },`,
    );
  }
  lines.push("};");
  return lines;
}

/** The text of `workflow.ts` after its header. */
export function workflowModule(plan: Plan, type: string): string {
  const out = new Out();
  const vars = assigned(plan.blocks.flow, new Map());
  if (plan.blocks.failure !== null) assigned(plan.blocks.failure, vars);
  if (plan.blocks.cancel !== null) assigned(plan.blocks.cancel, vars);
  const flowVars = [...assigned(plan.blocks.flow, new Map()).keys()];
  out.lines.push(
    'import * as wf from "@temporalio/workflow";',
    'import type { Activities } from "./activities.ts";',
    'import * as dd from "./runtime.ts";',
    'import * as T from "./types.ts";',
    "",
    "/** Where the workflow is: the line it waits at, each case's record, the events it waits for. */",
    "export interface Status {",
    "  readonly at: number | null;",
    "  readonly cases: { readonly [name: string]: unknown };",
    "  readonly events: readonly string[];",
    "}",
    "",
    'export const status = wf.defineQuery<Status>("dandori.status");',
    'export const answer = wf.defineUpdate<boolean, [{ readonly id: string } & dd.Answer]>("dandori.answer");',
    'export const event = wf.defineUpdate<boolean, [{ readonly event: string } & dd.Answer]>("dandori.event");',
    'export const callback = wf.defineSignal<[{ readonly id: string } & dd.Answer]>("dandori.callback");',
    "",
    ...taskTables(plan),
    "",
    ...proxies(plan),
    "",
    `/** The workflow ${plan.workflow.name} v${plan.workflow.version}; a continued run gets \`resume\`. */`,
    `export async function ${type}(input: T.WorkflowInput, resume?: dd.Resume): Promise<T.WorkflowOutput> {`,
  );
  const d = 1;
  out.line(
    d,
    `const cases: ${casesType(plan)} = { ${plan.cases.map((c) => `${prop(c.name)}: null`).join(", ")} };`,
  );
  out.line(
    d,
    "wf.setHandler(status, () => ({ at: dd.where.at, cases: { ...cases }, events: dd.awaitedEvents() }));",
  );
  out.line(d, "wf.setHandler(answer, dd.takeAnswer, { validator: dd.validateAnswer });");
  out.line(d, "wf.setHandler(event, dd.takeEvent, { validator: dd.validateEvent });");
  out.line(d, "wf.setHandler(callback, dd.takeSignal);");
  out.line(d, "if (!T.isWorkflowInput(input)) {");
  out.line(
    d + 1,
    `throw dd.fail("Dandori.BadInput", "the execution's input does not have the declared shape");`,
  );
  out.line(d, "}");
  out.line(
    d,
    "if (resume !== undefined) Object.defineProperties(cases, Object.getOwnPropertyDescriptors(resume.cases));",
  );
  if (plan.period !== null) {
    const p = plan.period;
    out.line(d, "if (resume === undefined) {");
    out.line(d + 1, "const dd_start = dd.startNow();");
    out.line(
      d + 1,
      `if (!dd.timeIn(dd_start, ${p.first === null ? "null" : str(p.first)}, ${
        p.after === null ? "null" : str(p.after)
      })) {`,
    );
    out.line(
      d + 2,
      `throw dd.fail("Dandori.OutOfPeriod", "the run starts at " + dd_start + ${
        str(`, outside the period the workflow runs in, ${p.text}`)
      });`,
    );
    out.line(d + 1, "}");
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
  if (outermost(plan).size > 0) {
    out.line(d, "const dd_from = resume?.at ?? 0;");
    for (const v of flowVars) {
      out.line(
        d,
        `if (resume !== undefined) ${ident(v)} = resume.vars[${str(ident(v))}] as ${
          tsType(lookupType(vars, v), "T.")
        };`,
      );
    }
  }
  const empty = plan.outputs.length === 0 ? "null" : "{} as T.WorkflowOutput";
  out.line(d, "try {");
  if (plan.blocks.failure !== null) {
    out.line(d + 1, "try {");
    flowBody(out, d + 2, plan, flowVars);
    out.line(d + 2, `return ${empty};`);
    out.line(d + 1, "} catch (e) {");
    out.line(d + 2, "if (!(e instanceof dd.TaskError)) throw e;");
    otherBlock(out, d + 2, plan, plan.blocks.failure, "failure", TEMPORAL);
    out.line(d + 2, "throw e;");
    out.line(d + 1, "}");
  } else {
    flowBody(out, d + 1, plan, flowVars);
    out.line(d + 1, `return ${empty};`);
  }
  out.line(d, "} catch (e) {");
  out.line(d + 1, "if (e instanceof dd.Succeeded) return e.outputs as T.WorkflowOutput;");
  if (plan.blocks.cancel !== null) {
    out.line(d + 1, "if (dd.isCancellation(e)) {");
    out.line(d + 2, "const cancelled = e;");
    out.line(d + 2, "return await dd.nonCancellable(async () => {");
    out.line(d + 3, "try {");
    otherBlock(out, d + 4, plan, plan.blocks.cancel, "cancel", TEMPORAL);
    out.line(d + 3, "} catch (c) {");
    out.line(d + 4, "if (c instanceof dd.Succeeded) return c.outputs as T.WorkflowOutput;");
    out.line(d + 4, "if (c instanceof dd.TaskError) throw dd.failed(c);");
    out.line(d + 4, "throw c;");
    out.line(d + 3, "}");
    out.line(d + 3, "throw cancelled;");
    out.line(d + 2, "});");
    out.line(d + 1, "}");
  }
  out.line(d + 1, "if (e instanceof dd.TaskError) throw dd.failed(e);");
  out.line(d + 1, "throw e;");
  out.line(d, "}");
  out.line(0, "}");
  return out.lines.join("\n") + "\n";
}
