/**
 * The durable target on `@aws/durable-execution-sdk-js-testing`'s local runner (time skipped):
 * every scenario of a stated subset of the flows agrees with the interpreter — the flows that
 * between them have callbacks (`timeout until` too), retries with their waits, `wait`, parallel
 * loops, children, books and `on failure`; `deno task verify durable` plays them all (about
 * 100 s) — and copies broken on purpose do not.
 */

import { ok, strictEqual } from "node:assert/strict";
import { checkedFlowAt } from "../../verify/dandori/flows.ts";
import { durableSubjectOf, verifyDurable, verifyDurableFlow } from "../../verify/dandori/durable.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The flows this test plays: together they have every kind of statement the target builds. */
const SUBSET = [
  "tests/dandori/flows/calls_run.flow",
  "tests/dandori/flows/loops_run.flow",
  "tests/dandori/flows/children_run.flow",
  "tests/dandori/flows/order_stock.flow",
  "examples/orders/orders.flow",
  "examples/billing/billing.flow",
];

function subject(path: string) {
  const flow = checkedFlowAt(ROOT, path);
  ok(flow !== null, `${path} checks`);
  const s = durableSubjectOf(flow);
  ok(!("skipped" in s), `${path} builds`);
  return s;
}

Deno.test("deno task verify durable: every scenario of the subset agrees on the local runner", async () => {
  strictEqual(await verifyDurable(SUBSET), 0);
});

Deno.test("a copy with the retriers' order swapped disagrees", async () => {
  const from = 'return retriers.find((r) => r.errors.includes(error) || r.errors.includes("*")) ?? null;';
  const report = await verifyDurableFlow(subject("tests/dandori/flows/calls_run.flow"), (files) => {
    const text = files.get("rules.ts") ?? "";
    ok(text.includes(from), "the rules pick the first retrier");
    files.set(
      "rules.ts",
      text.replace(from, from.replace("retriers.find(", "[...retriers].reverse().find(")),
    );
  });
  ok(
    report.agreed < report.scenarios,
    `${report.agreed}/${report.scenarios} agree with the retriers swapped`,
  );
});

Deno.test("a copy that waits a second longer between retries disagrees", async () => {
  const from = "return Math.max(1, Math.ceil(delayMs / 1000));";
  const report = await verifyDurableFlow(subject("tests/dandori/flows/calls_run.flow"), (files) => {
    const text = files.get("runtime.ts") ?? "";
    ok(text.includes(from), "the runtime rounds a retry's delay up to whole seconds");
    files.set("runtime.ts", text.replace(from, "return Math.max(1, Math.ceil(delayMs / 1000)) + 1;"));
  });
  ok(report.agreed < report.scenarios, `${report.agreed}/${report.scenarios} agree with longer waits`);
});
