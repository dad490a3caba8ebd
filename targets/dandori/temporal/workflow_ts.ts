/**
 * `workflow.ts`: the flow as one Temporal workflow function (docs/targets.md#temporal-typescript), printed statement by
 * statement from the plan. What each statement becomes:
 *
 * | statement | code |
 * |---|---|
 * | call | `dd.attempt` over the activity, the child workflow, the callback or the event; its handlers in a `catch` that matches `dd.TaskError`s by name, inside a labelled block the handler leaves |
 * | result | the type's check (`Dandori.BadResponse`), then the variable or the case |
 * | `match` | an `if` chain; no arm: `Dandori.UnexpectedValue` / `Dandori.UnexpectedState` |
 * | `repeat`, `for` | labelled loops, counting from 1 for keys; the outermost ones continue as new (`dd.CONTINUE_AT`) |
 * | `for … in parallel` | `dd.rounds`, each iteration a closure with its own variables |
 * | `succeed`, `fail` | `throw new dd.Succeeded(…)`, `throw dd.fail(…)`, so an ending leaves any depth |
 * | `on failure`, `on cancel` | a `catch` of `dd.TaskError`; `on cancel` in `CancellationScope.nonCancellable` |
 *
 * `now` is read once before a statement that reads it (`dd_now_<place>`), as every platform does (20).
 * @module
 */

import { assert, unreachable } from "../../../lang/common/assert.ts";
import type {
  ArmCondition,
  CallPlan,
  ExprPlan,
  Plan,
  StmtPlan,
  TaskPlan,
  TimeoutPlan,
  TypePlan,
} from "../../../lang/dandori/plan.ts";
import { argsType, ident, prop, read, str, typeName } from "./names.ts";
import { checkExpr, tsType } from "./types_ts.ts";

/** A task's one attempt may take this long when its `timeout` is not written. */
export const DEFAULT_SECONDS = {
  http: 60,
  lambda: 900,
  other: 365 * 86_400,
} as const;

/** The seconds `startToCloseTimeout` gives one attempt of a task run as an activity. */
export function activitySeconds(task: TaskPlan): number {
  if (task.timeout?.kind === "after" && task.timeout.written && task.callback === null) {
    return task.timeout.seconds;
  }
  switch (task.callee.kind) {
    case "http":
      return DEFAULT_SECONDS.http;
    case "lambda":
      return DEFAULT_SECONDS.lambda;
    case "aws":
    case "book":
    case "own":
    case "flow":
    case "child":
    case "event":
      return DEFAULT_SECONDS.other;
    default:
      return unreachable(task.callee, "callee");
  }
}

/** What is in scope where a statement is printed. */
interface Ctx {
  /** The loops around, outermost first: their places and counters. */
  readonly loops: readonly { readonly place: string; readonly counter: string }[];
  /** Where a `yield` pushes to. */
  readonly collect: string | null;
  readonly block: "flow" | "failure" | "cancel";
  readonly plan: Plan;
  /** The `dd_now_<place>` constants declared in the block being printed. */
  readonly nows: Set<string>;
}

/** Lines of code at an indentation. */
class Out {
  readonly lines: string[] = [];
  line(depth: number, text: string): void {
    this.lines.push(`${"  ".repeat(depth)}${text}`);
  }
}

function taskOf(plan: Plan, name: string): TaskPlan {
  const t = plan.tasks.find((x) => x.name === name);
  assert(t !== undefined, `the plan has the task ${name}`);
  return t;
}

// ---------------------------------------------------------------------------------------------
// Expressions

/** Whether an expression reads `now` (every target reads it once before the statement, docs/design/dandori.md#the-workflow-period). */
export function readsNow(e: ExprPlan): boolean {
  switch (e.kind) {
    case "now":
      return true;
    case "string":
      return e.parts.some((p) => "value" in p && readsNow(p.value));
    case "record":
      return e.fields.some((f) => readsNow(f.value));
    case "list":
      return e.items.some(readsNow);
    case "read":
    case "int":
    case "bool":
    case "enum":
    case "none":
      return false;
    default:
      return unreachable(e, "expression");
  }
}

function maybeMissing(t: TypePlan): boolean {
  return t.kind === "optional" || t.kind === "json";
}

/** An expression's code; `place` names the statement whose `dd_now_<place>` `now` reads. */
function expr(e: ExprPlan, place: string): string {
  switch (e.kind) {
    case "read": {
      let code = e.from === "case" ? `cases.${ident(e.name)}` : ident(e.name);
      if (e.from === "case" && e.path.length > 0) {
        code = `(${[code, ...e.path.map((p) => read("", p.field).replace(/^\./, ""))].join("?.")} ?? null)`;
        return code;
      }
      for (const p of e.path) {
        code = read(code, p.field);
        if (maybeMissing(p.type)) code = `(${code} ?? null)`;
      }
      return code;
    }
    case "int":
      assert(Number.isSafeInteger(Number(e.value)), `the number ${e.value} is a safe integer`);
      return e.value;
    case "string":
      return e.parts.length === 0
        ? '""'
        : e.parts.map((p) => "text" in p ? str(p.text) : `dd.text(${expr(p.value, place)})`).join(" + ");
    case "bool":
      return String(e.value);
    case "enum":
      return str(e.value);
    case "none":
      return "null";
    case "now":
      return `dd_now_${place}`;
    case "record":
      return `{ ${e.fields.map((f) => `${prop(f.name)}: ${expr(f.value, place)}`).join(", ")} }`;
    case "list":
      return `[${e.items.map((i) => expr(i, place)).join(", ")}]`;
    default:
      return unreachable(e, "expression");
  }
}

// ---------------------------------------------------------------------------------------------
// Variables

/** The variables a block assigns (not inside parallel iterations, which have their own), with their types. */
function assigned(ss: readonly StmtPlan[], into: Map<string, TypePlan>): Map<string, TypePlan> {
  const add = (name: string, t: TypePlan) => {
    if (!into.has(name)) into.set(name, t);
  };
  for (const s of ss) {
    switch (s.kind) {
      case "call":
        if (s.bind?.kind === "let") add(s.bind.name, s.bind.type);
        for (const h of s.call.handlers) assigned(h.body, into);
        break;
      case "let":
        add(s.name, s.type);
        break;
      case "match":
        for (const a of s.arms) {
          for (const c of a.conditions) {
            if (c.kind === "some") {
              const t = s.subject.kind === "case" ? null : s.subject.value.type;
              assert(t !== null && t.kind === "optional", "`some x` binds an optional's value");
              add(c.bind, t.inner);
            }
          }
          assigned(a.body, into);
        }
        break;
      case "repeat":
        assigned(s.body, into);
        break;
      case "for":
        if (s.collect !== null) add(s.collect.name, s.collect.type);
        if (s.parallel === null) assigned(s.body, into);
        break;
      case "wait":
      case "wait until":
      case "yield":
      case "break":
      case "pass":
      case "succeed":
      case "fail":
      case "period":
        break;
      default:
        unreachable(s, "statement");
    }
  }
  return into;
}

function declare(out: Out, depth: number, vars: ReadonlyMap<string, TypePlan>): void {
  for (const [name, t] of vars) out.line(depth, `let ${ident(name)}!: ${tsType(t, "T.")};`);
}

// ---------------------------------------------------------------------------------------------
// Statements

function block(out: Out, depth: number, ss: readonly StmtPlan[], ctx: Ctx): void {
  const inner: Ctx = { ...ctx, nows: new Set() };
  for (const s of ss) stmt(out, depth, s, inner);
}

/** The expressions a statement reads, for its `now`. */
export function stmtExprs(s: StmtPlan): ExprPlan[] {
  switch (s.kind) {
    case "call":
      return s.call.args.map((a) => a.value);
    case "let":
      return [s.value];
    case "match":
      return s.subject.kind === "case" ? [] : [s.subject.value];
    case "wait until":
      return [s.at];
    case "for":
      return [s.list];
    case "yield":
      return [s.value];
    case "succeed":
      return s.outputs.map((o) => o.value);
    case "fail":
      return s.reason === null ? [] : [s.reason];
    case "wait":
    case "repeat":
    case "break":
    case "pass":
    case "period":
      return [];
    default:
      return unreachable(s, "statement");
  }
}

function nowFor(out: Out, depth: number, place: string, ctx: Ctx): void {
  if (ctx.nows.has(place)) return;
  ctx.nows.add(place);
  out.line(depth, `const dd_now_${place} = dd.now();`);
}

function endsBlock(ss: readonly StmtPlan[]): boolean {
  const last = ss[ss.length - 1];
  return last !== undefined && (last.kind === "succeed" || last.kind === "fail" || last.kind === "break");
}

function stmt(out: Out, depth: number, s: StmtPlan, ctx: Ctx): void {
  if (stmtExprs(s).some(readsNow)) nowFor(out, depth, s.place, ctx);
  switch (s.kind) {
    case "call":
      return call(out, depth, s, s.call, ctx);
    case "let":
      return out.line(depth, `${ident(s.name)} = ${expr(s.value, s.place)};`);
    case "match":
      return match(out, depth, s, ctx);
    case "wait":
      out.line(depth, `dd.where.at = ${s.line};`);
      return out.line(depth, `await wf.sleep(dd.ms(${s.seconds}));`);
    case "wait until":
      out.line(depth, `dd.where.at = ${s.line};`);
      return out.line(depth, `await dd.waitUntil(${expr(s.at, s.place)});`);
    case "repeat":
      return repeat(out, depth, s, ctx, null);
    case "for":
      return s.parallel === null ? forLoop(out, depth, s, ctx, null) : parallel(out, depth, s, ctx);
    case "yield":
      assert(ctx.collect !== null, "a `yield` is inside a collecting loop");
      return out.line(depth, `${ctx.collect}.push(${expr(s.value, s.place)});`);
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
        `throw dd.fail(${str(s.error)}, ${s.reason === null ? "null" : expr(s.reason, s.place)});`,
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
    return `${prop(o.name)}: ${e === undefined ? "null" : expr(e, s.place)}`;
  });
  out.line(depth, `throw new dd.Succeeded({ ${fields.join(", ")} } satisfies T.WorkflowOutput);`);
}

function period(out: Out, depth: number, s: Extract<StmtPlan, { kind: "period" }>, ctx: Ctx): void {
  const p = ctx.plan.period;
  assert(p !== null, "a period check is in a flow with a period");
  nowFor(out, depth, s.before, ctx);
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

function loopsOf(call: CallPlan, ctx: Ctx): string {
  const counters = call.loops.map((place) => {
    const l = ctx.loops.find((x) => x.place === place);
    assert(l !== undefined, `the loop ${place} around the call is in scope`);
    return l.counter;
  });
  return `[${counters.join(", ")}]`;
}

function waitOf(t: TimeoutPlan | null, args: string): string {
  if (t === null) return "{ seconds: dd.ANSWER_WAIT_SECONDS }";
  if (t.kind === "after") return `{ seconds: ${t.seconds} }`;
  return `{ until: ${read(args, t.param)} }`;
}

/** The code of one attempt: what the call calls, with the attempt's number `n`. */
function attemptCode(task: TaskPlan, args: string, place: string, loops: string): string {
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
      const type = callee.kind === "flow"
        ? callee.platforms.workflow ?? `${callee.workflow}_v${callee.version}`
        : callee.platforms.workflow ?? task.name;
      const queue = callee.platforms.queue;
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

function call(out: Out, depth: number, s: StmtPlan, c: CallPlan, ctx: Ctx): void {
  assert(s.kind === "call", "a call statement");
  const task = taskOf(ctx.plan, c.task);
  const args = `a_${s.place}`;
  const got = `got_${s.place}`;
  const fields = c.args.map((a) => `${prop(a.name)}: ${expr(a.value, s.place)}`);
  out.line(depth, `const ${args}: T.${argsType(task.name)} = { ${fields.join(", ")} };`);
  out.line(depth, `dd.where.at = ${s.line};`);
  const rule = `{ line: ${s.line}, task: ${str(task.name)}, errors: ${read("E", task.name)}, retry: ${
    read("R", task.name)
  } }`;
  const attempt = attemptCode(task, args, s.place, loopsOf(c, ctx));
  const label = `c_${s.place}`;
  const handled = c.handlers.length > 0;
  if (handled) out.line(depth, `${label}: {`);
  const d = handled ? depth + 1 : depth;
  if (handled) {
    out.line(d, `let ${got}: unknown;`);
    out.line(d, "try {");
    emitMultiline(out, d + 1, `${got} = await dd.attempt(${rule}, ${attempt});`);
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
    emitMultiline(out, d, `const ${got}: unknown = await dd.attempt(${rule}, ${attempt});`);
  }
  out.line(d, "dd.where.at = null;");
  result(out, d, s, task, args, got, ctx);
  if (handled) out.line(depth, "}");
}

function emitMultiline(out: Out, depth: number, code: string): void {
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
    value = callee.op === "do"
      ? "null"
      : `{ ${
        [...callee.key.map((k) => `${prop(k)}: ${read(args, k)} ?? null`), `state: "${state}" as const`].join(
          ", ",
        )
      } }`;
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
  out.line(depth, `cases.${ident(bind.name)} = ${value};`);
  out.line(depth, "dd.showCases(cases);");
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
    ? `(cases.${ident(s.subject.case)}?.state ?? null)`
    : expr(s.subject.value, s.place);
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
interface Continuing {
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
  const vars = [...c.vars.map((v) => `${prop(v)}: ${ident(v)}`), ...extra];
  out.line(depth, `if (dd.continuing(dd_ran)) {`);
  out.line(
    depth + 1,
    `await dd.continueFrom(input, { at: ${c.index}, iteration: ${counter}, vars: { ${
      vars.join(", ")
    } }, cases });`,
  );
  out.line(depth, "}");
}

function repeat(
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

function tooMany(out: Out, depth: number, line: number, list: string, most: number): void {
  out.line(depth, `if (${list}.length > ${most}) {`);
  out.line(
    depth + 1,
    `throw dd.fail("Dandori.TooManyItems", ${str(`line ${line}: the list has `)} + ${list}.length + ${
      str(` items, more than the ${most} the loop takes`)
    });`,
  );
  out.line(depth, "}");
}

function forLoop(
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
    out.line(depth + 1, `const ${list}: ${elem}[] = ${expr(s.list, s.place)};`);
    tooMany(out, depth + 1, s.line, list, s.atMost);
    out.line(depth + 1, `const ${coll}: ${collType}[] = [];`);
  } else {
    const resumed = `dd_from === ${cont.index} && resume !== undefined`;
    out.line(
      depth + 1,
      `const ${list}: ${elem}[] = ${resumed} ? resume.vars.dd_list as ${elem}[] : ${expr(s.list, s.place)};`,
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
  out.line(depth + 2, `const ${ident(s.variable)}: ${elem} = ${list}[${i} - 1];`);
  block(out, depth + 2, s.body, {
    ...ctx,
    loops: [...ctx.loops, { place: s.place, counter: i }],
    collect: coll,
  });
  out.line(depth + 1, "}");
  if (s.collect !== null) out.line(depth + 1, `${ident(s.collect.name)} = ${coll};`);
  out.line(depth, "}");
}

function parallel(out: Out, depth: number, s: Extract<StmtPlan, { kind: "for" }>, ctx: Ctx): void {
  assert(s.parallel !== null, "a parallel loop");
  const list = `list_${s.place}`;
  const i = `i_${s.place}`;
  const elem = tsType(s.element, "T.");
  const collType = s.collect === null ? "unknown" : tsType(s.collect.type, "T.").replace(/\[\]$/, "");
  out.line(depth, "{");
  out.line(depth + 1, `const ${list}: ${elem}[] = ${expr(s.list, s.place)};`);
  tooMany(out, depth + 1, s.line, list, s.atMost);
  const k = s.parallel.atATime === null ? `${list}.length` : String(s.parallel.atATime);
  const assign = s.collect === null ? "" : `${ident(s.collect.name)} = `;
  out.line(
    depth + 1,
    `${assign}await dd.rounds(${k}, ${list}, async (${ident(s.variable)}: ${elem}, ${i}: number) => {`,
  );
  out.line(depth + 2, `const ys: ${collType}[] = [];`);
  declare(out, depth + 2, assigned(s.body, new Map()));
  block(out, depth + 2, s.body, {
    ...ctx,
    loops: [...ctx.loops, { place: s.place, counter: i }],
    collect: "ys",
  });
  if (!endsBlock(s.body)) out.line(depth + 2, "return ys;");
  out.line(depth + 1, "});");
  out.line(depth, "}");
}

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
  const ctx: Ctx = { loops: [], collect: null, block: "flow", plan, nows: new Set() };
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

function taskTables(plan: Plan): string[] {
  const lines = ["/** Each task's declared errors, as handlers and retriers name them. */", "const E = {"];
  for (const t of plan.tasks) {
    lines.push(`  ${prop(t.name)}: [${t.errors.map((e) => str(e.name)).join(", ")}],`);
  }
  lines.push(
    "} as const;",
    "",
    "/** Each task's retriers, in Step Functions' order. */",
    "const R: { readonly [task: string]: readonly dd.Retrier[] } = {",
  );
  for (const t of plan.tasks) {
    const rs = t.retry.map((r) =>
      `{ errors: [${
        r.errors.map(str).join(", ")
      }], maxAttempts: ${r.maxAttempts}, intervalSeconds: ${r.intervalSeconds}, backoff: ${str(r.backoff)} }`
    );
    lines.push(`  ${prop(t.name)}: [${rs.join(", ")}],`);
  }
  lines.push("};");
  return lines;
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

function casesType(plan: Plan): string {
  const fields = plan.cases.map((c) => `${prop(c.name)}: T.${typeName(c.machine)} | null`);
  return `{ ${fields.join("; ")}${fields.length > 0 ? ";" : ""} }`;
}

function otherBlock(
  out: Out,
  depth: number,
  plan: Plan,
  ss: readonly StmtPlan[],
  b: "failure" | "cancel",
): void {
  block(out, depth, ss, { loops: [], collect: null, block: b, plan, nows: new Set() });
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
  out.line(d, "if (resume !== undefined) Object.assign(cases, resume.cases);");
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
        maybeMissing(i.type) ? `${read("input", i.name)} ?? null` : read("input", i.name)
      };`,
    );
  }
  declare(out, d, vars);
  if (outermost(plan).size > 0) {
    out.line(d, "const dd_from = resume?.at ?? 0;");
    for (const v of flowVars) {
      out.line(
        d,
        `if (resume !== undefined) ${ident(v)} = resume.vars[${str(v)}] as ${
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
    otherBlock(out, d + 2, plan, plan.blocks.failure, "failure");
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
    otherBlock(out, d + 4, plan, plan.blocks.cancel, "cancel");
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

function lookupType(vars: ReadonlyMap<string, TypePlan>, name: string): TypePlan {
  const t = vars.get(name);
  assert(t !== undefined, `the variable ${name} has a type`);
  return t;
}
