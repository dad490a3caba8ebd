/**
 * Every target of `chobo build`, as records: the command table reads their names for
 * `--target`, and a build looks its target up here by name (never by a prefix of it).
 * @module
 */

import { findOne } from "../../lang/common/assert.ts";
import { POSTGRES, POSTGRES_GO, POSTGRES_PYTHON, POSTGRES_TYPESCRIPT } from "./postgres/targets.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { type BuildResult, buildTarget, type ChoboTarget, type Origin } from "./target.ts";
import { TIGERBEETLE_GO, TIGERBEETLE_PYTHON, TIGERBEETLE_TYPESCRIPT } from "./tigerbeetle/targets.ts";

/** The targets, in the order `--help` lists them. */
export const CHOBO_TARGETS = [
  POSTGRES,
  POSTGRES_TYPESCRIPT,
  POSTGRES_PYTHON,
  POSTGRES_GO,
  TIGERBEETLE_TYPESCRIPT,
  TIGERBEETLE_PYTHON,
  TIGERBEETLE_GO,
] as const;

/** The name of a target. */
export type ChoboTargetName = typeof CHOBO_TARGETS[number]["name"];

/** The names `--target` accepts. */
export const TARGET_NAMES: readonly ChoboTargetName[] = CHOBO_TARGETS.map((t) => t.name);

/** The target of a name. */
export function targetNamed(name: ChoboTargetName): ChoboTarget<ChoboTargetName> {
  return findOne(CHOBO_TARGETS, (t) => t.name === name, `target ${name}`);
}

/**
 * Builds the target of a name: its check, then its files.
 *
 * @example
 * ```ts
 * const result = build(book, "postgres", { file: "stock.book", text, sha, version: VERSION });
 * if ("files" in result) for (const [path, text] of result.files) console.log(path, text.length);
 * ```
 */
export function build(book: Book, name: ChoboTargetName, origin: Origin): BuildResult {
  return buildTarget(targetNamed(name), book, origin);
}
