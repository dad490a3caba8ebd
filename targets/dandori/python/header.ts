/**
 * The comment lines every generated Python file starts with: the header, then the workflow's
 * description, one comment line each, split at every line terminator (`commentLines`).
 * @module
 */

import type { Plan } from "../../../lang/dandori/plan.ts";
import { commentLines, type FlowOrigin, headerLines } from "../target.ts";

/** The comment lines every file starts with: the header, then the description, one line each. */
export function hashHeader(plan: Plan, origin: FlowOrigin): string {
  const [first, second] = headerLines(plan, origin);
  const lines = [`# ${first}`, `# ${second}`];
  if (plan.workflow.description !== null) {
    lines.push("#", ...commentLines(plan.workflow.description).map((l) => l === "" ? "#" : `# ${l}`));
  }
  return lines.join("\n") + "\n\n";
}
