/**
 * How the temporal-python target spells a flow's names in Python, through the Python naming of
 * `../python/names.ts` (docs/dandori.md#names-in-generated-code):
 *
 * - **Variables** (every name a statement binds, loop variables among them) are locals of the
 *   workflow's `run` method and of the functions of its parallel iterations (an input is read from
 *   `run`'s `input` by its name, so it is never spelt): `ident` appends `_`
 *   to a name whose base is a Python keyword or built-in, a name those functions read (`dd`, `T`,
 *   `E`, `R`, `A`, `typing`, `self`, `resume`, `e` …) or one of the shapes of their own locals
 *   (`a_s12`, `got_s12`, `m_s12`, `i_s12`, `list_s12`, `coll_s12`, `out_s12`, `iteration_s12`,
 *   `e0`, anything starting `dd_`).
 * - **Tasks** that run as activities are methods of `activities.py`'s `_Activities` and `OwnTasks`:
 *   the same `ident`, which also keeps clear of the names their class bodies read (`activity`,
 *   `Call`, `io`) and of the attributes `_own` and `_transport`.
 * - **Types** are `types.py`'s, spelt as pydantic-graph spells them (`../python/names.ts`).
 *
 * Keys (fields, parameters, inputs, outputs, cases) and wire names (the workflow type, activity
 * names, queries, Updates, signals) keep their spelling in string literals. Two names of one scope
 * spelt alike, and a name Python refuses, are E006 (`temporalPythonNames`).
 * @module
 */

import type { Plan } from "../../../lang/dandori/plan.ts";
import { planVariables, type Refused, type Spelled } from "../naming.ts";
import { pythonIdent, pythonRefused, typesNames } from "../python/names.ts";
import { activityTasks } from "../temporal/wire.ts";

/** The names the generated modules import or declare where a variable or a task is spelt. */
const TAKEN = new Set([
  "annotations",
  "typing",
  "dd",
  "T",
  "E",
  "R",
  "A",
  "self",
  "resume",
  "e",
  "activity",
  "io",
  "Call",
  "_own",
  "_transport",
]);

/**
 * The shapes of the generated locals: a statement's arguments, answer, subject, loop counter, list,
 * yields, outputs and parallel iteration (`a_s12` …), the element of a check (`e0`), and every `dd_` name.
 */
const OWN_SHAPES = /^(?:(?:a|got|m|i|list|coll|out|iteration)_s[0-9]|e[0-9]+$)/;

/** A flow's variable (a local) or a task (a method) as a Python identifier. */
export function ident(name: string): string {
  return pythonIdent(name, (base) => TAKEN.has(base) || OWN_SHAPES.test(base));
}

/**
 * Every name the target writes as code, by scope — the variables (`run`'s locals), the tasks that
 * run as activities (methods), and `types.py`'s names — with the names Python refuses.
 */
export function temporalPythonNames(
  plan: Plan,
): { spelled: readonly Spelled[]; refused: readonly Refused[] } {
  const variables = planVariables(plan)
    .filter((v) => v.what === "variable")
    .map((v) => ({ scope: "run", ...v, spelling: ident(v.name) }));
  const tasks = activityTasks(plan).map((t) => ({
    scope: "activities",
    name: t.name,
    what: "task" as const,
    line: t.line,
    spelling: ident(t.name),
  }));
  const spelled = [...variables, ...tasks, ...typesNames(plan)];
  return { spelled, refused: pythonRefused(spelled) };
}
