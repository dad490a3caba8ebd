/**
 * Ranges (docs/design/dandori.md#ranges): reading what a place accepts (`range >=1 <=30`, dates, times
 * with an `offset`) into a `Range` (declared in `types.ts` beside the fields that carry one, and
 * re-exported here for what reads ranges), and what a value given to it may be. Numbers are counted in the type's unit, dates in days from
 * 1970-01-01, times in UTC seconds, all as `bigint`.
 *
 * The values a variable may hold are the union of every value put into it: the checker
 * does not follow the flow to narrow them, so a value that never reaches a place can still make
 * it an E014, and the fix is to split the variable.
 * @module
 */

import type { BoundAst, RangeAst } from "./ast.ts";
import { type Text, tr } from "../common/text.ts";
import { type Range, rangeBase, type Ty } from "./types.ts";
import { boundInUnit } from "./units.ts";

export type { Range } from "./types.ts";

/** What a value may be: the span of the sources with a range, why the others have none, a literal's text. */
export interface Est {
  readonly kind: Range["kind"];
  /** The known values; `lo`/`hi` null for an open end. Null when no source has a range. */
  readonly span: { readonly lo: bigint | null; readonly hi: bigint | null } | null;
  /** Why a source has no range (`the input \`x\` has no range`), one per source. */
  readonly open: readonly Text[];
  /** The value as written, when the value is one literal. */
  readonly literal: string | null;
  /** The offset the times are read in, for messages. */
  readonly offset: string | null;
}

const SECONDS_PER_DAY = 86400n;

/** Days from 1970-01-01 of a civil date, or null when the calendar has no such day. */
export function dayNumber(text: string): bigint | null {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(text);
  if (m === null) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return null;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (d > lengths[mo - 1]) return null;
  // Days from civil (H. Hinnant's algorithm): exact for every Gregorian date.
  const yy = mo <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return BigInt(era * 146097 + doe - 719468);
}

/** The civil date of a day number. */
export function dayText(day: bigint): string {
  const z = Number(day) + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** Seconds east of UTC of `+09:00`, or null when no place has that offset (`+25:00`, `+09:60`). */
function offsetSeconds(text: string): bigint | null {
  const m = /^([+-])([0-9]{2}):([0-9]{2})$/.exec(text);
  if (m === null) return null;
  const [h, min] = [Number(m[2]), Number(m[3])];
  if (h > 14 || min > 59) return null;
  return BigInt((h * 3600 + min * 60) * (m[1] === "-" ? -1 : 1));
}

/** A range of times from days read at an offset: from the first second of `lo` to the last of `hi`. */
export function timeRange(lo: bigint | null, hi: bigint | null, offset: string | null): Range {
  const shift = offset === null ? 0n : offsetSeconds(offset) ?? 0n;
  return {
    kind: "time",
    lo: lo === null ? null : lo * SECONDS_PER_DAY - shift,
    hi: hi === null ? null : (hi + 1n) * SECONDS_PER_DAY - shift - 1n,
    days: { lo, hi, offset },
  };
}

function endText(kind: Range["kind"], value: bigint, offset: string | null): string {
  if (kind === "number") return String(value);
  if (kind === "date") return dayText(value);
  const shift = offset === null ? 0n : offsetSeconds(offset) ?? 0n;
  const local = value + shift;
  const day = local >= 0n ? local / SECONDS_PER_DAY : -((-local + SECONDS_PER_DAY - 1n) / SECONDS_PER_DAY);
  return dayText(day);
}

/** How a range reads in a message, as a `.flow` writes it: `>=1 <=30`, `>=2026-01-01 offset +09:00`. */
export function rangeText(r: Range): string {
  if (r.kind === "time" && r.days !== undefined) {
    return spanText("date", r.days.lo, r.days.hi, null) +
      (r.days.offset === null ? "" : ` offset ${r.days.offset}`);
  }
  return spanText(r.kind, r.lo, r.hi, null);
}

function spanText(kind: Range["kind"], lo: bigint | null, hi: bigint | null, offset: string | null): string {
  const parts: string[] = [];
  if (lo !== null) parts.push(`>=${endText(kind, lo, offset)}`);
  if (hi !== null) parts.push(`<=${endText(kind, hi, offset)}`);
  return parts.join(" ") + (kind === "time" && offset !== null ? ` offset ${offset}` : "");
}

/** How what a value may be reads in a message: its literal, or the span of its known sources. */
export function estText(e: Est): string {
  if (e.literal !== null) return e.literal;
  if (e.span === null) return "";
  if (e.span.lo === null && e.span.hi === null) return tr("any value", "どの値").en;
  return spanText(e.kind, e.span.lo, e.span.hi, e.offset);
}

/** The value a place with range `r` may hold, as a source of values. */
export function estOfRange(r: Range): Est {
  return {
    kind: r.kind,
    span: { lo: r.lo, hi: r.hi },
    open: [],
    literal: null,
    offset: r.days?.offset ?? null,
  };
}

/** A value of kind `kind` from a source without a range, with the reason. */
export function estOpen(kind: Range["kind"], why: Text): Est {
  return { kind, span: null, open: [why], literal: null, offset: null };
}

/** One written value. */
export function estLiteral(kind: Range["kind"], value: bigint, text: string): Est {
  return { kind, span: { lo: value, hi: value }, open: [], literal: text, offset: null };
}

/** What a value put in from any of `es` may be: the union of every source. */
export function estUnion(es: readonly Est[]): Est | null {
  if (es.length === 0) return null;
  let span: Est["span"] = null;
  const open: Text[] = [];
  for (const e of es) {
    if (e.span !== null) {
      span = span === null ? e.span : {
        lo: span.lo === null || e.span.lo === null ? null : span.lo < e.span.lo ? span.lo : e.span.lo,
        hi: span.hi === null || e.span.hi === null ? null : span.hi > e.span.hi ? span.hi : e.span.hi,
      };
    }
    for (const why of e.open) if (!open.some((o) => o.en === why.en)) open.push(why);
  }
  const literal = es.every((e) => e.literal !== null && e.literal === es[0].literal) ? es[0].literal : null;
  return { kind: es[0].kind, span, open, literal, offset: es.find((e) => e.offset !== null)?.offset ?? null };
}

/** Whether a value may fall outside a range: "outside", "unknown" (a source has none) or "fits". */
export function fit(e: Est, r: Range): "outside" | "unknown" | "fits" {
  if (e.span !== null) {
    const below = r.lo !== null && (e.span.lo === null || e.span.lo < r.lo);
    const above = r.hi !== null && (e.span.hi === null || e.span.hi > r.hi);
    if (below || above) return "outside";
  }
  return e.open.length > 0 ? "unknown" : "fits";
}

/** Where a diagnostic about a range points: the range word, or an end. */
interface RangeProblem {
  readonly at: { readonly line: number; readonly col: number };
  readonly message: Text;
}

/**
 * Reads a written range for a place of type `ty` (E003 for every problem docs/design/dandori.md#ranges
 * names): ends converted to the type's unit, dates checked against the calendar, the offset checked.
 */
export function readRange(ast: RangeAst, ty: Ty): Range | RangeProblem {
  const base = rangeBase(ty);
  const here = { line: ast.line, col: ast.col };
  const bounds = [ast.lower, ast.upper].filter((b): b is BoundAst => b !== null);
  if (base.kind === "enum") {
    return {
      at: here,
      message: tr(
        `the enum \`${base.name}\` has no order, so it has no range; only ordered enums of rules do`,
        `列挙 \`${base.name}\` には順序が無いので、範囲を書けません。範囲を書けるのは、規則の順序のある列挙だけです`,
      ),
    };
  }
  const kind = base.kind === "int" || base.kind === "num"
    ? "number"
    : base.kind === "date"
    ? "date"
    : base.kind === "timestamp"
    ? "time"
    : null;
  if (kind === null) {
    return {
      at: here,
      message: tr(
        `a range is for a number (\`int\` or a unit), an ordered enum, a date or a time, and this is \`${
          showBase(base)
        }\``,
        `範囲を書けるのは、数(\`int\` か単位の付いた数)、順序のある列挙、日付、時刻だけで、これは \`${
          showBase(base)
        }\` です`,
      ),
    };
  }
  if (ast.offset !== null && kind !== "time") {
    return {
      at: ast.offset,
      message: kind === "date"
        ? tr(
          "`offset` is written only after a range of times and in `now range`: a date has no time of day for an offset to read",
          "`offset` を書けるのは、時刻の範囲と `now range` のあとだけです。日付には、オフセットで読む時刻がありません",
        )
        : tr(
          "`offset` is written only after a range of times and in `now range`",
          "`offset` を書けるのは、時刻の範囲と `now range` のあとだけです",
        ),
    };
  }
  const values: (bigint | null)[] = [null, null];
  for (const b of bounds) {
    const v = boundValue(b, kind, base);
    if (typeof v !== "bigint") return { at: b, message: v };
    values[b.op === ">=" ? 0 : 1] = v;
  }
  if (ast.offset !== null && offsetSeconds(ast.offset.text) === null) {
    return {
      at: ast.offset,
      message: tr(
        `\`${ast.offset.text}\` is not an offset from UTC (from -14:00 to +14:00)`,
        `\`${ast.offset.text}\` は UTC からのオフセットではありません(-14:00 から +14:00)`,
      ),
    };
  }
  const [lo, hi] = values;
  if (lo !== null && hi !== null && lo > hi) {
    return {
      at: here,
      message: tr(
        `no value is inside the range \`${rangeAstText(ast)}\``,
        `範囲 \`${rangeAstText(ast)}\` に入る値がありません`,
      ),
    };
  }
  if (kind === "time") return timeRange(lo, hi, ast.offset?.text ?? null);
  return { kind, lo, hi };
}

function showBase(t: Ty): string {
  return t.kind === "num" ? t.unit.spelling : "name" in t ? t.name : t.kind;
}

function rangeAstText(ast: RangeAst): string {
  const end = (b: BoundAst) => {
    const v = b.value;
    const text = v.kind === "number"
      ? v.number.text + (v.unit?.text ?? "")
      : v.kind === "date"
      ? v.date.text
      : v.name.text;
    return `${b.op}${text}`;
  };
  return [ast.lower, ast.upper].filter((b): b is BoundAst => b !== null).map(end).join(" ");
}

function boundValue(b: BoundAst, kind: Range["kind"], base: Ty): bigint | Text {
  const v = b.value;
  if (kind === "number") {
    if (v.kind === "number") {
      return boundInUnit(base.kind === "num" ? base.unit : null, v.number.text, v.unit?.text ?? null);
    }
    const written = v.kind === "date" ? v.date.text : v.name.text;
    return tr(
      `the end \`${written}\` is not a value of \`${showBase(base)}\``,
      `端 \`${written}\` は \`${showBase(base)}\` の値ではありません`,
    );
  }
  if (v.kind !== "date") {
    const written = v.kind === "number" ? v.number.text + (v.unit?.text ?? "") : v.name.text;
    return tr(
      `the end \`${written}\` is not a date; the ends of a range of ${
        kind === "date" ? "dates" : "times"
      } are written \`YYYY-MM-DD\``,
      `端 \`${written}\` は日付ではありません。${
        kind === "date" ? "日付" : "時刻"
      }の範囲の端は \`YYYY-MM-DD\` で書きます`,
    );
  }
  const day = dayNumber(v.date.text);
  if (day === null) {
    return tr(`the calendar has no day \`${v.date.text}\``, `暦に \`${v.date.text}\` という日はありません`);
  }
  return day;
}
