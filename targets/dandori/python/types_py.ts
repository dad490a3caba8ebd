/**
 * `types.py`: the flow's types in Python (enums as `Literal`s with their values' tuple, records,
 * each task's arguments and the workflow's input and output as `TypedDict`s) and the checks every
 * value that comes in passes (docs/design/dandori.md#ranges): `is_<Record>`, `is_WorkflowInput` and
 * the check of a task's result, with ranges compared as every platform compares them.
 * @module
 */

import { assert, unreachable } from "../../../lang/common/assert.ts";
import type { FieldPlan, Plan, RangePlan, TypePlan } from "../../../lang/dandori/plan.ts";
import { argsType, str, typeName } from "./names.ts";

/** The Python type of a flow's type, written inside `types.py` (`prefix` "") or outside (`T.`). */
export function pyType(t: TypePlan, prefix: string): string {
  switch (t.kind) {
    case "int":
    case "num":
      return "int";
    case "string":
    case "timestamp":
    case "date":
      return "str";
    case "bool":
      return "bool";
    case "json":
      return "typing.Any";
    case "enum":
    case "record":
      return `${prefix}${typeName(t.name)}`;
    case "list":
      return `list[${pyType(t.element, prefix)}]`;
    case "optional":
      return `${pyType(t.inner, prefix)} | None`;
    default:
      return unreachable(t, "type");
  }
}

function numberEnd(text: string | null): string {
  if (text === null) return "None";
  assert(/^-?[0-9]+$/.test(text), `a range's end ${text} is an integer`);
  return text;
}

function end(text: string | null): string {
  return text === null ? "None" : str(text);
}

/** The values' tuple of an enum. */
export function enumValues(name: string): string {
  return `${typeName(name)}_VALUES`;
}

/** The check that `v` (an expression) has type `t` and lies in `range`. */
export function checkExpr(
  t: TypePlan,
  range: RangePlan | null,
  v: string,
  prefix: string,
  depth = 0,
): string {
  const inner = (): string => {
    switch (t.kind) {
      case "int":
      case "num":
        return range?.kind === "number"
          ? `dd.is_int(${v}, ${numberEnd(range.lower)}, ${numberEnd(range.upper)})`
          : `dd.is_int(${v}, None, None)`;
      case "string":
        return `isinstance(${v}, str)`;
      case "bool":
        return `isinstance(${v}, bool)`;
      case "timestamp":
        return range?.kind === "time"
          ? `dd.is_time(${v}, ${end(range.first)}, ${end(range.after)})`
          : `dd.is_time(${v}, None, None)`;
      case "date":
        return range?.kind === "date"
          ? `dd.is_date(${v}, ${end(range.first)}, ${end(range.last)})`
          : `dd.is_date(${v}, None, None)`;
      case "json":
        return "True";
      case "enum":
        return `${v} in ${prefix}${enumValues(t.name)}`;
      case "record":
        return `${prefix}is_${typeName(t.name)}(${v})`;
      case "list": {
        const e = `e${depth}`;
        return `dd.is_list_of(${v}, lambda ${e}: ${checkExpr(t.element, range, e, prefix, depth + 1)})`;
      }
      case "optional":
        return checkExpr(t.inner, range, v, prefix, depth);
      default:
        return unreachable(t, "type");
    }
  };
  return t.kind === "optional" || t.kind === "json" ? `(${v} is None or ${inner()})` : `(${inner()})`;
}

function typedDict(name: string, fields: readonly FieldPlan[], what: string): string {
  const items = fields.map((f) => {
    const missing = f.type.kind === "optional" || f.type.kind === "json";
    const t = pyType(f.type, "");
    return `${str(f.name)}: ${str(missing ? `typing.NotRequired[${t}]` : t)}`;
  });
  return `#: ${what}\n${name} = typing.TypedDict(${str(name)}, {${items.join(", ")}})`;
}

function recordCheck(name: string, fields: readonly FieldPlan[]): string {
  const checks = fields.map((f) => checkExpr(f.type, f.range, `dd.field(v, ${str(f.name)})`, ""));
  return [
    `def is_${name}(v: object) -> bool:`,
    `    """True when \`v\` is a ${name}."""`,
    `    return dd.is_object(v)${checks.map((c) => ` and ${c}`).join("")}`,
  ].join("\n");
}

/** The text of `types.py` after its header. */
export function typesModule(plan: Plan): string {
  const parts: string[] = [];
  for (const e of plan.enums) {
    const values = e.values.map(str);
    parts.push(
      [
        `#: The values of ${typeName(e.name)}, in written order.`,
        `${enumValues(e.name)}: tuple[str, ...] = (${values.join(", ")}${values.length === 1 ? "," : ""})`,
        `${typeName(e.name)} = typing.Literal[${values.join(", ")}]`,
      ].join("\n"),
    );
  }
  for (const r of plan.records) {
    const name = typeName(r.name);
    parts.push(typedDict(name, r.fields, `The record ${name}.`), recordCheck(name, r.fields));
  }
  for (const t of plan.tasks) parts.push(typedDict(argsType(t.name), t.params, "A task's arguments."));
  parts.push(
    typedDict("WorkflowInput", plan.inputs, "The workflow's input."),
    recordCheck("WorkflowInput", plan.inputs),
    plan.outputs.length === 0
      ? "#: The workflow has no outputs: it ends with None.\nWorkflowOutput = None"
      : typedDict("WorkflowOutput", plan.outputs, "The workflow's outputs (a `T?` not given is None)."),
  );
  // One blank line after the imports, as isort puts it before a statement that is no definition.
  return "from __future__ import annotations\n\nimport typing\n\nfrom . import runtime as dd\n\n" +
    parts.join("\n\n\n") + "\n";
}
