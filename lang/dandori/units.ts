/**
 * The unit table of dandori's number types (docs/design/dandori.md#types): which `dimension[unit]`
 * spellings are units, when two units are the same (`JPY` and `円` are; `kg` and `g`, tax
 * included and excluded are not), and how a range end written with a unit (`>=1kg`, `<=100万円`,
 * `<=50%`, `>=41℉`) becomes an integer counted in the type's unit.
 *
 * A unit is kept as exact rationals against its dimension's base, so a conversion either gives
 * the integer or says it does not give one; no float is ever involved.
 * @module
 */

import { type Text, tr } from "../common/text.ts";
import { isCurrency } from "../chobo/units.ts";

/** An exact rational `n / d`, `d > 0`. */
export interface Ratio {
  readonly n: bigint;
  readonly d: bigint;
}

/** The kinds of numbers with units. */
export type Dimension = "money" | "mass" | "length" | "area" | "volume" | "time" | "temperature" | "rate";

/** The word written before `[` for each dimension; `duration` is another spelling of time. */
const DIMENSION_WORDS: ReadonlyMap<string, Dimension> = new Map([
  ["money", "money"],
  ["mass", "mass"],
  ["length", "length"],
  ["area", "area"],
  ["volume", "volume"],
  ["time", "time"],
  ["duration", "time"],
  ["temperature", "temperature"],
  ["rate", "rate"],
]);

/** The tax classes a money type may carry. */
const TAX_CLASSES: readonly string[] = ["incl_tax", "excl_tax"];

/**
 * A unit of a number type. Two values have the same unit when `id` and `tax` are equal; `id`
 * comes from the table, so `money[JPY]` and `money[円]` share one. A value in this unit is
 * `factor × n + offset` of the dimension's base (offset only for temperatures).
 */
export interface NumUnit {
  readonly dimension: Dimension;
  readonly id: string;
  /** What converts into what: a currency, or the dimension itself. */
  readonly group: string;
  readonly factor: Ratio;
  readonly offset: Ratio;
  readonly tax: string | null;
  /** The type as written, for messages: `money[JPY, incl_tax]`. */
  readonly spelling: string;
}

interface Entry {
  readonly dimension: Exclude<Dimension, "money" | "rate">;
  readonly factor: Ratio;
  readonly offset: Ratio;
}

const ZERO: Ratio = { n: 0n, d: 1n };

function ratio(n: bigint, d = 1n): Ratio {
  const g = gcd(n < 0n ? -n : n, d);
  return g === 0n ? { n: 0n, d: 1n } : { n: n / g, d: d / g };
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

const add = (a: Ratio, b: Ratio) => ratio(a.n * b.d + b.n * a.d, a.d * b.d);
const sub = (a: Ratio, b: Ratio) => ratio(a.n * b.d - b.n * a.d, a.d * b.d);
const mul = (a: Ratio, b: Ratio) => ratio(a.n * b.n, a.d * b.d);
const div = (a: Ratio, b: Ratio) => b.n < 0n ? ratio(-a.n * b.d, -a.d * b.n) : ratio(a.n * b.d, a.d * b.n);

/** ℉ to kelvin: K = 5/9 × F + (273.15 − 160/9). */
const FAHRENHEIT_OFFSET = sub(ratio(27315n, 100n), ratio(160n, 9n));

/** The units of every dimension but money and rate, by spelling; factors against the base. */
const TABLE: ReadonlyMap<string, Entry> = new Map<string, Entry>([
  ["mg", { dimension: "mass", factor: ratio(1n, 1000n), offset: ZERO }],
  ["g", { dimension: "mass", factor: ratio(1n), offset: ZERO }],
  ["kg", { dimension: "mass", factor: ratio(1000n), offset: ZERO }],
  ["t", { dimension: "mass", factor: ratio(1000000n), offset: ZERO }],
  ["mm", { dimension: "length", factor: ratio(1n, 1000n), offset: ZERO }],
  ["cm", { dimension: "length", factor: ratio(1n, 100n), offset: ZERO }],
  ["m", { dimension: "length", factor: ratio(1n), offset: ZERO }],
  ["km", { dimension: "length", factor: ratio(1000n), offset: ZERO }],
  ["mm2", { dimension: "area", factor: ratio(1n, 1000000n), offset: ZERO }],
  ["cm2", { dimension: "area", factor: ratio(1n, 10000n), offset: ZERO }],
  ["m2", { dimension: "area", factor: ratio(1n), offset: ZERO }],
  ["ha", { dimension: "area", factor: ratio(10000n), offset: ZERO }],
  ["km2", { dimension: "area", factor: ratio(1000000n), offset: ZERO }],
  ["mL", { dimension: "volume", factor: ratio(1n), offset: ZERO }],
  ["ml", { dimension: "volume", factor: ratio(1n), offset: ZERO }],
  ["cm3", { dimension: "volume", factor: ratio(1n), offset: ZERO }],
  ["L", { dimension: "volume", factor: ratio(1000n), offset: ZERO }],
  ["l", { dimension: "volume", factor: ratio(1000n), offset: ZERO }],
  ["m3", { dimension: "volume", factor: ratio(1000000n), offset: ZERO }],
  ["ms", { dimension: "time", factor: ratio(1n, 1000n), offset: ZERO }],
  ["s", { dimension: "time", factor: ratio(1n), offset: ZERO }],
  ["min", { dimension: "time", factor: ratio(60n), offset: ZERO }],
  ["h", { dimension: "time", factor: ratio(3600n), offset: ZERO }],
  ["d", { dimension: "time", factor: ratio(86400n), offset: ZERO }],
  ["K", { dimension: "temperature", factor: ratio(1n), offset: ZERO }],
  ["℃", { dimension: "temperature", factor: ratio(1n), offset: ratio(27315n, 100n) }],
  ["℉", { dimension: "temperature", factor: ratio(5n, 9n), offset: FAHRENHEIT_OFFSET }],
]);

/** Japanese multipliers a range end may put before a unit (`100万円`). */
const MULTIPLIERS: ReadonlyMap<string, bigint> = new Map([["万", 10000n], ["億", 100000000n]]);

/** The units of a dimension in the table, for a message. */
function unitsOf(d: Dimension): string {
  if (d === "money") return "JPY, 円, 銭, USD, USDc … (ISO 4217 codes and their hundredths)";
  if (d === "rate") return "step <n>%";
  return [...TABLE].filter(([, e]) => e.dimension === d).map(([s]) => s).join(", ");
}

const DIMENSION_TEXT: Record<Dimension, Text> = {
  money: tr("money", "お金"),
  mass: tr("mass", "質量"),
  length: tr("length", "長さ"),
  area: tr("area", "面積"),
  volume: tr("volume", "体積"),
  time: tr("time", "時間"),
  temperature: tr("temperature", "温度"),
  rate: tr("rate", "率"),
};

/** A money unit: its currency and factor (`銭` is a hundredth of `JPY`, `USDc` of `USD`). */
function money(name: string): { group: string; factor: Ratio } | null {
  if (!isCurrency(name)) return null;
  if (name === "円" || name === "JPY") return { group: "JPY", factor: ratio(1n) };
  if (name === "銭") return { group: "JPY", factor: ratio(1n, 100n) };
  if (name.length === 4 && name.endsWith("c")) return { group: name.slice(0, 3), factor: ratio(1n, 100n) };
  return { group: name, factor: ratio(1n) };
}

/** Why a `dimension[…]` is not a type: the message and a note for E002. */
export interface UnitError {
  readonly message: Text;
  readonly note: Text | null;
}

/** What `dimension[unit, tax]` or `rate[step s%]` says, as read by the parser. */
export interface UnitSpelling {
  readonly dimension: string;
  readonly unit: string | null;
  readonly step: string | null;
  readonly tax: string | null;
}

/**
 * The unit a `dimension[…]` type names, or why it names none (E002).
 *
 * @example
 * ```ts
 * unitOf({ dimension: "money", unit: "円", step: null, tax: "incl_tax" }); // same unit as money[JPY, incl_tax]
 * ```
 */
export function unitOf(s: UnitSpelling): NumUnit | UnitError {
  const spelling = s.step !== null
    ? `${s.dimension}[step ${s.step}]`
    : `${s.dimension}[${s.unit ?? ""}${s.tax === null ? "" : `, ${s.tax}`}]`;
  const dimension = DIMENSION_WORDS.get(s.dimension);
  if (dimension === undefined) {
    return {
      message: tr(`\`${spelling}\` is not a type`, `\`${spelling}\` は型ではありません`),
      note: tr(
        `\`${s.dimension}\` is not a kind of number; the kinds with units are ${
          [...DIMENSION_WORDS.keys()].join(", ")
        }`,
        `\`${s.dimension}\` は数の種類ではありません。単位を持つ種類は ${
          [...DIMENSION_WORDS.keys()].join("、")
        } です`,
      ),
    };
  }
  if (s.tax !== null && (dimension !== "money" || !TAX_CLASSES.includes(s.tax))) {
    return {
      message: tr(`\`${s.tax}\` is not a tax class here`, `\`${s.tax}\` はここでは税区分になりません`),
      note: dimension === "money"
        ? tr("a tax class is incl_tax or excl_tax", "税区分は incl_tax か excl_tax です")
        : tr("only money has a tax class", "税区分を持てるのはお金だけです"),
    };
  }
  if (dimension === "rate") return rateUnit(s, spelling);
  if (s.step !== null) {
    return {
      message: tr(`\`${spelling}\` is not a type`, `\`${spelling}\` は型ではありません`),
      note: tr("only a rate has a step: `rate[step 1%]`", "刻みを持つのは率だけです: `rate[step 1%]`"),
    };
  }
  const name = s.unit ?? "";
  const base = { dimension, tax: s.tax, spelling, offset: ZERO };
  if (dimension === "money") {
    const m = money(name);
    if (m !== null) return { ...base, id: `money:${m.group}:${m.factor.n}/${m.factor.d}`, ...m };
  } else {
    const e = TABLE.get(name);
    if (e !== undefined && e.dimension === dimension) {
      return { ...base, id: `${dimension}:${name}`, group: dimension, factor: e.factor, offset: e.offset };
    }
  }
  return { message: notAUnit(name, dimension), note: whyNotAUnit(name, dimension) };
}

function rateUnit(s: UnitSpelling, spelling: string): NumUnit | UnitError {
  const step = s.step === null ? null : /^([0-9]+(?:\.[0-9]+)?)%$/.exec(s.step);
  const value = step === null ? null : decimal(step[1]);
  if (value === null || value.n <= 0n) {
    return {
      message: tr(`\`${spelling}\` is not a type`, `\`${spelling}\` は型ではありません`),
      note: tr(
        "a rate is written with its step: `rate[step 1%]`, `rate[step 0.1%]`",
        "率の型には刻みを書きます: `rate[step 1%]`、`rate[step 0.1%]`",
      ),
    };
  }
  return {
    dimension: "rate",
    id: `rate:${value.n}/${value.d}`,
    group: "rate",
    factor: value,
    offset: ZERO,
    tax: null,
    spelling,
  };
}

function notAUnit(name: string, d: Dimension): Text {
  return tr(
    `\`${name}\` is not a unit of ${DIMENSION_TEXT[d].en}`,
    `\`${name}\` は${DIMENSION_TEXT[d].ja}の単位ではありません`,
  );
}

function whyNotAUnit(name: string, d: Dimension): Text {
  const e = TABLE.get(name);
  const other = e !== undefined ? e.dimension : money(name) !== null ? "money" : null;
  if (other !== null) {
    return tr(
      `\`${name}\` is a unit of ${DIMENSION_TEXT[other].en}; ${DIMENSION_TEXT[d].en} is in ${unitsOf(d)}`,
      `\`${name}\` は${DIMENSION_TEXT[other].ja}の単位です。${DIMENSION_TEXT[d].ja}の単位は ${
        unitsOf(d)
      } です`,
    );
  }
  return tr(
    `the unit table has no \`${name}\`; ${DIMENSION_TEXT[d].en} is in ${unitsOf(d)}`,
    `単位の表に \`${name}\` はありません。${DIMENSION_TEXT[d].ja}の単位は ${unitsOf(d)} です`,
  );
}

/** True when values of `a` can be given where `b` is expected: the same unit and tax class. */
export function sameUnit(a: NumUnit, b: NumUnit): boolean {
  return a.id === b.id && a.tax === b.tax;
}

/** `1.5` as a ratio, or null when it is not a plain decimal. */
function decimal(text: string): Ratio | null {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(text);
  if (m === null) return null;
  const frac = m[3] ?? "";
  const n = BigInt(m[2] + frac) * (m[1] === "-" ? -1n : 1n);
  return ratio(n, 10n ** BigInt(frac.length));
}

/**
 * The integer a range end stands for in the type's unit (`mass[g]`'s `>=1kg` is 1000), or why
 * it stands for none (E003). `unit` is null for an end written as a plain number.
 */
export function boundInUnit(type: NumUnit | null, number: string, unit: string | null): bigint | Text {
  const value = decimal(number);
  if (value === null) return tr(`\`${number}\` is not a number`, `\`${number}\` は数ではありません`);
  const written = `${number}${unit ?? ""}`;
  if (unit === null) {
    if (value.d !== 1n) {
      return tr(
        `the end \`${written}\` is not a whole number; ends are counted in the type's unit`,
        `端 \`${written}\` は整数ではありません。端は型の単位で数えた整数で書きます`,
      );
    }
    return value.n;
  }
  if (type === null) {
    return tr(
      `the end \`${written}\` has a unit, and \`int\` has none`,
      `端 \`${written}\` には単位がありますが、\`int\` には単位がありません`,
    );
  }
  const counted = countIn(type, value, unit);
  if (counted === null) {
    return tr(
      `the end \`${written}\` is not a value of \`${type.spelling}\`: \`${unit}\` is not a unit of ${
        DIMENSION_TEXT[type.dimension].en
      }${type.dimension === "money" ? ` in ${type.group}` : ""}`,
      `端 \`${written}\` は \`${type.spelling}\` の値ではありません。\`${unit}\` は${
        type.dimension === "money" ? `${type.group} の` : ""
      }${DIMENSION_TEXT[type.dimension].ja}の単位ではありません`,
    );
  }
  if (counted.d !== 1n) {
    return tr(
      `the end \`${written}\` is not a whole number of \`${type.spelling}\``,
      `端 \`${written}\` は \`${type.spelling}\` で数えると整数になりません`,
    );
  }
  return counted.n;
}

/** `value unit` counted in the type's unit, or null when the unit is not of the type's kind. */
function countIn(type: NumUnit, value: Ratio, unit: string): Ratio | null {
  if (type.dimension === "rate") return unit === "%" ? div(value, type.factor) : null;
  let name = unit;
  let times = 1n;
  const first = [...unit][0];
  const multiplier = MULTIPLIERS.get(first);
  if (multiplier !== undefined && unit.length > first.length) {
    name = unit.slice(first.length);
    times = multiplier;
  }
  const scaled = mul(value, ratio(times));
  let from: { factor: Ratio; offset: Ratio } | null = null;
  if (type.dimension === "money") {
    const m = money(name);
    if (m !== null && m.group === type.group) from = { factor: m.factor, offset: ZERO };
  } else {
    const e = TABLE.get(name);
    if (e !== undefined && e.dimension === type.dimension) from = e;
  }
  if (from === null) return null;
  const base = add(mul(from.factor, scaled), from.offset);
  return div(sub(base, type.offset), type.factor);
}
