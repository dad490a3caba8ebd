/**
 * dandori's reference interpreter (P3): the one place that decides what a flow means. Every
 * target is proven against it, scenario by scenario. It reads the checked flow alone, never the
 * plan nor anything the lowering computed: a task's retries and timeout are the model's (`retry`,
 * `timeout` as resolved), the period is the model's range, and a call is retried by the rule
 * the design states (docs/design/dandori.md#retries), not by the plan's retriers. So a mistake in
 * the lowering is made by the targets alone, and a differential run shows it.
 *
 * A run starts from the execution's input and the scenario's `now`, and asks `Answers` for the
 * answer of every attempt of every call, in the order the calls happen. The clock moves only by
 * waits, by the waits between retries, and by the length of a call that timed out; an answered
 * call takes no time. `now` keeps the scenario's time (its second time, when it gives two). What
 * the interpreter shares with the lowering is not lowering: a statement's place and whether it
 * reads `now` (`places.ts`), what a time word means (`lexer.ts`), and the rules every platform
 * applies alike, pinned by shared vectors (`rules.ts`: retry waits, keys, seconds until a time), and
 * how a Connect service's answer is filled in (`connect.ts`, from the table the check read from the
 * `.proto`, as the model holds it), and how a Claude agent's enum values are read without case
 * (`agent_requests.ts`'s `foldEnums`, over the flow's types).
 * What a call looks like to a platform is by design rendered from the plan's call, with the run's
 * values (`views.ts`): the views read the plan, the run does not.
 *
 * Decisions where the design leaves a choice are written in `docs/dandori.md` (「What a run does」).
 * @module
 */

import { assert, lookup, unreachable } from "../common/assert.ts";
import { type Text, tr } from "../common/text.ts";
import type {
  ArgAst,
  CallStmtAst,
  ExprAst,
  ForStmtAst,
  MatchStmtAst,
  PatternAst,
  RepeatStmtAst,
  StmtAst,
} from "./ast.ts";
import type { CheckedFlow } from "./checked.ts";
import { foldEnums } from "./agent_requests.ts";
import { filledResponse } from "./connect.ts";
import { durationSeconds } from "./lexer.ts";
import type { Retry, TaskDef } from "./model.ts";
import { placeOf, readsNow } from "./places.ts";
import { rangeText } from "./ranges.ts";
import {
  dotSegmentReason,
  filledUrl,
  hasDotSegment,
  idempotencyKey,
  retryDelayMs,
  secondsUntil,
  timestampMs,
  timestampText,
} from "./rules.ts";
import type { Block } from "./typing.ts";
import { urlParts } from "./urls.ts";
import { fits, inRange, isRecord, readField, textOf, type Value } from "./values.ts";

/** The most calls one run makes before it is stopped (a flow's loops bound it far below this). */
export const MAX_CALLS = 100_000;

/** The answer of one attempt of a call (a scenario's `answers` entry). */
export type Answer =
  | { readonly kind: "ok"; readonly value: Value }
  | { readonly kind: "error"; readonly error: string; readonly cause: string | null }
  | { readonly kind: "cancel" };

/** One attempt of a call, as `Answers` is asked for it. */
export interface Attempt {
  readonly line: number;
  readonly place: string;
  readonly task: TaskDef;
  readonly attempt: number;
  readonly block: Block;
  /** The arguments as the call gives them, by parameter name. */
  readonly args: Readonly<Record<string, Value>>;
  /** The counts of the loops around the call, outermost first (1 for a first iteration). */
  readonly loops: readonly number[];
  readonly clockMs: number;
  /** True when a cancel may arrive here (the flow has `on cancel`, and this is not in it). */
  readonly cancellable: boolean;
  /** The execution this call belongs to (a child flow's own when `--children run`). */
  readonly execution: string;
}

/** Where the answers of a run come from: a scenario, the books computed, or the scenario generator. */
export interface Answers {
  /** The answer of one attempt; throws a `ScenarioError` when it has none that fits. */
  next(a: Attempt): Answer;
  /** The clock moved to `clockMs` (books age with it). */
  advance?(clockMs: number): void;
}

/** A scenario that does not fit the flow: which call, where, and what is wrong. */
export class ScenarioError extends Error {
  constructor(readonly text: Text) {
    super(text.en);
  }
}

/** How a run ended. */
export type Ending =
  | { readonly kind: "succeed"; readonly outputs: Readonly<Record<string, Value>> | null }
  | {
    readonly kind: "fail";
    readonly error: string;
    readonly reason: string | null;
    /** The cases a `fail … leaving` hands over; null when no `fail` statement ended the run. */
    readonly leaving?: readonly string[];
  }
  | { readonly kind: "cancelled" };

/** One attempt of a call as the run records it. */
export interface CallRecord {
  readonly line: number;
  readonly place: string;
  readonly task: string;
  readonly attempt: number;
  /** The clock when the attempt started, as a timestamp. */
  readonly at: string;
  readonly args: Readonly<Record<string, Value>>;
  readonly loops: readonly number[];
  readonly execution: string;
  readonly answer: Answer;
  /** What the run did with the answer. */
  readonly then: AfterAnswer;
  /** The child flow and its own calls, when `--children run` ran it. */
  readonly child: ChildRun | null;
}

/** A child flow run by the interpreter: the checked child (the views lower it for its calls) and its calls. */
export interface ChildRun {
  readonly flow: CheckedFlow;
  readonly calls: readonly CallRecord[];
}

/** What a run does with an answer: goes on, tries again, runs a handler, leaves the block, or stops. */
export type AfterAnswer = "ok" | "bad response" | "retried" | "handled" | "unhandled" | "cancel";

/** What one run did. */
export interface Run {
  readonly calls: readonly CallRecord[];
  readonly ending: Ending;
  /** Each case's record at the end, or null for a case that never started. */
  readonly cases: ReadonlyMap<string, Value>;
  readonly clockMs: number;
  /** The statements the run passed, in order, with what happened there (the page lights them). */
  readonly visits: readonly Visit[];
  /**
   * With `RunOptions.snapshots`: what the run held just before each visit, then at its end (one
   * more than the visits); else null.
   */
  readonly snapshots: readonly Snapshot[] | null;
  /** Every `wait` the run made, in order: where, and the clock before and after it (a target's waits are compared with these). */
  readonly waits: readonly Wait[];
}

/** One `wait` of a run. */
export interface Wait {
  readonly place: string;
  readonly loops: readonly number[];
  readonly fromMs: number;
  readonly toMs: number;
}

/** What happened at one statement (a place of the plan's graph). */
export type Visit =
  | { readonly place: string; readonly kind: "stmt" }
  | { readonly place: string; readonly kind: "arm"; readonly index: number }
  | { readonly place: string; readonly kind: "handler"; readonly index: number }
  | { readonly place: string; readonly kind: "ok" }
  | { readonly place: string; readonly kind: "iteration"; readonly count: number }
  | { readonly place: string; readonly kind: "done" }
  | { readonly place: string; readonly kind: "unhandled" }
  /** A period check (`period:start` or `s<line>:period`) found the time outside, or inside. */
  | { readonly place: string; readonly kind: "outside" }
  | { readonly place: string; readonly kind: "inside" }
  /** A cancel arrived while the call ran. */
  | { readonly place: string; readonly kind: "cancel" }
  /** The call's answer does not have the declared shape. */
  | { readonly place: string; readonly kind: "bad response" }
  /** A value given to the call makes a path segment `.` or `..` in its URL: the call is not made. */
  | { readonly place: string; readonly kind: "bad input" }
  /**
   * A parallel loop's last iteration ended with a failure held (docs/design/dandori.md#parallel-iterations), which leaves the loop the
   * way the plan's edge says: a task's error (`unhandled`), a period check (`outside`), or a
   * `fail` or a malformed answer (`failed`).
   */
  | { readonly place: string; readonly kind: "held"; readonly by: "unhandled" | "outside" | "failed" };

/** The variables in scope (inputs included), each case's record and the clock, at one moment of a run. */
export interface Snapshot {
  readonly vars: ReadonlyMap<string, Value>;
  readonly cases: ReadonlyMap<string, Value>;
  readonly clockMs: number;
}

/** How a run is started. */
export interface RunOptions {
  /** The execution's input, as the scenario gives it. */
  readonly input: Value;
  /** The scenario's `now`: the time at the start and the time every later statement reads. */
  readonly now: readonly [string, string];
  readonly answers: Answers;
  /** The execution's name (the workflow id): keys are formed from it. */
  readonly execution: string;
  /** Runs `flow` tasks' child flows on the interpreter instead of asking for their answers. */
  readonly children: boolean;
  /** Keeps a snapshot at every visit (`Run.snapshots`), for the page that steps through the run. */
  readonly snapshots?: boolean;
}

/** The default `now` of a scenario (docs/design/dandori.md#the-reference-interpreter). */
export const DEFAULT_NOW = "2026-03-31T15:30:00Z";

/** An error that leaves the statement where it happened. */
interface Raised {
  readonly error: string;
  readonly reason: string | null;
  /** A task's error and a period check outside go to `on failure`; a failed check does not. */
  readonly by: "task" | "period" | "check";
}

/** What running a statement led to. */
type Flow =
  | { readonly kind: "next" }
  | { readonly kind: "break" }
  | { readonly kind: "end"; readonly ending: Ending }
  | { readonly kind: "raised"; readonly raised: Raised }
  | { readonly kind: "cancel" };

const NEXT: Flow = { kind: "next" };

/** The variables of a run (a parallel iteration has its own, over the outer ones). */
class Scope {
  private readonly own = new Map<string, Value>();
  constructor(private readonly outer: Scope | null) {}
  get(name: string): Value | undefined {
    return this.own.has(name) ? this.own.get(name) : this.outer?.get(name);
  }
  set(name: string, v: Value): void {
    this.own.set(name, v);
  }
  /** Every variable seen from here, the outer ones first, in the order they got a value. */
  all(): Map<string, Value> {
    const out = this.outer === null ? new Map<string, Value>() : this.outer.all();
    for (const [k, v] of this.own) out.set(k, v);
    return out;
  }
}

interface Ctx {
  readonly block: Block;
  readonly scope: Scope;
  readonly loops: readonly number[];
  readonly parallel: boolean;
  /** The values yielded by the innermost collecting loop's current iteration. */
  readonly yields: Value[] | null;
}

/** One run of one flow. */
class Interp {
  private readonly calls: CallRecord[] = [];
  private readonly visits: Visit[] = [];
  private readonly snapshots: Snapshot[] | null;
  private readonly waits: Wait[] = [];
  private readonly cases = new Map<string, Value>();
  private clockMs: number;
  private readonly nowText: readonly [string, string];

  constructor(
    private readonly flow: CheckedFlow,
    private readonly o: RunOptions,
    private readonly count: { calls: number },
  ) {
    const start = timestampMs(o.now[0]);
    assert(start !== null, "a scenario's now is a timestamp");
    this.clockMs = start;
    this.nowText = o.now;
    for (const c of flow.model.cases.keys()) this.cases.set(c, null);
    this.snapshots = o.snapshots === true ? [] : null;
  }

  run(): Run {
    const scope = new Scope(null);
    const ending = this.start(scope);
    this.snapshot(scope);
    return {
      calls: this.calls,
      ending,
      cases: this.cases,
      clockMs: this.clockMs,
      visits: this.visits,
      snapshots: this.snapshots,
      waits: this.waits,
    };
  }

  /** Records a visit, with what the run holds just before it when snapshots are kept. */
  private visit(v: Visit, scope: Scope): void {
    this.snapshot(scope);
    this.visits.push(v);
  }

  private snapshot(scope: Scope): void {
    this.snapshots?.push({ vars: scope.all(), cases: new Map(this.cases), clockMs: this.clockMs });
  }

  private start(scope: Scope): Ending {
    const m = this.flow.model;
    const input = this.o.input;
    const bad: Ending = {
      kind: "fail",
      error: "Dandori.BadInput",
      reason: "the execution's input does not have the declared shape",
    };
    if (!isRecord(input)) return bad;
    for (const f of m.inputs) {
      if (!fits(m.types, f.type, f.range, readField(input, f.name) ?? undefined)) return bad;
      scope.set(f.name, readField(input, f.name));
    }
    if (m.period !== null && !this.inPeriod(this.nowText[0])) {
      this.visit({ place: "period:start", kind: "outside" }, scope);
      return {
        kind: "fail",
        error: "Dandori.OutOfPeriod",
        reason: `the run starts at ${this.nowText[0]}, outside the period the workflow runs in, ${
          rangeText(m.period)
        }`,
      };
    }
    if (m.period !== null) this.visit({ place: "period:start", kind: "inside" }, scope);
    const flow = this.block(m.flow.body, { block: "flow", scope, loops: [], parallel: false, yields: null });
    return this.settle(flow, scope);
  }

  /** The ending of the body that led to `f`: `on failure` after a task's error, `on cancel` after a cancel. */
  private settle(f: Flow, scope: Scope): Ending {
    switch (f.kind) {
      case "next":
      case "break":
        return this.succeedEmpty();
      case "end":
        return f.ending;
      case "cancel":
        return this.cancelled(scope);
      case "raised":
        return this.raisedInBody(f.raised, scope);
      default:
        return unreachable(f, "flow");
    }
  }

  /** A task's error in the body runs `on failure`, which ends by failing again with it; anything else fails at once. */
  private raisedInBody(r: Raised, scope: Scope): Ending {
    const m = this.flow.model;
    if (r.by === "check" || m.onFailure === null) return { kind: "fail", error: r.error, reason: r.reason };
    const after = this.block(m.onFailure.body, {
      block: "failure",
      scope,
      loops: [],
      parallel: false,
      yields: null,
    });
    switch (after.kind) {
      case "next":
      case "break":
        return { kind: "fail", error: r.error, reason: r.reason };
      case "end":
        return after.ending;
      case "cancel":
        return this.cancelled(scope);
      case "raised":
        return { kind: "fail", error: after.raised.error, reason: after.raised.reason };
      default:
        return unreachable(after, "flow");
    }
  }

  private succeedEmpty(): Ending {
    return { kind: "succeed", outputs: this.flow.model.outputs.length === 0 ? null : {} };
  }

  private cancelled(scope: Scope): Ending {
    const m = this.flow.model;
    if (m.onCancel === null) return { kind: "cancelled" };
    const f = this.block(m.onCancel.body, {
      block: "cancel",
      scope,
      loops: [],
      parallel: false,
      yields: null,
    });
    switch (f.kind) {
      case "next":
      case "break":
      case "cancel":
        return { kind: "cancelled" };
      case "end":
        return f.ending;
      case "raised":
        return { kind: "fail", error: f.raised.error, reason: f.raised.reason };
      default:
        return unreachable(f, "flow");
    }
  }

  /** True when `time` is in the workflow's period, compared as every time range is (values.ts). */
  private inPeriod(time: string): boolean {
    const p = this.flow.model.period;
    assert(p !== null, "a period check is for a flow with a period");
    return inRange(p, time);
  }

  // -------------------------------------------------------------------------------------------
  // Statements

  private block(ss: readonly StmtAst[], ctx: Ctx): Flow {
    for (const s of ss) {
      const f = this.stmt(s, ctx);
      if (f.kind !== "next") return f;
    }
    return NEXT;
  }

  private stmt(s: StmtAst, ctx: Ctx): Flow {
    const place = placeOf(s);
    const period = this.flow.model.period;
    if (ctx.block === "flow" && period !== null && readsNow(s)) {
      const inside = this.inPeriod(this.nowText[1]);
      this.visit({ place: `${place}:period`, kind: inside ? "inside" : "outside" }, ctx.scope);
      if (!inside) {
        return {
          kind: "raised",
          raised: {
            error: "Dandori.OutOfPeriod",
            reason: `line ${s.line}: now is ${this.nowText[1]}, outside the period the workflow runs in, ${
              rangeText(period)
            }`,
            by: "period",
          },
        };
      }
    }
    this.visit({ place, kind: "stmt" }, ctx.scope);
    switch (s.kind) {
      case "call":
        return this.call(s, ctx);
      case "let":
        ctx.scope.set(s.name.text, this.expr(s.value, ctx));
        return NEXT;
      case "match":
        return this.match(s, ctx);
      case "wait": {
        const fromMs = this.clockMs;
        if (s.until !== null) {
          const until = timestampMs(textOf(this.expr(s.until, ctx)));
          assert(until !== null, "`wait until` reads a timestamp");
          this.advanceTo(Math.max(this.clockMs, until));
        } else {
          assert(s.duration !== null, "a wait has a length or a time");
          this.advanceTo(this.clockMs + durationSeconds(s.duration) * 1000);
        }
        this.waits.push({ place, loops: ctx.loops, fromMs, toMs: this.clockMs });
        return NEXT;
      }
      case "repeat":
        return this.repeat(s, ctx);
      case "for":
        return this.forStmt(s, ctx);
      case "yield":
        assert(ctx.yields !== null, "`yield` is the last line of a collecting loop");
        ctx.yields.push(this.expr(s.value, ctx));
        return NEXT;
      case "break":
        return { kind: "break" };
      case "pass":
        return NEXT;
      case "succeed": {
        const given = new Map(s.outputs.map((o) => [o.name.text, o.value]));
        const outputs = Object.fromEntries(this.flow.model.outputs.map((o) => {
          const e = given.get(o.name);
          return [o.name, e === undefined ? null : this.expr(e, ctx)];
        }));
        return {
          kind: "end",
          ending: { kind: "succeed", outputs: this.flow.model.outputs.length === 0 ? null : outputs },
        };
      }
      case "fail":
        return {
          kind: "end",
          ending: {
            kind: "fail",
            error: s.error.text,
            reason: s.reason === null ? null : textOf(this.expr(s.reason, ctx)),
          },
        };
      case "elided":
        throw new Error("dandori: `…` stops at E001 before a run");
      default:
        return unreachable(s, "statement");
    }
  }

  private advanceTo(ms: number): void {
    this.clockMs = ms;
    this.o.answers.advance?.(ms);
  }

  private match(s: MatchStmtAst, ctx: Ctx): Flow {
    const kind = lookup(this.flow.typed.matches, s, "match's kind");
    const subject = this.expr(s.subject, ctx);
    const takes = (p: PatternAst): { bind: string | null } | null => {
      switch (p.kind) {
        case "none":
          return subject === null ? { bind: null } : null;
        case "some":
          return subject !== null ? { bind: p.name.text } : null;
        case "value":
          return subject === p.name.text ? { bind: null } : null;
        case "bool":
          return subject === p.value ? { bind: null } : null;
        case "elided":
          throw new Error("dandori: `…` stops at E001 before a run");
        default:
          return unreachable(p, "pattern");
      }
    };
    for (const [index, arm] of s.arms.entries()) {
      for (const p of arm.patterns) {
        const took = takes(p);
        if (took === null) continue;
        this.visit({ place: placeOf(s), kind: "arm", index }, ctx.scope);
        if (took.bind !== null) ctx.scope.set(took.bind, subject);
        return this.block(arm.body, ctx);
      }
    }
    return {
      kind: "raised",
      raised: {
        error: kind.kind === "case" ? "Dandori.UnexpectedState" : "Dandori.UnexpectedValue",
        reason: `line ${s.line}: no arm of the match takes ${
          JSON.stringify(subject === null ? "none" : subject)
        }`,
        by: "check",
      },
    };
  }

  private repeat(s: RepeatStmtAst, ctx: Ctx): Flow {
    const place = placeOf(s);
    const most = Number(s.atMost.text);
    for (let i = 1; i <= most; i++) {
      this.visit({ place, kind: "iteration", count: i }, ctx.scope);
      const f = this.block(s.body, { ...ctx, loops: [...ctx.loops, i] });
      if (f.kind === "break") return this.done(place, ctx);
      if (f.kind !== "next") return f;
    }
    return this.done(place, ctx);
  }

  private done(place: string, ctx: Ctx): Flow {
    this.visit({ place, kind: "done" }, ctx.scope);
    return NEXT;
  }

  private forStmt(s: ForStmtAst, ctx: Ctx): Flow {
    const place = placeOf(s);
    const list = this.expr(s.list, ctx);
    assert(Array.isArray(list), "`for` goes over a list");
    const most = Number(s.atMost.text);
    if (list.length > most) {
      return {
        kind: "end",
        ending: {
          kind: "fail",
          error: "Dandori.TooManyItems",
          reason: `line ${s.line}: the list has ${list.length} items, more than the ${most} the loop takes`,
        },
      };
    }
    const collected: Value[] = [];
    if (s.parallel === null) {
      for (const [i, item] of list.entries()) {
        this.visit({ place, kind: "iteration", count: i + 1 }, ctx.scope);
        ctx.scope.set(s.variable.text, item);
        const yields: Value[] = [];
        const f = this.block(s.body, { ...ctx, loops: [...ctx.loops, i + 1], yields });
        collected.push(...yields);
        if (f.kind === "break") break;
        if (f.kind !== "next") return f;
      }
    } else {
      const failures: Flow[] = [];
      for (const [i, item] of list.entries()) {
        this.visit({ place, kind: "iteration", count: i + 1 }, ctx.scope);
        const scope = new Scope(ctx.scope);
        scope.set(s.variable.text, item);
        const yields: Value[] = [];
        const f = this.block(s.body, { ...ctx, scope, loops: [...ctx.loops, i + 1], parallel: true, yields });
        if (f.kind === "cancel") return f;
        if (f.kind === "next") collected.push(...yields);
        else failures.push(f);
      }
      if (failures.length > 0) {
        this.visit({ place, kind: "held", by: heldBy(failures[0]) }, ctx.scope);
        return failures[0];
      }
    }
    if (s.bind !== null) ctx.scope.set(s.bind.text, collected);
    return this.done(place, ctx);
  }

  // -------------------------------------------------------------------------------------------
  // Calls

  private call(s: CallStmtAst, ctx: Ctx): Flow {
    const task = lookup(this.flow.typed.calls, s, "call's task");
    const place = placeOf(s);
    const args = this.args(s.call.args, task, ctx);
    if (
      task.url !== null &&
      hasDotSegment(filledUrl(urlParts(task.url.text, task.params.map((p) => p.name)), args))
    ) {
      this.visit({ place, kind: "bad input" }, ctx.scope);
      return {
        kind: "raised",
        raised: { error: "Dandori.BadInput", reason: dotSegmentReason(s.line, task.name), by: "check" },
      };
    }
    let retried = 0;
    for (let attempt = 1;; attempt++) {
      if (++this.count.calls > MAX_CALLS) {
        throw new ScenarioError(
          tr(
            `line ${s.line}: the run makes more than ${MAX_CALLS} calls`,
            `${s.line} 行: 実行の呼び出しが ${MAX_CALLS} 回を超えます`,
          ),
        );
      }
      const at = timestampText(this.clockMs);
      const a: Attempt = {
        line: s.line,
        place,
        task,
        attempt,
        block: ctx.block,
        args,
        loops: ctx.loops,
        clockMs: this.clockMs,
        cancellable: this.flow.model.onCancel !== null && ctx.block !== "cancel",
        execution: this.o.execution,
      };
      const { answer, child } = this.ask(a, task);
      const record: { -readonly [K in keyof CallRecord]: CallRecord[K] } = {
        line: s.line,
        place,
        task: task.name,
        attempt,
        at,
        args,
        loops: ctx.loops,
        execution: this.o.execution,
        answer,
        then: "cancel",
        child,
      };
      this.calls.push(record);
      if (answer.kind === "cancel") {
        this.visit({ place, kind: "cancel" }, ctx.scope);
        return { kind: "cancel" };
      }
      if (answer.kind === "ok") {
        const f = this.answered(s, task, answer.value, args, ctx);
        record.then = f.kind === "raised" ? "bad response" : "ok";
        return f;
      }
      if (answer.error === "timeout") this.advanceTo(this.clockMs + this.timeoutMs(task, args));
      const retry = task.retry;
      if (retry !== null && retries(retry, task, answer.error) && retried < retry.times) {
        retried++;
        record.then = "retried";
        this.advanceTo(
          this.clockMs +
            retryDelayMs({ intervalSeconds: retry.everySeconds, backoff: retry.backoff }, retried),
        );
        continue;
      }
      const handled = s.handlers.some((h) => h.errors.some((e) => e.text === answer.error));
      record.then = handled ? "handled" : "unhandled";
      return this.handle(s, task, answer, ctx);
    }
  }

  /** The answer of an attempt: a child flow run here when `--children run`, else `Answers`'. */
  private ask(a: Attempt, task: TaskDef): { answer: Answer; child: ChildRun | null } {
    const child = this.o.children && task.method === "flow" ? this.flow.children.get(task.name) : undefined;
    if (child === undefined) return { answer: this.o.answers.next(a), child: null };
    const execution = [idempotencyKey(this.o.execution, a.place, a.loops), String(a.attempt)].join("/");
    const run = new Interp(child, {
      ...this.o,
      input: a.args,
      execution,
      now: [timestampText(this.clockMs), timestampText(this.clockMs)],
    }, this.count).run();
    this.advanceTo(run.clockMs);
    return { answer: childAnswer(task, run.ending), child: { flow: child, calls: run.calls } };
  }

  /** How long a timed-out attempt took: its `timeout`, until its deadline, or nothing known (0). */
  private timeoutMs(task: TaskDef, args: Readonly<Record<string, Value>>): number {
    const t = task.timeout;
    if (t === null) return 0;
    if (t.kind === "after") return t.seconds * 1000;
    const deadline = timestampMs(textOf(args[t.param] ?? null));
    assert(deadline !== null, "`timeout until` reads a timestamp argument");
    return secondsUntil(deadline, this.clockMs) * 1000;
  }

  private args(asts: readonly ArgAst[], task: TaskDef, ctx: Ctx): Record<string, Value> {
    const given = new Map(asts.flatMap((a) => a.kind === "arg" ? [[a.name.text, a.value] as const] : []));
    return Object.fromEntries(task.params.flatMap((p) => {
      const e = given.get(p.name);
      return e === undefined ? [] : [[p.name, this.expr(e, ctx)]];
    }));
  }

  private answered(
    s: CallStmtAst,
    task: TaskDef,
    value: Value,
    args: Readonly<Record<string, Value>>,
    ctx: Ctx,
  ): Flow {
    const m = this.flow.model;
    const place = placeOf(s);
    // A Connect service's answer is read as protobuf reads it: its zero values filled in (connect.ts);
    // a Claude agent's enum values are read without case (agent_requests.ts).
    let result: Value = task.connect !== null
      ? filledResponse(task.connect.call.fill, value)
      : task.agent?.provider === "claude" && task.result !== null
      ? foldEnums(task.result.type, m.types, value)
      : value;
    if (task.book !== null) {
      const result_ = readField(value, "result");
      if (!isRecord(value) || (result_ !== "done" && result_ !== "done_before")) {
        return this.badResponse(s, task, ctx);
      }
      result = task.book.op === "do" ? null : holdRecord(task, args);
    } else if (task.result !== null && !fits(m.types, task.result.type, task.result.range, result)) {
      return this.badResponse(s, task, ctx);
    }
    this.visit({ place, kind: "ok" }, ctx.scope);
    if (s.bind?.kind === "let") ctx.scope.set(s.bind.name.text, result);
    if (s.bind?.kind === "case") this.cases.set(s.bind.name.text, result);
    return NEXT;
  }

  private badResponse(s: CallStmtAst, task: TaskDef, ctx: Ctx): Flow {
    this.visit({ place: placeOf(s), kind: "bad response" }, ctx.scope);
    return {
      kind: "raised",
      raised: {
        error: "Dandori.BadResponse",
        reason: `line ${s.line}: the answer from ${task.name} does not have the declared shape`,
        by: "check",
      },
    };
  }

  /** A call that ended with an error after its retries: its handler, or up to the block. */
  private handle(s: CallStmtAst, task: TaskDef, answer: Extract<Answer, { kind: "error" }>, ctx: Ctx): Flow {
    const place = placeOf(s);
    const index = s.handlers.findIndex((h) => h.errors.some((e) => e.text === answer.error));
    if (index >= 0) {
      this.visit({ place, kind: "handler", index }, ctx.scope);
      return this.block(s.handlers[index].body, ctx);
    }
    this.visit({ place, kind: "unhandled" }, ctx.scope);
    return { kind: "raised", raised: taskError(s.line, task, answer) };
  }

  // -------------------------------------------------------------------------------------------
  // Values

  private expr(e: ExprAst, ctx: Ctx): Value {
    switch (e.kind) {
      case "path":
        return this.path(e, ctx);
      case "number":
        return BigInt(e.text);
      case "string":
        return e.parts.map((p) => p.kind === "text" ? p.text : textOf(this.expr(p.value, ctx))).join("");
      case "bool":
        return e.value;
      case "none":
        return null;
      case "now":
        return this.nowText[1];
      case "record": {
        return Object.fromEntries(e.fields.map((f) => [f.name.text, this.expr(f.value, ctx)]));
      }
      case "list":
        return e.items.map((i) => this.expr(i, ctx));
      case "elided":
        throw new Error("dandori: `…` stops at E001 before a run");
      default:
        return unreachable(e, "value");
    }
  }

  /** A name as typing reads it: a variable, an input, a case's record, else a value of the enum. */
  private path(e: Extract<ExprAst, { kind: "path" }>, ctx: Ctx): Value {
    const [head, ...fields] = e.parts;
    const m = this.flow.model;
    let v: Value;
    if (this.flow.typed.vars.has(head.text) || m.inputs.some((i) => i.name === head.text)) {
      const got = ctx.scope.get(head.text);
      assert(got !== undefined, `the checker says ${head.text} has a value here (E012)`);
      v = got;
    } else if (m.cases.has(head.text)) {
      v = lookup(this.cases, head.text, "case");
    } else {
      return head.text;
    }
    for (const f of fields) v = readField(v, f.text);
    return v;
  }
}

/**
 * True when `retry` retries `error` (docs/design/dandori.md#retries): with `on`, the errors it
 * names; without, `timeout` and `failure` but never a declared error. A cancel is no error.
 */
function retries(retry: Retry, task: TaskDef, error: string): boolean {
  return retry.on === null ? !task.errors.has(error) : retry.on.includes(error);
}

/** Which way a parallel loop leaves with the failure it held (the plan's edge of that kind). */
function heldBy(f: Flow): "unhandled" | "outside" | "failed" {
  switch (f.kind) {
    case "raised":
      return f.raised.by === "task" ? "unhandled" : f.raised.by === "period" ? "outside" : "failed";
    case "end":
      return "failed";
    case "next":
    case "break":
    case "cancel":
      throw new Error(`dandori: a parallel loop holds no ${f.kind}`);
    default:
      return unreachable(f, "flow");
  }
}

/** The hold record a book task's case gets (docs/design/dandori.md#holds-of-a-book): its key arguments and the state the operation leaves. */
function holdRecord(task: TaskDef, args: Readonly<Record<string, Value>>): Value {
  const b = task.book;
  assert(b !== null && b.op !== "do", "a hold record is of a hold, a post or a void");
  return Object.fromEntries([
    ...b.transfer.key.map((k) => [k, Object.hasOwn(args, k) ? args[k] : null] as const),
    ["state", b.op === "hold" ? "held" : b.op === "post" ? "posted" : "voided"],
  ]);
}

/**
 * A task's error as the workflow fails with it when nothing handles it. An agent's says no cause: what
 * a platform says of a refusal or a failed call to a model is its own text.
 */
function taskError(line: number, task: TaskDef, a: Extract<Answer, { kind: "error" }>): Raised {
  const cause = a.cause === null || task.agent !== null ? "" : `: ${a.cause}`;
  switch (a.error) {
    case "timeout":
      return { error: "Dandori.Timeout", reason: `line ${line}: ${task.name} timed out${cause}`, by: "task" };
    case "failure":
      return { error: "Dandori.Failure", reason: `line ${line}: ${task.name} failed${cause}`, by: "task" };
    default:
      return { error: a.error, reason: a.cause, by: "task" };
  }
}

/** The answer a `flow` task gets from its child's ending (docs/design/dandori.md#child-flows). */
function childAnswer(task: TaskDef, ending: Ending): Answer {
  switch (ending.kind) {
    case "succeed":
      return { kind: "ok", value: ending.outputs ?? {} };
    case "fail":
      return task.errors.has(ending.error) ? { kind: "error", error: ending.error, cause: ending.reason } : {
        kind: "error",
        error: "failure",
        cause: `${ending.error}${ending.reason === null ? "" : `: ${ending.reason}`}`,
      };
    case "cancelled":
      return { kind: "error", error: "failure", cause: "the child flow was cancelled" };
    default:
      return unreachable(ending, "ending");
  }
}

/**
 * Runs a checked flow on one scenario. The run is decided by the checked flow alone; what each
 * call looks like to a platform is a view of the plan's call (`views.ts`, `lower`).
 *
 * @example
 * ```ts
 * const run = runFlow(checked, { input, now: [DEFAULT_NOW, DEFAULT_NOW], answers, execution: "run-1", children: false });
 * run.ending; // { kind: "succeed", outputs: { outcome: "shipped" } }
 * ```
 */
export function runFlow(flow: CheckedFlow, o: RunOptions): Run {
  return new Interp(flow, o, { calls: 0 }).run();
}
