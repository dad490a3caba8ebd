/**
 * The lifecycle of a hold (docs/design/chobo.md#holds) as one table of data. `chobo api` writes every
 * pending transfer's state machine from it, and dandori reads the same machine; `tests/chobo/api_test.ts`
 * drives the reference interpreter through every row, so the table cannot drift from what `Ledger` does.
 *
 * Where the design's table is words, the rows read it so:
 * - The states are the four a hold has. Its last row, "no hold" (`no_such_hold`), is not a state:
 *   a machine starts at `held` (the hold is what starts a dandori case), so no event reaches "no
 *   hold". `no_such_hold` stays among the refusals of `post` and `void` (refusals.ts).
 * - `held` × `post` and `held` × `void` end the hold. "Refused `expired` once the expiry is
 *   reached" is the row `held` × `expire` coming first: the interpreter expires a hold at the
 *   moment the clock reaches its expiry (docs/design/chobo.md#time-and-expiry), so a hold past its
 *   expiry is already `expired`.
 * - `posted` × `post` is refused with `key_conflict`, and `sameContent` says the call with the
 *   content that posted the hold answers `done_before` instead (docs/design/chobo.md#keys-and-content).
 *   A machine cannot tell two contents apart, so the row keeps the answer that changes nothing for
 *   any content.
 * - Refusals that depend on the amounts rather than the state (`over_hold`) are not rows: the
 *   table's cells do not name them, and they stay among the operation's refusals.
 * - `expire` on an ended hold ("—" in the table) is a row that stays and is not refused: the clock
 *   passing an ended hold changes nothing (`Ledger.pass`), and the table stays complete over
 *   state × event, one row per pair.
 * - Rows run state by state, events in the table's column order; a hold that never expires has no
 *   `expire` rows.
 * @module
 */

import type { HoldState } from "./interp.ts";
import type { BuiltinReason } from "./resolve.ts";

/** The states of a hold, in the table's order. */
export const HOLD_STATES = ["held", "posted", "voided", "expired"] as const satisfies readonly HoldState[];

/** Where every hold starts: a `hold` that is done. */
export const HOLD_INITIAL: HoldState = "held";

/** The states a hold ends in: none of them changes again. */
export const HOLD_FINALS = ["posted", "voided", "expired"] as const satisfies readonly HoldState[];

/** What may happen to a hold: the caller's `post` and `void`, and the clock's `expire`. */
export const HOLD_EVENTS = ["post", "void", "expire"] as const;

/** One event of a hold's lifecycle. */
export type HoldEvent = typeof HOLD_EVENTS[number];

/** The events no caller sends: the clock raises them (P7). */
export const EXTERNAL_EVENTS: readonly HoldEvent[] = ["expire"];

/**
 * One row of the hold table: in `state`, `event` leads to `next` (or stays), refused with a reason or not.
 */
export interface HoldRow {
  readonly state: HoldState;
  readonly event: HoldEvent;
  /** The state after the event; null when the hold stays in `state`. */
  readonly next: HoldState | null;
  /** The reason the operation is refused with; null when it is not refused. */
  readonly refused: BuiltinReason | null;
  /**
   * The answer instead of the refusal when the call's content equals the content that ended the
   * hold (docs/design/chobo.md#keys-and-content); null when the content does not matter.
   */
  readonly sameContent: "done_before" | null;
}

function row(
  state: HoldState,
  event: HoldEvent,
  next: HoldState | null,
  refused: BuiltinReason | null,
  sameContent: "done_before" | null = null,
): HoldRow {
  return { state, event, next, refused, sameContent };
}

const ROWS: readonly HoldRow[] = [
  row("held", "post", "posted", null),
  row("held", "void", "voided", null),
  row("held", "expire", "expired", null),
  row("posted", "post", null, "key_conflict", "done_before"),
  row("posted", "void", null, "already_posted"),
  row("posted", "expire", null, null),
  row("voided", "post", null, "already_voided"),
  // A second void of a voided hold is done before: void has no content to differ in.
  row("voided", "void", null, null),
  row("voided", "expire", null, null),
  row("expired", "post", null, "expired"),
  row("expired", "void", null, "expired"),
  row("expired", "expire", null, null),
];

/** The rows of the hold table for a hold that expires, or without the `expire` rows for `never expires`. */
export function holdTable(expires: boolean): HoldRow[] {
  return ROWS.filter((r) => expires || r.event !== "expire");
}

/** The events of a hold that expires, or of one that never does. */
export function holdEvents(expires: boolean): HoldEvent[] {
  return HOLD_EVENTS.filter((e) => expires || e !== "expire");
}
