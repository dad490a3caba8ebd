/**
 * A TEST DOUBLE of TigerBeetle — NOT TigerBeetle, and never to be presented as it. A small
 * in-memory model that answers `create_accounts`, `create_transfers` and `lookup_transfers`
 * exactly as the records of docs/design/chobo.md#what-tigerbeetle-answered say 0.17.9 answered, with a
 * clock the test moves.
 * Nothing here was measured against a server; where the records say nothing, the double throws
 * instead of guessing (a malformed event is a bug in chobo's chains, and the tests must see it).
 *
 * Every behaviour cites the record it reproduces, (a) to (r) of that page. Where a behaviour follows
 * from TigerBeetle's data model rather than a record (a pending amount counts against
 * `debits_must_not_exceed_credits`), the section of docs/design/chobo.md that states the model is cited.
 * @module
 */

import type { TbAccount, TbTransfer } from "../../targets/chobo/tigerbeetle/chain.ts";
import type { TigerBeetleRequests } from "../../targets/chobo/tigerbeetle/client.ts";
import type { TbResult } from "../../targets/chobo/tigerbeetle/results.ts";

/** TigerBeetle's `amount_max`: a post of it posts the whole pending amount (record (f)). */
export const AMOUNT_MAX = (1n << 128n) - 1n;
const ID_MAX = (1n << 128n) - 1n;

/** An account's four sums. */
export interface Sums {
  readonly debits_pending: bigint;
  readonly debits_posted: bigint;
  readonly credits_pending: bigint;
  readonly credits_posted: bigint;
}

type StoredAccount = TbAccount & Sums;
type StoredTransfer = TbTransfer & { readonly createdMs: bigint };
type Ending = "posted" | "voided" | "expired";

/** The state a chain works on; copied per chain so that a broken chain leaves nothing (record (i)). */
interface State {
  accounts: Map<bigint, StoredAccount>;
  transfers: Map<bigint, StoredTransfer>;
  endings: Map<bigint, Ending>;
}

function copy(s: State): State {
  return { accounts: new Map(s.accounts), transfers: new Map(s.transfers), endings: new Map(s.endings) };
}

/**
 * Results after which the id can never be used again (`id_already_failed`): a balance refusal
 * (records (c)–(e), (i)), a missing pending transfer (g), a missing account
 * (docs/design/chobo.md#tigerbeetle, "accounts first"). `exceeds_pending_transfer_amount` and
 * `pending_transfer_expired` do not use the id (r), nor does `pending_transfer_already_posted` (g), nor a
 * transfer only rolled back with its chain (i).
 */
const USES_THE_ID = new Set([
  "exceeds_credits",
  "pending_transfer_not_found",
  "debit_account_not_found",
  "credit_account_not_found",
]);

class Malformed extends Error {
  constructor(what: string) {
    super(`the TigerBeetle test double was sent a malformed event: ${what}`);
  }
}

/** The in-memory TigerBeetle test double; see the module's notes. */
export class TigerBeetleDouble implements TigerBeetleRequests {
  private state: State = { accounts: new Map(), transfers: new Map(), endings: new Map() };
  private readonly usedByFailure = new Set<bigint>();
  private nowMs = 0n;

  /**
   * Moves the clock. Holds past their timeout are given back as the clock passes them, as
   * TigerBeetle does by itself (record (h)); the double gives them back at once, which is
   * what the differential tests wait for (docs/design/chobo.md#time-and-expiry).
   */
  advance(seconds: bigint): void {
    this.advanceMs(seconds * 1000n);
  }

  /** `advance` in milliseconds (record (h) posts 1.05 s after a 1 s hold). */
  advanceMs(ms: bigint): void {
    this.nowMs += ms;
    const s = this.state;
    for (const t of s.transfers.values()) {
      if (!t.flags.includes("pending") || s.endings.has(t.id) || !this.pastTimeout(t)) continue;
      this.release(s, t);
      s.endings.set(t.id, "expired");
    }
  }

  /** An account with its sums, or null when it was never created (what `lookup_accounts` would read). */
  sums(id: bigint): (TbAccount & Sums) | null {
    return this.state.accounts.get(id) ?? null;
  }

  createAccounts(events: readonly TbAccount[]): Promise<TbResult[]> {
    return Promise.resolve(events.map((a) => this.createAccount(a)));
  }

  /** Runs the events in order; a chain of `linked` events is all or nothing (records (i), (p)). */
  createTransfers(events: readonly TbTransfer[]): Promise<TbResult[]> {
    const results: TbResult[] = [];
    let start = 0;
    while (start < events.length) {
      let end = start;
      while (end < events.length && events[end].flags.includes("linked")) end++;
      if (end === events.length) throw new Malformed("the last event is linked (a chain left open)");
      const chain = events.slice(start, end + 1);
      const draft = copy(this.state);
      let failedAt = -1;
      let failure = "";
      for (const [i, t] of chain.entries()) {
        const r = this.createTransfer(draft, t);
        if (r !== "created") {
          failedAt = i;
          failure = r;
          break;
        }
      }
      if (failedAt < 0) {
        this.state = draft;
        results.push(...chain.map(() => "created"));
      } else {
        // Every other transfer of a broken chain, before or after, is linked_event_failed (i),
        // and `exists` breaks a chain like any result but `created` (p).
        results.push(...chain.map((_, i) => i === failedAt ? failure : "linked_event_failed"));
        if (USES_THE_ID.has(failure)) this.usedByFailure.add(chain[failedAt].id);
      }
      start = end + 1;
    }
    return Promise.resolve(results);
  }

  /**
   * The stored transfers of the ids that exist, in the order asked (holds never vanish:
   * docs/design/chobo.md#tigerbeetle).
   */
  lookupTransfers(ids: readonly bigint[]): Promise<TbTransfer[]> {
    return Promise.resolve(ids.flatMap((id) => {
      const t = this.state.transfers.get(id);
      if (t === undefined) return [];
      const { createdMs: _, ...transfer } = t;
      return [transfer];
    }));
  }

  private createAccount(a: TbAccount): TbResult {
    if (a.id === 0n || a.id === ID_MAX) throw new Malformed(`account id ${a.id}`);
    if (a.ledger === 0 || a.code === 0) throw new Malformed(`account ${a.id} without a ledger or code`);
    if (a.flags.some((f) => f !== "debits_must_not_exceed_credits")) {
      throw new Malformed(
        `account flags ${a.flags.join(", ")} (chobo sets only debits_must_not_exceed_credits)`,
      );
    }
    const e = this.state.accounts.get(a.id);
    if (e !== undefined) {
      // The same account again is `exists`; another flag is `exists_with_different_flags` (record (m)).
      if (a.flags.join() !== e.flags.join()) return "exists_with_different_flags";
      for (const f of ["user_data_128", "user_data_64", "user_data_32", "ledger", "code"] as const) {
        if (a[f] !== e[f]) return `exists_with_different_${f}`;
      }
      return "exists";
    }
    this.state.accounts.set(a.id, {
      ...a,
      debits_pending: 0n,
      debits_posted: 0n,
      credits_pending: 0n,
      credits_posted: 0n,
    });
    return "created";
  }

  private pastTimeout(t: StoredTransfer): boolean {
    // The deadline itself is already expired, as the interpreter counts it
    // (docs/design/chobo.md#time-and-expiry; TigerBeetle's count of the exact deadline is not measured,
    // docs/design/chobo.md#tigerbeetle).
    return t.timeout > 0 && t.createdMs + BigInt(t.timeout) * 1000n <= this.nowMs;
  }

  private createTransfer(s: State, t: TbTransfer): TbResult {
    if (t.id === 0n || t.id === ID_MAX) throw new Malformed(`transfer id ${t.id}`);
    // An id refused before answers id_already_failed, whatever the content (records (d), (e), (g), (i)).
    if (this.usedByFailure.has(t.id)) return "id_already_failed";
    const post = t.flags.includes("post_pending_transfer");
    const void_ = t.flags.includes("void_pending_transfer");
    if (post || void_) return this.settle(s, t, post);
    if (t.debit_account_id === 0n || t.credit_account_id === 0n) {
      throw new Malformed(`transfer ${t.id} without accounts`);
    }
    // A transfer from an account to itself is refused before anything else is looked at (record (q)).
    if (t.debit_account_id === t.credit_account_id) return "accounts_must_be_different";
    if (t.pending_id !== 0n) {
      throw new Malformed(`transfer ${t.id}: pending_id on a transfer that settles nothing`);
    }
    const pending = t.flags.includes("pending");
    if (!pending && t.timeout !== 0) throw new Malformed(`transfer ${t.id}: timeout without pending`);
    if (t.ledger === 0 || t.code === 0) throw new Malformed(`transfer ${t.id} without a ledger or code`);
    if (t.flags.some((f) => f !== "linked" && f !== "pending")) {
      throw new Malformed(`transfer ${t.id}: flags ${t.flags.join(", ")}`);
    }
    // A transfer naming an account that is not there is refused (docs/design/chobo.md#tigerbeetle, "accounts
    // first").
    const dr = s.accounts.get(t.debit_account_id);
    if (dr === undefined) return "debit_account_not_found";
    const cr = s.accounts.get(t.credit_account_id);
    if (cr === undefined) return "credit_account_not_found";
    if (dr.ledger !== t.ledger || cr.ledger !== t.ledger) {
      throw new Malformed(`transfer ${t.id} across ledgers`);
    }
    const e = s.transfers.get(t.id);
    if (e !== undefined) return existsResult(t, e);
    // debits_must_not_exceed_credits counts the pending debits too, never pending credits
    // (docs/design/chobo.md#bounds; records (b)–(c), (j), (k), (l)).
    if (
      dr.flags.includes("debits_must_not_exceed_credits") &&
      dr.debits_pending + dr.debits_posted + t.amount > dr.credits_posted
    ) {
      return "exceeds_credits";
    }
    this.put(
      s,
      t.debit_account_id,
      (a) =>
        pending
          ? { ...a, debits_pending: a.debits_pending + t.amount }
          : { ...a, debits_posted: a.debits_posted + t.amount },
    );
    this.put(
      s,
      t.credit_account_id,
      (a) =>
        pending
          ? { ...a, credits_pending: a.credits_pending + t.amount }
          : { ...a, credits_posted: a.credits_posted + t.amount },
    );
    s.transfers.set(t.id, { ...t, createdMs: this.nowMs });
    return "created";
  }

  /** A post or void of a pending transfer. */
  private settle(s: State, t: TbTransfer, post: boolean): TbResult {
    if (t.pending_id === 0n || t.pending_id === t.id) {
      throw new Malformed(`settling transfer ${t.id}: pending_id`);
    }
    if (
      t.flags.some((f) => f !== "linked" && f !== "post_pending_transfer" && f !== "void_pending_transfer")
    ) {
      throw new Malformed(`settling transfer ${t.id}: flags ${t.flags.join(", ")}`);
    }
    if (t.flags.includes("post_pending_transfer") && t.flags.includes("void_pending_transfer")) {
      throw new Malformed(`transfer ${t.id} both posts and voids`);
    }
    if (t.timeout !== 0) throw new Malformed(`settling transfer ${t.id} with a timeout`);
    // A settled id sent again is compared before the pending transfer's amount or state: after a
    // full post only the held amount and amount_max are `exists` (record (f)), after a partial
    // one only the same amount (n), and a settled chain sent again is `exists` (p).
    const e = s.transfers.get(t.id);
    if (e !== undefined) return settledExistsResult(t, e, s.transfers.get(e.pending_id)!);
    // No such pending transfer: refused, and the id is used (record (g)).
    const p = s.transfers.get(t.pending_id);
    if (p === undefined) return "pending_transfer_not_found";
    if (!p.flags.includes("pending")) {
      throw new Malformed(`transfer ${t.id} settles ${p.id}, which is not pending`);
    }
    for (const f of ["debit_account_id", "credit_account_id", "ledger", "code"] as const) {
      if (t[f] !== 0 && t[f] !== 0n && t[f] !== p[f]) {
        throw new Malformed(`transfer ${t.id}: ${f} differs from ${p.id}`);
      }
    }
    // The amount is checked before the state: more than held is refused whatever the state (record (r)).
    if (post && t.amount !== AMOUNT_MAX && t.amount > p.amount) return "exceeds_pending_transfer_amount";
    if (!post && t.amount !== 0n && t.amount !== p.amount) {
      throw new Malformed(`void ${t.id} of another amount`);
    }
    const ending = s.endings.get(p.id);
    // A posted hold refuses a void again and again (records (g), (p)); a voided one a post (q).
    if (ending === "posted") return "pending_transfer_already_posted";
    if (ending === "voided") return "pending_transfer_already_voided";
    // Past its timeout a hold is expired, even before it is given back (records (h), (q)).
    if (ending === "expired" || this.pastTimeout(p)) return "pending_transfer_expired";
    const amount = post ? (t.amount === AMOUNT_MAX ? p.amount : t.amount) : p.amount;
    this.release(s, p);
    if (post) {
      this.put(s, p.debit_account_id, (a) => ({ ...a, debits_posted: a.debits_posted + amount }));
      this.put(s, p.credit_account_id, (a) => ({ ...a, credits_posted: a.credits_posted + amount }));
    }
    s.endings.set(p.id, post ? "posted" : "voided");
    s.transfers.set(t.id, {
      ...t,
      debit_account_id: p.debit_account_id,
      credit_account_id: p.credit_account_id,
      ledger: p.ledger,
      code: p.code,
      amount,
      user_data_128: t.user_data_128 === 0n ? p.user_data_128 : t.user_data_128,
      user_data_64: t.user_data_64 === 0n ? p.user_data_64 : t.user_data_64,
      user_data_32: t.user_data_32 === 0 ? p.user_data_32 : t.user_data_32,
      createdMs: this.nowMs,
    });
    return "created";
  }

  /** Gives a pending transfer's amount back to both accounts. */
  private release(s: State, p: StoredTransfer): void {
    this.put(s, p.debit_account_id, (a) => ({ ...a, debits_pending: a.debits_pending - p.amount }));
    this.put(s, p.credit_account_id, (a) => ({ ...a, credits_pending: a.credits_pending - p.amount }));
  }

  private put(s: State, id: bigint, f: (a: StoredAccount) => StoredAccount): void {
    s.accounts.set(id, f(s.accounts.get(id)!));
  }
}

/**
 * A transfer sent again: `exists` when every field is the same (a hold sent again after it
 * expired is `exists` and holds nothing, record (o)), else the first field that differs
 * (`exists_with_different_user_data_128`, record (p)).
 */
function existsResult(t: TbTransfer, e: TbTransfer): TbResult {
  if (t.flags.join() !== e.flags.join()) return "exists_with_different_flags";
  const fields = [
    "debit_account_id",
    "credit_account_id",
    "amount",
    "pending_id",
    "user_data_128",
    "user_data_64",
    "user_data_32",
    "timeout",
    "ledger",
    "code",
  ] as const;
  for (const f of fields) if (t[f] !== e[f]) return `exists_with_different_${f}`;
  return "exists";
}

/** A post or void sent again (see `settle`); fields sent as 0 were taken from the pending transfer. */
function settledExistsResult(t: TbTransfer, e: TbTransfer, p: TbTransfer): TbResult {
  if (t.flags.join() !== e.flags.join()) return "exists_with_different_flags";
  if (t.pending_id !== e.pending_id) return "exists_with_different_pending_id";
  for (const f of ["debit_account_id", "credit_account_id"] as const) {
    if (t[f] !== 0n && t[f] !== e[f]) return `exists_with_different_${f}`;
  }
  const sameAmount = t.amount === e.amount || (t.amount === AMOUNT_MAX && e.amount === p.amount);
  if (!sameAmount) return "exists_with_different_amount";
  if (t.user_data_128 !== 0n && t.user_data_128 !== e.user_data_128) {
    return "exists_with_different_user_data_128";
  }
  if (t.user_data_64 !== 0n && t.user_data_64 !== e.user_data_64) return "exists_with_different_user_data_64";
  if (t.user_data_32 !== 0 && t.user_data_32 !== e.user_data_32) return "exists_with_different_user_data_32";
  for (const f of ["ledger", "code"] as const) {
    if (t[f] !== 0 && t[f] !== e[f]) return `exists_with_different_${f}`;
  }
  return "exists";
}
