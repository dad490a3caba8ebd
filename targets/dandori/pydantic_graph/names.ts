/**
 * How the pydantic-graph target spells a flow's names in Python: a variable, a task's method or a
 * record's type is the name as written (NFKC-normalized, as Python reads identifiers), with a
 * trailing `_` after a Python keyword (chobo's `spell`) or a name the generated modules take for
 * themselves; every field the graph's `State` keeps for itself starts with `dd_`, so a flow's name
 * starting so gets `_` too. Values' keys and wire names stay as written, in string literals.
 * @module
 */

import { spell } from "../../chobo/names.ts";
import { pythonLiteral } from "../../chobo/python_names.ts";

/** Names the generated modules declare or import themselves. */
const TAKEN = new Set([
  "dd",
  "T",
  "io",
  "typing",
  "Any",
  "State",
  "Deps",
  "Tasks",
  "OwnTasks",
  "Call",
  "graph",
]);

/** A flow's name as a Python identifier. */
export function ident(name: string): string {
  const n = name.normalize("NFKC");
  return spell(n, "python") !== n || TAKEN.has(n) || n.startsWith("dd_") ? `${n}_` : n;
}

/** A record's or an enum's type name (`stock.reserve` → `stock_reserve`). */
export function typeName(name: string): string {
  return ident(name.replaceAll(".", "_"));
}

/** The TypedDict of a task's arguments. */
export function argsType(task: string): string {
  return `Args_${ident(task)}`;
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
