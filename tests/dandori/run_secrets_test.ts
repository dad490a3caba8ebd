/**
 * `dandori run` masks secret values (docs/dandori.md#secrets-in-a-run): what a scenario gives at a
 * place marked `secret` (an input, a record's field, a task's argument or result) is `<secret>`
 * wherever the run shows it or a value made from it, in the text, the JSON and its replay, in both
 * languages; every other value is shown as it is.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { runCli } from "../support/run.ts";

const FLOW = `workflow payout v1
  history encrypted

record Account
  id     : string
  number : string secret

inputs
  account : Account
  pin     : string secret
  vip     : bool secret

outputs
  receipt : string

task fetch_token(account_id: string) -> string secret
task pay(account_id: string, reference: string, vip: bool)
task check_pin(pin: string secret) -> bool

flow
  let token = fetch_token(account_id: account.id)
  pay(account_id: account.id, reference: "payout to {account.number} with {token}", vip: vip)
  let ok = check_pin(pin: pin)
  succeed receipt = "paid with {token}"

on failure
  fail PayoutFailed "the payout to {account.number} failed"
`;

const INPUT = { account: { id: "acc-7", number: "4111111111111111" }, pin: "2468", vip: true };
const SCENARIOS = [
  { input: INPUT, answers: [{ ok: "tok_9f8e7d" }, { ok: null }, { ok: true }] },
  { input: INPUT, answers: [{ ok: "tok_9f8e7d" }, { error: "failure" }] },
];
const FILES = { "payout.flow": FLOW, "s.json": JSON.stringify(SCENARIOS) };
const SECRETS = ["4111111111111111", "2468", "tok_9f8e7d"];

Deno.test("dandori run shows no secret value, in text and JSON, in both languages", () => {
  for (const lang of ["en", "ja"] as const) {
    for (const format of ["text", "json"]) {
      const run = runCli(
        [
          "dandori",
          "run",
          "payout.flow",
          "--scenario",
          "s.json",
          "--format",
          format,
          "--lang",
          lang,
          "--books",
          "computed",
        ],
        { files: FILES },
      );
      strictEqual(run.code, 0, run.stderr);
      for (const s of SECRETS) ok(!run.stdout.includes(s), `${s} in\n${run.stdout}`);
      for (const shown of ["acc-7", "payout to <secret> with <secret>", "paid with <secret>"]) {
        ok(run.stdout.includes(shown), `${shown} not in\n${run.stdout}`);
      }
      ok(run.stdout.includes("the payout to <secret> failed"), run.stdout);
    }
  }
});

Deno.test("dandori run masks a secret bool where it is marked and where it is passed on; the replay is masked", () => {
  const run = runCli(
    ["dandori", "run", "payout.flow", "--scenario", "s.json", "--format", "json", "--books", "computed"],
    { files: FILES },
  );
  const [first] = JSON.parse(run.stdout);
  deepStrictEqual(first.calls.map((c: { view: unknown }) => c.view), [
    { task: "fetch_token", args: { account_id: "acc-7" } },
    {
      task: "pay",
      args: { account_id: "acc-7", reference: "payout to <secret> with <secret>", vip: "<secret>" },
    },
    { task: "check_pin", args: { pin: "<secret>" } },
  ]);
  deepStrictEqual(first.calls.map((c: { answer: unknown }) => c.answer), [{ ok: "<secret>" }, { ok: null }, {
    ok: true,
  }]);
  deepStrictEqual(first.replay.input, {
    account: { id: "acc-7", number: "<secret>" },
    pin: "<secret>",
    vip: "<secret>",
  });
  deepStrictEqual(first.ending, { succeed: { receipt: "paid with <secret>" } });
});

Deno.test("dandori run masks a child flow's secret output in the answer of its task, and in its own calls", () => {
  const parent = `workflow parent v1

record Delivery
  tracking : string

inputs
  order : string

outputs
  tracking : string

task deliver(order: string) -> Delivery
  flow "child.flow"

flow
  let d = deliver(order: order)
  succeed tracking = d.tracking
`;
  const child = `workflow child v1
  history encrypted

inputs
  order : string

outputs
  tracking : string secret

task book_carrier(order: string) -> string secret

flow
  let tracking = book_carrier(order: order)
  succeed tracking = tracking
`;
  const files = {
    "parent.flow": parent,
    "child.flow": child,
    "answered.json": JSON.stringify({ input: { order: "o-1" }, answers: [{ ok: { tracking: "TRK-77" } }] }),
    "run.json": JSON.stringify({ input: { order: "o-1" }, answers: [{ ok: "TRK-77" }] }),
  };
  for (const args of [["--scenario", "answered.json"], ["--scenario", "run.json", "--children", "run"]]) {
    const run = runCli(["dandori", "run", "parent.flow", ...args], { files });
    strictEqual(run.code, 0, run.stderr);
    ok(!run.stdout.includes("TRK-77") && run.stdout.includes("o-1"), run.stdout);
  }
});
