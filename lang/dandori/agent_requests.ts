/**
 * What an agent task sends its model and how its answer is read (docs/dandori.md#agents), the same
 * on every platform: the result type as the strict JSON Schema of OpenAI's Structured Outputs wrapped
 * in `{"answer": …}` (`answerSchema`), and the request body of OpenAI's Responses API (an Open
 * Responses server's too, at `<url>/responses`) or of Claude's Messages API (`agentRequest`): the
 * instructions, the arguments as one JSON string in declaration order, the schema, and the effort
 * level only when the task writes one. A Claude answer's enum values are read without case
 * (`foldEnums`). The lowering writes the schema into the plan; the `transport` view of an agent call
 * is its request.
 * @module
 */

import { lookup, unreachable } from "../common/assert.ts";
import { stringifyJson } from "../common/json.ts";
import type { Provider } from "./agents.ts";
import { DATE_PATTERN, TIMESTAMP_PATTERN } from "./rules.ts";
import type { Ty, TypeTable } from "./types.ts";
import { isRecord, type Value } from "./values.ts";

/** OpenAI's Responses API. */
export const OPENAI_RESPONSES_URL = "https://api.openai.com/v1/responses";

/** Claude's Messages API. */
export const CLAUDE_MESSAGES_URL = "https://api.anthropic.com/v1/messages";

/** The path an Open Responses server's base URL (`url`) is sent to. */
export const OPEN_RESPONSES_PATH = "/responses";

/** The `max_tokens` every platform sends Claude: the Messages API requires one, thinking included. */
export const CLAUDE_MAX_TOKENS = 16_000;

/** The header `anthropic-version` every platform sends Claude. */
export const ANTHROPIC_VERSION: readonly [string, string] = ["anthropic-version", "2023-06-01"];

/** The one property the schema wraps every result in, and the name of the schema in the request. */
export const ANSWER = "answer";

/** An agent task as the plan holds it (lower.ts): who it speaks to and what it sends besides the arguments. */
export interface AgentPlan {
  readonly provider: Provider;
  readonly model: string;
  readonly instructions: string;
  /** The endpoint the request goes to: OpenAI's or Claude's, or `<url>/responses` of an Open Responses server. */
  readonly endpoint: string;
  /** `effort <level>`, or null: then nothing of effort is sent. */
  readonly effort: string | null;
  /** `{"answer": <the result type>}` as a strict JSON Schema (`answerSchema`). */
  readonly schema: Value;
}

/** Where an agent's request goes: `<url>/responses` of its Open Responses server, else its provider's API. */
export function agentEndpoint(provider: Provider, url: string | null): string {
  if (url !== null) return url.replace(/\/+$/, "") + OPEN_RESPONSES_PATH;
  return provider === "claude" ? CLAUDE_MESSAGES_URL : OPENAI_RESPONSES_URL;
}

/**
 * The strict JSON Schema of `{"answer": <ty>}`: a record's fields all required and no other allowed,
 * `T?` a choice with null, an enum its values, a `date` and a `timestamp` a string of the pattern the
 * interpreter reads, a number with a unit an integer whose description names the unit. Ranges are
 * not written (Claude's structured outputs take no `minimum`): an answer outside one is
 * `Dandori.BadResponse`, as any task's. The result type holds no `json` and no record that holds
 * itself (E007, E003), so the schema is finite.
 *
 * @example
 * ```ts
 * answerSchema({ kind: "bool" }, types);
 * // {type: "object", properties: {answer: {type: "boolean"}}, required: ["answer"], additionalProperties: false}
 * ```
 */
export function answerSchema(ty: Ty, types: TypeTable): Value {
  return object([[ANSWER, schemaOf(ty, types)]]);
}

function object(fields: readonly (readonly [string, Value])[]): Value {
  return {
    type: "object",
    properties: Object.fromEntries(fields),
    required: fields.map(([name]) => name),
    additionalProperties: false,
  };
}

function schemaOf(t: Ty, types: TypeTable): Value {
  switch (t.kind) {
    case "int":
      return { type: "integer" };
    case "num":
      return { type: "integer", description: `in ${t.unit.spelling}` };
    case "string":
      return { type: "string" };
    case "bool":
      return { type: "boolean" };
    case "date":
      return { type: "string", pattern: DATE_PATTERN.source };
    case "timestamp":
      return { type: "string", pattern: TIMESTAMP_PATTERN.source };
    case "enum":
      return { type: "string", enum: [...lookup(types.enums, t.name, "enum").values] };
    case "list":
      return { type: "array", items: schemaOf(t.element, types) };
    case "optional":
      return { anyOf: [schemaOf(t.inner, types), { type: "null" }] };
    case "record":
      return object(
        lookup(types.records, t.name, "record").fields.map((f) => [f.name, schemaOf(f.type, types)] as const),
      );
    case "json":
      throw new Error("dandori: an agent's result holds no `json` (E007)");
    default:
      return unreachable(t, "type");
  }
}

/** The request of one agent call: where it goes, the headers that say nothing secret, and the body. */
export interface AgentRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Value;
}

/**
 * The request an agent call sends, `args` being its arguments in declaration order: `agentBody` with
 * them as one JSON string, to the agent's endpoint, with `anthropic-version` for Claude. The key
 * (OpenAI's `Authorization`, Claude's `x-api-key`, a server's own headers) is the platform's to add,
 * never written here.
 */
export function agentRequest(agent: AgentPlan, args: Readonly<Record<string, Value>>): AgentRequest {
  return {
    url: agent.endpoint,
    headers: agent.provider === "claude" ? { [ANTHROPIC_VERSION[0]]: ANTHROPIC_VERSION[1] } : {},
    body: agentBody(agent, stringifyJson(args)),
  };
}

/**
 * The body of an agent's request, `input` being the arguments' JSON string (or what a target writes
 * in its place). OpenAI and Open Responses: `{model, instructions, input, text: {format: {type:
 * "json_schema", name: "answer", schema, strict: true}}, reasoning?: {effort}}`. Claude: `{model,
 * max_tokens, system, messages: [{role: "user", content: input}], output_config: {format: {type:
 * "json_schema", schema}, effort?}}`.
 */
export function agentBody(agent: AgentPlan, input: Value): Value {
  if (agent.provider === "claude") {
    const outputConfig: Record<string, Value> = { format: { type: "json_schema", schema: agent.schema } };
    if (agent.effort !== null) outputConfig.effort = agent.effort;
    return {
      model: agent.model,
      max_tokens: BigInt(CLAUDE_MAX_TOKENS),
      system: agent.instructions,
      messages: [{ role: "user", content: input }],
      output_config: outputConfig,
    };
  }
  const body: Record<string, Value> = {
    model: agent.model,
    instructions: agent.instructions,
    input,
    text: { format: { type: "json_schema", name: ANSWER, schema: agent.schema, strict: true } },
  };
  if (agent.effort !== null) body.reasoning = { effort: agent.effort };
  return body;
}

/**
 * A Claude answer's enum values read without case: each string where the type has an enum becomes
 * the declared value equal to it but for case (E007 keeps two such values out of one enum). What is
 * not of the type's shape is left as it is, for the check of the answer to refuse.
 */
export function foldEnums(t: Ty, types: TypeTable, v: Value): Value {
  return mapEnumValues(t, types, v, (value, declared) => {
    const lower = value.toLowerCase();
    return declared.find((x) => x.toLowerCase() === lower) ?? value;
  });
}

/**
 * `v` with `f` applied to each string where `t` has an enum (given the enum's declared values), at
 * any depth of records, lists and `T?`; what is not of the type's shape is left as it is.
 */
export function mapEnumValues(
  t: Ty,
  types: TypeTable,
  v: Value,
  f: (value: string, declared: readonly string[]) => string,
): Value {
  switch (t.kind) {
    case "enum":
      return typeof v === "string" ? f(v, lookup(types.enums, t.name, "enum").values) : v;
    case "optional":
      return v === null ? v : mapEnumValues(t.inner, types, v, f);
    case "list":
      return Array.isArray(v) ? v.map((x) => mapEnumValues(t.element, types, x, f)) : v;
    case "record": {
      if (!isRecord(v)) return v;
      const out: Record<string, Value> = { ...v };
      for (const field of lookup(types.records, t.name, "record").fields) {
        if (Object.hasOwn(v, field.name)) {
          out[field.name] = mapEnumValues(field.type, types, v[field.name], f);
        }
      }
      return out;
    }
    case "int":
    case "num":
    case "string":
    case "bool":
    case "date":
    case "timestamp":
    case "json":
      return v;
    default:
      return unreachable(t, "type");
  }
}
