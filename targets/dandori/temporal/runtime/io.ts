// How dandori-written activities reach the outside (docs/targets.md#temporal-typescript): the
// `Transport` port, its default implementation (`fetch` for HTTP, the AWS SDK for JavaScript v3
// for Lambda and AWS operations, OpenAI's and Anthropic's SDKs for agents, each loaded only when a
// call needs it, and chobo's generated TypeScript clients for books), and how an answer becomes a
// result or a declared error. It is the same for every flow; `io.ts` is this file followed by the
// flow's own book tables.

import process from "node:process";
import { ApplicationFailure, Context } from "@temporalio/activity";

/** An HTTP request as it is sent: the body is the exact text. */
export interface HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: { readonly [name: string]: string };
  readonly body?: string;
}

/** An HTTP response: its status and its body's text. */
export interface HttpResponse {
  readonly status: number;
  readonly body: string;
}

/** A Lambda function's answer: its payload, or the function's error. */
export type LambdaResult =
  | { readonly payload: unknown }
  | { readonly errorType: string; readonly errorMessage: string };

/** An AWS operation's error: the exception's name and message. */
export interface AwsError {
  readonly name: string;
  readonly message: string;
}

/** A book operation as a flow calls it: strings and amounts by the transfer's parameter names. */
export interface BookCall {
  readonly book: string;
  readonly transfer: string;
  readonly op: "do" | "hold" | "post" | "void";
  readonly args: { readonly [name: string]: unknown };
  /** A partial post's amounts. */
  readonly amounts?: { readonly [name: string]: unknown };
}

/** A book's answer: done, done before, or refused with the reason. */
export type BookResult =
  | { readonly result: "done" | "done_before" }
  | { readonly result: "refused"; readonly reason: string };

/** Whom an agent's request goes to: OpenAI's Responses API, Claude's Messages API, or an Open Responses server (`url`). */
export type AgentProvider = "openai" | "claude" | "responses";

/**
 * An agent's request as every platform sends it (docs/dandori.md#agents): where it goes, the headers
 * that say nothing secret, and the body. The key is never here: the default `Transport` adds it.
 */
export interface AgentRequest {
  readonly provider: AgentProvider;
  readonly url: string;
  readonly headers: { readonly [name: string]: string };
  readonly body: { readonly [name: string]: unknown };
}

/** Everything a dandori-written activity sends; a test swaps it for one that records. */
export interface Transport {
  http(request: HttpRequest): Promise<HttpResponse>;
  lambda(fn: string, payload: unknown): Promise<LambdaResult>;
  /** Resolves with the operation's output; rejects with an `AwsError` for the service's exception. */
  aws(service: string, operation: string, args: unknown): Promise<unknown>;
  book(call: BookCall): Promise<BookResult>;
  /**
   * Resolves with what the model answered, its text read as JSON (`{"answer": …}`); rejects when the
   * model refused or stopped short, or the request failed.
   */
  agent(request: AgentRequest): Promise<unknown>;
}

/** A chobo client's book value (`postgres(pool, { tenant })`, `tigerbeetle(client)`), reached by member names. */
export type BookValue = { readonly [transfer: string]: { readonly [op: string]: unknown } };

/**
 * What the default `Transport` is given: the books by the flow's names for them, and the headers an
 * Open Responses server (an agent's `url`) is sent besides the request's (its key, if it needs one).
 */
export interface TransportOptions {
  readonly books?: { readonly [name: string]: BookValue };
  readonly responsesHeaders?: { readonly [name: string]: string };
}

/** A task run by this worker heartbeats while it works, so Temporal sees a worker that died. */
export async function beating<R>(work: () => Promise<R>): Promise<R> {
  const context = Context.current();
  const timer = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** How often `beating` heartbeats (a test copy shortens it with the heartbeat timeout). */
export const HEARTBEAT_EVERY_MS = 10_000;

/** The error an activity fails with: a declared name as its type, anything else a failure. */
function failure(type: string, message: string): ApplicationFailure {
  return ApplicationFailure.create({ type, message, nonRetryable: true });
}

/** A declared error's name for what came over the wire, or null. */
function declared(errors: readonly (readonly [string, string])[], wire: string): string | null {
  return errors.find(([, w]) => w === wire)?.[0] ?? null;
}

/** Sends an HTTP request; a 2xx body is the result (JSON, or null when empty), a declared status its error. */
export async function http(
  transport: Transport,
  request: HttpRequest,
  errors: readonly (readonly [string, string])[],
): Promise<unknown> {
  const response = await transport.http(request);
  if (response.status >= 200 && response.status < 300) {
    return response.body === "" ? null : JSON.parse(response.body);
  }
  const name = declared(errors, String(response.status));
  throw failure(name ?? `HTTP ${response.status}`, response.body);
}

/** How one value is written into a Connect request (lang/dandori/connect.ts's `Sent`). */
export type Sent =
  | { readonly kind: "as is" }
  | { readonly kind: "int64" }
  | { readonly kind: "message"; readonly fields: readonly SentField[] };

/** A field of a Connect request: the flow's name for it, its JSON name, how its value is written. */
export interface SentField {
  readonly name: string;
  readonly json: string;
  readonly sent: Sent;
}

/** A field a Connect answer's reader fills: `zero` when it has no presence, `message` when its values are messages. */
export interface FillField {
  readonly json: string;
  readonly zero?: unknown;
  readonly message?: string;
}

/** The response's message and every message it may hold, each with the fields a reader fills. */
export interface FillTable {
  readonly top: string;
  readonly messages: readonly { readonly name: string; readonly fields: readonly FillField[] }[];
}

/** How deep in messages a Connect answer is filled (lang/dandori/proto.ts's `MAX_MESSAGE_DEPTH`). */
export const MAX_FILL_DEPTH = 32;

function isObject(v: unknown): v is { readonly [key: string]: unknown } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Sets an own property, whatever its name (`__proto__` among them). */
function setOwn(o: { [key: string]: unknown }, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A Connect request's body as protobuf's JSON: each argument given under its JSON name, an integer sent to a 64-bit field as decimal text. */
export function protoJson(
  fields: readonly SentField[],
  args: { readonly [name: string]: unknown },
): { [name: string]: unknown } {
  const out: { [name: string]: unknown } = {};
  for (const f of fields) {
    const v = Object.hasOwn(args, f.name) ? args[f.name] : null;
    if (v !== null && v !== undefined) setOwn(out, f.json, sentValue(f.sent, v));
  }
  return out;
}

function sentValue(sent: Sent, v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => sentValue(sent, x));
  if (sent.kind === "int64") return typeof v === "number" ? String(v) : v;
  if (sent.kind === "message") return isObject(v) ? protoJson(sent.fields, v) : v;
  return v;
}

/**
 * A Connect answer as protobuf reads it: every field without presence left out or `null` filled with
 * its zero value, in the answer and in every message in it, down to `MAX_FILL_DEPTH` messages.
 */
export function filled(table: FillTable, value: unknown): unknown {
  return fillMessage(table, table.top, value, 0);
}

function fillMessage(table: FillTable, name: string, value: unknown, depth: number): unknown {
  const fields = table.messages.find((m) => m.name === name)?.fields;
  if (!isObject(value) || depth > MAX_FILL_DEPTH || fields === undefined) return value;
  const out: { [key: string]: unknown } = {};
  for (const [k, v] of Object.entries(value)) setOwn(out, k, v);
  for (const f of fields) {
    const v = Object.hasOwn(out, f.json) ? out[f.json] : null;
    const inner = f.message;
    if (v === null || v === undefined) {
      if (f.zero !== undefined) setOwn(out, f.json, structuredClone(f.zero));
    } else if (inner !== undefined) {
      // A list of messages has a zero value (`[]`), one message has none: each is filled only as what it is.
      const list = f.zero !== undefined;
      if (list && Array.isArray(v)) {
        setOwn(
          out,
          f.json,
          v.map((x) => fillMessage(table, inner, x, depth + 1)),
        );
      }
      if (!list) setOwn(out, f.json, fillMessage(table, inner, v, depth + 1));
    }
  }
  return out;
}

/** Invokes a Lambda function; its payload is the result, a declared `errorType` its error. */
export async function lambda(
  transport: Transport,
  fn: string,
  payload: unknown,
  errors: readonly (readonly [string, string])[],
): Promise<unknown> {
  const got = await transport.lambda(fn, payload);
  if ("payload" in got) return got.payload;
  throw failure(declared(errors, got.errorType) ?? got.errorType, got.errorMessage);
}

/** Calls an AWS operation; its output is the result, a declared exception its error. */
export async function aws(
  transport: Transport,
  service: string,
  operation: string,
  args: unknown,
  errors: readonly (readonly [string, string])[],
): Promise<unknown> {
  try {
    return await transport.aws(service, operation, args);
  } catch (e) {
    const name = typeof e === "object" && e !== null && "name" in e ? String(e.name) : "Error";
    const message = e instanceof Error
      ? e.message
      : typeof e === "object" && e !== null && "message" in e
      ? String(e.message)
      : "";
    throw failure(declared(errors, name) ?? name, message);
  }
}

/**
 * Calls a book operation; done and done before are the result, a refusal its declared error or,
 * when the task does not declare it, `Dandori.Failure.<reason>` (docs/dandori.md#errors-retries-and-timeouts).
 */
export async function booked(
  transport: Transport,
  call: BookCall,
  errors: readonly string[],
): Promise<unknown> {
  const got = await transport.book(call);
  if (got.result === "refused") {
    throw failure(errors.includes(got.reason) ? got.reason : `Dandori.Failure.${got.reason}`, "");
  }
  return got;
}

/**
 * Where a Claude answer's enum values are, to read them without case: an enum's values, a list's, or
 * a record's fields' (a `T?` is its `T`: null is left as it is).
 */
export type EnumShape =
  | { readonly enum: readonly string[] }
  | { readonly list: EnumShape }
  | { readonly record: { readonly [field: string]: EnumShape } };

/**
 * Sends an agent's request; the `answer` of what the model answered is the result (a Claude answer's
 * enum values read without case when `shape` says where they are), and anything else (an answer
 * without `answer` among it) a failure. The failure's message is empty, as the interpreter's error
 * says no cause; what went wrong is in its details.
 */
export async function agent(
  transport: Transport,
  request: AgentRequest,
  shape: EnumShape | null,
): Promise<unknown> {
  let got: unknown;
  try {
    got = await transport.agent(request);
  } catch (e) {
    const name = typeof e === "object" && e !== null && "name" in e ? String(e.name) : "Error";
    throw ApplicationFailure.create({
      type: name,
      message: "",
      nonRetryable: true,
      details: [e instanceof Error ? e.message : String(e)],
    });
  }
  if (!isObject(got) || !Object.hasOwn(got, "answer")) {
    throw ApplicationFailure.create({ type: "AgentStopped", message: "", nonRetryable: true });
  }
  return shape === null ? got.answer : folded(shape, got.answer);
}

/** `value` with each string where `shape` has an enum replaced by the declared value equal to it but for case. */
export function folded(shape: EnumShape, value: unknown): unknown {
  if ("enum" in shape) {
    if (typeof value !== "string") return value;
    return shape.enum.find((v) => v.toLowerCase() === value.toLowerCase()) ?? value;
  }
  if ("list" in shape) return Array.isArray(value) ? value.map((v) => folded(shape.list, v)) : value;
  if (!isObject(value)) return value;
  const out: { [key: string]: unknown } = {};
  for (const [k, v] of Object.entries(value)) {
    setOwn(out, k, Object.hasOwn(shape.record, k) ? folded(shape.record[k], v) : v);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The default implementation.

/** The AWS SDK's client of a service and its command, loaded on first use. */
type AwsModule = { readonly [name: string]: unknown };

const AWS_PACKAGES: { readonly [service: string]: string } = {
  lambda: "@aws-sdk/client-lambda",
  sns: "@aws-sdk/client-sns",
  sqs: "@aws-sdk/client-sqs",
  dynamodb: "@aws-sdk/client-dynamodb",
  s3: "@aws-sdk/client-s3",
  eventbridge: "@aws-sdk/client-eventbridge",
};

const loaded = new Map<string, Promise<AwsModule>>();

/** The AWS SDK package of `service` (`@aws-sdk/client-<service>`), imported once. */
function awsModule(service: string): Promise<AwsModule> {
  const name = AWS_PACKAGES[service] ?? `@aws-sdk/client-${service}`;
  let m = loaded.get(name);
  if (m === undefined) {
    m = import(name) as Promise<AwsModule>;
    loaded.set(name, m);
  }
  return m;
}

/** `sendMessage` → `SendMessage`: the SDK's names of commands. */
function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

type Constructor = new (input: unknown) => { send(command: unknown): Promise<unknown> };

/**
 * A client's configuration: SQS sends to the host of the queue's URL unless an endpoint is
 * configured (`AWS_ENDPOINT_URL`, `AWS_ENDPOINT_URL_SQS`), which must then win, or a test's local
 * server would be passed by.
 */
function clientConfig(service: string): { useQueueUrlAsEndpoint?: boolean } {
  const configured = process.env.AWS_ENDPOINT_URL !== undefined ||
    process.env.AWS_ENDPOINT_URL_SQS !== undefined;
  return service === "sqs" && configured ? { useQueueUrlAsEndpoint: false } : {};
}

/** The message arguments of SNS and SQS are text: a record the flow gives there is sent as its JSON. */
const TEXT_ARGUMENTS = ["Message", "MessageBody"];

async function sendAws(service: string, operation: string, args: unknown): Promise<unknown> {
  const m = await awsModule(service);
  const input = typeof args === "object" && args !== null
    ? Object.fromEntries(
      Object.entries(args).map((
        [k, v],
      ) => [k, TEXT_ARGUMENTS.includes(k) && typeof v !== "string" ? JSON.stringify(v) : v]),
    )
    : args;
  const client = Object.entries(m).find(([n]) => n.endsWith("Client") && !n.startsWith("_"))?.[1] as
    | Constructor
    | undefined;
  // An operation of the API is a command of the client (its model's), named as Step Functions names
  // it (`sendMessage`); a helper of the SDK (a paginator, a waiter, a presigned URL) is none.
  const command = /^[a-z]/.test(operation)
    ? m[`${pascal(operation)}Command`] as Constructor | undefined
    : undefined;
  if (client === undefined || command === undefined) {
    throw new Error(`dandori: ${service} has no operation ${operation} in its API`);
  }
  const output = await new client(clientConfig(service)).send(new command(input)) as {
    [key: string]: unknown;
  };
  const { $metadata: _, ...rest } = output;
  return rest;
}

/** A book call through a chobo client: the member of the transfer and op, with amounts as bigint. */
async function callBook(books: { readonly [name: string]: BookValue }, call: BookCall): Promise<BookResult> {
  const book = books[call.book];
  if (book === undefined) throw new Error(`dandori: no book ${call.book} was given to transport()`);
  const names = BOOK_NAMES[call.book]?.[call.transfer];
  if (names === undefined) throw new Error(`dandori: the book ${call.book} has no transfer ${call.transfer}`);
  const member = book[names.member]?.[call.op];
  if (typeof member !== "function") {
    throw new Error(`dandori: ${call.book}.${call.transfer} has no ${call.op}`);
  }
  const client = (values: { readonly [name: string]: unknown } | undefined) =>
    values === undefined ? undefined : Object.fromEntries(
      Object.entries(values).map(([n, v]) => [
        names.params[n] ?? n,
        names.amounts.includes(n) && (typeof v === "number" || typeof v === "string") ? BigInt(v) : v,
      ]),
    );
  const got = await (member as (a: unknown, b?: unknown) => Promise<unknown>)(
    client(call.args),
    client(call.amounts),
  ) as { readonly result: string; readonly reason?: string };
  if (got.result === "refused") return { result: "refused", reason: String(got.reason) };
  if (got.result === "done" || got.result === "done_before") return { result: got.result };
  throw new Error(`dandori: ${call.book}.${call.transfer}.${call.op} answered ${JSON.stringify(got)}`);
}

/** A model's answer that is none: a refusal, a stop short of the end, a response without text. */
class AgentStopped extends Error {
  override name = "AgentStopped";
}

/** An Open Responses server's answer that is not a 2xx. */
class AgentHttpError extends Error {
  override name = "AgentHttpError";
}

/** The SDK packages of the providers, imported once, when a call needs one. */
const sdks = new Map<string, Promise<{ readonly default: new (options: unknown) => unknown }>>();

function sdk(
  name: "openai" | "@anthropic-ai/sdk",
): Promise<{ readonly default: new (options: unknown) => unknown }> {
  let m = sdks.get(name);
  if (m === undefined) {
    m = import(name) as Promise<{ readonly default: new (options: unknown) => unknown }>;
    sdks.set(name, m);
  }
  return m;
}

/** `url` without `tail`: the base URL an SDK's client is given for a request to `url`. */
function baseOf(url: string, tail: string): string {
  return url.endsWith(tail) ? url.slice(0, -tail.length) : url;
}

/** The first `output_text` of a Responses API response's messages: none (a refusal) stops the agent. */
function outputText(response: unknown): string {
  const output = isObject(response) && Array.isArray(response.output) ? response.output : [];
  for (const item of output) {
    if (!isObject(item) || item.type !== "message" || !Array.isArray(item.content)) continue;
    for (const part of item.content) {
      if (isObject(part) && part.type === "output_text" && typeof part.text === "string") return part.text;
    }
  }
  throw new AgentStopped("the model answered no output_text (a refusal)");
}

/** A Messages API response's text blocks, joined: a stop other than `end_turn` stops the agent. */
function messageText(response: unknown): string {
  const stop = isObject(response) ? response.stop_reason : undefined;
  if (stop !== "end_turn") throw new AgentStopped(`the model stopped with ${JSON.stringify(stop ?? null)}`);
  const content = isObject(response) && Array.isArray(response.content) ? response.content : [];
  return content.flatMap((b) =>
    isObject(b) && b.type === "text" && typeof b.text === "string" ? [b.text] : []
  )
    .join("");
}

/**
 * An agent's request through its provider's SDK, which reads the key from the environment
 * (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`) and is told not to retry (only the task's `retry` retries),
 * or to an Open Responses server with `fetch` and no key but `responsesHeaders`.
 */
async function sendAgent(request: AgentRequest, options: TransportOptions): Promise<unknown> {
  const { provider, url, headers, body } = request;
  if (provider === "claude") {
    const Anthropic = (await sdk("@anthropic-ai/sdk")).default;
    const client = new Anthropic({
      baseURL: baseOf(url, "/v1/messages"),
      maxRetries: 0,
      defaultHeaders: headers,
    }) as {
      messages: { create(body: unknown): Promise<unknown> };
    };
    return JSON.parse(messageText(await client.messages.create(body)));
  }
  if (provider === "openai") {
    const OpenAI = (await sdk("openai")).default;
    const client = new OpenAI({
      baseURL: baseOf(url, "/responses"),
      maxRetries: 0,
      defaultHeaders: headers,
    }) as {
      responses: { create(body: unknown): Promise<unknown> };
    };
    return JSON.parse(outputText(await client.responses.create(body)));
  }
  const response = await fetch(url, {
    method: "POST",
    headers: { ...headers, ...options.responsesHeaders, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status < 200 || response.status >= 300) {
    throw new AgentHttpError(`HTTP ${response.status}: ${text}`);
  }
  return JSON.parse(outputText(JSON.parse(text)));
}

/**
 * The default `Transport`: HTTP through `fetch`, Lambda and AWS through the AWS SDK for
 * JavaScript v3 (its packages are imported only when a call needs one; `AWS_ENDPOINT_URL` and the
 * usual AWS variables configure them), books through the chobo clients given, agents through
 * `openai` and `@anthropic-ai/sdk` (and `fetch` for an Open Responses server).
 */
export function transport(options: TransportOptions = {}): Transport {
  return {
    async http(request) {
      const response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
      });
      return { status: response.status, body: await response.text() };
    },
    async lambda(fn, payload) {
      const m = await awsModule("lambda");
      const Client = m.LambdaClient as Constructor;
      const Invoke = m.InvokeCommand as Constructor;
      const out = await new Client({}).send(
        new Invoke({ FunctionName: fn, Payload: new TextEncoder().encode(JSON.stringify(payload)) }),
      ) as { Payload?: Uint8Array; FunctionError?: string };
      const text = out.Payload === undefined ? "" : new TextDecoder().decode(out.Payload);
      const body = text === "" ? null : JSON.parse(text);
      if (out.FunctionError === undefined) return { payload: body };
      const error = body as { errorType?: string; errorMessage?: string } | null;
      return { errorType: error?.errorType ?? out.FunctionError, errorMessage: error?.errorMessage ?? "" };
    },
    aws: sendAws,
    book(call) {
      return callBook(options.books ?? {}, call);
    },
    agent(request) {
      return sendAgent(request, options);
    },
  };
}
