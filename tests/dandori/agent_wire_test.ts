/**
 * The agents' wire check (`verify/dandori/agent_wire.ts`): every agent call of the scenarios goes
 * through the generated default `Transport` — in TypeScript (`io.ts`), Python (`io.py`) and Go
 * (`io_agents.go`), OpenAI's and Anthropic's SDKs and plain HTTP for an Open Responses server — to a
 * local model server, once, with the view's body and the environment's key; and two breaks are
 * caught on a named call in each language: the SDKs' retries left on, and a model setting sent
 * besides the view's (the third, the enum fold removed, is a differential run's: temporal_test.ts,
 * temporal_go_test.ts, pydantic_graph_test.ts).
 */

import { deepStrictEqual, ok } from "node:assert/strict";
import { checkedFlowAt, runnableFlows } from "../../verify/dandori/flows.ts";
import { FLOW_DIRS } from "../../verify/dandori/temporal.ts";
import {
  verifyAgentWire,
  verifyGoAgentWire,
  verifyPythonAgentWire,
} from "../../verify/dandori/agent_wire.ts";
import { hasGo } from "../support/go_module.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Every agent call of the test and example flows through `verify`, with no failure, every kind of endpoint called and refused once. */
async function allWired(language: string, verify: typeof verifyAgentWire): Promise<void> {
  const started = performance.now();
  const report = await verify(runnableFlows(ROOT, FLOW_DIRS));
  deepStrictEqual(report.failures, []);
  ok(
    report.calls.openai > 0 && report.calls.claude > 0 && report.calls.responses > 0,
    JSON.stringify(report),
  );
  deepStrictEqual([...report.refused].sort(), ["claude", "openai", "responses"]);
  console.log(
    `agent wire in ${language}: ${report.calls.openai} OpenAI, ${report.calls.claude} Claude, ` +
      `${report.calls.responses} Open Responses calls, a 500 to each once, ${
        ((performance.now() - started) / 1000).toFixed(1)
      } s`,
  );
}

Deno.test({
  name:
    "every agent call of the scenarios goes through openai, @anthropic-ai/sdk or fetch once, as its view says, with the environment's key",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () => allWired("TypeScript", verifyAgentWire),
});

/** agents.flow's wire check through `verify` with the package's files changed by `mutate`: its failures. */
async function broken(
  verify: typeof verifyAgentWire,
  mutate: (files: Map<string, string>) => void,
): Promise<readonly string[]> {
  const flow = checkedFlowAt(ROOT, "tests/dandori/flows/stepfunctions/agents.flow");
  ok(flow !== null);
  return (await verify([flow], mutate)).failures;
}

/** Every `off` of `file` (one for each SDK's client) made `on` — the SDKs' retries left on — is caught on the first call to each SDK, answered 500. */
async function retriesCaught(
  verify: typeof verifyAgentWire,
  file: string,
  off: string,
  on: string,
): Promise<void> {
  const failures = await broken(verify, (files) => {
    const text = files.get(file) ?? "";
    ok(text.split(off).length === 3, "both SDK clients are told not to retry");
    files.set(file, text.replaceAll(off, on));
  });
  deepStrictEqual(failures, [
    "tests/dandori/flows/stepfunctions/agents.flow run-1 line 49 answered 500: 3 requests arrived, where one was sent",
    "tests/dandori/flows/stepfunctions/agents.flow run-1 line 50 answered 500: 3 requests arrived, where one was sent",
  ]);
}

/** `file`'s `model` (choose_tone's) followed by `setting` — a model setting more — is caught from the first call on. */
async function settingCaught(
  verify: typeof verifyAgentWire,
  file: string,
  model: string,
  setting: string,
): Promise<void> {
  const failures = await broken(verify, (files) => {
    const text = files.get(file) ?? "";
    ok(text.includes(model), "choose_tone sends its model");
    files.set(file, text.replace(model, `${model}${setting}`));
  });
  ok(failures.length > 0, "a setting more is caught");
  ok(failures.every((f) => f.includes("temperature")), failures.join("\n"));
  ok(
    failures[0].startsWith("tests/dandori/flows/stepfunctions/agents.flow run-1 line 50: the body "),
    failures[0],
  );
}

Deno.test({
  name: "the SDKs' retries left on are caught on the first call to each, answered 500",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () => retriesCaught(verifyAgentWire, "io.ts", "maxRetries: 0", "maxRetries: 2"),
});

Deno.test({
  name: "a model setting sent besides the view's is caught from the first call on",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () => settingCaught(verifyAgentWire, "activities.ts", 'model: "gpt-5.4-mini",', " temperature: 0,"),
});

Deno.test({
  name:
    "in Python, every agent call of the scenarios goes through openai, anthropic or urllib once, as its view says, with the environment's key",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () => allWired("Python", verifyPythonAgentWire),
});

Deno.test({
  name:
    "in Python, the SDKs' retries left on are caught on the first call to each, answered 500, and a model setting more from the first call on",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await retriesCaught(verifyPythonAgentWire, "io.py", "max_retries=0", "max_retries=2");
    await settingCaught(verifyPythonAgentWire, "tasks.py", '"model": "gpt-5.4-mini",', ' "temperature": 0,');
  },
});

/** The Go checks below, or a SKIP line when Go is not installed. */
function withGo(fn: () => Promise<void>): () => Promise<void> {
  return async () => (await hasGo()) ? await fn() : console.log("SKIP: go: the go command is not installed");
}

Deno.test({
  name:
    "in Go, every agent call of the scenarios goes through openai-go, anthropic-sdk-go or net/http once, as its view says, with the environment's key",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: withGo(() => allWired("Go", verifyGoAgentWire)),
});

Deno.test({
  name:
    "in Go, the SDKs' retries left on are caught on the first call to each, answered 500, and a model setting more from the first call on",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: withGo(async () => {
    await retriesCaught(verifyGoAgentWire, "io_agents.go", "WithMaxRetries(0)", "WithMaxRetries(2)");
    await settingCaught(
      verifyGoAgentWire,
      "activities.go",
      String.raw`\"model\":\"gpt-5.4-mini\",`,
      String.raw`\"temperature\":0,`,
    );
  }),
});
