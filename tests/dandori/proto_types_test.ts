/**
 * Types made from `use proto` descriptions (lang/dandori/proto_types.ts,
 * docs/dandori.md#types-from-proto-descriptions), beyond the golden flows (`proto_types.flow`,
 * `proto_type_faults.flow`): every row of the table, the ranges Protovalidate's rules give and those
 * they do not, the zero values dropped and kept, only what the flow names made, another package's
 * types, a task written with made types matching its method with no E016, hostile and deep names.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { createRequire } from "node:module";
import { checkFlow } from "../../lang/dandori/check.ts";
import { type FileRead, NO_SUCH_FILE } from "../../lang/dandori/env.ts";
import { MAX_MESSAGE_DEPTH, type Pb, protoRange, useProtobufjs } from "../../lang/dandori/proto.ts";
import { saysUnspecified } from "../../lang/dandori/proto_types.ts";
import { showTy } from "../../lang/dandori/types.ts";

useProtobufjs(() => createRequire(import.meta.url)("protobufjs") as Pb);

const SHOP = `syntax = "proto3";
package shop.v1;
import "buf/validate/validate.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/empty.proto";
import "google/protobuf/field_mask.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/any.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";
import "common/v1/money.proto";

enum Kind { KIND_UNSPECIFIED = 0; KIND_BOOK = 1; KIND_TOY = 2; }
enum Mark { MARK_NONE = 0; MARK_STAR = 1; }

message Item {
  message Part { string name = 1; }
  string s = 1;
  bytes b = 2;
  bool flag = 3;
  int32 i32 = 4 [(buf.validate.field).int32 = {gte: 1, lte: 9}];
  uint32 u32 = 5;
  sint32 s32 = 6;
  fixed32 f32 = 7;
  sfixed32 sf32 = 8;
  int64 i64 = 9;
  uint64 u64 = 10;
  double d = 11;
  float f = 12;
  Kind kind = 13;
  Mark mark = 14;
  Part part = 15;
  repeated Part parts = 16;
  repeated int32 sizes = 17 [(buf.validate.field).repeated.items.int32.gt = 0];
  map<string, int32> counts = 18;
  optional string maybe = 19;
  oneof choice { string left = 20; int32 right = 21; }
  google.protobuf.Timestamp at = 22;
  google.protobuf.Duration took = 23;
  google.protobuf.FieldMask mask = 24;
  google.protobuf.Struct st = 25;
  google.protobuf.Value v = 26;
  google.protobuf.ListValue lv = 27;
  google.protobuf.Any any = 28;
  google.protobuf.NullValue nothing = 29;
  google.protobuf.Int32Value wi32 = 30 [(buf.validate.field).int32.lt = 5];
  google.protobuf.Int64Value wi64 = 31;
  google.protobuf.DoubleValue wd = 32;
  google.protobuf.BoolValue wb = 33;
  google.protobuf.StringValue ws = 34;
  Part needed = 35 [(buf.validate.field).required = true];
  google.protobuf.Empty empty = 36;
  common.v1.Money price = 37;
  string snake_case_name = 38;
  string renamed = 39 [json_name = "other"];
}

message Unused { string x = 1; }
`;

const MONEY = `syntax = "proto3";
package common.v1;
message Money { string currency = 1; int64 units = 2; }
`;

interface Made {
  readonly codes: readonly string[];
  readonly messages: readonly string[];
  readonly records: ReadonlyMap<string, readonly { name: string; type: string; range: string | null }[]>;
  readonly enums: ReadonlyMap<string, readonly string[]>;
}

/** Checks `flow` beside `specs/shop.proto` (and `files`); the diagnostics and the types it made. */
function made(flow: string, files: Record<string, string> = {}): Made {
  const all: Record<string, string> = {
    "specs/shop.proto": SHOP,
    "specs/common/v1/money.proto": MONEY,
    ...files,
  };
  const read = (p: string): FileRead => {
    const text = all[p];
    return text === undefined ? NO_SUCH_FILE : { bytes: new TextEncoder().encode(text), real: `/repo/${p}` };
  };
  const result = checkFlow("w.flow", flow, { read });
  const model = result.model ?? result.typedFlow?.model ?? null;
  const records = new Map(
    [...(model?.types.records.values() ?? [])].map((r) => [
      r.name,
      r.fields.map((f) => ({
        name: f.name,
        type: showTy(f.type),
        range: f.range === null ? null : `${f.range.lo ?? ""}..${f.range.hi ?? ""}`,
      })),
    ]),
  );
  const enums = new Map([...(model?.types.enums.values() ?? [])].map((e) => [e.name, e.values]));
  return {
    codes: result.diagnostics.map((d) => d.code),
    messages: result.diagnostics.map((d) => d.message.en),
    records,
    enums,
  };
}

const USE = 'workflow w v1\n\nuse proto shop from "specs/shop.proto"\n';

/** A flow whose input is of the type `ty`. */
function input(ty: string, before = ""): string {
  return `${USE}${before}\ninputs\n  x : ${ty}\n\nflow\n  pass\n`;
}

Deno.test("every row of the table: scalars, enums, messages, lists, maps, presence, well-known types, wrappers, names", () => {
  const m = made(input("shop.Item"));
  deepStrictEqual(m.codes, []);
  const field = (name: string) => m.records.get("shop.Item")?.find((f) => f.name === name);
  const want: [string, string, string | null][] = [
    ["s", "string", null],
    ["b", "string", null],
    ["flag", "bool", null],
    ["i32", "int", "1..9"],
    ["u32", "int", null],
    ["s32", "int", null],
    ["f32", "int", null],
    ["sf32", "int", null],
    ["i64", "string", null],
    ["u64", "string", null],
    ["d", "json", null],
    ["f", "json", null],
    ["kind", "shop.Kind", null],
    ["mark", "shop.Mark", null],
    ["part", "shop.Item.Part?", null],
    ["parts", "list[shop.Item.Part]", null],
    ["sizes", "list[int]", "1.."],
    ["counts", "json", null],
    ["maybe", "string?", null],
    ["left", "string?", null],
    ["right", "int?", null],
    ["at", "timestamp?", null],
    ["took", "string?", null],
    ["mask", "string?", null],
    ["st", "json", null],
    ["v", "json", null],
    ["lv", "json", null],
    ["any", "json", null],
    ["nothing", "json", null],
    ["wi32", "int?", "..4"],
    ["wi64", "string?", null],
    ["wd", "json", null],
    ["wb", "bool?", null],
    ["ws", "string?", null],
    ["needed", "shop.Item.Part", null],
    ["empty", "shop.google.protobuf.Empty?", null],
    ["price", "shop.common.v1.Money?", null],
    ["snakeCaseName", "string", null],
    ["other", "string", null],
  ];
  for (const [name, type, range] of want) {
    deepStrictEqual(field(name), { name, type, range }, name);
  }
  strictEqual(m.records.get("shop.Item")?.length, want.length);
  deepStrictEqual(m.enums.get("shop.Kind"), ["KIND_BOOK", "KIND_TOY"]);
  deepStrictEqual(m.enums.get("shop.Mark"), ["MARK_NONE", "MARK_STAR"]);
  deepStrictEqual(m.records.get("shop.google.protobuf.Empty"), []);
  deepStrictEqual(m.records.get("shop.common.v1.Money")?.map((f) => `${f.name}: ${f.type}`), [
    "currency: string",
    "units: string",
  ]);
});

Deno.test("only the types the flow names are made, with what their fields reach", () => {
  const m = made(input("shop.Item.Part"));
  deepStrictEqual(m.codes, []);
  deepStrictEqual([...m.records.keys()], ["shop.Item.Part"]);
  deepStrictEqual([...m.enums.keys()], []);
  const other = made(input("shop.common.v1.Money"));
  deepStrictEqual(other.codes, []);
  deepStrictEqual([...other.records.keys()], ["shop.common.v1.Money"]);
});

Deno.test("Protovalidate's ranges: both ends, one end, const, exclusive bounds, an outside or empty range, zero ignored", () => {
  const p = "(buf.validate.field).";
  const show = (o: Record<string, unknown>) => {
    const r = protoRange(o, p, "int32");
    return r === null ? null : `${r.lo ?? ""}..${r.hi ?? ""}`;
  };
  strictEqual(show({ [`${p}int32.gte`]: 1, [`${p}int32.lte`]: 100 }), "1..100");
  strictEqual(show({ [`${p}int32.gt`]: 0, [`${p}int32.lt`]: 10 }), "1..9");
  strictEqual(show({ [`${p}int32.gte`]: 5 }), "5..");
  strictEqual(show({ [`${p}int32.lt`]: 0 }), "..-1");
  strictEqual(show({ [`${p}int32.const`]: 7 }), "7..7");
  strictEqual(show({ [`${p}int32.gt`]: 10, [`${p}int32.lt`]: 5 }), null, "gt above lt: outside the two");
  strictEqual(show({ [`${p}int32.gt`]: 5, [`${p}int32.lt`]: 6 }), null, "no integer between");
  strictEqual(
    show({ [`${p}int32.gte`]: 5, [`${p}int32.lte`]: 9, [`${p}ignore`]: "IGNORE_IF_ZERO_VALUE" }),
    "0..9",
  );
  strictEqual(show({ [`${p}int32.lte`]: -3, [`${p}ignore`]: "IGNORE_IF_UNPOPULATED" }), "..0");
  strictEqual(show({ [`${p}int32.gte`]: 5, [`${p}ignore`]: "IGNORE_ALWAYS" }), "5..");
  strictEqual(show({ [`${p}uint32.gte`]: 5 }), null, "another family's rules are not this field's");
  strictEqual(show({}), null);
  strictEqual(protoRange(undefined, p, "int32"), null);
});

Deno.test("a zero value is dropped only when its name says no value, its enum's prefix taken off", () => {
  ok(saysUnspecified("OrderState", "ORDER_STATE_UNSPECIFIED"));
  ok(saysUnspecified("Hold", "HOLD_UNSPECIFIED"));
  ok(saysUnspecified("Hold", "UNSPECIFIED"));
  ok(saysUnspecified("Hold", "Hold_Unspecified".toUpperCase()));
  ok(saysUnspecified("HTTPStatus", "HTTPSTATUS_unspecified"));
  ok(!saysUnspecified("Level", "LEVEL_LOW"));
  ok(!saysUnspecified("OrderState", "STATE_UNSPECIFIED_OLD"));
});

Deno.test("a task written with made types matches its method: no E016, it checks clean", () => {
  const flow = `workflow w v1

use proto warehouse from "specs/warehouse.proto"
  url "https://stock.example.com"

inputs
  order : string
  lines : list[warehouse.Line]

task reserve(order_id: string, lines: list[warehouse.Line], site: string) -> warehouse.ReserveResponse
  connect warehouse "StockService/Reserve"

flow
  let r = reserve(order_id: order, lines: lines, site: "tokyo")
  pass
`;
  const warehouse = Deno.readTextFileSync(new URL("flows/apis/warehouse.proto", import.meta.url));
  const m = made(flow, { "specs/warehouse.proto": warehouse });
  deepStrictEqual(m.codes, [], m.messages.join("\n"));
  deepStrictEqual(m.enums.get("warehouse.Hold"), ["HOLD_HELD", "HOLD_SHORT", "HOLD_BACKORDERED"]);
});

Deno.test("names a description's objects inherit find nothing: E002, never a crash", () => {
  for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "v1", "shop.v1"]) {
    const m = made(input(`shop.${name}`));
    deepStrictEqual(m.codes, ["E002"], name);
  }
});

Deno.test(`messages nested deeper than MAX_MESSAGE_DEPTH (${MAX_MESSAGE_DEPTH}) are one E003 saying so`, () => {
  const depth = MAX_MESSAGE_DEPTH + 8;
  const chain = Array.from({ length: depth }, (_, i) => `message M${i} { M${i + 1} next = 1; }`).join("\n");
  const deep = `syntax = "proto3";\npackage deep;\n${chain}\nmessage M${depth} { string end = 1; }\n`;
  const flow =
    'workflow w v1\n\nuse proto deep from "specs/deep.proto"\n\ninputs\n  x : deep.M0\n\nflow\n  pass\n';
  const m = made(flow, { "specs/deep.proto": deep });
  deepStrictEqual(m.codes, ["E003"]);
  ok(m.messages[0].includes("MAX_MESSAGE_DEPTH"), m.messages[0]);
  const shallow = made(flow.replace("deep.M0", `deep.M${depth - MAX_MESSAGE_DEPTH}`), {
    "specs/deep.proto": deep,
  });
  deepStrictEqual(shallow.codes, []);
});

Deno.test("a made type is committed only when sound: a type that reaches a self-containing message makes nothing", () => {
  const node =
    `syntax = "proto3";\npackage t;\nmessage Node { repeated Node kids = 1; }\nmessage Tree { Node root = 1; string name = 2; }\n`;
  const flow =
    'workflow w v1\n\nuse proto t from "specs/t.proto"\n\ninputs\n  x : t.Tree\n  y : t.Tree\n\nflow\n  pass\n';
  const m = made(flow, { "specs/t.proto": node });
  deepStrictEqual(m.codes, ["E003", "E003"], "each place that names it is told");
  deepStrictEqual([...m.records.keys()], []);
});

Deno.test("a method whose request and response are nested messages matches a written record (protobufjs resolves the outer one first)", () => {
  const nested = `syntax = "proto3";
package n.v1;
service S { rpc Get(Outer.Ask) returns (Outer.Answer); }
message Outer {
  message Ask { string id = 1; }
  message Answer { string id = 1; int32 count = 2; }
}
`;
  const flow = `workflow w v1

use proto n from "specs/n.proto"
  url "https://n.example.com"

record Answer
  id    : string
  count : int

task get(id: string) -> Answer
  connect n "S/Get"

flow
  let a = get(id: "x")
  pass
`;
  const m = made(flow, { "specs/n.proto": nested });
  deepStrictEqual(m.codes, [], m.messages.join("\n"));
});

const RANGED = `syntax = "proto3";
package r.v1;
import "buf/validate/validate.proto";
import "google/protobuf/any.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/wrappers.proto";
service S { rpc Put(Ask) returns (Answer); }
message Ask {
  int32 count = 1 [(buf.validate.field).int32 = {gte: 1, lte: 9}];
  int64 total = 2 [(buf.validate.field).int64.gte = 0];
}
message Answer {
  int32 count = 1 [(buf.validate.field).int32 = {gte: 1, lte: 9}];
  google.protobuf.Int32Value boxes = 2;
  google.protobuf.Duration took = 3;
  google.protobuf.Any extra = 4;
  repeated google.protobuf.Struct notes = 5;
  Ask ask = 6 [(buf.validate.field).required = true];
}
`;

/** A flow with one `connect` task `put` of `r.v1.S/Put`, its parameters and result as written. */
function ranged(params: string, result: string, before = ""): Made {
  const flow = `workflow w v1

use proto r from "specs/r.proto"
  url "https://r.example.com"
${before}
task put(${params}) -> ${result}
  connect r "S/Put"

flow
  pass
`;
  return made(flow, { "specs/r.proto": RANGED });
}

Deno.test("made types match the match: wrappers, Duration, Any, a list of Structs, a required message, ranges", () => {
  const m = ranged("count: int range >=1 <=9, total: int range >=0 <=5", "r.Answer");
  deepStrictEqual(m.codes, [], m.messages.join("\n"));
  deepStrictEqual(m.records.get("r.Answer"), [
    { name: "count", type: "int", range: "1..9" },
    { name: "boxes", type: "int?", range: null },
    { name: "took", type: "string?", range: null },
    { name: "extra", type: "json", range: null },
    { name: "notes", type: "list[json]", range: null },
    { name: "ask", type: "r.Ask", range: null },
  ]);
  deepStrictEqual(m.records.get("r.Ask"), [
    { name: "count", type: "int", range: "1..9" },
    { name: "total", type: "string", range: null },
  ]);
});

Deno.test("Protovalidate's ranges in the match: an argument that may pass the field's range, a result wider than the task's", () => {
  const wide = ranged("count: int", "json");
  deepStrictEqual(wide.codes, ["E016"]);
  ok(wide.messages[0].includes("`count` takes only 1 to 9 (Protovalidate's rules)"), wide.messages[0]);
  const total = ranged("count: int range >=1 <=9, total: int range >=-1 <=5", "json");
  deepStrictEqual(total.codes, ["E016"]);
  ok(total.messages[0].includes("`total` takes only 0 or more"), total.messages[0]);
  const narrow = ranged("count: int range >=1 <=9", "Got", "\nrecord Got\n  count : int range >=1 <=5\n");
  deepStrictEqual(narrow.codes, ["E016"]);
  ok(narrow.messages[0].includes("`count` may be 1 to 9"), narrow.messages[0]);
  deepStrictEqual(ranged("count: int range >=2 <=3", "Got", "\nrecord Got\n  count : int\n").codes, []);
});

Deno.test("a made type spelt as a declared one is E006 wherever it is first named, a `let`'s type too", () => {
  const at = (where: string) => made(`${USE}\nrecord shop_Item_Part\n  x : string\n${where}`);
  const asInput = at("\ninputs\n  p : shop.Item.Part\n\nflow\n  pass\n");
  deepStrictEqual(asInput.codes, ["E006"], asInput.messages.join("\n"));
  const asLet = at('\nflow\n  let p: shop.Item.Part = {name: "a"}\n  pass\n');
  deepStrictEqual(asLet.codes, ["E006"], asLet.messages.join("\n"));
  ok(asLet.messages[0].includes("`shop.Item.Part` is written `shop_Item_Part`"), asLet.messages[0]);
});
