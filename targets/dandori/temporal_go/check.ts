/**
 * What stops a Temporal Go build: Temporal's own limit, as for TypeScript and Python
 * (`temporalLimits` of `targets/dandori/temporal/check.ts`: E040 with the same history estimate,
 * the Go workflow scheduling the same activities, timers, children, Updates and search attributes
 * and continuing as new at the same outermost loops); E050 for `history encrypted`, whose payload
 * codec the TypeScript and Python packages carry and Go's does not yet (it would read and write
 * the wire format of docs/targets.md#the-payload-codec-of-history-encrypted); and E006 for names
 * Go cannot keep apart or cannot spell (`targets/dandori/go/names.ts`).
 * @module
 */

import type { Diagnostic } from "../../../lang/common/diagnostic.ts";
import { Reporter } from "../../../lang/common/reporter.ts";
import { tr } from "../../../lang/common/text.ts";
import type { DandoriCode } from "../../../lang/dandori/codes.ts";
import type { Plan } from "../../../lang/dandori/plan.ts";
import type { FlowOrigin } from "../target.ts";
import { namingCheck } from "../naming.ts";
import { goNames } from "../go/names.ts";
import { temporalLimits } from "../temporal/check.ts";

/** The diagnostics that stop the build; none when the Go SDK can run the flow. */
export function temporalGoCheck(plan: Plan, origin: FlowOrigin): readonly Diagnostic[] {
  const names = goNames(plan);
  return [
    ...encryptedRefused(plan, origin),
    ...temporalLimits(plan, origin),
    ...namingCheck("Temporal Go", names.spelled, names.refused, origin),
  ];
}

/** E050 for a flow that writes `history encrypted`: Go's payload codec is not written. */
function encryptedRefused(plan: Plan, origin: FlowOrigin): readonly Diagnostic[] {
  const r = new Reporter<DandoriCode>(origin.path, origin.text);
  if (plan.workflow.historyEncrypted) {
    r.error(
      "E050",
      { line: 1, col: 1 },
      tr(
        "Temporal (temporal-go) cannot build `history encrypted` here: Go's payload codec and encrypted client are not written yet",
        "Temporal(temporal-go)では、ここでは `history encrypted` を組めません。Go のペイロードのコーデックと暗号化したクライアントをまだ書きません",
      ),
      {
        quote: false,
        hint: tr(
          "build it for temporal-typescript or temporal-python, whose packages carry the codec, or without `history encrypted`",
          "コーデックを持つ temporal-typescript か temporal-python に組むか、`history encrypted` を外して組んでください",
        ),
      },
    );
  }
  return r.diagnostics;
}
