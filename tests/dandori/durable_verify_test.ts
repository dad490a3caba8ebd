/**
 * The durable target on `@aws/durable-execution-sdk-js-testing`'s local runner (time skipped):
 * copies broken on purpose disagree with the interpreter on the scenarios the break reaches, and
 * agree on the others.
 * Every scenario of every flow is `deno task verify durable`'s, which CI runs beside the tests
 * (`.ci/run`); this test keeps what only it checks.
 */

import { ok } from "node:assert/strict";
import { checkedFlowAt } from "../../verify/dandori/flows.ts";
import { type DurableFlowReport, durableSubjectOf, verifyDurableFlow } from "../../verify/dandori/durable.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

function subject(path: string) {
  const flow = checkedFlowAt(ROOT, path);
  ok(flow !== null, `${path} checks`);
  const s = durableSubjectOf(flow);
  ok(!("skipped" in s), `${path} builds`);
  return s;
}

/** The break is what parts the copy from the interpreter: some scenarios still agree, others disagree. */
function caught(report: DurableFlowReport, what: string): void {
  ok(
    report.agreed > 0 && report.agreed < report.scenarios,
    `${report.agreed}/${report.scenarios} agree ${what}`,
  );
  ok(
    report.failures.some((f) => f.en.includes(": disagrees: ")),
    report.failures.map((f) => f.en).join("\n"),
  );
}

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
  caught(report, "with the retriers swapped");
});

Deno.test("a copy that waits a second longer between retries disagrees", async () => {
  const from = "return Math.max(1, Math.ceil(delayMs / 1000));";
  const report = await verifyDurableFlow(subject("tests/dandori/flows/calls_run.flow"), (files) => {
    const text = files.get("runtime.ts") ?? "";
    ok(text.includes(from), "the runtime rounds a retry's delay up to whole seconds");
    files.set("runtime.ts", text.replace(from, "return Math.max(1, Math.ceil(delayMs / 1000)) + 1;"));
  });
  caught(report, "with longer waits");
});
