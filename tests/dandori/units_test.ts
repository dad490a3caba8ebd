/**
 * dandori's unit table and ranges (docs/design/dandori.md#types, docs/design/dandori.md#ranges): which spellings are one unit,
 * how a range end with a unit becomes an integer in the type's unit, what is not a unit, and
 * days and times as the ranges count them.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { RangeAst } from "../../lang/dandori/ast.ts";
import {
  dayNumber,
  dayText,
  estOfRange,
  estOpen,
  fit,
  rangeText,
  readRange,
  timeRange,
} from "../../lang/dandori/ranges.ts";
import type { Ty } from "../../lang/dandori/types.ts";
import { boundInUnit, type NumUnit, sameUnit, unitOf } from "../../lang/dandori/units.ts";
import { tr } from "../../lang/common/text.ts";

function unit(
  dimension: string,
  u: string | null,
  tax: string | null = null,
  step: string | null = null,
): NumUnit {
  const read = unitOf({ dimension, unit: u, tax, step });
  if (!("id" in read)) throw new Error(`${dimension}[${u}] is not a unit: ${read.message.en}`);
  return read;
}

Deno.test("JPY and 円 are one unit; kg and g, tax included and excluded, are not", () => {
  ok(sameUnit(unit("money", "JPY", "incl_tax"), unit("money", "円", "incl_tax")));
  ok(!sameUnit(unit("money", "JPY", "incl_tax"), unit("money", "JPY", "excl_tax")));
  ok(!sameUnit(unit("money", "円"), unit("money", "円", "incl_tax")));
  ok(!sameUnit(unit("mass", "kg"), unit("mass", "g")));
  ok(sameUnit(unit("duration", "h"), unit("time", "h")));
  strictEqual(unit("money", "JPY", "incl_tax").spelling, "money[JPY, incl_tax]");
  strictEqual(unit("rate", null, null, "0.1%").spelling, "rate[step 0.1%]");
});

Deno.test("what is not a unit says why (E002)", () => {
  const why = (d: string, u: string | null, tax: string | null = null, step: string | null = null) => {
    const read = unitOf({ dimension: d, unit: u, tax, step });
    return "message" in read ? `${read.message.en} | ${read.note?.en}` : "a unit";
  };
  strictEqual(
    why("mass", "foo"),
    "`foo` is not a unit of mass | the unit table has no `foo`; mass is in mg, g, kg, t",
  );
  strictEqual(
    why("length", "kg"),
    "`kg` is not a unit of length | `kg` is a unit of mass; length is in mm, cm, m, km",
  );
  strictEqual(
    why("money", "円", "foo"),
    "`foo` is not a tax class here | a tax class is incl_tax or excl_tax",
  );
  strictEqual(
    why("mass", "kg", "incl_tax"),
    "`incl_tax` is not a tax class here | only money has a tax class",
  );
  ok(why("rate", "%").includes("a rate is written with its step: `rate[step 1%]`"));
  ok(why("weight", "kg").startsWith("`weight[kg]` is not a type"));
});

Deno.test("a range end with a unit counts in the type's unit", () => {
  strictEqual(boundInUnit(unit("mass", "g"), "1", "kg"), 1000n);
  strictEqual(boundInUnit(unit("money", "円", "incl_tax"), "100", "万円"), 1000000n);
  strictEqual(boundInUnit(unit("money", "USD"), "500", "USDc"), 5n);
  strictEqual(boundInUnit(unit("money", "USDc"), "5", "USD"), 500n);
  strictEqual(boundInUnit(unit("rate", null, null, "0.1%"), "50", "%"), 500n);
  strictEqual(boundInUnit(unit("temperature", "℃"), "41", "℉"), 5n);
  strictEqual(boundInUnit(unit("temperature", "℉"), "5", "℃"), 41n);
  strictEqual(boundInUnit(null, "30", null), 30n);
  const text = (v: bigint | { en: string }) => typeof v === "bigint" ? String(v) : v.en;
  strictEqual(
    text(boundInUnit(unit("mass", "g"), "1.5", "g")),
    "the end `1.5g` is not a whole number of `mass[g]`",
  );
  strictEqual(
    text(boundInUnit(unit("money", "円", "incl_tax"), "1", "kg")),
    "the end `1kg` is not a value of `money[円, incl_tax]`: `kg` is not a unit of money in JPY",
  );
  strictEqual(text(boundInUnit(null, "1", "kg")), "the end `1kg` has a unit, and `int` has none");
  strictEqual(
    text(boundInUnit(unit("mass", "kg"), "1.5", null)),
    "the end `1.5` is not a whole number; ends are counted in the type's unit",
  );
});

Deno.test("days count from 1970-01-01 both ways; the calendar's gaps are no day", () => {
  strictEqual(dayNumber("1970-01-01"), 0n);
  strictEqual(dayNumber("2026-03-01")! - dayNumber("2026-02-28")!, 1n);
  strictEqual(dayNumber("2024-03-01")! - dayNumber("2024-02-28")!, 2n);
  strictEqual(dayNumber("2026-02-29"), null);
  strictEqual(dayNumber("2026-13-01"), null);
  for (const d of ["1969-12-31", "2000-02-29", "2026-10-31", "2100-03-01"]) {
    strictEqual(dayText(dayNumber(d)!), d);
  }
});

Deno.test("a range of times reads its days at the offset, from the first second to the last", () => {
  const r = timeRange(dayNumber("2026-01-01"), dayNumber("2026-01-01"), "+09:00");
  strictEqual(r.lo, dayNumber("2026-01-01")! * 86400n - 9n * 3600n);
  strictEqual(r.hi! - r.lo!, 86399n);
  strictEqual(rangeText(r), ">=2026-01-01 <=2026-01-01 offset +09:00");
});

Deno.test("a value fits a range, falls outside it, or has no known range", () => {
  const place = { kind: "number" as const, lo: 1n, hi: 30n };
  strictEqual(fit(estOfRange({ kind: "number", lo: 1n, hi: 60n }), place), "outside");
  strictEqual(fit(estOfRange({ kind: "number", lo: 2n, hi: 30n }), place), "fits");
  strictEqual(fit(estOfRange({ kind: "number", lo: 2n, hi: null }), place), "outside");
  strictEqual(fit(estOpen("number", tr("no range", "範囲が無い")), place), "unknown");
});

Deno.test("readRange says E003 for what 1.3 and 20 refuse", () => {
  const at = { line: 1, col: 1 };
  const range = (
    lower: RangeAst["lower"],
    upper: RangeAst["upper"],
    offset: string | null = null,
  ): RangeAst => ({
    ...at,
    lower,
    upper,
    offset: offset === null ? null : { ...at, text: offset },
  });
  const n = (op: ">=" | "<=", v: string, u: string | null = null) => ({
    ...at,
    op,
    value: {
      kind: "number" as const,
      number: { ...at, text: v },
      unit: u === null ? null : { ...at, text: u },
    },
  });
  const d = (op: ">=" | "<=", v: string) => ({
    ...at,
    op,
    value: { kind: "date" as const, date: { ...at, text: v } },
  });
  const message = (ast: RangeAst, ty: Ty) => {
    const r = readRange(ast, ty);
    return "message" in r ? r.message.en : rangeText(r);
  };
  strictEqual(
    message(range(n(">=", "10"), n("<=", "5")), { kind: "int" }),
    "no value is inside the range `>=10 <=5`",
  );
  strictEqual(
    message(range(d(">=", "2026-01-01"), null), { kind: "string" }),
    "a range is for a number (`int` or a unit), an ordered enum, a date or a time, and this is `string`",
  );
  ok(
    message(range(d(">=", "2026-01-01"), null, "+09:00"), { kind: "date" }).startsWith(
      "`offset` is written only after a range of times",
    ),
  );
  strictEqual(
    message(range(d(">=", "2026-01-01"), null, "+25:00"), { kind: "timestamp" }),
    "`+25:00` is not an offset from UTC (from -14:00 to +14:00)",
  );
  strictEqual(
    message(range(d(">=", "2026-02-30"), null), { kind: "date" }),
    "the calendar has no day `2026-02-30`",
  );
  strictEqual(
    message(range(n(">=", "1"), null), { kind: "date" }),
    "the end `1` is not a date; the ends of a range of dates are written `YYYY-MM-DD`",
  );
  strictEqual(
    message(range(n(">=", "1", "kg"), n("<=", "40", "kg")), { kind: "num", unit: unit("mass", "g") }),
    ">=1000 <=40000",
  );
  strictEqual(
    message(range(null, n("<=", "1", "kg")), {
      kind: "optional",
      inner: { kind: "list", element: { kind: "num", unit: unit("mass", "g") } },
    }),
    "<=1000",
  );
  ok(message(range(n(">=", "1"), null), { kind: "enum", name: "Tier" }).includes("has no order"));
  deepStrictEqual(readRange(range(d(">=", "2026-01-01"), d("<=", "2026-01-31")), { kind: "date" }), {
    kind: "date",
    lo: dayNumber("2026-01-01"),
    hi: dayNumber("2026-01-31"),
  });
});
