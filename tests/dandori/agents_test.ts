/**
 * Agent tasks (lang/dandori/agents.ts, agent_check.ts): each provider's limits on a result type's
 * schema at their edges (one under passes, one over is E007), the secrets and plain HTTP an agent is
 * judged by, and the stop after the check: a flow with an agent, or with a child flow that has one,
 * passes every other check and then says E018 and exits 2 on `check`, `plan`, `run`, `scenarios`,
 * `doc` and `build`.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  MAX_CLAUDE_ANY_OF,
  MAX_SCHEMA_ENUM_VALUES,
  MAX_SCHEMA_NESTING,
  MAX_SCHEMA_PROPERTIES,
  schemaSize,
} from "../../lang/dandori/agents.ts";
import { checkFlow } from "../../lang/dandori/check.ts";
import { NO_SUCH_FILE } from "../../lang/dandori/env.ts";
import type { FlowModel } from "../../lang/dandori/model.ts";
import { lookup } from "../../lang/common/assert.ts";
import { type Run, runCli } from "../support/run.ts";

/**
 * Checks a flow held in memory: its diagnostics' codes but the E018 that stops a flow with an agent
 * once every other check passed (which it asserts is there then, and last), and its model.
 */
function checked(text: string): { codes: string[]; messages: string[]; model: FlowModel | null } {
  const result = checkFlow("agents.flow", text, { read: () => NO_SUCH_FILE });
  const said = result.diagnostics.filter((d) => d.code !== "E018");
  const stopped = result.diagnostics.length > said.length;
  strictEqual(
    stopped,
    !said.some((d) => d.severity === "error"),
    "E018 exactly when nothing else is an error",
  );
  strictEqual(result.checked, null, "a flow with an agent is never read past the check");
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

/** A command that stopped at the agent's E018: exit 2, and (but for `check`, which prints it) nothing on stdout. */
function stops(run: Run, what: string): void {
  const said = what === "check" ? run.stdout : run.stderr;
  strictEqual(run.code, 2, `${what}: ${run.stdout}${run.stderr}`);
  ok(said.includes("error[E018]") && said.includes("does not yet plan, run, draw or build"), said);
  if (what !== "check") strictEqual(run.stdout, "", what);
}

Deno.test("a flow with an agent and no other error stops at E018 with exit 2 on check, plan, run, scenarios, doc and build", () => {
  const flow = "tests/dandori/flows/agent_task.flow";
  stops(runCli(["dandori", "check", flow]), "check");
  stops(runCli(["dandori", "plan", flow]), "plan");
  stops(runCli(["dandori", "scenarios", flow]), "scenarios");
  stops(runCli(["dandori", "doc", flow]), "doc");
  for (const target of ["stepfunctions", "temporal-typescript", "durable"]) {
    stops(runCli(["dandori", "build", flow, "--target", target, "--out", "/tmp/never"]), `build ${target}`);
  }
  const files = { "agents.flow": Deno.readTextFileSync(flow), "s.json": "[]" };
  stops(runCli(["dandori", "run", "agents.flow", "--scenario", "s.json"], { files }), "run");
});

Deno.test("a parent whose child flow has an agent stops at E018 at the flow task", () => {
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
  stops(runCli(["dandori", "check", "parent.flow"], { files }), "check");
  const plan = runCli(["dandori", "plan", "parent.flow"], { files });
  stops(plan, "plan");
  ok(
    plan.stderr.includes('the child flow "reader.flow" has one') && plan.stderr.includes("parent.flow:3:1"),
    plan.stderr,
  );
});
