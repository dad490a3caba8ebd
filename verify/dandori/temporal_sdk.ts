/**
 * The Temporal SDKs the differential run plays (docs/targets.md#the-runner-contract): for each, the
 * target that writes its package, its platform in the proof's records, what it needs on the machine,
 * the runner that implements `temporal_contract.ts` in the SDK's language (with the code copies it
 * plays), and how a run is compared. Everything else of the run (the interpreter, the scenarios, the
 * server, the comparison) is the same for every SDK.
 * @module
 */

import type { DandoriTarget } from "../../targets/dandori/target.ts";
import { TEMPORAL_TYPESCRIPT } from "../../targets/dandori/temporal/target.ts";
import { TEMPORAL_PYTHON } from "../../targets/dandori/temporal_python/target.ts";
import { TEMPORAL_GO } from "../../targets/dandori/temporal_go/target.ts";
import { type CopyLanguage, makeCopy } from "./temporal_copy.ts";
import { fileOf } from "./flows.ts";
import { type FlowSubject, type RoundRunner, typescriptRunner } from "./temporal_play.ts";
import { buildGoRunner, hasGo } from "./temporal_go_build.ts";
import type { Platform } from "../summary.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** What an SDK lacks on this machine: the tool, and why (printed as `SKIP: <tool>: <why>`). */
export interface Lack {
  readonly tool: string;
  readonly why: string;
}

/** A Temporal SDK the flows are played on: its target, its runner, and how a run is compared. */
export interface TemporalSdk {
  readonly target: DandoriTarget;
  /** The platform as README's table "What is proven where" and `verify/summary.ts` name it. */
  readonly platform: Platform;
  /** The language of its packages: their code copy's (`temporal_copy.ts`), and its recorded histories' folder. */
  readonly language: CopyLanguage | "go";
  /** What it lacks here, or null. */
  missing(): Promise<Lack | null>;
  /** The runner of a verification's flows, made once before its rounds; `mutate` changes every code copy. */
  runner(
    subjects: readonly FlowSubject[],
    mutate?: (files: Map<string, string>) => void,
  ): Promise<{ readonly runner: RoundRunner; remove(): void }>;
  /**
   * Whether its runs are compared on the durations the flow asks for (`temporal.ts`'s `durationsOf`):
   * its code copy keeps what it shortens and its runner reports it (`RunResult.timers`,
   * `SentCall.startToCloseSeconds`). TypeScript's does; Python's and Go's copies shorten without keeping.
   */
  readonly durations: boolean;
  /**
   * A run's calls, ending and cases as compared: as written, or (where the SDK's objects have no key
   * order, Go's maps) with every object's keys sorted.
   */
  compared(json: string): string;
}

/** An SDK whose code copy `temporal_copy.ts` makes (TypeScript, Python): its recorded histories are `temporal_histories.ts`'s. */
export type CopiedSdk = TemporalSdk & { readonly language: CopyLanguage };

/** The TypeScript SDK: each round writes its copies; objects keep the order the workflow wrote. */
export const TYPESCRIPT_SDK: CopiedSdk = {
  target: TEMPORAL_TYPESCRIPT,
  platform: "Temporal TypeScript",
  language: "typescript",
  durations: true,
  missing: () => Promise.resolve(null),
  runner: (_subjects, mutate) => Promise.resolve({ runner: typescriptRunner(mutate), remove: () => {} }),
  compared: (json) => json,
};

/** Why `python3` cannot import `temporalio` 1.35, the SDK the temporal-python packages are written for; null when it can. */
async function temporalioLacks(): Promise<Lack | null> {
  const how = "pip install -r verify/requirements-temporal.txt";
  try {
    const out = await new Deno.Command("python3", {
      args: ["-c", "import temporalio; print(temporalio.__version__)"],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const version = new TextDecoder().decode(out.stdout).trim();
    if (out.success && version.startsWith("1.35.")) return null;
    return {
      tool: "temporalio",
      why: `${out.success ? `${version} is installed, not 1.35` : "not installed"} (${how})`,
    };
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    return { tool: "python3", why: `not on this machine (${how})` };
  }
}

/**
 * The Python SDK: each round writes its copies of the packages and starts `runners/temporal_runner.py`
 * under `python3` with `temporalio` 1.35; objects keep the order the workflow wrote (the packages'
 * payload converter keeps it).
 */
export const PYTHON_SDK: CopiedSdk = {
  target: TEMPORAL_PYTHON,
  platform: "Temporal Python",
  language: "python",
  durations: false,
  missing: temporalioLacks,
  runner: (_subjects, mutate) =>
    Promise.resolve({
      runner: {
        copy: (subject) => makeCopy(ROOT, subject.files, subject.runs, mutate, "python"),
        command: (file) => ["python3", `${ROOT}verify/dandori/runners/temporal_runner.py`, file],
      },
      remove: () => {},
    }),
  compared: (json) => json,
};

/** Every object of a JSON value with its keys sorted. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value).sort().map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
  );
}

/**
 * The Go SDK: one binary holds every flow's copy, built before the first round; a Go map (what the
 * generated code carries values in) has no key order, so objects are compared with sorted keys.
 */
export const GO_SDK: TemporalSdk = {
  target: TEMPORAL_GO,
  platform: "Temporal Go",
  language: "go",
  durations: false,
  missing: async () => (await hasGo()) ? null : { tool: "go", why: "the go command is not installed" },
  runner: async (subjects, mutate) => {
    const built = await buildGoRunner(
      subjects.map((s) => ({ plan: s.flow.plan, file: fileOf(s.flow), files: s.files, runs: s.runs })),
      mutate,
    );
    const dirs = new Map(subjects.map((s, i) => [s, built.dirs[i]]));
    return {
      runner: {
        copy: (subject) => ({ dir: dirs.get(subject) ?? "", remove: () => {} }),
        command: (file) => [built.binary, file],
      },
      remove: built.remove,
    };
  },
  compared: (json) => JSON.stringify(sortedKeys(JSON.parse(json))),
};
