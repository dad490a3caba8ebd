/**
 * The names the PostgreSQL SQL declares and the clients call (docs/targets.md#postgres-the-sql): quoted
 * identifiers, string literals, the functions of each transfer and account, their parameters; and what
 * E061 checks of them (a name PostgreSQL would cut, two functions of one name, a schema PostgreSQL
 * keeps for itself, a parameter named like the tenant's).
 * @module
 */

import type { Account, Book, Transfer } from "../../../lang/chobo/model.ts";
import { type Text, tr } from "../../../lang/common/text.ts";

/** The longest PostgreSQL identifier, in bytes (`NAMEDATALEN` − 1); longer ones are cut silently. */
export const MAX_IDENTIFIER_BYTES = 63;

/** A quoted identifier: `"在庫"`, `"p_数"`. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * A SQL string literal that reads the same whatever the session's `standard_conforming_strings`: one
 * with a backslash is an escape string (`E'…'`) with the backslash doubled (docs/reference.md#limits).
 */
export function lit(s: string): string {
  const quoted = s.replaceAll("'", "''");
  return s.includes("\\") ? `E'${quoted.replaceAll("\\", "\\\\")}'` : `'${quoted}'`;
}

/** A `bytea` literal of hex digits, an escape string so that any `standard_conforming_strings` reads it alike. */
export function byteaLit(hex: string): string {
  return `E'\\\\x${hex}'::bytea`;
}

/**
 * The settings of every generated function (docs/reference.md#limits): only `pg_catalog` is searched, so a
 * function or operator another schema declares (`public.json_build_array(text, text)`) is never called;
 * the book's own objects are named with their schema.
 */
export const FUNCTION_SETTINGS = "set search_path = pg_catalog, pg_temp";

/** The SQL function of a transfer's operation: `"<transfer>_<op>"`. */
export function functionName(t: Transfer, op: string): string {
  return `${t.name}_${op}`;
}

/** The reading function of an account kind: `"balance_<account>"`. */
export function balanceName(a: Account): string {
  return `balance_${a.name}`;
}

/** The parameter every function takes first, the tenant: a book parameter of its name would be a second one. */
export const TENANT_PARAM = "p_tenant";

/** What starts the names of PostgreSQL's own schemas: `create schema` refuses a name that starts with it. */
export const RESERVED_SCHEMA_PREFIX = "pg_";

/** The parameter name of a transfer's or account's parameter: `p_<name>`. */
export function paramName(name: string): string {
  return `p_${name}`;
}

/** An identifier the SQL declares, where it comes from, and which function it names (if one). */
export interface Identifier {
  readonly name: string;
  readonly line: number;
  readonly col: number;
  /** For a function: what it is of (a transfer's operation, or an account's balance). */
  readonly fn?: Text;
}

/** Every identifier the SQL declares, with where it comes from, for E061. */
export function identifiers(book: Book): Identifier[] {
  const out: Identifier[] = [{ name: book.name, line: 1, col: 1 }];
  for (const t of book.transfers) {
    const ops = t.pending === null ? ["do"] : ["hold", "post", "void", "status"];
    for (const op of ops) {
      out.push({
        name: functionName(t, op),
        line: t.line,
        col: t.col,
        fn: tr(`${op} of transfer ${t.name}`, `振替 ${t.name} の ${op}`),
      });
    }
    for (const p of t.params) out.push({ name: paramName(p.name), line: p.line, col: p.col });
  }
  for (const a of book.accounts) {
    out.push({
      name: balanceName(a),
      line: a.line,
      col: a.col,
      fn: tr(`balance of account ${a.name}`, `勘定 ${a.name} の残高`),
    });
    for (const p of a.params) out.push({ name: paramName(p), line: a.line, col: a.col });
  }
  return out;
}

/**
 * Functions of the schema that two things of the book would name alike (a transfer `balance`'s
 * `do` and an account `do` both make `balance_do`): each later one with the one it meets. The
 * schema's own `expire`, `chobo_id` and `within_bounds` meet neither shape.
 */
export function clashingFunctions(
  book: Book,
): { readonly id: Identifier; readonly fn: Text; readonly first: Text }[] {
  const seen = new Map<string, Text>();
  const out: { id: Identifier; fn: Text; first: Text }[] = [];
  for (const id of identifiers(book)) {
    if (id.fn === undefined) continue;
    const first = seen.get(id.name);
    if (first === undefined) seen.set(id.name, id.fn);
    else out.push({ id, fn: id.fn, first });
  }
  return out;
}
