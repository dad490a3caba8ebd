/**
 * `types.ts`: the flow's types in TypeScript (enums as unions of their values, records as
 * interfaces, each task's arguments, the workflow's input and output) and the checks every value
 * that comes in passes (docs/dandori.md#types, docs/dandori.md#ranges): `is<Record>`, `isWorkflowInput` and the check of a task's
 * result, with ranges compared as every platform compares them (numbers as integers, dates as
 * their 10 characters, times on their first 19).
 * @module
 */

import { assert, unreachable } from "../../../lang/common/assert.ts";
import type { FieldPlan, Plan, RangePlan, TypePlan } from "../../../lang/dandori/plan.ts";
import { argsType, member, str, typeName } from "./names.ts";

/** The TypeScript type of a flow's type, written inside `types.ts` (`prefix` "") or outside (`T.`). */
export function tsType(t: TypePlan, prefix: string): string {
  switch (t.kind) {
    case "int":
    case "num":
      return "number";
    case "string":
    case "timestamp":
    case "date":
      return "string";
    case "bool":
      return "boolean";
    case "json":
      return "dd.Json";
    case "enum":
    case "record":
      return `${prefix}${typeName(t.name)}`;
    case "list":
      return `${tsType(t.element, prefix)}[]`;
    case "optional":
      return `${tsType(t.inner, prefix)} | null`;
    default:
      return unreachable(t, "type");
  }
}

/** A range's end as a JavaScript number literal (the design's numbers stay far below 2⁵³). */
function numberEnd(text: string | null): string {
  if (text === null) return "null";
  assert(Number.isSafeInteger(Number(text)), `a range's end ${text} is a safe integer`);
  return text;
}

function end(text: string | null): string {
  return text === null ? "null" : str(text);
}

/** The check that `v` (an expression of type unknown) has type `t` and lies in `range`. */
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
          ? `dd.isInt(${v}, ${numberEnd(range.lower)}, ${numberEnd(range.upper)})`
          : `dd.isInt(${v}, null, null)`;
      case "string":
        return `typeof ${v} === "string"`;
      case "bool":
        return `typeof ${v} === "boolean"`;
      case "timestamp":
        return range?.kind === "time"
          ? `dd.isTime(${v}, ${end(range.first)}, ${end(range.after)})`
          : `dd.isTime(${v}, null, null)`;
      case "date":
        return range?.kind === "date"
          ? `dd.isDate(${v}, ${end(range.first)}, ${end(range.last)})`
          : `dd.isDate(${v}, null, null)`;
      case "json":
        return "true";
      case "enum":
        return `dd.isOneOf(${v}, ${prefix}${enumValues(t.name)})`;
      case "record":
        return `${prefix}is${typeName(t.name)}(${v})`;
      case "list": {
        const e = `e${depth}`;
        return `dd.isListOf(${v}, (${e}: unknown) => ${checkExpr(t.element, range, e, prefix, depth + 1)})`;
      }
      case "optional":
        return checkExpr(t.inner, range, v, prefix, depth);
      default:
        return unreachable(t, "type");
    }
  };
  const missingFits = t.kind === "optional" || t.kind === "json";
  return missingFits ? `(${v} === undefined || ${v} === null || ${inner()})` : `(${inner()})`;
}

/** The constant listing an enum's values. */
export function enumValues(name: string): string {
  return `${typeName(name)}_VALUES`;
}

function fieldType(f: FieldPlan): string {
  const missing = f.type.kind === "optional" || f.type.kind === "json";
  return `  readonly ${member(f.name)}${missing ? "?" : ""}: ${tsType(f.type, "")};`;
}

/** The check of a record type: `spelled` is its name in `types.ts`, `name` the flow's. */
function recordCheck(spelled: string, name: string, fields: readonly FieldPlan[]): string {
  const checks = fields.map((f) => checkExpr(f.type, f.range, `dd.field(v, ${str(f.name)})`, ""));
  return [
    `/** True when \`v\` is a ${name}. */`,
    `export function is${spelled}(v: unknown): v is ${spelled} {`,
    `  return dd.isObject(v)${checks.map((c) => ` &&\n    ${c}`).join("")};`,
    "}",
  ].join("\n");
}

function interfaceOf(name: string, fields: readonly FieldPlan[], what: string): string {
  return [`/** ${what} */`, `export interface ${name} {`, ...fields.map(fieldType), "}"].join("\n");
}

/** The text of `types.ts` after its header. */
export function typesModule(plan: Plan): string {
  const parts: string[] = ['import * as dd from "./runtime.ts";'];
  for (const e of plan.enums) {
    parts.push(
      [
        `/** The values of ${e.name}, in written order. */`,
        `export const ${enumValues(e.name)} = [${e.values.map(str).join(", ")}] as const;`,
        `export type ${typeName(e.name)} = typeof ${enumValues(e.name)}[number];`,
      ].join("\n"),
    );
  }
  for (const r of plan.records) {
    parts.push(
      interfaceOf(typeName(r.name), r.fields, `The record ${r.name}.`),
      recordCheck(typeName(r.name), r.name, r.fields),
    );
  }
  for (const t of plan.tasks) {
    parts.push(interfaceOf(argsType(t.name), t.params, `The arguments of ${t.name}.`));
  }
  parts.push(
    interfaceOf("WorkflowInput", plan.inputs, "The workflow's input."),
    recordCheck("WorkflowInput", "WorkflowInput", plan.inputs),
    plan.outputs.length === 0
      ? "/** The workflow has no outputs: it ends with null. */\nexport type WorkflowOutput = null;"
      : interfaceOf("WorkflowOutput", plan.outputs, "The workflow's outputs (a `T?` not given is null)."),
  );
  return parts.join("\n\n") + "\n";
}
