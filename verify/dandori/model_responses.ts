/**
 * What a model's API answers, as the provider sends it: the Responses API's response (OpenAI's and
 * an Open Responses server's) and the Messages API's (Claude's), around the JSON text of
 * `{"answer": …}`, or refusing. The Step Functions verifier hands them to an agent's HTTP Task; the
 * agents' wire check (`agent_wire.ts`) answers the SDKs' requests with them.
 * @module
 */

import type { Plain } from "./asl_run.ts";

/**
 * What a model answers `{"answer": v}` in: the Responses API's response (a reasoning item, then a
 * message whose `output_text` is the JSON), or the Messages API's (a thinking block, then the text,
 * `end_turn`).
 */
export function modelAnswer(provider: "openai" | "claude", v: Plain): Plain {
  const text = JSON.stringify({ answer: v });
  if (provider === "claude") {
    return {
      type: "message",
      role: "assistant",
      content: [{ type: "thinking", thinking: "…", signature: "s" }, { type: "text", text }],
      stop_reason: "end_turn",
    };
  }
  return {
    object: "response",
    status: "completed",
    output: [
      { type: "reasoning", summary: [] },
      {
        type: "message",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text, annotations: [] }],
      },
    ],
  };
}

/**
 * What a model refuses with: a message whose content is a `refusal`, no `output_text` (the Responses
 * API), or `stop_reason` `refusal` with no text (the Messages API). The state machine's reading of it
 * fails the Task, which is how `failure` reaches an agent's Retry and Catch.
 */
export function modelRefusal(provider: "openai" | "claude"): Plain {
  if (provider === "claude") {
    return { type: "message", role: "assistant", content: [], stop_reason: "refusal" };
  }
  return {
    object: "response",
    status: "completed",
    output: [{
      type: "message",
      role: "assistant",
      status: "completed",
      content: [{ type: "refusal", refusal: "I cannot help with that." }],
    }],
  };
}
