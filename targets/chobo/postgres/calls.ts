/**
 * What an operation sends to PostgreSQL: the SQL text and its arguments, as every client sends it
 * and `chobo run --show postgres` prints it (docs/targets.md#postgres-the-sql; compared per operation,
 * docs/design/chobo.md#differential-verification).
 * @module
 */

import { amountArg, type Call, isPartialPost, type OpName, stringArg } from "../../../lang/chobo/interp.ts";
import type { Account, Book, Param, Transfer } from "../../../lang/chobo/model.ts";
import { balanceName, functionName, ident } from "./sql_names.ts";

/** One statement: text with `$1 …` placeholders and its arguments (amounts as decimal text). */
export interface Statement {
  readonly text: string;
  readonly values: readonly (string | null)[];
}

/**
 * The parameters an operation's function takes after the tenant, in the function's order: every
 * one for `do` and `hold`; the key's for `void`, and the key's and the amounts for `post`.
 */
export function functionParams(t: Transfer, op: OpName): Param[] {
  return op === "do" || op === "hold"
    ? [...t.params]
    : t.params.filter((p) => t.key.includes(p.name) || (op === "post" && p.type.kind === "amount"));
}

/** The arguments of an operation's function, after the tenant; a full post's amounts are null. */
function argumentsOf(call: Call): (string | null)[] {
  const fullPost = call.op === "post" && !isPartialPost(call);
  return functionParams(call.transfer, call.op).map((p) => {
    if (p.type.kind === "string") return stringArg(call, p.name);
    return fullPost ? null : String(amountArg(call, p.name));
  });
}

/** `select result, reason from "在庫"."引当_hold"($1, $2, $3, $4)`: the tenant, then `functionParams`. */
export function callSql(book: Book, t: Transfer, op: OpName): string {
  const placeholders = [null, ...functionParams(t, op)].map((_, i) => `$${i + 1}`).join(", ");
  return `select result, reason from ${ident(book.name)}.${ident(functionName(t, op))}(${placeholders})`;
}

/** What `call` sends with the tenant first. */
export function callStatement(book: Book, call: Call, tenant: string): Statement {
  return { text: callSql(book, call.transfer, call.op), values: [tenant, ...argumentsOf(call)] };
}

/** The balance of one account: `posted`, `held_in`, `held_out` as text. */
export function balanceStatement(book: Book, a: Account, args: readonly string[], tenant: string): Statement {
  const values = [tenant, ...args];
  const placeholders = values.map((_, i) => `$${i + 1}`).join(", ");
  return {
    text: `select posted::text, held_in::text, held_out::text from ${ident(book.name)}.${
      ident(balanceName(a))
    }(${placeholders})`,
    values,
  };
}

/** The state of a hold, or null when there is none. */
export function statusStatement(book: Book, t: Transfer, key: readonly string[], tenant: string): Statement {
  const values = [tenant, ...key];
  const placeholders = values.map((_, i) => `$${i + 1}`).join(", ");
  return {
    text: `select ${ident(book.name)}.${ident(functionName(t, "status"))}(${placeholders}) as state`,
    values,
  };
}

/** `expire()`: gives back the holds past their expiry. */
export function expireStatement(book: Book): Statement {
  return { text: `select ${ident(book.name)}.expire() as n`, values: [] };
}
