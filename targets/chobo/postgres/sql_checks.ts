/**
 * The string arguments' checks at the start of every generated function (docs/reference.md#limits): a
 * string is not null and at most `MAX_STRING_BYTES` UTF-8 bytes, as the interpreter and the clients
 * have it; anything else raises 22023 before anything is read or written. PostgreSQL's `text` holds
 * neither U+0000 nor a lone surrogate, so those never reach a function: the clients refuse them.
 * @module
 */

import { MAX_STRING_BYTES } from "../../../lang/chobo/model.ts";
import { ident, lit, paramName, TENANT_PARAM } from "./sql_names.ts";

/** The checks of the tenant and the string parameters `names` (the book's names), in that order. */
export function stringChecks(names: readonly string[]): string {
  const checked = [
    { name: "tenant", sql: TENANT_PARAM },
    ...names.map((n) => ({ name: n, sql: ident(paramName(n)) })),
  ];
  return checked.map(({ name, sql }) =>
    `  if ${sql} is null or octet_length(${sql}) > ${MAX_STRING_BYTES} then
    raise exception 'chobo: % is a string of at most ${MAX_STRING_BYTES} UTF-8 bytes, not null', ${
      lit(name)
    } using errcode = '22023';
  end if;
`
  ).join("");
}
