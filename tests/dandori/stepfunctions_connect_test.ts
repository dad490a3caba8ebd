/**
 * A `connect` task on Step Functions (targets/dandori/stepfunctions/connect.ts): the JSONata that
 * writes the request body and fills the answer's zero values, evaluated by JSONata 2.0.6 (the ASL
 * runner's), gives what the reference interpreter's `requestBody` and `filledResponse` give, key
 * order included, on answers no scenario generates (lists of one item, items that are arrays, a
 * message that is no object, names that are JSONata syntax, a message that contains itself past
 * MAX_MESSAGE_DEPTH); and a JSON name every JavaScript object has is E050 at the task.
 */

import { strictEqual } from "node:assert/strict";
import jsonata from "jsonata";
import { stringifyJson } from "../../lang/common/json.ts";
import { filledResponse, type FillTable, requestBody, type SentField } from "../../lang/dandori/connect.ts";
import { MAX_MESSAGE_DEPTH } from "../../lang/dandori/proto.ts";
import type { Value } from "../../lang/dandori/values.ts";
import { connectBody, connectFilled } from "../../targets/dandori/stepfunctions/connect.ts";
import { runCli } from "../support/run.ts";

/** JSON text with the interpreter's bigints as numbers, keys in their order. */
const text = (v: unknown) => JSON.stringify(v, (_, x) => typeof x === "bigint" ? Number(x) : x);

const ODD = 'a`b"c $d';

const TABLE: FillTable = {
  top: "s.Held",
  messages: [
    {
      name: "s.Held",
      fields: [
        { json: "holdId", zero: "" },
        { json: "state", zero: "STATE_UNSPECIFIED" },
        { json: "units", zero: "0" },
        { json: "lines", zero: [], message: "s.Line" },
        { json: "first", message: "s.Line" },
        { json: "detail", zero: null },
        { json: "counts", zero: {} },
        { json: "tags", zero: [] },
        { json: "done", zero: false },
        { json: ODD, zero: 0n },
      ],
    },
    { name: "s.Line", fields: [{ json: "sku", zero: "" }, { json: "units", zero: "0" }] },
  ],
};

const ANSWERS: readonly Value[] = [
  {},
  { holdId: null, units: null, lines: null, first: null, counts: null, done: null, [ODD]: null },
  { done: true, holdId: "h", [ODD]: 7n },
  { lines: [{ sku: "a" }] },
  { lines: [{}, { units: "3" }, [], [[1]], "x", null] },
  { lines: "x", first: [1], tags: ["t"] },
  { first: { units: "4" }, zz: 1n, lines: [[{ sku: "b" }]] },
  [],
  "text",
  null,
];

Deno.test("the JSONata fill gives what the interpreter's fill gives, answer by answer", async () => {
  const expression = jsonata(connectFilled(TABLE, "$"));
  for (const answer of ANSWERS) {
    const got = await expression.evaluate(JSON.parse(stringifyJson(answer)));
    strictEqual(text(got ?? null), text(filledResponse(TABLE, answer)), text(answer));
  }
});

Deno.test("a message that contains itself is filled MAX_MESSAGE_DEPTH messages deep by JSONata too", async () => {
  const table: FillTable = {
    top: "n.Node",
    messages: [{ name: "n.Node", fields: [{ json: "name", zero: "" }, { json: "next", message: "n.Node" }] }],
  };
  let deep: Value = {};
  for (let i = 0; i < MAX_MESSAGE_DEPTH + 5; i++) deep = { next: deep };
  const got = await jsonata(connectFilled(table, "$")).evaluate(deep);
  strictEqual(text(got), text(filledResponse(table, deep)));
});

const REQUEST: readonly SentField[] = [
  { name: "order_id", json: "orderId", sent: { kind: "as is" } },
  {
    name: "lines",
    json: ODD,
    sent: {
      kind: "message",
      fields: [
        { name: "sku", json: "sku", sent: { kind: "as is" } },
        { name: "units", json: "units", sent: { kind: "int64" } },
        { name: "note", json: "note", sent: { kind: "as is" } },
      ],
    },
  },
  {
    name: "first",
    json: "first",
    sent: { kind: "message", fields: [{ name: "units", json: "u", sent: { kind: "int64" } }] },
  },
  { name: "total", json: "total", sent: { kind: "int64" } },
  { name: "counts", json: "counts", sent: { kind: "int64" } },
  { name: "detail", json: "detail", sent: { kind: "as is" } },
];

const ARGS: readonly Record<string, Value>[] = [
  { order_id: "o", lines: [{ sku: "a", units: 2n, note: null }], total: 3n, counts: [1n, 2n], detail: [[1]] },
  { order_id: null, lines: [], first: { units: 5n }, total: null, counts: [4n] },
  { lines: [{ sku: "a", units: 1n }, { sku: "b", units: 9007199254740991n, note: "n" }], first: null },
];

Deno.test("the JSONata body gives what the interpreter's body gives, call by call", async () => {
  const given = new Map(REQUEST.map((f) => [f.name, `$lookup($, ${JSON.stringify(f.name)})`]));
  const expression = jsonata(connectBody(REQUEST, given));
  for (const args of ARGS) {
    const got = await expression.evaluate(JSON.parse(stringifyJson(args)));
    strictEqual(text(got), text(requestBody(REQUEST, args)), text(args));
  }
});

Deno.test("a connect task whose answer holds a field JSON-named as a member of every object is E050 on Step Functions", () => {
  const proto = `syntax = "proto3";
package s;
service Stock { rpc Hold(HoldRequest) returns (Held); }
message HoldRequest { string order_id = 1; }
message Held { string hold_id = 1; int32 odd = 2 [json_name = "constructor"]; }
`;
  const flow = `workflow w v1

use proto shop from "shop.proto"
  url "https://shop.example"

record Held
  holdId : string

task hold(order_id: string) -> Held
  connect shop "Stock/Hold"
  connection "arn:aws:events:ap-northeast-1:123456789012:connection/shop/6a2b3c4d-0000-4000-8000-000000000011"

flow
  let h = hold(order_id: "o")
  succeed
`;
  const run = runCli(["dandori", "build", "w.flow", "--target", "stepfunctions", "--out", "out"], {
    files: { "w.flow": flow, "shop.proto": proto },
  });
  strictEqual(run.code, 1, run.stdout + run.stderr);
  strictEqual(
    run.stderr.split("\n")[0],
    "error[E050]: w.flow:9:1: Step Functions cannot carry a field named `constructor`: JSONata reads it from every object when it is absent, and cannot build an object with it",
  );
});
