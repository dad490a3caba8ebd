/**
 * The `durable` target (docs/targets.md#durable): a flow as one AWS Lambda durable function in TypeScript, against
 * `@aws/durable-execution-sdk-js` 2.4 — `types.ts` (the shared types and checks), `tasks.ts`
 * (`OwnTasks`, `makeTasks`), `io.ts` (the same `Transport` as Temporal's), `runtime.ts` and `rules.ts`
 * (Temporal's rules), and
 * `workflow.ts` with `makeHandler(own, transport)`. Every file starts with the header and the
 * workflow's description as comment lines that cannot leave their comment.
 * @module
 */

import type { Plan } from "../../../lang/dandori/plan.ts";
import type { DandoriTarget, FlowOrigin } from "../target.ts";
import { ioModule } from "../temporal/io_ts.ts";
import { slashHeader } from "../typescript/header.ts";
import { typesModule } from "../typescript/types_ts.ts";
import { durableCheck } from "./check.ts";
import { RUNTIME } from "./runtimes.ts";
import { RULES } from "../typescript/runtimes.ts";
import { stepTasks, tasksModule } from "../typescript/tasks_ts.ts";
import { workflowModule } from "./workflow_ts.ts";

/** Every file of the package, by name. */
function generate(plan: Plan, origin: FlowOrigin): ReadonlyMap<string, string> {
  const head = slashHeader(plan, origin);
  return new Map<string, string>([
    ["types.ts", head + typesModule(plan)],
    ["tasks.ts", head + tasksModule(plan, stepTasks(plan))],
    ["io.ts", head + ioModule(plan)],
    ["runtime.ts", head + RUNTIME],
    ["rules.ts", head + RULES],
    ["workflow.ts", head + workflowModule(plan)],
  ]);
}

/** The target record. */
export const DURABLE: DandoriTarget<"durable"> = {
  name: "durable",
  express: false,
  yaml: false,
  check: durableCheck,
  generate,
};
