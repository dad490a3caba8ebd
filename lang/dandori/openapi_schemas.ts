/**
 * The schemas of an OpenAPI description as the match (openapi.ts) and the types made from it
 * (openapi_types.ts) walk them: a `$ref` followed only inside the document, at most `MAX_REF_CHAIN`
 * in a row; an `allOf` read as one schema; the alternatives of an `anyOf`/`oneOf`; what a schema
 * allows (its JSON types, null, its integer bounds, the names it requires).
 * @module
 */

import type { Json } from "../common/json.ts";
import { tr } from "../common/text.ts";
import { type Fault, isObj, NONE, type Obj } from "./descriptions.ts";

/** How many `$ref`s are followed in a row before the description is said to loop. */
export const MAX_REF_CHAIN = 64;

/** How deep a schema is walked (objects, arrays, `anyOf`) before the match gives up and says so. */
export const MAX_SCHEMA_DEPTH = 64;

/** A schema with the pointer it was found at, `$ref`s followed. */
export interface Located {
  readonly s: Obj;
  readonly at: string;
}

/** One token of a JSON pointer (RFC 6901: `~` is `~0`, `/` is `~1`). */
export function token(s: string): string {
  return s.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** The name one token of a JSON pointer stands for: `token` undone. */
export function untoken(t: string): string {
  return t.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** The schemas of one description, walked from its document. */
export class Schemas {
  constructor(private readonly root: Obj) {}

  /** The schema `v` is, found at `at`, with its `$ref`s followed and an `allOf` read as one; or why not. */
  deref(v: Json, at: string, depth = 0): Located | Fault {
    let cur = v;
    let here = at;
    for (let n = 0; isObj(cur) && typeof cur.$ref === "string"; n++) {
      const ref = cur.$ref;
      if (n === MAX_REF_CHAIN) {
        return {
          message: tr(
            `more than ${MAX_REF_CHAIN} \`$ref\`s in a row: the description loops`,
            `\`$ref\` が ${MAX_REF_CHAIN} 個を超えて続いています。記述が輪になっています`,
          ),
          pointer: here,
        };
      }
      if (!ref.startsWith("#/") && ref !== "#") {
        return {
          message: tr(
            `\`$ref\` "${ref}" points outside the description; dandori reads only \`$ref\`s inside it (\`#/…\`)`,
            `\`$ref\` "${ref}" は記述の外を指しています。dandori が読むのは記述の中を指す \`$ref\`(\`#/…\`)だけです`,
          ),
          pointer: here,
        };
      }
      let target: Json | undefined = this.root;
      for (const part of (ref === "#" ? [] : ref.slice(2).split("/"))) {
        const key = untoken(part);
        target = isObj(target) && Object.hasOwn(target, key)
          ? target[key]
          : Array.isArray(target) && /^\d+$/.test(key)
          ? target[Number(key)]
          : undefined;
      }
      if (target === undefined) {
        return {
          message: tr(
            `\`$ref\` "${ref}" points at nothing in the description`,
            `\`$ref\` "${ref}" の指す先が記述にありません`,
          ),
          pointer: here,
        };
      }
      cur = target;
      here = ref;
    }
    // OpenAPI 3.1's boolean schemas: `true` is any value, `false` none.
    if (cur === true) return { s: NONE, at: here };
    if (cur === false) {
      return {
        message: tr(
          "the description allows no value here (`false`)",
          "記述は、ここにどんな値も許しません(`false`)",
        ),
        pointer: here,
      };
    }
    if (!isObj(cur)) {
      return {
        message: tr(
          "a schema here is not a JSON object",
          "ここのスキーマが JSON のオブジェクトではありません",
        ),
        pointer: here,
      };
    }
    return Array.isArray(cur.allOf) ? this.allOf(cur, here, depth) : { s: cur, at: here };
  }

  /**
   * An `allOf` as one schema: a value is every member at once, so an object's properties and
   * required names are all of theirs. Each property taken from a member is a `$ref` to where it is
   * written, so a mismatch in it points there.
   */
  private allOf(s: Obj, at: string, depth: number): Located | Fault {
    if (depth >= MAX_SCHEMA_DEPTH) return this.tooDeep(at);
    const properties: { [key: string]: Json } = Object.create(null);
    const names: string[] = [];
    let type = s.type;
    const take = (member: Obj, memberAt: string) => {
      if (isObj(member.properties)) {
        for (const key of Object.keys(member.properties)) {
          properties[key] ??= { $ref: `${memberAt}/properties/${token(key)}` };
        }
      }
      names.push(...required(member));
      type ??= member.type;
    };
    take(s, at);
    for (const [i, m] of (s.allOf as Json[]).entries()) {
      const got = this.deref(m, `${at}/allOf/${i}`, depth + 1);
      if ("message" in got) return got;
      take(got.s, got.at);
    }
    const merged: { [key: string]: Json } = Object.create(null);
    for (const key of Object.keys(s)) if (key !== "allOf") merged[key] = s[key];
    merged.properties = properties;
    merged.required = [...new Set(names)];
    if (type !== undefined) merged.type = type;
    return { s: merged, at };
  }

  /** The fault of a schema walked past `MAX_SCHEMA_DEPTH`. */
  tooDeep(at: string): Fault {
    return {
      message: tr(
        `the schema nests more than ${MAX_SCHEMA_DEPTH} deep, and the match stops there`,
        `スキーマの入れ子が ${MAX_SCHEMA_DEPTH} 段を超えるので、突き合わせをそこで止めます`,
      ),
      pointer: at,
    };
  }

  /** The alternatives of an `anyOf`/`oneOf`, or null when the schema has none. */
  alternatives(l: Located): Located[] | Fault | null {
    const key = Array.isArray(l.s.anyOf) ? "anyOf" : Array.isArray(l.s.oneOf) ? "oneOf" : null;
    if (key === null || l.s["x-expansionResources"] !== undefined) return null;
    const out: Located[] = [];
    for (const [i, alt] of (l.s[key] as Json[]).entries()) {
      const got = this.deref(alt, `${l.at}/${key}/${i}`);
      if ("message" in got) return got;
      if (!isNull(got.s)) out.push(got);
    }
    return out;
  }
}

/** The names an object schema requires. */
export function required(s: Obj): string[] {
  return Array.isArray(s.required) ? s.required.filter((x): x is string => typeof x === "string") : [];
}

/** True for a schema that is only `null`. */
export function isNull(s: Obj): boolean {
  return s.type === "null" || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === "null");
}

/** True when the schema allows null (3.0's `nullable`, 3.1's `"null"` among the types, a null alternative). */
export function mayBeNull(s: Obj): boolean {
  if (s.nullable === true) return true;
  if (Array.isArray(s.type) && s.type.includes("null")) return true;
  for (const key of ["anyOf", "oneOf"]) {
    const alts = s[key];
    if (Array.isArray(alts) && alts.some((a) => isObj(a) && isNull(a))) return true;
  }
  return false;
}

/** The JSON types a schema allows but null, or null when it does not say (any value). */
export function kindsOf(s: Obj): Set<string> | null {
  const t = s.type;
  if (typeof t === "string") return new Set([t]);
  if (Array.isArray(t)) return new Set(t.filter((x): x is string => typeof x === "string" && x !== "null"));
  if (isObj(s.properties)) return new Set(["object"]);
  if (Array.isArray(s.enum) && s.enum.every((v) => typeof v === "string")) return new Set(["string"]);
  return null;
}

/** A schema's integer bounds, lower and upper (exclusive ones moved in by one). */
export function bounds(s: Obj): [bigint | null, bigint | null] {
  const num = (v: Json | undefined, up: boolean): bigint | null =>
    typeof v === "bigint" ? v : typeof v === "number" ? BigInt(up ? Math.ceil(v) : Math.floor(v)) : null;
  let lo = num(s.minimum, true);
  let hi = num(s.maximum, false);
  if (s.exclusiveMinimum === true && lo !== null) lo += 1n;
  if (s.exclusiveMaximum === true && hi !== null) hi -= 1n;
  const xlo = num(s.exclusiveMinimum, false);
  const xhi = num(s.exclusiveMaximum, true);
  if (xlo !== null && (lo === null || xlo + 1n > lo)) lo = xlo + 1n;
  if (xhi !== null && (hi === null || xhi - 1n < hi)) hi = xhi - 1n;
  return [lo, hi];
}
