/**
 * Recorded histories (docs/targets.md#temporal-typescript, docs/targets.md#temporal-python): for
 * every example flow, the history of its run with the most calls (every run of it, continuations
 * included) is kept in `tests/histories/` (the Python SDK's in `tests/histories/python/`), the
 * machine's names neutralised (the worker's identity `@localhost`, the host's name `localhost`, the
 * code copy's and the repository's paths `/tmp/` and `/work/dandori/`). A test replays each on the code dandori generates today (as the run's code
 * copy), so a change of the generator that running executions could not replay is seen; such a
 * change is recorded anew with `RITSU_BLESS=1` and ships as a new version or with Worker
 * Deployment Versioning.
 * @module
 */

import { checkedFlowAt, flowPaths, targetBuilds } from "./flows.ts";
import { TEMPORAL_TYPESCRIPT } from "../../targets/dandori/temporal/target.ts";
import { subjectOf } from "./temporal.ts";
import { type FlowSubject, playFlow, type TemporalJob } from "./temporal_play.ts";
import { makeCopy } from "./temporal_copy.ts";
import { type CopiedSdk, TYPESCRIPT_SDK } from "./temporal_sdk.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Where the recorded histories are, beside the tests. */
export const HISTORY_DIR = "tests/histories/";

/** The flows whose histories are recorded: every example flow Temporal builds. */
export function historyFlows(): string[] {
  return flowPaths(ROOT, "examples/").filter((p) => {
    const flow = checkedFlowAt(ROOT, p);
    return flow !== null && targetBuilds(TEMPORAL_TYPESCRIPT, flow);
  });
}

/** The recorded file of a flow: `tests/histories/<dir>/<name>.json` (`tests/histories/python/…` for Python). */
export function historyFile(path: string, sdk: CopiedSdk = TYPESCRIPT_SDK): string {
  const dir = sdk.language === "typescript" ? HISTORY_DIR : `${HISTORY_DIR}${sdk.language}/`;
  return `${dir}${path.replace(/^examples\//, "").replace(/\.flow$/, ".json")}`;
}

/** A recorded file: the flow, its run, and every history of the run. */
interface Recorded {
  readonly flow: string;
  readonly run: string;
  readonly histories: readonly { readonly workflowId: string; readonly history: unknown }[];
}

function subjectAt(path: string, sdk: CopiedSdk): FlowSubject {
  const flow = checkedFlowAt(ROOT, path);
  if (flow === null) throw new Error(`${path} does not check`);
  const subject = subjectOf(flow, sdk);
  if ("skipped" in subject) throw new Error(`${path}: ${subject.skipped}`);
  return subject;
}

/** The job with the most calls (the first of them). */
function longest(subject: FlowSubject): TemporalJob {
  const calls = (j: TemporalJob) => (JSON.parse(j.expected) as { calls: unknown[] }).calls.length;
  return subject.jobs.reduce((best, j) => calls(j) > calls(best) ? j : best);
}

/** A Go worker's sticky queue: the host's name, then a new UUID each time. */
const GO_STICKY = /^[^:@/]+:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Histories with this machine's names replaced by neutral ones: every `identity` (`<pid>@<host>`),
 * the sticky task queue named after it (or after the host, with a new UUID: Go's), and the paths of the code copy and of the repository in
 * stack traces. Payloads are base64 and left alone.
 */
export function neutral(value: unknown, key = ""): unknown {
  if (Array.isArray(value)) return value.map((v) => neutral(v));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, neutral(v, k)]));
  }
  if (typeof value !== "string") return value;
  if (key === "identity") return "@localhost";
  if (key === "name") {
    // A TypeScript worker's sticky queue is `<pid>@<host>-<uuid>`, a Go worker's `<host>:<uuid>`.
    return value.replace(/^[0-9]+@[^-]+-/, "@localhost-").replace(GO_STICKY, "localhost:sticky");
  }
  if (key === "stackTrace") {
    return value.replaceAll(
      /\/tmp\/(dandori-temporal-copy-[A-Za-z0-9_]+|dandori-temporal-python-[A-Za-z0-9_]+\/dd_flow_[0-9]+)\//g,
      "/tmp/",
    ).replaceAll(
      ROOT,
      "/work/dandori/",
    );
  }
  return value;
}

/** Plays the longest run of `path` on a dev server with `sdk` and writes its histories; throws when it disagrees. */
export async function recordHistories(
  bin: string,
  path: string,
  sdk: CopiedSdk = TYPESCRIPT_SDK,
): Promise<string> {
  const subject = subjectAt(path, sdk);
  const job = longest(subject);
  const tmp = Deno.makeTempFileSync({ suffix: ".json" });
  try {
    const { runner, remove } = await sdk.runner([subject]);
    const played = await playFlow(bin, subject, [job], { historiesFile: tmp, runner }).finally(remove);
    const r = played.get(job.id);
    if (r === undefined || r.problems.length > 0) {
      throw new Error(`${path} ${job.run}: ${r?.problems.map((p) => p.en).join("; ")}`);
    }
    const histories = neutral(JSON.parse(Deno.readTextFileSync(tmp))) as Recorded["histories"];
    const file = historyFile(path, sdk);
    Deno.mkdirSync(`${ROOT}${file.slice(0, file.lastIndexOf("/"))}`, { recursive: true });
    const recorded: Recorded = { flow: path, run: job.run, histories };
    Deno.writeTextFileSync(`${ROOT}${file}`, JSON.stringify(recorded, null, 1) + "\n");
    return file;
  } finally {
    Deno.removeSync(tmp);
  }
}

/**
 * Replays the recorded histories of `path` on today's code copy of `sdk` (for Python, by
 * `runners/temporal_replay.py` in `python3`); how many runs it replayed.
 */
export async function replayRecorded(path: string, sdk: CopiedSdk = TYPESCRIPT_SDK): Promise<number> {
  const file = `${ROOT}${historyFile(path, sdk)}`;
  const recorded = JSON.parse(Deno.readTextFileSync(file)) as Recorded;
  const subject = subjectAt(recorded.flow, sdk);
  const copy = makeCopy(ROOT, subject.files, subject.runs, undefined, sdk.language);
  try {
    if (sdk.language === "python") {
      const out = await new Deno.Command("python3", {
        args: [`${ROOT}verify/dandori/runners/temporal_replay.py`, copy.dir, file],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder();
      if (!out.success) throw new Error(`${path}: ${text.decode(out.stdout)}${text.decode(out.stderr)}`);
      return Number(text.decode(out.stdout).trim());
    }
    const worker = await import(`${copy.dir}/worker.ts`);
    await worker.replay(recorded.histories.map((h) => ({ workflowId: h.workflowId, history: h.history })));
    return recorded.histories.length;
  } finally {
    copy.remove();
  }
}
