/**
 * The flow's values as JSONata expressions (docs/targets.md#step-functions), and the checks of what
 * comes in.
 *
 * - A value: a variable is `$<name>` and a field `` .`field` ``; a field that may be missing (a
 *   `T?` or a `json`) reads `($exists(x) ? x : null)`, because an expression that gives nothing
 *   fails its state (`States.QueryEvaluationError`). A string with values is `&` of its parts,
 *   which writes a value as `textOf` does (strings as they are, the rest as JSON). A list is
 *   written `[a, b]`, except that JSONata's array constructor spreads an item that is itself an
 *   array, so an item that can be one (a `json`) is put in as `[[x]]`.
 * - A check (`fits`): the same tests the interpreter makes (values.ts), as one boolean
 *   expression: numbers are whole JSON numbers within the range's ends, a date is its 10
 *   characters of a day of the calendar, a time its first 19 characters of a second that exists
 *   (both read back through `$fromMillis` with a picture, which does not fail on a text that is no
 *   time), records by their own fields, lists item by item. JSONata's `and` stops at the first
 *   false, so no test reads what an earlier test refused.
 * @module
 */

import { assert, lookup, unreachable } from "../../../lang/common/assert.ts";
import type { ExprPlan, Plan, RangePlan, TypePlan } from "../../../lang/dandori/plan.ts";

/** What an expression needs to know of where it is evaluated. */
export interface ExprEnv {
  /** The JSONata variable of a flow's variable, input or case (with its `$`). */
  variable(name: string): string;
  /** What `now` reads here: the period check's time, or the state's entered time. */
  readonly now: string;
}

/** The state's entered time to the second: `now` where no period check read it first. */
export const ENTERED_SECOND = '($substring($states.context.State.EnteredTime, 0, 19) & "Z")';

/** `{% … %}`: a JSONata expression where a field of the definition takes one. */
export function jx(e: string): string {
  return `{% ${e} %}`;
}

/** A field value of the definition: a JSON value, or a string that is a JSONata expression. */
export type AslValue = null | boolean | number | string | readonly AslValue[] | {
  readonly [k: string]: AslValue;
};

/** A JSONata string literal (JSON's escapes are JSONata's). */
export function str(text: string): string {
  return JSON.stringify(text);
}

/** `($exists(x) ? x : null)`: a value that may be missing, read as null. */
export function orNull(x: string): string {
  return `($exists(${x}) ? ${x} : null)`;
}

/** A field of a JSONata value. */
export function field(x: string, name: string): string {
  return `${x}.\`${name.replaceAll("`", "``")}\``;
}

function mayBeMissing(t: TypePlan): boolean {
  return t.kind === "optional" || t.kind === "json";
}

/** True when a value of `t` may be a JSON array at run time that is not a list of the flow. */
function mayBeArray(t: TypePlan): boolean {
  return t.kind === "json" || (t.kind === "optional" && t.inner.kind === "json");
}

/** A one-item list of `x`, which stays one item when `x` is an array (`[[x]]` keeps it whole). */
export function single(x: string, t: TypePlan): string {
  return mayBeArray(t) ? `($type(${x}) = "array" ? [[${x}]] : [${x}])` : `[${x}]`;
}

/** True when a value of `t` may be a number at run time: an `int`, a `num`, or `json`. */
function mayBeNumber(t: TypePlan): boolean {
  const inner = t.kind === "optional" ? t.inner : t;
  return inner.kind === "int" || inner.kind === "num" || inner.kind === "json";
}

/**
 * A value written into text as the interpreter's `textOf` writes it. JSONata's `$string` writes a
 * number to 15 significant digits (`7772631364618537` as `7772631364618540`), so a whole number under
 * 10²¹ is written by `$formatBase`, every digit a double holds, as JavaScript writes it; a fraction of
 * more than 15 significant digits is still written to 15 (docs/targets.md).
 */
export function textOf(x: string): string {
  const v = "$dd_text";
  return `(${v} := ${x}; $type(${v}) = "number" ? (${v} = $floor(${v}) and $abs(${v}) < 1e21 ? $formatBase(${v}, 10) : $string(${v})) : $string(${v}))`;
}

/** A value of the flow as a JSONata expression. */
export function expr(e: ExprPlan, env: ExprEnv): string {
  switch (e.kind) {
    case "read": {
      let out = env.variable(e.name);
      for (const step of e.path) {
        out = field(out, step.field);
        if (mayBeMissing(step.type)) out = orNull(out);
      }
      return out;
    }
    case "int":
      return e.value;
    case "string":
      if (e.parts.length === 0) return '""';
      return `(${
        e.parts.map((p) =>
          "text" in p
            ? str(p.text)
            : mayBeNumber(p.value.type)
            ? textOf(expr(p.value, env))
            : `$string(${expr(p.value, env)})`
        ).join(" & ")
      })`;
    case "bool":
      return String(e.value);
    case "enum":
      return str(e.value);
    case "none":
      return "null";
    case "now":
      return env.now;
    case "record":
      return `{${e.fields.map((f) => `${str(f.name)}: ${expr(f.value, env)}`).join(", ")}}`;
    case "list": {
      const element = e.type.kind === "list" ? e.type.element : null;
      assert(element !== null, "a list's type is a list");
      if (!mayBeArray(element)) return `[${e.items.map((i) => expr(i, env)).join(", ")}]`;
      return e.items.reduce((acc, i) => `$append(${acc}, ${single(expr(i, env), element)})`, "[]");
    }
    default:
      return unreachable(e, "value");
  }
}

/** A regular expression of JSONata, with no backslash (the text is written into JSON). */
const DATE_RE = "/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/";
const TIME_RE = "/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?Z$/";
const DAY_PICTURE = '"[Y0001]-[M01]-[D01]"';
const SECOND_PICTURE = '"[Y0001]-[M01]-[D01]T[H01]:[m01]:[s01]"';

/** The records and enums a check reads, by name. */
export interface TypeTables {
  readonly records: ReadonlyMap<string, Plan["records"][number]>;
  readonly enums: ReadonlyMap<string, Plan["enums"][number]>;
}

/** The tables of a plan. */
export function typeTables(plan: Plan): TypeTables {
  return {
    records: new Map(plan.records.map((r) => [r.name, r])),
    enums: new Map(plan.enums.map((e) => [e.name, e])),
  };
}

function rangeTest(range: RangePlan | null, x: string): string {
  if (range === null) return "";
  const parts: string[] = [];
  switch (range.kind) {
    case "number":
      if (range.lower !== null) parts.push(`${x} >= ${range.lower}`);
      if (range.upper !== null) parts.push(`${x} <= ${range.upper}`);
      break;
    case "date":
      if (range.first !== null) parts.push(`${x} >= ${str(range.first)}`);
      if (range.last !== null) parts.push(`${x} <= ${str(range.last)}`);
      break;
    case "time":
      if (range.first !== null) parts.push(`$substring(${x}, 0, 19) >= ${str(range.first)}`);
      if (range.after !== null) parts.push(`$substring(${x}, 0, 19) < ${str(range.after)}`);
      break;
    default:
      return unreachable(range, "range");
  }
  return parts.map((p) => ` and ${p}`).join("");
}

/**
 * True when `x` has type `t` and lies in `range`, as the interpreter's `fits` says (values.ts):
 * null only where a `T?` or a `json` is; a record's missing field only where it is one of those.
 */
export function fits(types: TypeTables, t: TypePlan, range: RangePlan | null, x: string, depth = 0): string {
  switch (t.kind) {
    case "json":
      return "true";
    case "optional":
      return `(${x} = null or ${fits(types, t.inner, range, x, depth)})`;
    case "int":
    case "num":
      return `($type(${x}) = "number" and $floor(${x}) = ${x}${rangeTest(range, x)})`;
    case "string":
      return `$type(${x}) = "string"`;
    case "bool":
      return `$type(${x}) = "boolean"`;
    case "date":
      return `($type(${x}) = "string" and $contains(${x}, ${DATE_RE}) and $substring($fromMillis($toMillis(${x}, ${DAY_PICTURE})), 0, 10) = ${x}${
        rangeTest(range, x)
      })`;
    case "timestamp":
      return `($type(${x}) = "string" and $contains(${x}, ${TIME_RE}) and $substring($fromMillis($toMillis($substring(${x}, 0, 19), ${SECOND_PICTURE})), 0, 19) = $substring(${x}, 0, 19)${
        rangeTest(range, x)
      })`;
    case "enum": {
      const values = lookup(types.enums, t.name, "enum").values;
      return `($type(${x}) = "string" and ${x} in [${values.map(str).join(", ")}])`;
    }
    case "list": {
      const item = `$dd_item${depth}`;
      return `($type(${x}) = "array" and $count($filter(${x}, function(${item}) { $not(${
        fits(types, t.element, range, item, depth + 1)
      }) })) = 0)`;
    }
    case "record": {
      const r = lookup(types.records, t.name, "record");
      const fields = r.fields.map((f) => {
        const v = field(x, f.name);
        return `($exists(${v}) ? ${fits(types, f.type, f.range, v, depth)} : ${mayBeMissing(f.type)})`;
      });
      return `($type(${x}) = "object"${fields.map((f) => ` and ${f}`).join("")})`;
    }
    default:
      return unreachable(t, "type");
  }
}
