/**
 * The `temporal-typescript` target (docs/targets.md#temporal-typescript): a flow as a Temporal TypeScript package — `types.ts`,
 * `runtime.ts`, `rules.ts`, `io.ts`, `activities.ts`, `workflow.ts`, `worker.ts`, `client.ts`, and for a flow
 * that writes `history encrypted` the payload codec `codec.ts` and `failure.ts` — every wire name
 * as that section fixes it: workflow type and task queue `<name>_v<n>`, activity names = task names, the
 * query `dandori.status`, the Updates `dandori.answer` and `dandori.event`, the signal
 * `dandori.callback`, the search attribute `DandoriCases` with the memo `dandori.cases`, child ids
 * `<parent id>/<place>/<loop counts>/<attempt>`. Every file starts with the header and the
 * workflow's description as comment lines that cannot leave their comment.
 * @module
 */

import { createHash } from "node:crypto";
import type { Plan } from "../../../lang/dandori/plan.ts";
import type { DandoriTarget, FlowOrigin } from "../target.ts";
import { slashHeader } from "../typescript/header.ts";
import { activitiesModule } from "./activities_ts.ts";
import { temporalCheck } from "./check.ts";
import { clientModule } from "./client_ts.ts";
import { ioModule } from "./io_ts.ts";
import { CODEC, FAILURE, RUNTIME } from "./runtimes.ts";
import { RULES } from "../typescript/runtimes.ts";
import { typesModule } from "../typescript/types_ts.ts";
import { workerModule } from "./worker_ts.ts";
import { eventNames, workflowType } from "./wire.ts";
import { workflowModule } from "./workflow_ts.ts";

/** Every file of the package, by name. */
function generate(plan: Plan, origin: FlowOrigin): ReadonlyMap<string, string> {
  const type = workflowType(plan);
  const head = slashHeader(plan, origin);
  const files = new Map<string, string>([
    ["types.ts", head + typesModule(plan)],
    ["runtime.ts", head + RUNTIME],
    ["rules.ts", head + RULES],
    ["io.ts", head + ioModule(plan)],
    ["activities.ts", head + activitiesModule(plan)],
    ["workflow.ts", head + workflowModule(plan, type)],
  ]);
  const encrypted = plan.workflow.historyEncrypted;
  if (encrypted) {
    files.set("codec.ts", head + CODEC);
    files.set("failure.ts", head + FAILURE);
  }
  files.set("client.ts", head + clientModule(type, type, eventNames(plan), encrypted));
  const hash = createHash("sha256");
  for (const [name, text] of files) hash.update(`${name}\n${text}\n`);
  hash.update(workerModule(type, "", encrypted));
  files.set("worker.ts", head + workerModule(type, `dandori-${hash.digest("hex").slice(0, 16)}`, encrypted));
  return files;
}

/** The target record. */
export const TEMPORAL_TYPESCRIPT: DandoriTarget<"temporal-typescript"> = {
  name: "temporal-typescript",
  express: false,
  yaml: false,
  check: temporalCheck,
  generate,
};
