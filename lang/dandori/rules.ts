/**
 * The rules every host language must apply the same way, written once for TypeScript: which
 * retrier takes an error (Step Functions' order), how long a retry waits, how many seconds a
 * wait until a time lasts, whether a time is in a range or the workflow's period, how an
 * idempotency key is formed, and how a value is written into a URL. The reference interpreter
 * uses this module; each generated runtime (TypeScript, Python, Go) implements the same rules,
 * and every implementation passes the shared vectors of `tests/vectors/*.json`.
 *
 * Times are UTC, in milliseconds since 1970-01-01 where they are numbers, and as RFC 3339 text
 * (`2026-03-31T15:30:00Z`, fractions of a second allowed) where they are values of a flow.
 * @module
 */

import { stringifyJson } from "../common/json.ts";

/** One retrier in Step Functions' order; `*` among the errors takes every error. */
export interface Retrier {
  readonly errors: readonly string[];
  readonly maxAttempts: number;
  readonly intervalSeconds: number;
  /** `BackoffRate` as decimal text. */
  readonly backoff: string;
}

/**
 * The retrier that takes `error`: the first whose errors name it (or `*`), as Step Functions
 * reads its `Retry` list. Null when none takes it: the error is not retried.
 *
 * @example
 * ```ts
 * retrierFor([{ errors: ["declined"], maxAttempts: 0, … }, { errors: ["*"], maxAttempts: 2, … }], "declined");
 * // the first: declared errors are stopped before `*` takes them
 * ```
 */
export function retrierFor(retriers: readonly Retrier[], error: string): Retrier | null {
  return retriers.find((r) => r.errors.includes(error) || r.errors.includes("*")) ?? null;
}

/** The smallest and largest `BackoffRate` Step Functions takes. */
export const MIN_BACKOFF = 1;
export const MAX_BACKOFF = 20;

/**
 * How long the `retry`-th retry (1 for the first) waits: `intervalSeconds × backoff^(retry − 1)`,
 * in whole milliseconds rounded down.
 */
export function retryDelayMs(r: Pick<Retrier, "intervalSeconds" | "backoff">, retry: number): number {
  return Math.floor(r.intervalSeconds * 1000 * Math.pow(Number(r.backoff), retry - 1));
}

/**
 * The seconds a wait until `deadline` lasts when it starts at `now` (docs/design/dandori.md#timeouts): rounded up to whole
 * seconds, and never less than 1 (also when the deadline has passed).
 */
export function secondsUntil(deadlineMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((deadlineMs - nowMs) / 1000));
}

/** The key of a call (docs/design/dandori.md#keys): `<execution>/<place>/<loop counts…>`, counts 1 for a loop's first iteration. */
export function idempotencyKey(execution: string, place: string, loops: readonly number[]): string {
  return [execution, place, ...loops.map(String)].join("/");
}

/**
 * A value as it is written into a URL (docs/design/dandori.md#ways-of-calling-a-task): a string as it is, a missing value as the empty
 * string, anything else as JSON; then escaped as `encodeURIComponent` escapes (letters, digits
 * and `-_.!~*'()` stay, every other UTF-8 byte becomes `%XX`).
 */
export function urlSegment(value: unknown): string {
  return encodeURIComponent(urlText(value));
}

/**
 * A value as text before it is escaped into a URL: a string as it is, a missing value as
 * the empty string, anything else as JSON. A platform that escapes the text itself (Step
 * Functions' `QueryParameters` and URL-encoded bodies) is handed this.
 */
export function urlText(value: unknown): string {
  return typeof value === "string"
    ? value
    : value === null || value === undefined
    ? ""
    : stringifyJson(value);
}

/**
 * A path segment `.` or `..` in a URL a call built (its values escaped by `urlSegment`), as the WHATWG
 * URL parser reads one — `%2e` in either case is a dot — between the `/` that ends the host and the
 * `?` of the query. Every client would send such a URL to another path (`…/charges/../refund` is
 * `…/refund`), so a call whose values make one is not sent: the run fails with `Dandori.BadInput`
 * (docs/dandori.md#urls). Written as one regular expression, which JavaScript, Python and JSONata
 * read alike.
 */
export const DOT_SEGMENT = String.raw`^[a-z]+://[^/?]*/(?:[^?]*/)?(?:\.|%2e)(?:\.|%2e)?(?:[/?]|$)`;

/** True when a path segment of `url` is `.` or `..` (`DOT_SEGMENT`, ignoring case). */
export function hasDotSegment(url: string): boolean {
  return new RegExp(DOT_SEGMENT, "i").test(url);
}

/** The reason a run fails with when a value given to the call on `line` makes a dot segment: the same on every platform. */
export function dotSegmentReason(line: number, task: string): string {
  return `line ${line}: a value given to ${task} makes a path segment . or .. in its URL`;
}

/** The URL of an `http` call: the template's text, and each argument's value as `urlSegment` writes it. */
export function filledUrl(
  parts: readonly ({ readonly text: string } | { readonly param: string })[],
  args: { readonly [param: string]: unknown },
): string {
  return parts.map((p) =>
    "text" in p ? p.text : urlSegment(Object.hasOwn(args, p.param) ? args[p.param] : null)
  )
    .join("");
}

/** The first second of a time as the 19 characters every platform compares (`YYYY-MM-DDTHH:MM:SS`). */
export function secondText(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19);
}

/**
 * True when the time `value` (RFC 3339, UTC) is in `[first, after)`, compared on its first 19
 * characters (to the second), as every platform compares (docs/design/dandori.md#dates-and-times). A missing end is open.
 */
export function timeIn(value: string, first: string | null, after: string | null): boolean {
  const s = value.slice(0, 19);
  return (first === null || s >= first) && (after === null || s < after);
}

/** True when the date `value` (`YYYY-MM-DD`) is in `[first, last]`, compared as text (docs/design/dandori.md#dates-and-times). */
export function dateIn(value: string, first: string | null, last: string | null): boolean {
  return (first === null || value >= first) && (last === null || value <= last);
}

/** A UTC time written as a flow's `timestamp` is (`2026-10-01T10:00:00Z`, a fraction of a second allowed). */
export const TIMESTAMP_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z$/;

/** A date as a flow's `date` is (`2026-10-01`). */
export const DATE_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/** Milliseconds since 1970 of a `timestamp`, or null when it is not one (or not a day of the calendar). */
export function timestampMs(text: string): number | null {
  if (!TIMESTAMP_PATTERN.test(text)) return null;
  const ms = Date.parse(text);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 19) !== text.slice(0, 19)) return null;
  return ms;
}

/** A time as a flow writes a `timestamp`: to the second, in UTC. */
export function timestampText(ms: number): string {
  return `${secondText(ms)}Z`;
}
