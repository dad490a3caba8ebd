/**
 * LocalStack's Step Functions as a second engine (verify/dandori/localstack.ts): a copy of
 * `examples/orders/stepfunctions/orders.flow` whose retriers are swapped parts from the ASL runner's
 * tries on LocalStack 4.14.0 where the card is declined. Every scenario of every flow on LocalStack is
 * `deno task verify stepfunctions-localstack`'s, which CI runs beside the tests (`.ci/run`); this
 * test keeps what only it checks. Where LocalStack cannot run, it says why:
 * `SKIP: dandori: localstack: …`.
 */

import { ok } from "node:assert/strict";
import type { Definition } from "../../targets/dandori/stepfunctions/asl.ts";
import { compareOnLocalStack, startLocalStack, whyNot } from "../../verify/dandori/localstack.ts";
import { buildDefinition, replayedGroup } from "../../verify/dandori/stepfunctions.ts";
import { checkedFlow, type RunnableFlow } from "../support/flows.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const read = (path: string) => Deno.readTextFileSync(`${ROOT}${path}`);

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

Deno.test("on LocalStack, a copy with the retriers swapped tries again where the runner stops", async () => {
  const why = await whyNot();
  if (why !== null) {
    console.log(`SKIP: dandori: localstack: ${why}`);
    return;
  }
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
    const differences = await compareOnLocalStack(ls, [declined]);
    const parted = new Set(differences.map((d) => d.id));
    ok(parted.size > 0, "the broken copy is caught on LocalStack");
    ok(differences.some((d) => d.text.includes(": LocalStack tries ")), "it tries what the runner did not");
    console.log(
      `localstack: the broken copy parts in ${parted.size} of ${declined.jobs.length} declined scenarios`,
    );
  } finally {
    await ls.stop();
  }
});
