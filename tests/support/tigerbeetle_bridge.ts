/**
 * An HTTP bridge to the TEST DOUBLE of `tigerbeetle_double.ts` — NOT TigerBeetle — so that the
 * TigerBeetle runners of `verify/chobo/runners/` (TypeScript, Python, Go) can be played in tests where
 * no TigerBeetle server runs (`verify/chobo/runners/README.md`, 「The test double's bridge」). It speaks
 * JSON with every number a decimal string and the status and flag numbers of TigerBeetle 0.17.9
 * (the runtime's tables); the double's clock follows real time, so holds expire as the runners
 * wait for them. A request the double finds malformed answers 500 with its message.
 * @module
 */

import type { TbAccount, TbTransfer } from "../../targets/chobo/tigerbeetle/chain.ts";
import type { AccountFlag, TransferFlag } from "../../targets/chobo/tigerbeetle/plan.ts";
import {
  ACCOUNT_FLAGS,
  CREATE_ACCOUNT_STATUS,
  CREATE_TRANSFER_STATUS,
  TRANSFER_FLAGS,
} from "../../targets/chobo/tigerbeetle/runtime/runtime.ts";
import { accountFields, transferFields } from "../../verify/chobo/tigerbeetle.ts";
import { TigerBeetleDouble } from "./tigerbeetle_double.ts";

type Fields = Readonly<Record<string, string>>;

function flagNames<F extends string>(bits: string, table: Readonly<Record<F, number>>): F[] {
  const n = Number(bits);
  return (Object.keys(table) as F[]).filter((name) => (n & table[name]) !== 0);
}

function account(e: Fields): TbAccount {
  return {
    id: BigInt(e.id),
    user_data_128: BigInt(e.user_data_128),
    user_data_64: BigInt(e.user_data_64),
    user_data_32: Number(e.user_data_32),
    ledger: Number(e.ledger),
    code: Number(e.code),
    flags: flagNames<AccountFlag>(e.flags, ACCOUNT_FLAGS),
  };
}

function transfer(e: Fields): TbTransfer {
  return {
    id: BigInt(e.id),
    debit_account_id: BigInt(e.debit_account_id),
    credit_account_id: BigInt(e.credit_account_id),
    amount: BigInt(e.amount),
    pending_id: BigInt(e.pending_id),
    user_data_128: BigInt(e.user_data_128),
    user_data_64: BigInt(e.user_data_64),
    user_data_32: Number(e.user_data_32),
    timeout: Number(e.timeout),
    ledger: Number(e.ledger),
    code: Number(e.code),
    flags: flagNames<TransferFlag>(e.flags, TRANSFER_FLAGS),
  };
}

function statuses(names: readonly string[], table: Readonly<Record<string, number>>): string[] {
  return names.map((name) => {
    const n = table[name];
    if (n === undefined) throw new Error(`the double answered ${name}, which 0.17.9 does not number`);
    return String(n);
  });
}

/** A running bridge: its URL, the double behind it, and how to stop it. */
export interface Bridge {
  readonly url: string;
  readonly double: TigerBeetleDouble;
  stop(): Promise<void>;
}

/** Starts a bridge on a free loopback port over a new double whose clock starts now. */
export function startBridge(): Bridge {
  const double = new TigerBeetleDouble();
  let last = Date.now();
  const answer = async (op: string, body: { events?: Fields[]; ids?: string[] }): Promise<unknown> => {
    const now = Date.now();
    double.advanceMs(BigInt(now - last));
    last = now;
    switch (op) {
      case "create_accounts":
        return {
          results: statuses(await double.createAccounts(body.events!.map(account)), CREATE_ACCOUNT_STATUS),
        };
      case "create_transfers":
        return {
          results: statuses(await double.createTransfers(body.events!.map(transfer)), CREATE_TRANSFER_STATUS),
        };
      case "lookup_accounts":
        return {
          found: body.ids!.flatMap((id) => {
            const a = double.sums(BigInt(id));
            if (a === null) return [];
            return [{
              ...accountFields(a),
              debits_pending: String(a.debits_pending),
              debits_posted: String(a.debits_posted),
              credits_pending: String(a.credits_pending),
              credits_posted: String(a.credits_posted),
              reserved: "0",
              timestamp: "0",
            }];
          }),
        };
      case "lookup_transfers":
        return {
          found: (await double.lookupTransfers(body.ids!.map(BigInt))).map((t) => ({
            ...transferFields(t, false),
            timestamp: "0",
          })),
        };
      default:
        throw new Error(`no operation ${op}`);
    }
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    try {
      const op = new URL(req.url).pathname.slice(1);
      return Response.json(await answer(op, await req.json()));
    } catch (e) {
      return new Response(e instanceof Error ? e.message : String(e), { status: 500 });
    }
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    double,
    stop: () => server.shutdown(),
  };
}
