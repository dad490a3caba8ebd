/**
 * Recorded Go histories (docs/targets.md#temporal-go): for every example flow outside
 * `stepfunctions/`, the histories of its run with the most calls on the Go runner (every run of it,
 * continuations included) are kept in `tests/histories/go/`, the machine's names neutralised as the
 * TypeScript ones are (`temporal_histories.ts`). A test replays each on the Go code dandori generates
 * today (the run's code copy, in one runner binary: `temporal-go-runner replay <dir>=<file> …`), so a
 * change of the generator that running executions could not replay is seen; `RITSU_BLESS=1` records
 * them anew.
 * @module
 */

import { checkedFlowAt, flowPaths, targetBuilds } from "./flows.ts";
import { TEMPORAL_GO } from "../../targets/dandori/temporal_go/target.ts";
import { subjectOf } from "./temporal.ts";
import { GO_SDK } from "./temporal_sdk.ts";
import { neutral } from "./temporal_histories.ts";
import { type FlowSubject, playFlow, type TemporalJob } from "./temporal_play.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Where the recorded Go histories are, beside the tests. */
export const GO_HISTORY_DIR = "tests/histories/go/";

/** The flows whose Go histories are recorded: every example flow outside `stepfunctions/` the Go target builds. */
export function goHistoryFlows(): string[] {
  return flowPaths(ROOT, "examples/").filter((p) => {
    if (p.includes("/stepfunctions/")) return false;
    const flow = checkedFlowAt(ROOT, p);
    return flow !== null && targetBuilds(TEMPORAL_GO, flow);
  });
}

/** The recorded file of a flow: `tests/histories/go/<dir>/<name>.json`. */
export function goHistoryFile(path: string): string {
  return `${GO_HISTORY_DIR}${path.replace(/^examples\//, "").replace(/\.flow$/, ".json")}`;
}

function subjectAt(path: string): FlowSubject {
  const flow = checkedFlowAt(ROOT, path);
  if (flow === null) throw new Error(`${path} does not check`);
  const subject = subjectOf(flow, GO_SDK);
  if ("skipped" in subject) throw new Error(`${path}: ${subject.skipped}`);
  return subject;
}

/** The job with the most calls (the first of them). */
function longest(subject: FlowSubject): TemporalJob {
  const calls = (j: TemporalJob) => (JSON.parse(j.expected) as { calls: unknown[] }).calls.length;
  return subject.jobs.reduce((best, j) => calls(j) > calls(best) ? j : best);
}

/** Plays the longest run of each of `paths` on a dev server with the Go runner and writes its histories. */
export async function recordGoHistories(bin: string, paths: readonly string[]): Promise<string[]> {
  const subjects = paths.map(subjectAt);
  const { runner, remove } = await GO_SDK.runner(subjects);
  try {
    const written: string[] = [];
    for (const [i, subject] of subjects.entries()) {
      const job = longest(subject);
      const tmp = Deno.makeTempFileSync({ suffix: ".json" });
      try {
        const played = await playFlow(bin, subject, [job], { runner, historiesFile: tmp });
        const r = played.get(job.id);
        if (r === undefined || r.problems.length > 0) {
          throw new Error(`${paths[i]} ${job.run}: ${r?.problems.map((p) => p.en).join("; ")}`);
        }
        const file = goHistoryFile(paths[i]);
        Deno.mkdirSync(`${ROOT}${file.slice(0, file.lastIndexOf("/"))}`, { recursive: true });
        const histories = neutral(JSON.parse(Deno.readTextFileSync(tmp)));
        Deno.writeTextFileSync(
          `${ROOT}${file}`,
          JSON.stringify({ flow: paths[i], run: job.run, histories }, null, 1) + "\n",
        );
        written.push(file);
      } finally {
        Deno.removeSync(tmp);
      }
    }
    return written;
  } finally {
    remove();
  }
}

/** What the runner says of one recorded file: how many histories, and null when they all replay. */
export interface GoReplayed {
  readonly file: string;
  readonly histories: number;
  readonly replay: string | null;
}

/** Replays the recorded Go histories of `paths` on today's code copies, in one runner binary. */
export async function replayGoRecorded(paths: readonly string[]): Promise<GoReplayed[]> {
  const subjects = paths.map(subjectAt);
  const { runner, remove } = await GO_SDK.runner(subjects);
  try {
    const args = subjects.map((s, i) =>
      `${runner.copy(s).dir.split("/").pop()}=${ROOT}${goHistoryFile(paths[i])}`
    );
    const [binary] = runner.command("");
    const out = await new Deno.Command(binary, {
      args: ["replay", ...args],
      stdout: "piped",
      stderr: "piped",
    })
      .output();
    if (!out.success) {
      throw new Error(`the Go runner's replay failed: ${new TextDecoder().decode(out.stderr)}`);
    }
    return new TextDecoder().decode(out.stdout).trim().split("\n").map((l) => JSON.parse(l) as GoReplayed);
  } finally {
    remove();
  }
}
