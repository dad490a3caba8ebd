/**
 * Types made from a `use openapi` description (docs/dandori.md#types-from-openapi-descriptions): a
 * schema of `components.schemas` written as `<api>.<Schema>` where a type goes becomes a record, an
 * enum or a simple type, by the reading the match of `http` tasks does (openapi.ts), so a task
 * written with made types matches its operation with no E016:
 *
 * | schema | dandori |
 * |---|---|
 * | `string` | `string`; `format: date-time` `timestamp`, `format: date` `date` |
 * | `string` with `enum` | an enum of those values, when a flow can write each; else `string` |
 * | `integer` | `int`, its `minimum` and `maximum` the range |
 * | `number` | `json` (dandori has no decimal type) |
 * | `boolean` | `bool` |
 * | `array` | `list[T]` (`json` when its items are arrays: a list of lists is not a type) |
 * | `object` with `properties` | a record of the properties by their names; one not `required`, or `nullable`, `T?` |
 * | `object` without `properties`, a schema of any value, several types, `anyOf`/`oneOf` of several | `json` (never `json?`) |
 * | an `anyOf`/`oneOf` of one schema and null | that schema's type, `T?` as a field |
 * | Stripe's expandable field (`x-expansionResources`) | `string`: its id, as the match reads it |
 *
 * Names: a schema of `components.schemas` is `<api>.<its name>`, wherever it is reached through a
 * `$ref`; a schema written inside another (a property's object or enum) is named by the property
 * (`payments.payment_intent.status`). Only what the flow names is made, with what it reaches.
 * @module
 */

import type { Json } from "../common/json.ts";
import { didYouMean } from "../common/nearest.ts";
import { tr } from "../common/text.ts";
import { isObj, NONE, type Obj } from "./descriptions.ts";
import { isName } from "./lexer.ts";
import { Making, namesNote, type TypeFault, typeFault, type TypeMaps } from "./made_types.ts";
import type { OpenApi } from "./openapi.ts";
import {
  bounds,
  kindsOf,
  MAX_SCHEMA_DEPTH,
  mayBeNull,
  required,
  Schemas,
  token,
  untoken,
} from "./openapi_schemas.ts";
import type { FieldDef, Range, Ty } from "./types.ts";

const JSON_TY: Ty = { kind: "json" };
const STRING_TY: Ty = { kind: "string" };

const COMPONENTS = "#/components/schemas/";

/** The schemas of `components.schemas`, or none. */
function componentSchemas(root: Obj): Obj {
  const c = root.components;
  return isObj(c) && isObj(c.schemas) ? c.schemas : NONE;
}

/** Makes the types of one `use openapi` as the flow names them. */
export class OpenApiTypes {
  private readonly schemas: Schemas;

  constructor(
    private readonly api: string,
    private readonly openapi: OpenApi,
    private readonly made: TypeMaps,
  ) {
    this.schemas = new Schemas(openapi.root);
  }

  /** The type `<api>.<path…>` names, its records and enums added to the flow's; or why it makes none. */
  make(path: readonly string[]): Ty | TypeFault {
    const name = path.join(".");
    const all = componentSchemas(this.openapi.root);
    if (!Object.hasOwn(all, name)) {
      const names = Object.keys(all);
      return {
        ...typeFault(
          "E002",
          tr(
            `the description \`${this.api}\` has no schema \`${name}\` in \`components.schemas\``,
            `記述 \`${this.api}\` の \`components.schemas\` にスキーマ \`${name}\` はありません`,
          ),
          didYouMean(`${this.api}.${name}`, names.map((n) => `${this.api}.${n}`)),
        ),
        notes: [namesNote(tr("schemas", "スキーマ"), names)],
      };
    }
    const build = new Build(this.api, this.schemas, this.made);
    const ty = build.schemaTy({ $ref: `${COMPONENTS}${token(name)}` }, "", `${this.api}.${name}`, 0);
    return build.finish(ty, tr("schema", "スキーマ"));
  }
}

/** One making of a type from an OpenAPI description. */
class Build extends Making {
  constructor(private readonly api: string, private readonly schemas: Schemas, made: TypeMaps) {
    super(made);
  }

  /**
   * The type of the schema `v` (written at `at`): `name` is what a record or an enum made of it is
   * called, unless `v` is a `$ref` to `components.schemas`, which names it.
   */
  schemaTy(v: Json, at: string, name: string, depth: number): Ty {
    if (depth > MAX_SCHEMA_DEPTH) {
      this.refuse(
        "E003",
        tr(
          `the schemas nest more than ${MAX_SCHEMA_DEPTH} deep (MAX_SCHEMA_DEPTH) at \`${name}\``,
          `スキーマの入れ子が \`${name}\` で ${MAX_SCHEMA_DEPTH} 段(MAX_SCHEMA_DEPTH)を超えます`,
        ),
        null,
      );
      return JSON_TY;
    }
    const ref = isObj(v) && typeof v.$ref === "string" && v.$ref.startsWith(COMPONENTS) ? v.$ref : null;
    const named = ref === null ? name : `${this.api}.${untoken(ref.slice(COMPONENTS.length))}`;
    const l = this.schemas.deref(v, at);
    if ("message" in l) {
      this.refuse("E002", tr(`${l.message.en} (at ${l.pointer})`, `${l.message.ja}(${l.pointer})`), null);
      return JSON_TY;
    }
    if (l.s["x-expansionResources"] !== undefined) return STRING_TY;
    const alts = this.schemas.alternatives(l);
    if (alts !== null) {
      if ("message" in alts) {
        this.refuse(
          "E002",
          tr(`${alts.message.en} (at ${alts.pointer})`, `${alts.message.ja}(${alts.pointer})`),
          null,
        );
        return JSON_TY;
      }
      return alts.length === 1 ? this.schemaTy({ $ref: alts[0].at }, alts[0].at, named, depth + 1) : JSON_TY;
    }
    const kinds = kindsOf(l.s);
    if (kinds === null || kinds.size !== 1) return JSON_TY;
    const [kind] = kinds;
    switch (kind) {
      case "string":
        return this.stringTy(l.s, named);
      case "integer":
        return { kind: "int" };
      case "boolean":
        return { kind: "bool" };
      case "array": {
        const items = this.schemas.deref(l.s.items ?? NONE, `${l.at}/items`);
        if (!("message" in items) && kindsOf(items.s)?.has("array") === true) return JSON_TY;
        const element = this.schemaTy(l.s.items ?? NONE, `${l.at}/items`, named, depth + 1);
        return element.kind === "list" ? JSON_TY : { kind: "list", element };
      }
      case "object":
        return isObj(l.s.properties) ? this.recordTy(l.s, l.at, named, depth) : JSON_TY;
      default:
        return JSON_TY;
    }
  }

  private stringTy(s: Obj, name: string): Ty {
    if (s.format === "date-time") return { kind: "timestamp" };
    if (s.format === "date") return { kind: "date" };
    const values = Array.isArray(s.enum) ? s.enum : null;
    if (values === null || values.length === 0) return STRING_TY;
    const names = values.filter((x): x is string => typeof x === "string");
    if (names.length !== values.length || names.some((x) => x === "none" || !isName(x))) return STRING_TY;
    if (!this.has(name)) this.enums.set(name, { name, values: [...new Set(names)], line: 0 });
    return { kind: "enum", name };
  }

  private recordTy(s: Obj, at: string, name: string, depth: number): Ty {
    if (this.has(name)) return { kind: "record", name };
    const fields: FieldDef[] = [];
    this.records.set(name, { name, fields, line: 0 });
    const needed = required(s);
    for (const [key, prop] of Object.entries(s.properties as Obj)) {
      const propAt = `${at}/properties/${token(key)}`;
      if (!isName(key)) {
        this.refuse(
          "E003",
          tr(
            `the property \`${key}\` of \`${name}\` is not a name a flow can write`,
            `\`${name}\` のプロパティ \`${key}\` は、フローに書けない名前です`,
          ),
          tr(
            "write the record yourself, with that property left out",
            "そのプロパティを省いたレコードを、自分で書いてください",
          ),
        );
        continue;
      }
      const type = this.schemaTy(prop, propAt, `${name}.${key}`, depth + 1);
      const l = this.schemas.deref(prop, propAt);
      const optional = type.kind !== "json" && (!needed.includes(key) || ("s" in l && mayBeNull(l.s)));
      fields.push({
        name: key,
        type: optional ? { kind: "optional", inner: type } : type,
        range: "s" in l ? this.range(type, l.s, l.at) : null,
        secret: null,
        line: 0,
        col: 0,
      });
    }
    return { kind: "record", name };
  }

  /** The range of an integer, or of a list's integers: the schema's `minimum` and `maximum`. */
  private range(type: Ty, s: Obj, at: string): Range | null {
    if (type.kind === "int") {
      const [lo, hi] = bounds(s);
      return lo === null && hi === null ? null : { kind: "number", lo, hi };
    }
    if (type.kind === "list" && type.element.kind === "int") {
      const items = this.schemas.deref(s.items ?? NONE, `${at}/items`);
      return "s" in items ? this.range(type.element, items.s, items.at) : null;
    }
    return null;
  }
}
