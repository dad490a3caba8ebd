// The part of every dandori Temporal TypeScript package that is the same for every flow
// (docs/targets.md#temporal-typescript): the rules every platform shares (`rules.ts`, the durable
// target's too, exported again here), the
// attempts of a call (`attempt`), parallel iterations (`rounds`), the waits for an event or a
// callback, the clock (`now`), the errors that end a run, and the constants a test copy shortens.
// `dandori build --target temporal-typescript` copies it byte for byte as `runtime.ts`. The
// workflow bundle imports it, so it reads no clock, timer or random number but the workflow's own.

import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowFailure,
  condition,
  continueAsNew,
  isCancellation,
  sleep,
  TimeoutFailure,
  upsertSearchAttributes,
  workflowInfo,
} from "@temporalio/workflow";
import { defineSearchAttributeKey, SearchAttributeType } from "@temporalio/common";
import {
  idempotencyKey,
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
// What a test copy shortens: every duration of the workflow goes through these.

/** Milliseconds of a durable timer of `seconds` (waits, retry delays, callback waits). */
export function ms(seconds: number): number {
  return seconds * 1000;
}

/** Milliseconds of an event's wait of `seconds` (an event is sent from outside, so a copy keeps it longer). */
export function eventMs(seconds: number): number {
  return seconds * 1000;
}

/** The `startToCloseTimeout` of an activity whose one attempt may take `seconds`. */
export function activityMs(seconds: number): number {
  return seconds * 1000;
}

/** The timeout of a child workflow that may take `seconds`; null: as long as it runs. */
export function childMs(seconds: number | null): number | null {
  return seconds === null ? null : seconds * 1000;
}

/** The options of a child workflow that may take `seconds` (null: no timeout of dandori's). */
export function childTimeout(seconds: number | null): { workflowExecutionTimeout?: number } {
  const t = childMs(seconds);
  return t === null ? {} : { workflowExecutionTimeout: t };
}

/** How many iterations of a parallel loop run at once, of the `k` the flow allows. */
export function width(k: number): number {
  return k;
}

/** History length at the start of an outermost iteration that continues it as a new run. */
export const CONTINUE_AT = 10_000;

/** The time as the workflow's clock says it, to the second: a run's start. */
export function startNow(): string {
  return timestampText(Date.now());
}

/** The time as the workflow's clock says it, to the second: read once before a statement that reads `now`. */
export function now(): string {
  return timestampText(Date.now());
}

// ---------------------------------------------------------------------------------------------
// Limits with their reasons.

/** A task run by this worker sends a heartbeat this often (every 10 seconds). */
export const HEARTBEAT_MS = 10_000;
/** Temporal times such a task out when no heartbeat came for this long (30 seconds). */
export const HEARTBEAT_TIMEOUT_MS = 30_000;
/** The activity that hands a callback's id on takes at most this long (the plan's `handOnSeconds`: docs/design/dandori.md#timeouts). */
export const HAND_ON_MS = 60_000;
/** An event or a callback without `timeout` waits at most one day (docs/dandori.md). */
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

/** The workflow's failure with a dandori error name and reason (`fail`, a failed check). */
export function fail(error: string, reason: string | null): ApplicationFailure {
  return ApplicationFailure.create({
    type: error,
    message: reason ?? "",
    nonRetryable: true,
    details: [reason],
  });
}

/** The failure a task's error ends the workflow with. */
export function failed(e: TaskError): ApplicationFailure {
  return fail(e.failure, e.reason);
}

/** True when `e` is a task's error that one of `errors` takes. */
export function takes(e: unknown, errors: readonly string[]): e is TaskError {
  return e instanceof TaskError && errors.includes(e.error);
}

/** An answer that came to a callback or an event: a value, or an error with its message. */
export type Answer = { readonly ok: unknown } | { readonly error: string; readonly message?: string };

/** An error answered to a callback or an event. */
class Answered extends Error {
  constructor(readonly error: string, message: string) {
    super(message);
  }
}

/** A wait for an answer that timed out. */
class WaitTimedOut extends Error {}

/** What an attempt ended with: the error's name for handlers and retriers, and its message. */
function errorOf(e: unknown, declared: readonly string[]): { name: string; message: string } {
  const cause = e instanceof ActivityFailure || e instanceof ChildWorkflowFailure ? e.cause : e;
  if (cause instanceof TimeoutFailure || e instanceof TimeoutFailure || e instanceof WaitTimedOut) {
    return { name: "timeout", message: "" };
  }
  const type = cause instanceof ApplicationFailure ? cause.type : e instanceof Answered ? e.error : null;
  const message = cause instanceof Error ? cause.message : "";
  return { name: type !== null && type !== undefined && declared.includes(type) ? type : "failure", message };
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

/**
 * Tries a call as Step Functions' retriers say: the first retrier that takes an error decides
 * whether it is tried again, each counting its own retries, waiting `retryDelayMs` between. A
 * cancel passes through as it is; any other error ends as a `TaskError`.
 */
export async function attempt<R>(rule: CallRule, call: (attempt: number) => Promise<R>): Promise<R> {
  const used = new Map<Retrier, number>();
  for (let n = 1;; n++) {
    try {
      return await call(n);
    } catch (e) {
      if (isCancellation(e)) throw e;
      const { name, message } = errorOf(e, rule.errors);
      const r = retrierFor(rule.retry, name);
      const tried = r === null ? 0 : used.get(r) ?? 0;
      if (r === null || tried >= r.maxAttempts) throw taskError(rule.line, rule.task, name, message);
      used.set(r, tried + 1);
      await sleep(ms(retryDelayMs(r, tried + 1) / 1000));
    }
  }
}

/**
 * Runs `iteration` for every item, `k` at a time, in list order; a failing iteration does not
 * stop the others. Then a cancel wins, else the first failure in list order is thrown, else the
 * yields of every iteration in list order are returned (docs/dandori.md 「Parallel iterations」).
 */
export async function rounds<I, Y>(
  k: number,
  items: readonly I[],
  iteration: (item: I, count: number) => Promise<readonly Y[]>,
): Promise<Y[]> {
  const results: ({ ok: readonly Y[] } | { error: unknown })[] = [];
  let next = 0;
  let cancelled: unknown = null;
  const lane = async () => {
    while (next < items.length && cancelled === null) {
      const i = next++;
      try {
        results[i] = { ok: await iteration(items[i], i + 1) };
      } catch (e) {
        results[i] = { error: e };
        if (isCancellation(e) && cancelled === null) cancelled = e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width(k), items.length) }, lane));
  if (cancelled !== null) throw cancelled;
  const out: Y[] = [];
  for (const r of results) {
    if ("error" in r) throw r.error;
    out.push(...r.ok);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The answers that wait: callbacks (Update `dandori.answer`) and events (Update `dandori.event`).

/** Where the workflow is, as the query `dandori.status` tells it. */
export const where = { at: null as number | null };
const handedOn = new Set<string>();
const callbackAnswers = new Map<string, Answer>();
const awaited = new Set<string>();
const eventAnswers = new Map<string, Answer>();

/** The events the workflow waits for now, in the order it began waiting. */
export function awaitedEvents(): string[] {
  return [...awaited];
}

/** The id a callback's answer comes back with: the execution and the call's place, loops and attempt. */
export function callbackId(place: string, loops: readonly number[], attempt: number): string {
  return JSON.stringify({ workflow: workflowInfo().workflowId, call: [place, ...loops, attempt].join("/") });
}

/** The key of a call in this execution (continuations keep the workflow id, so keys stay). */
export function key(place: string, loops: readonly number[]): string {
  return idempotencyKey(workflowInfo().workflowId, place, loops);
}

/** A child workflow's id: `<parent id>/<place>/<loop counts>/<attempt>`. */
export function childId(place: string, loops: readonly number[], attempt: number): string {
  return `${key(place, loops)}/${attempt}`;
}

/** Refuses an answer to a callback the workflow does not wait for, or one already answered. */
export function validateAnswer(a: { readonly id: string } & Answer): void {
  if (!handedOn.has(a.id)) throw new Error(`dandori: no callback ${a.id} is awaited`);
  if (callbackAnswers.has(a.id)) throw new Error(`dandori: callback ${a.id} was answered before`);
}

/** Takes a callback's answer (validated first). */
export function takeAnswer(a: { readonly id: string } & Answer): boolean {
  callbackAnswers.set(a.id, a);
  return true;
}

/** Takes a callback's answer sent as the signal `dandori.callback`: one not awaited is dropped. */
export function takeSignal(a: { readonly id: string } & Answer): void {
  if (handedOn.has(a.id) && !callbackAnswers.has(a.id)) callbackAnswers.set(a.id, a);
}

/** Refuses an event the workflow does not wait for, or one that came already. */
export function validateEvent(a: { readonly event: string } & Answer): void {
  if (!awaited.has(a.event)) throw new Error(`dandori: the event ${a.event} is not awaited`);
  if (eventAnswers.has(a.event)) throw new Error(`dandori: the event ${a.event} came already`);
}

/** Takes an event (validated first). */
export function takeEvent(a: { readonly event: string } & Answer): boolean {
  eventAnswers.set(a.event, a);
  return true;
}

function read(a: Answer | undefined): unknown {
  if (a === undefined) throw new WaitTimedOut("the wait timed out");
  if ("ok" in a) return a.ok;
  throw new Answered(a.error, a.message ?? "");
}

/**
 * Hands a callback's id on (`handOn`, the activity) and waits for its answer; the wait's length
 * is counted from when the activity returned (docs/design/dandori.md#timeouts): `seconds`, or until the deadline.
 */
export async function awaitCallback(
  id: string,
  wait: { readonly seconds: number } | { readonly until: string },
  handOn: () => Promise<unknown>,
): Promise<unknown> {
  handedOn.add(id);
  try {
    await handOn();
    const got = await condition(() => callbackAnswers.has(id), ms(waitSeconds(wait)));
    return read(got ? callbackAnswers.get(id) : undefined);
  } finally {
    handedOn.delete(id);
  }
}

/** Waits for the event `name`; a timeout is the task's `timeout`. */
export async function awaitEvent(
  name: string,
  wait: { readonly seconds: number } | { readonly until: string },
): Promise<unknown> {
  awaited.add(name);
  try {
    const got = await condition(() => eventAnswers.has(name), eventMs(waitSeconds(wait)));
    return read(got ? eventAnswers.get(name) : undefined);
  } finally {
    awaited.delete(name);
    eventAnswers.delete(name);
  }
}

function waitSeconds(wait: { readonly seconds: number } | { readonly until: string }): number {
  if ("seconds" in wait) return wait.seconds;
  const deadline = timestampMs(wait.until);
  if (deadline === null) throw fail("Dandori.BadInput", `the deadline ${wait.until} is not a timestamp`);
  return secondsUntil(deadline, Date.now());
}

/** Waits until the time `at` (a time already past does not wait). */
export async function waitUntil(at: string): Promise<void> {
  const t = timestampMs(at);
  if (t === null) throw fail("Dandori.BadInput", `the time ${at} is not a timestamp`);
  const left = t - Date.now();
  if (left > 0) await sleep(ms(left / 1000));
}

// ---------------------------------------------------------------------------------------------
// Continue-As-New of the outermost loop.

/** Where a continued run starts: the outermost loop's statement, its iteration, the variables and cases. */
export interface Resume {
  readonly at: number;
  readonly iteration: number;
  readonly vars: { readonly [name: string]: unknown };
  readonly cases: { readonly [name: string]: unknown };
}

/** True when an outermost iteration, not the first this run makes, should start a new run. */
export function continuing(ranHere: number): boolean {
  if (ranHere === 0) return false;
  const info = workflowInfo();
  return info.historyLength >= CONTINUE_AT || info.continueAsNewSuggested;
}

/** Continues the run as a new one with the same input, from `resume`. */
export function continueFrom<I>(input: I, resume: Resume): Promise<never> {
  return continueAsNew<(input: I, resume: Resume) => Promise<unknown>>(input, resume);
}

/** The search attribute of the cases' states: `<case>=<state>` for every case that started. */
export const DANDORI_CASES = defineSearchAttributeKey("DandoriCases", SearchAttributeType.KEYWORD_LIST);

/** Writes the cases' states into `DandoriCases` when the run was started with `searchAttributes: true`. */
export function showCases(cases: { readonly [name: string]: { readonly state: string } | null }): void {
  if (workflowInfo().memo?.["dandori.cases"] !== true) return;
  const states = Object.entries(cases).flatMap(([name, c]) => c === null ? [] : [`${name}=${c.state}`]);
  upsertSearchAttributes([{ key: DANDORI_CASES, value: states }]);
}

/** Runs `on cancel` where no cancel reaches it (docs/dandori.md#on-failure-and-on-cancel). */
export function nonCancellable<R>(body: () => Promise<R>): Promise<R> {
  return CancellationScope.nonCancellable(body);
}

export { isCancellation };
