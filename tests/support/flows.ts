/**
 * The flows the dandori tests run: every test and example flow that passes the check, read from
 * disk with its books and children, and the answers a test hands a run.
 * @module
 */

import { checkFlow } from "../../lang/dandori/check.ts";
import type { CheckedFlow } from "../../lang/dandori/checked.ts";
import type { Answer, Answers, Attempt } from "../../lang/dandori/interp.ts";
import { lower } from "../../lang/dandori/lower.ts";
import type { Plan } from "../../lang/dandori/plan.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** A flow that passed the check, with its plan. */
export interface RunnableFlow {
  /** The path from the repository's root. */
  readonly path: string;
  readonly checked: CheckedFlow;
  readonly plan: Plan;
}

function read(path: string): Uint8Array | null {
  try {
    return Deno.readFileSync(`${ROOT}${path}`);
  } catch {
    return null;
  }
}

/** Checks a flow of the repository; a flow with errors is null. */
export function checkedFlow(path: string): RunnableFlow | null {
  const bytes = read(path);
  if (bytes === null) throw new Error(`${path} cannot be read`);
  const result = checkFlow(path, new TextDecoder().decode(bytes), { read });
  return result.checked === null ? null : { path, checked: result.checked, plan: lower(result.checked) };
}

function flowsUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (sub: string) => {
    for (const e of Deno.readDirSync(`${ROOT}${dir}${sub}`)) {
      if (e.isDirectory) walk(`${sub}${e.name}/`);
      else if (e.name.endsWith(".flow")) out.push(`${dir}${sub}${e.name}`);
    }
  };
  walk("");
  return out.sort();
}

/** Every test and example flow that passes the check (paths from the repository's root), sorted. */
export function everyRunnableFlow(): RunnableFlow[] {
  return [...flowsUnder("tests/dandori/flows/"), ...flowsUnder("examples/")]
    .flatMap((p) => {
      const f = checkedFlow(p);
      return f === null ? [] : [f];
    });
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
