/**
 * The reference interpreter decides from the checked flow alone, so a lowering that gets a retry
 * or a timeout wrong is caught (issue 30): each test builds the targets from a plan broken as a
 * wrong `lower.ts` would make it, plays one named scenario of `stepfunctions/calls.flow` (every
 * target builds it) that reaches the break, and sees the differential run agree on the plan as
 * lowered and disagree on the broken one.
 * Were the interpreter to read the plan (as it once did), it would make the same mistake as the
 * targets and agree.
 *
 * `charge` is `retry 2 times every 5 seconds backoff 3` and `timeout 20 seconds`. In `run 6` it
 * times out once and is retried; in `run 21` it fails, times out and times out, its retries spent.
 * The Step Functions ASL runner and durable functions compare the clock at every call, so they see
 * a wrong backoff and a wrong timeout. The Temporal TypeScript differential waits no time (its code
 * copy shortens every timer to at most 10 ms) but compares the durations the workflow asks for, as
 * the copy keeps them: each retry's delay and each activity's `startToCloseTimeout`
 * (`TemporalSdk.durations`); so it sees the same two breaks, and a wrong number of retries in the
 * calls it makes.
 */

import { deepStrictEqual, ok } from "node:assert/strict";
import type { Plan, RetrierPlan, TaskPlan } from "../../lang/dandori/plan.ts";
import { generateFlowScenarios } from "../../lang/dandori/scenarios.ts";
import { durableSubjectOf, verifyDurableFlow } from "../../verify/dandori/durable.ts";
import { checkedFlowAt, type RunnableFlow } from "../../verify/dandori/flows.ts";
import { buildDefinition, playScenario } from "../../verify/dandori/stepfunctions.ts";
import { subjectOf } from "../../verify/dandori/temporal.ts";
import { findTemporal } from "../../verify/services/temporal_server.ts";
import { reportOf, reportsByFlow } from "../support/breaks.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const PATH = "tests/dandori/flows/stepfunctions/calls.flow";

function flow(): RunnableFlow {
  const f = checkedFlowAt(ROOT, PATH);
  ok(f !== null, `${PATH} checks`);
  return f;
}

/** The flow with its plan's task `charge` changed as a broken lowering would write it. */
function broken(f: RunnableFlow, change: (t: TaskPlan) => TaskPlan): RunnableFlow {
  const plan: Plan = { ...f.plan, tasks: f.plan.tasks.map((t) => t.name === "charge" ? change(t) : t) };
  return { ...f, plan };
}

/** `charge`'s `*` retrier changed. */
function retrier(f: RunnableFlow, change: Partial<RetrierPlan>): RunnableFlow {
  return broken(
    f,
    (t) => ({ ...t, retry: t.retry.map((r) => r.errors.includes("*") ? { ...r, ...change } : r) }),
  );
}

const BACKOFF = (f: RunnableFlow) => retrier(f, { backoff: "2.0" });
const TIMEOUT = (f: RunnableFlow) =>
  broken(f, (t) => ({ ...t, timeout: { kind: "after", seconds: 30, written: true } }));
const ONE_RETRY = (f: RunnableFlow) => retrier(f, { maxAttempts: 1 });

/** The scenarios the tests name, with what each reaches (so a change of the generator is seen here first). */
const NAMED: Readonly<Record<string, string>> = { "run 6": "s69:timeout", "run 21": "s69:unhandled" };

Deno.test("the named scenarios reach what the breaks change", () => {
  const f = flow();
  const scenarios = generateFlowScenarios(f.checked, f.plan).scenarios;
  for (const [name, reaches] of Object.entries(NAMED)) {
    const s = scenarios.find((x) => x.name === name);
    ok(s !== undefined && s.covers.includes(reaches), `${name} of ${PATH} covers ${reaches}`);
  }
});

/** The differences of one named scenario played on the ASL runner, built from `f`'s plan. */
async function onAsl(f: RunnableFlow, name: string): Promise<readonly string[]> {
  const text = Deno.readTextFileSync(ROOT + PATH);
  const built = buildDefinition(f, text);
  ok(built.kind === "built", `${PATH} builds for Step Functions`);
  const scenarios = generateFlowScenarios(f.checked, f.plan).scenarios;
  const index = scenarios.findIndex((s) => s.name === name);
  ok(index >= 0, name);
  return (await playScenario(f, built.definition, scenarios[index], `run-${index + 1}`)).differences;
}

Deno.test("the ASL runner disagrees with a plan whose backoff or timeout is not the flow's", async () => {
  const f = flow();
  deepStrictEqual(await onAsl(f, "run 21"), [], "run 21 agrees as lowered");
  deepStrictEqual(await onAsl(f, "run 6"), [], "run 6 agrees as lowered");
  ok((await onAsl(BACKOFF(f), "run 21")).length > 0, "run 21 disagrees with the backoff 2.0 for 3");
  ok((await onAsl(TIMEOUT(f), "run 6")).length > 0, "run 6 disagrees with a 30-second timeout for 20");
});

/** Whether the named scenario agrees on durable functions' local runner, built from `f`'s plan. */
async function onDurable(f: RunnableFlow, name: string): Promise<boolean> {
  const s = durableSubjectOf(f);
  ok(!("skipped" in s), `${PATH} builds for durable functions`);
  const id = `${PATH}#${name.replace(" ", "-")}`;
  const jobs = s.jobs.filter((j) => j.id === id);
  ok(jobs.length === 1, id);
  const report = await verifyDurableFlow({ ...s, jobs });
  return report.agreedJobs.has(id);
}

Deno.test("durable functions disagree with a plan whose backoff or timeout is not the flow's", async () => {
  const f = flow();
  ok(await onDurable(f, "run 21"), "run 21 agrees as lowered");
  ok(await onDurable(f, "run 6"), "run 6 agrees as lowered");
  ok(!await onDurable(BACKOFF(f), "run 21"), "run 21 disagrees with the backoff 2.0 for 3");
  ok(!await onDurable(TIMEOUT(f), "run 6"), "run 6 disagrees with a 30-second timeout for 20");
});

Deno.test("on a real dev server, Temporal TypeScript disagrees with a plan whose backoff, timeout or retries are not the flow's", async () => {
  const bin = await findTemporal();
  if (bin === null) return console.log("SKIP: temporal: the temporal CLI 1.9.1 is not installed");
  /** Each plan, played at once on one server by one runner: the named runs, and those of them that agree. */
  const cases = [
    { name: "as lowered", f: flow(), runs: ["run 6", "run 21"], agree: ["run 6", "run 21"] },
    { name: "backoff 2.0 for 3", f: BACKOFF(flow()), runs: ["run 21"], agree: [] },
    { name: "a 30-second timeout for 20", f: TIMEOUT(flow()), runs: ["run 6"], agree: [] },
    { name: "one retry for two", f: ONE_RETRY(flow()), runs: ["run 21"], agree: [] },
  ];
  const idsOf = (path: string, runs: readonly string[]) => runs.map((n) => `${path}#${n.replace(" ", "-")}`);
  const subjects = cases.map((c) => {
    const s = subjectOf({ ...c.f, path: `${PATH} (${c.name})` });
    ok(!("skipped" in s), `${PATH} builds for Temporal`);
    const ids = idsOf(s.flow.path, c.runs);
    const jobs = s.jobs.filter((j) => ids.includes(j.id));
    deepStrictEqual(jobs.length, ids.length, ids.join(", "));
    return { ...s, jobs };
  });
  const reports = await reportsByFlow(bin, subjects);
  for (const c of cases) {
    const path = `${PATH} (${c.name})`;
    const ids = idsOf(path, c.runs);
    const agreed = reportOf(reports, path).agreedJobs;
    deepStrictEqual(c.runs.filter((_, i) => agreed.has(ids[i])), c.agree, c.name);
  }
});
