/**
 * The generated `io.py`'s default `Transport` for real: every HTTP, Lambda and AWS call of the
 * scenarios of the flows the pydantic-graph target builds goes to a local HTTP server and to moto
 * (`verify/dandori/pydantic_graph_wire.ts`); what arrives is the view, and what comes back is what
 * the stub gives.
 */

import { runnableFlows } from "../../verify/dandori/flows.ts";
import { findPydanticGraph, FLOW_DIRS } from "../../verify/dandori/pydantic_graph.ts";
import { verifyPythonWire } from "../../verify/dandori/pydantic_graph_wire.ts";
import { assertWireReport } from "../support/wire.ts";

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
