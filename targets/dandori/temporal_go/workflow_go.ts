/**
 * `workflow.go`: the flow as one Temporal workflow function, `Workflow` (docs/targets.md#temporal-go),
 * its statements printed by `statements_go.ts`. The run's state is `dd` (`ddStart`: the query
 * `dandori.status`, the Updates `dandori.answer` and `dandori.event`, the signal
 * `dandori.callback`), answered from the run's start, also for a run whose input is refused. The
 * flow, `on failure` and `on cancel` are function literals (`ddFlow`, `ddOnFailure`, `ddOnCancel`)
 * returning their error: `on failure` runs for a task's error only; `on cancel` runs for a cancel,
 * on a context no cancel reaches (`workflow.NewDisconnectedContext`), and the run then ends
 * cancelled. The outermost `repeat` and `for` (not in parallel) continue as new
 * (`ddContinueAt`), each statement before them skipped by a continued run.
 * @module
 */

import { assigned, type Plan, type StmtPlan } from "../../../lang/dandori/plan.ts";
import { ident as tsIdent } from "../typescript/names.ts";
import { goIdent, goStr } from "../go/names.ts";
import { GoOut, imports } from "./go_text.ts";
import { block, declare, forLoop, type GoContinuing, type GoCtx, repeat, stmt } from "./statements_go.ts";

/** The outermost loops that continue as new: `repeat` and `for` not in parallel, at the flow's top. */
function outermost(plan: Plan): Set<number> {
  const out = new Set<number>();
  plan.blocks.flow.forEach((s, i) => {
    if (s.kind === "repeat" || (s.kind === "for" && s.parallel === null)) out.add(i);
  });
  return out;
}

function flowBody(out: GoOut, depth: number, plan: Plan, vars: readonly string[]): boolean {
  const loops = outermost(plan);
  const ctx: GoCtx = { loops: [], collect: null, plan, nows: new Set(), yields: false };
  const ss = plan.blocks.flow;
  if (loops.size === 0) return block(out, depth, ss, ctx);
  // With an outermost loop, each statement runs unless a continued run starts after it; a period
  // check goes with the statement it checks. A continued run's variables are keyed as the
  // TypeScript package keys them, so a run continued by one SDK's worker resumes on another's.
  const carried = vars.map((v) => ({ key: tsIdent(v), local: goIdent(v) }));
  for (let i = 0; i < ss.length; i++) {
    const s = ss[i];
    const group: StmtPlan[] = s.kind === "period" && i + 1 < ss.length ? [s, ss[++i]] : [s];
    const index = i;
    out.line(depth, `if ddFrom <= ${index} {`);
    const inner: GoCtx = { ...ctx, nows: new Set() };
    for (const g of group) {
      const cont: GoContinuing | null = loops.has(index) && g === ss[index] ? { index, vars: carried } : null;
      if (cont !== null && g.kind === "repeat") repeat(out, depth + 1, g, inner, cont);
      else if (cont !== null && g.kind === "for") forLoop(out, depth + 1, g, inner, cont);
      else if (stmt(out, depth + 1, g, inner)) break;
    }
    out.line(depth, "}");
  }
  return false;
}

/** Prints `on failure` or `on cancel` as a function literal. */
function otherBlock(out: GoOut, depth: number, plan: Plan, name: string, ss: readonly StmtPlan[]): void {
  out.line(depth, `${name} := func(ctx workflow.Context) error {`);
  const ctx: GoCtx = { loops: [], collect: null, plan, nows: new Set(), yields: false };
  if (!block(out, depth + 1, ss, ctx)) out.line(depth + 1, "return nil");
  out.line(depth, "}");
}

/** The text of `workflow.go` after its package clause. */
export function workflowModule(plan: Plan): string {
  const out = new GoOut();
  const vars = assigned(plan.blocks.flow, new Map());
  if (plan.blocks.failure !== null) assigned(plan.blocks.failure, vars);
  if (plan.blocks.cancel !== null) assigned(plan.blocks.cancel, vars);
  const flowVars = [...assigned(plan.blocks.flow, new Map()).keys()];
  const empty = plan.outputs.length === 0 ? "ddNone()" : "map[string]any{}";
  const cancel = plan.blocks.cancel !== null;
  out.lines.push(
    imports(
      [],
      cancel
        ? ["go.temporal.io/sdk/temporal", "go.temporal.io/sdk/workflow"]
        : ["go.temporal.io/sdk/workflow"],
    ),
    `// Workflow is the workflow ${goStr(plan.workflow.name)} v${plan.workflow.version}, registered as`,
    "// WorkflowType; a continued run gets resume.",
    "func Workflow(ctx workflow.Context, input any, resume *ddResume) (any, error) {",
  );
  const d = 1;
  out.line(d, `dd, ddErr := ddStart(ctx, []string{${plan.cases.map((c) => goStr(c.name)).join(", ")}})`);
  out.line(d, "if ddErr != nil {");
  out.line(d + 1, "return nil, ddErr");
  out.line(d, "}");
  out.line(d, "if !ddCheckWorkflowInput(input) {");
  out.line(
    d + 1,
    `return nil, ddFail("Dandori.BadInput", "the execution's input does not have the declared shape")`,
  );
  out.line(d, "}");
  out.line(d, "if resume != nil {");
  out.line(d + 1, "dd.resume(resume.Cases)");
  out.line(d, "}");
  if (plan.period !== null) {
    const p = plan.period;
    out.line(d, "if resume == nil {");
    out.line(d + 1, "ddStartedAt := ddStartNow(ctx)");
    out.line(d + 1, `if !ddTimeIn(ddStartedAt, ${goStr(p.first ?? "")}, ${goStr(p.after ?? "")}) {`);
    out.line(
      d + 2,
      `return nil, ddFail("Dandori.OutOfPeriod", ddConcat("the run starts at ", ddStartedAt, ${
        goStr(`, outside the period the workflow runs in, ${p.text}`)
      }))`,
    );
    out.line(d + 1, "}");
    out.line(d, "}");
  }
  for (const i of plan.inputs) out.line(d, `${goIdent(i.name)} := ddField(input, ${goStr(i.name)})`);
  if (plan.inputs.length > 0) {
    const names = plan.inputs.map((i) => goIdent(i.name));
    out.line(d, `${names.map(() => "_").join(", ")} = ${names.join(", ")}`);
  }
  declare(out, d, [...vars.keys()].filter((v) => !plan.inputs.some((i) => i.name === v)));
  if (outermost(plan).size > 0) {
    out.line(d, "ddFrom := 0");
    out.line(d, "if resume != nil {");
    out.line(d + 1, "ddFrom = resume.At");
    for (const v of flowVars) out.line(d + 1, `${goIdent(v)} = resume.Vars[${goStr(tsIdent(v))}]`);
    out.line(d, "}");
  }
  out.line(d, "ddFlow := func(ctx workflow.Context) error {");
  if (!flowBody(out, d + 1, plan, flowVars)) out.line(d + 1, "return nil");
  out.line(d, "}");
  if (plan.blocks.failure !== null) otherBlock(out, d, plan, "ddOnFailure", plan.blocks.failure);
  if (plan.blocks.cancel !== null) otherBlock(out, d, plan, "ddOnCancel", plan.blocks.cancel);
  out.line(d, "ddErr = ddFlow(ctx)");
  if (plan.blocks.failure !== null) {
    out.line(d, "if ddIsTaskError(ddErr) {");
    out.line(d + 1, "if ddOther := ddOnFailure(ctx); ddOther != nil {");
    out.line(d + 2, "ddErr = ddOther");
    out.line(d + 1, "}");
    out.line(d, "}");
  }
  if (cancel) {
    out.line(d, "if temporal.IsCanceledError(ddErr) {");
    out.line(d + 1, "ctx, _ := workflow.NewDisconnectedContext(ctx)");
    out.line(d + 1, "if ddOther := ddOnCancel(ctx); ddOther != nil {");
    out.line(d + 2, `return ddEnd(ddOther, ${empty})`);
    out.line(d + 1, "}");
    out.line(d + 1, "return nil, ddErr");
    out.line(d, "}");
  }
  out.line(d, `return ddEnd(ddErr, ${empty})`);
  out.line(0, "}");
  return out.lines.join("\n") + "\n";
}
