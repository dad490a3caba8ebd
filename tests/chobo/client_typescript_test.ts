/**
 * chobo's TypeScript client for PostgreSQL (`postgres-typescript`): every test and example book's
 * client passes the real TypeScript compiler under `--strict --erasableSyntaxOnly
 * --noUnusedLocals`, ends with the runtime byte for byte, and is the same bytes twice; through the
 * runner on a disposable server it answers as the book says and sends exactly the statements of
 * `calls.ts`; it retries serialization failures and deadlocks, and inside the caller's failed
 * transaction returns the first error.
 */

import { whileRowsHeld } from "../support/held_rows.ts";
import { deepStrictEqual, ok, rejects, strictEqual, throws } from "node:assert/strict";
import { fileURLToPath, pathToFileURL } from "node:url";
import pg from "pg";

import type { OpName } from "../../lang/chobo/interp.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { members } from "../../targets/chobo/names.ts";
import {
  balanceStatement,
  callStatement,
  expireStatement,
  type Statement,
  statusStatement,
} from "../../targets/chobo/postgres/calls.ts";
import type { Balance, HoldState, Outcome, Queryable } from "../../targets/chobo/postgres/runtime/runtime.ts";
import { postgresSql } from "../../targets/chobo/postgres/sql.ts";
import { typescriptClient } from "../../targets/chobo/postgres/typescript.ts";
import { RUNTIME_MARK } from "../../targets/chobo/typescript_names.ts";
import { findPgBin, startCluster } from "../../verify/services/pg_cluster.ts";
import { everyBook, loadBook as load } from "../support/books.ts";
import { jobCall } from "../support/calls.ts";
import { HOSTILE_STRINGS } from "../support/hostile.ts";
import { npxTsc, TYPESCRIPT } from "../support/tsc.ts";

/** The flags the clients are checked with, by `typescript@7.0.2` (`tests/support/tsc.ts`), the native (Go) compiler. */
const TSC_FLAGS = [
  "--strict",
  "--erasableSyntaxOnly",
  "--noUnusedLocals",
  "--noEmit",
  "--target",
  "es2022",
  "--module",
  "nodenext",
];
const RUNTIME = new URL("../../targets/chobo/postgres/runtime/runtime.ts", import.meta.url);
const RUNNER = fileURLToPath(new URL("../../verify/chobo/runners/typescript/runner.ts", import.meta.url));
const STOCK = fileURLToPath(new URL("./books/在庫.book", import.meta.url));
const ORIGIN = { sha: "0123456789abcdef", version: "test" };

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

/** Calls the generated 在庫 client against it: its types would reject a wrong argument. */
const STOCK_USE = `import { postgres, type Reason, type Result } from "./在庫.js";

const db = { query: (_text: string, _values: unknown[]) => Promise.resolve({ rows: [] as unknown[] }) };

export async function use(): Promise<bigint> {
  const book = postgres(db, { tenant: "t" });
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
  const state: "held" | "posted" | "voided" | "expired" | null = await book.引当.status({ 注文: "o-1", sku: "A-1" });
  console.log(state, await book.expire());
  return (await book.balance.在庫({ sku: "A-1" })).posted + (await book.balance.客()).held_in;
}
`;

/** Calls the names book's client by the names docs/targets.md gives it. */
const NAMES_USE =
  `import { postgres, type ShopSalesAccount, type TakeBack_2Key, type TakeBackArgs } from "./names.js";

const db = { query: (_text: string, _values: unknown[]) => Promise.resolve({ rows: [] as unknown[] }) };

export async function use(): Promise<bigint> {
  const book = postgres(db);
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
  console.log(await book.expire());
  return (await book.balance.shopSales(account)).posted + (await book.balance["a⃝"]({ "s⃝": "k" })).posted;
}
`;

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function clientText(book: Book, file: string): string {
  const files = typescriptClient(book, { file, ...ORIGIN });
  deepStrictEqual([...files.keys()], [`${book.name}.ts`]);
  return files.get(`${book.name}.ts`)!;
}

/** Writes a book's client into `dir` and gives its path. */
function writeClient(dir: string, book: Book, file: string): string {
  const path = `${dir}/${book.name}.ts`;
  Deno.writeTextFileSync(path, clientText(book, file));
  return path;
}

Deno.test("every book's client passes tsc --strict --erasableSyntaxOnly --noUnusedLocals, and its types hold", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "chobo-ts-" });
  try {
    // ESM, as Node runs a .ts file by stripping its types.
    Deno.writeTextFileSync(`${dir}/package.json`, `{ "type": "module" }\n`);
    const files: string[] = [];
    const books = [...everyBook().map((p) => ({ path: p, book: load(p) })), {
      path: "names.book",
      book: load("names.book", NAMES_BOOK),
    }];
    for (const [i, { path, book }] of books.entries()) {
      Deno.mkdirSync(`${dir}/${i}`);
      files.push(writeClient(`${dir}/${i}`, book, basename(path)).slice(dir.length + 1));
      const use = path.endsWith("/tests/chobo/books/在庫.book")
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
    const version = await npxTsc(["--version"], dir);
    if (version === null) return;
    strictEqual(version.out.trim(), `Version ${TYPESCRIPT.split("@")[1]}`);
    const run = (await npxTsc([...TSC_FLAGS, ...files], dir))!;
    strictEqual(run.out, "");
    strictEqual(run.code, 0);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("every client starts with the header and ends with the runtime byte for byte; same book, same bytes", () => {
  const runtime = Deno.readFileSync(RUNTIME);
  for (const path of everyBook()) {
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
});

/** The 在庫 client's surface, as the tests call it. */
interface StockBook {
  readonly 入荷: { do(args: { 納品書: string; sku: string; 数: bigint }): Promise<Outcome<string>> };
  readonly 引当: {
    hold(args: { 注文: string; sku: string; 数: bigint }): Promise<Outcome<string>>;
    status(key: { 注文: string; sku: string }): Promise<HoldState | null>;
  };
  readonly balance: { 在庫(account: { sku: string }): Promise<Balance> };
}

async function importStock(
  path: string,
): Promise<(db: Queryable, options?: { tenant?: string }) => StockBook> {
  return (await import(pathToFileURL(path).href)).postgres;
}

/** A connection that records what it is sent and answers from `answer`. */
function fakeDb(answer: (tries: number) => unknown[]): Queryable & { sent: Statement[] } {
  const sent: Statement[] = [];
  return {
    sent,
    query(text, values) {
      sent.push({ text, values: values as (string | null)[] });
      try {
        return Promise.resolve({ rows: answer(sent.length) });
      } catch (e) {
        return Promise.reject(e);
      }
    },
  };
}

function pgError(code: string): Error & { code: string } {
  return Object.assign(new Error(`error ${code}`), { code });
}

Deno.test("a serialization failure or deadlock is tried again up to 30 times; 25P02 returns the first error; others at once", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "chobo-ts-" });
  try {
    const book = load(STOCK);
    const postgres = await importStock(writeClient(dir, book, "在庫.book"));
    const statement = callStatement(book, {
      transfer: book.transfers[0],
      op: "do",
      strings: new Map([["納品書", "d"], ["sku", "s"]]),
      amounts: new Map([["数", 1n]]),
    }, "t");
    const receive = (db: Queryable) =>
      postgres(db, { tenant: "t" }).入荷.do({ 納品書: "d", sku: "s", 数: 1n });

    const lucky = fakeDb((n) => {
      if (n < 30) throw pgError(n % 2 === 0 ? "40P01" : "40001");
      return [{ result: "done", reason: null }];
    });
    deepStrictEqual(await receive(lucky), { result: "done" });
    deepStrictEqual(lucky.sent, Array(30).fill(statement));

    const unlucky = fakeDb((n) => {
      throw pgError(n === 30 ? "40P01" : "40001");
    });
    await rejects(receive(unlucky), (e: { code?: string }) => e.code === "40P01");
    strictEqual(unlucky.sent.length, 30);

    const first = pgError("40001");
    const inTransaction = fakeDb((n) => {
      throw n === 1 ? first : pgError("25P02");
    });
    await rejects(receive(inTransaction), (e) => e === first);
    strictEqual(inTransaction.sent.length, 2);

    const other = fakeDb(() => {
      throw pgError("22023");
    });
    await rejects(receive(other), (e: { code?: string }) => e.code === "22023");
    strictEqual(other.sent.length, 1);

    const stranger = fakeDb(() => [{ result: "refused", reason: "no_such_reason" }]);
    await rejects(receive(stranger), /unexpected answer/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

/** Runs `f` on a disposable server, or prints SKIP when this machine has no server binaries. */
async function onServer(f: (socketDir: string) => Promise<void>): Promise<void> {
  const bin = findPgBin();
  if (bin === null) {
    console.log("SKIP: chobo: postgres-typescript: no initdb/pg_ctl on this machine");
    return;
  }
  const cluster = await startCluster(bin);
  try {
    await f(cluster.socketDir);
  } finally {
    await cluster.stop();
  }
}

/** The part of `pg`'s pool the tests use (`npm:pg` has no types of its own). */
interface Pool {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  connect(): Promise<Queryable & { release(): void }>;
  on(event: "error", listener: () => void): void;
  end(): Promise<void>;
}

function serverPool(socketDir: string, options?: string): Pool {
  const pool: Pool = new pg.Pool({
    host: socketDir,
    user: "postgres",
    database: "postgres",
    max: 8,
    options,
  });
  // An idle connection the server closes (at shutdown) is not an error of any call.
  pool.on("error", () => {});
  return pool;
}

/** A step of the runner's jobs.json: a call with its strings and decimal amounts. */
interface CallStep {
  call: string;
  op: OpName;
  strings: Record<string, string>;
  amounts?: Record<string, string>;
}

const receive = (d: string, n: string): CallStep => ({
  call: "入荷",
  op: "do",
  strings: { 納品書: d, sku: "s-1" },
  amounts: { 数: n },
});
const hold = (o: string, n: string): CallStep => ({
  call: "引当",
  op: "hold",
  strings: { 注文: o, sku: "s-1" },
  amounts: { 数: n },
});
const post = (o: string, n?: string): CallStep => ({
  call: "引当",
  op: "post",
  strings: { 注文: o, sku: "s-1" },
  ...(n === undefined ? {} : { amounts: { 数: n } }),
});
const cancel = (o: string): CallStep => ({ call: "引当", op: "void", strings: { 注文: o, sku: "s-1" } });

Deno.test("server: the runner plays jobs through the client, which sends exactly the statements of calls.ts", async () => {
  await onServer(async (socketDir) => {
    // Holds of a second, so that a pass really waits for them and expire() gives one back.
    const book = load(STOCK, Deno.readTextFileSync(STOCK).replace("30 minutes", "1 seconds"));
    const pool = serverPool(socketDir);
    const dir = Deno.makeTempDirSync({ prefix: "chobo-ts-" });
    try {
      await pool.query(postgresSql(book, "在庫.book", "test", "test"));
      const client = writeClient(dir, book, "在庫.book");
      const run = `run-${Date.now()}`;
      const tenants = [`${run}/在庫#1/1`, `${run}/在庫#2/1`];
      const m = members(book, "typescript");
      const jobs = [
        {
          id: "在庫#1",
          book: "在庫",
          tenant: tenants[0],
          steps: [
            receive("d-1", "2"),
            hold("o-1", "1"),
            { together: [[hold("o-2", "1")], [hold("o-3", "1")]] },
            post("o-1"),
            { pass: true },
            receive("d-1", "2"),
          ],
        },
        {
          id: "在庫#2",
          book: "在庫",
          tenant: tenants[1],
          steps: [
            receive("d-1", "5"),
            hold("o-1", "3"),
            post("o-1", "2"),
            cancel("o-1"),
            receive("d-2", "-1"),
            cancel("o-9"),
          ],
        },
      ];
      Deno.writeTextFileSync(
        `${dir}/jobs.json`,
        JSON.stringify({
          socket_dir: socketDir,
          pool: 4,
          expiry_ms: 1000,
          margin_ms: 300,
          clients: { 在庫: client },
          jobs,
          members: {
            在庫: {
              transfers: Object.fromEntries(m.transfers),
              params: Object.fromEntries([...m.transferParams].map(([k, v]) => [k, Object.fromEntries(v)])),
            },
          },
        }),
      );
      const started = Date.now();
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", RUNNER, `${dir}/jobs.json`],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const elapsed = Date.now() - started;
      strictEqual(out.code, 0, new TextDecoder().decode(out.stderr));
      const { results } = JSON.parse(new TextDecoder().decode(out.stdout));
      deepStrictEqual(results.map((r: { id: string }) => r.id), ["在庫#1", "在庫#2"]);

      const [a, b] = results;
      const [together] = a.steps.splice(2, 1);
      deepStrictEqual(a.steps, ["done", "done", "done", null, "done_before"]);
      deepStrictEqual([...together].sort(), [["done"], ["refused:在庫切れ"]]);
      strictEqual(a.late, false);
      const winner = together[0][0] === "done" ? "o-2" : "o-3";
      const loser = winner === "o-2" ? "o-3" : "o-2";
      const [receive1, hold1, togetherSteps, post1, , receive2] = jobs[0].steps;
      const stmt = (s: unknown, tenant: string) => callStatement(book, jobCall(book, s as CallStep), tenant);
      const bothHolds = (togetherSteps as { together: CallStep[][] }).together.map(([s]) =>
        stmt(s, tenants[0])
      );
      const sentTogether = a.sent.splice(2, 2);
      deepStrictEqual(a.sent, [
        stmt(receive1, tenants[0]),
        stmt(hold1, tenants[0]),
        stmt(post1, tenants[0]),
        expireStatement(book),
        stmt(receive2, tenants[0]),
      ]);
      deepStrictEqual(
        sentTogether.map((s: Statement) => JSON.stringify(s)).sort(),
        bothHolds.map((s) => JSON.stringify(s)).sort(),
      );
      // The pass waited for the winner's hold to pass its second (and 0.3 s more) before expire().
      ok(elapsed >= 1300, `the run took ${elapsed} ms`);

      strictEqual(b.steps.length, 6);
      deepStrictEqual(b.steps.slice(0, 4), ["done", "done", "done", "refused:already_posted"]);
      ok(b.steps[4].startsWith("failed:chobo: 数 is an amount"), b.steps[4]);
      strictEqual(b.steps[5], "refused:no_such_hold");
      strictEqual(b.late, false);
      // The amount −1 is refused by the client (ChoboArgumentError): it is never sent.
      deepStrictEqual(b.sent, jobs[1].steps.filter((_, i) => i !== 4).map((s) => stmt(s, tenants[1])));
      deepStrictEqual(b.sent[2].values, [tenants[1], "o-1", "s-1", "2"]);
      deepStrictEqual(b.sent[3].values, [tenants[1], "o-1", "s-1"]);
      deepStrictEqual(a.sent[2].values, [tenants[0], "o-1", "s-1", null]);

      // What the holds came to, read through the client, and the statements it read with.
      const sent: Statement[] = [];
      const recording: Queryable = {
        query: (text, values) => {
          sent.push({ text, values: values as (string | null)[] });
          return pool.query(text, values);
        },
      };
      const stock = (await importStock(client))(recording, { tenant: tenants[0] });
      deepStrictEqual(await stock.balance.在庫({ sku: "s-1" }), { posted: 1n, held_in: 0n, held_out: 0n });
      strictEqual(await stock.引当.status({ 注文: "o-1", sku: "s-1" }), "posted");
      strictEqual(await stock.引当.status({ 注文: winner, sku: "s-1" }), "expired");
      strictEqual(await stock.引当.status({ 注文: loser, sku: "s-1" }), null);
      const [stockAccount] = book.accounts;
      const [, reserve] = book.transfers;
      deepStrictEqual(sent, [
        balanceStatement(book, stockAccount, ["s-1"], tenants[0]),
        ...["o-1", winner, loser].map((o) => statusStatement(book, reserve, [o, "s-1"], tenants[0])),
      ]);
    } finally {
      await pool.end();
      Deno.removeSync(dir, { recursive: true });
    }
  });
});

Deno.test("server: under REPEATABLE READ, 4 callers × 50 do into one account all end done", async () => {
  await onServer(async (socketDir) => {
    const book = load(STOCK);
    const pool = serverPool(socketDir, "-c default_transaction_isolation=repeatable\\ read");
    const dir = Deno.makeTempDirSync({ prefix: "chobo-ts-" });
    try {
      await pool.query(postgresSql(book, "在庫.book", "test", "test"));
      const [{ default_transaction_isolation: level }] =
        (await pool.query("show default_transaction_isolation"))
          .rows;
      strictEqual(level, "repeatable read");
      const postgres = await importStock(writeClient(dir, book, "在庫.book"));
      strictEqual(
        (await postgres(pool, { tenant: "rr" }).入荷.do({ 納品書: "first", sku: "s", 数: 1n })).result,
        "done",
      );
      const [{ schema }] = (await pool.query(
        "select quote_ident(table_schema) as schema from information_schema.tables where table_name = 'accounts'",
        [],
      )).rows as { schema: string }[];
      const conn = await pool.connect();
      const holder = {
        query: async (text: string, values: readonly unknown[]) => (await conn.query(text, [...values])).rows,
        release: () => conn.release(),
      };
      let sends = 0;
      const results = await whileRowsHeld(
        holder,
        schema,
        "rr",
        () =>
          Promise.all(Array.from({ length: 4 }, async (_, caller) => {
            const conn = await pool.connect();
            try {
              const counting: Queryable = {
                query: (text, values) => {
                  sends++;
                  return conn.query(text, values);
                },
              };
              const stock = postgres(counting, { tenant: "rr" });
              const out: string[] = [];
              for (let n = 0; n < 50; n++) {
                out.push((await stock.入荷.do({ 納品書: `d-${caller}-${n}`, sku: "s", 数: 1n })).result);
              }
              return out;
            } finally {
              conn.release();
            }
          })),
      );
      deepStrictEqual(results, Array(4).fill(Array(50).fill("done")));
      const stock = postgres(pool, { tenant: "rr" });
      deepStrictEqual(await stock.balance.在庫({ sku: "s" }), { posted: 201n, held_in: 0n, held_out: 0n });
      // The callers that waited for the held rows failed with 40001 and were tried again.
      ok(sends > 200, `${sends} sends: no call was tried again`);
    } finally {
      await pool.end();
      Deno.removeSync(dir, { recursive: true });
    }
  });
});

Deno.test("server: inside the caller's transaction a serialization failure is returned as the first error, not 25P02", async () => {
  await onServer(async (socketDir) => {
    const book = load(STOCK);
    const pool = serverPool(socketDir);
    const dir = Deno.makeTempDirSync({ prefix: "chobo-ts-" });
    try {
      await pool.query(postgresSql(book, "在庫.book", "test", "test"));
      const postgres = await importStock(writeClient(dir, book, "在庫.book"));
      const outside = postgres(pool, { tenant: "tx" });
      strictEqual((await outside.入荷.do({ 納品書: "d-0", sku: "s", 数: 1n })).result, "done");
      const conn = await pool.connect();
      try {
        await conn.query("begin isolation level repeatable read", []);
        await conn.query(`select count(*) from "在庫".accounts`, []);
        // Changed after the caller's snapshot: its update of the row cannot be serialized.
        strictEqual((await outside.入荷.do({ 納品書: "d-1", sku: "s", 数: 1n })).result, "done");
        let sends = 0;
        const inside = postgres({
          query: (text, values) => {
            sends++;
            return conn.query(text, values);
          },
        }, { tenant: "tx" });
        await rejects(
          inside.入荷.do({ 納品書: "d-2", sku: "s", 数: 1n }),
          (e: { code?: string }) => e.code === "40001",
        );
        strictEqual(sends, 2);
        await conn.query("rollback", []);
      } finally {
        conn.release();
      }
      deepStrictEqual(await outside.balance.在庫({ sku: "s" }), { posted: 2n, held_in: 0n, held_out: 0n });
    } finally {
      await pool.end();
      Deno.removeSync(dir, { recursive: true });
    }
  });
});

Deno.test("server: the client refuses a lone surrogate, U+0000, a string past 256 UTF-8 bytes, a bad tenant or amount with ChoboArgumentError and sends nothing", async () => {
  await onServer(async (socketDir) => {
    const book = load(STOCK);
    const pool = serverPool(socketDir);
    const dir = Deno.makeTempDirSync({ prefix: "chobo-ts-" });
    try {
      await pool.query(postgresSql(book, "在庫.book", "test", "test"));
      const postgres = await importStock(writeClient(dir, book, "在庫.book"));
      let sends = 0;
      const counting: Queryable = {
        query: (text, values) => {
          sends++;
          return pool.query(text, values);
        },
      };
      const stock = postgres(counting, { tenant: "limits" });
      const refused = (e: Error) => e.name === "ChoboArgumentError" && e.message.startsWith("chobo: ");
      for (const [i, h] of HOSTILE_STRINGS.entries()) {
        const before = sends;
        const call = stock.入荷.do({ 納品書: `d-${i}`, sku: h.sku, 数: 1n });
        if (h.failed) {
          await rejects(call, refused, JSON.stringify(h.sku));
          strictEqual(sends, before, JSON.stringify(h.sku));
        } else strictEqual((await call).result, "done", JSON.stringify(h.sku));
      }
      // The probe: two order ids the driver would both send as U+FFFD; the second hold held nothing.
      for (const order of ["\ud800", "\udbff"]) {
        await rejects(stock.引当.hold({ 注文: order, sku: "x", 数: 1n }), /not well-formed Unicode/);
      }
      await rejects(stock.入荷.do({ 納品書: "d", sku: "s", 数: -1n }), refused);
      await rejects(stock.入荷.do({ 納品書: "d", sku: "s", 数: 1n << 63n }), refused);
      await rejects(stock.balance.在庫({ sku: "x".repeat(257) }), refused);
      throws(() => postgres(pool, { tenant: "t".repeat(257) }), refused);
      strictEqual(sends, HOSTILE_STRINGS.filter((h) => !h.failed).length);
    } finally {
      await pool.end();
      Deno.removeSync(dir, { recursive: true });
    }
  });
});
