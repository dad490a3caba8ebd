/**
 * chobo on PostgreSQL: the generated SQL is pinned and builds nothing past E061; every scenario of
 * every test and example book agrees with the reference interpreter on embedded PGlite and on a
 * disposable real server; the server keeps its bounds under concurrent callers; ids agree with
 * the TypeScript ids.
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
import { findPgBin, startCluster } from "../../verify/services/pg_cluster.ts";
import { type Db, pgliteDb, serverDb } from "../../verify/services/pg_db.ts";
import { assertGolden } from "../support/golden.ts";
import { runCli } from "../support/run.ts";

const BOOKS = new URL("./books/", import.meta.url).pathname;
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

Deno.test("E061 stops a build whose PostgreSQL names are over 63 bytes, or whose two functions share a name, and nothing is written", () => {
  for (const name of ["name_length.book", "名前の長さ.book", "function_clash.book", "関数の衝突.book"]) {
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

async function everyScenario(db: Db, target: string): Promise<void> {
  const list = subjects(["tests/chobo/books", "examples"]);
  await loadSchemas(db, list);
  await loadSchemas(db, list);
  const report = await verifyScenarios(db, list, `test-${Date.now()}`, target);
  deepStrictEqual(report.failures, []);
  strictEqual(report.agreed, report.scenarios);
  ok(report.together > 0);
  deepStrictEqual(await entriesAddUp(db, list), []);
}

Deno.test("PGlite: every scenario agrees with the interpreter, and balances equal their entries", async () => {
  const db = await pgliteDb();
  try {
    await everyScenario(db, "PGlite");
  } finally {
    await db.end();
  }
});

/** Runs `f` on a disposable server, or prints SKIP when this machine has no server binaries. */
async function onServer(
  what: string,
  f: (db: ReturnType<typeof serverDb>, socketDir: string) => Promise<void>,
) {
  const bin = findPgBin();
  if (bin === null) {
    console.log(`SKIP: chobo: postgres: ${what}: no initdb/pg_ctl on this machine`);
    return;
  }
  const cluster = await startCluster(bin);
  const db = serverDb(cluster.socketDir);
  try {
    await f(db, cluster.socketDir);
  } finally {
    await db.end();
    await cluster.stop();
  }
}

Deno.test("server: every scenario agrees with the interpreter, together callers on their own connections", async () => {
  await onServer("every scenario", (db) => everyScenario(db, "postgres server"));
});

Deno.test("server: 8 concurrent callers holding 1 at a time from 1000 end with posted 1000, held out 1000", async () => {
  await onServer("8 callers", async (db) => {
    const book = load(`${BOOKS}在庫.book`);
    await db.exec(postgresSql(book, "在庫.book", "test", "test"));
    const t = `eight-${Date.now()}`;
    await db.query({ text: `select * from "在庫"."入荷_do"($1, 'd', 's', 1000)`, values: [t] });
    const refusals: string[] = [];
    const done = await Promise.all(Array.from({ length: 8 }, async (_, caller) => {
      const conn = await db.connect();
      try {
        for (let n = 0;; n++) {
          const [row] = await conn.query({
            text: `select result, reason from "在庫"."引当_hold"($1, $2, 's', 1)`,
            values: [t, `order-${caller}-${n}`],
          });
          if (row.result !== "done") {
            refusals.push(row.reason as string);
            return n;
          }
        }
      } finally {
        conn.release();
      }
    }));
    strictEqual(done.reduce((a, b) => a + b, 0), 1000);
    deepStrictEqual(refusals, Array(8).fill("在庫切れ"));
    const [balance] = await db.query({
      text: `select posted::text, held_out::text from "在庫"."balance_在庫"($1, 's')`,
      values: [t],
    });
    deepStrictEqual(balance, { posted: "1000", held_out: "1000" });
  });
});

Deno.test("server: opposite transfers from 4 sessions × 100 never deadlock", async () => {
  await onServer("opposite transfers", async (db) => {
    const book = load(`${BOOKS}wallet.book`);
    await db.exec(postgresSql(book, "wallet.book", "test", "test"));
    const t = `opposite-${Date.now()}`;
    for (const m of ["a", "b"]) {
      await db.query({
        text: `select * from "wallet"."deposit"($1, $2, $3, 100000)`.replace('"deposit"', '"deposit_do"'),
        values: [t, `d-${m}`, m],
      });
    }
    await Promise.all(Array.from({ length: 4 }, async (_, s) => {
      const conn = await db.connect();
      try {
        for (let n = 0; n < 100; n++) {
          const [from, to] = (s + n) % 2 === 0 ? ["a", "b"] : ["b", "a"];
          const [row] = await conn.query({
            text: `select result from "wallet"."remittance_do"($1, $2, $3, $4, 1)`,
            values: [t, `r-${s}-${n}`, from, to],
          });
          strictEqual(row.result, "done");
        }
      } finally {
        conn.release();
      }
    }));
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
      /within_lower/,
    );
    await db.query({
      text: `update "在庫".accounts set lower_bound = 3 where tenant = $1 and kind = '在庫'`,
      values: [t],
    });
    await rejects(
      db.query({ text: `select * from "在庫"."引当_hold"($1, 'o', 's', 1)`, values: [t] }),
      (e: { code?: string }) => e.code === "CB001",
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
  const bin = findPgBin();
  if (bin === null) {
    console.log("SKIP: chobo: postgres clients: no initdb/pg_ctl on this machine");
    return;
  }
  const list = subjects(["tests/chobo/books", "examples"]);
  const cluster = await startCluster(bin);
  const db = serverDb(cluster.socketDir);
  try {
    await loadSchemas(db, list);
    for (const runner of [TYPESCRIPT_RUNNER, PYTHON_RUNNER, goRunner({ path: null })]) {
      const lacks = await runner.lacks();
      if (lacks !== null) {
        console.log(`SKIP: chobo: postgres-${runner.lang}: ${lacks}`);
        continue;
      }
      const report = await verifyWithRunner(cluster.socketDir, list, runner, `clients-${Date.now()}`);
      deepStrictEqual(report.failures, [], runner.lang);
      strictEqual(report.agreed, report.scenarios, runner.lang);
    }
  } finally {
    await db.end();
    await cluster.stop();
  }
});
