/**
 * The pieces of Python both Python targets print alike (pydantic-graph's nodes, temporal-python's
 * workflow): expressions over the flow's values, a `match` arm's condition, the check of a list's
 * length, and the tables of each task's declared errors (`E`) and retriers (`R`). Values are JSON
 * as they are (`dict`, `list`, `str`, `int`, `bool`, `None`); a field is read with `dd.field`,
 * which gives None for a field that is absent.
 * @module
 */

import { unreachable } from "../../../lang/common/assert.ts";
import type { ArmCondition, ExprPlan, Plan } from "../../../lang/dandori/plan.ts";
import { str } from "./names.ts";

/** How a target reads the values an expression names. */
export interface PyReads {
  /** A variable, an input or a case's record, before any of its fields. */
  name(from: "variable" | "input" | "case", name: string): string;
  /** The `now` read before the statement at `place`. */
  now(place: string): string;
}

/** An expression's code; `place` names the statement whose `now` it reads. */
export function pyExpr(e: ExprPlan, place: string, reads: PyReads): string {
  switch (e.kind) {
    case "read": {
      let code = reads.name(e.from, e.name);
      for (const p of e.path) code = `dd.field(${code}, ${str(p.field)})`;
      return code;
    }
    case "int":
      return e.value;
    case "string":
      return e.parts.length === 0
        ? '""'
        : e.parts.map((p) => "text" in p ? str(p.text) : `dd.text(${pyExpr(p.value, place, reads)})`).join(
          " + ",
        );
    case "bool":
      return e.value ? "True" : "False";
    case "enum":
      return str(e.value);
    case "none":
      return "None";
    case "now":
      return reads.now(place);
    case "record":
      return `{${e.fields.map((f) => `${str(f.name)}: ${pyExpr(f.value, place, reads)}`).join(", ")}}`;
    case "list":
      return `[${e.items.map((i) => pyExpr(i, place, reads)).join(", ")}]`;
    default:
      return unreachable(e, "expression");
  }
}

/** A tuple literal of `items` (one item keeps its comma). */
export function tuple(items: readonly string[]): string {
  return `(${items.join(", ")}${items.length === 1 ? "," : ""})`;
}

/** An open end of a range (`None`) or its text. */
export function end(text: string | null): string {
  return text === null ? "None" : str(text);
}

/** The condition an arm takes `subject` on. */
export function conditionCode(c: ArmCondition, subject: string): string {
  switch (c.kind) {
    case "values":
      return c.values.map((v) =>
        v === "true"
          ? `${subject} is True`
          : v === "false"
          ? `${subject} is False`
          : `${subject} == ${str(v)}`
      ).join(" or ");
    case "none":
      return `${subject} is None`;
    case "some":
      return `${subject} is not None`;
    default:
      return unreachable(c, "arm condition");
  }
}

/** The check that a loop's list has at most `most` items; `fail` makes the run's failure from a name and a reason. */
export function tooMany(line: number, list: string, most: number, fail: string): string[] {
  return [
    `if len(${list}) > ${most}:`,
    `    raise ${fail}("Dandori.TooManyItems", ${str(`line ${line}: the list has `)} + str(len(${list})) + ${
      str(` items, more than the ${most} the loop takes`)
    })`,
  ];
}

/** JSON data as a Python literal: `None`, `True`, `False`, numbers, strings, lists and dicts. */
export function pyData(v: unknown): string {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "bigint" || typeof v === "number") return String(v);
  if (typeof v === "string") return str(v);
  if (Array.isArray(v)) return `[${v.map(pyData).join(", ")}]`;
  if (typeof v === "object") {
    return `{${
      Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => `${str(k)}: ${pyData(x)}`).join(
        ", ",
      )
    }}`;
  }
  throw new Error(`dandori: no Python literal for ${typeof v}`);
}

/** The tables of each task's declared errors (`E`) and retriers (`R`, in Step Functions' order). */
export function taskTables(plan: Plan): string[] {
  const lines = [
    "#: Each task's declared errors, as handlers and retriers name them.",
    "E: dict[str, tuple[str, ...]] = {",
  ];
  for (const t of plan.tasks) lines.push(`    ${str(t.name)}: ${tuple(t.errors.map((e) => str(e.name)))},`);
  lines.push(
    "}",
    "",
    "#: Each task's retriers, in Step Functions' order.",
    "R: dict[str, tuple[dd.Retrier, ...]] = {",
  );
  for (const t of plan.tasks) {
    const rs = t.retry.map((r) =>
      `dd.Retrier(${tuple(r.errors.map(str))}, ${r.maxAttempts}, ${r.intervalSeconds}, ${str(r.backoff)})`
    );
    lines.push(`    ${str(t.name)}: ${tuple(rs)},`);
  }
  lines.push("}");
  return lines;
}
