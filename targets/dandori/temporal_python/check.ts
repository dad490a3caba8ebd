/**
 * What stops a Temporal Python build: Temporal's own limit, as for TypeScript (`temporalLimits`:
 * E040 with the same history estimate, the events being the server's whichever SDK writes them),
 * and E006 for two names one Python scope spells alike or a name Python refuses
 * (`temporalPythonNames`).
 * @module
 */

import type { Diagnostic } from "../../../lang/common/diagnostic.ts";
import type { Plan } from "../../../lang/dandori/plan.ts";
import { namingCheck } from "../naming.ts";
import type { FlowOrigin } from "../target.ts";
import { temporalLimits } from "../temporal/check.ts";
import { temporalPythonNames } from "./names.ts";

/** The diagnostics that stop the temporal-python build; none when it can build the flow. */
export function temporalPythonCheck(plan: Plan, origin: FlowOrigin): readonly Diagnostic[] {
  const names = temporalPythonNames(plan);
  return [
    ...temporalLimits(plan, origin),
    ...namingCheck("Temporal Python", names.spelled, names.refused, origin),
  ];
}
