/**
 * Agent tasks on the targets (docs/dandori.md#agents): Step Functions builds them (an HTTP Task,
 * stepfunctions/agent.ts); the others do not yet. The plan holds each agent's request
 * (lang/dandori/agent_requests.ts) and the interpreter runs it, its `transport` view being the request
 * body; what the other targets send through the providers' SDKs is not written yet, so each of their
 * checks stops a flow with an agent task with one E050 at each such task.
 * @module
 */

import type { Diagnostic } from "../../lang/common/diagnostic.ts";
import { Reporter } from "../../lang/common/reporter.ts";
import { tr } from "../../lang/common/text.ts";
import type { DandoriCode } from "../../lang/dandori/codes.ts";
import type { Plan } from "../../lang/dandori/plan.ts";
import type { FlowOrigin } from "./target.ts";

/** One E050 for each agent task of the plan, on `platform` (as the diagnostic names it). */
export function agentsUnbuilt(platform: string, plan: Plan, origin: FlowOrigin): readonly Diagnostic[] {
  const r = new Reporter<DandoriCode>(origin.path, origin.text);
  for (const t of plan.tasks) {
    if (t.callee.kind !== "agent") continue;
    r.error(
      "E050",
      { line: t.line, col: 1 },
      tr(
        `${platform} cannot build the agent task ${t.name} yet: only Step Functions sends an agent's request so far`,
        `${platform} はエージェントのタスク ${t.name} をまだ作れません。エージェントのリクエストを送るのは、いまは Step Functions だけです`,
      ),
      {
        hint: tr(
          "`dandori run` runs the flow on the interpreter, and `--target transport` shows each request its model is sent",
          "`dandori run` はインタープリターでフローを実行し、`--target transport` はモデルに送る各リクエストを見せます",
        ),
      },
    );
  }
  return r.diagnostics;
}

/** Where a printer meets an agent task: never, as the target's check stopped the build with E050 before. */
export function agentUnbuilt(): never {
  throw new Error("dandori: this target builds no agent task yet (E050 before)");
}
