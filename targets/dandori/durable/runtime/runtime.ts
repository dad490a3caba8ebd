// The part of every dandori durable functions package that is the same for every flow
// (docs/targets.md#durable): the rules every platform shares (`rules.ts`, the Temporal target's
// too, exported again here), the attempts of a call (`attempt`, waiting with
// `context.wait`), every task in a `context.step` the SDK never retries, callbacks, children,
// parallel iterations (`map`), the clock read in steps, and the errors that end a run.
// `dandori build --target durable` copies it byte for byte as `runtime.ts`.

import {
  CallbackTimeoutError,
  type DurableContext,
  DurableOperationError,
  InvokeError,
  StepSemantics,
} from "@aws/durable-execution-sdk-js";
import {
  idempotencyKey,
  isObject,
  type Retrier,
  retrierFor,
  retryDelayMs,
  secondsUntil,
  timestampMs,
  timestampText,
} from "./rules.ts";

/** A value as it travels in JSON. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// ---------------------------------------------------------------------------------------------
// Limits with their reasons.

/** The step that hands a callback's id on takes at most this long (the plan's `handOnSeconds`: docs/design/dandori.md#timeouts). */
export const HAND_ON_SECONDS = 60;
/** A callback without `timeout` waits at most one day (docs/dandori.md). */
export const ANSWER_WAIT_SECONDS = 86_400;

// ---------------------------------------------------------------------------------------------
// The rules every host language shares, and the checks of values: `rules.ts`, exported again.

export * from "./rules.ts";

// ---------------------------------------------------------------------------------------------
// How a run ends.

/** A task's error after its retries, on its way to a handler or `on failure`. */
export class TaskError extends Error {
  /**
   * `error` is what handlers match (a declared name, `timeout`, `failure`); `failure` is the
   * workflow's error when nothing handles it, with `reason`.
   */
  constructor(
    readonly error: string,
    readonly failure: string,
    readonly reason: string | null,
  ) {
    super(reason ?? error);
  }
}

/** `succeed`: the run ends with its outputs (null for a workflow without outputs). */
export class Succeeded extends Error {
  constructor(readonly outputs: unknown) {
    super("succeed");
  }
}

/**
 * The workflow's failure with a dandori error name and reason (`fail`, a failed check): the
 * error's name is its `ErrorType`, the reason its message, and `ErrorData` is
 * `{"error": <name>, "reason": <reason>}`, which a parent that invokes this function reads (docs/targets.md#durable).
 */
export class Failure extends DurableOperationError {
  readonly errorType: string;
  constructor(readonly error: string, readonly reason: string | null) {
    super(reason ?? "", undefined, JSON.stringify({ error, reason }));
    this.errorType = error;
  }
}

/** The workflow's failure with a dandori error name and reason. */
export function fail(error: string, reason: string | null): Failure {
  return new Failure(error, reason);
}

/** The failure a task's error ends the workflow with. */
export function failed(e: TaskError): Failure {
  return fail(e.failure, e.reason);
}

/** True when `e` is a task's error that one of `errors` takes. */
export function takes(e: unknown, errors: readonly string[]): e is TaskError {
  return e instanceof TaskError && errors.includes(e.error);
}

/** A call's part that took longer than its limit (`within`): read as the task's `timeout`. */
class TimedOut extends Error {
  constructor(seconds: number) {
    super(`did not end within ${seconds} seconds`);
    this.name = "Dandori.Timeout";
  }
}

/** The name `ErrorData` gives (`{"error": <name>}`), or null. */
function dataError(data: string | undefined): string | null {
  if (data === undefined) return null;
  try {
    const v: unknown = JSON.parse(data);
    return isObject(v) && typeof v.error === "string" ? v.error : null;
  } catch {
    return null;
  }
}

/** What an attempt ended with: the error's name for handlers and retriers, and its message. */
function errorOf(e: unknown, declared: readonly string[]): { name: string; message: string } {
  if (e instanceof CallbackTimeoutError) return { name: "timeout", message: "" };
  let type: string | null = null;
  let message = e instanceof Error ? e.message : "";
  if (e instanceof DurableOperationError) {
    // A step's and a callback's cause keep the thrown error's name; an invoke keeps only ErrorData (docs/targets.md#durable).
    const cause = e instanceof InvokeError ? undefined : e.cause;
    type = dataError(e.errorData) ?? cause?.name ?? null;
    message = cause?.message ?? (e.errorData === undefined ? e.message : "");
  }
  if (type === "Dandori.Timeout") return { name: "timeout", message: "" };
  return { name: type !== null && declared.includes(type) ? type : "failure", message };
}

/** The task's error as the run reads it (docs/dandori.md 「Errors」). */
function taskError(line: number, task: string, name: string, message: string): TaskError {
  const cause = message === "" ? "" : `: ${message}`;
  switch (name) {
    case "timeout":
      return new TaskError(name, "Dandori.Timeout", `line ${line}: ${task} timed out${cause}`);
    case "failure":
      return new TaskError(name, "Dandori.Failure", `line ${line}: ${task} failed${cause}`);
    default:
      return new TaskError(name, name, message === "" ? null : message);
  }
}

/** How a call is tried: its line and task for reasons, its declared errors and its retriers. */
export interface CallRule {
  readonly line: number;
  readonly task: string;
  readonly errors: readonly string[];
  readonly retry: readonly Retrier[];
}

/** The seconds `context.wait` waits for a retry delay: whole seconds, rounded up, at least 1. */
export function waitSeconds(delayMs: number): number {
  return Math.max(1, Math.ceil(delayMs / 1000));
}

/**
 * Tries a call as Step Functions' retriers say: the first retrier that takes an error decides
 * whether it is tried again, each counting its own retries, waiting `retryDelayMs` between with
 * `context.wait` (the SDK retries nothing itself, 4.3); any error ends as a `TaskError`.
 */
export async function attempt<R>(
  dc: DurableContext,
  rule: CallRule,
  call: (attempt: number) => Promise<R>,
): Promise<R> {
  const used = new Map<Retrier, number>();
  for (let n = 1;; n++) {
    try {
      return await call(n);
    } catch (e) {
      const { name, message } = errorOf(e, rule.errors);
      const r = retrierFor(rule.retry, name);
      const tried = r === null ? 0 : used.get(r) ?? 0;
      if (r === null || tried >= r.maxAttempts) throw taskError(rule.line, rule.task, name, message);
      used.set(r, tried + 1);
      await dc.wait(`${rule.line} ${rule.task} retry`, { seconds: waitSeconds(retryDelayMs(r, tried + 1)) });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Steps, callbacks, children and parallel iterations.

/** A step the SDK never retries (docs/targets.md#durable): the workflow's `attempt` does. */
const NO_RETRY = { retryStrategy: () => ({ shouldRetry: false }) };

/** A step that may change outside data without a key runs at most once per attempt (docs/targets.md#durable). */
const AT_MOST_ONCE = { ...NO_RETRY, semantics: StepSemantics.AtMostOncePerRetry };

/** An error thrown inside a step, with the name the workflow reads kept as its `name`. */
function named(e: unknown): Error {
  if (typeof e === "object" && e !== null && "type" in e && typeof e.type === "string") {
    const out = new Error(e instanceof Error ? e.message : "");
    out.name = e.type;
    return out;
  }
  return e instanceof Error ? e : new Error(String(e));
}

/** `work`, or a `TimedOut` after `seconds` (null: no limit). */
export async function within<R>(work: Promise<R>, seconds: number | null): Promise<R> {
  if (seconds === null) return await work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(seconds)), seconds * 1000);
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One attempt of a task in a step named `<line> <task>`: `atMostOnce` for a task that may change
 * outside data without a key; `seconds` limits the call (null: none).
 */
export function step<R>(
  dc: DurableContext,
  name: string,
  atMostOnce: boolean,
  seconds: number | null,
  call: () => Promise<R>,
): Promise<R> {
  return dc.step(name, async () => {
    try {
      return await within(call(), seconds);
    } catch (e) {
      throw named(e);
    }
  }, atMostOnce ? AT_MOST_ONCE : NO_RETRY);
}

/** The time, read in a step (its answer is checkpointed, so a replay reads the same), to the second. */
export async function now(dc: DurableContext, name: string): Promise<string> {
  return timestampText(await clock(dc, name));
}

/** Milliseconds since 1970, read in a step. */
function clock(dc: DurableContext, name: string): Promise<number> {
  return dc.step(name, () => Promise.resolve(Date.now()), NO_RETRY);
}

/** Waits `seconds` (`wait`). */
export async function wait(dc: DurableContext, name: string, seconds: number): Promise<void> {
  await dc.wait(name, { seconds });
}

/** Waits until the time `at`, read against the clock of a step (a time already past does not wait). */
export async function waitUntil(dc: DurableContext, name: string, at: string): Promise<void> {
  const t = timestampMs(at);
  if (t === null) throw fail("Dandori.BadInput", `the time ${at} is not a timestamp`);
  const left = t - await clock(dc, `${name} clock`);
  if (left > 0) await dc.wait(name, { seconds: waitSeconds(left) });
}

/**
 * A callback (docs/targets.md#durable): `createCallback` (`<name> callback`) with the wait's timeout (`until`:
 * the seconds left after a clock step), then the step `name` that hands the id on within
 * `HAND_ON_SECONDS`, then the answer: the JSON text `SendDurableExecutionCallbackSuccess` sent, or
 * its error's name and message.
 */
export async function awaitCallback(
  dc: DurableContext,
  name: string,
  wait: { readonly seconds: number } | { readonly until: string },
  atMostOnce: boolean,
  handOn: (id: string) => Promise<unknown>,
): Promise<unknown> {
  let seconds: number;
  if ("seconds" in wait) seconds = wait.seconds;
  else {
    const deadline = timestampMs(wait.until);
    if (deadline === null) throw fail("Dandori.BadInput", `the deadline ${wait.until} is not a timestamp`);
    seconds = secondsUntil(deadline, await clock(dc, `${name} clock`));
  }
  const [answer, id] = await dc.createCallback<string>(`${name} callback`, { timeout: { seconds } });
  await step(dc, name, atMostOnce, HAND_ON_SECONDS, () => handOn(id));
  const text = await answer;
  return text === "" ? null : JSON.parse(text);
}

/** A child durable function through `context.invoke` (docs/targets.md#durable): its error's name comes in `ErrorData`. */
export function invoke(dc: DurableContext, name: string, fn: string, input: unknown): Promise<unknown> {
  return dc.invoke<unknown, unknown>(name, fn, input);
}

/** How a parallel iteration ended, as its checkpoint keeps it (JSON). */
type Ended =
  | { readonly ok: readonly Json[] }
  | { readonly task: readonly [string, string, string | null] }
  | { readonly fail: readonly [string, string | null] }
  | { readonly succeed: Json };

function ending(e: unknown): Ended {
  if (e instanceof TaskError) return { task: [e.error, e.failure, e.reason] };
  if (e instanceof Failure) return { fail: [e.error, e.reason] };
  if (e instanceof Succeeded) return { succeed: e.outputs as Json };
  throw e;
}

function thrown(r: Ended): Error | null {
  if ("task" in r) return new TaskError(...r.task);
  if ("fail" in r) return fail(...r.fail);
  if ("succeed" in r) return new Succeeded(r.succeed);
  return null;
}

/**
 * `for … in parallel` as `context.map` (docs/targets.md#durable), `k` at a time: each iteration runs in its own child
 * context and returns its yields or how it failed, so a failing iteration does not stop the
 * others; then the first failure in list order is thrown, else the yields in list order returned.
 */
export async function map<I, Y>(
  dc: DurableContext,
  name: string,
  k: number,
  items: readonly I[],
  iteration: (dc: DurableContext, item: I, count: number) => Promise<readonly Y[]>,
): Promise<Y[]> {
  const batch = await dc.map<I, Ended>(name, [...items], async (child, item, index) => {
    try {
      return { ok: await iteration(child, item, index + 1) as readonly Json[] };
    } catch (e) {
      return ending(e);
    }
  }, { maxConcurrency: Math.max(1, k) });
  const out: Y[] = [];
  for (const item of [...batch.all].sort((a, b) => a.index - b.index)) {
    if (item.error !== undefined) throw item.error;
    const r = item.result;
    if (r === undefined) throw new Error(`dandori: the iteration ${item.index + 1} of ${name} did not end`);
    const e = thrown(r);
    if (e !== null) throw e;
    if ("ok" in r) out.push(...(r.ok as readonly Y[]));
  }
  return out;
}

/** The key of a call in this execution (docs/targets.md#durable): from `durableExecutionArn`. */
export function key(dc: DurableContext, place: string, loops: readonly number[]): string {
  return idempotencyKey(dc.executionContext.durableExecutionArn, place, loops);
}
