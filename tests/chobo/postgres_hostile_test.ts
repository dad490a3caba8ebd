/**
 * chobo's SQL against a hostile database and session (docs/reference.md#limits): a function of `public`
 * that shadows a built-in changes nothing, `standard_conforming_strings = off` changes nothing, and a
 * load that fails halfway leaves nothing behind.
 */

import { deepStrictEqual, rejects, strictEqual } from "node:assert/strict";
import { checkBook } from "../../lang/chobo/check.ts";
import { id128, uuidText } from "../../lang/chobo/ids.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { readScenarios, runScenario } from "../../lang/chobo/scenario.ts";
import { postgresSql } from "../../targets/chobo/postgres/sql.ts";
import { goRunner, PYTHON_RUNNER, TYPESCRIPT_RUNNER } from "../../verify/chobo/client_runners.ts";
import { type Subject, testCopy } from "../../verify/chobo/differential.ts";
import { loadSchemas, verifyScenarios, verifyWithRunner } from "../../verify/chobo/postgres.ts";
import { lit } from "../../targets/chobo/postgres/sql_names.ts";
import { type Cluster, findPgBin, startCluster } from "../../verify/services/pg_cluster.ts";
import { serverDb } from "../../verify/services/pg_db.ts";
import { HOSTILE_STRINGS, LIMITS_BOOK } from "../support/hostile.ts";

const BUILD = new URL("./fixtures/build/", import.meta.url).pathname;

const SHADOWED = `book shadowed v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)

transfer ship(order: string, sku: string, qty: pcs)
  key order
  move qty from stock(sku) to suppliers
`;

function bookOf(name: string, text: string): Book {
  const checked = checkBook(name, text);
  strictEqual(checked.diagnostics.length, 0, `${name} is clean`);
  return checked.book!;
}

/** Runs `f` on a disposable server, or prints SKIP when this machine has no server binaries. */
async function onServer(
  what: string,
  f: (db: ReturnType<typeof serverDb>, cluster: Cluster) => Promise<void>,
) {
  const bin = findPgBin();
  if (bin === null) {
    console.log(`SKIP: chobo: postgres: ${what}: no initdb/pg_ctl on this machine`);
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

/** Runs a SQL file with `psql -f` (the one beside the server's `initdb`), statement by statement, as a user loads it. */
async function psqlFile(cluster: Cluster, sql: string): Promise<string> {
  const psql = Deno.realPathSync(`${cluster.binDir}/initdb`).replace(/initdb$/, "psql");
  const file = Deno.makeTempFileSync({ suffix: ".sql" });
  try {
    Deno.writeTextFileSync(file, sql);
    const out = await new Deno.Command(psql, {
      args: ["-X", "-q", "-h", cluster.socketDir, "-U", cluster.user, "-d", "postgres", "-f", file],
      stdout: "piped",
      stderr: "piped",
    }).output();
    return new TextDecoder().decode(out.stderr);
  } finally {
    Deno.removeSync(file);
  }
}

Deno.test("server: a public.json_build_array(text, text) that answers one array for every key collapses no keys", async () => {
  await onServer("search_path", async (db) => {
    await db.exec(`create function public.json_build_array(a text, b text) returns json
      language sql as $$ select '["same"]'::json $$`);
    await db.exec(postgresSql(bookOf("shadowed.book", SHADOWED), "shadowed.book", "test", "test"));
    const results = [];
    for (const [delivery, sku] of [["d1", "a"], ["d2", "b"]]) {
      const [row] = await db.query({
        text: `select result, reason from "shadowed"."receive_do"('t', $1, $2, 1)`,
        values: [delivery, sku],
      });
      results.push(row);
    }
    deepStrictEqual(results, [{ result: "done", reason: null }, { result: "done", reason: null }]);
    deepStrictEqual(
      await db.query({ text: `select key from "shadowed".keys order by key`, values: [] }),
      [{ key: '["d1", "a"]' }, { key: '["d2", "b"]' }],
    );
  });
});

Deno.test("server: with standard_conforming_strings off the file loads and every id is the same", async () => {
  await onServer("standard_conforming_strings", async (db) => {
    const conn = await db.connect();
    try {
      await conn.query({ text: "set standard_conforming_strings = off", values: [] });
      await conn.query({
        text: postgresSql(bookOf("shadowed.book", SHADOWED), "shadowed.book", "test", "test"),
        values: [],
      });
      const [done] = await conn.query({
        text: `select result from "shadowed"."receive_do"('t', 'd1', 'a', 1)`,
        values: [],
      });
      strictEqual(done.result, "done");
      const [row] = await conn.query({ text: `select id::text from "shadowed".accounts`, values: [] });
      strictEqual(row.id, uuidText(id128("account", ["shadowed", "t", "stock", "a"])));
      const [fromArray] = await conn.query({
        text: `select "shadowed".chobo_id(array['account', 'shadowed', 't', 'stock', 'a'])::text as id`,
        values: [],
      });
      strictEqual(fromArray.id, row.id);
      const [quoted] = await conn.query({ text: `select ${lit("a\\'b")} as v`, values: [] });
      strictEqual(quoted.v, "a\\'b");
    } finally {
      conn.release();
    }
  });
});

Deno.test("server: a file that fails halfway under psql leaves nothing behind", async () => {
  await onServer("one transaction", async (db, cluster) => {
    const name = "function_clash.book";
    const book = bookOf(name, Deno.readTextFileSync(BUILD + name));
    const stderr = await psqlFile(cluster, postgresSql(book, name, "test", "test"));
    strictEqual(stderr.includes("cannot change return type of existing function"), true, stderr);
    deepStrictEqual(
      await db.query({
        text: `select count(*)::int as n from pg_namespace where nspname = 'function_clash'`,
        values: [],
      }),
      [{ n: 0 }],
    );
  });
});

const PUBLIC_BOOK = `book public v1

unit pcs

account accounts(id: string) : pcs
  at least 0 refused as empty
account world : pcs outside

transfer fill(id: string, n: pcs)
  key id
  move n from world to accounts(id)

transfer take(id: string, n: pcs)
  key id
  move n from accounts(id) to world
`;

Deno.test("server: book public leaves the application's public.accounts and public.expire(integer) alone", async () => {
  await onServer("schema mark", async (db) => {
    await db.exec(`create table public.accounts (id int primary key, owner text);
      insert into public.accounts values (1, 'app');
      create function public.expire(p integer) returns text language sql as $$ select 'the app''s' $$;`);
    await rejects(
      db.exec(postgresSql(bookOf("public.book", PUBLIC_BOOK), "public.book", "test", "test")),
      (e: { message: string; code?: string }) =>
        e.code === "42P06" &&
        e.message.startsWith("chobo: the schema public exists and is not a chobo book's"),
    );
    deepStrictEqual(await db.query({ text: "select public.expire(1) as v", values: [] }), [{
      v: "the app's",
    }]);
    deepStrictEqual(await db.query({ text: "select * from public.accounts", values: [] }), [{
      id: 1,
      owner: "app",
    }]);
    await db.exec(`create schema shadowed`);
    await rejects(
      db.exec(postgresSql(bookOf("shadowed.book", SHADOWED), "shadowed.book", "test", "test")),
      /chobo: the schema shadowed exists and is not a chobo book's/,
    );
  });
});

Deno.test("server: a chobo schema carries its book and hash, and a new version of the book loads over it", async () => {
  await onServer("schema mark", async (db) => {
    const book = bookOf("shadowed.book", SHADOWED);
    await db.exec(postgresSql(book, "shadowed.book", "test", "0123456789abcdef"));
    await db.exec(postgresSql(book, "shadowed.book", "test", "fedcba9876543210"));
    deepStrictEqual(
      await db.query({
        text:
          `select obj_description(oid, 'pg_namespace') as mark from pg_namespace where nspname = 'shadowed'`,
        values: [],
      }),
      [{ mark: "chobo: book shadowed v1, sha256:fedcba9876543210" }],
    );
  });
});

Deno.test("server: what E061 stops, a pg_ schema and a parameter named tenant, the server refuses", async () => {
  await onServer("E061", async (db) => {
    const name = "reserved_names.book";
    const book = checkBook(name, Deno.readTextFileSync(BUILD + name)).book!;
    const tenantless = (sql: string) => sql.replaceAll('"p_tenant"', '"p_shelf"');
    await rejects(
      db.exec(tenantless(postgresSql(book, name, "0", "0"))),
      /unacceptable schema name "pg_ledger"/,
    );
    const renamed = { ...book, name: "ledger" };
    await rejects(
      db.exec(postgresSql(renamed, name, "0", "0")),
      /parameter name "p_tenant" used more than once/,
    );
  });
});

Deno.test("server: the functions refuse a string past 256 UTF-8 bytes or NULL with 22023 and chobo:, and take a key of two 256-byte escaped parts", async () => {
  await onServer("string limits", async (db) => {
    await db.exec(postgresSql(bookOf("limits.book", LIMITS_BOOK), "limits.book", "test", "test"));
    const refusal = (e: { code?: string; message: string }) =>
      e.code === "22023" && e.message.startsWith("chobo: ");
    const receive = (tenant: string | null, delivery: string | null, sku: string | null) =>
      db.query({
        text: `select result from "limits"."receive_do"($1, $2, $3, 1)`,
        values: [tenant, delivery, sku],
      });
    for (const h of HOSTILE_STRINGS.filter((h) => h.sku.isWellFormed() && !h.sku.includes("\u0000"))) {
      if (h.failed) await rejects(receive("t", "d", h.sku), refusal, h.sku);
      else deepStrictEqual(await receive("t", h.sku, h.sku), [{ result: "done" }], h.sku);
    }
    const escaped = "\u0001".repeat(256);
    deepStrictEqual(await receive("t", escaped, escaped), [{ result: "done" }]);
    deepStrictEqual(await receive("t", escaped, `${escaped.slice(1)}x`), [{ result: "done" }]);
    await rejects(receive("t".repeat(257), "d", "s"), /chobo: tenant is a string of at most 256 UTF-8 bytes/);
    await rejects(
      receive("t", null, "s"),
      /chobo: delivery is a string of at most 256 UTF-8 bytes, not null/,
    );
    await rejects(receive(null, "d", "s"), refusal);
    await rejects(
      db.query({ text: `select * from "limits"."balance_stock"('t', $1)`, values: ["x".repeat(257)] }),
      refusal,
    );
    // U+0000 never reaches a function: the server refuses it in any text (the clients refuse it first).
    await rejects(receive("t", "d", "a\u0000b"), (e: { code?: string }) => e.code === "22021");
  });
});

/** LIMITS_BOOK with scenarios of every string a wire of UTF-8 can carry, alone and together with a good call. */
function hostileSubject(): Subject {
  const book = bookOf("limits.book", LIMITS_BOOK);
  const wire = HOSTILE_STRINGS.filter((h) => h.sku.isWellFormed());
  const escaped = "\u0001".repeat(256);
  const scenarios = readScenarios(
    book,
    JSON.stringify([
      ...wire.map((h, i) => ({
        name: `hostile string ${i + 1}`,
        steps: [
          { call: "receive.do", args: { delivery: `d-${i}`, sku: h.sku, qty: 3 } },
          { call: "ship.do", args: { order: h.sku, sku: h.sku, qty: 1 } },
          { call: "receive.do", args: { delivery: `d-${i}`, sku: h.sku, qty: 3 } },
        ],
      })),
      {
        name: "a key of two 256-byte escaped parts",
        steps: [
          { call: "receive.do", args: { delivery: escaped, sku: escaped, qty: 2 } },
          { call: "receive.do", args: { delivery: escaped, sku: `${escaped.slice(1)}x`, qty: 2 } },
          { call: "receive.do", args: { delivery: escaped, sku: escaped, qty: 3 } },
        ],
      },
      {
        name: "a refused call together with a good one",
        steps: [{
          together: [
            [{ call: "receive.do", args: { delivery: "d", sku: "x".repeat(257), qty: 1 } }],
            [{ call: "receive.do", args: { delivery: "e", sku: "a\u0000b", qty: 1 } }],
            [{ call: "receive.do", args: { delivery: "f", sku: "s", qty: 1 } }],
          ],
        }],
      },
    ]),
  );
  return { path: "limits.book", book, copy: testCopy("limits.book", LIMITS_BOOK), scenarios };
}

Deno.test("server: hostile arguments agree with the interpreter on the SQL and through the TypeScript, Python and Go clients", async () => {
  await onServer("hostile differential", async (db, cluster) => {
    const list = [hostileSubject()];
    const failing = list[0].scenarios.flatMap((s) => runScenario(list[0].book, s)[0].steps)
      .filter((s) => s.kind === "call" && s.outcome.kind === "failed");
    strictEqual(
      // Each of the three calls of a scenario of a string past the limits fails.
      failing.length,
      3 * HOSTILE_STRINGS.filter((h) => h.failed && h.sku.isWellFormed()).length,
    );
    await loadSchemas(db, list);
    const sql = await verifyScenarios(db, list, `hostile-${Date.now()}`, "postgres server");
    deepStrictEqual(sql.failures, []);
    strictEqual(sql.agreed, sql.scenarios);
    for (const runner of [TYPESCRIPT_RUNNER, PYTHON_RUNNER, goRunner({ path: null })]) {
      const report = await verifyWithRunner(
        cluster.socketDir,
        list,
        runner,
        `hostile-${runner.lang}-${Date.now()}`,
      );
      deepStrictEqual(report.failures, [], runner.lang);
      strictEqual(report.agreed, report.scenarios, runner.lang);
    }
  });
});
