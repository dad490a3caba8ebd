/**
 * A flow as the stages after the checker read it. `TypedFlow`: names and types resolved, with what
 * the checks along the flow saw, whatever errors those found; the lowering (`lower.ts`) makes the
 * plan of it, so a flow with errors can still be drawn (docs/design/dandori.md#the-page). `CheckedFlow`: a typed
 * flow that passed the whole check, the only kind the reference interpreter runs.
 * @module
 */

import type { FlowFacts } from "./facts.ts";
import type { FlowModel } from "./model.ts";
import type { Typed } from "./typing.ts";

/** A flow whose names and types resolved; the checks after typing may have found errors. */
export interface TypedFlow {
  readonly model: FlowModel;
  readonly typed: Typed;
  /** The checked child flow of each `flow` task, by the task's name (a child with errors stops typing). */
  readonly children: ReadonlyMap<string, CheckedFlow>;
  /** The lines of the statements the case analysis reached: every statement some run can get to. */
  readonly reached: ReadonlySet<number>;
  /** The states of the cases at each point, as the case analysis saw them. */
  readonly facts: FlowFacts;
}

/** A flow without errors, with its children. */
export interface CheckedFlow extends TypedFlow {
  /** Says the whole check passed: a `TypedFlow` with errors is not a `CheckedFlow`. */
  readonly passed: true;
}
