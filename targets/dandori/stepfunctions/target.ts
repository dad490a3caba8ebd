/**
 * `dandori build --target stepfunctions` (docs/targets.md#step-functions): the flow's state machine,
 * `statemachine.asl.json` (Amazon States Language, JSONata), and for each book the flow uses, its
 * Lambda function (`lambda/book_<book>_handler.py`, with `lambda/dandori_book.py` beside it). The
 * header lines and the flow's description are the definition's `Comment`, a JSON string, which nothing
 * of them can leave; in the Python files they are comment lines of one line each
 * (lang/common/visible.ts). @module
 */

import type { Plan } from "../../../lang/dandori/plan.ts";
import { type BuildOptions, type DandoriTarget, type FlowOrigin, headerLines } from "../target.ts";
import { definition } from "./asl.ts";
import { bookHandler, bookHandlerFile } from "./books.ts";
import { checkStepFunctions } from "./check.ts";
import { BOOK_RUNTIME } from "./runtimes.ts";

/** The file of the state machine's definition. */
export const DEFINITION_FILE = "statemachine.asl.json";

/** The definition's `Comment`: the header lines, the flow's description, and what the build was checked for. */
function comment(plan: Plan, origin: FlowOrigin, options: BuildOptions): string {
  const lines: string[] = [...headerLines(plan, origin)];
  if (plan.workflow.description !== null) lines.push(plan.workflow.description);
  lines.push(
    options.express ? "Checked for an Express state machine (E031)." : "For a Standard state machine.",
  );
  return lines.join("\n");
}

function generate(plan: Plan, origin: FlowOrigin, options: BuildOptions): Map<string, string> {
  const files = new Map<string, string>();
  files.set(
    DEFINITION_FILE,
    JSON.stringify(definition(plan, comment(plan, origin, options)), null, 2) + "\n",
  );
  const books = plan.books.filter((b) =>
    plan.tasks.some((t) => t.callee.kind === "book" && t.callee.book === b.name)
  );
  if (books.length > 0) files.set("lambda/dandori_book.py", BOOK_RUNTIME);
  for (const b of books) files.set(bookHandlerFile(b.name), bookHandler(plan, b, origin));
  return files;
}

/** The Step Functions target. */
export const STEPFUNCTIONS: DandoriTarget<"stepfunctions"> = {
  name: "stepfunctions",
  express: true,
  yaml: false,
  check: checkStepFunctions,
  generate,
};
