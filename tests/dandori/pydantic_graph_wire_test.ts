/**
 * The generated `io.py`'s default `Transport` for real: every HTTP, Lambda and AWS call of the
 * scenarios of the flows the pydantic-graph target builds goes to a local HTTP server and to moto
 * (`verify/dandori/pydantic_graph_wire.ts`); what arrives is the view, and what comes back is what
 * the stub gives. A copy whose GETs send their query in the body is caught on each call that sends one.
 */

import { flowsNamed, runnableFlows } from "../../verify/dandori/flows.ts";
import { ok } from "node:assert/strict";
import { findPydanticGraph, FLOW_DIRS } from "../../verify/dandori/pydantic_graph.ts";
import { verifyPythonWire } from "../../verify/dandori/pydantic_graph_wire.ts";
import { assertQueryLost, assertWireReport, QUERY_FLOW } from "../support/wire.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test({
  name:
    "every HTTP, Lambda and AWS call of the scenarios goes through io.py's default Transport as its view says",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    if (await findPydanticGraph() === null) return;
    const boto3 = await new Deno.Command("python3", { args: ["-c", "import boto3"], stderr: "null" })
      .output();
    if (!boto3.success) {
      return console.log(
        "SKIP: boto3: not installed (pip install -r verify/requirements-temporal.txt brings it with moto)",
      );
    }
    const started = performance.now();
    assertWireReport("pydantic-graph wire", await verifyPythonWire(runnableFlows(ROOT, FLOW_DIRS)), started);
  },
});

/** A GET's query sent as its body instead: the break the issue on API descriptions plants. */
function queryInBody(files: Map<string, string>): void {
  const text = files.get("tasks.py") ?? "";
  const broken = text.replace(
    / {8}if pairs != "":\n {12}url \+= \("&" if "\?" in url else "\?"\) \+ pairs\n( {8}return await io\.http\(self\._transport, io\.HttpRequest\("GET", url, headers)\)/g,
    "$1, pairs)",
  );
  ok(broken !== text, "the package sends a query");
  files.set("tasks.py", broken);
}

Deno.test({
  name: "a copy of tasks.py that sends a GET's query in the body is caught on each scenario that sends one",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    if (await findPydanticGraph() === null) return;
    assertQueryLost(
      "pydantic-graph wire",
      await verifyPythonWire(flowsNamed(ROOT, [QUERY_FLOW], FLOW_DIRS), queryInBody),
    );
  },
});
