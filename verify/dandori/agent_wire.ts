/**
 * The agents' wire check (docs/targets.md#agents-on-the-wire): every agent call of the scenarios of
 * the flows, sent by the generated activity through the generated `io.ts`'s own `transport()` —
 * OpenAI's SDK (`openai`) for OpenAI, Anthropic's (`@anthropic-ai/sdk`) for Claude, `fetch` for an
 * Open Responses server — to a local model server (the URL's scheme and host replaced by it), which
 * keeps what arrived and answers from the scenario as the provider would (`model_responses.ts`: the
 * answer in the response's text, `failure` as a refusal). Checked per call: one request arrived (no
 * SDK retried), its method and path are the `transport` view's, its body is the view's character for
 * character (the body Step Functions sends), Claude's `anthropic-version` is the view's, and the key
 * is the environment's (a planted `OPENAI_API_KEY` arrives with OpenAI's request alone, a planted
 * `ANTHROPIC_API_KEY` with Claude's alone, neither with an Open Responses server's); and the
 * activity makes of the answer what it makes of the runs' stub's. Then, for each kind of endpoint, a
 * 500: one request, and the activity fails. Nothing leaves the machine. @module
 */

import { MockActivityEnvironment } from "@temporalio/testing";
import { DefaultLogger } from "@temporalio/worker";
import { stringifyJson } from "../../lang/common/json.ts";
import type { Answer } from "../../lang/dandori/interp.ts";
import type { TaskPlan } from "../../lang/dandori/plan.ts";
import { viewOf } from "../../lang/dandori/views.ts";
import { agentProvider } from "../../targets/dandori/agent_tasks.ts";
import { TEMPORAL_TYPESCRIPT } from "../../targets/dandori/temporal/target.ts";
import { DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import type { Plain } from "./asl_run.ts";
import { generatedRuns, type RunnableFlow } from "./flows.ts";
import { modelAnswer, modelRefusal } from "./model_responses.ts";
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

/** The local model server: keeps what arrives and answers with `answer`. */
function modelServer() {
  const state = {
    url: "",
    arrived: [] as Arrival[],
    answer: { status: 200, body: "" },
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    state.arrived.push({
      method: req.method,
      path: url.pathname,
      headers: Object.fromEntries(req.headers),
      body: await req.text(),
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

/** What is wrong with what arrived for one call, or null. */
export function arrivalProblem(c: AgentCall, arrived: readonly Arrival[]): string | null {
  if (arrived.length !== 1) return `${arrived.length} requests arrived, where one was sent`;
  const a = arrived[0];
  const path = new URL(c.view.url).pathname;
  if (a.method !== "POST" || a.path !== path) {
    return `${a.method} ${a.path} arrived, where POST ${path} was sent`;
  }
  const body = stringifyJson(c.view.body as never);
  if (a.body !== body) return `the body ${a.body} arrived, where the view says ${body}`;
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

/**
 * Sends every agent call of `flows` through the Temporal TypeScript package's activities and its
 * default `Transport`; `mutate` changes the package's files first (a test breaks them on purpose).
 */
export async function verifyAgentWire(
  flows: readonly RunnableFlow[],
  mutate?: (files: Map<string, string>) => void,
): Promise<AgentWireReport> {
  const dir = Deno.makeTempDirSync({ prefix: "dandori-agent-wire-" });
  Deno.symlinkSync(`${ROOT}node_modules`, `${dir}/node_modules`);
  const server = modelServer();
  const saved = Object.keys(PLANTED_KEYS).map((k) => [k, Deno.env.get(k)] as const);
  for (const [k, v] of Object.entries(PLANTED_KEYS)) Deno.env.set(k, v);
  const calls = { openai: 0, claude: 0, responses: 0 };
  const refused: Endpoint[] = [];
  const failures: string[] = [];
  try {
    for (const [i, f] of flows.entries()) {
      const sent = agentCalls(f);
      if (sent.length === 0) continue;
      const at = `${dir}/${i}`;
      Deno.mkdirSync(at);
      const files = new Map(TEMPORAL_TYPESCRIPT.generate(f.plan, ORIGIN, DEFAULT_BUILD));
      mutate?.(files);
      for (const [name, text] of files) Deno.writeTextFileSync(`${at}/${name}`, text);
      const generated = await import(`${at}/activities.ts`);
      const io = await import(`${at}/io.ts`);
      const base = io.transport();
      const wire = {
        ...base,
        agent: (r: { url: string }) => base.agent({ ...r, url: server.state.url + new URL(r.url).pathname }),
      };
      const send = async (c: AgentCall, answer: { status: number; body: string }) => {
        server.state.arrived = [];
        server.state.answer = answer;
        const got = await outcome(() =>
          quiet().run(generated.makeActivities({}, wire)[c.task.name], c.args, {})
        );
        return { got, arrived: server.state.arrived };
      };
      for (const c of sent) {
        calls[c.endpoint]++;
        const { got, arrived } = await send(c, responseOf(c));
        const stub = await outcome(() =>
          quiet().run(
            generated.makeActivities({}, stubTransport(c.answer) as Module)[c.task.name],
            c.args,
            {},
          )
        );
        const problem = arrivalProblem(c, arrived) ??
          (got === stub ? null : `the default Transport gave ${got}, the stub ${stub}`);
        if (problem !== null) failures.push(`${c.where}: ${problem}`);
        if (!refused.includes(c.endpoint)) {
          refused.push(c.endpoint);
          const failed = await send(c, { status: 500, body: '{"error":{"message":"the server failed"}}' });
          if (failed.arrived.length !== 1) {
            failures.push(
              `${c.where} answered 500: ${failed.arrived.length} requests arrived, where one was sent`,
            );
          }
          if (!failed.got.startsWith('{"error":')) {
            failures.push(`${c.where} answered 500: it gave ${failed.got}`);
          }
        }
      }
    }
  } finally {
    for (const [k, v] of saved) v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
    await server.close();
    Deno.removeSync(dir, { recursive: true });
  }
  return { calls, refused, failures };
}
