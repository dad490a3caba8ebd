/**
 * What the readers of API descriptions share (docs/dandori.md#api-descriptions): OpenAPI
 * (openapi.ts) and Smithy (smithy.ts) read a JSON document with the bigint-exact codec (no
 * prototype, at most `MAX_JSON_DEPTH` deep; the file port bounds its size), say why one cannot be
 * read, and give each mismatch of a task with the place in the flow it is about and the place in
 * the description.
 * @module
 */

import { type Json, JsonError, parseJson } from "../common/json.ts";
import { type Text, tr } from "../common/text.ts";
import { type FieldDef, type Range, showTy } from "./types.ts";

/** A JSON object as the codec reads it (no prototype). */
export type Obj = { readonly [key: string]: Json };

/**
 * The empty object where the description wrote none: without a prototype, as the JSON codec reads
 * objects, so a name such as `constructor` finds nothing in it either.
 */
export const NONE: Obj = Object.freeze(Object.create(null));

/** True for a JSON object (not an array, not null). */
export function isObj(v: Json | undefined): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Why a description cannot be read, in both languages. */
export interface Unread {
  readonly why: Text;
}

/** A mismatch found: what is wrong, and where in the description (a JSON pointer, a shape id). */
export interface Fault {
  readonly message: Text;
  readonly pointer: string;
}

/** A place in the flow: a line and a column. */
export interface Place {
  readonly line: number;
  readonly col: number;
}

/**
 * Where a mismatch of a task is said: the operation, the task, an argument, the result or a field of
 * it, or an item of the task (a declared status or exception, `key`).
 */
export type Where =
  | { readonly kind: "operation" }
  | { readonly kind: "task" }
  | { readonly kind: "param"; readonly param: FieldDef }
  | { readonly kind: "result" }
  | { readonly kind: "field"; readonly field: FieldDef }
  | { readonly kind: "item"; readonly at: Place };

/** A mismatch with the place in the flow it is about. */
export type Placed = Fault & { readonly where: Where };

/** A description's bytes read as a JSON object (its `root`), or why they are not one. */
export function readJsonObject(bytes: Uint8Array): { readonly root: Obj } | Unread {
  let root: Json;
  try {
    root = parseJson(bytes);
  } catch (e) {
    if (!(e instanceof JsonError)) throw e;
    return {
      why: tr(
        `it is not JSON (${e.line}:${e.col}: ${e.text.en})`,
        `JSON ではありません(${e.line}:${e.col}: ${e.text.ja})`,
      ),
    };
  }
  if (!isObj(root)) return { why: tr("it is not a JSON object", "JSON のオブジェクトではありません") };
  return { root };
}

/** A range of integers in words: `50 to 100`, `50 or more`, `100 or less`, `any number`. */
export function rangeWords(lo: bigint | null, hi: bigint | null): Text {
  if (lo !== null && hi !== null) return tr(`${lo} to ${hi}`, `${lo} 以上 ${hi} 以下`);
  if (lo !== null) return tr(`${lo} or more`, `${lo} 以上`);
  if (hi !== null) return tr(`${hi} or less`, `${hi} 以下`);
  return tr("any number", "どんな数でも");
}

/** A record's field sent as `T?` where the description requires a value: the record's name, the field, where. */
export function requiredButOptional(record: string, f: FieldDef, pointer: string): Fault {
  return {
    message: tr(
      `\`${record}.${f.name}\` is required here, and \`${showTy(f.type)}\` may have no value`,
      `ここでは \`${record}.${f.name}\` が要りますが、\`${showTy(f.type)}\` は値が無いことがあります`,
    ),
    pointer,
  };
}

/** An enum result that lacks `value`, which the operation may return: the enum's name, where. */
export function lacksReturned(value: string, enumName: string, pointer: string): Fault {
  return {
    message: tr(
      `the operation may return \`${value}\`, which \`${enumName}\` lacks`,
      `操作は \`${value}\` を返すことがありますが、\`${enumName}\` にその値がありません`,
    ),
    pointer,
  };
}

/**
 * Why a value of `range` (the task's, null for any number) may not fit what the description takes
 * (from `lo` to `hi`, null where it says no end), or null when every such value fits.
 */
export function sendsOutOfRange(range: Range | null, lo: bigint | null, hi: bigint | null): Text | null {
  const tlo = range?.kind === "number" ? range.lo : null;
  const thi = range?.kind === "number" ? range.hi : null;
  if ((lo === null || (tlo !== null && tlo >= lo)) && (hi === null || (thi !== null && thi <= hi))) {
    return null;
  }
  return tr(`takes only ${rangeWords(lo, hi).en}`, `${rangeWords(lo, hi).ja}だけを受け取ります`);
}

/**
 * Why a value the description may give (from `lo` to `hi`, null where it says no end) cannot be read
 * into `range` (the task's, null for any number), or null when every such value fits.
 */
export function readsOutOfRange(range: Range | null, lo: bigint | null, hi: bigint | null): Text | null {
  const tlo = range?.kind === "number" ? range.lo : null;
  const thi = range?.kind === "number" ? range.hi : null;
  if ((tlo === null || (lo !== null && lo >= tlo)) && (thi === null || (hi !== null && hi <= thi))) {
    return null;
  }
  return tr(`may be ${rangeWords(lo, hi).en}`, `${rangeWords(lo, hi).ja}のことがあります`);
}
