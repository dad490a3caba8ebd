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

/** Where each break is made in one language's package: a file's text and what it is made. */
interface Break {
  readonly file: string;
  readonly from: string;
  readonly to: string;
}

/**
 * agents.flow's wire check through `verify` with two breaks made at once (each in a file of its own,
 * so one run shows both): `retries`, every SDK client's retries left on (its `from` once for each of
 * the two clients), caught on the first call to each SDK, answered 500, and nowhere else; `setting`,
 * choose_tone's model followed by a model setting more (`temperature`), caught on every call that
 * is answered from run-1 line 50 on.
 */
async function breaksCaught(verify: typeof verifyAgentWire, retries: Break, setting: Break): Promise<void> {
  const flow = checkedFlowAt(ROOT, "tests/dandori/flows/stepfunctions/agents.flow");
  ok(flow !== null);
  const { failures } = await verify([flow], (files) => {
    const io = files.get(retries.file) ?? "";
    ok(io.split(retries.from).length === 3, "both SDK clients are told not to retry");
    files.set(retries.file, io.replaceAll(retries.from, retries.to));
    const text = files.get(setting.file) ?? "";
    ok(text.includes(setting.from), "choose_tone sends its model");
    files.set(setting.file, text.replace(setting.from, setting.to));
  });
  const probes = failures.filter((f) => f.includes(" answered 500: "));
  deepStrictEqual(probes, [
    "tests/dandori/flows/stepfunctions/agents.flow run-1 line 49 answered 500: 3 requests arrived, where one was sent",
    "tests/dandori/flows/stepfunctions/agents.flow run-1 line 50 answered 500: 3 requests arrived, where one was sent",
  ]);
  const answered = failures.filter((f) => !probes.includes(f));
  ok(answered.length > 0, "a setting more is caught");
  ok(answered.every((f) => f.includes("temperature")), answered.join("\n"));
  ok(
    answered[0].startsWith("tests/dandori/flows/stepfunctions/agents.flow run-1 line 50: the body "),
    answered[0],
  );
}

Deno.test({
  name:
    "the SDKs' retries left on are caught on the first call to each, answered 500, and a model setting more from the first call on",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () =>
    breaksCaught(
      verifyAgentWire,
      { file: "io.ts", from: "maxRetries: 0", to: "maxRetries: 2" },
      { file: "activities.ts", from: 'model: "gpt-5.4-mini",', to: 'model: "gpt-5.4-mini", temperature: 0,' },
    ),
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
  fn: () =>
    breaksCaught(
      verifyPythonAgentWire,
      { file: "io.py", from: "max_retries=0", to: "max_retries=2" },
      {
        file: "tasks.py",
        from: '"model": "gpt-5.4-mini",',
        to: '"model": "gpt-5.4-mini", "temperature": 0,',
      },
    ),
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
  fn: withGo(() =>
    breaksCaught(
      verifyGoAgentWire,
      { file: "io_agents.go", from: "WithMaxRetries(0)", to: "WithMaxRetries(2)" },
      {
        file: "activities.go",
        from: String.raw`\"model\":\"gpt-5.4-mini\",`,
        to: String.raw`\"model\":\"gpt-5.4-mini\",\"temperature\":0,`,
      },
    )
  ),
});
