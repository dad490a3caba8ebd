// The part of every chobo TigerBeetle client that is the same for every book
// (docs/targets.md#tigerbeetle): it runs the book's plan (`TbPlan` of targets/chobo/tigerbeetle/plan.ts,
// which the book's part writes as `DEFINITION`): it fills each chain template with the ids, the
// arguments and the links, sends it, and reads TigerBeetle's answers through the plan's tables. It
// decides no chain of its own. It is copied byte for byte after the line `// chobo runtime` of each
// generated `<book>.ts`, so it imports nothing but `node:crypto` and uses only syntax that Node can
// run by stripping the types; the tests hold it to the requests `chobo run --show tigerbeetle` prints.

import { createHash, randomBytes } from "node:crypto";

/**
 * A TigerBeetle account a piece names (`AccountRef` of targets/chobo/tigerbeetle/plan.ts): a book's
 * account (a position in the plan's accounts) with the transfer's parameters passed to it, its floor
 * or room, or the sink of a unit (a position in the plan's units).
 */
export type AccountRef =
  | {
    readonly kind: "account" | "floor" | "room";
    readonly account: number;
    readonly args: readonly string[];
  }
  | { readonly kind: "sink"; readonly unit: number };

/** What a transfer of a chain does. */
export type ChainRole =
  | "move"
  | "probe"
  | "probe_void"
  | "from_floor"
  | "from_room"
  | "to_room"
  | "to_floor"
  | "status_void"
  | "status_refusal";

/** One transfer of a chain template (`TbPiece`): every field, or where the runtime takes it from. */
export interface PieceDefinition {
  readonly role: ChainRole;
  readonly move: number | null;
  readonly id: "position" | "random";
  readonly debit: AccountRef | null;
  readonly credit: AccountRef | null;
  readonly amount:
    | { readonly kind: "param"; readonly param: string }
    | { readonly kind: "literal"; readonly value: bigint }
    | { readonly kind: "settled"; readonly move: number };
  readonly pending:
    | { readonly kind: "none" }
    | { readonly kind: "piece"; readonly position: number }
    | { readonly kind: "hold"; readonly position: number };
  readonly user_data_128: "content" | "zero";
  readonly timeout: number;
  readonly ledger: number;
  readonly code: number;
  readonly flags: readonly (keyof typeof TRANSFER_FLAGS)[];
  readonly exceeds_credits: string | null;
}

/** The template of one operation's chain, and what its `user_data_128` hashes. */
export interface ChainDefinition {
  readonly content: "params" | "amounts" | "none";
  readonly pieces: readonly PieceDefinition[];
}

/** A transfer's parameter: a string, or an amount. */
export interface ParamDefinition {
  readonly name: string;
  readonly amount: boolean;
}

/** A kind of transfer: its parameters, key, moves, and the chain of each of its operations. */
export interface TransferDefinition {
  readonly name: string;
  readonly params: readonly ParamDefinition[];
  readonly key: readonly string[];
  readonly definition_hash: string;
  readonly moves: readonly {
    readonly amount: { readonly kind: "param"; readonly param: string } | {
      readonly kind: "literal";
      readonly value: bigint;
    };
    readonly from: AccountRef;
    readonly to: AccountRef;
  }[];
  readonly chains: {
    readonly [op in "do" | "hold" | "post" | "void" | "status"]?: ChainDefinition;
  };
  readonly lookups: readonly number[];
}

/** A kind of account: its ledger, code and flags, and the openings of its floor (−L) and room (U). */
export interface AccountDefinition {
  readonly name: string;
  readonly params: readonly string[];
  readonly unit: number;
  readonly ledger: number;
  readonly code: number;
  readonly flags: readonly (keyof typeof ACCOUNT_FLAGS)[];
  readonly floor: bigint | null;
  readonly room: bigint | null;
}

/** A unit: its ledger and the code of its sink. */
export interface UnitDefinition {
  readonly name: string;
  readonly ledger: number;
  readonly sink_code: number;
}

/** The book's `TbPlan` (targets/chobo/tigerbeetle/plan.ts), version 1: the runtime only fills its templates. */
export interface BookDefinition {
  readonly version: 1;
  readonly book: string;
  readonly units: readonly UnitDefinition[];
  readonly accounts: readonly AccountDefinition[];
  readonly transfers: readonly TransferDefinition[];
  readonly refusals: Readonly<Record<string, string>>;
  readonly status: readonly (readonly [string, string, HoldState | null])[];
  readonly over_hold: Readonly<Record<HoldState, string>>;
}

/** An account as tigerbeetle-node 0.17.9's `createAccounts` takes it (its `Account`). */
export interface AccountEvent {
  readonly id: bigint;
  readonly debits_pending: bigint;
  readonly debits_posted: bigint;
  readonly credits_pending: bigint;
  readonly credits_posted: bigint;
  readonly user_data_128: bigint;
  readonly user_data_64: bigint;
  readonly user_data_32: number;
  readonly reserved: number;
  readonly ledger: number;
  readonly code: number;
  readonly flags: number;
  readonly timestamp: bigint;
}

/** A transfer as tigerbeetle-node 0.17.9's `createTransfers` takes it (its `Transfer`). */
export interface TransferEvent {
  readonly id: bigint;
  readonly debit_account_id: bigint;
  readonly credit_account_id: bigint;
  readonly amount: bigint;
  readonly pending_id: bigint;
  readonly user_data_128: bigint;
  readonly user_data_64: bigint;
  readonly user_data_32: number;
  readonly timeout: number;
  readonly ledger: number;
  readonly code: number;
  readonly flags: number;
  readonly timestamp: bigint;
}

/** One answer of `createAccounts` or `createTransfers`: 0.17.9 answers every event, in order. */
export interface CreateStatus {
  readonly status: number;
}

/** What the client reads of a transfer `lookupTransfers` found. */
export interface TransferRead {
  readonly id: bigint;
  readonly amount: bigint;
}

/** What the client reads of an account `lookupAccounts` found. */
export interface AccountRead {
  readonly id: bigint;
  readonly debits_pending: bigint;
  readonly debits_posted: bigint;
  readonly credits_pending: bigint;
  readonly credits_posted: bigint;
}

/** What a client needs of TigerBeetle: tigerbeetle-node 0.17.9's `Client` (`createClient`) has it. */
export interface TigerBeetleClient {
  createAccounts(batch: AccountEvent[]): Promise<readonly CreateStatus[]>;
  createTransfers(batch: TransferEvent[]): Promise<readonly CreateStatus[]>;
  lookupAccounts(batch: bigint[]): Promise<readonly AccountRead[]>;
  lookupTransfers(batch: bigint[]): Promise<readonly TransferRead[]>;
}

/** The answer of `do`, `hold`, `post` and `void`; `R` lists the reasons of a refusal. */
export type Outcome<R extends string> =
  | { readonly result: "done" }
  | { readonly result: "done_before" }
  | { readonly result: "refused"; readonly reason: R };

/** An account's numbers: what is posted, and what holds put in and take out. */
export interface Balance {
  readonly posted: bigint;
  readonly held_in: bigint;
  readonly held_out: bigint;
}

/** Where a hold stands (`status` answers null when there is no hold). */
export type HoldState = "held" | "posted" | "voided" | "expired";

/** One argument of a call: a string, an amount, or an amount left out (a post in full). */
export type Argument = string | bigint | undefined;

/** The calls a book's members make, on one client for one tenant. */
export interface Calls<R extends string> {
  /** `do` or `hold` of the book's transfer at `transfer`, with every parameter in declared order. */
  move(transfer: number, op: "do" | "hold", args: readonly Argument[]): Promise<Outcome<R>>;
  /** `post` (the key, then every amount or none) or `void` (the key), in declared order. */
  settle(transfer: number, op: "post" | "void", args: readonly Argument[]): Promise<Outcome<R>>;
  /** The state of a hold, by its key in declared order. */
  status(transfer: number, key: readonly Argument[]): Promise<HoldState | null>;
  /** The numbers of the book's account at `account`. */
  balance(account: number, args: readonly Argument[]): Promise<Balance>;
}

/** tigerbeetle-node 0.17.9's `AccountFlags`. */
export const ACCOUNT_FLAGS = {
  linked: 1,
  debits_must_not_exceed_credits: 2,
  credits_must_not_exceed_debits: 4,
  history: 8,
  imported: 16,
  closed: 32,
} as const;

/** tigerbeetle-node 0.17.9's `TransferFlags`. */
export const TRANSFER_FLAGS = {
  linked: 1,
  pending: 2,
  post_pending_transfer: 4,
  void_pending_transfer: 8,
  balancing_debit: 16,
  balancing_credit: 32,
  closing_debit: 64,
  closing_credit: 128,
  imported: 256,
} as const;

/** tigerbeetle-node 0.17.9's `CreateAccountStatus`: the client reads answers by these names. */
export const CREATE_ACCOUNT_STATUS: Readonly<Record<string, number>> = {
  created: 4294967295,
  linked_event_failed: 1,
  linked_event_chain_open: 2,
  imported_event_expected: 22,
  imported_event_not_expected: 23,
  timestamp_must_be_zero: 3,
  imported_event_timestamp_out_of_range: 24,
  imported_event_timestamp_must_not_advance: 25,
  reserved_field: 4,
  reserved_flag: 5,
  id_must_not_be_zero: 6,
  id_must_not_be_int_max: 7,
  exists_with_different_flags: 15,
  exists_with_different_user_data_128: 16,
  exists_with_different_user_data_64: 17,
  exists_with_different_user_data_32: 18,
  exists_with_different_ledger: 19,
  exists_with_different_code: 20,
  exists: 21,
  flags_are_mutually_exclusive: 8,
  debits_pending_must_be_zero: 9,
  debits_posted_must_be_zero: 10,
  credits_pending_must_be_zero: 11,
  credits_posted_must_be_zero: 12,
  ledger_must_not_be_zero: 13,
  code_must_not_be_zero: 14,
  imported_event_timestamp_must_not_regress: 26,
};

/** tigerbeetle-node 0.17.9's `CreateTransferStatus`: the client reads answers by these names. */
export const CREATE_TRANSFER_STATUS: Readonly<Record<string, number>> = {
  created: 4294967295,
  linked_event_failed: 1,
  linked_event_chain_open: 2,
  imported_event_expected: 56,
  imported_event_not_expected: 57,
  timestamp_must_be_zero: 3,
  imported_event_timestamp_out_of_range: 58,
  imported_event_timestamp_must_not_advance: 59,
  reserved_flag: 4,
  id_must_not_be_zero: 5,
  id_must_not_be_int_max: 6,
  exists_with_different_flags: 36,
  exists_with_different_pending_id: 40,
  exists_with_different_timeout: 44,
  exists_with_different_debit_account_id: 37,
  exists_with_different_credit_account_id: 38,
  exists_with_different_amount: 39,
  exists_with_different_user_data_128: 41,
  exists_with_different_user_data_64: 42,
  exists_with_different_user_data_32: 43,
  exists_with_different_ledger: 67,
  exists_with_different_code: 45,
  exists: 46,
  id_already_failed: 68,
  flags_are_mutually_exclusive: 7,
  debit_account_id_must_not_be_zero: 8,
  debit_account_id_must_not_be_int_max: 9,
  credit_account_id_must_not_be_zero: 10,
  credit_account_id_must_not_be_int_max: 11,
  accounts_must_be_different: 12,
  pending_id_must_be_zero: 13,
  pending_id_must_not_be_zero: 14,
  pending_id_must_not_be_int_max: 15,
  pending_id_must_be_different: 16,
  timeout_reserved_for_pending_transfer: 17,
  closing_transfer_must_be_pending: 64,
  ledger_must_not_be_zero: 19,
  code_must_not_be_zero: 20,
  debit_account_not_found: 21,
  credit_account_not_found: 22,
  accounts_must_have_the_same_ledger: 23,
  transfer_must_have_the_same_ledger_as_accounts: 24,
  pending_transfer_not_found: 25,
  pending_transfer_not_pending: 26,
  pending_transfer_has_different_debit_account_id: 27,
  pending_transfer_has_different_credit_account_id: 28,
  pending_transfer_has_different_ledger: 29,
  pending_transfer_has_different_code: 30,
  exceeds_pending_transfer_amount: 31,
  pending_transfer_has_different_amount: 32,
  pending_transfer_already_posted: 33,
  pending_transfer_already_voided: 34,
  pending_transfer_expired: 35,
  imported_event_timestamp_must_not_regress: 60,
  imported_event_timestamp_must_postdate_debit_account: 61,
  imported_event_timestamp_must_postdate_credit_account: 62,
  imported_event_timeout_must_be_zero: 63,
  debit_account_already_closed: 65,
  credit_account_already_closed: 66,
  overflows_debits_pending: 47,
  overflows_credits_pending: 48,
  overflows_debits_posted: 49,
  overflows_credits_posted: 50,
  overflows_debits: 51,
  overflows_credits: 52,
  overflows_timeout: 53,
  exceeds_credits: 54,
  exceeds_debits: 55,
};

/** Events in one request to a replica started with `--development` (chobo's E060 limit). */
const MAX_BATCH = 253;
/** `user_data_32` of a floor account and its opening. */
const FLOOR_MARK = 1;
/** `user_data_32` of a room account and its opening. */
const ROOM_MARK = 2;
/** A signed 64-bit integer: an amount is 0 … MAX_INT64, a balance MIN_INT64 … MAX_INT64 (docs/reference.md#meaning). */
const MAX_INT64 = (1n << 63n) - 1n;
/** The longest string argument, the tenant too, in UTF-8 bytes (docs/reference.md#limits). */
const MAX_STRING_BYTES = 256;

/**
 * An argument chobo refuses before anything is sent (docs/reference.md#limits): a string that is not
 * well-formed Unicode (a lone surrogate would become U+FFFD in an id, and two keys one), holds
 * U+0000, or is longer than 256 UTF-8 bytes; an amount that is not a `bigint` from 0 to 2⁶³ − 1.
 */
export class ChoboArgumentError extends Error {
  override name = "ChoboArgumentError";
}

/** The string argument `name` (a tenant or a parameter), or a `ChoboArgumentError`. */
function stringArgument(name: string, v: unknown): string {
  if (typeof v !== "string") throw new ChoboArgumentError(`chobo: ${name} is a string, got ${typeof v}`);
  // With the u flag a pair is one code point, so \p{Cs} finds only a lone surrogate.
  if (/\p{Cs}/u.test(v)) {
    throw new ChoboArgumentError(`chobo: ${name} is not well-formed Unicode: it holds a lone surrogate`);
  }
  if (v.includes("\u0000")) {
    throw new ChoboArgumentError(`chobo: ${name} holds U+0000, which no string argument may`);
  }
  const bytes = new TextEncoder().encode(v).length;
  if (bytes > MAX_STRING_BYTES) {
    throw new ChoboArgumentError(
      `chobo: ${name} is ${bytes} UTF-8 bytes, longer than the ${MAX_STRING_BYTES} a string argument may be`,
    );
  }
  return v;
}
const MIN_INT64 = -(1n << 63n);
/** The first part of every id's hash input (docs/targets.md#ids). */
const ID_PREFIX = "chobo/1";
/** 0 and this are ids TigerBeetle refuses. */
const MAX_ID = (1n << 128n) - 1n;

// ---------------------------------------------------------------------------------------------
// Ids (docs/targets.md#ids): SHA-256 over length-prefixed UTF-8 parts.

function encoded(s: string): Uint8Array {
  const text = new TextEncoder().encode(s);
  const out = new Uint8Array(4 + text.length);
  new DataView(out.buffer).setUint32(0, text.length);
  out.set(text, 4);
  return out;
}

function idDigest(role: string, parts: readonly string[]): Uint8Array {
  const hash = createHash("sha256");
  for (const s of [ID_PREFIX, role, ...parts]) hash.update(encoded(s));
  return new Uint8Array(hash.digest());
}

/** The first 16 bytes, big-endian; 0 becomes 1 and 2¹²⁸ − 1 becomes 2¹²⁸ − 2. */
function id128(role: string, parts: readonly string[]): bigint {
  const n = idDigest(role, parts).slice(0, 16).reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
  return n === 0n ? 1n : n === MAX_ID ? MAX_ID - 1n : n;
}

function hex32(id: bigint): string {
  return id.toString(16).padStart(32, "0");
}

function randomId(): bigint {
  const n = [...randomBytes(16)].reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
  return n === 0n || n === MAX_ID ? randomId() : n;
}

// ---------------------------------------------------------------------------------------------
// Calls, accounts and chains (docs/targets.md#tigerbeetle): the plan's templates, filled.

type OpName = "do" | "hold" | "post" | "void";

/** A call with checked arguments, by parameter name. */
interface Call {
  readonly transfer: TransferDefinition;
  readonly op: OpName;
  readonly args: ReadonlyMap<string, string | bigint>;
}

/** Which chobo account a TigerBeetle account is. */
type AccountWhat =
  | {
    readonly kind: "account" | "floor" | "room";
    readonly account: AccountDefinition;
    readonly args: readonly string[];
  }
  | { readonly kind: "sink"; readonly unit: UnitDefinition };

interface AccountToCreate {
  readonly what: AccountWhat;
  readonly event: AccountEvent;
}

/** One transfer of a filled chain, with the refusal `exceeds_credits` on it stands for. */
interface ChainEntry {
  readonly exceeds_credits: string | null;
  readonly transfer: TransferEvent;
}

function whatText(what: AccountWhat): string {
  if (what.kind === "sink") return `sink of ${what.unit.name}`;
  const name = what.args.length === 0 ? what.account.name : `${what.account.name}(${what.args.join(", ")})`;
  return what.kind === "account" ? name : `${what.kind} of ${name}`;
}

/** Reads the arguments of `params`, in order: strings, amounts, and (`optional`) amounts left out. */
function argsOf(
  params: readonly ParamDefinition[],
  values: readonly Argument[],
  optional: boolean,
): Map<string, string | bigint> {
  if (values.length !== params.length) {
    throw new Error(`chobo: ${values.length} arguments for ${params.length} parameters`);
  }
  const args = new Map<string, string | bigint>();
  params.forEach((p, i) => {
    const v = values[i];
    if (p.amount && optional && v === undefined) return;
    if (p.amount) {
      if (typeof v !== "bigint" || v < 0n || v > MAX_INT64) {
        throw new ChoboArgumentError(`chobo: ${p.name} is an amount from 0 to 2^63 - 1`);
      }
      args.set(p.name, v);
    } else args.set(p.name, stringArgument(p.name, v));
  });
  return args;
}

/** The parameters `post` (the key, then the amounts) and `void` and `status` (the key) take. */
function settleParams(t: TransferDefinition, op: "post" | "void"): ParamDefinition[] {
  return t.params.filter((p) => t.key.includes(p.name) || (op === "post" && p.amount));
}

function keyValues(call: Call): string[] {
  return call.transfer.key.map((k) => call.args.get(k) as string);
}

function requests<T>(events: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < events.length; i += MAX_BATCH) out.push(events.slice(i, i + MAX_BATCH));
  return out;
}

function bits<F extends string>(names: readonly F[], table: Readonly<Record<F, number>>): number {
  return names.reduce((sum, n) => sum | table[n], 0);
}

/**
 * The ids of one book and tenant (docs/targets.md#ids). The accounts' events are remembered by what
 * they stand for, as long as the book value: each is a few SHA-256 digests, and the client already
 * remembers every account it created.
 */
class Ids {
  private readonly book: BookDefinition;
  private readonly tenant: string;
  private readonly events = new Map<string, AccountEvent>();

  constructor(book: BookDefinition, tenant: string) {
    this.book = book;
    this.tenant = tenant;
  }

  /** The account `what` stands for, as `createAccounts` takes it. */
  event(what: AccountWhat): AccountEvent {
    // Strings never hold U+0000 (stringArgument), so the parts joined by it name one account.
    const name = what.kind === "sink" ? what.unit.name : [what.account.name, ...what.args].join("\u0000");
    const key = `${what.kind}\u0000${name}`;
    let event = this.events.get(key);
    if (event === undefined) {
      event = accountOf(this, what);
      this.events.set(key, event);
    }
    return event;
  }

  account(a: AccountDefinition, args: readonly string[]): bigint {
    return id128("account", [this.book.book, this.tenant, a.name, ...args]);
  }

  sink(unit: UnitDefinition): bigint {
    return id128("sink", [this.book.book, this.tenant, unit.name]);
  }

  transfer(t: TransferDefinition, op: string, key: readonly string[], position: number): bigint {
    return id128("transfer", [this.book.book, this.tenant, t.name, op, ...key, String(position)]);
  }

  content(t: TransferDefinition, op: string, content: string): bigint {
    return id128("content", [this.book.book, this.tenant, t.name, op, t.definition_hash, content]);
  }

  kind(a: AccountDefinition): bigint {
    return id128("kind", [this.book.book, this.tenant, a.name]);
  }
}

function whatOf(book: BookDefinition, ref: AccountRef, arg: (name: string) => string): AccountWhat {
  if (ref.kind === "sink") return { kind: "sink", unit: book.units[ref.unit] };
  return { kind: ref.kind, account: book.accounts[ref.account], args: ref.args.map(arg) };
}

function accountOf(ids: Ids, what: AccountWhat): AccountEvent {
  const event = (
    fields: Pick<AccountEvent, "id" | "user_data_128" | "user_data_32" | "ledger" | "code" | "flags">,
  ) => ({
    id: fields.id,
    debits_pending: 0n,
    debits_posted: 0n,
    credits_pending: 0n,
    credits_posted: 0n,
    user_data_128: fields.user_data_128,
    user_data_64: 0n,
    user_data_32: fields.user_data_32,
    reserved: 0,
    ledger: fields.ledger,
    code: fields.code,
    flags: fields.flags,
    timestamp: 0n,
  });
  if (what.kind === "sink") {
    const u = what.unit;
    return event({
      id: ids.sink(u),
      user_data_128: 0n,
      user_data_32: 0,
      ledger: u.ledger,
      code: u.sink_code,
      flags: 0,
    });
  }
  const a = what.account;
  const own = ids.account(a, what.args);
  if (what.kind === "account") {
    return event({
      id: own,
      user_data_128: ids.kind(a),
      user_data_32: 0,
      ledger: a.ledger,
      code: a.code,
      flags: bits(a.flags, ACCOUNT_FLAGS),
    });
  }
  return event({
    id: id128(what.kind, [hex32(own)]),
    user_data_128: own,
    user_data_32: what.kind === "floor" ? FLOOR_MARK : ROOM_MARK,
    ledger: a.ledger,
    code: a.code,
    flags: ACCOUNT_FLAGS.debits_must_not_exceed_credits,
  });
}

function openingOf(book: BookDefinition, ids: Ids, e: AccountToCreate): TransferEvent | null {
  const what = e.what;
  if (what.kind !== "floor" && what.kind !== "room") return null;
  const a = what.account;
  const amount = what.kind === "floor" ? a.floor : a.room;
  if (amount === null) throw new Error(`chobo: ${a.name} has no ${what.kind}`);
  return {
    id: id128("opening", [hex32(e.event.id)]),
    debit_account_id: ids.sink(book.units[a.unit]),
    credit_account_id: e.event.id,
    amount,
    pending_id: 0n,
    user_data_128: e.event.user_data_128,
    user_data_64: 0n,
    user_data_32: e.event.user_data_32,
    timeout: 0,
    ledger: e.event.ledger,
    code: e.event.code,
    flags: 0,
    timestamp: 0n,
  };
}

/** What fills a template besides the plan: the op's name, the key, the content and where values come from. */
interface Filling {
  readonly op: string;
  readonly key: readonly string[];
  readonly content: string;
  readonly amount: (a: PieceDefinition["amount"]) => bigint;
  readonly account: (ref: AccountRef) => bigint;
}

/** A chain template filled: ids, amounts, accounts, pending ids and flags. */
function fill(ids: Ids, t: TransferDefinition, chain: ChainDefinition, f: Filling): ChainEntry[] {
  if (chain.pieces.length > MAX_BATCH) {
    throw new Error(`chobo: a chain of ${chain.pieces.length} transfers, more than one request takes (E060)`);
  }
  const userData = ids.content(t, f.op, f.content);
  const out: ChainEntry[] = [];
  chain.pieces.forEach((p, position) => {
    const debit = p.debit === null ? 0n : f.account(p.debit);
    const credit = p.credit === null ? 0n : f.account(p.credit);
    const pending = p.pending.kind === "none"
      ? 0n
      : p.pending.kind === "piece"
      ? out[p.pending.position].transfer.id
      : ids.transfer(t, "hold", f.key, p.pending.position);
    out.push({
      exceeds_credits: p.exceeds_credits,
      transfer: {
        id: p.id === "random" ? randomId() : ids.transfer(t, f.op, f.key, position),
        debit_account_id: debit,
        credit_account_id: credit,
        amount: p.amount.kind === "literal" ? p.amount.value : f.amount(p.amount),
        pending_id: pending,
        user_data_128: p.user_data_128 === "content" ? userData : 0n,
        user_data_64: 0n,
        user_data_32: 0,
        timeout: p.timeout,
        ledger: p.ledger,
        code: p.code,
        flags: bits(p.flags, TRANSFER_FLAGS),
        timestamp: 0n,
      },
    });
  });
  return out;
}

function chainOf(t: TransferDefinition, op: keyof TransferDefinition["chains"]): ChainDefinition {
  const chain = t.chains[op];
  if (chain === undefined) throw new Error(`chobo: ${t.name} has no ${op}`);
  return chain;
}

/** What a `do` or `hold` sends; null when a move's from and to are one account (`same_account`). */
function moveSends(book: BookDefinition, ids: Ids, call: Call) {
  const t = call.transfer;
  const arg = (name: string) => String(call.args.get(name));
  const idOf = (ref: AccountRef) => ids.event(whatOf(book, ref, arg)).id;
  if (t.moves.some((m) => idOf(m.from) === idOf(m.to))) return null;
  const accounts = new Map<bigint, AccountToCreate>();
  const chain = fill(ids, t, chainOf(t, call.op), {
    op: call.op,
    key: keyValues(call),
    content: JSON.stringify(t.params.map((p) => arg(p.name))),
    amount: (a) => call.args.get((a as { param: string }).param) as bigint,
    account: (ref) => {
      const what = whatOf(book, ref, arg);
      const event = ids.event(what);
      if (!accounts.has(event.id)) accounts.set(event.id, { what, event });
      return event.id;
    },
  });
  const events = [...accounts.values()];
  return { accounts: events, openings: events.flatMap((e) => openingOf(book, ids, e) ?? []), chain };
}

/** What each move holds, from `lookupTransfers`; null when the hold is not there. */
function heldAmounts(lookups: readonly bigint[], found: readonly TransferRead[]): bigint[] | null {
  const byId = new Map(found.map((f) => [f.id, f.amount]));
  if (!byId.has(lookups[0])) return null;
  return lookups.map((id) => {
    const amount = byId.get(id);
    if (amount === undefined) {
      throw new Error(`chobo: the hold's transfer ${id} is missing while the first is there`);
    }
    return amount;
  });
}

/** What each move of a post posts: its amount argument in a partial post, else what it holds. */
function postAmounts(call: Call, held: readonly bigint[]): bigint[] {
  const t = call.transfer;
  const partial = t.params.some((p) => p.amount && call.args.has(p.name));
  return t.moves.map((m, i) =>
    partial && m.amount.kind === "param" ? call.args.get(m.amount.param) as bigint : held[i]
  );
}

/** A post or void chain for what the hold holds. */
function settleChain(ids: Ids, call: Call, held: readonly bigint[]): ChainEntry[] {
  const amounts = call.op === "post" ? postAmounts(call, held) : [...held];
  const chain = chainOf(call.transfer, call.op);
  return fill(ids, call.transfer, chain, {
    op: call.op,
    key: keyValues(call),
    content: chain.content === "amounts" ? JSON.stringify(amounts.map(String)) : "[]",
    amount: (a) => amounts[(a as { move: number }).move - 1],
    account: () => {
      throw new Error(`chobo: a ${call.op} chain names no account`);
    },
  });
}

/** The status chain of a hold: its ids are random. */
function statusChain(
  book: BookDefinition,
  ids: Ids,
  t: TransferDefinition,
  key: readonly string[],
): ChainEntry[] {
  return fill(ids, t, chainOf(t, "status"), {
    op: "status",
    key,
    content: "[]",
    amount: () => {
      throw new Error("chobo: the status chain takes no amount");
    },
    account: (ref) => ids.event(whatOf(book, ref, (name) => name)).id,
  });
}

// ---------------------------------------------------------------------------------------------
// Reading the answers (docs/targets.md#results), by the plan's tables.

function statusNames(table: Readonly<Record<string, number>>, answers: readonly CreateStatus[]): string[] {
  return answers.map((a) =>
    Object.keys(table).find((name) => table[name] === a.status) ?? `status ${a.status}`
  );
}

function unexpected(what: string, results: readonly string[]): Error {
  return new Error(
    `chobo: TigerBeetle answered ${what} with ${
      results.join(", ")
    }, which chobo's client does not expect (a bug in the client)`,
  );
}

/** A chain's result: the first transfer whose result is neither `created` nor `linked_event_failed` decides. */
function chainOutcome(
  book: BookDefinition,
  call: Call,
  chain: readonly ChainEntry[],
  results: readonly string[],
): { readonly result: "done" | "done_before" } | { readonly refused: string } {
  const what = `${call.transfer.name}.${call.op}`;
  if (results.length !== chain.length) throw unexpected(what, results);
  const i = results.findIndex((r) => r !== "created" && r !== "linked_event_failed");
  if (i < 0) {
    if (results.every((r) => r === "created")) return { result: "done" };
    throw unexpected(what, results);
  }
  const r = results[i];
  if (r === "exists") return i === 0 ? { result: "done_before" } : { refused: "key_conflict" };
  if (r.startsWith("exists_with_different_")) return { refused: "key_conflict" };
  const reason = r === "exceeds_credits" ? chain[i].exceeds_credits : book.refusals[r];
  if (reason === null || reason === undefined) throw unexpected(what, results);
  return { refused: reason };
}

/** The state the status chain's two results say (docs/targets.md#results). */
function stateOf(book: BookDefinition, results: readonly string[]): HoldState | null {
  const row = book.status.find(([a, b]) => results.length === 2 && results[0] === a && results[1] === b);
  if (row === undefined) throw unexpected("the status chain", results);
  return row[2];
}

/** Accounts must be `created` or `exists`; another definition is the book's account changed (docs/targets.md#changing-a-book). */
function checkAccounts(batch: readonly AccountToCreate[], results: readonly string[]): void {
  if (results.length !== batch.length) throw unexpected("create_accounts", results);
  results.forEach((r, i) => {
    if (r === "created" || r === "exists") return;
    const name = whatText(batch[i].what);
    if (r.startsWith("exists_with_different_")) {
      throw new Error(
        `chobo: the TigerBeetle account of ${name} exists with different ${
          r.slice("exists_with_different_".length)
        }: the book's account definition changed (docs/targets.md#changing-a-book); make a new account kind instead`,
      );
    }
    throw unexpected(`create_accounts (${name})`, [r]);
  });
}

/** Openings must be `created` or `exists`; another amount is the book's bound changed (docs/targets.md#changing-a-book). */
function checkOpenings(
  batch: readonly TransferEvent[],
  accounts: readonly AccountToCreate[],
  results: readonly string[],
): void {
  if (results.length !== batch.length) throw unexpected("the openings", results);
  results.forEach((r, i) => {
    if (r === "created" || r === "exists") return;
    const of = accounts.find((a) => a.event.id === batch[i].credit_account_id);
    const name = of === undefined ? "an account" : whatText(of.what);
    if (r === "exists_with_different_amount") {
      throw new Error(
        `chobo: the opening of ${name} exists with different amount: the book's bound changed (docs/targets.md#changing-a-book); make a new account kind instead`,
      );
    }
    throw unexpected(`the opening of ${name}`, [r]);
  });
}

function inRange(v: bigint): boolean {
  return v >= MIN_INT64 && v <= MAX_INT64;
}

// ---------------------------------------------------------------------------------------------
// Batching (docs/targets.md#tigerbeetle): the chains of calls made at once share requests.

/** One chain waiting for a request, and where its answers go. */
interface Waiting {
  readonly events: readonly TransferEvent[];
  readonly resolve: (answers: readonly CreateStatus[]) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * `createTransfers` for the concurrent calls of one book value: the chains they send before the
 * current turn's microtasks run out go out together, in as few requests as `limit` events a request
 * allow, each chain whole and in the order sent (a chain ends at its first event without `linked`,
 * so chains side by side stay apart); each call gets its own events' answers back, and an error of a
 * request is the error of every call in it. A lone call waits for nothing: its chain goes out in the
 * same turn. Requests are not held back while others are in flight: tigerbeetle-node queues them
 * and packs those of one kind into one message itself.
 */
class TransferBatcher {
  private readonly client: TigerBeetleClient;
  private readonly limit: number;
  private waiting: Waiting[] = [];

  constructor(client: TigerBeetleClient, limit: number) {
    this.client = client;
    this.limit = limit;
  }

  send(events: readonly TransferEvent[]): Promise<readonly CreateStatus[]> {
    if (events.length > this.limit) {
      throw new Error(
        `chobo: ${events.length} transfers in one chain, more than the ${this.limit} a request takes`,
      );
    }
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) queueMicrotask(() => this.flush());
      this.waiting.push({ events, resolve, reject });
    });
  }

  /** Sends every waiting chain, in requests of at most `limit` events. */
  private flush(): void {
    const waiting = this.waiting;
    this.waiting = [];
    let request: Waiting[] = [];
    let size = 0;
    for (const w of waiting) {
      if (size + w.events.length > this.limit) {
        void this.dispatch(request);
        request = [];
        size = 0;
      }
      request.push(w);
      size += w.events.length;
    }
    void this.dispatch(request);
  }

  private async dispatch(request: readonly Waiting[]): Promise<void> {
    try {
      const answers = await this.client.createTransfers(request.flatMap((w) => [...w.events]));
      // A lone chain reads its answers whatever they are (chainOutcome says what is wrong with them);
      // chains side by side can be told apart only by one answer an event.
      if (request.length === 1) return request[0].resolve(answers);
      if (answers.length !== request.reduce((n, w) => n + w.events.length, 0)) {
        throw new Error(
          `chobo: TigerBeetle answered ${answers.length} results for the ${request.length} chains of one request, not one an event`,
        );
      }
      let at = 0;
      for (const w of request) {
        w.resolve(answers.slice(at, at + w.events.length));
        at += w.events.length;
      }
    } catch (e) {
      for (const w of request) w.reject(e);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The steps of a call (docs/targets.md#before-the-chain).

/**
 * The calls of one book value on `client` for `tenant`. It remembers the accounts and openings it
 * created, so it sends each once (docs/targets.md#before-the-chain). `reasons` lists every reason
 * a call may be refused with. `requestLimit` is the most transfers one request takes on the replica
 * (253 on one started with `--development`, the default; more with a larger `--limit-request`): the
 * chains of concurrent calls share requests up to it (`TransferBatcher`). Below 253 a chain that
 * E060 lets through would not fit, so it is refused.
 */
export function calls<R extends string>(
  client: TigerBeetleClient,
  book: BookDefinition,
  tenant: string,
  reasons: readonly R[],
  requestLimit: number = MAX_BATCH,
): Calls<R> {
  if (book.version !== 1) {
    throw new Error(`chobo: a plan of version ${book.version}, not 1, which this runtime runs`);
  }
  stringArgument("tenant", tenant);
  const ids = new Ids(book, tenant);
  const created = new Set<bigint>();

  const refused = (reason: string): Outcome<R> => {
    const known = reasons.find((r) => r === reason);
    if (known === undefined) throw new Error(`chobo: ${reason} is not a reason of the book ${book.book}`);
    return { result: "refused", reason: known };
  };
  const outcome = (
    o: { readonly result: "done" | "done_before" } | { readonly refused: string },
  ): Outcome<R> => "refused" in o ? refused(o.refused) : o;
  if (!Number.isSafeInteger(requestLimit) || requestLimit < MAX_BATCH) {
    throw new Error(
      `chobo: requestLimit is ${requestLimit}, not a whole number of at least ${MAX_BATCH} (E060's chain)`,
    );
  }
  const batcher = new TransferBatcher(client, requestLimit);
  const createTransfers = async (events: TransferEvent[]) =>
    statusNames(CREATE_TRANSFER_STATUS, await batcher.send(events));
  const keyCall = (transfer: number, op: "post" | "void", values: readonly Argument[]): Call => {
    const t = book.transfers[transfer];
    if (t.chains.hold === undefined) throw new Error(`chobo: ${t.name} does not hold`);
    return { transfer: t, op, args: argsOf(settleParams(t, op), values, op === "post") };
  };

  return {
    async move(transfer, op, values) {
      const t = book.transfers[transfer];
      if (t.chains[op] === undefined) throw new Error(`chobo: ${t.name} has no ${op}`);
      const call: Call = { transfer: t, op, args: argsOf(t.params, values, false) };
      const sends = moveSends(book, ids, call);
      if (sends === null) return refused("same_account");
      for (const batch of requests(sends.accounts.filter((a) => !created.has(a.event.id)))) {
        const events = batch.map((a) => a.event);
        checkAccounts(batch, statusNames(CREATE_ACCOUNT_STATUS, await client.createAccounts(events)));
        for (const e of events) created.add(e.id);
      }
      for (const batch of requests(sends.openings.filter((o) => !created.has(o.id)))) {
        checkOpenings(batch, sends.accounts, await createTransfers(batch));
        for (const o of batch) created.add(o.id);
      }
      const results = await createTransfers(sends.chain.map((e) => e.transfer));
      return outcome(chainOutcome(book, call, sends.chain, results));
    },

    async settle(transfer, op, values) {
      const call = keyCall(transfer, op, values);
      const t = call.transfer;
      const amounts = t.params.filter((p) => p.amount).map((p) => call.args.has(p.name));
      if (amounts.some((given) => given !== amounts[0])) {
        throw new Error(`chobo: a partial ${t.name}.post passes every amount`);
      }
      const key = keyValues(call);
      const lookups = t.lookups.map((position) => ids.transfer(t, "hold", key, position));
      const held = heldAmounts(lookups, await client.lookupTransfers(lookups));
      if (held === null) return refused("no_such_hold");
      if (op === "post" && postAmounts(call, held).some((a, i) => a > held[i])) {
        const state = stateOf(
          book,
          await createTransfers(statusChain(book, ids, t, key).map((e) => e.transfer)),
        );
        if (state === null) throw new Error("chobo: the hold read before the post is not there any more");
        return refused(book.over_hold[state]);
      }
      const chain = settleChain(ids, call, held);
      return outcome(chainOutcome(book, call, chain, await createTransfers(chain.map((e) => e.transfer))));
    },

    async status(transfer, values) {
      const call = keyCall(transfer, "void", values);
      const chain = statusChain(book, ids, call.transfer, keyValues(call));
      return stateOf(book, await createTransfers(chain.map((e) => e.transfer)));
    },

    async balance(account, values) {
      const a = book.accounts[account];
      const args = argsOf(a.params.map((name) => ({ name, amount: false })), values, false);
      const what: AccountWhat = {
        kind: "account",
        account: a,
        args: a.params.map((p) => args.get(p) as string),
      };
      const id = ids.account(a, what.args);
      const found = (await client.lookupAccounts([id])).find((f) => f.id === id);
      if (found === undefined) return { posted: 0n, held_in: 0n, held_out: 0n };
      const balance = {
        posted: found.credits_posted - found.debits_posted,
        held_in: found.credits_pending,
        held_out: found.debits_pending,
      };
      if (!inRange(balance.posted) || !inRange(balance.held_in) || !inRange(balance.held_out)) {
        throw new Error(
          `chobo: the balance of ${
            whatText(what)
          } leaves the 64-bit range (posted ${balance.posted}, held in ${balance.held_in}, held out ${balance.held_out}); TigerBeetle let the operations pass (docs/targets.md#what-the-two-targets-share)`,
        );
      }
      return balance;
    },
  };
}
