/**
 * The Go runtime's settings of a verification's Go programs (`verify/services/go_runtime.ts`): what
 * they are over the caller's environment, and that the Temporal dev server is started with them (or,
 * for `deno task bench go-runtime`'s baseline, with Go's defaults).
 */

import { ok, strictEqual } from "node:assert/strict";
import { goRuntimeEnv } from "../../verify/services/go_runtime.ts";
import { findTemporal, startTemporal, VERIFY_SERVER } from "../../verify/services/temporal_server.ts";

/** Runs `f` with the environment variables `vars` set (undefined: unset), then puts them back. */
function withEnv(vars: Record<string, string | undefined>, f: () => void): void {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, Deno.env.get(k)]));
  const put = (v: Record<string, string | undefined>) => {
    for (const [k, x] of Object.entries(v)) x === undefined ? Deno.env.delete(k) : Deno.env.set(k, x);
  };
  put(vars);
  try {
    f();
  } finally {
    put(before);
  }
}

Deno.test("a verification's Go programs collect at GOGC 400 with adaptive stacks; a caller's GOGC and GODEBUG are kept", () => {
  withEnv({ GOGC: undefined, GODEBUG: undefined }, () => {
    const env = goRuntimeEnv();
    strictEqual(env.GOGC, "400");
    strictEqual(env.GODEBUG, "adaptivestackstart=1");
  });
  withEnv({ GOGC: "100", GODEBUG: "gctrace=1" }, () => {
    const env = goRuntimeEnv();
    strictEqual(env.GOGC, "100");
    strictEqual(env.GODEBUG, "gctrace=1,adaptivestackstart=1");
  });
});

Deno.test("the Temporal dev server runs with the Go runtime's settings, or with Go's defaults for the bench's baseline", async () => {
  const bin = await findTemporal();
  if (bin === null) return console.log("SKIP: temporal: the temporal CLI 1.9.1 is not installed");
  const environOf = async (goDefaults: boolean) => {
    const server = await startTemporal(bin, [], { ...VERIFY_SERVER, goDefaults });
    try {
      ok(server.cpuSeconds() > 0, "a started server has used some CPU");
      return Deno.readTextFileSync(`/proc/${server.pid}/environ`).split("\0");
    } finally {
      await server.stop();
    }
  };
  const tuned = await environOf(false);
  ok(tuned.includes("GOGC=400") || tuned.includes(`GOGC=${Deno.env.get("GOGC")}`), "GOGC");
  ok(tuned.some((v) => v.startsWith("GODEBUG=") && v.endsWith("adaptivestackstart=1")), "GODEBUG");
  const defaults = await environOf(true);
  ok(defaults.includes("GOGC=100") && defaults.includes("GODEBUG=adaptivestackstart=0"), "Go's defaults");
});
