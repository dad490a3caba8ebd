/**
 * dandori's types (docs/design/dandori.md#types): what a value may be, how a type reads in a message, and
 * whether a value of one type may be given where another is expected.
 *
 * Records and enums are named; their fields and values live in a `TypeTable`, so a type is a
 * small value that compares by name, and a record that contains itself can be found (E003)
 * instead of being built forever.
 * @module
 */

import { unreachable } from "../common/assert.ts";
import { type NumUnit, sameUnit } from "./units.ts";

/** A type. */
export type Ty =
  | { readonly kind: "int" | "string" | "bool" | "timestamp" | "date" | "json" }
  | { readonly kind: "num"; readonly unit: NumUnit }
  | { readonly kind: "enum"; readonly name: string }
  | { readonly kind: "record"; readonly name: string }
  | { readonly kind: "list"; readonly element: Ty }
  | { readonly kind: "optional"; readonly inner: Ty };

/**
 * What a place accepts (docs/design/dandori.md#ranges); a missing end is null. Numbers count in the type's
 * unit, dates in days from 1970-01-01, times in UTC seconds. Reading and comparing ranges is `ranges.ts`'s.
 */
export interface Range {
  readonly kind: "number" | "date" | "time";
  readonly lo: bigint | null;
  readonly hi: bigint | null;
  /** For times: the days as written and the offset, so the range reads as written. */
  readonly days?: { readonly lo: bigint | null; readonly hi: bigint | null; readonly offset: string | null };
}

/** Where `secret` is written on a place (docs/dandori.md#secrets-and-plain-http): the word's line and column. */
export interface SecretMark {
  readonly line: number;
  readonly col: number;
}

/**
 * A field of a record, an input, an output or a task's parameter: a name, a type, maybe a range,
 * and the `secret` mark when the place holds a secret.
 */
export interface FieldDef {
  readonly name: string;
  readonly type: Ty;
  readonly range: Range | null;
  readonly secret: SecretMark | null;
  readonly line: number;
  readonly col: number;
}

/** A record: its fields in written order. */
export interface RecordDef {
  readonly name: string;
  readonly fields: readonly FieldDef[];
  readonly line: number;
}

/** An enum: its values in written order. */
export interface EnumDef {
  readonly name: string;
  readonly values: readonly string[];
  readonly line: number;
}

/** The records and enums a flow can name (its own and those a book gives). */
export interface TypeTable {
  readonly records: ReadonlyMap<string, RecordDef>;
  readonly enums: ReadonlyMap<string, EnumDef>;
}

/** The types without parameters, by the word that names them. */
export const SIMPLE_TYPES: ReadonlyMap<string, Ty> = new Map(
  (["int", "string", "bool", "timestamp", "date", "json"] as const).map((k) => [k, { kind: k }]),
);

/** `int`. */
export const INT: Ty = { kind: "int" };
/** `string`. */
export const STRING: Ty = { kind: "string" };
/** `bool`. */
export const BOOL: Ty = { kind: "bool" };
/** `timestamp`. */
export const TIMESTAMP: Ty = { kind: "timestamp" };

/** `T?`, not doubled: `T??` is `T?`. */
export function optional(t: Ty): Ty {
  return t.kind === "optional" ? t : { kind: "optional", inner: t };
}

/** How a type reads in a message: as written in a `.flow`. */
export function showTy(t: Ty): string {
  switch (t.kind) {
    case "num":
      return t.unit.spelling;
    case "enum":
    case "record":
      return t.name;
    case "list":
      return `list[${showTy(t.element)}]`;
    case "optional":
      return `${showTy(t.inner)}?`;
    case "int":
    case "string":
    case "bool":
    case "timestamp":
    case "date":
    case "json":
      return t.kind;
    default:
      return unreachable(t, "type");
  }
}

/** True when the two types are one type (units through the unit table). */
export function sameTy(a: Ty, b: Ty): boolean {
  switch (a.kind) {
    case "num":
      return b.kind === "num" && sameUnit(a.unit, b.unit);
    case "enum":
    case "record":
      return b.kind === a.kind && b.name === a.name;
    case "list":
      return b.kind === "list" && sameTy(a.element, b.element);
    case "optional":
      return b.kind === "optional" && sameTy(a.inner, b.inner);
    case "int":
    case "string":
    case "bool":
    case "timestamp":
    case "date":
    case "json":
      return a.kind === b.kind;
    default:
      return unreachable(a, "type");
  }
}

/**
 * True when a value of type `from` may be given where `to` is expected: the same type, any
 * value to `json`, `T` to `T?`, and lists by their elements. An integer literal's own rule (it may
 * go to a number with a unit) is the caller's, who knows the value is a literal.
 */
export function assignable(from: Ty, to: Ty): boolean {
  if (to.kind === "json") return true;
  if (to.kind === "optional") {
    return assignable(from.kind === "optional" ? from.inner : from, to.inner);
  }
  if (from.kind === "list" && to.kind === "list") return assignable(from.element, to.element);
  return sameTy(from, to);
}

/** The type a field path reaches inside `t`, or null; the caller says why not. */
export function fieldOf(types: TypeTable, t: Ty, name: string): FieldDef | null {
  if (t.kind !== "record") return null;
  return types.records.get(t.name)?.fields.find((f) => f.name === name) ?? null;
}

/** The type a range written on `t` is about: a range on `T?` or `list[T]` is one on `T`. */
export function rangeBase(t: Ty): Ty {
  return t.kind === "optional" ? rangeBase(t.inner) : t.kind === "list" ? rangeBase(t.element) : t;
}
