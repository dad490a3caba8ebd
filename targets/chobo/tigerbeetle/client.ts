/**
 * The steps of chobo's TigerBeetle client for one call (docs/design/chobo.md#tigerbeetle), over anything that
 * answers TigerBeetle's three requests: what the generated clients do, in TypeScript, so the
 * tests play every scenario through it and `--show tigerbeetle` and a client agree by
 * construction.
 *
 * - `do`, `hold`: a move from and to the same account is `same_account` and sends nothing; then
 *   the accounts and openings not sent before by this client value (in requests of
 *   `MAX_BATCH`), then the chain in one request.
 * - `post`, `void`: `lookup_transfers` of the hold's move transfers; nothing there is
 *   `no_such_hold` and sends nothing more; a post over the hold sends the status chain;
 *   otherwise the post or void chain.
 * @module
 */

import { type Call, keyValues, type Outcome, refused } from "../../../lang/chobo/interp.ts";
import type { Book, Transfer } from "../../../lang/chobo/model.ts";
import {
  heldAmounts,
  holdLookups,
  moveSends,
  requests,
  settleSends,
  statusChain,
  type TbAccount,
  type TbTransfer,
} from "./chain.ts";
import { lowerChains, type TbPlan } from "./plan.ts";
import {
  accountsFailure,
  chainOutcome,
  openingsFailure,
  overHoldOutcome,
  statusOf,
  type StatusRead,
  type TbResult,
} from "./results.ts";

/** The three requests of TigerBeetle the client uses; every create answers each event. */
export interface TigerBeetleRequests {
  createAccounts(events: readonly TbAccount[]): Promise<readonly TbResult[]>;
  createTransfers(events: readonly TbTransfer[]): Promise<readonly TbResult[]>;
  lookupTransfers(ids: readonly bigint[]): Promise<readonly TbTransfer[]>;
}

/** One request as the client sent it. */
export type SentRequest =
  | { readonly kind: "create_accounts"; readonly events: readonly TbAccount[] }
  | { readonly kind: "create_transfers"; readonly events: readonly TbTransfer[] }
  | { readonly kind: "lookup_transfers"; readonly ids: readonly bigint[] };

const MAX_ID = (1n << 128n) - 1n;

/** A random 128-bit id other than 0 and 2¹²⁸ − 1 (the status chain's ids). */
export function randomId(): bigint {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const n = bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
  return n === 0n || n === MAX_ID ? randomId() : n;
}

/**
 * One book value on TigerBeetle (`tigerbeetle(client, { tenant })`, docs/targets.md#postgresql-clients): it
 * remembers the accounts and openings it created, so it sends each once (docs/design/chobo.md#tigerbeetle,
 * "accounts first").
 */
export class TigerBeetleBook {
  private readonly created = new Set<bigint>();
  private readonly plan: TbPlan;
  /** Every request sent, in order. */
  readonly sent: SentRequest[] = [];

  constructor(
    private readonly tb: TigerBeetleRequests,
    private readonly book: Book,
    private readonly tenant: string,
    private readonly random: () => bigint = randomId,
  ) {
    this.plan = lowerChains(book);
  }

  /** Runs one operation. */
  call(call: Call): Promise<Outcome> {
    return call.op === "do" || call.op === "hold" ? this.move(call) : this.settle(call);
  }

  /** The state of a hold, by the status chain. */
  async status(t: Transfer, key: readonly string[]): Promise<StatusRead> {
    const chain = statusChain(this.plan, this.tenant, t, key, [this.random(), this.random()]);
    return statusOf(this.plan, await this.createTransfers(chain.map((e) => e.transfer)));
  }

  private async move(call: Call): Promise<Outcome> {
    const sends = moveSends(this.plan, this.tenant, call);
    if (sends === null) return refused("same_account");
    const accounts = sends.accounts.filter((a) => !this.created.has(a.event.id));
    for (const batch of requests(accounts)) {
      const events = batch.map((a) => a.event);
      this.sent.push({ kind: "create_accounts", events });
      const why = accountsFailure(batch, await this.tb.createAccounts(events));
      if (why !== null) return { kind: "failed", why };
      for (const e of events) this.created.add(e.id);
    }
    const openings = sends.openings.filter((o) => !this.created.has(o.id));
    for (const batch of requests(openings)) {
      const why = openingsFailure(batch, sends.accounts, await this.createTransfers(batch));
      if (why !== null) return { kind: "failed", why };
      for (const o of batch) this.created.add(o.id);
    }
    return chainOutcome(
      this.plan,
      call,
      sends.chain,
      await this.createTransfers(sends.chain.map((e) => e.transfer)),
    );
  }

  private async settle(call: Call): Promise<Outcome> {
    const key = keyValues(call);
    const ids = holdLookups(this.plan, this.tenant, call.transfer, key);
    this.sent.push({ kind: "lookup_transfers", ids });
    const held = heldAmounts(ids, await this.tb.lookupTransfers(ids));
    if (held === null) return refused("no_such_hold");
    const { status, chain } = settleSends(this.plan, this.tenant, call, held, [this.random(), this.random()]);
    const results = await this.createTransfers(chain.map((e) => e.transfer));
    return status
      ? overHoldOutcome(this.plan, statusOf(this.plan, results))
      : chainOutcome(this.plan, call, chain, results);
  }

  private createTransfers(events: readonly TbTransfer[]): Promise<readonly TbResult[]> {
    this.sent.push({ kind: "create_transfers", events });
    return this.tb.createTransfers(events);
  }
}
