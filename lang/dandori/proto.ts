/**
 * proto3 descriptions (docs/dandori.md#api-descriptions): a `use proto` file read by protobufjs (a
 * real parser, not one of ours) with the files it imports, and a `connect <api> "<Service>/<Method>"`
 * task matched to its method, one mismatch each: a service or method the file does not have, a
 * streaming method (a Connect unary call cannot make one), an argument the request does not have (by
 * the field's name or its JSON name), a value that does not fit a field, a result field not named by
 * the response's JSON name (lowerCamelCase, or `json_name`), a 64-bit integer read as anything but
 * `string` (protobuf's JSON writes it as a string), a decimal read as anything but `json` (dandori has
 * no decimal type), a field with presence read without `T?`, an enum that lacks a value the response
 * may hold (but the zero value, the conventional `…_UNSPECIFIED`), an error that is not a Connect code, and a
 * `connect` task with no `url` under its `use`.
 *
 * protobufjs is given by the program that runs the checker (`useProtobufjs`): the command line loads it
 * from `node_modules` when a `.proto` is first read, the playground bundles it; so a command that reads
 * no `.proto` loads nothing, and where it is not installed a `use proto` is E016 saying so.
 *
 * Imports: Google's well-known types (`google/protobuf/*.proto`) are known without files (protobufjs
 * carries them), and so is Protovalidate's `buf/validate/validate.proto`, imported for its options;
 * another import is read beside the file, and from the root above the file's directory when that
 * directory ends with the file's package (`shop/v1` for `shop.v1`, buf's layout) first. An
 * import that cannot be read is recorded, not refused: a type it would have given is named in the
 * mismatch that meets it.
 * @module
 */

import type * as Protobufjs from "protobufjs";
import { type Text, tr } from "../common/text.ts";
import { didYouMean } from "../common/nearest.ts";
import {
  type Place,
  type Placed,
  readsOutOfRange,
  sendsOutOfRange,
  type Unread,
  type Where,
} from "./descriptions.ts";
import { type FieldDef, type Range, showTy, type Ty, type TypeTable } from "./types.ts";

/** The deepest a message may nest in a match before it stops there (a message may contain itself). */
export const MAX_MESSAGE_DEPTH = 32;

/** The most files a `use proto` reads, itself and what it imports, directly or not. */
export const MAX_PROTO_FILES = 256;

/** A read `.proto`: its parsed root (imports added), its package, the `url` of its `use`, and the imports not read. */
export interface Proto {
  readonly root: Protobufjs.Root;
  /** The protobufjs that read it, whose classes the match tells apart. */
  readonly pb: Pb;
  readonly pkg: string;
  readonly url: string | null;
  readonly unread: readonly string[];
}

/** The Connect codes a `connect` task's declared error may name (connectrpc.com/docs/protocol#error-codes). */
export const CONNECT_CODES: readonly string[] = [
  "canceled",
  "unknown",
  "invalid_argument",
  "deadline_exceeded",
  "not_found",
  "already_exists",
  "permission_denied",
  "resource_exhausted",
  "failed_precondition",
  "aborted",
  "out_of_range",
  "unimplemented",
  "internal",
  "unavailable",
  "data_loss",
  "unauthenticated",
];

const WELL_KNOWN = "google/protobuf/";

/**
 * Files imported for their options only, known without being read: Protovalidate's rules, which
 * protobufjs keeps as the options they are written as and proto_types.ts reads.
 */
const OPTIONS_ONLY: ReadonlySet<string> = new Set(["buf/validate/validate.proto"]);

/** The protobufjs module: its parser and reflection classes. */
export type Pb = typeof Protobufjs;

let provide: (() => Pb) | null = null;
let provided: Pb | null = null;

/** Says how to load protobufjs; it is loaded when a `.proto` is first read. */
export function useProtobufjs(load: () => Pb): void {
  provide = load;
  provided = null;
}

/** protobufjs, loaded on first use, or null when none was given or it cannot be loaded. */
function pb(): Pb | null {
  if (provided === null && provide !== null) {
    try {
      provided = provide();
    } catch {
      provide = null;
    }
  }
  return provided;
}

/** The text with its comments blanked, so a `syntax` line is found where the parser reads one. */
function uncommented(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, " ");
}

/**
 * Reads a `.proto` and what it imports (`readImport` gives the text of a path as the `use` writes
 * paths, or null when it cannot be read); why it cannot be read: not proto3, or not parsed.
 */
export function readProto(
  path: string,
  text: string,
  url: string | null,
  readImport: (path: string) => string | null,
): Proto | Unread {
  const syntax = /(?:^|;|\s)syntax\s*=\s*(["'])([^"']*)\1\s*;/.exec(uncommented(text));
  if (syntax === null || syntax[2] !== "proto3") {
    return {
      why: tr(
        'it is not proto3 (`syntax = "proto3";`): proto2 and editions are not read',
        'proto3(`syntax = "proto3";`)ではありません。proto2 と edition は読みません',
      ),
    };
  }
  const protobuf = pb();
  if (protobuf === null) {
    return {
      why: tr(
        "protobufjs, which reads `.proto` files, is not installed here (run `deno install`)",
        "`.proto` を読む protobufjs が、ここには入っていません(`deno install` を実行してください)",
      ),
    };
  }
  const root = new protobuf.Root();
  const unread: string[] = [];
  const seen = new Set<string>();
  const add = (file: string, source: string): Unread | string => {
    let parsed: Protobufjs.IParserResult;
    try {
      parsed = protobuf.parse(source, root, { keepCase: true });
    } catch (e) {
      return { why: tr(`${file}: ${String(e)}`, `${file}: ${String(e)}`) };
    }
    for (const name of [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])]) {
      if (seen.has(name)) continue;
      seen.add(name);
      if (seen.size >= MAX_PROTO_FILES) {
        return {
          why: tr(
            `it imports more than ${MAX_PROTO_FILES - 1} files (MAX_PROTO_FILES), directly or through others`,
            `直接またはほかを通して、${
              MAX_PROTO_FILES - 1
            } を超えるファイルを import しています(MAX_PROTO_FILES)`,
          ),
        };
      }
      if (OPTIONS_ONLY.has(name)) continue;
      if (name.startsWith(WELL_KNOWN)) {
        const known = protobuf.common.get(name);
        if (known?.nested !== undefined) root.addJSON(known.nested);
        else unread.push(name);
        continue;
      }
      let found: { at: string; text: string } | null = null;
      for (const dir of importDirs(file, parsed.package ?? "")) {
        const at = dir === "" ? name : `${dir}/${name}`;
        const text = readImport(at);
        if (text !== null) {
          found = { at, text };
          break;
        }
      }
      if (found === null) {
        unread.push(name);
        continue;
      }
      const inner = add(found.at, found.text);
      if (typeof inner !== "string") return inner;
    }
    return parsed.package ?? "";
  };
  const pkg = add(path, text);
  if (typeof pkg !== "string") return pkg;
  return { root, pb: protobuf, pkg, url, unread };
}

/**
 * Where a file's imports are looked for, in order: the root above its directory when that directory
 * ends with its package (`shop/v1` for `shop.v1`, buf's layout), then its directory.
 */
function importDirs(file: string, pkg: string): string[] {
  const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : "";
  const tail = pkg.replaceAll(".", "/");
  if (tail === "" || !(dir === tail || dir.endsWith(`/${tail}`))) return [dir];
  return [dir.slice(0, dir.length - tail.length).replace(/\/$/, ""), dir];
}

/** The task as the match reads it. */
export interface ConnectTaskShape {
  /** `<Service>/<Method>` as written, the service named from the file's package. */
  readonly method: string;
  readonly params: readonly FieldDef[];
  readonly result: { readonly type: Ty; readonly range: Range | null } | null;
  /** The declared errors with the code each names (`errors missing = not_found`, or the error's own name). */
  readonly errors: readonly { readonly error: string; readonly code: string | null; readonly at: Place }[];
}

/** The method a `connect` task names, resolved: its service, its name, its request and response messages. */
export interface ResolvedMethod {
  readonly service: Protobufjs.Service;
  readonly method: string;
  readonly request: Protobufjs.Type;
  readonly response: Protobufjs.Type;
}

/** Matches a `connect` task to its method: its mismatches, none when it fits, and the method once both messages resolve. */
export function matchConnect(
  proto: Proto,
  task: ConnectTaskShape,
  types: TypeTable,
): { readonly faults: readonly Placed[]; readonly method: ResolvedMethod | null } {
  const match = new Match(proto, task, types);
  const faults = match.run();
  return { faults, method: match.resolved };
}

/** The 32-bit integer types: `int` in dandori. */
export const INT32: ReadonlySet<string> = new Set(["int32", "sint32", "sfixed32", "uint32", "fixed32"]);
/** The 64-bit integer types: protobuf's JSON writes them as strings. */
export const INT64: ReadonlySet<string> = new Set(["int64", "sint64", "sfixed64", "uint64", "fixed64"]);
/** The decimal types: dandori has no decimal type, so `json`. */
export const DECIMAL: ReadonlySet<string> = new Set(["double", "float"]);
/** `google.protobuf.ListValue`: a JSON array. */
export const LIST_VALUE = "google.protobuf.ListValue";
/** The well-known types whose JSON is any JSON value: `json` in dandori, never `json?`. */
export const JSON_TYPES: ReadonlySet<string> = new Set([
  "google.protobuf.Struct",
  "google.protobuf.Value",
  LIST_VALUE,
  "google.protobuf.Any",
  "google.protobuf.NullValue",
]);

/** `google.protobuf.Timestamp`: an RFC 3339 string, `timestamp` in dandori. */
export const TIMESTAMP = "google.protobuf.Timestamp";

/**
 * The well-known messages protobuf's JSON writes as a scalar, by the scalar: the wrappers as the
 * type they wrap, `Duration` (`"1.5s"`) and `FieldMask` (`"a,b.c"`) as strings.
 */
export const WELL_KNOWN_SCALARS: ReadonlyMap<string, string> = new Map([
  ["google.protobuf.DoubleValue", "double"],
  ["google.protobuf.FloatValue", "float"],
  ["google.protobuf.Int64Value", "int64"],
  ["google.protobuf.UInt64Value", "uint64"],
  ["google.protobuf.Int32Value", "int32"],
  ["google.protobuf.UInt32Value", "uint32"],
  ["google.protobuf.BoolValue", "bool"],
  ["google.protobuf.StringValue", "string"],
  ["google.protobuf.BytesValue", "bytes"],
  ["google.protobuf.Duration", "string"],
  ["google.protobuf.FieldMask", "string"],
]);

/** What `valueKind` says of a field whose values are any JSON value. */
const JSON_KIND = "json";

/** A field's type as the `.proto` writes it: its scalar, or its enum's or message's full name. */
function rawType(f: Protobufjs.Field): string {
  return f.resolvedType === null ? f.type : fullName(f.resolvedType);
}

/**
 * What a field's values are in protobuf's JSON: `json` for the JSON well-known types, the scalar of a
 * wrapper, `Duration` or `FieldMask`, else its scalar, enum or message as the `.proto` writes it.
 */
export function valueKind(f: Protobufjs.Field): string {
  const raw = rawType(f);
  return JSON_TYPES.has(raw) ? JSON_KIND : WELL_KNOWN_SCALARS.get(raw) ?? raw;
}

/** The `ignore` values under which a field's zero value passes its rules. */
const IGNORE_ZERO: ReadonlySet<string> = new Set([
  "IGNORE_IF_ZERO_VALUE",
  "IGNORE_IF_UNPOPULATED",
  "IGNORE_IF_DEFAULT_VALUE",
]);

const RULES = "(buf.validate.field).";

/**
 * The range of an integer's Protovalidate rules under `prefix` (`(buf.validate.field).` or
 * `….repeated.items.`) for the rule family `family` (`int32`, `uint64` …): `gte`, `gt`, `lte`, `lt`
 * and `const`; zero added when the rules are ignored for it. Null when there are none, or when they
 * do not make one range (`gt` above `lt` means outside; nothing between the ends).
 */
export function protoRange(
  options: Readonly<Record<string, unknown>> | undefined,
  prefix: string,
  family: string,
): Range | null {
  const at = (rule: string): bigint | null => {
    const key = `${prefix}${family}.${rule}`;
    const v = options !== undefined && Object.hasOwn(options, key) ? options[key] : undefined;
    return typeof v === "number" && Number.isSafeInteger(v) ? BigInt(v) : null;
  };
  const [gte, gt, lte, lt, exactly] = ["gte", "gt", "lte", "lt", "const"].map(at);
  let lo = exactly ?? max(gte, gt === null ? null : gt + 1n);
  let hi = exactly ?? min(lte, lt === null ? null : lt - 1n);
  if (lo === null && hi === null) return null;
  const lower = gte ?? gt;
  const upper = lte ?? lt;
  if (exactly === null && lower !== null && upper !== null && lower > upper) return null;
  if (lo !== null && hi !== null && lo > hi) return null;
  const ignore = options?.[`${prefix}ignore`];
  if (typeof ignore === "string" && IGNORE_ZERO.has(ignore)) {
    lo = lo === null ? null : min(lo, 0n);
    hi = hi === null ? null : max(hi, 0n);
  }
  return { kind: "number", lo, hi };
}

function max(a: bigint | null, b: bigint | null): bigint | null {
  return a === null ? b : b === null ? a : a > b ? a : b;
}

function min(a: bigint | null, b: bigint | null): bigint | null {
  return a === null ? b : b === null ? a : a < b ? a : b;
}

/**
 * The range Protovalidate's rules give an integer field (its items' when `repeated`; a wrapper's are
 * its wrapped type's), or null.
 */
export function fieldRange(f: Protobufjs.Field): Range | null {
  if (f.map) return null;
  const family = valueKind(f);
  if (!INT32.has(family) && !INT64.has(family)) return null;
  const options = f.options as Readonly<Record<string, unknown>> | undefined;
  return protoRange(options, f.repeated ? `${RULES}repeated.items.` : RULES, family);
}

/** True when Protovalidate requires the field (`(buf.validate.field).required = true`): never left out. */
export function isRequired(f: Protobufjs.Field): boolean {
  return f.options?.[`${RULES}required`] === true;
}

/** A field's JSON name: `json_name`, else its name in lowerCamelCase (protobuf's rule). */
export function jsonName(f: Protobufjs.Field): string {
  const given = f.options?.json_name;
  if (typeof given === "string") return given;
  return f.name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** True when the response tells a field's absence from its zero value: `optional`, a message, a `oneof` member. */
export function hasPresence(pb: Pb, f: Protobufjs.Field): boolean {
  return f.partOf !== null || f.options?.proto3_optional === true ||
    (f.resolvedType instanceof pb.Type && !JSON_TYPES.has(fullName(f.resolvedType)));
}

/** A reflection object's full name without the leading dot (`warehouse.v1.Line`). */
export function fullName(o: Protobufjs.ReflectionObject): string {
  return o.fullName.replace(/^\./, "");
}

/**
 * The message a message is nested in, outermost: protobufjs resolves a nested message's fields only
 * once the message around it is resolved ("Unknown edition" otherwise).
 */
export function outermost(m: Protobufjs.Type, pb: Pb): Protobufjs.Type {
  let top = m;
  while (top.parent instanceof pb.Type) top = top.parent;
  return top;
}

/** What the match says where the records it follows nest deeper than MAX_MESSAGE_DEPTH. */
function tooDeep(): Text {
  return tr(
    `the records nest more than ${MAX_MESSAGE_DEPTH} deep (MAX_MESSAGE_DEPTH), and the match stops there`,
    `レコードの入れ子が ${MAX_MESSAGE_DEPTH} 段(MAX_MESSAGE_DEPTH)を超えるので、突き合わせをそこで止めます`,
  );
}

class Match {
  private readonly faults: Placed[] = [];
  /** The method, once its request and response resolve. */
  resolved: ResolvedMethod | null = null;

  constructor(
    private readonly proto: Proto,
    private readonly task: ConnectTaskShape,
    private readonly types: TypeTable,
  ) {}

  run(): readonly Placed[] {
    const [serviceName, methodName] = this.task.method.split("/");
    const prefix = this.proto.pkg === "" ? "" : `${this.proto.pkg}.`;
    const { services, cut } = this.services();
    const service = services.get(`${prefix}${serviceName}`);
    if (service === undefined || methodName === undefined) {
      const known = [...services.keys()].map((n) => n.slice(prefix.length));
      const hint = didYouMean(serviceName ?? "", known);
      const deeper = cut
        ? tr(
          `; packages and messages nested more than ${MAX_MESSAGE_DEPTH} deep (MAX_MESSAGE_DEPTH) were not searched`,
          `。${MAX_MESSAGE_DEPTH} 段(MAX_MESSAGE_DEPTH)より深いパッケージとメッセージは探していません`,
        )
        : tr("", "");
      const en = `the description has no service \`${serviceName}\` (it has ${
        known.join(", ") || "none"
      })${deeper.en}`;
      const ja = `記述にサービス \`${serviceName}\` はありません(あるのは ${
        known.join("、") || "ありません"
      })${deeper.ja}`;
      return this.say(
        { kind: "operation" },
        hint === null ? tr(en, ja) : tr(`${en}; ${hint.en}`, `${ja}。${hint.ja}`),
        prefix || "(no package)",
      );
    }
    const method = service.methods[methodName];
    const at = `${fullName(service)}/${methodName}`;
    if (method === undefined) {
      const known = Object.keys(service.methods);
      const hint = didYouMean(methodName, known);
      const en = `the service \`${serviceName}\` has no method \`${methodName}\` (it has ${
        known.join(", ")
      })`;
      const ja = `サービス \`${serviceName}\` にメソッド \`${methodName}\` はありません(あるのは ${
        known.join("、")
      })`;
      return this.say(
        { kind: "operation" },
        hint === null ? tr(en, ja) : tr(`${en}; ${hint.en}`, `${ja}。${hint.ja}`),
        fullName(service),
      );
    }
    if (method.requestStream === true || method.responseStream === true) {
      return this.say(
        { kind: "operation" },
        tr(
          `\`${methodName}\` streams (\`stream\` in its ${
            method.requestStream ? "request" : "response"
          }), and a \`connect\` task makes one unary call`,
          `\`${methodName}\` はストリームのメソッド(${
            method.requestStream ? "リクエスト" : "レスポンス"
          }に \`stream\`)で、\`connect\` のタスクは単項の呼び出しを一度するだけです`,
        ),
        at,
      );
    }
    if (this.proto.url === null) {
      this.say(
        { kind: "operation" },
        tr(
          'a `.proto` does not say where its service is: write `url "<https URL>"` under the `use`',
          '`.proto` はサービスの場所を言わないので、`use` の下に `url "<https の URL>"` と書いてください',
        ),
        at,
      );
    }
    const request = this.message(method.requestType, method, at);
    const response = this.message(method.responseType, method, at);
    if (request !== null) this.params(request);
    if (response !== null) this.result(response);
    if (request !== null && response !== null) {
      this.resolved = { service, method: methodName, request, response };
    }
    this.errors(at);
    return this.faults;
  }

  private say(where: Where, message: Text, pointer: string): readonly Placed[] {
    this.faults.push({ where, message, pointer });
    return this.faults;
  }

  /** Every service by its full name; `cut` when packages or messages nest deeper than the walk goes. */
  private services(): { services: Map<string, Protobufjs.Service>; cut: boolean } {
    const out = new Map<string, Protobufjs.Service>();
    let cut = false;
    const walk = (ns: Protobufjs.NamespaceBase, depth: number) => {
      if (depth > MAX_MESSAGE_DEPTH) {
        cut = true;
        return;
      }
      for (const o of ns.nestedArray) {
        if (o instanceof this.proto.pb.Service) out.set(fullName(o), o);
        if (o instanceof this.proto.pb.Namespace || o instanceof this.proto.pb.Type) walk(o, depth + 1);
      }
    };
    walk(this.proto.root, 0);
    return { services: out, cut };
  }

  /** A request or response message by name, or null after saying it cannot be found (an import not read). */
  private message(name: string, method: Protobufjs.Method, at: string): Protobufjs.Type | null {
    try {
      const t = method.parent?.lookupType(name);
      if (t !== undefined && t !== null) {
        outermost(t, this.proto.pb).resolveAll();
        return t;
      }
    } catch (e) {
      this.say({ kind: "operation" }, this.unresolved(name, String(e)), at);
      return null;
    }
    this.say({ kind: "operation" }, this.unresolved(name, ""), at);
    return null;
  }

  private unresolved(name: string, why: string): Text {
    const files = this.proto.unread.join(", ");
    return files === ""
      ? tr(
        `the message \`${name}\` cannot be resolved (${why})`,
        `メッセージ \`${name}\` を解決できません(${why})`,
      )
      : tr(
        `the message \`${name}\` cannot be resolved: ${files} could not be read, so the types there cannot be used`,
        `メッセージ \`${name}\` を解決できません。${files} を読めなかったので、そこにある型は使えません`,
      );
  }

  /** Each argument against a request field, by its name or its JSON name. */
  private params(request: Protobufjs.Type): void {
    for (const p of this.task.params) {
      const f = request.fieldsArray.find((x) => x.name === p.name || jsonName(x) === p.name);
      if (f === undefined) {
        const known = request.fieldsArray.map((x) => x.name);
        const hint = didYouMean(p.name, known);
        const en = `the request \`${request.name}\` has no field \`${p.name}\``;
        const ja = `リクエスト \`${request.name}\` にフィールド \`${p.name}\` はありません`;
        this.say(
          { kind: "param", param: p },
          hint === null ? tr(en, ja) : tr(`${en}; ${hint.en}`, `${ja}。${hint.ja}`),
          fullName(request),
        );
        continue;
      }
      const fault = this.sends(p.type, p.range, f, 0);
      if (fault !== null) this.say({ kind: "param", param: p }, fault, `${fullName(request)}.${f.name}`);
    }
  }

  /** The result: a record's fields each against a response field by its JSON name. */
  private result(response: Protobufjs.Type): void {
    const result = this.task.result;
    if (result === null) return;
    if (result.type.kind !== "record") {
      if (result.type.kind !== "json") {
        this.say(
          { kind: "result" },
          tr(
            `the response is the message \`${response.name}\`; read it as a record or \`json\`, not \`${
              showTy(result.type)
            }\``,
            `レスポンスはメッセージ \`${response.name}\` なので、\`${
              showTy(result.type)
            }\` ではなく、レコードか \`json\` で読んでください`,
          ),
          fullName(response),
        );
      }
      return;
    }
    this.readsRecord(result.type.name, response, 0, true);
  }

  /** A record read from a message: each field by the message's JSON name; the first misfit, said at the field when `top`. */
  private readsRecord(name: string, message: Protobufjs.Type, depth: number, top: boolean): Text | null {
    const rec = this.types.records.get(name);
    if (rec === undefined) return null;
    if (depth > MAX_MESSAGE_DEPTH) return tooDeep();
    for (const field of rec.fields) {
      const byJson = message.fieldsArray.find((x) => jsonName(x) === field.name);
      const byName = message.fieldsArray.find((x) => x.name === field.name);
      let fault: Text | null;
      let pointer = fullName(message);
      if (byJson === undefined && byName !== undefined) {
        fault = tr(
          `the response names \`${field.name}\` by its JSON name \`${
            jsonName(byName)
          }\`; write the field as \`${jsonName(byName)}\``,
          `レスポンスは \`${field.name}\` を JSON の名前 \`${jsonName(byName)}\` で書くので、フィールドを \`${
            jsonName(byName)
          }\` と書いてください`,
        );
        pointer = `${fullName(message)}.${byName.name}`;
      } else if (byJson === undefined) {
        fault = tr(
          `the response \`${message.name}\` has no field \`${field.name}\``,
          `レスポンス \`${message.name}\` にフィールド \`${field.name}\` はありません`,
        );
      } else {
        fault = this.reads(field.type, field.range, byJson, depth);
        pointer = `${fullName(message)}.${byJson.name}`;
      }
      if (fault === null) continue;
      if (!top) return fault;
      this.say({ kind: "field", field }, fault, pointer);
    }
    return null;
  }

  /** Null when a value of the field can be read as `ty` (`range` the task's), else why not. */
  private reads(ty: Ty, range: Range | null, f: Protobufjs.Field, depth: number): Text | null {
    const wanted = valueKind(f);
    if (wanted === JSON_KIND && !f.repeated && !f.map) {
      return ty.kind === "json" ? null : tr(
        `\`${f.name}\` is \`${rawType(f)}\`; read it as \`json\``,
        `\`${f.name}\` は \`${rawType(f)}\` なので、\`json\` で読んでください`,
      );
    }
    if (hasPresence(this.proto.pb, f) && !isRequired(f) && !f.repeated && !f.map && ty.kind !== "optional") {
      return tr(
        `the response may leave \`${f.name}\` out (it has presence); write \`${showTy(ty)}?\``,
        `レスポンスは \`${f.name}\` を省くことがある(値があるかを持つ)ので、\`${
          showTy(ty)
        }?\` と書いてください`,
      );
    }
    const bare = ty.kind === "optional" ? ty.inner : ty;
    if (f.map) return bare.kind === "json" ? null : this.misfit(bare, f, "map");
    return this.each(bare, f, (t) => this.readsOne(t, range, f, wanted, depth));
  }

  /** `one` of the field's value as `ty`, or of each item of a `repeated` field (`ty` then a list). */
  private each(ty: Ty, f: Protobufjs.Field, one: (item: Ty) => Text | null): Text | null {
    if (!f.repeated) return one(ty);
    return ty.kind === "list" ? one(ty.element) : this.misfit(ty, f, `repeated ${rawType(f)}`);
  }

  private readsOne(
    ty: Ty,
    range: Range | null,
    f: Protobufjs.Field,
    wanted: string,
    depth: number,
  ): Text | null {
    if (wanted === JSON_KIND) return ty.kind === "json" ? null : this.misfit(ty, f, rawType(f));
    if (INT64.has(wanted)) {
      return ty.kind === "string" ? null : tr(
        `\`${f.name}\` is a 64-bit integer (\`${wanted}\`), which protobuf's JSON writes as a string; read it as \`string\``,
        `\`${f.name}\` は 64 ビットの整数(\`${wanted}\`)で、protobuf の JSON は文字列で書くので、\`string\` で読んでください`,
      );
    }
    if (DECIMAL.has(wanted)) {
      return ty.kind === "json" ? null : tr(
        `\`${f.name}\` is a decimal (\`${wanted}\`), and dandori has no decimal type; read it as \`json\``,
        `\`${f.name}\` は小数(\`${wanted}\`)で、dandori には小数の型が無いので、\`json\` で読んでください`,
      );
    }
    if (INT32.has(wanted)) {
      if (ty.kind !== "int") return this.misfit(ty, f, wanted);
      const theirs = fieldRange(f);
      const out = readsOutOfRange(range, theirs?.lo ?? null, theirs?.hi ?? null);
      return out === null ? null : tr(`\`${f.name}\` ${out.en}`, `\`${f.name}\` は${out.ja}`);
    }
    if (f.resolvedType instanceof this.proto.pb.Enum) {
      if (ty.kind !== "enum") return this.misfit(ty, f, wanted);
      const mine = this.types.enums.get(ty.name)?.values ?? [];
      const lacking = Object.entries(f.resolvedType.values).find(([name, n]) =>
        n !== 0 && !mine.includes(name)
      );
      return lacking === undefined ? null : tr(
        `the response may hold \`${lacking[0]}\`, which \`${ty.name}\` lacks`,
        `レスポンスは \`${lacking[0]}\` を持つことがありますが、\`${ty.name}\` にありません`,
      );
    }
    if (wanted === TIMESTAMP) return ty.kind === "timestamp" ? null : this.misfit(ty, f, wanted);
    if (f.resolvedType instanceof this.proto.pb.Type && wanted === fullName(f.resolvedType)) {
      if (ty.kind !== "record") return this.misfit(ty, f, wanted);
      return this.readsRecord(ty.name, f.resolvedType, depth + 1, false);
    }
    const fits = (wanted === "bool" && ty.kind === "bool") ||
      ((wanted === "string" || wanted === "bytes") && ty.kind === "string");
    return fits ? null : this.misfit(ty, f, wanted);
  }

  private misfit(ty: Ty, f: Protobufjs.Field, wanted: string): Text {
    return tr(
      `\`${f.name}\` is \`${wanted}\`, which cannot be read as \`${showTy(ty)}\``,
      `\`${f.name}\` は \`${wanted}\` で、\`${showTy(ty)}\` としては読めません`,
    );
  }

  /** Null when every value of `ty` (within `range`, the task's) fits the request field, else why not. */
  private sends(ty: Ty, range: Range | null, f: Protobufjs.Field, depth: number): Text | null {
    const bare = ty.kind === "optional" ? ty.inner : ty;
    const wanted = valueKind(f);
    if ((wanted === JSON_KIND && !f.repeated) || f.map) {
      return bare.kind === "json" ? null : this.misfit(bare, f, f.map ? "map" : rawType(f));
    }
    return this.each(bare, f, (t) => this.sendsOne(t, range, f, wanted, depth));
  }

  private sendsOne(
    ty: Ty,
    range: Range | null,
    f: Protobufjs.Field,
    wanted: string,
    depth: number,
  ): Text | null {
    const no = () =>
      tr(
        `\`${showTy(ty)}\` does not fit \`${f.name}\`, which is \`${wanted}\``,
        `\`${showTy(ty)}\` は、\`${wanted}\` の \`${f.name}\` に合いません`,
      );
    const inRange = () => {
      const theirs = fieldRange(f);
      const out = sendsOutOfRange(range, theirs?.lo ?? null, theirs?.hi ?? null);
      return out === null ? null : tr(
        `\`${f.name}\` ${out.en} (Protovalidate's rules)`,
        `\`${f.name}\` は${out.ja}(Protovalidate の規則)`,
      );
    };
    if (wanted === JSON_KIND) return ty.kind === "json" ? null : no();
    if (INT64.has(wanted)) return ty.kind === "string" ? null : ty.kind === "int" ? inRange() : no();
    if (INT32.has(wanted)) return ty.kind === "int" ? inRange() : no();
    if (DECIMAL.has(wanted)) {
      return ty.kind === "int" || ty.kind === "num" || ty.kind === "json" ? null : no();
    }
    if (wanted === "bool") return ty.kind === "bool" ? null : no();
    if (wanted === "string" || wanted === "bytes") return ty.kind === "string" ? null : no();
    if (f.resolvedType instanceof this.proto.pb.Enum) {
      if (ty.kind !== "enum") return no();
      const theirs = Object.keys(f.resolvedType.values);
      const extra = (this.types.enums.get(ty.name)?.values ?? []).find((v) => !theirs.includes(v));
      return extra === undefined ? null : tr(
        `\`${f.name}\` (\`${wanted}\`) has no value \`${extra}\``,
        `\`${f.name}\`(\`${wanted}\`)に値 \`${extra}\` はありません`,
      );
    }
    if (wanted === TIMESTAMP) return ty.kind === "timestamp" ? null : no();
    if (f.resolvedType instanceof this.proto.pb.Type && wanted === fullName(f.resolvedType)) {
      if (ty.kind !== "record") return no();
      if (depth > MAX_MESSAGE_DEPTH) return tooDeep();
      const rec = this.types.records.get(ty.name);
      for (const field of rec?.fields ?? []) {
        const g = f.resolvedType.fieldsArray.find((x) => x.name === field.name || jsonName(x) === field.name);
        if (g === undefined) {
          return tr(
            `\`${ty.name}\` has the field \`${field.name}\`, which \`${wanted}\` does not`,
            `\`${ty.name}\` のフィールド \`${field.name}\` は、\`${wanted}\` にありません`,
          );
        }
        const inner = this.sends(field.type, field.range, g, depth + 1);
        if (inner !== null) return inner;
      }
      return null;
    }
    return no();
  }

  /** Each declared error names a Connect code. */
  private errors(at: string): void {
    for (const { error, code, at: place } of this.task.errors) {
      const named = code ?? error;
      if (CONNECT_CODES.includes(named)) continue;
      const hint = didYouMean(named, CONNECT_CODES);
      const en = `\`${error}\` names \`${named}\`, which is not a Connect code (${CONNECT_CODES.join(", ")})`;
      const ja = `\`${error}\` が名指す \`${named}\` は Connect のコードではありません(${
        CONNECT_CODES.join("、")
      })`;
      this.say(
        { kind: "item", at: place },
        hint === null ? tr(en, ja) : tr(`${en}; ${hint.en}`, `${ja}。${hint.ja}`),
        at,
      );
    }
  }
}
