/**
 * How the Temporal TypeScript target spells a flow's names in code: identifiers for variables
 * (a JavaScript reserved word or a name the generated code uses itself gets `_`), property names
 * and reads, type names of records (a book's hold record `stock.reserve` → `stock_reserve`), and
 * string literals. dandori's names are Unicode identifiers, so Japanese names stay as written.
 * @module
 */

const IDENTIFIER = /^[\p{ID_Start}_$][\p{ID_Continue}$\u200C\u200D]*$/u;

/** Words JavaScript reserves, and the names every generated module declares itself. */
const TAKEN = new Set([
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
  "dd",
  "wf",
  "T",
  "A",
  "input",
  "resume",
  "cases",
]);

/** A flow's variable as a JavaScript identifier. */
export function ident(name: string): string {
  return TAKEN.has(name) || name.startsWith("dd_") ? `${name}_` : name;
}

/** A property name in an object literal or a type: bare when an identifier, else quoted. */
export function prop(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** Reading a property of `object`. */
export function read(object: string, name: string): string {
  return IDENTIFIER.test(name) ? `${object}.${name}` : `${object}[${JSON.stringify(name)}]`;
}

/** A record's type name (`stock.reserve` → `stock_reserve`). */
export function typeName(record: string): string {
  return record.replaceAll(".", "_");
}

/** The type of a task's arguments. */
export function argsType(task: string): string {
  return `Args_${task}`;
}

/** A string literal. */
export function str(text: string): string {
  return JSON.stringify(text);
}
