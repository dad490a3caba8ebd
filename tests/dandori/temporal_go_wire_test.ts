/**
 * The generated `io.go`'s default Transport for real: every HTTP, Lambda and AWS call of the
 * scenarios of the flows temporal-go builds goes to a local HTTP server and to moto
 * (`verify/dandori/temporal_go_wire.ts`); what arrives is the view, what comes back is what the stub
 * gives, and each request an OpenAPI description covers is one it takes. A break planted on purpose
 * (a query parameter sent in the body) is caught on the scenarios that send one.
 */

import { ok } from "node:assert/strict";
import { flowsNamed, runnableFlows } from "../../verify/dandori/flows.ts";
import { FLOW_DIRS } from "../../verify/dandori/temporal.ts";
import { hasGo } from "../../verify/dandori/temporal_go_build.ts";
import { verifyGoWire } from "../../verify/dandori/temporal_go_wire.ts";
import { assertQueryLost, assertWireReport, QUERY_FLOW } from "../support/wire.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test({
  name:
    "every HTTP, Lambda and AWS call of the scenarios goes through io.go's default Transport as its view says",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    if (!(await hasGo())) return console.log("SKIP: go: the go command is not installed");
    const started = performance.now();
    assertWireReport("temporal-go wire", await verifyGoWire(runnableFlows(ROOT, FLOW_DIRS)), started);
  },
});

/** A GET's query written into the body instead: the break the issue on API descriptions plants. */
function queryInBody(files: Map<string, string>): void {
  const text = files.get("activities.go") ?? "";
  const broken = text.replace(
    /URL: ddWithQuery\(url, (ddPairs\(args, \[\]string\{[^}]*\}\))\), Headers: headers\}/g,
    "URL: url, Headers: headers, Body: func() *string { b := $1; return &b }()}",
  );
  ok(broken !== text, "the package sends a query");
  files.set("activities.go", broken);
}

Deno.test({
  name:
    "a copy of io.go's caller that sends a GET's query in the body is caught on each scenario that sends one",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    if (!(await hasGo())) return console.log("SKIP: go: the go command is not installed");
    const flows = flowsNamed(ROOT, [QUERY_FLOW], FLOW_DIRS);
    assertQueryLost("temporal-go wire", await verifyGoWire(flows, queryInBody));
  },
});
