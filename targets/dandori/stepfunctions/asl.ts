/**
 * The state machine of a flow (docs/targets.md#step-functions): Amazon States Language with
 * `QueryLanguage: JSONata`, built from the plan's structured form, statement by statement, each
 * compiled with the name of the state that comes after it (so a statement knows where it goes on: the
 * next statement, the loop's head, the block's end). The structured form rather than the graph,
 * because a parallel `for` is a Map whose iterations are a state machine of their own, nested where
 * the loop is.
 *
 * - **Start**: a Pass puts every variable of the flow (and of the states below) at null and each
 *   input from `$states.input` (missing → null), then a Choice checks the inputs' types and ranges
 *   (`Dandori.BadInput`); a flow with a period checks the entered time next (`Dandori.OutOfPeriod`).
 * - **A call** is a Task and, when its result is read, a Choice that checks it
 *   (`Dandori.BadResponse`); an `http` call whose values go into its URL's path has a Choice
 *   before it that fails the run when they make a path segment `.` or `..` (`Dandori.BadInput`). Its retriers are the plan's, in Step Functions' order: a retrier for
 *   `failure` stops the errors it does not retry with `MaxAttempts: 0` before `States.ALL`, which
 *   must be last. Its catchers send each error where the plan's routes say: a handler, or — the
 *   error written into `dd_error` as `{error, reason}` with the interpreter's reason — `on
 *   failure`, else the end that fails again with it. `failure` is `States.ALL`, the last catcher.
 * - **match** is a Choice whose every arm is written out; its Default fails
 *   (`Dandori.UnexpectedValue`, `Dandori.UnexpectedState`), never falling into an arm.
 * - **Loops** count in a variable `dd_n_<place>` (1 for the first iteration: the keys read it).
 *   `for` checks the list's length first (`Dandori.TooManyItems`) and collects its `yield`s with
 *   `$append`. `for … in parallel` is an INLINE Map; an iteration's variables are its own (nulled
 *   when it starts), an error it does not handle ends it as `{"fail": {error, reason, task}}`
 *   rather than failing the Map, and after the Map the first failure in list order goes on as a
 *   task's error (`task`: to `on failure`) or ends the run.
 * - **The period** before a statement that reads `now`: a Pass reads the entered time into
 *   `dd_now_<place>` and a Choice compares it; outside, the error goes as a task's would.
 * - **Endings**: `succeed` is a Succeed whose `Output` is every output (null when the flow has
 *   none); `fail` is a Fail; a run that fails again after `on failure` goes through a Choice, as a
 *   Fail's `Cause` must be a string and a `fail` without a reason has none.
 * @module
 */

import { assert, lookup, unreachable } from "../../../lang/common/assert.ts";
import {
  type CallPlan,
  type ExprPlan,
  type MatchSubject,
  type Plan,
  type StmtPlan,
  type TaskPlan,
  type TypePlan,
  valueInUrlPath,
} from "../../../lang/dandori/plan.ts";
import { DOT_SEGMENT, dotSegmentReason } from "../../../lang/dandori/rules.ts";
import { errorName, loopCounter, taskCall, urlExpr } from "./calls.ts";
import {
  type AslValue,
  ENTERED_SECOND,
  expr,
  type ExprEnv,
  fits,
  jx,
  single,
  str,
  typeTables,
} from "./jsonata.ts";
import { OWN_PREFIX, stateName, variableNames } from "./names.ts";

/** A state of the definition. */
export type State = { readonly [k: string]: AslValue };

/** The definition of a state machine. */
export interface Definition {
  readonly Comment: string;
  readonly QueryLanguage: "JSONata";
  readonly StartAt: string;
  readonly States: { readonly [name: string]: State };
}

/** The states of the run's start, which read the time the run starts at (the ASL runner's first `now`). */
export const START_STATES: readonly string[] = [
  "start",
  "start input",
  "period at the start",
  "period at the start check",
];

/** The state every run that fails again after `on failure` (or without it) goes through. */
const FAIL_AGAIN = "fail again";

/** The error the interpreter fails with when a statement cannot go on, and its reason (interp.ts). */
const BAD_INPUT = {
  error: "Dandori.BadInput",
  reason: "the execution's input does not have the declared shape",
};

/** The states of one machine or of one Map's iterations, and the variables assigned there. */
class Part {
  readonly states = new Map<string, State>();
  readonly vars = new Set<string>();
  constructor(private readonly all: Set<string>) {}
  add(name: string, state: State): string {
    assert(!this.all.has(name), `a state's name is unique in the machine: ${name}`);
    this.all.add(name);
    this.states.set(name, state);
    return name;
  }
}

/** Where a statement is compiled. */
interface Ctx {
  readonly part: Part;
  /** The variable an error is written into before it goes on: `dd_error`, or an iteration's own. */
  readonly errorVar: string;
  /** Where a task's error no handler takes goes, once written into `errorVar`. */
  readonly failure: string;
  /** The Map place when inside its iterations. */
  readonly iteration: string | null;
  /** Where `break` goes. */
  readonly exit: string | null;
  /** The place of the nearest `for`, whose `yield`s a `yield` appends to. */
  readonly collect: string | null;
  /** What `now` reads in the statement being compiled. */
  readonly now: string;
}

/** The state machine of a flow's plan; `comment` is the definition's `Comment`. */
export function definition(plan: Plan, comment: string): Definition {
  return new Builder(plan).build(comment);
}

class Builder {
  private readonly names = new Set<string>();
  private readonly top = new Part(this.names);
  private readonly types;
  private readonly vars: Map<string, string>;
  private readonly tasks: Map<string, TaskPlan>;
  private failAgain: string | null = null;

  constructor(private readonly plan: Plan) {
    this.types = typeTables(plan);
    this.vars = variableNames(flowVariables(plan));
    this.tasks = new Map(plan.tasks.map((t) => [t.name, t]));
  }

  build(comment: string): Definition {
    const p = this.plan;
    const flowEnd = this.top.add("end", {
      Type: "Succeed",
      Output: jx(p.outputs.length === 0 ? "null" : "{}"),
    });
    const base: Omit<Ctx, "failure"> = {
      part: this.top,
      errorVar: this.own("dd_error"),
      iteration: null,
      exit: null,
      collect: null,
      now: ENTERED_SECOND,
    };
    const failure = p.blocks.failure === null
      ? this.failAgainState()
      : this.list(p.blocks.failure, this.failAgainState(), { ...base, failure: this.failAgainState() });
    const body = this.list(p.blocks.flow, flowEnd, { ...base, failure });
    const first = p.period === null ? body : this.periodAtStart(body);
    const check = this.top.add("start input", {
      Type: "Choice",
      Choices: [{ Condition: jx(this.inputsFit()), Next: first }],
      Default: this.top.add("start bad input", {
        Type: "Fail",
        Error: BAD_INPUT.error,
        Cause: BAD_INPUT.reason,
      }),
    });
    const assign: Record<string, AslValue> = {};
    for (const v of [...this.top.vars].sort()) assign[v] = null;
    for (const i of p.inputs) {
      assign[this.variable(i.name)] = jx(
        `($exists($states.input.\`${i.name}\`) ? $states.input.\`${i.name}\` : null)`,
      );
    }
    const start = this.top.add("start", { Type: "Pass", Assign: assign, Next: check });
    return { Comment: comment, QueryLanguage: "JSONata", StartAt: start, States: ordered(this.top, start) };
  }

  /** A flow's variable's name in the machine (`$` not included). */
  private variable(name: string): string {
    return lookup(this.vars, name, "variable");
  }

  /** A variable of the generated states, registered in the part where it is assigned. */
  private own(name: string, part: Part = this.top): string {
    assert(name.startsWith(OWN_PREFIX), "the states' own variables begin with dd_");
    part.vars.add(name);
    return name;
  }

  private env(ctx: Ctx): ExprEnv {
    return { variable: (n) => `$${this.variable(n)}`, now: ctx.now };
  }

  private inputsFit(): string {
    const tests = this.plan.inputs.map((i) => fits(this.types, i.type, i.range, `$${this.variable(i.name)}`));
    return ['$type($states.input) = "object"', ...tests].join(" and ");
  }

  private periodAtStart(body: string): string {
    const period = this.plan.period;
    assert(period !== null, "a period check is of a flow with a period");
    const now = this.own("dd_now_start");
    const outside = this.top.add("period at the start outside", {
      Type: "Fail",
      Error: "Dandori.OutOfPeriod",
      Cause: jx(
        `"the run starts at " & $${now} & ${
          str(`, outside the period the workflow runs in, ${period.text}`)
        }`,
      ),
    });
    const check = this.top.add("period at the start check", {
      Type: "Choice",
      Choices: [{ Condition: jx(inPeriod(period, `$${now}`)), Next: body }],
      Default: outside,
    });
    return this.top.add("period at the start", {
      Type: "Pass",
      Assign: { [now]: jx(ENTERED_SECOND) },
      Next: check,
    });
  }

  /** The states that fail the run again with `dd_error`: with its reason as the Cause, or with none. */
  private failAgainState(): string {
    if (this.failAgain !== null) return this.failAgain;
    const without = this.top.add(`${FAIL_AGAIN} without cause`, {
      Type: "Fail",
      Error: jx("$dd_error.error"),
    });
    const withCause = this.top.add(`${FAIL_AGAIN} with cause`, {
      Type: "Fail",
      Error: jx("$dd_error.error"),
      Cause: jx("$dd_error.reason"),
    });
    this.failAgain = this.top.add(FAIL_AGAIN, {
      Type: "Choice",
      Choices: [{ Condition: jx("$dd_error.reason = null"), Next: without }],
      Default: withCause,
    });
    return this.failAgain;
  }

  // -------------------------------------------------------------------------------------------
  // Statements

  /** A list of statements, each going on to the next, the last to `next`; the first state's name. */
  private list(ss: readonly StmtPlan[], next: string, ctx: Ctx): string {
    const checked = new Map(
      ss.flatMap((s) => s.kind === "period" ? [[s.before, `$dd_now_${s.before}`]] : []),
    );
    let after = next;
    for (let i = ss.length - 1; i >= 0; i--) {
      const s = ss[i];
      after = this.stmt(s, after, { ...ctx, now: checked.get(s.place) ?? ENTERED_SECOND });
    }
    return after;
  }

  /**
   * An error that leaves the statement: outside an iteration, a Fail when it is no task's (it ends
   * the run at once); else written into the context's error variable, going on to `failure`.
   */
  private raise(ctx: Ctx, name: string, error: string, reason: string | null, task: boolean): string {
    if (ctx.iteration === null && !task) {
      return ctx.part.add(name, {
        Type: "Fail",
        Error: error,
        ...(reason === null ? {} : { Cause: jx(reason) }),
      });
    }
    return ctx.part.add(name, {
      Type: "Pass",
      Assign: { [this.own(ctx.errorVar, ctx.part)]: jx(errorRecord(str(error), reason ?? "null", task)) },
      Next: ctx.failure,
    });
  }

  private stmt(s: StmtPlan, next: string, ctx: Ctx): string {
    const p = ctx.part;
    const env = this.env(ctx);
    switch (s.kind) {
      case "period":
        return this.period(s.before, s.line, next, ctx);
      case "call":
        return this.call(s.place, s.line, s.call, s.bind, next, ctx);
      case "let":
        return p.add(stateName(s.place, "let"), {
          Type: "Pass",
          Assign: { [this.assigned(s.name, ctx)]: jx(expr(s.value, env)) },
          Next: next,
        });
      case "match":
        return this.match(s.place, s.line, s.subject, s.arms, next, ctx);
      case "wait":
        return p.add(stateName(s.place, "wait"), { Type: "Wait", Seconds: s.seconds, Next: next });
      case "wait until":
        return p.add(stateName(s.place, "wait"), {
          Type: "Wait",
          Timestamp: jx(expr(s.at, env)),
          Next: next,
        });
      case "repeat":
        return this.repeat(s.place, s.atMost, s.body, next, ctx);
      case "for":
        return s.parallel === null ? this.sequential(s, next, ctx) : this.parallel(s, next, ctx);
      case "yield": {
        assert(ctx.collect !== null, "`yield` is in a `for`");
        const yields = this.own(`dd_yields_${ctx.collect}`, p);
        return p.add(stateName(s.place, "yield"), {
          Type: "Pass",
          Assign: { [yields]: jx(`$append($${yields}, ${single(expr(s.value, env), s.value.type)})`) },
          Next: next,
        });
      }
      case "break":
        assert(ctx.exit !== null, "`break` is in a loop");
        return ctx.exit;
      case "pass":
        return next;
      case "succeed": {
        const given = new Map(s.outputs.map((o) => [o.name, o.value]));
        const outputs = this.plan.outputs.map((o) => {
          const v = given.get(o.name);
          return `${str(o.name)}: ${v === undefined ? "null" : expr(v, env)}`;
        });
        return p.add(stateName(s.place, "succeed"), {
          Type: "Succeed",
          Output: jx(outputs.length === 0 ? "null" : `{${outputs.join(", ")}}`),
        });
      }
      case "fail":
        return this.raise(
          ctx,
          stateName(s.place, "fail"),
          s.error,
          s.reason === null ? null : expr(s.reason, env),
          false,
        );
      default:
        return unreachable(s, "statement");
    }
  }

  /** A flow variable a statement assigns, registered where it is assigned. */
  private assigned(name: string, ctx: Ctx): string {
    const v = this.variable(name);
    ctx.part.vars.add(v);
    return v;
  }

  private period(before: string, line: number, next: string, ctx: Ctx): string {
    const period = this.plan.period;
    assert(period !== null, "a period check is of a flow with a period");
    const now = this.own(`dd_now_${before}`, ctx.part);
    const reason = `${str(`line ${line}: now is `)} & $${now} & ${
      str(`, outside the period the workflow runs in, ${period.text}`)
    }`;
    const outside = this.raise(ctx, stateName(before, "outside"), "Dandori.OutOfPeriod", reason, true);
    const check = ctx.part.add(stateName(before, "period"), {
      Type: "Choice",
      Choices: [{ Condition: jx(inPeriod(period, `$${now}`)), Next: next }],
      Default: outside,
    });
    return ctx.part.add(stateName(before, "now"), {
      Type: "Pass",
      Assign: { [now]: jx(ENTERED_SECOND) },
      Next: check,
    });
  }

  // -------------------------------------------------------------------------------------------
  // Calls

  private call(
    place: string,
    line: number,
    call: CallPlan,
    bind: Extract<StmtPlan, { kind: "call" }>["bind"],
    next: string,
    ctx: Ctx,
  ): string {
    const task = lookup(this.tasks, call.task, "task");
    const env = this.env(ctx);
    const tc = taskCall(this.plan, task, call, place, env);
    const checked = task.result !== null || task.callee.kind === "book";
    const after = checked ? this.resultCheck(place, line, task, next, ctx) : next;
    const state: Record<string, AslValue> = { Type: "Task", Resource: tc.resource, Arguments: tc.args };
    const timeout = task.timeout;
    if (timeout !== null) {
      if (timeout.kind === "after") state.TimeoutSeconds = timeout.seconds;
      else {
        const deadline = call.args.find((a) => a.name === timeout.param);
        assert(deadline !== undefined, "`timeout until` reads an argument the call gives (E003)");
        state.TimeoutSeconds = jx(
          `$max([1, $ceil(($toMillis(${expr(deadline.value, env)}) - $millis()) / 1000)])`,
        );
      }
    }
    const retry = this.retriers(task);
    if (retry.length > 0) state.Retry = retry;
    state.Catch = this.catchers(line, task, call, next, ctx);
    if (checked) state.Output = jx(tc.result);
    const assign = this.onSuccess(task, call, bind, tc.result, env, ctx) ??
      this.agentRead(place, task, tc.result, ctx);
    if (assign !== null) state.Assign = assign;
    state.Next = after;
    const sent = ctx.part.add(stateName(place, task.name), state);
    return valueInUrlPath(task.callee) ? this.urlCheck(place, line, task, call, sent, ctx) : sent;
  }

  /**
   * The Choice before an `http` call whose values go into its URL's path: a path segment `.` or
   * `..` they make fails the run (`Dandori.BadInput`, rules.ts `DOT_SEGMENT`) instead of sending
   * the call to another path.
   */
  private urlCheck(
    place: string,
    line: number,
    task: TaskPlan,
    call: CallPlan,
    next: string,
    ctx: Ctx,
  ): string {
    const refused = this.raise(
      ctx,
      stateName(place, "bad url"),
      "Dandori.BadInput",
      str(dotSegmentReason(line, task.name)),
      false,
    );
    const dot = `/${DOT_SEGMENT.replaceAll("/", "\\/")}/i`;
    return ctx.part.add(stateName(place, "url check"), {
      Type: "Choice",
      Choices: [{ Condition: jx(`$contains(${urlExpr(task, call, this.env(ctx))}, ${dot})`), Next: refused }],
      Default: next,
    });
  }

  /**
   * What a call assigns when it returns: its `let`, or its case's hold record made from the
   * arguments (docs/design/dandori.md#holds-of-a-book).
   */
  private onSuccess(
    task: TaskPlan,
    call: CallPlan,
    bind: Extract<StmtPlan, { kind: "call" }>["bind"],
    result: string,
    env: ExprEnv,
    ctx: Ctx,
  ): Record<string, AslValue> | null {
    if (bind === null) return null;
    const callee = task.callee;
    let value = result;
    if (callee.kind === "book") {
      if (callee.op === "do") value = "null";
      else {
        const given = new Map(call.args.map((a) => [a.name, a.value]));
        const state = callee.op === "hold" ? "held" : callee.op === "post" ? "posted" : "voided";
        const fields = callee.key.map((k) => {
          const v: ExprPlan | undefined = given.get(k);
          return `${str(k)}: ${v === undefined ? "null" : expr(v, env)}`;
        });
        value = `{${[...fields, `"state": ${str(state)}`].join(", ")}}`;
      }
    }
    return { [this.assigned(bind.name, ctx)]: jx(value) };
  }

  /**
   * An agent's answer read in the Task's `Assign` when the call keeps no result, as when it does: a
   * refusal then fails the Task into its Retry and Catch on every engine (LocalStack 4.14.0 takes a
   * failure in `Output` alone as `States.Runtime`, which no catcher takes).
   */
  private agentRead(
    place: string,
    task: TaskPlan,
    result: string,
    ctx: Ctx,
  ): Record<string, AslValue> | null {
    if (task.callee.kind !== "agent") return null;
    return { [this.own(`dd_answer_${place}`, ctx.part)]: jx(result) };
  }

  /** The Choice after a call whose result is read: the result's type and range, or a book's done. */
  private resultCheck(place: string, line: number, task: TaskPlan, next: string, ctx: Ctx): string {
    const bad = this.raise(
      ctx,
      stateName(place, "bad response"),
      "Dandori.BadResponse",
      str(`line ${line}: the answer from ${task.name} does not have the declared shape`),
      false,
    );
    const condition = task.callee.kind === "book"
      ? '($type($states.input) = "object" and $states.input.result in ["done", "done_before"])'
      : (() => {
        const r = task.result;
        assert(r !== null, "a checked result is declared");
        return fits(this.types, r.type, r.range, "$states.input");
      })();
    return ctx.part.add(stateName(place, "result"), {
      Type: "Choice",
      Choices: [{ Condition: jx(condition), Next: next }],
      Default: bad,
    });
  }

  /** The plan's retriers as Step Functions' (a retrier for `failure` is `States.ALL` after a stop). */
  private retriers(task: TaskPlan): AslValue[] {
    const out: AslValue[] = [];
    for (const r of task.retry) {
      const timing = { IntervalSeconds: r.intervalSeconds, BackoffRate: Number(r.backoff) };
      if (r.errors.includes("*")) {
        out.push({ ErrorEquals: ["States.ALL"], MaxAttempts: r.maxAttempts, ...timing });
        continue;
      }
      if (!r.errors.includes("failure")) {
        out.push({
          ErrorEquals: r.errors.map((e) => aslError(task, e)),
          MaxAttempts: r.maxAttempts,
          ...timing,
        });
        continue;
      }
      const stopped = [...task.errors.map((e) => e.name), "timeout"].filter((e) => !r.errors.includes(e));
      if (stopped.length > 0) {
        out.push({ ErrorEquals: stopped.map((e) => aslError(task, e)), MaxAttempts: 0, ...timing });
      }
      out.push({ ErrorEquals: ["States.ALL"], MaxAttempts: r.maxAttempts, ...timing });
    }
    return out;
  }

  /** Each route of the call's errors as a catcher; `failure`'s (`States.ALL`) is the last. */
  private catchers(
    line: number,
    task: TaskPlan,
    call: CallPlan,
    next: string,
    ctx: Ctx,
  ): AslValue[] {
    const handlers = call.handlers.map((h) => this.list(h.body, next, ctx));
    const out: AslValue[] = [];
    const last: AslValue[] = [];
    const grouped = new Map<number, string[]>();
    for (const r of call.routes) {
      const into = r.error === "failure" ? last : out;
      if (typeof r.to === "number") {
        if (r.error === "failure") into.push({ ErrorEquals: ["States.ALL"], Next: handlers[r.to] });
        else if (grouped.has(r.to)) grouped.get(r.to)?.push(aslError(task, r.error));
        else {
          const names = [aslError(task, r.error)];
          grouped.set(r.to, names);
          into.push({ ErrorEquals: names, Next: handlers[r.to] });
        }
        continue;
      }
      const reason = taskReason(
        line,
        task.name,
        r.error,
        task.errors.some((e) => e.name === r.error),
        task.callee.kind !== "agent",
      );
      const error = r.error === "timeout"
        ? "Dandori.Timeout"
        : r.error === "failure"
        ? "Dandori.Failure"
        : r.error;
      into.push({
        ErrorEquals: [aslError(task, r.error)],
        Assign: { [this.own(ctx.errorVar, ctx.part)]: jx(errorRecord(str(error), reason, true)) },
        Next: ctx.failure,
      });
    }
    return [...out, ...last];
  }

  private match(
    place: string,
    line: number,
    subject: MatchSubject,
    arms: Extract<StmtPlan, { kind: "match" }>["arms"],
    next: string,
    ctx: Ctx,
  ): string {
    const env = this.env(ctx);
    const value = subject.kind === "case" ? `$${this.variable(subject.case)}` : expr(subject.value, env);
    const type = subject.kind === "case" ? null : subject.value.type;
    const choices = arms.map((arm, index) => {
      const body = this.list(arm.body, next, ctx);
      const tests = arm.conditions.map((c) => {
        switch (c.kind) {
          case "none":
            return `${value} = null`;
          case "some":
            return `${value} != null`;
          case "values":
            return subject.kind === "case"
              ? `(${value} != null and ${value}.state in [${c.values.map(str).join(", ")}])`
              : `${value} in [${c.values.map((v) => literal(v, type)).join(", ")}]`;
          default:
            return unreachable(c, "arm condition");
        }
      });
      const bind = arm.conditions.find((c) => c.kind === "some");
      const to = bind?.kind === "some"
        ? ctx.part.add(stateName(place, `arm ${index + 1}`), {
          Type: "Pass",
          Assign: { [this.assigned(bind.bind, ctx)]: jx(value) },
          Next: body,
        })
        : body;
      return { Condition: jx(tests.join(" or ")), Next: to };
    });
    const shown = subject.kind === "case"
      ? `(${value} = null ? "none" : ${value}.state)`
      : `(${value} = null ? "none" : ${value})`;
    const noArm = this.raise(
      ctx,
      stateName(place, "no arm"),
      subject.kind === "case" ? "Dandori.UnexpectedState" : "Dandori.UnexpectedValue",
      `${
        str(`line ${line}: no arm of the match takes `)
      } & $substring($string([${shown}]), 1, $length($string([${shown}])) - 2)`,
      false,
    );
    return ctx.part.add(stateName(place, "match"), { Type: "Choice", Choices: choices, Default: noArm });
  }

  // -------------------------------------------------------------------------------------------
  // Loops

  private repeat(place: string, atMost: number, body: readonly StmtPlan[], next: string, ctx: Ctx): string {
    const p = ctx.part;
    const n = this.own(loopCounter(place), p);
    const again = stateName(place, "again");
    const entry = this.list(body, again, { ...ctx, exit: next });
    const step = p.add(stateName(place, "next"), {
      Type: "Pass",
      Assign: { [n]: jx(`$${n} + 1`) },
      Next: entry,
    });
    p.add(again, {
      Type: "Choice",
      Choices: [{ Condition: jx(`$${n} < ${atMost}`), Next: step }],
      Default: next,
    });
    return p.add(stateName(place, "repeat"), { Type: "Pass", Assign: { [n]: 0 }, Next: again });
  }

  /** The list's length against `at most` (`Dandori.TooManyItems`), before the first iteration. */
  private size(place: string, line: number, atMost: number, list: string, next: string, ctx: Ctx): string {
    const tooMany = this.raise(
      ctx,
      stateName(place, "too many"),
      "Dandori.TooManyItems",
      `${str(`line ${line}: the list has `)} & $string($count($${list})) & ${
        str(` items, more than the ${atMost} the loop takes`)
      }`,
      false,
    );
    return ctx.part.add(stateName(place, "size"), {
      Type: "Choice",
      Choices: [{ Condition: jx(`$count($${list}) > ${atMost}`), Next: tooMany }],
      Default: next,
    });
  }

  private sequential(s: Extract<StmtPlan, { kind: "for" }>, next: string, ctx: Ctx): string {
    const p = ctx.part;
    const place = s.place;
    const n = this.own(loopCounter(place), p);
    const list = this.own(`dd_list_${place}`, p);
    const yields = this.own(`dd_yields_${place}`, p);
    const done = s.collect === null ? next : p.add(stateName(place, "done"), {
      Type: "Pass",
      Assign: { [this.assigned(s.collect.name, ctx)]: jx(`$${yields}`) },
      Next: next,
    });
    const again = stateName(place, "again");
    const entry = this.list(s.body, again, { ...ctx, exit: done, collect: place });
    const step = p.add(stateName(place, "next"), {
      Type: "Pass",
      Assign: { [this.assigned(s.variable, ctx)]: jx(`$${list}[$${n}]`), [n]: jx(`$${n} + 1`) },
      Next: entry,
    });
    p.add(again, {
      Type: "Choice",
      Choices: [{ Condition: jx(`$${n} < $count($${list})`), Next: step }],
      Default: done,
    });
    const size = this.size(place, s.line, s.atMost, list, again, ctx);
    return p.add(stateName(place, "for"), {
      Type: "Pass",
      Assign: { [list]: jx(expr(s.list, this.env(ctx))), [n]: 0, [yields]: [] },
      Next: size,
    });
  }

  private parallel(s: Extract<StmtPlan, { kind: "for" }>, next: string, ctx: Ctx): string {
    const p = ctx.part;
    const place = s.place;
    const list = this.own(`dd_list_${place}`, p);
    const results = this.own(`dd_results_${place}`, p);
    const failed = `$filter($${results}, function($r) { $exists($r.fail) })`;
    const first = `${failed}[0].fail`;
    const collected = s.collect === null ? next : p.add(stateName(place, "collect"), {
      Type: "Pass",
      Assign: {
        [this.assigned(s.collect.name, ctx)]: jx(
          `$reduce($${results}, function($all, $r) { $append($all, $r.yields) }, [])`,
        ),
      },
      Next: next,
    });
    const failure = this.afterFailedIteration(place, first, ctx);
    const check = p.add(stateName(place, "results"), {
      Type: "Choice",
      Choices: [{ Condition: jx(`$count(${failed}) > 0`), Next: failure }],
      Default: collected,
    });
    const processor = this.iterations(s);
    const map = p.add(stateName(place, "map"), {
      Type: "Map",
      Items: jx(`$${list}`),
      ItemSelector: {
        value: jx("$states.context.Map.Item.Value"),
        index: jx("$states.context.Map.Item.Index"),
      },
      MaxConcurrency: s.parallel?.atATime ?? 0,
      ItemProcessor: processor,
      Assign: { [results]: jx("$states.result") },
      Next: check,
    });
    const size = this.size(place, s.line, s.atMost, list, map, ctx);
    return p.add(stateName(place, "for"), {
      Type: "Pass",
      Assign: { [list]: jx(expr(s.list, this.env(ctx))) },
      Next: size,
    });
  }

  /**
   * After a Map: its first failure goes on as a task's error (to `on failure`) or ends the run
   * (docs/design/dandori.md#parallel-iterations).
   */
  private afterFailedIteration(place: string, first: string, ctx: Ctx): string {
    const p = ctx.part;
    const errorVar = this.own(ctx.errorVar, p);
    if (ctx.iteration !== null) {
      return p.add(stateName(place, "failed"), {
        Type: "Pass",
        Assign: { [errorVar]: jx(first) },
        Next: ctx.failure,
      });
    }
    const task = p.add(stateName(place, "failed task"), {
      Type: "Pass",
      Assign: { [errorVar]: jx(first) },
      Next: ctx.failure,
    });
    const other = p.add(stateName(place, "failed check"), {
      Type: "Pass",
      Assign: { [errorVar]: jx(first) },
      Next: this.failAgainState(),
    });
    return p.add(stateName(place, "failed"), {
      Type: "Choice",
      Choices: [{ Condition: jx(`${first}.task = true`), Next: task }],
      Default: other,
    });
  }

  /** The iterations of a parallel `for`: their own variables, their failures carried in their results. */
  private iterations(s: Extract<StmtPlan, { kind: "for" }>): AslValue {
    const place = s.place;
    const part = new Part(this.names);
    const errorVar = this.own(`dd_error_${place}`, part);
    const yields = this.own(`dd_yields_${place}`, part);
    const n = this.own(loopCounter(place), part);
    const end = part.add(stateName(place, "iteration end"), {
      Type: "Succeed",
      Output: jx(`{"yields": $${yields}}`),
    });
    const failed = part.add(stateName(place, "iteration failed"), {
      Type: "Succeed",
      Output: jx(`{"fail": $${errorVar}}`),
    });
    const inner: Ctx = {
      part,
      errorVar,
      failure: failed,
      iteration: place,
      exit: null,
      collect: place,
      now: ENTERED_SECOND,
    };
    const entry = this.list(s.body, end, inner);
    const item = this.assigned(s.variable, inner);
    const assign: Record<string, AslValue> = {};
    for (const v of [...part.vars].sort()) assign[v] = null;
    assign[item] = jx("$states.input.value");
    assign[n] = jx("$states.input.index + 1");
    assign[yields] = [];
    const start = part.add(stateName(place, "iteration"), { Type: "Pass", Assign: assign, Next: entry });
    return { ProcessorConfig: { Mode: "INLINE" }, StartAt: start, States: ordered(part, start) };
  }
}

/**
 * A part's states that a run can reach, its first state first, the rest in the order a reader
 * meets them (statements are compiled from the last to the first, so the states were added in
 * reverse). A state no run reaches (the flow's end, when every path ends before it) is left out:
 * Step Functions refuses a definition with one.
 */
function ordered(part: Part, first: string): { [name: string]: State } {
  const reached = new Set<string>([first]);
  const queue = [first];
  while (queue.length > 0) {
    const state = lookup(part.states, queue.pop() ?? first, "state");
    for (const to of transitions(state)) {
      if (reached.has(to)) continue;
      reached.add(to);
      queue.push(to);
    }
  }
  const out: { [name: string]: State } = { [first]: lookup(part.states, first, "state") };
  for (const [name, state] of [...part.states].reverse()) {
    if (name !== first && reached.has(name)) out[name] = state;
  }
  return out;
}

/** Where a state goes on to: `Next`, a Choice's rules and `Default`, and its catchers. */
function transitions(s: State): string[] {
  const out: string[] = [];
  const add = (v: AslValue | undefined) => {
    if (typeof v === "string") out.push(v);
  };
  add(s.Next);
  add(s.Default);
  for (const key of ["Choices", "Catch"]) {
    const list = s[key];
    if (Array.isArray(list)) {
      for (const r of list) {
        if (r !== null && typeof r === "object" && !Array.isArray(r)) add((r as State).Next);
      }
    }
  }
  return out;
}

/** An error as `dd_error` holds it: `{error, reason, task}` (the reason an expression or null). */
function errorRecord(error: string, reason: string, task: boolean): string {
  return `{"error": ${error}, "reason": ${reason}, "task": ${task}}`;
}

/**
 * The interpreter's reason for a task's error (interp.ts `taskError`), the answer's cause after it
 * (`withCause`: not an agent's, whose cause is the platform's text). An empty `Cause` is no cause: a
 * service integration gives one where it has nothing to say.
 */
function taskReason(
  line: number,
  task: string,
  error: string,
  declared: boolean,
  withCause: boolean,
): string {
  const cause = "$states.errorOutput.Cause";
  const given = `($exists(${cause}) and ${cause} != "")`;
  if (declared) return `(${given} ? ${cause} : null)`;
  const what = error === "timeout" ? "timed out" : "failed";
  const reason = str(`line ${line}: ${task} ${what}`);
  return withCause ? `${reason} & (${given} ? ": " & ${cause} : "")` : reason;
}

/** An error of the plan as Step Functions names it: a declared one's, `States.Timeout`, or every error. */
function aslError(task: TaskPlan, error: string): string {
  if (error === "timeout") return "States.Timeout";
  if (error === "failure") return "States.ALL";
  return errorName(task, error);
}

/** A value of a match's arm: a bool is `true`/`false`, any other a string. */
function literal(value: string, type: TypePlan | null): string {
  const inner = type?.kind === "optional" ? type.inner : type;
  return inner?.kind === "bool" ? value : str(value);
}

function inPeriod(period: NonNullable<Plan["period"]>, now: string): string {
  const tests: string[] = [];
  if (period.first !== null) tests.push(`$substring(${now}, 0, 19) >= ${str(period.first)}`);
  if (period.after !== null) tests.push(`$substring(${now}, 0, 19) < ${str(period.after)}`);
  return tests.length === 0 ? "true" : tests.join(" and ");
}

/** Every name the flow's statements, inputs and cases give a value to. */
function flowVariables(plan: Plan): string[] {
  const out = new Set<string>([...plan.inputs.map((i) => i.name), ...plan.cases.map((c) => c.name)]);
  const walk = (ss: readonly StmtPlan[]) => {
    for (const s of ss) {
      switch (s.kind) {
        case "call":
          if (s.bind !== null) out.add(s.bind.name);
          s.call.handlers.forEach((h) => walk(h.body));
          break;
        case "let":
          out.add(s.name);
          break;
        case "match":
          for (const a of s.arms) {
            for (const c of a.conditions) if (c.kind === "some") out.add(c.bind);
            walk(a.body);
          }
          break;
        case "repeat":
          walk(s.body);
          break;
        case "for":
          out.add(s.variable);
          if (s.collect !== null) out.add(s.collect.name);
          walk(s.body);
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
  };
  walk(plan.blocks.flow);
  walk(plan.blocks.failure ?? []);
  walk(plan.blocks.cancel ?? []);
  return [...out];
}
