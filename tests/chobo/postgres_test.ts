/**
 * chobo on PostgreSQL: the generated SQL is pinned and builds nothing past E061; every scenario of
 * every test and example book agrees with the reference interpreter on embedded PGlite and on a
 * disposable real server; under pgbench the server holds exactly what it has and opposite transfers
 * never deadlock; operations on two inside accounts never wait on their outside account; a changed
 * kind gives CB001 or reads on; ids agree with the TypeScript ids.
 */

import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { checkBook } from "../../lang/chobo/check.ts";
import { id128, uuidText } from "../../lang/chobo/ids.ts";
import type { Call } from "../../lang/chobo/interp.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { runScenario } from "../../lang/chobo/scenario.ts";
import { renderDiagnostic } from "../../lang/common/diagnostic.ts";
import { build } from "../../targets/chobo/targets.ts";
import { postgresSql } from "../../targets/chobo/postgres/sql.ts";
import { entriesAddUp, loadSchemas, verifyScenarios, verifyWithRunner } from "../../verify/chobo/postgres.ts";
import { subjects } from "../../verify/chobo/differential.ts";
import { goRunner, PYTHON_RUNNER, TYPESCRIPT_RUNNER } from "../../verify/chobo/client_runners.ts";
import { type Cluster, findPgBin, startCluster } from "../../verify/services/pg_cluster.ts";
import { findPgbench, pgbench, type PgbenchLoad, type PgbenchRun } from "../../verify/services/pgbench.ts";
import { type Db, pgliteDb, serverDb } from "../../verify/services/pg_db.ts";
import { choboRecord, DEFAULT_PATHS, ON_POSTGRES } from "../../verify/chobo/runs.ts";
import { type Platform, recordFromTest, secondsSince, skippedRecord } from "../../verify/summary.ts";
import { assertGolden } from "../support/golden.ts";
import { runCli } from "../support/run.ts";

const BOOKS = new URL("./books/", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;
const BUILD = new URL("./fixtures/build/", import.meta.url).pathname;
const GOLDEN = new URL("./golden/postgres/", import.meta.url).pathname;

function load(path: string): Book {
  return checkBook(path, Deno.readTextFileSync(path)).book!;
}

Deno.test("the SQL of 在庫.book is pinned, and the same book gives the same bytes", () => {
  const book = load(`${BOOKS}在庫.book`);
  const sql = postgresSql(book, "在庫.book", "0.1.0", "0123456789abcdef");
  assertGolden(`${GOLDEN}在庫.sql`, sql);
  strictEqual(postgresSql(load(`${BOOKS}在庫.book`), "在庫.book", "0.1.0", "0123456789abcdef"), sql);
});

Deno.test("E061 stops a build whose PostgreSQL names are over 63 bytes, whose two functions share a name, whose schema starts with pg_ or whose parameter is named tenant, and nothing is written", () => {
  const names = [
    "name_length.book",
    "名前の長さ.book",
    "function_clash.book",
    "関数の衝突.book",
    "reserved_names.book",
    "予約された名前.book",
  ];
  for (const name of names) {
    const text = Deno.readTextFileSync(BUILD + name);
    ok(checkBook(name, text).diagnostics.length === 0, `${name} is clean under check`);
    const run = runCli(["chobo", "build", name, "--target", "postgres", "--out", "out"], {
      files: { [name]: text },
    });
    strictEqual(run.code, 1);
    deepStrictEqual(run.written, {});
    ok(run.stderr.includes("[E061]"), run.stderr);
    const result = build(checkBook(name, text).book!, "postgres", {
      file: name,
      text,
      sha: "0",
      version: "0",
    });
    ok("diagnostics" in result);
    for (const lang of ["en", "ja"] as const) {
      const rendered = result.diagnostics.map((d) => renderDiagnostic(d, lang)).join("");
      assertGolden(`${GOLDEN}${name.replace(/\.book$/, "")}.${lang}.txt`, rendered);
    }
  }
});

Deno.test("what E061 stops for two functions of one name: PostgreSQL (PGlite) refuses the second one", async () => {
  const name = "function_clash.book";
  const book = checkBook(name, Deno.readTextFileSync(BUILD + name)).book!;
  const db = await pgliteDb();
  try {
    await rejects(
      db.exec(postgresSql(book, name, "0", "0")),
      /cannot change return type of existing function/,
    );
  } finally {
    await db.end();
  }
});

Deno.test("PGlite: the CHECK within_bounds passes exactly the rows the two bounds allow, and a search_path with other operators first changes nothing", async () => {
  const db = await pgliteDb();
  try {
    await db.exec(postgresSql(load(`${BOOKS}在庫.book`), "在庫.book", "test", "test"));
    // every row of a grid across the bounds' edges: the function against the two conditions written out
    const [grid] = await db.query({
      text: `select count(*)::text as rows, count(*) filter (where ok)::text as passing,
                    count(*) filter (where ok is distinct from
                      ((l is null or p - ho >= least(l, 0)) and (u is null or p + hi <= greatest(u, 0))))::text as differing
               from (select l, u, p, hi, ho, "在庫".within_bounds(l, u, p, hi, ho) as ok
                       from unnest(array[null, -5, 0, 3]::bigint[]) as l, unnest(array[null, -2, 0, 10]::bigint[]) as u,
                            unnest(array[-7, -5, -3, -1, 0, 1, 3, 8, 10, 11]::bigint[]) as p,
                            unnest(array[0, 2]::bigint[]) as hi, unnest(array[0, 2]::bigint[]) as ho) as g`,
      values: [],
    });
    deepStrictEqual(grid, { rows: "640", passing: grid.passing, differing: "0" });
    ok(Number(grid.passing) > 100 && Number(grid.passing) < 540, String(grid.passing));
    // operators of another schema searched before pg_catalog: a function that names none of them
    // turns with them, within_bounds does not
    await db.exec(`
      create schema evil;
      create function evil.minus(bigint, bigint) returns bigint language sql as 'select 0::bigint';
      create function evil.ge(bigint, bigint) returns boolean language sql as 'select true';
      create operator evil.- (leftarg = bigint, rightarg = bigint, function = evil.minus);
      create operator evil.>= (leftarg = bigint, rightarg = bigint, function = evil.ge);
      create function public.naive(p_posted bigint, p_held_out bigint) returns boolean language plpgsql as
        $$ begin return p_posted - p_held_out >= 0; end $$;
      set search_path = evil, pg_catalog, public;`);
    const [turned] = await db.query({
      text: `select public.naive(-1, 0) as naive, "在庫".within_bounds(0, null, -1, 0, 0) as ours`,
      values: [],
    });
    deepStrictEqual(turned, { naive: true, ours: false });
    await rejects(
      db.query({
        text: `insert into "在庫".accounts (tenant, id, kind, args, unit, lower_bound, upper_bound, posted)
               values ('t', '00000000-0000-0000-0000-000000000002', '在庫', '{}', '個', 0, null, -1)`,
        values: [],
      }),
      /within_bounds/,
    );
  } finally {
    await db.end();
  }
});

Deno.test("the verify runs play two books of one name under distinct names: examples/bound-change's v2 as giftcards_2", () => {
  const list = subjects([`${ROOT}examples/bound-change`]);
  deepStrictEqual(list.map((s) => [s.path.split("/").pop(), s.book.name, s.copy.name]), [
    ["v1.book", "giftcards", "giftcards"],
    ["v2.book", "giftcards_2", "giftcards_2"],
  ]);
});

Deno.test("a test copy (3-second expiries) answers every scenario as the book does", () => {
  for (const s of subjects(["tests/chobo/books", "examples"])) {
    for (const scenario of s.scenarios) {
      const original = runScenario(s.book, scenario);
      const copied = runScenario(s.copy, {
        ...scenario,
        steps: scenario.steps.map((step) => {
          const swap = (c: Call) => ({
            ...c,
            transfer: s.copy.transfers.find((t) => t.name === c.transfer.name)!,
          });
          if (step.kind === "call") return { ...step, call: swap(step.call) };
          if (step.kind === "together") return { ...step, callers: step.callers.map((c) => c.map(swap)) };
          return step;
        }),
      });
      strictEqual(copied.length, original.length, `${s.path}: ${scenario.name}`);
      for (const [i, b] of original.entries()) strictEqual(copied[i].ledger.snapshot(), b.ledger.snapshot());
    }
  }
});

async function everyScenario(db: Db, target: string, platform: Platform): Promise<void> {
  const list = subjects(DEFAULT_PATHS);
  await loadSchemas(db, list);
  await loadSchemas(db, list);
  const started = performance.now();
  const report = await verifyScenarios(db, list, `test-${Date.now()}`, target);
  recordFromTest([choboRecord(platform, list.length, report, secondsSince(started))]);
  deepStrictEqual(report.failures, []);
  strictEqual(report.agreed, report.scenarios);
  ok(report.together > 0);
  deepStrictEqual(await entriesAddUp(db, list), []);
}

Deno.test("PGlite: every scenario agrees with the interpreter, and balances equal their entries", async () => {
  const db = await pgliteDb();
  try {
    await everyScenario(db, "PGlite", "PGlite: SQL");
  } finally {
    await db.end();
  }
});

/**
 * Runs `f` on a disposable server, or prints SKIP when this machine has no server binaries (and
 * records the platforms of `recorded` as skipped).
 */
async function onServer(
  what: string,
  f: (db: ReturnType<typeof serverDb>, cluster: Cluster) => Promise<void>,
  recorded: readonly Platform[] = [],
) {
  const bin = findPgBin();
  if (bin === null) {
    const why = "no initdb/pg_ctl on this machine";
    console.log(`SKIP: chobo: postgres: ${what}: ${why}`);
    recordFromTest(recorded.map((p) => skippedRecord(p, "books", "postgres server", why)));
    return;
  }
  const cluster = await startCluster(bin);
  const db = serverDb(cluster.socketDir);
  try {
    await f(db, cluster);
  } finally {
    await db.end();
    await cluster.stop();
  }
}

/** Runs `f` with the server's pgbench, or prints SKIP when the server has none beside it. */
async function withPgbench(
  what: string,
  f: (db: ReturnType<typeof serverDb>, run: (load: PgbenchLoad) => Promise<PgbenchRun>) => Promise<void>,
) {
  await onServer(what, async (db, cluster) => {
    const bin = findPgbench(cluster);
    if (bin === null) {
      console.log(
        `SKIP: chobo: postgres: ${what}: no pgbench beside ${cluster.binDir} (apt-get install postgresql-client)`,
      );
      return;
    }
    await f(db, (load) => pgbench(bin, cluster, load));
  });
}

Deno.test("server: every scenario agrees with the interpreter, together callers on their own connections", async () => {
  await onServer(
    "every scenario",
    (db) => everyScenario(db, "postgres server", "PostgreSQL: SQL"),
    ["PostgreSQL: SQL"],
  );
});

/** The rows of a query as text, each column `::text` in the SQL. */
async function texts(db: Db, text: string, values: string[]): Promise<Record<string, unknown>[]> {
  return await db.query({ text, values });
}

Deno.test("server, pgbench: 8 clients holding 1 at a time from one account with 1,000 end with exactly 1,000 held, never more", async () => {
  await withPgbench("8 pgbench clients", async (db, run) => {
    const book = load(`${BOOKS}在庫.book`);
    await db.exec(postgresSql(book, "在庫.book", "test", "test"));
    const t = `eight-${Date.now()}`;
    await db.query({ text: `select * from "在庫"."入荷_do"($1, 'd', 's', 1000)`, values: [t] });
    const script = `\\set n :n + 1
select result, reason from "在庫"."引当_hold"('${t}', 'o-' || :client_id || '-' || :n, 's', 1);
`;
    const r = await run({ script, clients: 8, until: { transactions: 250 }, vars: { n: "0" } });
    deepStrictEqual([r.transactions, r.failed], [2000, 0]);
    deepStrictEqual(
      await texts(
        db,
        `select posted::text, held_in::text, held_out::text from "在庫"."balance_在庫"($1, 's')`,
        [t],
      ),
      [{ posted: "1000", held_in: "0", held_out: "1000" }],
    );
    deepStrictEqual(
      await texts(db, `select posted::text, held_in::text, held_out::text from "在庫"."balance_客"($1)`, [t]),
      [{ posted: "0", held_in: "1000", held_out: "0" }],
    );
    deepStrictEqual(
      await texts(
        db,
        `select result, reason, count(*)::text as n from "在庫".keys where tenant = $1 and op = 'hold'
          group by 1, 2 order by 1`,
        [t],
      ),
      [{ result: "done", reason: null, n: "1000" }, { result: "refused", reason: "在庫切れ", n: "1000" }],
    );
    deepStrictEqual(
      await texts(db, `select state, count(*)::text as n from "在庫".holds where tenant = $1 group by 1`, [
        t,
      ]),
      [{ state: "held", n: "1000" }],
    );
    deepStrictEqual(
      await entriesAddUp(db, subjects(["tests/chobo/books"]).filter((x) => x.book.name === "在庫")),
      [],
    );
  });
});

Deno.test("server, pgbench: opposite transfers from 4 sessions × 100 never deadlock", async () => {
  await withPgbench("opposite transfers", async (db, run) => {
    const book = load(`${BOOKS}wallet.book`);
    await db.exec(postgresSql(book, "wallet.book", "test", "test"));
    const t = `opposite-${Date.now()}`;
    for (const m of ["a", "b"]) {
      await db.query({
        text: `select * from "wallet"."deposit_do"($1, $2, $3, 100000)`,
        values: [t, `d-${m}`, m],
      });
    }
    const call = (from: string, to: string) =>
      `select result from "wallet"."remittance_do"('${t}', 'r-' || :client_id || '-' || :n, '${from}', '${to}', 1);`;
    const script = `\\set n :n + 1
\\if (:client_id + :n) % 2 = 0
${call("a", "b")}
\\else
${call("b", "a")}
\\endif
`;
    const r = await run({ script, clients: 4, until: { transactions: 100 }, vars: { n: "0" } });
    // A deadlock fails its transaction (40P01), which pgbench counts apart from the others.
    deepStrictEqual([r.transactions, r.failed], [400, 0]);
    let aToB = 0;
    for (let c = 0; c < 4; c++) for (let n = 1; n <= 100; n++) if ((c + n) % 2 === 0) aToB++;
    deepStrictEqual(
      await texts(
        db,
        `select count(*)::text as n from "wallet".keys where tenant = $1 and op = 'do' and result = 'done'`,
        [t],
      ),
      [{ n: String(402) }],
    );
    deepStrictEqual(
      await texts(db, `select posted::text from "wallet"."balance_wallet"($1, 'a')`, [t]),
      [{ posted: String(100000 - aToB + (400 - aToB)) }],
    );
  });
});

Deno.test("server: holds on two inside accounts both into one outside account never wait for each other", async () => {
  await onServer("no hot outside row", async (db) => {
    const book = load(`${BOOKS}在庫.book`);
    await db.exec(postgresSql(book, "在庫.book", "test", "test"));
    const t = `outside-${Date.now()}`;
    for (const sku of ["s1", "s2"]) {
      await db.query({ text: `select * from "在庫"."入荷_do"($1, $2, $2, 10)`, values: [t, sku] });
    }
    const first = await db.connect();
    const second = await db.connect();
    try {
      await first.query({ text: "begin", values: [] });
      const [held] = await first.query({
        text: `select result from "在庫"."引当_hold"($1, 'a', 's1', 1)`,
        values: [t],
      });
      strictEqual(held.result, "done");
      // The first hold keeps its locks until it commits; a wait of the second would time out.
      await second.query({ text: "set lock_timeout = '1s'", values: [] });
      const [other] = await second.query({
        text: `select result from "在庫"."引当_hold"($1, 'b', 's2', 1)`,
        values: [t],
      });
      strictEqual(other.result, "done");
      // The same inside account does wait: the timeout would have seen a wait on 客.
      await rejects(
        second.query({ text: `select result from "在庫"."引当_hold"($1, 'c', 's1', 1)`, values: [t] }),
        (e: { code?: string }) => e.code === "55P03",
      );
      await first.query({ text: "commit", values: [] });
    } finally {
      first.release();
      second.release();
    }
    deepStrictEqual(
      await texts(db, `select posted::text, held_in::text, held_out::text from "在庫"."balance_客"($1)`, [t]),
      [{ posted: "0", held_in: "2", held_out: "0" }],
    );
  });
});

Deno.test("server: a bypassing UPDATE is stopped by the CHECK; a changed bound gives CB001; expire() counts", async () => {
  await onServer("constraints", async (db) => {
    const book = load(`${BOOKS}在庫.book`);
    await db.exec(postgresSql(book, "在庫.book", "test", "test"));
    const t = `check-${Date.now()}`;
    await db.query({ text: `select * from "在庫"."入荷_do"($1, 'd', 's', 1)`, values: [t] });
    await rejects(
      db.query({
        text: `update "在庫".accounts set posted = posted - 5 where tenant = $1 and kind = '在庫'`,
        values: [t],
      }),
      /within_bounds/,
    );
    await db.query({
      text: `update "在庫".accounts set lower_bound = 3 where tenant = $1 and kind = '在庫'`,
      values: [t],
    });
    await rejects(
      db.query({ text: `select * from "在庫"."引当_hold"($1, 'o', 's', 1)`, values: [t] }),
      (e: { code?: string }) => e.code === "CB001",
    );
    // A book whose outside 仕入先 turned inside (E050 at check time): its entries exist, its row would
    // start at 0, so the call fails with CB001. And 在庫 turned outside reads the same balance from
    // its entries as its row held.
    const text = Deno.readTextFileSync(`${BOOKS}在庫.book`);
    const changed = (...swaps: [string, string][]) => {
      const changedText = swaps.reduce((acc, [from, to]) => {
        ok(acc.includes(from), from);
        return acc.replace(from, to);
      }, text);
      const b = checkBook("changed.book", changedText).book;
      ok(b !== null, changedText);
      return b;
    };
    const v = `changed-${Date.now()}`;
    await db.query({ text: `select * from "在庫"."入荷_do"($1, 'd', 's', 4)`, values: [v] });
    await db.exec(postgresSql(
      changed(["account 仕入先 : 個 outside", "account 仕入先 : 個\n  at least -100 refused as 仕入過多"]),
      "changed.book",
      "test",
      "test",
    ));
    await rejects(
      db.query({ text: `select * from "在庫"."入荷_do"($1, 'd2', 's', 1)`, values: [v] }),
      (e: { code?: string }) => e.code === "CB001",
    );
    await db.exec(postgresSql(
      changed(["account 在庫(sku: string) : 個", "account 在庫(sku: string) : 個 outside"], [
        "  at least 0 refused as 在庫切れ\n",
        "",
      ]),
      "changed.book",
      "test",
      "test",
    ));
    deepStrictEqual(
      await texts(
        db,
        `select posted::text, held_in::text, held_out::text from "在庫"."balance_在庫"($1, 's')`,
        [v],
      ),
      [{ posted: "4", held_in: "0", held_out: "0" }],
    );
    const copy = checkBook("x", Deno.readTextFileSync(`${BOOKS}在庫.book`).replace("30 minutes", "1 seconds"))
      .book!;
    await db.exec(postgresSql(copy, "在庫.book", "test", "test"));
    const u = `expire-${Date.now()}`;
    await db.query({ text: `select * from "在庫"."入荷_do"($1, 'd', 's', 5)`, values: [u] });
    for (const o of ["o1", "o2", "o3"]) {
      await db.query({ text: `select * from "在庫"."引当_hold"($1, $2, 's', 1)`, values: [u, o] });
    }
    await new Promise((r) => setTimeout(r, 1300));
    const [{ n }] = await db.query({ text: `select "在庫".expire() as n`, values: [] });
    ok(Number(n) >= 3, `expire() gave back ${n}`);
    const [balance] = await db.query({
      text: `select held_out::text from "在庫"."balance_在庫"($1, 's')`,
      values: [u],
    });
    deepStrictEqual(balance, { held_out: "0" });
  });
});

Deno.test("server: a hold past its expiry answers expired yet counts against its bound until expire() runs (docs/targets.md#expiring-holds-on-postgresql)", async () => {
  await onServer("expiry", async (db) => {
    const text = Deno.readTextFileSync(`${ROOT}examples/refunds/refunds.book`);
    ok(text.includes("expires after 7 days"));
    const book = checkBook("refunds.book", text.replace("expires after 7 days", "expires after 1 seconds"))
      .book!;
    await db.exec(postgresSql(book, "refunds.book", "test", "test"));
    const call = async (sql: string) => (await texts(db, `select result, reason from refunds.${sql}`, []))[0];
    const state = async () => (await texts(db, `select refunds.refund_status('', 'r-1', 'o') as s`, []))[0].s;
    const heldOut = async () =>
      (await texts(db, `select held_out::text as h from refunds.balance_refundable('', 'o')`, []))[0].h;
    deepStrictEqual(await call(`sale_do('', 'o', 3000)`), { result: "done", reason: null });
    deepStrictEqual(await call(`refund_hold('', 'r-1', 'o', 2000)`), { result: "done", reason: null });
    await new Promise((r) => setTimeout(r, 1300));
    strictEqual(await state(), "expired");
    deepStrictEqual(await call(`refund_post('', 'r-1', 'o')`), { result: "refused", reason: "expired" });
    deepStrictEqual(await call(`refund_void('', 'r-1', 'o')`), { result: "refused", reason: "expired" });
    strictEqual(await heldOut(), "2000");
    deepStrictEqual(await call(`refund_hold('', 'r-2', 'o', 2000)`), {
      result: "refused",
      reason: "over_refund",
    });
    strictEqual((await texts(db, `select refunds.expire()::text as n`, []))[0].n, "1");
    strictEqual(await heldOut(), "0");
    strictEqual(await state(), "expired");
    deepStrictEqual(await call(`refund_hold('', 'r-3', 'o', 2000)`), { result: "done", reason: null });
  });
});

Deno.test("server: examples/bound-change's v2 loads over v1's data and moves a card to the new cap; v1's cap raised in place gives CB001 (docs/targets.md#changing-a-book)", async () => {
  await onServer("bound change", async (db) => {
    const dir = `${ROOT}examples/bound-change/`;
    const [v1, v2] = ["v1", "v2"].map((v) => Deno.readTextFileSync(`${dir}${v}.book`));
    const sql = (text: string) =>
      postgresSql(checkBook("giftcards.book", text).book!, "giftcards.book", "test", "test");
    const call = async (op: string) => (await texts(db, `select result, reason from giftcards.${op}`, []))[0];
    const balance = async (account: string) =>
      (await texts(db, `select posted::text as p from giftcards.balance_${account}('', 'c')`, []))[0].p;
    await db.exec(sql(v1));
    deepStrictEqual(await call(`load_do('', 'l-1', 'c', 40000)`), { result: "done", reason: null });
    await db.exec(sql(v2));
    strictEqual(await balance("card"), "40000");
    deepStrictEqual(await call(`move_over_do('', 'm-1', 'c', 40001)`), {
      result: "refused",
      reason: "insufficient",
    });
    deepStrictEqual(await call(`move_over_do('', 'm-1', 'c', 40000)`), {
      result: "refused",
      reason: "already_refused",
    });
    deepStrictEqual(await call(`move_over_do('', 'm-2', 'c', 40000)`), { result: "done", reason: null });
    deepStrictEqual([await balance("card"), await balance("card_2")], ["0", "40000"]);
    deepStrictEqual(await call(`load_2_do('', 'l-2', 'c', 60000)`), { result: "done", reason: null });
    deepStrictEqual(await call(`load_2_do('', 'l-3', 'c', 1)`), { result: "refused", reason: "over_cap" });
    await db.exec(sql(v1.replace("  at most 500.00 refused", "  at most 1000.00 refused")));
    await rejects(db.query({ text: `select * from giftcards.load_do('', 'l-4', 'c', 1)`, values: [] }), (e: {
      code?: string;
    }) => e.code === "CB001");
  });
});

Deno.test("chobo_id computes the same ids as TypeScript", async () => {
  const db = await pgliteDb();
  try {
    await db.exec(postgresSql(load(`${BOOKS}在庫.book`), "在庫.book", "test", "test"));
    const table: [string, string[]][] = [
      ["account", ["在庫", "", "在庫", "sku-2"]],
      ["account", ["inventory", "tenant-a", "stock", "A-1"]],
      ["transfer", ["在庫", "", "引当", "hold", "注文-3", "sku-2", "0"]],
      ["sink", ["在庫", "", "個"]],
      ["floor", ["00000000000000000000000000000001"]],
      ["account", ["a:b", "c"]],
      ["account", ["a", "b:c"]],
    ];
    for (const [role, parts] of table) {
      const [row] = await db.query({
        text: `select "在庫".chobo_id($1::text[])::text as id`,
        values: [`{${[role, ...parts].map((p) => JSON.stringify(p)).join(",")}}`],
      });
      strictEqual(row.id, uuidText(id128(role, parts)), `${role} ${parts.join(" ")}`);
    }
  } finally {
    await db.end();
  }
});

Deno.test("server: every scenario through the TypeScript, Python and Go clients agrees, and each sends run --show's SQL", async () => {
  const runners = [TYPESCRIPT_RUNNER, PYTHON_RUNNER, goRunner({ path: null })];
  const bin = findPgBin();
  if (bin === null) {
    const why = "no initdb/pg_ctl on this machine";
    console.log(`SKIP: chobo: postgres clients: ${why}`);
    recordFromTest(runners.map((r) => skippedRecord(ON_POSTGRES[r.lang], "books", "postgres server", why)));
    return;
  }
  const list = subjects(DEFAULT_PATHS);
  const cluster = await startCluster(bin);
  const db = serverDb(cluster.socketDir);
  try {
    await loadSchemas(db, list);
    for (const runner of runners) {
      const lacks = await runner.lacks();
      if (lacks !== null) {
        console.log(`SKIP: chobo: postgres-${runner.lang}: ${lacks}`);
        recordFromTest([
          skippedRecord(ON_POSTGRES[runner.lang], "books", `the ${runner.lang} client`, lacks),
        ]);
        continue;
      }
      const started = performance.now();
      const report = await verifyWithRunner(cluster.socketDir, list, runner, `clients-${Date.now()}`);
      recordFromTest([choboRecord(ON_POSTGRES[runner.lang], list.length, report, secondsSince(started))]);
      deepStrictEqual(report.failures, [], runner.lang);
      strictEqual(report.agreed, report.scenarios, runner.lang);
    }
  } finally {
    await db.end();
    await cluster.stop();
  }
});
