/**
 * The runs of a flow's generated scenarios that answer a `connect` task with its zero values left out
 * (`<place>:zeros left out <task>`, lang/dandori/scenarios.ts), as a differential run names them
 * (`<path> run-<n>`), and the check each break test of a Connect fill makes: the failures of a copy
 * that does not fill are exactly those runs.
 */

import { deepStrictEqual } from "node:assert/strict";
import type { Text } from "../../lang/common/text.ts";
import { generateFlowScenarios } from "../../lang/dandori/scenarios.ts";
import type { RunnableFlow } from "../../verify/dandori/flows.ts";

/** The runs of `flow` that leave zero values out, as `<path> run-<n>`. */
export function zerosLeftOut(flow: RunnableFlow): string[] {
  return generateFlowScenarios(flow.checked, flow.plan).scenarios.flatMap((s, i) =>
    s.covers.some((c) => c.includes(":zeros left out ")) ? [`${flow.path} run-${i + 1}`] : []
  );
}

/** Holds that `failures` are those of exactly the runs `leftOut`, in order. */
export function failsExactly(failures: readonly Text[], leftOut: readonly string[]): void {
  deepStrictEqual(failures.map((f) => leftOut.find((w) => f.en.startsWith(`${w}:`)) ?? f.en), leftOut);
}
