/**
 * The bodies of the tasks dandori writes, for both Python targets (pydantic-graph's `Tasks`,
 * temporal-python's activities): each builds what it sends from its arguments (the `transport`
 * view of `lang/dandori/views.ts`: the payload with its key and callback id, the URL with its
 * segments escaped, the query or the body, the AWS arguments, the book call) and sends it through
 * `self._transport` with `io.py`'s readers of the answer. Each body reads `args` and `call`.
 * @module
 */

import { unreachable } from "../../../lang/common/assert.ts";
import type { CalleePlan, ConnectPlan, Plan, TaskPlan } from "../../../lang/dandori/plan.ts";
import { pyData } from "./code.ts";
import { str } from "./names.ts";
import { pyType } from "./types_py.ts";
import { agentBody, agentRequest } from "../../../lang/dandori/agent_requests.ts";
import { agentProvider, enumShape } from "../agent_tasks.ts";

/** The tasks the user writes: own tasks and child flows. */
export function ownTasks(plan: Plan): TaskPlan[] {
  return plan.tasks.filter((t) => written(t, plan) === null);
}

function wires(t: TaskPlan): string {
  const pairs = t.errors.map((e) => `(${str(e.name)}, ${str(e.wire ?? e.name)})`);
  return `(${pairs.join(", ")}${pairs.length === 1 ? "," : ""})`;
}

function payload(t: TaskPlan): string[] {
  const lines = ["p: dict[str, typing.Any] = {**args}"];
  if (t.key !== null && t.key.in !== "header") lines.push(`p[${str(t.key.name)}] = call.get("key")`);
  if (t.callback !== null) {
    if (t.callee.kind === "aws") {
      lines.push(
        'body = p.get("MessageBody")',
        'p["MessageBody"] = (',
        '    {**body, "callback_id": call.get("callback_id")}',
        "    if isinstance(body, dict)",
        '    else {"message": body, "callback_id": call.get("callback_id")}',
        ")",
      );
    } else lines.push('p["callback_id"] = call.get("callback_id")');
  }
  return lines;
}

/** The URL an `http` call sends to, from the arguments in the dict `args`: its text, and each value escaped (`dd.url_segment`). */
export function urlOf(c: Extract<CalleePlan, { kind: "http" }>, args: string): string {
  const url = c.url.map((p) => "text" in p ? str(p.text) : `dd.url_segment(${args}.get(${str(p.param)}))`);
  return url.length === 0 ? '""' : url.join(" + ");
}

/**
 * A `connect` task's call (lang/dandori/connect.ts): the request written as protobuf's JSON by
 * `io.proto_json` from the plan's table, the answer filled by `io.filled` before the flow checks it.
 */
function connectBody(t: TaskPlan, c: Extract<CalleePlan, { kind: "http" }>, connect: ConnectPlan): string[] {
  const lines = [`url = ${urlOf(c, "args")}`, "headers: dict[str, str] = {}"];
  if (t.key !== null) lines.push('headers["Idempotency-Key"] = call.get("key", "")');
  lines.push(
    'headers["Content-Type"] = "application/json"',
    'headers["Connect-Protocol-Version"] = "1"',
    `body = dd.json_text(io.proto_json(${pyData(connect.request)}, args))`,
    `answer = await io.http(self._transport, io.HttpRequest(${str(c.method)}, url, headers, body), ${
      wires(t)
    })`,
    `return io.filled(${pyData(connect.fill)}, answer)`,
  );
  return lines;
}

function httpBody(t: TaskPlan): string[] {
  const c = t.callee;
  if (c.kind !== "http") return [];
  if (c.connect !== null) return connectBody(t, c, c.connect);
  const lines = [`url = ${urlOf(c, "args")}`, "headers: dict[str, str] = {}"];
  if (t.key !== null) lines.push('headers["Idempotency-Key"] = call.get("key", "")');
  const rest = c.rest.map(str);
  lines.push(
    rest.length === 0
      ? "rest: list[str] = []"
      : `rest: list[str] = [n for n in (${rest.join(", ")}${rest.length === 1 ? "," : ""}) if n in args]`,
  );
  const pairs = 'pairs = "&".join(f"{dd.url_segment(n)}={dd.url_segment(args[n])}" for n in rest)';
  if (c.restIn === "query") {
    lines.push(
      pairs,
      'if pairs != "":',
      '    url += ("&" if "?" in url else "?") + pairs',
      `return await io.http(self._transport, io.HttpRequest(${str(c.method)}, url, headers), ${wires(t)})`,
    );
  } else if (c.form) {
    lines.push(
      pairs,
      'headers["Content-Type"] = "application/x-www-form-urlencoded"',
      `return await io.http(self._transport, io.HttpRequest(${str(c.method)}, url, headers, pairs), ${
        wires(t)
      })`,
    );
  } else {
    lines.push(
      'headers["Content-Type"] = "application/json"',
      "body = dd.json_text({n: args[n] for n in rest})",
      `return await io.http(self._transport, io.HttpRequest(${str(c.method)}, url, headers, body), ${
        wires(t)
      })`,
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
  const members = Object.entries(agentBody(c, null) as { [name: string]: unknown }).map(([name, v]) =>
    name === "input" && provider !== "claude"
      ? '"input": input_'
      : name === "messages" && provider === "claude"
      ? '"messages": [{"role": "user", "content": input_}]'
      : `${str(name)}: ${pyData(v)}`
  );
  const shape = provider === "claude" && t.result !== null ? enumShape(plan, t.result.type) : null;
  const params = t.params.map((p) => str(p.name));
  return [
    `given = [n for n in (${params.join(", ")}${params.length === 1 ? "," : ""}) if n in args]`,
    "input_ = dd.json_text({n: args[n] for n in given})",
    "request = io.AgentRequest(",
    `    ${str(provider)},`,
    `    ${str(c.endpoint)},`,
    `    ${pyData(agentRequest(c, {}).headers)},`,
    "    {",
    ...members.map((m) => `        ${m},`),
    "    },",
    ")",
    `return await io.agent(self._transport, request, ${shape === null ? "None" : pyData(shape)})`,
  ];
}

/** The body of a dandori-written task, or null for one the user writes. */
export function written(t: TaskPlan, plan: Plan): string[] | null {
  const c = t.callee;
  switch (c.kind) {
    case "lambda":
      return [...payload(t), `return await io.lambda_(self._transport, ${str(c.function)}, p, ${wires(t)})`];
    case "aws":
      return [
        ...payload(t),
        `return await io.aws(self._transport, ${str(c.service)}, ${str(c.operation)}, p, ${wires(t)})`,
      ];
    case "http":
      return httpBody(t);
    case "book": {
      const a = (names: readonly string[]) =>
        `{${names.map((n) => `${str(n)}: args.get(${str(n)})`).join(", ")}}`;
      const partial = c.op === "post" && c.amounts.length > 0;
      const args = partial ? a(c.strings) : a([...c.strings, ...c.amounts]);
      const errors = t.errors.map((e) => str(e.name));
      return [
        `call_: io.BookCall = {"book": ${str(c.book)}, "transfer": ${str(c.transfer)}, "op": ${
          str(c.op)
        }, "args": ${args}${partial ? `, "amounts": ${a(c.amounts)}` : ""}}`,
        `return await io.booked(self._transport, call_, (${errors.join(", ")}${
          errors.length === 1 ? "," : ""
        }))`,
      ];
    }
    case "own":
    case "flow":
    case "child":
    case "event":
      return null;
    case "agent":
      return agentCall(t, c, plan);
    default:
      return unreachable(c, "callee");
  }
}

export function ownResult(t: TaskPlan): string {
  if (t.callback !== null || t.result === null) return "None";
  return pyType(t.result.type, "T.");
}
