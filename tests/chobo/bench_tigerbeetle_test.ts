/**
 * `deno task bench tigerbeetle` without a server: SKIP and exit 0 when `CHOBO_TIGERBEETLE` is not
 * set; and its cases played on the TEST DOUBLE of `tests/support/tigerbeetle_double.ts` (NOT
 * TigerBeetle, and no measure of it) through an adapter of tigerbeetle-node 0.17.9's shape, so the
 * client calls and the floor's raw events are what the double takes and move what they should.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { accountId } from "../../lang/chobo/ids.ts";
import { checkBook } from "../../lang/chobo/check.ts";
import type { TbAccount, TbTransfer } from "../../targets/chobo/tigerbeetle/chain.ts";
import type { AccountFlag, TransferFlag } from "../../targets/chobo/tigerbeetle/plan.ts";
import {
  ACCOUNT_FLAGS,
  CREATE_ACCOUNT_STATUS,
  CREATE_TRANSFER_STATUS,
  TRANSFER_FLAGS,
} from "../../targets/chobo/tigerbeetle/runtime/runtime.ts";
import {
  type BenchClient,
  benchTable,
  CALLERS,
  requestLimit,
  tigerbeetleCases,
  TOO_MUCH_DATA,
} from "../../verify/chobo/bench_tigerbeetle.ts";
import { TigerBeetleDouble } from "../support/tigerbeetle_double.ts";
// deno-lint-ignore no-import-prefix
import type { Account, Transfer } from "npm:tigerbeetle-node@0.17.9";

function names<F extends string>(bits: number, table: Readonly<Record<F, number>>): F[] {
  return (Object.keys(table) as F[]).filter((name) => (bits & table[name]) !== 0);
}

function bits<F extends string>(flags: readonly F[], table: Readonly<Record<F, number>>): number {
  return flags.reduce((sum, f) => sum | table[f], 0);
}

/**
 * The double's request limit: what a `--development` replica takes (32 KiB requests), so a batch sized
 * for another replica fails here as tigerbeetle-node fails it there.
 */
const DOUBLE_LIMIT = 253;

/**
 * tigerbeetle-node's four requests, answered by the double (statuses as 0.17.9 numbers them); a
 * batch over `limit` is refused with the library's error, as a replica's request limit makes it.
 */
function onDouble(double: TigerBeetleDouble, limit = DOUBLE_LIMIT): BenchClient {
  const sized = <T>(batch: readonly T[]) => {
    if (batch.length > limit) throw new Error(TOO_MUCH_DATA);
  };
  const account = (a: Account): TbAccount => ({
    id: a.id,
    user_data_128: a.user_data_128,
    user_data_64: a.user_data_64,
    user_data_32: a.user_data_32,
    ledger: a.ledger,
    code: a.code,
    flags: names<AccountFlag>(a.flags, ACCOUNT_FLAGS),
  });
  const transfer = (t: Transfer): TbTransfer => ({
    id: t.id,
    debit_account_id: t.debit_account_id,
    credit_account_id: t.credit_account_id,
    amount: t.amount,
    pending_id: t.pending_id,
    user_data_128: t.user_data_128,
    user_data_64: t.user_data_64,
    user_data_32: t.user_data_32,
    timeout: t.timeout,
    ledger: t.ledger,
    code: t.code,
    flags: names<TransferFlag>(t.flags, TRANSFER_FLAGS),
  });
  const status = (table: Readonly<Record<string, number>>) => (name: string) => {
    const n = table[name];
    if (n === undefined) throw new Error(`no status ${name}`);
    return { status: n, timestamp: 0n };
  };
  return {
    createAccounts: async (batch) => {
      sized(batch);
      return (await double.createAccounts(batch.map(account))).map(status(CREATE_ACCOUNT_STATUS));
    },
    createTransfers: async (batch) => {
      sized(batch);
      return (await double.createTransfers(batch.map(transfer))).map(status(CREATE_TRANSFER_STATUS));
    },
    lookupAccounts: (ids) =>
      Promise.resolve(ids.flatMap((id) => {
        const a = double.sums(id);
        return a === null ? [] : [{ ...a, flags: bits(a.flags, ACCOUNT_FLAGS), reserved: 0, timestamp: 0n }];
      })),
    lookupTransfers: async (ids) =>
      (await double.lookupTransfers(ids)).map((t) => ({
        ...t,
        flags: bits(t.flags, TRANSFER_FLAGS),
        timestamp: 0n,
      })),
  } as BenchClient;
}

Deno.test("bench tigerbeetle without CHOBO_TIGERBEETLE prints SKIP and exits 0", async () => {
  const env = { ...Deno.env.toObject() };
  delete env.CHOBO_TIGERBEETLE;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "verify/bench.ts", "tigerbeetle"],
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  strictEqual(out.code, 0, new TextDecoder().decode(out.stderr));
  strictEqual(new TextDecoder().decode(out.stdout), "SKIP: tigerbeetle: CHOBO_TIGERBEETLE is not set\n");
});

Deno.test("bench tigerbeetle's cases, on the test double: each operation is done, and the floor moves what the client moved", async () => {
  const double = new TigerBeetleDouble();
  const dir = Deno.makeTempDirSync({ prefix: "chobo-bench-tb-test-" });
  // More operations than the double's request limit: the floor must split them as the replica would.
  const operations = DOUBLE_LIMIT + 12;
  try {
    const rows = await tigerbeetleCases(
      onDouble(double),
      DOUBLE_LIMIT,
      {
        created: CREATE_TRANSFER_STATUS.created,
        accountExists: CREATE_ACCOUNT_STATUS.exists,
        transferExists: CREATE_TRANSFER_STATUS.exists,
      },
      dir,
      operations,
    );
    deepStrictEqual(
      rows.map((r) => [r.what, r.callers, r.chainLength]),
      CALLERS.flatMap((n) => [["do (入荷)", n, 1], ["hold (引当)", n, 1]]),
    );
    deepStrictEqual(CALLERS, [1, 8, 64]);
    for (const r of rows) ok(r.client > 0 && r.floor > 0, JSON.stringify(r));
    const book = checkBook("在庫.book", Deno.readTextFileSync("tests/chobo/books/在庫.book")).book!;
    const stock = (tenant: string) => double.sums(accountId(book, tenant, "在庫", ["s"]));
    const n = BigInt(operations);
    for (const callers of CALLERS) {
      // The client's tenant: the stock, then `operations` of 1 in and `operations` held.
      const through = stock(`bench-${callers}`);
      deepStrictEqual([through?.credits_posted, through?.debits_pending], [10n ** 12n + n, n]);
      // The floor's: the same chains, one tenant per case.
      deepStrictEqual(stock(`bench-${callers}-floor-do`)?.credits_posted, n);
      deepStrictEqual(
        [
          stock(`bench-${callers}-floor-hold`)?.credits_posted,
          stock(`bench-${callers}-floor-hold`)?.debits_pending,
        ],
        [10n ** 12n, n],
      );
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("bench tigerbeetle reads the replica's request limit instead of assuming one: 253, 1 and 8,189 on the test double", async () => {
  for (const limit of [DOUBLE_LIMIT, 1, 8189]) {
    strictEqual(await requestLimit(onDouble(new TigerBeetleDouble(), limit)), limit);
  }
});

Deno.test("bench tigerbeetle's table: each language's ops/s and its ratio to the floor of the same row", () => {
  const row = (callers: number, ts: number, py: number, go: number, floor: number) => ({
    what: "do (入荷)",
    callers,
    client: ts,
    langs: new Map([["Python", py], ["Go", go]]),
    floor,
    chainLength: 1,
  });
  const lines = benchTable([row(1, 500, 250, 1000, 2000), row(64, 4000, 1000, 8000, 16000)], [
    "TypeScript",
    "Python",
    "Go",
  ]);
  strictEqual(lines.length, 3);
  ok(/TypeScript ops\/s .* Python ops\/s .* Go ops\/s .* floor ops\/s/.test(lines[0]), lines[0]);
  deepStrictEqual(lines[1].match(/\d+\.\d{3}/g), ["0.250", "0.125", "0.500"]);
  deepStrictEqual(lines[2].match(/\d+\.\d{3}/g), ["0.250", "0.063", "0.500"]);
  ok(lines[2].includes("16000"), lines[2]);
});
