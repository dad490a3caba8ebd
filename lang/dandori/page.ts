/**
 * The content of `dandori doc` (docs/design/dandori.md#the-page), one model the Markdown and the HTML page are
 * both written from, so they say the same things. Every text is already in the page's language.
 * @module
 */

import type { Lang } from "../common/text.ts";
import type { Charts } from "./chart.ts";
import type { Plan } from "./plan.ts";

/** One call of the flow, as the calls table shows it. */
export interface PageCall {
  readonly line: number;
  /** The call as the flow writes it. */
  readonly call: string;
  /** What it calls: the Lambda, the URL, the AWS operation, the book's transfer and operation, the child flow. */
  readonly callee: string;
  /** Its retries as docs/design/dandori.md#timeouts and the page write them, or "—". */
  readonly retry: string;
  /** How long an attempt may take as docs/design/dandori.md#timeouts writes it, or "—". */
  readonly timeout: string;
  /** Each error it may end with and where it goes: its handler, `on failure`, or the workflow's failure. */
  readonly errors: readonly string[];
  /** The states of the cases after each way it ends (`ok: goods held`), when the flow has cases. */
  readonly after: readonly string[];
  /** Some error no handler takes (its `!`). */
  readonly unhandled: boolean;
}

/** One way the workflow can end, with the states its cases can be in there. */
export interface PageEnding {
  /** Where: `line 58`, `the end of flow`, … */
  readonly where: string;
  /** How the workflow ends there. */
  readonly how: string;
  /** The `succeed` or `fail` that ends it, as the flow writes it, or null. */
  readonly statement: string | null;
  /** Each case and the states it can be in (`goods: held, expired (outside …)`). */
  readonly cases: readonly string[];
}

/** A variable or a case as one step leaves it. */
export interface PageValue {
  readonly name: string;
  readonly value: string;
  /** The step gave it this value (or it was not there before). */
  readonly changed: boolean;
}

/** One step of a lit run: the node it arrives at, the edge it takes there, and what it leaves. */
export interface PageStep {
  readonly node: string;
  readonly edge: string | null;
  /** The edge is a jump (an unhandled error, a cancel, a malformed answer, a period check). */
  readonly jump: boolean;
  /** The node's statement or name. */
  readonly label: string;
  /** What happened there: the result, the arm, the handler, the iteration. */
  readonly note: string;
  /** The attempts of a call, one line each: the clock, the Temporal view, the answer. */
  readonly calls: readonly string[];
  readonly vars: readonly PageValue[];
  readonly cases: readonly PageValue[];
  /** The states each case can be in at this node, as the checker found them. */
  readonly possible: readonly string[];
}

/** One generated scenario, run on the reference interpreter; or a diagnostic's run, which has no calls. */
export interface PageRun {
  readonly name: string;
  /** The name and what the run was kept for. */
  readonly title: string;
  /** How it ends, as `dandori run` says it. */
  readonly ending: string;
  readonly steps: readonly PageStep[];
  /** Its calls, one row each: line, task, attempt, clock, Temporal view, answer. */
  readonly calls: readonly (readonly string[])[];
  /** Each case's record at the end. */
  readonly cases: readonly string[];
}

/** Everything the page of a flow shows. */
export interface FlowPage {
  readonly lang: Lang;
  /** `orders v1`. */
  readonly title: string;
  readonly description: string | null;
  /** How to read the page, a paragraph each. */
  readonly intro: readonly string[];
  readonly words: Readonly<Record<WordKey, string>>;
  /** The inputs and outputs as the flow declares them, with their ranges. */
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  /** The records and enums the inputs, outputs and tasks use. */
  readonly records: readonly { readonly name: string; readonly fields: readonly string[] }[];
  readonly enums: readonly { readonly name: string; readonly values: readonly string[] }[];
  /** `now range …`, the period the workflow runs in (docs/design/dandori.md#the-workflow-period), or null. */
  readonly period: string | null;
  /** The plan the charts are drawn from (the HTML lays them out by its statements' nesting). */
  readonly plan: Plan;
  readonly charts: Charts;
  /** What each chart's block does and where it is entered from, by block. */
  readonly notes: Readonly<Record<string, string>>;
  readonly calls: readonly PageCall[];
  readonly endings: readonly PageEnding[];
  /** What `dandori check` says, as it prints it. */
  readonly diagnostics: readonly string[];
  /** True when the check found errors: the flow is drawn, but no run is generated. */
  readonly hasErrors: boolean;
  readonly runs: readonly PageRun[];
  /** For a flow with errors, the run each diagnostic prints, lit on the charts (the HTML steps through them). */
  readonly examples: readonly PageRun[];
  /** `dandori <version>`, for the HTML `generator`. */
  readonly generator: string;
}

/** The words the page needs besides the flow's own. */
export type WordKey =
  | "inputs"
  | "outputs"
  | "records"
  | "enums"
  | "period"
  | "charts"
  | "calls"
  | "endings"
  | "check"
  | "runs"
  | "name"
  | "fields"
  | "values"
  | "value"
  | "line"
  | "call"
  | "callee"
  | "retry"
  | "timeout"
  | "errors"
  | "after"
  | "where"
  | "how"
  | "cases"
  | "task"
  | "attempt"
  | "at"
  | "view"
  | "answer"
  | "ending"
  | "step"
  | "variables"
  | "possible"
  | "previous"
  | "next"
  | "scenario"
  | "no_runs";
