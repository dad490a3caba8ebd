/**
 * How the Go targets (Temporal Go today) spell a flow's names in code
 * (docs/dandori.md#names-in-generated-code):
 *
 * - **Variables** (inputs and every name a statement binds) are locals of the function `Workflow`:
 *   `goIdent` appends `_` to a name whose base is a Go keyword, a predeclared identifier (`string`,
 *   `len`, `nil`, `any`, `error` …), a package the generated files import (`context`, `json`,
 *   `workflow`, `temporal` …), a local the generated code declares (`ctx`, `input`, `resume`) or a
 *   name that starts with `dd` (every other name the package declares itself: `dd`, `ddArgs12`,
 *   `ddAttempt`, `ddCheckOrder` …): `len` → `len_`, `len_` → `len__` (`avoidTaken`). `_`, Go's blank
 *   identifier, cannot be read, and is refused.
 * - **Exported names** (records and enums in `types.go`, their fields, the inputs and outputs as
 *   the fields of `WorkflowInput` and `WorkflowOutput`, own tasks as the methods of `OwnTasks`, where
 *   a name `go vet` holds to a standard interface's signature gets `_` after it: `Unwrap_`) are
 *   spelt as chobo spells its Go clients' members (`spell(name, "go")` of `targets/chobo/names.ts`): a
 *   name of ASCII words joined by single `_`s is CamelCase (`order_id` and `orderId` are both
 *   `OrderId`), any other name gets its first ASCII letter upper-cased, or `X` before a first letter
 *   that is not ASCII (`注文` → `X注文`, `_tmp` → `X_tmp`). A record or an enum whose spelling the
 *   package declares itself (`Status`, `Transport` …) gets `_` after it. Two names of one scope spelt
 *   alike (two fields `order_id` and `orderId` of one record, a record `stock_reserve` beside a
 *   book's hold record `stock.reserve`) are E006.
 * - A Go identifier is made of Unicode letters, decimal digits and `_` (the Go spec): a name with a
 *   combining or enclosing mark or a letter number (`Ⅻ`), which dandori reads as a name, is refused
 *   where Go writes it as code (E006).
 * - **Keys** (fields, parameters, inputs, outputs, cases, tasks, errors, enum values) stay data:
 *   they are Go string literals (`goStr`) and JSON tags, spelt as the flow spells them.
 * @module
 */

import type { Plan } from "../../../lang/dandori/plan.ts";
import { type Text, tr } from "../../../lang/common/text.ts";
import { GO_IDENTIFIER, GO_KEYWORDS, isGoPackageName } from "../../chobo/go_names.ts";
import { spell } from "../../chobo/names.ts";
import { avoidTaken, planVariables, type Refused, type Spelled, unspellable } from "../naming.ts";

/** Go's predeclared identifiers: types, constants, the zero value and the built-in functions. */
const PREDECLARED = [
  "any",
  "bool",
  "byte",
  "comparable",
  "complex64",
  "complex128",
  "error",
  "float32",
  "float64",
  "int",
  "int8",
  "int16",
  "int32",
  "int64",
  "rune",
  "string",
  "uint",
  "uint8",
  "uint16",
  "uint32",
  "uint64",
  "uintptr",
  "true",
  "false",
  "iota",
  "nil",
  "append",
  "cap",
  "clear",
  "close",
  "complex",
  "copy",
  "delete",
  "imag",
  "len",
  "make",
  "max",
  "min",
  "new",
  "panic",
  "print",
  "println",
  "real",
  "recover",
];

/** The names under which the package's files import packages. */
export const GO_IMPORTS = [
  "activity",
  "aws",
  "awsconfig",
  "bytes",
  "client",
  "commonpb",
  "context",
  "converter",
  "dynamodb",
  "enumspb",
  "errors",
  "eventbridge",
  "fmt",
  "historypb",
  "http",
  "io",
  "json",
  "lambda",
  "math",
  "reflect",
  "s3",
  "sha256",
  "sns",
  "sort",
  "sqs",
  "strconv",
  "strings",
  "temporal",
  "time",
  "utf8",
  "worker",
  "workflow",
];

/** The locals `Workflow` declares that do not start with `dd`. */
const OWN_LOCALS = ["ctx", "input", "resume"];

const LOCAL_TAKEN = new Set([...GO_KEYWORDS, ...PREDECLARED, ...GO_IMPORTS, ...OWN_LOCALS]);

/** A flow's variable as a local of `Workflow`. */
export function goIdent(name: string): string {
  return avoidTaken(name, (base) => LOCAL_TAKEN.has(base) || base.startsWith("dd"));
}

/** An exported name: CamelCase of ASCII words, else the first letter upper-cased or `X` before it. */
export function goExported(name: string): string {
  return spell(name, "go");
}

/**
 * The methods `go vet` holds to the signatures of the standard interfaces (its `stdmethods` check:
 * `Format`, `MarshalJSON`, `Unwrap` …), which no method of `OwnTasks` may take.
 */
const STANDARD_METHODS = new Set([
  "As",
  "Format",
  "GobDecode",
  "GobEncode",
  "Is",
  "MarshalJSON",
  "MarshalXML",
  "ReadByte",
  "ReadFrom",
  "ReadRune",
  "Scan",
  "Seek",
  "UnmarshalJSON",
  "UnmarshalXML",
  "UnreadByte",
  "UnreadRune",
  "Unwrap",
  "WriteByte",
  "WriteTo",
]);

/** An own task as a method of `OwnTasks`: exported, with `_` after a standard method's name. */
export function goMethodName(task: string): string {
  return avoidTaken(goExported(task), (base) => STANDARD_METHODS.has(base));
}

/**
 * The exported names the package declares itself, at its top (`tests/dandori/temporal_go_test.ts`
 * keeps this list equal to what the generated files declare): no record or enum takes one.
 */
export const PACKAGE_DECLS: readonly string[] = [
  "Activities",
  "AesGcmCodec",
  "AgentHTTPError",
  "AgentRequest",
  "AgentStopped",
  "AWSConfig",
  "AWSError",
  "BookCall",
  "BookResult",
  "BuildID",
  "Call",
  "CodecError",
  "CodecKey",
  "CodecKeyBytes",
  "Decode",
  "Dial",
  "EncryptedClient",
  "Events",
  "Histories",
  "HTTPRequest",
  "HTTPResponse",
  "LambdaResult",
  "NewAesGcmCodec",
  "NewTransport",
  "NewWorker",
  "OwnTasks",
  "Replay",
  "Reply",
  "RunHistory",
  "Send",
  "Start",
  "StartOptions",
  "Status",
  "TaskQueue",
  "Transport",
  "TransportOptions",
  "Where",
  "WorkerConfig",
  "Workflow",
  "WorkflowInput",
  "WorkflowOutput",
  "WorkflowType",
  "Answer",
];

const TYPE_TAKEN = new Set(PACKAGE_DECLS);

/** A record's or an enum's type name in `types.go` (`stock.reserve` → `StockReserve`). */
export function goTypeName(name: string): string {
  return avoidTaken(goExported(name.replaceAll(".", "_")), (base) => TYPE_TAKEN.has(base));
}

/** The check `types.go` writes for a record or an enum, which the workflow calls. */
export function goCheckName(name: string): string {
  return `ddCheck${goTypeName(name)}`;
}

/** The package a flow's files are in: its workflow's name, else its file's, else `workflow` (ASCII). */
export function goPackage(plan: Plan, file: string): string {
  if (isGoPackageName(plan.workflow.name)) return plan.workflow.name;
  const stem = file.replace(/\.flow$/, "").replaceAll(".", "_");
  return isGoPackageName(stem) ? stem : "workflow";
}

/**
 * What a Go string literal escapes: `"` and `\`, every character `lang/common/visible.ts` shows
 * escaped (controls, line and paragraph separators, the bidirectional controls), and U+FEFF, which
 * Go refuses anywhere in a source file but its start.
 */
const GO_ESCAPED =
  // deno-lint-ignore no-control-regex -- the control characters are what a literal escapes
  /["\\\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]|[\ud800-\udfff]/gu;

/** A Go interpreted string literal of `text` (a lone surrogate, which UTF-8 cannot carry, as U+FFFD). */
export function goStr(text: string): string {
  const body = text.replace(GO_ESCAPED, (c) => {
    if (c === '"' || c === "\\") return `\\${c}`;
    if (c === "\n") return "\\n";
    if (c === "\r") return "\\r";
    if (c === "\t") return "\\t";
    const code = c.codePointAt(0) ?? 0;
    return code >= 0xd800 && code <= 0xdfff ? "\\ufffd" : `\\u${code.toString(16).padStart(4, "0")}`;
  });
  return `"${body}"`;
}

function refusalOfBlank(spelled: readonly Spelled[]): Refused[] {
  const why = tr(
    "`_` is Go's blank identifier, which cannot be read",
    "`_` は Go の空白の識別子で、読めません",
  );
  return spelled.filter((s) => s.spelling === "_").map((s) => ({
    name: s.name,
    what: s.what,
    line: s.line,
    why,
  }));
}

/**
 * Every name the Go target writes as code, with its scope and spelling — the variables (locals of
 * `Workflow`), the records and enums (`types.go`), the fields of each record, of `WorkflowInput` and
 * of `WorkflowOutput`, and the own tasks (methods of `OwnTasks`) — and those Go cannot spell.
 */
export function goNames(plan: Plan): { spelled: readonly Spelled[]; refused: readonly Refused[] } {
  const variables = planVariables(plan).map((v) => ({ scope: "locals", ...v, spelling: goIdent(v.name) }));
  const types = [
    ...plan.records.map((r) => ({ name: r.name, what: "record" as const, line: r.line })),
    ...plan.enums.map((e) => ({ name: e.name, what: "enum" as const, line: e.line })),
  ].map((t) => ({ scope: "types", ...t, spelling: goTypeName(t.name) }));
  const field =
    (scope: string, what: "field" | "input" | "output") => (f: { name: string; line: number }) => ({
      scope,
      name: f.name,
      what,
      line: f.line,
      spelling: goExported(f.name),
    });
  const fields = [
    ...plan.records.flatMap((r) => r.fields.map(field(`record ${r.name}`, "field"))),
    ...plan.inputs.map(field("WorkflowInput", "input")),
    ...plan.outputs.map(field("WorkflowOutput", "output")),
  ];
  const own = plan.tasks.filter((t) => t.callee.kind === "own").map((t) => ({
    scope: "OwnTasks",
    name: t.name,
    what: "task" as const,
    line: t.line,
    spelling: goMethodName(t.name),
  }));
  const spelled = [...variables, ...types, ...fields, ...own];
  const why: Text = tr(
    "it is not a Go identifier (Unicode letters, decimal digits and `_`)",
    "Go の識別子(Unicode の文字、十進の数字、`_`)ではありません",
  );
  return { spelled, refused: [...unspellable(spelled, GO_IDENTIFIER, why), ...refusalOfBlank(variables)] };
}
