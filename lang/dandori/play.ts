/**
 * One scenario played on the reference interpreter as `dandori run` plays it, and as the playground
 * does in a browser: its answers as the scenario gives them, or book tasks computed from its books.
 * @module
 */

import type { CheckedFlow } from "./checked.ts";
import { BooksComputed } from "./computed.ts";
import { type Answers, type Run, runFlow } from "./interp.ts";
import { timestampMs } from "./rules.ts";
import { type FlowScenario, ScenarioAnswers } from "./scenario.ts";

/** What answers a run's book tasks and child flows (`dandori run --books`, `--children`). */
export interface PlayHow {
  readonly books: "computed" | null;
  readonly children: boolean;
}

/** Runs one scenario (the `index`-th of its file, from 1); throws a `ScenarioError` when it does not fit. */
export function playScenario(checked: CheckedFlow, s: FlowScenario, index: number, how: PlayHow): Run {
  const given = new ScenarioAnswers(s.answers);
  const start = timestampMs(s.now[0]) ?? 0;
  const answers: Answers = how.books === "computed" ? new BooksComputed(checked, s, start, given) : given;
  const run = runFlow(checked, {
    input: s.input,
    now: s.now,
    answers,
    execution: `run-${index}`,
    children: how.children,
  });
  given.finish();
  return run;
}
