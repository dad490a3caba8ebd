/**
 * Agent tasks (lang/dandori/agents.ts, agent_check.ts, agent_requests.ts): each provider's limits on
 * a result type's schema at their edges (one under passes, one over is E007), the secrets and plain
 * HTTP an agent is judged by; the schema and the request bodies of OpenAI, Open Responses and Claude,
 * exactly; a Claude answer's enum values read without case; a flow with an agent checks, plans,
 * runs, draws and generates scenarios, and builds on every target but Step Functions, which stops
 * it with nothing written for what stops any HTTP Task;
 * and no planted API key reaches any output.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  MAX_CLAUDE_ANY_OF,
  MAX_SCHEMA_ENUM_VALUES,
  MAX_SCHEMA_NESTING,
  MAX_SCHEMA_PROPERTIES,
  schemaSize,
} from "../../lang/dandori/agents.ts";
import {
  type AgentPlan,
  agentRequest,
  answerSchema,
  CLAUDE_MAX_TOKENS,
  CLAUDE_MESSAGES_URL,
  OPENAI_RESPONSES_URL,
} from "../../lang/dandori/agent_requests.ts";
import { checkFlow } from "../../lang/dandori/check.ts";
import { runFlow } from "../../lang/dandori/interp.ts";
import { DATE_PATTERN, TIMESTAMP_PATTERN } from "../../lang/dandori/rules.ts";
import { ScenarioAnswers } from "../../lang/dandori/scenario.ts";
import { DANDORI_TARGET_NAMES } from "../../targets/dandori/targets.ts";
import { checkedFlow } from "../support/flows.ts";
import { NO_SUCH_FILE } from "../../lang/dandori/env.ts";
import type { FlowModel } from "../../lang/dandori/model.ts";
import { findOne, lookup } from "../../lang/common/assert.ts";
import { runCli, runCliAsync } from "../support/run.ts";

/** Checks a flow held in memory: its diagnostics' codes and messages, and its model. */
function checked(text: string): { codes: string[]; messages: string[]; model: FlowModel | null } {
  const result = checkFlow("agents.flow", text, { read: () => NO_SUCH_FILE });
  const said = result.diagnostics;
  strictEqual(
    result.checked !== null,
    !said.some((d) => d.severity === "error"),
    "a flow with an agent is read on exactly when no error is said",
  );
  return {
    codes: said.map((d) => d.code),
    messages: said.map((d) => d.message.en),
    model: result.model,
  };
}

/** A flow of one agent task `t` with the declarations and items given, called once. */
function agentFlow(
  decls: string,
  result: string,
  items = 'agent "Read it."\n  model "gpt-5.4-mini"',
): string {
  return `workflow agents v1\n\n${decls}\n\ntask t(text: string) -> ${result}\n  ${items}\n\nflow\n  t(text: "a")\n`;
}

/** `count` records chained, the last with one `int`: `count` + 1 levels of objects with the wrapper. */
function chain(count: number): string {
  return Array.from(
    { length: count },
    (_, i) => `record R${i}\n  ${i === count - 1 ? "leaf : int" : `next : R${i + 1}`}`,
  ).join("\n\n");
}

/** Records whose schema has exactly `n` properties with the wrapper's `answer`: `fields` × `inner` + `fields` + 1. */
function wide(fields: number, inner: number): string {
  const leaf = Array.from({ length: inner }, (_, i) => `  x${i} : int`).join("\n");
  const top = Array.from({ length: fields }, (_, i) => `  y${i} : Leaf`).join("\n");
  return `record Leaf\n${leaf}\n\nrecord Top\n${top}`;
}

Deno.test("OpenAI's limits at their edges: nesting, properties, enum values; one over is E007 naming the limit", () => {
  // 9 records and the wrapper are 10 levels; 10 records are 11.
  deepStrictEqual(checked(agentFlow(chain(MAX_SCHEMA_NESTING - 1), "R0")).codes, []);
  const deep = checked(agentFlow(chain(MAX_SCHEMA_NESTING), "R0"));
  deepStrictEqual(deep.codes, ["E007"]);
  ok(deep.messages[0].includes("11 levels of objects") && deep.messages[0].includes("MAX_SCHEMA_NESTING"));
  // 70 × 70 + 70 + 1 = 4,971; 70 × 70 + 70 + 1 + 70 = 5,041 past 5,000.
  deepStrictEqual(checked(agentFlow(wide(70, 70), "Top")).codes, []);
  const broad = checked(agentFlow(wide(70, 71), "Top"));
  deepStrictEqual(broad.codes, ["E007"]);
  ok(
    broad.messages[0].includes("more than 5000 properties") &&
      broad.messages[0].includes("MAX_SCHEMA_PROPERTIES"),
  );
  // An enum of 100 values in 10 fields is 1,000 values; in 11, 1,001.
  const values = `enum V = ${Array.from({ length: 100 }, (_, i) => `v${i}`).join(" | ")}`;
  const fields = (n: number) => `record Vs\n${Array.from({ length: n }, (_, i) => `  f${i} : V`).join("\n")}`;
  deepStrictEqual(checked(agentFlow(`${values}\n\n${fields(10)}`, "Vs")).codes, []);
  const many = checked(agentFlow(`${values}\n\n${fields(11)}`, "Vs"));
  deepStrictEqual(many.codes, ["E007"]);
  ok(many.messages[0].includes("1100 enum values") && many.messages[0].includes("MAX_SCHEMA_ENUM_VALUES"));
  strictEqual(MAX_SCHEMA_PROPERTIES, 5_000);
  strictEqual(MAX_SCHEMA_ENUM_VALUES, 1_000);
});

Deno.test("OpenAI's limits hold for OpenAI only: an Open Responses server (url) and Claude take a deeper schema", () => {
  const deep = chain(MAX_SCHEMA_NESTING);
  const local = 'agent "Read it."\n  model "llama3.2"\n  url "https://models.example.com/v1"';
  deepStrictEqual(checked(agentFlow(deep, "R0", local)).codes, []);
  deepStrictEqual(
    checked(agentFlow(deep, "R0", 'agent claude "Read it."\n  model "claude-sonnet-5"')).codes,
    [],
  );
});

Deno.test("Claude's 16 choices with null: 16 optional fields pass, 17 are E007; OpenAI takes 17", () => {
  const maybes = (n: number) =>
    `record M\n${Array.from({ length: n }, (_, i) => `  m${i} : string?`).join("\n")}`;
  const claude = 'agent claude "Read it."\n  model "claude-sonnet-5"';
  deepStrictEqual(checked(agentFlow(maybes(MAX_CLAUDE_ANY_OF), "M", claude)).codes, []);
  const over = checked(agentFlow(maybes(MAX_CLAUDE_ANY_OF + 1), "M", claude));
  deepStrictEqual(over.codes, ["E007"]);
  ok(over.messages[0].includes("17 choices with null") && over.messages[0].includes("MAX_CLAUDE_ANY_OF"));
  deepStrictEqual(checked(agentFlow(maybes(MAX_CLAUDE_ANY_OF + 1), "M")).codes, []);
});

Deno.test("a record named in many places is counted once per place, and counting stops past the limit", () => {
  // 13 levels of 2 fields each of the next: 2 + 4 + … + 2^13 properties, and the wrapper's.
  const levels = Array.from(
    { length: 13 },
    (_, i) =>
      `record L${i}\n  a : ${i === 12 ? "int" : `L${i + 1}`}\n  b : ${i === 12 ? "int" : `L${i + 1}`}`,
  ).join("\n\n");
  const result = checked(agentFlow(levels, "L0"));
  deepStrictEqual(result.codes, ["E007", "E007"]);
  ok(result.messages[0].includes("14 levels of objects"), result.messages[0]);
  ok(result.messages[1].includes("more than 5000 properties"), result.messages[1]);
  const { model } = checked(agentFlow(levels, "L0", 'agent claude "Read it."\n  model "claude-sonnet-5"'));
  ok(model !== null);
  const size = schemaSize(lookup(model.tasks, "t", "task").result?.type ?? { kind: "int" }, model.types);
  ok(!("fault" in size));
  strictEqual(size.nesting, 14);
  strictEqual(size.properties, MAX_SCHEMA_PROPERTIES + 1, "counting stops past the limit");
  // Two levels of 2: 2 + 4 + the wrapper's one.
  const small = checked(agentFlow("record A\n  a : B\n  b : B\n\nrecord B\n  x : int\n  y : int", "A"));
  ok(small.model !== null);
  const two = schemaSize(
    lookup(small.model.tasks, "t", "task").result?.type ?? { kind: "int" },
    small.model.types,
  );
  deepStrictEqual(two, { nesting: 3, properties: 7, enumValues: 0, anyOfs: 0 });
});

Deno.test("a secret sent to an agent is E906 naming the provider; a plain http url off this machine is W902 until plaintext", () => {
  const secret = (items: string) =>
    `workflow agents v1\n\ntask t(text: string secret) -> string\n  ${items}\n\nflow\n  t(text: "a")\n`;
  const openai = checked(secret('agent "Read it."\n  model "gpt-5.4-mini"'));
  ok(openai.codes.includes("E906"), openai.codes.join());
  ok(openai.messages.some((m) => m.includes("OpenAI")), openai.messages.join("\n"));
  const claude = checked(secret('agent claude "Read it."\n  model "claude-sonnet-5"'));
  ok(claude.messages.some((m) => m.includes("Anthropic")), claude.messages.join("\n"));
  deepStrictEqual(
    checked(secret('agent "Read it."\n  model "llama3.2"\n  url "http://127.0.0.1:11434/v1"')).codes.filter((
      c,
    ) => c !== "W904"),
    [],
  );
  const plain = 'agent "Read it."\n  model "llama3.2"\n  url "http://ollama.internal:11434/v1"';
  deepStrictEqual(checked(agentFlow("", "string", plain)).codes, ["W902"]);
  deepStrictEqual(
    checked(agentFlow("", "string", `${plain}\n  plaintext "the model runs on our network"`)).codes,
    [],
  );
  deepStrictEqual(
    checked(agentFlow("", "string", 'agent "Read it."\n  model "gpt-5.4-mini"\n  plaintext "no"')).codes,
    ["E007"],
  );
});

Deno.test("a retried agent needs no key: no E030 or W030", () => {
  deepStrictEqual(
    checked(agentFlow("", "string", 'agent "Read it."\n  model "gpt-5.4-mini"\n  retry 2 times')).codes,
    [],
  );
});

const FLOW = "tests/dandori/flows/agent_task.flow";

Deno.test("the schema wraps the result in {answer}: every field required, none other, T? a choice with null, enums their values", () => {
  const { model } = checked(
    agentFlow(
      "enum Kind = a | B\n\nrecord R\n  kind : Kind\n  at   : timestamp?\n  n    : list[int]\n  day  : date",
      "R",
    ),
  );
  if (model === null) throw new Error("the flow checks");
  const t = lookup(model.tasks, "t", "task");
  if (t.result === null) throw new Error("t has a result");
  deepStrictEqual(answerSchema(t.result.type, model.types), {
    type: "object",
    properties: {
      answer: {
        type: "object",
        properties: {
          kind: { type: "string", enum: ["a", "B"] },
          at: { anyOf: [{ type: "string", pattern: TIMESTAMP_PATTERN.source }, { type: "null" }] },
          n: { type: "array", items: { type: "integer" } },
          day: { type: "string", pattern: DATE_PATTERN.source },
        },
        required: ["kind", "at", "n", "day"],
        additionalProperties: false,
      },
    },
    required: ["answer"],
    additionalProperties: false,
  });
});

/** The agent plan of `task` in the plan of tests/dandori/flows/agent_task.flow. */
function agentOf(task: string): AgentPlan {
  const f = checkedFlow(FLOW);
  if (f === null) throw new Error("agent_task.flow checks");
  const callee = findOne(f.plan.tasks, (t) => t.name === task, task).callee;
  if (callee.kind !== "agent") throw new Error(`${task} is an agent`);
  return callee;
}

Deno.test("OpenAI's request: model, instructions, the arguments as one JSON string, the schema named answer, strict, effort only when written", () => {
  const read = agentRequest(agentOf("read_inquiry"), { text: "where?" });
  strictEqual(read.url, OPENAI_RESPONSES_URL);
  deepStrictEqual(read.headers, {});
  deepStrictEqual(Object.keys(read.body as Record<string, unknown>), [
    "model",
    "instructions",
    "input",
    "text",
    "reasoning",
  ]);
  const body = read.body as Record<string, unknown>;
  strictEqual(body.model, "gpt-5.4-mini");
  strictEqual(body.input, '{"text":"where?"}');
  deepStrictEqual(body.reasoning, { effort: "low" });
  deepStrictEqual(Object.keys((body.text as { format: object }).format), [
    "type",
    "name",
    "schema",
    "strict",
  ]);
  const local = agentRequest(agentOf("read_locally"), { text: "where?" });
  strictEqual(local.url, "http://127.0.0.1:11434/v1/responses", "an Open Responses server's <url>/responses");
  ok(!Object.hasOwn(local.body as object, "reasoning"), "no effort written, none sent");
});

Deno.test("Claude's request: system, one user message, output_config.format, max_tokens 16000, anthropic-version; arguments in declaration order", () => {
  const draft = agentRequest(agentOf("draft_reply"), { kind: "billing", text: "t", tone: "Formal" });
  strictEqual(draft.url, CLAUDE_MESSAGES_URL);
  deepStrictEqual(draft.headers, { "anthropic-version": "2023-06-01" });
  const body = draft.body as Record<string, unknown>;
  deepStrictEqual(Object.keys(body), ["model", "max_tokens", "system", "messages", "output_config"]);
  strictEqual(body.max_tokens, BigInt(CLAUDE_MAX_TOKENS));
  deepStrictEqual(body.messages, [{
    role: "user",
    content: '{"kind":"billing","text":"t","tone":"Formal"}',
  }]);
  const config = body.output_config as Record<string, unknown>;
  deepStrictEqual(Object.keys(config), ["format", "effort"]);
  strictEqual(config.effort, "xhigh");
  const tone = agentRequest(agentOf("choose_tone"), { kind: "billing" }).body as Record<string, unknown>;
  deepStrictEqual(Object.keys(tone.output_config as object), ["format"], "no effort written, none sent");
});

Deno.test("a Claude answer's enum values are read without case; an OpenAI answer's are not", () => {
  const f = checkedFlow(FLOW);
  if (f === null) throw new Error("agent_task.flow checks");
  const reading = { kind: "billing", order_id: null, due: null, items: [], sure: 5n };
  const run = (tone: string) =>
    runFlow(f.checked, {
      input: {},
      now: ["2026-03-31T15:30:00Z", "2026-03-31T15:30:00Z"],
      answers: new ScenarioAnswers([
        { kind: "ok", value: reading },
        { kind: "ok", value: tone },
        { kind: "ok", value: "billing" },
        { kind: "ok", value: "Hello." },
      ]),
      execution: "run-1",
      children: false,
    });
  const folded = run("FORMAL");
  strictEqual(folded.ending.kind, "succeed");
  deepStrictEqual(folded.calls[3].args, { kind: "billing", text: "where is my parcel?", tone: "Formal" });
  strictEqual(run("cAsUaL").calls[3].args.tone, "casual");
  const openai = runFlow(f.checked, {
    input: {},
    now: ["2026-03-31T15:30:00Z", "2026-03-31T15:30:00Z"],
    answers: new ScenarioAnswers([{ kind: "ok", value: { ...reading, kind: "BILLING" } }]),
    execution: "run-1",
    children: false,
  });
  deepStrictEqual(openai.ending.kind === "fail" ? openai.ending.error : null, "Dandori.BadResponse");
});

Deno.test("a flow with an agent checks, plans, runs, draws and has scenarios; it builds on every target but Step Functions, which stops it at what stops any HTTP Task, nothing written", async () => {
  for (const command of ["check", "plan", "scenarios", "doc"]) {
    const run = runCli(["dandori", command, FLOW]);
    strictEqual(run.code, 0, `${command}: ${run.stderr}`);
  }
  const scenarios = runCli(["dandori", "scenarios", FLOW]);
  ok(scenarios.stdout.includes("enum case changed choose_tone"), "the case family is generated");
  ok(
    scenarios.stdout.includes("outside read_inquiry.sure above"),
    "an answer outside its range is generated",
  );
  const files = { "agents.flow": Deno.readTextFileSync(FLOW), "s.json": scenarios.stdout };
  const run = runCli(["dandori", "run", "agents.flow", "--scenario", "s.json", "--target", "transport"], {
    files,
  });
  strictEqual(run.code, 0, run.stderr);
  ok(run.stdout.includes('"url":"https://api.anthropic.com/v1/messages"'), run.stdout);
  for (const target of DANDORI_TARGET_NAMES) {
    const build = await runCliAsync(["dandori", "build", "agents.flow", "--target", target, "--out", "out"], {
      files,
    });
    if (target !== "stepfunctions") {
      strictEqual(build.code, 0, `${target} builds agents: ${build.stderr}`);
      continue;
    }
    strictEqual(build.code, 1, build.stderr);
    ok(!build.stderr.includes("out/"), "nothing written");
    strictEqual(build.stderr.split("error[E050]").length - 1, 4, build.stderr);
    ok(build.stderr.includes('`read_inquiry` needs `connection "<arn>"`'), build.stderr);
    ok(
      build.stderr.includes("`read_locally` sends to a URL that is not written as https://"),
      build.stderr,
    );
  }
});

Deno.test("a planted API key reaches no output: check, plan, scenarios, run, doc, and a build on every target", async () => {
  const planted = "sk-planted-0123456789abcdef";
  const env = { OPENAI_API_KEY: planted, ANTHROPIC_API_KEY: planted };
  const files = { "agents.flow": Deno.readTextFileSync(FLOW) };
  const scenarios = runCli(["dandori", "scenarios", "agents.flow"], { files, env });
  const withScenarios = { ...files, "s.json": scenarios.stdout };
  const runs = [
    scenarios,
    runCli(["dandori", "check", "agents.flow"], { files, env }),
    runCli(["dandori", "plan", "agents.flow", "--format", "json"], { files, env }),
    runCli(["dandori", "doc", "agents.flow"], { files, env }),
    ...["transport", "temporal"].map((view) =>
      runCli(["dandori", "run", "agents.flow", "--scenario", "s.json", "--target", view], {
        files: withScenarios,
        env,
      })
    ),
  ];
  for (const r of runs) {
    strictEqual(r.code, 0, r.stderr);
    ok(r.stdout.length > 0);
    ok(!`${r.stdout}${r.stderr}`.includes(planted), "the key is in no output");
  }
  const inquiry = { "inquiry.flow": Deno.readTextFileSync("examples/inquiry/inquiry.flow") };
  const sends: readonly (readonly [string, string, string])[] = [
    ["stepfunctions", "arn:aws:states:::http:invoke", "the connection holds it"],
    ["temporal-typescript", "io.agent(transport, request", "its SDK reads it from the environment"],
    ["temporal-python", "io.agent(self._transport, request", "its SDK reads it from the environment"],
    ["temporal-go", "transport.Agent(ctx, request)", "it is read from the environment as it is sent"],
    ["durable", "io.agent(transport, request", "its SDK reads it from the environment"],
    ["argo", "io.agent(transport, request", "its SDK reads it from the environment"],
    ["pydantic-graph", "io.agent(self._transport, request", "its SDK reads it from the environment"],
  ];
  deepStrictEqual(sends.map(([t]) => t).sort(), [...DANDORI_TARGET_NAMES].sort(), "every target is built");
  for (const [target, sent, why] of sends) {
    const built = await runCliAsync(
      ["dandori", "build", "inquiry.flow", "--target", target, "--out", "out"],
      {
        files: inquiry,
        env,
      },
    );
    strictEqual(built.code, 0, built.stderr);
    const written = Object.values(built.written).join("\n");
    ok(written.includes(sent), `${target}: the agents' requests are sent`);
    ok(!written.includes(planted), `${target}: the key is not written: ${why}`);
  }
});

Deno.test("a parent whose child flow has an agent checks and plans", () => {
  const child = agentFlow("", "string").replace("workflow agents v1", "workflow reader v1")
    .replace("task t(text: string)", "inputs\n  text : string\n\ntask t(text: string)")
    .replace('t(text: "a")', "t(text: text)");
  const parent = [
    "workflow parent v1",
    "",
    "task read(text: string)",
    '  flow "reader.flow"',
    "",
    "flow",
    '  read(text: "a")',
    "",
  ].join("\n");
  const files = { "parent.flow": parent, "reader.flow": child };
  for (const command of ["check", "plan"]) {
    const run = runCli(["dandori", command, "parent.flow"], { files });
    strictEqual(run.code, 0, `${command}: ${run.stdout}${run.stderr}`);
  }
});
