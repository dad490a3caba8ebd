/**
 * The wire checks' moto side (`verify/dandori/wire.ts`): a queue's messages, once read back for a
 * call's check, are gone from the queue, so a later call's check on the same queue reads its own alone.
 */

import { deepStrictEqual } from "node:assert/strict";
import { withWire } from "../../verify/dandori/wire.ts";

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
