/**
 * What an operation sends to PostgreSQL: the SQL text and its arguments, as every client sends it
 * and `chobo run --show postgres` prints it (seed chobo 4.1, 6 「送ったもの」).
 * @module
 */

import type { Call } from "../../../lang/chobo/interp.ts";
import type { Account, Book, Transfer } from "../../../lang/chobo/model.ts";
import { balanceName, functionName, ident } from "./sql.ts";

/** One statement: text with `$1 …` placeholders and its arguments (amounts as decimal text). */
export interface Statement {
  readonly text: string;
  readonly values: readonly (string | null)[];
}

/** The arguments of an operation's function, after the tenant, in the function's order. */
function argumentsOf(call: Call): (string | null)[] {
  const t = call.transfer;
  const params = call.op === "do" || call.op === "hold"
    ? t.params
    : t.params.filter((p) => t.key.includes(p.name) || (call.op === "post" && p.type.kind === "amount"));
  return params.map((p) => {
    const v = call.args.get(p.name);
    return v === undefined ? null : String(v);
  });
}

/** `select * from "在庫"."引当_hold"($1, $2, $3, $4)` with the tenant first. */
export function callStatement(book: Book, call: Call, tenant: string): Statement {
  const values = [tenant, ...argumentsOf(call)];
  const placeholders = values.map((_, i) => `$${i + 1}`).join(", ");
  return {
    text: `select result, reason from ${ident(book.name)}.${
      ident(functionName(call.transfer, call.op))
    }(${placeholders})`,
    values,
  };
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
