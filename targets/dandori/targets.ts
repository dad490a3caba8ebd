/**
 * Every target of `dandori build`, as records: the command table reads their names for
 * `--target`, and a build looks its target up here by name.
 * @module
 */

import { findOne } from "../../lang/common/assert.ts";
import type { Plan } from "../../lang/dandori/plan.ts";
import { ARGO } from "./argo/target.ts";
import { DURABLE } from "./durable/target.ts";
import { PYDANTIC_GRAPH } from "./pydantic_graph/target.ts";
import { STEPFUNCTIONS } from "./stepfunctions/target.ts";
import { TEMPORAL_TYPESCRIPT } from "./temporal/target.ts";
import { TEMPORAL_PYTHON } from "./temporal_python/target.ts";
import { TEMPORAL_GO } from "./temporal_go/target.ts";
import {
  buildFlowTarget,
  type BuildOptions,
  type DandoriTarget,
  type FlowBuildResult,
  type FlowOrigin,
} from "./target.ts";

/** The targets, in the order `--help` lists them. */
export const DANDORI_TARGETS: readonly DandoriTarget[] = [
  STEPFUNCTIONS,
  TEMPORAL_TYPESCRIPT,
  TEMPORAL_PYTHON,
  TEMPORAL_GO,
  PYDANTIC_GRAPH,
  DURABLE,
  ARGO,
];

/** The names `--target` accepts. */
export const DANDORI_TARGET_NAMES: readonly string[] = DANDORI_TARGETS.map((t) => t.name);

/** The target of a name. */
export function dandoriTarget(name: string): DandoriTarget {
  return findOne(DANDORI_TARGETS, (t) => t.name === name, `target ${name}`);
}

/** Builds the target of a name: its check, then its files. */
export function buildFlow(
  plan: Plan,
  name: string,
  origin: FlowOrigin,
  options: BuildOptions,
): FlowBuildResult {
  return buildFlowTarget(dandoriTarget(name), plan, origin, options);
}
