/**
 * The Python rules both Python targets carry as `rules.py` (`targets/dandori/python/runtime/rules.py`,
 * in every pydantic-graph and temporal-python package) against the shared vectors of
 * `tests/vectors/`: the same vectors `lang/dandori/rules.ts` and the TypeScript runtimes pass.
 */

import { strictEqual } from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url).pathname;

async function python(args: string[], cwd: string): Promise<{ code: number; out: string }> {
  const run = await new Deno.Command("python3", { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder();
  return { code: run.code, out: text.decode(run.stdout) + text.decode(run.stderr) };
}

/** Checks `rules.py` (argv[1]) on the shared vectors of `tests/vectors/` (argv[2]); prints what fails. */
const VECTORS = `
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("rules", sys.argv[1])
rt = importlib.util.module_from_spec(spec)
sys.modules["rules"] = rt
spec.loader.exec_module(rt)
def cases(name):
    return json.load(open(sys.argv[2] + name, encoding="utf-8"))["cases"]
def retrier(r):
    return rt.Retrier(tuple(r["errors"]), r["maxAttempts"], r["intervalSeconds"], r["backoff"])
bad = []
for c in cases("retrier.json"):
    rs = [retrier(r) for r in c["retriers"]]
    found = rt.retrier_for(rs, c["error"])
    got = None if found is None else next(i for i, r in enumerate(rs) if r is found)
    if got != c["index"]: bad.append(["retrier", c, got])
for c in cases("retry_delay.json"):
    r = retrier({"errors": ["*"], "maxAttempts": 9, "intervalSeconds": c["intervalSeconds"], "backoff": c["backoff"]})
    if rt.retry_delay_ms(r, c["retry"]) != c["ms"]: bad.append(["retry_delay", c])
for c in cases("seconds_until.json"):
    if rt.seconds_until(rt.timestamp_ms(c["deadline"]), rt.timestamp_ms(c["now"])) != c["seconds"]: bad.append(["seconds_until", c])
for c in cases("idempotency_key.json"):
    if rt.idempotency_key(c["execution"], c["place"], c["loops"]) != c["key"]: bad.append(["idempotency_key", c])
for c in cases("url_segment.json"):
    if rt.url_segment(c.get("value")) != c["segment"]: bad.append(["url_segment", c, rt.url_segment(c.get("value"))])
for c in cases("dot_segment.json"):
    if rt.has_dot_segment(c["url"]) != c["dot"]: bad.append(["dot_segment", c])
for c in cases("time_in.json"):
    if rt.time_in(c["value"], c["first"], c["after"]) != c["in"]: bad.append(["time_in", c])
for c in cases("date_in.json"):
    if rt.date_in(c["value"], c["first"], c["last"]) != c["in"]: bad.append(["date_in", c])
if [rt.timestamp_ms("2026-02-30T00:00:00Z"), rt.timestamp_ms("2026-03-31 15:30:00Z")] != [None, None]: bad.append(["timestamp_ms"])
print(json.dumps(bad, ensure_ascii=False))
`;

Deno.test("rules.py passes the shared rule vectors", async () => {
  const run = await python([
    "-c",
    VECTORS,
    `${ROOT}targets/dandori/python/runtime/rules.py`,
    `${ROOT}tests/vectors/`,
  ], ROOT).catch((e) => {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    return null;
  });
  if (run === null) return console.log("SKIP: python3: not on this machine");
  strictEqual(run.out.trim(), "[]");
});
