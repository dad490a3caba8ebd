/**
 * The code copy a Temporal run plays (docs/targets.md#temporal-typescript,
 * docs/targets.md#temporal-python): the generated package written into a temp dir (a TypeScript one
 * beside a link to the repository's `node_modules`, where the worker's bundler resolves `@temporalio/*`),
 * with what real time would make long shortened in `runtime.ts` and `io.ts` (`runtime.py` for Python,
 * the same changes by its own texts) — every durable timer to at most `COPY_TIMER_MS`, an event's wait to at most
 * `COPY_EVENT_WAIT_MS` (the runner must see it waiting first), activities' timeouts to
 * `COPY_ACTIVITY_MS` (not in TypeScript: see below) and children's to `COPY_CHILD_MS`, the heartbeat timeout to
 * `COPY_HEARTBEAT_TIMEOUT_MS` (a timed-out activity is one that stops heartbeating) with a heartbeat
 * every `COPY_HEARTBEAT_MS`, parallel iterations one at a time, and `CONTINUE_AT` to 1 so every
 * outermost iteration after a run's first continues as new — and the clock set to each run's scenario
 * `now` (its start, then every later read). Each change must find its text exactly once, or the copy
 * is not made. The callback's hand-on activity keeps its generated 60 s.
 *
 * A TypeScript copy also keeps what it shortens, so the run is compared on the durations the flow asks
 * for without waiting them (`TemporalSdk.durations`): each timer of a retry's delay and of a
 * `wait <duration>` carries, as its summary (the history's `userMetadata`), the seconds the workflow
 * asked of `ms` (`{"retry": s}`, `{"wait": s}`; `workflow.ts`'s `wf` is `copy_workflow.ts`, whose
 * `sleep` adds it); and its activities keep their `startToCloseTimeout` as generated (a stub answers at
 * once or stops heartbeating, so the heartbeat timeout, not this one, ends an attempt the scenario times
 * out), which the stub records with each call. A `wait until`, a callback's and an event's wait are
 * not kept: the copy's workflow clock is real time, so what they ask depends on when the run ran.
 * @module
 */

import { stringifyJson } from "../../lang/common/json.ts";

/** A run's id and its scenario's `now`: the start, then every later read. */
export interface CopyRun {
  readonly id: string;
  readonly now: readonly [string, string];
}

/** The longest durable timer (a wait, a retry's delay, a callback's wait): the run goes on at once. */
export const COPY_TIMER_MS = 10;

/**
 * The heartbeat timeout of the copy: an activity the scenario times out takes this long, 352 of them
 * in the scenarios and 16 in one run (`examples/billing/billing.flow`). 1 s made 15-24 % of the runs
 * late beside other work on 2 cores (a busy server answered a heartbeat or a completion too late);
 * 3 s made none of 804 at a load of 7-12, and 1.6 % of a subset at a load of 31; 5 s leaves CI's
 * run, where the whole test suite runs beside it, the same margin.
 */
export const COPY_HEARTBEAT_TIMEOUT_MS = 5_000;

/** How often an activity of the copy heartbeats, and the most the SDK may hold a heartbeat back. */
export const COPY_HEARTBEAT_MS = 100;

/**
 * The longest wait for an event: the runner must see the run waiting (it asks every second,
 * `EVENT_POLL_MS` of temporal_play.ts) and send before it ends; 8 waits of the scenarios time out. 5 s
 * (asked every 200 ms then) left waits_run.flow's event unsent in 2 runs of 18 (not seen as late: the
 * run went on past the wait) with the three Temporal runs, the tests and other work beside each other
 * at a load of 24.
 */
export const COPY_EVENT_WAIT_MS = 20_000;

/**
 * Every child's timeout: a child stub answers at once, so one the scenario times out (12 of them) takes
 * this long; 3 s timed children out that had not started yet on a busy machine.
 */
export const COPY_CHILD_MS = 20_000;

/** The longest `startToCloseTimeout` of an activity (a stub answers at once, or stops heartbeating). */
export const COPY_ACTIVITY_MS = 20_000;

/** The language of a generated package: which texts its copy changes. */
export type CopyLanguage = "typescript" | "python";

/** A change of the copy: file, text as generated, text in the copy. */
type Change = readonly [string, string, string];

/** What the copy of a TypeScript package changes. */
const TYPESCRIPT_CHANGES: readonly Change[] = [
  [
    "runtime.ts",
    "export function ms(seconds: number): number {\n  return seconds * 1000;",
    `export function ms(seconds: number): number {\n  DD_ASKED.seconds = seconds;\n  return Math.min(seconds * 1000, ${COPY_TIMER_MS});`,
  ],
  [
    "runtime.ts",
    "      await sleep(ms(retryDelayMs(r, tried + 1) / 1000));",
    '      await sleep(ms(retryDelayMs(r, tried + 1) / 1000), askedTimer("retry"));',
  ],
  ["workflow.ts", 'import * as wf from "@temporalio/workflow";', 'import * as wf from "./copy_workflow.ts";'],
  [
    "runtime.ts",
    "export function eventMs(seconds: number): number {\n  return seconds * 1000;",
    `export function eventMs(seconds: number): number {\n  return Math.min(seconds * 1000, ${COPY_EVENT_WAIT_MS});`,
  ],
  ["runtime.ts", "  return seconds === null ? null : seconds * 1000;", `  return ${COPY_CHILD_MS};`],
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
  [
    "io.ts",
    "export const HEARTBEAT_EVERY_MS = 10_000;",
    `export const HEARTBEAT_EVERY_MS = ${COPY_HEARTBEAT_MS};`,
  ],
];

/**
 * What the copy of a Python package changes: the functions of `runtime.py` whose `def` and `return`
 * lines follow each other, and its constants. The clock reads `workflow` of `runtime.py`'s imports.
 */
const PYTHON_CHANGES: readonly Change[] = [
  [
    "runtime.py",
    "def ms(seconds: float) -> float:\n    return seconds * 1000\n",
    `def ms(seconds: float) -> float:\n    return min(seconds * 1000, ${COPY_TIMER_MS})\n`,
  ],
  [
    "runtime.py",
    "def event_ms(seconds: float) -> float:\n    return seconds * 1000\n",
    `def event_ms(seconds: float) -> float:\n    return min(seconds * 1000, ${COPY_EVENT_WAIT_MS})\n`,
  ],
  [
    "runtime.py",
    "def activity_ms(seconds: float) -> float:\n    return seconds * 1000\n",
    `def activity_ms(seconds: float) -> float:\n    return min(seconds * 1000, ${COPY_ACTIVITY_MS})\n`,
  ],
  ["runtime.py", "    return None if seconds is None else seconds * 1000\n", `    return ${COPY_CHILD_MS}\n`],
  ["runtime.py", "def width(k: int) -> int:\n    return k\n", "def width(k: int) -> int:\n    return 1\n"],
  ["runtime.py", "CONTINUE_AT = 10_000\n", "CONTINUE_AT = 1\n"],
  ["runtime.py", "HEARTBEAT_TIMEOUT_MS = 30_000\n", `HEARTBEAT_TIMEOUT_MS = ${COPY_HEARTBEAT_TIMEOUT_MS}\n`],
  ["runtime.py", "HEARTBEAT_EVERY_MS = 10_000\n", `HEARTBEAT_EVERY_MS = ${COPY_HEARTBEAT_MS}\n`],
  [
    "runtime.py",
    "def start_now() -> str:\n    return timestamp_text(workflow.now().timestamp() * 1000)\n",
    'def start_now() -> str:\n    return DD_NOWS[workflow.info().workflow_id.split("/")[0]][0]\n',
  ],
  [
    "runtime.py",
    "def now() -> str:\n    return timestamp_text(workflow.now().timestamp() * 1000)\n",
    'def now() -> str:\n    return DD_NOWS[workflow.info().workflow_id.split("/")[0]][1]\n',
  ],
];

/**
 * What a TypeScript copy appends to `runtime.ts` to keep what the flow asks of a timer: the seconds of
 * the last `ms` (a timer's length is asked of `ms` just before the timer starts), and a timer's summary.
 */
const TYPESCRIPT_ASKED = `
/** The test copy's record of the seconds the flow last asked of \`ms\`, for the timer that follows. */
const DD_ASKED = { seconds: 0 };

/** The options of a timer of the test copy: its summary is what the flow asked, by kind. */
export function askedTimer(kind: "retry" | "wait"): { summary: string } {
  return { summary: JSON.stringify({ [kind]: DD_ASKED.seconds }) };
}
`;

/** The module a TypeScript copy's \`workflow.ts\` takes as \`wf\`: the SDK's, with a \`wait\`'s timer keeping what it asked. */
const TYPESCRIPT_COPY_WORKFLOW =
  `// The test copy's \`wf\` (verify/dandori/temporal_copy.ts): the SDK's workflow API, with \`sleep\`
// giving its timer the summary of what the flow asked of \`ms\` (\`workflow.ts\` calls it for a \`wait\` alone).
import { sleep as sdkSleep } from "@temporalio/workflow";
import { askedTimer } from "./runtime.ts";

export * from "@temporalio/workflow";

export function sleep(ms: number): Promise<void> {
  return sdkSleep(ms, askedTimer("wait"));
}
`;

/**
 * Each language's changes, the file its clock is appended to, that clock's declaration, what else is
 * appended to that file, and the files the copy adds.
 */
const LANGUAGES: Record<
  CopyLanguage,
  {
    changes: readonly Change[];
    runtime: string;
    nows: string;
    appended: string;
    added: Readonly<Record<string, string>>;
  }
> = {
  typescript: {
    changes: TYPESCRIPT_CHANGES,
    runtime: "runtime.ts",
    appended: TYPESCRIPT_ASKED,
    added: { "copy_workflow.ts": TYPESCRIPT_COPY_WORKFLOW },
    nows:
      "/** The test copy's clock: each run's scenario now. */\nconst DD_NOWS: { readonly [run: string]: readonly [string, string] } =",
  },
  python: {
    changes: PYTHON_CHANGES,
    runtime: "runtime.py",
    nows: "#: The test copy's clock: each run's scenario now.\nDD_NOWS: dict[str, list[str]] =",
    appended: "",
    added: {},
  },
};

/** Applies the copy's changes to the generated files; throws when a text is not found exactly once. */
export function copyFiles(
  files: ReadonlyMap<string, string>,
  runs: readonly CopyRun[],
  language: CopyLanguage = "typescript",
): Map<string, string> {
  const out = new Map(files);
  const { changes, runtime, nows, appended, added } = LANGUAGES[language];
  for (const [file, from, to] of changes) {
    const text = out.get(file);
    if (text === undefined || text.split(from).length !== 2) {
      throw new Error(`the code copy: ${file} does not have ${JSON.stringify(from)} exactly once`);
    }
    out.set(file, text.replace(from, to));
  }
  // JSON's strings and lists are Python's too; the ids and times are ASCII.
  const clock = stringifyJson(Object.fromEntries(runs.map((r) => [r.id, [...r.now]])));
  out.set(
    runtime,
    `${out.get(runtime) ?? ""}\n${nows} ${clock}${language === "python" ? "" : ";"}\n${appended}`,
  );
  for (const [name, text] of Object.entries(added)) out.set(name, text);
  return out;
}

/** A copy on disk, and how to remove it. */
export interface Copy {
  readonly dir: string;
  remove(): void;
}

/** Writes the copy of `files` (changed by `mutate` when given, as a test breaks the code) into a temp dir. */
export function makeCopy(
  root: string,
  files: ReadonlyMap<string, string>,
  runs: readonly CopyRun[],
  mutate?: (files: Map<string, string>) => void,
  language: CopyLanguage = "typescript",
): Copy {
  const copied = copyFiles(files, runs, language);
  mutate?.(copied);
  const dir = Deno.makeTempDirSync({ prefix: "dandori-temporal-copy-" });
  if (language === "typescript") Deno.symlinkSync(`${root}node_modules`, `${dir}/node_modules`);
  for (const [name, text] of copied) Deno.writeTextFileSync(`${dir}/${name}`, text);
  return {
    dir,
    remove: () => Deno.removeSync(dir, { recursive: true }),
  };
}
