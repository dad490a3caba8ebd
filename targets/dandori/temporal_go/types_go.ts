/**
 * `types.go`: the flow's types in Go for the user's own code — each enum a string type, each
 * record a struct whose JSON tags are the flow's field names, `WorkflowInput` and `WorkflowOutput`
 * (`Decode` reads a JSON value into them) — and the checks every value that comes in passes
 * (`ddCheck<Type>`, over JSON values as the workflow holds them), with ranges compared as every
 * platform compares them (numbers as integers, dates as their 10 characters, times on their first 19).
 * @module
 */

import { assert, unreachable } from "../../../lang/common/assert.ts";
import type { FieldPlan, Plan, RangePlan, TypePlan } from "../../../lang/dandori/plan.ts";
import { goCheckName, goExported, goStr, goTypeName } from "../go/names.ts";
import { struct } from "./go_text.ts";

/** The Go type of a flow's type, for a struct's field. */
function goType(t: TypePlan): string {
  switch (t.kind) {
    case "int":
    case "num":
      return "int64";
    case "string":
    case "timestamp":
    case "date":
      return "string";
    case "bool":
      return "bool";
    case "json":
      return "any";
    case "enum":
    case "record":
      return goTypeName(t.name);
    case "list":
      return `[]${goType(t.element)}`;
    case "optional": {
      const inner = goType(t.inner);
      return inner === "any" || inner.startsWith("[]") ? inner : `*${inner}`;
    }
    default:
      return unreachable(t, "type");
  }
}

/** A range's end as a Go number literal (the design's numbers stay far below 2⁵³), or the open end. */
function numberEnd(text: string | null, open: string): string {
  if (text === null) return open;
  assert(Number.isSafeInteger(Number(text)), `a range's end ${text} is a safe integer`);
  return text;
}

function end(text: string | null): string {
  return goStr(text ?? "");
}

/**
 * The check that `v` (an expression of a JSON value) has type `t` and lies in `range`, or null when
 * every value passes (`json`).
 */
export function goCheck(t: TypePlan, range: RangePlan | null, v: string, depth = 0): string | null {
  const inner = (): string | null => {
    switch (t.kind) {
      case "int":
      case "num":
        return range?.kind === "number"
          ? `ddIsInt(${v}, ${numberEnd(range.lower, "ddMinInt")}, ${numberEnd(range.upper, "ddMaxInt")})`
          : `ddIsInt(${v}, ddMinInt, ddMaxInt)`;
      case "string":
        return `ddIsString(${v})`;
      case "bool":
        return `ddIsBool(${v})`;
      case "timestamp":
        return range?.kind === "time"
          ? `ddIsTime(${v}, ${end(range.first)}, ${end(range.after)})`
          : `ddIsTime(${v}, "", "")`;
      case "date":
        return range?.kind === "date"
          ? `ddIsDate(${v}, ${end(range.first)}, ${end(range.last)})`
          : `ddIsDate(${v}, "", "")`;
      case "json":
        return null;
      case "enum":
      case "record":
        return `${goCheckName(t.name)}(${v})`;
      case "list": {
        const e = `e${depth}`;
        return `ddIsListOf(${v}, func(${e} any) bool { return ${
          goCheck(t.element, range, e, depth + 1) ?? "true"
        } })`;
      }
      case "optional":
        return goCheck(t.inner, range, v, depth);
      default:
        return unreachable(t, "type");
    }
  };
  const check = inner();
  if (check === null) return null;
  return t.kind === "optional" ? `(${v} == nil || ${check})` : check;
}

/** The check of a record's fields: true when `v` is a record and every field passes. */
function recordCheck(name: string, what: string, fields: readonly FieldPlan[]): string {
  const checks = fields.flatMap((f) => goCheck(f.type, f.range, `ddField(v, ${goStr(f.name)})`) ?? []);
  return [
    `// ${name} is true when v is ${what}.`,
    `func ${name}(v any) bool {`,
    `\treturn ddIsObject(v)${checks.map((c) => ` &&\n\t\t${c}`).join("")}`,
    "}",
  ].join("\n");
}

function fieldRows(fields: readonly FieldPlan[]): string[][] {
  return fields.map((f) => {
    const missing = f.type.kind === "optional" || f.type.kind === "json";
    return [
      goExported(f.name),
      goType(f.type),
      `\`json:${JSON.stringify(`${f.name}${missing ? ",omitempty" : ""}`)}\``,
    ];
  });
}

/** The text of `types.go` after its package clause. */
export function typesModule(plan: Plan): string {
  const parts: string[] = [];
  for (const e of plan.enums) {
    const name = goTypeName(e.name);
    parts.push(
      `// ${name} is the enum ${goStr(e.name)}.\ntype ${name} string`,
      [
        `// ${goCheckName(e.name)} is true when v is a value of ${name}.`,
        `func ${goCheckName(e.name)}(v any) bool {`,
        `\treturn ddIsOneOf(v, ${e.values.map(goStr).join(", ")})`,
        "}",
      ].join("\n"),
    );
  }
  for (const r of plan.records) {
    const name = goTypeName(r.name);
    parts.push(
      `// ${name} is the record ${goStr(r.name)}.\n${struct(name, fieldRows(r.fields))}`,
      recordCheck(goCheckName(r.name), `a ${name}`, r.fields),
    );
  }
  parts.push(
    `// WorkflowInput is the workflow's input.\n${struct("WorkflowInput", fieldRows(plan.inputs))}`,
    recordCheck("ddCheckWorkflowInput", "the workflow's input", plan.inputs),
    `// WorkflowOutput is the workflow's outputs (a T? not given is none).\n${
      struct("WorkflowOutput", fieldRows(plan.outputs))
    }`,
  );
  return parts.join("\n\n") + "\n";
}
