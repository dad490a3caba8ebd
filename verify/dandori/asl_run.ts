/**
 * A runner of Amazon States Language definitions written in JSONata
 * (docs/targets.md#verifying-the-asl-runner-and-localstack): it executes a state machine as Step
 * Functions would, on a clock of its own, asking the caller for each Task's answer. Written from the
 * Amazon States Language and Step Functions' JSONata rules, not from dandori's generator, so what the
 * generator wrote is run, not trusted:
 *
 * - Pass, Task, Choice, Wait, Succeed, Fail and INLINE Map, with `Arguments`, `Output`, `Assign`,
 *   `Condition`, `Items`, `ItemSelector`, `TimeoutSeconds`, `Seconds`, `Timestamp`, `Error` and
 *   `Cause` read as `{% … %}` JSONata templates at any depth;
 * - `Assign` evaluates every value with the variables as they were before the state, then sets
 *   them; a state inside a Map's iteration that assigns a variable of an outer scope fails the run,
 *   as Step Functions does not allow it;
 * - a Task's error takes the first retrier whose `ErrorEquals` matches (`States.ALL` every error,
 *   `States.TaskFailed` every error but `States.Timeout`); while it has attempts left the Task is
 *   tried again after `IntervalSeconds × BackoffRate^(n−1)`, read from the definition; then the
 *   first matching catcher runs its `Assign` with `$states.errorOutput` and goes on;
 * - a Map runs its iterations one at a time, in order, each with variables of its own;
 * - `$states.context.State.EnteredTime` is the scenario's `now` (the first for the run's start,
 *   the second after it), as every dandori runner sets the clock `now` reads; `$millis()` and
 *   `$now()` read the runner's clock, which moves by waits, retries and timed-out tries only.
 *
 * - `$parse` is Step Functions' own function: the value of a JSON text.
 *
 * An expression that fails fails its state (`States.QueryEvaluationError`), which a Task's Retry
 * and Catch take as they take its other errors. It is recorded as a problem too, as is one that gives
 * nothing, unless it failed by `$error` or by `$parse` of a text that is no JSON: dandori's
 * definitions rely on those two alone failing (an agent's answer that is a refusal, or no JSON).
 * @module
 */

// `jsonata` is pinned to 2.0.6 in deno.json: Step Functions evaluates JSONata 2.0.6 ("Supported
// JSONata version" in AWS's "Transforming data with JSONata in Step Functions"), and a later version
// evaluates some expressions otherwise (2.1 adds operators Step Functions refuses), so the runner
// evaluates what the platform does only at that version.
import jsonata from "jsonata";

/** A JSON value as the runner holds it (numbers are JavaScript's, as JSONata's are). */
export type Plain = null | boolean | number | string | Plain[] | { [k: string]: Plain };

/** The most states one run enters before the runner stops it (a definition's loop that never ends). */
export const MAX_STATES_ENTERED = 200_000;

/** One try of a Task, as the caller is asked to answer it. */
export interface TaskTry {
  readonly state: string;
  /** The try's number at this Task, 1 for the first. */
  readonly attempt: number;
  readonly atMs: number;
  readonly resource: string;
  readonly args: Plain;
  readonly timeoutSeconds: number | null;
  /** The Task's token, for a `.waitForTaskToken` resource. */
  readonly token: string;
}

/** What a try of a Task came to. */
export type TaskAnswer =
  | { readonly kind: "result"; readonly value: Plain }
  | { readonly kind: "error"; readonly error: string; readonly cause: string | null }
  | { readonly kind: "timeout"; readonly cause: string | null };

/** How a run is started. */
export interface AslRunOptions {
  readonly input: Plain;
  /** The time `now` reads at the run's start, and after it. */
  readonly now: readonly [string, string];
  /** The states of the run's start, which read the first `now`. */
  readonly startStates: readonly string[];
  readonly clockMs: number;
  readonly execution: string;
  /** The answer of one try; the token of a callback is `token(try)`. */
  answer(t: TaskTry): TaskAnswer;
  token(state: string, attempt: number): string;
}

/** A Wait state the run passed. */
export interface WaitRecord {
  readonly state: string;
  readonly fromMs: number;
  readonly toMs: number;
}

/** How a run ended. */
export type AslEnding =
  | { readonly kind: "succeed"; readonly output: Plain }
  | { readonly kind: "fail"; readonly error: string; readonly cause: string | null };

/** What one run did. */
export interface AslRun {
  readonly tries: readonly TaskTry[];
  readonly waits: readonly WaitRecord[];
  readonly ending: AslEnding;
  readonly clockMs: number;
  /** What the definition did that dandori's never should (an expression that failed, an outer variable assigned). */
  readonly problems: readonly string[];
}

type States = { readonly [name: string]: { readonly [k: string]: unknown } };
type StateDef = { readonly [k: string]: unknown };

/** A Step Functions error raised inside a state. */
class StateError extends Error {
  constructor(readonly error: string, readonly why: string | null) {
    super(`${error}${why === null ? "" : `: ${why}`}`);
  }
}

/** How a machine (or an iteration) ended: its output, or an error nothing caught. */
type Outcome = { readonly kind: "output"; readonly value: Plain } | {
  readonly kind: "error";
  readonly e: StateError;
};

/** The variables of one scope: the machine's, or one iteration's over its Map's. */
class Scope {
  readonly own = new Map<string, Plain>();
  constructor(readonly outer: Scope | null) {}
  bindings(into: Record<string, unknown>): void {
    this.outer?.bindings(into);
    for (const [k, v] of this.own) into[k] = v;
  }
  inOuter(name: string): boolean {
    for (let s = this.outer; s !== null; s = s.outer) if (s.own.has(name)) return true;
    return false;
  }
}

const compiled = new Map<string, ReturnType<typeof jsonata>>();

function compile(text: string): ReturnType<typeof jsonata> {
  let e = compiled.get(text);
  if (e === undefined) {
    e = jsonata(text);
    compiled.set(text, e);
  }
  return e;
}

function isTemplate(v: unknown): v is string {
  return typeof v === "string" && v.startsWith("{%") && v.endsWith("%}");
}

/** The code of the error JSONata's `$error` raises. */
const ERROR_CALLED = "D3137";

/** `$parse` of a text that is no JSON. */
class NotJson extends Error {}

/** Step Functions' `$parse`: the value of a JSON text. */
function parse(text: unknown): unknown {
  if (typeof text !== "string") throw new NotJson("$parse takes a string");
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new NotJson(`$parse: ${(e as Error).message}`);
  }
}

/** A value JSONata gave, made plain JSON (JSONata marks its sequences; JSON drops what it cannot hold). */
function plain(v: unknown): Plain {
  return v === undefined ? null : JSON.parse(JSON.stringify(v));
}

class Runner {
  clockMs: number;
  private entered = 0;
  readonly tries: TaskTry[] = [];
  readonly waits: WaitRecord[] = [];
  readonly problems: string[] = [];

  constructor(private readonly o: AslRunOptions) {
    this.clockMs = o.clockMs;
  }

  /** Evaluates a field's value: templates anywhere inside it, the rest as written. */
  private async value(
    v: unknown,
    states: Record<string, unknown>,
    scope: Scope,
    where: string,
  ): Promise<Plain> {
    if (isTemplate(v)) {
      const bindings: Record<string, unknown> = {};
      scope.bindings(bindings);
      bindings.states = states;
      bindings.millis = () => this.clockMs;
      bindings.now = () => new Date(this.clockMs).toISOString();
      bindings.parse = parse;
      let got: unknown;
      try {
        got = await compile(v.slice(2, -2)).evaluate({}, bindings);
      } catch (e) {
        const meant = e instanceof NotJson || (e as { code?: unknown }).code === ERROR_CALLED;
        if (!meant) this.problems.push(`${where}: ${v} failed: ${(e as Error).message}`);
        throw new StateError("States.QueryEvaluationError", (e as Error).message);
      }
      if (got === undefined) {
        this.problems.push(`${where}: ${v} gave nothing`);
        throw new StateError("States.QueryEvaluationError", "the expression gave nothing");
      }
      return plain(got);
    }
    if (Array.isArray(v)) {
      const out: Plain[] = [];
      for (const x of v) out.push(await this.value(x, states, scope, where));
      return out;
    }
    if (v !== null && typeof v === "object") {
      const out: { [k: string]: Plain } = {};
      for (const [k, x] of Object.entries(v)) out[k] = await this.value(x, states, scope, where);
      return out;
    }
    return v as Plain;
  }

  private async assign(
    def: unknown,
    states: Record<string, unknown>,
    scope: Scope,
    where: string,
  ): Promise<void> {
    if (def === undefined) return;
    const values = await this.value(def, states, scope, where);
    if (values === null || typeof values !== "object" || Array.isArray(values)) {
      throw new StateError("States.Runtime", `${where}: Assign is not an object`);
    }
    for (const [k, v] of Object.entries(values)) {
      if (scope.inOuter(k)) {
        this.problems.push(
          `${where}: assigns ${k}, a variable of an outer scope, which Step Functions refuses`,
        );
        throw new StateError("States.Runtime", `${where} assigns the outer variable ${k}`);
      }
      scope.own.set(k, v);
    }
  }

  private context(state: string, map: Plain | null): Record<string, unknown> {
    const entered = this.o.startStates.includes(state) ? this.o.now[0] : this.o.now[1];
    return {
      Execution: { Name: this.o.execution },
      State: { Name: state, EnteredTime: entered },
      ...(map === null ? {} : { Map: { Item: map } }),
    };
  }

  /** Runs a machine's (or an iteration's) states from `start` on `input`. */
  async machine(
    states: States,
    start: string,
    input: Plain,
    scope: Scope,
    map: Plain | null,
  ): Promise<Outcome> {
    let name = start;
    let data = input;
    for (;;) {
      if (++this.entered > MAX_STATES_ENTERED) {
        this.problems.push(`the run entered more than ${MAX_STATES_ENTERED} states`);
        return { kind: "error", e: new StateError("States.Runtime", "too many states") };
      }
      const s = states[name];
      if (s === undefined) {
        this.problems.push(`no state ${name}`);
        return { kind: "error", e: new StateError("States.Runtime", `no state ${name}`) };
      }
      let step: { next: string | null; output: Plain };
      try {
        step = await this.state(name, s, data, scope, map);
      } catch (e) {
        if (!(e instanceof StateError)) throw e;
        return { kind: "error", e };
      }
      if (step.next === null) return { kind: "output", value: step.output };
      name = step.next;
      data = step.output;
    }
  }

  /** One state: where it goes (null at the end) and its output; a StateError nothing caught escapes. */
  private async state(
    name: string,
    s: StateDef,
    input: Plain,
    scope: Scope,
    map: Plain | null,
  ): Promise<{ next: string | null; output: Plain }> {
    const states = () => ({ input, context: this.context(name, map) });
    const next = s.End === true ? null : (s.Next as string | undefined) ?? null;
    const output = async (extra: Record<string, unknown>, fallback: Plain) =>
      s.Output === undefined ? fallback : await this.value(s.Output, { ...states(), ...extra }, scope, name);
    switch (s.Type) {
      case "Pass": {
        const out = await output({}, input);
        await this.assign(s.Assign, states(), scope, name);
        return { next, output: out };
      }
      case "Choice": {
        for (const rule of (s.Choices as StateDef[] | undefined) ?? []) {
          if (await this.value(rule.Condition, states(), scope, name) === true) {
            return { next: rule.Next as string, output: input };
          }
        }
        if (typeof s.Default !== "string") throw new StateError("States.NoChoiceMatched", name);
        return { next: s.Default, output: input };
      }
      case "Wait": {
        const fromMs = this.clockMs;
        if (s.Seconds !== undefined) {
          const seconds = await this.value(s.Seconds, states(), scope, name);
          if (typeof seconds !== "number") throw new StateError("States.Runtime", `${name}: Seconds`);
          this.clockMs += seconds * 1000;
        } else {
          const at = await this.value(s.Timestamp, states(), scope, name);
          const ms = typeof at === "string" ? Date.parse(at) : NaN;
          if (Number.isNaN(ms)) throw new StateError("States.Runtime", `${name}: Timestamp ${at}`);
          this.clockMs = Math.max(this.clockMs, ms);
        }
        this.waits.push({ state: name, fromMs, toMs: this.clockMs });
        const out = await output({}, input);
        await this.assign(s.Assign, states(), scope, name);
        return { next, output: out };
      }
      case "Succeed":
        return { next: null, output: await output({}, input) };
      case "Fail": {
        const error = s.Error === undefined
          ? "States.Fail"
          : await this.value(s.Error, states(), scope, name);
        const cause = s.Cause === undefined ? null : await this.value(s.Cause, states(), scope, name);
        if (typeof error !== "string" || (cause !== null && typeof cause !== "string")) {
          throw new StateError("States.Runtime", `${name}: a Fail's Error and Cause are strings`);
        }
        throw new FailState(error, cause);
      }
      case "Task":
        return await this.task(name, s, input, scope, map);
      case "Map":
        return await this.map(name, s, input, scope);
      default:
        throw new Error(`asl runner: ${name} is a ${String(s.Type)}, which dandori does not write`);
    }
  }

  private async task(
    name: string,
    s: StateDef,
    input: Plain,
    scope: Scope,
    map: Plain | null,
  ): Promise<{ next: string | null; output: Plain }> {
    const retriers = (s.Retry as StateDef[] | undefined) ?? [];
    const used = retriers.map(() => 0);
    const resource = s.Resource as string;
    for (let attempt = 1;; attempt++) {
      const token = this.o.token(name, attempt);
      const states = { input, context: { ...this.context(name, map), Task: { Token: token } } };
      let failure: StateError;
      try {
        const args = s.Arguments === undefined ? input : await this.value(s.Arguments, states, scope, name);
        const timeout = s.TimeoutSeconds === undefined
          ? null
          : await this.value(s.TimeoutSeconds, states, scope, name);
        if (timeout !== null && typeof timeout !== "number") {
          throw new StateError("States.Runtime", "TimeoutSeconds");
        }
        const t: TaskTry = {
          state: name,
          attempt,
          atMs: this.clockMs,
          resource,
          args,
          timeoutSeconds: timeout,
          token,
        };
        this.tries.push(t);
        const answer = this.o.answer(t);
        if (answer.kind === "timeout") {
          this.clockMs += (timeout ?? 0) * 1000;
          throw new StateError("States.Timeout", answer.cause);
        }
        if (answer.kind === "error") throw new StateError(answer.error, answer.cause);
        const withResult = { ...states, result: answer.value };
        const out = s.Output === undefined
          ? answer.value
          : await this.value(s.Output, withResult, scope, name);
        await this.assign(s.Assign, withResult, scope, name);
        return { next: s.End === true ? null : s.Next as string, output: out };
      } catch (e) {
        if (!(e instanceof StateError) || e instanceof FailState) throw e;
        failure = e;
      }
      const r = retriers.findIndex((x) => matches(x.ErrorEquals as string[], failure.error));
      // ASL's defaults: 3 attempts, 1 second, a rate of 2.0.
      if (r >= 0 && used[r] < ((retriers[r].MaxAttempts as number | undefined) ?? 3)) {
        const interval = (retriers[r].IntervalSeconds as number | undefined) ?? 1;
        const backoff = (retriers[r].BackoffRate as number | undefined) ?? 2;
        this.clockMs += Math.floor(interval * 1000 * Math.pow(backoff, used[r]));
        used[r]++;
        continue;
      }
      return await this.caught(name, s, failure, input, scope, map);
    }
  }

  /** The first catcher that takes the error, or the error goes on. */
  private async caught(
    name: string,
    s: StateDef,
    failure: StateError,
    input: Plain,
    scope: Scope,
    map: Plain | null,
  ): Promise<{ next: string | null; output: Plain }> {
    for (const c of (s.Catch as StateDef[] | undefined) ?? []) {
      if (!matches(c.ErrorEquals as string[], failure.error)) continue;
      const errorOutput: { [k: string]: Plain } = { Error: failure.error };
      if (failure.why !== null) errorOutput.Cause = failure.why;
      const states = { input, context: this.context(name, map), errorOutput };
      const out = c.Output === undefined ? errorOutput : await this.value(c.Output, states, scope, name);
      await this.assign(c.Assign, states, scope, name);
      return { next: c.Next as string, output: out };
    }
    throw failure;
  }

  private async map(
    name: string,
    s: StateDef,
    input: Plain,
    scope: Scope,
  ): Promise<{ next: string | null; output: Plain }> {
    const states = { input, context: this.context(name, null) };
    const items = await this.value(s.Items, states, scope, name);
    if (!Array.isArray(items)) throw new StateError("States.Runtime", `${name}: Items is not a list`);
    const processor = s.ItemProcessor as {
      StartAt: string;
      States: States;
      ProcessorConfig?: { Mode?: string };
    };
    if (processor.ProcessorConfig?.Mode !== "INLINE") {
      throw new Error(`asl runner: ${name} is not an INLINE Map, which dandori does not write`);
    }
    const results: Plain[] = [];
    for (const [index, value] of items.entries()) {
      const item: Plain = { Index: index, Value: value };
      const selected = s.ItemSelector === undefined
        ? value
        : await this.value(s.ItemSelector, { input, context: { ...this.context(name, item) } }, scope, name);
      const out = await this.machine(processor.States, processor.StartAt, selected, new Scope(scope), item);
      if (out.kind === "error") throw out.e;
      results.push(out.value);
    }
    const withResult = { ...states, result: results };
    const out = s.Output === undefined ? results : await this.value(s.Output, withResult, scope, name);
    await this.assign(s.Assign, withResult, scope, name);
    return { next: s.End === true ? null : s.Next as string, output: out };
  }
}

/** A Fail state's end: no retrier or catcher takes it. */
class FailState extends StateError {}

/** Whether a retrier's or catcher's `ErrorEquals` takes an error (ASL's wildcards). */
function matches(names: readonly string[], error: string): boolean {
  return names.some((n) =>
    n === error || n === "States.ALL" || (n === "States.TaskFailed" && error !== "States.Timeout")
  );
}

/** Runs a definition once. */
export async function runAsl(
  definition: { StartAt: string; States: States },
  o: AslRunOptions,
): Promise<AslRun> {
  const runner = new Runner(o);
  let ending: AslEnding;
  try {
    const out = await runner.machine(definition.States, definition.StartAt, o.input, new Scope(null), null);
    ending = out.kind === "output"
      ? { kind: "succeed", output: out.value }
      : { kind: "fail", error: out.e.error, cause: out.e.why };
  } catch (e) {
    if (!(e instanceof FailState)) throw e;
    ending = { kind: "fail", error: e.error, cause: e.why };
  }
  return {
    tries: runner.tries,
    waits: runner.waits,
    ending,
    clockMs: runner.clockMs,
    problems: runner.problems,
  };
}
