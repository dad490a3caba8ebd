/**
 * LocalStack's Step Functions as a second, independent engine
 * (docs/targets.md#verifying-the-asl-runner-and-localstack): the definitions `asl_run.ts` runs,
 * executed by LocalStack 4.14.0 (the last community version that starts without an auth token), whose
 * JSONata is dashjoin's Java implementation (0.9.7), not the JavaScript one. Started natively, without
 * Docker: Python 3.13 with pinned dependencies (`verify/requirements-localstack.txt`),
 * `OVERRIDE_IN_DOCKER=0`, Step Functions only.
 *
 * LocalStack downloads a Temurin JDK 21 for its JSONata and cannot here; a JDK of 21 or later on
 * the machine (`JAVA_HOME`, or one under /usr/lib/jvm) is linked where LocalStack keeps it, and the
 * JSONata jars come from Maven Central through LocalStack's own installer. So the JVM is not the
 * one LocalStack would pick; the evaluator is.
 *
 * Each scenario is one test case of LocalStack's mock configuration (`SFN_MOCK_CONFIG`, Step Functions
 * Local's format): every Task state answers, try by try, what `asl_run.ts` handed it. If LocalStack
 * takes another path, it asks for answers that are not there or gets others, and the tries differ. The
 * definition is changed only where the engine needs it, as the design's LocalStack run did:
 * - a mocked error cannot be named `States.*`, so `States.Timeout` and `States.Http.*` are thrown
 *   and matched as `Dandori.States.…` (the definitions never use `States.TaskFailed`);
 * - LocalStack 4.14.0 does not know the HTTP Task, which becomes an AWS SDK integration without
 *   arguments of its own (`sts:getCallerIdentity`): LocalStack evaluates and records its arguments;
 * - Waits take no time, retries wait one second and a Task's timeout is an hour (LocalStack waits in
 *   real time, and a timeout is thrown by the mock), and Maps run one iteration at a time;
 * - the entered time `now` reads is the scenario's, written into the expressions.
 * What is compared: every try (its state, and what it sent, the task token aside, which LocalStack
 * makes), and the ending. The clock is not: LocalStack's is the real one.
 * @module
 */

import { exists } from "../services/procs.ts";
import { type Definition, START_STATES } from "../../targets/dandori/stepfunctions/asl.ts";
import type { Plain, TaskAnswer } from "./asl_run.ts";
import { sentView } from "./sent.ts";

/** The version the design verified with: the last that starts without an auth token. */
export const LOCALSTACK_VERSION = "4.14.0";

/** The oldest JDK LocalStack's JSONata runs on. */
const JAVA_FEATURE = 21;

/** How long LocalStack may take to say it is ready. */
const START_MS = 120_000;

/**
 * A Task's `TimeoutSeconds` in the copy LocalStack runs: a timeout is the mock's to throw, never to
 * wait for, and on a busy machine a mocked callback may take longer than a try's seconds until its
 * deadline (`$millis()` is LocalStack's real clock, months after the scenario's `now`).
 */
const MOCKED_TIMEOUT_SECONDS = 3600;

/** How long one batch of executions may take. */
const BATCH_MS = 600_000;

/** The Python of the LocalStack install: `DANDORI_LOCALSTACK_PYTHON`, else the venv `.ci/run` makes. */
export function localstackPython(): string {
  return Deno.env.get("DANDORI_LOCALSTACK_PYTHON") ??
    `${Deno.env.get("HOME") ?? ""}/.cache/dandori/localstack-${LOCALSTACK_VERSION}/bin/python`;
}

/** A JDK of 21 or later on this machine, or null. */
export function findJdk(): string | null {
  const candidates: string[] = [];
  const home = Deno.env.get("JAVA_HOME");
  if (home !== undefined && home !== "") candidates.push(home);
  try {
    for (const e of Deno.readDirSync("/usr/lib/jvm")) candidates.push(`/usr/lib/jvm/${e.name}`);
  } catch {
    // No JDKs in the usual place.
  }
  for (const dir of candidates.sort()) {
    let release: string;
    try {
      release = Deno.readTextFileSync(`${dir}/release`);
    } catch {
      continue;
    }
    const m = /^JAVA_VERSION="([0-9]+)/m.exec(release);
    if (m !== null && Number(m[1]) >= JAVA_FEATURE && exists(`${dir}/bin/java`)) return dir;
  }
  return null;
}

/** A running LocalStack. */
export interface LocalStack {
  readonly endpoint: string;
  readonly mockFile: string;
  stop(): Promise<void>;
}

/** Why LocalStack cannot run here, or null when it can be started. */
export async function whyNot(): Promise<string | null> {
  const python = localstackPython();
  if (!exists(python)) {
    return `no Python with localstack-core ${LOCALSTACK_VERSION} at ${python} (bash .ci/run installs it with Python 3.13; or set DANDORI_LOCALSTACK_PYTHON)`;
  }
  const version = await new Deno.Command(python, {
    args: ["-c", "import importlib.metadata as m; print(m.version('localstack-core'))"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const got = new TextDecoder().decode(version.stdout).trim();
  if (!version.success || got !== LOCALSTACK_VERSION) {
    return `${python} has localstack-core ${got === "" ? "nowhere" : got}, not ${LOCALSTACK_VERSION}`;
  }
  if (findJdk() === null) {
    return `its JSONata needs a JDK ${JAVA_FEATURE} or later, which it downloads (Installation of java 21 failed), and none is here (JAVA_HOME, /usr/lib/jvm)`;
  }
  return null;
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** Starts LocalStack's Step Functions natively; throws when it does not get ready. */
export async function startLocalStack(): Promise<LocalStack> {
  const root = Deno.makeTempDirSync({ prefix: "dandori-localstack-" });
  const jdk = findJdk();
  if (jdk === null) throw new Error("no JDK");
  Deno.mkdirSync(`${root}/var/lib/localstack/lib/java`, { recursive: true });
  Deno.symlinkSync(jdk, `${root}/var/lib/localstack/lib/java/${JAVA_FEATURE}`);
  const mockFile = `${root}/mocks.json`;
  Deno.writeTextFileSync(mockFile, JSON.stringify({ StateMachines: {}, MockedResponses: {} }));
  const port = freePort();
  const child = new Deno.Command(localstackPython(), {
    args: ["-m", "localstack.runtime.main"],
    env: {
      OVERRIDE_IN_DOCKER: "0",
      FILESYSTEM_ROOT: root,
      GATEWAY_LISTEN: `127.0.0.1:${port}`,
      SERVICES: "stepfunctions",
      SFN_MOCK_CONFIG: mockFile,
      LOCALSTACK_TELEMETRY_DISABLED: "1",
      DISABLE_EVENTS: "1",
    },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // Gone already.
    }
    await child.status;
    Deno.removeSync(root, { recursive: true });
  };
  const deadline = Date.now() + START_MS;
  for (;;) {
    try {
      const r = await fetch(`${endpoint}/_localstack/health`);
      const health = await r.json() as { services?: Record<string, string> };
      if (["available", "running"].includes(health.services?.stepfunctions ?? "")) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`LocalStack did not get ready within ${START_MS / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return { endpoint, mockFile, stop };
}

/** One call of Step Functions' API (AWS JSON 1.0); LocalStack reads the region from the signature's scope. */
async function api(ls: LocalStack, action: string, body: unknown): Promise<Record<string, unknown>> {
  const r = await fetch(ls.endpoint, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-amz-json-1.0",
      "X-Amz-Target": `AWSStepFunctions.${action}`,
      Authorization:
        "AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/states/aws4_request, SignedHeaders=host, Signature=0",
    },
    body: JSON.stringify(body),
  });
  const json = await r.json() as Record<string, unknown>;
  if (!r.ok) throw new Error(`LocalStack ${action}: ${JSON.stringify(json)}`);
  return json;
}

/** An error name as a mocked error may be named (not `States.*`, which LocalStack keeps for itself). */
function mockName(error: string): string {
  return error.startsWith("States.") && error !== "States.ALL" ? `Dandori.${error}` : error;
}

type Obj = Record<string, unknown>;

/** A copy of a definition LocalStack can run with mocks (the changes of the module's doc), for one `now`. */
export function forLocalStack(d: Definition, now: readonly [string, string]): Definition {
  const walk = (states: Record<string, Obj>): Record<string, Obj> => {
    const out: Record<string, Obj> = {};
    for (const [name, s] of Object.entries(states)) {
      const entered = JSON.stringify(START_STATES.includes(name) ? now[0] : now[1]);
      const text = JSON.stringify(s).replaceAll(
        "$states.context.State.EnteredTime",
        entered.replaceAll('"', '\\"'),
      );
      const c = JSON.parse(text) as Obj;
      for (const key of ["Retry", "Catch"]) {
        const list = c[key] as Obj[] | undefined;
        for (const r of list ?? []) {
          r.ErrorEquals = (r.ErrorEquals as string[]).map(mockName);
          if (key === "Retry") {
            r.IntervalSeconds = 1;
            r.BackoffRate = 1;
          }
        }
      }
      if (c.Type === "Wait") {
        delete c.Timestamp;
        c.Seconds = 0;
      }
      if (c.Type === "Task" && c.Resource === "arn:aws:states:::http:invoke") {
        c.Resource = "arn:aws:states:::aws-sdk:sts:getCallerIdentity";
      }
      if (c.Type === "Task" && c.TimeoutSeconds !== undefined) c.TimeoutSeconds = MOCKED_TIMEOUT_SECONDS;
      if (c.Type === "Map") {
        c.MaxConcurrency = 1;
        const p = c.ItemProcessor as { States: Record<string, Obj> };
        p.States = walk(p.States);
      }
      out[name] = c;
    }
    return out;
  };
  return {
    ...d,
    States: walk(d.States as unknown as Record<string, Obj>) as unknown as Definition["States"],
  };
}

/** Every Task state of a definition, nested ones too, by state name. */
function tasks(d: Definition): Map<string, Obj> {
  const out = new Map<string, Obj>();
  const walk = (states: Record<string, Obj>) => {
    for (const [name, s] of Object.entries(states)) {
      if (s.Type === "Task") out.set(name, s);
      if (s.Type === "Map") walk((s.ItemProcessor as { States: Record<string, Obj> }).States);
    }
  };
  walk(d.States as unknown as Record<string, Obj>);
  return out;
}

/**
 * A mocked answer: what the Task returns, or throws (Cause is required; an empty one is none).
 * LocalStack's mock configuration cannot return null (it reads `{"Return": null}` as no answer),
 * so a null result is returned as `{}` where the Task does not read its result, and is refused
 * where it does.
 */
function mocked(a: TaskAnswer, read: boolean): Obj {
  switch (a.kind) {
    case "result":
      if (a.value === null) {
        if (read) throw new Error("verify: LocalStack cannot mock a null result that the Task reads");
        return { Return: {} };
      }
      return { Return: a.value };
    case "error":
      return { Throw: { Error: mockName(a.error), Cause: a.cause ?? "" } };
    case "timeout":
      return { Throw: { Error: "Dandori.States.Timeout", Cause: a.cause ?? "" } };
  }
}

/** One scenario for LocalStack: its execution's name, input, `now`, and what each try is answered. */
export interface LocalStackJob {
  readonly id: string;
  readonly execution: string;
  readonly input: Plain;
  readonly now: readonly [string, string];
  readonly tries: readonly { readonly state: string; readonly answer: TaskAnswer }[];
}

/** What LocalStack did of one job: each try's state and what it sent, and the ending. */
export interface LocalStackPlay {
  readonly tries: readonly { readonly state: string; readonly sent: Plain }[];
  readonly ending: Plain;
}

/** What a try sent with its task token written out of it (LocalStack makes its own token). */
export function withoutToken(sent: Plain): Plain {
  return JSON.parse(JSON.stringify(sent, (k, v) => k === "task_token" ? "<token>" : v));
}

/** The scenarios of one definition for LocalStack. */
export interface LocalStackGroup<J> {
  /** The name its state machines begin with. */
  readonly machine: string;
  readonly definition: Definition;
  readonly jobs: readonly J[];
}

/**
 * Runs every group's jobs on LocalStack, all at once (LocalStack runs in real time, so its
 * executions overlap their waits); their plays by job id.
 */
export async function playOnLocalStack(
  ls: LocalStack,
  groups: readonly LocalStackGroup<LocalStackJob>[],
): Promise<Map<string, LocalStackPlay>> {
  const mocks: { StateMachines: Record<string, Obj>; MockedResponses: Record<string, Obj> } = {
    StateMachines: {},
    MockedResponses: {},
  };
  const machines: {
    name: string;
    jobs: LocalStackJob[];
    definition: Definition;
    original: Map<string, Obj>;
  }[] = [];
  for (const g of groups) {
    const original = tasks(g.definition);
    const byNow = new Map<string, LocalStackJob[]>();
    for (const j of g.jobs) {
      byNow.set(JSON.stringify(j.now), [...(byNow.get(JSON.stringify(j.now)) ?? []), j]);
    }
    for (const [i, [now, list]] of [...byNow].entries()) {
      const name = `${g.machine}-${i}`;
      const cases: Record<string, Record<string, string>> = {};
      for (const j of list) {
        const perState = new Map<string, TaskAnswer[]>();
        for (const t of j.tries) perState.set(t.state, [...(perState.get(t.state) ?? []), t.answer]);
        const testCase: Record<string, string> = {};
        for (const [state, answers] of perState) {
          const response = `${name}/${j.execution}/${state}`;
          testCase[state] = response;
          const read = original.get(state)?.Output !== undefined || original.get(state)?.Assign !== undefined;
          mocks.MockedResponses[response] = Object.fromEntries(
            answers.map((a, k) => [String(k), mocked(a, read)]),
          );
        }
        cases[j.execution] = testCase;
      }
      mocks.StateMachines[name] = { TestCases: cases };
      machines.push({ name, jobs: list, definition: forLocalStack(g.definition, JSON.parse(now)), original });
    }
  }
  Deno.writeTextFileSync(ls.mockFile, JSON.stringify(mocks));
  const out = new Map<string, LocalStackPlay>();
  const started: { job: LocalStackJob; arn: string; original: Map<string, Obj> }[] = [];
  for (const m of machines) {
    const created = await api(ls, "CreateStateMachine", {
      name: m.name,
      definition: JSON.stringify(m.definition),
      roleArn: "arn:aws:iam::000000000000:role/dandori",
      type: "STANDARD",
    });
    for (const job of m.jobs) {
      const r = await api(ls, "StartExecution", {
        stateMachineArn: `${created.stateMachineArn}#${job.execution}`,
        name: job.execution,
        input: JSON.stringify(job.input),
      });
      started.push({ job, arn: r.executionArn as string, original: m.original });
    }
  }
  const deadline = Date.now() + BATCH_MS;
  for (const { job, arn, original } of started) {
    let d: Record<string, unknown>;
    for (;;) {
      d = await api(ls, "DescribeExecution", { executionArn: arn });
      if (d.status !== "RUNNING") break;
      if (Date.now() > deadline) {
        throw new Error(`LocalStack: ${job.id} did not end within ${BATCH_MS / 1000} s`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const tries: { state: string; sent: Plain }[] = [];
    let state = "";
    let token: string | undefined;
    do {
      const h = await api(ls, "GetExecutionHistory", {
        executionArn: arn,
        maxResults: 1000,
        ...(token === undefined ? {} : { nextToken: token }),
      });
      for (const e of h.events as Obj[]) {
        const entered = e.stateEnteredEventDetails as { name: string } | undefined;
        if (entered !== undefined) state = entered.name;
        const scheduled = e.taskScheduledEventDetails as { parameters: string } | undefined;
        if (scheduled !== undefined) {
          const resource = (original.get(state)?.Resource as string | undefined) ?? "";
          tries.push({
            state,
            sent: withoutToken(sentView({ resource, args: JSON.parse(scheduled.parameters) })),
          });
        }
      }
      token = h.nextToken as string | undefined;
    } while (token !== undefined);
    const ending: Plain = d.status === "SUCCEEDED" ? { succeed: JSON.parse(d.output as string) } : {
      fail: {
        error: (d.error as string | undefined) ?? null,
        reason: (d.cause as string | undefined) ?? null,
      },
    };
    out.set(job.id, { tries, ending });
  }
  return out;
}

/** One flow's scenarios as the JSONata 2.0.6 runner played them, for LocalStack to play again. */
export interface Replayed {
  readonly id: string;
  readonly execution: string;
  readonly input: Plain;
  readonly now: readonly [string, string];
  readonly tries: readonly { readonly state: string; readonly sent: Plain }[];
  readonly answers: readonly TaskAnswer[];
  readonly ending: Plain;
}

/** Where LocalStack's play of a scenario parts from the runner's tries or the interpreter's ending. */
export interface LocalStackDifference {
  /** The scenario's id (its flow and name). */
  readonly id: string;
  /** The difference, the id first. */
  readonly text: string;
}

/** The differences of LocalStack's plays from the runner's tries and the interpreter's ending. */
export async function compareOnLocalStack(
  ls: LocalStack,
  groups: readonly LocalStackGroup<Replayed>[],
): Promise<LocalStackDifference[]> {
  const plays = await playOnLocalStack(
    ls,
    groups.map((g) => ({
      ...g,
      jobs: g.jobs.map((r) => ({
        id: r.id,
        execution: r.execution,
        input: r.input,
        now: r.now,
        tries: r.tries.map((t, i) => ({ state: t.state, answer: r.answers[i] })),
      })),
    })),
  );
  const out: LocalStackDifference[] = [];
  for (const r of groups.flatMap((g) => g.jobs)) {
    const p = plays.get(r.id);
    if (p === undefined) {
      out.push({ id: r.id, text: `${r.id}: LocalStack gave no result` });
      continue;
    }
    const want = JSON.stringify(r.tries.map((t) => ({ state: t.state, sent: withoutToken(t.sent) })));
    const got = JSON.stringify(p.tries);
    if (want !== got) {
      out.push({ id: r.id, text: `${r.id}: LocalStack tries ${got}\n  the runner tried ${want}` });
    }
    if (JSON.stringify(p.ending) !== JSON.stringify(r.ending)) {
      out.push({
        id: r.id,
        text: `${r.id}: LocalStack ends ${JSON.stringify(p.ending)}, the interpreter ${
          JSON.stringify(r.ending)
        }`,
      });
    }
  }
  return out;
}
