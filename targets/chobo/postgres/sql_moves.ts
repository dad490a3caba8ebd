/**
 * What a transfer's moves do to its accounts, as the SQL of its operations needs it: the sides of
 * its moves in written order, how each operation changes a side's account, the inside accounts
 * (an account with a bound has a row to lock; an outside one has neither), and the `entries` rows.
 *
 * Two sides name one account at run time only when they name one kind; in one move that is
 * `same_account`, refused before anything is written, so only sides of different moves can meet.
 * @module
 */

import { assert, unreachable } from "../../../lang/common/assert.ts";
import type { AccountRef, Move, Transfer } from "../../../lang/chobo/model.ts";
import { ident, lit, paramName } from "./sql_names.ts";

/** The operations that move amounts. */
export type MovingOp = "do" | "hold" | "post" | "void";

/** One side of one move. */
export interface Side {
  readonly move: Move;
  /** 0-based position of the move. */
  readonly i: number;
  readonly role: "from" | "to";
  readonly ref: AccountRef;
}

/** Every side of every move, in written order (a move's `from` before its `to`). */
export function sidesOf(t: Transfer): Side[] {
  return t.moves.flatMap((move, i) => [
    { move, i, role: "from" as const, ref: move.from },
    { move, i, role: "to" as const, ref: move.to },
  ]);
}

/** True when two references name one account for any arguments: one kind, the same parameters. */
export function sameRef(a: AccountRef, b: AccountRef): boolean {
  return a.account === b.account && a.args.length === b.args.length &&
    a.args.every((x, i) => x === b.args[i]);
}

/** An inside account a transfer names, once, with its sides in written order. */
export interface InsideAccount {
  readonly ref: AccountRef;
  readonly sides: readonly Side[];
}

/** The inside accounts of a transfer, in the order they are first named. */
export function insideAccounts(t: Transfer): InsideAccount[] {
  const out: { ref: AccountRef; sides: Side[] }[] = [];
  for (const side of sidesOf(t)) {
    if (side.ref.account.outside) continue;
    const found = out.find((a) => sameRef(a.ref, side.ref));
    if (found === undefined) out.push({ ref: side.ref, sides: [side] });
    else found.sides.push(side);
  }
  return out;
}

/** A signed sum of SQL amounts. */
export type Sum = readonly { readonly sign: 1 | -1; readonly sql: string }[];

/** How an operation changes one account: the sums added to its three numbers. */
export interface Delta {
  readonly posted: Sum;
  readonly heldIn: Sum;
  readonly heldOut: Sum;
}

/** Where an operation reads a move's amounts: the call's arguments, or the hold row and the posted amounts. */
export interface Amounts {
  /** The amount a move moves or holds (`do`, `hold`), or held (`post`, `void`). */
  readonly moved: (i: number) => string;
  /** The amount a `post` posts. */
  readonly posted: (i: number) => string;
}

/** The amount of a move as the call passes it: a parameter, or the book's literal. */
export function callAmount(m: Move): string {
  return m.amount.kind === "literal" ? `${m.amount.value}::bigint` : ident(paramName(m.amount.param));
}

/** The change an operation makes to the account of one side (docs/design/chobo.md#bounds, docs/design/chobo.md#holds). */
export function sideDelta(op: MovingOp, side: Side, amounts: Amounts): Delta {
  const out = side.role === "from" ? -1 : 1;
  const a = amounts.moved(side.i);
  const none: Sum = [];
  switch (op) {
    case "do":
      return { posted: [{ sign: out, sql: a }], heldIn: none, heldOut: none };
    case "hold":
      return side.role === "from"
        ? { posted: none, heldIn: none, heldOut: [{ sign: 1, sql: a }] }
        : { posted: none, heldIn: [{ sign: 1, sql: a }], heldOut: none };
    case "post": {
      const posted: Sum = [{ sign: out, sql: amounts.posted(side.i) }];
      return side.role === "from"
        ? { posted, heldIn: none, heldOut: [{ sign: -1, sql: a }] }
        : { posted, heldIn: [{ sign: -1, sql: a }], heldOut: none };
    }
    case "void":
      return side.role === "from"
        ? { posted: none, heldIn: none, heldOut: [{ sign: -1, sql: a }] }
        : { posted: none, heldIn: [{ sign: -1, sql: a }], heldOut: none };
    default:
      return unreachable(op, "operation");
  }
}

/** The sum of several deltas. */
export function addDeltas(deltas: readonly Delta[]): Delta {
  return {
    posted: deltas.flatMap((d) => d.posted),
    heldIn: deltas.flatMap((d) => d.heldIn),
    heldOut: deltas.flatMap((d) => d.heldOut),
  };
}

/** A sum as SQL: `0` when empty, else `a - b + c`. */
export function sumSql(sum: Sum): string {
  if (sum.length === 0) return "0";
  return sum.map((t, i) =>
    i === 0 ? `${t.sign < 0 ? "-" : ""}${t.sql}` : ` ${t.sign < 0 ? "-" : "+"} ${t.sql}`
  )
    .join("");
}

/** `column + sum` as SQL: the column alone when the sum is empty. */
export function plusSql(column: string, sum: Sum): string {
  return sum.map((t) => ` ${t.sign < 0 ? "-" : "+"} ${t.sql}`).reduce((acc, t) => acc + t, column);
}

/**
 * The `entries` rows of an operation, one per side whose numbers change, in written order; `id` is
 * the SQL of the side's account id. Sides that name one account are not summed: one side's change is
 * a single amount, which always fits a `bigint`, where two added could pass 2⁶³ − 1 before the bounds
 * have refused the call or the sides have taken back what they put in.
 */
export function entriesInsert(
  s: string,
  t: Transfer,
  op: MovingOp,
  rows: readonly { readonly id: string; readonly delta: Delta }[],
): string {
  assert(rows.length > 0, "a transfer has a move, and a move two sides");
  const values = rows.map((r) =>
    `(${r.id}, ${sumSql(r.delta.posted)}, ${sumSql(r.delta.heldIn)}, ${sumSql(r.delta.heldOut)})`
  ).join(",\n             ");
  return `insert into ${s}.entries (tenant, account, kind, op, key, posted, held_in, held_out, at)
    select p_tenant, x.account, ${lit(t.name)}, ${lit(op)}, v_key, x.posted, x.held_in, x.held_out, v_now
      from (values ${values})
      as x (account, posted, held_in, held_out)
     where x.posted <> 0 or x.held_in <> 0 or x.held_out <> 0`;
}
