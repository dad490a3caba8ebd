/**
 * What the wire checks of the default Transports (Temporal TypeScript, pydantic-graph, temporal-go)
 * assert alike of a report: the SKIP when moto is missing, the counts printed, every kind of call
 * sent, some request validated against its description, some `connect` call through a real Connect
 * server and answered by it, and no failure; and of a copy whose GETs
 * send their query in the body, that each such call of api_calls.flow is caught.
 * @module
 */

import { deepStrictEqual, ok } from "node:assert/strict";
import { connectLine, describedLine, type WireReport } from "../../verify/dandori/wire.ts";

/** Prints `name`'s counts and asserts the report whole; prints the SKIP when it is null (moto is missing). */
export function assertWireReport(name: string, report: WireReport | null, started: number): void {
  if (report === null) {
    console.log("SKIP: moto: moto_server is not installed (pip install moto[server])");
    return;
  }
  console.log(
    `${name}: ${report.http} HTTP, ${report.lambda} Lambda, ${report.aws} AWS calls, ${
      ((performance.now() - started) / 1000).toFixed(1)
    } s`,
  );
  console.log(describedLine(report));
  console.log(connectLine(report));
  ok(report.http > 0 && report.lambda > 0 && report.aws > 0, "every kind of call was sent");
  ok(report.described !== 0, "some request was validated against its description");
  ok(
    "missing" in report.connect || (report.connect.calls > 0 && report.connect.answered > 0),
    "some connect call went through a Connect server, and some was answered by it",
  );
  deepStrictEqual(report.failures, []);
}

/** The flow whose GET sends a query (line 50, `client_secret`), for the break planted in each wire check. */
export const QUERY_FLOW = "tests/dandori/flows/api_calls.flow";

/**
 * Asserts a report of a copy whose GETs send their query in the body: every failure is a GET of
 * `QUERY_FLOW`'s line 50 that lost its query, run-1's among them. Prints the SKIP when it is null.
 */
export function assertQueryLost(name: string, report: WireReport | null): void {
  if (report === null) {
    console.log("SKIP: moto: moto_server is not installed (pip install moto[server])");
    return;
  }
  console.log(`${name}, the query in the body: ${report.failures.length} calls caught`);
  const caught = report.failures.filter((f) =>
    /^tests\/dandori\/flows\/api_calls\.flow run-\d+ line 50: HTTP got \["GET","\/v1\/payment_intents\/[^"?]*",.*the view is \["GET","[^"?]*\?client_secret=/
      .test(f)
  );
  ok(caught.some((f) => f.startsWith(`${QUERY_FLOW} run-1 line 50: `)), report.failures.join("\n"));
  deepStrictEqual(caught, report.failures, "every failure is a GET of line 50 that lost its query");
}
