/**
 * The shared vectors of `tests/vectors/` as Deno tests over one implementation of the rules:
 * `lang/dandori/rules.ts` and every generated TypeScript runtime pass the same cases.
 * @module
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { parseJson, stringifyJson } from "../../lang/common/json.ts";

const VECTORS = new URL("../vectors/", import.meta.url);

/** One retrier as the rules take it. */
export interface VectorRetrier {
  readonly errors: readonly string[];
  readonly maxAttempts: number;
  readonly intervalSeconds: number;
  readonly backoff: string;
}

/** The rules an implementation gives. */
export interface RuleImpl {
  retrierFor(retriers: readonly VectorRetrier[], error: string): VectorRetrier | null;
  retryDelayMs(r: VectorRetrier, retry: number): number;
  secondsUntil(deadlineMs: number, nowMs: number): number;
  idempotencyKey(execution: string, place: string, loops: readonly number[]): string;
  /** Takes a value as the implementation carries it (`value` turns a vector's value into that). */
  urlSegment(value: unknown): string;
  hasDotSegment(url: string): boolean;
  timeIn(value: string, first: string | null, after: string | null): boolean;
  dateIn(value: string, first: string | null, last: string | null): boolean;
  timestampMs(text: string): number | null;
}

// deno-lint-ignore no-explicit-any
function cases(name: string): any[] {
  // deno-lint-ignore no-explicit-any
  const v = parseJson(Deno.readTextFileSync(new URL(name, VECTORS))) as any;
  ok(typeof v.rule === "string" && Array.isArray(v.cases) && v.cases.length > 0, name);
  return v.cases;
}

function retrier(
  r: { errors: string[]; maxAttempts: bigint; intervalSeconds: bigint; backoff: string },
): VectorRetrier {
  return {
    errors: r.errors,
    maxAttempts: Number(r.maxAttempts),
    intervalSeconds: Number(r.intervalSeconds),
    backoff: r.backoff,
  };
}

/** Registers one Deno test per vector file, over `impl`; `value` gives a vector's value as `impl` carries values. */
export function ruleVectorTests(label: string, impl: RuleImpl, value: (v: unknown) => unknown): void {
  Deno.test(`${label}: retrier.json: the first retrier that names the error, or *`, () => {
    for (const c of cases("retrier.json")) {
      const list = c.retriers.map(retrier);
      const found = impl.retrierFor(list, c.error);
      strictEqual(found === null ? null : BigInt(list.indexOf(found)), c.index, JSON.stringify(c.error));
    }
  });

  Deno.test(`${label}: retry_delay.json: interval × backoff^(n − 1), in whole milliseconds`, () => {
    for (const c of cases("retry_delay.json")) {
      const r = retrier({
        errors: ["*"],
        maxAttempts: 9n,
        intervalSeconds: c.intervalSeconds,
        backoff: c.backoff,
      });
      strictEqual(
        BigInt(impl.retryDelayMs(r, Number(c.retry))),
        c.ms,
        `${c.intervalSeconds} × ${c.backoff}^${c.retry}`,
      );
    }
  });

  Deno.test(`${label}: seconds_until.json: rounded up, at least one second`, () => {
    for (const c of cases("seconds_until.json")) {
      const deadline = impl.timestampMs(c.deadline);
      const now = impl.timestampMs(c.now);
      ok(deadline !== null && now !== null);
      strictEqual(BigInt(impl.secondsUntil(deadline, now)), c.seconds, `${c.now} → ${c.deadline}`);
    }
  });

  Deno.test(`${label}: idempotency_key.json: execution, place and loop counts`, () => {
    for (const c of cases("idempotency_key.json")) {
      strictEqual(impl.idempotencyKey(c.execution, c.place, c.loops.map(Number)), c.key);
    }
  });

  Deno.test(`${label}: url_segment.json: as encodeURIComponent escapes, a missing value empty`, () => {
    for (const c of cases("url_segment.json")) {
      strictEqual(impl.urlSegment(value(c.value)), c.segment, stringifyJson(c.value));
    }
  });

  Deno.test(`${label}: dot_segment.json: a path segment . or .. (%2e a dot), as the WHATWG URL parser reads one`, () => {
    for (const c of cases("dot_segment.json")) strictEqual(impl.hasDotSegment(c.url), c.dot, c.url);
  });

  Deno.test(`${label}: time_in.json and date_in.json: 19 characters for a time, 10 for a date`, () => {
    for (const c of cases("time_in.json")) strictEqual(impl.timeIn(c.value, c.first, c.after), c.in, c.value);
    for (const c of cases("date_in.json")) strictEqual(impl.dateIn(c.value, c.first, c.last), c.in, c.value);
    deepStrictEqual([impl.timestampMs("2026-02-30T00:00:00Z"), impl.timestampMs("2026-03-31 15:30:00Z")], [
      null,
      null,
    ]);
  });
}
