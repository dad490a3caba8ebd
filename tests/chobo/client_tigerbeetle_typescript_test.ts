/**
 * chobo's TypeScript client for TigerBeetle (`tigerbeetle-typescript`): every test and example
 * book's client passes the real TypeScript compiler and takes tigerbeetle-node 0.17.9's `Client`;
 * the runtime's tables are the node client's enums; every client ends with the runtime byte for
 * byte and is the same bytes twice. For every operation of every scenario of every test and
 * example book, the generated client, run against the test double of the records of
 * docs/design/chobo.md#what-tigerbeetle-answered (`tests/support/tigerbeetle_double.ts`, not TigerBeetle),
 * sends exactly what `chobo run --show tigerbeetle --format json` prints and answers as the reference
 * interpreter. Its reading of TigerBeetle's answers follows the result table of docs/targets.md#results and
 * records (a)–(l) row by row; a changed account or bound is an error naming what changed.
 *
 * No TigerBeetle server runs here (no package ships one): the double stands in for it.
 */

import { deepStrictEqual, ok, rejects, strictEqual, throws } from "node:assert/strict";
import { pathToFileURL } from "node:url";

import { amountArg, type Call, keyValues, type Outcome, stringArg } from "../../lang/chobo/interp.ts";
import { lookup } from "../../lang/common/assert.ts";
import type { Book, Param } from "../../lang/chobo/model.ts";
import { type Branch, readScenarios, runScenario, type Scenario } from "../../lang/chobo/scenario.ts";
import { generateScenarios } from "../../lang/chobo/scenarios.ts";
import { type Members, members } from "../../targets/chobo/names.ts";
import { RUNTIME_MARK } from "../../targets/chobo/typescript_names.ts";
import { moveSends, type TbAccount, type TbTransfer } from "../../targets/chobo/tigerbeetle/chain.ts";
import { lowerChains } from "../../targets/chobo/tigerbeetle/plan.ts";
import {
  ACCOUNT_FLAGS,
  type AccountEvent,
  type AccountRead,
  type Balance,
  CREATE_ACCOUNT_STATUS,
  CREATE_TRANSFER_STATUS,
  type CreateStatus,
  type TigerBeetleClient,
  TRANSFER_FLAGS,
  type TransferEvent,
  type TransferRead,
} from "../../targets/chobo/tigerbeetle/runtime/runtime.ts";
import { sentTigerBeetleJson } from "../../targets/chobo/tigerbeetle/show.ts";
import { tigerbeetleTypescriptClient } from "../../targets/chobo/tigerbeetle/typescript.ts";
import { TigerBeetleDouble } from "../support/tigerbeetle_double.ts";
import { HOSTILE_STRINGS } from "../support/hostile.ts";
import {
  assertTbVectors,
  type TbVectorCase,
  type TbVectorPlay,
  tigerbeetleVectors,
} from "../support/tigerbeetle_vectors.ts";
import { everyBook, loadBook as load } from "../support/books.ts";
import { callOf } from "../support/calls.ts";

/** The compiler the clients are checked with, as for the PostgreSQL clients. */
const TYPESCRIPT = "typescript@7.0.2";
/**
 * The PostgreSQL clients' flags, and `--types node`: the runtime imports `node:crypto`, and
 * TypeScript 6 and later include no `@types` package unless told.
 */
const TSC_FLAGS = [
  "--strict",
  "--erasableSyntaxOnly",
  "--noUnusedLocals",
  "--noEmit",
  "--target",
  "es2022",
  "--module",
  "nodenext",
  "--types",
  "node",
];
/** What the compile installs beside the clients: the client library, and Node's types for `node:crypto`. */
const NODE_PACKAGES = ["tigerbeetle-node@0.17.9", "@types/node@26.6.6"];
const RUNTIME = new URL("../../targets/chobo/tigerbeetle/runtime/runtime.ts", import.meta.url);
const ROOT = new URL("../../", import.meta.url).pathname;
const ORIGIN = { sha: "0123456789abcdef", version: "test" };
const MAX_ID = (1n << 128n) - 1n;
const L = "linked_event_failed";

/**
 * Names a client must still spell: `balance`/`expire` transfers, an enclosing mark (not in
 * identifiers), and snake_case that becomes camelCase, twice the same (docs/targets.md).
 */
const NAMES_BOOK = `book names v1

unit pcs

account a⃝(s⃝: string) : pcs
  at least 0 refused as short
account shop_sales(shop_id: string) : pcs
  at least 0 refused as short
account src : pcs outside

transfer balance(k: string, n: pcs)
  key k
  move n from src to a⃝(k)

transfer expire(k: string)
  key k
  pending never expires
  move 1 from a⃝(k) to src

transfer take_back(return_id: string, n: pcs)
  key return_id
  move n from src to shop_sales(return_id)

transfer takeBack(order_id: string, n: pcs)
  key order_id
  pending never expires
  move n from src to shop_sales(order_id)
`;

/**
 * Every kind of bound of docs/targets.md#one-move-up-to-6-transfers, and the shapes of records (a)–(l): a
 * probe with and without a room, floors and rooms on either side, the 6-transfer move, two moves in one
 * chain.
 */
const BOUNDS_BOOK = `book bounds v1

unit pcs

account safe(sku: string) : pcs
  at least 3 refused as below_safety
  at most 1000 refused as safe_full
account bin(sku: string) : pcs
  at least -5 refused as bin_overdrawn
  at most 20 refused as bin_full
account shelf(sku: string) : pcs
  at least 2 refused as shelf_short
account credit(member: string) : pcs
  at least -5 refused as over_credit
account cap(sku: string) : pcs
  at most 10 refused as cap_full
account plain(sku: string) : pcs
  at least 0 refused as plain_short
account suppliers : pcs outside
account customers : pcs outside

transfer restock(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to safe(sku)

transfer spread(batch: string, sku: string, qty: pcs)
  key batch, sku
  move qty from safe(sku) to bin(sku)

transfer reserve(order: string, sku: string, qty: pcs)
  key order, sku
  pending expires after 30 minutes
  move qty from safe(sku) to bin(sku)

transfer ship(order: string, sku: string, qty: pcs)
  key order, sku
  move qty from bin(sku) to customers

transfer lend(loan: string, member: string, qty: pcs)
  key loan, member
  pending expires after 1 hours
  move qty from credit(member) to customers

transfer repay(payment: string, member: string, qty: pcs)
  key payment, member
  move qty from suppliers to credit(member)

transfer fill(fill_id: string, sku: string, qty: pcs)
  key fill_id, sku
  pending never expires
  move qty from suppliers to cap(sku)

transfer empty(empty_id: string, sku: string, qty: pcs)
  key empty_id, sku
  move qty from cap(sku) to plain(sku)

transfer stack(stack_id: string, sku: string, qty: pcs)
  key stack_id, sku
  move qty from suppliers to shelf(sku)

transfer take(take_id: string, sku: string, qty: pcs)
  key take_id, sku
  move qty from shelf(sku) to customers

transfer swap(swap_id: string, sku: string, qty: pcs)
  key swap_id, sku
  move qty from suppliers to plain(sku)
  move 100 from plain(sku) to customers

transfer route(route_id: string, sku: string, qty: pcs)
  key route_id, sku
  pending expires after 10 minutes
  move qty from suppliers to plain(sku)
  move qty from plain(sku) to customers
`;

const step = (name: string, args: Record<string, string | number>) => ({ call: name, args });

/** What the generated scenarios of the bounds book do not reach: rooms and floors counting holds, partial posts of 6-transfer holds, the last room taken by two callers. */
const BOUNDS_MORE = JSON.stringify([
  {
    name: "spread up to bin's upper bound, refused at its room, then down to its floor",
    steps: [
      step("restock.do", { delivery: "d-1", sku: "s-1", qty: 30 }),
      step("spread.do", { batch: "b-1", sku: "s-1", qty: 20 }),
      step("spread.do", { batch: "b-2", sku: "s-1", qty: 1 }),
      step("ship.do", { order: "o-1", sku: "s-1", qty: 25 }),
      step("ship.do", { order: "o-2", sku: "s-1", qty: 1 }),
      step("spread.do", { batch: "b-3", sku: "s-1", qty: 7 }),
    ],
  },
  {
    name:
      "reserve holds count against bin's room and safe's lower bound; partial post, void, over the hold, expiry",
    steps: [
      step("restock.do", { delivery: "d-1", sku: "s-1", qty: 30 }),
      step("reserve.hold", { order: "o-1", sku: "s-1", qty: 15 }),
      step("reserve.hold", { order: "o-2", sku: "s-1", qty: 6 }),
      step("reserve.hold", { order: "o-3", sku: "s-1", qty: 5 }),
      step("reserve.post", { order: "o-1", sku: "s-1", qty: 10 }),
      step("reserve.void", { order: "o-3", sku: "s-1" }),
      step("reserve.post", { order: "o-3", sku: "s-1", qty: 9 }),
      step("spread.do", { batch: "b-1", sku: "s-1", qty: 10 }),
      step("reserve.post", { order: "o-1", sku: "s-1", qty: 10 }),
      step("reserve.post", { order: "o-1", sku: "s-1" }),
      step("reserve.hold", { order: "o-4", sku: "s-1", qty: 1 }),
      { pass: "31 minutes" },
      step("reserve.post", { order: "o-4", sku: "s-1", qty: 2 }),
      step("reserve.void", { order: "o-4", sku: "s-1" }),
    ],
  },
  {
    name: "two callers take the last room of bin",
    steps: [
      step("restock.do", { delivery: "d-1", sku: "s-1", qty: 30 }),
      step("spread.do", { batch: "b-1", sku: "s-1", qty: 19 }),
      {
        together: [[step("spread.do", { batch: "b-2", sku: "s-1", qty: 1 })], [
          step("spread.do", { batch: "b-3", sku: "s-1", qty: 1 }),
        ]],
      },
    ],
  },
  {
    name: "lend down to credit's floor, repay, lend again, the hold expires",
    steps: [
      step("lend.hold", { loan: "l-1", member: "m-1", qty: 5 }),
      step("lend.hold", { loan: "l-2", member: "m-1", qty: 1 }),
      step("lend.post", { loan: "l-1", member: "m-1", qty: 3 }),
      step("repay.do", { payment: "p-1", member: "m-1", qty: 2 }),
      step("lend.hold", { loan: "l-3", member: "m-1", qty: 4 }),
      { pass: "2 hours" },
      step("lend.void", { loan: "l-3", member: "m-1" }),
    ],
  },
  {
    name: "a shelf keeps 2 (records (l)); a two-move chain refused by its second move (records (i))",
    steps: [
      step("stack.do", { stack_id: "k-1", sku: "s-1", qty: 5 }),
      step("take.do", { take_id: "t-1", sku: "s-1", qty: 4 }),
      step("take.do", { take_id: "t-2", sku: "s-1", qty: 3 }),
      step("swap.do", { swap_id: "w-1", sku: "s-1", qty: 5 }),
      step("swap.do", { swap_id: "w-1", sku: "s-1", qty: 5 }),
      step("swap.do", { swap_id: "w-2", sku: "s-1", qty: 100 }),
      step("swap.do", { swap_id: "w-2", sku: "s-1", qty: 100 }),
      step("route.hold", { route_id: "r-1", sku: "s-1", qty: 1 }),
    ],
  },
  {
    name: "fill never expires; post part of it, empty into plain, fill to cap",
    steps: [
      step("fill.hold", { fill_id: "f-1", sku: "s-1", qty: 10 }),
      step("fill.hold", { fill_id: "f-2", sku: "s-1", qty: 1 }),
      step("fill.post", { fill_id: "f-1", sku: "s-1", qty: 4 }),
      step("fill.post", { fill_id: "f-1", sku: "s-1", qty: 4 }),
      step("empty.do", { empty_id: "e-1", sku: "s-1", qty: 4 }),
      step("fill.hold", { fill_id: "f-3", sku: "s-1", qty: 10 }),
      { pass: "1000 hours" },
      step("fill.void", { fill_id: "f-1", sku: "s-1" }),
    ],
  },
]);

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Every test and example book, and the bounds book, with generated and hand-written scenarios. */
function subjects(): { path: string; book: Book; scenarios: Scenario[] }[] {
  const books = everyBook().map((path) => {
    const book = load(path);
    let more: Scenario[] = [];
    try {
      more = readScenarios(book, Deno.readTextFileSync(path.replace(/\.book$/, ".more.json")));
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
    return { path, book, scenarios: [...generateScenarios(book), ...more] };
  });
  const bounds = load("bounds.book", BOUNDS_BOOK);
  return [...books, {
    path: "bounds.book",
    book: bounds,
    scenarios: [...generateScenarios(bounds), ...readScenarios(bounds, BOUNDS_MORE)],
  }];
}

function clientText(book: Book, file: string): string {
  const files = tigerbeetleTypescriptClient(book, { file, ...ORIGIN });
  deepStrictEqual([...files.keys()], [`${book.name}.ts`]);
  return files.get(`${book.name}.ts`)!;
}

/** Writes a book's client into `dir` and gives its path. */
function writeClient(dir: string, book: Book, file: string): string {
  const path = `${dir}/${book.name}.ts`;
  Deno.writeTextFileSync(path, clientText(book, file));
  return path;
}

// ---------------------------------------------------------------------------------------------
// The compiler, the node client's types, the runtime's bytes.

/** Calls the generated 在庫 client with tigerbeetle-node's own client: its types would reject a wrong argument. */
const STOCK_USE = `import { createClient } from "tigerbeetle-node";
import { type HoldState, type Reason, type Result, tigerbeetle } from "./在庫.js";

export async function use(): Promise<bigint> {
  const client = createClient({ cluster_id: 0n, replica_addresses: ["3000"] });
  const book = tigerbeetle(client, { tenant: "t" });
  const r: Result = await book.引当.hold({ 注文: "o-1", sku: "A-1", 数: 3n });
  if (r.result === "refused") {
    const reason: Reason = r.reason;
    // @ts-expect-error a reason outside the book's and chobo's
    const other: Reason = "no_such_reason";
    console.log(reason, other);
  }
  await book.引当.post({ 注文: "o-1", sku: "A-1" }, { 数: 2n });
  await book.引当.post({ 注文: "o-1", sku: "A-1" });
  await book.引当.void({ 注文: "o-1", sku: "A-1" });
  // @ts-expect-error amounts are bigint
  await book.入荷.do({ 納品書: "d-1", sku: "A-1", 数: 3 });
  // @ts-expect-error a partial post passes every amount
  await book.引当.post({ 注文: "o-1", sku: "A-1" }, {});
  // @ts-expect-error TigerBeetle gives expired holds back by itself: no expire()
  await book.expire();
  const state: HoldState | null = await book.引当.status({ 注文: "o-1", sku: "A-1" });
  console.log(state, tigerbeetle(client).balance);
  client.destroy();
  return (await book.balance.在庫({ sku: "A-1" })).posted + (await book.balance.客()).held_in;
}
`;

/** Calls the names book's client by the names docs/targets.md gives it. */
const NAMES_USE = `import { createClient } from "tigerbeetle-node";
import { type ShopSalesAccount, type TakeBack_2Key, type TakeBackArgs, tigerbeetle } from "./names.js";

export async function use(): Promise<bigint> {
  const client = createClient({ cluster_id: 0n, replica_addresses: ["3000"] });
  const book = tigerbeetle(client);
  const args: TakeBackArgs = { returnId: "r-1", n: 1n };
  await book.takeBack.do(args);
  const key: TakeBack_2Key = { orderId: "o-1" };
  await book.takeBack_2.hold({ ...key, n: 2n });
  await book.takeBack_2.post(key, { n: 1n });
  await book.balance_2.do({ k: "k", n: 1n });
  await book.expire_2.hold({ k: "k" });
  // @ts-expect-error the book's spelling is not the member
  await book.take_back.do(args);
  const account: ShopSalesAccount = { shopId: "r-1" };
  client.destroy();
  return (await book.balance.shopSales(account)).posted + (await book.balance["a⃝"]({ "s⃝": "k" })).posted;
}
`;

async function output(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ code: number; out: string } | null> {
  try {
    const run = await new Deno.Command(command, { args, cwd, stdout: "piped", stderr: "piped" }).output();
    const text = new TextDecoder();
    return { code: run.code, out: text.decode(run.stdout) + text.decode(run.stderr) };
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    return null;
  }
}

/** The enums of a `.d.ts`: name → member → value. */
function enumsOf(dts: string): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const [, name, body] of dts.matchAll(/export declare enum (\w+) \{([^}]*)\}/g)) {
    out.set(
      name,
      Object.fromEntries([...body.matchAll(/(\w+) = (\d+)/g)].map(([, k, v]) => [k, Number(v)])),
    );
  }
  return out;
}

Deno.test("every book's client passes tsc --strict --erasableSyntaxOnly --noUnusedLocals and takes tigerbeetle-node 0.17.9's Client, whose enums the runtime's tables are", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "chobo-tb-ts-" });
  try {
    // ESM, as Node runs a .ts file by stripping its types.
    Deno.writeTextFileSync(`${dir}/package.json`, `{ "type": "module" }\n`);
    const files: string[] = [];
    const books = [
      ...everyBook().map((p) => ({ path: p, book: load(p) })),
      { path: "names.book", book: load("names.book", NAMES_BOOK) },
      { path: "bounds.book", book: load("bounds.book", BOUNDS_BOOK) },
    ];
    for (const [i, { path, book }] of books.entries()) {
      Deno.mkdirSync(`${dir}/${i}`);
      files.push(writeClient(`${dir}/${i}`, book, basename(path)).slice(dir.length + 1));
      const use = path.endsWith("tests/chobo/books/在庫.book")
        ? STOCK_USE
        : path === "names.book"
        ? NAMES_USE
        : null;
      if (use !== null) {
        Deno.writeTextFileSync(`${dir}/${i}/use.ts`, use);
        files.push(`${i}/use.ts`);
      }
    }
    strictEqual(files.filter((f) => f.endsWith("use.ts")).length, 2);
    const install = await output(
      "npm",
      ["install", "--no-save", "--ignore-scripts", "--no-audit", "--no-fund", ...NODE_PACKAGES],
      dir,
    );
    if (install === null || install.code !== 0) {
      console.log(`SKIP: chobo: tigerbeetle-typescript: cannot install ${NODE_PACKAGES.join(", ")} with npm`);
      return;
    }
    const enums = enumsOf(
      Deno.readTextFileSync(`${dir}/node_modules/tigerbeetle-node/dist/bindings.d.ts`),
    );
    deepStrictEqual(CREATE_ACCOUNT_STATUS, enums.get("CreateAccountStatus"));
    deepStrictEqual(CREATE_TRANSFER_STATUS, enums.get("CreateTransferStatus"));
    deepStrictEqual({ none: 0, ...ACCOUNT_FLAGS }, enums.get("AccountFlags"));
    deepStrictEqual({ none: 0, ...TRANSFER_FLAGS }, enums.get("TransferFlags"));

    const version = await output("npx", ["-y", "-p", TYPESCRIPT, "tsc", "--version"], dir);
    if (version === null) {
      console.log(
        "SKIP: chobo: tigerbeetle-typescript: no npx on this machine to run the TypeScript compiler",
      );
      return;
    }
    strictEqual(version.out.trim(), `Version ${TYPESCRIPT.split("@")[1]}`);
    const run = (await output("npx", ["-y", "-p", TYPESCRIPT, "tsc", ...TSC_FLAGS, ...files], dir))!;
    strictEqual(run.out, "");
    strictEqual(run.code, 0);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("every client starts with the header and ends with the runtime byte for byte; same book, same bytes", () => {
  const runtime = Deno.readFileSync(RUNTIME);
  const paths = everyBook();
  ok(paths.length >= 15, `${paths.length} books`);
  for (const path of paths) {
    const book = load(path);
    const text = clientText(book, basename(path));
    const lines = text.split("\n");
    strictEqual(lines[0], "// Code generated by chobo test. DO NOT EDIT.");
    strictEqual(
      lines[1],
      `// Source: ${basename(path)} (book ${book.name} v${book.version}, sha256:0123456789abcdef)`,
    );
    const mark = `\n${RUNTIME_MARK}\n`;
    const at = text.indexOf(mark);
    ok(at > 0 && text.indexOf(mark, at + 1) === -1, path);
    deepStrictEqual(new TextEncoder().encode(text.slice(at + mark.length)), runtime, path);
    strictEqual(clientText(load(path), basename(path)), text, path);
  }
  // The runtime stands alone: it imports node:crypto and nothing of this repository.
  const imports = [...new TextDecoder().decode(runtime).matchAll(/^import .* from "([^"]+)";$/gm)].map((m) =>
    m[1]
  );
  deepStrictEqual(imports, ["node:crypto"]);
});

// ---------------------------------------------------------------------------------------------
// Clients over TigerBeetle's requests: a recording wrapper of the double, and scripted answers.

/** One request as the client sent it, in the double's terms (flags by name). */
type Recorded =
  | { readonly kind: "create_accounts"; readonly events: TbAccount[] }
  | { readonly kind: "create_transfers"; readonly events: TbTransfer[] }
  | { readonly kind: "lookup_transfers"; readonly ids: bigint[] }
  | { readonly kind: "lookup_accounts"; readonly ids: bigint[] };

const ACCOUNT_FIELDS: Record<string, "bigint" | "number"> = {
  id: "bigint",
  debits_pending: "bigint",
  debits_posted: "bigint",
  credits_pending: "bigint",
  credits_posted: "bigint",
  user_data_128: "bigint",
  user_data_64: "bigint",
  user_data_32: "number",
  reserved: "number",
  ledger: "number",
  code: "number",
  flags: "number",
  timestamp: "bigint",
};
const TRANSFER_FIELDS: Record<string, "bigint" | "number"> = {
  id: "bigint",
  debit_account_id: "bigint",
  credit_account_id: "bigint",
  amount: "bigint",
  pending_id: "bigint",
  user_data_128: "bigint",
  user_data_64: "bigint",
  user_data_32: "number",
  timeout: "number",
  ledger: "number",
  code: "number",
  flags: "number",
  timestamp: "bigint",
};

/** An event must have exactly the node client's fields, of its types. */
function assertShape(event: object, fields: Record<string, "bigint" | "number">): void {
  deepStrictEqual(Object.keys(event).sort(), Object.keys(fields).sort());
  for (const [k, v] of Object.entries(event)) strictEqual(typeof v, fields[k], k);
}

/** Flag names in bit order, as `--show` writes them. */
function flagNames(flags: number, table: Readonly<Record<string, number>>): string[] {
  const known = Object.values(table).reduce((a, b) => a | b, 0);
  strictEqual(flags & ~known, 0, `unknown flags ${flags}`);
  return Object.entries(table).filter(([, bit]) => (flags & bit) !== 0).map(([name]) => name);
}

function flagBits(names: readonly string[], table: Readonly<Record<string, number>>): number {
  return names.reduce((acc, n) => acc | table[n], 0);
}

function statusCode(table: Readonly<Record<string, number>>, name: string): CreateStatus {
  const status = table[name];
  if (status === undefined) throw new Error(`no status ${name}`);
  return { status };
}

function doubleAccount(e: AccountEvent): TbAccount {
  assertShape(e, ACCOUNT_FIELDS);
  for (
    const k of ["debits_pending", "debits_posted", "credits_pending", "credits_posted", "timestamp"] as const
  ) {
    strictEqual(e[k], 0n, k);
  }
  strictEqual(e.reserved, 0);
  return {
    id: e.id,
    user_data_128: e.user_data_128,
    user_data_64: e.user_data_64,
    user_data_32: e.user_data_32,
    ledger: e.ledger,
    code: e.code,
    flags: flagNames(e.flags, ACCOUNT_FLAGS) as TbAccount["flags"],
  };
}

function doubleTransfer(e: TransferEvent): TbTransfer {
  assertShape(e, TRANSFER_FIELDS);
  strictEqual(e.timestamp, 0n);
  const { timestamp: _, ...fields } = e;
  return { ...fields, flags: flagNames(e.flags, TRANSFER_FLAGS) as TbTransfer["flags"] };
}

/** The double behind tigerbeetle-node's interface, recording every request in the double's terms. */
class Recorder implements TigerBeetleClient {
  readonly tb: TigerBeetleDouble;
  readonly requests: Recorded[] = [];

  constructor(tb: TigerBeetleDouble) {
    this.tb = tb;
  }

  async createAccounts(batch: AccountEvent[]): Promise<CreateStatus[]> {
    const events = batch.map(doubleAccount);
    this.requests.push({ kind: "create_accounts", events });
    return (await this.tb.createAccounts(events)).map((r) => statusCode(CREATE_ACCOUNT_STATUS, r));
  }

  async createTransfers(batch: TransferEvent[]): Promise<CreateStatus[]> {
    const events = batch.map(doubleTransfer);
    this.requests.push({ kind: "create_transfers", events });
    return (await this.tb.createTransfers(events)).map((r) => statusCode(CREATE_TRANSFER_STATUS, r));
  }

  async lookupTransfers(ids: bigint[]): Promise<TransferEvent[]> {
    this.requests.push({ kind: "lookup_transfers", ids: [...ids] });
    return (await this.tb.lookupTransfers(ids)).map((t) => ({
      ...t,
      flags: flagBits(t.flags, TRANSFER_FLAGS),
      timestamp: 1n,
    }));
  }

  lookupAccounts(ids: bigint[]): Promise<AccountRead[]> {
    this.requests.push({ kind: "lookup_accounts", ids: [...ids] });
    return Promise.resolve(ids.flatMap((id) => {
      const sums = this.tb.sums(id);
      return sums === null ? [] : [sums];
    }));
  }
}

type Member = (...args: unknown[]) => Promise<unknown>;
/** A generated book value, seen without its types. */
type ClientBook = Record<string, Record<string, Member>>;
type Entry = (client: TigerBeetleClient, options?: { tenant?: string }) => ClientBook;

async function importClient(dir: string, book: Book, file: string): Promise<Entry> {
  return (await import(pathToFileURL(writeClient(dir, book, file)).href)).tigerbeetle;
}

/** The arguments object of some parameters, by the client's names. */
function argsObject(m: Members, call: Call, params: readonly Param[]): Record<string, unknown> {
  const names = m.transferParams.get(call.transfer.name)!;
  return Object.fromEntries(
    params.map((p) => [
      lookup(names, p.name, "parameter name"),
      p.type.kind === "string" ? stringArg(call, p.name) : amountArg(call, p.name),
    ]),
  );
}

/** Calls the client's member for a call. */
function invoke(m: Members, value: ClientBook, call: Call): Promise<unknown> {
  const t = call.transfer;
  const member = value[m.transfers.get(t.name)!];
  const key = argsObject(m, call, t.params.filter((p) => t.key.includes(p.name)));
  switch (call.op) {
    case "do":
    case "hold":
      return member[call.op](argsObject(m, call, t.params));
    case "void":
      return member.void(key);
    case "post": {
      const given = t.params.filter((p) => call.amounts.has(p.name));
      return given.length === 0 ? member.post(key) : member.post(key, argsObject(m, call, given));
    }
  }
}

async function outcomeOf(p: Promise<unknown>): Promise<string> {
  try {
    const r = await p as { result: string; reason?: string };
    return r.result === "refused" ? `refused:${r.reason}` : r.result;
  } catch (e) {
    return `failed:${e instanceof Error ? e.message : String(e)}`;
  }
}

function interpreted(o: Outcome): string {
  if (o.kind === "refused") return `refused:${o.reason}`;
  if (o.kind === "failed") return `failed:${o.why.en}`;
  return o.kind;
}

// ---------------------------------------------------------------------------------------------
// The equality: what the client sends is what `--show tigerbeetle --format json` prints.

interface ShownOperation {
  readonly caller?: number;
  readonly call: string;
  readonly answered?: string;
  readonly lookup_transfers?: bigint[];
  readonly create_accounts?: Record<string, unknown>[][];
  readonly openings?: TbTransfer[][];
  readonly chain: Record<string, unknown>[];
}

interface PlayedOperation {
  readonly call: Call;
  readonly caller: number | null;
  readonly outcome: string;
  readonly requests: readonly Recorded[];
}

interface Played {
  readonly steps: (string | null | string[][])[];
  readonly operations: PlayedOperation[][];
  readonly value: ClientBook;
}

/** Drops keys whose value is undefined, at every depth, so that both sides compare by what they hold. */
function defined(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(defined);
  if (x === null || typeof x !== "object") return x;
  return Object.fromEntries(Object.entries(x).flatMap(([k, v]) => v === undefined ? [] : [[k, defined(v)]]));
}

function batches<T>(events: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < events.length; i += 253) out.push(events.slice(i, i + 253));
  return out;
}

/**
 * `--show`'s operation without its labels (which account an event stands for, a transfer's
 * role). With `created`, the accounts and openings a book value sent before are left out, as the
 * client sends each once; `created` takes the rest.
 */
function shownSends(op: ShownOperation, created: Set<bigint> | null) {
  const unlabelled = (a: Record<string, unknown>) => {
    const { role: _role, account: _account, args: _args, unit: _unit, ...event } = a;
    return event as unknown as TbAccount;
  };
  const once = <T extends { id: bigint }>(requests: T[][] | undefined) => {
    if (requests === undefined || created === null) return requests;
    const left = requests.flat().filter((e) => !created.has(e.id));
    left.forEach((e) => created.add(e.id));
    return batches(left);
  };
  return {
    caller: op.caller,
    call: op.call,
    answered: op.answered,
    lookup_transfers: op.lookup_transfers,
    create_accounts: once(op.create_accounts?.map((r) => r.map(unlabelled))),
    openings: once(op.openings),
    chain: op.chain.map(({ role: _role, move: _move, ...transfer }) => transfer),
  };
}

/** What the client sent for one operation, in `--show`'s shape; the status chain's ids as `random`. */
function sentSends(op: PlayedOperation, shown: ShownOperation, where: string) {
  const moves = op.call.op === "do" || op.call.op === "hold";
  const of = <K extends Recorded["kind"]>(kind: K) =>
    op.requests.filter((r): r is Extract<Recorded, { kind: K }> => r.kind === kind);
  strictEqual(of("lookup_accounts").length, 0, `${where}: lookup_accounts`);
  const transfers = of("create_transfers").map((r) => r.events);
  const chain = transfers.at(-1) ?? [];
  const random = chain.filter((_, i) => shown.chain[i]?.id === "random").map((t) => t.id);
  for (const id of random) ok(id > 0n && id < MAX_ID, `${where}: a random id ${id}`);
  strictEqual(new Set(random).size, random.length, `${where}: random ids differ`);
  const silent = moves ? op.requests.length === 0 : transfers.length === 0;
  const answered = silent && (op.outcome === "refused:same_account" || op.outcome === "refused:no_such_hold")
    ? op.outcome.slice("refused:".length)
    : undefined;
  return {
    caller: op.caller ?? undefined,
    call: `${op.call.transfer.name}.${op.call.op}`,
    answered,
    lookup_transfers: moves ? undefined : of("lookup_transfers").flatMap((r) => r.ids),
    create_accounts: moves ? of("create_accounts").map((r) => r.events) : undefined,
    openings: moves ? transfers.slice(0, -1) : undefined,
    chain: chain.map((t, i) => shown.chain[i]?.id === "random" ? { ...t, id: "random" } : t),
  };
}

/**
 * Plays a scenario through a generated client on a fresh double: callers of a `together` one
 * after another, as `--show` plays them. `fresh` gives every operation a new book value (which
 * sends every account and opening again); otherwise one book value plays the whole scenario.
 */
async function play(entry: Entry, book: Book, s: Scenario, fresh: boolean): Promise<Played> {
  const tb = new TigerBeetleDouble();
  const recorder = new Recorder(tb);
  const one = entry(recorder, { tenant: "" });
  const m = members(book, "typescript");
  const run = async (call: Call, caller: number | null): Promise<PlayedOperation> => {
    const before = recorder.requests.length;
    const outcome = await outcomeOf(invoke(m, fresh ? entry(recorder) : one, call));
    return { call, caller, outcome, requests: recorder.requests.slice(before) };
  };
  const steps: Played["steps"] = [];
  const operations: PlayedOperation[][] = [];
  for (const st of s.steps) {
    if (st.kind === "call") {
      const op = await run(st.call, null);
      steps.push(op.outcome);
      operations.push([op]);
    } else if (st.kind === "pass") {
      tb.advance(st.seconds);
      steps.push(null);
      operations.push([]);
    } else {
      const ops: PlayedOperation[] = [];
      const results: string[][] = [];
      for (const [i, calls] of st.callers.entries()) {
        const out: string[] = [];
        for (const c of calls) {
          const op = await run(c, i + 1);
          ops.push(op);
          out.push(op.outcome);
        }
        results.push(out);
      }
      steps.push(results);
      operations.push(ops);
    }
  }
  return { steps, operations, value: one };
}

/** Null when the played scenario is the interpreter's branch: every step's result, then every balance and hold through the client. */
async function agrees(book: Book, s: Scenario, b: Branch, p: Played): Promise<string | null> {
  for (const [i, st] of b.steps.entries()) {
    if (st.kind === "call" && p.steps[i] !== interpreted(st.outcome)) {
      return `step ${i + 1}: ${p.steps[i]}, the interpreter says ${interpreted(st.outcome)}`;
    }
    if (st.kind === "together") {
      const want = st.callers.map((c) => c.map((r) => interpreted(r.outcome)));
      if (JSON.stringify(want) !== JSON.stringify(p.steps[i])) {
        return `step ${i + 1}: ${JSON.stringify(p.steps[i])}, the interpreter says ${JSON.stringify(want)}`;
      }
    }
  }
  const m = members(book, "typescript");
  for (const { id, balance } of b.ledger.accounts()) {
    const a = book.accounts.find((x) => x.name === id.account)!;
    const names = m.accountParams.get(a.name)!;
    const read = p.value.balance[m.accounts.get(a.name)!];
    const got = await (a.params.length === 0
      ? read()
      : read(Object.fromEntries(a.params.map((q, i) => [names.get(q)!, id.args[i]])))) as Balance;
    if (got.posted !== balance.posted || got.held_in !== balance.heldIn || got.held_out !== balance.heldOut) {
      return `balance of ${id.account}(${id.args}): ${got.posted}, ${got.held_in}, ${got.held_out} for ${balance.posted}, ${balance.heldIn}, ${balance.heldOut}`;
    }
  }
  const seen = new Set<string>();
  for (
    const c of s.steps.flatMap((st) =>
      st.kind === "call" ? [st.call] : st.kind === "together" ? st.callers.flat() : []
    )
  ) {
    const t = c.transfer;
    const key = keyValues(c);
    if (t.pending === null || seen.has(JSON.stringify([t.name, ...key]))) continue;
    seen.add(JSON.stringify([t.name, ...key]));
    const state = await p.value[m.transfers.get(t.name)!].status(
      argsObject(m, c, t.params.filter((q) => t.key.includes(q.name))),
    );
    const h = b.ledger.holds().find((x) =>
      x.transfer === t.name && x.key.join("\u0000") === key.join("\u0000")
    );
    if (state !== (h?.state ?? null)) return `hold ${t.name}(${key}): ${state} for ${h?.state ?? null}`;
  }
  return null;
}

Deno.test("for every operation of every scenario of every book, the client sends what --show tigerbeetle prints and answers as the interpreter", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "chobo-tb-ts-" });
  try {
    let operations = 0;
    let scenarios = 0;
    let statusChains = 0;
    let remembered = 0;
    for (const [n, subject] of subjects().entries()) {
      Deno.mkdirSync(`${dir}/${n}`);
      const entry = await importClient(`${dir}/${n}`, subject.book, basename(subject.path));
      for (const scenario of subject.scenarios) {
        const where = `${subject.path}: ${scenario.name}`;
        const shown = (sentTigerBeetleJson(subject.book, scenario) as {
          steps: { operations: ShownOperation[] }[];
        }).steps;
        const branches = runScenario(subject.book, scenario);
        for (const fresh of [true, false]) {
          const played = await play(entry, subject.book, scenario, fresh);
          const created = fresh ? null : new Set<bigint>();
          strictEqual(played.operations.length, shown.length, where);
          played.operations.forEach((ops, i) => {
            strictEqual(ops.length, shown[i].operations.length, `${where}: step ${i + 1}`);
            ops.forEach((op, k) => {
              const at = `${where}: step ${i + 1}${ops.length > 1 ? ` (${k + 1})` : ""}${
                fresh ? "" : ", one book value"
              }`;
              const want = shownSends(shown[i].operations[k], created);
              deepStrictEqual(defined(sentSends(op, shown[i].operations[k], at)), defined(want), at);
              if (fresh) operations++;
              if (fresh && want.chain.some((t) => t.id === "random")) statusChains++;
              if (
                !fresh &&
                (shown[i].operations[k].create_accounts?.flat().length ?? 0) >
                  (want.create_accounts?.flat().length ?? 0)
              ) remembered++;
            });
          });
          const why: string[] = [];
          for (const b of branches) {
            const disagreement = await agrees(subject.book, scenario, b, played);
            if (disagreement === null) break;
            why.push(disagreement);
          }
          ok(why.length < branches.length, `${where}: ${why.join("; ")}`);
        }
        scenarios++;
      }
    }
    ok(scenarios > 400, `only ${scenarios} scenarios`);
    ok(operations > 1200, `only ${operations} operations`);
    ok(statusChains > 20, `only ${statusChains} posts over the hold`);
    ok(remembered > 500, `only ${remembered} operations with accounts sent before`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

// ---------------------------------------------------------------------------------------------
// Reading TigerBeetle's answers: scripted answers, row by row (docs/targets.md#results and the records).

/** A status by name, or a number the node client has no name for. */
type Answer = string | number;

/**
 * TigerBeetle's answers as a test scripts them: each `createTransfers` takes the next of
 * `transfers` ("created": every event created), `createAccounts` answers `accounts`, and
 * `lookupTransfers` finds every id asked with the amount `held` (nothing when null).
 */
class Scripted implements TigerBeetleClient {
  readonly sent: { readonly kind: string; readonly events: readonly (TransferEvent | AccountEvent)[] }[] = [];
  readonly lookups: bigint[][] = [];
  private readonly transfers: (readonly Answer[] | "created")[];
  private readonly accounts: readonly Answer[] | "created";
  private readonly held: bigint | null;
  private readonly sums: AccountRead | null;

  constructor(script: {
    transfers?: (readonly Answer[] | "created")[];
    accounts?: readonly Answer[];
    held?: bigint;
    sums?: AccountRead;
  }) {
    this.transfers = [...script.transfers ?? []];
    this.accounts = script.accounts ?? "created";
    this.held = script.held ?? null;
    this.sums = script.sums ?? null;
  }

  /** Answers not taken yet. */
  get left(): number {
    return this.transfers.length;
  }

  createAccounts(batch: AccountEvent[]): Promise<CreateStatus[]> {
    this.sent.push({ kind: "create_accounts", events: batch });
    return Promise.resolve(this.answers(CREATE_ACCOUNT_STATUS, batch, this.accounts));
  }

  createTransfers(batch: TransferEvent[]): Promise<CreateStatus[]> {
    this.sent.push({ kind: "create_transfers", events: batch });
    const next = this.transfers.shift();
    if (next === undefined) throw new Error("a create_transfers the test did not script");
    return Promise.resolve(this.answers(CREATE_TRANSFER_STATUS, batch, next));
  }

  lookupTransfers(ids: bigint[]): Promise<TransferRead[]> {
    this.lookups.push([...ids]);
    const held = this.held;
    return Promise.resolve(held === null ? [] : ids.map((id) => ({ id, amount: held })));
  }

  lookupAccounts(ids: bigint[]): Promise<AccountRead[]> {
    return Promise.resolve(this.sums === null ? [] : ids.map((id) => ({ ...this.sums!, id })));
  }

  private answers(
    table: Readonly<Record<string, number>>,
    batch: readonly unknown[],
    script: readonly Answer[] | "created",
  ): CreateStatus[] {
    const names = script === "created" ? batch.map(() => "created") : script;
    return names.map((a) => typeof a === "number" ? { status: a } : statusCode(table, a));
  }
}

/** A book value of `entry` on scripted answers: what it answered and what it sent. */
async function scripted(
  entry: Entry,
  script: ConstructorParameters<typeof Scripted>[0],
  f: (book: ClientBook) => Promise<unknown>,
): Promise<{ outcome: string; client: Scripted }> {
  const client = new Scripted(script);
  const outcome = await outcomeOf(f(entry(client)));
  strictEqual(client.left, 0, `${outcome}: scripted answers left`);
  return { outcome, client };
}

/** TigerBeetle answering a case of tests/vectors/tigerbeetle_answers.json as its `rule` says; what was sent. */
class VectorClient implements TigerBeetleClient {
  readonly sent: string[] = [];
  private readonly transfers: (readonly string[] | "created")[];

  constructor(private readonly c: TbVectorCase) {
    this.transfers = [...c.transfers];
  }

  get left(): number {
    return this.transfers.length;
  }

  createAccounts(batch: AccountEvent[]): Promise<CreateStatus[]> {
    this.sent.push(`create_accounts ${batch.length}`);
    return Promise.resolve(batch.map(() => statusCode(CREATE_ACCOUNT_STATUS, "created")));
  }

  createTransfers(batch: TransferEvent[]): Promise<CreateStatus[]> {
    this.sent.push(`create_transfers ${batch.length}`);
    const next = this.transfers.shift();
    if (next === undefined) throw new Error("a create_transfers the case does not script");
    const names = next === "created" ? batch.map(() => "created") : next;
    return Promise.resolve(names.map((n) => statusCode(CREATE_TRANSFER_STATUS, n)));
  }

  lookupTransfers(ids: bigint[]): Promise<TransferRead[]> {
    this.sent.push(`lookup_transfers ${ids.length}`);
    const held = this.c.held;
    return Promise.resolve(held === undefined ? [] : ids.map((id) => ({ id, amount: held })));
  }

  lookupAccounts(ids: bigint[]): Promise<AccountRead[]> {
    this.sent.push(`lookup_accounts ${ids.length}`);
    return Promise.resolve([]);
  }
}

Deno.test("tests/vectors/tigerbeetle_answers.json: every case sends its requests and answers its outcome", async () => {
  const vectors = tigerbeetleVectors();
  const dir = Deno.makeTempDirSync({ prefix: "chobo-tb-ts-" });
  try {
    const file = vectors.book.slice(vectors.book.lastIndexOf("/") + 1);
    const entry = await importClient(dir, load(`${ROOT}${vectors.book}`), file);
    const played: TbVectorPlay[] = [];
    for (const c of vectors.cases) {
      const client = new VectorClient(c);
      const [transfer, op] = c.call.split(".");
      const member = entry(client)[transfer];
      const { qty, ...key } = c.args;
      const answer = op === "status"
        ? member.status(key).then((state) => ({ result: `state:${state ?? "none"}` }))
        : op === "post" || op === "void"
        ? (qty === undefined ? member[op](key) : member[op](key, { qty }))
        : member[op](c.args);
      played.push({ sent: client.sent, outcome: await outcomeOf(answer), left: client.left });
    }
    assertTbVectors("typescript", played, (o) => o.startsWith("failed:chobo: "));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a status the node client has no name for is an error of chobo's client, never a refusal", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "chobo-tb-ts-" });
  try {
    const entry = await importClient(dir, load("bounds.book", BOUNDS_BOOK), "bounds.book");
    const { outcome } = await scripted(
      entry,
      { transfers: ["created", [9999, L, L, L, L, L]] },
      (b) => b.spread.do({ batch: "b", sku: "s", qty: 2n }),
    );
    ok(outcome.startsWith("failed:chobo: TigerBeetle answered spread.do with "), outcome);
    ok(outcome.includes("status 9999") && outcome.includes("a bug in the client"), outcome);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("the records (a)–(l) of 0.17.9, as the client answers them", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "chobo-tb-ts-" });
  try {
    Deno.mkdirSync(`${dir}/stock`);
    Deno.mkdirSync(`${dir}/bounds`);
    const stock = await importClient(`${dir}/stock`, load(`${ROOT}tests/chobo/books/在庫.book`), "在庫.book");
    const bounds = await importClient(`${dir}/bounds`, load("bounds.book", BOUNDS_BOOK), "bounds.book");
    const key = { 注文: "o-1", sku: "A-1" };
    const receive = (b: ClientBook) => b.入荷.do({ 納品書: "d-1", sku: "A-1", 数: 1n });
    const hold = (n: bigint) => (b: ClientBook) => b.引当.hold({ ...key, 数: n });
    const post = (n?: bigint) => (b: ClientBook) =>
      n === undefined ? b.引当.post(key) : b.引当.post(key, { 数: n });
    const cancel = (b: ClientBook) => b.引当.void(key);
    type Row = [
      string,
      Entry,
      ConstructorParameters<typeof Scripted>[0],
      (b: ClientBook) => Promise<unknown>,
      string,
    ];
    const rows: Row[] = [
      ["(a) receive 1 into stock", stock, { transfers: [["created"]] }, receive, "done"],
      ["(b) hold 1", stock, { transfers: [["created"]] }, hold(1n), "done"],
      ["(c) hold 1 more", stock, { transfers: [["exceeds_credits"]] }, hold(1n), "refused:在庫切れ"],
      [
        "(d) the same again",
        stock,
        { transfers: [["id_already_failed"]] },
        hold(1n),
        "refused:already_refused",
      ],
      [
        "(e) same id, amount 5",
        stock,
        { transfers: [["id_already_failed"]] },
        hold(5n),
        "refused:already_refused",
      ],
      ["(f) post the hold in full", stock, { held: 1n, transfers: [["created"]] }, post(), "done"],
      ["(f) retry in full", stock, { held: 1n, transfers: [["exists"]] }, post(), "done_before"],
      ["(f) retry, amount 1", stock, { held: 1n, transfers: [["exists"]] }, post(1n), "done_before"],
      [
        "(f) retry, amount 0",
        stock,
        { held: 1n, transfers: [["exists_with_different_amount"]] },
        post(0n),
        "refused:key_conflict",
      ],
      [
        "(f) retry, amount 5: over the hold, whose status reads posted",
        stock,
        { held: 1n, transfers: [["pending_transfer_already_posted", L]] },
        post(5n),
        "refused:key_conflict",
      ],
      [
        "(g) void the posted hold",
        stock,
        { held: 1n, transfers: [["pending_transfer_already_posted"]] },
        cancel,
        "refused:already_posted",
      ],
      ["(g) post a hold that is not there: nothing sent", stock, {}, post(), "refused:no_such_hold"],
      ["(g) void a hold that is not there: nothing sent", stock, {}, cancel, "refused:no_such_hold"],
      [
        "(h) post after the timeout",
        stock,
        { held: 1n, transfers: [["pending_transfer_expired"]] },
        post(),
        "refused:expired",
      ],
      [
        "(h) void after release",
        stock,
        { held: 1n, transfers: [["pending_transfer_expired"]] },
        cancel,
        "refused:expired",
      ],
      ["a hold sent again after it expired", stock, { transfers: [["exists"]] }, hold(1n), "done_before"],
      [
        "(i) chain: +5 into plain, -100 out of it",
        bounds,
        { transfers: [[L, "exceeds_credits"]] },
        (b) => b.swap.do({ swapId: "w", sku: "s", qty: 5n }),
        "refused:plain_short",
      ],
      [
        "(i) retry",
        bounds,
        { transfers: [[L, "id_already_failed"]] },
        (b) => b.swap.do({ swapId: "w", sku: "s", qty: 5n }),
        "refused:already_refused",
      ],
      [
        "(j) pending: suppliers → plain, plain → customers",
        bounds,
        { transfers: [[L, "exceeds_credits"]] },
        (b) => b.route.hold({ routeId: "r", sku: "s", qty: 1n }),
        "refused:plain_short",
      ],
      [
        "(k) +2 into capped (room −2)",
        bounds,
        { transfers: ["created", ["created", "created"]] },
        (b) => b.restock.do({ delivery: "d", sku: "s", qty: 2n }),
        "done",
      ],
      [
        "(k) +2 more",
        bounds,
        { transfers: ["created", [L, "exceeds_credits"]] },
        (b) => b.restock.do({ delivery: "d", sku: "s", qty: 2n }),
        "refused:safe_full",
      ],
      [
        "(k) hold +1 into capped",
        bounds,
        { transfers: ["created", ["created", "created"]] },
        (b) => b.fill.hold({ fillId: "f", sku: "s", qty: 1n }),
        "done",
      ],
      [
        "(k) hold +1 more",
        bounds,
        { transfers: ["created", [L, "exceeds_credits"]] },
        (b) => b.fill.hold({ fillId: "f", sku: "s", qty: 1n }),
        "refused:cap_full",
      ],
      [
        "(l) take 3 (probe 2 must fit after)",
        bounds,
        { transfers: [[L, "exceeds_credits", L]] },
        (b) => b.take.do({ takeId: "t", sku: "s", qty: 3n }),
        "refused:shelf_short",
      ],
      [
        "(l) take 2",
        bounds,
        { transfers: [["created", "created", "created"]] },
        (b) => b.take.do({ takeId: "t", sku: "s", qty: 2n }),
        "done",
      ],
      [
        "the same chain again",
        bounds,
        { transfers: [["exists", L]] },
        (b) => b.swap.do({ swapId: "w", sku: "s", qty: 100n }),
        "done_before",
      ],
      [
        "chain with a new first event",
        bounds,
        { transfers: [[L, "exists"]] },
        (b) => b.swap.do({ swapId: "w", sku: "s", qty: 100n }),
        "refused:key_conflict",
      ],
      [
        "user_data_128 differs on the first",
        bounds,
        { transfers: [["exists_with_different_user_data_128", L]] },
        (b) => b.swap.do({ swapId: "w", sku: "s", qty: 100n }),
        "refused:key_conflict",
      ],
      [
        "post both again",
        bounds,
        { held: 1n, transfers: [["exists", L]] },
        (b) => b.route.post({ routeId: "r", sku: "s" }),
        "done_before",
      ],
      [
        "void both",
        bounds,
        { held: 1n, transfers: [["pending_transfer_already_posted", L]] },
        (b) => b.route.void({ routeId: "r", sku: "s" }),
        "refused:already_posted",
      ],
      [
        "create_accounts: created",
        stock,
        { accounts: ["created", "created"], transfers: [["created"]] },
        receive,
        "done",
      ],
      [
        "create_accounts: the same again, exists",
        stock,
        { accounts: ["exists", "exists"], transfers: [["created"]] },
        receive,
        "done",
      ],
    ];
    for (const [row, entry, script, f, want] of rows) {
      const { outcome, client } = await scripted(entry, script, f);
      strictEqual(outcome, want, row);
      if (row.includes("nothing sent")) {
        strictEqual(client.sent.length, 0, row);
        strictEqual(client.lookups.length, 1, row);
      }
    }

    // A full post sends the amount read; a post over the hold sends the status chain, not the post.
    const full = await scripted(stock, { held: 3n, transfers: [["created"]] }, post());
    const [posted] = full.client.sent[0].events as TransferEvent[];
    deepStrictEqual([posted.amount, posted.flags], [3n, TRANSFER_FLAGS.post_pending_transfer]);
    const over = await scripted(
      stock,
      { held: 3n, transfers: [[L, "accounts_must_be_different"]] },
      post(5n),
    );
    strictEqual(over.outcome, "refused:over_hold");
    const [voids, refusal] = over.client.sent[0].events as TransferEvent[];
    strictEqual(voids.pending_id, full.client.lookups[0][0]);
    strictEqual(voids.flags, TRANSFER_FLAGS.void_pending_transfer | TRANSFER_FLAGS.linked);
    strictEqual(refusal.debit_account_id, refusal.credit_account_id);
    ok(voids.id !== refusal.id && voids.id !== posted.id);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("an account that exists with other flags, or an opening with another amount, is an error naming what changed", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "chobo-tb-ts-" });
  try {
    const texts = {
      before: BOUNDS_BOOK,
      bound: BOUNDS_BOOK.replace("at most 10 refused as cap_full", "at most 12 refused as cap_full"),
      flags: BOUNDS_BOOK.replace("at least 0 refused as plain_short", "at least -1 refused as plain_short"),
    };
    const entries: Record<string, Entry> = {};
    for (const [name, text] of Object.entries(texts)) {
      Deno.mkdirSync(`${dir}/${name}`);
      entries[name] = await importClient(`${dir}/${name}`, load("bounds.book", text), "bounds.book");
    }

    // Scripted: create_accounts answers exists_with_different_flags for the second account.
    const flags = await scripted(
      entries.before,
      { accounts: ["exists", "exists_with_different_flags", "exists", "exists"] },
      (b) => b.empty.do({ emptyId: "e", sku: "s", qty: 1n }),
    );
    ok(
      flags.outcome.startsWith(
        "failed:chobo: the TigerBeetle account of plain(s) exists with different flags: the book's account definition changed",
      ),
      flags.outcome,
    );
    deepStrictEqual(flags.client.sent.map((r) => r.kind), ["create_accounts"]);
    // Scripted: the opening of restock's room answers exists_with_different_amount; no chain follows.
    const amount = await scripted(
      entries.before,
      { transfers: [["exists_with_different_amount"]] },
      (b) => b.restock.do({ delivery: "d", sku: "s", qty: 1n }),
    );
    ok(
      amount.outcome.startsWith(
        "failed:chobo: the opening of room of safe(s) exists with different amount: the book's bound changed",
      ),
      amount.outcome,
    );
    deepStrictEqual(amount.client.sent.map((r) => r.kind), ["create_accounts", "create_transfers"]);

    // Through the double, on one tenant: the book, then the book with another upper bound or flag.
    const recorder = new Recorder(new TigerBeetleDouble());
    const before = entries.before(recorder, { tenant: "t" });
    strictEqual(await outcomeOf(before.fill.hold({ fillId: "f-1", sku: "s-1", qty: 1n })), "done");
    strictEqual(await outcomeOf(before.empty.do({ emptyId: "e-1", sku: "s-1", qty: 0n })), "done");
    const sent = recorder.requests.length;
    await rejects(
      entries.bound(recorder, { tenant: "t" }).fill.hold({ fillId: "f-2", sku: "s-1", qty: 1n }),
      /^Error: chobo: the opening of room of cap\(s-1\) exists with different amount: the book's bound changed \(docs\/targets\.md#changing-a-book\)/,
    );
    deepStrictEqual(recorder.requests.slice(sent).map((r) => r.kind), [
      "create_accounts",
      "create_transfers",
    ]);
    await rejects(
      entries.flags(recorder, { tenant: "t" }).empty.do({ emptyId: "e-2", sku: "s-1", qty: 0n }),
      /^Error: chobo: the TigerBeetle account of plain\(s-1\) exists with different flags: the book's account definition changed \(docs\/targets\.md#changing-a-book\)/,
    );
    // Another tenant is other accounts; the book as it was still works on the first.
    strictEqual(
      await outcomeOf(
        entries.bound(recorder, { tenant: "u" }).fill.hold({ fillId: "f-2", sku: "s-1", qty: 1n }),
      ),
      "done",
    );
    strictEqual(await outcomeOf(before.fill.hold({ fillId: "f-3", sku: "s-1", qty: 1n })), "done");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("the tenant is in every id; accounts are sent once per book value; bad arguments send nothing; a balance past 64 bits fails when read", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "chobo-tb-ts-" });
  try {
    const book = load("bounds.book", BOUNDS_BOOK);
    const entry = await importClient(dir, book, "bounds.book");
    const recorder = new Recorder(new TigerBeetleDouble());
    const value = entry(recorder, { tenant: "t-1" });
    const spread = { batch: "b-1", sku: "s-1", qty: 2n };
    // Another book value fills safe above its lower bound 3 first.
    strictEqual(
      await outcomeOf(
        entry(recorder, { tenant: "t-1" }).restock.do({ delivery: "d-1", sku: "s-1", qty: 10n }),
      ),
      "done",
    );
    recorder.requests.length = 0;
    strictEqual(await outcomeOf(value.spread.do(spread)), "done");
    const shown = moveSends(lowerChains(book), "t-1", callOf(book, "spread", "do", spread))!;
    deepStrictEqual(recorder.requests, [
      { kind: "create_accounts", events: shown.accounts.map((a) => a.event) },
      { kind: "create_transfers", events: shown.openings },
      { kind: "create_transfers", events: shown.chain.map((e) => e.transfer) },
    ]);
    // The same book value sends no account or opening again; a new one does (each answered exists).
    strictEqual(await outcomeOf(value.spread.do({ ...spread, batch: "b-2" })), "done");
    deepStrictEqual(recorder.requests.slice(3).map((r) => r.kind), ["create_transfers"]);
    strictEqual(
      await outcomeOf(entry(recorder, { tenant: "t-1" }).spread.do({ ...spread, batch: "b-3" })),
      "done",
    );
    deepStrictEqual(recorder.requests.slice(4).map((r) => r.kind), [
      "create_accounts",
      "create_transfers",
      "create_transfers",
    ]);

    // Arguments outside their types are errors before anything is sent.
    const before = recorder.requests.length;
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ ...spread, qty: -1n }, /qty is an amount from 0 to 2\^63 - 1/],
      [{ ...spread, qty: 1n << 63n }, /qty is an amount from 0 to 2\^63 - 1/],
      [{ ...spread, qty: 1 }, /qty is an amount from 0 to 2\^63 - 1/],
      [{ ...spread, sku: 7 }, /sku is a string/],
    ];
    for (const h of HOSTILE_STRINGS.filter((h) => h.failed)) {
      bad.push([{ ...spread, sku: h.sku }, /^chobo: sku /]);
    }
    const refused = (why: RegExp) => (e: Error) => e.name === "ChoboArgumentError" && why.test(e.message);
    for (const [args, why] of bad) await rejects(value.spread.do(args), refused(why));
    await rejects(value.reserve.post({ order: "o", sku: 1 }), refused(/sku is a string/));
    // The probe: two order ids that would both be U+FFFD in their ids (docs/reference.md#limits).
    for (const order of ["\ud800", "\udbff"]) {
      await rejects(value.reserve.hold({ order, sku: "s-1", qty: 1n }), refused(/not well-formed Unicode/));
    }
    await rejects(value.balance.shelf({ sku: "x".repeat(257) }), refused(/sku is 257 UTF-8 bytes/));
    throws(() => entry(recorder, { tenant: "t".repeat(257) }), refused(/tenant is 257 UTF-8 bytes/));
    strictEqual(recorder.requests.length, before);

    // TigerBeetle's balances are 128-bit: the operation passes, reading the balance fails
    // (docs/design/chobo.md#tigerbeetle).
    const max = (1n << 63n) - 1n;
    strictEqual(await outcomeOf(value.repay.do({ payment: "p-1", member: "m-1", qty: max })), "done");
    deepStrictEqual(await value.balance.credit({ member: "m-1" }), {
      posted: max,
      held_in: 0n,
      held_out: 0n,
    });
    strictEqual(await outcomeOf(value.repay.do({ payment: "p-2", member: "m-1", qty: max })), "done");
    await rejects(
      value.balance.credit({ member: "m-1" }),
      /^Error: chobo: the balance of credit\(m-1\) leaves the 64-bit range \(posted 18446744073709551614/,
    );
    await rejects(value.balance.suppliers(), /the balance of suppliers leaves the 64-bit range/);
    // An account never written reads 0, 0, 0.
    deepStrictEqual(await value.balance.cap({ sku: "nowhere" }), { posted: 0n, held_in: 0n, held_out: 0n });
    const scripted = entry(
      new Scripted({
        sums: { id: 0n, debits_pending: 2n, debits_posted: 3n, credits_pending: 1n, credits_posted: 10n },
      }),
    );
    deepStrictEqual(await scripted.balance.cap({ sku: "s" }), { posted: 7n, held_in: 1n, held_out: 2n });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("calls made at once on one book value share requests up to the request limit, each chain whole, each answer its own", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "chobo-tb-ts-" });
  try {
    const book = load("bounds.book", BOUNDS_BOOK);
    const entry = await importClient(dir, book, "bounds.book") as (
      client: TigerBeetleClient,
      options?: { tenant?: string; requestLimit?: number },
    ) => ClientBook;
    const recorder = new Recorder(new TigerBeetleDouble());
    const value = entry(recorder, { tenant: "t-batch" });
    strictEqual(await outcomeOf(value.restock.do({ delivery: "d-1", sku: "s", qty: 100n })), "done");
    strictEqual(await outcomeOf(value.spread.do({ batch: "warm", sku: "s", qty: 1n })), "done");
    recorder.requests.length = 0;
    // 50 spreads of 1 at once, each a chain of 6: bin(s) takes 19 more before its upper bound 20.
    const calls = Array.from(
      { length: 50 },
      (_, i) => value.spread.do({ batch: `b-${i}`, sku: "s", qty: 1n }),
    );
    const outcomes = await Promise.all(calls.map(outcomeOf));
    deepStrictEqual(outcomes, Array.from({ length: 50 }, (_, i) => i < 19 ? "done" : "refused:bin_full"));
    // 300 transfers in requests of at most 253, no chain split: 42 chains, then 8.
    deepStrictEqual(
      recorder.requests.map((r) => r.kind === "create_transfers" ? r.events.length : r.kind),
      [252, 48],
    );
    const chain = moveSends(
      lowerChains(book),
      "t-batch",
      callOf(book, "spread", "do", {
        batch: "b-0",
        sku: "s",
        qty: 1n,
      }),
    )!.chain.map((e) => e.transfer);
    const first = recorder.requests[0];
    ok(first.kind === "create_transfers");
    deepStrictEqual(first.events.slice(0, 6), chain);
    // A larger limit, as a replica started with a larger --limit-request takes: one request.
    const wide = entry(recorder, { tenant: "t-batch-2", requestLimit: 8189 });
    strictEqual(await outcomeOf(wide.restock.do({ delivery: "d-1", sku: "s", qty: 100n })), "done");
    strictEqual(await outcomeOf(wide.spread.do({ batch: "warm", sku: "s", qty: 1n })), "done");
    recorder.requests.length = 0;
    const wideCalls = Array.from(
      { length: 50 },
      (_, i) => wide.spread.do({ batch: `b-${i}`, sku: "s", qty: 0n }),
    );
    deepStrictEqual(await Promise.all(wideCalls.map(outcomeOf)), Array(50).fill("done"));
    deepStrictEqual(recorder.requests.map((r) => r.kind === "create_transfers" ? r.events.length : r.kind), [
      300,
    ]);
    // A limit under the longest chain E060 lets through is refused before anything is sent.
    throws(() => entry(recorder, { tenant: "t", requestLimit: 100 }), /requestLimit is 100/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
