/**
 * Plays scenarios of a `history encrypted` flow's temporal-typescript package on a dev server, as a
 * user's program would run it (tests/dandori/temporal_codec_test.ts builds the package, starts the
 * server and reads the histories back):
 *
 *     deno run -A temporal_codec_play.ts <jobs.json>
 *
 * The program holds the key (`jobs.key`, hex) and makes `codec.ts`'s `AesGcmCodec` of it; the
 * generated worker runs with it and with stub own tasks and a stub `Transport` that record what
 * reaches them in clear and answer from the scenario (a failure's message is its cause; a timeout
 * blocks until the server times the activity out); runs start with the generated `start` on
 * `encryptedClient`, callbacks are answered with `answer`, events sent with `send` when `status`
 * says they are awaited. Prints, as JSON, for every run its ending, what the
 * stubs received, and the raw payloads of the query `dandori.status` as a client without the codec
 * gets them; then whether the histories replay with the codec; and the endings of runs another
 * program started (`jobs.readAlso`), read through this package's client.
 * @module
 */

import { Context } from "@temporalio/activity";
import { Connection, WorkflowFailedError } from "@temporalio/client";
import { ApplicationFailure, CancelledFailure } from "@temporalio/common";
import {
  DefaultLogger,
  makeTelemetryFilterString,
  NativeConnection,
  Runtime,
  Worker,
} from "@temporalio/worker";

/** One answer of a scenario. */
type Answer = { ok: unknown } | { error: string; cause?: string | null };

/** What the program is given. */
interface Jobs {
  readonly address: string;
  readonly dir: string;
  readonly keyId: string;
  readonly key: string;
  readonly scenarios: readonly { readonly id: string; readonly input: unknown; readonly answers: Answer[] }[];
  readonly readAlso: readonly string[];
}

const jobs = JSON.parse(Deno.readTextFileSync(Deno.args[0])) as Jobs;
const print = console.log;
console.log = console.error;
Runtime.install({
  logger: new DefaultLogger("ERROR", (entry) => console.error(entry.message)),
  telemetryOptions: {
    logging: { forward: {}, filter: makeTelemetryFilterString({ core: "ERROR", other: "ERROR" }) },
  },
});

const generated = {
  worker: await import(`${jobs.dir}/worker.ts`),
  client: await import(`${jobs.dir}/client.ts`),
  codec: await import(`${jobs.dir}/codec.ts`),
};
const key = Uint8Array.from(jobs.key.match(/../g) ?? [], (h) => parseInt(h, 16));
const codec = new generated.codec.AesGcmCodec({ id: jobs.keyId, key });
const connection = await Connection.connect({ address: jobs.address });
const client = generated.client.encryptedClient(connection, codec);

/** The run being played: its answers, and what reached the stubs. */
let run: { id: string; answers: Answer[]; next: number; received: unknown[] } | null = null;

function take(): Answer {
  if (run === null) throw new Error("a task was called outside a run");
  const a = run.answers[run.next++];
  if (a === undefined) throw new Error("the scenario has no answer left for this call");
  return a;
}

/** How long a stub blocks a timed-out activity: past the copy's heartbeat timeout. */
const BLOCK_MS = 10_000;

/** Blocks without heartbeats, so the server times the activity out (and a worker shutting down cancels it). */
async function block(): Promise<never> {
  await Context.current().sleep(BLOCK_MS);
  throw new Error("the stub blocked until the server timed the activity out");
}

/** What a callback's answer or an event sends for a scenario's answer. */
function answered(a: Answer): unknown {
  return "ok" in a ? { ok: a.ok } : { error: a.error, message: a.cause ?? "" };
}

const transport = {
  async http(request: { body?: string }) {
    run?.received.push(request.body ?? null);
    const a = take();
    if ("ok" in a) return { status: 200, body: a.ok === null ? "" : JSON.stringify(a.ok) };
    if (a.error === "timeout") return await block();
    return { status: 500, body: a.cause ?? "" };
  },
  lambda: () => Promise.reject(new Error("no Lambda in these flows")),
  aws: () => Promise.reject(new Error("no AWS operation in these flows")),
  book: () => Promise.reject(new Error("no book in these flows")),
};

const own = new Proxy({}, {
  get: () => async (args: unknown, call: { callback_id?: string }) => {
    run?.received.push(args);
    const a = take();
    if (call.callback_id !== undefined) {
      const workflowId = Context.current().info.workflowExecution?.workflowId;
      await generated.client.answer(client, workflowId, call.callback_id, answered(a));
      return undefined;
    }
    if ("ok" in a) return a.ok;
    if (a.error === "timeout") return await block();
    const type = a.error === "failure" ? "Error" : a.error;
    throw ApplicationFailure.create({ type, message: a.cause ?? "", nonRetryable: true });
  },
});

function endingOf(result: { value: unknown } | { error: unknown }): unknown {
  if ("value" in result) return { succeed: result.value ?? null };
  const e = result.error;
  if (e instanceof WorkflowFailedError && e.cause instanceof ApplicationFailure) {
    const c = e.cause;
    return {
      fail: { error: c.type, reason: (c.details?.[0] ?? (c.message === "" ? null : c.message)) ?? null },
    };
  }
  if (e instanceof WorkflowFailedError && e.cause instanceof CancelledFailure) return { cancelled: true };
  return { error: String(e) };
}

/** Sends each event the run waits for, as `status` says, with the scenario's next answer. */
async function events(id: string, done: { value: boolean }): Promise<void> {
  let sent: string | null = null;
  while (!done.value) {
    await new Promise((r) => setTimeout(r, 50));
    const st = await generated.client.status(client, id).catch(() => null) as { events: string[] } | null;
    const name = st?.events[0];
    if (name === undefined || name === sent) continue;
    sent = name;
    await generated.client.send(client, id, name, answered(take()));
  }
}

/** The query's payloads as a client without the codec gets them, as the CLI's JSON writes bytes. */
async function rawQuery(id: string): Promise<unknown> {
  const got = await connection.workflowService.queryWorkflow({
    namespace: "default",
    execution: { workflowId: id },
    query: { queryType: "dandori.status" },
  });
  const b64 = (b: Uint8Array | null | undefined) => btoa(String.fromCharCode(...(b ?? [])));
  return (got.queryResult?.payloads ?? []).map((p) => ({
    metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, b64(v)])),
    data: b64(p.data),
  }));
}

const native = await NativeConnection.connect({ address: jobs.address });
const worker = await Worker.create(
  generated.worker.workerOptions({ connection: native, own, transport, codec }),
);
const results: unknown[] = [];
const histories: unknown[] = [];
const readAlso: Record<string, unknown> = {};
await worker.runUntil(async () => {
  for (const s of jobs.scenarios) {
    run = { id: s.id, answers: s.answers, next: 0, received: [] };
    const handle = await generated.client.start(client, s.input, { id: s.id, searchAttributes: true });
    const done = { value: false };
    const watching = events(s.id, done);
    const result = await handle.result().then(
      (value: unknown) => ({ value }),
      (error: unknown) => ({ error }),
    );
    done.value = true;
    await watching;
    const status = await generated.client.status(client, s.id);
    results.push({
      id: s.id,
      ending: endingOf(result),
      cases: status.cases,
      received: run.received,
      answered: run.next === s.answers.length,
      rawQuery: await rawQuery(s.id),
    });
    histories.push(...await generated.client.histories(client, s.id, handle.firstExecutionRunId));
  }
  for (const id of jobs.readAlso) {
    readAlso[id] = endingOf(
      await client.workflow.getHandle(id).result().then(
        (value: unknown) => ({ value }),
        (error: unknown) => ({
          error,
        }),
      ),
    );
  }
});
let replayed: string | null = null;
try {
  await generated.worker.replay(histories, codec);
} catch (e) {
  replayed = String(e);
}
await native.close();
await connection.close();
print(JSON.stringify({ results, replayed: replayed ?? histories.length, readAlso }));
Deno.exit(0);
