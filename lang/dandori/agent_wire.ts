/**
 * What goes to an agent's model and how its answer is read (docs/dandori.md#agents): the one
 * definition the interpreter's views and every target's request are held to. Every platform sends
 * the same three things, the instructions, the arguments as one JSON string (in declaration order,
 * without whitespace) and the result's schema (agents.ts), and the effort level only when the task
 * writes one; no other model setting.
 *
 * - OpenAI, or an Open Responses server (`url`): `POST <base>/responses` with `model`,
 *   `instructions`, `input`, `text.format` (`json_schema` named `answer`, `strict`) and
 *   `reasoning.effort`. The answer is the first `output_text` of a `message`; none (a refusal) is a
 *   failure.
 * - Claude: `POST https://api.anthropic.com/v1/messages` with `anthropic-version`, and `model`,
 *   `max_tokens` (16,000), `system`, one user message and `output_config` (`format`, `effort`). A
 *   `stop_reason` other than `end_turn` (a refusal, an answer cut at `max_tokens`) is a failure; the
 *   answer is the text blocks joined, and its enum values are read without case.
 *
 * The answer is `{"answer": <value>}`; text that is not JSON, or JSON without `answer`, is a
 * failure. The value is then checked against the result type like any task's (`values.ts`).
 * @module
 */

import { lookup, unreachable } from "../common/assert.ts";
import { type Json, JsonError, parseJson, stringifyJson } from "../common/json.ts";
import { type Text, tr } from "../common/text.ts";
import { answerSchema, ANTHROPIC_VERSION, CLAUDE_MAX_TOKENS } from "./agents.ts";
import type { AgentDef } from "./model.ts";
import type { Ty, TypeTable } from "./types.ts";
import { isRecord, member } from "./values.ts";

/** OpenAI's Responses API, where an agent without `url` sends. */
export const OPENAI_RESPONSES_URL = "https://api.openai.com/v1/responses";

/** Claude's Messages API. */
export const CLAUDE_MESSAGES_URL = "https://api.anthropic.com/v1/messages";

/** One request to a model: where, the headers dandori adds (never a key: that is the platform's), and the body. */
export interface AgentRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Json;
}

/**
 * The arguments as the model reads them: one JSON object, the parameters in declaration order,
 * no whitespace.
 *
 * @example
 * ```ts
 * agentInput([["text", "where is my parcel?"], ["tries", 2n]]); // '{"text":"where is my parcel?","tries":2}'
 * ```
 */
export function agentInput(args: readonly (readonly [string, Json])[]): string {
  return stringifyJson(Object.fromEntries(args));
}

/** The request an agent task sends for these arguments, its result type's schema in it. */
export function agentRequest(
  agent: AgentDef,
  args: readonly (readonly [string, Json])[],
  result: Ty,
  types: TypeTable,
): AgentRequest {
  const schema = answerSchema(result, types);
  const input = agentInput(args);
  switch (agent.provider) {
    case "openai":
      return {
        url: agent.url === null ? OPENAI_RESPONSES_URL : `${agent.url.text}/responses`,
        headers: {},
        body: {
          model: agent.model,
          instructions: agent.instructions,
          input,
          text: { format: { type: "json_schema", name: "answer", schema, strict: true } },
          ...(agent.effort === null ? {} : { reasoning: { effort: agent.effort } }),
        },
      };
    case "claude":
      return {
        url: CLAUDE_MESSAGES_URL,
        headers: { "anthropic-version": ANTHROPIC_VERSION },
        body: {
          model: agent.model,
          max_tokens: BigInt(CLAUDE_MAX_TOKENS),
          system: agent.instructions,
          messages: [{ role: "user", content: input }],
          output_config: {
            format: { type: "json_schema", schema },
            ...(agent.effort === null ? {} : { effort: agent.effort }),
          },
        },
      };
    default:
      return unreachable(agent.provider, "provider");
  }
}

/** What a model's response says: the answer's value, or why the call failed (`failure`). */
export type AgentAnswer = { readonly ok: true; readonly value: Json } | {
  readonly ok: false;
  readonly why: Text;
};

function failed(why: Text): AgentAnswer {
  return { ok: false, why };
}

/**
 * Reads a model's response body: the answer's value (for Claude, its enum values read without
 * case against `result`), or why it is a failure.
 */
export function readAgentAnswer(agent: AgentDef, response: Json, result: Ty, types: TypeTable): AgentAnswer {
  switch (agent.provider) {
    case "openai": {
      const text = firstOutputText(response);
      if (text === null) {
        return failed(tr(
          "the response has no `output_text`: the model refused or gave no answer",
          "応答に `output_text` がありません。モデルが拒否したか、答えませんでした",
        ));
      }
      return answerOf(text);
    }
    case "claude": {
      const stop = member(response, "stop_reason");
      if (stop !== "end_turn") {
        return failed(tr(
          `the answer did not end its turn (\`stop_reason\` ${
            stringifyJson(stop ?? null)
          }): a refusal, or cut at \`max_tokens\``,
          `応答が一つの手番として終わっていません(\`stop_reason\` が ${
            stringifyJson(stop ?? null)
          })。拒否か、\`max_tokens\` で切れた応答です`,
        ));
      }
      const read = answerOf(textBlocks(response));
      return read.ok ? { ok: true, value: foldEnums(read.value, result, types) } : read;
    }
    default:
      return unreachable(agent.provider, "provider");
  }
}

/** The `text` of the first `output_text` of the first `message` that has one, or null. */
function firstOutputText(response: Json): string | null {
  const output = member(response, "output");
  if (!Array.isArray(output)) return null;
  for (const item of output) {
    if (member(item, "type") !== "message") continue;
    const content = member(item, "content");
    if (!Array.isArray(content)) continue;
    for (const part of content) {
      const text = member(part, "text");
      if (member(part, "type") === "output_text" && typeof text === "string") return text;
    }
  }
  return null;
}

/** The `text` blocks of a Messages API response, joined (thinking blocks are left out). */
function textBlocks(response: Json): string {
  const content = member(response, "content");
  if (!Array.isArray(content)) return "";
  return content.flatMap((block) => {
    const text = member(block, "text");
    return member(block, "type") === "text" && typeof text === "string" ? [text] : [];
  }).join("");
}

/** The `answer` of the model's JSON text, or why it cannot be read. */
function answerOf(text: string): AgentAnswer {
  let parsed: Json;
  try {
    parsed = parseJson(text);
  } catch (e) {
    if (!(e instanceof JsonError)) throw e;
    return failed(tr("the answer is not JSON", "応答が JSON ではありません"));
  }
  if (!isRecord(parsed) || !Object.hasOwn(parsed, "answer")) {
    return failed(tr("the answer has no `answer`", "応答に `answer` がありません"));
  }
  return { ok: true, value: parsed.answer };
}

/**
 * `value` with every enum value at an enum place of `ty` that equals a declared value but for case
 * replaced by the declared value (Claude's structured outputs may change an enum value's case). A
 * value that does not fit the type is left as it is, for the type check to refuse.
 */
export function foldEnums(value: Json, ty: Ty, types: TypeTable): Json {
  switch (ty.kind) {
    case "enum": {
      if (typeof value !== "string") return value;
      const declared = lookup(types.enums, ty.name, "enum").values;
      return declared.find((v) => v.toLowerCase() === value.toLowerCase()) ?? value;
    }
    case "optional":
      return value === null ? value : foldEnums(value, ty.inner, types);
    case "list":
      return Array.isArray(value) ? value.map((v) => foldEnums(v, ty.element, types)) : value;
    case "record": {
      if (!isRecord(value)) return value;
      const fields = lookup(types.records, ty.name, "record").fields;
      // Without a prototype, as parseJson reads an object: a field named `__proto__` is a field.
      const folded: { [key: string]: Json } = Object.create(null);
      for (const [k, v] of Object.entries(value)) {
        const field = fields.find((f) => f.name === k);
        folded[k] = field === undefined ? v : foldEnums(v, field.type, types);
      }
      return folded;
    }
    case "int":
    case "num":
    case "string":
    case "bool":
    case "timestamp":
    case "date":
    case "json":
      return value;
    default:
      return unreachable(ty, "type");
  }
}
