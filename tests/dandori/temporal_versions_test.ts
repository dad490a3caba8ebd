/**
 * Worker Deployment Versioning of the temporal-typescript target (docs/targets.md#temporal-typescript): two builds
 * A and B of `tests/dandori/versions/approvals.flow` (they differ in what they tell, so in their
 * build ids), each the generated worker with `deployment`, on one dev server. A run started while A
 * is current stays on A after B becomes current, its continuation (a new run of the outermost
 * loop's second iteration) included; a run started after runs on B. Workers cache no workflow, so
 * no run stays on A for being in a cache.
 */

import { deepStrictEqual, notStrictEqual, ok, strictEqual } from "node:assert/strict";
import { Client, Connection } from "@temporalio/client";
import { NativeConnection, Worker } from "@temporalio/worker";
import { checkFlow } from "../../lang/dandori/check.ts";
import { NO_SUCH_FILE } from "../../lang/dandori/env.ts";
import { DEFAULT_NOW } from "../../lang/dandori/interp.ts";
import { lower } from "../../lang/dandori/lower.ts";
import { TEMPORAL_TYPESCRIPT } from "../../targets/dandori/temporal/target.ts";
import { DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import { findTemporal, startTemporal } from "../../verify/services/temporal_server.ts";
import { COPY_EVENT_WAIT_MS, makeCopy } from "../../verify/dandori/temporal_copy.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const FLOW = "tests/dandori/versions/approvals.flow";
const ORIGIN = {
  file: "approvals.flow",
  path: "approvals.flow",
  text: "",
  sha: "0123456789abcdef",
  version: "test",
};
const DEPLOYMENT = "approvals";
/** How long a worker's version may take to appear after it starts polling. */
const VERSION_APPEARS_MS = 30_000;
/**
 * How long the copy's `approved` waits for its event: the copy's `COPY_EVENT_WAIT_MS` could pass on a busy machine
 * while build B's worker starts and becomes current, and the run would end without its approval.
 */
const EVENT_WAIT_MS = 120_000;
/** How long the test waits for a run to wait for `approved`. */
const AWAITED_WITHIN_MS = 60_000;

/** The copy of a build with `approved` waiting `EVENT_WAIT_MS` instead of the copy's `COPY_EVENT_WAIT_MS`. */
function longerEventWait(files: Map<string, string>): void {
  const runtime = files.get("runtime.ts") ?? "";
  const short = `Math.min(seconds * 1000, ${COPY_EVENT_WAIT_MS})`;
  ok(runtime.includes(short), "the copy's runtime shortens event waits");
  files.set("runtime.ts", runtime.replace(short, `Math.min(seconds * 1000, ${EVENT_WAIT_MS})`));
}

function build(text: string): ReadonlyMap<string, string> {
  const checked = checkFlow(FLOW, text, { read: () => NO_SUCH_FILE }).checked;
  ok(checked !== null, "the flow checks");
  return TEMPORAL_TYPESCRIPT.generate(lower(checked), ORIGIN, DEFAULT_BUILD);
}

function buildId(files: ReadonlyMap<string, string>): string {
  const m = /export const BUILD_ID = "([^"]+)";/.exec(files.get("worker.ts") ?? "");
  ok(m !== null, "worker.ts has its BUILD_ID");
  return m[1];
}

async function setCurrent(bin: string, address: string, id: string): Promise<void> {
  const until = Date.now() + VERSION_APPEARS_MS;
  for (;;) {
    const out = await new Deno.Command(bin, {
      args: [
        "worker",
        "deployment",
        "set-current-version",
        "--address",
        address,
        "--deployment-name",
        DEPLOYMENT,
        "--build-id",
        id,
        "--yes",
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (out.success) return;
    if (Date.now() > until) throw new Error(new TextDecoder().decode(out.stderr));
    await new Promise((r) => setTimeout(r, 300));
  }
}

Deno.test({
  name: "a run started on build A stays on A, continuation included, after B is current; a new run takes B",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const bin = await findTemporal();
    if (bin === null) return console.log("SKIP: temporal: the temporal CLI 1.9.1 is not installed");
    const textA = Deno.readTextFileSync(`${ROOT}${FLOW}`);
    const textB = textA.replace('"build A: approved by', '"build B: approved by');
    notStrictEqual(textA, textB);
    const [filesA, filesB] = [build(textA), build(textB)];
    strictEqual(buildId(build(textA)), buildId(filesA), "the same code has the same build id");
    notStrictEqual(buildId(filesA), buildId(filesB), "different code has different build ids");
    const runs = ["run-1", "run-2"].map((id) => ({ id, now: [DEFAULT_NOW, DEFAULT_NOW] as const }));
    const copies = [filesA, filesB].map((files) => makeCopy(ROOT, files, runs, longerEventWait));
    const server = await startTemporal(bin);
    const told: { run: string; text: string }[] = [];
    const workers: Worker[] = [];
    const running: Promise<void>[] = [];
    try {
      const native = await NativeConnection.connect({ address: server.address });
      const connection = await Connection.connect({ address: server.address });
      const client = new Client({ connection });
      const [a, b] = await Promise.all(copies.map(async (c) => ({
        worker: await import(`${c.dir}/worker.ts`),
        client: await import(`${c.dir}/client.ts`),
      })));
      const transport = {
        lambda: (_fn: string, payload: { text: string; request: string }) => {
          told.push({ run: payload.request, text: payload.text });
          return Promise.resolve({ payload: null });
        },
      };
      const start = async (m: typeof a) => {
        const options = m.worker.workerOptions({
          connection: native,
          own: {},
          transport,
          deployment: DEPLOYMENT,
        });
        const w = await Worker.create({ ...options, maxCachedWorkflows: 0 });
        workers.push(w);
        running.push(w.run());
      };
      const approve = async (id: string) => {
        const until = Date.now() + AWAITED_WITHIN_MS;
        for (;;) {
          const st = await a.client.status(client, id).catch(() => null);
          if (st !== null && st.events.includes("approved")) break;
          ok(Date.now() < until, `${id} waits for approved within ${AWAITED_WITHIN_MS / 1000} s`);
          await new Promise((r) => setTimeout(r, 50));
        }
        await a.client.send(client, id, "approved", { ok: { by: "kim" } });
      };
      await start(a);
      await setCurrent(bin, server.address, buildId(filesA));
      const first = await a.client.start(client, { request: "run-1" }, { id: "run-1" });
      await approve("run-1");
      await start(b);
      await setCurrent(bin, server.address, buildId(filesB));
      await approve("run-1");
      await first.result();
      const second = await b.client.start(client, { request: "run-2" }, { id: "run-2" });
      await approve("run-2");
      await approve("run-2");
      await second.result();
      const histories = await a.client.histories(client, "run-1", first.firstExecutionRunId);
      strictEqual(histories.length, 2, "run-1's second iteration is a continuation");
      deepStrictEqual(told, [
        { run: "run-1", text: "build A: approved by kim" },
        { run: "run-1", text: "build A: approved by kim" },
        { run: "run-2", text: "build B: approved by kim" },
        { run: "run-2", text: "build B: approved by kim" },
      ]);
      for (const w of workers) w.shutdown();
      await Promise.all(running);
      await native.close();
      await connection.close();
    } finally {
      for (const w of workers) if (w.getState() === "RUNNING") w.shutdown();
      await server.stop();
      for (const c of copies) c.remove();
    }
  },
});
