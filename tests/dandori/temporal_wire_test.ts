/**
 * The generated `io.ts`'s default `Transport` for real: every HTTP, Lambda and AWS call of the
 * scenarios goes to a local HTTP server and to moto (`verify/dandori/temporal_wire.ts`); what
 * arrives is the view, and what comes back is what the stub gives.
 */

import { runnableFlows } from "../../verify/dandori/flows.ts";
import { FLOW_DIRS } from "../../verify/dandori/temporal.ts";
import { verifyWire } from "../../verify/dandori/temporal_wire.ts";
import { assertWireReport } from "../support/wire.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test({
  name:
    "every HTTP, Lambda and AWS call of the scenarios goes through the default Transport as its view says",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const started = performance.now();
    assertWireReport("wire", await verifyWire(runnableFlows(ROOT, FLOW_DIRS)), started);
  },
});
