/**
 * The book port (docs/design/dandori.md#books, docs/design/chobo.md#what-other-tools-read): what a flow
 * reads of a `.book`, read in process through chobo's own checker: units as the unit types of dandori (the
 * table of docs/design/chobo.md#units-and-amounts),
 * accounts with their bounds, transfers with their parameters, key, moves and expiry, the reasons
 * each operation may be refused with, and the hold state machine of every transfer that holds.
 * @module
 */

import type { Diagnostic } from "../common/diagnostic.ts";
import { checkBookBytes } from "../chobo/check.ts";
import { HOLD_FINALS, HOLD_INITIAL, HOLD_STATES, holdEvents, holdTable } from "../chobo/holds.ts";
import type { OpName } from "../chobo/interp.ts";
import type { Account, Book, Transfer, Unit } from "../chobo/model.ts";
import type { OpRefusals } from "../chobo/refusals.ts";
import type { BuiltinReason } from "../chobo/resolve.ts";
import type { Machine } from "./machine.ts";
import { unitOf } from "./units.ts";

/** A book's unit as dandori sees it: the unit type it counts in, or a count only itself has. */
export interface BookUnit {
  readonly name: string;
  readonly tax: string | null;
  /** The id of the dandori unit it is (`money:JPY:1/1` for `JPY` and `円`), or null for a plain count. */
  readonly unitId: string | null;
  /** That unit as a dandori type is written (`money[JPY, incl_tax]`), or null for a plain count. */
  readonly spelling: string | null;
}

/** A bound of an account, and the reason a move that breaks it is refused with. */
export interface BookBound {
  readonly value: bigint;
  readonly reason: string;
}

/** A kind of account: its parameters, unit, whether it is outside the book, and its bounds. */
export interface BookAccount {
  readonly name: string;
  readonly params: readonly string[];
  readonly unit: BookUnit;
  readonly outside: boolean;
  readonly lower: BookBound | null;
  readonly upper: BookBound | null;
}

/** A parameter of a transfer: a string, or an amount of a unit. */
export interface BookParam {
  readonly name: string;
  readonly amount: BookUnit | null;
}

/** A transfer as dandori calls it. */
export interface BookTransfer {
  readonly name: string;
  readonly params: readonly BookParam[];
  readonly key: readonly string[];
  /** The accounts each move takes from and puts into, in the moves' order. */
  readonly moves: readonly { readonly from: string; readonly to: string }[];
  /** Null for a transfer done at once; else its expiry in seconds, or "never". */
  readonly pending: bigint | "never" | null;
  /** `do`, or `hold`, `post` and `void`. */
  readonly ops: readonly OpName[];
  /** Every reason each operation may be refused with (the names a task may declare). */
  readonly reasons: ReadonlyMap<OpName, readonly string[]>;
  /** The hold state machine of a pending transfer (docs/design/chobo.md#holds). */
  readonly machine: Machine | null;
}

/** A book read through the port. */
export interface BookPort {
  /** The book as chobo checked it: `--books computed` runs its operations on chobo's interpreter. */
  readonly chobo: Book;
  readonly name: string;
  readonly version: number;
  readonly units: readonly BookUnit[];
  readonly accounts: readonly BookAccount[];
  readonly transfers: readonly BookTransfer[];
}

/**
 * The reasons chobo decides per operation, beside the bounds' own (docs/design/chobo.md#refusal-reasons);
 * `expired` only for a transfer whose holds expire.
 */
function fixedReasons(op: OpName, expires: boolean): BuiltinReason[] {
  const expired: BuiltinReason[] = expires ? ["expired"] : [];
  switch (op) {
    case "do":
    case "hold":
      return ["key_conflict", "already_refused", "same_account"];
    case "post":
      return ["key_conflict", "already_voided", ...expired, "over_hold", "no_such_hold"];
    case "void":
      return ["already_posted", ...expired, "no_such_hold"];
  }
}

/**
 * The unit type of a chobo unit (docs/design/chobo.md#units-and-amounts): a currency at scale 0 or its
 * hundredth, a table unit, or a count.
 */
function bookUnit(u: Unit): BookUnit {
  const spelled = (dimension: string, unit: string) => {
    const t = unitOf({ dimension, unit, step: null, tax: dimension === "money" ? u.tax : null });
    return "id" in t ? t : null;
  };
  let found = null;
  if (u.scale === 0) {
    found = spelled("money", u.name);
    for (const d of ["mass", "length", "area", "volume", "time"]) found ??= spelled(d, u.name);
  } else if (u.scale === 2 && u.name !== "円" && u.name !== "JPY") {
    found = spelled("money", `${u.name}c`);
  }
  return { name: u.name, tax: u.tax, unitId: found?.id ?? null, spelling: found?.spelling ?? null };
}

function machineOf(book: Book, t: Transfer): Machine | null {
  if (t.pending === null) return null;
  const expires = t.pending.expires === "after";
  return {
    name: `${book.name}.${t.name}`,
    states: [...HOLD_STATES],
    initial: HOLD_INITIAL,
    finals: [...HOLD_FINALS],
    events: holdEvents(expires),
    external: expires ? ["expire"] : [],
    // A post of a posted hold with the same content answers done_before
    // (docs/design/chobo.md#keys-and-content): a flow posts its own hold again only with what it held, so the
    // row reads as done, not refused.
    rows: holdTable(expires).map((r) => ({
      state: r.state,
      event: r.event,
      next: r.next,
      refused: r.sameContent === null ? r.refused : null,
    })),
  };
}

/** The states a hold can reach from where it starts; a hold that never expires never reaches `expired`. */
function reachable(m: Machine): string[] {
  const out = [m.initial];
  for (let i = 0; i < out.length; i++) {
    for (const r of m.rows) {
      if (r.state === out[i] && r.refused === null && r.next !== null && !out.includes(r.next)) {
        out.push(r.next);
      }
    }
  }
  return out;
}

function accountOf(a: Account): BookAccount {
  const bound = (b: Account["lower"]) => b === null ? null : { value: b.value, reason: b.reason };
  return {
    name: a.name,
    params: a.params,
    unit: bookUnit(a.unit),
    outside: a.outside,
    lower: bound(a.lower),
    upper: bound(a.upper),
  };
}

function transferOf(
  book: Book,
  accounts: readonly BookAccount[],
  t: Transfer,
  report: readonly OpRefusals[],
): BookTransfer {
  const ops: OpName[] = t.pending === null ? ["do"] : ["hold", "post", "void"];
  const expires = t.pending !== null && t.pending.expires === "after";
  const machine = machineOf(book, t);
  const moves = t.moves.map((m) => ({ from: m.from.account.name, to: m.to.account.name }));
  const account = (name: string) => accounts.find((a) => a.name === name);
  // A move can break the lower bound of what it takes from and the upper bound of what it fills.
  const bounds = moves.flatMap((m) => [account(m.from)?.lower?.reason, account(m.to)?.upper?.reason])
    .filter((x): x is string => x !== undefined);
  const reasons = new Map<OpName, string[]>();
  for (const op of ops) {
    const found = report.filter((o) => o.transfer === t && o.op === op).flatMap((o) =>
      o.refusals.map((x) => x.reason)
    );
    const live = machine === null ? [] : reachable(machine);
    const rows = machine?.rows.filter((r) => r.event === op && r.refused !== null && live.includes(r.state))
      .map((r) => r.refused!) ?? [];
    const own = op === "do" || op === "hold" ? bounds : [];
    reasons.set(op, [...new Set([...own, ...found, ...rows, ...fixedReasons(op, expires)])]);
  }
  return {
    name: t.name,
    params: t.params.map((p) => ({
      name: p.name,
      amount: p.type.kind === "amount" ? bookUnit(p.type.unit) : null,
    })),
    key: t.key,
    moves,
    pending: t.pending === null ? null : t.pending.expires === "never" ? "never" : t.pending.seconds,
    ops,
    reasons,
    machine,
  };
}

/**
 * Reads a book through chobo's checker. A book that does not pass chobo's check gives its
 * diagnostics instead (dandori says E005 with the first one).
 *
 * @example
 * ```ts
 * const read = readBook("books/stock.book", Deno.readFileSync("books/stock.book"));
 * if ("book" in read) read.book.transfers.map((t) => t.name);
 * ```
 */
export function readBook(path: string, bytes: Uint8Array): { book: BookPort } | { errors: Diagnostic[] } {
  const result = checkBookBytes(path, bytes);
  if (result.book === null || result.report === null) {
    return { errors: result.diagnostics.filter((d) => d.severity === "error") };
  }
  const book = result.book;
  const report = result.report;
  const accounts = book.accounts.map(accountOf);
  return {
    book: {
      chobo: book,
      name: book.name,
      version: book.version,
      units: book.units.map(bookUnit),
      accounts,
      transfers: book.transfers.map((t) => transferOf(book, accounts, t, report)),
    },
  };
}
