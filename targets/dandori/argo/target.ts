/**
 * The `argo` target (docs/targets.md#argo): a flow as an Argo Workflows WorkflowTemplate,
 * `<name>.argo.yaml` (`<name>` the flow's Kubernetes name, `kubernetes.ts`), and the `caller/` image
 * the tasks dandori writes run in — `types.ts` (the shared types and checks), `tasks.ts` (the shared
 * task bodies), `io.ts` (Temporal's, byte for byte), `rules.ts` (the shared rules) and `runtime.ts`
 * (which exports them again, as the other packages' runtimes do), `transport.ts`,
 * `call.ts`, `package.json` and `Dockerfile`. Every file but `package.json` starts with the header and
 * the workflow's description as comment lines; the YAML's header also says which global parameter
 * holds which of the flow's variables.
 * @module
 */

import { assert } from "../../../lang/common/assert.ts";
import type { Plan } from "../../../lang/dandori/plan.ts";
import { planVariables } from "../naming.ts";
import {
  type BuildOptions,
  commentLines,
  type DandoriTarget,
  type FlowOrigin,
  headerLines,
} from "../target.ts";
import { ioModule } from "../temporal/io_ts.ts";
import { slashHeader } from "../typescript/header.ts";
import { RULES } from "../typescript/runtimes.ts";
import { tasksModule } from "../typescript/tasks_ts.ts";
import { typesModule } from "../typescript/types_ts.ts";
import {
  CALLER_RUNTIME,
  callerTasks,
  callModule,
  dockerfile,
  packageJson,
  transportModule,
} from "./caller.ts";
import { argoCheck, templateName } from "./check.ts";
import { workflowTemplate } from "./workflow.ts";

/** The `#` comment lines a YAML file and the Dockerfile start with: the header, then the description. */
export function hashHeader(plan: Plan, origin: FlowOrigin): string {
  const [first, second] = headerLines(plan, origin);
  const lines = [`# ${first}`, `# ${second}`];
  if (plan.workflow.description !== null) {
    lines.push("#", ...commentLines(plan.workflow.description).map((l) => l === "" ? "#" : `# ${l}`));
  }
  return lines.join("\n") + "\n";
}

/** Which global parameter holds which variable, input and case (the YAML's header). */
function parameterLines(plan: Plan): string[] {
  const vars = planVariables(plan).map((v, i) => `v${i + 1}: ${v.what} ${v.name}`);
  const cases = plan.cases.map((c, i) => `c${i + 1}: case ${c.name}`);
  return commentLines(["Global parameters:", ...vars, ...cases].join("\n")).map((l) => `# ${l}`);
}

/** The YAML's file name: the WorkflowTemplate's name. */
export function yamlFile(plan: Plan): string {
  const name = templateName(plan);
  assert(name !== null, "a flow Argo builds has a Kubernetes name (E006)");
  return `${name}.argo.yaml`;
}

function generate(plan: Plan, origin: FlowOrigin, options: BuildOptions): ReadonlyMap<string, string> {
  const name = templateName(plan);
  assert(name !== null, "a flow Argo builds has a Kubernetes name (E006)");
  assert(options.yaml !== null, "the argo target is handed a YAML writer");
  const doc = workflowTemplate(plan, name).doc;
  // The one string of the flow the YAML holds as it is, the description's annotation, is double-quoted;
  // there a YAML 1.1 reader (Kubernetes' own) folds a raw U+0085, U+2028 or U+2029 into a space, so
  // they are written as the escapes both versions read (`\N`, `\L`, `\P`).
  const body = options.yaml(doc, { lineWidth: 0 }).replaceAll("\u0085", "\\N").replaceAll("\u2028", "\\L")
    .replaceAll("\u2029", "\\P");
  const yaml = `${hashHeader(plan, origin)}#\n${parameterLines(plan).join("\n")}\n${body}`;
  const head = slashHeader(plan, origin);
  return new Map<string, string>([
    [yamlFile(plan), yaml],
    ["caller/types.ts", head + typesModule(plan)],
    ["caller/tasks.ts", head + tasksModule(plan, callerTasks(plan))],
    ["caller/io.ts", head + ioModule(plan)],
    ["caller/runtime.ts", head + CALLER_RUNTIME],
    ["caller/rules.ts", head + RULES],
    ["caller/transport.ts", head + transportModule()],
    ["caller/call.ts", head + callModule(plan)],
    ["caller/package.json", packageJson(plan, name)],
    ["caller/Dockerfile", dockerfile(hashHeader(plan, origin))],
  ]);
}

/** The target record. */
export const ARGO: DandoriTarget<"argo"> = {
  name: "argo",
  express: false,
  yaml: true,
  check: argoCheck,
  generate,
};
