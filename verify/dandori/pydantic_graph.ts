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
import { VERSION } from "../../lang/common/version.ts";
import { type CallRecord, runFlow } from "../../lang/dandori/interp.ts";
import type { Plan } from "../../lang/dandori/plan.ts";
import { timestampText } from "../../lang/dandori/rules.ts";
import { endingJson } from "../../lang/dandori/run.ts";
import { answerJson, readFlowScenarios, ScenarioAnswers } from "../../lang/dandori/scenario.ts";
import { generatedJson, generateFlowScenarios } from "../../lang/dandori/scenarios.ts";
import type { Value } from "../../lang/dandori/values.ts";
import { viewOf } from "../../lang/dandori/views.ts";
import { ident } from "../../targets/dandori/pydantic_graph/names.ts";
import { PYDANTIC_GRAPH } from "../../targets/dandori/pydantic_graph/target.ts";
import { type DiffJob, inRounds, type Report, runRunner } from "../differential.ts";
import { checkedFlowAt, flowPaths, type RunnableFlow, runnableFlows } from "./flows.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The directories the default run takes its flows from. */
export const FLOW_DIRS = ["tests/dandori/flows/", "examples/"];

/** The version of pydantic-graph the target is verified with (verify/requirements-pydantic-graph.txt). */
export const PYDANTIC_GRAPH_VERSION = "2.68.0";

/** How long one runner may take over a flow before it is killed. */
const FLOW_LIMIT_MS = 3 * 60_000;

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
  readonly problems: string[];
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

function expectedOf(plan: Plan, run: ReturnType<typeof runFlow>): string {
  const calls = run.calls.map((c) => {
    const kind = plan.tasks.find((t) => t.name === c.task)?.callee.kind;
    const out: Record<string, Value> = { "pydantic-graph": viewOf("pydantic-graph", plan, c), at: c.at };
    if (kind === "lambda" || kind === "http" || kind === "aws" || kind === "book") {
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
    text: "",
    sha: "0".repeat(16),
    version: VERSION,
  };
  const stop = PYDANTIC_GRAPH.check(flow.plan, origin);
  if (stop.length > 0) return { skipped: stop.map((d) => `${d.code} ${d.message.en}`).join("; ") };
  const generated = generateFlowScenarios(flow.checked, flow.plan).scenarios.map(generatedJson);
  const jobs: GraphJob[] = [];
  const excluded: string[] = [];
  readFlowScenarios(flow.checked, stringifyJson(generated)).forEach((s, i) => {
    const id = `run-${i + 1}`;
    const answers = new ScenarioAnswers(s.answers);
    const run = runFlow(flow.checked, flow.plan, {
      input: s.input,
      now: s.now,
      answers,
      execution: id,
      children: false,
    });
    answers.finish();
    const why = exclusion(flow.plan, run.calls);
    if (why !== null) {
      excluded.push(`${flow.path} ${id}: ${why}`);
      return;
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
  });
  return { flow, files: PYDANTIC_GRAPH.generate(flow.plan, origin), jobs, excluded };
}

/** Writes a flow's package into a new directory (changed by `mutate`, when given); its path. */
export function writePackage(
  files: ReadonlyMap<string, string>,
  mutate?: (files: Map<string, string>) => void,
): string {
  const dir = Deno.makeTempDirSync({ prefix: "dandori-pydantic-graph-" });
  const copy = new Map(files);
  mutate?.(copy);
  Deno.mkdirSync(`${dir}/${PACKAGE}`);
  for (const [name, text] of copy) Deno.writeTextFileSync(`${dir}/${PACKAGE}/${name}`, text);
  return dir;
}

/** The outcome of one flow. */
export interface FlowReport extends Report {
  readonly flow: string;
  readonly excluded: readonly string[];
  readonly seconds: number;
}

/** Plays one flow's jobs; `mutate` changes the package first (a test breaks it on purpose). */
export async function verifyFlow(
  subject: GraphSubject,
  mutate?: (files: Map<string, string>) => void,
): Promise<FlowReport> {
  const started = performance.now();
  const plan = subject.flow.plan;
  const dir = writePackage(subject.files, mutate);
  try {
    const tasks = Object.fromEntries(plan.tasks.map((t) => [t.name, {
      attr: ident(t.name),
      wires: Object.fromEntries(t.errors.map((e) => [e.name, e.wire ?? e.name])),
    }]));
    const report = await inRounds(subject.jobs, {
      attempt: async (batch) => {
        const results = await runRunner<GraphResult>(
          "pydantic-graph",
          ["python3", `${ROOT}verify/dandori/pydantic_graph_runner.py`, `${dir}/jobs.json`],
          `${dir}/jobs.json`,
          JSON.parse(stringifyJson({
            dir,
            package: PACKAGE,
            tasks,
            scenarios: batch.map((j) => ({ id: j.run, input: j.input, answers: j.answers, now: [...j.now] })),
          })),
          FLOW_LIMIT_MS,
        );
        return new Map(
          batch.flatMap((j) => {
            const r = results.get(j.run);
            return r === undefined ? [] : [[j.id, { played: r, late: false, problems: r.problems }] as const];
          }),
        );
      },
      agrees: (job, _round, played) => playedOf(played) === JSON.stringify(JSON.parse(job.expected)),
      show: playedOf,
    });
    const failures = report.failures.map((f) => {
      const job = subject.jobs.find((j) => f.startsWith(`${j.where}: `));
      return job === undefined || !f.includes("disagrees") ? f : `${f}\n      expected: ${job.expected}`;
    });
    return {
      ...report,
      failures,
      flow: subject.flow.path,
      excluded: subject.excluded,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

/** The pydantic-graph version Python imports, or null after a SKIP line when it cannot. */
export async function findPydanticGraph(): Promise<string | null> {
  const why = "pip install -r verify/requirements-pydantic-graph.txt";
  try {
    const out = await new Deno.Command("python3", {
      args: ["-c", "import importlib.metadata as m, pydantic_graph; print(m.version('pydantic-graph'))"],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const version = new TextDecoder().decode(out.stdout).trim();
    if (out.success && version === PYDANTIC_GRAPH_VERSION) return version;
    console.log(
      `SKIP: pydantic-graph: ${
        out.success ? `${version} is installed, not ${PYDANTIC_GRAPH_VERSION}` : "not installed"
      } (${why})`,
    );
    return null;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    console.log(`SKIP: python3: not on this machine (${why})`);
    return null;
  }
}

/** The flows of the arguments (files or directories), or of `FLOW_DIRS`; those that do not check are left out. */
export function flowsOf(args: readonly string[]): RunnableFlow[] {
  if (args.length === 0) return runnableFlows(ROOT, FLOW_DIRS);
  const paths = args.flatMap((a) => {
    const rel = a.startsWith(ROOT) ? a.slice(ROOT.length) : a;
    return Deno.statSync(`${ROOT}${rel}`).isDirectory
      ? flowPaths(ROOT, rel.endsWith("/") ? rel : `${rel}/`)
      : [rel];
  });
  return paths.flatMap((p) => {
    const f = checkedFlowAt(ROOT, p);
    return f === null ? [] : [f];
  });
}

/** `deno task verify pydantic-graph`: the exit code. */
export async function verifyPydanticGraph(args: readonly string[]): Promise<number> {
  if (await findPydanticGraph() === null) return 0;
  const started = performance.now();
  const flows = flowsOf(args);
  const failures: string[] = [];
  let built = 0;
  let scenarios = 0;
  let agreed = 0;
  let excluded = 0;
  for (const f of flows) {
    const s = subjectOf(f);
    if ("skipped" in s) {
      console.log(`skipped: ${f.path}: ${s.skipped}`);
      continue;
    }
    built++;
    let r: FlowReport;
    try {
      r = await verifyFlow(s);
    } catch (e) {
      scenarios += s.jobs.length;
      failures.push(`${f.path}: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    scenarios += r.scenarios;
    agreed += r.agreed;
    excluded += r.excluded.length;
    console.log(
      `${r.flow}: ${r.agreed}/${r.scenarios} scenarios agree with the interpreter, ${r.excluded.length} excluded, ${
        r.seconds.toFixed(1)
      } s`,
    );
    for (const x of r.excluded) console.log(`  excluded: ${x}`);
    failures.push(...r.failures);
  }
  console.log(
    `verify pydantic-graph: ${built} flows, ${agreed}/${scenarios} scenarios agree, ${excluded} excluded, ${
      flows.length - built
    } skipped, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const f of failures) console.log(`  ${f}`);
  return failures.length === 0 && agreed === scenarios ? 0 : 1;
}
