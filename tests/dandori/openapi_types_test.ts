/**
 * Types made from `use openapi` descriptions (lang/dandori/openapi_types.ts,
 * docs/dandori.md#types-from-openapi-descriptions), beyond the golden flows (`openapi_types.flow`,
 * `proto_type_faults.flow`): every row of the reading, names by component and by property, only what
 * the flow names made, a schema that contains itself, a property a flow cannot write, a `$ref` loop,
 * deep schemas, names every object inherits.
 */

import { deepStrictEqual, ok } from "node:assert/strict";
import { checkFlow } from "../../lang/dandori/check.ts";
import { type FileRead, NO_SUCH_FILE } from "../../lang/dandori/env.ts";
import { MAX_SCHEMA_DEPTH } from "../../lang/dandori/openapi_schemas.ts";
import { showTy } from "../../lang/dandori/types.ts";

const PATHS = { "/x": { get: { responses: { "200": { description: "ok" } } } } };

/** A description whose `components.schemas` are `schemas`. */
function description(schemas: Record<string, unknown>): string {
  return JSON.stringify({
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    servers: [{ url: "https://api.example.com" }],
    paths: PATHS,
    components: { schemas },
  });
}

const SHOP = description({
  Item: {
    type: "object",
    required: ["id", "kind", "count", "tags", "price", "note", "seller"],
    properties: {
      id: { type: "string" },
      at: { type: "string", format: "date-time" },
      day: { type: "string", format: "date" },
      kind: { type: "string", enum: ["book", "toy"] },
      label: { type: "string", enum: ["in-stock", "gone"] },
      count: { type: "integer", minimum: 1, maximum: 9 },
      over: { type: "integer", exclusiveMinimum: 0 },
      price: { type: "number" },
      flag: { type: "boolean" },
      tags: { type: "array", items: { type: "integer", maximum: 5 } },
      grid: { type: "array", items: { type: "array", items: { type: "string" } } },
      extra: { type: "object", additionalProperties: { type: "string" } },
      any: {},
      either: { anyOf: [{ type: "string" }, { type: "integer" }] },
      maybe: { anyOf: [{ type: "string" }, { type: "null" }] },
      note: { type: "string", nullable: true },
      seller: { $ref: "#/components/schemas/Seller" },
      box: { type: "object", properties: { size: { type: "integer" } } },
      owner: {
        anyOf: [{ type: "string" }, { $ref: "#/components/schemas/Seller" }],
        "x-expansionResources": { oneOf: [{ $ref: "#/components/schemas/Seller" }] },
      },
    },
  },
  Seller: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
  Unused: { type: "object", properties: { x: { type: "string" } } },
  Node: {
    type: "object",
    properties: { kids: { type: "array", items: { $ref: "#/components/schemas/Node" } } },
  },
  Odd: { type: "object", properties: { "not-a-name": { type: "string" } } },
  Loop: { $ref: "#/components/schemas/Loop2" },
  Loop2: { $ref: "#/components/schemas/Loop" },
});

interface Made {
  readonly codes: readonly string[];
  readonly messages: readonly string[];
  readonly records: ReadonlyMap<string, readonly string[]>;
  readonly enums: ReadonlyMap<string, readonly string[]>;
}

/** Checks a flow whose input is of the type `ty`, beside `specs/shop.json`. */
function made(ty: string, spec = SHOP): Made {
  const flow =
    `workflow w v1\n\nuse openapi shop from "specs/shop.json"\n\ninputs\n  x : ${ty}\n\nflow\n  pass\n`;
  const read = (p: string): FileRead =>
    p === "specs/shop.json" ? { bytes: new TextEncoder().encode(spec), real: `/repo/${p}` } : NO_SUCH_FILE;
  const result = checkFlow("w.flow", flow, { read });
  const model = result.model ?? result.typedFlow?.model ?? null;
  const show = (
    f: {
      name: string;
      type: Parameters<typeof showTy>[0];
      range: { lo: bigint | null; hi: bigint | null } | null;
    },
  ) => `${f.name}: ${showTy(f.type)}${f.range === null ? "" : ` ${f.range.lo ?? ""}..${f.range.hi ?? ""}`}`;
  return {
    codes: result.diagnostics.map((d) => d.code),
    messages: result.diagnostics.map((d) => d.message.en),
    records: new Map([...(model?.types.records.values() ?? [])].map((r) => [r.name, r.fields.map(show)])),
    enums: new Map([...(model?.types.enums.values() ?? [])].map((e) => [e.name, e.values])),
  };
}

Deno.test("every row of the reading: strings, dates, enums, integers with ranges, numbers, lists, objects, alternatives, expandable fields", () => {
  const m = made("shop.Item");
  deepStrictEqual(m.codes, [], m.messages.join("\n"));
  deepStrictEqual(m.records.get("shop.Item"), [
    "id: string",
    "at: timestamp?",
    "day: date?",
    "kind: shop.Item.kind",
    "label: string?",
    "count: int 1..9",
    "over: int? 1..",
    "price: json",
    "flag: bool?",
    "tags: list[int] ..5",
    "grid: json",
    "extra: json",
    "any: json",
    "either: json",
    "maybe: string?",
    "note: string?",
    "seller: shop.Seller",
    "box: shop.Item.box?",
    "owner: string?",
  ]);
  deepStrictEqual(m.records.get("shop.Seller"), ["name: string"]);
  deepStrictEqual(m.records.get("shop.Item.box"), ["size: int?"]);
  deepStrictEqual(m.enums.get("shop.Item.kind"), ["book", "toy"]);
  deepStrictEqual([...m.records.keys()].sort(), ["shop.Item", "shop.Item.box", "shop.Seller"]);
});

Deno.test("faults: no such schema, one that contains itself, a property a flow cannot write, a `$ref` loop; each one error, nothing made", () => {
  const cases: [string, string, RegExp][] = [
    ["shop.Itme", "E002", /no schema `Itme`/],
    ["shop.Node", "E003", /`shop\.Node` contains itself/],
    ["shop.Odd", "E003", /`not-a-name` of `shop\.Odd`/],
    ["shop.Loop", "E002", /the description loops/],
    ["shop.constructor", "E002", /no schema `constructor`/],
    ["shop.__proto__", "E002", /no schema `__proto__`/],
  ];
  for (const [ty, code, message] of cases) {
    const m = made(ty);
    deepStrictEqual(m.codes, [code], ty);
    ok(message.test(m.messages[0]), `${ty}: ${m.messages[0]}`);
    deepStrictEqual([...m.records.keys()], [], ty);
  }
});

Deno.test(`schemas nested deeper than MAX_SCHEMA_DEPTH (${MAX_SCHEMA_DEPTH}) are one E003 saying so`, () => {
  const n = MAX_SCHEMA_DEPTH + 4;
  const chain: Record<string, unknown> = { [`S${n}`]: { type: "string" } };
  for (let i = 0; i < n; i++) {
    chain[`S${i}`] = { type: "object", properties: { next: { $ref: `#/components/schemas/S${i + 1}` } } };
  }
  const m = made("shop.S0", description(chain));
  deepStrictEqual(m.codes, ["E003"]);
  ok(m.messages[0].includes("MAX_SCHEMA_DEPTH"), m.messages[0]);
  deepStrictEqual(made(`shop.S${n - MAX_SCHEMA_DEPTH + 1}`, description(chain)).codes, []);
});
