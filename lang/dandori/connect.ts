/**
 * A `connect` task's call as it goes on the wire (docs/dandori.md#connect-calls): a Connect unary call
 * is an HTTP POST of protobuf's JSON to `<url>/<package>.<Service>/<Method>` with the header
 * `Connect-Protocol-Version: 1`, so every platform sends it as an `http` task's call whose body this
 * module writes and whose answer it fills.
 *
 * - **The request** (`SentField`): each argument under its field's JSON name (a task may name the
 *   field by its `.proto` name), a record sent to a message the same way at every depth, an `int`
 *   sent to a 64-bit integer as decimal text (protobuf's JSON writes those as strings), none not sent.
 * - **The response** (`FillTable`): protobuf's JSON leaves out a field without presence (not
 *   `optional`, not a message, not a `oneof` member) whose value is its zero value, and a protobuf
 *   reader reads it back as that value; dandori reads it the same way. Before the result is checked,
 *   every such field left out or `null` is filled in: `""`, `0`, `"0"` for a 64-bit integer,
 *   `false`, the enum's value numbered 0, `[]` for a list and `{}` for a map; a `json` field
 *   (`Struct`, `Value`, `ListValue`, `Any`) as `null`. Inside a message that is there, and in each
 *   message of a list of messages, the same, down to `MAX_MESSAGE_DEPTH` messages deep; a map's
 *   values are read as they come (a map is read only as `json`). A field with presence is never
 *   filled: a task reads it as `T?`. Filled fields come after the response's own, in the
 *   message's order.
 * - **Errors**: a declared error names a Connect code, and is told apart by the code's HTTP status
 *   (`CONNECT_STATUS`, the table of the Connect protocol), as an `http` task's error by its status.
 * @module
 */

import type * as Protobufjs from "protobufjs";
import { assert } from "../common/assert.ts";
import type { ErrorDeclAst } from "./ast.ts";
import {
  DECIMAL,
  fullName,
  hasPresence,
  INT32,
  INT64,
  JSON_TYPES,
  jsonName,
  LIST_VALUE,
  MAX_MESSAGE_DEPTH,
  type Pb,
  type ResolvedMethod,
  TIMESTAMP,
  valueKind,
  WELL_KNOWN_SCALARS,
} from "./proto.ts";
import type { FieldDef, Ty, TypeTable } from "./types.ts";
import { isRecord, type Value } from "./values.ts";

/** The HTTP status of each Connect code (connectrpc.com/docs/protocol#error-codes). */
export const CONNECT_STATUS: Readonly<Record<string, number>> = Object.freeze({
  canceled: 499,
  unknown: 500,
  invalid_argument: 400,
  deadline_exceeded: 504,
  not_found: 404,
  already_exists: 409,
  permission_denied: 403,
  resource_exhausted: 429,
  failed_precondition: 400,
  aborted: 409,
  out_of_range: 400,
  unimplemented: 501,
  internal: 500,
  unavailable: 503,
  data_loss: 500,
  unauthenticated: 401,
});

/** The Connect code a declared error of a `connect` task names: `missing = not_found`, or its own name (`errors not_found`). */
export function declaredCode(e: ErrorDeclAst): string {
  if (e.value === null) return e.name.text;
  return e.value.kind === "name" ? e.value.name.text : e.value.status.text;
}

/** The header every Connect unary call carries, with its value. */
export const CONNECT_PROTOCOL_HEADER = ["Connect-Protocol-Version", "1"] as const;

/** How one value is written into the request: as it is, an `int` as decimal text, or a record field by field. */
export type Sent =
  | { readonly kind: "as is" }
  | { readonly kind: "int64" }
  | { readonly kind: "message"; readonly fields: readonly SentField[] };

/** A field of the request (or of a message in it): the name the flow gives it, its JSON name, how its value is written. */
export interface SentField {
  readonly name: string;
  readonly json: string;
  readonly sent: Sent;
}

/**
 * A field a reader fills: `zero` when the field has no presence (left out or `null`, it is read as
 * `zero`); `message` when its values are messages filled in turn (a list of them, or one that is there).
 */
export interface FillField {
  readonly json: string;
  readonly zero?: Value;
  readonly message?: string;
}

/** A message the response may hold, by full name, with the fields a reader fills in it. */
export interface FillMessage {
  readonly name: string;
  readonly fields: readonly FillField[];
}

/**
 * The response's message (`top`) and every message it may hold (a list, not an object keyed by name:
 * a `.proto`'s names are anyone's, `__proto__` among them).
 */
export interface FillTable {
  readonly top: string;
  readonly messages: readonly FillMessage[];
}

/** The fields a reader fills in the message `name`, or null when the table has no such message. */
export function filledFields(table: FillTable, name: string): readonly FillField[] | null {
  return table.messages.find((m) => m.name === name)?.fields ?? null;
}

/**
 * How a field's values are written by a protobuf writer where a scenario's value of the flow's type
 * may not be one (`shape` of lang/dandori/scenarios.ts): a 64-bit integer as decimal text, a
 * decimal as a number, `bytes` as base64, a `ListValue` as an array, a map as an object of its
 * values; a message's fields in turn.
 */
export type ShapeKind = "int64" | "decimal" | "bytes" | "list" | "map" | "message";

/** A field a scenario's answer is shaped at: its JSON name, how, and for a message its name. */
export interface ShapeField {
  readonly json: string;
  readonly kind: ShapeKind;
  readonly message?: string;
}

/** The response's message and every message it may hold, with the fields a scenario's answer is shaped at. */
export interface ShapeTable {
  readonly top: string;
  readonly messages: readonly { readonly name: string; readonly fields: readonly ShapeField[] }[];
}

/**
 * What a `connect` task sends and how its answer is read: the path after the `url`, the request, the
 * fill; and how the scenarios shape an answer as the service would write it (`shape`, the model's
 * only: no target reads it).
 */
export interface ConnectCall {
  /** `/<package>.<Service>/<Method>`. */
  readonly path: string;
  readonly request: readonly SentField[];
  readonly fill: FillTable;
  readonly shape: ShapeTable;
}

/** The call of a task whose method matched (proto.ts): its arguments against the request's fields. */
export function connectCall(
  pb: Pb,
  m: ResolvedMethod,
  params: readonly FieldDef[],
  types: TypeTable,
): ConnectCall {
  return {
    path: `/${fullName(m.service)}/${m.method}`,
    request: sentFields(pb, m.request, params, types, 0),
    ...answerTables(pb, m.response),
  };
}

/** A user's message: one that is not a well-known type protobuf's JSON writes as a scalar or any JSON. */
function userMessage(pb: Pb, f: Protobufjs.Field): string | null {
  if (!(f.resolvedType instanceof pb.Type)) return null;
  const name = fullName(f.resolvedType);
  return JSON_TYPES.has(name) || WELL_KNOWN_SCALARS.has(name) || name === TIMESTAMP ? null : name;
}

function sentFields(
  pb: Pb,
  message: Protobufjs.Type,
  fields: readonly FieldDef[],
  types: TypeTable,
  depth: number,
): SentField[] {
  return fields.flatMap((p) => {
    const f = message.fieldsArray.find((x) => x.name === p.name || jsonName(x) === p.name);
    assert(f !== undefined, "a checked argument names a field of its message");
    return [{ name: p.name, json: jsonName(f), sent: sentOf(pb, f, p.type, types, depth) }];
  });
}

function sentOf(pb: Pb, f: Protobufjs.Field, ty: Ty, types: TypeTable, depth: number): Sent {
  const bare = ty.kind === "optional" ? ty.inner : ty;
  const item = f.repeated && bare.kind === "list" ? bare.element : bare;
  if (INT64.has(valueKind(f)) && item.kind === "int") return { kind: "int64" };
  const inner = userMessage(pb, f);
  if (inner === null || item.kind !== "record" || depth >= MAX_MESSAGE_DEPTH) return { kind: "as is" };
  const rec = types.records.get(item.name);
  assert(rec !== undefined, "a checked record is declared");
  return {
    kind: "message",
    fields: sentFields(pb, f.resolvedType as Protobufjs.Type, rec.fields, types, depth + 1),
  };
}

/** The fill and shape tables of a response message and of every message it may hold. */
function answerTables(pb: Pb, response: Protobufjs.Type): { fill: FillTable; shape: ShapeTable } {
  const messages: FillMessage[] = [];
  const shapes: { name: string; fields: ShapeField[] }[] = [];
  const walk = (m: Protobufjs.Type, depth: number) => {
    const name = fullName(m);
    if (messages.some((x) => x.name === name) || depth > MAX_MESSAGE_DEPTH) return;
    const fields: FillField[] = [];
    const shaped: ShapeField[] = [];
    messages.push({ name, fields });
    shapes.push({ name, fields: shaped });
    for (const f of m.fieldsArray) {
      const inner = f.map ? null : userMessage(pb, f);
      if (inner !== null) walk(f.resolvedType as Protobufjs.Type, depth + 1);
      const kind = shapeKind(f, inner);
      if (kind !== null) {
        shaped.push(
          inner === null ? { json: jsonName(f), kind } : { json: jsonName(f), kind, message: inner },
        );
      }
      if (f.map) fields.push({ json: jsonName(f), zero: {} });
      else if (f.repeated) {
        fields.push(
          inner === null ? { json: jsonName(f), zero: [] } : { json: jsonName(f), zero: [], message: inner },
        );
      } else if (inner !== null) fields.push({ json: jsonName(f), message: inner });
      else if (!hasPresence(pb, f)) fields.push({ json: jsonName(f), zero: zeroOf(pb, f) });
    }
  };
  walk(response, 0);
  return {
    fill: { top: fullName(response), messages },
    shape: { top: fullName(response), messages: shapes },
  };
}

/** How a field's values are shaped (`ShapeKind`), or null when a value of the flow's type is already one. */
function shapeKind(f: Protobufjs.Field, inner: string | null): ShapeKind | null {
  if (f.map) return "map";
  if (inner !== null) return "message";
  const kind = valueKind(f);
  if (INT64.has(kind)) return "int64";
  if (DECIMAL.has(kind)) return "decimal";
  if (kind === "bytes") return "bytes";
  return f.resolvedType !== null && fullName(f.resolvedType) === LIST_VALUE ? "list" : null;
}

/** A field's zero value in protobuf's JSON (a field without presence). */
function zeroOf(pb: Pb, f: Protobufjs.Field): Value {
  const kind = valueKind(f);
  if (f.resolvedType instanceof pb.Enum) {
    const values = Object.entries(f.resolvedType.values);
    return (values.find(([, n]) => n === 0) ?? values[0])?.[0] ?? null;
  }
  if (INT64.has(kind)) return "0";
  if (INT32.has(kind) || DECIMAL.has(kind)) return 0n;
  if (kind === "bool") return false;
  if (kind === "string" || kind === "bytes") return "";
  return null;
}

/** Sets an own property, whatever its name (`__proto__` among them). */
function setOwn(o: Record<string, Value>, key: string, value: Value): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The request body: each argument given, under its JSON name, written as `request` says. */
export function requestBody(
  request: readonly SentField[],
  args: Readonly<Record<string, Value>>,
): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const f of request) {
    const v = Object.hasOwn(args, f.name) ? args[f.name] : null;
    if (v !== null) setOwn(out, f.json, sentValue(f.sent, v));
  }
  return out;
}

function sentValue(sent: Sent, v: Value): Value {
  if (Array.isArray(v)) return v.map((x) => sentValue(sent, x));
  switch (sent.kind) {
    case "as is":
      return v;
    case "int64":
      return typeof v === "bigint" ? v.toString() : v;
    case "message":
      return isRecord(v) ? requestBody(sent.fields, v) : v;
  }
}

/** The response as a protobuf reader reads it: every field left out or `null` that has no presence, filled. */
export function filledResponse(table: FillTable, value: Value): Value {
  return fillMessage(table, table.top, value, 0);
}

function fillMessage(table: FillTable, name: string, value: Value, depth: number): Value {
  const fields = filledFields(table, name);
  if (!isRecord(value) || depth > MAX_MESSAGE_DEPTH || fields === null) return value;
  const out: Record<string, Value> = {};
  for (const [k, v] of Object.entries(value)) setOwn(out, k, v);
  for (const f of fields) {
    const v = Object.hasOwn(out, f.json) ? out[f.json] : null;
    if (v === null) {
      if (f.zero !== undefined) setOwn(out, f.json, structuredClone(f.zero));
    } else if (f.message !== undefined) {
      // A list of messages has a zero value (`[]`), one message has none: each is filled only as what it is.
      const inner = f.message;
      const list = f.zero !== undefined;
      if (list && Array.isArray(v)) {
        setOwn(
          out,
          f.json,
          v.map((x) => fillMessage(table, inner, x, depth + 1)),
        );
      }
      if (!list) setOwn(out, f.json, fillMessage(table, inner, v, depth + 1));
    }
  }
  return out;
}
