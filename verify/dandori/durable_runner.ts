/**
 * The durable functions runner (docs/targets.md#durable): one process per flow, started by
 * `durable.ts` with a jobs file. It loads the flow's code copy, and plays every scenario, one
 * after another, on `@aws/durable-execution-sdk-js-testing`'s `LocalDurableTestRunner` with time
 * skipped (its fake clock set to the scenario's start): the generated `workflow` over the
 * generated `makeTasks`, with only `Transport` and the user's tasks swapped for stubs that record
 * what is sent and when, and answer from the scenario; children registered as stub durable
 * functions; callbacks answered by their ids through the runner. It prints for every run its
 * calls as sent (the execution's ARN written as the run's id, the SDK's callback ids as the view's
 * `CREATED_CALLBACK_ID`) and its ending.
 * @module
 */

import { withDurableExecution } from "@aws/durable-execution-sdk-js";
import { LocalDurableTestRunner } from "@aws/durable-execution-sdk-js-testing";
import { AsyncLocalStorage } from "node:async_hooks";
import { type Text, tr } from "../../lang/common/text.ts";
import { CREATED_CALLBACK_ID } from "../../lang/dandori/views.ts";

/** One answer of a scenario, as JSON. */
type AnswerJson = { ok: unknown } | { error: string; cause?: string | null };

/** A task as the stubs need it. */
interface TaskInfo {
  readonly kind: string;
  readonly wires: Record<string, string>;
  /** Seconds a timed-out attempt takes (a written `timeout`, as the interpreter reads it), or null. */
  readonly timeoutSeconds: number | null;
  readonly callback: boolean;
}

/** What the runner is given. */
export interface DurableJobs {
  readonly dir: string;
  readonly tasks: Record<string, TaskInfo>;
  /** The durable functions the flow's children are invoked as. */
  readonly children: readonly string[];
  readonly scenarios: readonly {
    readonly id: string;
    readonly input: unknown;
    readonly now: readonly [string, string];
    readonly answers: AnswerJson[];
  }[];
}

/** What one run did. */
export interface DurableResult {
  readonly id: string;
  readonly calls: unknown[];
  readonly ending: unknown;
  readonly problems: Text[];
  readonly operations: number;
  readonly ms: number;
}

interface RunState {
  readonly id: string;
  readonly answers: AnswerJson[];
  next: number;
  readonly calls: { durable: unknown; transport?: unknown; at: string }[];
  readonly problems: Text[];
  /** The scenario's start, and the milliseconds the stubs' timeouts took. */
  readonly start: number;
  timedOut: number;
  /** The ARN of the execution, once a task has seen it. */
  arn: string | null;
  readonly pending: Promise<unknown>[];
}

const jobs = JSON.parse(Deno.readTextFileSync(Deno.args[0])) as DurableJobs;
/** stdout carries the results alone: whatever else prints (the SDK's logs) goes to stderr. */
const print = console.log;
console.log = console.error;
console.info = console.error;
console.debug = () => {};

await LocalDurableTestRunner.setupTestEnvironment({ skipTime: true });
/** The fake clock the runner installs with `skipTime`: a call that times out moves it. */
const clock = (LocalDurableTestRunner as unknown as { fakeClock: { tick(ms: number): number } }).fakeClock;
const generated = {
  workflow: await import(`${jobs.dir}/workflow.ts`),
  tasks: await import(`${jobs.dir}/tasks.ts`),
  runtime: await import(`${jobs.dir}/runtime.ts`),
};
const runtimeNow =
  (globalThis as unknown as { DD_NOW: { value: readonly [string, string]; clock: () => number } }).DD_NOW;

/** A call in flight: its task, its answer, its callback's id and its record. */
interface InFlight {
  readonly task: string;
  readonly answer: AnswerJson;
  readonly callback: string | null;
  readonly record: RunState["calls"][number];
}

/** The call a stub serves: parallel iterations call at once, so each call carries its own. */
const inFlight = new AsyncLocalStorage<InFlight>();

function inCall(): InFlight {
  const c = inFlight.getStore();
  if (c === undefined) throw new Error("a stub was called outside a task");
  return c;
}

let state: RunState | null = null;
let runner: LocalDurableTestRunner | null = null;

function current(): RunState {
  if (state === null) throw new Error("a stub was called outside a run");
  return state;
}

function take(s: RunState): AnswerJson {
  const a = s.answers[s.next++];
  if (a === undefined) throw new Error("the scenario has no answer left for this call");
  return a;
}

function cause(a: AnswerJson): string {
  return "error" in a ? a.cause ?? "" : "";
}

/** An operation of the run as the runner's storage keeps it. */
interface StoredOperation {
  getType(): string | undefined;
  getWaitDetails(): { waitSeconds?: number } | undefined;
}

/**
 * The run's clock: the scenario's start, every wait the run has made (the local runner skips
 * their time, and its checkpoint server's clock is not the fake one; a call after a wait comes
 * when the wait is over, though the runner's storage may not say so yet), and the timeouts the
 * stubs took.
 */
function virtualNow(): number {
  const s = current();
  const r = runner;
  if (r === null) throw new Error("no runner");
  const ops = (r as unknown as { operationStorage: { getOperations(): StoredOperation[] } }).operationStorage
    .getOperations();
  let waited = 0;
  for (const op of ops) {
    if (op.getType() === "WAIT") {
      waited += op.getWaitDetails()?.waitSeconds ?? 0;
    }
  }
  return s.start + s.timedOut + waited * 1000;
}

/** The run's time as a flow writes a timestamp. */
function at(): string {
  const t = virtualNow();
  return `${new Date(Math.floor(t / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/** `value` as JSON with the execution's ARN written as the run's id. */
function plain(s: RunState, value: unknown): unknown {
  const text = JSON.stringify(value);
  if (text === undefined) return null;
  return JSON.parse(s.arn === null ? text : text.split(s.arn).join(s.id));
}

/** An error thrown with a name the generated step reads. */
function named(name: string, message: string): Error {
  const e = new Error(message);
  e.name = name;
  return e;
}

/** The runner's API that answers callbacks by id, as `SendDurableExecutionCallback*` does. */
interface CallbackApi {
  sendCallbackSuccess(r: { Result?: Uint8Array; CallbackId: string }): Promise<unknown>;
  sendCallbackFailure(
    r: { Error?: { ErrorType?: string; ErrorMessage?: string }; CallbackId: string },
  ): Promise<unknown>;
}

/** Answers a callback by its id. */
async function answerCallback(s: RunState, id: string, a: AnswerJson): Promise<void> {
  const r = runner;
  if (r === null) throw new Error("no runner");
  const api = (r as unknown as { durableApi: CallbackApi }).durableApi;
  const sent = "ok" in a
    ? api.sendCallbackSuccess({ Result: new TextEncoder().encode(JSON.stringify(a.ok)), CallbackId: id })
    : api.sendCallbackFailure({ Error: { ErrorType: a.error, ErrorMessage: cause(a) }, CallbackId: id });
  const took = await sent.then(() => true, (e: unknown) => String(e));
  if (took !== true) {
    s.problems.push(
      tr(`the answer to the callback was refused: ${took}`, `コールバックへの答えが拒まれた: ${took}`),
    );
  }
}

/** What a stub does before it answers: time out, hand a callback on; else the answer. */
function before(): Promise<AnswerJson | null> {
  return Promise.resolve().then(() => {
    const cur = inCall();
    const a = cur.answer;
    if (cur.callback !== null) return null;
    if ("error" in a && a.error === "timeout") {
      const seconds = jobs.tasks[cur.task].timeoutSeconds;
      // Without a written `timeout` the platform's limit ends the call at once, as the interpreter counts it.
      if (seconds === null) throw named("Dandori.Timeout", "");
      // With one, the call hangs and the fake clock is moved to the step's own limit (`within`),
      // which times it out; the run's clock takes the same seconds.
      current().timedOut += seconds * 1000;
      Promise.resolve().then(() => clock.tick(seconds * 1000));
      return new Promise<never>(() => {});
    }
    return a;
  });
}

function errorOf(a: AnswerJson): { error: string; cause: string } | null {
  return "error" in a ? { error: a.error, cause: cause(a) } : null;
}

/** The stub `Transport`: records what is sent, in the `transport` view's shape, and answers. */
const transport = {
  async http(request: { method: string; url: string; headers: Record<string, string>; body?: string }) {
    const s = current();
    const json = request.headers["Content-Type"] === "application/json";
    inCall().record.transport = plain(s, {
      http: {
        method: request.method,
        url: request.url,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: json ? JSON.parse(request.body) : request.body }),
      },
    });
    const a = await before();
    if (a === null) return { status: 200, body: "" };
    const e = errorOf(a);
    if (e === null) {
      const ok = (a as { ok: unknown }).ok;
      return { status: 200, body: ok === null ? "" : JSON.stringify(ok) };
    }
    const wire = jobs.tasks[inCall().task].wires[e.error];
    return { status: wire === undefined ? 500 : Number(wire), body: e.cause };
  },
  async lambda(fn: string, payload: unknown) {
    const s = current();
    inCall().record.transport = plain(s, { lambda: fn, payload });
    const a = await before();
    if (a === null) return { payload: null };
    const e = errorOf(a);
    if (e === null) return { payload: (a as { ok: unknown }).ok };
    const wire = jobs.tasks[inCall().task].wires[e.error];
    return { errorType: wire ?? "Error", errorMessage: e.cause };
  },
  async aws(service: string, operation: string, args: unknown) {
    const s = current();
    inCall().record.transport = plain(s, { aws: `${service}:${operation}`, args });
    const a = await before();
    if (a === null) return {};
    const e = errorOf(a);
    if (e === null) return (a as { ok: unknown }).ok;
    const wire = jobs.tasks[inCall().task].wires[e.error];
    throw Object.assign(new Error(e.cause), { name: wire ?? "InternalFailure" });
  },
  async book(call: unknown) {
    const s = current();
    inCall().record.transport = plain(s, call);
    const a = await before();
    if (a === null) return { result: "done" };
    const e = errorOf(a);
    if (e === null) return (a as { ok: unknown }).ok;
    if (e.error === "failure") throw named("Error", e.cause);
    return { result: "refused", reason: e.error };
  },
  /** An agent's request as sent; the answer wrapped in `{"answer": …}`, a failure thrown as the model's refusal is. */
  async agent(request: { url: string; headers: Record<string, string>; body: unknown }) {
    const s = current();
    inCall().record.transport = plain(s, {
      agent: { url: request.url, headers: request.headers, body: request.body },
    });
    const a = await before();
    if (a === null) throw new Error("an agent's call has no callback");
    const e = errorOf(a);
    if (e === null) return { answer: (a as { ok: unknown }).ok };
    throw named("AgentStopped", e.cause);
  },
};

/** The user's tasks: each answers from the scenario. */
const own = new Proxy({}, {
  get: () => async () => {
    const a = await before();
    if (a === null) return undefined;
    const e = errorOf(a);
    if (e === null) return (a as { ok: unknown }).ok;
    if (e.error === "failure") throw named("Error", e.cause);
    throw named(e.error, e.cause);
  },
});

/** Every task recorded as the workflow called it (the `durable` view), then run as generated. */
function recorded(tasks: Record<string, (args: unknown, call: Record<string, unknown>) => Promise<unknown>>) {
  return Object.fromEntries(
    Object.entries(tasks).map(([name, f]) => [
      name,
      async (args: unknown, call: { key?: string; callback_id?: string }) => {
        const s = current();
        const answer = take(s);
        const view: Record<string, unknown> = { task: name, args };
        if (call.key !== undefined) view.key = call.key;
        const id = call.callback_id;
        if (id !== undefined) view.callback_id = CREATED_CALLBACK_ID;
        const record: RunState["calls"][number] = { durable: plain(s, view), at: at() };
        s.calls.push(record);
        const result = await inFlight.run(
          { task: name, answer, callback: id ?? null, record },
          () => f(args, call),
        );
        const last = record;
        if (id !== undefined) {
          if (last.transport !== undefined) {
            last.transport = JSON.parse(JSON.stringify(last.transport).split(id).join(CREATED_CALLBACK_ID));
          }
          s.pending.push(answerCallback(s, id, answer));
        }
        return result;
      },
    ]),
  );
}

/** A child's stub durable function: records the invoke, and answers from the scenario. */
function childStub(fn: string) {
  return withDurableExecution((input: unknown) =>
    Promise.resolve().then(() => {
      const s = current();
      const a = take(s);
      s.calls.push({ durable: plain(s, { invoke: fn, input }), at: at() });
      const e = errorOf(a);
      if (e === null) return (a as { ok: unknown }).ok;
      const error = e.error === "timeout"
        ? "Dandori.Timeout"
        : e.error === "failure"
        ? "Dandori.Failure"
        : e.error;
      throw generated.runtime.fail(error, e.cause === "" ? null : e.cause);
    })
  );
}

/** The ending as `endingJson` writes it. */
function endingOf(result: Awaited<ReturnType<LocalDurableTestRunner["run"]>>): unknown {
  const status = result.getStatus();
  if (status === "SUCCEEDED") return { succeed: result.getResult() ?? null };
  if (status === "FAILED") {
    const e = result.getError();
    let reason: unknown = e.errorMessage === undefined || e.errorMessage === "" ? null : e.errorMessage;
    try {
      const data = JSON.parse(e.errorData ?? "null") as { reason?: unknown } | null;
      if (data !== null && "reason" in data) reason = data.reason;
    } catch {
      // ErrorData that is not dandori's: the message is the reason.
    }
    return { fail: { error: e.errorType ?? null, reason } };
  }
  return { status: status ?? null };
}

async function play(scenario: DurableJobs["scenarios"][number]): Promise<DurableResult> {
  const s: RunState = {
    id: scenario.id,
    answers: scenario.answers,
    next: 0,
    calls: [],
    problems: [],
    start: Date.parse(scenario.now[0]),
    timedOut: 0,
    arn: null,
    pending: [],
  };
  state = s;
  runtimeNow.value = scenario.now;
  const started = performance.now();
  const tasks = recorded(generated.tasks.makeTasks(own, transport));
  const handler = withDurableExecution(
    (input: unknown, dc: { executionContext: { durableExecutionArn: string } }) => {
      s.arn = dc.executionContext.durableExecutionArn;
      return generated.workflow.workflow(dc, tasks, input);
    },
  );
  const r = new LocalDurableTestRunner({ handlerFunction: handler });
  for (const fn of jobs.children) r.registerDurableFunction(fn, childStub(fn));
  runner = r;
  const result = await r.run({ payload: scenario.input });
  await Promise.all(s.pending);
  if (s.next !== s.answers.length) {
    const left = s.answers.length - s.next;
    s.problems.push(tr(`${left} answers were left`, `答えが ${left} 個残った`));
  }
  return {
    id: s.id,
    calls: s.calls.map((c) => ({
      durable: c.durable,
      ...(c.transport === undefined ? {} : { transport: c.transport }),
      at: c.at,
    })),
    ending: endingOf(result),
    problems: s.problems,
    operations: result.getOperations().length,
    ms: performance.now() - started,
  };
}

const results: DurableResult[] = [];
for (const scenario of jobs.scenarios) results.push(await play(scenario));
await LocalDurableTestRunner.teardownTestEnvironment();
print(JSON.stringify({ results }));
Deno.exit(0);
