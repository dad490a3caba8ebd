/**
 * Types made from a `use proto` description (docs/dandori.md#types-from-proto-descriptions): a
 * message or an enum written as `<api>.<Name>` where a type goes becomes a record or an enum, by the
 * table the match of `connect` tasks reads (proto.ts), so a task written with made types matches its
 * method with no E016:
 *
 * | `.proto` | dandori |
 * |---|---|
 * | `string`, `bytes` | `string` |
 * | `bool` | `bool` |
 * | 32-bit integers | `int`, with the range of its Protovalidate rules |
 * | 64-bit integers | `string` (protobuf's JSON writes them as strings) |
 * | `float`, `double`, `map<K, V>` | `json` |
 * | an enum | an enum of its value names, less a zero value named `…_UNSPECIFIED` |
 * | a message | a record whose fields are named by their JSON names |
 * | `repeated T` | `list[T]` |
 * | a field with presence (`optional`, a message, a `oneof` member) | `T?`, or `T` with `(buf.validate.field).required` |
 * | `Timestamp`; `Duration`, `FieldMask`; `Struct`, `Value`, `ListValue`, `Any`, `NullValue` | `timestamp`; `string`; `json` (never `json?`) |
 * | the wrappers (`Int32Value` …) | the wrapped type (`Int64Value` `string`, `DoubleValue` `json`) |
 *
 * Names are the `use`'s name and the name as seen from the file's package (`warehouse.Order.Line`); a
 * type of another package is named with its package (`warehouse.common.v1.Money`). Only what the flow
 * names is made, with what its fields reach: a record's name is taken before its fields are made, so
 * a message that contains itself ends the walk, and is refused (E003: no platform carries such a type
 * alike). A made type is committed only when all it reaches is sound; otherwise the place that names
 * it gets the fault.
 * @module
 */

import type * as Protobufjs from "protobufjs";
import { didYouMean } from "../common/nearest.ts";
import { tr } from "../common/text.ts";
import { isName } from "./lexer.ts";
import {
  DECIMAL,
  fieldRange,
  fullName,
  hasPresence,
  INT32,
  INT64,
  isRequired,
  JSON_TYPES,
  jsonName,
  MAX_MESSAGE_DEPTH,
  outermost,
  type Proto,
  TIMESTAMP,
  WELL_KNOWN_SCALARS,
} from "./proto.ts";
import { Making, namesNote, type TypeFault, typeFault, type TypeMaps } from "./made_types.ts";
import type { FieldDef, RecordDef, Ty } from "./types.ts";

const JSON_TY: Ty = { kind: "json" };
const STRING_TY: Ty = { kind: "string" };
const INT_TY: Ty = { kind: "int" };
const BOOL_TY: Ty = { kind: "bool" };

/** The type of a scalar as protobuf's JSON writes it, by the table; null for no scalar. */
function scalarTy(scalar: string): Ty | null {
  if (INT32.has(scalar)) return INT_TY;
  if (INT64.has(scalar) || scalar === "string" || scalar === "bytes") return STRING_TY;
  if (DECIMAL.has(scalar)) return JSON_TY;
  return scalar === "bool" ? BOOL_TY : null;
}

/** The type of a well-known message that is no record (`Timestamp`, the JSON ones, the scalar ones), or null. */
function wellKnownTy(name: string): Ty | null {
  if (name === TIMESTAMP) return { kind: "timestamp" };
  if (JSON_TYPES.has(name)) return JSON_TY;
  const scalar = WELL_KNOWN_SCALARS.get(name);
  return scalar === undefined ? null : scalarTy(scalar);
}

/** The prefix protobuf's style gives an enum's values: `ORDER_STATE_` for `OrderState`. */
function valuePrefix(enumName: string): string {
  return `${enumName.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()}_`;
}

/** True for a zero value whose name says "no value": `…_UNSPECIFIED`, its enum's prefix taken off. */
export function saysUnspecified(enumName: string, value: string): boolean {
  const prefix = valuePrefix(enumName);
  const rest = value.startsWith(prefix) ? value.slice(prefix.length) : value;
  return rest.toLowerCase() === "unspecified";
}

/** Makes the types of one `use proto` as the flow names them. */
export class ProtoTypes {
  constructor(
    private readonly api: string,
    private readonly proto: Proto,
    private readonly made: TypeMaps,
  ) {}

  /**
   * The type `<api>.<path…>` names, its records and enums added to the flow's; or why it makes none.
   */
  make(path: readonly string[]): Ty | TypeFault {
    const written = [this.api, ...path].join(".");
    const found = this.find(path);
    const pb = this.proto.pb;
    if (!(found instanceof pb.Type || found instanceof pb.Enum || found instanceof pb.Service)) {
      return this.unknown(written, path.join("."));
    }
    const name = this.nameOf(found);
    if (found instanceof pb.Service) {
      return typeFault(
        "E002",
        tr(
          `\`${written}\` is a service of the description, not a message or an enum`,
          `\`${written}\` は記述のサービスで、メッセージでも列挙でもありません`,
        ),
      );
    }
    if (name !== written) {
      return typeFault(
        "E002",
        tr(
          `\`${written}\` is named \`${name}\`: a type of the file's package is written without it`,
          `\`${written}\` の名前は \`${name}\` です。ファイルの package の型は package を書かずに書きます`,
        ),
        tr(`write \`${name}\``, `\`${name}\` と書いてください`),
      );
    }
    const build = new Build(this.proto, this.made, (o) => this.nameOf(o));
    const ty = found instanceof pb.Enum ? build.enumTy(found) : build.messageTy(found, 0);
    return build.finish(ty, tr("message", "メッセージ"));
  }

  /** The message, enum or service at `path` from the file's package, or from the root for another package's. */
  private find(path: readonly string[]): Protobufjs.ReflectionObject | null {
    const inPackage = this.proto.pkg === ""
      ? null
      : at(this.proto.root, [...this.proto.pkg.split("."), ...path]);
    return inPackage ?? at(this.proto.root, path);
  }

  /** The name a flow writes for a message or an enum: the `use`'s name and the name from the file's package. */
  private nameOf(o: Protobufjs.ReflectionObject): string {
    const full = fullName(o);
    const prefix = `${this.proto.pkg}.`;
    return `${this.api}.${
      this.proto.pkg !== "" && full.startsWith(prefix) ? full.slice(prefix.length) : full
    }`;
  }

  /** E002 for a name the description does not have, with the nearest and some of those it has. */
  private unknown(written: string, rest: string): TypeFault {
    const names: string[] = [];
    const walk = (ns: Protobufjs.NamespaceBase, depth: number) => {
      if (depth > MAX_MESSAGE_DEPTH) return;
      for (const o of ns.nestedArray) {
        if (o instanceof this.proto.pb.Type || o instanceof this.proto.pb.Enum) {
          names.push(this.nameOf(o).slice(this.api.length + 1));
        }
        if (o instanceof this.proto.pb.Namespace || o instanceof this.proto.pb.Type) walk(o, depth + 1);
      }
    };
    walk(this.proto.root, 0);
    const own = names.filter((n) => !n.startsWith("google.protobuf."));
    const notes = [namesNote(tr("messages and enums", "メッセージと列挙"), own)];
    if (this.proto.unread.length > 0) {
      const files = this.proto.unread.join(", ");
      notes.push(
        tr(
          `${files} could not be read, so the types there cannot be used`,
          `${files} を読めなかったので、そこにある型は使えません`,
        ),
      );
    }
    return {
      code: "E002",
      message: tr(
        `the description \`${this.api}\` has no message or enum \`${rest}\``,
        `記述 \`${this.api}\` にメッセージか列挙の \`${rest}\` はありません`,
      ),
      hint: didYouMean(written, own.map((n) => `${this.api}.${n}`)),
      notes,
    };
  }
}

/** The child of a namespace at a path of names, own members only (a name such as `constructor` finds nothing). */
function at(ns: Protobufjs.NamespaceBase, path: readonly string[]): Protobufjs.ReflectionObject | null {
  let here: Protobufjs.ReflectionObject = ns;
  for (const part of path) {
    const nested: Record<string, Protobufjs.ReflectionObject> | undefined = (here as Protobufjs.NamespaceBase)
      .nested;
    if (nested === undefined || !Object.hasOwn(nested, part)) return null;
    here = nested[part];
  }
  return here === ns ? null : here;
}

/** One making of a type from a `.proto`. */
class Build extends Making {
  constructor(
    private readonly proto: Proto,
    made: TypeMaps,
    private readonly nameOf: (o: Protobufjs.ReflectionObject) => string,
  ) {
    super(made);
  }

  enumTy(e: Protobufjs.Enum): Ty {
    const name = this.nameOf(e);
    if (JSON_TYPES.has(fullName(e))) return JSON_TY;
    if (this.has(name)) return { kind: "enum", name };
    const values = Object.entries(e.values).filter(([v, n]) => !(n === 0 && saysUnspecified(e.name, v)))
      .map(([v]) => v);
    const none = values.find((v) => v === "none");
    if (none !== undefined) {
      this.refuse(
        "E006",
        tr(
          `the enum \`${name}\` has the value \`none\`, which \`match\` reads as the arm of no value`,
          `列挙 \`${name}\` に値 \`none\` があります。\`match\` は \`none\` を値が無いことの分岐として読みます`,
        ),
        tr(
          "write the enum yourself, with another name for the value",
          "値に別の名前を付けた列挙を自分で書いてください",
        ),
      );
    }
    const unwritable = values.find((v) => v !== "none" && !isName(v));
    if (unwritable !== undefined) {
      this.refuse(
        "E003",
        tr(
          `the enum \`${name}\` has the value \`${unwritable}\`, which a flow cannot write`,
          `列挙 \`${name}\` の値 \`${unwritable}\` は、フローに書けない名前です`,
        ),
        tr("write the enum yourself", "列挙を自分で書いてください"),
      );
    }
    if (values.length === 0) {
      this.refuse(
        "E003",
        tr(
          `the enum \`${name}\` has no value but its zero value, which says "no value"`,
          `列挙 \`${name}\` には、「値が無い」を言うゼロ値のほかに値がありません`,
        ),
        null,
      );
    }
    this.enums.set(name, { name, values, line: 0 });
    return { kind: "enum", name };
  }

  messageTy(m: Protobufjs.Type, depth: number): Ty {
    const known = wellKnownTy(fullName(m));
    if (known !== null) return known;
    const name = this.nameOf(m);
    if (this.has(name)) return { kind: "record", name };
    if (depth > MAX_MESSAGE_DEPTH) {
      this.refuse(
        "E003",
        tr(
          `the messages nest more than ${MAX_MESSAGE_DEPTH} deep (MAX_MESSAGE_DEPTH) at \`${name}\``,
          `メッセージの入れ子が \`${name}\` で ${MAX_MESSAGE_DEPTH} 段(MAX_MESSAGE_DEPTH)を超えます`,
        ),
        null,
      );
      return JSON_TY;
    }
    const fields: FieldDef[] = [];
    const record: RecordDef = { name, fields, line: 0 };
    this.records.set(name, record);
    try {
      outermost(m, this.proto.pb).resolveAll();
    } catch (e) {
      this.refuse(
        "E002",
        tr(
          `the message \`${name}\` cannot be resolved (${String(e)})`,
          `メッセージ \`${name}\` を解決できません(${String(e)})`,
        ),
        null,
        this.proto.unread.length === 0 ? [] : [
          tr(
            `${this.proto.unread.join(", ")} could not be read, so the types there cannot be used`,
            `${this.proto.unread.join(", ")} を読めなかったので、そこにある型は使えません`,
          ),
        ],
      );
      return { kind: "record", name };
    }
    for (const f of m.fieldsArray) {
      const field = this.field(f, name, depth);
      if (field !== null) fields.push(field);
    }
    return { kind: "record", name };
  }

  /** A field of a made record: its JSON name, its type by the table, its range. */
  private field(f: Protobufjs.Field, record: string, depth: number): FieldDef | null {
    const name = jsonName(f);
    if (!isName(name)) {
      this.refuse(
        "E003",
        tr(
          `the field \`${f.name}\` of \`${record}\` has the JSON name \`${name}\`, which a flow cannot write`,
          `\`${record}\` のフィールド \`${f.name}\` の JSON の名前 \`${name}\` は、フローに書けない名前です`,
        ),
        tr(
          "write the record yourself, with that field as `json` or left out",
          "そのフィールドを `json` にするか省いたレコードを、自分で書いてください",
        ),
      );
      return null;
    }
    const bare = f.map ? JSON_TY : this.one(f, depth);
    const type: Ty = f.repeated && !f.map
      ? { kind: "list", element: bare }
      : bare.kind !== "json" && !f.map && hasPresence(this.proto.pb, f) && !isRequired(f)
      ? { kind: "optional", inner: bare }
      : bare;
    const range = bare.kind === "int" ? fieldRange(f) : null;
    return { name, type, range, secret: null, line: 0, col: 0 };
  }

  /** One value of a field, by the table. */
  private one(f: Protobufjs.Field, depth: number): Ty {
    const t = f.resolvedType;
    if (t instanceof this.proto.pb.Enum) return this.enumTy(t);
    if (t instanceof this.proto.pb.Type) return this.messageTy(t, depth + 1);
    const scalar = scalarTy(f.type);
    if (scalar !== null) return scalar;
    this.refuse(
      "E002",
      tr(
        `the field \`${f.name}\` has the type \`${f.type}\`, which is not known`,
        `フィールド \`${f.name}\` の型 \`${f.type}\` が分かりません`,
      ),
      null,
    );
    return JSON_TY;
  }
}
