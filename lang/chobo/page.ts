/**
 * The content of `chobo doc` (docs/design/chobo.md#the-page), one model that both the Markdown and the HTML
 * page are written from, so they say the same things. Every text is already in the page's language;
 * every number is in its unit's scale (`0.03`).
 * @module
 */

import type { Lang } from "../common/text.ts";

/** One account kind as the page shows it. */
export interface PageAccount {
  /** The chart's node id: `a0`, `a1` … in the book's order. */
  readonly id: string;
  readonly name: string;
  readonly params: readonly string[];
  /** `pcs`, `円 incl_tax`. */
  readonly unit: string;
  readonly outside: boolean;
  /** `at least 0 (out_of_stock)` …, in the unit's scale. */
  readonly bounds: readonly string[];
  readonly description: string | null;
}

/** One arrow of the flow chart: a move of a transfer. */
export interface PageFlow {
  readonly from: string;
  readonly to: string;
  readonly transfer: string;
  /** `receive`, or `sale (fee)` when the transfer has several moves. */
  readonly label: string;
  readonly pending: boolean;
}

/** One operation's refusals: the reason, what it means, and the operations that get there. */
export interface PageRefusal {
  readonly reason: string;
  readonly meaning: string;
  readonly example: readonly string[];
}

/** One transfer kind's section. */
export interface PageTransfer {
  readonly name: string;
  readonly description: string | null;
  readonly moves: readonly string[];
  readonly key: string;
  /** How a hold ends, or null for an immediate transfer. */
  readonly ending: string | null;
  /** The lifecycle per state: [state, what post answers, what void answers]. */
  readonly lifecycle: readonly (readonly [string, string, string])[] | null;
  /** Mermaid `stateDiagram-v2` text of the hold's lifecycle, or null. */
  readonly stateDiagram: string | null;
  readonly operations: readonly { readonly op: string; readonly refusals: readonly PageRefusal[] }[];
}

/** One account's numbers after a step. */
export interface PageBalance {
  readonly account: string;
  readonly posted: string;
  /** `held out 2`, `held in 1`, or "" when nothing is held. */
  readonly held: string;
  readonly changed: boolean;
}

/** One step of one outcome, with the state after it. */
export interface PageStep {
  readonly label: string;
  readonly result: string;
  readonly refused: boolean;
  /** The transfers the step called (their arrows light up), empty for a pass. */
  readonly transfers: readonly string[];
  readonly balances: readonly PageBalance[];
  readonly holds: readonly { readonly hold: string; readonly state: string; readonly changed: boolean }[];
}

/** One scenario: its title in the page's language, and every possible outcome step by step. */
export interface PageScenario {
  readonly name: string;
  readonly title: string;
  /** Written by hand (`chobo doc --scenario`), not generated. */
  readonly handWritten: boolean;
  readonly outcomes: readonly (readonly PageStep[])[];
}

/** Everything a page shows. */
export interface Page {
  readonly lang: Lang;
  /** `inventory v1`. */
  readonly title: string;
  readonly description: string | null;
  /** How to read the page, a paragraph each. */
  readonly intro: readonly string[];
  /** The words of headings, table columns and buttons. */
  readonly words: Readonly<Record<WordKey, string>>;
  readonly accounts: readonly PageAccount[];
  readonly flows: readonly PageFlow[];
  readonly transfers: readonly PageTransfer[];
  /** Warnings of `chobo check`, as it prints them. */
  readonly warnings: readonly string[];
  readonly scenarios: readonly PageScenario[];
  /** `chobo <version>`, for the HTML `generator`. */
  readonly generator: string;
}

/** The words the page needs besides the book's own. */
export type WordKey =
  | "accounts"
  | "flow"
  | "transfers"
  | "scenarios"
  | "warnings"
  | "name"
  | "split_by"
  | "unit"
  | "bounds"
  | "outside"
  | "description"
  | "moves"
  | "key"
  | "hold_ends"
  | "lifecycle"
  | "state"
  | "refusals"
  | "operation"
  | "reason"
  | "meaning"
  | "operations_that_get_there"
  | "step"
  | "call"
  | "result"
  | "balances"
  | "holds"
  | "posted"
  | "outcome"
  | "previous"
  | "next"
  | "scenario"
  | "hand_written"
  | "generated";
