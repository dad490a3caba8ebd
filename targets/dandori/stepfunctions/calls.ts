/**
 * What one call's Task is (docs/targets.md#step-functions), per way of calling: its resource, its
 * arguments, where its result is, and the name each declared error has when Step Functions reports it.
 * The rest of a Task (retriers, catchers, the result's check) is the same for every way and is
 * `asl.ts`'s.
 *
 * | way | resource | result | a declared error |
 * |---|---|---|---|
 * | `lambda` | `lambda:invoke` (`.waitForTaskToken` for a callback, the token as `task_token`) | `Payload` (the callback's answer) | its exception (`= …`) or its name: the function's `errorType` |
 * | `http` | `http:invoke`, through the task's `connection` | `ResponseBody` (a `connect` task's filled, connect.ts) | `States.Http.StatusCode.<status>` |
 * | `aws` | `aws-sdk:<service>:<operation>`; `sqs:sendMessage.waitForTaskToken` for a callback, the token in `MessageBody` | the API's answer | `<prefix>.<exception>` of the service table (aws.ts) |
 * | book | `lambda:invoke` of the book's Lambda, `{transfer, op, args, amounts?}` | `Payload` | the refusal's reason: the exception the book's Lambda raises |
 * | child | `states:startExecution.sync:2` of the task's `state machine` | the child's `Output` | none (E050) |
 * | agent | `http:invoke` to its endpoint, through the task's `connection` (agent.ts) | the `answer` of the model's text, read as every platform reads it | none (E007) |
 *
 * The payload of a Lambda and the arguments of an AWS API are the call's arguments in the task's
 * order, then the key where the task sends one (`idempotency_key`, or the named argument, which
 * keeps its place when the call gives it), then the token: the same order as the interpreter's
 * views (views.ts), so what the Task sends is the `stepfunctions` view character for character.
 * @module
 */

import { assert, unreachable } from "../../../lang/common/assert.ts";
import { awsErrorName } from "../../../lang/dandori/aws.ts";
import { CONNECT_PROTOCOL_HEADER } from "../../../lang/dandori/connect.ts";
import type { CallPlan, ExprPlan, Plan, TaskPlan } from "../../../lang/dandori/plan.ts";
import { connectBody, connectFilled } from "./connect.ts";
import { type AslValue, expr, type ExprEnv, jx, orNull, str, textOf } from "./jsonata.ts";
import { agentAnswer, agentArguments } from "./agent.ts";

/** The Task's token, which a callback hands to whoever answers. */
const TOKEN = "$states.context.Task.Token";

/** What a call's Task sends and where its result is. */
export interface TaskCall {
  readonly resource: string;
  /** The Task's `Arguments`: an object of values, or one expression. */
  readonly args: AslValue;
  /** The call's result, read from `$states.result`. */
  readonly result: string;
}

/** The key of a call: `<execution name>/<place>/<loop counts>` (docs/design/dandori.md#keys). */
export function keyExpr(place: string, loops: readonly string[]): string {
  const counts = loops.map((l) => ` & "/" & $string($${loopCounter(l)})`).join("");
  return `($states.context.Execution.Name & ${str(`/${place}`)}${counts})`;
}

/** The variable counting a loop's iterations, 1 for the first. */
export function loopCounter(place: string): string {
  return `dd_n_${place}`;
}

/** The arguments the call gives, by name in the task's order, as expressions. */
function argExprs(task: TaskPlan, call: CallPlan, env: ExprEnv): Map<string, string> {
  const given = new Map(call.args.map((a) => [a.name, a.value]));
  const out = new Map<string, string>();
  for (const p of task.params) {
    const v: ExprPlan | undefined = given.get(p.name);
    if (v !== undefined) out.set(p.name, expr(v, env));
  }
  return out;
}

/** An object of expressions, as a JSONata object constructor. */
function object(entries: readonly (readonly [string, string])[]): string {
  return `{${entries.map(([k, v]) => `${str(k)}: ${v}`).join(", ")}}`;
}

/** The arguments with the key where the task sends it (in the payload or a named argument), in views.ts's order. */
function withKey(
  task: TaskPlan,
  call: CallPlan,
  place: string,
  args: Map<string, string>,
): [string, string][] {
  const out = new Map(args);
  if (task.key !== null && task.key.in !== "header") out.set(task.key.name, keyExpr(place, call.loops));
  return [...out];
}

/**
 * Text of a value written into a URL or a form (rules.ts `urlText`): a string as it is, null as "", a
 * number with every digit (`textOf`), the rest as JSON.
 */
function urlText(x: string): string {
  return `($type(${x}) = "string" ? ${x} : ${x} = null ? "" : ${textOf(x)})`;
}

/** The Task of a call. */
export function taskCall(plan: Plan, task: TaskPlan, call: CallPlan, place: string, env: ExprEnv): TaskCall {
  const callee = task.callee;
  const args = argExprs(task, call, env);
  switch (callee.kind) {
    case "lambda": {
      const payload = withKey(task, call, place, args);
      if (task.callback !== null) payload.push(["task_token", TOKEN]);
      return {
        resource: task.callback === null
          ? "arn:aws:states:::lambda:invoke"
          : "arn:aws:states:::lambda:invoke.waitForTaskToken",
        args: { FunctionName: callee.function, Payload: jx(object(payload)) },
        result: task.callback === null ? orNull("$states.result.Payload") : orNull("$states.result"),
      };
    }
    case "http":
      return httpCall(task, call, place, args, env);
    case "aws": {
      const entries = withKey(task, call, place, args);
      if (task.callback === null) {
        return {
          resource: `arn:aws:states:::aws-sdk:${callee.service}:${callee.operation}`,
          args: jx(object(entries)),
          result: orNull("$states.result"),
        };
      }
      assert(
        callee.service === "sqs" && callee.operation === "sendMessage",
        "an aws callback is SQS's (E007)",
      );
      const body = entries.find(([k]) => k === "MessageBody")?.[1] ?? "null";
      const withToken =
        `($type(${body}) = "object" ? $merge([${body}, {"task_token": ${TOKEN}}]) : {"message": ${body}, "task_token": ${TOKEN}})`;
      const sent: [string, string][] = entries.some(([k]) => k === "MessageBody")
        ? entries.map(([k, v]) => [k, k === "MessageBody" ? withToken : v])
        : [...entries, ["MessageBody", withToken]];
      return {
        resource: "arn:aws:states:::sqs:sendMessage.waitForTaskToken",
        args: jx(object(sent)),
        result: orNull("$states.result"),
      };
    }
    case "book": {
      const fn = plan.books.find((b) => b.name === callee.book)?.lambda ?? null;
      assert(fn !== null, "a book task's book has a lambda (E050)");
      const text = (n: string) => args.get(n) ?? "null";
      const strings = callee.strings.map((n) => [n, text(n)] as const);
      const amounts = callee.amounts.map((n) => [n, text(n)] as const);
      const partial = callee.op === "post" && callee.amounts.length > 0;
      const payload: [string, string][] = [
        ["transfer", str(callee.transfer)],
        ["op", str(callee.op)],
        ["args", object(partial ? strings : [...strings, ...amounts])],
      ];
      if (partial) payload.push(["amounts", object(amounts)]);
      return {
        resource: "arn:aws:states:::lambda:invoke",
        args: { FunctionName: fn, Payload: jx(object(payload)) },
        result: orNull("$states.result.Payload"),
      };
    }
    case "flow":
    case "child": {
      const arn = callee.platforms.stateMachine;
      assert(arn !== null, "a child Step Functions runs has its state machine (E050)");
      return {
        resource: "arn:aws:states:::states:startExecution.sync:2",
        args: { StateMachineArn: arn, Input: jx(object([...args])) },
        result: orNull("$states.result.Output"),
      };
    }
    case "event":
    case "own":
      throw new Error(`dandori: Step Functions cannot call ${task.name} (E050)`);
    case "agent":
      return {
        resource: "arn:aws:states:::http:invoke",
        args: agentArguments(task, callee, args),
        result: agentAnswer(plan, task, callee),
      };
    default:
      return unreachable(callee, "callee");
  }
}

/** The URL an `http` call sends to: its text, and each value escaped as `encodeURIComponent` escapes. */
export function urlExpr(task: TaskPlan, call: CallPlan, env: ExprEnv): string {
  const callee = task.callee;
  assert(callee.kind === "http", "a URL is an http task's");
  const given = new Map(call.args.map((a) => [a.name, a.value]));
  const url = callee.url.map((p) => {
    if ("text" in p) return str(p.text);
    const v = given.get(p.param);
    return v === undefined ? '""' : `$encodeUrlComponent(${urlText(expr(v, env))})`;
  });
  return url.length === 0 ? '""' : url.join(" & ");
}

/**
 * An HTTP Task: the URL's values escaped as `encodeURIComponent` does
 * (docs/design/dandori.md#ways-of-calling-a-task), the rest as query or body.
 */
function httpCall(
  task: TaskPlan,
  call: CallPlan,
  place: string,
  args: Map<string, string>,
  env: ExprEnv,
): TaskCall {
  const callee = task.callee;
  assert(callee.kind === "http", "an HTTP Task is of an http task");
  assert(task.connection !== null, "an HTTP Task has its connection (E050)");
  const rest = callee.rest.filter((n) => args.has(n));
  const texts = rest.map((n) => [n, urlText(args.get(n) ?? "null")] as const);
  const headers: [string, string][] = [];
  if (task.key !== null) headers.push(["Idempotency-Key", keyExpr(place, call.loops)]);
  const out: Record<string, AslValue> = {
    ApiEndpoint: jx(urlExpr(task, call, env)),
    Method: callee.method,
    Authentication: { ConnectionArn: task.connection },
  };
  if (callee.restIn === "query") {
    if (headers.length > 0) out.Headers = jx(object(headers));
    if (rest.length > 0) out.QueryParameters = jx(object(texts));
  } else {
    headers.push([
      "Content-Type",
      str(callee.form ? "application/x-www-form-urlencoded" : "application/json"),
    ]);
    if (callee.connect !== null) headers.push([CONNECT_PROTOCOL_HEADER[0], str(CONNECT_PROTOCOL_HEADER[1])]);
    out.Headers = jx(object(headers));
    out.RequestBody = jx(
      callee.form
        ? object(texts)
        : callee.connect !== null
        ? connectBody(callee.connect.request, args)
        : object(rest.map((n) => [n, args.get(n) ?? "null"])),
    );
    if (callee.form) out.Transform = { RequestBodyEncoding: "URL_ENCODED" };
  }
  const body = orNull("$states.result.ResponseBody");
  return {
    resource: "arn:aws:states:::http:invoke",
    args: out,
    result: callee.connect === null ? body : connectFilled(callee.connect.fill, body),
  };
}

/**
 * The name Step Functions reports a declared error of a task by: what its Retry and Catch match.
 * A child's declared errors stop at E050 (its `fail` names reach the parent only inside `Cause`).
 */
export function errorName(task: TaskPlan, error: string): string {
  const declared = task.errors.find((e) => e.name === error);
  assert(declared !== undefined, `${task.name} declares ${error}`);
  const callee = task.callee;
  switch (callee.kind) {
    case "lambda":
    case "book":
      return declared.wire ?? declared.name;
    case "http":
      assert(declared.wire !== null, "an http task's error has its status (E007)");
      return `States.Http.StatusCode.${declared.wire}`;
    case "aws": {
      // A callback's errors are the names its answerer sends back (SendTaskFailure), not the API's.
      if (task.callback !== null) return declared.wire ?? declared.name;
      const name = awsErrorName(callee.service, declared.wire ?? declared.name);
      assert(name !== null, `${callee.service} is in the service table (E007)`);
      return name;
    }
    case "flow":
    case "child":
    case "event":
    case "own":
      throw new Error(`dandori: ${task.name}'s declared errors stop at E050 on Step Functions`);
    case "agent":
      throw new Error(`dandori: the agent ${task.name} declares no errors (E007)`);
    default:
      return unreachable(callee, "callee");
  }
}
