/**
 * The E050 of a target that does not build `connect` tasks yet (docs/targets.md#connect-tasks): the
 * reference interpreter runs them (the request as protobuf's JSON, the answer's zero values filled
 * in, lang/dandori/connect.ts), and a target writes them only once its differential run proves its
 * fill against the interpreter's; until then it stops the build at each such task rather than send
 * a call it has not been proven to read back.
 * @module
 */

import type { Diagnostic } from "../../lang/common/diagnostic.ts";
import { Reporter } from "../../lang/common/reporter.ts";
import { tr } from "../../lang/common/text.ts";
import type { DandoriCode } from "../../lang/dandori/codes.ts";
import type { Plan } from "../../lang/dandori/plan.ts";
import type { FlowOrigin } from "./target.ts";

/** One E050 for each `connect` task of the plan, `platform` naming the target. */
export function connectNotBuilt(platform: string, plan: Plan, origin: FlowOrigin): readonly Diagnostic[] {
  const r = new Reporter<DandoriCode>(origin.path, origin.text);
  for (const t of plan.tasks) {
    if (t.callee.kind !== "http" || t.callee.connect === null) continue;
    r.error(
      "E050",
      { line: t.line, col: 1 },
      tr(
        `${platform} does not build the \`connect\` task ${t.name} yet: the Connect call and the zero values it fills in are proven on the reference interpreter only`,
        `${platform} では、\`connect\` のタスク ${t.name} をまだ組みません。Connect の呼び出しと、埋めるゼロ値は、参照インタプリタの上でしか確かめていません`,
      ),
      {
        hint: tr(
          "run it on the reference interpreter (`dandori run`), or call the service as an `http` task",
          "参照インタプリタ(`dandori run`)で走らせるか、サービスを `http` のタスクで呼んでください",
        ),
      },
    );
  }
  return r.diagnostics;
}
