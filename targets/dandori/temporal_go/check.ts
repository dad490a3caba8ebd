/**
 * What stops a Temporal Go build: Temporal's own limit, as for TypeScript and Python
 * (`temporalLimits` of `targets/dandori/temporal/check.ts`: E040 with the same history estimate,
 * the Go workflow scheduling the same activities, timers, children, Updates and search attributes
 * and continuing as new at the same outermost loops); E050 for `history encrypted` beside a `case`
 * (the payload codec is `codec.go`, but the workflow reads the memo `dandori.cases`, which the codec
 * encrypts, and the Go SDK gives a workflow no data converter to decode it with); and E006 for names
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

/**
 * E050 for a flow that writes `history encrypted` and has a `case`: its workflow writes the search
 * attribute `DandoriCases` only when the memo `dandori.cases` says so, and a Go workflow reads that
 * memo as it is stored (encrypted), with no codec to decode it.
 */
function encryptedRefused(plan: Plan, origin: FlowOrigin): readonly Diagnostic[] {
  const r = new Reporter<DandoriCode>(origin.path, origin.text);
  if (plan.workflow.historyEncrypted && plan.cases.length > 0) {
    r.error(
      "E050",
      { line: 1, col: 1 },
      tr(
        "Temporal (temporal-go) cannot build `history encrypted` beside a `case` here: the Go workflow reads the memo `dandori.cases`, which the codec encrypts, and the Go SDK gives a workflow nothing to decode it with",
        "Temporal(temporal-go)では、`case` のあるフローの `history encrypted` を組めません。Go のワークフローはメモ `dandori.cases` を読みますが、それはコーデックが暗号化していて、Go SDK はワークフローに復号する手段を渡しません",
      ),
      {
        quote: false,
        hint: tr(
          "build it for temporal-typescript or temporal-python, whose workers decode the memo, or without `case` or `history encrypted`",
          "メモを復号するワーカーを持つ temporal-typescript か temporal-python に組むか、`case` か `history encrypted` を外して組んでください",
        ),
      },
    );
  }
  return r.diagnostics;
}
