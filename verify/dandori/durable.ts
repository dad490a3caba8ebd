/**
 * `deno task verify durable [<flow or dir> …]`: every generated scenario of every test and example
 * flow (or of the flows named) played on `@aws/durable-execution-sdk-js-testing`'s local runner
 * with time skipped, and compared with the reference interpreter (docs/targets.md#durable). Per
 * flow: the package `dandori build --target durable` writes, a code copy whose `now` reads the
 * scenario's and whose parallel iterations run one at a time (as Temporal's copy does), one runner
 * process (`durable_runner.ts`). Compared per
 * run, character for character: every call as sent, in order, with the `durable` and `transport`
 * views and the time it was made (so every wait between calls); and the ending.
 *
 * Excluded, and counted: flows the target does not build (E040, E050, listed with the
 * diagnostic), and scenarios that time a callback out — the local runner never times a callback
 * out, so the run would wait for ever.
 * @module
 */

import { stringifyJson } from "../../lang/common/json.ts";
import { tr } from "../../lang/common/text.ts";
import { VERSION } from "../../lang/common/version.ts";
import type { Run } from "../../lang/dandori/interp.ts";
import type { Plan } from "../../lang/dandori/plan.ts";
import { endingJson } from "../../lang/dandori/run.ts";
import { answerJson } from "../../lang/dandori/scenario.ts";
import type { Value } from "../../lang/dandori/values.ts";
import { callbackId, CREATED_CALLBACK_ID, viewOf } from "../../lang/dandori/views.ts";
import { executionOperations } from "../../targets/dandori/durable/check.ts";
import { DURABLE } from "../../targets/dandori/durable/target.ts";
import { DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import { inRounds, type Judged, type Report, runRunnerOutput } from "../differential.ts";
import type { DurableJobs, DurableResult } from "./durable_runner.ts";
import { flowsNamed, generatedRuns, type RunnableFlow } from "./flows.ts";
import { FLOW_DIRS } from "./temporal.ts";
import { secondsSince, type Skipped, type Verified } from "../summary.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** How long one runner may take over a flow before it is killed. */
const FLOW_LIMIT_MS = 5 * 60_000;

/** One scenario of one flow, with what the interpreter says it does. */
export interface DurableJob {
  readonly id: string;
  readonly where: string;
  readonly run: string;
  readonly input: Value;
  readonly now: readonly [string, string];
  readonly answers: Value[];
  readonly expected: string;
}

/** A flow's plan, its files, its jobs and the scenarios left out. */
export interface DurableSubject {
  readonly flow: RunnableFlow;
  readonly files: ReadonlyMap<string, string>;
  readonly jobs: readonly DurableJob[];
  /** Scenarios that time a callback out, which the local runner cannot play. */
  readonly excluded: number;
}

const VIEWED = ["lambda", "http", "aws", "book", "agent"];

/** What a run is compared on: every call with its views and time, and the ending. */
function expectedOf(plan: Plan, run: Run): string {
  const calls = run.calls.map((c) => {
    const task = plan.tasks.find((t) => t.name === c.task);
    const out: Record<string, Value> = { durable: viewOf("durable", plan, c) };
    if (task !== undefined && VIEWED.includes(task.callee.kind)) {
      const view = stringifyJson(viewOf("transport", plan, c));
      out.transport = JSON.parse(
        task.callback === null
          ? view
          : view.split(JSON.stringify(callbackId(c)).slice(1, -1)).join(CREATED_CALLBACK_ID),
      );
    }
    out.at = c.at;
    return out;
  });
  return stringifyJson({ calls, ending: endingJson(run.ending) });
}

function playedOf(r: DurableResult): string {
  return JSON.stringify({ calls: r.calls, ending: r.ending });
}

/** True when the run times a callback out: the local runner never does. */
function timesCallbackOut(plan: Plan, run: Run): boolean {
  return run.calls.some((c) =>
    c.answer.kind === "error" && c.answer.error === "timeout" &&
    plan.tasks.find((t) => t.name === c.task)?.callback != null
  );
}

/** A flow's jobs: its generated scenarios, each run on the interpreter as `run-<n>`. */
export function durableSubjectOf(flow: RunnableFlow): DurableSubject | { skipped: string } {
  const origin = {
    file: flow.path.split("/").pop() ?? flow.path,
    path: flow.path,
    text: "",
    sha: "0".repeat(16),
    version: VERSION,
  };
  const stop = DURABLE.check(flow.plan, origin, DEFAULT_BUILD);
  if (stop.length > 0) return { skipped: stop.map((d) => `${d.code} ${d.message.en}`).join("; ") };
  const jobs: DurableJob[] = [];
  let excluded = 0;
  for (const { n, scenario: s, run } of generatedRuns(flow)) {
    const id = `run-${n}`;
    if (timesCallbackOut(flow.plan, run)) {
      excluded++;
      continue;
    }
    jobs.push({
      id: `${flow.path}#${id}`,
      where: `${flow.path} ${id}`,
      run: id,
      input: s.input,
      now: s.now,
      answers: s.answers.map(answerJson),
      expected: expectedOf(flow.plan, run),
    });
  }
  return { flow, files: DURABLE.generate(flow.plan, origin, DEFAULT_BUILD), jobs, excluded };
}

/** The runtime's clock in the code copy: `now` reads the scenario's start, then its later reads; every other read is the runner's clock. */
const CLOCK_FROM = "export async function now(dc: DurableContext, name: string): Promise<string> {\n" +
  "  return timestampText(await clock(dc, name));\n}\n\n/** Milliseconds since 1970, read in a step. */\n" +
  "function clock(dc: DurableContext, name: string): Promise<number> {\n" +
  "  return dc.step(name, () => Promise.resolve(Date.now()), NO_RETRY);\n}";
const CLOCK_TO =
  "/** The test copy's clock (verify/dandori/durable.ts): the scenario's nows, and the runner's shift. */\n" +
  'const DD_NOW: { value: readonly [string, string]; clock: () => number } = { value: ["", ""], clock: Date.now };\n' +
  "(globalThis as unknown as { DD_NOW: typeof DD_NOW }).DD_NOW = DD_NOW;\n" +
  "export async function now(dc: DurableContext, name: string): Promise<string> {\n" +
  '  return await dc.step(name, () => Promise.resolve(DD_NOW.value[name === "start clock" ? 0 : 1]), NO_RETRY);\n}\n\n' +
  "/** Milliseconds since 1970, read in a step. */\n" +
  "function clock(dc: DurableContext, name: string): Promise<number> {\n" +
  "  return dc.step(name, () => Promise.resolve(DD_NOW.clock()), NO_RETRY);\n}";

/**
 * The width of `context.map` in the code copy: one iteration at a time, as Temporal's copy runs them
 * (verify/dandori/temporal_copy.ts), so the calls come in the interpreter's order and an iteration's
 * retries are answered before the next iteration calls.
 */
const WIDTH_FROM = "{ maxConcurrency: Math.max(1, k) }";
const WIDTH_TO = "{ maxConcurrency: 1 }";

/** The code copy: the package with the scenario's clock, one parallel iteration at a time, and whatever `mutate` breaks. */
function copyOf(subject: DurableSubject, mutate?: (files: Map<string, string>) => void): string {
  const files = new Map(subject.files);
  const runtime = files.get("runtime.ts") ?? "";
  if (!runtime.includes(CLOCK_FROM)) throw new Error("the runtime's clock is not the one the copy replaces");
  if (!runtime.includes(WIDTH_FROM)) {
    throw new Error("the runtime's map width is not the one the copy replaces");
  }
  files.set("runtime.ts", runtime.replace(CLOCK_FROM, CLOCK_TO).replace(WIDTH_FROM, WIDTH_TO));
  mutate?.(files);
  const dir = Deno.makeTempDirSync({ prefix: "dandori-durable-" });
  for (const [name, text] of files) Deno.writeTextFileSync(`${dir}/${name}`, text);
  return dir;
}

/** The durable functions a flow's children are invoked as. */
function childFunctions(plan: Plan): string[] {
  const out = new Set<string>();
  for (const t of plan.tasks) {
    const c = t.callee;
    if (c.kind === "flow") out.add(c.platforms.durableFunction ?? `${c.workflow}_v${c.version}`);
    if (c.kind === "child") out.add(c.platforms.durableFunction ?? t.name);
  }
  return [...out];
}

function taskInfos(plan: Plan): DurableJobs["tasks"] {
  return Object.fromEntries(plan.tasks.map((t) => [t.name, {
    kind: t.callee.kind,
    wires: Object.fromEntries(t.errors.map((e) => [e.name, e.wire ?? e.name])),
    timeoutSeconds: t.timeout?.kind === "after" && t.timeout.written && t.callback === null
      ? t.timeout.seconds
      : null,
    callback: t.callback !== null,
  }]));
}

/** Plays a batch of one flow's jobs in one runner process; the results by job id. */
async function playFlow(
  subject: DurableSubject,
  batch: readonly DurableJob[],
  mutate?: (files: Map<string, string>) => void,
): Promise<Map<string, Judged<DurableResult>>> {
  const dir = copyOf(subject, mutate);
  try {
    const jobs: DurableJobs = {
      dir,
      tasks: taskInfos(subject.flow.plan),
      children: childFunctions(subject.flow.plan),
      scenarios: batch.map((j) => ({ id: j.run, input: j.input, now: j.now, answers: j.answers as never })),
    };
    const out = await runRunnerOutput<DurableResult, Record<string, unknown>>(
      "durable",
      [
        Deno.execPath(),
        "run",
        "-A",
        "--config",
        `${ROOT}deno.json`,
        `${ROOT}verify/dandori/durable_runner.ts`,
        `${dir}/jobs.json`,
      ],
      `${dir}/jobs.json`,
      JSON.parse(stringifyJson(jobs)),
      FLOW_LIMIT_MS,
    );
    const judged = new Map<string, Judged<DurableResult>>();
    for (const j of batch) {
      const r = out.results.get(j.run);
      if (r !== undefined) judged.set(j.id, { played: r, late: false, problems: r.problems });
    }
    return judged;
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

/** The outcome of one flow. */
export interface DurableFlowReport extends Report {
  readonly flow: string;
  readonly excluded: number;
  readonly seconds: number;
  /** The most operations a run used, and E040's estimate. */
  readonly operations: number;
  readonly estimate: number;
}

/** Plays one flow's jobs; `mutate` changes the code copy (a test breaks it on purpose). */
export async function verifyDurableFlow(
  subject: DurableSubject,
  mutate?: (files: Map<string, string>) => void,
): Promise<DurableFlowReport> {
  const started = performance.now();
  let operations = 0;
  const report = await inRounds(subject.jobs, {
    attempt: async (batch) => {
      const played = await playFlow(subject, batch, mutate);
      for (const p of played.values()) operations = Math.max(operations, p.played.operations);
      return played;
    },
    agrees: (job, _round, played) => playedOf(played) === job.expected,
    show: (job, _round, played) =>
      tr(
        `${playedOf(played)}\n      expected: ${job.expected}`,
        `${playedOf(played)}\n      期待: ${job.expected}`,
      ),
  });
  return {
    ...report,
    flow: subject.flow.path,
    excluded: subject.excluded,
    seconds: (performance.now() - started) / 1000,
    operations,
    estimate: executionOperations(subject.flow.plan),
  };
}

/** The rule that leaves a scenario out of the durable run. */
export const DURABLE_EXCLUSION = "a callback times out, and the local runner never times a callback out";

/**
 * Flows played at once, each in its own runner process: a runner waits on the local runner far more
 * than it computes (about a tenth of a core each, measured), so four overlap on 2 cores.
 */
const FLOWS_AT_ONCE = 4;

/** `deno task verify durable`: the exit code, with the record of the run. */
export async function verifyDurable(args: readonly string[]): Promise<Verified> {
  const started = performance.now();
  const flows = flowsNamed(ROOT, args, FLOW_DIRS);
  const failures: string[] = [];
  const skipped: Skipped[] = [];
  const ranAgain: string[] = [];
  const subjects: DurableSubject[] = [];
  for (const f of flows) {
    const s = durableSubjectOf(f);
    if ("skipped" in s) {
      skipped.push({ what: f.path, reason: s.skipped });
      console.log(`skipped: ${f.path}: ${s.skipped}`);
    } else subjects.push(s);
  }
  let agreed = 0;
  const queue = [...subjects];
  await Promise.all(Array.from({ length: FLOWS_AT_ONCE }, async () => {
    for (let s = queue.shift(); s !== undefined; s = queue.shift()) {
      let r: DurableFlowReport;
      try {
        r = await verifyDurableFlow(s);
      } catch (e) {
        failures.push(`${s.flow.path}: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      agreed += r.agreed;
      ranAgain.push(...r.ranAgain);
      console.log(
        `${r.flow}: ${r.agreed}/${r.scenarios} scenarios agree with the interpreter, ${r.excluded} excluded (a callback timed out), at most ${r.operations} operations a run (E040 estimates ${r.estimate}), ${
          r.seconds.toFixed(1)
        } s`,
      );
      failures.push(...r.failures.map((f) => f.en));
    }
  }));
  const scenarios = subjects.reduce((n, s) => n + s.jobs.length, 0);
  const excluded = subjects.reduce((n, s) => n + s.excluded, 0);
  console.log(
    `verify durable: ${subjects.length} flows, ${agreed}/${scenarios} scenarios agree, ${excluded} excluded (a callback timed out), ${skipped.length} flows skipped (E040, E050), ${
      ((performance.now() - started) / 1000).toFixed(1)
    } s`,
  );
  for (const f of failures) console.log(`  ${f}`);
  return {
    exit: failures.length === 0 && agreed === scenarios ? 0 : 1,
    records: [{
      platform: "durable functions",
      of: "flows",
      subjects: subjects.length,
      played: scenarios,
      agreed,
      excluded: [{ rule: DURABLE_EXCLUSION, count: excluded }],
      ranAgain,
      skipped,
      seconds: secondsSince(started),
    }],
  };
}
