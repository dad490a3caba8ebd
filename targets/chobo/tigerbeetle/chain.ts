/**
 * A chain template of `TbPlan` (plan.ts) filled for one call and tenant: the TypeScript side of what
 * each runtime does (ids, arguments, links), so `--show tigerbeetle`, `TigerBeetleBook` (client.ts)
 * and the tests read the very requests a generated client sends. Nothing here decides which
 * transfers a chain has or what they carry: that is the plan's.
 *
 * Ids (docs/targets.md#ids): an account is role `account` over book, tenant, kind and arguments; its
 * floor and room roles `floor` and `room` over its id; a sink role `sink` over book, tenant and
 * unit; an opening role `opening` over its floor's or room's id; a chain's transfer role `transfer`
 * over book, tenant, kind, op, key values and position; `user_data_128` role `content` over book,
 * tenant, kind, op, definition hash and the content as compact JSON; an account's `user_data_128`
 * role `kind` over book, tenant and kind.
 * @module
 */

import { id128 } from "../../../lang/chobo/ids.ts";
import { type Call, keyValues } from "../../../lang/chobo/interp.ts";
import type { Transfer } from "../../../lang/chobo/model.ts";
import { findOne, lookup } from "../../../lang/common/assert.ts";
import { hex32 } from "./ids.ts";
import {
  type AccountFlag,
  type AccountRef,
  type ChainRole,
  FLOOR_MARK,
  MAX_BATCH,
  type PendingSource,
  ROOM_MARK,
  type TbAccountPlan,
  type TbChain,
  type TbOp,
  type TbPlan,
  type TbTransferPlan,
  type TbUnitPlan,
  type TransferFlag,
} from "./plan.ts";

/**
 * An account as `create_accounts` receives it. The balances, `reserved` and `timestamp` are 0 in
 * every event (the cluster owns them) and left out.
 */
export interface TbAccount {
  readonly id: bigint;
  readonly user_data_128: bigint;
  readonly user_data_64: bigint;
  readonly user_data_32: number;
  readonly ledger: number;
  readonly code: number;
  readonly flags: readonly AccountFlag[];
}

/** A transfer as `create_transfers` receives it (`timestamp`, always 0, left out). */
export interface TbTransfer {
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
  readonly flags: readonly TransferFlag[];
}

/** Which chobo account a TigerBeetle account is: a book's account, its floor or room, or a sink. */
export type AccountWhat =
  | {
    readonly kind: "account" | "floor" | "room";
    readonly account: TbAccountPlan;
    readonly args: readonly string[];
  }
  | { readonly kind: "sink"; readonly unit: TbUnitPlan };

/** An account to create, with what it stands for. */
export interface AccountEvent {
  readonly what: AccountWhat;
  readonly event: TbAccount;
}

/** One transfer of a chain, with its role, the move (1-based) it belongs to and its `exceeds_credits` refusal. */
export interface ChainEntry {
  readonly role: ChainRole;
  readonly move: number | null;
  readonly exceeds_credits: string | null;
  readonly transfer: TbTransfer;
}

/** What `do` or `hold` sends: accounts, then openings, each in requests of `MAX_BATCH`, then the chain. */
export interface MoveSends {
  readonly accounts: readonly AccountEvent[];
  readonly openings: readonly TbTransfer[];
  readonly chain: readonly ChainEntry[];
}

/** The plan's transfer kind of a call. */
export function transferPlan(plan: TbPlan, t: Transfer): TbTransferPlan {
  return findOne(plan.transfers, (x) => x.name === t.name, `transfer ${t.name} in the plan`);
}

/** The plan's chain of `op` on `t`. */
export function chainOf(plan: TbPlan, t: Transfer, op: TbOp): TbChain {
  const chain = transferPlan(plan, t).chains[op];
  if (chain === undefined) throw new Error(`${t.name} has no ${op}`);
  return chain;
}

/**
 * The roles of the chain an operation of `t` sends, in order, each with its move (1-based; null for
 * the status chain's second): what `chobo api` writes as `targets.tigerbeetle.chains`.
 */
export function chainRoles(
  plan: TbPlan,
  t: Transfer,
  op: TbOp,
): { readonly role: ChainRole; readonly move: number | null }[] {
  return chainOf(plan, t, op).pieces.map((p) => ({ role: p.role, move: p.move }));
}

/** Events split into requests of at most `limit` (`MAX_BATCH` unless the replica takes more). */
export function requests<T>(events: readonly T[], limit = MAX_BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < events.length; i += limit) out.push(events.slice(i, i + limit));
  return out;
}

/** The ids of one book value (plan and tenant). */
class Ids {
  constructor(readonly plan: TbPlan, readonly tenant: string) {}

  account(a: TbAccountPlan, args: readonly string[]): bigint {
    return id128("account", [this.plan.book, this.tenant, a.name, ...args]);
  }
  sink(u: TbUnitPlan): bigint {
    return id128("sink", [this.plan.book, this.tenant, u.name]);
  }
  transfer(t: TbTransferPlan, op: TbOp, key: readonly string[], position: number): bigint {
    return id128("transfer", [this.plan.book, this.tenant, t.name, op, ...key, String(position)]);
  }
  content(t: TbTransferPlan, op: TbOp, content: string): bigint {
    return id128("content", [this.plan.book, this.tenant, t.name, op, t.definition_hash, content]);
  }
  kind(a: TbAccountPlan): bigint {
    return id128("kind", [this.plan.book, this.tenant, a.name]);
  }
}

function whatOf(plan: TbPlan, ref: AccountRef, args: (name: string) => string): AccountWhat {
  if (ref.kind === "sink") return { kind: "sink", unit: plan.units[ref.unit] };
  return { kind: ref.kind, account: plan.accounts[ref.account], args: ref.args.map(args) };
}

function accountOf(ids: Ids, what: AccountWhat): TbAccount {
  const zero = { user_data_64: 0n };
  if (what.kind === "sink") {
    const u = what.unit;
    return {
      id: ids.sink(u),
      user_data_128: 0n,
      ...zero,
      user_data_32: 0,
      ledger: u.ledger,
      code: u.sink_code,
      flags: [],
    };
  }
  const a = what.account;
  const own = ids.account(a, what.args);
  if (what.kind === "account") {
    return {
      id: own,
      user_data_128: ids.kind(a),
      ...zero,
      user_data_32: 0,
      ledger: a.ledger,
      code: a.code,
      flags: a.flags,
    };
  }
  return {
    id: id128(what.kind, [hex32(own)]),
    user_data_128: own,
    ...zero,
    user_data_32: what.kind === "floor" ? FLOOR_MARK : ROOM_MARK,
    ledger: a.ledger,
    code: a.code,
    flags: ["debits_must_not_exceed_credits"],
  };
}

/** The opening of a floor (−L) or room (U) account: from the sink, keyed by the floor's or room's id. */
function openingOf(ids: Ids, e: AccountEvent): TbTransfer | null {
  const what = e.what;
  if (what.kind !== "floor" && what.kind !== "room") return null;
  const a = what.account;
  const amount = what.kind === "floor" ? a.floor : a.room;
  if (amount === null) throw new Error(`${a.name} has no ${what.kind}`);
  return {
    id: id128("opening", [hex32(e.event.id)]),
    debit_account_id: ids.sink(ids.plan.units[a.unit]),
    credit_account_id: e.event.id,
    amount,
    pending_id: 0n,
    user_data_128: e.event.user_data_128,
    user_data_64: 0n,
    user_data_32: e.event.user_data_32,
    timeout: 0,
    ledger: e.event.ledger,
    code: e.event.code,
    flags: [],
  };
}

/** What fills a template: the call's values and, for a post or void, the amounts it settles. */
interface Filling {
  readonly op: TbOp;
  readonly key: readonly string[];
  readonly content: string;
  readonly amount: (source: Exclude<TbChain["pieces"][number]["amount"], { kind: "literal" }>) => bigint;
  readonly account: (ref: AccountRef) => bigint;
  readonly random: () => bigint;
}

/** A template filled: ids, amounts, accounts and pending ids. */
function fill(ids: Ids, t: TbTransferPlan, chain: TbChain, f: Filling): ChainEntry[] {
  const userData = ids.content(t, f.op, f.content);
  const out: ChainEntry[] = [];
  const pendingOf = (p: PendingSource): bigint => {
    switch (p.kind) {
      case "none":
        return 0n;
      case "piece":
        return out[p.position].transfer.id;
      case "hold":
        return ids.transfer(t, "hold", f.key, p.position);
    }
  };
  chain.pieces.forEach((p, position) => {
    const debit = p.debit === null ? 0n : f.account(p.debit);
    const credit = p.credit === null ? 0n : f.account(p.credit);
    out.push({
      role: p.role,
      move: p.move,
      exceeds_credits: p.exceeds_credits,
      transfer: {
        id: p.id === "random" ? f.random() : ids.transfer(t, f.op, f.key, position),
        debit_account_id: debit,
        credit_account_id: credit,
        amount: p.amount.kind === "literal" ? p.amount.value : f.amount(p.amount),
        pending_id: pendingOf(p.pending),
        user_data_128: p.user_data_128 === "content" ? userData : 0n,
        user_data_64: 0n,
        user_data_32: 0,
        timeout: p.timeout,
        ledger: p.ledger,
        code: p.code,
        flags: p.flags,
      },
    });
  });
  return out;
}

function valueOf(call: Call, name: string): string | bigint {
  return call.strings.get(name) ?? lookup(call.amounts, name, `argument of ${call.transfer.name}.${call.op}`);
}

/**
 * What a `do` or `hold` call sends, with the tenant; null when a move's from and to are the same
 * account, which the client answers `same_account` without sending anything
 * (docs/design/chobo.md#order-of-checks).
 */
export function moveSends(plan: TbPlan, tenant: string, call: Call): MoveSends | null {
  const ids = new Ids(plan, tenant);
  const t = transferPlan(plan, call.transfer);
  const op = call.op;
  if (op !== "do" && op !== "hold") throw new Error(`${op} is not a do or hold`);
  const arg = (name: string) => String(valueOf(call, name));
  const idOf = (ref: AccountRef) => accountOf(ids, whatOf(plan, ref, arg)).id;
  if (t.moves.some((m) => idOf(m.from) === idOf(m.to))) return null;
  const accounts = new Map<bigint, AccountEvent>();
  const account = (ref: AccountRef): bigint => {
    const what = whatOf(plan, ref, arg);
    const event = accountOf(ids, what);
    if (!accounts.has(event.id)) accounts.set(event.id, { what, event });
    return event.id;
  };
  const chain = fill(ids, t, chainOf(plan, call.transfer, op), {
    op,
    key: keyValues(call),
    content: JSON.stringify(t.params.map((p) => arg(p.name))),
    amount: (s) => {
      if (s.kind !== "param") throw new Error(`a ${op} chain settles nothing`);
      return lookup(call.amounts, s.param, "amount argument");
    },
    account,
    random: () => {
      throw new Error(`a ${op} chain has no random id`);
    },
  });
  const events = [...accounts.values()];
  return { accounts: events, openings: events.flatMap((e) => openingOf(ids, e) ?? []), chain };
}

/**
 * The ids a post or void reads with `lookup_transfers` first (docs/design/chobo.md#tigerbeetle,
 * "read before post and void"): the hold's transfer of each move, in move order. The first is the hold's id.
 */
export function holdLookups(plan: TbPlan, tenant: string, t: Transfer, key: readonly string[]): bigint[] {
  const ids = new Ids(plan, tenant);
  const tp = transferPlan(plan, t);
  return tp.lookups.map((position) => ids.transfer(tp, "hold", key, position));
}

/**
 * The amount each move of a hold holds, from what `lookup_transfers` found for `holdLookups`;
 * null when the hold is not there. Throws when only part of a hold is there, which one chain
 * cannot leave.
 */
export function heldAmounts(lookups: readonly bigint[], found: readonly TbTransfer[]): bigint[] | null {
  const byId = new Map(found.map((f) => [f.id, f]));
  if (!byId.has(lookups[0])) return null;
  return lookups.map((id) => {
    const f = byId.get(id);
    if (f === undefined) throw new Error(`the hold's transfer ${id} is missing while the first is there`);
    return f.amount;
  });
}

/** What each move of a post posts: its amount argument in a partial post, else what it holds. */
export function postAmounts(plan: TbPlan, call: Call, held: readonly bigint[]): bigint[] {
  const partial = call.op === "post" && call.amounts.size > 0;
  return transferPlan(plan, call.transfer).moves.map((m, i) =>
    partial && m.amount.kind === "param" ? lookup(call.amounts, m.amount.param, "amount argument") : held[i]
  );
}

/** A post or void chain for the amounts read before (`heldAmounts`). */
export function settleChain(plan: TbPlan, tenant: string, call: Call, held: readonly bigint[]): ChainEntry[] {
  const op = call.op;
  if (op !== "post" && op !== "void") throw new Error(`${op} does not settle a hold`);
  const ids = new Ids(plan, tenant);
  const t = transferPlan(plan, call.transfer);
  const chain = chainOf(plan, call.transfer, op);
  const amounts = op === "post" ? postAmounts(plan, call, held) : [...held];
  return fill(ids, t, chain, {
    op,
    key: keyValues(call),
    content: chain.content === "amounts" ? JSON.stringify(amounts.map(String)) : "[]",
    amount: (s) => {
      if (s.kind !== "settled") throw new Error(`a ${op} chain takes no argument as an amount`);
      return amounts[s.move - 1];
    },
    account: () => {
      throw new Error(`a ${op} chain names no account`);
    },
    random: () => {
      throw new Error(`a ${op} chain has no random id`);
    },
  });
}

/** True when a post asks for more than a move holds: the client reads the status instead. */
export function isOverHold(plan: TbPlan, call: Call, held: readonly bigint[]): boolean {
  return call.op === "post" && postAmounts(plan, call, held).some((a, i) => a > held[i]);
}

/** The status chain of a hold (plan.ts's notes), with its two random ids. */
export function statusChain(
  plan: TbPlan,
  tenant: string,
  t: Transfer,
  key: readonly string[],
  random: readonly [bigint, bigint],
): ChainEntry[] {
  const ids = new Ids(plan, tenant);
  let next = 0;
  return fill(ids, transferPlan(plan, t), chainOf(plan, t, "status"), {
    op: "status",
    key,
    content: "[]",
    amount: () => {
      throw new Error("the status chain takes no amount");
    },
    account: (ref) => accountOf(ids, whatOf(plan, ref, (name) => name)).id,
    random: () => random[next++],
  });
}

/** What a post or void sends after the read: its chain, or the status chain when it is over the hold. */
export function settleSends(
  plan: TbPlan,
  tenant: string,
  call: Call,
  held: readonly bigint[],
  statusIds: readonly [bigint, bigint],
): { readonly status: boolean; readonly chain: readonly ChainEntry[] } {
  if (isOverHold(plan, call, held)) {
    return { status: true, chain: statusChain(plan, tenant, call.transfer, keyValues(call), statusIds) };
  }
  return { status: false, chain: settleChain(plan, tenant, call, held) };
}
