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

import { pythonLiteral } from "../../chobo/python_names.ts";
import { tr } from "../../../lang/common/text.ts";
import { planVariables, type Refused, type Spelled, unspellable } from "../naming.ts";
import { PYTHON_IDENTIFIER, pythonIdent, pythonNormal, pythonRefusal } from "../python/names.ts";
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

/** The names `types.py` declares or imports itself. */
const TYPES_TAKEN = new Set(["dd", "typing", "annotations", "WorkflowInput", "WorkflowOutput"]);

/** A flow's variable (a field of `State`) or a task (a method) as a Python identifier. */
export function ident(name: string): string {
  return pythonIdent(name, TAKEN);
}

/** A record's or an enum's type name (`stock.reserve` → `stock_reserve`). */
export function typeName(name: string): string {
  return pythonIdent(name.replaceAll(".", "_"), TYPES_TAKEN);
}

/** The TypedDict of a task's arguments. */
export function argsType(task: string): string {
  return `Args_${pythonNormal(task)}`;
}

/** A Python string literal in double quotes, one line. */
export function str(text: string): string {
  return pythonLiteral(text, '"');
}

/** A statement's place as a part of an identifier (`s12:period` → `s12_period`). */
export function placeName(place: string): string {
  return place.replace(/[^A-Za-z0-9_]/g, "_");
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
  const types = [
    ...plan.records.flatMap((r) => {
      const t = { scope: "types.py", name: r.name, what: "record" as const, line: r.line };
      return [{ ...t, spelling: typeName(r.name) }, { ...t, spelling: `is_${typeName(r.name)}` }];
    }),
    ...plan.enums.flatMap((e) => {
      const t = { scope: "types.py", name: e.name, what: "enum" as const, line: e.line };
      return [{ ...t, spelling: typeName(e.name) }, { ...t, spelling: `${typeName(e.name)}_VALUES` }];
    }),
    ...plan.tasks.map((t) => ({
      scope: "types.py",
      name: t.name,
      what: "task" as const,
      line: t.line,
      spelling: argsType(t.name),
    })),
  ];
  const spelled = [...variables, ...tasks, ...types];
  const refused = spelled.flatMap((s) => {
    const why = pythonRefusal(s.name);
    return why === null ? [] : [{ name: s.name, what: s.what, line: s.line, why }];
  });
  const odd = unspellable(
    spelled,
    PYTHON_IDENTIFIER,
    tr("it is not a Python identifier", "Python の識別子ではありません"),
  );
  return {
    spelled,
    refused: [...new Map([...refused, ...odd].map((r) => [`${r.what}\u0000${r.name}`, r])).values()],
  };
}
