/**
 * The arguments' checks at the start of every generated function (docs/reference.md#limits): a
 * string is not null and at most `MAX_STRING_BYTES` UTF-8 bytes, as the interpreter and the clients
 * have it; anything else raises 22023 before anything is read or written. PostgreSQL's `text` holds
 * neither U+0000 nor a lone surrogate, so those never reach a function: the clients refuse them.
 *
 * A function runs its checks behind one `if` of all their conditions: PL/pgSQL compiles each
 * expression it evaluates once per transaction, and a call with good arguments then evaluates one
 * expression, not one per argument (docs/targets.md#how-a-call-runs). Behind it the checks run in
 * their order, so the first bad argument is the one reported.
 * @module
 */

import { MAX_STRING_BYTES } from "../../../lang/chobo/model.ts";
import { ident, lit, paramName, TENANT_PARAM } from "./sql_names.ts";

/** One check: the condition of a bad argument, and the statement that raises its error. */
export interface Check {
  readonly bad: string;
  readonly raise: string;
}

/** The checks of the tenant and the string parameters `names` (the book's names), in that order. */
export function stringChecks(names: readonly string[]): Check[] {
  const checked = [
    { name: "tenant", sql: TENANT_PARAM },
    ...names.map((n) => ({ name: n, sql: ident(paramName(n)) })),
  ];
  return checked.map(({ name, sql }) => ({
    bad: `${sql} is null or octet_length(${sql}) > ${MAX_STRING_BYTES}`,
    raise: `raise exception 'chobo: % is a string of at most ${MAX_STRING_BYTES} UTF-8 bytes, not null', ${
      lit(name)
    } using errcode = '22023';`,
  }));
}

/** The checks behind one `if` of all their conditions (one check: its own `if`). */
export function checksSql(checks: readonly Check[]): string {
  const each = (c: Check, indent: string) =>
    `${indent}if ${c.bad} then\n${indent}  ${c.raise}\n${indent}end if;\n`;
  if (checks.length === 0) return "";
  if (checks.length === 1) return each(checks[0], "  ");
  return `  if ${checks.map((c) => `(${c.bad})`).join(" or ")} then\n${
    checks.map((c) => each(c, "    ")).join("")
  }  end if;\n`;
}
