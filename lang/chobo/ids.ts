/**
 * Ids (docs/targets.md#ids, docs/design/chobo.md#ids): every account, hold, ledger and code is read from one
 * SHA-256 over length-prefixed UTF-8 parts, so every target and every client language computes the same ids
 * and a retry from another service never moves money twice.
 * @module
 */

import { createHash } from "node:crypto";
import { stringifyJson } from "../common/json.ts";
import type { Account, AccountRef, Book, Bound, Pending, Transfer, Unit } from "./model.ts";

/** The first part of every id's hash input. */
export const ID_PREFIX = "chobo/1";

function enc(s: string): Uint8Array {
  const text = new TextEncoder().encode(s);
  const out = new Uint8Array(4 + text.length);
  new DataView(out.buffer).setUint32(0, text.length);
  out.set(text, 4);
  return out;
}

/**
 * The digest every id is read from: SHA-256 of enc("chobo/1") ‖ enc(role) ‖ enc(part) ‖ …,
 * where enc(s) is the UTF-8 byte length of s (32-bit big-endian), then s in UTF-8.
 */
export function idDigest(role: string, parts: readonly string[]): Uint8Array {
  const hash = createHash("sha256");
  for (const s of [ID_PREFIX, role, ...parts]) hash.update(enc(s));
  return new Uint8Array(hash.digest());
}

/** The first `bytes` bytes of the digest as a big-endian number, 0 read as 1 (`ledger`, `code`). */
function leadingNumber(role: string, parts: readonly string[], bytes: number): number {
  const n = idDigest(role, parts).slice(0, bytes).reduce((acc, b) => acc * 256 + b, 0);
  return n === 0 ? 1 : n;
}

/** A unit's TigerBeetle ledger: the role `ledger`, over the name and the decimal scale. */
export function ledgerOf(unit: Unit): number {
  return leadingNumber("ledger", [unit.name, String(unit.scale)], 4);
}

/** A transfer kind's `code`: the role `code`, over the book, `transfer` and its name. */
export function transferCode(book: Book, t: Transfer): number {
  return leadingNumber("code", [book.name, "transfer", t.name], 2);
}

const MAX_ID = (1n << 128n) - 1n;

/** A 128-bit id of a role: the first 16 bytes, big-endian; 0 becomes 1 and 2¹²⁸ − 1 becomes 2¹²⁸ − 2. */
export function id128(role: string, parts: readonly string[]): bigint {
  const n = idDigest(role, parts).slice(0, 16).reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
  return n === 0n ? 1n : n === MAX_ID ? MAX_ID - 1n : n;
}

/** An id as a UUID text (PostgreSQL stores ids as `uuid`). */
export function uuidText(id: bigint): string {
  const hex = id.toString(16).padStart(32, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The id of one account: book, tenant, account kind, argument values. */
export function accountId(book: Book, tenant: string, account: string, args: readonly string[]): bigint {
  return id128("account", [book.name, tenant, account, ...args]);
}

/** The id of a hold: its chain's first transfer (position 0 of the `hold` operation). */
export function holdId(book: Book, tenant: string, t: Transfer, key: readonly string[]): bigint {
  return id128("transfer", [book.name, tenant, t.name, "hold", ...key, "0"]);
}

/** A bound as the definition and `chobo api` write it. */
export function boundJson(b: Bound | null) {
  return b === null ? null : { value: b.value, reason: b.reason };
}

/** A transfer's pending as the definition and `chobo api` write it. */
export function pendingJson(p: Pending | null) {
  if (p === null) return null;
  return p.expires === "never" ? { expires: "never" } : { expires: "after", seconds: p.seconds };
}

/** A move's amount as the definition and `chobo api` write it. */
export function amountJson(m: Transfer["moves"][number]) {
  return m.amount.kind === "param" ? { param: m.amount.param } : { literal: m.amount.value };
}

/**
 * The compact JSON the definition hash is taken over: `{"params", "key", "pending", "moves"}`,
 * the accounts the moves touch written whole (docs/formats.md, `definition_hash`).
 */
export function definitionText(t: Transfer): string {
  const unit = (u: Unit) => ({ name: u.name, scale: u.scale });
  const account = (a: Account) => ({
    name: a.name,
    params: a.params,
    unit: unit(a.unit),
    outside: a.outside,
    lower: boundJson(a.lower),
    upper: boundJson(a.upper),
  });
  const ref = (r: AccountRef) => ({ account: account(r.account), args: r.args });
  return stringifyJson({
    params: t.params.map((p) =>
      p.type.kind === "string"
        ? { name: p.name, type: "string" }
        : { name: p.name, type: "amount", unit: unit(p.type.unit) }
    ),
    key: t.key,
    pending: pendingJson(t.pending),
    moves: t.moves.map((m) => ({ amount: amountJson(m), from: ref(m.from), to: ref(m.to) })),
  });
}

/** SHA-256 of `definitionText`, 64 lowercase hex digits: it changes with every E051 and E050 that touches the transfer. */
export function definitionHash(t: Transfer): string {
  return createHash("sha256").update(definitionText(t), "utf8").digest("hex");
}
