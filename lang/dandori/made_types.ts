/**
 * What the makers of types from descriptions share (docs/dandori.md#types-from-proto-descriptions):
 * `proto_types.ts` (messages and enums of a `.proto`) and `openapi_types.ts` (schemas of an OpenAPI
 * description) each make the records and enums one written name reaches into a `Making`, which keeps
 * them apart from the flow's types until all are sound: the first fault found is said at the place
 * that named the type, and a record that contains itself (through fields, lists and `T?`) is E003, as
 * a declared one is, because no platform carries such a type alike.
 * @module
 */

import { type Text, tr } from "../common/text.ts";
import type { EnumDef, RecordDef, Ty } from "./types.ts";

/** The most names of a description an E002 lists beside the nearest one. */
export const MAX_NAMES_SHOWN = 20;

/** Why a written name made no type: the code, the message and what helps. */
export interface TypeFault {
  readonly code: "E002" | "E003" | "E006";
  readonly message: Text;
  readonly hint: Text | null;
  readonly notes: readonly Text[];
}

/** The types a flow has made so far, which made types are added to. */
export interface TypeMaps {
  readonly records: Map<string, RecordDef>;
  readonly enums: Map<string, EnumDef>;
}

/** A fault with no hint or notes. */
export function typeFault(code: TypeFault["code"], message: Text, hint: Text | null = null): TypeFault {
  return { code, message, hint, notes: [] };
}

/** The note that lists a description's names, at most `MAX_NAMES_SHOWN`. */
export function namesNote(what: Text, names: readonly string[]): Text {
  if (names.length === 0) return tr(`the description has no ${what.en}`, `記述に${what.ja}はありません`);
  const shown = names.slice(0, MAX_NAMES_SHOWN).join(", ");
  const more = names.length - MAX_NAMES_SHOWN;
  return more > 0
    ? tr(
      `its ${what.en}: ${shown} and ${more} more (MAX_NAMES_SHOWN)`,
      `記述の${what.ja}: ${shown} ほか ${more} 個(MAX_NAMES_SHOWN)`,
    )
    : tr(`its ${what.en}: ${shown}`, `記述の${what.ja}: ${shown}`);
}

/** One making of a type: the records and enums it reaches, kept apart until all of them are sound. */
export class Making {
  readonly records = new Map<string, RecordDef>();
  readonly enums = new Map<string, EnumDef>();
  fault: TypeFault | null = null;

  constructor(protected readonly made: TypeMaps) {}

  /** True when a record or an enum of that name is made, here or before. */
  has(name: string): boolean {
    return this.made.records.has(name) || this.records.has(name) || this.made.enums.has(name) ||
      this.enums.has(name);
  }

  /** Records the first fault; the making then gives no type. */
  refuse(code: TypeFault["code"], message: Text, hint: Text | null, notes: readonly Text[] = []): void {
    this.fault ??= { code, message, hint, notes };
  }

  /** `ty` when everything made is sound and then added to the flow's types; else the first fault. */
  finish(ty: Ty, what: Text): Ty | TypeFault {
    const wrong = this.fault ?? this.cycle(what);
    if (wrong !== null) return wrong;
    for (const [name, r] of this.records) this.made.records.set(name, r);
    for (const [name, e] of this.enums) this.made.enums.set(name, e);
    return ty;
  }

  /** E003 for the first record made here that contains itself, through fields, lists and `T?`. */
  private cycle(what: Text): TypeFault | null {
    for (const start of this.records.keys()) {
      const path = this.path(start, start, new Set());
      if (path === null) continue;
      return typeFault(
        "E003",
        tr(
          `the ${what.en} \`${start}\` contains itself (${[start, ...path].join(" → ")})`,
          `${what.ja} \`${start}\` が自分自身を含みます(${[start, ...path].join(" → ")})`,
        ),
        tr(
          "write the record yourself, with the nested part as `json`: a type that contains itself cannot be carried the same way on every platform",
          "入れ子になるところを `json` にしたレコードを、自分で書いてください。自分を含む型は、どのプラットフォームでも同じには運べません",
        ),
      );
    }
    return null;
  }

  private path(start: string, here: string, seen: Set<string>): string[] | null {
    for (const f of this.records.get(here)?.fields ?? []) {
      const next = recordIn(f.type);
      if (next === null || !this.records.has(next)) continue;
      if (next === start) return [f.name];
      if (seen.has(next)) continue;
      seen.add(next);
      const rest = this.path(start, next, seen);
      if (rest !== null) return [f.name, ...rest];
    }
    return null;
  }
}

/** The record a type holds, through lists and `T?`, or null. */
function recordIn(t: Ty): string | null {
  return t.kind === "record"
    ? t.name
    : t.kind === "list"
    ? recordIn(t.element)
    : t.kind === "optional"
    ? recordIn(t.inner)
    : null;
}
