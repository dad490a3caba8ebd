/**
 * One round of the Temporal differential run (docs/targets.md#temporal-typescript): the jobs of many
 * flows played at once on one dev server by one runner process. Each flow gets a code copy
 * (`temporal_copy.ts`) and a namespace of its own (two flows may have the same workflow type, task
 * queue and run ids); the server is started with every namespace (`DandoriCases` registered in each),
 * the runner with one jobs file (`temporal_contract.ts`), and each flow's results arrive as soon as the
 * runner prints its line, so a flow never waits for another. A round given a server plays on it (the
 * rounds of a verification share one); otherwise it starts one with its namespaces and stops it when the
 * runner has ended. The copies are removed then, even on failure. Which runner plays a round is a
 * `RoundRunner` (each SDK's is in `temporal_sdk.ts`): the TypeScript one (`typescriptRunner`) writes
 * each round's copies and starts `temporal_runner.ts`; a runner in another SDK's language implements
 * the same contract.
 * @module
 */

import { stringifyJson } from "../../lang/common/json.ts";
import type { Plan } from "../../lang/dandori/plan.ts";
import { type Text, tr } from "../../lang/common/text.ts";
import type { Value } from "../../lang/dandori/values.ts";
import type { DiffJob, Judged } from "../differential.ts";
import { goRuntimeEnv } from "../services/go_runtime.ts";
import { startTemporal, type TemporalServer, VERIFY_SERVER } from "../services/temporal_server.ts";
import {
  type Copy,
  COPY_CHILD_MS,
  COPY_EVENT_WAIT_MS,
  COPY_HEARTBEAT_MS,
  COPY_HEARTBEAT_TIMEOUT_MS,
  type CopyRun,
  makeCopy,
} from "./temporal_copy.ts";
import type { RunnableFlow } from "./flows.ts";
import type {
  AnswerJson,
  CodecKeyJson,
  FlowJobs,
  FlowLine,
  FlowPart,
  Problem,
  RunJob,
  RunnerJobs,
  RunResult,
} from "./temporal_contract.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * Runs in flight at once over all flows, sized for 2 cores: most of a run's time is a wait (a timeout,
 * the server), so many overlap, while the machine's CPU bounds the whole run (804 runs took 164 s of
 * CPU at 48, none of them late at a load average of 5-15).
 */
export const AT_ONCE = 48;
/**
 * How long one run may take before the runner stops it and reports it late. The longest run of the
 * scenarios, `examples/billing/billing.flow` run-10, waits out 16 heartbeat timeouts
 * (`COPY_HEARTBEAT_TIMEOUT_MS`), 80 s at least; beside CI's tests and runs, Python took it past 150 s
 * twice in a row. A limit only bounds how long a run is waited for: what it did is compared all the same.
 */
const RUN_LIMIT_MS = 300_000;
/** How long one runner may take over a round before it is killed. */
const RUNNER_LIMIT_MS = 20 * 60_000;
/**
 * How often a run that may wait for an event has its `status` asked (a query the workflow's worker
 * answers), so the runner sends the event once the run waits for it: within a second of the copy's
 * 20 s wait (`COPY_EVENT_WAIT_MS`). Every 200 ms, the four flows with an event task (74 scenarios) took
 * the server and the TypeScript runner 28.5 CPU s; every second, 22.6 s, the same 31 s long.
 */
const EVENT_POLL_MS = 1000;
/** A codec key's length in bytes: AES-256, as the three codecs' `KEY_BYTES` (which refuse any other). */
const CODEC_KEY_BYTES = 32;
/**
 * The id of every key a verification makes: written in clear beside each payload, it names no secret,
 * and one id is enough, as each flow has its key and its namespaces of its own.
 */
const CODEC_KEY_ID = "dandori-verify";

/**
 * A new random key for the codec of a flow that writes `history encrypted` (`FlowJobs.codecKey`), null
 * for a flow in clear. A verification makes one per flow and gives it to every runner that plays the
 * flow, so a workflow in one SDK and its activities in another read each other's payloads.
 */
export function codecKeyFor(plan: Plan): CodecKeyJson | null {
  if (!plan.workflow.historyEncrypted) return null;
  const bytes = crypto.getRandomValues(new Uint8Array(CODEC_KEY_BYTES));
  return { id: CODEC_KEY_ID, hex: Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("") };
}

/** One scenario of one flow, with what the interpreter says it does. */
export interface TemporalJob extends DiffJob {
  readonly run: string;
  readonly input: Value;
  readonly answers: Value[];
  readonly expected: string;
}

/** A flow's plan, its files, its jobs and its codec's key. */
export interface FlowSubject {
  readonly flow: RunnableFlow;
  readonly files: ReadonlyMap<string, string>;
  readonly jobs: readonly TemporalJob[];
  readonly runs: readonly CopyRun[];
  /** The key every runner that plays the flow is given (`codecKeyFor`): null for a flow in clear. */
  readonly codecKey: CodecKeyJson | null;
}

/** Some jobs of one flow to play in a round. */
export interface FlowBatch {
  readonly subject: FlowSubject;
  readonly jobs: readonly TemporalJob[];
  /** Where the runner writes every history of these runs; none when not given. */
  readonly historiesFile?: string;
  /** The namespace the runs are in; `namespaceOf` the batch's index when not given. */
  readonly namespace?: string;
}

/** The runner of a round: a flow's code copy for the jobs file's `dir`, and the command that plays a jobs file. */
export interface RoundRunner {
  copy(subject: FlowSubject): Copy;
  command(jobsFile: string): readonly string[];
}

/** The TypeScript runner (`temporal_runner.ts`): each round writes its copies, changed by `mutate` when given. */
export function typescriptRunner(mutate?: (files: Map<string, string>) => void): RoundRunner {
  return {
    copy: (subject) => makeCopy(ROOT, subject.files, subject.runs, mutate),
    command: (file) => [
      Deno.execPath(),
      "run",
      "-A",
      "--config",
      `${ROOT}deno.json`,
      `${ROOT}verify/dandori/temporal_runner.ts`,
      file,
    ],
  };
}

/** How a round is played. */
export interface PlayOptions {
  /** What of each flow the runner plays (`temporal_contract.ts`); the whole flow when not given. */
  readonly part?: FlowPart;
  /**
   * Kept open as the runner's stdin until it settles (the runner of activities alone prints its lines
   * once its stdin is closed); the runner's stdin is closed from the start when not given.
   */
  readonly until?: Promise<unknown>;
  /** Changes each code copy (a test breaks it on purpose); the TypeScript runner's when `runner` is not given. */
  readonly mutate?: (files: Map<string, string>) => void;
  /** The runner; the TypeScript one when not given. */
  readonly runner?: RoundRunner;
  /** A server already started with the round's namespaces; otherwise one is started and stopped. */
  readonly server?: TemporalServer;
}

/** A round under way: each flow's results by job id, as its line arrives; `done` when the round is over. */
export interface Round {
  readonly flows: readonly Promise<Map<string, Judged<RunResult>>>[];
  readonly done: Promise<void>;
}

/** The namespace of the `i`-th flow of a first round. */
export function namespaceOf(i: number): string {
  return `flow-${i + 1}`;
}

/** The namespace the `i`-th flow plays its late runs again in: its first round's ids are taken. */
export function againNamespaceOf(i: number): string {
  return `again-${i + 1}`;
}

/** The queues of the child workflows a flow starts, where the runner runs the child stub. */
function childQueues(plan: Plan): string[] {
  const out = new Set<string>();
  for (const t of plan.tasks) {
    const c = t.callee;
    if (c.kind !== "flow" && c.kind !== "child") continue;
    if (c.platforms.queue === null) {
      throw new Error(`${t.name}: a child without a queue runs on the parent's worker`);
    }
    out.add(c.platforms.queue);
  }
  return [...out];
}

function taskInfos(plan: Plan): FlowJobs["tasks"] {
  return Object.fromEntries(plan.tasks.map((t) => [
    t.name,
    { kind: t.callee.kind, wires: Object.fromEntries(t.errors.map((e) => [e.name, e.wire ?? e.name])) },
  ]));
}

/**
 * How long the timeouts a job's scenario gives keep its run waiting, as the copy shortens them: an
 * activity's heartbeat timeout, a child's or an event's wait (a callback's wait is a timer of the copy's
 * 10 ms). The answers are taken in the order of the calls the interpreter made, so the `i`-th answer is
 * the `i`-th call's. The runs that wait longest start first, so no long wait is left for the end.
 */
function waitMs(job: TemporalJob): number {
  const calls = (JSON.parse(job.expected) as { calls: { temporal: Record<string, unknown> }[] }).calls;
  let ms = 0;
  job.answers.forEach((a, i) => {
    if (typeof a !== "object" || a === null || !("error" in a) || a.error !== "timeout") return;
    const call = calls[i]?.temporal ?? {};
    if ("child" in call) ms += COPY_CHILD_MS;
    else if ("event" in call) ms += COPY_EVENT_WAIT_MS;
    else if (!("callback_id" in call)) ms += COPY_HEARTBEAT_TIMEOUT_MS;
  });
  return ms;
}

/** A problem the runner saw, in both languages. */
export function problemText(p: Problem): Text {
  switch (p.kind) {
    case "unknown callback taken":
      return tr(
        `an answer to the unknown callback ${p.callback} was taken`,
        `知らないコールバック ${p.callback} への答えが受け付けられた`,
      );
    case "second answer taken":
      return tr(
        `a second answer to ${p.callback} was taken`,
        `${p.callback} への二度目の答えが受け付けられた`,
      );
    case "event not awaited taken":
      return tr(
        "an event the workflow does not wait for was taken",
        "ワークフローが待たないイベントが受け付けられた",
      );
  }
}

/** A flow's line judged: each run with its problems, the replay's failure added to every run. */
function judged(batch: FlowBatch, line: FlowLine): Map<string, Judged<RunResult>> {
  if ("error" in line) throw new Error(line.error);
  const byRun = new Map(line.results.map((r) => [r.id, r]));
  const out = new Map<string, Judged<RunResult>>();
  for (const j of batch.jobs) {
    const r = byRun.get(j.run);
    if (r === undefined) continue;
    const problems = r.problems.map(problemText);
    if (line.replay !== null) {
      problems.push(
        tr(
          `its flow's histories do not replay: ${line.replay}`,
          `このフローの履歴が再生できない: ${line.replay}`,
        ),
      );
    }
    out.set(j.id, { played: r, late: r.late, problems });
  }
  return out;
}

/** Plays `batches` (one per flow, each flow once) in one round: one dev server, one runner. */
export function playRound(bin: string, batches: readonly FlowBatch[], options: PlayOptions = {}): Round {
  const waits = batches.map(() => Promise.withResolvers<Map<string, Judged<RunResult>>>());
  waits.forEach((w) => w.promise.catch(() => {}));
  const done = (async () => {
    const runner = options.runner ?? typescriptRunner(options.mutate);
    const copies = batches.map((b) => runner.copy(b.subject));
    const dir = Deno.makeTempDirSync({ prefix: "dandori-temporal-round-" });
    const namespaces = batches.map((b, i) => b.namespace ?? namespaceOf(i));
    let server: TemporalServer | null = null;
    try {
      server = options.server ?? await startTemporal(bin, namespaces, VERIFY_SERVER);
      // The answers are the scenario's values; `stringifyJson` writes their integers as JSON numbers.
      const runs: RunJob[] = batches.flatMap((b, flow) => b.jobs.map((job) => ({ job, flow })))
        .sort((x, y) => waitMs(y.job) - waitMs(x.job))
        .map(({ job, flow }) => ({
          flow,
          id: job.run,
          input: job.input,
          answers: job.answers as AnswerJson[],
        }));
      const jobs: RunnerJobs = {
        address: server.address,
        limits: {
          atOnce: AT_ONCE,
          runMs: RUN_LIMIT_MS,
          heartbeatMs: COPY_HEARTBEAT_MS,
          eventPollMs: EVENT_POLL_MS,
        },
        flows: batches.map((b, i) => ({
          flow: b.subject.flow.path,
          namespace: namespaces[i],
          dir: copies[i].dir,
          tasks: taskInfos(b.subject.flow.plan),
          children: childQueues(b.subject.flow.plan).map((queue) => ({ queue })),
          events: b.subject.flow.plan.tasks.some((t) => t.callee.kind === "event"),
          historiesFile: b.historiesFile ?? null,
          encrypted: b.subject.flow.plan.workflow.historyEncrypted,
          codecKey: b.subject.codecKey,
          part: options.part ?? "whole",
        })),
        runs,
      };
      Deno.writeTextFileSync(`${dir}/jobs.json`, stringifyJson(jobs));
      await runRunner(runner.command(`${dir}/jobs.json`), options.until, (line) => {
        const i = batches.findIndex((b) => b.subject.flow.path === line.flow);
        if (i < 0) throw new Error(`the runner printed a line for ${line.flow}, which it was not given`);
        try {
          waits[i].resolve(judged(batches[i], line));
        } catch (e) {
          waits[i].reject(e);
        }
      });
      for (const [i, b] of batches.entries()) {
        waits[i].reject(new Error(`the runner ended without a line for ${b.subject.flow.path}`));
      }
    } catch (e) {
      waits.forEach((w) => w.reject(e));
    } finally {
      if (options.server === undefined && server !== null) await server.stop();
      Deno.removeSync(dir, { recursive: true });
      const keep = Deno.env.get("DANDORI_TEMPORAL_KEEP") !== undefined;
      for (const c of copies) keep ? console.error(`kept ${c.dir}`) : c.remove();
    }
  })();
  return { flows: waits.map((w) => w.promise), done };
}

/**
 * Runs a runner's `command` (with `go_runtime.ts`'s settings, which the Go runner reads), handing each
 * line it prints to `onLine`, its stdin open until `until` settles; throws when it fails or takes too
 * long.
 */
async function runRunner(
  command: readonly string[],
  until: Promise<unknown> | undefined,
  onLine: (line: FlowLine) => void,
): Promise<void> {
  const signal = AbortSignal.timeout(RUNNER_LIMIT_MS);
  const child = new Deno.Command(command[0], {
    args: command.slice(1),
    stdin: until === undefined ? "null" : "piped",
    env: goRuntimeEnv(),
    stdout: "piped",
    stderr: "piped",
    signal,
  }).spawn();
  if (until !== undefined) {
    const close = () => child.stdin.close().catch(() => {});
    until.then(close, close);
  }
  const stderr = new Response(child.stderr).text();
  try {
    let rest = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      rest += chunk;
      for (let at = rest.indexOf("\n"); at >= 0; at = rest.indexOf("\n")) {
        const text = rest.slice(0, at);
        rest = rest.slice(at + 1);
        if (text.trim() !== "") onLine(JSON.parse(text) as FlowLine);
      }
    }
  } catch (e) {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
    await child.status;
    throw e;
  }
  const status = await child.status;
  const err = await stderr;
  if (signal.aborted) throw new Error(`the runner did not finish within ${RUNNER_LIMIT_MS / 1000} s`);
  if (!status.success) throw new Error(`the runner failed (exit ${status.code}): ${err}`);
}

/** Plays `batch` of one flow in a round of its own; the results by job id. */
export async function playFlow(
  bin: string,
  subject: FlowSubject,
  batch: readonly TemporalJob[],
  options: PlayOptions & Pick<FlowBatch, "historiesFile" | "namespace"> = {},
): Promise<Map<string, Judged<RunResult>>> {
  const { historiesFile, namespace } = options;
  const round = playRound(bin, [{ subject, jobs: batch, historiesFile, namespace }], options);
  const [results] = await Promise.allSettled([round.flows[0], round.done]);
  if (results.status === "rejected") throw results.reason;
  return results.value;
}
