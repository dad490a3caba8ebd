/**
 * The argo target on Argo's workflow controller in-process (`deno task verify argo`, docs/targets.md#argo):
 * WorkflowTemplates broken on purpose — an idempotency key's separator, a value dropped from a `match`
 * arm — and a caller whose `io.ts` does not fill a Connect answer's zero values disagree with the
 * interpreter on the scenarios the break reaches, named here, and agree on the others. Every scenario of every flow is `deno task verify argo`'s, which CI runs beside the tests
 * (`.ci/run`); this test keeps what only it checks. SKIP without Go or the module.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { Template, WorkflowTemplateDoc } from "../../targets/dandori/argo/workflow.ts";
import { type ArgoFlowReport, argoSubjectOf, verifyArgoFlow } from "../../verify/dandori/argo.ts";
import { argoTools } from "../../verify/dandori/argo_tools.ts";
import { checkedFlowAt } from "../../verify/dandori/flows.ts";
import { zerosLeftOut } from "../support/zeros.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
async function subject(path: string, change?: (files: Map<string, string>) => void) {
  const flow = checkedFlowAt(ROOT, path);
  ok(flow !== null, `${path} checks`);
  const s = await argoSubjectOf(flow, change);
  ok(!("skipped" in s), `${path} builds`);
  return s;
}

/** The scenarios of loops_run.flow that make a keyed call, and those of values_run.flow whose tier is basic. */
const KEYED = ["run-1", "run-6", "run-7", "run-8", "run-9", "run-10", "run-11", "run-12", "run-13"];
const BASIC = ["run-1", "run-4", "run-5", "run-6"];

/** The WorkflowTemplate with `from` replaced by `to` in every output expression; `from` must be there. */
function replaced(from: string, to: string): (doc: WorkflowTemplateDoc) => WorkflowTemplateDoc {
  return (doc) => {
    let found = 0;
    const templates = doc.spec.templates.map((t): Template => {
      if (t.outputs === undefined) return t;
      const parameters = t.outputs.parameters.map((p) => {
        const e = p.valueFrom?.expression;
        if (e === undefined || !e.includes(from)) return p;
        found++;
        return { ...p, valueFrom: { ...p.valueFrom, expression: e.replaceAll(from, to) } };
      });
      return { ...t, outputs: { parameters } };
    });
    ok(found > 0, `the WorkflowTemplate writes ${from}`);
    return { ...doc, spec: { ...doc.spec, templates } };
  };
}

/** The scenarios that disagree, by name, in order. */
function disagreeing(report: ArgoFlowReport): string[] {
  const marked = report.failures.map((f) => f.en).filter((f) => f.includes(": disagrees: "));
  return [...new Set(marked.map((f) => f.slice(0, f.indexOf(": disagrees: "))))]
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

Deno.test("a WorkflowTemplate whose idempotency key joins execution and place with - disagrees where a keyed call runs", async () => {
  const tools = await argoTools();
  if ("skip" in tools) {
    console.log(`SKIP: argo: ${tools.skip}`);
    return;
  }
  const flow = "tests/dandori/flows/loops_run.flow";
  const report = await verifyArgoFlow(
    tools,
    await subject(flow),
    replaced('inputs.parameters.wf + "/', 'inputs.parameters.wf + "-'),
  );
  console.log(`${report.agreed}/${report.scenarios} agree; disagree: ${disagreeing(report).join(", ")}`);
  deepStrictEqual(disagreeing(report), KEYED.map((r) => `${flow} ${r}`));
  ok(report.agreed + KEYED.length === report.scenarios, `${report.agreed}/${report.scenarios} agree`);
});

Deno.test("a WorkflowTemplate whose match drops the arm value basic disagrees where the tier is basic", async () => {
  const tools = await argoTools();
  if ("skip" in tools) {
    console.log(`SKIP: argo: ${tools.skip}`);
    return;
  }
  const flow = "tests/dandori/flows/values_run.flow";
  const report = await verifyArgoFlow(tools, await subject(flow), replaced('(dd_v == "basic") || ', ""));
  console.log(`${report.agreed}/${report.scenarios} agree; disagree: ${disagreeing(report).join(", ")}`);
  deepStrictEqual(disagreeing(report), BASIC.map((r) => `${flow} ${r}`));
  ok(report.agreed + BASIC.length === report.scenarios, `${report.agreed}/${report.scenarios} agree`);
});

Deno.test("a caller whose io.ts does not fill a Connect answer's zero values disagrees on exactly the runs that leave them out", async () => {
  const tools = await argoTools();
  if ("skip" in tools) {
    console.log(`SKIP: argo: ${tools.skip}`);
    return;
  }
  const flow = "tests/dandori/flows/proto_calls.flow";
  const checked = checkedFlowAt(ROOT, flow);
  ok(checked !== null);
  const leftOut = zerosLeftOut(checked);
  strictEqual(leftOut.length, 2, "one run for each connect task");
  const from = "return fillMessage(table, table.top, value, 0);";
  const report = await verifyArgoFlow(
    tools,
    await subject(flow, (files) => {
      const text = files.get("caller/io.ts") ?? "";
      ok(text.includes(from), "the caller's io.ts fills a Connect answer");
      files.set("caller/io.ts", text.replace(from, "return value;"));
    }),
  );
  console.log(`${report.agreed}/${report.scenarios} agree; disagree: ${disagreeing(report).join(", ")}`);
  deepStrictEqual(disagreeing(report), leftOut);
  strictEqual(report.agreed, report.scenarios - leftOut.length);
});
