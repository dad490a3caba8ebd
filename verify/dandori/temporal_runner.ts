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
 * its workers stop, its histories replay on the generated `replay`, and its line is printed.
 * @module
 */

import { ApplicationFailure, Context } from "@temporalio/activity";
import { Client, Connection, WorkflowFailedError } from "@temporalio/client";
import { CancelledFailure } from "@temporalio/common";
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
import type {
  AnswerJson,
  FlowJobs,
  FlowLine,
  Problem,
  RunJob,
  RunnerJobs,
  RunResult,
  SentCall,
} from "./temporal_contract.ts";

interface RunState {
  readonly answers: readonly AnswerJson[];
  next: number;
  readonly calls: SentCall[];
  readonly problems: Problem[];
  /** The timeouts the server must make: activities that stop heartbeating, children that do not end. */
  timeoutsGiven: number;
  late: boolean;
  unknownTried: boolean;
  unknownEventTried: boolean;
  /** Why the run was late, when it was: shown with its play if it disagrees. */
  readonly lateWhy: string[];
  /** Resolves when the run has ended: what a stub the scenario times out waits for. */
  readonly ended: PromiseWithResolvers<void>;
  current: { answer: AnswerJson; callbackId: string | null } | null;
}

// deno-lint-ignore no-explicit-any
type Module = any;

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

/** What the SDK's bundling reads of a worker's compiled options. */
interface BundleOptions {
  readonly workflowBundle?: unknown;
  readonly workflowsPath?: string;
  readonly bundlerOptions?: unknown;
  readonly plugins?: readonly unknown[];
  readonly interceptors?: { readonly workflowModules?: readonly string[] };
  readonly dataConverter?: { readonly payloadConverterPath?: string; readonly failureConverterPath?: string };
}
type Bundling = (options: BundleOptions, logger: unknown) => Promise<unknown>;

/**
 * The workflow code of a flow is bundled twice by the SDK, by `Worker.create` for its worker and again
 * by the generated `replay` (`Worker.runReplayHistories`), both from the copy's `workflow.ts` with the
 * SDK's default bundler options: the same bytes, one webpack run (0.6 s of CPU) apart. The runner
 * keeps each such bundle by its path and options until the flow's line is out; a worker given its
 * own bundle or bundler options is bundled as the SDK does.
 */
const bundles = new Map<string, Promise<unknown>>();
{
  const sdk = Worker as unknown as { getOrCreateBundle: Bundling };
  const bundle = sdk.getOrCreateBundle.bind(Worker);
  sdk.getOrCreateBundle = (options, logger) => {
    const path = options.workflowsPath;
    if (
      options.workflowBundle !== undefined || path === undefined || options.bundlerOptions !== undefined ||
      (options.plugins ?? []).length > 0
    ) return bundle(options, logger);
    const key = JSON.stringify([
      path,
      options.interceptors?.workflowModules ?? [],
      options.dataConverter?.payloadConverterPath ?? null,
      options.dataConverter?.failureConverterPath ?? null,
    ]);
    const made = bundles.get(key) ?? bundle(options, logger);
    bundles.set(key, made);
    return made;
  };
}

/** Forgets the bundles of the code copy in `dir`. */
function forgetBundles(dir: string): void {
  for (const key of bundles.keys()) {
    if ((JSON.parse(key) as string[])[0].startsWith(`${dir}/`)) bundles.delete(key);
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function cause(a: AnswerJson): string {
  return "error" in a ? a.cause ?? "" : "";
}

function errorOf(a: AnswerJson): { error: string; cause: string } | null {
  return "error" in a ? { error: a.error, cause: cause(a) } : null;
}

/** A failure that is no declared error, with the scenario's cause as its message (an Error's empty message would read "Error"). */
function failure(message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: "Error", message, nonRetryable: true });
}

/** The workflow id of the run an activity belongs to. */
function runOf(context: Context): string {
  const id = context.info.workflowExecution?.workflowId;
  if (id === undefined) throw new Error("an activity without a workflow");
  return id;
}

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

/** One flow in this process: its client, generated modules, workers, the state of its runs, what they did. */
class FlowPlay {
  readonly client: Client;
  readonly states = new Map<string, RunState>();
  readonly results: RunResult[] = [];
  readonly histories: RunHistory[] = [];
  private generated: { worker: Module; client: Module } | null = null;
  private workers: Worker[] = [];
  private running: Promise<unknown> | null = null;
  readonly stubs: Stubs = new Stubs(this);
  /** Rejects when a worker of the flow stops with an error: its runs in flight end with it. */
  broken: Promise<never> = new Promise(() => {});
  left: number;

  constructor(readonly job: FlowJobs, runs: readonly RunJob[], connection: Connection) {
    this.client = new Client({ connection, namespace: job.namespace });
    for (const r of runs) {
      this.states.set(r.id, {
        answers: r.answers,
        next: 0,
        calls: [],
        problems: [],
        timeoutsGiven: 0,
        late: false,
        unknownTried: false,
        unknownEventTried: false,
        lateWhy: [],
        current: null,
        ended: Promise.withResolvers<void>(),
      });
    }
    this.left = runs.length;
  }

  get modules(): { worker: Module; client: Module } {
    if (this.generated === null) throw new Error(`${this.job.flow}: its workers are not started`);
    return this.generated;
  }

  /** Loads the code copy and starts its workers (each `Worker.create` bundles the workflow code). */
  async start(native: NativeConnection, childBundle: () => Promise<WorkflowBundle>): Promise<void> {
    const dir = this.job.dir;
    this.generated = { worker: await import(`${dir}/worker.ts`), client: await import(`${dir}/client.ts`) };
    const stubs = this.stubs;
    const options = this.generated.worker.workerOptions({
      connection: native,
      namespace: this.job.namespace,
      own: stubs.own,
      transport: stubs.transport,
    });
    this.workers.push(
      await Worker.create({
        ...options,
        activities: stubs.recorded(options.activities),
        maxHeartbeatThrottleInterval: limits.heartbeatMs,
      }),
    );
    for (const c of this.job.children) {
      this.workers.push(
        await Worker.create({
          connection: native,
          namespace: this.job.namespace,
          taskQueue: c.queue,
          workflowBundle: await childBundle(),
          activities: { dandori_child_stub: (x: ChildCall) => stubs.childStub(x) },
          maxHeartbeatThrottleInterval: limits.heartbeatMs,
        }),
      );
    }
    this.running = Promise.all(this.workers.map((w) => w.run()));
    this.broken = this.running.then(() => new Promise<never>(() => {}));
    this.broken.catch(() => {});
  }

  state(workflowId: string): RunState {
    const s = this.states.get(workflowId.split("/")[0]);
    if (s === undefined) throw new Error(`${this.job.flow}: no run for ${workflowId}`);
    return s;
  }

  /** Stops the workers, replays every history on the generated `replay`, writes them when asked: the flow's line. */
  async finish(): Promise<FlowLine> {
    this.workers.forEach((w) => w.shutdown());
    await this.running;
    let replay: string | null = null;
    try {
      await this.modules.worker.replay(
        this.histories.map((h) => ({ workflowId: h.workflowId, history: h.history })),
      );
    } catch (e) {
      replay = String(e);
    }
    forgetBundles(this.job.dir);
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
}

/** What a child stub's workflow passes its activity. */
interface ChildCall {
  readonly child: string;
  readonly id: string;
  readonly queue: string;
  readonly input: unknown;
}

/** The stubs of one flow's worker: `Transport`, the user's tasks, the recording of calls, the child stub. */
class Stubs {
  constructor(private readonly play: FlowPlay) {}

  private take(s: RunState): AnswerJson {
    const a = s.answers[s.next++];
    if (a === undefined) throw new Error("the scenario has no answer left for this call");
    return a;
  }

  /**
   * Blocks a timed-out activity without heartbeats until its run has ended, so the server times it
   * out (whenever a busy server gets to it) and nothing the stub does afterwards can reach the run.
   */
  private async block(s: RunState, context: Context): Promise<never> {
    s.timeoutsGiven++;
    Object.defineProperty(context, "heartbeat", { value: () => {} });
    await s.ended.promise;
    throw new Error("the stub blocked until its run ended");
  }

  /** Asks the server to cancel the run, then waits until this activity is cancelled. */
  private async cancelHere(context: Context, workflowId: string): Promise<never> {
    await this.play.client.workflow.getHandle(workflowId.split("/")[0]).cancel();
    await context.cancelled;
    throw new CancelledFailure("cancelled");
  }

  /** The answer of a callback, through the generated `answer`: a repeat and (once a run) an unknown id must be refused. */
  private async answerCallback(s: RunState, id: string, a: AnswerJson): Promise<void> {
    const { client } = this.play;
    const answer = this.play.modules.client.answer;
    const workflowId = (JSON.parse(id) as { workflow: string }).workflow;
    const value = "ok" in a ? { ok: a.ok } : { error: (a as { error: string }).error, message: cause(a) };
    if (!s.unknownTried) {
      s.unknownTried = true;
      const unknown = JSON.stringify({ workflow: workflowId, call: "s0/0" });
      if (await answer(client, workflowId, unknown, value).then(() => true, () => false)) {
        s.problems.push({ kind: "unknown callback taken", callback: unknown });
      }
    }
    const took = await answer(client, workflowId, id, value).then(() => true, (e: unknown) => String(e));
    if (took !== true) {
      // The wait ended before the answer came (its hand-on activity timed out under load): late, not wrong.
      s.lateWhy.push(`the answer to ${id} was refused: ${took}`);
      s.late = true;
      return;
    }
    if (await answer(client, workflowId, id, value).then(() => true, () => false)) {
      s.problems.push({ kind: "second answer taken", callback: id });
    }
  }

  /** What a stub does with the current answer before it answers: block, cancel, or hand a callback on. */
  private async before(s: RunState, context: Context): Promise<AnswerJson | null> {
    const cur = s.current;
    if (cur === null) throw new Error("a stub was called outside an activity");
    const a = cur.answer;
    const workflowId = runOf(context);
    if ("cancel" in a) return await this.cancelHere(context, workflowId);
    if (cur.callbackId !== null) {
      if (!("error" in a && a.error === "timeout")) await this.answerCallback(s, cur.callbackId, a);
      return null;
    }
    if ("error" in a && a.error === "timeout") return await this.block(s, context);
    return a;
  }

  private wire(context: Context, error: string): string | undefined {
    return this.play.job.tasks[context.info.activityType].wires[error];
  }

  /** The stub `Transport`: records what is sent, in the `transport` view's shape, and answers. */
  readonly transport = {
    http: async (
      request: { method: string; url: string; headers: Record<string, string>; body?: string },
    ) => {
      const context = Context.current();
      const s = this.play.state(runOf(context));
      const json = request.headers["Content-Type"] === "application/json";
      s.calls[s.calls.length - 1].transport = {
        http: {
          method: request.method,
          url: request.url,
          headers: request.headers,
          ...(request.body === undefined ? {} : { body: json ? JSON.parse(request.body) : request.body }),
        },
      };
      const a = await this.before(s, context);
      if (a === null) return { status: 200, body: "" };
      const e = errorOf(a);
      if (e === null) {
        const ok = (a as { ok: unknown }).ok;
        return { status: 200, body: ok === null ? "" : JSON.stringify(ok) };
      }
      const wire = this.wire(context, e.error);
      return { status: wire === undefined ? 500 : Number(wire), body: e.cause };
    },
    lambda: async (fn: string, payload: unknown) => {
      const context = Context.current();
      const s = this.play.state(runOf(context));
      s.calls[s.calls.length - 1].transport = { lambda: fn, payload };
      const a = await this.before(s, context);
      if (a === null) return { payload: null };
      const e = errorOf(a);
      if (e === null) return { payload: (a as { ok: unknown }).ok };
      return { errorType: this.wire(context, e.error) ?? "Error", errorMessage: e.cause };
    },
    aws: async (service: string, operation: string, args: unknown) => {
      const context = Context.current();
      const s = this.play.state(runOf(context));
      s.calls[s.calls.length - 1].transport = { aws: `${service}:${operation}`, args };
      const a = await this.before(s, context);
      if (a === null) return {};
      const e = errorOf(a);
      if (e === null) return (a as { ok: unknown }).ok;
      throw Object.assign(new Error(e.cause), { name: this.wire(context, e.error) ?? "InternalFailure" });
    },
    book: async (call: unknown) => {
      const context = Context.current();
      const s = this.play.state(runOf(context));
      s.calls[s.calls.length - 1].transport = call;
      const a = await this.before(s, context);
      if (a === null) return { result: "done" };
      const e = errorOf(a);
      if (e === null) return (a as { ok: unknown }).ok;
      if (e.error === "failure") throw failure(e.cause);
      return { result: "refused", reason: e.error };
    },
  };

  /** The user's tasks: each answers from the scenario. */
  readonly own = new Proxy({}, {
    get: () => async () => {
      const context = Context.current();
      const s = this.play.state(runOf(context));
      const a = await this.before(s, context);
      if (a === null) return undefined;
      const e = errorOf(a);
      if (e === null) return (a as { ok: unknown }).ok;
      if (e.error === "failure") throw failure(e.cause);
      throw ApplicationFailure.create({ type: e.error, message: e.cause, nonRetryable: true });
    },
  });

  /** Every activity recorded as the workflow called it (the `temporal` view), then run as generated. */
  recorded(
    activities: Record<string, (args: unknown, call: Record<string, unknown>) => Promise<unknown>>,
  ): Record<string, (args: unknown, call: { key?: string; callback_id?: string }) => Promise<unknown>> {
    return Object.fromEntries(
      Object.entries(activities).map(([name, f]) => [
        name,
        (args: unknown, call: { key?: string; callback_id?: string }) => {
          const s = this.play.state(runOf(Context.current()));
          const answer = this.take(s);
          s.calls.push({
            temporal: {
              activity: name,
              args,
              ...(call.key === undefined ? {} : { key: call.key }),
              ...(call.callback_id === undefined ? {} : { callback_id: call.callback_id }),
            },
          });
          s.current = { answer, callbackId: call.callback_id ?? null };
          return f(args, call);
        },
      ]),
    );
  }

  /** A child stub's activity: records the child as started, and answers from the scenario. */
  async childStub(c: ChildCall): Promise<unknown> {
    const context = Context.current();
    const s = this.play.state(c.id);
    const a = this.take(s);
    s.calls.push({ temporal: { child: c.child, id: c.id, queue: c.queue, input: c.input } });
    const beat = setInterval(() => context.heartbeat(), 100);
    try {
      if ("cancel" in a) return await this.cancelHere(context, c.id);
      const e = errorOf(a);
      if (e === null) return (a as { ok: unknown }).ok;
      if (e.error === "timeout") {
        s.timeoutsGiven++;
        await context.cancelled;
        throw new CancelledFailure("cancelled");
      }
      if (e.error === "failure") throw failure(e.cause);
      throw ApplicationFailure.create({ type: e.error, message: e.cause, nonRetryable: true });
    } finally {
      clearInterval(beat);
    }
  }

  /** Sends each event the run waits for, as `status` says, with the scenario's next answer. */
  async events(id: string, done: { value: boolean }): Promise<void> {
    const { client } = this.play;
    const generated = this.play.modules.client;
    const s = this.play.state(id);
    let handled: string | null = null;
    while (!done.value) {
      await pause(limits.eventPollMs);
      const st = await generated.status(client, id).catch(() => null) as { events: string[] } | null;
      if (st === null) continue;
      if (handled !== null) {
        if (!st.events.includes(handled)) handled = null;
        continue;
      }
      const name = st.events[0];
      if (name === undefined) continue;
      const a = this.take(s);
      s.calls.push({ temporal: { event: name }, transport: { event: name } });
      handled = name;
      if ("cancel" in a) {
        await client.workflow.getHandle(id).cancel();
        continue;
      }
      if ("error" in a && a.error === "timeout") continue;
      const value = "ok" in a ? { ok: a.ok } : { error: (a as { error: string }).error, message: cause(a) };
      if (!s.unknownEventTried) {
        s.unknownEventTried = true;
        if (await generated.send(client, id, "dandori.not-awaited", value).then(() => true, () => false)) {
          s.problems.push({ kind: "event not awaited taken" });
        }
      }
      const sent = await generated.send(client, id, name, value).then(() => true, (e: unknown) => String(e));
      if (sent !== true) {
        s.lateWhy.push(`the event ${name} was refused: ${sent}`);
        s.late = true;
      }
    }
  }
}

/** A run the runner could not play to its end (its worker stopped, the server refused it): its ending says why. */
function failedRun(play: FlowPlay, run: RunJob, e: unknown): RunResult {
  const s = play.state(run.id);
  return {
    id: run.id,
    calls: s.calls,
    ending: { error: e instanceof Error ? e.message : String(e) },
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
  if (timedOut > s.timeoutsGiven) {
    s.lateWhy.push(`${timedOut} timeouts where the scenario gave ${s.timeoutsGiven}`);
    s.late = true;
  }
  play.histories.push(...histories);
  // A run that ended before it was given all its answers was late (a shortened timer of the copy
  // fired first on a busy machine) or wrong; it runs again, and a second time is a failure (late again).
  if (s.next !== s.answers.length) {
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
const waiting = [...jobs.runs];
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
    }
    if (play.left === 0) finishing.push(finish(play));
    up.add(i);
    flowUp.resolve();
    flowUp = Promise.withResolvers<void>();
  }
})();

await Promise.all([
  starting,
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
