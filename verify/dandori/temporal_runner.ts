/**
 * The Temporal TypeScript runner (docs/targets.md#the-runner-contract): one process for every flow of
 * a jobs file (`temporal_contract.ts` says what it is given and prints), started by `temporal.ts`.
 * One SDK runtime, one connection for the workers and one for the clients; per flow, its code copy's
 * generated worker (`workerOptions`, with only `Transport` and the user's tasks swapped for stubs
 * that record what is sent and answer from the scenario) in the flow's namespace, and a worker of
 * child stubs per child queue. The runs of all flows share `limits.atOnce` lanes, in the order given;
 * each is started with the generated `start` (search attributes on), its callbacks answered through
 * the generated `answer` (a repeat and an unknown id must be refused), its events sent through `send`
 * when `status` says they are awaited, its cancels asked of the server. When a flow's last run ends,
 * its workers stop, its histories replay on the generated `replay`, and its line is printed. A flow
 * that writes `history encrypted` gets its package's own codec (`codec.ts`) with the key the harness
 * gives (`FlowJobs.codecKey`): its worker, its client (`encryptedClient`) and its `replay` all take it.
 * A flow given a `part` other than
 * `"whole"` is played by half here (its workflow alone, or its activities, child stubs and answers alone
 * until stdin is closed), the other half by another runner on the same server and namespace.
 * @module
 */

import { ApplicationFailure } from "@temporalio/activity";
import { Client, Connection, WorkflowFailedError } from "@temporalio/client";
import { CancelledFailure, defaultPayloadConverter, type Payload } from "@temporalio/common";
import { historyToJSON } from "@temporalio/common/lib/proto-utils.js";
import {
  bundleWorkflowCode,
  DefaultLogger,
  makeTelemetryFilterString,
  NativeConnection,
  Runtime,
  Worker,
  type WorkflowBundle,
} from "@temporalio/worker";
import { shareBundles } from "./temporal_bundles.ts";
import type { FlowJobs, FlowLine, RunJob, RunnerJobs, RunResult, TaskInfo } from "./temporal_contract.ts";
import {
  type ChildCall,
  type GeneratedClient,
  pause,
  type RunState,
  runState,
  type StubHost,
  Stubs,
} from "./temporal_stubs.ts";

/** The generated `worker.ts` of a code copy. */
// deno-lint-ignore no-explicit-any
type GeneratedWorker = any;

/** A history as the generated `histories` gives it. */
interface RunHistory {
  readonly workflowId: string;
  readonly runId: string;
  readonly history: { events?: unknown[] | null };
}

const jobs = JSON.parse(Deno.readTextFileSync(Deno.args[0])) as RunnerJobs;
const { limits } = jobs;
/** stdout carries the flows' lines alone: whatever else prints (the SDK's logs) goes to stderr. */
const print = console.log;
console.log = console.error;
console.info = console.error;
Runtime.install({
  logger: new DefaultLogger("ERROR", (entry) => console.error(entry.message)),
  telemetryOptions: {
    logging: { forward: {}, filter: makeTelemetryFilterString({ core: "ERROR", other: "ERROR" }) },
  },
});

/** A run's ending as `endingJson` writes it, or `{error}`/`{failed}` for what no flow ends with. */
function endingOf(result: PromiseSettledResult<unknown>): unknown {
  if (result.status === "fulfilled") return { succeed: result.value ?? null };
  const e = result.reason;
  if (e instanceof WorkflowFailedError) {
    const c = e.cause;
    if (c instanceof CancelledFailure) return { cancelled: true };
    if (c instanceof ApplicationFailure) {
      const reason = (c.details?.[0] ?? (c.message === "" ? null : c.message)) as string | null;
      return { fail: { error: c.type, reason } };
    }
    return { failed: String(c) };
  }
  return { error: String(e) };
}

/** How many events of `type` (an attributes field, such as `activityTaskTimedOutEventAttributes`) the histories hold. */
function countEvents(histories: readonly RunHistory[], type: string): number {
  let n = 0;
  for (const h of histories) {
    for (const e of h.history.events ?? []) {
      if (
        typeof e === "object" && e !== null && Object.hasOwn(e, type) && (e as Record<string, unknown>)[type]
      ) n++;
    }
  }
  return n;
}

/**
 * What each timer of `histories` asked, in the order they started: the summary the code copy gives a
 * retry's and a `wait`'s timer (`temporal_copy.ts`), read through `codec` for an encrypted flow.
 */
async function timersAsked(
  histories: readonly RunHistory[],
  codec: GeneratedCodec | null,
): Promise<Record<string, number>[]> {
  const out: Record<string, number>[] = [];
  for (const h of histories) {
    for (const e of h.history.events ?? []) {
      const event = e as {
        timerStartedEventAttributes?: unknown;
        userMetadata?: { summary?: Payload | null };
      };
      const summary = event.userMetadata?.summary;
      if (!event.timerStartedEventAttributes || summary === null || summary === undefined) continue;
      const [payload] = codec === null ? [summary] : await codec.decode([summary]);
      out.push(JSON.parse(defaultPayloadConverter.fromPayload<string>(payload)));
    }
  }
  return out;
}

/**
 * What every worker here adds to its options: heartbeats throttled as the code copy's timeouts need,
 * and its workflows run in the SDK's sandbox on this thread (`debugMode`, as the SDK's own replayer
 * and so the generated `replay` run them), not on a worker thread each. The sandbox, and so what the
 * workflow code may do, is the same; what is left out is the 5 s limit of one workflow task. About a
 * hundred workers' threads, each a V8 isolate of its own, took 232 s of CPU for the 1,140 runs of
 * `deno task verify temporal-typescript`; on this thread, 188 s.
 */
const played = { maxHeartbeatThrottleInterval: limits.heartbeatMs, debugMode: true } as const;

/** A flow's worker and its generated `replay` share one bundle of its workflow code. */
const bundles = shareBundles();

/** A codec key's bytes from its lowercase hexadecimal digits (`CodecKeyJson.hex`); throws on any other text. */
function keyBytes(hex: string): Uint8Array {
  if (!/^(?:[0-9a-f]{2})*$/.test(hex)) throw new Error("a codec key is not lowercase hexadecimal digits");
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

/** The generated `codec.ts` of an encrypted flow's code copy. */
// deno-lint-ignore no-explicit-any
type GeneratedCodec = any;

/** One flow in this process: its client, generated modules, workers, the state of its runs, what they did. */
class FlowPlay implements StubHost {
  readonly tasks: Record<string, TaskInfo>;
  readonly states = new Map<string, RunState>();
  readonly results: RunResult[] = [];
  readonly histories: RunHistory[] = [];
  private generated: { worker: GeneratedWorker; client: GeneratedClient } | null = null;
  private flowClient: Client | null = null;
  /** An encrypted flow's codec (`codec.ts`'s `AesGcmCodec`), null for any other flow. */
  codec: GeneratedCodec | null = null;
  private workers: Worker[] = [];
  private running: Promise<unknown> | null = null;
  readonly stubs: Stubs = new Stubs(this, limits);
  /** Rejects when a worker of the flow stops with an error: its runs in flight end with it. */
  broken: Promise<never> = new Promise(() => {});
  left: number;

  constructor(readonly job: FlowJobs, runs: readonly RunJob[], private readonly connection: Connection) {
    this.tasks = job.tasks;
    for (const r of runs) this.states.set(r.id, runState(r));
    this.left = runs.length;
  }

  get modules(): { worker: GeneratedWorker; client: GeneratedClient } {
    if (this.generated === null) throw new Error(`${this.job.flow}: its workers are not started`);
    return this.generated;
  }

  /** The flow's client in its namespace: the generated `encryptedClient` for an encrypted flow. */
  get client(): Client {
    if (this.flowClient === null) throw new Error(`${this.job.flow}: its workers are not started`);
    return this.flowClient;
  }

  generatedClient(): GeneratedClient {
    return this.modules.client;
  }

  /** Loads the code copy and starts its workers (the flow's `Worker.create` bundles its workflow code). */
  async start(native: NativeConnection, childBundle: () => Promise<WorkflowBundle>): Promise<void> {
    const dir = this.job.dir;
    this.generated = { worker: await import(`${dir}/worker.ts`), client: await import(`${dir}/client.ts`) };
    const namespace = this.job.namespace;
    if (this.job.encrypted) {
      // The child stub's workers read payloads in clear: no encrypted test flow calls a child.
      if (this.job.children.length > 0) throw new Error("an encrypted flow's children are not played");
      if (this.job.codecKey === null) throw new Error("an encrypted flow is given no codec key");
      const generated: GeneratedCodec = await import(`${dir}/codec.ts`);
      const { id, hex } = this.job.codecKey;
      this.codec = new generated.AesGcmCodec({ id, key: keyBytes(hex) });
      this.flowClient = this.generated.client.encryptedClient(this.connection, this.codec, { namespace });
    } else {
      if (this.job.codecKey !== null) throw new Error("a flow in clear is given a codec key");
      this.flowClient = new Client({ connection: this.connection, namespace });
    }
    const stubs = this.stubs;
    const { workflowsPath, ...options } = this.generated.worker.workerOptions({
      connection: native,
      namespace,
      own: stubs.own,
      transport: stubs.transport,
      ...(this.codec === null ? {} : { codec: this.codec }),
    });
    // A worker without activities polls no activity task, one without workflows no workflow task
    // (and a flow whose tasks are all children has no activities to run).
    const part = this.job.part;
    if (part !== "activities" || Object.keys(options.activities).length > 0) {
      this.workers.push(
        await Worker.create({
          ...options,
          ...(part === "activities" ? {} : { workflowsPath }),
          activities: part === "workflow" ? {} : stubs.recorded(options.activities),
          ...played,
        }),
      );
    }
    for (const c of part === "workflow" ? [] : this.job.children) {
      this.workers.push(
        await Worker.create({
          connection: native,
          namespace: this.job.namespace,
          taskQueue: c.queue,
          workflowBundle: await childBundle(),
          activities: { dandori_child_stub: (x: ChildCall) => stubs.childStub(x) },
          ...played,
        }),
      );
    }
    this.running = Promise.all(this.workers.map((w) => w.run()));
    this.broken = this.running.then(() => new Promise<never>(() => {}));
    this.broken.catch(() => {});
  }

  /** Runs whose end is watched here: the runner of activities alone starts none of its runs. */
  private readonly watched = new Set<string>();

  state(workflowId: string): RunState {
    const id = workflowId.split("/")[0];
    const s = this.states.get(id);
    if (s === undefined) throw new Error(`${this.job.flow}: no run for ${workflowId}`);
    if (this.job.part === "activities" && !this.watched.has(id)) {
      this.watched.add(id);
      // An activity of the run is running, so the run exists: its end (continuations followed) ends a block.
      this.client.workflow.getHandle(id).result().then(() => s.ended.resolve(), () => s.ended.resolve());
    }
    return s;
  }

  /**
   * Stops the workers; a whole flow's or its workflow's: replays every history on the generated
   * `replay`, writes them when asked; the flow's line. Its activities' line holds each run's calls.
   */
  async finish(): Promise<FlowLine> {
    this.workers.forEach((w) => w.shutdown());
    await this.running;
    if (this.job.part === "activities") {
      return { flow: this.job.flow, results: this.activitiesResults(), replay: null, histories: 0 };
    }
    let replay: string | null = null;
    try {
      await this.modules.worker.replay(
        this.histories.map((h) => ({ workflowId: h.workflowId, history: h.history })),
        ...(this.codec === null ? [] : [this.codec]),
      );
    } catch (e) {
      replay = String(e);
    }
    bundles.forget(this.job.dir);
    if (this.job.historiesFile !== null) {
      Deno.writeTextFileSync(
        this.job.historiesFile,
        JSON.stringify(this.histories.map((h) => ({
          workflowId: h.workflowId,
          history: JSON.parse(historyToJSON(h.history as Parameters<typeof historyToJSON>[0])),
        }))),
      );
    }
    return { flow: this.job.flow, results: this.results, replay, histories: this.histories.length };
  }

  /** What the stubs saw of each run, once every run has ended: its calls, whether it was late, its problems. */
  private activitiesResults(): RunResult[] {
    return [...this.states].map(([id, s]) => {
      s.ended.resolve();
      if (s.next !== s.answers.length) {
        s.lateWhy.push(`it ended with ${s.answers.length - s.next} answers not given`);
        s.late = true;
      }
      return stubsResult(id, s, null);
    });
  }
}

/** The timeouts a run's scenario gives: the most the server may make when the stubs are another runner's. */
function timeoutAnswers(run: RunJob): number {
  return run.answers.filter((a) => "error" in a && a.error === "timeout").length;
}

/** A run the runner could not play to its end (its worker stopped, the server refused it): its ending says why. */
/** A run's record from what the stubs saw alone (no query, no history): its calls, lateness, problems. */
function stubsResult(id: string, s: RunState, ending: RunResult["ending"]): RunResult {
  return {
    id,
    calls: s.calls,
    ending,
    query: null,
    searchAttribute: null,
    late: s.late,
    lateWhy: s.lateWhy,
    problems: s.problems,
    runs: 0,
    ms: 0,
    events: 0,
  };
}

function failedRun(play: FlowPlay, run: RunJob, e: unknown): RunResult {
  return stubsResult(run.id, play.state(run.id), { error: e instanceof Error ? e.message : String(e) });
}

/** Plays one run of `play` to its ending; what it did. */
async function playRun(play: FlowPlay, run: RunJob): Promise<RunResult> {
  const { client } = play;
  const generated = play.modules.client;
  const s = play.state(run.id);
  const started = performance.now();
  const handle = await generated.start(client, run.input, { id: run.id, searchAttributes: true });
  const done = { value: false };
  const watching = play.job.events ? play.stubs.events(run.id, done) : Promise.resolve();
  const limit = pause(limits.runMs).then(() => "limit" as const);
  const settled = await Promise.race([
    handle.result().then(
      (v: unknown) => ({ status: "fulfilled" as const, value: v }),
      (reason: unknown) => ({ status: "rejected" as const, reason }),
    ),
    limit,
    play.broken,
  ]);
  done.value = true;
  const ended = performance.now();
  await watching;
  if (settled === "limit") {
    await handle.terminate("the run took longer than its limit").catch(() => {});
    return {
      id: run.id,
      calls: s.calls,
      ending: { error: `did not end within ${limits.runMs / 1000} s` },
      query: null,
      searchAttribute: null,
      late: true,
      lateWhy: [...s.lateWhy, "it took longer than its limit"],
      problems: s.problems,
      runs: 0,
      ms: performance.now() - started,
      events: 0,
    };
  }
  const query = await generated.status(client, run.id).then(
    (st: { cases: unknown }) => st.cases,
    (e: unknown) => ({ error: String(e) }),
  );
  const described = await client.workflow.getHandle(run.id).describe();
  const sa = described.searchAttributes?.DandoriCases ?? [];
  const histories: RunHistory[] = await generated.histories(client, run.id, handle.firstExecutionRunId);
  const timedOut = countEvents(histories, "activityTaskTimedOutEventAttributes") +
    countEvents(histories, "childWorkflowExecutionTimedOutEventAttributes");
  const whole = play.job.part === "whole";
  const given = whole ? s.timeoutsGiven : timeoutAnswers(run);
  if (timedOut > given) {
    s.lateWhy.push(`${timedOut} timeouts where the scenario gave ${given}`);
    s.late = true;
  }
  play.histories.push(...histories);
  // A run that ended before it was given all its answers was late (a shortened timer of the copy
  // fired first on a busy machine) or wrong; it runs again, and a second time is a failure (late again).
  // The runner of its activities says so when the stubs are there.
  if (whole && s.next !== s.answers.length) {
    s.lateWhy.push(`it ended with ${s.answers.length - s.next} answers not given`);
    s.late = true;
  }
  return {
    id: run.id,
    calls: s.calls,
    ending: endingOf(settled),
    query,
    searchAttribute: sa,
    late: s.late,
    lateWhy: s.lateWhy,
    problems: s.problems,
    runs: histories.length,
    ms: ended - started,
    events: Math.max(...histories.map((h) => h.history.events?.length ?? 0)),
    timers: await timersAsked(histories, play.codec),
  };
}

const native = await NativeConnection.connect({ address: jobs.address });
const connection = await Connection.connect({ address: jobs.address });
const plays = jobs.flows.map((f, i) => new FlowPlay(f, jobs.runs.filter((r) => r.flow === i), connection));
/** Prints a flow's line once, whole. */
const line = (l: FlowLine) => print(JSON.stringify(l));
const message = (e: unknown) => e instanceof Error ? e.message : String(e);

/** Stops a flow's workers and prints its line. */
async function finish(play: FlowPlay): Promise<void> {
  try {
    line(await play.finish());
  } catch (e) {
    line({ flow: play.job.flow, error: message(e) });
  }
}

/**
 * The runs not started yet, in the order given; a lane takes the first whose flow's workers are up
 * (they start one flow at a time, bundling being work for a core), or waits for the next flow.
 */
const waiting = jobs.runs.filter((r) => jobs.flows[r.flow].part !== "activities");
const up = new Set<number>();
let flowUp = Promise.withResolvers<void>();

async function nextRun(): Promise<RunJob | undefined> {
  for (;;) {
    const at = waiting.findIndex((r) => up.has(r.flow));
    if (at >= 0) return waiting.splice(at, 1)[0];
    if (waiting.length === 0) return undefined;
    await flowUp.promise;
  }
}

/** The child stub's bundle, made once for every flow's child workers. */
let childBundle: Promise<WorkflowBundle> | null = null;
const childStubBundle = () =>
  childBundle ??= bundleWorkflowCode({
    workflowsPath: new URL("./temporal_child_stub.ts", import.meta.url).pathname,
    logger: new DefaultLogger("ERROR", (entry) => console.error(entry.message)),
  });

const finishing: Promise<void>[] = [];
const starting = (async () => {
  const order = [...new Set([...jobs.runs.map((r) => r.flow), ...jobs.flows.keys()])];
  for (const i of order) {
    const play = plays[i];
    try {
      await play.start(native, childStubBundle);
    } catch (e) {
      line({ flow: play.job.flow, error: message(e) });
      waiting.splice(0, waiting.length, ...waiting.filter((r) => r.flow !== i));
      play.left = -1;
    }
    if (play.left === 0) finishing.push(finish(play));
    up.add(i);
    flowUp.resolve();
    flowUp = Promise.withResolvers<void>();
  }
})();

/** Once stdin is closed (every run has ended), the flows played by their activities alone finish. */
async function served(): Promise<void> {
  if (!jobs.flows.some((f) => f.part === "activities")) return;
  await starting;
  for await (const _ of Deno.stdin.readable) {
    // What is written does not matter: the end of stdin says every run has ended.
  }
  for (const play of plays) if (play.job.part === "activities" && play.left > 0) finishing.push(finish(play));
}

await Promise.all([
  starting,
  served(),
  ...Array.from({ length: limits.atOnce }, async () => {
    for (let run = await nextRun(); run !== undefined; run = await nextRun()) {
      const play = plays[run.flow];
      play.results.push(await playRun(play, run).catch((e: unknown) => failedRun(play, run, e)));
      play.state(run.id).ended.resolve();
      if (--play.left === 0) finishing.push(finish(play));
    }
  }),
]);
await Promise.all(finishing);
await native.close();
await connection.close();
// The runs' limits are timers still pending; every line is out, so the process ends here.
Deno.exit(0);
