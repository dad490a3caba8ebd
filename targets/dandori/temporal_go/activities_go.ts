/**
 * `activities.go`: every task that runs as an activity, registered by the task's name
 * (docs/targets.md#temporal-go). dandori writes the `lambda`, `http`, `aws` and book tasks: each
 * builds what it sends from its arguments (the `transport` view of `lang/dandori/views.ts`: the
 * payload with its key and callback id, the URL with its segments escaped, the query or the body,
 * the AWS arguments, the book call) and sends it through `Transport`. The user writes the rest as
 * the methods of `OwnTasks`. `Activities(own, transport)` joins them; every one heartbeats while it
 * works, and none it returns travels as JSON null.
 * @module
 */

import { unreachable } from "../../../lang/common/assert.ts";
import { stringifyJson } from "../../../lang/common/json.ts";
import type { CalleePlan, ConnectPlan, Plan, TaskPlan } from "../../../lang/dandori/plan.ts";
import { goMethodName, goStr } from "../go/names.ts";
import { activityTasks } from "../temporal/wire.ts";
import { imports } from "./go_text.ts";
import { agentBody, agentRequest } from "../../../lang/dandori/agent_requests.ts";
import { agentProvider, enumShape } from "../agent_tasks.ts";

function wires(t: TaskPlan): string {
  return `[][2]string{${t.errors.map((e) => `{${goStr(e.name)}, ${goStr(e.wire ?? e.name)}}`).join(", ")}}`;
}

function names(list: readonly string[]): string {
  return `[]string{${list.map(goStr).join(", ")}}`;
}

/** The payload of a Lambda or the arguments of an AWS call: the arguments, the key where it goes, the callback id. */
function payload(t: TaskPlan): string {
  const key = t.key !== null && t.key.in !== "header" ? goStr(t.key.name) : '""';
  return `ddPayload(args, call, ${key}, ${t.callback !== null}, ${t.callee.kind === "aws"})`;
}

/** The URL of an `http` call: the template's text, and each argument of the map `args` escaped by `ddSegment`. */
export function goUrlOf(c: Extract<CalleePlan, { kind: "http" }>, args: string): string {
  const parts = c.url.map((p) => "text" in p ? goStr(p.text) : `ddSegment(${args}[${goStr(p.param)}])`);
  return parts.length === 0 ? '""' : parts.length === 1 ? parts[0] : `ddConcat(${parts.join(", ")})`;
}

/**
 * A `connect` task's call (lang/dandori/connect.ts): the request written as protobuf's JSON by
 * `ddProtoJSON` from the plan's table, the answer filled by `ddFilled` before the workflow checks it
 * (both tables as JSON text).
 */
function connectBody(t: TaskPlan, c: Extract<CalleePlan, { kind: "http" }>, connect: ConnectPlan): string[] {
  const lines = [`url := ${goUrlOf(c, "args")}`, "headers := map[string]string{}"];
  if (t.key !== null) lines.push('headers["Idempotency-Key"] = call.Key');
  return [
    ...lines,
    'headers["Content-Type"] = "application/json"',
    'headers["Connect-Protocol-Version"] = "1"',
    `body, err := ddProtoJSON(${goStr(stringifyJson(connect.request))}, args)`,
    "if err != nil {",
    "\treturn nil, err",
    "}",
    `got, err := transport.HTTP(ctx, HTTPRequest{Method: ${
      goStr(c.method)
    }, URL: url, Headers: headers, Body: &body})`,
    `answer, err := ddHTTPResult(got, err, ${wires(t)})`,
    `return ddFilled(${goStr(stringifyJson(connect.fill))}, answer, err)`,
  ];
}

function httpBody(t: TaskPlan): string[] {
  const c = t.callee;
  if (c.kind !== "http") return [];
  if (c.connect !== null) return connectBody(t, c, c.connect);
  const lines = [`url := ${goUrlOf(c, "args")}`, "headers := map[string]string{}"];
  if (t.key !== null) lines.push('headers["Idempotency-Key"] = call.Key');
  const send = (request: string) => [
    `got, err := transport.HTTP(ctx, HTTPRequest{${request}})`,
    `return ddHTTPResult(got, err, ${wires(t)})`,
  ];
  const method = `Method: ${goStr(c.method)}`;
  if (c.restIn === "query") {
    return [
      ...lines,
      ...send(`${method}, URL: ddWithQuery(url, ddPairs(args, ${names(c.rest)})), Headers: headers`),
    ];
  }
  if (c.form) {
    lines.push(
      'headers["Content-Type"] = "application/x-www-form-urlencoded"',
      `body := ddPairs(args, ${names(c.rest)})`,
    );
  } else {
    lines.push(
      'headers["Content-Type"] = "application/json"',
      `body := ddJSONObject(args, ${names(c.rest)})`,
    );
  }
  return [...lines, ...send(`${method}, URL: url, Headers: headers, Body: &body`)];
}

/**
 * An agent's call (lang/dandori/agent_requests.ts): the arguments given, in declaration order, as one
 * JSON string put by `ddAgentBody` into the body every platform sends (its other members the plan's,
 * as JSON text), through `Transport.Agent` with `ddAgentResult`'s reading of the answer (its
 * `answer`, a Claude answer's enum values folded by the shape, as JSON text).
 */
function agentCall(t: TaskPlan, c: Extract<CalleePlan, { kind: "agent" }>, plan: Plan): string[] {
  const provider = agentProvider(c);
  const shape = provider === "claude" && t.result !== null ? enumShape(plan, t.result.type) : null;
  const headers = Object.entries(agentRequest(c, {}).headers).map(([k, v]) => `${goStr(k)}: ${goStr(v)}`);
  return [
    `input := ddJSONObject(args, ${names(t.params.map((p) => p.name))})`,
    `body, err := ddAgentBody(${goStr(stringifyJson(agentBody(c, null)))}, ${goStr(provider)}, input)`,
    "if err != nil {",
    "\treturn nil, err",
    "}",
    `request := AgentRequest{Provider: ${goStr(provider)}, URL: ${
      goStr(c.endpoint)
    }, Headers: map[string]string{${headers.join(", ")}}, Body: body}`,
    "got, err := transport.Agent(ctx, request)",
    `return ddAgentResult(got, err, ${goStr(shape === null ? "" : stringifyJson(shape as never))})`,
  ];
}

/** The body of a dandori-written task, or null for the user's own task. */
function written(t: TaskPlan, plan: Plan): string[] | null {
  const c = t.callee;
  switch (c.kind) {
    case "lambda":
      return [
        `got, err := transport.Lambda(ctx, ${goStr(c.function)}, ${payload(t)})`,
        `return ddLambdaResult(got, err, ${wires(t)})`,
      ];
    case "aws":
      return [
        `got, err := transport.AWS(ctx, ${goStr(c.service)}, ${goStr(c.operation)}, ${payload(t)})`,
        `return ddAWSResult(got, err, ${wires(t)})`,
      ];
    case "http":
      return httpBody(t);
    case "book": {
      const values = (list: readonly string[]) =>
        `map[string]any{${list.map((n) => `${goStr(n)}: args[${goStr(n)}]`).join(", ")}}`;
      const partial = c.op === "post" && c.amounts.length > 0;
      const args = partial ? values(c.strings) : values([...c.strings, ...c.amounts]);
      const call = `BookCall{Book: ${goStr(c.book)}, Transfer: ${goStr(c.transfer)}, Op: ${
        goStr(c.op)
      }, Args: ${args}${partial ? `, Amounts: ${values(c.amounts)}` : ""}}`;
      return [
        `got, err := transport.Book(ctx, ${call})`,
        `return ddBooked(got, err, ${names(t.errors.map((e) => e.name))})`,
      ];
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

/** A callback's own task hands the id on and returns nothing; any other returns its result. */
function ownResult(t: TaskPlan): string {
  return t.callback !== null ? "error" : "(any, error)";
}

const SIGNATURE = "func(ctx context.Context, args map[string]any, call Call) (any, error)";

/** The text of `activities.go` after its package clause. */
export function activitiesModule(plan: Plan): string {
  const tasks = activityTasks(plan);
  const own = tasks.filter((t) => t.callee.kind === "own");
  const lines = [
    imports(["context"], []),
    "// OwnTasks are the tasks the user writes, each given the task's arguments (JSON: Decode reads",
    "// them into a struct of types.go) and returning any value the SDK writes as JSON. A declared",
    "// error is returned as temporal.NewNonRetryableApplicationError(message, <the error's name>,",
    "// nil); a callback's task hands call.CallbackID on and returns.",
    own.length === 0 ? "type OwnTasks interface{}" : "type OwnTasks interface {",
    ...own.map((t) =>
      `\t${goMethodName(t.name)}(ctx context.Context, args map[string]any, call Call) ${ownResult(t)}`
    ),
    ...(own.length === 0 ? [] : ["}"]),
    "",
    "// Activities is every activity of the workflow by its task's name: the tasks dandori writes,",
    "// sent through transport, and own's.",
    `func Activities(own OwnTasks, transport Transport) map[string]${SIGNATURE} {`,
    `\tactivities := map[string]${SIGNATURE}{}`,
  ];
  for (const t of tasks) {
    lines.push(`\tactivities[${goStr(t.name)}] = ${SIGNATURE} {`);
    lines.push("\t\treturn ddBeating(ctx, func() (any, error) {");
    const body = written(t, plan);
    if (body !== null) { for (const l of body) lines.push(`\t\t\t${l}`); }
    else if (t.callback !== null) {
      lines.push(`\t\t\treturn nil, own.${goMethodName(t.name)}(ctx, args, call)`);
    } else lines.push(`\t\t\treturn own.${goMethodName(t.name)}(ctx, args, call)`);
    lines.push("\t\t})", "\t}");
  }
  lines.push("\treturn activities", "}");
  return lines.join("\n") + "\n";
}
