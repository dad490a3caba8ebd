/**
 * What `dandori plan`, `dandori run` and `dandori scenarios` do: read a flow once and check it,
 * then print its plan, run scenarios on the reference interpreter, or write the scenarios the
 * generator finds.
 * @module
 */

import { refusedForKeys } from "./keys.ts";
import { type Diagnostic, renderDiagnostic, summaryLine } from "../lang/common/diagnostic.ts";
import { stringifyJson } from "../lang/common/json.ts";
import { type Lang, tr } from "../lang/common/text.ts";
import type { CheckedFlow } from "../lang/dandori/checked.ts";
import { checkFlowBytes } from "../lang/dandori/check.ts";
import { type Run, ScenarioError } from "../lang/dandori/interp.ts";
import { type PlayHow, playScenario } from "../lang/dandori/play.ts";
import { lower } from "../lang/dandori/lower.ts";
import { maskedRun } from "../lang/dandori/masked.ts";
import type { Plan } from "../lang/dandori/plan.ts";
import { planText } from "../lang/dandori/plan_text.ts";
import { runJson, runText } from "../lang/dandori/run.ts";
import { answerJson, type FlowScenario, readFlowScenarios } from "../lang/dandori/scenario.ts";
import {
  generatedJson,
  generateFlowScenarios,
  MAX_FAMILY_TRIES,
  MAX_TRIES,
  tooLargeToExplore,
} from "../lang/dandori/scenarios.ts";
import type { Value } from "../lang/dandori/values.ts";
import type { ViewName } from "../lang/dandori/views.ts";
import { type Io, readInput, writeFile } from "./io.ts";
import { createHash } from "node:crypto";
import { flowReader } from "./flow_files.ts";
import { VERSION } from "../lang/common/version.ts";
import { buildFlow, DANDORI_TARGETS, dandoriTarget } from "../targets/dandori/targets.ts";
import { type BuildOptions, DEFAULT_BUILD, type FlowOrigin } from "../targets/dandori/target.ts";

/** A flow read once and checked, with its plan. */
export interface LoadedFlow {
  readonly checked: CheckedFlow;
  readonly plan: Plan;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Reads a flow and checks it for a command that needs it whole: 1 (and why, on stderr) for a
 * file that cannot be read or has errors, 2 for a flow this dandori cannot read (E018).
 */
export function loadFlow(path: string, commandName: string, io: Io, lang: Lang): LoadedFlow | number {
  const input = readInput(io, path);
  if ("error" in input) {
    io.stderr(`dandori ${commandName}: ${input.error[lang]}\n`);
    return 1;
  }
  return loadFlowBytes(path, input.bytes, io, lang);
}

/** Checks a flow's bytes once read, as `loadFlow` does. */
function loadFlowBytes(path: string, bytes: Uint8Array, io: Io, lang: Lang): LoadedFlow | number {
  const result = checkFlowBytes(path, bytes, { read: flowReader(io, path) });
  if (result.checked === null) {
    io.stderr(result.diagnostics.map((d) => renderDiagnostic(d, lang)).join(""));
    io.stderr(`${summaryLine(path, result.diagnostics.map((d) => d.severity), lang)}\n`);
    return result.unsupported ? 2 : 1;
  }
  return { checked: result.checked, plan: lower(result.checked), diagnostics: result.diagnostics };
}

/** `dandori plan`: the plan as JSON or as text. */
export function planCommand(path: string, json: boolean, io: Io, lang: Lang): number {
  const flow = loadFlow(path, "plan", io, lang);
  if (typeof flow === "number") return flow;
  io.stdout(json ? stringifyJson(flow.plan, 2) + "\n" : planText(flow.plan, lang));
  return 0;
}

/** How `dandori run` runs: the view it prints, and what answers book tasks and child flows. */
export interface RunFlags extends PlayHow {
  readonly view: ViewName;
  readonly json: boolean;
}

/** The answers of a run in the order they were asked: a child flow's own in place of its call's. */
export function askedAnswers(run: Pick<Run, "calls">): Value[] {
  return run.calls.flatMap((c) => c.child === null ? [answerJson(c.answer)] : askedAnswers(c.child));
}

/** The scenario with the answers a run was given written in (what `--books computed` computed). */
export function replayOf(s: FlowScenario, run: Run): Value {
  const out: Record<string, Value> = {};
  if (s.name !== null) out.name = s.name;
  out.input = s.input;
  out.now = s.nowPair ? [...s.now] : s.now[0];
  out.answers = askedAnswers(run);
  return out;
}

/** `dandori run`: every scenario of a file on the reference interpreter. */
export function runCommand(path: string, scenarioPath: string, f: RunFlags, io: Io, lang: Lang): number {
  const source = readInput(io, path);
  if ("error" in source) {
    io.stderr(`dandori run: ${source.error[lang]}\n`);
    return 1;
  }
  const flow = loadFlowBytes(path, source.bytes, io, lang);
  if (typeof flow === "number") return flow;
  // A view of a target says what the target sends, so it is shown only of a flow the target can build.
  const target = DANDORI_TARGETS.find((t) => t.name === f.view);
  if (target !== undefined) {
    const stop = target.check(flow.plan, originOf(path, source.bytes), DEFAULT_BUILD);
    if (stop.length > 0) {
      io.stderr(stop.map((d) => renderDiagnostic(d, lang)).join(""));
      io.stderr(`${summaryLine(path, stop.map((d) => d.severity), lang)}\n`);
      return 1;
    }
  }
  const input = readInput(io, scenarioPath);
  if ("error" in input) {
    io.stderr(`dandori run: ${input.error[lang]}\n`);
    return 1;
  }
  try {
    const scenarios = readFlowScenarios(flow.checked, input.bytes);
    // What is shown has every secret value masked (lang/dandori/masked.ts).
    const runs = scenarios.map((s, i) => maskedRun(flow.checked, s, playScenario(flow.checked, s, i + 1, f)))
      .map(({ scenario, run }) => ({ s: scenario, run }));
    if (f.json) {
      const items = runs.map(({ s, run }) =>
        runJson(path, flow.plan, f.view, s, run, f.books === "computed" ? replayOf(s, run) : null)
      );
      const single = !new TextDecoder().decode(input.bytes).trimStart().startsWith("[");
      io.stdout(stringifyJson(single ? items[0] : items, 2) + "\n");
    } else {
      io.stdout(runs.map(({ s, run }) => runText(path, flow.plan, f.view, s, run, lang)).join("\n"));
    }
    return 0;
  } catch (e) {
    if (!(e instanceof ScenarioError)) throw e;
    io.stderr(`dandori run: ${scenarioPath}: ${e.text[lang]}\n`);
    return 1;
  }
}

/** `dandori scenarios`: the generated scenarios as one JSON array, on stdout or in `<dir>/<flow>.scenarios.json`. */
export function scenariosCommand(path: string, out: string | undefined, io: Io, lang: Lang): number {
  const flow = loadFlow(path, "scenarios", io, lang);
  if (typeof flow === "number") return flow;
  const generated = generateFlowScenarios(flow.checked, flow.plan);
  if (generated.tooLarge) {
    io.stderr(`dandori scenarios: ${tooLargeToExplore(path)[lang]}\n`);
    return 1;
  }
  if (generated.capped) {
    io.stderr(
      `dandori scenarios: ${
        tr(
          `${path}: the exploration stopped after ${MAX_TRIES} runs; some variations were not tried`,
          `${path}: 探索は ${MAX_TRIES} 回の実行で止まりました。試していない組み合わせがあります`,
        )[lang]
      }\n`,
    );
  }
  if (generated.familiesCapped) {
    io.stderr(
      `dandori scenarios: ${
        tr(
          `${path}: the families after the exploration stopped after ${MAX_FAMILY_TRIES} runs; some have no run (an input or a result just outside a range, an error retried until the retries run out)`,
          `${path}: 探索のあとの実行は ${MAX_FAMILY_TRIES} 回で止まりました。実行の無いものがあります(範囲のすぐ外の入力や結果、リトライが尽きるまでのエラー)`,
        )[lang]
      }\n`,
    );
  }
  const text = stringifyJson(generated.scenarios.map(generatedJson), 2) + "\n";
  if (out === undefined) {
    io.stdout(text);
    return 0;
  }
  const stem = (path.split("/").pop() ?? path).replace(/\.flow$/, "");
  const target = `${out.replace(/\/$/, "")}/${stem}.scenarios.json`;
  const failed = writeFile(io, target, text);
  if (failed !== null) {
    io.stderr(`dandori scenarios: ${failed[lang]}\n`);
    return 1;
  }
  io.stderr(`${target}\n`);
  return 0;
}

/** Where a flow came from, for a target's header and diagnostics. */
function originOf(path: string, bytes: Uint8Array): FlowOrigin {
  return {
    file: path.split("/").pop() ?? path,
    path,
    text: new TextDecoder().decode(bytes),
    sha: createHash("sha256").update(bytes).digest("hex").slice(0, 16),
    version: VERSION,
  };
}

/**
 * `dandori build`: a target's files for a flow, all of them or none (the flow read once). A target
 * that writes YAML is handed npm:yaml's writer, loaded here only when such a build runs.
 */
export function buildCommand(
  path: string,
  target: string,
  out: string,
  options: BuildOptions,
  io: Io,
  lang: Lang,
): number | Promise<number> {
  if (!dandoriTarget(target).yaml) return build(path, target, out, options, io, lang);
  return import("yaml").then((m) => build(path, target, out, { ...options, yaml: m.stringify }, io, lang));
}

function build(
  path: string,
  target: string,
  out: string,
  options: BuildOptions,
  io: Io,
  lang: Lang,
): number {
  if (options.express && !dandoriTarget(target).express) {
    io.stderr(
      `dandori build: ${
        tr(
          `--express is for --target stepfunctions, not ${target}`,
          `--express は --target stepfunctions のものです(${target} には使えません)`,
        )[lang]
      }\n`,
    );
    return 2;
  }
  const input = readInput(io, path);
  if ("error" in input) {
    io.stderr(`dandori build: ${input.error[lang]}\n`);
    return 1;
  }
  const flow = loadFlowBytes(path, input.bytes, io, lang);
  if (typeof flow === "number") return flow;
  if (refusedForKeys("dandori build", path, flow.diagnostics, io, lang)) return 1;
  const result = buildFlow(flow.plan, target, originOf(path, input.bytes), options);
  if ("diagnostics" in result) {
    io.stderr(result.diagnostics.map((d) => renderDiagnostic(d, lang)).join(""));
    io.stderr(`${summaryLine(path, result.diagnostics.map((d) => d.severity), lang)}\n`);
    return 1;
  }
  const files = new Map([...result.files].map(([name, text]) => [`${out.replace(/\/$/, "")}/${name}`, text]));
  const failed = io.writeFiles(files);
  if (failed !== null) {
    io.stderr(`dandori build: ${failed[lang]}\n`);
    return 1;
  }
  for (const p of files.keys()) io.stderr(`${p}\n`);
  return 0;
}
