/**
 * What stops a pydantic-graph build (E050): what this target does not build yet. A graph run has no
 * cancel from outside, so `on cancel` is not written; an `event` task waits for a value sent to the
 * run by name, which `Deps` could carry but is not written yet either (docs/targets.md#pydantic-graph).
 * pydantic-graph keeps nothing of a run, so there is no size to estimate (no E040).
 * @module
 */

import type { Diagnostic } from "../../../lang/common/diagnostic.ts";
import { Reporter } from "../../../lang/common/reporter.ts";
import { tr } from "../../../lang/common/text.ts";
import type { DandoriCode } from "../../../lang/dandori/codes.ts";
import type { Plan } from "../../../lang/dandori/plan.ts";
import type { FlowOrigin } from "../target.ts";
import { namingCheck } from "../naming.ts";
import { pydanticGraphNames } from "./names.ts";

/** The diagnostics that stop the build; none when pydantic-graph can run the flow. */
export function pydanticGraphCheck(plan: Plan, origin: FlowOrigin): readonly Diagnostic[] {
  const r = new Reporter<DandoriCode>(origin.path, origin.text);
  if (plan.blocks.cancel !== null) {
    r.error(
      "E050",
      { line: 1, col: 1 },
      tr(
        "pydantic-graph cannot build `on cancel` here: nothing cancels a graph run from outside, and a cancel through asyncio is not written yet",
        "pydantic-graph では、ここでは `on cancel` を組めません。グラフの実行を外から取り消す手段が無く、asyncio を通す取り消しもまだ書きません",
      ),
      { quote: false, hint: tr("build it without `on cancel`", "`on cancel` を外して組んでください") },
    );
  }
  for (const t of plan.tasks) {
    if (t.callee.kind !== "event") continue;
    r.error(
      "E050",
      { line: t.line, col: 1 },
      tr(
        `pydantic-graph cannot build the event task ${t.name} here: a value sent to the run by name is not written yet`,
        `pydantic-graph では、ここではイベントのタスク ${t.name} を組めません。名前で実行に届く値をまだ書きません`,
      ),
      {
        hint: tr(
          "make it a callback task (its answer comes through `Deps.callbacks`)",
          "コールバックのタスクにしてください(答えは `Deps.callbacks` で届きます)",
        ),
      },
    );
  }
  const names = pydanticGraphNames(plan);
  return [...r.diagnostics, ...namingCheck("pydantic-graph", names.spelled, names.refused, origin)];
}
