/**
 * How the TypeScript targets (Temporal TypeScript, Lambda durable functions) spell a flow's names in
 * code (docs/dandori.md#names-in-generated-code):
 *
 * - **Variables** (inputs and every name a statement binds) are locals of the workflow function:
 *   `ident` appends `_` to a name whose base is a JavaScript reserved word, a global the generated
 *   code reads (`Object`, `JSON`, `Promise` …), a name the generated modules declare themselves
 *   (`dd`, `E`, `R`, `A`, `cases`, `input` …) or one of the shapes of its own locals (`a_s12`,
 *   `got_s12`, `m_s12`, `e0`, anything starting `dd_`): `E` → `E_`, `E_` → `E__` (`avoidTaken`).
 * - **Types** (records and enums, `stock.reserve` → `stock_reserve`, and each task's `Args_<task>`)
 *   share `types.ts`'s scope: `typeName` appends `_` to TypeScript's own type names (`number`,
 *   `string` …) and to the names `types.ts` declares itself (`WorkflowInput` …). Two types spelt
 *   alike (`stock.reserve` and a record `stock_reserve`) are E006 (`tsNames`).
 * - **Keys** (fields, parameters, inputs, outputs, cases, tasks) keep their spelling: `prop` writes
 *   them bare or quoted, `__proto__` as a computed key so that it is a field, not the prototype;
 *   `read` reads them; `readMaybe` reads a field that may be absent through `Object.hasOwn`, so a
 *   name `Object.prototype` has (`toString`) is never read from the prototype. A type with such a
 *   field is built with `as`, since TypeScript gives every object literal those members.
 *
 * dandori's names are Unicode identifiers, so Japanese names stay as written.
 * @module
 */

import type { FieldPlan, Plan } from "../../../lang/dandori/plan.ts";
import { tr } from "../../../lang/common/text.ts";
import { avoidTaken, planVariables, type Refused, type Spelled, unspellable } from "../naming.ts";

const IDENTIFIER = /^[\p{ID_Start}_$][\p{ID_Continue}$\u200C\u200D]*$/u;

/** Words JavaScript and TypeScript reserve where a variable or a type is declared. */
const RESERVED = [
  "arguments",
  "await",
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "eval",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "implements",
  "import",
  "in",
  "instanceof",
  "interface",
  "let",
  "new",
  "null",
  "package",
  "private",
  "protected",
  "public",
  "return",
  "static",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "undefined",
  "var",
  "void",
  "while",
  "with",
  "yield",
];

/** The globals the generated modules read, which a local of the same name would hide. */
const GLOBALS = [
  "Array",
  "BigInt",
  "Boolean",
  "Date",
  "Error",
  "Infinity",
  "JSON",
  "Math",
  "NaN",
  "Number",
  "Object",
  "Promise",
  "Record",
  "String",
  "Symbol",
  "encodeURIComponent",
  "globalThis",
];

/** The names the generated modules declare or import at their top, and the workflow function's own. */
const OWN = [
  "dd",
  "wf",
  "io",
  "T",
  "E",
  "R",
  "A",
  "e",
  "c",
  "n",
  "id",
  "cancelled",
  "input",
  "resume",
  "cases",
  "status",
  "answer",
  "event",
  "callback",
  "tasks",
  "own",
  "transport",
  "Status",
  "Activities",
  "Tasks",
  "OwnTasks",
  "Call",
  "makeActivities",
  "makeTasks",
  "makeHandler",
  "workflow",
  "handler",
];

const TAKEN = new Set([...RESERVED, ...GLOBALS, ...OWN]);

/**
 * The shapes of the generated locals: a statement's arguments, answer, label, subject, loop
 * counter, list and yields (`a_s12` …), the element of a check (`e0`), and every `dd_` name.
 */
const OWN_SHAPES = /^(?:(?:a|got|c|l|m|i|list|coll)_s[0-9]|e[0-9]+$|dd_)/;

/** A flow's variable as a JavaScript identifier. */
export function ident(name: string): string {
  return avoidTaken(name, (base) => TAKEN.has(base) || OWN_SHAPES.test(base));
}

/** TypeScript's own type names, which no declared type may take. */
const TYPE_KEYWORDS = [
  "any",
  "bigint",
  "boolean",
  "never",
  "number",
  "object",
  "string",
  "symbol",
  "unknown",
  "void",
];

/** The names `types.ts` declares or imports itself. */
const TYPES_OWN = ["dd", "WorkflowInput", "WorkflowOutput", "isWorkflowInput"];

const TYPE_TAKEN = new Set([...RESERVED, ...TYPE_KEYWORDS, ...TYPES_OWN]);

/** A record's or an enum's type name (`stock.reserve` → `stock_reserve`). */
export function typeName(record: string): string {
  return avoidTaken(record.replaceAll(".", "_"), (base) => TYPE_TAKEN.has(base) || /^Args_/.test(base));
}

/** The type of a task's arguments. */
export function argsType(task: string): string {
  return `Args_${task}`;
}

/** The members every JavaScript object inherits from `Object.prototype`. */
const PROTOTYPE_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));

/** True when a field of this name must be built with `as` and read with `readMaybe`. */
export function inherited(name: string): boolean {
  return PROTOTYPE_MEMBERS.has(name);
}

/** True when a record or an argument list has a field every object literal already has a member of. */
export function hasInherited(fields: readonly Pick<FieldPlan, "name">[]): boolean {
  return fields.some((f) => inherited(f.name));
}

/** A key in an object literal or a member of a type: bare when an identifier, else quoted; `__proto__` computed. */
export function prop(name: string): string {
  if (name === "__proto__") return '["__proto__"]';
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** A member of an interface: bare when an identifier, else quoted. */
export function member(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** Reading a key that is the object's own (a generated table's, or a field the value's check found). */
export function read(object: string, name: string): string {
  return IDENTIFIER.test(name) && name !== "__proto__"
    ? `${object}.${name}`
    : `${object}[${JSON.stringify(name)}]`;
}

/** Reading a field that may be absent: never a member of `Object.prototype`. */
export function readMaybe(object: string, name: string): string {
  return inherited(name)
    ? `(Object.hasOwn(${object}, ${str(name)}) ? ${read(object, name)} : undefined)`
    : read(
      object,
      name,
    );
}

/** A string literal. */
export function str(text: string): string {
  return JSON.stringify(text);
}

/**
 * Every name the TypeScript targets write as code, with its scope and spelling — the variables (the
 * workflow function's locals) and the types (`types.ts`) — and those JavaScript cannot spell (a
 * name with an enclosing mark, which dandori reads as a letter's part).
 */
export function tsNames(plan: Plan): { spelled: readonly Spelled[]; refused: readonly Refused[] } {
  const variables = planVariables(plan).map((v) => ({ scope: "locals", ...v, spelling: ident(v.name) }));
  const types = [
    ...plan.records.flatMap((r) => {
      const t = { scope: "types", name: r.name, what: "record" as const, line: r.line };
      return [{ ...t, spelling: typeName(r.name) }, { ...t, spelling: `is${typeName(r.name)}` }];
    }),
    ...plan.enums.flatMap((e) => {
      const t = { scope: "types", name: e.name, what: "enum" as const, line: e.line };
      return [{ ...t, spelling: typeName(e.name) }, { ...t, spelling: `${typeName(e.name)}_VALUES` }];
    }),
  ];
  const args = plan.tasks.map((t) => ({
    scope: "types",
    name: t.name,
    what: "task" as const,
    line: t.line,
    spelling: argsType(t.name),
  }));
  const spelled = [...variables, ...types, ...args];
  const why = tr("it is not a JavaScript identifier", "JavaScript の識別子ではありません");
  return { spelled, refused: unspellable(spelled, IDENTIFIER, why) };
}
