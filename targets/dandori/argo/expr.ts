/**
 * The flow's values as Argo's expressions (expr-lang, the language of `valueFrom.expression`), and the
 * checks of what comes in (docs/targets.md#argo).
 *
 * - **Literals.** Every string of the flow is an expression literal with every character outside
 *   `[A-Za-z0-9 _.,:/-]` escaped (`\u…`, `\U…`): no `{{` Argo would substitute, no `"` or `\` that
 *   would end the literal, no `(` that would read as a call, no line break, no character outside
 *   ASCII in the YAML.
 * - **A value** reads the flow's variables through `let`s the template's expression binds (`let v3 =
 *   fromJSON(…)`); a field is `x["field"]` (a missing one is `nil`); a string with values joins its
 *   parts with `+`, each value written as the interpreter's `textOf` writes it.
 * - **A check** (`fits`) never fails its evaluation, whatever it is given: each test first
 *   asks `type(x)`, and expr-lang's `&&` stops at the first false, so a field is read only from a map,
 *   an enum's `in` only ever meets a string (expr-lang turns `in` over constant strings into a map
 *   lookup that fails on any other key), a date or a time is parsed only once it has the shape
 *   (`sprig.toDate` answers the zero time for a day that does not exist, never an error).
 * @module
 */

import { lookup, unreachable } from "../../../lang/common/assert.ts";
import type { ExprPlan, Plan, RangePlan, TypePlan } from "../../../lang/dandori/plan.ts";

/** What an expression needs to know of where it is evaluated. */
export interface ExprEnv {
  /** The expression of a flow variable's value, input or case (bound by a `let` of the template). */
  value(name: string): string;
  /** What `now` reads here: the clock template's time before the statement. */
  readonly now: string;
}

/** Characters an expression literal keeps as they are. */
const PLAIN = /[A-Za-z0-9 _.,:/-]/;

/**
 * An expr-lang string literal of `text`, every character outside `[A-Za-z0-9 _.,:/-]` escaped.
 *
 * @example
 * ```ts
 * lit('a "b" {{c}}'); // "a \u0022b\u0022 \u007b\u007bc\u007d\u007d"
 * ```
 */
export function lit(text: string): string {
  let out = '"';
  for (const c of text) {
    if (PLAIN.test(c)) {
      out += c;
      continue;
    }
    const p = c.codePointAt(0) ?? 0;
    out += p <= 0xffff ? `\\u${p.toString(16).padStart(4, "0")}` : `\\U${p.toString(16).padStart(8, "0")}`;
  }
  return `${out}"`;
}

/** A field of a value: `x["name"]` (nil when it is missing). */
export function field(x: string, name: string): string {
  return `${x}[${lit(name)}]`;
}

/**
 * A value written into a string, as the interpreter's `textOf` writes it: a string as it is, a number or
 * a bool as text, the rest as JSON. A number read from JSON is a float, which `string` writes with an
 * exponent from 16 digits on (`7.772631364618537e+15`): a whole one within int64 is written as an int.
 */
export function text(x: string): string {
  return `(type(${x}) == "string" ? ${x} : type(${x}) == "float" && ${x} > -9e18 && ${x} < 9e18 && ${x} == int(${x}) ? string(int(${x})) : type(${x}) in ["int", "float", "bool"] ? string(${x}) : toJson(${x}))`;
}

/** A value of the flow as an expression. */
export function expr(e: ExprPlan, env: ExprEnv): string {
  switch (e.kind) {
    case "read": {
      let out = env.value(e.name);
      for (const step of e.path) out = field(out, step.field);
      return out;
    }
    case "int":
      return e.value;
    case "string":
      if (e.parts.length === 0) return '""';
      return `(${e.parts.map((p) => "text" in p ? lit(p.text) : text(expr(p.value, env))).join(" + ")})`;
    case "bool":
      return String(e.value);
    case "enum":
      return lit(e.value);
    case "none":
      return "nil";
    case "now":
      return env.now;
    case "record":
      return e.fields.length === 0
        ? "{}"
        : `{${e.fields.map((f) => `${lit(f.name)}: ${expr(f.value, env)}`).join(", ")}}`;
    case "list":
      return `[${e.items.map((i) => expr(i, env)).join(", ")}]`;
    default:
      return unreachable(e, "value");
  }
}

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

const DATE_RE = lit("^[0-9]{4}-[0-9]{2}-[0-9]{2}$");
const TIME_RE = lit("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?Z$");
const DAY_LAYOUT = lit("2006-01-02");
const SECOND_LAYOUT = lit("2006-01-02T15:04:05");

function rangeTest(range: RangePlan | null, x: string): string {
  if (range === null) return "";
  const parts: string[] = [];
  switch (range.kind) {
    case "number":
      if (range.lower !== null) parts.push(`${x} >= ${range.lower}`);
      if (range.upper !== null) parts.push(`${x} <= ${range.upper}`);
      break;
    case "date":
      if (range.first !== null) parts.push(`${x} >= ${lit(range.first)}`);
      if (range.last !== null) parts.push(`${x} <= ${lit(range.last)}`);
      break;
    case "time":
      if (range.first !== null) parts.push(`${x}[0:19] >= ${lit(range.first)}`);
      if (range.after !== null) parts.push(`${x}[0:19] < ${lit(range.after)}`);
      break;
    default:
      return unreachable(range, "range");
  }
  return parts.map((p) => ` && ${p}`).join("");
}

/**
 * True when `x` has type `t` and lies in `range`, as the interpreter's `fits` says (values.ts): nil
 * only where a `T?` or a `json` is; a record's missing field only where it is one of those. `x` is
 * an expression without side effects that may be read more than once (a name, `#`, a field of one).
 */
export function fits(types: TypeTables, t: TypePlan, range: RangePlan | null, x: string): string {
  switch (t.kind) {
    case "json":
      return "true";
    case "optional":
      return `(${x} == nil || ${fits(types, t.inner, range, x)})`;
    case "int":
    case "num":
      return `(type(${x}) in ["int", "float"] && ${x} == floor(${x})${rangeTest(range, x)})`;
    case "string":
      return `type(${x}) == "string"`;
    case "bool":
      return `type(${x}) == "bool"`;
    case "date":
      return `(type(${x}) == "string" && ${x} matches ${DATE_RE} && sprig.toDate(${DAY_LAYOUT}, ${x}).Format(${DAY_LAYOUT}) == ${x}${
        rangeTest(range, x)
      })`;
    case "timestamp":
      return `(type(${x}) == "string" && ${x} matches ${TIME_RE} && sprig.toDate(${SECOND_LAYOUT}, ${x}[0:19]).Format(${SECOND_LAYOUT}) == ${x}[0:19]${
        rangeTest(range, x)
      })`;
    case "enum": {
      const values = lookup(types.enums, t.name, "enum").values;
      return `(type(${x}) == "string" && ${x} in [${values.map(lit).join(", ")}])`;
    }
    case "list":
      return `(type(${x}) == "array" && all(${x}, {${fits(types, t.element, range, "#")}}))`;
    case "record": {
      const r = lookup(types.records, t.name, "record");
      const fields = r.fields.map((f) => {
        const v = field(x, f.name);
        const absent = f.type.kind === "optional" || f.type.kind === "json";
        return `(${lit(f.name)} in ${x} ? ${fits(types, f.type, f.range, v)} : ${absent})`;
      });
      return `(type(${x}) == "map"${fields.map((f) => ` && ${f}`).join("")})`;
    }
    default:
      return unreachable(t, "type");
  }
}

/**
 * The value of a JSON text that comes from outside, as `[ok, value]` read by the caller: `sprig.fromJson`
 * answers nil for a text that is no JSON, and wrapping the text in `[…]` tells a JSON `null` or `""`
 * from no JSON at all (the wrapped text is a one-item array only when the text is one JSON value).
 */
export function parsed(textExpr: string): string {
  return `sprig.fromJson("[" + ${textExpr} + "]")`;
}

/** True when a `parsed` result holds one value. */
export function parsedOne(p: string): string {
  return `(type(${p}) == "array" && len(${p}) == 1)`;
}
