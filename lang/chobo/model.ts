/**
 * The resolved book: names bound, types and units checked, amounts as `bigint` in the unit's
 * smallest unit. Everything downstream of the checker (interpreter, targets, doc) reads this.
 * @module
 */

/** The largest amount and the bound of every balance: 2⁶³ − 1 (PostgreSQL `bigint`). */
export const MAX_AMOUNT = (1n << 63n) - 1n;

/**
 * The longest string argument (a key part, an account's argument, the tenant): 256 UTF-8 bytes, so a
 * tenant beside the book's names stays far inside PostgreSQL's 2,704-byte index row
 * (docs/reference.md#limits).
 */
export const MAX_STRING_BYTES = 256;

/** The longest hold: 2³² − 1 seconds (TigerBeetle's 32-bit `timeout`). */
export const MAX_EXPIRY_SECONDS = (1n << 32n) - 1n;

/** A declared unit: literals are written with `scale` decimals and counted in its smallest unit. */
export interface Unit {
  readonly name: string;
  readonly scale: number;
  readonly tax: "incl_tax" | "excl_tax" | null;
  readonly line: number;
}

/** A bound on an account, with the reason a refused move answers. */
export interface Bound {
  readonly value: bigint;
  readonly reason: string;
  readonly line: number;
  readonly col: number;
}

/** A kind of account, split by its string parameters (one account per SKU, per member …). */
export interface Account {
  readonly name: string;
  readonly params: readonly string[];
  readonly unit: Unit;
  readonly outside: boolean;
  readonly lower: Bound | null;
  readonly upper: Bound | null;
  readonly description: string | null;
  readonly line: number;
  /** Column of the account's name. */
  readonly col: number;
}

/** A transfer's parameter: a string, or an amount of a unit. */
export interface Param {
  readonly name: string;
  readonly type: { readonly kind: "string" } | { readonly kind: "amount"; readonly unit: Unit };
  readonly line: number;
  readonly col: number;
}

/** An account named in a move, with the transfer parameters passed to it. */
export interface AccountRef {
  readonly account: Account;
  readonly args: readonly string[];
}

/** One move of a transfer; moves run in written order, all or nothing. */
export interface Move {
  /** 1-based position among the transfer's moves. */
  readonly index: number;
  readonly amount: { readonly kind: "param"; readonly param: string } | {
    readonly kind: "literal";
    readonly value: bigint;
  };
  readonly unit: Unit;
  readonly from: AccountRef;
  readonly to: AccountRef;
  readonly line: number;
  readonly col: number;
}

/** How a hold ends: after `seconds`, or only when the caller posts or voids it. */
export type Pending = { readonly expires: "after"; readonly seconds: bigint } | { readonly expires: "never" };

/** A kind of transfer: `do` when `pending` is null, else `hold`, `post` and `void`. */
export interface Transfer {
  readonly name: string;
  readonly params: readonly Param[];
  readonly key: readonly string[];
  readonly pending: Pending | null;
  readonly moves: readonly Move[];
  readonly description: string | null;
  readonly line: number;
  /** Column of the transfer's name. */
  readonly col: number;
}

/** A book that passed name resolution and type checks. */
export interface Book {
  readonly name: string;
  readonly version: number;
  readonly description: string | null;
  readonly units: readonly Unit[];
  readonly accounts: readonly Account[];
  readonly transfers: readonly Transfer[];
}
