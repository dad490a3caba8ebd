/**
 * `deno task verify pydantic-graph [<flow or dir> …]`: every generated scenario of every test and
 * example flow (or of the flows named) played on real pydantic-graph and compared with the
 * reference interpreter (docs/targets.md#pydantic-graph). Per flow: the package `dandori build
 * --target pydantic-graph` writes, one Python process (`pydantic_graph_runner.py`) that runs every
 * scenario through the generated graph with a stub `Transport` and stub own tasks, a clock that
 * advances without sleeping and callbacks answered through `Deps.callbacks`. Compared per run:
 * every call as sent, in order, character for character with the `pydantic-graph` and `transport`
 * views, with the clock when it was made (so every wait and retry delay); the ending; the cases;
 * the clock at the end.
 *
 * A task's `timeout` is `dd.within` (`asyncio.wait_for` over real time): the runner's copy of it
 * times an attempt out when the stub blocks it (the scenario's `timeout`) and moves the clock by
 * the task's `timeout`, as the interpreter does. A callback's wait is the clock's own.
 *
 * Excluded, and counted, by one rule: a scenario that times out a task (not a callback) without
 * `timeout`. Nothing limits such an attempt on pydantic-graph, so nothing can time it out.
 * Flows the target cannot build (E050) are listed as skipped with the diagnostic.
 * @module
 */

import { stringifyJson } from "../../lang/common/json.ts";
import { type Text, tr } from "../../lang/common/text.ts";
import { VERSION } from "../../lang/common/version.ts";
import type { CallRecord, Run } from "../../lang/dandori/interp.ts";
import type { Plan } from "../../lang/dandori/plan.ts";
import { timestampText } from "../../lang/dandori/rules.ts";
import { endingJson } from "../../lang/dandori/run.ts";
import { answerJson } from "../../lang/dandori/scenario.ts";
import type { Value } from "../../lang/dandori/values.ts";
import { viewOf } from "../../lang/dandori/views.ts";
import { ident } from "../../targets/dandori/pydantic_graph/names.ts";
import { DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import { PYDANTIC_GRAPH } from "../../targets/dandori/pydantic_graph/target.ts";
import { type DiffJob, inRounds, type Report, runRunner } from "../differential.ts";
import { flowsNamed, generatedRuns, type RunnableFlow } from "./flows.ts";
import { type ProofRecord, secondsSince, type Skipped, skippedRecord, type Verified } from "../summary.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The directories the default run takes its flows from: the test and example flows, and this target's own. */
export const FLOW_DIRS = ["tests/dandori/flows/", "tests/dandori/pydantic_graph/", "examples/"];

/** The version of pydantic-graph the target is verified with (verify/requirements-pydantic-graph.txt). */
export const PYDANTIC_GRAPH_VERSION = "2.68.0";

/** How long the runner may take before it is killed: this, and 10 s more per flow it plays. */
const FLOW_LIMIT_MS = 2 * 60_000;

/** The name of the package in the runner's directory. */
const PACKAGE = "flow_package";

/** One scenario of one flow, with what the interpreter says it does. */
export interface GraphJob extends DiffJob {
  readonly run: string;
  readonly input: Value;
  readonly answers: Value[];
  readonly now: readonly [string, string];
  readonly expected: string;
}

/** A flow's files, its jobs and the scenarios left out with why. */
export interface GraphSubject {
  readonly flow: RunnableFlow;
  readonly files: ReadonlyMap<string, string>;
  readonly jobs: readonly GraphJob[];
  readonly excluded: readonly string[];
}

/** What a run did, as the runner prints it. */
interface GraphResult {
  readonly id: string;
  readonly calls: unknown[];
  readonly ending: unknown;
  readonly cases: unknown;
  readonly clock: string;
  readonly problems: Text[];
}

/** Why a scenario cannot be played here, or null (the rule of the module's note). */
function exclusion(plan: Plan, calls: readonly CallRecord[]): string | null {
  const c = calls.find((x) => {
    const t = plan.tasks.find((t) => t.name === x.task);
    return x.answer.kind === "error" && x.answer.error === "timeout" && t?.callback === null &&
      t.timeout?.kind !== "after";
  });
  return c === undefined ? null : `line ${c.line}: ${c.task}, which has no \`timeout\`, times out`;
}

function expectedOf(plan: Plan, run: Run): string {
  const calls = run.calls.map((c) => {
    const kind = plan.tasks.find((t) => t.name === c.task)?.callee.kind;
    const out: Record<string, Value> = { "pydantic-graph": viewOf("pydantic-graph", plan, c), at: c.at };
    if (kind === "lambda" || kind === "http" || kind === "aws" || kind === "book" || kind === "agent") {
      out.transport = viewOf("transport", plan, c);
    }
    return out;
  });
  return stringifyJson({
    calls,
    ending: endingJson(run.ending),
    cases: Object.fromEntries(run.cases),
    clock: timestampText(run.clockMs),
  });
}

function playedOf(r: GraphResult): string {
  return JSON.stringify({ calls: r.calls, ending: r.ending, cases: r.cases, clock: r.clock });
}

/** A flow's jobs: its generated scenarios, each run on the interpreter as `run-<n>`. */
export function subjectOf(flow: RunnableFlow): GraphSubject | { skipped: string } {
  const origin = {
    file: flow.path.split("/").pop() ?? flow.path,
    path: flow.path,
    text: "",
    sha: "0".repeat(16),
    version: VERSION,
  };
  const stop = PYDANTIC_GRAPH.check(flow.plan, origin, DEFAULT_BUILD);
  if (stop.length > 0) return { skipped: stop.map((d) => `${d.code} ${d.message.en}`).join("; ") };
  const jobs: GraphJob[] = [];
  const excluded: string[] = [];
  for (const { n, scenario: s, run } of generatedRuns(flow)) {
    const id = `run-${n}`;
    const why = exclusion(flow.plan, run.calls);
    if (why !== null) {
      excluded.push(`${flow.path} ${id}: ${why}`);
      continue;
    }
    jobs.push({
      id: `${flow.path}#${id}`,
      where: `${flow.path} ${id}`,
      run: id,
      input: s.input,
      answers: s.answers.map(answerJson),
      now: s.now,
      expected: expectedOf(flow.plan, run),
    });
  }
  return { flow, files: PYDANTIC_GRAPH.generate(flow.plan, origin, DEFAULT_BUILD), jobs, excluded };
}

/** Writes a flow's package as `<dir>/<name>/` (changed by `mutate`, when given). */
function writePackageAt(
  dir: string,
  name: string,
  files: ReadonlyMap<string, string>,
  mutate?: (files: Map<string, string>) => void,
): void {
  const copy = new Map(files);
  mutate?.(copy);
  Deno.mkdirSync(`${dir}/${name}`);
  for (const [file, text] of copy) Deno.writeTextFileSync(`${dir}/${name}/${file}`, text);
}

/** Writes a flow's package into a new directory as `flow_package`; the directory. */
export function writePackage(files: ReadonlyMap<string, string>): string {
  const dir = Deno.makeTempDirSync({ prefix: "dandori-pydantic-graph-" });
  writePackageAt(dir, PACKAGE, files);
  return dir;
}

/** The outcome of one flow. */
export interface FlowReport extends Report {
  readonly flow: string;
  readonly excluded: readonly string[];
}

/** Plays every job of the flows in one runner process (each flow its own package); the results by job id. */
async function playAll(
  subjects: readonly GraphSubject[],
  mutate?: (files: Map<string, string>) => void,
): Promise<Map<string, GraphResult>> {
  const dir = Deno.makeTempDirSync({ prefix: "dandori-pydantic-graph-" });
  try {
    const flows = subjects.map((s, i) => {
      writePackageAt(dir, `p${i}`, s.files, mutate);
      return {
        package: `p${i}`,
        tasks: Object.fromEntries(s.flow.plan.tasks.map((t) => [t.name, {
          attr: ident(t.name),
          wires: Object.fromEntries(t.errors.map((e) => [e.name, e.wire ?? e.name])),
        }])),
        scenarios: s.jobs.map((j) => ({ id: j.run, input: j.input, answers: j.answers, now: [...j.now] })),
      };
    });
    const results = await runRunner<GraphResult>(
      "pydantic-graph",
      ["python3", `${ROOT}verify/dandori/pydantic_graph_runner.py`, `${dir}/jobs.json`],
      `${dir}/jobs.json`,
      JSON.parse(stringifyJson({ dir, flows } as never)),
      FLOW_LIMIT_MS + subjects.length * 10_000,
    );
    return new Map(subjects.flatMap((s, i) =>
      s.jobs.flatMap((j) => {
        const r = results.get(`p${i}#${j.run}`);
        return r === undefined ? [] : [[j.id, r] as const];
      })
    ));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

/** Plays the flows' jobs in one runner process; `mutate` changes every package first (a test breaks it on purpose). */
export async function verifyFlows(
  subjects: readonly GraphSubject[],
  mutate?: (files: Map<string, string>) => void,
): Promise<FlowReport[]> {
  const played = await playAll(subjects, mutate);
  return await Promise.all(subjects.map(async (subject) => {
    const report = await inRounds(subject.jobs, {
      attempt: (batch) =>
        Promise.resolve(
          new Map(batch.flatMap((j) => {
            const r = played.get(j.id);
            return r === undefined ? [] : [[j.id, { played: r, late: false, problems: r.problems }] as const];
          })),
        ),
      agrees: (job, _round, r) => playedOf(r) === JSON.stringify(JSON.parse(job.expected)),
      show: (job, _round, r) =>
        tr(`${playedOf(r)}\n      expected: ${job.expected}`, `${playedOf(r)}\n      期待: ${job.expected}`),
    });
    return { ...report, flow: subject.flow.path, excluded: subject.excluded };
  }));
}

/** `verifyFlows` of one flow. */
export async function verifyFlow(
  subject: GraphSubject,
  mutate?: (files: Map<string, string>) => void,
): Promise<FlowReport> {
  const [report] = await verifyFlows([subject], mutate);
  return report;
}

/**
 * Why Python cannot play pydantic-graph here (the tool first, then what to install), or null when it
 * imports the version the target is verified with.
 */
export async function pydanticGraphLacks(): Promise<string | null> {
  const why = "pip install -r verify/requirements-pydantic-graph.txt";
  try {
    const out = await new Deno.Command("python3", {
      args: ["-c", "import importlib.metadata as m, pydantic_graph; print(m.version('pydantic-graph'))"],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const version = new TextDecoder().decode(out.stdout).trim();
    if (out.success && version === PYDANTIC_GRAPH_VERSION) return null;
    return `pydantic-graph: ${
      out.success ? `${version} is installed, not ${PYDANTIC_GRAPH_VERSION}` : "not installed"
    } (${why})`;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    return `python3: not on this machine (${why})`;
  }
}

/** The pydantic-graph version Python imports, or null after a SKIP line when it cannot. */
export async function findPydanticGraph(): Promise<string | null> {
  const lacks = await pydanticGraphLacks();
  if (lacks === null) return PYDANTIC_GRAPH_VERSION;
  console.log(`SKIP: ${lacks}`);
  return null;
}

/** The rule that leaves a scenario out of the pydantic-graph run (the module's note). */
export const PYDANTIC_GRAPH_EXCLUSION =
  "a task without `timeout` times out, and nothing limits its attempt on pydantic-graph";

/** The record of a run of `subjects` (the flows built) that gave `reports`, with the flows not built. */
export function pydanticGraphRecord(
  subjects: readonly GraphSubject[],
  reports: readonly FlowReport[] | null,
  skipped: readonly Skipped[],
  seconds: number,
): ProofRecord {
  return {
    platform: "pydantic-graph",
    of: "flows",
    subjects: subjects.length,
    played: subjects.reduce((n, s) => n + s.jobs.length, 0),
    agreed: (reports ?? []).reduce((n, r) => n + r.agreed, 0),
    excluded: [{
      rule: PYDANTIC_GRAPH_EXCLUSION,
      count: subjects.reduce((n, s) => n + s.excluded.length, 0),
    }],
    ranAgain: (reports ?? []).flatMap((r) => r.ranAgain),
    skipped,
    seconds,
  };
}

/** `deno task verify pydantic-graph`: the exit code, with the record of the run. */
export async function verifyPydanticGraph(args: readonly string[]): Promise<Verified> {
  const lacks = await pydanticGraphLacks();
  if (lacks !== null) {
    console.log(`SKIP: ${lacks}`);
    return { exit: 0, records: [skippedRecord("pydantic-graph", "flows", "pydantic-graph", lacks)] };
  }
  const started = performance.now();
  const flows = flowsNamed(ROOT, args, FLOW_DIRS);
  const subjects: GraphSubject[] = [];
  const skipped: Skipped[] = [];
  for (const f of flows) {
    const s = subjectOf(f);
    if ("skipped" in s) {
      console.log(`skipped: ${f.path}: ${s.skipped}`);
      skipped.push({ what: f.path, reason: s.skipped });
    } else subjects.push(s);
  }
  let reports: FlowReport[];
  try {
    reports = await verifyFlows(subjects);
  } catch (e) {
    console.log(`verify pydantic-graph: ${e instanceof Error ? e.message : String(e)}`);
    return { exit: 1, records: [pydanticGraphRecord(subjects, null, skipped, secondsSince(started))] };
  }
  const failures: string[] = [];
  let scenarios = 0;
  let agreed = 0;
  let excluded = 0;
  for (const r of reports) {
    scenarios += r.scenarios;
    agreed += r.agreed;
    excluded += r.excluded.length;
    console.log(
      `${r.flow}: ${r.agreed}/${r.scenarios} scenarios agree with the interpreter, ${r.excluded.length} excluded`,
    );
    for (const x of r.excluded) console.log(`  excluded: ${x}`);
    failures.push(...r.failures.map((f) => f.en));
  }
  console.log(
    `verify pydantic-graph: ${subjects.length} flows, ${agreed}/${scenarios} scenarios agree, ${excluded} excluded, ${
      flows.length - subjects.length
    } skipped, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const f of failures) console.log(`  ${f}`);
  return {
    exit: failures.length === 0 && agreed === scenarios ? 0 : 1,
    records: [pydanticGraphRecord(subjects, reports, skipped, secondsSince(started))],
  };
}
