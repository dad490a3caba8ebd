/**
 * A flow that passed the check, as the stages after the checker read it: the resolved model,
 * what typing found, and the checked child flow of every `flow` task. The reference interpreter
 * reads it; the lowering (`lower.ts`) makes the plan every printer reads from it.
 * @module
 */

import type { FlowModel } from "./model.ts";
import type { Typed } from "./typing.ts";

/** A flow without errors, with its children. */
export interface CheckedFlow {
  readonly model: FlowModel;
  readonly typed: Typed;
  /** The checked child flow of each `flow` task, by the task's name. */
  readonly children: ReadonlyMap<string, CheckedFlow>;
  /** The lines of the statements the case analysis reached: every statement some run can get to. */
  readonly reached: ReadonlySet<number>;
}
