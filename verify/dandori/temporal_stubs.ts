/**
 * The stubs of the TypeScript runner (docs/targets.md#the-runner-contract), one set per flow: the stub
 * `Transport` and the user's tasks, which record every call as sent and answer it from the scenario;
 * the recording of every activity as the workflow called it; the child stub's activity; and what
 * stands for the outside world around a run (callbacks answered through the generated `answer`, events
 * sent through `send` when `status` says they are awaited, cancels asked of the server, a timeout made
 * the server's by a stub that stops heartbeating).
 * @module
 */

import { ApplicationFailure, Context } from "@temporalio/activity";
import type { Client } from "@temporalio/client";
import { CancelledFailure } from "@temporalio/common";
import type { AnswerJson, Problem, RunJob, RunnerLimits, SentCall, TaskInfo } from "./temporal_contract.ts";

export interface RunState {
  readonly answers: readonly AnswerJson[];
  next: number;
  readonly calls: SentCall[];
  readonly problems: Problem[];
  /** The timeouts the server must make: activities that stop heartbeating, children that do not end. */
  timeoutsGiven: number;
  late: boolean;
  unknownTried: boolean;
  unknownEventTried: boolean;
  /** Why the run was late, when it was: shown with its play if it disagrees. */
  readonly lateWhy: string[];
  /** Resolves when the run has ended: what a stub the scenario times out waits for. */
  readonly ended: PromiseWithResolvers<void>;
  current: { answer: AnswerJson; callbackId: string | null } | null;
}

/** A new run's state. */
export function runState(run: RunJob): RunState {
  return {
    answers: run.answers,
    next: 0,
    calls: [],
    problems: [],
    timeoutsGiven: 0,
    late: false,
    unknownTried: false,
    unknownEventTried: false,
    lateWhy: [],
    current: null,
    ended: Promise.withResolvers<void>(),
  };
}

/** The generated `client.ts` of a code copy. */
// deno-lint-ignore no-explicit-any
export type GeneratedClient = any;

/** What the stubs need of their flow: its client, its generated client, its tasks, its runs' states. */
export interface StubHost {
  readonly client: Client;
  readonly tasks: Record<string, TaskInfo>;
  generatedClient(): GeneratedClient;
  state(workflowId: string): RunState;
}

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function cause(a: AnswerJson): string {
  return "error" in a ? a.cause ?? "" : "";
}

function errorOf(a: AnswerJson): { error: string; cause: string } | null {
  return "error" in a ? { error: a.error, cause: cause(a) } : null;
}

/** A failure that is no declared error, with the scenario's cause as its message (an Error's empty message would read "Error"). */
function failure(message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: "Error", message, nonRetryable: true });
}

/** The workflow id of the run an activity belongs to. */
export function runOf(context: Context): string {
  const id = context.info.workflowExecution?.workflowId;
  if (id === undefined) throw new Error("an activity without a workflow");
  return id;
}

/** What a child stub's workflow passes its activity. */
export interface ChildCall {
  readonly child: string;
  readonly id: string;
  readonly queue: string;
  readonly input: unknown;
}

/** The stubs of one flow's worker: `Transport`, the user's tasks, the recording of calls, the child stub. */
export class Stubs {
  constructor(private readonly play: StubHost, private readonly limits: RunnerLimits) {}

  private take(s: RunState): AnswerJson {
    const a = s.answers[s.next++];
    if (a === undefined) throw new Error("the scenario has no answer left for this call");
    return a;
  }

  /**
   * Blocks a timed-out activity without heartbeats until its run has ended, so the server times it
   * out (whenever a busy server gets to it) and nothing the stub does afterwards can reach the run.
   */
  private async block(s: RunState, context: Context): Promise<never> {
    s.timeoutsGiven++;
    Object.defineProperty(context, "heartbeat", { value: () => {} });
    await s.ended.promise;
    throw new Error("the stub blocked until its run ended");
  }

  /** Asks the server to cancel the run, then waits until this activity is cancelled. */
  private async cancelHere(context: Context, workflowId: string): Promise<never> {
    await this.play.client.workflow.getHandle(workflowId.split("/")[0]).cancel();
    await context.cancelled;
    throw new CancelledFailure("cancelled");
  }

  /** The answer of a callback, through the generated `answer`: a repeat and (once a run) an unknown id must be refused. */
  private async answerCallback(s: RunState, id: string, a: AnswerJson): Promise<void> {
    const { client } = this.play;
    const answer = this.play.generatedClient().answer;
    const workflowId = (JSON.parse(id) as { workflow: string }).workflow;
    const value = "ok" in a ? { ok: a.ok } : { error: (a as { error: string }).error, message: cause(a) };
    if (!s.unknownTried) {
      s.unknownTried = true;
      const unknown = JSON.stringify({ workflow: workflowId, call: "s0/0" });
      if (await answer(client, workflowId, unknown, value).then(() => true, () => false)) {
        s.problems.push({ kind: "unknown callback taken", callback: unknown });
      }
    }
    const took = await answer(client, workflowId, id, value).then(() => true, (e: unknown) => String(e));
    if (took !== true) {
      // The wait ended before the answer came (its hand-on activity timed out under load): late, not wrong.
      s.lateWhy.push(`the answer to ${id} was refused: ${took}`);
      s.late = true;
      return;
    }
    if (await answer(client, workflowId, id, value).then(() => true, () => false)) {
      s.problems.push({ kind: "second answer taken", callback: id });
    }
  }

  /** What a stub does with the current answer before it answers: block, cancel, or hand a callback on. */
  private async before(s: RunState, context: Context): Promise<AnswerJson | null> {
    const cur = s.current;
    if (cur === null) throw new Error("a stub was called outside an activity");
    const a = cur.answer;
    const workflowId = runOf(context);
    if ("cancel" in a) return await this.cancelHere(context, workflowId);
    if (cur.callbackId !== null) {
      if (!("error" in a && a.error === "timeout")) await this.answerCallback(s, cur.callbackId, a);
      return null;
    }
    if ("error" in a && a.error === "timeout") return await this.block(s, context);
    return a;
  }

  private wire(context: Context, error: string): string | undefined {
    return this.play.tasks[context.info.activityType].wires[error];
  }

  /** The stub `Transport`: records what is sent, in the `transport` view's shape, and answers. */
  readonly transport = {
    http: async (
      request: { method: string; url: string; headers: Record<string, string>; body?: string },
    ) => {
      const context = Context.current();
      const s = this.play.state(runOf(context));
      const json = request.headers["Content-Type"] === "application/json";
      s.calls[s.calls.length - 1].transport = {
        http: {
          method: request.method,
          url: request.url,
          headers: request.headers,
          ...(request.body === undefined ? {} : { body: json ? JSON.parse(request.body) : request.body }),
        },
      };
      const a = await this.before(s, context);
      if (a === null) return { status: 200, body: "" };
      const e = errorOf(a);
      if (e === null) {
        const ok = (a as { ok: unknown }).ok;
        return { status: 200, body: ok === null ? "" : JSON.stringify(ok) };
      }
      const wire = this.wire(context, e.error);
      return { status: wire === undefined ? 500 : Number(wire), body: e.cause };
    },
    lambda: async (fn: string, payload: unknown) => {
      const context = Context.current();
      const s = this.play.state(runOf(context));
      s.calls[s.calls.length - 1].transport = { lambda: fn, payload };
      const a = await this.before(s, context);
      if (a === null) return { payload: null };
      const e = errorOf(a);
      if (e === null) return { payload: (a as { ok: unknown }).ok };
      return { errorType: this.wire(context, e.error) ?? "Error", errorMessage: e.cause };
    },
    aws: async (service: string, operation: string, args: unknown) => {
      const context = Context.current();
      const s = this.play.state(runOf(context));
      s.calls[s.calls.length - 1].transport = { aws: `${service}:${operation}`, args };
      const a = await this.before(s, context);
      if (a === null) return {};
      const e = errorOf(a);
      if (e === null) return (a as { ok: unknown }).ok;
      throw Object.assign(new Error(e.cause), { name: this.wire(context, e.error) ?? "InternalFailure" });
    },
    book: async (call: unknown) => {
      const context = Context.current();
      const s = this.play.state(runOf(context));
      s.calls[s.calls.length - 1].transport = call;
      const a = await this.before(s, context);
      if (a === null) return { result: "done" };
      const e = errorOf(a);
      if (e === null) return (a as { ok: unknown }).ok;
      if (e.error === "failure") throw failure(e.cause);
      return { result: "refused", reason: e.error };
    },
    /** An agent's request as sent; the answer wrapped in `{"answer": …}`, a failure thrown as the model's refusal is. */
    agent: async (request: { url: string; headers: Record<string, string>; body: unknown }) => {
      const context = Context.current();
      const s = this.play.state(runOf(context));
      s.calls[s.calls.length - 1].transport = {
        agent: { url: request.url, headers: request.headers, body: request.body },
      };
      const a = await this.before(s, context);
      if (a === null) throw new Error("an agent's call has no callback");
      const e = errorOf(a);
      if (e === null) return { answer: (a as { ok: unknown }).ok };
      throw Object.assign(new Error(e.cause), { name: "AgentStopped" });
    },
  };

  /** The user's tasks: each answers from the scenario. */
  readonly own = new Proxy({}, {
    get: () => async () => {
      const context = Context.current();
      const s = this.play.state(runOf(context));
      const a = await this.before(s, context);
      if (a === null) return undefined;
      const e = errorOf(a);
      if (e === null) return (a as { ok: unknown }).ok;
      if (e.error === "failure") throw failure(e.cause);
      throw ApplicationFailure.create({ type: e.error, message: e.cause, nonRetryable: true });
    },
  });

  /**
   * Every activity recorded as the workflow called it (the `temporal` view, and its `startToCloseTimeout`),
   * then run as generated.
   */
  recorded(
    activities: Record<string, (args: unknown, call: Record<string, unknown>) => Promise<unknown>>,
  ): Record<string, (args: unknown, call: { key?: string; callback_id?: string }) => Promise<unknown>> {
    return Object.fromEntries(
      Object.entries(activities).map(([name, f]) => [
        name,
        (args: unknown, call: { key?: string; callback_id?: string }) => {
          const context = Context.current();
          const s = this.play.state(runOf(context));
          const answer = this.take(s);
          s.calls.push({
            temporal: {
              activity: name,
              args,
              ...(call.key === undefined ? {} : { key: call.key }),
              ...(call.callback_id === undefined ? {} : { callback_id: call.callback_id }),
            },
            startToCloseSeconds: context.info.startToCloseTimeoutMs / 1000,
          });
          s.current = { answer, callbackId: call.callback_id ?? null };
          return f(args, call);
        },
      ]),
    );
  }

  /** A child stub's activity: records the child as started, and answers from the scenario. */
  async childStub(c: ChildCall): Promise<unknown> {
    const context = Context.current();
    const s = this.play.state(c.id);
    const a = this.take(s);
    s.calls.push({ temporal: { child: c.child, id: c.id, queue: c.queue, input: c.input } });
    const beat = setInterval(() => context.heartbeat(), this.limits.heartbeatMs);
    try {
      if ("cancel" in a) return await this.cancelHere(context, c.id);
      const e = errorOf(a);
      if (e === null) return (a as { ok: unknown }).ok;
      if (e.error === "timeout") {
        s.timeoutsGiven++;
        await context.cancelled;
        throw new CancelledFailure("cancelled");
      }
      if (e.error === "failure") throw failure(e.cause);
      throw ApplicationFailure.create({ type: e.error, message: e.cause, nonRetryable: true });
    } finally {
      clearInterval(beat);
    }
  }

  /** Sends each event the run waits for, as `status` says, with the scenario's next answer. */
  async events(id: string, done: { value: boolean }): Promise<void> {
    const { client } = this.play;
    const generated = this.play.generatedClient();
    const s = this.play.state(id);
    let handled: string | null = null;
    while (!done.value) {
      await pause(this.limits.eventPollMs);
      const st = await generated.status(client, id).catch(() => null) as { events: string[] } | null;
      if (st === null) continue;
      if (handled !== null) {
        if (!st.events.includes(handled)) handled = null;
        continue;
      }
      const name = st.events[0];
      if (name === undefined) continue;
      const a = this.take(s);
      s.calls.push({ temporal: { event: name }, transport: { event: name } });
      handled = name;
      if ("cancel" in a) {
        await client.workflow.getHandle(id).cancel();
        continue;
      }
      if ("error" in a && a.error === "timeout") continue;
      const value = "ok" in a ? { ok: a.ok } : { error: (a as { error: string }).error, message: cause(a) };
      if (!s.unknownEventTried) {
        s.unknownEventTried = true;
        if (await generated.send(client, id, "dandori.not-awaited", value).then(() => true, () => false)) {
          s.problems.push({ kind: "event not awaited taken" });
        }
      }
      const sent = await generated.send(client, id, name, value).then(() => true, (e: unknown) => String(e));
      if (sent !== true) {
        s.lateWhy.push(`the event ${name} was refused: ${sent}`);
        s.late = true;
      }
    }
  }
}
