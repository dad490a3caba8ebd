/**
 * Reading TigerBeetle's answers into chobo's results (docs/targets.md#results). 0.17.9
 * answers every event of a request; a chain's result is decided by its first transfer whose
 * result is neither `created` nor `linked_event_failed`:
 *
 * | that result                                                        | chobo's result                      |
 * |--------------------------------------------------------------------|-------------------------------------|
 * | none (every one `created`)                                         | `done`                              |
 * | `exists` on the first transfer                                     | `done_before`                       |
 * | `exists_with_different_*`                                          | `key_conflict`                      |
 * | `exists` on a later transfer                                       | `key_conflict`                      |
 * | `id_already_failed`                                                | `already_refused`                   |
 * | `exceeds_credits` on `move`, `probe`, `from_floor`                 | the lower bound's reason of `from`  |
 * | `exceeds_credits` on `to_room`                                     | the upper bound's reason of `to`    |
 * | `accounts_must_be_different`                                       | `same_account`                      |
 * | `pending_transfer_already_posted` / `_already_voided` / `_expired` | `already_posted` / `already_voided` / `expired` |
 * | `exceeds_pending_transfer_amount`                                  | `over_hold`                         |
 * | anything else                                                      | failed: a bug in chobo's client     |
 *
 * The status chain is read by its pair of results (`statusOf`), and a post over the hold answers
 * from that status (`overHoldOutcome`). Accounts and openings answer `created` or `exists`; any
 * `exists_with_different_*` means the book's account definition or bound changed
 * (docs/design/chobo.md#versions-of-a-book), an error rather than a refusal.
 * @module
 */

import { type Call, type HoldState, type Outcome, refused } from "../../../lang/chobo/interp.ts";
import { unreachable } from "../../../lang/common/assert.ts";
import { type Text, tr } from "../../../lang/common/text.ts";
import type { AccountEvent, ChainEntry, TbTransfer } from "./chain.ts";
import { accountWhatText } from "./labels.ts";

/** A result of `create_accounts` or `create_transfers`, by the name 0.17.9 gives it. */
export type TbResult = string;

function failed(why: Text): Outcome {
  return { kind: "failed", why };
}

function unexpected(what: string, results: readonly TbResult[]): Text {
  const list = results.join(", ");
  return tr(
    `TigerBeetle answered ${what} with ${list}, which chobo's client does not expect (a bug in the client)`,
    `TigerBeetle が ${what} に ${list} と答えました。chobo のクライアントが想定していない答えです(クライアントの誤り)`,
  );
}

/** The reason `exceeds_credits` on a chain transfer stands for, or null where no bound is checked. */
function boundReason(call: Call, e: ChainEntry): string | null {
  if (e.move === null) return null;
  const m = call.transfer.moves[e.move - 1];
  switch (e.role) {
    case "move":
    case "probe":
    case "from_floor":
      return m.from.account.lower?.reason ?? null;
    case "to_room":
      return m.to.account.upper?.reason ?? null;
    case "probe_void":
    case "from_room":
    case "to_floor":
    case "status_void":
    case "status_refusal":
      return null;
    default:
      return unreachable(e.role, "chain role");
  }
}

/** The result of one operation's chain from its per-transfer results (the module's table). */
export function chainOutcome(
  call: Call,
  chain: readonly ChainEntry[],
  results: readonly TbResult[],
): Outcome {
  const what = `${call.transfer.name}.${call.op}`;
  if (results.length !== chain.length) return failed(unexpected(what, results));
  const i = results.findIndex((r) => r !== "created" && r !== "linked_event_failed");
  if (i < 0) {
    return results.every((r) => r === "created") ? { kind: "done" } : failed(unexpected(what, results));
  }
  const r = results[i];
  if (r === "exists") return i === 0 ? { kind: "done_before" } : refused("key_conflict");
  if (r.startsWith("exists_with_different_")) return refused("key_conflict");
  switch (r) {
    case "id_already_failed":
      return refused("already_refused");
    case "exceeds_credits": {
      const reason = boundReason(call, chain[i]);
      return reason === null ? failed(unexpected(what, results)) : { kind: "refused", reason, at: null };
    }
    case "accounts_must_be_different":
      return refused("same_account");
    case "pending_transfer_already_posted":
      return refused("already_posted");
    case "pending_transfer_already_voided":
      return refused("already_voided");
    case "pending_transfer_expired":
      return refused("expired");
    case "exceeds_pending_transfer_amount":
      return refused("over_hold");
  }
  return failed(unexpected(what, results));
}

/** A hold's state read by the status chain: the state, null when there is no hold, or why not. */
export type StatusRead = { readonly state: HoldState | null } | { readonly failed: Text };

/**
 * The two results 0.17.9 gave the status chain for each state of a hold (record (q) of
 * docs/design/chobo.md#what-tigerbeetle-answered).
 */
const STATUS_RESULTS: readonly [string, string, HoldState | null][] = [
  ["linked_event_failed", "accounts_must_be_different", "held"],
  ["pending_transfer_already_posted", "linked_event_failed", "posted"],
  ["pending_transfer_already_voided", "linked_event_failed", "voided"],
  ["pending_transfer_expired", "linked_event_failed", "expired"],
  ["pending_transfer_not_found", "linked_event_failed", null],
];

/** The state a status chain's results say. */
export function statusOf(results: readonly TbResult[]): StatusRead {
  const row = STATUS_RESULTS.find(([a, b]) => results.length === 2 && results[0] === a && results[1] === b);
  return row === undefined ? { failed: unexpected("the status chain", results) } : { state: row[2] };
}

/**
 * A post over the hold answers by the hold's state, as the reference interpreter checks the state
 * first (docs/design/chobo.md#order-of-checks): held → `over_hold`, posted → `key_conflict`,
 * voided → `already_voided`, expired → `expired`. A hold read before cannot be gone.
 */
export function overHoldOutcome(read: StatusRead): Outcome {
  if ("failed" in read) return failed(read.failed);
  switch (read.state) {
    case "held":
      return refused("over_hold");
    case "posted":
      return refused("key_conflict");
    case "voided":
      return refused("already_voided");
    case "expired":
      return refused("expired");
    case null:
      return failed(
        tr(
          "the hold read before the post is not there any more",
          "確定の前に読んだ仮押さえが無くなっています",
        ),
      );
  }
}

/** Why creating accounts did not go as it must, or null when each is `created` or `exists`. */
export function accountsFailure(events: readonly AccountEvent[], results: readonly TbResult[]): Text | null {
  if (results.length !== events.length) return unexpected("create_accounts", results);
  for (const [i, r] of results.entries()) {
    if (r === "created" || r === "exists") continue;
    const name = accountWhatText(events[i].what);
    if (r.startsWith("exists_with_different_")) {
      const field = r.slice("exists_with_different_".length);
      return tr(
        `the TigerBeetle account of ${name.en} exists with different ${field}: the book's account definition changed (docs/targets.md#changing-a-book); make a new account kind instead`,
        `${name.ja} の TigerBeetle の勘定が、違う ${field} で既にあります。帳簿の勘定の定義が変わっています(docs/targets.md#changing-a-book)。新しい名前の勘定の種類を作ってください`,
      );
    }
    return unexpected(`create_accounts (${name.en})`, [r]);
  }
  return null;
}

/** Why sending openings did not go as it must, or null when each is `created` or `exists`. */
export function openingsFailure(
  openings: readonly TbTransfer[],
  accounts: readonly AccountEvent[],
  results: readonly TbResult[],
): Text | null {
  if (results.length !== openings.length) return unexpected("the openings", results);
  for (const [i, r] of results.entries()) {
    if (r === "created" || r === "exists") continue;
    const of = accounts.find((a) => a.event.id === openings[i].credit_account_id);
    const name = of === undefined ? tr("an account", "勘定") : accountWhatText(of.what);
    if (r === "exists_with_different_amount") {
      return tr(
        `the opening of ${name.en} exists with another amount: the book's bound changed (docs/targets.md#changing-a-book); make a new account kind instead`,
        `${name.ja} の開始の振替が、違う額で既にあります。帳簿の境界が変わっています(docs/targets.md#changing-a-book)。新しい名前の勘定の種類を作ってください`,
      );
    }
    return unexpected(`the opening of ${name.en}`, [r]);
  }
  return null;
}
