/**
 * An agent's Task on Step Functions (docs/targets.md#step-functions): an HTTP Task to the agent's
 * endpoint through the task's `connection`, with `anthropic-version` for Claude, its body
 * `agentBody`'s (lang/dandori/agent_requests.ts) written as JSONata with the arguments as `$string` of
 * them in declaration order. The answer is read from the response as every platform reads it:
 *
 * - OpenAI and Open Responses: the text of the first `output_text` of the output's messages, parsed
 *   (`$parse`), its `answer`; none (a refusal answers a `refusal` instead) fails the Task with
 *   `$error`, a `States.QueryEvaluationError` its Retry and Catch take as `failure`.
 * - Claude: the `text` blocks of the content joined, parsed, its `answer`, each enum value in it folded
 *   to the declared value equal to it but for case; a `stop_reason` other than `end_turn` (a refusal,
 *   a cut answer) fails the Task with `$error`.
 *
 * The expression is the Task's `Output` and its `Assign`, so the Task fails on a refusal whether or
 * not the call's result is kept, and the result's check that follows is every task's.
 * @module
 */

import { assert, lookup, unreachable } from "../../../lang/common/assert.ts";
import { stringifyJson } from "../../../lang/common/json.ts";
import { agentBody, ANSWER, ANTHROPIC_VERSION } from "../../../lang/dandori/agent_requests.ts";
import type { CalleePlan, Plan, TaskPlan, TypePlan } from "../../../lang/dandori/plan.ts";
import type { Value } from "../../../lang/dandori/values.ts";
import { type AslValue, jx, str, type TypeTables, typeTables } from "./jsonata.ts";

type Agent = Extract<CalleePlan, { kind: "agent" }>;

/** Where the body holds the arguments' JSON string: the expression `$string` of them goes there. */
const INPUT: Value = Object.freeze({});

/** The arguments of an agent's HTTP Task: `args` are those the call gives, by name in the task's order. */
export function agentArguments(
  task: TaskPlan,
  agent: Agent,
  args: ReadonlyMap<string, string>,
): { readonly [k: string]: AslValue } {
  const input = `$string({${[...args].map(([k, v]) => `${str(k)}: ${v}`).join(", ")}})`;
  const headers: Record<string, AslValue> = { "Content-Type": "application/json" };
  if (agent.provider === "claude") headers[ANTHROPIC_VERSION[0]] = ANTHROPIC_VERSION[1];
  return {
    ApiEndpoint: agent.endpoint,
    Method: "POST",
    Authentication: { ConnectionArn: task.connection },
    Headers: headers,
    RequestBody: jx(literal(agentBody(agent, INPUT), input)),
  };
}

/** A JSON value as a JSONata expression, the body's `INPUT` written as `input`. */
function literal(v: Value, input: string): string {
  if (v === INPUT) return input;
  if (Array.isArray(v)) return `[${v.map((x) => literal(x, input)).join(", ")}]`;
  if (v !== null && typeof v === "object") {
    return `{${Object.entries(v).map(([k, x]) => `${str(k)}: ${literal(x, input)}`).join(", ")}}`;
  }
  return stringifyJson(v);
}

/** The expression that reads an agent call's answer from its HTTP Task's result. */
export function agentAnswer(plan: Plan, task: TaskPlan, agent: Agent): string {
  const body = "$states.result.ResponseBody";
  const answer = (text: string) => `$lookup($parse(${text}), ${str(ANSWER)})`;
  if (agent.provider === "claude") {
    assert(task.result !== null, "an agent has a result type (E007)");
    const read = answer(`$join(${body}.content[type = "text"].text)`);
    return `(${body}.stop_reason = "end_turn" ? ${folded(typeTables(plan), task.result.type, read, 0)} : ${
      errorOf(`${str(`${task.name}: the model's turn did not end: `)} & $string(${body}.stop_reason)`)
    })`;
  }
  const text = `((${body}.output[type = "message"].content)[type = "output_text"])[0].text`;
  return `($dd_text := ${text}; $exists($dd_text) ? ${answer("$dd_text")} : ${
    errorOf(str(`${task.name}: the model answered no output_text`))
  })`;
}

/** `$error`: the Task fails with `States.QueryEvaluationError`, which its Retry and Catch take as `failure`. */
function errorOf(message: string): string {
  return `$error(${message})`;
}

/** True when a value of `t` may hold an enum value, which a Claude answer folds (no record holds itself: E003). */
function holdsEnum(types: TypeTables, t: TypePlan): boolean {
  switch (t.kind) {
    case "enum":
      return true;
    case "optional":
      return holdsEnum(types, t.inner);
    case "list":
      return holdsEnum(types, t.element);
    case "record":
      return lookup(types.records, t.name, "record").fields.some((f) => holdsEnum(types, f.type));
    default:
      return false;
  }
}

/**
 * `x` with each enum value of `t` in it read without case: the declared value equal to it but for
 * case, or the value as it is (which the result's check then refuses). What is not of the type's
 * shape is left as it is. `depth` names the variables of nested values apart.
 */
function folded(types: TypeTables, t: TypePlan, x: string, depth: number): string {
  if (!holdsEnum(types, t)) return x;
  const v = `$dd_fold${depth}`;
  switch (t.kind) {
    case "enum": {
      const values = lookup(types.enums, t.name, "enum").values;
      const map = `{${values.map((value) => `${str(value.toLowerCase())}: ${str(value)}`).join(", ")}}`;
      const found = `$lookup(${map}, $lowercase(${v}))`;
      return `(${v} := ${x}; $type(${v}) = "string" and $exists(${found}) ? ${found} : ${v})`;
    }
    case "optional":
      return `(${v} := ${x}; ${v} = null ? null : ${folded(types, t.inner, v, depth + 1)})`;
    case "list":
      return `(${v} := ${x}; $type(${v}) = "array" ? [$map(${v}, function(${v}i) { ${
        folded(types, t.element, `${v}i`, depth + 1)
      } })] : ${v})`;
    case "record": {
      const fields = lookup(types.records, t.name, "record").fields
        .filter((f) => holdsEnum(types, f.type))
        .map((f) => `${str(f.name)}: ${folded(types, f.type, `$lookup(${v}, ${str(f.name)})`, depth + 1)}`);
      return `(${v} := ${x}; $type(${v}) = "object" ? $merge([${v}, {${fields.join(", ")}}]) : ${v})`;
    }
    case "int":
    case "num":
    case "string":
    case "bool":
    case "timestamp":
    case "date":
    case "json":
      return x;
    default:
      return unreachable(t, "type");
  }
}
