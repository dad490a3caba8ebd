/**
 * OpenAPI descriptions (docs/dandori.md#api-descriptions): a `use openapi` file read
 * from its JSON, and an `http <METHOD> <api> "<path>"` task matched to the operation it names (E016).
 *
 * What is read: OpenAPI 3.0 and 3.1 as JSON (YAML is refused: convert it first). Only the operations
 * the flow's tasks name are walked, and of them only the schemas their arguments and results reach.
 * A `$ref` is followed only inside the document (`#/…`), at most `MAX_REF_CHAIN` in a row; a schema
 * is walked at most `MAX_SCHEMA_DEPTH` deep. Values are compared in the direction they flow: an
 * argument must fit what the operation takes (any one of an `anyOf`/`oneOf`), a result must read
 * every value the operation may return (every one of an `anyOf`/`oneOf`). Stripe's expandable fields
 * (`x-expansionResources`) are read as their id, a `string`, because dandori never asks to expand.
 *
 * Pure: the bytes come from the caller (resolve.ts reads them through the flow's file port).
 * @module
 */

import type { Json } from "../common/json.ts";
import { didYouMean } from "../common/nearest.ts";
import { type Text, tr } from "../common/text.ts";
import {
  type Fault,
  isObj,
  lacksReturned,
  NONE,
  type Obj,
  type Place,
  type Placed,
  readJsonObject,
  readsOutOfRange,
  requiredButOptional,
  sendsOutOfRange,
  type Unread,
} from "./descriptions.ts";
import { type FieldDef, type Range, showTy, type Ty, type TypeTable } from "./types.ts";
import {
  bounds,
  kindsOf,
  type Located,
  MAX_SCHEMA_DEPTH,
  mayBeNull,
  required,
  Schemas,
  token,
} from "./openapi_schemas.ts";

/** A description read: its document, and the `url` under its `use`. */
export interface OpenApi {
  readonly root: Obj;
  /** The `url` under `use`, which replaces every server of the description; null without one. */
  readonly url: string | null;
  /** The description's first server's URL (its variables at their defaults), or null. */
  readonly server: string | null;
}

/**
 * Reads an OpenAPI description from its bytes: JSON, an object with `openapi` 3.0.x or 3.1.x and
 * `paths`. `url` is the `use`'s `url` line, which replaces the description's servers.
 */
export function readOpenApi(path: string, bytes: Uint8Array, url: string | null): OpenApi | Unread {
  if (/\.ya?ml$/i.test(path)) {
    return {
      why: tr(
        "it is YAML, and dandori reads OpenAPI descriptions as JSON only; convert it to JSON and name the .json file",
        "YAML です。dandori が読む OpenAPI の記述は JSON だけです。JSON に直して、その .json のファイルを書いてください",
      ),
    };
  }
  const read = readJsonObject(bytes);
  if ("why" in read) return read;
  const root = read.root;
  const version = root.openapi;
  if (typeof version !== "string" || !/^3\.[01]\.\d+$/.test(version)) {
    const said = typeof version === "string" ? `"${version}"` : "no `openapi` version";
    return {
      why: tr(
        `it says ${said}; dandori reads OpenAPI 3.0 and 3.1 (\`"openapi": "3.0.x"\` or \`"3.1.x"\`)`,
        `${
          typeof version === "string" ? `"${version}"` : "`openapi` の版が無い"
        }記述です。dandori が読むのは OpenAPI 3.0 と 3.1(\`"openapi": "3.0.x"\` か \`"3.1.x"\`)です`,
      ),
    };
  }
  if (!isObj(root.paths)) {
    return { why: tr("it has no `paths` object", "`paths` のオブジェクトがありません") };
  }
  return { root, url, server: firstServer(root) };
}

/**
 * The first server's URL of a document, a path item or an operation (`servers`), with its variables
 * at their defaults, or null when it names none.
 */
function firstServer(at: Obj): string | null {
  const servers = at.servers;
  if (!Array.isArray(servers) || !isObj(servers[0]) || typeof servers[0].url !== "string") return null;
  const server = servers[0];
  const vars = isObj(server.variables) ? server.variables : NONE;
  return (server.url as string).replace(/\{([^}]*)\}/g, (whole, name: string) => {
    const v = vars[name];
    return isObj(v) && typeof v.default === "string" ? v.default : whole;
  });
}

/** The HTTP methods an OpenAPI path item has operations for. */
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** The task as the match reads it. */
export interface TaskShape {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly params: readonly FieldDef[];
  readonly result: { readonly type: Ty; readonly range: Range | null } | null;
  /** The declared errors that name a status (`declined = 402`). */
  readonly statuses: readonly { readonly error: string; readonly status: string; readonly at: Place }[];
}

/** What the match of a task found: its mismatches, and how it is called when there are none. */
export interface Matched {
  readonly faults: readonly Placed[];
  /** The URL the task calls (base and path, `{argument}` where values go), or null without a base. */
  readonly url: string | null;
  /** True when the operation's request body is a form (`application/x-www-form-urlencoded` only). */
  readonly form: boolean;
}

const JSON_MEDIA = "application/json";
const FORM_MEDIA = "application/x-www-form-urlencoded";

/** Matches a task to the operation its `http` line names (docs/dandori.md#api-descriptions). */
export function matchOperation(api: OpenApi, task: TaskShape, types: TypeTable): Matched {
  return new Match(api, task, types).run();
}

/** A parameter of an operation, with where it is written. */
interface Param {
  readonly p: Obj;
  readonly at: string;
}

/** An operation's request body: its schema, and whether it is sent as a form. */
interface Body {
  readonly schema: Located;
  readonly form: boolean;
}

class Match {
  private readonly faults: Placed[] = [];
  private readonly schemas: Schemas;

  constructor(
    private readonly api: OpenApi,
    private readonly task: TaskShape,
    private readonly types: TypeTable,
  ) {
    this.schemas = new Schemas(api.root);
  }

  private say(where: Placed["where"], message: Text, pointer: string): void {
    this.faults.push({ where, message, pointer });
  }

  run(): Matched {
    const t = this.task;
    const paths = this.api.root.paths as Obj;
    const pathAt = `#/paths/${token(t.path)}`;
    const item = paths[t.path];
    const verb = t.method.toLowerCase();
    const op = isObj(item) ? item[verb] : undefined;
    if (!isObj(item) || !isObj(op) || !METHODS.includes(verb)) {
      const known = Object.keys(paths).flatMap((p) => {
        const i = paths[p];
        return isObj(i) ? METHODS.filter((m) => isObj(i[m])).map((m) => `${m.toUpperCase()} ${p}`) : [];
      });
      const hint = didYouMean(`${t.method.toUpperCase()} ${t.path}`, known);
      const there = `the description has no operation ${t.method.toUpperCase()} ${t.path}`;
      const thereJa = `記述に ${t.method.toUpperCase()} ${t.path} の操作はありません`;
      this.say(
        { kind: "operation" },
        hint === null ? tr(there, thereJa) : tr(`${there}; ${hint.en}`, `${thereJa}。${hint.ja}`),
        pathAt,
      );
      return { faults: this.faults, url: null, form: false };
    }
    const opAt = `${pathAt}/${verb}`;
    const form = this.args(item, op, opAt);
    this.result(op, opAt);
    this.statuses(op, opAt);
    // The servers nearest the operation win (OpenAPI: an operation's, then its path's, then the document's).
    const base = this.api.url ?? firstServer(op) ?? firstServer(item) ?? this.api.server;
    return { faults: this.faults, url: base === null ? null : `${base.replace(/\/+$/, "")}${t.path}`, form };
  }

  /** The operation's parameters (the path item's, overridden by the operation's of the same name and place). */
  private parameters(item: Obj, op: Obj, opAt: string): Map<string, Param> {
    const out = new Map<string, Param>();
    const from = (list: Json | undefined, at: string) => {
      if (!Array.isArray(list)) return;
      list.forEach((raw, i) => {
        const got = this.schemas.deref(raw, `${at}/${i}`);
        if ("message" in got) return this.say({ kind: "operation" }, got.message, got.pointer);
        const { s, at: pAt } = got;
        if (typeof s.name === "string" && typeof s.in === "string") {
          out.set(`${s.in}:${s.name}`, { p: s, at: pAt });
        }
      });
    };
    from(item.parameters, `${opAt.slice(0, opAt.lastIndexOf("/"))}/parameters`);
    from(op.parameters, `${opAt}/parameters`);
    return out;
  }

  /**
   * Arguments: path parameters, then query parameters (GET, DELETE) or the body's properties; then
   * what the operation requires and the task does not pass. True when the body is a form.
   */
  private args(item: Obj, op: Obj, opAt: string): boolean {
    const t = this.task;
    const params = this.parameters(item, op, opAt);
    const inPath = new Set([...t.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]));
    const byName = new Map(t.params.map((p) => [p.name, p]));
    for (const name of inPath) {
      if (byName.has(name)) continue;
      this.say(
        { kind: "task" },
        tr(
          `the task has no argument \`${name}\` for the path parameter \`{${name}}\``,
          `タスクに、パスの引数 \`{${name}}\` に渡す引数 \`${name}\` がありません`,
        ),
        `#/paths/${token(t.path)}`,
      );
    }
    const query = t.method === "GET" || t.method === "DELETE";
    const body = query ? null : this.body(op, opAt);
    for (const p of t.params) {
      if (inPath.has(p.name)) this.pathArg(p, params.get(`path:${p.name}`));
      else if (query) this.queryArg(p, params, opAt);
      else if (body === null) this.noSuchArg(p, [], `${opAt}/requestBody`);
      else this.bodyArg(p, body);
    }
    for (const { p, at } of params.values()) {
      const name = p.name as string;
      if (p.required !== true || p.in === "path") continue;
      if (p.in === "query" && query && byName.has(name)) continue;
      this.missing(String(p.in), name, at, p.in === "query" && query);
    }
    if (body !== null) {
      for (const name of required(body.schema.s)) {
        if (!byName.has(name)) this.missing("body", name, `${body.schema.at}/required`, true);
      }
    }
    return body?.form ?? false;
  }

  /** An argument the path takes: never `T?` (a path always has its value), and fitting the parameter. */
  private pathArg(p: FieldDef, decl: Param | undefined): void {
    if (p.type.kind === "optional") {
      this.say(
        { kind: "param", param: p },
        tr(
          `the path parameter \`${p.name}\` is always sent, so the argument cannot be \`${showTy(p.type)}\``,
          `パスの引数 \`${p.name}\` はいつも送るので、引数を \`${showTy(p.type)}\` にはできません`,
        ),
        decl?.at ?? `#/paths/${token(this.task.path)}`,
      );
      return;
    }
    const schema = decl === undefined ? null : this.paramSchema(decl.p, decl.at);
    if (schema !== null) this.sendArg(p, schema, true, "path");
  }

  /** An argument of a GET or DELETE that the path does not take: a query parameter of the operation. */
  private queryArg(p: FieldDef, params: ReadonlyMap<string, Param>, opAt: string): void {
    const decl = params.get(`query:${p.name}`);
    if (decl === undefined) {
      const known = [...params.values()].filter((d) => d.p.in === "query").map((d) => d.p.name as string);
      this.noSuchArg(p, known, `${opAt}/parameters`);
      return;
    }
    const schema = this.paramSchema(decl.p, decl.at);
    if (schema !== null) this.sendArg(p, schema, decl.p.required === true, "query");
  }

  /** An argument of another method that the path does not take: a property of the request body. */
  private bodyArg(p: FieldDef, body: Body): void {
    const props = isObj(body.schema.s.properties) ? body.schema.s.properties : NONE;
    const prop = props[p.name];
    if (prop === undefined) {
      this.noSuchArg(p, Object.keys(props), `${body.schema.at}/properties`);
      return;
    }
    const got = this.schemas.deref(prop, `${body.schema.at}/properties/${token(p.name)}`);
    if ("message" in got) this.say({ kind: "param", param: p }, got.message, got.pointer);
    else this.sendArg(p, got, required(body.schema.s).includes(p.name), body.form ? "form" : "json");
  }

  /** A required parameter or property the task does not pass: in the body or the query, or where an `http` task sends nothing. */
  private missing(place: string, name: string, at: string, sendable: boolean): void {
    this.say(
      { kind: "task" },
      sendable
        ? tr(
          `the task does not pass \`${name}\`, which the operation requires (${
            place === "body" ? "in the body" : "a query parameter"
          })`,
          `タスクは、操作が必ず要る \`${name}\`(${
            place === "body" ? "本文" : "クエリの引数"
          })を渡していません`,
        )
        : tr(
          `the operation requires the ${place} parameter \`${name}\`, which an \`http\` task cannot send`,
          `操作は ${place} の引数 \`${name}\` を必ず要りますが、\`http\` のタスクはそれを送れません`,
        ),
      at,
    );
  }

  private noSuchArg(p: FieldDef, known: readonly string[], at: string): void {
    const hint = didYouMean(p.name, known);
    const en = `the operation takes no argument \`${p.name}\``;
    const ja = `操作は引数 \`${p.name}\` を受け取りません`;
    this.say(
      { kind: "param", param: p },
      hint === null ? tr(en, ja) : tr(`${en}; ${hint.en}`, `${ja}。${hint.ja}`),
      at,
    );
  }

  /** A parameter's schema (`schema`, or the one of its `content`), or null after saying why not. */
  private paramSchema(p: Obj, at: string): Located | null {
    const got = this.schemas.deref(p.schema ?? NONE, `${at}/schema`);
    if ("message" in got) {
      this.say({ kind: "operation" }, got.message, got.pointer);
      return null;
    }
    return got;
  }

  /** The request body's schema and whether it is a form, or null when the operation takes no body. */
  private body(op: Obj, opAt: string): Body | null {
    if (op.requestBody === undefined) return null;
    const rb = this.schemas.deref(op.requestBody, `${opAt}/requestBody`);
    if ("message" in rb) {
      this.say({ kind: "operation" }, rb.message, rb.pointer);
      return null;
    }
    const content = isObj(rb.s.content) ? rb.s.content : NONE;
    const media = Object.hasOwn(content, JSON_MEDIA)
      ? JSON_MEDIA
      : Object.hasOwn(content, FORM_MEDIA)
      ? FORM_MEDIA
      : null;
    if (media === null) {
      const kinds = Object.keys(content).join(", ");
      this.say(
        { kind: "operation" },
        tr(
          `the request body is ${kinds || "of no media type"}; dandori sends ${JSON_MEDIA} or ${FORM_MEDIA}`,
          `リクエストの本文が ${
            kinds || "メディアの型の無いもの"
          }です。dandori が送るのは ${JSON_MEDIA} か ${FORM_MEDIA} です`,
        ),
        `${rb.at}/content`,
      );
      return null;
    }
    const mt = content[media];
    const got = this.schemas.deref(
      isObj(mt) ? mt.schema ?? NONE : NONE,
      `${rb.at}/content/${token(media)}/schema`,
    );
    if ("message" in got) {
      this.say({ kind: "operation" }, got.message, got.pointer);
      return null;
    }
    return { schema: got, form: media === FORM_MEDIA };
  }

  /**
   * One argument against its parameter or property. In a path, a query or a form, every platform
   * sends a record, a list or `json` as its JSON text (`urlText`), not as OpenAPI encodes objects and
   * arrays there (`deepObject`, repeated keys), so such an argument is refused rather than sent wrong.
   */
  private sendArg(
    p: FieldDef,
    schema: Located,
    isRequired: boolean,
    into: "path" | "query" | "form" | "json",
  ): void {
    const bare = p.type.kind === "optional" ? p.type.inner : p.type;
    if (into !== "json" && (bare.kind === "record" || bare.kind === "list" || bare.kind === "json")) {
      this.say(
        { kind: "param", param: p },
        tr(
          `\`${p.name}\` goes into the ${into}, where dandori sends a \`${
            showTy(bare)
          }\` as its JSON text, not as OpenAPI encodes objects and arrays there`,
          `\`${p.name}\` は${
            into === "path" ? "パス" : into === "query" ? "クエリ" : "フォームの本文"
          }に入り、dandori はそこで \`${
            showTy(bare)
          }\` を JSON のテキストで送ります。OpenAPI がそこでオブジェクトや配列を書く形ではありません`,
        ),
        schema.at,
      );
      return;
    }
    if (isRequired && p.type.kind === "optional") {
      this.say(
        { kind: "param", param: p },
        tr(
          `the operation requires \`${p.name}\`, and \`${showTy(p.type)}\` may have no value`,
          `操作は \`${p.name}\` を必ず要りますが、\`${showTy(p.type)}\` は値が無いことがあります`,
        ),
        schema.at,
      );
      return;
    }
    const fault = this.sends(p.type, p.range, schema, 0);
    if (fault !== null) this.say({ kind: "param", param: p }, fault.message, fault.pointer);
  }

  /** The result: every value each 2xx JSON response may hold must read as the task's result. */
  private result(op: Obj, opAt: string): void {
    const result = this.task.result;
    if (result === null) return;
    const responses = isObj(op.responses) ? op.responses : NONE;
    const schemas: Located[] = [];
    for (const code of Object.keys(responses)) {
      if (!/^2(\d\d|XX)$/.test(code)) continue;
      const r = this.schemas.deref(responses[code], `${opAt}/responses/${code}`);
      if ("message" in r) return this.say({ kind: "result" }, r.message, r.pointer);
      const content = isObj(r.s.content) ? r.s.content : NONE;
      const mt = content[JSON_MEDIA];
      if (!isObj(mt)) continue;
      const s = this.schemas.deref(mt.schema ?? NONE, `${r.at}/content/${token(JSON_MEDIA)}/schema`);
      if ("message" in s) return this.say({ kind: "result" }, s.message, s.pointer);
      schemas.push(s);
    }
    if (schemas.length === 0) {
      this.say(
        { kind: "result" },
        tr(
          "the operation returns no JSON body, so the task has no result to read",
          "操作は JSON の本文を返さないので、タスクが読む結果はありません",
        ),
        `${opAt}/responses`,
      );
      return;
    }
    const rec = result.type.kind === "record" ? this.types.records.get(result.type.name) : undefined;
    if (rec === undefined) {
      for (const s of schemas) {
        const fault = this.reads(result.type, result.range, s, 0);
        if (fault !== null) return this.say({ kind: "result" }, fault.message, fault.pointer);
      }
      return;
    }
    for (const f of rec.fields) {
      for (const s of schemas) {
        const fault = this.readsField(f, s, 0);
        if (fault === null) continue;
        this.say({ kind: "field", field: f }, fault.message, fault.pointer);
        break;
      }
    }
  }

  /** Each declared status must be one the operation returns (`4XX` and `default` count). */
  private statuses(op: Obj, opAt: string): void {
    const codes = Object.keys(isObj(op.responses) ? op.responses : NONE);
    for (const { error, status, at } of this.task.statuses) {
      const cls = `${status[0]}XX`;
      if (codes.includes(status) || codes.includes(cls) || codes.includes("default")) continue;
      this.say(
        { kind: "item", at },
        tr(
          `the operation never returns ${status}, so \`${error}\` cannot happen (it returns ${
            codes.join(", ")
          })`,
          `操作は ${status} を返さないので、\`${error}\` は起きません(返すのは ${codes.join("、")})`,
        ),
        `${opAt}/responses`,
      );
    }
  }

  /**
   * `v` with its `$ref`s followed (only inside the document) and its `allOf` merged, or why it
   * cannot be.
   */
  /** Null when every value of `ty` within `range` fits the schema, else the first misfit. */
  private sends(ty: Ty, range: Range | null, l: Located, depth: number): Fault | null {
    if (depth > MAX_SCHEMA_DEPTH) return this.schemas.tooDeep(l.at);
    // A value that is not there goes out as null, so it fits only where the operation takes null.
    if (ty.kind === "optional") {
      if (mayBeNull(l.s)) return this.sends(ty.inner, range, l, depth);
      return misfit(ty, l.at, tr("does not take null", "null を受け取りません"));
    }
    const alts = this.schemas.alternatives(l);
    if (alts !== null) {
      if ("message" in alts) return alts;
      if (alts.some((a) => this.sends(ty, range, a, depth + 1) === null)) return null;
      return misfit(ty, l.at, tr("fits none of its alternatives", "どの選択肢にも合いません"));
    }
    const kinds = kindsOf(l.s);
    if (kinds === null) return null;
    const no = (why: Text) => misfit(ty, l.at, why);
    switch (ty.kind) {
      case "json":
        return kinds.has("object") && !isObj(l.s.properties)
          ? null
          : no(tr("may be any value", "どんな値でもありえます"));
      case "bool":
        return kinds.has("boolean") ? null : no(expected(kinds));
      case "string":
        if (!kinds.has("string")) return no(expected(kinds));
        if (Array.isArray(l.s.enum)) {
          return no(tr("takes only some strings (`enum`)", "決まった文字列(`enum`)だけを受け取ります"));
        }
        if (l.s.format === "date" || l.s.format === "date-time") {
          return no(tr(`takes a ${l.s.format} only`, `${l.s.format} だけを受け取ります`));
        }
        return null;
      case "date":
        return kinds.has("string") && l.s.format === "date"
          ? null
          : no(tr("is not `format: date`", "`format: date` ではありません"));
      case "timestamp":
        if (kinds.has("string") && l.s.format === "date-time") return null;
        return no(
          kinds.has("integer")
            ? tr(
              "is an integer (seconds, say), not a `timestamp`",
              "整数(秒など)で、`timestamp` ではありません",
            )
            : tr("is not `format: date-time`", "`format: date-time` ではありません"),
        );
      case "int":
      case "num":
        if (!kinds.has("integer") && !kinds.has("number")) return no(expected(kinds));
        return this.rangeSends(ty, range, l);
      case "enum": {
        if (!kinds.has("string")) return no(expected(kinds));
        if (!Array.isArray(l.s.enum)) return null;
        const takes = l.s.enum;
        const values = this.types.enums.get(ty.name)?.values ?? [];
        const extra = values.find((v) => !takes.includes(v));
        return extra === undefined
          ? null
          : no(tr(`does not take the value \`${extra}\``, `値 \`${extra}\` を受け取りません`));
      }
      case "list": {
        if (!kinds.has("array")) return no(expected(kinds));
        const items = this.schemas.deref(l.s.items ?? NONE, `${l.at}/items`);
        return "message" in items ? items : this.sends(ty.element, null, items, depth + 1);
      }
      case "record":
        return this.sendsRecord(ty.name, l, kinds, depth);
    }
  }

  private sendsRecord(name: string, l: Located, kinds: ReadonlySet<string>, depth: number): Fault | null {
    if (!kinds.has("object")) return misfit({ kind: "record", name }, l.at, expected(kinds));
    const rec = this.types.records.get(name);
    if (rec === undefined) return null;
    const props = isObj(l.s.properties) ? l.s.properties : NONE;
    const req = required(l.s);
    for (const f of rec.fields) {
      // A field the object does not name goes to `additionalProperties`: a schema, any value (`true`, or
      // an object that names no property), or nothing (`false`, or unsaid beside named properties, where
      // an unknown field is most likely misspelt).
      const extra = l.s.additionalProperties;
      const named = props[f.name];
      const open = isObj(extra) || extra === true || (extra === undefined && !isObj(l.s.properties));
      if (named === undefined && !open) {
        return {
          message: tr(
            `\`${name}\` has the field \`${f.name}\`, which is not taken here`,
            `\`${name}\` のフィールド \`${f.name}\` は、ここでは受け取られません`,
          ),
          pointer: `${l.at}/properties`,
        };
      }
      const at = named !== undefined
        ? this.schemas.deref(named, `${l.at}/properties/${token(f.name)}`)
        : this.schemas.deref(extra ?? true, `${l.at}/additionalProperties`);
      if ("message" in at) return at;
      if (req.includes(f.name) && f.type.kind === "optional") return requiredButOptional(name, f, at.at);
      const fault = this.sends(f.type, f.range, at, depth + 1);
      if (fault !== null) return fault;
    }
    const given = new Set(rec.fields.map((f) => f.name));
    const lacking = req.find((n) => !given.has(n));
    return lacking === undefined ? null : {
      message: tr(
        `\`${name}\` has no field \`${lacking}\`, which is required here`,
        `\`${name}\` に、ここで要るフィールド \`${lacking}\` がありません`,
      ),
      pointer: `${l.at}/required`,
    };
  }

  private rangeSends(ty: Ty, range: Range | null, l: Located): Fault | null {
    const [lo, hi] = bounds(l.s);
    const out = sendsOutOfRange(range, lo, hi);
    return out === null ? null : misfit(ty, l.at, out);
  }

  /** A field of the result's record against the response object `l`: present, `T?` where it may be absent or null, readable. */
  private readsField(f: FieldDef, l: Located, depth: number): Fault | null {
    const alts = this.schemas.alternatives(l);
    if (alts !== null) {
      if ("message" in alts) return alts;
      for (const a of alts) {
        const fault = this.readsField(f, a, depth + 1);
        if (fault !== null) return fault;
      }
      return null;
    }
    const props = isObj(l.s.properties) ? l.s.properties : NONE;
    const prop = props[f.name];
    if (prop === undefined) {
      const hint = didYouMean(f.name, Object.keys(props));
      const en = `the response has no field \`${f.name}\``;
      const ja = `レスポンスにフィールド \`${f.name}\` はありません`;
      return {
        message: hint === null ? tr(en, ja) : tr(`${en}; ${hint.en}`, `${ja}。${hint.ja}`),
        pointer: `${l.at}/properties`,
      };
    }
    const at = this.schemas.deref(prop, `${l.at}/properties/${token(f.name)}`);
    if ("message" in at) return at;
    if (f.type.kind !== "optional" && f.type.kind !== "json") {
      const absent = !required(l.s).includes(f.name);
      if (absent || mayBeNull(at.s)) {
        return {
          message: tr(
            `the response may ${absent ? "omit" : "give null for"} \`${f.name}\`; write \`${f.name}: ${
              showTy(f.type)
            }?\``,
            `レスポンスは \`${f.name}\` を${absent ? "省く" : " null にする"}ことがあります。\`${f.name}: ${
              showTy(f.type)
            }?\` と書いてください`,
          ),
          pointer: at.at,
        };
      }
    }
    return this.reads(f.type, f.range, at, depth + 1);
  }

  /** Null when every value the schema allows reads as `ty` within `range`, else the first that does not. */
  private reads(ty: Ty, range: Range | null, l: Located, depth: number): Fault | null {
    if (depth > MAX_SCHEMA_DEPTH) return this.schemas.tooDeep(l.at);
    if (ty.kind === "json") return null;
    if (ty.kind === "optional") return this.reads(ty.inner, range, l, depth);
    const alts = this.schemas.alternatives(l);
    if (alts !== null) {
      if ("message" in alts) return alts;
      for (const a of alts) {
        const fault = this.reads(ty, range, a, depth + 1);
        if (fault !== null) return fault;
      }
      return null;
    }
    const kinds = l.s["x-expansionResources"] !== undefined ? new Set(["string"]) : kindsOf(l.s);
    const unread = (why: Text): Fault => ({
      message: tr(
        `the response's value cannot be read as \`${showTy(ty)}\`: it ${why.en}`,
        `レスポンスの値を \`${showTy(ty)}\` として読めません。${why.ja}`,
      ),
      pointer: l.at,
    });
    if (kinds === null) return unread(tr("may be any value", "どんな値でもありえます"));
    const only = (k: string) => kinds.size === 1 && kinds.has(k);
    switch (ty.kind) {
      case "bool":
        return only("boolean") ? null : unread(expected(kinds));
      case "string":
        return only("string") ? null : unread(expected(kinds));
      case "date":
        return only("string") && l.s.format === "date"
          ? null
          : unread(tr("is not `format: date`", "`format: date` ではありません"));
      case "timestamp":
        if (only("string") && l.s.format === "date-time") return null;
        return unread(
          kinds.has("integer")
            ? tr(
              "is an integer (seconds, say), not a `timestamp`; read it as `int`",
              "整数(秒など)で、`timestamp` ではありません。`int` で読んでください",
            )
            : tr("is not `format: date-time`", "`format: date-time` ではありません"),
        );
      case "int":
      case "num": {
        if (!only("integer")) return unread(expected(kinds));
        const [lo, hi] = bounds(l.s);
        const out = readsOutOfRange(range, lo, hi);
        return out === null ? null : unread(out);
      }
      case "enum": {
        if (!only("string")) return unread(expected(kinds));
        if (!Array.isArray(l.s.enum)) return unread(tr("may be any string", "どんな文字列でもありえます"));
        const values = this.types.enums.get(ty.name)?.values ?? [];
        const lacking = l.s.enum.find((v): v is string => typeof v === "string" && !values.includes(v));
        return lacking === undefined ? null : lacksReturned(lacking, ty.name, l.at);
      }
      case "list": {
        if (!only("array")) return unread(expected(kinds));
        const items = this.schemas.deref(l.s.items ?? NONE, `${l.at}/items`);
        return "message" in items ? items : this.reads(ty.element, null, items, depth + 1);
      }
      case "record": {
        if (!only("object")) return unread(expected(kinds));
        const rec = this.types.records.get(ty.name);
        for (const f of rec?.fields ?? []) {
          const fault = this.readsField(f, l, depth + 1);
          if (fault !== null) return fault;
        }
        return null;
      }
    }
  }
}

function expected(kinds: ReadonlySet<string>): Text {
  const list = [...kinds].join(" | ");
  return tr(`is ${list}`, `${list} です`);
}

function misfit(ty: Ty, at: string, why: Text): Fault {
  return {
    message: tr(
      `\`${showTy(ty)}\` does not fit what the operation takes here: it ${why.en}`,
      `\`${showTy(ty)}\` は、操作がここで受け取るものに合いません。${why.ja}`,
    ),
    pointer: at,
  };
}
