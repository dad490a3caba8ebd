/**
 * What the wire checks of the default `Transport`s share (docs/targets.md#temporal-typescript,
 * docs/targets.md#pydantic-graph, docs/targets.md#temporal-go): every distinct HTTP, Lambda and AWS call of the scenarios of a
 * flow, a local HTTP server that answers HTTP requests and Lambda's Invoke as the runs' stub does
 * and keeps what arrived, moto in server mode for SNS and SQS with a queue that reads back what
 * each call delivered, and the comparison of what arrived with the `transport` view. A request of a
 * task whose `http` line names a `use openapi` description is also validated against that description
 * by openapi-core (`openapi_validate.py`), once every call of the session has been sent: what the flow,
 * the interpreter and the generated code agree on must also be what the provider's description takes.
 * The validation is also given the requests Step Functions' HTTP Tasks ask for
 * (tests/dandori/stepfunctions_described_test.ts), which no engine here sends. A `connect` task's
 * request is handed on to a real Connect server built from its `.proto` (`connect_server.ts`), which
 * must take it, and which answers it itself when the answer is a message of the method's response.
 * Nothing leaves the machine. @module
 */

import { dirname, isAbsolute, relative, resolve } from "node:path";
import { assert } from "../../lang/common/assert.ts";
import { stringifyJson } from "../../lang/common/json.ts";
import type { Answer, CallRecord } from "../../lang/dandori/interp.ts";
import type { TaskPlan } from "../../lang/dandori/plan.ts";
import { viewOf } from "../../lang/dandori/views.ts";
import { asMessage, type ConnectServer, startConnectServer } from "./connect_server.ts";
import { generatedRuns, type RunnableFlow } from "./flows.ts";

/** One call to send: the flow's task, what the workflow passes, what it must look like, and its answer. */
export interface WireCall {
  readonly where: string;
  readonly task: TaskPlan;
  readonly args: unknown;
  readonly call: { readonly key?: string; readonly callback_id?: string };
  readonly view: Record<string, unknown>;
  readonly answer: Answer;
  /** The OpenAPI description its `http` line names, or null. */
  readonly described: Described | null;
  /** The `.proto` its `connect` line names, or null. */
  readonly proto: string | null;
}

/** A `use openapi` description: its file, and the `url` that replaces its servers, or null. */
export interface Described {
  readonly file: string;
  readonly server: string | null;
}

const ROOT = new URL("../../", import.meta.url).pathname;

/** The description the task's `http` line names (a flow path is absolute or under the repository), or null. */
export function describedBy(f: RunnableFlow, task: TaskPlan): Described | null {
  const ast = f.checked.model.ast;
  const http = ast.tasks.find((t) => t.name.text === task.name)?.items.find((i) => i.kind === "http");
  if (http?.kind !== "http" || http.api === null) return null;
  const use = ast.uses.find((u) => u.source.text === "openapi" && u.name.text === http.api?.text);
  if (use === undefined) return null;
  const flow = isAbsolute(f.path) ? f.path : `${ROOT}${f.path}`;
  const url = use.items.find((i) => i.kind === "url");
  return {
    file: resolve(dirname(flow), use.path.text),
    server: url !== undefined && "value" in url ? url.value.text : null,
  };
}

/** The `.proto` the task's `connect` line names (a flow path is absolute or under the repository), or null. */
export function protoOf(f: RunnableFlow, task: TaskPlan): string | null {
  const ast = f.checked.model.ast;
  const connect = ast.tasks.find((t) => t.name.text === task.name)?.items.find((i) => i.kind === "connect");
  if (connect?.kind !== "connect") return null;
  const use = ast.uses.find((u) => u.source.text === "proto" && u.name.text === connect.api.text);
  if (use === undefined) return null;
  const flow = isAbsolute(f.path) ? f.path : `${ROOT}${f.path}`;
  return resolve(dirname(flow), use.path.text);
}

/** A value as the workflow carries it: JSON numbers, not the interpreter's bigints. */
export function plain(v: unknown): unknown {
  return JSON.parse(stringifyJson(v as never));
}

/**
 * Every distinct HTTP, Lambda and AWS call of a flow's runs whose answer can come over the wire,
 * with its arguments, key and callback id as the platform's view (`temporal`, `pydantic-graph`) gives them.
 */
export function wireCalls(f: RunnableFlow, platform: "temporal" | "pydantic-graph"): WireCall[] {
  const seen = new Set<string>();
  const out: WireCall[] = [];
  for (const { n, run } of generatedRuns(f)) {
    for (const c of run.calls) {
      const task = f.plan.tasks.find((t) => t.name === c.task);
      if (task === undefined || !["http", "lambda", "aws"].includes(task.callee.kind)) continue;
      if (c.answer.kind === "cancel" || (c.answer.kind === "error" && c.answer.error === "timeout")) continue;
      const platformView = plain(viewOf(platform, f.plan, c)) as {
        args: unknown;
        key?: string;
        callback_id?: string;
      };
      const id = stringifyJson([task.name, viewOf("transport", f.plan, c), c.answer.kind, answerText(c)]);
      if (seen.has(id)) continue;
      seen.add(id);
      const call = {
        ...(platformView.key === undefined ? {} : { key: platformView.key }),
        ...(platformView.callback_id === undefined ? {} : { callback_id: platformView.callback_id }),
      };
      out.push({
        where: `${f.path} run-${n} line ${c.line}`,
        task,
        args: platformView.args,
        call,
        view: plain(viewOf("transport", f.plan, c)) as Record<string, unknown>,
        answer: c.answer,
        described: describedBy(f, task),
        proto: protoOf(f, task),
      });
    }
  }
  return out;
}

function answerText(c: CallRecord): string {
  return stringifyJson(
    c.answer.kind === "ok" ? c.answer.value : c.answer.kind === "error" ? c.answer.error : null,
  );
}

/** The wire name of a declared error, or null for a failure. */
export function wireOf(task: TaskPlan, error: string): string | null {
  const e = task.errors.find((x) => x.name === error);
  return e === undefined ? null : e.wire ?? e.name;
}

/** What the local server answers an HTTP request with for an answer, as the runs' stub does. */
export function httpAnswer(task: TaskPlan, a: Answer): { status: number; body: string } {
  if (a.kind === "ok") return { status: 200, body: a.value === null ? "" : stringifyJson(a.value) };
  if (a.kind === "cancel") throw new Error("a cancel does not come over the wire");
  const wire = wireOf(task, a.error);
  return { status: wire === null ? 500 : Number(wire), body: a.cause ?? "" };
}

/** What the runs' stub `Transport` answers a Lambda call with: its payload, or the function's error. */
export function lambdaResult(
  task: TaskPlan,
  a: Answer,
): { payload: unknown } | { errorType: string; errorMessage: string } {
  if (a.kind === "ok") return { payload: plain(a.value) };
  if (a.kind === "cancel") throw new Error("a cancel does not come over the wire");
  return { errorType: wireOf(task, a.error) ?? "Error", errorMessage: a.cause ?? "" };
}

/** What the local server answers Lambda's Invoke with: the stub's answer, as Lambda sends it. */
function lambdaAnswer(task: TaskPlan, a: Answer): { error: string | null; body: string } {
  if (a.kind === "ok") return { error: null, body: stringifyJson(a.value) };
  return { error: "Unhandled", body: JSON.stringify(lambdaResult(task, a)) };
}

/** What a runner in another process printed for one call: its outcome through the default transport and through the stub. */
export interface Sent {
  readonly id: string;
  readonly sent: string;
  readonly stub: string | null;
}

/**
 * Lets a runner in another process drive the session through `sent` (a POST to
 * `/dandori-wire/<n>/before` readies call n, `…/after` checks what arrived, through `compared` as
 * `arrivedProblem` does); gives, once the runner has printed its results, each call's failure.
 */
export function drivenCalls(
  s: WireSession,
  sent: readonly WireCall[],
  compared?: (json: string) => string,
): (results: ReadonlyMap<string, Sent>) => string[] {
  const inboxes = new Map<string, string | null>();
  const arrived = new Map<string, string | null>();
  s.local.control = async (what) => {
    const [id, step] = what.split("/");
    const c = sent[Number(id)];
    assert(
      c !== undefined && (step === "before" || step === "after"),
      `the runner's control ${what} names a call`,
    );
    if (step === "before") inboxes.set(id, await ready(c, s));
    else arrived.set(id, await arrivedProblem(c, s, inboxes.get(id) ?? null, compared));
  };
  return (results) =>
    sent.flatMap((c, n) => {
      const checked = arrived.get(String(n));
      const problem = sentProblem(c, results.get(String(n))) ??
        (checked === undefined ? "the runner did not say it had sent it" : checked);
      return problem === null ? [] : [`${c.where}: ${problem}`];
    });
}

/** Whether the task made the same of the wire's answer as of the stub's (an AWS call: that moto's succeeded). */
function sentProblem(c: WireCall, r: Sent | undefined): string | null {
  if (r === undefined) return "the runner did not send it";
  if (c.task.callee.kind === "aws") return r.sent.startsWith('{"ok":') ? null : `moto answered ${r.sent}`;
  return r.sent === r.stub ? null : `the default Transport gave ${r.sent}, the stub ${r.stub}`;
}

/**
 * Whether a call is sent at all: an AWS call's answer is moto's own, so only a success is sent
 * (its error is `AWS_ERROR`'s).
 */
export function sendable(c: WireCall): boolean {
  return c.task.callee.kind !== "aws" || c.answer.kind === "ok";
}

/** What arrived at the local server. */
interface Arrived {
  readonly http?: HttpRequest;
  readonly lambda?: { fn: string; payload: unknown };
}

/** Where a runner in another process says which call it sends next, and that it has sent it. */
export const CONTROL = "/dandori-wire/";

/**
 * A local server: HTTP requests and Lambda's Invoke, answered with `answer`; a POST to
 * `/dandori-wire/<what>` goes to `control` instead (a runner in another process drives it so).
 */
function localServer(): {
  url: string;
  arrived: Arrived[];
  answer: { http: { status: number; body: string }; lambda: { error: string | null; body: string } };
  control: ((what: string) => Promise<void>) | null;
  connect: ConnectServer | null;
  refused: string | null;
  close(): Promise<void>;
} {
  const arrived: Arrived[] = [];
  const answer = { http: { status: 200, body: "" }, lambda: { error: null as string | null, body: "null" } };
  const local = {
    url: "",
    arrived,
    answer,
    control: null as ((what: string) => Promise<void>) | null,
    connect: null as ConnectServer | null,
    refused: null as string | null,
    close: () => server.shutdown(),
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const body = await req.text();
    if (local.control !== null && url.pathname.startsWith(CONTROL)) {
      await local.control(url.pathname.slice(CONTROL.length));
      return new Response("");
    }
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
    if (local.connect !== null) {
      const answered = await throughConnect(local.connect, req, url, body);
      if (typeof answered === "string") local.refused = answered;
      else if (answered !== null) return answered;
    }
    return new Response(answer.http.body, { status: answer.http.status });
  });
  local.url = `http://127.0.0.1:${server.addr.port}`;
  return local;
}

/**
 * Sends a request that arrived on to the Connect server, its path the method's (`/<package>.<Service>/<Method>`):
 * the Connect server's response when its handler answered it, null when the local server answers
 * (the handler gave the empty message it is given for that), or what the server said when it refused
 * the request before the handler.
 */
async function throughConnect(
  connect: ConnectServer,
  req: Request,
  url: URL,
  body: string,
): Promise<Response | string | null> {
  connect.state.handled = false;
  const headers = new Headers(req.headers);
  headers.delete("host");
  headers.delete("content-length");
  const response = await fetch(`${connect.url}${methodPath(url.pathname)}`, {
    method: req.method,
    headers,
    body,
  });
  const text = await response.text();
  if (!connect.state.handled) return `${response.status} ${text}`;
  if (connect.state.answer.kind === "empty") return null;
  return new Response(text, { status: response.status, headers: { "content-type": "application/json" } });
}

/** The method's part of a Connect call's path, `/<package>.<Service>/<Method>`, whatever the `url` before it. */
export function methodPath(path: string): string {
  return `/${path.split("/").slice(-2).join("/")}`;
}

/** The local server of a wire session. */
type LocalServer = ReturnType<typeof localServer>;

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
  /** The requests validated against their OpenAPI description, or null when openapi-core is missing (why). */
  readonly described: number | { readonly missing: string };
  /** The `connect` calls sent through a real Connect server, and those it answered itself; or why there is none. */
  readonly connect: ConnectCounts | { readonly missing: string };
  readonly failures: readonly string[];
}

/** The `connect` calls of a session: every one went through its `.proto`'s Connect server, `answered` were answered by it. */
export interface ConnectCounts {
  calls: number;
  answered: number;
}

/** What a wire check's own part reports, before `withDescribed` adds the descriptions' and the Connect servers' parts. */
export type SentReport = Omit<WireReport, "described" | "connect">;

/** A request of a described task (one that arrived, or one an HTTP Task's arguments describe), to validate. */
export interface DescribedRequest {
  readonly where: string;
  readonly described: Described;
  readonly http: HttpRequest;
}

/** An HTTP request as the descriptions' validation reads it: the path with its query, the key, the content type, the body. */
export interface HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly key: string | null;
  readonly type: string | null;
  readonly body: string;
}

/** The moto side: topics and queues made on demand, and each one's messages read back. */
async function awsClients(url: string) {
  const sns = await import("@aws-sdk/client-sns");
  const sqs = await import("@aws-sdk/client-sqs");
  const config = {
    endpoint: url,
    region: REGION,
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
  /**
   * What the queue holds, taken out of it: a message received and not deleted comes back once its
   * visibility timeout (30 s) has passed, and a later call's check on the same queue would read it again.
   */
  const receive = async (queueUrl: string): Promise<string[]> => {
    const got = await sqsClient.send(
      new sqs.ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    const messages = got.Messages ?? [];
    for (const m of messages) {
      await sqsClient.send(
        new sqs.DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle }),
      );
    }
    return messages.map((m) => m.Body ?? "");
  };
  return { topicInbox, queue, receive };
}

/** The region every client of a wire session uses. */
const REGION = "ap-northeast-1";

/** A wire session: the local server, moto's clients, and moto's URL; each `.proto`'s Connect server, started when first called. */
export interface WireSession {
  readonly local: LocalServer;
  readonly toValidate: DescribedRequest[];
  readonly aws: Awaited<ReturnType<typeof awsClients>>;
  readonly motoUrl: string;
  readonly connects: Map<string, ConnectServer | { readonly missing: string }>;
  readonly connectCounts: ConnectCounts;
}

/**
 * Runs `check` with moto and the local server up and the AWS variables set for this process and
 * its children (`AWS_ENDPOINT_URL` moto, `AWS_ENDPOINT_URL_LAMBDA` the local server, the region,
 * test credentials); null when moto is not installed.
 */
export async function withWire<R>(check: (s: WireSession) => Promise<R>): Promise<R | null> {
  const moto = await startMoto();
  if (moto === null) return null;
  const local = localServer();
  const env = {
    AWS_ENDPOINT_URL: moto.url,
    AWS_ENDPOINT_URL_LAMBDA: local.url,
    AWS_REGION: REGION,
    AWS_DEFAULT_REGION: REGION,
    AWS_ACCESS_KEY_ID: "testing",
    AWS_SECRET_ACCESS_KEY: "testing",
  };
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, Deno.env.get(k)]));
  for (const [k, v] of Object.entries(env)) Deno.env.set(k, v);
  const connects = new Map<string, ConnectServer | { readonly missing: string }>();
  try {
    return await check({
      local,
      toValidate: [],
      aws: await awsClients(moto.url),
      motoUrl: moto.url,
      connects,
      connectCounts: { calls: 0, answered: 0 },
    });
  } finally {
    for (const [k, v] of Object.entries(before)) v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
    for (const c of connects.values()) if ("close" in c) await c.close();
    await local.close();
    await moto.stop();
  }
}

/**
 * Readies the session for one call before it is sent: the local server's answer, the topic's or
 * queue's inbox in moto (made if new), nothing arrived yet. The inbox, or null.
 */
export async function ready(c: WireCall, s: WireSession): Promise<string | null> {
  const kind = c.task.callee.kind;
  let inbox: string | null = null;
  if (kind === "http") s.local.answer.http = httpAnswer(c.task, c.answer);
  s.local.connect = c.proto === null ? null : await readyConnect(c, c.proto, s);
  s.local.refused = null;
  if (kind === "lambda") s.local.answer.lambda = lambdaAnswer(c.task, c.answer);
  if (kind === "aws") {
    const args = c.view.args as Record<string, unknown>;
    if (typeof args.TopicArn === "string") inbox = await s.aws.topicInbox(args.TopicArn);
    if (typeof args.QueueUrl === "string") inbox = await s.aws.queue(args.QueueUrl);
  }
  s.local.arrived.length = 0;
  return inbox;
}

/**
 * The Connect server of a `connect` call's `.proto`, readied: to answer a result protobuf-es reads as
 * the method's response message itself, anything else (an error, an answer no protobuf writer makes)
 * with the empty message that leaves the answer to the local server. Null when there is no server (why
 * is kept for the report).
 */
async function readyConnect(c: WireCall, proto: string, s: WireSession): Promise<ConnectServer | null> {
  let server = s.connects.get(proto);
  if (server === undefined) {
    server = await startConnectServer(proto);
    s.connects.set(proto, server);
  }
  if (!("state" in server)) return null;
  const output = server.output(methodPath(new URL(String((c.view.http as { url: string }).url)).pathname));
  const json = c.answer.kind === "ok" && output !== null
    ? asMessage(output, plain(c.answer.value) as never)
    : null;
  server.state.answer = json === null ? { kind: "empty" } : { kind: "message", json };
  s.connectCounts.calls++;
  if (json !== null) s.connectCounts.answered++;
  return server;
}

/**
 * After a call was sent: whether what arrived is the view (the request at the local server, or the
 * message in moto). A Lambda payload, and a record sent as a message's text, are compared as JSON
 * through `compared` (a target whose objects have no key order writes their keys in name order:
 * temporal-go); the HTTP request as it is.
 */
export async function arrivedProblem(
  c: WireCall,
  s: WireSession,
  inbox: string | null,
  compared: (json: string) => string = (json) => json,
): Promise<string | null> {
  const kind = c.task.callee.kind;
  if (kind === "aws") {
    const messages = inbox === null ? [] : await s.aws.receive(inbox);
    const args = c.view.args as Record<string, unknown>;
    const text = args.Message ?? args.MessageBody;
    const same = typeof text === "string"
      ? (m: string) => m === text
      : (m: string) => compared(m) === compared(JSON.stringify(text));
    return messages.length === 1 && same(messages[0])
      ? null
      : `moto delivered ${JSON.stringify(messages)}, not ${
        typeof text === "string" ? text : JSON.stringify(text)
      }`;
  }
  const local = s.local;
  if (local.arrived.length !== 1) return `${local.arrived.length} requests arrived, not one`;
  if (local.refused !== null && c.proto !== null) {
    return `the Connect server built from ${relative(ROOT, c.proto)} refused it: ${local.refused}`;
  }
  const got = local.arrived[0];
  if (got.http !== undefined && c.described !== null) {
    s.toValidate.push({ where: c.where, described: c.described, http: got.http });
  }
  if (kind === "lambda") {
    const view = c.view as { lambda: string; payload: unknown };
    const arrived = JSON.stringify({ lambda: got.lambda?.fn, payload: got.lambda?.payload });
    const want = JSON.stringify({ lambda: view.lambda, payload: view.payload });
    return compared(arrived) === compared(want) ? null : `Lambda got ${arrived}, the view is ${want}`;
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

/**
 * The report of a session whose calls are all sent, with every request of its `toValidate` validated
 * against its description by openapi-core in one Python process: a failure for each it refuses.
 */
export async function withDescribed(s: WireSession, sent: SentReport): Promise<WireReport> {
  const validated = await validateDescribed(s.toValidate);
  const missing = [...s.connects.values()].find((c) => "missing" in c);
  const connect = missing !== undefined && "missing" in missing
    ? { missing: missing.missing }
    : s.connectCounts;
  return "missing" in validated ? { ...sent, described: validated, connect } : {
    ...sent,
    described: s.toValidate.length,
    connect,
    failures: [...sent.failures, ...validated.failures],
  };
}

/** What a wire test prints of the Connect servers: how many calls went through one and were answered by it, or the SKIP of buf. */
export function connectLine(report: WireReport): string {
  return "missing" in report.connect
    ? `SKIP: buf: ${report.connect.missing}`
    : `${report.connect.calls} connect calls through a Connect server of connect-node 2.3.0 (the .proto compiled by buf 1.75.0), ${report.connect.answered} answered by it`;
}

/** What a wire test prints of the descriptions' validation: how many requests, or the SKIP of openapi-core. */
export function describedLine(report: WireReport): string {
  return typeof report.described === "number"
    ? `${report.described} requests validated against their OpenAPI description by openapi-core`
    : `SKIP: openapi-core: ${report.described.missing} (pip install -r verify/requirements-temporal.txt)`;
}

/** Each request validated against its description: a failure for each refused, or why openapi-core is missing. */
export async function validateDescribed(
  toValidate: readonly DescribedRequest[],
): Promise<{ failures: string[] } | { missing: string }> {
  if (toValidate.length === 0) return { failures: [] };
  const dir = Deno.makeTempDirSync({ prefix: "dandori-openapi-" });
  try {
    const requests = toValidate.map((r) => ({
      description: r.described.file,
      server: r.described.server,
      method: r.http.method,
      url: r.http.url,
      type: r.http.type,
      body: r.http.body,
    }));
    Deno.writeTextFileSync(`${dir}/requests.json`, JSON.stringify({ requests }));
    const out = await new Deno.Command("python3", {
      args: [`${ROOT}verify/dandori/openapi_validate.py`, `${dir}/requests.json`],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    if (!out.success) throw new Error(`openapi_validate.py failed: ${new TextDecoder().decode(out.stderr)}`);
    const said = JSON.parse(text) as (string | null)[] | { missing: string };
    if (!Array.isArray(said)) return said;
    return {
      failures: toValidate.flatMap((r, i) =>
        said[i] === null ? [] : [
          `${r.where}: the description ${relative(ROOT, r.described.file)} refuses it: ${said[i]}`,
        ]
      ),
    };
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

/** The AWS error every wire check raises: `sns:publish` to a topic that does not exist in moto. */
export const AWS_ERROR = {
  service: "sns",
  operation: "publish",
  args: { TopicArn: `arn:aws:sns:${REGION}:123456789012:nowhere`, Message: "m" },
} as const;

/** Whether `AWS_ERROR`'s outcome (`{"error": name, …}` as JSON) is moto's NotFound, as the flow's error. */
export function awsErrorProblem(outcome: string): string[] {
  const parsed = JSON.parse(outcome) as { error?: string };
  return parsed.error !== undefined && /NotFound/.test(parsed.error)
    ? []
    : [`sns:publish to no topic gave ${outcome}`];
}
