/**
 * The default `Transport` for real (docs/targets.md#temporal-typescript): every HTTP, Lambda and AWS
 * call of the scenarios of the test and example flows, sent by the generated activity through the
 * generated `io.ts`'s own `transport()` — `fetch` to a local HTTP server (the URL's scheme and host
 * replaced by it), the AWS SDK for JavaScript v3 to the same server for Lambda's Invoke
 * (`AWS_ENDPOINT_URL_LAMBDA`) and to moto's server mode for SNS and SQS (`AWS_ENDPOINT_URL`). What
 * arrives must equal the `transport` view (HTTP: method, path and query, key and content type, body;
 * Lambda: function and payload; SNS and SQS: the message moto delivers), and what the activity makes
 * of the answer must equal what it makes of the same answer from the runs' stub `Transport`. AWS
 * answers are moto's own, so they are checked to succeed, and one error moto can raise (`sns:publish`
 * to a topic that does not exist) to fail as the flow's failure. Nothing leaves the machine. @module
 */

import { MockActivityEnvironment } from "@temporalio/testing";
import { stringifyJson } from "../../lang/common/json.ts";
import type { Answer, CallRecord } from "../../lang/dandori/interp.ts";
import { runFlow } from "../../lang/dandori/interp.ts";
import type { TaskPlan } from "../../lang/dandori/plan.ts";
import { readFlowScenarios, ScenarioAnswers } from "../../lang/dandori/scenario.ts";
import { generatedJson, generateFlowScenarios } from "../../lang/dandori/scenarios.ts";
import { viewOf } from "../../lang/dandori/views.ts";
import { TEMPORAL_TYPESCRIPT } from "../../targets/dandori/temporal/target.ts";
import { DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import type { RunnableFlow } from "./flows.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const ORIGIN = { file: "wire.flow", path: "wire.flow", text: "", sha: "0".repeat(16), version: "wire" };

/** One call to send: the flow's task, what the workflow passes, what it must look like, and its answer. */
interface WireCall {
  readonly where: string;
  readonly task: TaskPlan;
  readonly args: unknown;
  readonly call: { readonly key?: string; readonly callback_id?: string };
  readonly view: Record<string, unknown>;
  readonly answer: Answer;
}

/** A value as the workflow carries it: JSON numbers, not the interpreter's bigints. */
function plain(v: unknown): unknown {
  return JSON.parse(stringifyJson(v as never));
}

/** Every distinct HTTP, Lambda and AWS call of a flow's runs whose answer can come over the wire. */
function wireCalls(f: RunnableFlow): WireCall[] {
  const generated = generateFlowScenarios(f.checked, f.plan).scenarios.map(generatedJson);
  const seen = new Set<string>();
  const out: WireCall[] = [];
  readFlowScenarios(f.checked, stringifyJson(generated)).forEach((s, i) => {
    const answers = new ScenarioAnswers(s.answers);
    const run = runFlow(f.checked, f.plan, {
      input: s.input,
      now: s.now,
      answers,
      execution: `run-${i + 1}`,
      children: false,
    });
    for (const c of run.calls) {
      const task = f.plan.tasks.find((t) => t.name === c.task);
      if (task === undefined || !["http", "lambda", "aws"].includes(task.callee.kind)) continue;
      if (c.answer.kind === "cancel" || (c.answer.kind === "error" && c.answer.error === "timeout")) continue;
      const temporal = plain(viewOf("temporal", f.plan, c)) as {
        args: unknown;
        key?: string;
        callback_id?: string;
      };
      const id = stringifyJson([task.name, viewOf("transport", f.plan, c), c.answer.kind, answerText(c)]);
      if (seen.has(id)) continue;
      seen.add(id);
      const call = {
        ...(temporal.key === undefined ? {} : { key: temporal.key }),
        ...(temporal.callback_id === undefined ? {} : { callback_id: temporal.callback_id }),
      };
      out.push({
        where: `${f.path} run-${i + 1} line ${c.line}`,
        task,
        args: temporal.args,
        call,
        view: plain(viewOf("transport", f.plan, c)) as Record<string, unknown>,
        answer: c.answer,
      });
    }
  });
  return out;
}

function answerText(c: CallRecord): string {
  return stringifyJson(
    c.answer.kind === "ok" ? c.answer.value : c.answer.kind === "error" ? c.answer.error : null,
  );
}

/** The wire name of a declared error, or null for a failure. */
function wireOf(task: TaskPlan, error: string): string | null {
  const e = task.errors.find((x) => x.name === error);
  return e === undefined ? null : e.wire ?? e.name;
}

/** What the local server answers an HTTP request with for an answer, as the runs' stub does. */
function httpAnswer(task: TaskPlan, a: Answer): { status: number; body: string } {
  if (a.kind === "ok") return { status: 200, body: a.value === null ? "" : stringifyJson(a.value) };
  if (a.kind === "cancel") throw new Error("a cancel does not come over the wire");
  const wire = wireOf(task, a.error);
  return { status: wire === null ? 500 : Number(wire), body: a.cause ?? "" };
}

/** What the local server answers Lambda's Invoke with. */
function lambdaAnswer(task: TaskPlan, a: Answer): { error: string | null; body: string } {
  if (a.kind === "ok") return { error: null, body: stringifyJson(a.value) };
  if (a.kind === "cancel") throw new Error("a cancel does not come over the wire");
  const errorType = wireOf(task, a.error) ?? "Error";
  return { error: "Unhandled", body: JSON.stringify({ errorType, errorMessage: a.cause ?? "" }) };
}

/** The stub `Transport` of the runs, for one answer: what the activity makes of it is the reference. */
function stubTransport(task: TaskPlan, a: Answer) {
  const error = () => a.kind === "error" ? { name: wireOf(task, a.error), cause: a.cause ?? "" } : null;
  return {
    http: () => Promise.resolve(httpAnswer(task, a)),
    lambda: () => {
      const e = error();
      if (e === null) return Promise.resolve({ payload: plain((a as { value: unknown }).value) });
      return Promise.resolve({ errorType: e.name ?? "Error", errorMessage: e.cause });
    },
    aws: () => Promise.resolve({}),
    book: () => Promise.reject(new Error("no book on the wire")),
  };
}

/** What an activity ended with, comparable as JSON. */
async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    return JSON.stringify({ ok: await run() ?? null });
  } catch (e) {
    const f = e as { type?: string; message?: string };
    return JSON.stringify({ error: f.type ?? String(e), message: f.message ?? "" });
  }
}

/** What arrived at the local server. */
interface Arrived {
  readonly http?: { method: string; url: string; key: string | null; type: string | null; body: string };
  readonly lambda?: { fn: string; payload: unknown };
}

/** A local server: HTTP requests and Lambda's Invoke, answered with `answer`. */
function localServer(): {
  url: string;
  arrived: Arrived[];
  answer: { http: { status: number; body: string }; lambda: { error: string | null; body: string } };
  close(): Promise<void>;
} {
  const arrived: Arrived[] = [];
  const answer = { http: { status: 200, body: "" }, lambda: { error: null as string | null, body: "null" } };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const body = await req.text();
    const invoke = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(url.pathname);
    if (invoke !== null) {
      arrived.push({
        lambda: { fn: decodeURIComponent(invoke[1]), payload: body === "" ? null : JSON.parse(body) },
      });
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (answer.lambda.error !== null) headers["x-amz-function-error"] = answer.lambda.error;
      return new Response(answer.lambda.body, { status: 200, headers });
    }
    arrived.push({
      http: {
        method: req.method,
        url: `${url.pathname}${url.search}`,
        key: req.headers.get("idempotency-key"),
        type: req.headers.get("content-type"),
        body,
      },
    });
    return new Response(answer.http.body, { status: answer.http.status });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    arrived,
    answer,
    close: () => server.shutdown(),
  };
}

/** moto in server mode on a free loopback port; null when it is not installed. */
async function startMoto(): Promise<{ url: string; stop(): Promise<void> } | null> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("moto_server", {
      args: ["-H", "127.0.0.1", "-p", String(port)],
      stdout: "null",
      stderr: "null",
    })
      .spawn();
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    child.kill("SIGTERM");
    await child.status;
  };
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`${url}/moto-api/`).then((r) => r.body?.cancel().then(() => true), () => false);
    if (up) return { url, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error("moto did not answer within 10 s");
}

/** What the wire check found. */
export interface WireReport {
  readonly http: number;
  readonly lambda: number;
  readonly aws: number;
  readonly failures: readonly string[];
}

/** Sends every call of `flows` through the generated default `Transport`; null when moto is not installed. */
export async function verifyWire(flows: readonly RunnableFlow[]): Promise<WireReport | null> {
  const moto = await startMoto();
  if (moto === null) return null;
  const local = localServer();
  const env = {
    AWS_ENDPOINT_URL: moto.url,
    AWS_ENDPOINT_URL_LAMBDA: local.url,
    AWS_REGION: "ap-northeast-1",
    AWS_ACCESS_KEY_ID: "testing",
    AWS_SECRET_ACCESS_KEY: "testing",
  };
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, Deno.env.get(k)]));
  for (const [k, v] of Object.entries(env)) Deno.env.set(k, v);
  const dir = Deno.makeTempDirSync({ prefix: "dandori-wire-" });
  Deno.symlinkSync(`${ROOT}node_modules`, `${dir}/node_modules`);
  const failures: string[] = [];
  const counts = { http: 0, lambda: 0, aws: 0 };
  try {
    const aws = await awsClients(moto.url);
    let anyIo: Module = null;
    for (const [i, f] of flows.entries()) {
      const calls = wireCalls(f);
      if (calls.length === 0) continue;
      const at = `${dir}/${i}`;
      Deno.mkdirSync(at);
      for (const [name, text] of TEMPORAL_TYPESCRIPT.generate(f.plan, ORIGIN, DEFAULT_BUILD)) {
        Deno.writeTextFileSync(`${at}/${name}`, text);
      }
      const generated = await import(`${at}/activities.ts`);
      const io = await import(`${at}/io.ts`);
      anyIo = io;
      for (const c of calls) {
        const problem = await sendOne(c, generated, io, local, aws);
        counts[c.task.callee.kind as "http" | "lambda" | "aws"]++;
        if (problem !== null) failures.push(`${c.where}: ${problem}`);
      }
    }
    if (anyIo !== null) failures.push(...await awsError(anyIo));
  } finally {
    for (const [k, v] of Object.entries(before)) v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
    await local.close();
    await moto.stop();
    Deno.removeSync(dir, { recursive: true });
  }
  return { ...counts, failures };
}

// deno-lint-ignore no-explicit-any
type Module = any;

/** The moto side: topics and queues made on demand, and each one's messages read back. */
async function awsClients(url: string) {
  const sns = await import("@aws-sdk/client-sns");
  const sqs = await import("@aws-sdk/client-sqs");
  const config = {
    endpoint: url,
    region: "ap-northeast-1",
    credentials: { accessKeyId: "testing", secretAccessKey: "testing" },
  };
  const snsClient = new sns.SNSClient(config);
  const sqsClient = new sqs.SQSClient(config);
  const inboxes = new Map<string, string>();
  /** A queue that receives what is published to `topicArn`, raw. */
  const topicInbox = async (topicArn: string): Promise<string> => {
    const known = inboxes.get(topicArn);
    if (known !== undefined) return known;
    const name = topicArn.split(":").pop() ?? "topic";
    const topic = await snsClient.send(new sns.CreateTopicCommand({ Name: name }));
    const q = await sqsClient.send(new sqs.CreateQueueCommand({ QueueName: `inbox-${name}` }));
    const attrs = await sqsClient.send(
      new sqs.GetQueueAttributesCommand({ QueueUrl: q.QueueUrl, AttributeNames: ["QueueArn"] }),
    );
    await snsClient.send(
      new sns.SubscribeCommand({
        TopicArn: topic.TopicArn,
        Protocol: "sqs",
        Endpoint: attrs.Attributes?.QueueArn,
        Attributes: { RawMessageDelivery: "true" },
      }),
    );
    inboxes.set(topicArn, q.QueueUrl ?? "");
    return q.QueueUrl ?? "";
  };
  const queue = async (queueUrl: string): Promise<string> => {
    const name = queueUrl.split("/").pop() ?? "queue";
    const q = await sqsClient.send(new sqs.CreateQueueCommand({ QueueName: name }));
    return q.QueueUrl ?? "";
  };
  const receive = async (queueUrl: string): Promise<string[]> => {
    const got = await sqsClient.send(
      new sqs.ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    return (got.Messages ?? []).map((m) => m.Body ?? "");
  };
  return { topicInbox, queue, receive };
}

type Aws = Awaited<ReturnType<typeof awsClients>>;

/** Sends one call through the generated activity and the default transport; the problem, or null. */
async function sendOne(
  c: WireCall,
  generated: Module,
  io: Module,
  local: ReturnType<typeof localServer>,
  aws: Aws,
): Promise<string | null> {
  const env = new MockActivityEnvironment();
  const base = io.transport();
  const toLocal = (url: string) => url.replace(/^https?:\/\/[^/]+/, local.url);
  const wire = { ...base, http: (r: { url: string }) => base.http({ ...r, url: toLocal(r.url) }) };
  const kind = c.task.callee.kind;
  let inbox: string | null = null;
  if (kind === "http") local.answer.http = httpAnswer(c.task, c.answer);
  if (kind === "lambda") local.answer.lambda = lambdaAnswer(c.task, c.answer);
  if (kind === "aws") {
    const args = c.view.args as Record<string, unknown>;
    if (typeof args.TopicArn === "string") inbox = await aws.topicInbox(args.TopicArn);
    if (typeof args.QueueUrl === "string") inbox = await aws.queue(args.QueueUrl);
    if (c.answer.kind !== "ok") return null;
  }
  local.arrived.length = 0;
  const sent = await outcome(() => env.run(generated.makeActivities({}, wire)[c.task.name], c.args, c.call));
  if (kind !== "aws") {
    const stub = await outcome(() =>
      new MockActivityEnvironment().run(
        generated.makeActivities({}, stubTransport(c.task, c.answer))[c.task.name],
        c.args,
        c.call,
      )
    );
    if (sent !== stub) return `the default Transport gave ${sent}, the stub ${stub}`;
  } else if (!sent.startsWith('{"ok":')) return `moto answered ${sent}`;
  return arrivedProblem(c, local, inbox === null ? [] : await aws.receive(inbox));
}

/** Whether what arrived is the view: the request at the local server, or the message in moto. */
function arrivedProblem(
  c: WireCall,
  local: ReturnType<typeof localServer>,
  messages: string[],
): string | null {
  const kind = c.task.callee.kind;
  if (kind === "aws") {
    const args = c.view.args as Record<string, unknown>;
    const text = args.Message ?? args.MessageBody;
    const want = typeof text === "string" ? text : JSON.stringify(text);
    return messages.length === 1 && messages[0] === want
      ? null
      : `moto delivered ${JSON.stringify(messages)}, not ${want}`;
  }
  if (local.arrived.length !== 1) return `${local.arrived.length} requests arrived, not one`;
  const got = local.arrived[0];
  if (kind === "lambda") {
    const view = c.view as { lambda: string; payload: unknown };
    const arrived = JSON.stringify({ lambda: got.lambda?.fn, payload: got.lambda?.payload });
    const want = JSON.stringify({ lambda: view.lambda, payload: view.payload });
    return arrived === want ? null : `Lambda got ${arrived}, the view is ${want}`;
  }
  const view =
    (c.view as { http: { method: string; url: string; headers: Record<string, string>; body?: unknown } })
      .http;
  const path = view.url.replace(/^https?:\/\/[^/]+/, "");
  const body = view.body === undefined
    ? ""
    : typeof view.body === "string"
    ? view.body
    : JSON.stringify(view.body);
  const arrived = JSON.stringify([
    got.http?.method,
    got.http?.url,
    got.http?.key,
    got.http?.type,
    got.http?.body,
  ]);
  const want = JSON.stringify([
    view.method,
    path,
    view.headers["Idempotency-Key"] ?? null,
    view.headers["Content-Type"] ?? null,
    body,
  ]);
  return arrived === want ? null : `HTTP got ${arrived}, the view is ${want}`;
}

/** `sns:publish` to a topic that does not exist: moto's NotFound reaches the flow as its error. */
async function awsError(io: Module): Promise<string[]> {
  const got = await outcome(() =>
    io.aws(io.transport(), "sns", "publish", {
      TopicArn: "arn:aws:sns:ap-northeast-1:123456789012:nowhere",
      Message: "m",
    }, [])
  );
  const parsed = JSON.parse(got) as { error?: string };
  return parsed.error !== undefined && /NotFound/.test(parsed.error)
    ? []
    : [`sns:publish to no topic gave ${got}`];
}
