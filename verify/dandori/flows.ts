/**
 * The flows the dandori verifications and benchmarks play: every `.flow` under some directories
 * that passes the check, read from disk with its books and children, with its plan.
 * @module
 */

import { createRequire } from "node:module";
import { isAbsolute, resolve } from "node:path";
import { checkFlow } from "../../lang/dandori/check.ts";
import type { CheckedFlow } from "../../lang/dandori/checked.ts";
import { type FileRead, type FlowCheck, NO_SUCH_FILE } from "../../lang/dandori/env.ts";
import { stringifyJson } from "../../lang/common/json.ts";
import { type Run, runFlow } from "../../lang/dandori/interp.ts";
import { lower } from "../../lang/dandori/lower.ts";
import type { Plan } from "../../lang/dandori/plan.ts";
import { type FlowScenario, readFlowScenarios, ScenarioAnswers } from "../../lang/dandori/scenario.ts";
import { generatedJson, generateFlowScenarios } from "../../lang/dandori/scenarios.ts";
import { type Pb, useProtobufjs } from "../../lang/dandori/proto.ts";
import { type DandoriTarget, DEFAULT_BUILD } from "../../targets/dandori/target.ts";

// A flow's `use proto` is read by protobufjs from node_modules, which `deno task verify` installs, as
// the command line reads it (commands/dandori.ts).
useProtobufjs(() => createRequire(import.meta.url)("protobufjs") as Pb);

/** A flow that passed the check, with its plan. */
export interface RunnableFlow {
  /** The path as found: absolute, or relative to `root` (to the working directory when `root` is ""). */
  readonly path: string;
  readonly checked: CheckedFlow;
  readonly plan: Plan;
}

/** The file name a flow's generated code names (its origin's `file`). */
export function fileOf(flow: RunnableFlow): string {
  return flow.path.split("/").pop() ?? flow.path;
}

/** True when `target` builds the flow: its check stops nothing (the origin only names the file). */
export function targetBuilds(target: DandoriTarget, flow: RunnableFlow): boolean {
  const origin = { file: fileOf(flow), path: flow.path, text: "", sha: "0".repeat(16), version: "check" };
  return target.check(flow.plan, origin, DEFAULT_BUILD).length === 0;
}

/** Where `path` is read: itself when absolute, else under `root` (a directory ending in `/`, or ""). */
function under(root: string, path: string): string {
  return isAbsolute(path) ? path : `${root}${path}`;
}

/** Every `.flow` file under `dir` (a path ending in `/`), sorted. */
export function flowPaths(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (sub: string) => {
    for (const e of Deno.readDirSync(under(root, `${dir}${sub}`))) {
      if (e.isDirectory) walk(`${sub}${e.name}/`);
      else if (e.name.endsWith(".flow")) out.push(`${dir}${sub}${e.name}`);
    }
  };
  walk("");
  return out.sort();
}

/** The whole check of the flow at `path` (read from `root`, its books and children too), errors and all. */
export function flowCheckAt(root: string, path: string): FlowCheck {
  const read = (p: string): FileRead => {
    try {
      return { bytes: Deno.readFileSync(under(root, p)), real: Deno.realPathSync(under(root, p)) };
    } catch {
      return NO_SUCH_FILE;
    }
  };
  const got = read(path);
  if (!("bytes" in got)) throw new Error(`${path} cannot be read`);
  return checkFlow(path, new TextDecoder().decode(got.bytes), { read });
}

/** Checks the flow at `path` (read from `root`); null when it has errors. */
export function checkedFlowAt(root: string, path: string): RunnableFlow | null {
  const result = flowCheckAt(root, path);
  return result.checked === null ? null : { path, checked: result.checked, plan: lower(result.checked) };
}

/** Every flow under `dirs` that passes the check, sorted by path. */
export function runnableFlows(root: string, dirs: readonly string[]): RunnableFlow[] {
  return dirs.flatMap((d) => flowPaths(root, d)).flatMap((p) => {
    const f = checkedFlowAt(root, p);
    return f === null ? [] : [f];
  });
}

/**
 * The flows a `deno task verify <target> [<flow or dir> …]` plays: those named (files, and
 * directories searched for `.flow` files, anywhere: a relative path is read from the working
 * directory, and one under `root` is named from there), else every flow under `dirs`; those that
 * do not check are left out.
 */
export function flowsNamed(root: string, args: readonly string[], dirs: readonly string[]): RunnableFlow[] {
  if (args.length === 0) return runnableFlows(root, dirs);
  const paths = args.flatMap((a) => {
    const full = resolve(a);
    const named = root !== "" && full.startsWith(root) ? full.slice(root.length) : root === "" ? a : full;
    return Deno.statSync(under(root, named)).isDirectory
      ? flowPaths(root, named.endsWith("/") ? named : `${named}/`)
      : [named];
  });
  return paths.flatMap((p) => {
    const f = checkedFlowAt(root, p);
    return f === null ? [] : [f];
  });
}

/** One generated scenario of a flow as the reference interpreter ran it: its number (1, 2, …), the scenario and the run. */
export interface GeneratedRun {
  readonly n: number;
  readonly scenario: FlowScenario;
  readonly run: Run;
}

/**
 * Every generated scenario of `f`, read back as a scenario file is read and run on the reference
 * interpreter as the differential runs name it (the execution `run-<n>`, child flows not run), every
 * answer of it used.
 */
export function generatedRuns(f: RunnableFlow): GeneratedRun[] {
  const generated = generateFlowScenarios(f.checked, f.plan).scenarios.map(generatedJson);
  return readFlowScenarios(f.checked, stringifyJson(generated)).map((scenario, i) => {
    const answers = new ScenarioAnswers(scenario.answers);
    const run = runFlow(f.checked, {
      input: scenario.input,
      now: scenario.now,
      answers,
      execution: `run-${i + 1}`,
      children: false,
    });
    answers.finish();
    return { n: i + 1, scenario, run };
  });
}
