/**
 * What the wire checks of the default Transports (Temporal TypeScript, pydantic-graph, temporal-go)
 * assert alike of a report: the SKIP when moto is missing, the counts printed, every kind of call
 * sent, some request validated against its description, and no failure.
 * @module
 */

import { deepStrictEqual, ok } from "node:assert/strict";
import { describedLine, type WireReport } from "../../verify/dandori/wire.ts";

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
  ok(report.http > 0 && report.lambda > 0 && report.aws > 0, "every kind of call was sent");
  ok(report.described !== 0, "some request was validated against its description");
  deepStrictEqual(report.failures, []);
}
