/**
 * The Go runtime's settings for the Go programs a verification starts and waits on: the Temporal dev
 * server (`temporal_server.ts`), the Temporal runners (the Go one reads them; TypeScript's and Python's
 * ignore them) and Argo's controller harness (`argo.ts`). They change how much CPU a program spends on
 * its own memory, not what it does: `GOGC=400` collects garbage when the heap has grown by four times
 * what was live (Go's default is once), and `adaptivestackstart=1` starts each goroutine with a stack the
 * size goroutines have needed, not 2 KiB that is copied as it grows.
 *
 * `deno task bench go-runtime` measures the dev server's CPU with them against Go's defaults
 * (`GO_DEFAULTS`): over the 358 scenarios of the example flows, 29.7–31.4 CPU s against 33.9–36.7 s
 * (three servers each, 2026-12-06). Measured by hand on this 2-core machine, each alone, `deno task verify temporal-go examples/` (358
 * scenarios): the dev server took 29.1 and 29.5 CPU s against 31.7 s, and the Go runner 9.2 and 9.5
 * against 10.2 s; `deno task verify argo examples/` (242 scenarios) took 41.9 and 43.7 CPU s against
 * 56.7 and 55.4 s. A profile of the dev server (`perf`, 10,805 samples of the same run) had 8 % of its
 * time in the collector's background marking and 6 % in growing stacks. A `GOGC` of the caller's is
 * kept, and so is a `GODEBUG`, with this one added after it.
 * @module
 */

/** What is collected less often: the heap grows to five times what was live before a collection. */
const GOGC = "400";

/**
 * Go's own defaults, whatever the caller's environment says: the baseline of `deno task bench
 * go-runtime` (`verify/dandori/temporal_bench.ts`).
 */
export const GO_DEFAULTS: Readonly<Record<string, string>> = { GOGC: "100", GODEBUG: "adaptivestackstart=0" };

/** The environment a verification's Go programs are started with, over the caller's. */
export function goRuntimeEnv(): Record<string, string> {
  const debug = Deno.env.get("GODEBUG");
  const adaptive = "adaptivestackstart=1";
  return {
    GOGC: Deno.env.get("GOGC") ?? GOGC,
    GODEBUG: debug === undefined || debug === "" ? adaptive : `${debug},${adaptive}`,
  };
}
