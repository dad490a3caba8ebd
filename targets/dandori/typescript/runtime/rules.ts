// The rules every dandori TypeScript package shares, whichever platform runs it (the Temporal and
// the durable functions targets): which retrier takes an error, how long a retry waits, seconds
// until a time, keys, URL segments, time ranges, and the checks of values. `dandori build` copies it
// byte for byte as `rules.ts` beside `runtime.ts`, which exports it again, so a workflow imports
// everything from `runtime.ts`. The same rules in Python are targets/dandori/python/runtime/rules.py;
// both pass tests/vectors/*.json.

/** One retrier in Step Functions' order; `*` among the errors takes every error. */
export interface Retrier {
  readonly errors: readonly string[];
  readonly maxAttempts: number;
  readonly intervalSeconds: number;
  /** `BackoffRate` as decimal text. */
  readonly backoff: string;
}

/** The retrier that takes `error`: the first whose errors name it, or `*`; null when none does. */
export function retrierFor(retriers: readonly Retrier[], error: string): Retrier | null {
  return retriers.find((r) => r.errors.includes(error) || r.errors.includes("*")) ?? null;
}

/** How long the `retry`-th retry (1 for the first) waits, in whole milliseconds rounded down. */
export function retryDelayMs(r: Retrier, retry: number): number {
  return Math.floor(r.intervalSeconds * 1000 * Math.pow(Number(r.backoff), retry - 1));
}

/** The seconds a wait until `deadlineMs` lasts from `nowMs`: rounded up, never less than 1 (docs/design/dandori.md#timeouts). */
export function secondsUntil(deadlineMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((deadlineMs - nowMs) / 1000));
}

/** A call's key (docs/design/dandori.md#keys): `<execution>/<place>/<loop counts…>`. */
export function idempotencyKey(execution: string, place: string, loops: readonly number[]): string {
  return [execution, place, ...loops.map(String)].join("/");
}

/** A value written into a URL (docs/formats.md, the `http` view): a string as it is, missing as empty, else JSON; then escaped. */
export function segment(value: unknown): string {
  const text = typeof value === "string"
    ? value
    : value === null || value === undefined
    ? ""
    : JSON.stringify(value);
  return encodeURIComponent(text);
}

/**
 * True when a path segment of a URL a call built is `.` or `..` (`%2e` is a dot), as the WHATWG URL
 * parser reads one: the call is not sent, the run fails with `Dandori.BadInput` (docs/dandori.md#urls).
 */
export function hasDotSegment(url: string): boolean {
  return /^[a-z]+:\/\/[^/?]*\/(?:[^?]*\/)?(?:\.|%2e)(?:\.|%2e)?(?:[/?]|$)/i.test(url);
}

/** True when `value` is in `[first, after)`, compared on its first 19 characters (docs/design/dandori.md#the-workflow-period). */
export function timeIn(value: string, first: string | null, after: string | null): boolean {
  const s = value.slice(0, 19);
  return (first === null || s >= first) && (after === null || s < after);
}

/** True when the date `value` is in `[first, last]`, compared as text (docs/design/dandori.md#the-workflow-period). */
export function dateIn(value: string, first: string | null, last: string | null): boolean {
  return (first === null || value >= first) && (last === null || value <= last);
}

const TIMESTAMP = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z$/;
const DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/** Milliseconds since 1970 of a `timestamp`, or null when it is not one. */
export function timestampMs(text: string): number | null {
  if (!TIMESTAMP.test(text)) return null;
  const t = Date.parse(text);
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 19) !== text.slice(0, 19)) return null;
  return t;
}

/** A time as a flow writes a `timestamp`: to the second, in UTC. */
export function timestampText(t: number): string {
  return `${new Date(Math.floor(t / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

// ---------------------------------------------------------------------------------------------
// Values and their checks.

/** True when `v` is a JSON object (a record). */
export function isObject(v: unknown): v is { readonly [key: string]: unknown } {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A record's own field, or undefined (a prototype's member is never read). */
export function field(v: unknown, name: string): unknown {
  return isObject(v) && Object.hasOwn(v, name) ? v[name] : undefined;
}

/** True when `v` is an integer in `[lower, upper]` (null: open). */
export function isInt(v: unknown, lower: number | null, upper: number | null): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && (lower === null || v >= lower) &&
    (upper === null || v <= upper);
}

/** True when `v` is a `timestamp` in `[first, after)` (null: open). */
export function isTime(v: unknown, first: string | null, after: string | null): v is string {
  return typeof v === "string" && timestampMs(v) !== null && timeIn(v, first, after);
}

/** True when `v` is a `date` of the calendar in `[first, last]` (null: open). */
export function isDate(v: unknown, first: string | null, last: string | null): v is string {
  if (typeof v !== "string" || !DATE.test(v)) return false;
  const t = Date.parse(`${v}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === v && dateIn(v, first, last);
}

/** True when `v` is a list whose every item passes `item`. */
export function isListOf(v: unknown, item: (e: unknown) => boolean): v is unknown[] {
  return Array.isArray(v) && v.every(item);
}

/** True when `v` is one of `values`. */
export function isOneOf<V extends string>(v: unknown, values: readonly V[]): v is V {
  return (values as readonly unknown[]).includes(v);
}

/** A value written into a string (docs/dandori.md#statements-and-expressions): strings as they are, numbers as digits, bools as words. */
export function text(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v ?? null);
}
