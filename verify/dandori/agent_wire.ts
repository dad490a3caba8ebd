/**
 * The agents' wire check (docs/targets.md#agents-on-the-wire): every agent call of the scenarios of
 * the flows, sent by the generated task through the generated `io`'s own `transport()` — in
 * TypeScript (Temporal's activities, whose `io.ts` durable functions and Argo's caller share) OpenAI's
 * SDK `openai`, Anthropic's `@anthropic-ai/sdk` and `fetch`; in Python (pydantic-graph's tasks,
 * whose `io.py` Temporal Python shares; `agent_wire_runner.py`) `openai`, `anthropic` and urllib; in Go
 * (temporal-go's activities, in its wire runner) openai-go, anthropic-sdk-go and net/http — to
 * a local model server (the URL's scheme and host replaced by it), which keeps what arrived and
 * answers from the scenario as the provider would (`model_responses.ts`: the answer in the
 * response's text, `failure` as a refusal). Checked per call: one request arrived (no SDK retried),
 * its method and path are the `transport` view's, its body is the view's JSON value (the body Step
 * Functions sends; Python's SDKs write its members in an order of their own), Claude's
 * `anthropic-version` is the view's, and the key is the environment's (a planted `OPENAI_API_KEY`
 * arrives with OpenAI's request alone, a planted `ANTHROPIC_API_KEY` with Claude's alone, neither
 * with an Open Responses server's); and the task makes of the answer what it makes of the runs'
 * stub's. Then, for each kind of endpoint, a 500: one request, and the task fails. Nothing leaves
 * the machine. @module
 */

import { MockActivityEnvironment } from "@temporalio/testing";
import { DefaultLogger } from "@temporalio/worker";
import { stringifyJson } from "../../lang/common/json.ts";
import type { Answer } from "../../lang/dandori/interp.ts";
import type { TaskPlan } from "../../lang/dandori/plan.ts";
import { answerJson } from "../../lang/dandori/scenario.ts";
import { viewOf } from "../../lang/dandori/views.ts";
import { agentProvider } from "../../targets/dandori/agent_tasks.ts";
import { ident } from "../../targets/dandori/pydantic_graph/names.ts";
import { PYDANTIC_GRAPH } from "../../targets/dandori/pydantic_graph/target.ts";
import { TEMPORAL_TYPESCRIPT } from "../../targets/dandori/temporal/target.ts";
import { buildFlowTarget, DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import { TEMPORAL_GO } from "../../targets/dandori/temporal_go/target.ts";
import { runRunnerOutput } from "../differential.ts";
import type { Plain } from "./asl_run.ts";
import { generatedRuns, type RunnableFlow } from "./flows.ts";
import { modelAnswer, modelRefusal } from "./model_responses.ts";
import { buildWireModule } from "./temporal_go_wire.ts";
import { plain } from "./wire.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const ORIGIN = { file: "wire.flow", path: "wire.flow", text: "", sha: "0".repeat(16), version: "wire" };

/** The keys the check plants in the environment: each must arrive with its provider's requests alone. */
export const PLANTED_KEYS = {
  OPENAI_API_KEY: "sk-dandori-planted-openai-key",
  ANTHROPIC_API_KEY: "sk-ant-dandori-planted-claude-key",
} as const;

/** Whom an agent's request goes to, as the runtimes' `AgentRequest` says. */
type Endpoint = "openai" | "claude" | "responses";

/** One agent call of a flow's runs: what the workflow passes, the request it must send, and its answer. */
export interface AgentCall {
  readonly where: string;
  readonly task: TaskPlan;
  readonly endpoint: Endpoint;
  readonly args: unknown;
  readonly view: { readonly url: string; readonly headers: Record<string, string>; readonly body: Plain };
  readonly answer: Answer;
}

/** Every distinct agent call of a flow's generated runs whose answer comes over the wire (not a timeout). */
export function agentCalls(f: RunnableFlow): AgentCall[] {
  const seen = new Set<string>();
  const out: AgentCall[] = [];
  for (const { n, run } of generatedRuns(f)) {
    for (const c of run.calls) {
      const task = f.plan.tasks.find((t) => t.name === c.task);
      if (task?.callee.kind !== "agent" || c.answer.kind === "cancel") continue;
      if (c.answer.kind === "error" && c.answer.error === "timeout") continue;
      const view = plain(viewOf("transport", f.plan, c)) as { agent: AgentCall["view"] };
      const id = stringifyJson([task.name, view as never, c.answer as never]);
      if (seen.has(id)) continue;
      seen.add(id);
      out.push({
        where: `${f.path} run-${n} line ${c.line}`,
        task,
        endpoint: agentProvider(task.callee),
        args: (plain(viewOf("temporal", f.plan, c)) as { args: unknown }).args,
        view: view.agent,
        answer: c.answer,
      });
    }
  }
  return out;
}

/** A request that arrived at the model server. */
interface Arrival {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Where a runner in another process says which call it sends next (`<id>/before`) and that it has sent it (`<id>/after`). */
const CONTROL = "/dandori-agent-wire/";

/** The local model server: keeps what arrives and answers with `answer`; a POST to `CONTROL…` goes to `control`. */
function modelServer() {
  const state = {
    url: "",
    arrived: [] as Arrival[],
    answer: { status: 200, body: "" },
    control: null as ((what: string) => void) | null,
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const body = await req.text();
    if (state.control !== null && url.pathname.startsWith(CONTROL)) {
      state.control(url.pathname.slice(CONTROL.length));
      return new Response("");
    }
    state.arrived.push({
      method: req.method,
      path: url.pathname,
      headers: Object.fromEntries(req.headers),
      body,
    });
    return new Response(state.answer.body, {
      status: state.answer.status,
      headers: { "content-type": "application/json" },
    });
  });
  state.url = `http://127.0.0.1:${server.addr.port}`;
  return { state, close: () => server.shutdown() };
}

/** What the provider answers a call's answer with: the response around it, or a refusal for `failure`. */
function responseOf(c: AgentCall): { status: number; body: string } {
  const provider = c.endpoint === "claude" ? "claude" : "openai";
  if (c.answer.kind === "ok") {
    return { status: 200, body: JSON.stringify(modelAnswer(provider, plain(c.answer.value) as Plain)) };
  }
  return { status: 200, body: JSON.stringify(modelRefusal(provider)) };
}

/** What the server answers a probe of the endpoint with: a server error, which no SDK may retry. */
const FAILED = { status: 500, body: '{"error":{"message":"the server failed"}}' };

/** A JSON text with every object's members in one order, to compare JSON values. */
function canonical(text: string): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sorted) : typeof v === "object" && v !== null
      ? Object.fromEntries(
        Object.entries(v).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([k, x]) => [k, sorted(x)]),
      )
      : v;
  return JSON.stringify(sorted(JSON.parse(text)));
}

/** What is wrong with what arrived for one call, or null. */
function arrivalProblem(c: AgentCall, arrived: readonly Arrival[]): string | null {
  if (arrived.length !== 1) return `${arrived.length} requests arrived, where one was sent`;
  const a = arrived[0];
  const path = new URL(c.view.url).pathname;
  if (a.method !== "POST" || a.path !== path) {
    return `${a.method} ${a.path} arrived, where POST ${path} was sent`;
  }
  const body = stringifyJson(c.view.body as never);
  if (canonical(a.body) !== canonical(body)) return `the body ${a.body} arrived, where the view says ${body}`;
  for (const [name, value] of Object.entries(c.view.headers)) {
    if (a.headers[name.toLowerCase()] !== value) {
      return `the header ${name} arrived as ${
        JSON.stringify(a.headers[name.toLowerCase()] ?? null)
      }, not ${value}`;
    }
  }
  const carries = (key: string) => Object.values(a.headers).some((v) => v.includes(key));
  const openai = carries(PLANTED_KEYS.OPENAI_API_KEY);
  const claude = carries(PLANTED_KEYS.ANTHROPIC_API_KEY);
  const expected = { openai: [true, false], claude: [false, true], responses: [false, false] }[c.endpoint];
  if (openai !== expected[0] || claude !== expected[1]) {
    return `the keys arrived as OpenAI's ${openai ? "sent" : "not sent"} and Claude's ${
      claude ? "sent" : "not sent"
    }, to ${c.endpoint}`;
  }
  return null;
}

/** What the agents' wire check found. */
export interface AgentWireReport {
  /** The calls sent, by endpoint. */
  readonly calls: { readonly [endpoint in Endpoint]: number };
  /** The endpoints a 500 was sent from (each once). */
  readonly refused: readonly Endpoint[];
  readonly failures: readonly string[];
}

/** One send of the check: a call with its scenario's answer, or (`probe`) answered 500. */
interface Send {
  readonly id: string;
  readonly c: AgentCall;
  readonly probe: boolean;
  /** The generated package the call's task is in. */
  readonly pkg: number;
}

/** What the task ended with: through the default `Transport` (`sent`), and through the stub (`stub`, null for a probe). */
interface Outcome {
  readonly id: string;
  readonly sent: string;
  readonly stub: string | null;
}

/** The sends of `flows`' agent calls: every call, and the first call to each kind of endpoint again as a probe. */
function sendsOf(
  flows: readonly RunnableFlow[],
): { sends: Send[]; calls: AgentWireReport["calls"]; refused: Endpoint[] } {
  const calls = { openai: 0, claude: 0, responses: 0 };
  const refused: Endpoint[] = [];
  const sends: Send[] = [];
  for (const [pkg, f] of flows.entries()) {
    for (const c of agentCalls(f)) {
      calls[c.endpoint]++;
      sends.push({ id: String(sends.length), c, probe: false, pkg });
      if (!refused.includes(c.endpoint)) {
        refused.push(c.endpoint);
        sends.push({ id: String(sends.length), c, probe: true, pkg });
      }
    }
  }
  return { sends, calls, refused };
}

/** The failures of the sends, from what arrived for each and what the task ended with. */
function failuresOf(
  sends: readonly Send[],
  arrived: ReadonlyMap<string, Arrival[]>,
  outcomes: ReadonlyMap<string, Outcome>,
): string[] {
  return sends.flatMap((s) => {
    const o = outcomes.get(s.id);
    const got = arrived.get(s.id) ?? [];
    if (o === undefined) return [`${s.c.where}: it was not sent`];
    if (s.probe) {
      const where = `${s.c.where} answered 500`;
      return [
        ...(got.length === 1 ? [] : [`${where}: ${got.length} requests arrived, where one was sent`]),
        ...(o.sent.startsWith('{"error":') ? [] : [`${where}: it gave ${o.sent}`]),
      ];
    }
    const problem = arrivalProblem(s.c, got) ??
      (o.sent === o.stub ? null : `the default Transport gave ${o.sent}, the stub ${o.stub}`);
    return problem === null ? [] : [`${s.c.where}: ${problem}`];
  });
}

/**
 * Runs `send` with the model server up and the planted keys in the environment: `send` hands each
 * send's id to `before` just before it sends it (the server then answers it and keeps what arrives
 * for it) and gives each send's outcome.
 */
async function withServer(
  sends: readonly Send[],
  send: (server: { url: string; before(id: string): void }) => Promise<Map<string, Outcome>>,
): Promise<{ arrived: Map<string, Arrival[]>; outcomes: Map<string, Outcome> }> {
  const server = modelServer();
  const saved = Object.keys(PLANTED_KEYS).map((k) => [k, Deno.env.get(k)] as const);
  for (const [k, v] of Object.entries(PLANTED_KEYS)) Deno.env.set(k, v);
  const arrived = new Map<string, Arrival[]>();
  const before = (id: string) => {
    const s = sends[Number(id)];
    server.state.arrived = [];
    arrived.set(id, server.state.arrived);
    server.state.answer = s.probe ? FAILED : responseOf(s.c);
  };
  server.state.control = (what) => {
    const [id, step] = what.split("/");
    if (step === "before") before(id);
  };
  try {
    const outcomes = await send({ url: server.state.url, before });
    return { arrived, outcomes };
  } finally {
    for (const [k, v] of saved) v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
    await server.close();
  }
}

// deno-lint-ignore no-explicit-any
type Module = any;

/** What an activity ended with, comparable as JSON. */
async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    return JSON.stringify({ ok: await run() ?? null });
  } catch (e) {
    return JSON.stringify({ error: (e as { type?: string }).type ?? "Error" });
  }
}

/** An activity's environment that says nothing of the failures the check asks for. */
function quiet(): MockActivityEnvironment {
  return new MockActivityEnvironment({}, { logger: new DefaultLogger("ERROR") });
}

/** The runs' stub `Transport` for one answer (as `temporal_stubs.ts` answers an agent): what the activity makes of it is the reference. */
function stubTransport(a: Answer) {
  const none = () => Promise.reject(new Error("an agent's activity sends only its agent's request"));
  return {
    http: none,
    lambda: none,
    aws: none,
    book: none,
    agent: () =>
      a.kind === "ok"
        ? Promise.resolve({ answer: plain(a.value) })
        : Promise.reject(Object.assign(new Error("refused"), { name: "AgentStopped" })),
  };
}

/** A directory the packages are written to, removed after `work`. */
async function inTempDir<R>(prefix: string, work: (dir: string) => Promise<R>): Promise<R> {
  const dir = Deno.makeTempDirSync({ prefix });
  try {
    return await work(dir);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

/**
 * Sends every agent call of `flows` through the Temporal TypeScript package's activities and its
 * default `Transport`; `mutate` changes the package's files first (a test breaks them on purpose).
 */
export function verifyAgentWire(
  flows: readonly RunnableFlow[],
  mutate?: (files: Map<string, string>) => void,
): Promise<AgentWireReport> {
  const { sends, calls, refused } = sendsOf(flows);
  return inTempDir("dandori-agent-wire-", async (dir) => {
    Deno.symlinkSync(`${ROOT}node_modules`, `${dir}/node_modules`);
    const { arrived, outcomes } = await withServer(sends, async (server) => {
      const out = new Map<string, Outcome>();
      const loaded = new Map<number, { generated: Module; wire: Module }>();
      for (const s of sends) {
        let pkg = loaded.get(s.pkg);
        if (pkg === undefined) {
          const at = `${dir}/${s.pkg}`;
          Deno.mkdirSync(at);
          const files = new Map(TEMPORAL_TYPESCRIPT.generate(flows[s.pkg].plan, ORIGIN, DEFAULT_BUILD));
          mutate?.(files);
          for (const [name, text] of files) Deno.writeTextFileSync(`${at}/${name}`, text);
          const io = await import(`${at}/io.ts`);
          const base = io.transport();
          pkg = {
            generated: await import(`${at}/activities.ts`),
            wire: {
              ...base,
              agent: (r: { url: string }) => base.agent({ ...r, url: server.url + new URL(r.url).pathname }),
            },
          };
          loaded.set(s.pkg, pkg);
        }
        const { generated, wire } = pkg;
        server.before(s.id);
        const sent = await outcome(() =>
          quiet().run(generated.makeActivities({}, wire)[s.c.task.name], s.c.args, {})
        );
        const stub = s.probe ? null : await outcome(() =>
          quiet().run(
            generated.makeActivities({}, stubTransport(s.c.answer) as Module)[s.c.task.name],
            s.c.args,
            {},
          )
        );
        out.set(s.id, { id: s.id, sent, stub });
      }
      return out;
    });
    return { calls, refused, failures: failuresOf(sends, arrived, outcomes) };
  });
}

/**
 * Sends every agent call of `flows` through the pydantic-graph package's tasks and `io.py`'s default
 * `Transport`, in `agent_wire_runner.py`; `mutate` changes each package's files first.
 */
export function verifyPythonAgentWire(
  flows: readonly RunnableFlow[],
  mutate?: (files: Map<string, string>) => void,
): Promise<AgentWireReport> {
  const { sends, calls, refused } = sendsOf(flows);
  return inTempDir("dandori-agent-pywire-", async (dir) => {
    for (const i of new Set(sends.map((s) => s.pkg))) {
      Deno.mkdirSync(`${dir}/p${i}`);
      const files = new Map(PYDANTIC_GRAPH.generate(flows[i].plan, ORIGIN, DEFAULT_BUILD));
      mutate?.(files);
      for (const [file, text] of files) Deno.writeTextFileSync(`${dir}/p${i}/${file}`, text);
    }
    const jobs = sends.map((s) => ({
      id: s.id,
      package: `p${s.pkg}`,
      task: ident(s.c.task.name),
      args: s.c.args,
      probe: s.probe,
      answer: answerJson(s.c.answer),
    }));
    const { arrived, outcomes } = await withServer(sends, async (server) => {
      const { results } = await runRunnerOutput<Outcome, Record<string, never>>(
        "agent wire",
        ["python3", `${ROOT}verify/dandori/agent_wire_runner.py`, `${dir}/jobs.json`],
        `${dir}/jobs.json`,
        JSON.parse(stringifyJson({ dir, local: server.url, control: CONTROL, calls: jobs } as never)),
      );
      return results;
    });
    return { calls, refused, failures: failuresOf(sends, arrived, outcomes) };
  });
}

/**
 * Sends every agent call of `flows` through the temporal-go package's activities and `io_agents.go`'s
 * default `Transport` (openai-go, anthropic-sdk-go, net/http), in the temporal-go wire runner
 * (`temporal_go_wire/wire.go`, its HTTP client sending every request to the local model server);
 * `mutate` changes each package's files first.
 */
export function verifyGoAgentWire(
  flows: readonly RunnableFlow[],
  mutate?: (files: Map<string, string>) => void,
): Promise<AgentWireReport> {
  const { sends, calls, refused } = sendsOf(flows);
  return inTempDir("dandori-agent-gowire-", async (dir) => {
    const held = [...new Set(sends.map((s) => s.pkg))].map((i) => {
      const built = buildFlowTarget(TEMPORAL_GO, flows[i].plan, ORIGIN, DEFAULT_BUILD);
      if ("diagnostics" in built) throw new Error(`${flows[i].path} does not build for temporal-go`);
      const files = new Map(built.files);
      mutate?.(files);
      return { dir: `f${i}`, plan: flows[i].plan, files };
    });
    const binary = await buildWireModule(dir, held, null);
    const jobs = sends.map((s) => ({
      id: s.id,
      package: `f${s.pkg}`,
      task: s.c.task.name,
      kind: "agent",
      args: s.c.args,
      call: {},
      answer: { agent: answerJson(s.c.answer) },
      probe: s.probe,
    }));
    const { arrived, outcomes } = await withServer(sends, async (server) => {
      const { results } = await runRunnerOutput<Outcome, Record<string, never>>(
        "temporal-go agent wire",
        [binary, `${dir}/jobs.json`],
        `${dir}/jobs.json`,
        JSON.parse(stringifyJson({ local: server.url, control: CONTROL, calls: jobs } as never)),
      );
      return results;
    });
    return { calls, refused, failures: failuresOf(sends, arrived, outcomes) };
  });
}
