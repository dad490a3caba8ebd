/**
 * Calls as a platform sees them (5, first bullet): a view is a call of the plan rendered with
 * the run's values, so what a target sends and what the interpreter says it sends are made from
 * the same record. A platform's runner compares what it sent with its view character for
 * character.
 *
 * - `transport`: what dandori-written code sends through `Transport` — a Lambda's function and
 *   payload, an HTTP request, an AWS operation and its arguments, a book operation, an agent's
 *   request (`agent_requests.ts`: the endpoint, the headers that say nothing secret, the body) — and
 *   what it hands to the user's own code, a child flow or an event's wait.
 * - `temporal`: the activity (an agent's too), its arguments and what the workflow passes beside
 *   them (the call's key when the task has one, the callback's id), or the child workflow with its
 *   type and id.
 * - `durable`: the task a step runs, its arguments, the key and the callback's id (the SDK makes
 *   it, so the view writes `CREATED_CALLBACK_ID`), or the durable function a child is invoked as
 *   with its input (docs/targets.md#durable).
 * - `stepfunctions`: what the state machine's Task sends (docs/targets.md#step-functions) — the
 *   Lambda function and payload (`idempotency_key`, and `task_token` for a callback), the HTTP
 *   Task's request as its arguments say it (`ApiEndpoint`, `Method`, `Headers`, `QueryParameters`, `RequestBody`,
 *   `Transform`; the connection aside; an agent's request, its body as `agentRequest` writes it), an
 *   AWS SDK integration's arguments (an SQS callback's token in `MessageBody`), a book's Lambda
 *   payload `{transfer, op, args, amounts?}` and a nested execution's state machine and input. A
 *   task token is Step Functions' own; the ASL runner hands the call's callback id as the token
 *   (`taskToken`), so the view can say it.
 * - `pydantic-graph`: the task as the graph calls it through `Deps.tasks` (every task, child flows
 *   among them, is a function there), its arguments and what the graph passes beside them.
 * - `argo`: what a task's container is handed in `DANDORI_CALL` (docs/targets.md#argo) — the task, its
 *   arguments, the call's key and its callback's id, `<execution>/<place>/<loop counts>/<attempt>`,
 *   which `argo node set` selects the waiting step by — or the WorkflowTemplate a child's Workflow is
 *   created from, with its input.
 *
 * `docs/formats.md` (「Views」) writes each shape down.
 * @module
 */

import { unreachable } from "../common/assert.ts";
import { agentRequest } from "./agent_requests.ts";
import { CONNECT_PROTOCOL_HEADER, requestBody } from "./connect.ts";
import type { CallRecord } from "./interp.ts";
import { workflowTemplateName } from "./kubernetes.ts";
import type { KeyPlan, Plan, TaskPlan } from "./plan.ts";
import { filledUrl, idempotencyKey, urlSegment, urlText } from "./rules.ts";
import { isRecord, type Value } from "./values.ts";

/** The views `dandori run --target` prints. */
export const VIEWS = ["transport", "temporal", "stepfunctions", "pydantic-graph", "durable", "argo"] as const;
export type ViewName = typeof VIEWS[number];

/** The id a callback's answer is sent back with: the execution, the call's place, its loops and attempt. */
export function callbackId(c: Pick<CallRecord, "execution" | "place" | "loops" | "attempt">): string {
  return JSON.stringify({ workflow: c.execution, call: [c.place, ...c.loops, c.attempt].join("/") });
}

/** The task token the ASL runner hands a callback's Task (Step Functions makes its own): the call's callback id. */
export function taskToken(c: Pick<CallRecord, "execution" | "place" | "loops" | "attempt">): string {
  return callbackId(c);
}

/** The id of a child workflow (docs/design/dandori.md#platforms): `<parent id>/<place>/<loop counts>/<attempt>`. */
export function childId(c: Pick<CallRecord, "execution" | "place" | "loops" | "attempt">): string {
  return `${idempotencyKey(c.execution, c.place, c.loops)}/${c.attempt}`;
}

/** What the `durable` view writes for a callback's id: `createCallback` makes it, so no run knows it before. */
export const CREATED_CALLBACK_ID = "<the id createCallback made>";

/** A call's view on one platform. */
export function viewOf(name: ViewName, plan: Plan, c: CallRecord): Value {
  const task = plan.tasks.find((t) => t.name === c.task);
  if (task === undefined) throw new Error(`dandori: the plan has no task ${c.task}`);
  switch (name) {
    case "transport":
      return transportView(task, c);
    case "temporal":
      return temporalView(task, c);
    case "durable":
      return durableView(task, c);
    case "stepfunctions":
      return stepFunctionsView(plan, task, c);
    case "pydantic-graph":
      return graphView(task, c);
    case "argo":
      return argoView(task, c);
    default:
      return unreachable(name, "view");
  }
}

/** The arguments in the task's order, with the key and the callback id where the task sends them. */
function payload(task: TaskPlan, c: CallRecord): Record<string, Value> {
  return Object.fromEntries(
    task.params.flatMap((p) => Object.hasOwn(c.args, p.name) ? [[p.name, c.args[p.name]]] : []),
  );
}

function keyOf(c: CallRecord): string {
  return idempotencyKey(c.execution, c.place, c.loops);
}

function withKey(key: KeyPlan | null, c: CallRecord, into: Record<string, Value>): Record<string, Value> {
  if (key !== null && key.in !== "header") into[key.name] = keyOf(c);
  return into;
}

function transportView(task: TaskPlan, c: CallRecord): Value {
  const callee = task.callee;
  const args = payload(task, c);
  switch (callee.kind) {
    case "lambda": {
      const p = withKey(task.key, c, args);
      if (task.callback !== null) p.callback_id = callbackId(c);
      return { lambda: callee.function, payload: p };
    }
    case "http":
      return { http: httpRequest(task, c, args) };
    case "aws": {
      const p = withKey(task.key, c, args);
      if (task.callback !== null) {
        const body = p.MessageBody;
        p.MessageBody = isRecord(body)
          ? { ...body, callback_id: callbackId(c) }
          : { message: body ?? null, callback_id: callbackId(c) };
      }
      return { aws: `${callee.service}:${callee.operation}`, args: p };
    }
    case "book":
      return { book: callee.book, ...bookPayload(task, c) };
    case "flow":
      return { child: callee.platforms.workflow ?? `${callee.workflow}_v${callee.version}`, input: args };
    case "child":
      return { child: callee.platforms.workflow ?? task.name, input: args };
    case "event":
      return { event: task.name };
    case "own": {
      const out: Record<string, Value> = { task: task.name, args };
      if (task.callback !== null) out.callback_id = callbackId(c);
      return out;
    }
    case "agent": {
      const request = agentRequest(callee, args);
      return { agent: { url: request.url, headers: request.headers, body: request.body } };
    }
    default:
      return unreachable(callee, "callee");
  }
}

/** The HTTP request of an `http` task: the URL with its arguments escaped, headers, and the body or query. */
function httpRequest(task: TaskPlan, c: CallRecord, args: Record<string, Value>): Record<string, Value> {
  const callee = task.callee;
  if (callee.kind !== "http") throw new Error(`dandori: ${task.name} is not an http task`);
  let url = filledUrl(callee.url, c.args);
  const rest = callee.rest.filter((n) => Object.hasOwn(args, n));
  const headers: Record<string, Value> = {};
  if (task.key !== null) headers["Idempotency-Key"] = keyOf(c);
  const pairs = rest.map((n) => `${encodeURIComponent(n)}=${urlSegment(args[n])}`).join("&");
  if (callee.restIn === "query") {
    if (pairs !== "") url += `${url.includes("?") ? "&" : "?"}${pairs}`;
    return { method: callee.method, url, headers };
  }
  if (callee.form) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    return { method: callee.method, url, headers, body: pairs };
  }
  headers["Content-Type"] = "application/json";
  if (callee.connect !== null) {
    headers[CONNECT_PROTOCOL_HEADER[0]] = CONNECT_PROTOCOL_HEADER[1];
    return { method: callee.method, url, headers, body: requestBody(callee.connect.request, args) };
  }
  return { method: callee.method, url, headers, body: Object.fromEntries(rest.map((n) => [n, args[n]])) };
}

function temporalView(task: TaskPlan, c: CallRecord): Value {
  const callee = task.callee;
  const args = payload(task, c);
  switch (callee.kind) {
    case "flow":
    case "child": {
      const type = callee.kind === "flow"
        ? callee.platforms.workflow ?? `${callee.workflow}_v${callee.version}`
        : callee.platforms.workflow ?? task.name;
      return { child: type, id: childId(c), queue: callee.platforms.queue, input: args };
    }
    case "event":
      return { event: task.name };
    case "lambda":
    case "http":
    case "aws":
    case "book":
    case "own":
    case "agent": {
      const out: Record<string, Value> = { activity: task.name, args };
      if (task.key !== null) out.key = keyOf(c);
      if (task.callback !== null) out.callback_id = callbackId(c);
      return out;
    }
    default:
      return unreachable(callee, "callee");
  }
}

function durableView(task: TaskPlan, c: CallRecord): Value {
  const callee = task.callee;
  const args = payload(task, c);
  switch (callee.kind) {
    case "flow":
      return {
        invoke: callee.platforms.durableFunction ?? `${callee.workflow}_v${callee.version}`,
        input: args,
      };
    case "child":
      return { invoke: callee.platforms.durableFunction ?? task.name, input: args };
    case "event":
      return { event: task.name };
    case "lambda":
    case "http":
    case "aws":
    case "book":
    case "own":
    case "agent": {
      const out: Record<string, Value> = { task: task.name, args };
      if (task.key !== null) out.key = keyOf(c);
      if (task.callback !== null) out.callback_id = CREATED_CALLBACK_ID;
      return out;
    }
    default:
      return unreachable(callee, "callee");
  }
}

/** The book's payload as every platform's book Lambda takes it: `{transfer, op, args, amounts?}`. */
function bookPayload(task: TaskPlan, c: CallRecord): Record<string, Value> {
  const callee = task.callee;
  if (callee.kind !== "book") throw new Error(`dandori: ${task.name} is not a book task`);
  const strings = Object.fromEntries(callee.strings.map((n) => [n, c.args[n] ?? null]));
  const amounts = Object.fromEntries(callee.amounts.map((n) => [n, c.args[n] ?? null]));
  const partial = callee.op === "post" && callee.amounts.length > 0;
  return {
    transfer: callee.transfer,
    op: callee.op,
    args: partial ? strings : { ...strings, ...amounts },
    ...(partial ? { amounts } : {}),
  };
}

/** What a Task of the state machine sends; a task Step Functions cannot call stops at E050 before. */
function stepFunctionsView(plan: Plan, task: TaskPlan, c: CallRecord): Value {
  const callee = task.callee;
  const args = payload(task, c);
  switch (callee.kind) {
    case "lambda": {
      const p = withKey(task.key, c, args);
      if (task.callback !== null) p.task_token = taskToken(c);
      return { lambda: callee.function, payload: p };
    }
    case "http":
      return { http: httpTaskArguments(task, c, args) };
    case "aws": {
      const p = withKey(task.key, c, args);
      if (task.callback !== null) {
        const body = p.MessageBody;
        p.MessageBody = isRecord(body)
          ? { ...body, task_token: taskToken(c) }
          : { message: body ?? null, task_token: taskToken(c) };
      }
      return { aws: `${callee.service}:${callee.operation}`, args: p };
    }
    case "book": {
      const fn = plan.books.find((b) => b.name === callee.book)?.lambda ?? null;
      if (fn === null) throw new Error(`dandori: the book ${callee.book} has no lambda (E050)`);
      return { lambda: fn, payload: bookPayload(task, c) };
    }
    case "flow":
    case "child": {
      const arn = callee.platforms.stateMachine;
      if (arn === null) throw new Error(`dandori: ${task.name} has no state machine (E050)`);
      return { "state machine": arn, input: args };
    }
    case "agent": {
      const request = agentRequest(callee, args);
      return {
        http: {
          ApiEndpoint: request.url,
          Method: "POST",
          Headers: { "Content-Type": "application/json", ...request.headers },
          RequestBody: request.body,
        },
      };
    }
    case "event":
    case "own":
      throw new Error(`dandori: Step Functions cannot call ${task.name} (E050)`);
    default:
      return unreachable(callee, "callee");
  }
}

/**
 * The arguments of an HTTP Task, its connection aside: the URL with its arguments escaped, the
 * headers, and the other arguments as `QueryParameters` (GET, DELETE), a JSON `RequestBody`, or a
 * `RequestBody` of texts that `Transform` URL-encodes (`form`). Step Functions escapes query
 * parameters and URL-encoded bodies itself, so they are handed as text (`urlText`).
 */
function httpTaskArguments(
  task: TaskPlan,
  c: CallRecord,
  args: Record<string, Value>,
): Record<string, Value> {
  const callee = task.callee;
  if (callee.kind !== "http") throw new Error(`dandori: ${task.name} is not an http task`);
  const url = filledUrl(callee.url, c.args);
  const rest = callee.rest.filter((n) => Object.hasOwn(args, n));
  const headers: Record<string, Value> = {};
  if (task.key !== null) headers["Idempotency-Key"] = keyOf(c);
  const out: Record<string, Value> = { ApiEndpoint: url, Method: callee.method };
  const texts = Object.fromEntries(rest.map((n) => [n, urlText(args[n])]));
  if (callee.restIn === "query") {
    if (Object.keys(headers).length > 0) out.Headers = headers;
    if (rest.length > 0) out.QueryParameters = texts;
    return out;
  }
  headers["Content-Type"] = callee.form ? "application/x-www-form-urlencoded" : "application/json";
  if (callee.connect !== null) headers[CONNECT_PROTOCOL_HEADER[0]] = CONNECT_PROTOCOL_HEADER[1];
  out.Headers = headers;
  out.RequestBody = callee.form
    ? texts
    : callee.connect !== null
    ? requestBody(callee.connect.request, args)
    : Object.fromEntries(rest.map((n) => [n, args[n]]));
  if (callee.form) out.Transform = { RequestBodyEncoding: "URL_ENCODED" };
  return out;
}

function graphView(task: TaskPlan, c: CallRecord): Value {
  const out: Record<string, Value> = { task: task.name, args: payload(task, c) };
  if (task.key !== null) out.key = keyOf(c);
  if (task.callback !== null) out.callback_id = callbackId(c);
  return out;
}

/**
 * What Argo's step is handed (docs/targets.md#argo): a container's `DANDORI_CALL`, or the child's
 * WorkflowTemplate and input; an `event` task stops at E050 before. A callback's id is the child id's
 * shape, which a node field selector can carry (`argo node set`).
 */
function argoView(task: TaskPlan, c: CallRecord): Value {
  const callee = task.callee;
  const args = payload(task, c);
  switch (callee.kind) {
    case "flow": {
      const name = callee.platforms.workflowTemplate ?? workflowTemplateName(callee.workflow, callee.version);
      if (name === null) throw new Error(`dandori: the child of ${task.name} has no Kubernetes name (E006)`);
      return { child: name, input: args };
    }
    case "child": {
      const name = callee.platforms.workflowTemplate;
      if (name === null) throw new Error(`dandori: ${task.name} has no workflow template (E050)`);
      return { child: name, input: args };
    }
    case "event":
      throw new Error(`dandori: Argo cannot call ${task.name} (E050)`);
    case "lambda":
    case "http":
    case "aws":
    case "book":
    case "own":
    case "agent": {
      const out: Record<string, Value> = { task: task.name, args };
      if (task.key !== null) out.key = keyOf(c);
      if (task.callback !== null) out.callback_id = childId(c);
      return out;
    }
    default:
      return unreachable(callee, "callee");
  }
}
