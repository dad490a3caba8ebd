/**
 * The Temporal SDKs the differential run plays (docs/targets.md#the-runner-contract): for each, the
 * target that writes its package, the language of the package's code copy (`temporal_copy.ts`), and
 * the runner that implements `temporal_contract.ts` in that SDK's language. Everything else of the
 * run (the interpreter, the scenarios, the server, the comparison) is the same for every SDK.
 * @module
 */

import type { DandoriTarget } from "../../targets/dandori/target.ts";
import { TEMPORAL_TYPESCRIPT } from "../../targets/dandori/temporal/target.ts";
import { TEMPORAL_PYTHON } from "../../targets/dandori/temporal_python/target.ts";
import type { CopyLanguage } from "./temporal_copy.ts";
import type { Platform } from "../summary.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** One SDK: its target, its platform's name in the proof's records, its copy's language, its runner. */
export interface TemporalSdk {
  readonly target: DandoriTarget;
  /** The platform as README's table "What is proven where" and `verify/summary.ts` name it. */
  readonly platform: Platform;
  readonly language: CopyLanguage;
  /** The program and arguments that run the runner on a jobs file. */
  runner(jobsFile: string): { readonly program: string; readonly args: readonly string[] };
}

/** The TypeScript SDK: `temporal_runner.ts` under Deno. */
export const TYPESCRIPT_SDK: TemporalSdk = {
  target: TEMPORAL_TYPESCRIPT,
  platform: "Temporal TypeScript",
  language: "typescript",
  runner: (jobsFile) => ({
    program: Deno.execPath(),
    args: ["run", "-A", "--config", `${ROOT}deno.json`, `${ROOT}verify/dandori/temporal_runner.ts`, jobsFile],
  }),
};

/** The Python SDK: `runners/temporal_runner.py` under `python3` with `temporalio` 1.35. */
export const PYTHON_SDK: TemporalSdk = {
  target: TEMPORAL_PYTHON,
  platform: "Temporal Python",
  language: "python",
  runner: (jobsFile) => ({
    program: "python3",
    args: [`${ROOT}verify/dandori/runners/temporal_runner.py`, jobsFile],
  }),
};
