/**
 * The Temporal TypeScript runner (docs/targets.md#temporal-typescript): one process per flow,
 * started by `temporal.ts` with a jobs file. It loads the flow's code copy, runs its generated
 * worker (`workerOptions`, with only `Transport` and the user's tasks swapped for stubs that record
 * what is sent and answer from the scenario) and a worker of child stubs per child queue, starts
 * every scenario with the generated `start` (search attributes on), answers callbacks through the
 * generated `answer` (a repeat and an unknown id must be refused), sends events through `send`
 * when `status` says they are awaited, asks the server for cancels, and prints for every run its
 * calls as sent, its ending, its cases (query and `DandoriCases`) and whether its histories replay.
 * @module
 */

import { ApplicationFailure, Context } from "@temporalio/activity";
import { Client, Connection, WorkflowFailedError } from "@temporalio/client";
import { CancelledFailure } from "@temporalio/common";
import { historyToJSON } from "@temporalio/common/lib/proto-utils.js";
import { type Text, tr } from "../../lang/common/text.ts";
import { AT_ONCE } from "./temporal_runner_limits.ts";
import {
  DefaultLogger,
  makeTelemetryFilterString,
  NativeConnection,
  Runtime,
  Worker,
} from "@temporalio/worker";

/** One answer of a scenario, as JSON. */
type AnswerJson = { ok: unknown } | { error: string; cause?: string | null } | { cancel: true };

/** A task as the stubs need it: its kind and its declared errors' wire names. */
interface TaskInfo {
  readonly kind: string;
  readonly wires: Record<string, string>;
}

/** What the runner is given. */
export interface RunnerJobs {
  readonly address: string;
  readonly dir: string;
  readonly tasks: Record<string, TaskInfo>;
  readonly children: readonly { readonly queue: string }[];
  readonly events: boolean;
  /** How long a stub blocks a timed-out activity, past the copy's heartbeat timeout. */
  readonly blockMs: number;
  /** How long one run may take before it is stopped and reported. */
  readonly runLimitMs: number;
  readonly scenarios: readonly {
    readonly id: string;
    readonly input: unknown;
    readonly answers: AnswerJson[];
  }[];
  /** Where to write every history the runs made, as the CLI's JSON; null: nowhere. */
  readonly historiesFile: string | null;
}

/** What one run did. */
export interface RunnerResult {
  readonly id: string;
  readonly calls: unknown[];
  readonly ending: unknown;
  readonly query: unknown;
  readonly searchAttribute: unknown;
  readonly late: boolean;
  readonly lateWhy: readonly string[];
  readonly problems: Text[];
  readonly runs: number;
  /** Milliseconds from the start to the ending. */
  readonly ms: number;
  /** The most events one of its runs wrote into its history. */
  readonly events: number;
}

interface RunState {
  readonly answers: AnswerJson[];
  next: number;
  readonly calls: { temporal: unknown; transport?: unknown }[];
  readonly problems: Text[];
  timeoutsGiven: number;
  late: boolean;
  unknownTried: boolean;
  unknownEventTried: boolean;
  /** Why the run was late, when it was: shown with its play if it disagrees. */
  readonly lateWhy: string[];
  current: { answer: AnswerJson; callbackId: string | null } | null;
}

const jobs = JSON.parse(Deno.readTextFileSync(Deno.args[0])) as RunnerJobs;
/** stdout carries the results alone: whatever else prints (the SDK's logs) goes to stderr. */
const print = console.log;
console.log = console.error;
console.info = console.error;
Runtime.install({
  logger: new DefaultLogger("ERROR", (entry) => console.error(entry.message)),
  telemetryOptions: {
    logging: { forward: {}, filter: makeTelemetryFilterString({ core: "ERROR", other: "ERROR" }) },
  },
});

const generated = {
  worker: await import(`${jobs.dir}/worker.ts`),
  client: await import(`${jobs.dir}/client.ts`),
};

const connection = await Connection.connect({ address: jobs.address });
const client = new Client({ connection });
const states = new Map<string, RunState>(
  jobs.scenarios.map((s) => [s.id, {
    answers: s.answers,
    next: 0,
    calls: [],
    problems: [],
    timeoutsGiven: 0,
    late: false,
    unknownTried: false,
    unknownEventTried: false,
    lateWhy: [],
    current: null,
  }]),
);

/** The workflow id of the run an activity belongs to. */
function runOf(context: Context): string {
  const id = context.info.workflowExecution?.workflowId;
  if (id === undefined) throw new Error("an activity without a workflow");
  return id;
}

function rootOf(workflowId: string): RunState {
  const s = states.get(workflowId.split("/")[0]);
  if (s === undefined) throw new Error(`no run for ${workflowId}`);
  return s;
}

function take(s: RunState): AnswerJson {
  const a = s.answers[s.next++];
  if (a === undefined) throw new Error("the scenario has no answer left for this call");
  if ("error" in a && a.error === "timeout") s.timeoutsGiven++;
  return a;
}

function cause(a: AnswerJson): string {
  return "error" in a ? a.cause ?? "" : "";
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Blocks a timed-out activity without heartbeats, so the server times it out. */
async function block(context: Context): Promise<never> {
  Object.defineProperty(context, "heartbeat", { value: () => {} });
  await pause(jobs.blockMs);
  throw new Error("the stub blocked until the server timed the activity out");
}

/** Asks the server to cancel the run, then waits until this activity is cancelled. */
async function cancelHere(context: Context, workflowId: string): Promise<never> {
  await client.workflow.getHandle(workflowId.split("/")[0]).cancel();
  await context.cancelled;
  throw new CancelledFailure("cancelled");
}

/** The answer of a callback, through the generated `answer`: a repeat and (once a run) an unknown id must be refused. */
async function answerCallback(s: RunState, id: string, a: AnswerJson): Promise<void> {
  const workflowId = (JSON.parse(id) as { workflow: string }).workflow;
  const value = "ok" in a ? { ok: a.ok } : { error: (a as { error: string }).error, message: cause(a) };
  if (!s.unknownTried) {
    s.unknownTried = true;
    const unknown = JSON.stringify({ workflow: workflowId, call: "s0/0" });
    if (await generated.client.answer(client, workflowId, unknown, value).then(() => true, () => false)) {
      s.problems.push(
        tr(
          `an answer to the unknown callback ${unknown} was taken`,
          `知らないコールバック ${unknown} への答えが受け付けられた`,
        ),
      );
    }
  }
  const took = await generated.client.answer(client, workflowId, id, value).then(
    () => true,
    (e: unknown) => String(e),
  );
  if (took !== true) {
    // The wait ended before the answer came (its hand-on activity timed out under load): late, not wrong.
    s.lateWhy.push(`the answer to ${id} was refused: ${took}`);
    s.late = true;
    return;
  }
  if (await generated.client.answer(client, workflowId, id, value).then(() => true, () => false)) {
    s.problems.push(tr(`a second answer to ${id} was taken`, `${id} への二度目の答えが受け付けられた`));
  }
}

/** What a stub does with the current answer before it answers: block, cancel, or hand a callback on. */
async function before(s: RunState, context: Context): Promise<AnswerJson | null> {
  const cur = s.current;
  if (cur === null) throw new Error("a stub was called outside an activity");
  const a = cur.answer;
  const workflowId = runOf(context);
  if ("cancel" in a) return await cancelHere(context, workflowId);
  if (cur.callbackId !== null) {
    if (!("error" in a && a.error === "timeout")) await answerCallback(s, cur.callbackId, a);
    return null;
  }
  if ("error" in a && a.error === "timeout") return await block(context);
  return a;
}

/** A failure that is no declared error, with the scenario's cause as its message (an Error's empty message would read "Error"). */
function failure(message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: "Error", message, nonRetryable: true });
}

function errorOf(a: AnswerJson): { error: string; cause: string } | null {
  return "error" in a ? { error: a.error, cause: cause(a) } : null;
}

/** The stub `Transport`: records what is sent, in the `transport` view's shape, and answers. */
const transport = {
  async http(request: { method: string; url: string; headers: Record<string, string>; body?: string }) {
    const context = Context.current();
    const s = rootOf(runOf(context));
    const json = request.headers["Content-Type"] === "application/json";
    s.calls[s.calls.length - 1].transport = {
      http: {
        method: request.method,
        url: request.url,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: json ? JSON.parse(request.body) : request.body }),
      },
    };
    const a = await before(s, context);
    if (a === null) return { status: 200, body: "" };
    const e = errorOf(a);
    if (e === null) {
      const ok = (a as { ok: unknown }).ok;
      return { status: 200, body: ok === null ? "" : JSON.stringify(ok) };
    }
    const wire = jobs.tasks[context.info.activityType].wires[e.error];
    return { status: wire === undefined ? 500 : Number(wire), body: e.cause };
  },
  async lambda(fn: string, payload: unknown) {
    const context = Context.current();
    const s = rootOf(runOf(context));
    s.calls[s.calls.length - 1].transport = { lambda: fn, payload };
    const a = await before(s, context);
    if (a === null) return { payload: null };
    const e = errorOf(a);
    if (e === null) return { payload: (a as { ok: unknown }).ok };
    const wire = jobs.tasks[context.info.activityType].wires[e.error];
    return { errorType: wire ?? "Error", errorMessage: e.cause };
  },
  async aws(service: string, operation: string, args: unknown) {
    const context = Context.current();
    const s = rootOf(runOf(context));
    s.calls[s.calls.length - 1].transport = { aws: `${service}:${operation}`, args };
    const a = await before(s, context);
    if (a === null) return {};
    const e = errorOf(a);
    if (e === null) return (a as { ok: unknown }).ok;
    const wire = jobs.tasks[context.info.activityType].wires[e.error];
    throw Object.assign(new Error(e.cause), { name: wire ?? "InternalFailure" });
  },
  async book(call: unknown) {
    const context = Context.current();
    const s = rootOf(runOf(context));
    s.calls[s.calls.length - 1].transport = call;
    const a = await before(s, context);
    if (a === null) return { result: "done" };
    const e = errorOf(a);
    if (e === null) return (a as { ok: unknown }).ok;
    if (e.error === "failure") throw failure(e.cause);
    return { result: "refused", reason: e.error };
  },
};

/** The user's tasks: each answers from the scenario. */
const own = new Proxy({}, {
  get: () => async () => {
    const context = Context.current();
    const s = rootOf(runOf(context));
    const a = await before(s, context);
    if (a === null) return undefined;
    const e = errorOf(a);
    if (e === null) return (a as { ok: unknown }).ok;
    if (e.error === "failure") throw failure(e.cause);
    throw ApplicationFailure.create({ type: e.error, message: e.cause, nonRetryable: true });
  },
});

/** Every activity recorded as the workflow called it (the `temporal` view), then run as generated. */
function recorded(
  activities: Record<string, (args: unknown, call: Record<string, unknown>) => Promise<unknown>>,
) {
  return Object.fromEntries(
    Object.entries(activities).map(([name, f]) => [
      name,
      (args: unknown, call: { key?: string; callback_id?: string }) => {
        const context = Context.current();
        const s = rootOf(runOf(context));
        const answer = take(s);
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
async function childStub(c: { child: string; id: string; queue: string; input: unknown }): Promise<unknown> {
  const context = Context.current();
  const s = rootOf(c.id);
  const a = take(s);
  s.calls.push({ temporal: { child: c.child, id: c.id, queue: c.queue, input: c.input } });
  const beat = setInterval(() => context.heartbeat(), 100);
  try {
    if ("cancel" in a) return await cancelHere(context, c.id);
    const e = errorOf(a);
    if (e === null) return (a as { ok: unknown }).ok;
    if (e.error === "timeout") {
      await context.cancelled;
      throw new CancelledFailure("cancelled");
    }
    if (e.error === "failure") throw failure(e.cause);
    throw ApplicationFailure.create({ type: e.error, message: e.cause, nonRetryable: true });
  } finally {
    clearInterval(beat);
  }
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

function countEvents(histories: { history: { events?: unknown[] | null } }[], type: string): number {
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

/** Sends each event the run waits for, as `status` says, with the scenario's next answer. */
async function events(id: string, done: { value: boolean }): Promise<void> {
  const s = states.get(id);
  if (s === undefined) return;
  let handled: string | null = null;
  while (!done.value) {
    await pause(20);
    const st = await generated.client.status(client, id).catch(() => null) as { events: string[] } | null;
    if (st === null) continue;
    if (handled !== null) {
      if (!st.events.includes(handled)) handled = null;
      continue;
    }
    const name = st.events[0];
    if (name === undefined) continue;
    const a = take(s);
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
      if (
        await generated.client.send(client, id, "dandori.not-awaited", value).then(() => true, () => false)
      ) {
        s.problems.push(
          tr(
            "an event the workflow does not wait for was taken",
            "ワークフローが待たないイベントが受け付けられた",
          ),
        );
      }
    }
    const sent = await generated.client.send(client, id, name, value).then(
      () => true,
      (e: unknown) => String(e),
    );
    if (sent !== true) {
      s.lateWhy.push(`the event ${name} was refused: ${sent}`);
      s.late = true;
    }
  }
}

async function play(scenario: RunnerJobs["scenarios"][number]): Promise<RunnerResult> {
  const s = states.get(scenario.id);
  if (s === undefined) throw new Error(`no state for ${scenario.id}`);
  const started = performance.now();
  const handle = await generated.client.start(client, scenario.input, {
    id: scenario.id,
    searchAttributes: true,
  });
  const done = { value: false };
  const watching = jobs.events ? events(scenario.id, done) : Promise.resolve();
  const limit = pause(jobs.runLimitMs).then(() => "limit" as const);
  const settled = await Promise.race([
    handle.result().then((v: unknown) => ({ status: "fulfilled" as const, value: v }), (
      reason: unknown,
    ) => ({ status: "rejected" as const, reason })),
    limit,
  ]);
  done.value = true;
  const ended = performance.now();
  await watching;
  if (settled === "limit") {
    await handle.terminate("the run took longer than its limit").catch(() => {});
    return {
      id: scenario.id,
      calls: s.calls,
      ending: { error: `did not end within ${jobs.runLimitMs / 1000} s` },
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
  const query = await generated.client.status(client, scenario.id).then(
    (st: { cases: unknown }) => st.cases,
    (e: unknown) => ({ error: String(e) }),
  );
  const described = await client.workflow.getHandle(scenario.id).describe();
  const sa = described.searchAttributes?.DandoriCases ?? [];
  const histories = await generated.client.histories(client, scenario.id, handle.firstExecutionRunId);
  const timedOut = countEvents(histories, "activityTaskTimedOutEventAttributes") +
    countEvents(histories, "childWorkflowExecutionTimedOutEventAttributes");
  if (timedOut > s.timeoutsGiven) {
    s.lateWhy.push(`${timedOut} timeouts where the scenario gave ${s.timeoutsGiven}`);
    s.late = true;
  }
  replays.push(...histories.map((h: { workflowId: string; runId: string; history: unknown }) => h));
  // A run that ended before it was given all its answers was late (a shortened timer of the copy
  // fired first on a busy machine) or wrong; it runs again, and a second time is a failure (late again).
  if (s.next !== s.answers.length) {
    s.lateWhy.push(`it ended with ${s.answers.length - s.next} answers not given`);
    s.late = true;
  }
  return {
    id: scenario.id,
    calls: s.calls,
    ending: endingOf(settled),
    query,
    searchAttribute: sa,
    late: s.late,
    lateWhy: s.lateWhy,
    problems: s.problems,
    runs: histories.length,
    ms: ended - started,
    events: Math.max(
      ...histories.map((h: { history: { events?: unknown[] | null } }) => h.history.events?.length ?? 0),
    ),
  };
}

const replays: { workflowId: string; runId: string; history: unknown }[] = [];
const native = await NativeConnection.connect({ address: jobs.address });
const options = generated.worker.workerOptions({ connection: native, own, transport });
const worker = await Worker.create({ ...options, activities: recorded(options.activities) });
const childWorkers = await Promise.all(jobs.children.map((c) =>
  Worker.create({
    connection: native,
    taskQueue: c.queue,
    workflowsPath: `${jobs.dir}/child_stubs.ts`,
    activities: { dandori_child_stub: childStub },
  })
));
const results: RunnerResult[] = [];
const run = async () => {
  const queue = [...jobs.scenarios];
  const lanes = Array.from({ length: AT_ONCE }, async () => {
    for (let sc = queue.shift(); sc !== undefined; sc = queue.shift()) results.push(await play(sc));
  });
  await Promise.all(lanes);
};
const all = [worker, ...childWorkers];
await Promise.all([
  ...all.map((w) => w.run()),
  run().finally(() => all.forEach((w) => w.shutdown())),
]);
let replayed: string | null = null;
try {
  await generated.worker.replay(replays.map((h) => ({ workflowId: h.workflowId, history: h.history })));
} catch (e) {
  replayed = String(e);
}
if (jobs.historiesFile !== null) {
  Deno.writeTextFileSync(
    jobs.historiesFile,
    JSON.stringify(replays.map((h) => ({
      workflowId: h.workflowId,
      history: JSON.parse(historyToJSON(h.history as Parameters<typeof historyToJSON>[0])),
    }))),
  );
}
await native.close();
await connection.close();
print(JSON.stringify({ results, replay: replayed, histories: replays.length }));
// The runs' limits are timers still pending; the results are out, so the process ends here.
Deno.exit(0);
