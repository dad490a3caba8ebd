/**
 * `TbPlan`: what every chobo TigerBeetle client sends, lowered once from the checked book
 * (docs/design/chobo.md#tigerbeetle) into versioned plain data. `show.ts`, E060, `chobo api` and the
 * client printers read it; each printer writes it into its client as a literal, and a runtime only
 * fills a template (ids, arguments, links), sends it and reads the answers through the plan's tables.
 *
 * **Chains.** Each move becomes up to 6 transfers, in this order (`movePieces`):
 *
 * | piece        | when                                  | debit → credit        | amount |
 * |--------------|---------------------------------------|-----------------------|--------|
 * | `move`       | always                                | from → to             | a      |
 * | `probe`      | from has a lower bound L > 0          | from → sink (pending) | L      |
 * | `probe_void` | after `probe`                         | voids `probe`         | L      |
 * | `from_floor` | from has a lower bound L < 0          | floor(from) → sink    | a      |
 * | `from_room`  | from has an upper bound               | sink → room(from)     | a      |
 * | `to_room`    | to has an upper bound                 | room(to) → sink       | a      |
 * | `to_floor`   | to has a lower bound L < 0            | sink → floor(to)      | a      |
 *
 * A hold makes every piece but `probe_void` pending with the hold's expiry as `timeout` (0 for
 * `never expires`); `do` makes only the probe pending. Every transfer of a chain but the last carries
 * `linked`. A post or void has one transfer per pending piece of the hold (the probe is already
 * voided), `pending_id` that piece's id and every inherited field 0. The status chain is a void of
 * the hold's first transfer (amount 0) and then a transfer from the unit's sink to itself, both with
 * random ids and zero `user_data_*`.
 *
 * **Accounts** (docs/targets.md#fields): an account with a lower bound ≥ 0 carries
 * `debits_must_not_exceed_credits`; floors and rooms always do. A floor or room takes its account's
 * `code` and `ledger`, `user_data_128` = its account's id and `user_data_32` = `FLOOR_MARK` or
 * `ROOM_MARK`, and is opened from the sink with −L or U. A runtime creates the accounts a `do` or
 * `hold` chain names, in the order it first names them (debit before credit), then the openings of
 * its floors and rooms in that order.
 *
 * **Results** (docs/targets.md#results): a chain's result is decided by its first transfer whose
 * result is neither `created` nor `linked_event_failed`: `exists` on the first is `done_before`,
 * `exists` later or `exists_with_different_*` is `key_conflict`, `exceeds_credits` is the piece's
 * `exceeds_credits` reason (null: not a refusal), the rest by `refusals`; anything else is a bug.
 * @module
 */

import { definitionHash, ledgerOf, transferCode } from "../../../lang/chobo/ids.ts";
import type { Book, Move, Transfer } from "../../../lang/chobo/model.ts";
import { operationsOf } from "../../../lang/chobo/scenario.ts";
import { accountCode, sinkCode } from "./ids.ts";

/** The version of `TbPlan`'s shape; a runtime refuses a plan of another version. */
export const TB_PLAN_VERSION = 1;
/**
 * Events in one request to a replica started with `--development` (32 KiB): the longest chain a
 * book may have (E060, docs/design/chobo.md#the-checker). A replica started with a larger
 * `--limit-request` takes more; a client reads its replica's limit to batch.
 */
export const MAX_BATCH = 253;
/** The longest chain of one operation: it must fit in one request (E060). */
export const MAX_CHAIN = MAX_BATCH;
/** At most this many transfers per move (a lower > 0 and upper account to a lower < 0 and upper one). */
export const MAX_PIECES_PER_MOVE = 6;
/** `user_data_32` of a floor account and its opening. */
export const FLOOR_MARK = 1;
/** `user_data_32` of a room account and its opening. */
export const ROOM_MARK = 2;

/** TigerBeetle's account flags, by name. */
export type AccountFlag =
  | "linked"
  | "debits_must_not_exceed_credits"
  | "credits_must_not_exceed_debits"
  | "history"
  | "imported"
  | "closed";

/** TigerBeetle's transfer flags, by name, in bit order. */
export type TransferFlag =
  | "linked"
  | "pending"
  | "post_pending_transfer"
  | "void_pending_transfer"
  | "balancing_debit"
  | "balancing_credit"
  | "closing_debit"
  | "closing_credit"
  | "imported";

/** What a transfer of a move's chain does (see the module's table). */
export type MoveRole =
  | "move"
  | "probe"
  | "probe_void"
  | "from_floor"
  | "from_room"
  | "to_room"
  | "to_floor";

/** What a transfer of a chain does: a move's piece, or one of the status chain's two. */
export type ChainRole = MoveRole | "status_void" | "status_refusal";

/** The operations a chain is sent for. */
export type TbOp = "do" | "hold" | "post" | "void" | "status";

/**
 * A TigerBeetle account a piece names: a book's account (by its index in `accounts`) with the
 * transfer's parameters passed to it, its floor or room, or the sink of a unit (by index).
 */
export type AccountRef =
  | {
    readonly kind: "account" | "floor" | "room";
    readonly account: number;
    readonly args: readonly string[];
  }
  | { readonly kind: "sink"; readonly unit: number };

/**
 * Where a piece's amount comes from: a parameter, a number, or what a post or void settles of a
 * move (1-based): the hold's amount read before, or in a partial post the move's amount argument.
 */
export type AmountSource =
  | { readonly kind: "param"; readonly param: string }
  | { readonly kind: "literal"; readonly value: bigint }
  | { readonly kind: "settled"; readonly move: number };

/** Where a piece's `pending_id` comes from: none, this chain's piece, or the hold chain's piece. */
export type PendingSource =
  | { readonly kind: "none" }
  | { readonly kind: "piece"; readonly position: number }
  | { readonly kind: "hold"; readonly position: number };

/** One transfer of a chain template; `debit` or `credit` null is the id 0. */
export interface TbPiece {
  readonly role: ChainRole;
  /** The move (1-based) it belongs to; null for the status chain's second. */
  readonly move: number | null;
  /** `position`: role `transfer` over the op, the key and its position; `random`: the status chain's. */
  readonly id: "position" | "random";
  readonly debit: AccountRef | null;
  readonly credit: AccountRef | null;
  readonly amount: AmountSource;
  readonly pending: PendingSource;
  /** `content`: the chain's content id; `zero`: 0. */
  readonly user_data_128: "content" | "zero";
  readonly timeout: number;
  readonly ledger: number;
  readonly code: number;
  /** Every flag, `linked` first where it is there. */
  readonly flags: readonly TransferFlag[];
  /** The refusal `exceeds_credits` on this piece stands for; null where no bound is checked. */
  readonly exceeds_credits: string | null;
}

/**
 * The content a chain's `user_data_128` hashes (docs/design/chobo.md#keys-and-content): every
 * parameter's value (`do`, `hold`), the amounts posted (`post`), or none (`void`, `[]`).
 */
export type TbContent = "params" | "amounts" | "none";

/** The template of one operation's chain. */
export interface TbChain {
  readonly content: TbContent;
  readonly pieces: readonly TbPiece[];
}

/** A move as a runtime needs it: its amount and its two sides (a move from an account to itself is `same_account`). */
export interface TbMove {
  readonly amount: { readonly kind: "param"; readonly param: string } | {
    readonly kind: "literal";
    readonly value: bigint;
  };
  readonly from: AccountRef;
  readonly to: AccountRef;
}

/** A kind of transfer: its parameters, key, and the chain of each of its operations. */
export interface TbTransferPlan {
  readonly name: string;
  readonly params: readonly { readonly name: string; readonly amount: boolean }[];
  readonly key: readonly string[];
  readonly definition_hash: string;
  readonly moves: readonly TbMove[];
  /** `do` for a transfer without `pending`, else `hold`, `post`, `void` and `status`. */
  readonly chains: Readonly<Partial<Record<TbOp, TbChain>>>;
  /** The positions in the hold chain of each move's `move` piece: what a post or void reads first. */
  readonly lookups: readonly number[];
}

/** An account kind: its code, ledger, flags, and the openings of its floor (−L) and room (U). */
export interface TbAccountPlan {
  readonly name: string;
  readonly params: readonly string[];
  readonly unit: number;
  readonly ledger: number;
  readonly code: number;
  readonly flags: readonly AccountFlag[];
  readonly floor: bigint | null;
  readonly room: bigint | null;
}

/** A unit: its ledger, and the code of its sink. */
export interface TbUnitPlan {
  readonly name: string;
  readonly ledger: number;
  readonly sink_code: number;
}

/** A hold's state as the status chain reads it; null: there is no hold. */
export type TbHoldState = "held" | "posted" | "voided" | "expired";

/** Everything a chobo TigerBeetle client of one book sends and reads. */
export interface TbPlan {
  readonly version: typeof TB_PLAN_VERSION;
  readonly book: string;
  readonly units: readonly TbUnitPlan[];
  readonly accounts: readonly TbAccountPlan[];
  readonly transfers: readonly TbTransferPlan[];
  /** A chain's first deciding result (after `exists`, `exists_with_different_*`, `exceeds_credits`) → refusal. */
  readonly refusals: Readonly<Record<string, string>>;
  /** The status chain's two results → the hold's state (record (q) of docs/design/chobo.md). */
  readonly status: readonly (readonly [string, string, TbHoldState | null])[];
  /** A post over the hold answers by the hold's state (docs/design/chobo.md#order-of-checks). */
  readonly over_hold: Readonly<Record<TbHoldState, string>>;
}

/** The refusals of the results table (the module's notes). */
const REFUSALS: Readonly<Record<string, string>> = {
  id_already_failed: "already_refused",
  accounts_must_be_different: "same_account",
  pending_transfer_already_posted: "already_posted",
  pending_transfer_already_voided: "already_voided",
  pending_transfer_expired: "expired",
  exceeds_pending_transfer_amount: "over_hold",
};

/** The two results 0.17.9 gave the status chain for each state of a hold. */
const STATUS_RESULTS: readonly (readonly [string, string, TbHoldState | null])[] = [
  ["linked_event_failed", "accounts_must_be_different", "held"],
  ["pending_transfer_already_posted", "linked_event_failed", "posted"],
  ["pending_transfer_already_voided", "linked_event_failed", "voided"],
  ["pending_transfer_expired", "linked_event_failed", "expired"],
  ["pending_transfer_not_found", "linked_event_failed", null],
];

const OVER_HOLD: Readonly<Record<TbHoldState, string>> = {
  held: "over_hold",
  posted: "key_conflict",
  voided: "already_voided",
  expired: "expired",
};

/** The pieces of one move, in chain order (the module's table). */
export function movePieces(m: Move): MoveRole[] {
  const from = m.from.account;
  const to = m.to.account;
  const pieces: MoveRole[] = ["move"];
  if (from.lower !== null && from.lower.value > 0n) pieces.push("probe", "probe_void");
  if (from.lower !== null && from.lower.value < 0n) pieces.push("from_floor");
  if (from.upper !== null) pieces.push("from_room");
  if (to.upper !== null) pieces.push("to_room");
  if (to.lower !== null && to.lower.value < 0n) pieces.push("to_floor");
  if (pieces.length > MAX_PIECES_PER_MOVE) throw new Error(`${pieces.length} pieces in one move`);
  return pieces;
}

/** The length of a `do` or `hold` chain of `t`; a post or void chain is never longer. */
export function chainLength(t: Transfer): number {
  return t.moves.reduce((n, m) => n + movePieces(m).length, 0);
}

/** `linked` on every piece but the last, before its other flags. */
function linked(pieces: readonly TbPiece[]): TbPiece[] {
  return pieces.map((p, i) => i < pieces.length - 1 ? { ...p, flags: ["linked", ...p.flags] } : p);
}

/** Lowers one transfer kind's chains. */
function lowerTransfer(book: Book, t: Transfer): TbTransferPlan {
  const accountAt = (name: string) => book.accounts.findIndex((a) => a.name === name);
  const unitAt = (name: string) => book.units.findIndex((u) => u.name === name);
  const side = (m: Move, s: "from" | "to", kind: "account" | "floor" | "room"): AccountRef => ({
    kind,
    account: accountAt(m[s].account.name),
    args: m[s].args,
  });
  const code = transferCode(book, t);
  const ops = operationsOf(t);
  const holds = ops.includes("hold");
  const timeout = holds && t.pending?.expires === "after" ? Number(t.pending.seconds) : 0;
  const layout = t.moves.flatMap((m) => movePieces(m).map((role) => ({ role, m })));

  const moveChain = (op: "do" | "hold"): TbChain => ({
    content: "params",
    pieces: linked(layout.map(({ role, m }, position): TbPiece => {
      const sink: AccountRef = { kind: "sink", unit: unitAt(m.unit.name) };
      const lower = m.from.account.lower?.value ?? 0n;
      const amount: AmountSource = m.amount.kind === "param"
        ? { kind: "param", param: m.amount.param }
        : { kind: "literal", value: m.amount.value };
      const base = {
        role,
        move: m.index,
        id: "position" as const,
        amount,
        pending: { kind: "none" } as PendingSource,
        user_data_128: "content" as const,
        timeout: op === "hold" ? timeout : 0,
        ledger: ledgerOf(m.unit),
        code,
        flags: op === "hold" ? ["pending"] as TransferFlag[] : [],
        exceeds_credits: null,
      };
      const fromBound = m.from.account.lower?.reason ?? null;
      switch (role) {
        case "move":
          return {
            ...base,
            debit: side(m, "from", "account"),
            credit: side(m, "to", "account"),
            exceeds_credits: fromBound,
          };
        case "probe":
          return {
            ...base,
            debit: side(m, "from", "account"),
            credit: sink,
            amount: { kind: "literal", value: lower },
            flags: ["pending"],
            exceeds_credits: fromBound,
          };
        case "probe_void":
          return {
            ...base,
            debit: null,
            credit: null,
            amount: { kind: "literal", value: lower },
            pending: { kind: "piece", position: position - 1 },
            timeout: 0,
            ledger: 0,
            code: 0,
            flags: ["void_pending_transfer"],
          };
        case "from_floor":
          return { ...base, debit: side(m, "from", "floor"), credit: sink, exceeds_credits: fromBound };
        case "from_room":
          return { ...base, debit: sink, credit: side(m, "from", "room") };
        case "to_room":
          return {
            ...base,
            debit: side(m, "to", "room"),
            credit: sink,
            exceeds_credits: m.to.account.upper?.reason ?? null,
          };
        case "to_floor":
          return { ...base, debit: sink, credit: side(m, "to", "floor") };
      }
    })),
  });

  const settled = layout.map((s, position) => ({ ...s, position }))
    .filter((s) => s.role !== "probe" && s.role !== "probe_void");
  const settleChain = (op: "post" | "void"): TbChain => ({
    content: op === "post" ? "amounts" : "none",
    pieces: linked(settled.map((s): TbPiece => ({
      role: s.role,
      move: s.m.index,
      id: "position",
      debit: null,
      credit: null,
      amount: { kind: "settled", move: s.m.index },
      pending: { kind: "hold", position: s.position },
      user_data_128: "content",
      timeout: 0,
      ledger: 0,
      code: 0,
      flags: [op === "post" ? "post_pending_transfer" : "void_pending_transfer"],
      exceeds_credits: null,
    }))),
  });

  const unit = t.moves[0].unit;
  const zero = { id: "random" as const, amount: { kind: "literal", value: 0n } as const, timeout: 0 };
  const statusChain: TbChain = {
    content: "none",
    pieces: linked([
      {
        ...zero,
        role: "status_void",
        move: 1,
        debit: null,
        credit: null,
        pending: { kind: "hold", position: 0 },
        user_data_128: "zero",
        ledger: 0,
        code: 0,
        flags: ["void_pending_transfer"],
        exceeds_credits: null,
      },
      {
        ...zero,
        role: "status_refusal",
        move: null,
        debit: { kind: "sink", unit: unitAt(unit.name) },
        credit: { kind: "sink", unit: unitAt(unit.name) },
        pending: { kind: "none" },
        user_data_128: "zero",
        ledger: ledgerOf(unit),
        code,
        flags: [],
        exceeds_credits: null,
      },
    ]),
  };

  return {
    name: t.name,
    params: t.params.map((p) => ({ name: p.name, amount: p.type.kind === "amount" })),
    key: t.key,
    definition_hash: definitionHash(t),
    moves: t.moves.map((m) => ({
      amount: m.amount.kind === "param"
        ? { kind: "param", param: m.amount.param }
        : { kind: "literal", value: m.amount.value },
      from: side(m, "from", "account"),
      to: side(m, "to", "account"),
    })),
    chains: holds
      ? { hold: moveChain("hold"), post: settleChain("post"), void: settleChain("void"), status: statusChain }
      : { do: moveChain("do") },
    lookups: layout.flatMap((s, position) => s.role === "move" ? [position] : []),
  };
}

/**
 * The plan of a checked book: per account kind its fields, per transfer kind and operation its
 * chain template, and the tables that read TigerBeetle's answers. Pure: the same book gives the
 * same plan.
 */
export function lowerChains(book: Book): TbPlan {
  return {
    version: TB_PLAN_VERSION,
    book: book.name,
    units: book.units.map((u) => ({ name: u.name, ledger: ledgerOf(u), sink_code: sinkCode(book, u) })),
    accounts: book.accounts.map((a) => ({
      name: a.name,
      params: a.params,
      unit: book.units.findIndex((u) => u.name === a.unit.name),
      ledger: ledgerOf(a.unit),
      code: accountCode(book, a.name),
      flags: a.lower !== null && a.lower.value >= 0n ? ["debits_must_not_exceed_credits"] : [],
      floor: a.lower !== null && a.lower.value < 0n ? -a.lower.value : null,
      room: a.upper?.value ?? null,
    })),
    transfers: book.transfers.map((t) => lowerTransfer(book, t)),
    refusals: REFUSALS,
    status: STATUS_RESULTS,
    over_hold: OVER_HOLD,
  };
}
