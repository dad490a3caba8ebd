/**
 * The `temporal-go` target (docs/targets.md#temporal-go): a flow as one Go package for Temporal's
 * Go SDK — `doc.go`, `types.go`, `values.go`, `runtime.go`, `io.go` (and `io_aws.go` only when the
 * flow calls Lambda or AWS, `io_books.go` only when it uses books, `io_agents.go` only when it has
 * an agent task), `activities.go`,
 * `workflow.go`, `codec.go` only when the flow writes `history encrypted` (the payload codec),
 * `client.go`, `worker.go` — in a package named in ASCII (`goPackage`), gofmt'd as
 * written, with no `go.mod`. Every wire name is the TypeScript package's
 * (`targets/dandori/temporal/target.ts`): workflow type and task queue `<name>_v<n>`, activity names
 * = task names, the query `dandori.status`, the Updates `dandori.answer` and `dandori.event`, the
 * signal `dandori.callback`, the search attribute `DandoriCases` with the memo `dandori.cases`,
 * child ids `<parent id>/<place>/<loop counts>/<attempt>`, the continued run's `resume`, so that Go,
 * TypeScript and Python workers share a workflow's activities and children. Every file starts with
 * the header; the workflow's description follows its package clause as comment lines.
 * @module
 */

import { createHash } from "node:crypto";
import type { Plan } from "../../../lang/dandori/plan.ts";
import type { DandoriTarget, FlowOrigin } from "../target.ts";
import { goPackage } from "../go/names.ts";
import { eventNames, workflowType } from "../temporal/wire.ts";
import { activitiesModule } from "./activities_go.ts";
import { temporalGoCheck } from "./check.ts";
import { clientModule } from "./client_go.ts";
import { docModule } from "./doc_go.ts";
import { goFile, runtimeBody } from "./go_text.ts";
import { callsAws, hasAgents, ioAwsModule, ioBooksModule, ioModule, usesBooks } from "./io_go.ts";
import { AGENTS_RUNTIME, CODEC, RUNTIME, VALUES } from "./runtimes.ts";
import { typesModule } from "./types_go.ts";
import { workerModule } from "./worker_go.ts";
import { workflowModule } from "./workflow_go.ts";

/** Every file of the package, by name. */
function generate(plan: Plan, origin: FlowOrigin): ReadonlyMap<string, string> {
  const pkg = goPackage(plan, origin.file);
  const type = workflowType(plan);
  const file = (body: string) => goFile(plan, origin, pkg, body);
  const clause = `package ${pkg}\n\n`;
  const files = new Map<string, string>([
    ["doc.go", file(docModule(plan, pkg))],
    ["types.go", file(clause + typesModule(plan))],
    ["values.go", file(runtimeBody(VALUES, pkg))],
    ["runtime.go", file(runtimeBody(RUNTIME, pkg))],
    ["io.go", file(ioModule(plan, pkg))],
  ]);
  if (callsAws(plan)) files.set("io_aws.go", file(ioAwsModule(plan, pkg)));
  if (usesBooks(plan)) files.set("io_books.go", file(ioBooksModule(plan, pkg)));
  if (hasAgents(plan)) files.set("io_agents.go", file(runtimeBody(AGENTS_RUNTIME, pkg)));
  files.set("activities.go", file(clause + activitiesModule(plan)));
  files.set("workflow.go", file(clause + workflowModule(plan)));
  const encrypted = plan.workflow.historyEncrypted;
  if (encrypted) files.set("codec.go", file(runtimeBody(CODEC, pkg)));
  files.set("client.go", file(clause + clientModule(type, eventNames(plan), encrypted)));
  const hash = createHash("sha256");
  for (const [name, text] of files) hash.update(`${name}\n${text}\n`);
  hash.update(workerModule("", encrypted));
  const buildId = `dandori-${hash.digest("hex").slice(0, 16)}`;
  files.set("worker.go", file(clause + workerModule(buildId, encrypted)));
  return files;
}

/** The target record. */
export const TEMPORAL_GO: DandoriTarget<"temporal-go"> = {
  name: "temporal-go",
  express: false,
  yaml: false,
  check: temporalGoCheck,
  generate,
};
