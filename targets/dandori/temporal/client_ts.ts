/**
 * `client.ts`: how a program starts the workflow and talks to it (docs/targets.md#temporal-typescript): `start` (an id is never
 * used twice, `REJECT_DUPLICATE`; `searchAttributes: true` writes `DandoriCases`), `answer`
 * (a callback's answer, by Update), `send` (an event, by Update), `status` (the query) and
 * `histories` (every run of one execution, its continuations included, for `replay`).
 * @module
 */

import { str } from "../typescript/names.ts";

/** The text of `client.ts` after its header. */
export function clientModule(type: string, queue: string, events: readonly string[]): string {
  return `import type { Client, WorkflowHandle } from "@temporalio/client";
import { WorkflowIdReusePolicy } from "@temporalio/common";
import type { Answer } from "./runtime.ts";
import type * as T from "./types.ts";
import type { Status } from "./workflow.ts";

/** The workflow type and its task queue: \`<name>_v<n>\`. */
export const WORKFLOW_TYPE = ${str(type)};
export const TASK_QUEUE = ${str(queue)};

/** The events the workflow may wait for (\`send\` takes one of them). */
export const EVENTS = [${events.map(str).join(", ")}] as const;
export type EventName = typeof EVENTS[number];

/** How a run is started. */
export interface StartOptions {
  /** The workflow id: keys, child ids and callback ids are made from it, so it is never used twice. */
  readonly id: string;
  /** Writes the cases' states into the search attribute \`DandoriCases\` (it must be registered first). */
  readonly searchAttributes?: boolean;
}

/** Starts a run; its handle. */
export function start(client: Client, input: T.WorkflowInput, options: StartOptions): Promise<WorkflowHandle> {
  return client.workflow.start(WORKFLOW_TYPE, {
    taskQueue: TASK_QUEUE,
    workflowId: options.id,
    args: [input],
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    memo: { "dandori.cases": options.searchAttributes === true },
  });
}

/** Answers a callback; resolves true when the workflow took it, rejects when it refuses the id. */
export function answer(client: Client, workflowId: string, callbackId: string, a: Answer): Promise<boolean> {
  return client.workflow.getHandle(workflowId).executeUpdate<boolean, [unknown]>("dandori.answer", {
    args: [{ id: callbackId, ...a }],
  });
}

/** Sends an event; rejects when the workflow does not wait for it. */
export function send(client: Client, workflowId: string, event: EventName, a: Answer): Promise<boolean> {
  return client.workflow.getHandle(workflowId).executeUpdate<boolean, [unknown]>("dandori.event", {
    args: [{ event, ...a }],
  });
}

/** Where the run is: the line it waits at, the cases, the events it waits for. */
export function status(client: Client, workflowId: string): Promise<Status> {
  return client.workflow.getHandle(workflowId).query<Status>("dandori.status");
}

/** A run's history, with its run id. */
export interface RunHistory {
  readonly workflowId: string;
  readonly runId: string;
  readonly history: Awaited<ReturnType<WorkflowHandle["fetchHistory"]>>;
}

/** Every run of one execution from its first run on, following each Continue-As-New. */
export async function histories(client: Client, workflowId: string, firstRunId: string): Promise<RunHistory[]> {
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
