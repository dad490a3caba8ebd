/**
 * The flows the dandori tests run: every test and example flow that passes the check, read from
 * disk with its books and children, and the answers a test hands a run.
 * @module
 */

import type { Answer, Answers, Attempt } from "../../lang/dandori/interp.ts";
import type { FlowCheck } from "../../lang/dandori/env.ts";
import { equal } from "node:assert/strict";
import {
  checkedFlowAt,
  flowCheckAt,
  type RunnableFlow,
  runnableFlows,
  targetBuilds,
} from "../../verify/dandori/flows.ts";
import type { DandoriTarget } from "../../targets/dandori/target.ts";

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
 * The flows `target` builds. Every other flow must be one with an agent task (which a target that does
 * not send agents yet stops with E050); how many were left out is printed, so none is left out silently.
 */
export function builtBy(target: DandoriTarget, flows: readonly RunnableFlow[]): RunnableFlow[] {
  const built = flows.filter((f) => targetBuilds(target, f));
  const left = flows.filter((f) => !built.includes(f));
  for (const f of left) {
    equal(f.plan.tasks.some((t) => t.callee.kind === "agent"), true, `${f.path} builds on ${target.name}`);
  }
  console.log(
    `${target.name}: ${built.length} flows built, ${left.length} with an agent task left out (E050)`,
  );
  return built;
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
