/**
 * The request every platform sends an agent and how its answer is read (lang/dandori/agent_wire.ts),
 * pinned body by body: OpenAI, an Open Responses server, Claude, each with and without an effort; a
 * valid answer, a refusal, a cut answer, text that is not JSON, JSON without `answer`, and Claude's
 * enum values read without case (OpenAI's are not).
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { lookup } from "../../lang/common/assert.ts";
import { type Json, stringifyJson } from "../../lang/common/json.ts";
import { agentInput, agentRequest, readAgentAnswer } from "../../lang/dandori/agent_wire.ts";
import { checkFlow } from "../../lang/dandori/check.ts";
import { NO_SUCH_FILE } from "../../lang/dandori/env.ts";
import type { TaskDef } from "../../lang/dandori/model.ts";
import type { TypeTable } from "../../lang/dandori/types.ts";
import type { Text } from "../../lang/common/text.ts";

const FLOW = `workflow wire v1

enum Kind = delivery | returns
enum Level = Normal | urgent

record Reading
  kind     : Kind
  levels   : list[Level]
  order_id : string?

task read(text: string, tries: int) -> Reading
  agent "Read the inquiry."
  model "gpt-5.4-mini"

task think(text: string, tries: int) -> Reading
  agent "Read the inquiry."
  model "gpt-5.4-mini"
  effort high

task local(text: string, tries: int) -> Reading
  agent "Read the inquiry."
  model "llama3.2"
  url "https://models.example.com/v1"

task draft(text: string, tries: int) -> Reading
  agent claude "Read the inquiry."
  model "claude-sonnet-5"

task draft_hard(text: string, tries: int) -> Reading
  agent claude "Read the inquiry."
  model "claude-sonnet-5"
  effort max

flow
  read(text: "a", tries: 1)
  think(text: "a", tries: 1)
  local(text: "a", tries: 1)
  draft(text: "a", tries: 1)
  draft_hard(text: "a", tries: 1)
`;

function flow(): { task: (name: string) => TaskDef; types: TypeTable } {
  const result = checkFlow("wire.flow", FLOW, { read: () => NO_SUCH_FILE });
  deepStrictEqual(result.diagnostics.map((d) => d.code), []);
  const model = result.model;
  ok(model !== null);
  return { task: (name) => lookup(model.tasks, name, "task"), types: model.types };
}

const ARGS: [string, Json][] = [["text", 'where is my parcel? "R-1"'], ["tries", 2n]];

function request(name: string): { url: string; headers: Record<string, string>; body: string } {
  const { task, types } = flow();
  const t = task(name);
  ok(t.agent !== null && t.result !== null);
  const r = agentRequest(t.agent, ARGS, t.result.type, types);
  return { url: r.url, headers: { ...r.headers }, body: stringifyJson(r.body) };
}

const SCHEMA =
  '{"type":"object","properties":{"answer":{"type":"object","properties":{"kind":{"type":"string","enum":["delivery","returns"]},"levels":{"type":"array","items":{"type":"string","enum":["Normal","urgent"]}},"order_id":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["kind","levels","order_id"],"additionalProperties":false}},"required":["answer"],"additionalProperties":false}';

const INPUT = '"{\\"text\\":\\"where is my parcel? \\\\\\"R-1\\\\\\"\\",\\"tries\\":2}"';

Deno.test("the arguments are one JSON string in declaration order, without whitespace", () => {
  strictEqual(agentInput(ARGS), '{"text":"where is my parcel? \\"R-1\\"","tries":2}');
  strictEqual(agentInput([["b", 1n], ["a", 2n]]), '{"b":1,"a":2}');
});

Deno.test("OpenAI's request: model, instructions, input, the strict schema named answer; effort only when written", () => {
  deepStrictEqual(request("read"), {
    url: "https://api.openai.com/v1/responses",
    headers: {},
    body:
      `{"model":"gpt-5.4-mini","instructions":"Read the inquiry.","input":${INPUT},"text":{"format":{"type":"json_schema","name":"answer","schema":${SCHEMA},"strict":true}}}`,
  });
  strictEqual(
    request("think").body,
    `{"model":"gpt-5.4-mini","instructions":"Read the inquiry.","input":${INPUT},"text":{"format":{"type":"json_schema","name":"answer","schema":${SCHEMA},"strict":true}},"reasoning":{"effort":"high"}}`,
  );
});

Deno.test("an Open Responses server gets the same body at <base URL>/responses", () => {
  const local = request("local");
  strictEqual(local.url, "https://models.example.com/v1/responses");
  strictEqual(local.body, request("read").body.replace('"gpt-5.4-mini"', '"llama3.2"'));
});

Deno.test("Claude's request: anthropic-version, max_tokens 16000, system, one user message, output_config", () => {
  deepStrictEqual(request("draft"), {
    url: "https://api.anthropic.com/v1/messages",
    headers: { "anthropic-version": "2023-06-01" },
    body:
      `{"model":"claude-sonnet-5","max_tokens":16000,"system":"Read the inquiry.","messages":[{"role":"user","content":${INPUT}}],"output_config":{"format":{"type":"json_schema","schema":${SCHEMA}}}}`,
  });
  strictEqual(
    request("draft_hard").body,
    `{"model":"claude-sonnet-5","max_tokens":16000,"system":"Read the inquiry.","messages":[{"role":"user","content":${INPUT}}],"output_config":{"format":{"type":"json_schema","schema":${SCHEMA}},"effort":"max"}}`,
  );
});

/** The answer read from `response`, its value as JSON text so objects compare whatever their prototype. */
function read(name: string, response: Json): { ok: true; value: string } | { ok: false; why: Text } {
  const { task, types } = flow();
  const t = task(name);
  ok(t.agent !== null && t.result !== null);
  const r = readAgentAnswer(t.agent, response, t.result.type, types);
  return r.ok ? { ok: true, value: stringifyJson(r.value) } : r;
}

const ANSWER = '{"answer":{"kind":"delivery","levels":["URGENT","normal"],"order_id":null}}';

function openAiResponse(content: Json[]): Json {
  return {
    output: [
      { type: "reasoning", summary: [] },
      { type: "message", role: "assistant", content },
    ],
  };
}

Deno.test("OpenAI: the first output_text is read as it is; no output_text (a refusal), not JSON, or no answer is a failure", () => {
  deepStrictEqual(read("read", openAiResponse([{ type: "output_text", text: ANSWER }])), {
    ok: true,
    value: '{"kind":"delivery","levels":["URGENT","normal"],"order_id":null}',
  });
  const refusal = read("read", openAiResponse([{ type: "refusal", refusal: "I can't help with that." }]));
  strictEqual(refusal.ok, false);
  ok(!refusal.ok && refusal.why.en.includes("refused"));
  const malformed = read("read", openAiResponse([{ type: "output_text", text: '{"answer": ' }]));
  ok(!malformed.ok && malformed.why.en === "the answer is not JSON");
  const bare = read("read", openAiResponse([{ type: "output_text", text: '{"kind":"delivery"}' }]));
  ok(!bare.ok && bare.why.en === "the answer has no `answer`");
  strictEqual(read("read", { output: "nothing" }).ok, false);
});

Deno.test("Claude: end_turn's text blocks are read and its enum values folded by case; another stop_reason is a failure", () => {
  const response = (stop: string): Json => ({
    content: [
      { type: "thinking", thinking: "The parcel is late.", signature: "s" },
      { type: "text", text: ANSWER.slice(0, 20) },
      { type: "text", text: ANSWER.slice(20) },
    ],
    stop_reason: stop,
  });
  deepStrictEqual(read("draft", response("end_turn")), {
    ok: true,
    value: '{"kind":"delivery","levels":["urgent","Normal"],"order_id":null}',
  });
  for (const stop of ["refusal", "max_tokens"]) {
    const r = read("draft", response(stop));
    ok(!r.ok && r.why.en.includes(`"${stop}"`), stop);
  }
  const missing = read("draft", { content: [] });
  ok(!missing.ok && missing.why.en.includes("null"));
});
