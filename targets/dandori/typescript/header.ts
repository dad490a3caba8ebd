/**
 * The comment lines every generated TypeScript file starts with (4.7): the header, then the
 * workflow's description, one comment line each, split at every line terminator.
 * @module
 */

import type { Plan } from "../../../lang/dandori/plan.ts";
import { oneLine } from "../../../lang/common/visible.ts";
import { type FlowOrigin, headerLines } from "../target.ts";

/** Characters any host language may read as the end of a line (4.7). */
const LINE_END = /\r\n|[\n\r\u0085\u2028\u2029]/;

/** A description's lines, split at every line terminator, each made safe for one comment line (4.7). */
function commentLines(text: string): string[] {
  return text.split(LINE_END).map(oneLine);
}

/** The comment lines every file starts with: the header, then the description, one line each. */
export function slashHeader(plan: Plan, origin: FlowOrigin): string {
  const [first, second] = headerLines(plan, origin);
  const lines = [`// ${first}`, `// ${second}`];
  if (plan.workflow.description !== null) {
    lines.push("//", ...commentLines(plan.workflow.description).map((l) => l === "" ? "//" : `// ${l}`));
  }
  return lines.join("\n") + "\n\n";
}
