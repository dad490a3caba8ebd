/**
 * Smithy models (docs/dandori.md#api-descriptions): a `use smithy` file read from its JSON AST (as
 * AWS publishes its models), and an `aws <service>:<operation>` task whose service is the name of
 * that `use` matched to the operation it names (E016).
 *
 * The operation: the task writes it in camelCase, as Step Functions' AWS SDK integrations do, and
 * it names the operation of the model's service whose shape name is the same with its first letter
 * in upper case (`publish` is `Publish`), exactly. Only the operations the flow's tasks name are
 * walked, and of them only the shapes their arguments and results reach. Values are compared in the
 * direction they flow: an argument must fit the input member it goes to, the result must read every
 * value the output member may hold. Response members need not be `T?`: AWS models seldom say a
 * member is always there, and the check of a result at run time refuses one that is not. What a
 * mismatch names is a shape id (`ns#Shape`) or a member id (`ns#Shape$member`).
 *
 * What the SDKs do is not asked of the flow: a `timestamp` reads as `timestamp` whatever its
 * `@timestampFormat` (the SDK decodes the wire's format), and an `@idempotencyToken` member that is
 * `@required` need not be passed (the SDK fills it). The width of `integer` and `long` is not
 * compared with a value's range; `@range` is.
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
import { MAX_SCHEMA_DEPTH } from "./openapi_schemas.ts";
import { type FieldDef, type Range, showTy, type Ty, type TypeTable } from "./types.ts";

/** A model read: its shapes, and its one service. */
export interface Smithy {
  readonly shapes: Obj;
  /** The absolute shape id of the model's service. */
  readonly service: string;
}

/**
 * Reads a Smithy model from its bytes: a JSON object with a `smithy` version 1.x or 2.x, `shapes`,
 * and exactly one `service` shape among them.
 */
export function readSmithy(bytes: Uint8Array): Smithy | Unread {
  const read = readJsonObject(bytes);
  if ("why" in read) return read;
  const version = read.root.smithy;
  if (typeof version !== "string" || !/^[12]\.\d+$/.test(version)) {
    const said = typeof version === "string" ? `"${version}"` : null;
    return {
      why: tr(
        `it says ${
          said ?? "no `smithy` version"
        }; dandori reads Smithy's JSON AST (\`"smithy": "2.0"\` or \`"1.0"\`)`,
        `${
          said ?? "`smithy` の版が無い"
        }モデルです。dandori が読むのは Smithy の JSON AST(\`"smithy": "2.0"\` か \`"1.0"\`)です`,
      ),
    };
  }
  const shapes = read.root.shapes;
  if (!isObj(shapes)) return { why: tr("it has no `shapes` object", "`shapes` のオブジェクトがありません") };
  const services = Object.keys(shapes).filter((id) => kindOf(shapes[id]) === "service");
  if (services.length !== 1) {
    return {
      why: tr(
        `it has ${services.length} \`service\` shapes, and dandori reads a model of one service`,
        `\`service\` の shape が ${services.length} 個あります。dandori が読むのは、サービスが一つのモデルです`,
      ),
    };
  }
  return { shapes, service: services[0] };
}

/**
 * The input members a record or `json` may be sent to as its JSON text, by `<service>:<operation>`
 * (docs/dandori.md#api-descriptions: SQS `sendMessage`'s `MessageBody`; Step Functions and the code
 * dandori writes send it as JSON text).
 */
export const JSON_TEXT_MEMBERS: ReadonlyMap<string, string> = new Map([["sqs:sendMessage", "MessageBody"]]);

/** The task as the match reads it. */
export interface AwsTaskShape {
  /** The operation as the task writes it, in camelCase. */
  readonly operation: string;
  readonly params: readonly FieldDef[];
  /** The result, or null without one or on a callback task (the callback brings the answer). */
  readonly result: { readonly type: Ty; readonly range: Range | null } | null;
  /** The declared errors with the exception each names. */
  readonly errors: readonly { readonly error: string; readonly exception: string; readonly at: Place }[];
  /** `key <argument>`, or null. */
  readonly key: { readonly param: string; readonly at: Place } | null;
  /** The input member a record or `json` may be sent to as its JSON text (SQS `sendMessage`'s `MessageBody`), or null. */
  readonly jsonText: string | null;
}

/** Matches an `aws` task to the operation of the model it names; its mismatches, none when it fits. */
export function matchAwsOperation(model: Smithy, task: AwsTaskShape, types: TypeTable): readonly Placed[] {
  return new Match(model, task, types).run();
}

/** The prelude's simple shapes (`smithy.api#String`, …), which a model uses without writing them. */
const PRELUDE: ReadonlyMap<string, string> = new Map([
  ["String", "string"],
  ["Blob", "blob"],
  ["Boolean", "boolean"],
  ["PrimitiveBoolean", "boolean"],
  ["Byte", "byte"],
  ["PrimitiveByte", "byte"],
  ["Short", "short"],
  ["PrimitiveShort", "short"],
  ["Integer", "integer"],
  ["PrimitiveInteger", "integer"],
  ["Long", "long"],
  ["PrimitiveLong", "long"],
  ["Float", "float"],
  ["PrimitiveFloat", "float"],
  ["Double", "double"],
  ["PrimitiveDouble", "double"],
  ["BigInteger", "bigInteger"],
  ["BigDecimal", "bigDecimal"],
  ["Timestamp", "timestamp"],
  ["Document", "document"],
  ["Unit", "structure"],
]);

const INTEGERS = new Set(["byte", "short", "integer", "long", "bigInteger"]);
const DECIMALS = new Set(["float", "double", "bigDecimal"]);

/** The `type` of a shape, or null when it is not a shape. */
function kindOf(shape: Json | undefined): string | null {
  return isObj(shape) && typeof shape.type === "string" ? shape.type : null;
}

/** The name of a shape id, after its namespace (`ns#Name` is `Name`). */
function nameOf(id: string): string {
  return id.slice(id.indexOf("#") + 1);
}

/** The ids a list of references names (`[{ "target": id }, …]`). */
function targets(list: Json | undefined): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((r) => isObj(r) && typeof r.target === "string" ? [r.target] : []);
}

/**
 * A shape reached through a member: its kind, its shape and id, the traits of the member over the
 * target's, and where it was reached (the member's id, or the shape's).
 */
interface Located {
  readonly kind: string;
  readonly shape: Obj;
  readonly id: string;
  readonly traits: Obj;
  readonly at: string;
}

/** The operations a resource binds (its lifecycle operations, `operations`, `collectionOperations`). */
const RESOURCE_OPERATIONS = ["create", "put", "read", "update", "delete", "list"];

class Match {
  private readonly faults: Placed[] = [];

  constructor(
    private readonly model: Smithy,
    private readonly task: AwsTaskShape,
    private readonly types: TypeTable,
  ) {}

  private say(where: Placed["where"], fault: Fault): void {
    this.faults.push({ where, ...fault });
  }

  run(): readonly Placed[] {
    const ops = this.operations();
    const wanted = this.task.operation.charAt(0).toUpperCase() + this.task.operation.slice(1);
    const opId = ops.find((id) => nameOf(id) === wanted);
    const op = opId === undefined ? undefined : this.model.shapes[opId];
    if (opId === undefined || !isObj(op) || op.type !== "operation") {
      const known = ops.map((id) => nameOf(id).charAt(0).toLowerCase() + nameOf(id).slice(1));
      const hint = didYouMean(this.task.operation, known);
      const en = `the model's service \`${nameOf(this.model.service)}\` has no operation \`${wanted}\``;
      const ja = `モデルのサービス \`${nameOf(this.model.service)}\` に操作 \`${wanted}\` はありません`;
      this.say({ kind: "operation" }, {
        message: hint === null ? tr(en, ja) : tr(`${en}; ${hint.en}`, `${ja}。${hint.ja}`),
        pointer: this.model.service,
      });
      return this.faults;
    }
    const input = this.structure(op.input, opId);
    if (input !== null && "message" in input) {
      this.say({ kind: "operation" }, input);
      return this.faults;
    }
    this.args(input, opId);
    this.result(op, opId);
    this.errors(op, opId);
    this.key(input, opId);
    return this.faults;
  }

  /**
   * The operation ids of the service: its own, and those of its resources, each resource once (a
   * worklist, not a recursion, so resources that name each other or chain long end).
   */
  private operations(): string[] {
    const service = this.model.shapes[this.model.service] as Obj;
    const out = targets(service.operations);
    const seen = new Set<string>();
    const todo = targets(service.resources);
    for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
      if (seen.has(id)) continue;
      seen.add(id);
      const r = this.model.shapes[id];
      if (!isObj(r)) continue;
      // One at a time: a model may list more ids than a call's arguments may be.
      const lists = [targets(RESOURCE_OPERATIONS.map((key) => r[key] ?? null)), targets(r.operations)];
      for (const op of [...lists, targets(r.collectionOperations)].flat()) out.push(op);
      for (const child of targets(r.resources)) todo.push(child);
    }
    return out;
  }

  /** The shape a reference (`{ "target": id }`) names, or a fault when the model does not have it. */
  private resolve(ref: Json | undefined, from: string, traits: Obj): Located | Fault {
    const id = isObj(ref) && typeof ref.target === "string" ? ref.target : null;
    if (id === null) {
      return {
        message: tr(`\`${from}\` names no \`target\``, `\`${from}\` に \`target\` がありません`),
        pointer: from,
      };
    }
    const prelude = id.startsWith("smithy.api#") ? PRELUDE.get(nameOf(id)) : undefined;
    if (prelude !== undefined) return { kind: prelude, shape: NONE, id, traits, at: from };
    const shape = this.model.shapes[id];
    const kind = kindOf(shape);
    if (kind === null) {
      return {
        message: tr(
          `\`${from}\` targets \`${id}\`, which the model does not have`,
          `\`${from}\` が指す \`${id}\` は、モデルにありません`,
        ),
        pointer: from,
      };
    }
    const own = isObj((shape as Obj).traits) ? (shape as Obj).traits as Obj : NONE;
    // Spread into an object without a prototype: a trait named `__proto__` is a trait like any other.
    return { kind, shape: shape as Obj, id, traits: { __proto__: null, ...own, ...traits }, at: from };
  }

  /** A member of a structure: the shape it targets, with the member's traits over the target's. */
  private member(l: Located, name: string): Located | Fault | undefined {
    const members = isObj(l.shape.members) ? l.shape.members : NONE;
    const m = members[name];
    if (m === undefined) return undefined;
    const at = `${l.id}$${name}`;
    return this.resolve(m, at, isObj(m) && isObj(m.traits) ? m.traits : NONE);
  }

  /**
   * The input or output structure of an operation, null when it has none (`smithy.api#Unit`), or
   * the fault of a target the model does not have.
   */
  private structure(ref: Json | undefined, opId: string): Located | Fault | null {
    if (ref === undefined) return null;
    const id = isObj(ref) && typeof ref.target === "string" ? ref.target : opId;
    const got = this.resolve(ref, id, NONE);
    if ("message" in got) return got;
    return got.kind === "structure" && got.shape !== NONE ? got : null;
  }

  /** Arguments: each a member of the input; then the `@required` members the task does not pass. */
  private args(input: Located | null, opId: string): void {
    const given = new Set(this.task.params.map((p) => p.name));
    const members = isObj(input?.shape.members) ? input.shape.members as Obj : NONE;
    for (const p of this.task.params) {
      const m = input === null ? undefined : this.member(input, p.name);
      if (m === undefined) {
        const hint = didYouMean(p.name, Object.keys(members));
        const en = `the operation takes no argument \`${p.name}\``;
        const ja = `操作は引数 \`${p.name}\` を受け取りません`;
        this.say({ kind: "param", param: p }, {
          message: hint === null ? tr(en, ja) : tr(`${en}; ${hint.en}`, `${ja}。${hint.ja}`),
          pointer: input?.at ?? opId,
        });
        continue;
      }
      if ("message" in m) {
        this.say({ kind: "param", param: p }, m);
        continue;
      }
      if (isRequired(m) && p.type.kind === "optional" && !isToken(m)) {
        this.say({ kind: "param", param: p }, {
          message: tr(
            `the operation requires \`${p.name}\` (\`@required\`), and \`${
              showTy(p.type)
            }\` may have no value`,
            `操作は \`${p.name}\` を必ず要りますが(\`@required\`)、\`${
              showTy(p.type)
            }\` は値が無いことがあります`,
          ),
          pointer: m.at,
        });
        continue;
      }
      const bare = p.type.kind === "optional" ? p.type.inner : p.type;
      const asText = p.name === this.task.jsonText && m.kind === "string" &&
        (bare.kind === "record" || bare.kind === "json");
      const fault = asText ? null : this.sends(p.type, p.range, m, 0);
      if (fault !== null) this.say({ kind: "param", param: p }, fault);
    }
    for (const name of Object.keys(members)) {
      if (given.has(name) || input === null) continue;
      const m = this.member(input, name);
      if (
        m === undefined || "message" in m || !isRequired(m) || isToken(m)
      ) {
        continue;
      }
      this.say({ kind: "task" }, {
        message: tr(
          `the task does not pass \`${name}\`, which the operation requires (\`@required\`)`,
          `タスクは、操作が必ず要る \`${name}\`(\`@required\`)を渡していません`,
        ),
        pointer: m.at,
      });
    }
  }

  /** The result against the output: each field of a record against its member, once per field. */
  private result(op: Obj, opId: string): void {
    const result = this.task.result;
    if (result === null) return;
    const output = this.structure(op.output, opId);
    if (output !== null && "message" in output) return this.say({ kind: "result" }, output);
    if (output === null) {
      this.say({ kind: "result" }, {
        message: tr(
          "the operation returns nothing (no `output`), so the task has no result to read",
          "操作は何も返さない(`output` が無い)ので、タスクが読む結果はありません",
        ),
        pointer: opId,
      });
      return;
    }
    const rec = result.type.kind === "record" ? this.types.records.get(result.type.name) : undefined;
    if (rec === undefined) {
      const fault = this.reads(result.type, result.range, output, 0);
      if (fault !== null) this.say({ kind: "result" }, fault);
      return;
    }
    for (const f of rec.fields) {
      const fault = this.readsField(f, output, 0);
      if (fault !== null) this.say({ kind: "field", field: f }, fault);
    }
  }

  /** Each declared exception must be one of the operation's or the service's `errors`. */
  private errors(op: Obj, opId: string): void {
    const service = this.model.shapes[this.model.service] as Obj;
    const known = [...targets(op.errors), ...targets(service.errors)].map(nameOf);
    for (const { error, exception, at } of this.task.errors) {
      if (known.includes(exception)) continue;
      const hint = didYouMean(exception, known);
      const list = known.length === 0 ? tr("none", "ありません") : tr(known.join(", "), known.join("、"));
      const en =
        `the operation never throws \`${exception}\`, so \`${error}\` cannot happen (its errors and the service's: ${list.en})`;
      const ja =
        `操作は \`${exception}\` を投げないので、\`${error}\` は起きません(操作とサービスのエラー: ${list.ja})`;
      this.say({ kind: "item", at }, {
        message: hint === null ? tr(en, ja) : tr(`${en}; ${hint.en}`, `${ja}。${hint.ja}`),
        pointer: opId,
      });
    }
  }

  /** `key <argument>` names the input's `@idempotencyToken` member. */
  private key(input: Located | null, opId: string): void {
    const key = this.task.key;
    if (key === null) return;
    const members = isObj(input?.shape.members) ? input.shape.members as Obj : NONE;
    const token = input === null ? undefined : Object.keys(members).find((name) => {
      const m = this.member(input, name);
      return m !== undefined && !("message" in m) && isToken(m);
    });
    if (token === key.param) return;
    this.say({ kind: "item", at: key.at }, {
      message: token === undefined
        ? tr(
          `\`key ${key.param}\`: the operation has no idempotency token (\`@idempotencyToken\`) to send a key in`,
          `\`key ${key.param}\`: 操作には、キーを送る冪等トークン(\`@idempotencyToken\`)がありません`,
        )
        : tr(
          `\`key ${key.param}\`: the operation's idempotency token (\`@idempotencyToken\`) is \`${token}\`, not \`${key.param}\``,
          `\`key ${key.param}\`: 操作の冪等トークン(\`@idempotencyToken\`)は \`${token}\` で、\`${key.param}\` ではありません`,
        ),
      pointer: input === null ? opId : `${input.id}$${token ?? key.param}`,
    });
  }

  private tooDeep(at: string): Fault {
    return {
      message: tr(
        `the shapes nest more than ${MAX_SCHEMA_DEPTH} deep, and the match stops there`,
        `shape の入れ子が ${MAX_SCHEMA_DEPTH} 段を超えるので、突き合わせをそこで止めます`,
      ),
      pointer: at,
    };
  }

  /** The element of a list (or 1.0 `set`). */
  private element(l: Located): Located | Fault {
    const m = l.shape.member;
    return this.resolve(m, `${l.id}$member`, isObj(m) && isObj(m.traits) ? m.traits : NONE);
  }

  /** Null when every value of `ty` within `range` fits the shape, else the first misfit. */
  private sends(ty: Ty, range: Range | null, l: Located, depth: number): Fault | null {
    if (depth > MAX_SCHEMA_DEPTH) return this.tooDeep(l.at);
    if (ty.kind === "optional") return this.sends(ty.inner, range, l, depth);
    const no = (why: Text): Fault => ({
      message: tr(
        `\`${showTy(ty)}\` does not fit what the operation takes here: it ${why.en}`,
        `\`${showTy(ty)}\` は、操作がここで受け取るものに合いません。${why.ja}`,
      ),
      pointer: l.at,
    });
    const is = tr(`is a Smithy \`${l.kind}\``, `Smithy の \`${l.kind}\` です`);
    const values = enumValues(l);
    switch (ty.kind) {
      case "json":
        return l.kind === "document" ? null : no(is);
      case "bool":
        return l.kind === "boolean" ? null : no(is);
      case "string":
      case "date":
        if (l.kind !== "string" && !(ty.kind === "string" && l.kind === "blob")) return no(is);
        return values === null
          ? null
          : no(tr("takes only some strings (an enum)", "決まった文字列(列挙)だけを受け取ります"));
      case "timestamp":
        return l.kind === "timestamp" ? null : no(is);
      case "int":
      case "num":
        if (!DECIMALS.has(l.kind) && !(ty.kind === "int" && INTEGERS.has(l.kind))) return no(is);
        return this.rangeSends(range, l, no);
      case "enum": {
        if (values === null) return l.kind === "string" ? null : no(is);
        const extra = (this.types.enums.get(ty.name)?.values ?? []).find((v) => !values.includes(v));
        return extra === undefined
          ? null
          : no(tr(`does not take the value \`${extra}\``, `値 \`${extra}\` を受け取りません`));
      }
      case "list": {
        if (l.kind !== "list" && l.kind !== "set") return no(is);
        const e = this.element(l);
        return "message" in e ? e : this.sends(ty.element, null, e, depth + 1);
      }
      case "record":
        return l.kind === "structure" ? this.sendsRecord(ty.name, l, depth) : no(is);
    }
  }

  private sendsRecord(name: string, l: Located, depth: number): Fault | null {
    const rec = this.types.records.get(name);
    if (rec === undefined) return null;
    const members = isObj(l.shape.members) ? l.shape.members : NONE;
    for (const f of rec.fields) {
      const m = this.member(l, f.name);
      if (m === undefined) {
        return {
          message: tr(
            `\`${name}\` has the field \`${f.name}\`, which is not taken here`,
            `\`${name}\` のフィールド \`${f.name}\` は、ここでは受け取られません`,
          ),
          pointer: l.at,
        };
      }
      if ("message" in m) return m;
      if (isRequired(m) && f.type.kind === "optional") return requiredButOptional(name, f, m.at);
      const fault = this.sends(f.type, f.range, m, depth + 1);
      if (fault !== null) return fault;
    }
    const given = new Set(rec.fields.map((f) => f.name));
    for (const n of Object.keys(members)) {
      const m = this.member(l, n);
      if (given.has(n) || m === undefined || "message" in m || !isRequired(m)) continue;
      return {
        message: tr(
          `\`${name}\` has no field \`${n}\`, which is required here`,
          `\`${name}\` に、ここで要るフィールド \`${n}\` がありません`,
        ),
        pointer: m.at,
      };
    }
    return null;
  }

  private rangeSends(range: Range | null, l: Located, no: (why: Text) => Fault): Fault | null {
    const [lo, hi] = rangeOf(l);
    const out = sendsOutOfRange(range, lo, hi);
    return out === null ? null : no(tr(`${out.en} (\`@range\`)`, `${out.ja}(\`@range\`)`));
  }

  /** A field of the result's record against the output member of its name. */
  private readsField(f: FieldDef, l: Located, depth: number): Fault | null {
    const m = this.member(l, f.name);
    if (m === undefined) {
      const members = isObj(l.shape.members) ? l.shape.members : NONE;
      const hint = didYouMean(f.name, Object.keys(members));
      const en = `the response has no member \`${f.name}\``;
      const ja = `レスポンスにメンバー \`${f.name}\` はありません`;
      return {
        message: hint === null ? tr(en, ja) : tr(`${en}; ${hint.en}`, `${ja}。${hint.ja}`),
        pointer: l.at,
      };
    }
    return "message" in m ? m : this.reads(f.type, f.range, m, depth + 1);
  }

  /** Null when every value the shape allows reads as `ty` within `range`, else the first that does not. */
  private reads(ty: Ty, range: Range | null, l: Located, depth: number): Fault | null {
    if (depth > MAX_SCHEMA_DEPTH) return this.tooDeep(l.at);
    if (ty.kind === "json") return null;
    if (ty.kind === "optional") return this.reads(ty.inner, range, l, depth);
    const unread = (why: Text): Fault => ({
      message: tr(
        `the response's value cannot be read as \`${showTy(ty)}\`: it ${why.en}`,
        `レスポンスの値を \`${showTy(ty)}\` として読めません。${why.ja}`,
      ),
      pointer: l.at,
    });
    const is = tr(`is a Smithy \`${l.kind}\``, `Smithy の \`${l.kind}\` です`);
    switch (ty.kind) {
      case "bool":
        return l.kind === "boolean" ? null : unread(is);
      case "string":
        return l.kind === "string" || l.kind === "enum" || l.kind === "blob" ? null : unread(is);
      case "date":
        return unread(tr(`${is.en}, not a date`, `${is.ja}。日付ではありません`));
      case "timestamp":
        if (l.kind === "timestamp") return null;
        return unread(
          INTEGERS.has(l.kind)
            ? tr(
              `${is.en}, an integer (seconds, say), not a \`timestamp\`; read it as \`int\``,
              `${is.ja}。整数(秒など)で、\`timestamp\` ではありません。\`int\` で読んでください`,
            )
            : is,
        );
      case "int":
      case "num": {
        if (!INTEGERS.has(l.kind) && l.kind !== "intEnum" && !(ty.kind === "num" && DECIMALS.has(l.kind))) {
          return unread(is);
        }
        const [lo, hi] = rangeOf(l);
        const out = readsOutOfRange(range, lo, hi);
        return out === null ? null : unread(out);
      }
      case "enum": {
        const values = enumValues(l);
        if (values === null) {
          return unread(l.kind === "string" ? tr("may be any string", "どんな文字列でもありえます") : is);
        }
        const mine = this.types.enums.get(ty.name)?.values ?? [];
        const lacking = values.find((v) => !mine.includes(v));
        return lacking === undefined ? null : lacksReturned(lacking, ty.name, l.at);
      }
      case "list": {
        if (l.kind !== "list" && l.kind !== "set") return unread(is);
        const e = this.element(l);
        return "message" in e ? e : this.reads(ty.element, null, e, depth + 1);
      }
      case "record": {
        if (l.kind !== "structure") return unread(is);
        for (const f of this.types.records.get(ty.name)?.fields ?? []) {
          const fault = this.readsField(f, l, depth + 1);
          if (fault !== null) return fault;
        }
        return null;
      }
    }
  }
}

function isRequired(m: Located): boolean {
  return isObj(m.traits["smithy.api#required"]);
}

/** An `@idempotencyToken` member: the SDK fills it when the call leaves it out. */
function isToken(m: Located): boolean {
  return isObj(m.traits["smithy.api#idempotencyToken"]);
}

/**
 * The values a string shape takes: a 2.0 `enum` shape's members (each its `@enumValue`, else its
 * name) or a 1.0 `@enum` trait's `value`s; null for a string that takes any.
 */
function enumValues(l: Located): string[] | null {
  if (l.kind === "enum") {
    const members = isObj(l.shape.members) ? l.shape.members : NONE;
    return Object.keys(members).map((name) => {
      const m = members[name];
      const v = isObj(m) && isObj(m.traits) ? m.traits["smithy.api#enumValue"] : undefined;
      return typeof v === "string" ? v : name;
    });
  }
  const trait = l.traits["smithy.api#enum"];
  if (l.kind !== "string" || !Array.isArray(trait)) return null;
  return trait.flatMap((d) => isObj(d) && typeof d.value === "string" ? [d.value] : []);
}

/** A number shape's `@range`, lower and upper (fractional ends moved in to the integers inside). */
function rangeOf(l: Located): [bigint | null, bigint | null] {
  const r = l.traits["smithy.api#range"];
  const trait = isObj(r) ? r : NONE;
  const num = (v: Json | undefined, up: boolean): bigint | null =>
    typeof v === "bigint" ? v : typeof v === "number" ? BigInt(up ? Math.ceil(v) : Math.floor(v)) : null;
  return [num(trait.min, true), num(trait.max, false)];
}
