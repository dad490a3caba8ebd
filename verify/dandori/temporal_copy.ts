/**
 * The code copy a Temporal run plays (docs/targets.md#temporal-typescript): the generated package written into a temp
 * dir beside a link to the repository's `node_modules` (the worker's bundler resolves
 * `@temporalio/*` from there), with what real time would make long shortened in `runtime.ts` and
 * `io.ts` — every durable timer to at most 10 ms, an event's wait to at most 5 s (the runner must see
 * it waiting first), activities' and children's timeouts to 20 s, the heartbeat timeout to 5 s (a
 * timed-out activity is one that stops heartbeating) with a heartbeat every 100 ms, parallel
 * iterations one at a time, and `CONTINUE_AT` to 1 so every outermost iteration after a run's first
 * continues as new — and the clock set to each run's scenario `now` (its start, then every later
 * read). Each change must find its text exactly once, or the copy is not made. The callback's hand-on
 * activity keeps its generated 60 s. @module
 */

import { stringifyJson } from "../../lang/common/json.ts";

/** A run's id and its scenario's `now`: the start, then every later read. */
export interface CopyRun {
  readonly id: string;
  readonly now: readonly [string, string];
}

/** The heartbeat timeout of the copy: a timed-out activity takes this long. */
export const COPY_HEARTBEAT_TIMEOUT_MS = 5_000;

/** What the copy changes: file, text as generated, text in the copy. */
const CHANGES: readonly (readonly [string, string, string])[] = [
  [
    "runtime.ts",
    "export function ms(seconds: number): number {\n  return seconds * 1000;",
    "export function ms(seconds: number): number {\n  return Math.min(seconds * 1000, 10);",
  ],
  [
    "runtime.ts",
    "export function eventMs(seconds: number): number {\n  return seconds * 1000;",
    "export function eventMs(seconds: number): number {\n  return Math.min(seconds * 1000, 5_000);",
  ],
  [
    "runtime.ts",
    "export function activityMs(seconds: number): number {\n  return seconds * 1000;",
    "export function activityMs(seconds: number): number {\n  return Math.min(seconds * 1000, 20_000);",
  ],
  ["runtime.ts", "  return seconds === null ? null : seconds * 1000;", "  return 20_000;"],
  [
    "runtime.ts",
    "export function width(k: number): number {\n  return k;",
    "export function width(k: number): number {\n  return 1;",
  ],
  ["runtime.ts", "export const CONTINUE_AT = 10_000;", "export const CONTINUE_AT = 1;"],
  [
    "runtime.ts",
    "export const HEARTBEAT_TIMEOUT_MS = 30_000;",
    `export const HEARTBEAT_TIMEOUT_MS = ${COPY_HEARTBEAT_TIMEOUT_MS};`,
  ],
  [
    "runtime.ts",
    "export function startNow(): string {\n  return timestampText(Date.now());",
    'export function startNow(): string {\n  return DD_NOWS[workflowInfo().workflowId.split("/")[0]][0];',
  ],
  [
    "runtime.ts",
    "export function now(): string {\n  return timestampText(Date.now());",
    'export function now(): string {\n  return DD_NOWS[workflowInfo().workflowId.split("/")[0]][1];',
  ],
  ["io.ts", "export const HEARTBEAT_EVERY_MS = 10_000;", "export const HEARTBEAT_EVERY_MS = 100;"],
];

/** Applies the copy's changes to the generated files; throws when a text is not found exactly once. */
export function copyFiles(files: ReadonlyMap<string, string>, runs: readonly CopyRun[]): Map<string, string> {
  const out = new Map(files);
  for (const [file, from, to] of CHANGES) {
    const text = out.get(file);
    if (text === undefined || text.split(from).length !== 2) {
      throw new Error(`the code copy: ${file} does not have ${JSON.stringify(from)} exactly once`);
    }
    out.set(file, text.replace(from, to));
  }
  const nows = Object.fromEntries(runs.map((r) => [r.id, [...r.now]]));
  const runtime = out.get("runtime.ts") ?? "";
  out.set(
    "runtime.ts",
    `${runtime}\n/** The test copy's clock: each run's scenario now. */\nconst DD_NOWS: { readonly [run: string]: readonly [string, string] } = ${
      stringifyJson(nows)
    };\n`,
  );
  return out;
}

/** The child stubs: each child type a workflow that asks the activity `dandori_child_stub` for its ending. */
function childStubs(types: readonly string[]): string {
  return `import { ActivityFailure, ApplicationFailure, proxyActivities, workflowInfo } from "@temporalio/workflow";

const { dandori_child_stub } = proxyActivities<{ dandori_child_stub(c: unknown): Promise<unknown> }>({
  startToCloseTimeout: "60 seconds",
  heartbeatTimeout: "10 seconds",
  retry: { maximumAttempts: 1 },
});

async function stub(input: unknown): Promise<unknown> {
  const i = workflowInfo();
  try {
    return await dandori_child_stub({ child: i.workflowType, id: i.workflowId, queue: i.taskQueue, input });
  } catch (e) {
    if (e instanceof ActivityFailure && e.cause instanceof ApplicationFailure) {
      throw ApplicationFailure.create({ type: e.cause.type, message: e.cause.message, nonRetryable: true });
    }
    throw e;
  }
}

${[...new Set(types)].map((t) => `export const ${t} = stub;`).join("\n")}
`;
}

/** A copy on disk, and how to remove it. */
export interface Copy {
  readonly dir: string;
  /** How long a stub blocks a timed-out activity: past the copy's heartbeat timeout. */
  readonly blockMs: number;
  remove(): void;
}

/** Writes the copy of `files` (changed by `mutate` when given, as a test breaks the code) into a temp dir. */
export function makeCopy(
  root: string,
  files: ReadonlyMap<string, string>,
  runs: readonly CopyRun[],
  children: readonly { readonly type: string }[],
  mutate?: (files: Map<string, string>) => void,
): Copy {
  const copied = copyFiles(files, runs);
  mutate?.(copied);
  const dir = Deno.makeTempDirSync({ prefix: "dandori-temporal-copy-" });
  Deno.symlinkSync(`${root}node_modules`, `${dir}/node_modules`);
  for (const [name, text] of copied) Deno.writeTextFileSync(`${dir}/${name}`, text);
  if (children.length > 0) {
    Deno.writeTextFileSync(
      `${dir}/child_stubs.ts`,
      childStubs(children.map((c) => c.type)),
    );
  }
  return {
    dir,
    blockMs: COPY_HEARTBEAT_TIMEOUT_MS + 2_000,
    remove: () => Deno.removeSync(dir, { recursive: true }),
  };
}
