/**
 * The program in the caller's image (docs/targets.md#argo): `call.ts`, which runs the one
 * task a container is handed in `DANDORI_CALL` through `tasks.ts`'s `makeTasks` (the TypeScript
 * targets' task bodies over Temporal's `io.ts`) and leaves how it ended where the workflow reads it,
 * `transport.ts`, `package.json` and the `Dockerfile`.
 *
 * How a call ends: its answer in `/tmp/dandori/answer.json` and exit code 0; a declared error in
 * `/tmp/dandori/error.json` (`{"error", "message"}`), its name as the container's termination
 * message, exit code 3; a callback that did not hand its id on within 60 seconds, `Dandori.Timeout`
 * and exit code 143, as a Pod stopped at its deadline ends; any other error `error.json` and exit
 * code 1. `DANDORI_FAIL` (the end of a run that failed) prints the run's error and exits 1.
 * @module
 */

import type { Plan, TaskPlan } from "../../../lang/dandori/plan.ts";
import { str } from "../typescript/names.ts";
import { stepTasks } from "../typescript/tasks_ts.ts";
import { agentProvider } from "../agent_tasks.ts";

/** The tasks the caller's image runs: dandori's own (a task with an `image` runs in that image instead). */
export function callerTasks(plan: Plan): TaskPlan[] {
  return stepTasks(plan).filter((t) => t.image === null);
}

/**
 * `runtime.ts` of the caller: what `types.ts` and `tasks.ts` read from a package's runtime — the shared
 * rules, and the type of a JSON value, as Temporal's and durable functions' runtimes declare it.
 */
export const CALLER_RUNTIME = `export * from "./rules.ts";

/** A JSON value: what a \`json\` field holds. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
`;

/** The text of `call.ts` after its header. */
export function callModule(plan: Plan): string {
  const declared = callerTasks(plan).map((t) =>
    `  ${str(t.name)}: [${t.errors.map((e) => str(e.name)).join(", ")}],`
  );
  return `import { mkdirSync, writeFileSync } from "node:fs";
import process from "node:process";
import { makeTasks } from "./tasks.ts";
import { transport } from "./transport.ts";

/** The declared errors of each task this image runs: one of these ends the call with exit code 3. */
const DECLARED: { readonly [task: string]: readonly string[] } = {
${declared.join("\n")}
};

/** How long a callback's task may take to hand its id on (docs/targets.md#argo). */
const HAND_ON_SECONDS = 60;

/** Where the workflow reads how a call ended. */
const DIR = "/tmp/dandori";

/** What a container is handed in \`DANDORI_CALL\`. */
interface Call {
  readonly task: string;
  readonly args: unknown;
  readonly key?: string;
  readonly callback_id?: string;
}

type Run = (args: unknown, call: { readonly key?: string; readonly callback_id?: string }) => Promise<unknown>;

/** Writes \`file\` and the termination message, and ends the container with \`code\`. */
function finish(code: number, file: string, value: unknown, message: string): never {
  mkdirSync(DIR, { recursive: true });
  writeFileSync(\`\${DIR}/\${file}\`, JSON.stringify(value ?? null));
  try {
    writeFileSync("/dev/termination-log", message);
  } catch {
    // Outside Kubernetes there is no termination message to leave.
  }
  process.exit(code);
}

/** \`work\`, or a \`Dandori.Timeout\` after \`seconds\` (null: no limit). */
async function within<R>(work: Promise<R>, seconds: number | null): Promise<R> {
  if (seconds === null) return await work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const e = new Error(\`did not hand the id on within \${seconds} seconds\`);
      e.name = "Dandori.Timeout";
      reject(e);
    }, seconds * 1000);
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** The name an error carries (an \`ApplicationFailure\`'s \`type\`, else its \`name\`) and its message. */
function named(e: unknown): { name: string; message: string } {
  const type = typeof e === "object" && e !== null && "type" in e && typeof e.type === "string" ? e.type : null;
  return {
    name: type ?? (e instanceof Error ? e.name : "Error"),
    message: e instanceof Error ? e.message : String(e),
  };
}

async function main(): Promise<never> {
  const failing = process.env.DANDORI_FAIL;
  if (failing !== undefined) {
    const error = JSON.parse(failing) as { readonly error?: string; readonly reason?: string | null };
    process.stderr.write(\`\${error.error}\${error.reason == null ? "" : \`: \${error.reason}\`}\\n\`);
    process.exit(1);
  }
  const call = JSON.parse(process.env.DANDORI_CALL ?? "") as Call;
  const tasks = makeTasks({}, transport()) as unknown as { readonly [task: string]: Run };
  if (!Object.hasOwn(tasks, call.task)) {
    return finish(1, "error.json", { error: "Dandori.Failure", message: \`no task \${call.task} runs here\` }, "");
  }
  try {
    const seconds = call.callback_id === undefined ? null : HAND_ON_SECONDS;
    const result = await within(tasks[call.task](call.args, { key: call.key, callback_id: call.callback_id }), seconds);
    return finish(0, "answer.json", result, "");
  } catch (e) {
    const { name, message } = named(e);
    if (name === "Dandori.Timeout") return finish(143, "error.json", { error: name, message }, name);
    const declared = Object.hasOwn(DECLARED, call.task) && DECLARED[call.task].includes(name);
    return finish(declared ? 3 : 1, "error.json", { error: name, message }, declared ? name : message);
  }
}

await main();
`;
}

/** The text of \`transport.ts\` after its header. */
export function transportModule(): string {
  return `import * as io from "./io.ts";

/**
 * The \`Transport\` the caller sends through: \`io.ts\`'s default. A flow that calls a book needs its
 * chobo client's book value here (\`io.transport({ books: { <book>: … } })\`): build the image with your
 * own \`transport.ts\` in this one's place (docs/targets.md#argo).
 */
export function transport(): io.Transport {
  return io.transport({});
}
`;
}

/** The AWS SDK packages the verify runs use, pinned as the repository pins them; other services take the SDK's v3. */
const AWS_PACKAGES: { readonly [service: string]: string } = {
  lambda: "3.1164.0",
  sns: "3.1169.0",
  sqs: "3.1175.0",
};

/** The providers' SDKs `io.ts` sends agents' requests through, pinned as the repository pins them. */
const AGENT_PACKAGES = { openai: "7.55.0", "@anthropic-ai/sdk": "1.10.0" } as const;

/** `package.json`: the packages `io.ts` imports for the flow's tasks. */
export function packageJson(plan: Plan, name: string): string {
  const services = new Set<string>();
  for (const t of callerTasks(plan)) {
    if (t.callee.kind === "lambda") services.add("lambda");
    if (t.callee.kind === "aws") services.add(t.callee.service);
  }
  const dependencies: Record<string, string> = { "@temporalio/activity": "1.24.0" };
  for (const s of [...services].sort()) dependencies[`@aws-sdk/client-${s}`] = AWS_PACKAGES[s] ?? "^3.0.0";
  const agents = callerTasks(plan).flatMap((t) => t.callee.kind === "agent" ? [agentProvider(t.callee)] : []);
  if (agents.includes("claude")) dependencies["@anthropic-ai/sdk"] = AGENT_PACKAGES["@anthropic-ai/sdk"];
  if (agents.includes("openai")) dependencies.openai = AGENT_PACKAGES.openai;
  return JSON.stringify(
    { name: `${name}-caller`, private: true, type: "module", engines: { node: ">=23.6" }, dependencies },
    null,
    2,
  ) + "\n";
}

/** The `Dockerfile` of the caller's image: Node runs the TypeScript as it is (its types stripped). */
export function dockerfile(head: string): string {
  return `${head}FROM node:24-slim
WORKDIR /app
COPY package.json ./
RUN npm install --omit=dev
COPY *.ts ./
ENTRYPOINT ["node", "/app/call.ts"]
`;
}
