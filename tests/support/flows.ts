/**
 * The flows the dandori tests run: every test and example flow that passes the check, read from
 * disk with its books and children, and the answers a test hands a run.
 * @module
 */

import type { Answer, Answers, Attempt } from "../../lang/dandori/interp.ts";
import type { FlowCheck } from "../../lang/dandori/env.ts";
import { checkedFlowAt, flowCheckAt, type RunnableFlow, runnableFlows } from "../../verify/dandori/flows.ts";

export type { RunnableFlow } from "../../verify/dandori/flows.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Checks a flow of the repository (its path from the root); a flow with errors is null. */
export function checkedFlow(path: string): RunnableFlow | null {
  return checkedFlowAt(ROOT, path);
}

/** The whole check of a flow of the repository (its path from the root), errors and all. */
export function flowCheck(path: string): FlowCheck {
  return flowCheckAt(ROOT, path);
}

/** Every test and example flow that passes the check (paths from the repository's root), sorted. */
export function everyRunnableFlow(): RunnableFlow[] {
  return runnableFlows(ROOT, ["tests/dandori/flows/", "examples/"]);
}

/**
 * Answers taken in order while they fit the attempt, then `failure` (every call may fail): a run
 * that leaves the path its answers were written for still ends.
 */
export class TolerantAnswers implements Answers {
  private i = 0;
  constructor(private readonly answers: readonly Answer[]) {}
  next(a: Attempt): Answer {
    const next = this.answers[this.i];
    const names = [...a.task.errors.keys(), "timeout", "failure"];
    const fits = next !== undefined &&
      (next.kind === "ok" || (next.kind === "error" && names.includes(next.error)) ||
        (next.kind === "cancel" && a.cancellable));
    if (!fits) return { kind: "error", error: "failure", cause: null };
    this.i++;
    return next;
  }
}
