/**
 * The ids of docs/targets.md#ids that only TigerBeetle needs: the floor, room and sink accounts, the
 * openings, every transfer of a chain, the account kind (`user_data_128` of an account), the
 * content hash (`user_data_128` of a transfer) and the `code` of accounts and sinks. Every one is
 * `id128` or the `code` rule of `lang/chobo/ids.ts` over the parts of that table, written as
 * `idsJson` (lang/chobo/api.ts) says: hex in lower case, chain positions from 0.
 * @module
 */

import { definitionHash } from "../../../lang/chobo/ids.ts";
import { id128, idDigest } from "../../../lang/chobo/ids.ts";
import type { OpName } from "../../../lang/chobo/interp.ts";
import type { Book, Transfer, Unit } from "../../../lang/chobo/model.ts";

/**
 * An id as a part of another id's hash input: 32 lower-case hex digits (the roles `floor`, `room`,
 * `opening`).
 */
export function hex32(id: bigint): string {
  return id.toString(16).padStart(32, "0");
}

/** The floor account of an account whose lower bound is below 0: role `floor` over its id. */
export function floorId(account: bigint): bigint {
  return id128("floor", [hex32(account)]);
}

/** The room account of an account with an upper bound: role `room` over its id. */
export function roomId(account: bigint): bigint {
  return id128("room", [hex32(account)]);
}

/** The sink of a unit and tenant: role `sink` over the book, the tenant and the unit's name. */
export function sinkId(book: Book, tenant: string, unit: Unit): bigint {
  return id128("sink", [book.name, tenant, unit.name]);
}

/** The opening transfer of a floor or room account: role `opening` over that account's id. */
export function openingId(floorOrRoom: bigint): bigint {
  return id128("opening", [hex32(floorOrRoom)]);
}

/** A transfer of an operation's chain: role `transfer` over book, tenant, kind, op, key values, position. */
export function transferId(
  book: Book,
  tenant: string,
  t: Transfer,
  op: OpName,
  key: readonly string[],
  position: number,
): bigint {
  return id128("transfer", [book.name, tenant, t.name, op, ...key, String(position)]);
}

/** An account's `user_data_128`: role `kind` over the book, the tenant and the account kind. */
export function kindId(book: Book, tenant: string, account: string): bigint {
  return id128("kind", [book.name, tenant, account]);
}

/**
 * A chain's `user_data_128`: role `content` over book, tenant, kind, op, the definition hash and
 * the content (docs/design/chobo.md#keys-and-content) as compact JSON (`idsJson`'s `content`), so a
 * retry after the book's definition changed meets `exists_with_different_user_data_128`.
 */
export function contentId(book: Book, tenant: string, t: Transfer, op: OpName, content: string): bigint {
  return id128("content", [book.name, tenant, t.name, op, definitionHash(t), content]);
}

/** The `code` rule: the first 2 bytes of the digest, big-endian, 0 read as 1. */
function code(parts: readonly string[]): number {
  const d = idDigest("code", parts);
  const n = d[0] * 256 + d[1];
  return n === 0 ? 1 : n;
}

/** The `code` of an account kind's accounts (and of its floor, room and openings). */
export function accountCode(book: Book, account: string): number {
  return code([book.name, "account", account]);
}

/** The `code` of a unit's sink. */
export function sinkCode(book: Book, unit: Unit): number {
  return code([book.name, "sink", unit.name]);
}
