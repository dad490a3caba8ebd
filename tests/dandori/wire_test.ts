/**
 * The wire checks' moto side (`verify/dandori/wire.ts`): a queue's messages, once read back for a
 * call's check, are gone from the queue, so a later call's check on the same queue reads its own alone;
 * and the descriptions' validation and the Connect server catch what the interpreter and the generated
 * code would agree on.
 */

import { deepStrictEqual, match, ok } from "node:assert/strict";
import type { CalleePlan } from "../../lang/dandori/plan.ts";
import { checkedFlowAt, type RunnableFlow } from "../../verify/dandori/flows.ts";
import { verifyWire } from "../../verify/dandori/temporal_wire.ts";
import { connectLine, describedLine, withWire } from "../../verify/dandori/wire.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("a message read back for a call's check is deleted from its queue, not left to come back after its visibility timeout", async () => {
  const sqs = await import("@aws-sdk/client-sqs");
  const checked = await withWire(async (s) => {
    const queue = await s.aws.queue("https://sqs.ap-northeast-1.amazonaws.com/123456789012/orders");
    const client = new sqs.SQSClient({
      endpoint: s.motoUrl,
      region: "ap-northeast-1",
      credentials: { accessKeyId: "testing", secretAccessKey: "testing" },
    });
    await client.send(new sqs.SendMessageCommand({ QueueUrl: queue, MessageBody: '{"order":"o-1"}' }));
    deepStrictEqual(await s.aws.receive(queue), ['{"order":"o-1"}']);
    const left = await client.send(
      new sqs.GetQueueAttributesCommand({
        QueueUrl: queue,
        AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
      }),
    );
    deepStrictEqual(left.Attributes, {
      ApproximateNumberOfMessages: "0",
      ApproximateNumberOfMessagesNotVisible: "0",
    });
    return true;
  });
  if (checked === null) console.log("SKIP: moto: moto_server is not installed (pip install moto[server])");
});

/** `api_calls.flow` with one task's plan changed as a broken lowering would, which the interpreter's view and the generated code then share. */
function broken(task: string, change: Partial<Extract<CalleePlan, { kind: "http" }>>): RunnableFlow {
  const f = checkedFlowAt(ROOT, "tests/dandori/flows/api_calls.flow");
  ok(f !== null, "api_calls.flow checks");
  const tasks = f.plan.tasks.map((t) =>
    t.name === task && t.callee.kind === "http" ? { ...t, callee: { ...t.callee, ...change } } : t
  );
  return { ...f, plan: { ...f.plan, tasks } };
}

Deno.test({
  name:
    "a break the interpreter and the generated code share is caught on a named scenario: a form body sent as JSON by the description, a query parameter sent in the body by the GET that cannot carry it",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const asJson = await verifyWire([broken("create", { form: false })]);
    if (asJson === null) {
      return console.log("SKIP: moto: moto_server is not installed (pip install moto[server])");
    }
    if (typeof asJson.described !== "number") return console.log(describedLine(asJson));
    ok(asJson.failures.length > 0, "the JSON body was refused");
    for (const f of asJson.failures) {
      match(
        f,
        /^tests\/dandori\/flows\/api_calls\.flow run-\d+ line 47: the description .*payments\.json refuses it: .*application\/json/,
      );
    }
    const inBody = await verifyWire([broken("look", { restIn: "body" })]);
    ok(inBody !== null);
    ok(
      inBody.failures.some((f) => /^tests\/dandori\/flows\/api_calls\.flow run-\d+ line 50: /.test(f)),
      inBody.failures.join("\n"),
    );
    console.log(`caught: ${asJson.failures[0]}\ncaught: ${inBody.failures[0]}`);
  },
});

Deno.test({
  name:
    "a break the interpreter and the generated code share is caught by the Connect server on a named scenario: a request's field sent under a name its message does not have",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const f = checkedFlowAt(ROOT, "tests/dandori/flows/proto_calls.flow");
    ok(f !== null, "proto_calls.flow checks");
    const tasks = f.plan.tasks.map((t) => {
      if (t.name !== "reserve" || t.callee.kind !== "http" || t.callee.connect === null) return t;
      const request = t.callee.connect.request.map((r) => r.json === "site" ? { ...r, json: "siteName" } : r);
      return { ...t, callee: { ...t.callee, connect: { ...t.callee.connect, request } } };
    });
    const report = await verifyWire([{ ...f, plan: { ...f.plan, tasks } }]);
    if (report === null) {
      return console.log("SKIP: moto: moto_server is not installed (pip install moto[server])");
    }
    if ("missing" in report.connect) return console.log(connectLine(report));
    ok(report.failures.length > 0, "the request was refused");
    for (const failure of report.failures) {
      match(
        failure,
        /^tests\/dandori\/flows\/proto_calls\.flow run-\d+ line 49: the Connect server built from tests\/dandori\/flows\/apis\/warehouse\.proto refused it: 400 .*siteName/,
      );
    }
    ok(report.failures.some((x) => x.startsWith("tests/dandori/flows/proto_calls.flow run-1 line 49: ")));
    console.log(`caught: ${report.failures[0]}`);
  },
});
