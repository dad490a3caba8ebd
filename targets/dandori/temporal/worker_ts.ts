/**
 * `worker.ts`: the worker of the flow's task queue `<name>_v<n>` (docs/targets.md#temporal-typescript). `workerOptions` gives the
 * options of `Worker.create` with the activities of `makeActivities`; with `deployment`, the worker
 * is one version of that Worker Deployment, its build id `BUILD_ID` (the hash of the code dandori
 * wrote), and runs stay on the version they started on (PINNED). `replay` plays histories on the
 * workflow's code, so a new build can be checked against the runs in flight before it replaces
 * the old one.
 * @module
 */

/**
 * The text of `worker.ts` after its header. With `encrypted` (the flow writes `history encrypted`),
 * `WorkerConfig.codec` is required, the worker's data converter is `codec.ts`'s
 * `encryptedDataConverter` over it, and `replay` takes the codec too; without it, the same bytes
 * as for any other flow.
 */
export function workerModule(queue: string, buildId: string, encrypted: boolean): string {
  const codecField = encrypted ? CODEC_FIELD : "";
  const converter = encrypted ? "    dataConverter: encryptedDataConverter(config.codec),\n" : "";
  return `import { fileURLToPath } from "node:url";
import { type NativeConnection, type ReplayHistoriesIterable, Worker, type WorkerOptions } from "@temporalio/worker";
${encrypted ? ENCRYPTED_IMPORTS : ""}import { makeActivities, type OwnTasks } from "./activities.ts";
import type { Transport } from "./io.ts";

/** The task queue of this workflow and its version. */
export const TASK_QUEUE = ${JSON.stringify(queue)};

/** The hash of the code dandori wrote: a Worker Deployment version's build id. */
export const BUILD_ID = ${JSON.stringify(buildId)};

/** The workflow's module, which \`Worker.create\` bundles. */
export const WORKFLOWS_PATH: string = fileURLToPath(new URL("./workflow.ts", import.meta.url));

/** What a worker is given. */
export interface WorkerConfig {
  readonly connection: NativeConnection;
  readonly namespace?: string;
  readonly own: OwnTasks;
  readonly transport: Transport;
${codecField}  /** A Worker Deployment's name: the worker is its version \`BUILD_ID\`, and runs stay on it. */
  readonly deployment?: string;
}

/** The options of \`Worker.create\` for this workflow. */
export function workerOptions(config: WorkerConfig): WorkerOptions {
  return {
    connection: config.connection,
    namespace: config.namespace ?? "default",
    taskQueue: TASK_QUEUE,
    workflowsPath: WORKFLOWS_PATH,
    activities: makeActivities(config.own, config.transport),
${converter}    ...(config.deployment === undefined ? {} : {
      workerDeploymentOptions: {
        useWorkerVersioning: true,
        version: { deploymentName: config.deployment, buildId: BUILD_ID },
        defaultVersioningBehavior: "PINNED" as const,
      },
    }),
  };
}

${encrypted ? ENCRYPTED_REPLAY : REPLAY}`;
}

/** What an encrypted flow's worker imports besides. */
const ENCRYPTED_IMPORTS = `import type { PayloadCodec } from "@temporalio/common";
import { encryptedDataConverter } from "./codec.ts";
`;

/** The codec an encrypted flow's worker requires. */
const CODEC_FIELD = `  /**
   * The payload codec every payload passes (the flow writes \`history encrypted\`): \`codec.ts\`'s
   * \`AesGcmCodec\` with a key your code supplies, or a codec of your own.
   */
  readonly codec: PayloadCodec;
`;

const REPLAY = `/**
 * Replays every history (\`{ workflowId, history }\`, as \`fetchHistory\` or the JSON of the CLI gives it)
 * on this workflow's code; throws on the first that does not replay.
 */
export async function replay(histories: ReplayHistoriesIterable): Promise<void> {
  for await (const r of Worker.runReplayHistories({ workflowsPath: WORKFLOWS_PATH }, histories)) {
    if (r.error !== undefined) throw r.error;
  }
}
`;

const ENCRYPTED_REPLAY = `/**
 * Replays every history (\`{ workflowId, history }\`, as \`fetchHistory\` or the JSON of the CLI gives it)
 * on this workflow's code, its payloads read through \`codec\`; throws on the first that does not replay.
 */
export async function replay(histories: ReplayHistoriesIterable, codec: PayloadCodec): Promise<void> {
  const options = { workflowsPath: WORKFLOWS_PATH, dataConverter: encryptedDataConverter(codec) };
  for await (const r of Worker.runReplayHistories(options, histories)) {
    if (r.error !== undefined) throw r.error;
  }
}
`;
