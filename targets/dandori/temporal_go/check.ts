/**
 * What stops a Temporal Go build:
 *
 * - **E040**: one run may write more events into its history than Temporal keeps. The Go workflow
 *   schedules the same activities, timers, children, Updates and search attributes as the
 *   TypeScript one, and continues as new at the same outermost loops, so the estimate is
 *   `historyEvents` of `targets/dandori/temporal/check.ts`.
 * - **E050**: what this target does not build: `history encrypted` (the payload codec and the
 *   encrypted client are not written for Go yet).
 * - **E006**: names Go cannot keep apart or cannot spell (`targets/dandori/go/names.ts`).
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
import { historyEvents, MAX_HISTORY_EVENTS } from "../temporal/check.ts";

/** The diagnostics that stop the build; none when the Go SDK can run the flow. */
export function temporalGoCheck(plan: Plan, origin: FlowOrigin): readonly Diagnostic[] {
  const r = new Reporter<DandoriCode>(origin.path, origin.text);
  const head = { line: 1, col: 1 };
  if (plan.workflow.historyEncrypted) {
    r.error(
      "E050",
      head,
      tr(
        "Temporal Go (temporal-go) cannot build `history encrypted` here: the payload codec and the encrypted client are not written for Go yet",
        "Temporal Go(temporal-go)では、ここでは `history encrypted` を組めません。Go のペイロードのコーデックと暗号化したクライアントをまだ書きません",
      ),
      {
        quote: false,
        hint: tr(
          "build it without `history encrypted`, or with --target temporal-typescript",
          "`history encrypted` を外すか、--target temporal-typescript で組んでください",
        ),
      },
    );
  }
  const events = historyEvents(plan);
  if (events > MAX_HISTORY_EVENTS) {
    r.error(
      "E040",
      head,
      tr(
        `one run on Temporal may write ${events} events into its history, more than the ${MAX_HISTORY_EVENTS} Temporal keeps`,
        `Temporal の一つの実行が、履歴に ${events} 件の出来事を書くことがあり、Temporal が持てる ${MAX_HISTORY_EVENTS} 件を超えます`,
      ),
      {
        quote: false,
        hint: tr(
          "lower the loops' `at most`, or make the largest loop the flow's outermost one (not in parallel), so that each iteration can continue as a new run",
          "ループの `at most` を下げるか、いちばん大きいループをフローの一番外の(並列でない)ループにして、イテレーションごとに新しい実行で続けられるようにしてください",
        ),
      },
    );
  }
  const names = goNames(plan);
  return [...r.diagnostics, ...namingCheck("Temporal Go", names.spelled, names.refused, origin)];
}
