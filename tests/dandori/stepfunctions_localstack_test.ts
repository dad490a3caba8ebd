/**
 * LocalStack's Step Functions as a second engine (verify/dandori/localstack.ts): a flow of each
 * kind the target builds (loops and Maps, callbacks through Lambda and SQS, HTTP Tasks, the period,
 * both languages) runs every generated scenario on LocalStack 4.14.0, tries the same Tasks
 * with the same arguments, and ends as the interpreter says; and a copy whose retriers are swapped
 * parts from them there too. `deno task verify stepfunctions` runs every flow on LocalStack; this
 * test keeps to a few, as LocalStack runs in real time. Where LocalStack cannot run, it says why:
 * `SKIP: dandori: localstack: …`.
 */

import { deepStrictEqual, ok } from "node:assert/strict";
import type { Definition } from "../../targets/dandori/stepfunctions/asl.ts";
import { compareOnLocalStack, startLocalStack, whyNot } from "../../verify/dandori/localstack.ts";
import { buildDefinition, replayedGroup } from "../../verify/dandori/stepfunctions.ts";
import { checkedFlow, type RunnableFlow } from "../support/flows.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const read = (path: string) => Deno.readTextFileSync(`${ROOT}${path}`);

/**
 * A flow of each kind of what the target builds: sequential loops and Maps; every way of calling
 * with callbacks through Lambda and SQS; the period, in Japanese. (The books are LocalStack's in
 * `deno task verify stepfunctions`.)
 */
const KINDS = [
  "tests/dandori/flows/loops_run.flow",
  "tests/dandori/flows/stepfunctions/calls.flow",
  "tests/dandori/flows/stepfunctions/待ち.flow",
];

function flow(path: string): RunnableFlow {
  const f = checkedFlow(path);
  if (f === null) throw new Error(`${path} has errors`);
  return f;
}

function built(f: RunnableFlow): Definition {
  const b = buildDefinition(f, read(f.path));
  if (b.kind === "skipped") throw new Error(b.why);
  return b.definition;
}

Deno.test("LocalStack tries the same Tasks with the same arguments and ends as the interpreter; a broken copy parts from them", async () => {
  const why = await whyNot();
  if (why !== null) {
    console.log(`SKIP: dandori: localstack: ${why}`);
    return;
  }
  const groups = await Promise.all(KINDS.map((p, i) => replayedGroup(flow(p), built(flow(p)), `kind${i}`)));
  const orders = flow("examples/orders/stepfunctions/orders.flow");
  const broken = structuredClone(built(orders)) as Definition & {
    States: Record<string, { Retry?: unknown[] }>;
  };
  const charge = Object.keys(broken.States).find((k) => k.endsWith(" charge_card")) ?? "";
  broken.States[charge].Retry?.reverse();
  // The runs where the card is declined: the runner does not try again, the broken copy does.
  const declined = await replayedGroup(
    orders,
    built(orders),
    "broken",
    broken,
    (s) => s.covers.some((c) => c.endsWith(":declined")),
  );
  ok(declined.jobs.length > 0, "a scenario declines the card");
  const ls = await startLocalStack();
  try {
    const differences = await compareOnLocalStack(ls, [...groups, declined]);
    const broke = differences.filter((d) => d.startsWith("examples/orders/stepfunctions/orders.flow: "));
    deepStrictEqual(differences.filter((d) => !broke.includes(d)), []);
    ok(broke.length > 0, "the broken copy is caught on LocalStack too");
    const scenarios = groups.reduce((n, g) => n + g.jobs.length, 0);
    ok(scenarios >= 45, `${scenarios} scenarios`);
    console.log(
      `localstack: ${scenarios} scenarios of ${KINDS.length} flows agree; the broken copy parts in ${broke.length}`,
    );
  } finally {
    await ls.stop();
  }
});
