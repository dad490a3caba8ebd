/**
 * The TypeScript rules module (`lang/dandori/rules.ts`) against the shared vectors of
 * `tests/vectors/`: the same vectors every generated runtime passes in its own language.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { parseJson, stringifyJson } from "../../lang/common/json.ts";
import {
  dateIn,
  idempotencyKey,
  type Retrier,
  retrierFor,
  retryDelayMs,
  secondsUntil,
  timeIn,
  timestampMs,
  urlSegment,
} from "../../lang/dandori/rules.ts";

const VECTORS = new URL("../vectors/", import.meta.url);

// deno-lint-ignore no-explicit-any
function cases(name: string): any[] {
  // deno-lint-ignore no-explicit-any
  const v = parseJson(Deno.readTextFileSync(new URL(name, VECTORS))) as any;
  ok(typeof v.rule === "string" && Array.isArray(v.cases) && v.cases.length > 0, name);
  return v.cases;
}

function retrier(
  r: { errors: string[]; maxAttempts: bigint; intervalSeconds: bigint; backoff: string },
): Retrier {
  return {
    errors: r.errors,
    maxAttempts: Number(r.maxAttempts),
    intervalSeconds: Number(r.intervalSeconds),
    backoff: r.backoff,
  };
}

Deno.test("retrier.json: the first retrier that names the error, or *", () => {
  for (const c of cases("retrier.json")) {
    const list = c.retriers.map(retrier);
    const found = retrierFor(list, c.error);
    strictEqual(found === null ? null : BigInt(list.indexOf(found)), c.index, JSON.stringify(c.error));
  }
});

Deno.test("retry_delay.json: interval × backoff^(n − 1), in whole milliseconds", () => {
  for (const c of cases("retry_delay.json")) {
    const r = retrier({
      errors: ["*"],
      maxAttempts: 9n,
      intervalSeconds: c.intervalSeconds,
      backoff: c.backoff,
    });
    strictEqual(
      BigInt(retryDelayMs(r, Number(c.retry))),
      c.ms,
      `${c.intervalSeconds} × ${c.backoff}^${c.retry}`,
    );
  }
});

Deno.test("seconds_until.json: rounded up, at least one second", () => {
  for (const c of cases("seconds_until.json")) {
    const deadline = timestampMs(c.deadline);
    const now = timestampMs(c.now);
    ok(deadline !== null && now !== null);
    strictEqual(BigInt(secondsUntil(deadline, now)), c.seconds, `${c.now} → ${c.deadline}`);
  }
});

Deno.test("idempotency_key.json: execution, place and loop counts", () => {
  for (const c of cases("idempotency_key.json")) {
    strictEqual(idempotencyKey(c.execution, c.place, c.loops.map(Number)), c.key);
  }
});

Deno.test("url_segment.json: as encodeURIComponent escapes, a missing value empty", () => {
  for (const c of cases("url_segment.json")) {
    strictEqual(urlSegment(c.value), c.segment, stringifyJson(c.value));
  }
});

Deno.test("time_in.json and date_in.json: 19 characters for a time, 10 for a date", () => {
  for (const c of cases("time_in.json")) strictEqual(timeIn(c.value, c.first, c.after), c.in, c.value);
  for (const c of cases("date_in.json")) strictEqual(dateIn(c.value, c.first, c.last), c.in, c.value);
  deepStrictEqual([timestampMs("2026-02-30T00:00:00Z"), timestampMs("2026-03-31 15:30:00Z")], [null, null]);
});
