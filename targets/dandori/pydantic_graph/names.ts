/**
 * How the pydantic-graph target spells a flow's names in Python, through the Python naming of
 * `../python/names.ts`: a variable is a field of the graph's `State` (`s.<name>`), a task a method
 * of `Tasks`, `OwnTasks` and the class that implements them, a record or an enum a name of
 * `types.py` (`stock.reserve` → `stock_reserve`), each task's arguments `Args_<task>` there too.
 * Every field the graph's `State` keeps for itself starts with `dd_`. Values' keys and wire names
 * stay as written, in string literals. Two names of one scope spelt alike, and a name Python
 * refuses, are E006 (`pydanticGraphNames`).
 * @module
 */

import { planVariables, type Refused, type Spelled } from "../naming.ts";
import { placeName, pythonIdent, pythonRefused, typesNames } from "../python/names.ts";
import type { Plan } from "../../../lang/dandori/plan.ts";

/** Names the generated modules declare or import where a variable or a task is spelt. */
const TAKEN = new Set([
  "dd",
  "T",
  "io",
  "typing",
  "copy",
  "field",
  "dataclass",
  "annotations",
  "State",
  "Deps",
  "Tasks",
  "OwnTasks",
  "Call",
  "graph",
  "_own",
  "_transport",
]);

/** A flow's variable (a field of `State`) or a task (a method) as a Python identifier. */
export function ident(name: string): string {
  return pythonIdent(name, (base) => TAKEN.has(base));
}

/** The node class of a statement's place (`s12` → `S12`), or of its loop's next iteration. */
export function nodeClass(place: string, again = false): string {
  return `S${placeName(place).slice(1)}${again ? "_again" : ""}`;
}

/**
 * Every name the target writes as code, by scope: the variables (`State`'s fields), the tasks
 * (methods), and the names of `types.py` (records, enums, their checks and values, `Args_<task>`),
 * with the names Python refuses.
 */
export function pydanticGraphNames(plan: Plan): { spelled: readonly Spelled[]; refused: readonly Refused[] } {
  const variables = planVariables(plan)
    .filter((v) => v.what === "variable")
    .map((v) => ({ scope: "State", ...v, spelling: ident(v.name) }));
  const tasks = plan.tasks.map((t) => ({
    scope: "Tasks",
    name: t.name,
    what: "task" as const,
    line: t.line,
    spelling: ident(t.name),
  }));
  const types = typesNames(plan);
  const spelled = [...variables, ...tasks, ...types];
  return { spelled, refused: pythonRefused(spelled) };
}
