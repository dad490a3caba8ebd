/**
 * Books for real through the temporal-typescript target's `io.ts` (`verify/dandori/temporal_books.ts`):
 * every distinct sequence of book operations of the flows' runs, on chobo's `postgres-typescript`
 * client over a disposable PostgreSQL cluster and, when `CHOBO_TIGERBEETLE` names a replica
 * binary, on its `tigerbeetle-typescript` client; each answer is chobo's interpreter's.
 */

import { deepStrictEqual, ok } from "node:assert/strict";
import pg from "pg";
import { lookup } from "../../lang/common/assert.ts";
import { runnableFlows } from "../../verify/dandori/flows.ts";
import { FLOW_DIRS } from "../../verify/dandori/temporal.ts";
import {
  bookSequences,
  booksOf,
  playBooks,
  postgresBooks,
  tigerbeetleBooks,
} from "../../verify/dandori/temporal_books.ts";
import { findPgBin, startCluster } from "../../verify/services/pg_cluster.ts";
import { checkVersion, startReplica } from "../../verify/services/tb_replica.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const sequences = bookSequences(runnableFlows(ROOT, FLOW_DIRS));

Deno.test("every sequence of book operations answers through io.ts and postgres-typescript as chobo says", async () => {
  ok(sequences.length > 0, "the flows' runs make book operations");
  const bin = findPgBin();
  if (bin === null) return console.log("SKIP: postgres: no initdb/pg_ctl on this machine");
  const cluster = await startCluster(bin);
  const pool = new pg.Pool({ host: cluster.socketDir, user: cluster.user, database: "postgres", max: 4 });
  pool.on("error", () => {});
  const dir = Deno.makeTempDirSync({ prefix: "dandori-books-" });
  try {
    const clients = await postgresBooks(booksOf(sequences), async (sql) => void await pool.query(sql), dir);
    const report = await playBooks(
      sequences,
      (book, tenant) => lookup(clients, book, "client").postgres(pool, { tenant }),
      dir,
      "postgres",
    );
    console.log(`postgres: ${report.sequences} sequences, ${report.operations} operations`);
    deepStrictEqual(report.failures, []);
  } finally {
    await pool.end();
    await cluster.stop();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("every sequence of book operations answers through io.ts and tigerbeetle-typescript as chobo says", async () => {
  const bin = Deno.env.get("CHOBO_TIGERBEETLE");
  if (bin === undefined || bin === "") return console.log("SKIP: tigerbeetle: CHOBO_TIGERBEETLE is not set");
  await checkVersion(bin);
  const replica = await startReplica(bin);
  const dir = Deno.makeTempDirSync({ prefix: "dandori-books-tb-" });
  // deno-lint-ignore no-import-prefix
  const { createClient } = await import("npm:tigerbeetle-node@0.17.9");
  const client = createClient({ cluster_id: 0n, replica_addresses: replica.address.split(",") });
  try {
    const clients = await tigerbeetleBooks(booksOf(sequences), dir);
    const report = await playBooks(
      sequences,
      (book, tenant) => lookup(clients, book, "client").tigerbeetle(client, { tenant }),
      dir,
      "tigerbeetle",
    );
    console.log(`tigerbeetle: ${report.sequences} sequences, ${report.operations} operations`);
    deepStrictEqual(report.failures, []);
  } finally {
    client.destroy();
    await replica.stop();
    Deno.removeSync(dir, { recursive: true });
  }
});
