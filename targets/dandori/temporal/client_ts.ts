/**
 * `client.ts`: how a program starts the workflow and talks to it (docs/targets.md#temporal-typescript): `start` (an id is never
 * used twice, `REJECT_DUPLICATE`; `searchAttributes: true` writes `DandoriCases`), `answer`
 * (a callback's answer, by Update), `send` (an event, by Update), `status` (the query) and
 * `histories` (every run of one execution, its continuations included, for `replay`). For a flow
 * that writes `history encrypted`, each of them takes an `EncryptedClient`, which only
 * `encryptedClient(connection, codec)` makes: a client whose payloads pass the codec.
 * @module
 */

import { str } from "../typescript/names.ts";

/** The text of `client.ts` after its header; without `encrypted`, the same bytes as for any other flow. */
export function clientModule(
  type: string,
  queue: string,
  events: readonly string[],
  encrypted: boolean,
): string {
  const client = encrypted ? "EncryptedClient" : "Client";
  return `${encrypted ? ENCRYPTED_IMPORTS : PLAIN_IMPORTS}import type { Answer } from "./runtime.ts";
import type * as T from "./types.ts";
import type { Status } from "./workflow.ts";

/** The workflow type and its task queue: \`<name>_v<n>\`. */
export const WORKFLOW_TYPE = ${str(type)};
export const TASK_QUEUE = ${str(queue)};

/** The events the workflow may wait for (\`send\` takes one of them). */
export const EVENTS = [${events.map(str).join(", ")}] as const;
export type EventName = typeof EVENTS[number];
${encrypted ? ENCRYPTED_CLIENT : ""}
/** How a run is started. */
export interface StartOptions {
  /** The workflow id: keys, child ids and callback ids are made from it, so it is never used twice. */
  readonly id: string;
  /** Writes the cases' states into the search attribute \`DandoriCases\` (it must be registered first). */
  readonly searchAttributes?: boolean;
}

/** Starts a run; its handle. */
export function start(client: ${client}, input: T.WorkflowInput, options: StartOptions): Promise<WorkflowHandle> {
  return client.workflow.start(WORKFLOW_TYPE, {
    taskQueue: TASK_QUEUE,
    workflowId: options.id,
    args: [input],
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    memo: { "dandori.cases": options.searchAttributes === true },
  });
}

/** Answers a callback; resolves true when the workflow took it, rejects when it refuses the id. */
export function answer(client: ${client}, workflowId: string, callbackId: string, a: Answer): Promise<boolean> {
  return client.workflow.getHandle(workflowId).executeUpdate<boolean, [unknown]>("dandori.answer", {
    args: [{ id: callbackId, ...a }],
  });
}

/** Sends an event; rejects when the workflow does not wait for it. */
export function send(client: ${client}, workflowId: string, event: EventName, a: Answer): Promise<boolean> {
  return client.workflow.getHandle(workflowId).executeUpdate<boolean, [unknown]>("dandori.event", {
    args: [{ event, ...a }],
  });
}

/** Where the run is: the line it waits at, the cases, the events it waits for. */
export function status(client: ${client}, workflowId: string): Promise<Status> {
  return client.workflow.getHandle(workflowId).query<Status>("dandori.status");
}

/** A run's history, with its run id. */
export interface RunHistory {
  readonly workflowId: string;
  readonly runId: string;
  readonly history: Awaited<ReturnType<WorkflowHandle["fetchHistory"]>>;
}

/** Every run of one execution from its first run on, following each Continue-As-New. */
export async function histories(client: ${client}, workflowId: string, firstRunId: string): Promise<RunHistory[]> {
  const out: RunHistory[] = [];
  for (let runId: string | null = firstRunId; runId !== null;) {
    const history: RunHistory["history"] = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    out.push({ workflowId, runId, history });
    const events = history.events ?? [];
    const next: unknown = events[events.length - 1]?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
    runId = typeof next === "string" && next !== "" ? next : null;
  }
  return out;
}
`;
}

const PLAIN_IMPORTS = `import type { Client, WorkflowHandle } from "@temporalio/client";
import { WorkflowIdReusePolicy } from "@temporalio/common";
`;

const ENCRYPTED_IMPORTS =
  `import { Client, type ClientOptions, type Connection, type WorkflowHandle } from "@temporalio/client";
import { type PayloadCodec, WorkflowIdReusePolicy } from "@temporalio/common";
import { encryptedDataConverter } from "./codec.ts";
`;

/** The client of an encrypted flow: a \`Client\` branded by a symbol no other module holds. */
const ENCRYPTED_CLIENT = `
/** The brand of the clients \`encryptedClient\` makes: no other module can write it. */
const encrypted: unique symbol = Symbol("dandori.encrypted");

/**
 * A client whose every payload passes a codec (the flow writes \`history encrypted\`): the only
 * client the functions below take, made only by \`encryptedClient\`.
 */
export type EncryptedClient = Client & { readonly [encrypted]: true };

/**
 * A client on \`connection\` whose every payload passes \`codec\` (\`codec.ts\`'s \`AesGcmCodec\` with a
 * key your code supplies, or a codec of your own), and whose failures keep their message and stack
 * trace in encoded attributes, which the codec encrypts.
 */
export function encryptedClient(
  connection: Connection,
  codec: PayloadCodec,
  options: Omit<ClientOptions, "connection" | "dataConverter"> = {},
): EncryptedClient {
  const client = new Client({ ...options, connection, dataConverter: encryptedDataConverter(codec) });
  return Object.assign(client, { [encrypted]: true as const });
}
`;
