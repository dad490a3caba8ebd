/**
 * Calls as tests write them: the arguments in one object, or as a runner's job step gives them,
 * told apart into the strings and amounts of a `Call`.
 * @module
 */

import type { Call, OpName } from "../../lang/chobo/interp.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { findOne } from "../../lang/common/assert.ts";

/** A call of `transfer.op`: each string of `args` is a string argument, each bigint an amount. */
export function callOf(
  book: Book,
  transfer: string,
  op: OpName,
  args: Record<string, string | bigint>,
): Call {
  const entries = Object.entries(args);
  return {
    transfer: findOne(book.transfers, (t) => t.name === transfer, `transfer ${transfer}`),
    op,
    strings: new Map(entries.flatMap(([k, v]): [string, string][] => typeof v === "string" ? [[k, v]] : [])),
    amounts: new Map(entries.flatMap(([k, v]): [string, bigint][] => typeof v === "bigint" ? [[k, v]] : [])),
  };
}

/** A runner's job step: the transfer, the operation, its strings, and its amounts as decimal text. */
export interface JobCall {
  readonly call: string;
  readonly op: OpName;
  readonly strings: Readonly<Record<string, string>>;
  readonly amounts?: Readonly<Record<string, string>>;
}

/** The call a runner's job step stands for. */
export function jobCall(book: Book, step: JobCall): Call {
  return {
    transfer: findOne(book.transfers, (t) => t.name === step.call, `transfer ${step.call}`),
    op: step.op,
    strings: new Map(Object.entries(step.strings)),
    amounts: new Map(Object.entries(step.amounts ?? {}).map(([k, v]) => [k, BigInt(v)])),
  };
}
