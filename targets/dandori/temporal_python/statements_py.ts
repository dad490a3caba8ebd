/**
 * The statements of a flow as the Python of a Temporal workflow's `run` (docs/targets.md#temporal-python),
 * printed statement by statement from the plan's structured form, as the TypeScript package's are
 * (`../typescript/statements.ts`) but in Python's shapes:
 *
 * | statement | code |
 * |---|---|
 * | call | `dd.attempt` over the activity, the child workflow, the callback or the event; with handlers, a `try` whose `except dd.TaskError` takes them by name (else `raise`) and whose `else` checks the answer; before an `http` call whose values go into its URL's path, `Dandori.BadInput` when they make a segment `.` or `..` |
 * | result | the type's check (`Dandori.BadResponse`), then the variable or the case |
 * | `match` | an `if` chain; no arm: `Dandori.UnexpectedValue` / `Dandori.UnexpectedState` |
 * | `repeat`, `for` | `for` over a `range`, counting from 1 for keys; `break` is Python's own, the flow's loops being the code's only ones |
 * | `for … in parallel` | an `async def` per iteration with its own variables, `k` at a time (`dd.rounds`) |
 * | `wait`, `wait until`, `now` | `dd.sleep`, `dd.wait_until`, `dd.now()` (the workflow's own clock and timers) |
 * | `succeed`, `fail` | `raise dd.Succeeded(…)`, `raise dd.fail(…)`, so an ending leaves any depth |
 *
 * Values are JSON as they are; a variable is annotated with its type from `types.py`. `now` is read
 * once before a statement that reads it (`dd_now_<place>`), as every platform does. A variable the
 * flow never reads is not written at all (its value, a call's answer among them, is still checked),
 * so the code has no local it assigns and never reads.
 * @module
 */

import { assert, unreachable } from "../../../lang/common/assert.ts";
import {
  type CallPlan,
  type ExprPlan,
  innerLists,
  iterationVariables,
  type Plan,
  readsNow,
  stmtExprs,
  type StmtPlan,
  taskOf,
  type TaskPlan,
  type TimeoutPlan,
  type TypePlan,
  valueInUrlPath,
} from "../../../lang/dandori/plan.ts";
import { dotSegmentReason } from "../../../lang/dandori/rules.ts";
import { conditionCode, end, pyExpr, type PyReads, tooMany, tuple } from "../python/code.ts";
import { argsType, placeName, str } from "../python/names.ts";
import { urlOf } from "../python/task_bodies.ts";
import { checkExpr, pyType } from "../python/types_py.ts";
import { childWorkflow } from "../temporal/wire.ts";
import { ident } from "./names.ts";

/** Lines of Python at an indentation of four spaces a level. */
export class PyOut {
  readonly lines: string[] = [];
  line(depth: number, text: string): void {
    this.lines.push(text === "" ? "" : `${"    ".repeat(depth)}${text}`);
  }
}

/** What is in scope where a statement is printed. */
export interface Ctx {
  /** The loops around, outermost first: their places and counters. */
  readonly loops: readonly { readonly place: string; readonly counter: string }[];
  /** The list a `yield` appends to. */
  readonly collect: string | null;
  readonly plan: Plan;
  /** The `dd_now_<place>` locals read in the block being printed. */
  readonly nows: Set<string>;
  /** The variables the code reads somewhere (`readNames`); the others are never written. */
  readonly reads: ReadonlySet<string>;
}

/** How the workflow's code reads values: a variable is a local, an input a field of `input`, a case a record of `self._state.cases`. */
const READS: PyReads = {
  name: (from, name) =>
    from === "case"
      ? `self._state.cases[${str(name)}]`
      : from === "input"
      ? `dd.field(input, ${str(name)})`
      : ident(name),
  now: (place) => `dd_now_${placeName(place)}`,
};

/** An expression's code; `place` names the statement whose `now` it reads. */
export function expr(e: ExprPlan, place: string): string {
  return pyExpr(e, place, READS);
}

/** A generated local of a statement: `a_s12`, `got_s12` … */
function local(shape: string, place: string): string {
  return `${shape}_${placeName(place)}`;
}

// ---------------------------------------------------------------------------------------------
// Variables

function exprReads(e: ExprPlan, into: Set<string>): void {
  switch (e.kind) {
    case "read":
      if (e.from === "variable") into.add(e.name);
      return;
    case "string":
      for (const p of e.parts) if ("value" in p) exprReads(p.value, into);
      return;
    case "record":
      for (const f of e.fields) exprReads(f.value, into);
      return;
    case "list":
      for (const i of e.items) exprReads(i, into);
      return;
    case "int":
    case "bool":
    case "enum":
    case "none":
    case "now":
      return;
    default:
      return unreachable(e, "expression");
  }
}

/** Every variable some statement of the flow reads (every block, parallel iterations too). */
export function readNames(plan: Plan): Set<string> {
  const out = new Set<string>();
  const walk = (ss: readonly StmtPlan[]) => {
    for (const s of ss) {
      for (const e of stmtExprs(s)) exprReads(e, out);
      for (const inner of innerLists(s)) walk(inner);
    }
  };
  walk(plan.blocks.flow);
  if (plan.blocks.failure !== null) walk(plan.blocks.failure);
  if (plan.blocks.cancel !== null) walk(plan.blocks.cancel);
  return out;
}

/** Whether a loop's body yields (not counting the loops inside it, which collect their own). */
function yieldsIn(ss: readonly StmtPlan[]): boolean {
  return ss.some((s) =>
    s.kind === "yield" || (s.kind !== "for" && innerLists(s).some((inner) => yieldsIn(inner)))
  );
}

/** Declares each variable the code reads with its type, holding `dd.UNSET` until the flow assigns it. */
export function declare(
  out: PyOut,
  depth: number,
  vars: ReadonlyMap<string, TypePlan>,
  reads: ReadonlySet<string>,
): void {
  for (const [name, t] of vars) {
    if (reads.has(name)) out.line(depth, `${ident(name)}: ${pyType(t, "T.")} = dd.UNSET`);
  }
}

// ---------------------------------------------------------------------------------------------
// Statements

/**
 * Prints a block's statements; `pass` when nothing of the block is written from line `before` on
 * (each statement assigns what nothing reads, or the block is the flow's `pass`).
 */
export function block(
  out: PyOut,
  depth: number,
  ss: readonly StmtPlan[],
  ctx: Ctx,
  before: number = out.lines.length,
): void {
  const inner: Ctx = { ...ctx, nows: new Set() };
  for (const s of ss) stmt(out, depth, s, inner);
  if (out.lines.length === before) out.line(depth, "pass");
}

function nowFor(out: PyOut, depth: number, place: string, ctx: Ctx): void {
  if (ctx.nows.has(place)) return;
  ctx.nows.add(place);
  out.line(depth, `${READS.now(place)} = dd.now()`);
}

/** True when a block ends with a statement no code may follow. */
export function endsBlock(ss: readonly StmtPlan[]): boolean {
  const last = ss[ss.length - 1];
  return last !== undefined && (last.kind === "succeed" || last.kind === "fail" || last.kind === "break");
}

export function stmt(out: PyOut, depth: number, s: StmtPlan, ctx: Ctx): void {
  if (s.kind === "let" && !ctx.reads.has(s.name)) return;
  if (stmtExprs(s).some(readsNow)) nowFor(out, depth, s.place, ctx);
  switch (s.kind) {
    case "call":
      return call(out, depth, s, s.call, ctx);
    case "let":
      return out.line(depth, `${ident(s.name)} = ${expr(s.value, s.place)}`);
    case "match":
      return match(out, depth, s, ctx);
    case "wait":
      out.line(depth, `self._state.at = ${s.line}`);
      return out.line(depth, `await dd.sleep(${s.seconds})`);
    case "wait until":
      out.line(depth, `self._state.at = ${s.line}`);
      return out.line(depth, `await dd.wait_until(${expr(s.at, s.place)})`);
    case "repeat":
      return repeat(out, depth, s, ctx, null);
    case "for":
      return s.parallel === null ? forLoop(out, depth, s, ctx, null) : parallel(out, depth, s, ctx);
    case "yield":
      assert(ctx.collect !== null, "a `yield` is inside a collecting loop");
      return out.line(depth, `${ctx.collect}.append(${expr(s.value, s.place)})`);
    case "break":
      assert(ctx.loops.length > 0, "a `break` is inside a loop");
      return out.line(depth, "break");
    case "pass":
      // Python's `pass` only where a block writes nothing else (`block`), as ruff asks.
      return;
    case "succeed":
      return succeed(out, depth, s, ctx);
    case "fail":
      return out.line(
        depth,
        `raise dd.fail(${str(s.error)}, ${s.reason === null ? "None" : expr(s.reason, s.place)})`,
      );
    case "period":
      return period(out, depth, s, ctx);
    default:
      return unreachable(s, "statement");
  }
}

function succeed(out: PyOut, depth: number, s: Extract<StmtPlan, { kind: "succeed" }>, ctx: Ctx): void {
  if (ctx.plan.outputs.length === 0) return out.line(depth, "raise dd.Succeeded(None)");
  const given = new Map(s.outputs.map((o) => [o.name, o.value]));
  const fields = ctx.plan.outputs.map((o) => {
    const e = given.get(o.name);
    return `${str(o.name)}: ${e === undefined ? "None" : expr(e, s.place)}`;
  });
  const outputs = local("out", s.place);
  out.line(depth, `${outputs}: T.WorkflowOutput = {${fields.join(", ")}}`);
  out.line(depth, `raise dd.Succeeded(${outputs})`);
}

function period(out: PyOut, depth: number, s: Extract<StmtPlan, { kind: "period" }>, ctx: Ctx): void {
  const p = ctx.plan.period;
  assert(p !== null, "a period check is in a flow with a period");
  nowFor(out, depth, s.before, ctx);
  const now = READS.now(s.before);
  out.line(depth, `if not dd.time_in(${now}, ${end(p.first)}, ${end(p.after)}):`);
  out.line(
    depth + 1,
    `raise dd.TaskError("Dandori.OutOfPeriod", "Dandori.OutOfPeriod", ${
      str(`line ${s.line}: now is `)
    } + ${now} + ${str(`, outside the period the workflow runs in, ${p.text}`)})`,
  );
}

function loopsOf(c: CallPlan, ctx: Ctx): string {
  const counters = c.loops.map((place) => {
    const l = ctx.loops.find((x) => x.place === place);
    assert(l !== undefined, `the loop ${place} around the call is in scope`);
    return l.counter;
  });
  return `[${counters.join(", ")}]`;
}

/** How long a callback or an event waits: its seconds, or until the deadline its argument gives. */
function waitOf(t: TimeoutPlan | null, args: string): string {
  if (t === null) return "dd.ANSWER_WAIT_SECONDS";
  if (t.kind === "after") return String(t.seconds);
  return `str(${args}.get(${str(t.param)}))`;
}

/** The attempts of a call (`dd.Attempt`): what it starts, made once before its first attempt. */
function attemptCode(task: TaskPlan, args: string, place: string, loops: string): string {
  const callee = task.callee;
  const call = `{${task.key === null ? "" : `"key": dd.key(${str(place)}, ${loops})`}}`;
  switch (callee.kind) {
    case "event":
      return `self._state.event(${str(task.name)}, ${waitOf(task.timeout, args)})`;
    case "flow":
    case "child": {
      const { type, queue } = childWorkflow(task);
      const seconds = task.timeout?.kind === "after" ? String(task.timeout.seconds) : "None";
      return `dd.child(${str(type)}, ${args}, ${str(place)}, ${loops}, ${
        queue === null ? "None" : str(queue)
      }, ${seconds})`;
    }
    case "lambda":
    case "http":
    case "aws":
    case "book":
    case "own":
    case "agent": {
      const timeout = `A[${str(task.name)}]`;
      if (task.callback === null) return `dd.activity(${str(task.name)}, ${args}, ${call}, ${timeout})`;
      return `self._state.callback(${str(place)}, ${loops}, ${waitOf(task.timeout, args)}, ${
        str(task.name)
      }, ${args}, ${call}, ${timeout})`;
    }
    default:
      return unreachable(callee, "callee");
  }
}

/** Whether a call's arguments are read: an event's only for a deadline. */
function argsRead(task: TaskPlan): boolean {
  return task.callee.kind !== "event" || task.timeout?.kind === "until";
}

/** Whether a result's check can fail: a `json` (or `json?`) answer takes every value. */
function checked(t: TypePlan): boolean {
  return t.kind !== "json" && !(t.kind === "optional" && t.inner.kind === "json");
}

function call(out: PyOut, depth: number, s: StmtPlan, c: CallPlan, ctx: Ctx): void {
  assert(s.kind === "call", "a call statement");
  const task = taskOf(ctx.plan, c.task);
  const args = local("a", s.place);
  const got = local("got", s.place);
  const fields = c.args.map((a) => `${str(a.name)}: ${expr(a.value, s.place)}`);
  if (argsRead(task)) out.line(depth, `${args}: T.${argsType(task.name)} = {${fields.join(", ")}}`);
  if (task.callee.kind === "http" && valueInUrlPath(task.callee)) {
    out.line(depth, `if dd.has_dot_segment(${urlOf(task.callee, args)}):`);
    out.line(depth + 1, `raise dd.fail("Dandori.BadInput", ${str(dotSegmentReason(s.line, task.name))})`);
  }
  out.line(depth, `self._state.at = ${s.line}`);
  const rule = `dd.CallRule(${s.line}, ${str(task.name)}, E[${str(task.name)}], R[${str(task.name)}])`;
  const attempt = `await dd.attempt(${rule}, ${attemptCode(task, args, s.place, loopsOf(c, ctx))})`;
  const bound = s.bind !== null && (s.bind.kind === "case" || ctx.reads.has(s.bind.name));
  const read = task.callee.kind === "book" || (task.result !== null && checked(task.result.type)) || bound;
  const answer = read ? `${got} = ${attempt}` : attempt;
  if (c.handlers.length === 0) {
    out.line(depth, answer);
    out.line(depth, "self._state.at = None");
    return result(out, depth, s, task, args, got, ctx);
  }
  out.line(depth, "try:");
  out.line(depth + 1, answer);
  out.line(depth, "except dd.TaskError as e:");
  chain(
    out,
    depth + 1,
    c.handlers.map((h) => ({
      condition: `e.error in ${tuple(h.errors.map(str))}`,
      body: (o) => block(o, depth + 2, h.body, ctx),
    })),
  );
  out.line(depth + 1, "else:");
  out.line(depth + 2, "raise");
  out.line(depth, "else:");
  out.line(depth + 1, "self._state.at = None");
  result(out, depth + 1, s, task, args, got, ctx);
}

/** The answer's check and where it goes: a variable, or a case with the record the book operation leaves. */
function result(
  out: PyOut,
  depth: number,
  s: StmtPlan,
  task: TaskPlan,
  args: string,
  got: string,
  ctx: Ctx,
): void {
  assert(s.kind === "call", "a call statement");
  const bad = `raise dd.fail("Dandori.BadResponse", ${
    str(`line ${s.line}: the answer from ${task.name} does not have the declared shape`)
  })`;
  const callee = task.callee;
  let value = got;
  if (callee.kind === "book") {
    out.line(depth, `if not (dd.is_object(${got}) and ${got}.get("result") in ("done", "done_before")):`);
    out.line(depth + 1, bad);
    const state = callee.op === "hold" ? "held" : callee.op === "post" ? "posted" : "voided";
    const fields = [...callee.key.map((k) => `${str(k)}: ${args}.get(${str(k)})`), `"state": ${str(state)}`];
    value = callee.op === "do" ? "None" : `{${fields.join(", ")}}`;
  } else if (task.result !== null && checked(task.result.type)) {
    out.line(depth, `if not ${checkExpr(task.result.type, task.result.range, got, "T.")}:`);
    out.line(depth + 1, bad);
  }
  const bind = s.bind;
  if (bind === null) return;
  if (bind.kind === "let") {
    if (ctx.reads.has(bind.name)) out.line(depth, `${ident(bind.name)} = ${value}`);
    return;
  }
  assert(ctx.plan.cases.some((x) => x.name === bind.name), `the case ${bind.name} is the plan's`);
  out.line(depth, `${READS.name("case", bind.name)} = ${value}`);
  out.line(depth, "dd.show_cases(self._state.cases)");
}

/**
 * An `if`/`elif` chain of `branches` at `depth`, each body printed one deeper. Consecutive branches
 * whose code is the same line for line are one branch, their conditions joined by `or` (the same
 * meaning: the first that holds runs that code), as ruff asks (SIM114).
 */
function chain(
  out: PyOut,
  depth: number,
  branches: readonly { readonly condition: string; readonly body: (o: PyOut) => void }[],
): void {
  const merged: { conditions: string[]; lines: readonly string[] }[] = [];
  for (const b of branches) {
    const o = new PyOut();
    b.body(o);
    const last = merged[merged.length - 1];
    if (last !== undefined && last.lines.join("\n") === o.lines.join("\n")) last.conditions.push(b.condition);
    else merged.push({ conditions: [b.condition], lines: o.lines });
  }
  merged.forEach((b, i) => {
    out.line(depth, `${i === 0 ? "if" : "elif"} ${b.conditions.join(" or ")}:`);
    out.lines.push(...b.lines);
  });
}

function match(out: PyOut, depth: number, s: Extract<StmtPlan, { kind: "match" }>, ctx: Ctx): void {
  const m = local("m", s.place);
  const subject = s.subject.kind === "case"
    ? `dd.field(${READS.name("case", s.subject.case)}, "state")`
    : expr(s.subject.value, s.place);
  out.line(depth, `${m} = ${subject}`);
  chain(
    out,
    depth,
    s.arms.map((arm) => ({
      condition: arm.conditions.map((c) => conditionCode(c, m)).join(" or "),
      body: (o) => {
        for (const c of arm.conditions) {
          if (c.kind === "some" && ctx.reads.has(c.bind)) o.line(depth + 1, `${ident(c.bind)} = ${m}`);
        }
        block(o, depth + 1, arm.body, ctx);
      },
    })),
  );
  const error = s.subject.kind === "case" ? "Dandori.UnexpectedState" : "Dandori.UnexpectedValue";
  out.line(depth, "else:");
  out.line(
    depth + 1,
    `raise dd.fail(${str(error)}, ${
      str(`line ${s.line}: no arm of the match takes `)
    } + dd.json_text("none" if ${m} is None else ${m}))`,
  );
}

/** How an outermost loop continues as new: its index among the flow's statements and the variables carried. */
export interface Continuing {
  readonly index: number;
  readonly vars: readonly string[];
}

/** The iteration a loop starts from: 1, or (`dd_first`) where a continued run resumes it. */
function firstIteration(out: PyOut, depth: number, cont: Continuing | null): string {
  if (cont === null) return "1";
  out.line(depth, `dd_first = resume["iteration"] if dd_from == ${cont.index} and resume is not None else 1`);
  return "dd_first";
}

/** At an outermost iteration's start: continue as new when the history is long, with what the new run needs. */
function continueLines(
  out: PyOut,
  depth: number,
  c: Continuing,
  counter: string,
  extra: readonly string[],
): void {
  const vars = [...c.vars.map((v) => `${str(ident(v))}: ${ident(v)}`), ...extra];
  out.line(depth, `if dd.continuing(${counter} == dd_first):`);
  out.line(
    depth + 1,
    `dd.continue_from(input, {"at": ${c.index}, "iteration": ${counter}, "vars": {${
      vars.join(", ")
    }}, "cases": dict(self._state.cases)})`,
  );
}

export function repeat(
  out: PyOut,
  depth: number,
  s: Extract<StmtPlan, { kind: "repeat" }>,
  ctx: Ctx,
  cont: Continuing | null,
): void {
  const i = local("i", s.place);
  out.line(depth, `for ${i} in range(${firstIteration(out, depth, cont)}, ${s.atMost + 1}):`);
  const body = out.lines.length;
  if (cont !== null) continueLines(out, depth + 1, cont, i, []);
  block(out, depth + 1, s.body, { ...ctx, loops: [...ctx.loops, { place: s.place, counter: i }] }, body);
}

/** The element type of the list a `for` collects into (its yields' type). */
function collected(s: Extract<StmtPlan, { kind: "for" }>): string {
  if (s.collect === null) return "typing.Any";
  assert(s.collect.type.kind === "list", "a collected variable is a list");
  return pyType(s.collect.type.element, "T.");
}

export function forLoop(
  out: PyOut,
  depth: number,
  s: Extract<StmtPlan, { kind: "for" }>,
  ctx: Ctx,
  cont: Continuing | null,
): void {
  const list = local("list", s.place);
  const coll = local("coll", s.place);
  const i = local("i", s.place);
  const elem = pyType(s.element, "T.");
  const keeps = cont !== null || yieldsIn(s.body) || (s.collect !== null && ctx.reads.has(s.collect.name));
  if (cont === null) {
    out.line(depth, `${list}: list[${elem}] = ${expr(s.list, s.place)}`);
    for (const l of tooMany(s.line, list, s.atMost, "dd.fail")) out.line(depth, l);
    if (keeps) out.line(depth, `${coll}: list[${collected(s)}] = []`);
  } else {
    const resumed = `dd_from == ${cont.index} and resume is not None`;
    out.line(
      depth,
      `${list}: list[${elem}] = resume["vars"]["dd_list"] if ${resumed} else ${expr(s.list, s.place)}`,
    );
    // A resumed list passed this check in the run that began the loop, and passes it again here.
    for (const l of tooMany(s.line, list, s.atMost, "dd.fail")) out.line(depth, l);
    out.line(depth, `${coll}: list[${collected(s)}] = resume["vars"]["dd_yields"] if ${resumed} else []`);
  }
  out.line(depth, `for ${i} in range(${firstIteration(out, depth, cont)}, len(${list}) + 1):`);
  const body = out.lines.length;
  if (cont !== null) continueLines(out, depth + 1, cont, i, [`"dd_list": ${list}`, `"dd_yields": ${coll}`]);
  if (ctx.reads.has(s.variable)) out.line(depth + 1, `${ident(s.variable)} = ${list}[${i} - 1]`);
  block(out, depth + 1, s.body, {
    ...ctx,
    loops: [...ctx.loops, { place: s.place, counter: i }],
    collect: keeps ? coll : null,
  }, body);
  if (s.collect !== null && ctx.reads.has(s.collect.name)) {
    out.line(depth, `${ident(s.collect.name)} = ${coll}`);
  }
}

/** A `for … in parallel`: each iteration an `async def` with its own variables, run `k` at a time. */
function parallel(out: PyOut, depth: number, s: Extract<StmtPlan, { kind: "for" }>, ctx: Ctx): void {
  assert(s.parallel !== null, "a parallel loop");
  const list = local("list", s.place);
  const coll = local("coll", s.place);
  const i = local("i", s.place);
  const iteration = local("iteration", s.place);
  const elem = pyType(s.element, "T.");
  out.line(depth, `${list}: list[${elem}] = ${expr(s.list, s.place)}`);
  for (const l of tooMany(s.line, list, s.atMost, "dd.fail")) out.line(depth, l);
  out.line(depth, "");
  out.line(
    depth,
    `async def ${iteration}(${ident(s.variable)}: ${elem}, ${i}: int) -> list[${collected(s)}]:`,
  );
  out.line(depth + 1, `${coll}: list[${collected(s)}] = []`);
  declare(out, depth + 1, iterationVariables(s), ctx.reads);
  block(out, depth + 1, s.body, {
    ...ctx,
    loops: [...ctx.loops, { place: s.place, counter: i }],
    collect: coll,
  });
  if (!endsBlock(s.body)) out.line(depth + 1, `return ${coll}`);
  out.line(depth, "");
  const k = s.parallel.atATime === null ? `len(${list})` : String(s.parallel.atATime);
  const assign = s.collect !== null && ctx.reads.has(s.collect.name) ? `${ident(s.collect.name)} = ` : "";
  out.line(depth, `${assign}await dd.rounds(${k}, ${list}, ${iteration})`);
}
