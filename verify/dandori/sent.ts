/**
 * What a Task sent, read from its resource and its evaluated arguments, in the shape of the
 * interpreter's `stepfunctions` view (views.ts): the ASL runner's tries and LocalStack's history
 * are both compared through it.
 * @module
 */

import type { Plain } from "./asl_run.ts";

/** What a try sent, in the shape of the `stepfunctions` view. */
export function sentView(t: { readonly resource: string; readonly args: Plain }): Plain {
  const args = t.args as { [k: string]: Plain };
  switch (t.resource) {
    case "arn:aws:states:::lambda:invoke":
    case "arn:aws:states:::lambda:invoke.waitForTaskToken":
      return { lambda: args.FunctionName, payload: args.Payload };
    case "arn:aws:states:::http:invoke": {
      const { Authentication: _, ...request } = args;
      return { http: request };
    }
    case "arn:aws:states:::sqs:sendMessage.waitForTaskToken":
      return { aws: "sqs:sendMessage", args };
    case "arn:aws:states:::states:startExecution.sync:2":
      return { "state machine": args.StateMachineArn, input: args.Input };
    default: {
      const m = /^arn:aws:states:::aws-sdk:([^:]+):([^:.]+)$/.exec(t.resource);
      if (m === null) throw new Error(`verify: a Task of ${t.resource}, which dandori does not write`);
      return { aws: `${m[1]}:${m[2]}`, args };
    }
  }
}
