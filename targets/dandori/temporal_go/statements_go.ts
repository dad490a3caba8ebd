/**
 * The statements of a flow as Go, for `workflow.go` (docs/targets.md#temporal-go), printed
 * statement by statement from the plan. Every value is JSON (`any`); every block runs in a
 * function that returns its error, so an ending is a `return`:
 *
 * | statement | code |
 * |---|---|
 * | call | a `{ … }` block: `ddAttempt` over one attempt (the activity, the child workflow, the callback or the event); its handlers an `if` chain over the error by name (`ddTakes`), none taking it returns it; else the answer's check (`Dandori.BadResponse`), then the variable or the case; before an `http` call whose values go into its URL's path, `Dandori.BadInput` when they make a segment `.` or `..` (`ddHasDotSegment`) |
 * | `match` | an `if` chain; no arm: `Dandori.UnexpectedValue` / `Dandori.UnexpectedState` |
 * | `repeat`, `for` | `for` loops counting from 1 for keys; `break` is Go's, since no `switch` is written |
 * | `for … in parallel` | `ddRounds`, each iteration a function literal with its own variables |
 * | `wait`, `wait until`, `now` | `workflow.Sleep`, `ddWaitUntil`, `ddNow` (the workflow's own clock) |
 * | `succeed`, `fail` | `return &ddSucceeded{…}`, `return ddFail(…)` |
 *
 * A statement after one that ends its block (a `return`, a `break`, a `match` whose every arm
 * ends) is never reached, and is not written: `go vet` says where code cannot be reached.
 * `now` is read once before a statement that reads it (`ddNow_<place>`), as every platform does.
 * @module
 */

import { assert, unreachable } from "../../../lang/common/assert.ts";
import {
  type ArmCondition,
  type CallPlan,
  type ExprPlan,
  iterationVariables,
  type Plan,
  readsNow,
  stmtExprs,
  type StmtPlan,
  taskOf,
  type TaskPlan,
  type TimeoutPlan,
  valueInUrlPath,
} from "../../../lang/dandori/plan.ts";
import { dotSegmentReason } from "../../../lang/dandori/rules.ts";
import { goIdent, goStr } from "../go/names.ts";
import { goUrlOf } from "./activities_go.ts";
import type { GoOut } from "./go_text.ts";
import { goCheck } from "./types_go.ts";
import { activitySeconds, childWorkflow } from "../temporal/wire.ts";

/** What is in scope where a statement is printed. */
export interface GoCtx {
  /** The loops around, outermost first: their places and counters. */
  readonly loops: readonly { readonly place: string; readonly counter: string }[];
  /** Where a `yield` appends to. */
  readonly collect: string | null;
  readonly plan: Plan;
  /** The `ddNow_<place>` declared in the block being printed. */
  readonly nows: Set<string>;
  /** Whether the function around returns yields and an error (a parallel iteration), or only an error. */
  readonly yields: boolean;
}

/** A generated local of a statement: `dd<what>_<place>`. */
function local(what: string, place: string): string {
  return `dd${what}_${place}`;
}

/** A `return` of an error from the function around. */
function ret(ctx: GoCtx, error: string): string {
  return ctx.yields ? `return nil, ${error}` : `return ${error}`;
}

// ---------------------------------------------------------------------------------------------
// Expressions

/** A case's record, or a field of it: none until the case starts. */
function caseRead(name: string, path: readonly string[]): string {
  const record = `dd.cases[${goStr(name)}]`;
  assert(path.length <= 1, "a case's record is read one field deep");
  return path.length === 0 ? record : `ddField(${record}, ${goStr(path[0])})`;
}

/** An expression's code (a JSON value); `place` names the statement whose `ddNow_<place>` `now` reads. */
function expr(e: ExprPlan, place: string): string {
  switch (e.kind) {
    case "read": {
      if (e.from === "case") return caseRead(e.name, e.path.map((p) => p.field));
      let code = goIdent(e.name);
      for (const p of e.path) code = `ddField(${code}, ${goStr(p.field)})`;
      return code;
    }
    case "int":
      assert(Number.isSafeInteger(Number(e.value)), `the number ${e.value} is a safe integer`);
      return e.value;
    case "string":
      if (e.parts.length === 0) return '""';
      if (e.parts.length === 1 && "text" in e.parts[0]) return goStr(e.parts[0].text);
      return `ddConcat(${e.parts.map((p) => "text" in p ? goStr(p.text) : expr(p.value, place)).join(", ")})`;
    case "bool":
      return String(e.value);
    case "enum":
      return goStr(e.value);
    case "none":
      return "nil";
    case "now":
      return local("Now", place);
    case "record":
      return `map[string]any{${e.fields.map((f) => `${goStr(f.name)}: ${expr(f.value, place)}`).join(", ")}}`;
    case "list":
      return `[]any{${e.items.map((i) => expr(i, place)).join(", ")}}`;
    default:
      return unreachable(e, "expression");
  }
}

// ---------------------------------------------------------------------------------------------
// Variables

/** Declares variables, each read once so that Go never calls one only assigned unused. */
export function declare(out: GoOut, depth: number, names: Iterable<string>): void {
  const all = [...names].map(goIdent);
  for (const n of all) out.line(depth, `var ${n} any`);
  if (all.length > 0) out.line(depth, `${all.map(() => "_").join(", ")} = ${all.join(", ")}`);
}

// ---------------------------------------------------------------------------------------------
// Statements

/** Prints a block's statements up to the first that ends it; true when one does. */
export function block(out: GoOut, depth: number, ss: readonly StmtPlan[], ctx: GoCtx): boolean {
  const inner: GoCtx = { ...ctx, nows: new Set() };
  for (const s of ss) {
    if (stmt(out, depth, s, inner)) return true;
  }
  return false;
}

function nowFor(out: GoOut, depth: number, place: string, ctx: GoCtx): void {
  if (ctx.nows.has(place)) return;
  ctx.nows.add(place);
  out.line(depth, `${local("Now", place)} := ddNow(ctx)`);
}

/** Prints one statement; true when nothing after it in its block is reached. */
export function stmt(out: GoOut, depth: number, s: StmtPlan, ctx: GoCtx): boolean {
  if (stmtExprs(s).some(readsNow)) nowFor(out, depth, s.place, ctx);
  switch (s.kind) {
    case "call":
      call(out, depth, s, s.call, ctx);
      return false;
    case "let":
      out.line(depth, `${goIdent(s.name)} = ${expr(s.value, s.place)}`);
      return false;
    case "match":
      return match(out, depth, s, ctx);
    case "wait":
      out.line(depth, `dd.at = ${s.line}`);
      out.line(depth, `if ddE := workflow.Sleep(ctx, ddTimer(${s.seconds})); ddE != nil {`);
      out.line(depth + 1, ret(ctx, "ddE"));
      out.line(depth, "}");
      return false;
    case "wait until":
      out.line(depth, `dd.at = ${s.line}`);
      out.line(depth, `if ddE := ddWaitUntil(ctx, ${expr(s.at, s.place)}); ddE != nil {`);
      out.line(depth + 1, ret(ctx, "ddE"));
      out.line(depth, "}");
      return false;
    case "repeat":
      repeat(out, depth, s, ctx, null);
      return false;
    case "for":
      if (s.parallel === null) forLoop(out, depth, s, ctx, null);
      else parallel(out, depth, s, ctx);
      return false;
    case "yield":
      assert(ctx.collect !== null, "a `yield` is inside a collecting loop");
      out.line(depth, `${ctx.collect} = append(${ctx.collect}, ${expr(s.value, s.place)})`);
      return false;
    case "break":
      assert(ctx.loops.length > 0, "a `break` is inside a loop");
      out.line(depth, "break");
      return true;
    case "pass":
      out.line(depth, "// pass");
      return false;
    case "succeed":
      succeed(out, depth, s, ctx);
      return true;
    case "fail":
      out.line(
        depth,
        ret(ctx, `ddFail(${goStr(s.error)}, ${s.reason === null ? "nil" : expr(s.reason, s.place)})`),
      );
      return true;
    case "period":
      period(out, depth, s, ctx);
      return false;
    default:
      return unreachable(s, "statement");
  }
}

function succeed(out: GoOut, depth: number, s: Extract<StmtPlan, { kind: "succeed" }>, ctx: GoCtx): void {
  if (ctx.plan.outputs.length === 0) return out.line(depth, ret(ctx, "&ddSucceeded{Outputs: ddNone()}"));
  const given = new Map(s.outputs.map((o) => [o.name, o.value]));
  const fields = ctx.plan.outputs.map((o) => {
    const e = given.get(o.name);
    return `${goStr(o.name)}: ${e === undefined ? "nil" : expr(e, s.place)}`;
  });
  out.line(depth, ret(ctx, `&ddSucceeded{Outputs: map[string]any{${fields.join(", ")}}}`));
}

function period(out: GoOut, depth: number, s: Extract<StmtPlan, { kind: "period" }>, ctx: GoCtx): void {
  const p = ctx.plan.period;
  assert(p !== null, "a period check is in a flow with a period");
  nowFor(out, depth, s.before, ctx);
  const now = local("Now", s.before);
  out.line(depth, `if !ddTimeIn(${now}, ${goStr(p.first ?? "")}, ${goStr(p.after ?? "")}) {`);
  const reason = `ddConcat(${goStr(`line ${s.line}: now is `)}, ${now}, ${
    goStr(`, outside the period the workflow runs in, ${p.text}`)
  })`;
  out.line(
    depth + 1,
    ret(ctx, `&ddTaskError{Kind: "Dandori.OutOfPeriod", Failure: "Dandori.OutOfPeriod", Reason: ${reason}}`),
  );
  out.line(depth, "}");
}

function loopsOf(c: CallPlan, ctx: GoCtx): string {
  const counters = c.loops.map((place) => {
    const l = ctx.loops.find((x) => x.place === place);
    assert(l !== undefined, `the loop ${place} around the call is in scope`);
    return l.counter;
  });
  return `[]int{${counters.join(", ")}}`;
}

function waitOf(t: TimeoutPlan | null, args: string): string {
  if (t === null) return "ddWait{Seconds: ddAnswerWaitSeconds}";
  if (t.kind === "after") return `ddWait{Seconds: ${t.seconds}}`;
  return `ddWait{Until: ${args}[${goStr(t.param)}], UntilGiven: true}`;
}

/** The function literal of one attempt, over the attempt's number `n`, as lines. */
function attemptLines(task: TaskPlan, args: string, place: string, loops: string): string[] {
  const callee = task.callee;
  const open = "func(ctx workflow.Context, n int) (any, error) {";
  const key = task.key !== null ? `Key: ddKey(ctx, ${goStr(place)}, ${loops})` : "";
  switch (callee.kind) {
    case "event":
      return [open, `\treturn dd.awaitEvent(ctx, ${goStr(task.name)}, ${waitOf(task.timeout, args)})`, "}"];
    case "flow":
    case "child": {
      const child = childWorkflow(task);
      const seconds = task.timeout?.kind === "after" ? String(task.timeout.seconds) : "0";
      return [
        open,
        `\treturn ddChild(ctx, ${goStr(child.type)}, ddChildID(ctx, ${goStr(place)}, ${loops}, n), ${
          goStr(child.queue ?? "")
        }, ddChildTimeout(${seconds}), ${args})`,
        "}",
      ];
    }
    case "lambda":
    case "http":
    case "aws":
    case "book":
    case "own":
    case "agent": {
      if (task.callback !== null) {
        const fields = [key, "CallbackID: ddID"].filter((f) => f !== "").join(", ");
        return [
          open,
          `\tddID := ddCallbackID(ctx, ${goStr(place)}, ${loops}, n)`,
          `\treturn dd.awaitCallback(ctx, ddID, ${waitOf(task.timeout, args)}, func() (any, error) {`,
          `\t\treturn ddActivity(ctx, ${goStr(task.name)}, ddHandOn, ${args}, Call{${fields}})`,
          "\t})",
          "}",
        ];
      }
      return [
        open,
        `\treturn ddActivity(ctx, ${goStr(task.name)}, ddActivityTimeout(${
          activitySeconds(task)
        }), ${args}, Call{${key}})`,
        "}",
      ];
    }
    default:
      return unreachable(callee, "callee");
  }
}

function retriers(task: TaskPlan): string {
  const rs = task.retry.map((r) =>
    `{Errors: []string{${
      r.errors.map(goStr).join(", ")
    }}, MaxAttempts: ${r.maxAttempts}, IntervalSeconds: ${r.intervalSeconds}, Backoff: ${r.backoff}}`
  );
  return `[]ddRetrier{${rs.join(", ")}}`;
}

/** Whether the answer is read after the call: checked, bound, or a book's. */
function readsAnswer(s: Extract<StmtPlan, { kind: "call" }>, task: TaskPlan): boolean {
  const checked = task.result !== null && goCheck(task.result.type, task.result.range, "v") !== null;
  return task.callee.kind === "book" || checked || s.bind !== null;
}

/** Whether the call's arguments are read: by its attempt, by the record a book's operation leaves, or by the check of its URL's path. */
function readsArgs(task: TaskPlan, attempt: readonly string[], args: string): boolean {
  return (task.callee.kind === "book" && task.callee.op !== "do") || valueInUrlPath(task.callee) ||
    attempt.some((l) => l.includes(args));
}

function call(
  out: GoOut,
  depth: number,
  s: Extract<StmtPlan, { kind: "call" }>,
  c: CallPlan,
  ctx: GoCtx,
): void {
  const task = taskOf(ctx.plan, c.task);
  const args = local("Args", s.place);
  const got = readsAnswer(s, task) ? local("Got", s.place) : "_";
  const err = local("Err", s.place);
  const d = depth + 1;
  const attempt = attemptLines(task, args, s.place, loopsOf(c, ctx));
  out.line(depth, "{");
  if (readsArgs(task, attempt, args)) {
    out.line(
      d,
      `${args} := map[string]any{${
        c.args.map((a) => `${goStr(a.name)}: ${expr(a.value, s.place)}`).join(", ")
      }}`,
    );
  }
  if (task.callee.kind === "http" && valueInUrlPath(task.callee)) {
    out.line(d, `if ddHasDotSegment(${goUrlOf(task.callee, args)}) {`);
    out.line(d + 1, ret(ctx, `ddFail("Dandori.BadInput", ${goStr(dotSegmentReason(s.line, task.name))})`));
    out.line(d, "}");
  }
  out.line(d, `dd.at = ${s.line}`);
  const rule = `ddRule{Line: ${s.line}, Task: ${goStr(task.name)}, Errors: []string{${
    task.errors.map((e) => goStr(e.name)).join(", ")
  }}, Retry: ${retriers(task)}}`;
  out.line(d, `${got}, ${err} := ddAttempt(ctx, ${rule}, ${attempt[0]}`);
  for (const l of attempt.slice(1, -1)) out.line(d, l);
  out.line(d, `${attempt[attempt.length - 1]})`);
  out.line(d, `if ${err} != nil {`);
  if (c.handlers.length === 0) {
    out.line(d + 1, ret(ctx, err));
    out.line(d, "}");
    result(out, d, s, task, args, got, ctx);
  } else {
    c.handlers.forEach((h, i) => {
      out.line(d + 1, `${i === 0 ? "if" : "} else if"} ddTakes(${err}, ${h.errors.map(goStr).join(", ")}) {`);
      block(out, d + 2, h.body, ctx);
    });
    out.line(d + 1, "} else {");
    out.line(d + 2, ret(ctx, err));
    out.line(d + 1, "}");
    out.line(d, "} else {");
    result(out, d + 1, s, task, args, got, ctx);
    out.line(d, "}");
  }
  out.line(depth, "}");
}

/** The answer's check and where it goes: a variable, or a case with the record the book operation leaves. */
function result(
  out: GoOut,
  depth: number,
  s: Extract<StmtPlan, { kind: "call" }>,
  task: TaskPlan,
  args: string,
  got: string,
  ctx: GoCtx,
): void {
  out.line(depth, "dd.at = 0");
  const bad = ret(
    ctx,
    `ddFail("Dandori.BadResponse", ${
      goStr(`line ${s.line}: the answer from ${task.name} does not have the declared shape`)
    })`,
  );
  const callee = task.callee;
  let value: string;
  if (callee.kind === "book") {
    out.line(depth, `if !ddBookDone(${got}) {`);
    out.line(depth + 1, bad);
    out.line(depth, "}");
    const state = callee.op === "hold" ? "held" : callee.op === "post" ? "posted" : "voided";
    const fields = [
      ...callee.key.map((k) => `${goStr(k)}: ${args}[${goStr(k)}]`),
      `"state": ${goStr(state)}`,
    ];
    value = callee.op === "do" ? "nil" : `map[string]any{${fields.join(", ")}}`;
  } else {
    const check = task.result === null ? null : goCheck(task.result.type, task.result.range, got);
    if (check !== null) {
      out.line(depth, `if !${check} {`);
      out.line(depth + 1, bad);
      out.line(depth, "}");
    }
    value = got;
  }
  const bind = s.bind;
  if (bind === null) return;
  if (bind.kind === "let") return out.line(depth, `${goIdent(bind.name)} = ${value}`);
  assert(ctx.plan.cases.some((x) => x.name === bind.name), `the case ${bind.name} is the plan's`);
  out.line(depth, `dd.cases[${goStr(bind.name)}] = ${value}`);
  out.line(depth, "if ddE := dd.showCases(ctx); ddE != nil {");
  out.line(depth + 1, ret(ctx, "ddE"));
  out.line(depth, "}");
}

function conditionCode(c: ArmCondition, subject: string): string {
  switch (c.kind) {
    case "values":
      return c.values.map((v) => `${subject} == ${v === "true" || v === "false" ? v : goStr(v)}`).join(
        " || ",
      );
    case "none":
      return `${subject} == nil`;
    case "some":
      return `${subject} != nil`;
    default:
      return unreachable(c, "arm condition");
  }
}

function match(out: GoOut, depth: number, s: Extract<StmtPlan, { kind: "match" }>, ctx: GoCtx): boolean {
  const m = local("M", s.place);
  const subject = s.subject.kind === "case"
    ? `ddField(dd.cases[${goStr(s.subject.case)}], "state")`
    : expr(s.subject.value, s.place);
  out.line(depth, `${m} := ${subject}`);
  let ends = true;
  s.arms.forEach((arm, i) => {
    const cond = arm.conditions.map((c) => conditionCode(c, m)).join(" || ");
    out.line(depth, `${i === 0 ? "if" : "} else if"} ${cond} {`);
    for (const c of arm.conditions) if (c.kind === "some") out.line(depth + 1, `${goIdent(c.bind)} = ${m}`);
    if (!block(out, depth + 1, arm.body, ctx)) ends = false;
  });
  const error = s.subject.kind === "case" ? "Dandori.UnexpectedState" : "Dandori.UnexpectedValue";
  out.line(depth, "} else {");
  out.line(
    depth + 1,
    ret(
      ctx,
      `ddFail(${goStr(error)}, ddConcat(${
        goStr(`line ${s.line}: no arm of the match takes `)
      }, ddJSON(ddOr(${m}, "none"))))`,
    ),
  );
  out.line(depth, "}");
  return ends;
}

/** How an outermost loop continues as new: its index among the flow's statements and the variables carried. */
export interface GoContinuing {
  readonly index: number;
  /** Each variable carried: its key in `resume.vars` and its local. */
  readonly vars: readonly { readonly key: string; readonly local: string }[];
}

function resumed(c: GoContinuing): string {
  return `ddFrom == ${c.index} && resume != nil`;
}

/** The first iteration: 1, or the one a continued run starts from. */
function firstIteration(out: GoOut, depth: number, place: string, c: GoContinuing | null): string {
  if (c === null) return "1";
  const first = local("First", place);
  out.line(depth, `${first} := 1`);
  out.line(depth, `if ${resumed(c)} {`);
  out.line(depth + 1, `${first} = resume.Iteration`);
  out.line(depth, "}");
  out.line(depth, `${local("Ran", place)} := 0`);
  return first;
}

function continueLines(
  out: GoOut,
  depth: number,
  c: GoContinuing,
  place: string,
  counter: string,
  extra: readonly string[],
): void {
  const vars = [...c.vars.map((v) => `${goStr(v.key)}: ${v.local}`), ...extra];
  out.line(depth, `if ddContinuing(ctx, ${local("Ran", place)}) {`);
  out.line(
    depth + 1,
    `return dd.continueFrom(ctx, input, ddResume{At: ${c.index}, Iteration: ${counter}, Vars: map[string]any{${
      vars.join(", ")
    }}})`,
  );
  out.line(depth, "}");
  out.line(depth, `${local("Ran", place)}++`);
}

export function repeat(
  out: GoOut,
  depth: number,
  s: Extract<StmtPlan, { kind: "repeat" }>,
  ctx: GoCtx,
  cont: GoContinuing | null,
): void {
  const i = local("I", s.place);
  const first = firstIteration(out, depth, s.place, cont);
  out.line(depth, `for ${i} := ${first}; ${i} <= ${s.atMost}; ${i}++ {`);
  if (cont !== null) continueLines(out, depth + 1, cont, s.place, i, []);
  block(out, depth + 1, s.body, { ...ctx, loops: [...ctx.loops, { place: s.place, counter: i }] });
  out.line(depth, "}");
}

function tooMany(out: GoOut, depth: number, line: number, list: string, most: number, ctx: GoCtx): void {
  out.line(depth, `if len(${list}) > ${most} {`);
  out.line(
    depth + 1,
    ret(
      ctx,
      `ddFail("Dandori.TooManyItems", ddConcat(${goStr(`line ${line}: the list has `)}, len(${list}), ${
        goStr(` items, more than the ${most} the loop takes`)
      }))`,
    ),
  );
  out.line(depth, "}");
}

export function forLoop(
  out: GoOut,
  depth: number,
  s: Extract<StmtPlan, { kind: "for" }>,
  ctx: GoCtx,
  cont: GoContinuing | null,
): void {
  const list = local("List", s.place);
  const yields = local("Yields", s.place);
  const i = local("I", s.place);
  const d = depth + 1;
  out.line(depth, "{");
  if (cont === null) {
    out.line(d, `${list} := ddList(${expr(s.list, s.place)})`);
    tooMany(out, d, s.line, list, s.atMost, ctx);
    out.line(d, `${yields} := []any{}`);
  } else {
    out.line(d, `var ${list} []any`);
    out.line(d, `${yields} := []any{}`);
    out.line(d, `if ${resumed(cont)} {`);
    out.line(d + 1, `${list} = ddList(resume.Vars["dd_list"])`);
    out.line(d + 1, `${yields} = ddList(resume.Vars["dd_yields"])`);
    out.line(d, "} else {");
    out.line(d + 1, `${list} = ddList(${expr(s.list, s.place)})`);
    tooMany(out, d + 1, s.line, list, s.atMost, ctx);
    out.line(d, "}");
  }
  const first = firstIteration(out, d, s.place, cont);
  out.line(d, `for ${i} := ${first}; ${i} <= len(${list}); ${i}++ {`);
  if (cont !== null) {
    continueLines(out, d + 1, cont, s.place, i, [`"dd_list": ${list}`, `"dd_yields": ${yields}`]);
  }
  out.line(d + 1, `${goIdent(s.variable)} = ${list}[${i}-1]`);
  block(out, d + 1, s.body, {
    ...ctx,
    loops: [...ctx.loops, { place: s.place, counter: i }],
    collect: yields,
  });
  out.line(d, "}");
  out.line(d, s.collect !== null ? `${goIdent(s.collect.name)} = ${yields}` : `_ = ${yields}`);
  out.line(depth, "}");
}

function parallel(out: GoOut, depth: number, s: Extract<StmtPlan, { kind: "for" }>, ctx: GoCtx): void {
  assert(s.parallel !== null, "a parallel loop");
  const list = local("List", s.place);
  const i = local("I", s.place);
  const yields = local("Yields", s.place);
  const got = s.collect === null ? "_" : local("Got", s.place);
  const err = local("Err", s.place);
  const d = depth + 1;
  out.line(depth, "{");
  out.line(d, `${list} := ddList(${expr(s.list, s.place)})`);
  tooMany(out, d, s.line, list, s.atMost, ctx);
  const k = s.parallel.atATime === null ? `len(${list})` : String(s.parallel.atATime);
  out.line(
    d,
    `${got}, ${err} := ddRounds(ctx, ${k}, ${list}, func(ctx workflow.Context, ${
      goIdent(s.variable)
    } any, ${i} int) ([]any, error) {`,
  );
  out.line(d + 1, `${yields} := []any{}`);
  out.line(d + 1, `_ = ${yields}`);
  // The iteration's own variable is its parameter, also where a loop inside takes its name.
  declare(out, d + 1, iterationVariables(s).keys());
  const inner: GoCtx = {
    ...ctx,
    loops: [...ctx.loops, { place: s.place, counter: i }],
    collect: yields,
    yields: true,
  };
  if (!block(out, d + 1, s.body, inner)) out.line(d + 1, `return ${yields}, nil`);
  out.line(d, "})");
  out.line(d, `if ${err} != nil {`);
  out.line(d + 1, ret(ctx, err));
  out.line(d, "}");
  if (s.collect !== null) out.line(d, `${goIdent(s.collect.name)} = ${got}`);
  out.line(depth, "}");
}
