/**
 * The statements of a flow as TypeScript, shared by the code targets that run a workflow as one
 * function (Temporal, Lambda durable functions: docs/targets.md#temporal-typescript,
 * docs/targets.md#durable), printed statement by statement from the plan. What each becomes:
 *
 * | statement | code |
 * |---|---|
 * | call | `dd.attempt` over what the target's `Dialect` says one attempt is; its handlers in a `catch` that matches `dd.TaskError`s by name, inside a labelled block the handler leaves; before an `http` call whose values go into its URL's path, `Dandori.BadInput` when they make a segment `.` or `..` |
 * | result | the type's check (`Dandori.BadResponse`), then the variable or the case |
 * | `match` | an `if` chain; no arm: `Dandori.UnexpectedValue` / `Dandori.UnexpectedState` |
 * | `repeat`, `for` | labelled loops, counting from 1 for keys |
 * | `for … in parallel`, `wait`, `wait until`, `now` | as the `Dialect` prints them |
 * | `succeed`, `fail` | `throw new dd.Succeeded(…)`, `throw dd.fail(…)`, so an ending leaves any depth |
 *
 * `now` is read once before a statement that reads it (`dd_now_<place>`), as every platform does (20).
 * @module
 */

import { assert, unreachable } from "../../../lang/common/assert.ts";
import {
  type ArmCondition,
  type CallPlan,
  type ExprPlan,
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
import { argsType, hasInherited, ident, member, prop, read, readMaybe, str, typeName } from "./names.ts";
import { urlOf } from "./task_bodies.ts";
import { checkExpr, tsType } from "./types_ts.ts";

/** What differs between the targets that share these statements. */
export interface Dialect {
  /** The expression that reads the clock for the `now` of the statement at `line`. */
  now(line: number): string;
  /** The lines of `wait <seconds>` at `line`. */
  wait(line: number, seconds: number): string[];
  /** The lines of `wait until <at>` at `line` (`at`: the time's code). */
  waitUntil(line: number, at: string): string[];
  /** One attempt of a call: a closure over the attempt's number `n`. */
  attempt(task: TaskPlan, args: string, place: string, loops: string, line: number): string;
  /** What `dd.attempt` takes before the call's rule. */
  readonly attemptFirst: string;
  /** Whether the workflow says where it waits (`dd.where.at`, for a query). */
  readonly where: boolean;
  /** Whether a case's change is written out (`dd.showCases`). */
  readonly showCases: boolean;
  /** A `for … in parallel`. */
  parallel(out: Out, depth: number, s: Extract<StmtPlan, { kind: "for" }>, ctx: Ctx): void;
}

export interface Ctx {
  /** The loops around, outermost first: their places and counters. */
  readonly loops: readonly { readonly place: string; readonly counter: string }[];
  /** Where a `yield` pushes to. */
  readonly collect: string | null;
  readonly block: "flow" | "failure" | "cancel";
  readonly plan: Plan;
  /** The `dd_now_<place>` constants declared in the block being printed. */
  readonly nows: Set<string>;
  readonly dialect: Dialect;
}

/** Lines of code at an indentation. */
export class Out {
  readonly lines: string[] = [];
  line(depth: number, text: string): void {
    this.lines.push(`${"  ".repeat(depth)}${text}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Expressions

export function maybeMissing(t: TypePlan): boolean {
  return t.kind === "optional" || t.kind === "json";
}

/**
 * A case's record, or a field of it: null until the case starts (a case's record holds its hold's
 * key fields and `state`, each one level deep).
 */
function caseRead(name: string, path: readonly string[]): string {
  const record = read("cases", name);
  if (path.length === 0) return record;
  assert(path.length === 1, "a case's record is read one field deep");
  return `(${record} === null ? null : ${readMaybe(record, path[0])} ?? null)`;
}

/**
 * An object literal of the record type `record`: as it is, or cast with `as` when the record has a
 * field named as a member of `Object.prototype`, which TypeScript would read from any literal that
 * leaves the field out.
 */
export function built(literal: string, record: string, plan: Plan): string {
  const r = plan.records.find((x) => x.name === record);
  assert(r !== undefined, `the plan has the record ${record}`);
  return hasInherited(r.fields) ? `(${literal} as T.${typeName(record)})` : literal;
}

/** An expression's code; `place` names the statement whose `dd_now_<place>` `now` reads. */
export function expr(e: ExprPlan, place: string, plan: Plan): string {
  switch (e.kind) {
    case "read": {
      if (e.from === "case") return caseRead(e.name, e.path.map((p) => p.field));
      let code = ident(e.name);
      for (const p of e.path) {
        code = maybeMissing(p.type) ? `(${readMaybe(code, p.field)} ?? null)` : read(code, p.field);
      }
      return code;
    }
    case "int":
      assert(Number.isSafeInteger(Number(e.value)), `the number ${e.value} is a safe integer`);
      return e.value;
    case "string":
      return e.parts.length === 0
        ? '""'
        : e.parts.map((p) => "text" in p ? str(p.text) : `dd.text(${expr(p.value, place, plan)})`).join(
          " + ",
        );
    case "bool":
      return String(e.value);
    case "enum":
      return str(e.value);
    case "none":
      return "null";
    case "now":
      return `dd_now_${place}`;
    case "record": {
      const literal = `{ ${
        e.fields.map((f) => `${prop(f.name)}: ${expr(f.value, place, plan)}`).join(", ")
      } }`;
      assert(e.type.kind === "record", "a record's value has its record's type");
      return built(literal, e.type.name, plan);
    }
    case "list":
      return `[${e.items.map((i) => expr(i, place, plan)).join(", ")}]`;
    default:
      return unreachable(e, "expression");
  }
}

// ---------------------------------------------------------------------------------------------
// Variables

export function declare(out: Out, depth: number, vars: ReadonlyMap<string, TypePlan>): void {
  for (const [name, t] of vars) out.line(depth, `let ${ident(name)}!: ${tsType(t, "T.")};`);
}

// ---------------------------------------------------------------------------------------------
// Statements

export function block(out: Out, depth: number, ss: readonly StmtPlan[], ctx: Ctx): void {
  const inner: Ctx = { ...ctx, nows: new Set() };
  for (const s of ss) stmt(out, depth, s, inner);
}

function nowFor(out: Out, depth: number, place: string, line: number, ctx: Ctx): void {
  if (ctx.nows.has(place)) return;
  ctx.nows.add(place);
  out.line(depth, `const dd_now_${place} = ${ctx.dialect.now(line)};`);
}

export function endsBlock(ss: readonly StmtPlan[]): boolean {
  const last = ss[ss.length - 1];
  return last !== undefined && (last.kind === "succeed" || last.kind === "fail" || last.kind === "break");
}

export function stmt(out: Out, depth: number, s: StmtPlan, ctx: Ctx): void {
  if (stmtExprs(s).some(readsNow)) nowFor(out, depth, s.place, s.line, ctx);
  switch (s.kind) {
    case "call":
      return call(out, depth, s, s.call, ctx);
    case "let":
      return out.line(depth, `${ident(s.name)} = ${expr(s.value, s.place, ctx.plan)};`);
    case "match":
      return match(out, depth, s, ctx);
    case "wait":
      return lines(out, depth, ctx.dialect.wait(s.line, s.seconds));
    case "wait until":
      return lines(out, depth, ctx.dialect.waitUntil(s.line, expr(s.at, s.place, ctx.plan)));
    case "repeat":
      return repeat(out, depth, s, ctx, null);
    case "for":
      return s.parallel === null
        ? forLoop(out, depth, s, ctx, null)
        : ctx.dialect.parallel(out, depth, s, ctx);
    case "yield":
      assert(ctx.collect !== null, "a `yield` is inside a collecting loop");
      return out.line(depth, `${ctx.collect}.push(${expr(s.value, s.place, ctx.plan)});`);
    case "break": {
      const loop = ctx.loops[ctx.loops.length - 1];
      assert(loop !== undefined, "a `break` is inside a loop");
      return out.line(depth, `break l_${loop.place};`);
    }
    case "pass":
      return out.line(depth, "// pass");
    case "succeed":
      return succeed(out, depth, s, ctx);
    case "fail":
      return out.line(
        depth,
        `throw dd.fail(${str(s.error)}, ${s.reason === null ? "null" : expr(s.reason, s.place, ctx.plan)});`,
      );
    case "period":
      return period(out, depth, s, ctx);
    default:
      return unreachable(s, "statement");
  }
}

function succeed(out: Out, depth: number, s: Extract<StmtPlan, { kind: "succeed" }>, ctx: Ctx): void {
  if (ctx.plan.outputs.length === 0) return out.line(depth, "throw new dd.Succeeded(null);");
  const given = new Map(s.outputs.map((o) => [o.name, o.value]));
  const fields = ctx.plan.outputs.map((o) => {
    const e = given.get(o.name);
    return `${prop(o.name)}: ${e === undefined ? "null" : expr(e, s.place, ctx.plan)}`;
  });
  out.line(depth, `throw new dd.Succeeded({ ${fields.join(", ")} } satisfies T.WorkflowOutput);`);
}

function period(out: Out, depth: number, s: Extract<StmtPlan, { kind: "period" }>, ctx: Ctx): void {
  const p = ctx.plan.period;
  assert(p !== null, "a period check is in a flow with a period");
  nowFor(out, depth, s.before, s.line, ctx);
  const now = `dd_now_${s.before}`;
  out.line(
    depth,
    `if (!dd.timeIn(${now}, ${p.first === null ? "null" : str(p.first)}, ${
      p.after === null ? "null" : str(p.after)
    })) {`,
  );
  out.line(
    depth + 1,
    `throw new dd.TaskError("Dandori.OutOfPeriod", "Dandori.OutOfPeriod", ${
      str(`line ${s.line}: now is `)
    } + ${now} + ${str(`, outside the period the workflow runs in, ${p.text}`)});`,
  );
  out.line(depth, "}");
}

export function loopsOf(call: CallPlan, ctx: Ctx): string {
  const counters = call.loops.map((place) => {
    const l = ctx.loops.find((x) => x.place === place);
    assert(l !== undefined, `the loop ${place} around the call is in scope`);
    return l.counter;
  });
  return `[${counters.join(", ")}]`;
}
export function waitOf(t: TimeoutPlan | null, args: string): string {
  if (t === null) return "{ seconds: dd.ANSWER_WAIT_SECONDS }";
  if (t.kind === "after") return `{ seconds: ${t.seconds} }`;
  return `{ until: ${readMaybe(args, t.param)} }`;
}

/** The code of one attempt: what the call calls, with the attempt's number `n`. */ function call(
  out: Out,
  depth: number,
  s: StmtPlan,
  c: CallPlan,
  ctx: Ctx,
): void {
  assert(s.kind === "call", "a call statement");
  const task = taskOf(ctx.plan, c.task);
  const args = `a_${s.place}`;
  const got = `got_${s.place}`;
  const fields = c.args.map((a) => `${prop(a.name)}: ${expr(a.value, s.place, ctx.plan)}`);
  const literal = `{ ${fields.join(", ")} }`;
  const type = `T.${argsType(task.name)}`;
  out.line(
    depth,
    `const ${args}: ${type} = ${hasInherited(task.params) ? `${literal} as ${type}` : literal};`,
  );
  if (task.callee.kind === "http" && valueInUrlPath(task.callee)) {
    out.line(depth, `if (dd.hasDotSegment(${urlOf(task.callee, args)})) {`);
    out.line(depth + 1, `throw dd.fail("Dandori.BadInput", ${str(dotSegmentReason(s.line, task.name))});`);
    out.line(depth, "}");
  }
  if (ctx.dialect.where) out.line(depth, `dd.where.at = ${s.line};`);
  const rule = `{ line: ${s.line}, task: ${str(task.name)}, errors: ${read("E", task.name)}, retry: ${
    read("R", task.name)
  } }`;
  const attempt = ctx.dialect.attempt(task, args, s.place, loopsOf(c, ctx), s.line);
  const label = `c_${s.place}`;
  const handled = c.handlers.length > 0;
  if (handled) out.line(depth, `${label}: {`);
  const d = handled ? depth + 1 : depth;
  if (handled) {
    out.line(d, `let ${got}: unknown;`);
    out.line(d, "try {");
    emitMultiline(out, d + 1, `${got} = await dd.attempt(${ctx.dialect.attemptFirst}${rule}, ${attempt});`);
    out.line(d, "} catch (e) {");
    for (const h of c.handlers) {
      out.line(d + 1, `if (dd.takes(e, [${h.errors.map(str).join(", ")}])) {`);
      block(out, d + 2, h.body, ctx);
      if (!endsBlock(h.body)) out.line(d + 2, `break ${label};`);
      out.line(d + 1, "}");
    }
    out.line(d + 1, "throw e;");
    out.line(d, "}");
  } else {
    emitMultiline(
      out,
      d,
      `const ${got}: unknown = await dd.attempt(${ctx.dialect.attemptFirst}${rule}, ${attempt});`,
    );
  }
  if (ctx.dialect.where) out.line(d, "dd.where.at = null;");
  result(out, d, s, task, args, got, ctx);
  if (handled) out.line(depth, "}");
}

export function emitMultiline(out: Out, depth: number, code: string): void {
  for (const l of code.split("\n")) out.line(depth, l);
}

/** The answer's check and where it goes: a variable, or a case with the record the book operation leaves. */
function result(
  out: Out,
  depth: number,
  s: StmtPlan,
  task: TaskPlan,
  args: string,
  got: string,
  ctx: Ctx,
): void {
  assert(s.kind === "call", "a call statement");
  const bad = `throw dd.fail("Dandori.BadResponse", ${
    str(`line ${s.line}: the answer from ${task.name} does not have the declared shape`)
  });`;
  const callee = task.callee;
  let value: string;
  if (callee.kind === "book") {
    out.line(
      depth,
      `if (!dd.isObject(${got}) || (${got}.result !== "done" && ${got}.result !== "done_before")) {`,
    );
    out.line(depth + 1, bad);
    out.line(depth, "}");
    const state = callee.op === "hold" ? "held" : callee.op === "post" ? "posted" : "voided";
    const fields = [
      ...callee.key.map((k) => `${prop(k)}: ${readMaybe(args, k)} ?? null`),
      `state: "${state}" as const`,
    ];
    value = callee.op === "do"
      ? "null"
      : built(`{ ${fields.join(", ")} }`, `${callee.book}.${callee.transfer}`, ctx.plan);
  } else {
    if (task.result !== null) {
      out.line(depth, `if (!${checkExpr(task.result.type, task.result.range, got, "T.")}) {`);
      out.line(depth + 1, bad);
      out.line(depth, "}");
    }
    value = task.result === null ? got : `${got} as ${tsType(task.result.type, "T.")}`;
  }
  const bind = s.bind;
  if (bind === null) return;
  if (bind.kind === "let") return out.line(depth, `${ident(bind.name)} = ${value};`);
  out.line(depth, `${read("cases", bind.name)} = ${value};`);
  if (ctx.dialect.showCases) out.line(depth, "dd.showCases(cases);");
  assert(ctx.plan.cases.some((x) => x.name === bind.name), `the case ${bind.name} is the plan's`);
}

function conditionCode(c: ArmCondition, subject: string): string {
  switch (c.kind) {
    case "values":
      return c.values.map((v) => `${subject} === ${v === "true" || v === "false" ? v : str(v)}`).join(" || ");
    case "none":
      return `${subject} === null`;
    case "some":
      return `${subject} !== null`;
    default:
      return unreachable(c, "arm condition");
  }
}

function match(out: Out, depth: number, s: Extract<StmtPlan, { kind: "match" }>, ctx: Ctx): void {
  const m = `m_${s.place}`;
  const subject = s.subject.kind === "case"
    ? `(${read("cases", s.subject.case)}?.state ?? null)`
    : expr(s.subject.value, s.place, ctx.plan);
  out.line(depth, `const ${m} = ${subject};`);
  s.arms.forEach((arm, i) => {
    const cond = arm.conditions.map((c) => conditionCode(c, m)).join(" || ");
    out.line(depth, `${i === 0 ? "if" : "} else if"} (${cond}) {`);
    for (const c of arm.conditions) if (c.kind === "some") out.line(depth + 1, `${ident(c.bind)} = ${m};`);
    block(out, depth + 1, arm.body, ctx);
  });
  const error = s.subject.kind === "case" ? "Dandori.UnexpectedState" : "Dandori.UnexpectedValue";
  out.line(depth, "} else {");
  out.line(
    depth + 1,
    `throw dd.fail(${str(error)}, ${
      str(`line ${s.line}: no arm of the match takes `)
    } + JSON.stringify(${m} ?? "none"));`,
  );
  out.line(depth, "}");
}

/** How an outermost loop continues as new: its index among the flow's statements and the variables carried. */
export interface Continuing {
  readonly index: number;
  readonly vars: readonly string[];
}

function continueLine(
  out: Out,
  depth: number,
  c: Continuing,
  counter: string,
  extra: readonly string[],
): void {
  const vars = [...c.vars.map((v) => `${prop(ident(v))}: ${ident(v)}`), ...extra];
  out.line(depth, `if (dd.continuing(dd_ran)) {`);
  out.line(
    depth + 1,
    `await dd.continueFrom(input, { at: ${c.index}, iteration: ${counter}, vars: { ${
      vars.join(", ")
    } }, cases });`,
  );
  out.line(depth, "}");
}

export function repeat(
  out: Out,
  depth: number,
  s: Extract<StmtPlan, { kind: "repeat" }>,
  ctx: Ctx,
  cont: Continuing | null,
): void {
  const i = `i_${s.place}`;
  const from = cont === null
    ? "1"
    : `dd_from === ${cont.index} && resume !== undefined ? resume.iteration : 1`;
  const ran = cont === null ? "" : ", dd_ran = 0";
  out.line(
    depth,
    `l_${s.place}: for (let ${i} = ${from}${ran}; ${i} <= ${s.atMost}; ${i}++${
      cont === null ? "" : ", dd_ran++"
    }) {`,
  );
  if (cont !== null) continueLine(out, depth + 1, cont, i, []);
  block(out, depth + 1, s.body, { ...ctx, loops: [...ctx.loops, { place: s.place, counter: i }] });
  out.line(depth, "}");
}

export function tooMany(out: Out, depth: number, line: number, list: string, most: number): void {
  out.line(depth, `if (${list}.length > ${most}) {`);
  out.line(
    depth + 1,
    `throw dd.fail("Dandori.TooManyItems", ${str(`line ${line}: the list has `)} + ${list}.length + ${
      str(` items, more than the ${most} the loop takes`)
    });`,
  );
  out.line(depth, "}");
}

export function forLoop(
  out: Out,
  depth: number,
  s: Extract<StmtPlan, { kind: "for" }>,
  ctx: Ctx,
  cont: Continuing | null,
): void {
  const list = `list_${s.place}`;
  const coll = `coll_${s.place}`;
  const i = `i_${s.place}`;
  const elem = tsType(s.element, "T.");
  const collType = s.collect === null ? "unknown" : tsType(s.collect.type, "T.").replace(/\[\]$/, "");
  out.line(depth, "{");
  if (cont === null) {
    out.line(depth + 1, `const ${list}: ${elem}[] = ${expr(s.list, s.place, ctx.plan)};`);
    tooMany(out, depth + 1, s.line, list, s.atMost);
    out.line(depth + 1, `const ${coll}: ${collType}[] = [];`);
  } else {
    const resumed = `dd_from === ${cont.index} && resume !== undefined`;
    out.line(
      depth + 1,
      `const ${list}: ${elem}[] = ${resumed} ? resume.vars.dd_list as ${elem}[] : ${
        expr(s.list, s.place, ctx.plan)
      };`,
    );
    out.line(depth + 1, `if (!(${resumed})) {`);
    tooMany(out, depth + 2, s.line, list, s.atMost);
    out.line(depth + 1, "}");
    out.line(
      depth + 1,
      `const ${coll}: ${collType}[] = ${resumed} ? resume.vars.dd_yields as ${collType}[] : [];`,
    );
  }
  const from = cont === null
    ? "1"
    : `dd_from === ${cont.index} && resume !== undefined ? resume.iteration : 1`;
  const ran = cont === null ? "" : ", dd_ran = 0";
  out.line(
    depth + 1,
    `l_${s.place}: for (let ${i} = ${from}${ran}; ${i} <= ${list}.length; ${i}++${
      cont === null ? "" : ", dd_ran++"
    }) {`,
  );
  if (cont !== null) continueLine(out, depth + 2, cont, i, [`dd_list: ${list}`, `dd_yields: ${coll}`]);
  out.line(depth + 2, `${ident(s.variable)} = ${list}[${i} - 1];`);
  block(out, depth + 2, s.body, {
    ...ctx,
    loops: [...ctx.loops, { place: s.place, counter: i }],
    collect: coll,
  });
  out.line(depth + 1, "}");
  if (s.collect !== null) out.line(depth + 1, `${ident(s.collect.name)} = ${coll};`);
  out.line(depth, "}");
}
// ---------------------------------------------------------------------------------------------
// What both modules print around the statements

/** The tables of each task's declared errors (`E`) and retriers (`R`). */
export function taskTables(plan: Plan): string[] {
  const lines = ["/** Each task's declared errors, as handlers and retriers name them. */", "const E = {"];
  for (const t of plan.tasks) {
    lines.push(`  ${prop(t.name)}: [${t.errors.map((e) => str(e.name)).join(", ")}],`);
  }
  lines.push(
    "} as const;",
    "",
    "/** Each task's retriers, in Step Functions' order. */",
    "const R = {",
  );
  for (const t of plan.tasks) {
    const rs = t.retry.map((r) =>
      `{ errors: [${
        r.errors.map(str).join(", ")
      }], maxAttempts: ${r.maxAttempts}, intervalSeconds: ${r.intervalSeconds}, backoff: ${str(r.backoff)} }`
    );
    lines.push(`  ${prop(t.name)}: [${rs.join(", ")}],`);
  }
  lines.push("} satisfies { readonly [task: string]: readonly dd.Retrier[] };");
  return lines;
}

/** The type of the `cases` variable. */
export function casesType(plan: Plan): string {
  const fields = plan.cases.map((c) => `${member(c.name)}: T.${typeName(c.machine)} | null`);
  return `{ ${fields.join("; ")}${fields.length > 0 ? ";" : ""} }`;
}

/** Prints `on failure` or `on cancel`. */
export function otherBlock(
  out: Out,
  depth: number,
  plan: Plan,
  ss: readonly StmtPlan[],
  b: "failure" | "cancel",
  dialect: Dialect,
): void {
  block(out, depth, ss, { loops: [], collect: null, block: b, plan, nows: new Set(), dialect });
}

/** The type of a variable the flow assigns. */
export function lookupType(vars: ReadonlyMap<string, TypePlan>, name: string): TypePlan {
  const t = vars.get(name);
  assert(t !== undefined, `the variable ${name} has a type`);
  return t;
}

/** Prints lines at a depth. */
function lines(out: Out, depth: number, ls: readonly string[]): void {
  for (const l of ls) out.line(depth, l);
}
