/**
 * `use smithy` (lang/dandori/smithy.ts, docs/dandori.md#smithy-models): how a model is read (a missing
 * file, an absolute path, not JSON, another version, no shapes, not one service: each one E016 at the
 * `use`), what the match says beyond the golden flows (`smithy_models.flow`, `smithy_calls.flow`): a
 * target the model does not have, shapes that contain themselves (bounded, and said), `@range`, `T?`
 * for a `@required` member, the SDK's idempotency token, a callback's answer, the model deciding which
 * operations exist, names a hostile model may hold.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { MAX_SCHEMA_DEPTH } from "../../lang/dandori/openapi_schemas.ts";
import { runCli } from "../support/run.ts";

interface Diag {
  readonly code: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
  readonly notes: readonly string[];
}

const S = "smithy.api#";
const REQUIRED = { [`${S}required`]: {} };
const str = (traits: Record<string, unknown> = {}) => ({ target: `${S}String`, traits });

/**
 * A small model: `Send` with a ranged, a required and a token member; shapes that contain themselves;
 * one operation with a broken target; resources that name each other, with an operation each.
 */
function model(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    smithy: "2.0",
    shapes: {
      "t.q#Queue": {
        type: "service",
        operations: [{ target: "t.q#Send" }, { target: "t.q#Walk" }, { target: "t.q#Broken" }],
        resources: [{ target: "t.q#Box" }],
        errors: [{ target: "t.q#Busy" }],
      },
      "t.q#Box": { type: "resource", resources: [{ target: "t.q#Lid" }], read: { target: "t.q#GetBox" } },
      "t.q#Lid": {
        type: "resource",
        resources: [{ target: "t.q#Box" }],
        operations: [{ target: "t.q#Open" }],
      },
      "t.q#GetBox": { type: "operation", input: { target: "t.q#SendOut" } },
      "t.q#Open": { type: "operation" },
      "t.q#Send": {
        type: "operation",
        input: { target: "t.q#SendIn" },
        output: { target: "t.q#SendOut" },
      },
      "t.q#SendIn": {
        type: "structure",
        members: {
          Body: str(REQUIRED),
          Token: str({ ...REQUIRED, [`${S}idempotencyToken`]: {} }),
          Tries: { target: "t.q#Tries" },
        },
      },
      "t.q#SendOut": { type: "structure", members: { Id: str(), Count: { target: `${S}Integer` } } },
      "t.q#Tries": { type: "integer", traits: { [`${S}range`]: { min: 1, max: 10 } } },
      "t.q#Walk": { type: "operation", input: { target: "t.q#Node" }, output: { target: "t.q#Nest" } },
      "t.q#Node": { type: "structure", members: { name: str(), next: { target: "t.q#Node" } } },
      "t.q#Nest": { type: "structure", members: { deep: { target: "t.q#Deep" } } },
      "t.q#Deep": { type: "list", member: { target: "t.q#Deep" } },
      "t.q#Broken": { type: "operation", input: { target: "t.q#BrokenIn" } },
      "t.q#BrokenIn": { type: "structure", members: { gone: { target: "t.q#Missing" } } },
      "t.q#Busy": { type: "structure", members: {}, traits: { [`${S}error`]: "server" } },
      ...extra,
    },
  });
}

const HEAD = "workflow w v1\n";
const USE = 'use smithy sqs from "specs/q.json"\n';
const TAIL = "\nflow\n  pass\n";

function check(flow: string, files: Record<string, string> = { "specs/q.json": model() }) {
  const run = runCli(["dandori", "check", "shop/w.flow", "--format", "json"], {
    files: {
      "shop/w.flow": flow,
      ...Object.fromEntries(Object.entries(files).map(([p, v]) => [`shop/${p}`, v])),
    },
  });
  const diags: Diag[] = JSON.parse(run.stdout).files[0].diagnostics;
  return { code: run.code, diags };
}

function only(flow: string, files?: Record<string, string>): Diag {
  const { diags } = check(flow, files);
  strictEqual(diags.length, 1, JSON.stringify(diags, null, 1));
  return diags[0];
}

/** A flow of `use smithy sqs` and one task `t` called by `aws sqs:<operation>`. */
function task(line: string, items = "  aws sqs:send\n", before = ""): string {
  return `${HEAD}${USE}${before}\ntask t${line}\n${items}${TAIL}`;
}

Deno.test("a model that cannot be read is one E016 at the `use`'s path, saying why", () => {
  const cases: [Record<string, string>, string][] = [
    [{}, "there is no such file"],
    [{ "specs/q.json": '{\n  "smithy": "2.0",\n  "shapes": {,}\n}' }, "it is not JSON (3:14"],
    [{ "specs/q.json": "[]" }, "it is not a JSON object"],
    [{ "specs/q.json": '{"shapes": {}}' }, "it says no `smithy` version"],
    [
      { "specs/q.json": '{"smithy": "3.0", "shapes": {}}' },
      'it says "3.0"; dandori reads Smithy\'s JSON AST',
    ],
    [{ "specs/q.json": '{"smithy": "2.0"}' }, "it has no `shapes` object"],
    [{ "specs/q.json": '{"smithy": "2.0", "shapes": {}}' }, "it has 0 `service` shapes"],
    [{ "specs/q.json": model({ "t.q#Other": { type: "service" } }) }, "it has 2 `service` shapes"],
  ];
  for (const [files, why] of cases) {
    const d = only(`${HEAD}${USE}${TAIL}`, files);
    deepStrictEqual([d.code, d.line, d.col], ["E016", 2, 21], why);
    ok(d.message.startsWith('the Smithy model "specs/q.json" cannot be read: '), d.message);
    ok(d.message.includes(why), `${why}: ${d.message}`);
  }
  const absolute = only(`${HEAD}use smithy sqs from "/etc/q.json"\n${TAIL}`);
  ok(absolute.message.endsWith("cannot be read: the path is absolute"), absolute.message);
});

Deno.test("nothing is written under `use smithy` (E007); `use smithy` is read", () => {
  const item = only(`${HEAD}${USE}  url "https://sqs.example"\n${TAIL}`);
  deepStrictEqual([item.code, item.line], ["E007", 3]);
  deepStrictEqual(check(`${HEAD}${USE}${TAIL}`).diags, []);
});

Deno.test("a flow whose task fits its operation gets nothing: the SDK fills a required idempotency token", () => {
  const out = "\nrecord Out\n  Id    : string\n  Count : int\n";
  deepStrictEqual(check(task("(Body: string, Tries: int range >=1 <=5) -> Out", undefined, out)).diags, []);
  deepStrictEqual(
    check(task("(Body: string, Token: string?) -> Out", "  aws sqs:send\n  key Token\n", out)).diags,
    [],
  );
});

Deno.test("`@range`, a `@required` member passed as `T?`, a result field the output lacks: one E016 each", () => {
  const range = only(task("(Body: string, Tries: int)"));
  deepStrictEqual([range.code, range.line], ["E016", 4]);
  ok(range.message.includes("it takes only 1 to 10 (`@range`)"), range.message);
  deepStrictEqual(range.notes, ["in the description `sqs` at t.q#SendIn$Tries"]);
  const maybe = only(task("(Body: string?)"));
  ok(maybe.message.includes("the operation requires `Body` (`@required`), and `string?` may have no value"));
  const field = only(task("(Body: string) -> Out", undefined, "\nrecord Out\n  Idd : string\n"));
  ok(field.message.includes("the response has no member `Idd`; did you mean `Id`?"), field.message);
  deepStrictEqual(field.notes, ["in the description `sqs` at t.q#SendOut"]);
});

Deno.test("a record goes to a string member only as SQS sendMessage's MessageBody (JSON_TEXT_MEMBERS)", () => {
  const rec = "\nrecord Note\n  id : string\n";
  const d = only(task("(Body: Note)", undefined, rec));
  ok(
    d.message.includes("`Note` does not fit what the operation takes here: it is a Smithy `string`"),
    d.message,
  );
  const sqs = JSON.stringify({
    smithy: "2.0",
    shapes: {
      "t.q#Queue": { type: "service", operations: [{ target: "t.q#SendMessage" }] },
      "t.q#SendMessage": { type: "operation", input: { target: "t.q#In" } },
      "t.q#In": { type: "structure", members: { MessageBody: str(REQUIRED) } },
    },
  });
  deepStrictEqual(
    check(task("(MessageBody: Note)", "  aws sqs:sendMessage\n", rec), { "specs/q.json": sqs }).diags,
    [],
  );
});

Deno.test("a callback task's answer is the callback's: its result is not compared with the output", () => {
  const flow = task(
    "(Body: string) -> Answer",
    "  aws sqs:send\n  callback\n",
    "\nrecord Answer\n  ok : bool\n",
  );
  const diags = check(flow).diags.filter((d) => d.code === "E016");
  deepStrictEqual(diags, []);
});

Deno.test("a target the model does not have is one E016 at the task that reaches it; operations not named are not walked", () => {
  const d = only(task("(gone: string)", "  aws sqs:broken\n"));
  deepStrictEqual([d.code, d.line], ["E016", 4]);
  ok(
    d.message.includes("`t.q#BrokenIn$gone` targets `t.q#Missing`, which the model does not have"),
    d.message,
  );
  deepStrictEqual(check(task("(Body: string)")).diags, []);
});

Deno.test("shapes that contain themselves are walked as deep as the flow's type goes, and no deeper than MAX_SCHEMA_DEPTH", () => {
  const records = "\nrecord A\n  name : string\n  next : B\n\nrecord B\n  name : string\n";
  deepStrictEqual(check(task("(name: string, next: B)", "  aws sqs:walk\n", records)).diags, []);
  // A chain of records as long as the walk's bound, each field `next` the structure `t.q#Node` again.
  const chain = Array.from({ length: MAX_SCHEMA_DEPTH }, (_, i) => `\nrecord R${i}\n  next : R${i + 1}?\n`);
  const deep = only(
    task(
      "(next: R0)",
      "  aws sqs:walk\n",
      `${chain.join("")}\nrecord R${MAX_SCHEMA_DEPTH}\n  name : string\n`,
    ),
  );
  deepStrictEqual([deep.code, deep.message.includes("the match stops there")], ["E016", true], deep.message);
  ok(deep.message.includes(`the shapes nest more than ${MAX_SCHEMA_DEPTH} deep`), deep.message);
});

Deno.test("the model decides which operations exist: AWS's table is not asked, and a misspelt one is one E016", () => {
  const flow = (op: string, use: string) => `${HEAD}${use}\ntask t(Body: string)\n  aws sqs:${op}\n${TAIL}`;
  const table = only(flow("send", ""));
  strictEqual(table.code, "E007");
  deepStrictEqual(check(flow("send", USE)).diags, []);
  const misspelt = only(flow("sendd", USE));
  strictEqual(misspelt.code, "E016");
  ok(misspelt.message.includes("has no operation `Sendd`; did you mean `send`?"), misspelt.message);
});

Deno.test("the operations of the service's resources are its operations too; resources that name each other end", () => {
  deepStrictEqual(check(task("(Id: string)", "  aws sqs:getBox\n")).diags, []);
  deepStrictEqual(check(task("()", "  aws sqs:open\n")).diags, []);
  const open = only(task("(Id: string)", "  aws sqs:open\n"));
  ok(open.message.includes("the operation takes no argument `Id`"), open.message);
  deepStrictEqual(open.notes, ["in the description `sqs` at t.q#Open"]);
});

Deno.test("names a hostile model may hold (`constructor`, `__proto__`) find nothing that is not in the file", () => {
  const hostile = model({
    "t.q#SendIn": {
      type: "structure",
      members: { Body: str({ ...REQUIRED, ["__proto__"]: { [`${S}idempotencyToken`]: {} } }) },
    },
  });
  const files = { "specs/q.json": hostile };
  strictEqual(only(task("(Body: string)", "  aws sqs:constructor\n"), files).code, "E016");
  const key = only(task("(Body: string)", "  aws sqs:send\n  key Body\n"), files);
  ok(key.message.includes("the operation has no idempotency token"), key.message);
  strictEqual(only(task("(constructor: string, Body: string)"), files).code, "E016");
});
