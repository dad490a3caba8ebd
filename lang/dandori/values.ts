/**
 * dandori's values at run time and the entry checks (docs/design/dandori.md#types, docs/design/dandori.md#ranges, docs/design/dandori.md#dates-and-times): a value is JSON with
 * exact integers (`Json` of `lang/common/json.ts`); a record is an object read by its own keys
 * only. A missing `T?` or `json` field reads as null, and a record passed on keeps its fields as
 * they came. A value that comes in (the execution's input, every answer) is checked against its
 * type and range as every platform checks it: numbers as integers in the type's unit, dates as
 * their 10 characters, times on their first 19.
 * @module
 */

import type { Json } from "../common/json.ts";
import { unreachable } from "../common/assert.ts";
import { dayNumber, type Range } from "./ranges.ts";
import { dateIn, secondText, timeIn, timestampMs } from "./rules.ts";
import type { Ty, TypeTable } from "./types.ts";

/** A value of a flow. */
export type Value = Json;

/** The own member `key` of a record, or undefined (a prototype's member is never read). */
export function member(record: Value, key: string): Value | undefined {
  if (record === null || typeof record !== "object" || Array.isArray(record)) return undefined;
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A field as a flow reads it: a missing field reads as null (only `T?` and `json` fields may be missing). */
export function readField(record: Value, key: string): Value {
  return member(record, key) ?? null;
}

/** True when `v` is a record (a JSON object). */
export function isRecord(v: Value): v is { [key: string]: Json } {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** True when `value` has type `t` and, when `range` is given, lies in it; `missing` says the value was absent. */
export function fits(types: TypeTable, t: Ty, range: Range | null, value: Value | undefined): boolean {
  if (value === undefined || value === null) return t.kind === "optional" || t.kind === "json";
  switch (t.kind) {
    case "json":
      return true;
    case "optional":
      return fits(types, t.inner, range, value);
    case "int":
    case "num":
      return typeof value === "bigint" && inRange(range, value);
    case "string":
      return typeof value === "string";
    case "bool":
      return typeof value === "boolean";
    case "date":
      return typeof value === "string" && dayNumber(value) !== null && inRange(range, value);
    case "timestamp":
      return typeof value === "string" && timestampMs(value) !== null && inRange(range, value);
    case "enum": {
      const e = types.enums.get(t.name);
      return typeof value === "string" && e !== undefined && e.values.includes(value);
    }
    case "list":
      return Array.isArray(value) && value.every((x) => fits(types, t.element, range, x));
    case "record": {
      const r = types.records.get(t.name);
      return r !== undefined && isRecord(value) &&
        r.fields.every((f) => fits(types, f.type, f.range, member(value, f.name)));
    }
    default:
      return unreachable(t, "type");
  }
}

/** True when `value` lies in `range` (or there is none): numbers as integers, dates on their 10 characters, times on their first 19. */
export function inRange(range: Range | null, value: bigint | string): boolean {
  if (range === null) return true;
  switch (range.kind) {
    case "number":
      return typeof value === "bigint" && (range.lo === null || value >= range.lo) &&
        (range.hi === null || value <= range.hi);
    case "date": {
      if (typeof value !== "string") return false;
      const first = range.lo === null ? null : dayTextOf(range.lo);
      const last = range.hi === null ? null : dayTextOf(range.hi);
      return dateIn(value, first, last);
    }
    case "time": {
      if (typeof value !== "string") return false;
      const first = range.lo === null ? null : secondText(Number(range.lo) * 1000);
      const after = range.hi === null ? null : secondText((Number(range.hi) + 1) * 1000);
      return timeIn(value, first, after);
    }
    default:
      return unreachable(range.kind, "range kind");
  }
}

function dayTextOf(day: bigint): string {
  return new Date(Number(day) * 86_400_000).toISOString().slice(0, 10);
}

/** A value written into a string (docs/design/dandori.md#statements-and-values): strings as they are, numbers as digits, bools as words. */
export function textOf(v: Value): string {
  if (typeof v === "string") return v;
  if (typeof v === "bigint" || typeof v === "boolean" || typeof v === "number") return String(v);
  return JSON.stringify(v);
}
