/**
 * What a Task sent, read from its resource and its evaluated arguments, in the shape of the
 * interpreter's `stepfunctions` view (views.ts): the ASL runner's tries and LocalStack's history
 * are both compared through it.
 * @module
 */

import type { Plain } from "./asl_run.ts";
import type { HttpRequest } from "./wire.ts";

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

/**
 * The HTTP request an HTTP Task's arguments describe, as AWS documents the HTTP Task: `ApiEndpoint` with
 * `QueryParameters` URL-encoded after it, the `Headers`, and `RequestBody` as JSON or, where `Transform`
 * says `URL_ENCODED`, as `key=value` pairs URL-encoded. No engine here sends it (LocalStack 4.14.0 does not
 * know the HTTP Task): the descriptions' validation reads what the arguments ask for.
 */
export function httpTaskRequest(
  args: Plain,
): HttpRequest {
  const a = args as { [k: string]: Plain };
  const pairs = (p: Plain) =>
    Object.entries(p as { [k: string]: Plain }).map(([k, v]) =>
      `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`
    ).join("&");
  const endpoint = new URL(String(a.ApiEndpoint));
  const query = a.QueryParameters === undefined ? "" : pairs(a.QueryParameters);
  const search = [endpoint.search.slice(1), query].filter((part) => part !== "").join("&");
  const headers = (a.Headers ?? {}) as { [k: string]: Plain };
  const form =
    (a.Transform as { RequestBodyEncoding?: string } | undefined)?.RequestBodyEncoding === "URL_ENCODED";
  const body = a.RequestBody === undefined ? "" : form ? pairs(a.RequestBody) : JSON.stringify(a.RequestBody);
  return {
    method: String(a.Method),
    url: `${endpoint.pathname}${search === "" ? "" : `?${search}`}`,
    key: typeof headers["Idempotency-Key"] === "string" ? headers["Idempotency-Key"] : null,
    type: typeof headers["Content-Type"] === "string" ? headers["Content-Type"] : null,
    body,
  };
}
