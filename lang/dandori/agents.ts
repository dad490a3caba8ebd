/**
 * Agent tasks (docs/dandori.md#agents): who a task's `agent` speaks to, the effort levels each
 * provider takes, and the size of the JSON Schema a task's result type is sent as, measured against
 * each provider's limits. The schema is OpenAI Structured Outputs' strict form wrapped in
 * `{"answer": …}`, the same schema going to Claude's `output_config.format`; records are written
 * inline (no `$ref`), so a record named by many fields is counted once per place, and one too large
 * to send is refused (E007) before anything is built. Building the schema and the requests is for
 * the stages after the checker, which do not read agents yet (support.ts).
 * @module
 */

import { assert, lookup, unreachable } from "../common/assert.ts";
import { type Text, tr } from "../common/text.ts";
import type { Ty, TypeTable } from "./types.ts";

/** Who an agent speaks to: OpenAI's Responses API (or an Open Responses server, `url`), or Claude's Messages API. */
export type Provider = "openai" | "claude";

/** The providers, as `agent <provider> "…"` names them; `agent "…"` is `openai`. */
export const PROVIDERS: readonly Provider[] = ["openai", "claude"];

/** The effort levels of the Responses API's `reasoning.effort` (the Agents SDK's types, TypeScript 0.18.0, Python 0.22.3). */
export const OPENAI_EFFORTS: readonly string[] = ["none", "minimal", "low", "medium", "high", "xhigh", "max"];

/** The effort levels of the Messages API's `output_config.effort` (Anthropic's SDK's types, TypeScript 0.128.0, Python 1.8.0). */
export const CLAUDE_EFFORTS: readonly string[] = ["low", "medium", "high", "xhigh", "max"];

/** The effort levels a provider takes. */
export function effortsOf(provider: Provider): readonly string[] {
  switch (provider) {
    case "openai":
      return OPENAI_EFFORTS;
    case "claude":
      return CLAUDE_EFFORTS;
    default:
      return unreachable(provider, "provider");
  }
}

/** OpenAI Structured Outputs: objects nest at most 10 deep (the `{"answer": …}` wrapper is the first). */
export const MAX_SCHEMA_NESTING = 10;

/** OpenAI Structured Outputs: at most 5,000 object properties in one schema (`answer` among them). */
export const MAX_SCHEMA_PROPERTIES = 5_000;

/** OpenAI Structured Outputs: at most 1,000 enum values across all the enums of one schema. */
export const MAX_SCHEMA_ENUM_VALUES = 1_000;

/** Claude's structured outputs: at most 16 choices with null (`anyOf`) in one request. */
export const MAX_CLAUDE_ANY_OF = 16;

/** What a result type's schema holds, counted as the schema writes it (each record once per place). */
export interface SchemaSize {
  /** Objects along the deepest path, the wrapper included. */
  readonly nesting: number;
  readonly properties: number;
  readonly enumValues: number;
  readonly anyOfs: number;
}

/** Why a result type has no schema: the type at fault, and why. */
export interface SchemaFault {
  readonly fault: Text;
}

/** Counts past this are all "too many": every limit is below it, and the sums stay exact. */
const SATURATED = MAX_SCHEMA_PROPERTIES + 1;

function add(a: number, b: number): number {
  return Math.min(SATURATED, a + b);
}

const WRAPPER: SchemaSize = { nesting: 1, properties: 1, enumValues: 0, anyOfs: 0 };

/**
 * The size of the schema of `{"answer": <ty>}`, or why the type has none: `json` (any value, which a
 * strict schema cannot say). A record that holds itself, which a schema without `$ref` could not
 * write out, is E003 for every place already.
 *
 * @example
 * ```ts
 * schemaSize({ kind: "optional", inner: { kind: "string" } }, types); // { nesting: 1, properties: 1, enumValues: 0, anyOfs: 1 }
 * ```
 */
export function schemaSize(ty: Ty, types: TypeTable): SchemaSize | SchemaFault {
  const known = new Map<string, SchemaSize>();
  const open: string[] = [];
  const size = (t: Ty): SchemaSize | SchemaFault => {
    switch (t.kind) {
      case "int":
      case "num":
      case "string":
      case "bool":
      case "timestamp":
      case "date":
        return { nesting: 0, properties: 0, enumValues: 0, anyOfs: 0 };
      case "json":
        return {
          fault: tr(
            "`json` is any value, which a strict JSON Schema cannot say",
            "`json` はどんな値でもよく、strict の JSON Schema には書けません",
          ),
        };
      case "enum":
        return {
          nesting: 0,
          properties: 0,
          enumValues: lookup(types.enums, t.name, "enum").values.length,
          anyOfs: 0,
        };
      case "list":
        return size(t.element);
      case "optional": {
        const inner = size(t.inner);
        return "fault" in inner ? inner : { ...inner, anyOfs: add(inner.anyOfs, 1) };
      }
      case "record":
        return record(t.name);
      default:
        return unreachable(t, "type");
    }
  };
  const record = (name: string): SchemaSize | SchemaFault => {
    const done = known.get(name);
    if (done !== undefined) return done;
    // A record that holds itself is E003 before any schema is asked of it (resolve.ts).
    assert(!open.includes(name), `the record \`${name}\` does not hold itself`);
    open.push(name);
    let total: SchemaSize = { nesting: 1, properties: 0, enumValues: 0, anyOfs: 0 };
    for (const f of lookup(types.records, name, "record").fields) {
      const s = size(f.type);
      if ("fault" in s) {
        open.pop();
        return s;
      }
      total = {
        nesting: Math.max(total.nesting, s.nesting + 1),
        properties: add(total.properties, add(s.properties, 1)),
        enumValues: add(total.enumValues, s.enumValues),
        anyOfs: add(total.anyOfs, s.anyOfs),
      };
    }
    open.pop();
    known.set(name, total);
    return total;
  };
  const inner = size(ty);
  if ("fault" in inner) return inner;
  return {
    nesting: inner.nesting + WRAPPER.nesting,
    properties: add(inner.properties, WRAPPER.properties),
    enumValues: inner.enumValues,
    anyOfs: inner.anyOfs,
  };
}

/**
 * A limit of a provider a schema passes: what is counted, how many (`count` is a floor when
 * `counting` stopped: counts stop past `MAX_SCHEMA_PROPERTIES`), and the limit's name and number.
 */
export interface SchemaOverLimit {
  readonly what: Text;
  readonly count: number;
  readonly countingStopped: boolean;
  readonly limit: number;
  readonly name: string;
}

/**
 * The provider's limits the schema passes, in the order nesting, properties, enum values, `anyOf`.
 * OpenAI's hold when the schema goes to OpenAI (no `url`: an Open Responses server's limits are
 * unknown, and its answer is checked on the way back); Claude's is its 16 `anyOf`s.
 */
export function overLimits(size: SchemaSize, provider: Provider, toOpenAi: boolean): SchemaOverLimit[] {
  const over: SchemaOverLimit[] = [];
  const more = (what: Text, count: number, limit: number, name: string) => {
    if (count > limit) over.push({ what, count, countingStopped: count >= SATURATED, limit, name });
  };
  if (provider === "openai" && toOpenAi) {
    more(tr("levels of objects", "段のオブジェクト"), size.nesting, MAX_SCHEMA_NESTING, "MAX_SCHEMA_NESTING");
    more(tr("properties", "個のプロパティ"), size.properties, MAX_SCHEMA_PROPERTIES, "MAX_SCHEMA_PROPERTIES");
    more(
      tr("enum values", "個の列挙の値"),
      size.enumValues,
      MAX_SCHEMA_ENUM_VALUES,
      "MAX_SCHEMA_ENUM_VALUES",
    );
  }
  if (provider === "claude") {
    more(
      tr("choices with null (`anyOf`)", "個の null との選択(`anyOf`)"),
      size.anyOfs,
      MAX_CLAUDE_ANY_OF,
      "MAX_CLAUDE_ANY_OF",
    );
  }
  return over;
}

/**
 * The enums a result type holds that have two values equal but for case: a Claude answer is read
 * by case-folding its enum values, and then could not say which was meant. Each enum once, with
 * the first two such values.
 */
export function caseClashes(ty: Ty, types: TypeTable): { enumName: string; values: [string, string] }[] {
  const enums = new Set<string>();
  const seen = new Set<string>();
  const walk = (t: Ty): void => {
    switch (t.kind) {
      case "enum":
        enums.add(t.name);
        return;
      case "list":
        return walk(t.element);
      case "optional":
        return walk(t.inner);
      case "record":
        if (seen.has(t.name)) return;
        seen.add(t.name);
        for (const f of lookup(types.records, t.name, "record").fields) walk(f.type);
        return;
      case "int":
      case "num":
      case "string":
      case "bool":
      case "timestamp":
      case "date":
      case "json":
        return;
      default:
        return unreachable(t, "type");
    }
  };
  walk(ty);
  const clashes: { enumName: string; values: [string, string] }[] = [];
  for (const name of enums) {
    const folded = new Map<string, string>();
    for (const v of lookup(types.enums, name, "enum").values) {
      const other = folded.get(v.toLowerCase());
      if (other !== undefined) {
        clashes.push({ enumName: name, values: [other, v] });
        break;
      }
      folded.set(v.toLowerCase(), v);
    }
  }
  return clashes;
}
