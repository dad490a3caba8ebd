/**
 * `deno task bench tigerbeetle`: operations per second of the generated `tigerbeetle-typescript`,
 * `tigerbeetle-python` and `tigerbeetle-go` clients (`bench_tigerbeetle_langs.ts`) of
 * `tests/chobo/books/在庫.book` on a disposable replica of the binary `CHOBO_TIGERBEETLE`
 * names, against a floor in the same run on the same replica: the same transfers (each
 * operation's chain, as `chain.ts` fills it for another tenant) sent raw with tigerbeetle-node
 * 0.17.9, in `create_transfers` requests as full as this replica takes them. The replica's limit is
 * read from the replica (`requestLimit`), never assumed: a replica started with `--development` takes
 * 32 KiB requests (253 transfers), one started with a larger `--limit-request` more. Without the
 * variable it prints SKIP and exits 0; the test double (`tests/chobo/bench_tigerbeetle_test.ts`,
 * with a limit of its own) checks what it sends, not how fast anything is.
 *
 * | case | what                                                              | floor                                   |
 * | ---- | ----------------------------------------------------------------- | --------------------------------------- |
 * | do   | `入荷.do` of 1 through the client, `CALLERS` callers at a time     | the same chains, the limit per request |
 * | hold | `引当.hold` of 1 through the client, `CALLERS` callers at a time   | the same chains, the limit per request |
 * @module
 */

import { checkBook } from "../../lang/chobo/check.ts";
import type { Call } from "../../lang/chobo/interp.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { assert, findOne } from "../../lang/common/assert.ts";
import { padEnd } from "../../lang/common/width.ts";
import { moveSends, type TbAccount, type TbTransfer } from "../../targets/chobo/tigerbeetle/chain.ts";
import { chainLength, lowerChains } from "../../targets/chobo/tigerbeetle/plan.ts";
import { ACCOUNT_FLAGS, TRANSFER_FLAGS } from "../../targets/chobo/tigerbeetle/runtime/runtime.ts";
import { tigerbeetleTypescriptClient } from "../../targets/chobo/tigerbeetle/typescript.ts";
import { checkVersion, startReplica } from "../services/tb_replica.ts";
import { type LangRunner, langRunners } from "./bench_tigerbeetle_langs.ts";
// deno-lint-ignore no-import-prefix
import type { Account, Client, Transfer } from "npm:tigerbeetle-node@0.17.9";

const BOOK = "tests/chobo/books/在庫.book";
/** Operations per case: enough for a steady rate at a few thousand per second. */
const OPERATIONS = 4000;
/** Callers at a time on one client: tigerbeetle-node packs concurrent requests of one kind together. */
export const CALLERS = [1, 8, 64] as const;
/**
 * The largest batch `requestLimit` tries: more transfers than any message TigerBeetle takes holds
 * (a 1 MiB message holds 8,189), so a replica that took it would be no TigerBeetle; reaching it is said.
 */
const MAX_PROBE = 1 << 20;
/** What tigerbeetle-node 0.17.9 throws for a batch over the replica's request limit. */
export const TOO_MUCH_DATA = "Too much data was sent or requested in this batch";
/** Stock received before the holds: more than any run holds. */
const STOCK = 10n ** 12n;

/** The statuses of tigerbeetle-node 0.17.9 the bench reads: a new event, and an account or opening made before. */
export interface Statuses {
  readonly created: number;
  readonly accountExists: number;
  readonly transferExists: number;
}

/** The generated client's book value, as far as the bench calls it. */
interface StockBook {
  readonly 入荷: { do(args: { 納品書: string; sku: string; 数: bigint }): Promise<{ result: string }> };
  readonly 引当: { hold(args: { 注文: string; sku: string; 数: bigint }): Promise<{ result: string }> };
}

function flags<F extends string>(names: readonly F[], table: Readonly<Record<F, number>>): number {
  return names.reduce((sum, n) => sum | table[n], 0);
}

function accountEvent(a: TbAccount): Account {
  return {
    ...a,
    flags: flags(a.flags, ACCOUNT_FLAGS),
    debits_pending: 0n,
    debits_posted: 0n,
    credits_pending: 0n,
    credits_posted: 0n,
    reserved: 0,
    timestamp: 0n,
  };
}

function transferEvent(t: TbTransfer): Transfer {
  return { ...t, flags: flags(t.flags, TRANSFER_FLAGS), timestamp: 0n };
}

function call(
  book: Book,
  name: string,
  op: "do" | "hold",
  strings: [string, string][],
  amount: bigint,
): Call {
  const transfer = findOne(book.transfers, (t) => t.name === name, `transfer ${name}`);
  return { transfer, op, strings: new Map(strings), amounts: new Map([["数", amount]]) };
}

/**
 * The most transfers one `create_transfers` request takes on the replica behind `client`: batches of
 * transfers from an account to itself (refused as `accounts_must_be_different`, a check of the event
 * alone, so nothing is written and no id is used up), doubled until the client refuses the batch as
 * too large, then halved down to the limit.
 */
export async function requestLimit(client: BenchClient): Promise<number> {
  const probe = (n: number): Transfer[] =>
    Array.from({ length: n }, (_, i) => ({
      id: BigInt(i + 1) << 64n | BigInt(crypto.getRandomValues(new Uint32Array(1))[0]),
      debit_account_id: 1n,
      credit_account_id: 1n,
      amount: 0n,
      pending_id: 0n,
      user_data_128: 0n,
      user_data_64: 0n,
      user_data_32: 0,
      timeout: 0,
      ledger: 1,
      code: 1,
      flags: 0,
      timestamp: 0n,
    }));
  const fits = async (n: number): Promise<boolean> => {
    try {
      await client.createTransfers(probe(n));
      return true;
    } catch (e) {
      if (e instanceof Error && e.message.includes(TOO_MUCH_DATA)) return false;
      throw e;
    }
  };
  if (!await fits(1)) throw new Error("the replica takes no request of one transfer");
  let fitting = 1;
  let over = 2;
  while (await fits(over)) {
    fitting = over;
    over *= 2;
    if (over > MAX_PROBE) {
      throw new Error(`the replica took ${fitting} transfers in one request: no limit found`);
    }
  }
  while (over - fitting > 1) {
    const mid = Math.floor((fitting + over) / 2);
    if (await fits(mid)) fitting = mid;
    else over = mid;
  }
  return fitting;
}

/** Creates events in requests of `limit`; throws unless each answers one of `ok`. */
async function createAll<E>(
  send: (batch: E[]) => Promise<readonly { status: number }[]>,
  events: readonly E[],
  limit: number,
  ok: readonly number[],
  what: string,
): Promise<void> {
  for (let i = 0; i < events.length; i += limit) {
    const results = await send(events.slice(i, i + limit));
    const bad = results.find((r) => !ok.includes(r.status));
    if (bad !== undefined) throw new Error(`${what}: TigerBeetle answered status ${bad.status}`);
  }
}

/**
 * The floor of one case: the chains of `OPERATIONS` calls for `tenant`, their accounts and openings
 * made first (not timed), then every chain's transfers in full requests; operations per second.
 */
async function floor(
  client: BenchClient,
  limit: number,
  statuses: Statuses,
  book: Book,
  tenant: string,
  calls: readonly Call[],
): Promise<number> {
  const accounts = new Map<bigint, TbAccount>();
  const openings = new Map<bigint, TbTransfer>();
  const transfers: TbTransfer[] = [];
  const plan = lowerChains(book);
  for (const c of calls) {
    const sends = moveSends(plan, tenant, c);
    assert(sends !== null, "a benchmark call moves between two accounts");
    for (const a of sends.accounts) accounts.set(a.event.id, a.event);
    for (const o of sends.openings) openings.set(o.id, o);
    transfers.push(...sends.chain.map((e) => e.transfer));
  }
  const { created } = statuses;
  const events = [...accounts.values()].map(accountEvent);
  const ok = [created, statuses.accountExists];
  await createAll((b) => client.createAccounts(b), events, limit, ok, "accounts");
  const opening = [...openings.values()].map(transferEvent);
  await createAll(
    (b) => client.createTransfers(b),
    opening,
    limit,
    [created, statuses.transferExists],
    "openings",
  );
  const started = performance.now();
  await createAll((b) => client.createTransfers(b), transfers.map(transferEvent), limit, [created], "chains");
  return calls.length / ((performance.now() - started) / 1000);
}

/** `operations` calls through the client, `callers` at a time; operations per second. */
async function throughClient(
  callers: number,
  operations: number,
  one: (n: number) => Promise<{ result: string }>,
): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: callers }, async () => {
    while (next < operations) {
      const n = next++;
      const r = await one(n);
      if (r.result !== "done") throw new Error(`operation ${n} answered ${JSON.stringify(r)}`);
    }
  }));
  return operations / ((performance.now() - started) / 1000);
}

/** What the bench takes of tigerbeetle-node 0.17.9's `Client` (a test plays it on the test double). */
export type BenchClient = Pick<
  Client,
  "createAccounts" | "createTransfers" | "lookupAccounts" | "lookupTransfers"
>;

/** One row of the table. */
export interface BenchRow {
  readonly what: string;
  readonly callers: number;
  readonly client: number;
  /** Operations per second of each other language's client, by language. */
  readonly langs: ReadonlyMap<string, number>;
  readonly floor: number;
  readonly chainLength: number;
}

/** The bench's book. */
export function benchBook(): Book {
  const book = checkBook(BOOK, Deno.readTextFileSync(BOOK)).book;
  if (book === null) throw new Error(`${BOOK} has errors`);
  return book;
}

/**
 * Both cases at each number of callers: `operations` calls through the generated client (written
 * into `dir`), the same through each of `langs` (each language its own tenant), then the floor of
 * the same calls' chains for another tenant, in requests of `limit`.
 */
export async function tigerbeetleCases(
  client: BenchClient,
  limit: number,
  statuses: Statuses,
  dir: string,
  operations: number,
  langs: ReadonlyMap<string, LangRunner> = new Map(),
): Promise<BenchRow[]> {
  const book = benchBook();
  for (
    const [name, text] of tigerbeetleTypescriptClient(book, { file: BOOK, sha: "bench", version: "bench" })
  ) {
    Deno.writeTextFileSync(`${dir}/${name}`, text);
  }
  const generated = await import(new URL(`file://${dir}/${book.name}.ts`).href) as {
    tigerbeetle(client: BenchClient, options: { tenant: string; requestLimit: number }): StockBook;
  };
  const transfer = (name: string) => findOne(book.transfers, (t) => t.name === name, `transfer ${name}`);
  const cases = [
    { what: "do (入荷)", name: "入荷", op: "do" as const, key: "納品書" },
    { what: "hold (引当)", name: "引当", op: "hold" as const, key: "注文" },
  ];
  const rows: BenchRow[] = [];
  for (const callers of CALLERS) {
    const tenant = `bench-${callers}`;
    const stock = generated.tigerbeetle(client, { tenant, requestLimit: limit });
    const fill = await stock.入荷.do({ 納品書: "fill", sku: "s", 数: STOCK });
    if (fill.result !== "done") throw new Error(`the stock was not received: ${JSON.stringify(fill)}`);
    for (const c of cases) {
      console.error(`  … ${c.what}, ${callers} caller${callers === 1 ? "" : "s"}`);
      const keyOf = (n: number) => `${c.op}-${n}`;
      const ours = await throughClient(
        callers,
        operations,
        (n) =>
          c.op === "do"
            ? stock.入荷.do({ 納品書: keyOf(n), sku: "s", 数: 1n })
            : stock.引当.hold({ 注文: keyOf(n), sku: "s", 数: 1n }),
      );
      const others = new Map<string, number>();
      for (const [lang, run] of langs) {
        console.error(`  … ${c.what}, ${callers} caller${callers === 1 ? "" : "s"}, ${lang}`);
        others.set(lang, await run({ op: c.op, callers, operations, tenant: `${tenant}-${lang}` }));
      }
      // The floor's tenant has its own accounts: the same chains with other ids, so none exists yet.
      const floorTenant = `${tenant}-floor-${c.op}`;
      const floorCall = (n: number) => call(book, c.name, c.op, [[c.key, keyOf(n)], ["sku", "s"]], 1n);
      if (c.op === "hold") {
        const fillCall = call(book, "入荷", "do", [["納品書", "fill"], ["sku", "s"]], STOCK);
        await floor(client, limit, statuses, book, floorTenant, [fillCall]);
      }
      const raw = await floor(
        client,
        limit,
        statuses,
        book,
        floorTenant,
        Array.from({ length: operations }, (_, n) => floorCall(n)),
      );
      rows.push({
        what: c.what,
        callers,
        client: ours,
        langs: others,
        floor: raw,
        chainLength: chainLength(transfer(c.name)),
      });
    }
  }
  return rows;
}

/**
 * The table: per case and callers, each language's operations per second and its ratio to the floor
 * of the same run, then the floor and the transfers an operation sends.
 */
export function benchTable(rows: readonly BenchRow[], langs: readonly string[]): string[] {
  const rateOf = (r: BenchRow, lang: string) => lang === "TypeScript" ? r.client : r.langs.get(lang)!;
  const header = langs.map((l) => `${l.padStart(12)} ops/s  × floor`).join("   ");
  return [
    `  case          callers   ${header}   floor ops/s   transfers per operation`,
    ...rows.map((r) =>
      `  ${padEnd(r.what, 12)}  ${String(r.callers).padStart(7)}   ${
        langs.map((l) =>
          `${rateOf(r, l).toFixed(0).padStart(12)}        ${(rateOf(r, l) / r.floor).toFixed(3)}`
        )
          .join("   ")
      }   ${r.floor.toFixed(0).padStart(11)}   ${r.chainLength}`
    ),
  ];
}

/** Runs both cases on a disposable replica and prints the table, or SKIP without `CHOBO_TIGERBEETLE`. */
export async function benchTigerBeetle(): Promise<void> {
  const bin = Deno.env.get("CHOBO_TIGERBEETLE") ?? "";
  if (bin === "") {
    console.log("SKIP: tigerbeetle: CHOBO_TIGERBEETLE is not set");
    return;
  }
  const version = await checkVersion(bin);
  const dir = Deno.makeTempDirSync({ prefix: "chobo-bench-tb-" });
  const replica = await startReplica(bin);
  // deno-lint-ignore no-import-prefix
  const tb = await import("npm:tigerbeetle-node@0.17.9");
  const statuses: Statuses = {
    created: tb.CreateTransferStatus.created,
    accountExists: tb.CreateAccountStatus.exists,
    transferExists: tb.CreateTransferStatus.exists,
  };
  assert(tb.CreateAccountStatus.created === statuses.created, "one status means created for both kinds");
  const client = tb.createClient({ cluster_id: 0n, replica_addresses: [replica.address] });
  try {
    const limit = await requestLimit(client);
    const langs = await langRunners(benchBook(), replica.address, limit, dir);
    const rows = await tigerbeetleCases(client, limit, statuses, dir, OPERATIONS, langs);
    console.log(
      `bench tigerbeetle: ${BOOK} on ${version} (one --development replica, ${limit} transfers a request), ${OPERATIONS} operations a case`,
    );
    for (const line of benchTable(rows, ["TypeScript", ...langs.keys()])) console.log(line);
  } finally {
    client.destroy();
    await replica.stop();
    Deno.removeSync(dir, { recursive: true });
  }
}
