/**
 * `deno task verify stepfunctions [<flow or dir> …]`
 * (docs/targets.md#verifying-the-asl-runner-and-localstack): every test and example flow (or those
 * named) built for Step Functions, each definition passed through asl-validator 4.0.0, and every
 * generated scenario run on the ASL runner (`asl_run.ts`, JSONata 2.0.6) beside the reference
 * interpreter. They must agree on every try of every call (where it is, its attempt, the clock, and
 * what it sends character for character: the `stepfunctions` view, and the `transport` view where the
 * two say the same thing on the wire), every wait, the ending and the clock at the end. A flow Step
 * Functions cannot build (E050) is listed as skipped, with why.
 *
 * The runner answers each try from the scenario as the platform would hand it to the Task: a
 * Lambda's result as `Payload`, an HTTP Task's as `ResponseBody`, a nested execution's as
 * `Output`, an agent's as its provider's response around `{"answer": …}` (its `failure` a refusal,
 * which the state machine's reading fails on); a declared error by the name Step Functions reports (a Lambda's error type, an HTTP
 * status `States.Http.StatusCode.<n>`, an AWS exception with its service's prefix, a book's
 * refusal), a timeout as `States.Timeout` after the try's `TimeoutSeconds`, a failure by a name no
 * catcher names but `States.ALL`. Each try is handed the token of the interpreter's call at the
 * same index, so a callback's `task_token` can be compared.
 * @module
 */

import aslValidator from "asl-validator";
import { assert, unreachable } from "../../lang/common/assert.ts";
import { stringifyJson } from "../../lang/common/json.ts";
import { tr } from "../../lang/common/text.ts";
import { awsErrorName } from "../../lang/dandori/aws.ts";
import { type Answer, type CallRecord, type Run, runFlow } from "../../lang/dandori/interp.ts";
import type { Plan, StmtPlan, TaskPlan } from "../../lang/dandori/plan.ts";
import { timestampMs, timestampText } from "../../lang/dandori/rules.ts";
import { endingJson } from "../../lang/dandori/run.ts";
import { ScenarioAnswers } from "../../lang/dandori/scenario.ts";
import { type GeneratedScenario, generateFlowScenarios } from "../../lang/dandori/scenarios.ts";
import type { Value } from "../../lang/dandori/values.ts";
import { taskToken, viewOf } from "../../lang/dandori/views.ts";
import { type Definition, START_STATES } from "../../targets/dandori/stepfunctions/asl.ts";
import { placeOfState } from "../../targets/dandori/stepfunctions/names.ts";
import { DEFINITION_FILE, STEPFUNCTIONS } from "../../targets/dandori/stepfunctions/target.ts";
import { DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import { type DiffJob, inRounds, type Judged } from "../differential.ts";
import { type AslRun, type Plain, runAsl, type TaskAnswer, type TaskTry } from "./asl_run.ts";
import { flowsNamed, type RunnableFlow } from "./flows.ts";
import { modelAnswer, modelRefusal } from "./model_responses.ts";
import { sentView } from "./sent.ts";
import {
  compareOnLocalStack,
  LOCALSTACK_VERSION,
  type LocalStackGroup,
  type Replayed,
  startLocalStack,
  whyNot,
} from "./localstack.ts";
import { type ProofRecord, secondsSince, skippedRecord, type Verified } from "../summary.ts";

/** A flow built for Step Functions, or why it cannot be. */
export type Built =
  | { readonly kind: "built"; readonly definition: Definition }
  | { readonly kind: "skipped"; readonly why: string };

/** Builds a flow's definition as `dandori build --target stepfunctions` does. */
export function buildDefinition(f: RunnableFlow, text: string): Built {
  const origin = {
    file: f.path.split("/").pop() ?? f.path,
    path: f.path,
    text,
    sha: "verify",
    version: "verify",
  };
  const stop = STEPFUNCTIONS.check(f.plan, origin, DEFAULT_BUILD);
  if (stop.length > 0) {
    const first = stop[0];
    return { kind: "skipped", why: `${first.code} at line ${first.line}: ${first.message.en}` };
  }
  const files = STEPFUNCTIONS.generate(f.plan, origin, DEFAULT_BUILD);
  const json = files.get(DEFINITION_FILE);
  assert(json !== undefined, "a build writes its definition");
  return { kind: "built", definition: JSON.parse(json) };
}

/** What asl-validator 4.0.0 says is wrong with a definition (nothing when it is valid). */
export function validate(definition: Definition): string[] {
  const r = aslValidator(definition as unknown as Record<string, unknown>);
  return r.isValid ? [] : r.errorsText("\n").split("\n");
}

/** The task each call statement of the plan calls, by the statement's place. */
function tasksByPlace(plan: Plan): Map<string, TaskPlan> {
  const tasks = new Map(plan.tasks.map((t) => [t.name, t]));
  const out = new Map<string, TaskPlan>();
  const walk = (ss: readonly StmtPlan[]) => {
    for (const s of ss) {
      switch (s.kind) {
        case "call": {
          const t = tasks.get(s.call.task);
          assert(t !== undefined, "a call's task is in the plan");
          out.set(s.place, t);
          s.call.handlers.forEach((h) => walk(h.body));
          break;
        }
        case "match":
          s.arms.forEach((a) => walk(a.body));
          break;
        case "repeat":
        case "for":
          walk(s.body);
          break;
        case "let":
        case "wait":
        case "wait until":
        case "yield":
        case "break":
        case "pass":
        case "succeed":
        case "fail":
        case "period":
          break;
        default:
          unreachable(s, "statement");
      }
    }
  };
  walk(plan.blocks.flow);
  walk(plan.blocks.failure ?? []);
  return out;
}

function plain(v: Value): Plain {
  return JSON.parse(stringifyJson(v));
}

/** A failure's error name: one no catcher of the task names but `States.ALL`. */
function failureName(task: TaskPlan, usual: string): string {
  const declared = new Set(task.errors.map((e) => declaredName(task, e.name)));
  let name = usual;
  while (declared.has(name)) name += "_";
  return name;
}

/** The name Step Functions reports a task's declared error by, as the platform makes it. */
function declaredName(task: TaskPlan, error: string): string {
  const e = task.errors.find((x) => x.name === error);
  assert(e !== undefined, `${task.name} declares ${error}`);
  const c = task.callee;
  if (task.callback !== null) return e.wire ?? e.name;
  switch (c.kind) {
    case "lambda":
    case "book":
      return e.wire ?? e.name;
    case "http":
      return `States.Http.StatusCode.${e.wire}`;
    case "aws":
      return awsErrorName(c.service, e.wire ?? e.name) ?? e.name;
    case "flow":
    case "child":
    case "event":
    case "own":
    case "agent":
      throw new Error(`verify: Step Functions reports no declared error of ${task.name}`);
    default:
      return unreachable(c, "callee");
  }
}

/** A result as the platform hands it to the Task. */
function platformResult(task: TaskPlan, v: Plain): Plain {
  if (task.callback !== null) return v;
  const c = task.callee;
  switch (c.kind) {
    case "lambda":
    case "book":
      return { Payload: v, StatusCode: 200 };
    case "http":
      return { ResponseBody: v, StatusCode: 200, StatusText: "OK", Headers: {} };
    case "aws":
      return v;
    case "flow":
    case "child":
      return { Output: v, Status: "SUCCEEDED" };
    case "agent":
      return httpAnswer(modelAnswer(c.provider, v));
    case "event":
    case "own":
      throw new Error(`verify: Step Functions cannot call ${task.name}`);
    default:
      return unreachable(c, "callee");
  }
}

/** An HTTP Task's result: the response body with a 200. */
function httpAnswer(body: Plain): Plain {
  return { ResponseBody: body, StatusCode: 200, StatusText: "OK", Headers: {} };
}

/** A scenario's answer as the platform hands it to the Task. */
function platformAnswer(task: TaskPlan, a: Answer): TaskAnswer {
  const c = task.callee;
  switch (a.kind) {
    case "ok":
      return { kind: "result", value: platformResult(task, plain(a.value)) };
    case "error": {
      if (a.error === "timeout") return { kind: "timeout", cause: a.cause };
      if (a.error !== "failure") return { kind: "error", error: declaredName(task, a.error), cause: a.cause };
      if (c.kind === "agent") return { kind: "result", value: httpAnswer(modelRefusal(c.provider)) };
      const usual = task.callback !== null
        ? "Failure"
        : c.kind === "http"
        ? "States.Http.StatusCode.500"
        : c.kind === "aws"
        ? awsErrorName(c.service, "InternalServerError") ?? "InternalServerError"
        : c.kind === "flow" || c.kind === "child"
        ? "States.TaskFailed"
        : "Lambda.Unknown";
      return { kind: "error", error: failureName(task, usual), cause: a.cause };
    }
    case "cancel":
      throw new Error(
        "verify: a cancel arrives only in a flow with `on cancel`, which Step Functions cannot build",
      );
    default:
      return unreachable(a, "answer");
  }
}

/** An HTTP Task's request as the endpoint receives it: the query and a URL-encoded body as encodeURIComponent escapes them. */
function httpOnTheWire(request: { [k: string]: Plain }): Plain {
  const encode = (o: Plain) =>
    Object.entries(o as { [k: string]: Plain }).map(([k, v]) =>
      `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`
    )
      .join("&");
  let url = request.ApiEndpoint as string;
  if (request.QueryParameters !== undefined) {
    const q = encode(request.QueryParameters);
    if (q !== "") url += `${url.includes("?") ? "&" : "?"}${q}`;
  }
  const out: { [k: string]: Plain } = { method: request.Method, url, headers: request.Headers ?? {} };
  if (request.RequestBody !== undefined) {
    const form = (request.Transform as { RequestBodyEncoding?: string } | undefined)?.RequestBodyEncoding ===
      "URL_ENCODED";
    out.body = form ? encode(request.RequestBody) : request.RequestBody;
  }
  return out;
}

/** A record without one key. */
function without(v: Plain | undefined, key: string): Plain {
  if (v === null || v === undefined || typeof v !== "object" || Array.isArray(v)) return v ?? null;
  const { [key]: _, ...rest } = v;
  return rest;
}

/** The parts of what was sent that must be what `transport` says, and the same parts of the transport view. */
function onTheWire(task: TaskPlan, sent: Plain, transport: Plain): [Plain, Plain] {
  const s = sent as { [k: string]: Plain };
  const t = transport as { [k: string]: Plain };
  switch (task.callee.kind) {
    case "lambda":
      return [
        { lambda: s.lambda, payload: without(s.payload, "task_token") },
        { lambda: t.lambda, payload: without(t.payload, "callback_id") },
      ];
    case "book":
      return [s.payload, without(t, "book")];
    case "http":
      return [httpOnTheWire(s.http as { [k: string]: Plain }), t.http];
    case "aws": {
      const sa = s.args as { [k: string]: Plain };
      const ta = t.args as { [k: string]: Plain };
      return task.callback === null ? [s, t] : [
        { ...sa, MessageBody: without(sa.MessageBody, "task_token") },
        { ...ta, MessageBody: without(ta.MessageBody, "callback_id") },
      ];
    }
    case "flow":
    case "child":
      return [s.input, t.input];
    case "agent": {
      const wire = httpOnTheWire(s.http as { [k: string]: Plain }) as { [k: string]: Plain };
      return [
        { url: wire.url, headers: without(wire.headers, "Content-Type"), body: wire.body },
        t.agent,
      ];
    }
    case "event":
    case "own":
      throw new Error(`verify: Step Functions cannot call ${task.name}`);
    default:
      return unreachable(task.callee, "callee");
  }
}

/** What one scenario did on both, and where they part. */
export interface Played {
  readonly asl: AslRun;
  readonly interp: Run;
  /** The answer the runner handed each try, in order (another engine is handed the same). */
  readonly answers: readonly TaskAnswer[];
  readonly differences: readonly string[];
}

/** Runs one scenario on the interpreter and on the definition, and compares them. */
export async function playScenario(
  f: RunnableFlow,
  definition: Definition,
  s: GeneratedScenario,
  execution: string,
): Promise<Played> {
  const given = new ScenarioAnswers(s.answers);
  const interp = runFlow(f.checked, {
    input: s.input,
    now: s.now,
    answers: given,
    execution,
    children: false,
  });
  given.finish();
  const tasks = tasksByPlace(f.plan);
  const taskOf = (state: string) => {
    const place = placeOfState(state);
    const t = place === null ? undefined : tasks.get(place);
    if (t === undefined) throw new Error(`verify: the Task ${state} is no call of the plan`);
    return t;
  };
  let used = 0;
  const misfits: string[] = [];
  const answers: TaskAnswer[] = [];
  const start = timestampMs(s.now[0]);
  assert(start !== null, "a scenario's now is a time");
  const asl = await runAsl(definition, {
    input: plain(s.input),
    now: s.now,
    startStates: START_STATES,
    clockMs: start,
    execution,
    token: (_state, _attempt) => {
      const c = interp.calls[used];
      return c === undefined ? "no call of the interpreter" : taskToken(c);
    },
    answer: (t) => {
      const a = s.answers[used++];
      const task = taskOf(t.state);
      const fits = a !== undefined &&
        (a.kind === "ok" || (a.kind === "error" &&
          (a.error === "timeout" || a.error === "failure" || task.errors.some((e) => e.name === a.error))));
      if (fits) {
        const handed = platformAnswer(task, a);
        answers.push(handed);
        return handed;
      }
      const why = a === undefined
        ? `${t.state} asks for answer ${used}, and the scenario has ${s.answers.length}`
        : `${t.state} is handed answer ${used}, which is not one of ${task.name}'s`;
      misfits.push(why);
      const handed: TaskAnswer = { kind: "error", error: "Verify.NoAnswer", cause: why };
      answers.push(handed);
      return handed;
    },
  });
  return { asl, interp, answers, differences: [...compare(f.plan, interp, asl, taskOf), ...misfits] };
}

function compare(plan: Plan, interp: Run, asl: AslRun, taskOf: (state: string) => TaskPlan): string[] {
  const out: string[] = [...asl.problems];
  const n = Math.max(interp.calls.length, asl.tries.length);
  for (let i = 0; i < n; i++) {
    const c: CallRecord | undefined = interp.calls[i];
    const t: TaskTry | undefined = asl.tries[i];
    if (c === undefined || t === undefined) {
      out.push(
        `call ${i + 1}: the interpreter ${
          c === undefined ? "makes no such call" : `calls ${c.task} at ${c.place}`
        }, the state machine ${t === undefined ? "makes none" : `tries ${t.state}`}`,
      );
      break;
    }
    const where = `call ${i + 1} (${c.task} at ${c.place}, attempt ${c.attempt})`;
    if (placeOfState(t.state) !== c.place || t.attempt !== c.attempt) {
      out.push(`${where}: the state machine tries ${t.state}, attempt ${t.attempt}`);
      break;
    }
    if (timestampText(t.atMs) !== c.at) {
      out.push(`${where}: at ${timestampText(t.atMs)}, the interpreter at ${c.at}`);
    }
    const sent = sentView(t);
    const view = viewOf("stepfunctions", plan, c);
    if (JSON.stringify(sent) !== stringifyJson(view)) {
      out.push(`${where}: sends ${JSON.stringify(sent)}\n  the stepfunctions view is ${stringifyJson(view)}`);
    }
    const [wire, transport] = onTheWire(taskOf(t.state), sent, plain(viewOf("transport", plan, c)));
    if (JSON.stringify(wire) !== JSON.stringify(transport)) {
      out.push(
        `${where}: sends on the wire ${JSON.stringify(wire)}\n  the transport view is ${
          JSON.stringify(transport)
        }`,
      );
    }
  }
  const waits = Math.max(interp.waits.length, asl.waits.length);
  for (let i = 0; i < waits; i++) {
    const w = interp.waits[i];
    const a = asl.waits[i];
    const show = (x: { fromMs: number; toMs: number } | undefined) =>
      x === undefined ? "none" : `${timestampText(x.fromMs)} → ${timestampText(x.toMs)}`;
    if (
      w === undefined || a === undefined || placeOfState(a.state) !== w.place || a.fromMs !== w.fromMs ||
      a.toMs !== w.toMs
    ) {
      out.push(
        `wait ${i + 1}: the interpreter ${
          w === undefined ? "none" : `${w.place} ${show(w)}`
        }, the state machine ${a === undefined ? "none" : `${a.state} ${show(a)}`}`,
      );
      break;
    }
  }
  const ending = stringifyJson(endingJson(interp.ending));
  const aslEnding = JSON.stringify(
    asl.ending.kind === "succeed"
      ? { succeed: asl.ending.output }
      : { fail: { error: asl.ending.error, reason: asl.ending.cause } },
  );
  if (ending !== aslEnding) {
    out.push(`the ending: the state machine's ${aslEnding}, the interpreter's ${ending}`);
  }
  if (asl.clockMs !== interp.clockMs) {
    out.push(
      `the clock at the end: ${timestampText(asl.clockMs)}, the interpreter's ${
        timestampText(interp.clockMs)
      }`,
    );
  }
  return out;
}

/** One scenario of one flow, as the differential core plays it. */
interface Job extends DiffJob {
  readonly flow: RunnableFlow;
  readonly definition: Definition;
  readonly scenario: GeneratedScenario;
  readonly execution: string;
}

/** What `deno task verify stepfunctions` found. */
export interface StepFunctionsReport {
  readonly flows: number;
  readonly scenarios: number;
  readonly agreed: number;
  readonly skipped: readonly { readonly path: string; readonly why: string }[];
  readonly ranAgain: readonly string[];
  readonly failures: readonly string[];
}

/** Builds, validates and plays every flow given; `texts` reads a flow's text (its bytes as the build hashes them). */
export async function verifyFlows(
  flows: readonly RunnableFlow[],
  texts: (path: string) => string,
): Promise<StepFunctionsReport> {
  const skipped: { path: string; why: string }[] = [];
  const failures: string[] = [];
  const jobs: Job[] = [];
  let built = 0;
  for (const f of flows) {
    const b = buildDefinition(f, texts(f.path));
    if (b.kind === "skipped") {
      skipped.push({ path: f.path, why: b.why });
      continue;
    }
    built++;
    for (const e of validate(b.definition)) failures.push(`${f.path}: asl-validator: ${e}`);
    const generated = generateFlowScenarios(f.checked, f.plan).scenarios;
    generated.forEach((scenario, i) =>
      jobs.push({
        id: `${f.path}#${i + 1}`,
        where: `${f.path}: ${scenario.name}`,
        flow: f,
        definition: b.definition,
        scenario,
        execution: `run-${i + 1}`,
      })
    );
  }
  const report = await inRounds<Job, Played>(jobs, {
    attempt: async (batch) => {
      const out = new Map<string, Judged<Played>>();
      for (const j of batch) {
        const played = await playScenario(j.flow, j.definition, j.scenario, j.execution);
        out.set(j.id, { played, late: false, problems: [] });
      }
      return out;
    },
    agrees: (_job, _round, played) => played.differences.length === 0,
    show: (_job, _round, played) => {
      const shown = played.differences.join("\n  ");
      return tr(shown, shown);
    },
  });
  return {
    flows: built,
    scenarios: report.scenarios,
    agreed: report.agreed,
    skipped,
    ranAgain: report.ranAgain,
    failures: [...failures, ...report.failures.map((t) => t.en)],
  };
}

/**
 * One flow's scenarios as the runner played them, for LocalStack to play again with the same
 * answers; `definition` is the one to run (a test may hand a broken copy).
 */
export async function replayedGroup(
  f: RunnableFlow,
  built: Definition,
  machine: string,
  definition: Definition = built,
  keep: (s: GeneratedScenario) => boolean = () => true,
): Promise<LocalStackGroup<Replayed>> {
  const replayed: Replayed[] = [];
  for (const [k, s] of generateFlowScenarios(f.checked, f.plan).scenarios.entries()) {
    if (!keep(s)) continue;
    const execution = `run-${k + 1}`;
    const p = await playScenario(f, built, s, execution);
    replayed.push({
      id: `${f.path}: ${s.name}`,
      execution,
      input: plain(s.input),
      now: s.now,
      tries: p.asl.tries.map((t) => ({ state: t.state, sent: sentView(t) })),
      answers: p.answers,
      ending: plain(endingJson(p.interp.ending)),
    });
  }
  return { machine, definition, jobs: replayed };
}

/** What LocalStack did of the scenarios of the flows it was given. */
export interface LocalStackReport {
  readonly scenarios: number;
  readonly agreed: number;
  readonly failures: readonly string[];
}

/**
 * Plays every built flow's scenarios again on LocalStack (`localstack.ts`), handed the answers the
 * runner handed; how many agree, and the differences from the runner's tries and the interpreter's endings.
 */
export async function verifyOnLocalStack(
  flows: readonly RunnableFlow[],
  texts: (path: string) => string,
): Promise<LocalStackReport> {
  const groups: LocalStackGroup<Replayed>[] = [];
  for (const [i, f] of flows.entries()) {
    const b = buildDefinition(f, texts(f.path));
    if (b.kind === "built") groups.push(await replayedGroup(f, b.definition, `flow${i}`));
  }
  const ls = await startLocalStack();
  try {
    const differences = await compareOnLocalStack(ls, groups);
    const parted = new Set(differences.map((d) => d.id));
    const ids = groups.flatMap((g) => g.jobs.map((j) => j.id));
    return {
      scenarios: ids.length,
      agreed: ids.filter((id) => !parted.has(id)).length,
      failures: differences.map((d) => d.text),
    };
  } finally {
    await ls.stop();
  }
}

/** The record of the ASL runner's part of a run. */
export function aslRecord(r: StepFunctionsReport, seconds: number): ProofRecord {
  return {
    platform: "Step Functions: ASL runner",
    of: "flows",
    subjects: r.flows,
    played: r.scenarios,
    agreed: r.agreed,
    excluded: [],
    ranAgain: r.ranAgain,
    skipped: r.skipped.map((s) => ({ what: s.path, reason: s.why })),
    seconds,
  };
}

/** Plays `flows` on LocalStack, or says why it cannot run here; prints its lines, and gives its record. */
async function onLocalStack(flows: readonly RunnableFlow[]): Promise<ProofRecord> {
  const why = await whyNot();
  if (why !== null) {
    console.log(`SKIP: dandori: localstack: ${why}`);
    return skippedRecord("Step Functions: LocalStack", "flows", `LocalStack ${LOCALSTACK_VERSION}`, why);
  }
  const started = performance.now();
  const texts = (p: string) => Deno.readTextFileSync(p);
  const built = flows.map((f) => [f, buildDefinition(f, texts(f.path))] as const);
  let ls: LocalStackReport;
  try {
    ls = await verifyOnLocalStack(flows, texts);
  } catch (e) {
    const failure = e instanceof Error ? e.message : String(e);
    const scenarios = built.reduce(
      (n, [f, b]) => n + (b.kind === "built" ? generateFlowScenarios(f.checked, f.plan).scenarios.length : 0),
      0,
    );
    ls = { scenarios, agreed: 0, failures: [failure] };
  }
  for (const f of ls.failures) console.log(`FAILED localstack ${f}`);
  console.log(
    `stepfunctions: ${ls.agreed} of ${ls.scenarios} scenarios agree on LocalStack ${LOCALSTACK_VERSION} (${
      ((performance.now() - started) / 1000).toFixed(1)
    } s)`,
  );
  return {
    platform: "Step Functions: LocalStack",
    of: "flows",
    subjects: built.filter(([, b]) => b.kind === "built").length,
    played: ls.scenarios,
    agreed: ls.agreed,
    excluded: [],
    ranAgain: [],
    skipped: built.flatMap(([f, b]) => b.kind === "skipped" ? [{ what: f.path, reason: b.why }] : []),
    seconds: secondsSince(started),
  };
}

/** `deno task verify stepfunctions [<flow or dir> …]`: 0 when everything agrees, on the runner and on LocalStack. */
export async function verifyStepFunctions(args: readonly string[]): Promise<Verified> {
  const started = performance.now();
  const flows = flowsNamed("", args, ["tests/dandori/flows/", "examples/"]);
  const r = await verifyFlows(flows, (p) => Deno.readTextFileSync(p));
  for (const s of r.skipped) console.log(`skipped ${s.path}: ${s.why}`);
  for (const f of r.failures) console.log(`FAILED ${f}`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `stepfunctions: ${r.flows} flows built and valid, ${r.skipped.length} skipped (E050); ${r.agreed} of ${r.scenarios} scenarios agree with the interpreter on the JSONata 2.0.6 runner (${seconds} s)`,
  );
  const asl = aslRecord(r, secondsSince(started));
  const ls = await onLocalStack(flows);
  const failed = r.failures.length > 0 || r.agreed !== r.scenarios || ls.agreed !== ls.played;
  return { exit: failed ? 1 : 0, records: [asl, ls] };
}

/**
 * `deno task verify stepfunctions-localstack [<flow or dir> …]`: LocalStack's part of `verify
 * stepfunctions` alone — what CI runs beside the tests, which play the ASL runner's part
 * (tests/dandori/stepfunctions_test.ts).
 */
export async function verifyLocalStack(args: readonly string[]): Promise<Verified> {
  const flows = flowsNamed("", args, ["tests/dandori/flows/", "examples/"]);
  for (const f of flows) {
    const b = buildDefinition(f, Deno.readTextFileSync(f.path));
    if (b.kind === "skipped") console.log(`skipped ${f.path}: ${b.why}`);
  }
  const ls = await onLocalStack(flows);
  return { exit: ls.agreed === ls.played ? 0 : 1, records: [ls] };
}
