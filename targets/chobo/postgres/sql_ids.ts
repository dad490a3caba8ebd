/**
 * Ids in the generated functions (docs/targets.md#ids): the SHA-256 of docs/design/chobo.md#ids written out
 * inline, the parts the generator knows folded into one `bytea` literal, so a call computes each
 * id with one `sha256()` and no loop. `chobo_id(parts)` of the schema computes the same ids from
 * an array, for callers outside the functions; a call through it costs a PL/pgSQL loop per id.
 * @module
 */

import { ID_PREFIX } from "../../../lang/chobo/ids.ts";
import type { AccountRef, Book, Transfer } from "../../../lang/chobo/model.ts";
import { byteaLit, ident, paramName } from "./sql_names.ts";

/** A part of an id's hash input: a text the generator knows, or a SQL `text` expression. */
export type IdPart = { readonly known: string } | { readonly sql: string };

/** enc(s) of docs/targets.md#ids: the UTF-8 length of `s` (32-bit big-endian), then `s` in UTF-8, as hex. */
function encHex(s: string): string {
  const utf8 = new TextEncoder().encode(s);
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, utf8.length);
  return [...length, ...utf8].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** enc(x) of a SQL `text` expression: the same bytes, computed by the server. */
function encSql(x: string): string {
  return `int4send(octet_length(convert_to(${x}, 'UTF8'))) || convert_to(${x}, 'UTF8')`;
}

/**
 * The `uuid` expression of an id before 0 and 2¹²⁸ − 1 are read apart (`idFix` does that, on the
 * variable that holds it): the first 16 bytes of SHA-256 over enc("chobo/1") ‖ enc(role) ‖ enc(part) ‖ ….
 */
export function idSql(role: string, parts: readonly IdPart[]): string {
  const pieces: string[] = [];
  let known = encHex(ID_PREFIX) + encHex(role);
  for (const part of parts) {
    if ("known" in part) {
      known += encHex(part.known);
      continue;
    }
    if (known !== "") pieces.push(byteaLit(known));
    known = "";
    pieces.push(encSql(part.sql));
  }
  if (known !== "") pieces.push(byteaLit(known));
  return `encode(substring(sha256(${pieces.join(" || ")}) from 1 for 16), 'hex')::uuid`;
}

const ZERO = "00000000-0000-0000-0000-000000000000";
const ONE = "00000000-0000-0000-0000-000000000001";
const ALL_ONES = "ffffffff-ffff-ffff-ffff-ffffffffffff";
const ALL_ONES_LESS_ONE = "ffffffff-ffff-ffff-ffff-fffffffffffe";

/** TigerBeetle takes neither 0 nor 2¹²⁸ − 1 as an id: the statement that reads them as 1 and 2¹²⁸ − 2. */
export function idFix(variable: string): string {
  return `  ${variable} := case ${variable} when '${ZERO}'::uuid then '${ONE}'::uuid ` +
    `when '${ALL_ONES}'::uuid then '${ALL_ONES_LESS_ONE}'::uuid else ${variable} end;\n`;
}

/** The parts of an account's id: book, tenant, kind, the arguments (parameters of the function). */
export function accountIdParts(book: Book, ref: AccountRef): IdPart[] {
  return [
    { known: book.name },
    { sql: "p_tenant" },
    { known: ref.account.name },
    ...ref.args.map((a) => ({ sql: ident(paramName(a)) })),
  ];
}

/** The parts of a hold's id: its chain's first transfer (position 0 of the `hold` operation). */
export function holdIdParts(book: Book, t: Transfer): IdPart[] {
  return [
    { known: book.name },
    { sql: "p_tenant" },
    { known: t.name },
    { known: "hold" },
    ...t.key.map((k) => ({ sql: ident(paramName(k)) })),
    { known: "0" },
  ];
}
