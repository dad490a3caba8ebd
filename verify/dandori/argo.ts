/**
 * `deno task verify argo [<flow or dir> …]`: every generated scenario of every test and example flow
 * (or of the flows named) played on Argo Workflows' own workflow controller, running in-process as
 * Argo's controller tests run it (`argo/controller/harness_test.go`, built by `argo_tools.ts`), and
 * compared with the reference interpreter (docs/targets.md#argo).
 *
 * Per flow: the WorkflowTemplate `dandori build --target argo` writes, and per scenario a Workflow made
 * from a copy of it — the clock reads the scenario's times (the start's first, every statement's the
 * second), a parallel loop's iterations run one at a time (as the other targets' copies run them, so
 * the calls come in the interpreter's order), a retry does not wait its backoff and a `wait` does not
 * wait. Each Pod the controller creates is played by the harness with the scenario's answer to that
 * call: its exit code and the outputs the caller would leave (`answer.json`, `error.json`, the
 * termination message); a callback's answer is set and resumed as `argo node set` and `argo resume` do.
 * No kubelet and no real Pod is involved. Compared per run, as JSON values: every call as its Pod was
 * handed it (`DANDORI_CALL`, or the child's WorkflowTemplate and input), in order, with the `argo`
 * view; and the ending, from the Workflow's global outputs. Argo's waits and backoffs are the
 * controller's own and are not compared.
 * @module
 */

import { stringify } from "yaml";
import { assert } from "../../lang/common/assert.ts";
import { parseJson, stringifyJson } from "../../lang/common/json.ts";
import { tr } from "../../lang/common/text.ts";
import { VERSION } from "../../lang/common/version.ts";
import type { CallRecord, Run } from "../../lang/dandori/interp.ts";
import type { Plan, TaskPlan } from "../../lang/dandori/plan.ts";
import { endingJson } from "../../lang/dandori/run.ts";
import type { Value } from "../../lang/dandori/values.ts";
import { viewOf } from "../../lang/dandori/views.ts";
import { ARGO } from "../../targets/dandori/argo/target.ts";
import { MAX_NODES, templateName } from "../../targets/dandori/argo/check.ts";
import { lit } from "../../targets/dandori/argo/expr.ts";
import {
  START_CLOCK,
  type Template,
  workflowTemplate,
  type WorkflowTemplateDoc,
} from "../../targets/dandori/argo/workflow.ts";
import { DEFAULT_BUILD, type FlowOrigin } from "../../targets/dandori/target.ts";
import { inRounds, type Judged, type Report } from "../differential.ts";
import { ARGO_MODULE, ARGO_VERSION, type ArgoTools, argoTools } from "./argo_tools.ts";
import { goRuntimeEnv } from "../services/go_runtime.ts";
import { flowsNamed, generatedRuns, type RunnableFlow } from "./flows.ts";
import { FLOW_DIRS } from "./temporal.ts";
import { secondsSince, type Skipped, skippedRecord, type Verified } from "../summary.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** How long the harness may take over one flow's runs before it is killed. */
const FLOW_LIMIT_MS = 10 * 60_000;

/** The most rounds of the controller one run may take (a run of the corpus takes a few hundred at most). */
const MAX_ROUNDS = 5_000;

/** How a Pod or a callback of a run ends (the harness's `dandoriPlay`). */
export interface Play {
  readonly kind: "container" | "child" | "callback";
  readonly exit: number;
  readonly answer: string;
  readonly error: string;
  readonly message: string;
  readonly callback: string | null;
}

/** One scenario of one flow, with what the interpreter says it does. */
export interface ArgoJob {
  readonly id: string;
  readonly where: string;
  readonly run: string;
  readonly input: Value;
  readonly now: readonly [string, string];
  readonly plays: readonly Play[];
  readonly expected: string;
}

/** A flow's WorkflowTemplate, its jobs, and the images its own tasks run in. */
export interface ArgoSubject {
  readonly flow: RunnableFlow;
  readonly doc: WorkflowTemplateDoc;
  readonly jobs: readonly ArgoJob[];
  /** Scenarios where a child flow times out, which Argo cannot tell from a failure. */
  readonly excluded: number;
  readonly images: readonly string[];
  /** The most nodes E040 estimates a run makes. */
  readonly estimate: number;
}

/** What the harness says of one run. */
export interface ArgoResult {
  readonly id: string;
  readonly calls: readonly unknown[];
  readonly phase: string;
  readonly message: string;
  readonly outputs: Readonly<Record<string, string>>;
  readonly problems: readonly string[];
  readonly rounds: number;
  readonly nodes: number;
}

/** A JSON value with every object's keys sorted: a call's members come in any order. */
function canonical(v: Value): Value {
  if (Array.isArray(v)) return v.map(canonical);
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(
      Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, Value>)[k])]),
    );
  }
  return v;
}

function canonicalText(v: Value): string {
  return stringifyJson(canonical(v));
}

/**
 * How the harness ends a call's Pod, or answers its callback, for the interpreter's answer; `left` is
 * what the caller leaves in `answer.json` for a `connect` task's result (`CallerLeaves`), else null.
 */
function playOf(task: TaskPlan, c: CallRecord, left: string | null): Play {
  const a = c.answer;
  const none: Play = { kind: "container", exit: 0, answer: "", error: "", message: "", callback: null };
  if (a.kind === "cancel") throw new Error("dandori: Argo plays no cancel (E050 before)");
  if (task.callback !== null) {
    const answer = a.kind === "ok"
      ? stringifyJson({ ok: a.value })
      : a.error === "timeout"
      ? null
      : stringifyJson({ error: a.error === "failure" ? "Dandori.Failure" : a.error, message: a.cause ?? "" });
    return { ...none, kind: "callback", callback: answer };
  }
  const child = task.callee.kind === "flow" || task.callee.kind === "child";
  const kind = child ? "child" : "container";
  if (a.kind === "ok") return { ...none, kind, answer: left ?? stringifyJson(a.value) };
  // An agent's error says no cause (the caller's `io.agent` fails with an empty message).
  const message = task.callee.kind === "agent" ? "" : a.cause ?? "";
  if (child) return { ...none, kind, exit: 1, message };
  if (a.error === "timeout") {
    return {
      ...none,
      kind,
      exit: 143,
      error: stringifyJson({ error: "Dandori.Timeout", message }),
      message: "Dandori.Timeout",
    };
  }
  if (a.error === "failure") {
    return { ...none, kind, exit: 1, error: stringifyJson({ error: "Dandori.Failure", message }), message };
  }
  return { ...none, kind, exit: 3, error: stringifyJson({ error: a.error, message }), message: a.error };
}

/** The rule that leaves a scenario out of the Argo run. */
export const ARGO_EXCLUSION =
  "a child flow times out: a child's Workflow has no deadline on Argo (E050 for its `timeout`), and one stopped otherwise reaches its parent as a failed step";

/** True when the run times a child flow out, which Argo cannot (`ARGO_EXCLUSION`). */
function timesChildOut(plan: Plan, run: Run): boolean {
  return run.calls.some((c) => {
    const kind = plan.tasks.find((t) => t.name === c.task)?.callee.kind;
    return c.answer.kind === "error" && c.answer.error === "timeout" && (kind === "flow" || kind === "child");
  });
}

/** What a run is compared on: every call as its Pod was handed it, and the ending. */
function expectedOf(plan: Plan, run: Run): string {
  const calls = run.calls.map((c) => viewOf("argo", plan, c));
  return canonicalText(parseJson(stringifyJson({ calls, ending: endingJson(run.ending) })));
}

/** What a run played: its calls, and the ending its global outputs say (or how the Workflow ended without one). */
function playedOf(r: ArgoResult): string {
  const calls = r.calls.map((c) => parseJson(JSON.stringify(c)));
  const o = r.outputs;
  let ending: Value;
  if (o.dd_ctl === "succeed" && o.dd_output !== undefined) ending = { succeed: parseJson(o.dd_output) };
  else if (o.dd_ctl === "fail" && o.dd_error !== undefined) {
    const e = parseJson(o.dd_error) as { error?: Value; reason?: Value };
    ending = { fail: { error: e.error ?? null, reason: e.reason ?? null } };
  } else ending = { argo: { phase: r.phase, message: r.message, ctl: o.dd_ctl ?? null } };
  return canonicalText({ calls, ending });
}

/** The origin a verify build names (no file is written, so no hash). */
function originOf(flow: RunnableFlow): FlowOrigin {
  return {
    file: flow.path.split("/").pop() ?? flow.path,
    path: flow.path,
    text: "",
    sha: "0".repeat(16),
    version: VERSION,
  };
}

/** A task whose answer the caller's code changes before it leaves it: a `connect` task's (filled), an agent's (its `answer`, folded). */
function readByCaller(t: TaskPlan): boolean {
  return (t.callee.kind === "http" && t.callee.connect !== null) || t.callee.kind === "agent";
}

/** What the caller leaves in `answer.json` for a `connect` or an agent task's result. */
type CallerLeaves = (task: TaskPlan, c: CallRecord) => Promise<string>;

/**
 * The generated caller's `tasks.ts` (docs/targets.md#argo), loaded from a copy of the flow's build
 * (`change` alters its files first: a test breaks it on purpose), and what it leaves for a `connect`
 * or an agent task's result: its task run on a stub `Transport` that answers the scenario's answer
 * (an agent's wrapped in `{"answer": …}`, as `temporal_stubs.ts` answers it), so the Pod the harness
 * ends holds the answer the generated code filled or folded, not the interpreter's. Null for a flow
 * with no such task; `dispose` removes the copy.
 */
async function callerLeaves(
  flow: RunnableFlow,
  change?: (files: Map<string, string>) => void,
): Promise<{ leaves: CallerLeaves; dispose(): void } | null> {
  if (!flow.plan.tasks.some(readByCaller)) return null;
  const files = new Map(ARGO.generate(flow.plan, originOf(flow), { ...DEFAULT_BUILD, yaml: stringify }));
  change?.(files);
  const dir = Deno.makeTempDirSync({ prefix: "dandori-argo-caller-" });
  Deno.symlinkSync(`${ROOT}node_modules`, `${dir}/node_modules`);
  for (const [name, text] of files) {
    if (name.startsWith("caller/") && name.endsWith(".ts")) {
      Deno.writeTextFileSync(`${dir}/${name.slice(7)}`, text);
    }
  }
  const generated = await import(`${dir}/tasks.ts`);
  const leaves: CallerLeaves = async (task, c) => {
    const a = c.answer;
    assert(a.kind === "ok", "a result is left for an answer");
    const body = a.value === null ? "" : stringifyJson(a.value);
    const stub = {
      http: () => Promise.resolve({ status: 200, body }),
      lambda: () => Promise.reject(new Error("a connect task calls no Lambda")),
      aws: () => Promise.reject(new Error("a connect task calls no AWS API")),
      book: () => Promise.reject(new Error("a connect task calls no book")),
      agent: () => Promise.resolve({ answer: JSON.parse(stringifyJson(a.value)) }),
    };
    const view = JSON.parse(stringifyJson(viewOf("argo", flow.plan, c))) as {
      args: unknown;
      key?: string;
      callback_id?: string;
    };
    const result = await generated.makeTasks({}, stub)[task.name](view.args, {
      key: view.key,
      callback_id: view.callback_id,
    });
    return JSON.stringify(result ?? null);
  };
  return { leaves, dispose: () => Deno.removeSync(dir, { recursive: true }) };
}

/** A flow's jobs: its generated scenarios, each run on the interpreter as `run-<n>`. */
export async function argoSubjectOf(
  flow: RunnableFlow,
  change?: (files: Map<string, string>) => void,
): Promise<ArgoSubject | { skipped: string }> {
  const stop = ARGO.check(flow.plan, originOf(flow), DEFAULT_BUILD);
  if (stop.length > 0) return { skipped: stop.map((d) => `${d.code} ${d.message.en}`).join("; ") };
  const name = templateName(flow.plan);
  if (name === null) return { skipped: "E006" };
  const built = workflowTemplate(flow.plan, name);
  const tasks = new Map(flow.plan.tasks.map((t) => [t.name, t]));
  let excluded = 0;
  const caller = await callerLeaves(flow, change);
  const jobs: ArgoJob[] = [];
  try {
    for (const { n, scenario: s, run } of generatedRuns(flow)) {
      if (timesChildOut(flow.plan, run)) {
        excluded++;
        continue;
      }
      const plays: Play[] = [];
      for (const c of run.calls) {
        const t = tasks.get(c.task);
        if (t === undefined) throw new Error(`dandori: the plan has no task ${c.task}`);
        const left = caller !== null && readByCaller(t) && c.answer.kind === "ok"
          ? await caller.leaves(t, c)
          : null;
        plays.push(playOf(t, c, left));
      }
      jobs.push({
        id: `${flow.path}#run-${n}`,
        where: `${flow.path} run-${n}`,
        run: `run-${n}`,
        input: s.input,
        now: s.now,
        plays,
        expected: expectedOf(flow.plan, run),
      });
    }
  } finally {
    caller?.dispose();
  }
  const images = [...new Set(flow.plan.tasks.flatMap((t) => t.image === null ? [] : [t.image]))].sort();
  return { flow, doc: built.doc, jobs, excluded, images, estimate: built.nodes };
}

/** A template of the copy a run plays: one iteration at a time, no backoff, no wait, and `now()` the scenario's. */
function copied(t: Template, now: readonly [string, string]): Template {
  const clock = `date(${lit(t.name === START_CLOCK ? now[0] : now[1])})`;
  const out: Record<string, unknown> = { ...t };
  if (t.steps?.some((g) => g.some((s) => s.withSequence !== undefined))) out.parallelism = 1;
  if (t.retryStrategy !== undefined) {
    const { backoff: _, ...rest } = t.retryStrategy;
    out.retryStrategy = rest;
  }
  const waits = t.suspend !== undefined &&
    !(t.inputs?.parameters ?? []).some((p) => p.name === "callback_id");
  if (waits && t.name !== "dd-never") out.suspend = { duration: "0" };
  if (t.outputs !== undefined) {
    out.outputs = {
      parameters: t.outputs.parameters.map((p) =>
        p.valueFrom?.expression === undefined ? p : {
          ...p,
          valueFrom: { ...p.valueFrom, expression: p.valueFrom.expression.replaceAll("now()", clock) },
        }
      ),
    };
  }
  return out as unknown as Template;
}

/** The Workflow of one run: the copy's templates, the scenario's input. */
export function workflowOf(doc: WorkflowTemplateDoc, job: ArgoJob): unknown {
  return {
    apiVersion: "argoproj.io/v1alpha1",
    kind: "Workflow",
    metadata: { name: job.run, namespace: "default" },
    spec: {
      entrypoint: doc.spec.entrypoint,
      arguments: {
        parameters: [
          { name: "input", value: stringifyJson(job.input) },
          { name: "caller_image", value: "dandori-caller" },
        ],
      },
      templates: doc.spec.templates.map((t) => copied(t, job.now)),
    },
  };
}

/** Plays a batch of one flow's jobs in one harness process; the results by job id. */
async function playFlow(
  tools: ArgoTools,
  subject: ArgoSubject,
  batch: readonly ArgoJob[],
  mutate?: (doc: WorkflowTemplateDoc) => WorkflowTemplateDoc,
): Promise<Map<string, Judged<ArgoResult>>> {
  const doc = mutate === undefined ? subject.doc : mutate(subject.doc);
  const dir = Deno.makeTempDirSync({ prefix: "dandori-argo-" });
  try {
    const jobs = {
      images: [...subject.images, "dandori-caller"],
      maxRounds: MAX_ROUNDS,
      runs: batch.map((j) => ({ id: j.id, workflow: workflowOf(doc, j), plays: j.plays })),
    };
    Deno.writeTextFileSync(`${dir}/jobs.json`, JSON.stringify(jobs));
    const signal = AbortSignal.timeout(FLOW_LIMIT_MS);
    const out = await new Deno.Command(tools.controller, {
      args: ["-test.run", "^TestDandoriRuns$", "-test.timeout", "0"],
      // go_runtime.ts's settings; INFORMER_WRITE_BACK: the controller writes each update back to its
      // informer instead of sleeping a second after it (its default since v4.0, for a cluster's API
      // server to catch up).
      env: {
        ...goRuntimeEnv(),
        DANDORI_ARGO_JOBS: `${dir}/jobs.json`,
        DANDORI_ARGO_RESULTS: `${dir}/results.jsonl`,
        INFORMER_WRITE_BACK: "true",
      },
      stdout: "piped",
      stderr: "piped",
      signal,
    }).output();
    if (signal.aborted) throw new Error(`the Argo harness did not finish within ${FLOW_LIMIT_MS / 1000} s`);
    if (!out.success) {
      const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      throw new Error(`the Argo harness failed: ${text.slice(-4000)}`);
    }
    const judged = new Map<string, Judged<ArgoResult>>();
    for (const line of Deno.readTextFileSync(`${dir}/results.jsonl`).split("\n")) {
      if (line === "") continue;
      const r = JSON.parse(line) as ArgoResult;
      judged.set(r.id, { played: r, late: false, problems: r.problems.map((p) => tr(p, p)) });
    }
    return judged;
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

/** The outcome of one flow. */
export interface ArgoFlowReport extends Report {
  readonly flow: string;
  readonly seconds: number;
  /** The most nodes a run made, and E040's estimate. */
  readonly nodes: number;
  readonly estimate: number;
  readonly excluded: number;
}

/** Plays one flow's jobs; `mutate` changes the WorkflowTemplate first (a test breaks it on purpose). */
export async function verifyArgoFlow(
  tools: ArgoTools,
  subject: ArgoSubject,
  mutate?: (doc: WorkflowTemplateDoc) => WorkflowTemplateDoc,
): Promise<ArgoFlowReport> {
  const started = performance.now();
  let nodes = 0;
  const report = await inRounds(subject.jobs, {
    attempt: async (batch) => {
      const played = await playFlow(tools, subject, batch, mutate);
      for (const p of played.values()) nodes = Math.max(nodes, p.played.nodes);
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
    seconds: (performance.now() - started) / 1000,
    nodes,
    estimate: subject.estimate,
    excluded: subject.excluded,
  };
}

/** Flows played at once, each in its own harness process (the controller computes: one a core). */
const FLOWS_AT_ONCE = 2;

/** `deno task verify argo`: the exit code, with the record of the run. */
export async function verifyArgo(args: readonly string[]): Promise<Verified> {
  const started = performance.now();
  const flows = flowsNamed(ROOT, args, FLOW_DIRS);
  const skipped: Skipped[] = [];
  const subjects: ArgoSubject[] = [];
  const tools = await argoTools();
  if ("skip" in tools) {
    console.log(`SKIP: argo: ${tools.skip}`);
    return {
      exit: 0,
      records: [
        skippedRecord(
          "Argo Workflows: controller in-process",
          "flows",
          `${ARGO_MODULE}@${ARGO_VERSION}`,
          tools.skip,
        ),
      ],
    };
  }
  for (const f of flows) {
    const s = await argoSubjectOf(f);
    if ("skipped" in s) {
      skipped.push({ what: f.path, reason: s.skipped });
      console.log(`skipped: ${f.path}: ${s.skipped}`);
    } else subjects.push(s);
  }
  const failures: string[] = [];
  const ranAgain: string[] = [];
  let agreed = 0;
  const queue = [...subjects];
  await Promise.all(Array.from({ length: FLOWS_AT_ONCE }, async () => {
    for (let s = queue.shift(); s !== undefined; s = queue.shift()) {
      let r: ArgoFlowReport;
      try {
        r = await verifyArgoFlow(tools, s);
      } catch (e) {
        failures.push(`${s.flow.path}: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      agreed += r.agreed;
      ranAgain.push(...r.ranAgain);
      console.log(
        `${r.flow}: ${r.agreed}/${r.scenarios} scenarios agree with the interpreter, ${r.excluded} excluded (a child timed out), at most ${r.nodes} nodes a run (E040 estimates ${r.estimate}, bound ${MAX_NODES}), ${
          r.seconds.toFixed(1)
        } s`,
      );
      failures.push(...r.failures.map((f) => f.en));
    }
  }));
  const scenarios = subjects.reduce((n, s) => n + s.jobs.length, 0);
  const excluded = subjects.reduce((n, s) => n + s.excluded, 0);
  console.log(
    `verify argo: ${subjects.length} flows, ${agreed}/${scenarios} scenarios agree, ${excluded} excluded (a child timed out), ${ranAgain.length} played again, ${skipped.length} flows skipped (E006, E040, E050), ${
      ((performance.now() - started) / 1000).toFixed(1)
    } s`,
  );
  for (const f of failures) console.log(`  ${f}`);
  return {
    exit: failures.length === 0 && agreed === scenarios ? 0 : 1,
    records: [{
      platform: "Argo Workflows: controller in-process",
      of: "flows",
      subjects: subjects.length,
      played: scenarios,
      agreed,
      excluded: [{ rule: ARGO_EXCLUSION, count: excluded }],
      ranAgain,
      skipped,
      seconds: secondsSince(started),
    }],
  };
}
