/**
 * The cross-SDK Temporal run (`verify/dandori/temporal_cross.ts`): which flows it plays, how a run's two
 * halves are joined, how a direction compares (Go's maps have no key order), the one codec key both
 * runners of an encrypted flow are given, and on a real dev server that a none crosses as null both ways
 * and would not with the SDK's own converter, and that an encrypted flow's halves read each other's payloads.
 * @module
 */

import { deepStrictEqual, match, ok, rejects, strictEqual, throws } from "node:assert/strict";
import type { Judged } from "../../verify/differential.ts";
import { findTemporal, startTemporal, VERIFY_SERVER } from "../../verify/services/temporal_server.ts";
import { checkedFlowAt } from "../../verify/dandori/flows.ts";
import type { RunResult } from "../../verify/dandori/temporal_contract.ts";
import {
  CROSS_PAIRS,
  crossExcluded,
  type CrossPair,
  type CrossReport,
  crossSubject,
  joined,
  pairCompared,
  pairName,
  verifyPair,
} from "../../verify/dandori/temporal_cross.ts";
import { subjectOf } from "../../verify/dandori/temporal.ts";
import { codecKeyFor, namespaceOf, playFlow } from "../../verify/dandori/temporal_play.ts";
import { GO_SDK, PYTHON_SDK, type TemporalSdk, TYPESCRIPT_SDK } from "../../verify/dandori/temporal_sdk.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The direction of `CROSS_PAIRS` with its workflow on `workflow` and its activities on `activities`. */
function pairOf(workflow: TemporalSdk, activities: TemporalSdk): CrossPair {
  const pair = CROSS_PAIRS.find((p) => p.workflow === workflow && p.activities === activities);
  if (pair === undefined) throw new Error("no such direction");
  return pair;
}

function flowAt(path: string) {
  const flow = checkedFlowAt(ROOT, path);
  ok(flow !== null, path);
  return flow;
}

const ENCRYPTED = "tests/dandori/flows/secret_encrypted.flow";
const NONE = "tests/dandori/cross/none.flow";

Deno.test("a flow with an event task is excluded; one of activities and children is played, and so is one that writes history encrypted", () => {
  ok(crossExcluded(flowAt("tests/dandori/flows/waits_run.flow").plan)?.startsWith("an event task"));
  strictEqual(crossExcluded(flowAt(ENCRYPTED).plan), null);
  strictEqual(crossExcluded(flowAt("tests/dandori/flows/calls_run.flow").plan), null);
  strictEqual(crossExcluded(flowAt("tests/dandori/flows/children_run.flow").plan), null);
});

Deno.test("an encrypted flow's key is random, 32 bytes in lowercase hex, and a flow's two halves must be given the same; a flow in clear has none", () => {
  strictEqual(codecKeyFor(flowAt("tests/dandori/flows/calls_run.flow").plan), null);
  const flow = flowAt(ENCRYPTED);
  const [one, other] = [codecKeyFor(flow.plan), codecKeyFor(flow.plan)];
  ok(one !== null && other !== null);
  match(one.hex, /^[0-9a-f]{64}$/);
  ok(one.hex !== other.hex, "each key is new");
  const pair = pairOf(TYPESCRIPT_SDK, PYTHON_SDK);
  const workflow = subjectOf(flow, pair.workflow, one);
  const activities = subjectOf(flow, pair.activities, other);
  ok(!("skipped" in workflow) && !("skipped" in activities));
  strictEqual(workflow.codecKey, one);
  throws(() => crossSubject(pair, workflow, activities), /given one codec key/);
  const same = subjectOf(flow, pair.activities, one);
  ok(!("skipped" in same));
  strictEqual(crossSubject(pair, workflow, same).activities, same);
});

function result(over: Partial<RunResult>): RunResult {
  return {
    id: "run-1",
    calls: [],
    ending: null,
    query: null,
    searchAttribute: null,
    late: false,
    lateWhy: [],
    problems: [],
    runs: 0,
    ms: 0,
    events: 0,
    ...over,
  };
}

Deno.test("a run is the workflow's half with the activities' calls, late when either half was", () => {
  const w: Judged<RunResult> = {
    played: result({ ending: { succeed: {} }, query: {}, runs: 1 }),
    late: false,
    problems: [],
  };
  const calls = [{ temporal: { activity: "find", args: { order: "o" } } }];
  const a: Judged<RunResult> = {
    played: result({ calls, late: true, lateWhy: ["it ended with 1 answers not given"] }),
    late: true,
    problems: [],
  };
  const j = joined(w, a);
  deepStrictEqual(j.played.calls, calls);
  deepStrictEqual(j.played.ending, { succeed: {} });
  strictEqual(j.played.runs, 1);
  ok(j.late && j.played.late);
  deepStrictEqual(j.played.lateWhy, ["it ended with 1 answers not given"]);
});

Deno.test("a direction with Go compares objects by sorted keys; TypeScript and Python by the order written", () => {
  const json = '{"b":1,"a":{"d":null,"c":[{"f":2,"e":3}]}}';
  const sorted = '{"a":{"c":[{"e":3,"f":2}],"d":null},"b":1}';
  const withGo = pairOf(GO_SDK, TYPESCRIPT_SDK);
  strictEqual(pairCompared(withGo)(json), sorted);
  strictEqual(pairCompared(pairOf(PYTHON_SDK, GO_SDK))(json), sorted);
  for (const pair of CROSS_PAIRS.filter((p) => p.workflow !== GO_SDK && p.activities !== GO_SDK)) {
    strictEqual(pairCompared(pair)(json), json, pairName(pair));
  }
});

/**
 * Plays the flow at `path` in `pair` as `verify temporal-cross` does (both runners given the flow's one
 * codec key), the activities' copies changed by `mutate` when given.
 */
async function playAcross(
  bin: string,
  pair: CrossPair,
  path: string,
  mutate?: (files: Map<string, string>) => void,
): Promise<CrossReport> {
  const flow = flowAt(path);
  const key = codecKeyFor(flow.plan);
  const workflow = subjectOf(flow, pair.workflow, key);
  const activities = subjectOf(flow, pair.activities, key);
  ok(!("skipped" in workflow) && !("skipped" in activities));
  const reports: CrossReport[] = [];
  await verifyPair(bin, pair, [crossSubject(pair, workflow, activities)], (r) => reports.push(r), mutate);
  strictEqual(reports.length, 1);
  return reports[0];
}

// The pitfall is the TypeScript workflow's: it reads a `binary/null` payload as `undefined` (Python and Go
// read it as None and nil), so these play a TypeScript workflow with the other SDK's activities (the
// whole corpus plays every direction: `deno task verify temporal-cross`).

/**
 * Plays the flow at `path` with a TypeScript workflow and `activities`' activities and asserts every
 * scenario agrees; null, said as a SKIP, when this machine lacks the Temporal CLI or that SDK.
 */
async function agreesAcross(
  activities: TemporalSdk,
  path: string,
): Promise<{ bin: string; pair: CrossPair } | null> {
  const bin = await findTemporal();
  if (bin === null) {
    console.log("SKIP: temporal: the temporal CLI 1.9.1 is not installed");
    return null;
  }
  const lacks = await activities.missing();
  if (lacks !== null) {
    console.log(`SKIP: ${lacks.tool}: ${lacks.why}`);
    return null;
  }
  const pair = pairOf(TYPESCRIPT_SDK, activities);
  const r = await playAcross(bin, pair, path);
  ok(r.scenarios > 0 && r.agreed === r.scenarios, `${pairName(pair)}: ${r.failures.join("\n")}`);
  return { bin, pair };
}

Deno.test("on a real dev server, a Python activity's none reaches a TypeScript workflow as null, and with the SDK's own converter does not", async () => {
  const played = await agreesAcross(PYTHON_SDK, NONE);
  if (played === null) return;
  const { bin, pair } = played;
  // The package's `ordered` client left with the SDK's default converter: None goes as `binary/null`.
  const from = "payload_converter_class=PayloadConverter\n    )";
  const broken = await playAcross(bin, pair, NONE, (files) => {
    const text = files.get("client.py") ?? "";
    ok(text.includes(from), "ordered() sets the package's converter");
    files.set("client.py", text.replace(from, "payload_converter_class=DefaultPayloadConverter\n    )"));
  });
  ok(broken.agreed < broken.scenarios, `${broken.agreed}/${broken.scenarios} agree with binary/null`);
  ok(broken.failures.some((f) => f.includes('"activity":"note"')), broken.failures.join("\n"));
});

Deno.test("on a real dev server, a Go activity's none reaches a TypeScript workflow as null", async () => {
  await agreesAcross(GO_SDK, NONE);
});

Deno.test("on a real dev server, an encrypted flow's TypeScript workflow and Python activities read each other's payloads with the one key both runners are given", async () => {
  await agreesAcross(PYTHON_SDK, ENCRYPTED);
});

Deno.test("on a real dev server, the runner of each SDK refuses an encrypted flow given no key and a flow in clear given one", async () => {
  const bin = await findTemporal();
  if (bin === null) return console.log("SKIP: temporal: the temporal CLI 1.9.1 is not installed");
  const encrypted = flowAt(ENCRYPTED);
  const refused = [
    { flow: encrypted, key: null, why: /an encrypted flow is given no codec key/ },
    { flow: flowAt(NONE), key: codecKeyFor(encrypted.plan), why: /a flow in clear is given a codec key/ },
  ];
  // One server for the six refusals: each plays its flow alone, in the first namespace.
  const server = await startTemporal(bin, [namespaceOf(0)], VERIFY_SERVER);
  try {
    for (const sdk of [TYPESCRIPT_SDK, PYTHON_SDK, GO_SDK]) {
      const lacks = await sdk.missing();
      if (lacks !== null) {
        console.log(`SKIP: ${lacks.tool}: ${lacks.why} (${sdk.language})`);
        continue;
      }
      const subjects = refused.map(({ flow, key }) => {
        const s = subjectOf(flow, sdk, key);
        ok(!("skipped" in s), `${flow.path} builds on ${sdk.language}`);
        return s;
      });
      const { runner, remove } = await sdk.runner(subjects);
      try {
        for (const [i, subject] of subjects.entries()) {
          await rejects(
            playFlow(bin, subject, subject.jobs.slice(0, 1), { runner, server }),
            refused[i].why,
            sdk.language,
          );
        }
      } finally {
        remove();
      }
    }
  } finally {
    await server.stop();
  }
});
