/**
 * The generated `io.ts`'s default `Transport` for real: every HTTP, Lambda and AWS call of the
 * scenarios goes to a local HTTP server and to moto (`verify/dandori/temporal_wire.ts`); what
 * arrives is the view, and what comes back is what the stub gives.
 */

import { deepStrictEqual, ok } from "node:assert/strict";
import { runnableFlows } from "../../verify/dandori/flows.ts";
import { FLOW_DIRS } from "../../verify/dandori/temporal.ts";
import { verifyWire } from "../../verify/dandori/temporal_wire.ts";
import { describedLine } from "../../verify/dandori/wire.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test({
  name:
    "every HTTP, Lambda and AWS call of the scenarios goes through the default Transport as its view says",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const report = await verifyWire(runnableFlows(ROOT, FLOW_DIRS));
    if (report === null) {
      return console.log("SKIP: moto: moto_server is not installed (pip install moto[server])");
    }
    console.log(`wire: ${report.http} HTTP, ${report.lambda} Lambda, ${report.aws} AWS calls`);
    console.log(describedLine(report));
    ok(report.http > 0 && report.lambda > 0 && report.aws > 0, "every kind of call was sent");
    ok(report.described !== 0, "some request was validated against its description");
    deepStrictEqual(report.failures, []);
  },
});
