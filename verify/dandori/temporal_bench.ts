/**
 * `deno task bench temporal`: what the differential run costs on a dev server, as ratios to the
 * same server's empty workflow measured in the same run. The baseline is a workflow that returns
 * at once, started as the runner starts runs (`AT_ONCE` at a time) by a worker of its own; the
 * differential run is every scenario of one example flow (`examples/orders/orders.flow`: books,
 * callbacks, HTTP, retries) through the runner. Reported: runs per second of each, and the median
 * time of one run from its start to its ending.
 *
 * `deno task bench go-runtime`: the dev server's CPU seconds over every scenario of the example flows
 * (one round of the TypeScript runner, as `verify temporal-typescript` plays them) with the Go
 * runtime's settings of `verify/services/go_runtime.ts`, against a server with Go's own defaults
 * (`GO_DEFAULTS`) in the same run: `GO_ROUNDS` servers of each, one at a time, taken in turn; each
 * kind's least and most, and the ratio of the leasts (the least is the one that other work on the
 * machine disturbed least).
 * @module
 */

import { Client, Connection } from "@temporalio/client";
import { NativeConnection, Worker } from "@temporalio/worker";
import { checkedFlowAt, runnableFlows } from "./flows.ts";
import { subjectOf } from "./temporal.ts";
import { AT_ONCE, namespaceOf, playFlow, playRound } from "./temporal_play.ts";
import { findTemporal, startTemporal, VERIFY_SERVER } from "../services/temporal_server.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const FLOW = "examples/orders/orders.flow";
/** Empty runs the baseline times. */
const EMPTY_RUNS = 120;

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** The empty workflow on `address`: runs per second, and the median ms of one run. */
async function empty(address: string): Promise<{ perSecond: number; medianMs: number }> {
  const dir = Deno.makeTempDirSync({ prefix: "dandori-bench-" });
  Deno.symlinkSync(`${ROOT}node_modules`, `${dir}/node_modules`);
  Deno.writeTextFileSync(
    `${dir}/workflow.ts`,
    "export async function empty(): Promise<null> {\n  return null;\n}\n",
  );
  const native = await NativeConnection.connect({ address });
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });
  const worker = await Worker.create({
    connection: native,
    taskQueue: "empty",
    workflowsPath: `${dir}/workflow.ts`,
  });
  const times: number[] = [];
  let elapsed = 0;
  await worker.runUntil(async () => {
    const queue = Array.from({ length: EMPTY_RUNS }, (_, i) => `empty-${i}`);
    const started = performance.now();
    await Promise.all(Array.from({ length: AT_ONCE }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        const t = performance.now();
        await client.workflow.execute("empty", { taskQueue: "empty", workflowId: id });
        times.push(performance.now() - t);
      }
    }));
    elapsed = (performance.now() - started) / 1000;
  });
  await native.close();
  await connection.close();
  Deno.removeSync(dir, { recursive: true });
  return { perSecond: EMPTY_RUNS / elapsed, medianMs: median(times) };
}

/** The bench: prints its lines. */
export async function benchTemporal(): Promise<void> {
  const bin = await findTemporal();
  if (bin === null) {
    console.log("SKIP: temporal: bench temporal: the temporal CLI 1.9.1 is not installed");
    return;
  }
  const flow = checkedFlowAt(ROOT, FLOW);
  if (flow === null) throw new Error(`${FLOW} does not check`);
  const subject = subjectOf(flow);
  if ("skipped" in subject) throw new Error(`${FLOW}: ${subject.skipped}`);
  const server = await startTemporal(bin, [namespaceOf(0)], VERIFY_SERVER);
  try {
    const base = await empty(server.address);
    const started = performance.now();
    const played = await playFlow(bin, subject, subject.jobs, { server });
    const elapsed = (performance.now() - started) / 1000;
    const runs = [...played.values()];
    const perSecond = runs.length / elapsed;
    const medianMs = median(runs.map((r) => r.played.ms));
    console.log(`bench temporal: one dev server, ${AT_ONCE} runs at a time`);
    console.log(
      `  baseline      empty workflow, ${EMPTY_RUNS} runs        ${base.perSecond.toFixed(1)} runs/s, ${
        base.medianMs.toFixed(0)
      } ms a run`,
    );
    console.log(
      `  differential  ${FLOW}, ${runs.length} runs   ${perSecond.toFixed(1)} runs/s, ${
        medianMs.toFixed(0)
      } ms a run (runs/s counts the runner's start and its worker's bundle)`,
    );
    console.log(
      `  ratio         ${(perSecond / base.perSecond).toFixed(3)} × the baseline's runs/s, ${
        (medianMs / base.medianMs).toFixed(1)
      } × its time a run`,
    );
  } finally {
    await server.stop();
  }
}

/** Servers of each kind `bench go-runtime` starts, in turn. */
const GO_ROUNDS = 3;

/** The flows `bench go-runtime` plays: every example flow the TypeScript target builds. */
const GO_FLOWS = "examples/";

/** The bench `go-runtime`: prints its lines. */
export async function benchGoRuntime(): Promise<void> {
  const bin = await findTemporal();
  if (bin === null) {
    console.log("SKIP: temporal: bench go-runtime: the temporal CLI 1.9.1 is not installed");
    return;
  }
  const subjects = runnableFlows(ROOT, [GO_FLOWS]).map((f) => subjectOf(f)).flatMap((s) =>
    "skipped" in s ? [] : [s]
  );
  const runs = subjects.reduce((n, s) => n + s.jobs.length, 0);
  const cpu = { defaults: [] as number[], settings: [] as number[] };
  for (let round = 1; round <= GO_ROUNDS; round++) {
    for (const kind of ["defaults", "settings"] as const) {
      const server = await startTemporal(bin, subjects.map((_, i) => namespaceOf(i)), {
        ...VERIFY_SERVER,
        goDefaults: kind === "defaults",
      });
      try {
        const batches = subjects.map((subject, i) => ({
          subject,
          jobs: subject.jobs,
          namespace: namespaceOf(i),
        }));
        const played = playRound(bin, batches, { server });
        const flows = await Promise.all(played.flows);
        await played.done;
        const late = flows.reduce((n, f) => n + [...f.values()].filter((r) => r.late).length, 0);
        cpu[kind].push(server.cpuSeconds());
        console.log(
          `bench go-runtime: round ${round}/${GO_ROUNDS}, ${kind}: ${runs} runs of ${subjects.length} flows, ${late} late, the server ${
            cpu[kind].at(-1)!.toFixed(1)
          } CPU s`,
        );
      } finally {
        await server.stop();
      }
    }
  }
  const range = (xs: readonly number[]) =>
    `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)} CPU s`;
  const base = Math.min(...cpu.defaults);
  const tuned = Math.min(...cpu.settings);
  console.log(
    `bench go-runtime: the dev server's CPU over the scenarios of ${GO_FLOWS}, ${GO_ROUNDS} servers each`,
  );
  console.log(`  baseline  Go's defaults (GOGC 100, fixed stacks)           ${range(cpu.defaults)}`);
  console.log(`  settings  go_runtime.ts (GOGC 400, adaptivestackstart=1)   ${range(cpu.settings)}`);
  console.log(`  ratio     ${(tuned / base).toFixed(3)} × the baseline (the least of each)`);
}
