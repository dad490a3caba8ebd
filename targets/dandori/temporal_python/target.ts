/**
 * The `temporal-python` target (docs/targets.md#temporal-python): a flow as a package for
 * Temporal's Python SDK (`temporalio` 1.35) — `types.py`, `runtime.py`, `rules.py`, `io.py`,
 * `activities.py`, `workflow.py`, `client.py`, `worker.py` and `__init__.py`, and for a flow that
 * writes `history encrypted` the payload codec `codec.py` — with every wire name
 * the TypeScript package's (`../temporal/wire.ts`): workflow type and task queue `<name>_v<n>`,
 * activity names = task names, the query `dandori.status`, the Updates `dandori.answer` and
 * `dandori.event`, the signal `dandori.callback`, the search attribute `DandoriCases` with the memo
 * `dandori.cases`, child ids `<parent id>/<place>/<loop counts>/<attempt>`. Every file starts with
 * the header and the workflow's description as comment lines that cannot leave their comment.
 * @module
 */

import { createHash } from "node:crypto";
import type { Plan } from "../../../lang/dandori/plan.ts";
import type { DandoriTarget, FlowOrigin } from "../target.ts";
import { hashHeader } from "../python/header.ts";
import { ioModule } from "../python/io_py.ts";
import { RULES } from "../python/runtimes.ts";
import { typesModule } from "../python/types_py.ts";
import { eventNames, workflowType } from "../temporal/wire.ts";
import { activitiesModule } from "./activities_py.ts";
import { temporalPythonCheck } from "./check.ts";
import { clientModule } from "./client_py.ts";
import { CODEC, RUNTIME } from "./runtimes.ts";
import { workerModule } from "./worker_py.ts";
import { workflowModule } from "./workflow_py.ts";

/**
 * `__init__.py`: the package's doc and nothing more. The SDK's sandbox imports it with
 * `workflow.py`, so it imports nothing (not `activities.py`, `io.py` or `worker.py`).
 */
const INIT =
  `"""The workflow as a Temporal Python package: \`worker.make_worker\`, \`client.start\`, \`activities.OwnTasks\`, \`io.transport\`."""
`;

/** Every file of the package, by name. */
function generate(plan: Plan, origin: FlowOrigin): ReadonlyMap<string, string> {
  const type = workflowType(plan);
  const head = hashHeader(plan, origin);
  const files = new Map<string, string>([
    ["__init__.py", head + INIT],
    ["types.py", head + typesModule(plan)],
    ["runtime.py", head + RUNTIME],
    ["rules.py", head + RULES],
    ["io.py", head + ioModule(plan)],
    ["activities.py", head + activitiesModule(plan)],
    ["workflow.py", head + workflowModule(plan, type)],
  ]);
  const encrypted = plan.workflow.historyEncrypted;
  if (encrypted) files.set("codec.py", head + CODEC);
  files.set("client.py", head + clientModule(type, type, eventNames(plan), encrypted));
  const hash = createHash("sha256");
  for (const [name, text] of files) hash.update(`${name}\n${text}\n`);
  hash.update(workerModule(type, "", encrypted));
  files.set("worker.py", head + workerModule(type, `dandori-${hash.digest("hex").slice(0, 16)}`, encrypted));
  return files;
}

/** The target record. */
export const TEMPORAL_PYTHON: DandoriTarget<"temporal-python"> = {
  name: "temporal-python",
  express: false,
  yaml: false,
  check: temporalPythonCheck,
  generate,
};
