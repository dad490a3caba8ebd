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
 * | `exceeds_credits`                                                  | the piece's `exceeds_credits` (plan.ts): the lower bound's reason of `from` on `move`, `probe`, `from_floor`, the upper bound's of `to` on `to_room` |
 * | `accounts_must_be_different`                                       | `same_account`                      |
 * | `pending_transfer_already_posted` / `_already_voided` / `_expired` | `already_posted` / `already_voided` / `expired` |
 * | `exceeds_pending_transfer_amount`                                  | `over_hold`                         |
 * | anything else                                                      | failed: a bug in chobo's client     |
 *
 * The refusals, the status pairs and the over-hold answers are the plan's tables (`TbPlan`), which
 * every runtime reads too.
 *
 * The status chain is read by its pair of results (`statusOf`), and a post over the hold answers
 * from that status (`overHoldOutcome`). Accounts and openings answer `created` or `exists`; any
 * `exists_with_different_*` means the book's account definition or bound changed
 * (docs/design/chobo.md#versions-of-a-book), an error rather than a refusal.
 * @module
 */

import { type Call, type HoldState, type Outcome, refused } from "../../../lang/chobo/interp.ts";
import { type Text, tr } from "../../../lang/common/text.ts";
import type { AccountEvent, ChainEntry, TbTransfer } from "./chain.ts";
import { accountWhatText } from "./labels.ts";
import type { TbPlan } from "./plan.ts";

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

/** The result of one operation's chain from its per-transfer results (the module's table). */
export function chainOutcome(
  plan: TbPlan,
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
  if (r === "exceeds_credits") {
    const reason = chain[i].exceeds_credits;
    return reason === null ? failed(unexpected(what, results)) : { kind: "refused", reason, at: null };
  }
  const reason = plan.refusals[r];
  return reason === undefined ? failed(unexpected(what, results)) : { kind: "refused", reason, at: null };
}

/** A hold's state read by the status chain: the state, null when there is no hold, or why not. */
export type StatusRead = { readonly state: HoldState | null } | { readonly failed: Text };

/** The state a status chain's results say. */
export function statusOf(plan: TbPlan, results: readonly TbResult[]): StatusRead {
  const row = plan.status.find(([a, b]) => results.length === 2 && results[0] === a && results[1] === b);
  return row === undefined ? { failed: unexpected("the status chain", results) } : { state: row[2] };
}

/**
 * A post over the hold answers by the hold's state, as the reference interpreter checks the state
 * first (docs/design/chobo.md#order-of-checks): held → `over_hold`, posted → `key_conflict`,
 * voided → `already_voided`, expired → `expired`. A hold read before cannot be gone.
 */
export function overHoldOutcome(plan: TbPlan, read: StatusRead): Outcome {
  if ("failed" in read) return failed(read.failed);
  if (read.state === null) {
    return failed(
      tr(
        "the hold read before the post is not there any more",
        "確定の前に読んだ仮押さえが無くなっています",
      ),
    );
  }
  return { kind: "refused", reason: plan.over_hold[read.state], at: null };
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
