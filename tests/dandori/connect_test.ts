/**
 * A `connect` task's call (lang/dandori/connect.ts, docs/dandori.md#connect-calls): the plan's
 * `connect` part made from a `.proto` (the path, each argument's JSON name, a 64-bit field, a
 * message's fields, the fill table with every message the answer may hold), the request's body, and
 * the fill: zero values for fields without presence left out or null, none for fields with presence,
 * inside messages that are there and lists of them, a list's zero where it is left out, hostile names
 * kept as the service's own, and a self-containing message filled no deeper than MAX_MESSAGE_DEPTH;
 * and the scenarios' results of a `connect` task, each one protobuf-es reads as the response message.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { stringifyJson } from "../../lang/common/json.ts";
import { filledResponse, type FillTable, requestBody } from "../../lang/dandori/connect.ts";
import { MAX_MESSAGE_DEPTH } from "../../lang/dandori/proto.ts";
import { generateFlowScenarios } from "../../lang/dandori/scenarios.ts";
import { isRecord } from "../../lang/dandori/values.ts";
import { asMessage, startConnectServer } from "../../verify/dandori/connect_server.ts";
import { checkedFlowAt } from "../../verify/dandori/flows.ts";
import { runCli } from "../support/run.ts";

const PROTO = `syntax = "proto3";
package shop.v1;
import "google/protobuf/struct.proto";
service Stock { rpc Hold(HoldRequest) returns (Held); }
enum State { STATE_UNSPECIFIED = 0; STATE_HELD = 1; }
message Line { string sku = 1; int64 units = 2; }
message HoldRequest { string order_id = 1; repeated Line lines = 2; int64 total = 3; }
message Held {
  string hold_id = 1;
  State state = 2;
  int64 units = 3;
  repeated Line lines = 4;
  Line first = 5;
  optional string note = 6;
  google.protobuf.Struct detail = 7;
  map<string, int32> counts = 8;
  bool done = 9;
}
`;

const FLOW = `workflow w v1

use proto shop from "specs/shop.proto"
  url "https://shop.example/"

enum State = STATE_HELD

record Line
  sku   : string
  units : string

record Sent
  sku   : string
  units : int

record Held
  holdId : string
  state  : State
  units  : string
  lines  : list[Line]
  first  : Line?
  note   : string?
  detail : json
  counts : json
  done   : bool

task hold(order_id: string, lines: list[Sent], total: int) -> Held
  connect shop "Stock/Hold"
  key
  errors gone = not_found, late = deadline_exceeded

flow
  let h = hold(order_id: "o-1", lines: [{ sku: "a", units: 2 }], total: 3)
  succeed
`;

Deno.test("a connect task lowers to a POST of its method's path with the request's and the answer's tables", () => {
  const run = runCli(["dandori", "plan", "repo/w.flow"], {
    files: { "repo/w.flow": FLOW, "repo/specs/shop.proto": PROTO },
  });
  strictEqual(run.code, 0, run.stdout + run.stderr);
  const task = JSON.parse(run.stdout).tasks[0];
  deepStrictEqual(task.key, { in: "header", name: "Idempotency-Key" });
  deepStrictEqual(task.errors, [{ name: "gone", wire: "404" }, { name: "late", wire: "504" }]);
  deepStrictEqual(task.callee, {
    kind: "http",
    method: "POST",
    url: [{ text: "https://shop.example/shop.v1.Stock/Hold" }],
    form: false,
    rest: ["order_id", "lines", "total"],
    restIn: "body",
    connect: {
      request: [
        { name: "order_id", json: "orderId", sent: { kind: "as is" } },
        {
          name: "lines",
          json: "lines",
          sent: {
            kind: "message",
            fields: [
              { name: "sku", json: "sku", sent: { kind: "as is" } },
              { name: "units", json: "units", sent: { kind: "int64" } },
            ],
          },
        },
        { name: "total", json: "total", sent: { kind: "int64" } },
      ],
      fill: {
        top: "shop.v1.Held",
        messages: [
          {
            name: "shop.v1.Held",
            fields: [
              { json: "holdId", zero: "" },
              { json: "state", zero: "STATE_UNSPECIFIED" },
              { json: "units", zero: "0" },
              { json: "lines", zero: [], message: "shop.v1.Line" },
              { json: "first", message: "shop.v1.Line" },
              { json: "detail", zero: null },
              { json: "counts", zero: {} },
              { json: "done", zero: false },
            ],
          },
          { name: "shop.v1.Line", fields: [{ json: "sku", zero: "" }, { json: "units", zero: "0" }] },
        ],
      },
    },
  });
});

const TABLE: FillTable = {
  top: "shop.v1.Held",
  messages: [
    {
      name: "shop.v1.Held",
      fields: [
        { json: "holdId", zero: "" },
        { json: "units", zero: "0" },
        { json: "lines", zero: [], message: "shop.v1.Line" },
        { json: "first", message: "shop.v1.Line" },
        { json: "detail", zero: null },
        { json: "__proto__", zero: 0n },
      ],
    },
    { name: "shop.v1.Line", fields: [{ json: "sku", zero: "" }, { json: "units", zero: "0" }] },
  ],
};

Deno.test("the request: JSON names in the request's order, an int to a 64-bit field as text, none not sent", () => {
  const request = [
    { name: "order_id", json: "orderId", sent: { kind: "as is" } },
    {
      name: "lines",
      json: "lines",
      sent: { kind: "message", fields: [{ name: "units", json: "units", sent: { kind: "int64" } }] },
    },
    { name: "total", json: "total", sent: { kind: "int64" } },
    { name: "note", json: "note", sent: { kind: "as is" } },
  ] as const;
  const body = requestBody(request, {
    total: 9007199254740993n,
    lines: [{ units: 2n }],
    order_id: "o",
    note: null,
  });
  deepStrictEqual(
    JSON.stringify(body, (_, v) => typeof v === "bigint" ? Number(v) : v),
    '{"orderId":"o","lines":[{"units":"2"}],"total":"9007199254740993"}',
  );
});

Deno.test("the fill: zero values where left out or null, inside messages and lists of them; presence never filled", () => {
  deepStrictEqual(filledResponse(TABLE, {}), {
    holdId: "",
    units: "0",
    lines: [],
    detail: null,
    ["__proto__"]: 0n,
  });
  const filled = filledResponse(TABLE, { units: null, lines: [{ sku: "a" }, {}], first: { units: "4" } });
  deepStrictEqual(
    JSON.stringify(filled, (_, v) => typeof v === "bigint" ? Number(v) : v),
    JSON.stringify({
      units: "0",
      lines: [{ sku: "a", units: "0" }, { sku: "", units: "0" }],
      first: { units: "4", sku: "" },
      holdId: "",
      detail: null,
      ["__proto__"]: 0,
    }),
  );
  strictEqual(
    Object.getPrototypeOf(filled),
    Object.prototype,
    "`__proto__` is the service's field, not a prototype",
  );
  deepStrictEqual(
    filledResponse(TABLE, []),
    [],
    "an answer that is no message is left for the result's check",
  );
  deepStrictEqual(filledResponse(TABLE, { lines: "x", first: [1] }), {
    lines: "x",
    first: [1],
    holdId: "",
    units: "0",
    detail: null,
    ["__proto__"]: 0n,
  });
});

Deno.test("a message that contains itself is filled MAX_MESSAGE_DEPTH messages deep, no deeper", () => {
  const table: FillTable = {
    top: "n.Node",
    messages: [{ name: "n.Node", fields: [{ json: "name", zero: "" }, { json: "next", message: "n.Node" }] }],
  };
  let deep: Record<string, unknown> = {};
  for (let i = 0; i < MAX_MESSAGE_DEPTH + 5; i++) deep = { next: deep };
  let at = filledResponse(table, deep as never) as Record<string, unknown>;
  let filledLevels = 0;
  while (at !== undefined && typeof at === "object") {
    if (at.name === "") filledLevels++;
    at = at.next as Record<string, unknown>;
  }
  strictEqual(filledLevels, MAX_MESSAGE_DEPTH + 1);
});

const WRITTEN_PROTO = `syntax = "proto3";
package shop.v1;
import "google/protobuf/struct.proto";
service Stock { rpc Hold(HoldRequest) returns (Held); }
message HoldRequest { string order_id = 1; }
message Line { string sku = 1; int64 units = 2; bytes tag = 3; }
message Held {
  int64 units = 1;
  repeated int64 counts = 2;
  double weight = 3;
  bytes token = 4;
  google.protobuf.ListValue marks = 5;
  map<string, int32> stock = 6;
  optional string note = 7;
  repeated Line lines = 8;
  Line first = 9;
}
`;

const WRITTEN_FLOW = `workflow w v1

use proto shop from "shop.proto"
  url "https://shop.example"

record Line
  sku   : string
  units : string
  tag   : string

record Held
  units  : string
  counts : list[string]
  weight : json
  token  : string
  marks  : json
  stock  : json
  note   : string?
  lines  : list[Line]
  first  : Line?

task hold(order_id: string) -> Held
  connect shop "Stock/Hold"

flow
  let h = hold(order_id: "o-1")
  succeed
`;

Deno.test("every result the scenarios give a connect task is a message protobuf-es reads as the method's response, strictly", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "dandori-written-" });
  try {
    Deno.writeTextFileSync(`${dir}/shop.proto`, WRITTEN_PROTO);
    Deno.writeTextFileSync(`${dir}/w.flow`, WRITTEN_FLOW);
    const flow = checkedFlowAt(`${dir}/`, "w.flow");
    ok(flow !== null, "w.flow checks");
    const server = await startConnectServer(`${dir}/shop.proto`);
    if ("missing" in server) return console.log(`SKIP: buf: ${server.missing}`);
    try {
      const output = server.output("/shop.v1.Stock/Hold");
      ok(output !== null);
      const results = generateFlowScenarios(flow.checked, flow.plan).scenarios.flatMap((s) =>
        s.answers.flatMap((a) => a.kind === "ok" && isRecord(a.value) ? [a.value] : [])
      );
      ok(results.length >= 3, `${results.length} results`);
      for (const r of results) {
        const json = JSON.parse(stringifyJson(r));
        ok(asMessage(output, json) !== null, `protobuf-es reads ${JSON.stringify(json)}`);
        ok(!Object.values(json).includes(null), "no field is written as null");
      }
      const full = results.find((r) => Array.isArray(r.lines) && r.lines.length > 0 && r.first !== undefined);
      ok(full !== undefined, "a result holds a line and a first line");
      deepStrictEqual(
        [typeof full.units, typeof full.weight, Array.isArray(full.marks), full.stock],
        ["string", "bigint", true, {}],
      );
      ok(/^\d+$/.test(String(full.units)), "a 64-bit integer is decimal text");
      strictEqual(atob(String(full.token)).startsWith("token-"), true, "bytes are base64 of the made text");
    } finally {
      await server.close();
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
