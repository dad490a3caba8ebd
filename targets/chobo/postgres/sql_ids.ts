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
 * The `uuid` expression of an id before 0 and 2¹²⁸ − 1 are read apart (`idFixes` does that, on the
 * variables that hold them): the first 16 bytes of SHA-256 over enc("chobo/1") ‖ enc(role) ‖ enc(part) ‖ ….
 * `encoded` names a variable holding enc(x) of an expression x, where one was declared.
 */
function idSql(role: string, parts: readonly IdPart[], encoded: ReadonlyMap<string, string>): string {
  const pieces: string[] = [];
  let known = encHex(ID_PREFIX) + encHex(role);
  for (const part of parts) {
    if ("known" in part) {
      known += encHex(part.known);
      continue;
    }
    if (known !== "") pieces.push(byteaLit(known));
    known = "";
    pieces.push(encoded.get(part.sql) ?? encSql(part.sql));
  }
  if (known !== "") pieces.push(byteaLit(known));
  return `encode(substring(sha256(${pieces.join(" || ")}) from 1 for 16), 'hex')::uuid`;
}

const ZERO = "00000000-0000-0000-0000-000000000000";
const ONE = "00000000-0000-0000-0000-000000000001";
const ALL_ONES = "ffffffff-ffff-ffff-ffff-ffffffffffff";
const ALL_ONES_LESS_ONE = "ffffffff-ffff-ffff-ffff-fffffffffffe";

/** An id variable of a function: its name, and the role and parts it is the id of. */
export interface IdVar {
  readonly name: string;
  readonly role: string;
  readonly parts: readonly IdPart[];
}

/**
 * The declarations of a function's ids. An argument in two ids or more is encoded once, into a
 * variable `v_enc_<n>` declared before them: PL/pgSQL compiles every expression it evaluates once
 * per transaction, so a call pays for each expression's size (docs/targets.md#how-a-call-runs).
 */
export function idDeclarations(ids: readonly IdVar[]): string {
  const uses = new Map<string, number>();
  for (const id of ids) {
    for (const x of new Set(id.parts.flatMap((p) => "sql" in p ? [p.sql] : []))) {
      uses.set(x, (uses.get(x) ?? 0) + 1);
    }
  }
  const shared = [...uses].filter(([, n]) => n > 1).map(([x]) => x);
  const encoded = new Map(shared.map((x, i) => [x, `v_enc_${i + 1}`]));
  return [
    ...shared.map((x) => `  ${encoded.get(x)} bytea := ${encSql(x)};\n`),
    ...ids.map((id) => `  ${id.name} uuid := ${idSql(id.role, id.parts, encoded)};\n`),
  ].join("");
}

/**
 * TigerBeetle takes neither 0 nor 2¹²⁸ − 1 as an id: the statements that read them as 1 and 2¹²⁸ − 2,
 * behind one `if` that a call evaluates instead of one expression per id.
 */
export function idFixes(variables: readonly string[]): string {
  const fix = (v: string) =>
    `    ${v} := case ${v} when '${ZERO}'::uuid then '${ONE}'::uuid ` +
    `when '${ALL_ONES}'::uuid then '${ALL_ONES_LESS_ONE}'::uuid else ${v} end;\n`;
  const list = variables.join(", ");
  const any = variables.length === 1
    ? `${list} in ('${ZERO}'::uuid, '${ALL_ONES}'::uuid)`
    : `least(${list}) = '${ZERO}'::uuid or greatest(${list}) = '${ALL_ONES}'::uuid`;
  return `  if ${any} then\n${variables.map(fix).join("")}  end if;\n`;
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
