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
 * to a topic that does not exist) to fail as the flow's failure. The session, the calls and the
 * comparison of what arrived are `wire.ts`'s. Nothing leaves the machine. @module
 */

import { MockActivityEnvironment } from "@temporalio/testing";
import type { Answer } from "../../lang/dandori/interp.ts";
import type { TaskPlan } from "../../lang/dandori/plan.ts";
import { TEMPORAL_TYPESCRIPT } from "../../targets/dandori/temporal/target.ts";
import { DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import type { RunnableFlow } from "./flows.ts";
import {
  arrivedProblem,
  AWS_ERROR,
  awsErrorProblem,
  httpAnswer,
  lambdaResult,
  ready,
  sendable,
  type WireCall,
  wireCalls,
  type WireReport,
  type WireSession,
  withDescribed,
  withWire,
} from "./wire.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const ORIGIN = { file: "wire.flow", path: "wire.flow", text: "", sha: "0".repeat(16), version: "wire" };

/** The stub `Transport` of the runs, for one answer: what the activity makes of it is the reference. */
function stubTransport(task: TaskPlan, a: Answer) {
  return {
    http: () => Promise.resolve(httpAnswer(task, a)),
    lambda: () => Promise.resolve(lambdaResult(task, a)),
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

/** Sends every call of `flows` through the generated default `Transport`; null when moto is not installed. */
export function verifyWire(flows: readonly RunnableFlow[]): Promise<WireReport | null> {
  return withWire(async (session) => {
    const dir = Deno.makeTempDirSync({ prefix: "dandori-wire-" });
    Deno.symlinkSync(`${ROOT}node_modules`, `${dir}/node_modules`);
    const failures: string[] = [];
    const counts = { http: 0, lambda: 0, aws: 0 };
    try {
      let anyIo: Module = null;
      for (const [i, f] of flows.entries()) {
        const calls = wireCalls(f, "temporal");
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
          const problem = sendable(c) ? await sendOne(c, generated, io, session) : null;
          counts[c.task.callee.kind as "http" | "lambda" | "aws"]++;
          if (problem !== null) failures.push(`${c.where}: ${problem}`);
        }
      }
      if (anyIo !== null) {
        const { service, operation, args } = AWS_ERROR;
        failures.push(
          ...awsErrorProblem(await outcome(() => anyIo.aws(anyIo.transport(), service, operation, args, []))),
        );
      }
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
    return await withDescribed(session, { ...counts, failures });
  });
}

// deno-lint-ignore no-explicit-any
type Module = any;

/** Sends one call through the generated activity and the default transport; the problem, or null. */
async function sendOne(
  c: WireCall,
  generated: Module,
  io: Module,
  session: WireSession,
): Promise<string | null> {
  const env = new MockActivityEnvironment();
  const base = io.transport();
  const toLocal = (url: string) => url.replace(/^https?:\/\/[^/]+/, session.local.url);
  const wire = { ...base, http: (r: { url: string }) => base.http({ ...r, url: toLocal(r.url) }) };
  const inbox = await ready(c, session);
  const sent = await outcome(() => env.run(generated.makeActivities({}, wire)[c.task.name], c.args, c.call));
  if (c.task.callee.kind !== "aws") {
    const stub = await outcome(() =>
      new MockActivityEnvironment().run(
        generated.makeActivities({}, stubTransport(c.task, c.answer))[c.task.name],
        c.args,
        c.call,
      )
    );
    if (sent !== stub) return `the default Transport gave ${sent}, the stub ${stub}`;
  } else if (!sent.startsWith('{"ok":')) return `moto answered ${sent}`;
  return await arrivedProblem(c, session, inbox);
}
