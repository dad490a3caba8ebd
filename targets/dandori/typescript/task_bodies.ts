/**
 * The bodies of the tasks dandori writes, for the TypeScript targets (Temporal's activities,
 * durable functions' tasks): each builds what it sends from its arguments (the `transport` view
 * of `lang/dandori/views.ts`: the payload with its key and callback id, the URL with its segments
 * escaped, the query or the body, the AWS arguments, the book call) and sends it through
 * `Transport` with `io.ts`'s readers of the answer.
 * @module
 */

import { unreachable } from "../../../lang/common/assert.ts";
import { stringifyJson } from "../../../lang/common/json.ts";
import type { CalleePlan, ConnectPlan, Plan, TaskPlan } from "../../../lang/dandori/plan.ts";
import type { Value } from "../../../lang/dandori/values.ts";
import { prop, readMaybe, str } from "./names.ts";
import { tsType } from "./types_ts.ts";
import { agentBody, agentRequest } from "../../../lang/dandori/agent_requests.ts";
import { agentProvider, enumShape } from "../agent_tasks.ts";

function wires(t: TaskPlan): string {
  return `[${t.errors.map((e) => `[${str(e.name)}, ${str(e.wire ?? e.name)}]`).join(", ")}]`;
}

/** The payload of a Lambda or the arguments of an AWS call: the arguments, the key where it goes, the callback id. */
function payload(t: TaskPlan): string[] {
  const lines = ["const p: { [name: string]: unknown } = { ...args };"];
  if (t.key !== null && t.key.in !== "header") lines.push(`p[${str(t.key.name)}] = call.key;`);
  if (t.callback !== null) {
    if (t.callee.kind === "aws") {
      lines.push(
        "const body = p.MessageBody;",
        'p.MessageBody = typeof body === "object" && body !== null && !Array.isArray(body)',
        "  ? { ...body, callback_id: call.callback_id }",
        "  : { message: body ?? null, callback_id: call.callback_id };",
      );
    } else lines.push("p.callback_id = call.callback_id;");
  }
  return lines;
}

/** The URL an `http` call sends to, from the arguments in `args`: its text, and each value escaped (`dd.segment`). */
export function urlOf(c: Extract<CalleePlan, { kind: "http" }>, args: string): string {
  const url = c.url.map((p) => "text" in p ? str(p.text) : `dd.segment(${readMaybe(args, p.param)})`).join(
    " + ",
  );
  return url === "" ? '""' : url;
}

/**
 * A `connect` task's call (lang/dandori/connect.ts): the request written as protobuf's JSON by
 * `io.protoJson` from the plan's table, the answer filled by `io.filled` before the workflow checks it.
 */
function connectBody(t: TaskPlan, c: Extract<CalleePlan, { kind: "http" }>, connect: ConnectPlan): string[] {
  const lines = [`const url = ${urlOf(c, "args")};`, "const headers: { [name: string]: string } = {};"];
  if (t.key !== null) lines.push('headers["Idempotency-Key"] = call.key ?? "";');
  lines.push(
    'headers["Content-Type"] = "application/json";',
    'headers["Connect-Protocol-Version"] = "1";',
    `const body = JSON.stringify(io.protoJson(${stringifyJson(connect.request)}, { ...args }));`,
    `const answer = await io.http(transport, { method: ${str(c.method)}, url, headers, body }, ${wires(t)});`,
    `return io.filled(${stringifyJson(connect.fill)}, answer);`,
  );
  return lines;
}

function httpBody(t: TaskPlan): string[] {
  const c = t.callee;
  if (c.kind !== "http") return [];
  if (c.connect !== null) return connectBody(t, c, c.connect);
  const lines = [`let url = ${urlOf(c, "args")};`, "const headers: { [name: string]: string } = {};"];
  if (t.key !== null) lines.push('headers["Idempotency-Key"] = call.key ?? "";');
  lines.push(
    "const all: { readonly [name: string]: unknown } = { ...args };",
    `const rest = [${c.rest.map(str).join(", ")}].filter((n) => Object.hasOwn(all, n));`,
    'const pairs = rest.map((n) => `${encodeURIComponent(n)}=${dd.segment(all[n])}`).join("&");',
  );
  if (c.restIn === "query") {
    lines.push(
      'if (pairs !== "") url += `${url.includes("?") ? "&" : "?"}${pairs}`;',
      `return io.http(transport, { method: ${str(c.method)}, url, headers }, ${wires(t)});`,
    );
  } else if (c.form) {
    lines.push(
      'headers["Content-Type"] = "application/x-www-form-urlencoded";',
      `return io.http(transport, { method: ${str(c.method)}, url, headers, body: pairs }, ${wires(t)});`,
    );
  } else {
    lines.push(
      'headers["Content-Type"] = "application/json";',
      "const body = JSON.stringify(Object.fromEntries(rest.map((n) => [n, all[n]])));",
      `return io.http(transport, { method: ${str(c.method)}, url, headers, body }, ${wires(t)});`,
    );
  }
  return lines;
}

/**
 * An agent's call (lang/dandori/agent_requests.ts): the arguments given, in declaration order, as one
 * JSON string put into the body every platform sends, through `Transport.agent` with `io.agent`'s
 * reading of the answer (its `answer`, a Claude answer's enum values folded).
 */
function agentCall(t: TaskPlan, c: Extract<CalleePlan, { kind: "agent" }>, plan: Plan): string[] {
  const provider = agentProvider(c);
  const whole = agentBody(c, null) as { [name: string]: Value };
  // The body's members in agentBody's order, the arguments' JSON string put where it goes.
  const members = Object.entries(whole).map(([name, v]) =>
    name === "input" && provider !== "claude"
      ? "input"
      : name === "messages" && provider === "claude"
      ? 'messages: [{ role: "user", content: input }]'
      : `${prop(name)}: ${stringifyJson(v)}`
  );
  const shape = provider === "claude" && t.result !== null ? enumShape(plan, t.result.type) : null;
  return [
    "const all: { readonly [name: string]: unknown } = { ...args };",
    `const given = [${t.params.map((p) => str(p.name)).join(", ")}].filter((n) => Object.hasOwn(all, n));`,
    "const input = JSON.stringify(Object.fromEntries(given.map((n) => [n, all[n]])));",
    "const request: io.AgentRequest = {",
    `  provider: ${str(provider)},`,
    `  url: ${str(c.endpoint)},`,
    `  headers: ${stringifyJson(agentRequest(c, {}).headers)},`,
    "  body: {",
    ...members.map((m) => `    ${m},`),
    "  },",
    "};",
    `return io.agent(transport, request, ${
      shape === null ? "null" : stringifyJson(shape as unknown as Value)
    });`,
  ];
}

/** The body of a dandori-written task, or null for the user's own task. */
export function written(t: TaskPlan, plan: Plan): string[] | null {
  const c = t.callee;
  switch (c.kind) {
    case "lambda":
      return [...payload(t), `return io.lambda(transport, ${str(c.function)}, p, ${wires(t)});`];
    case "aws":
      return [
        ...payload(t),
        `return io.aws(transport, ${str(c.service)}, ${str(c.operation)}, p, ${wires(t)});`,
      ];
    case "http":
      return httpBody(t);
    case "book": {
      const a = (names: readonly string[]) =>
        `{ ${names.map((n) => `${prop(n)}: ${readMaybe("args", n)} ?? null`).join(", ")} }`;
      const partial = c.op === "post" && c.amounts.length > 0;
      const args = partial ? a(c.strings) : a([...c.strings, ...c.amounts]);
      const call = `{ book: ${str(c.book)}, transfer: ${str(c.transfer)}, op: ${str(c.op)}, args: ${args}${
        partial ? `, amounts: ${a(c.amounts)}` : ""
      } }`;
      return [`return io.booked(transport, ${call}, [${t.errors.map((e) => str(e.name)).join(", ")}]);`];
    }
    case "own":
      return null;
    case "flow":
    case "child":
    case "event":
      return unreachable(c.kind as never, "an activity's callee");
    case "agent":
      return agentCall(t, c, plan);
    default:
      return unreachable(c, "callee");
  }
}

/** What the user's own task returns: nothing for a callback's task, else its result. */
export function ownResult(t: TaskPlan): string {
  if (t.callback !== null || t.result === null) return "Promise<void>";
  return `Promise<${tsType(t.result.type, "T.")}>`;
}
