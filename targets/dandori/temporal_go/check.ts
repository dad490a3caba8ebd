/**
 * What stops a Temporal Go build: Temporal's own limit, as for TypeScript and Python
 * (`temporalLimits` of `targets/dandori/temporal/check.ts`: E040 with the same history estimate,
 * the Go workflow scheduling the same activities, timers, children, Updates and search attributes
 * and continuing as new at the same outermost loops); and E006 for names Go cannot keep apart or
 * cannot spell (`targets/dandori/go/names.ts`). `history encrypted` builds, with its payload codec
 * (`codec.go`), as on TypeScript and Python.
 * @module
 */

import type { Diagnostic } from "../../../lang/common/diagnostic.ts";
import type { Plan } from "../../../lang/dandori/plan.ts";
import type { FlowOrigin } from "../target.ts";
import { namingCheck } from "../naming.ts";
import { goNames } from "../go/names.ts";
import { temporalLimits } from "../temporal/check.ts";

/** The diagnostics that stop the build; none when the Go SDK can run the flow. */
export function temporalGoCheck(plan: Plan, origin: FlowOrigin): readonly Diagnostic[] {
  const names = goNames(plan);
  return [
    ...temporalLimits(plan, origin),
    ...namingCheck("Temporal Go", names.spelled, names.refused, origin),
  ];
}
