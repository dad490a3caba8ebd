/**
 * Books for real through the pydantic-graph target's `io.py` (`verify/dandori/pydantic_graph_books.ts`):
 * every distinct sequence of book operations of the flows' runs, through the default `transport`
 * into chobo's `postgres-python` client over psycopg 3 on a disposable PostgreSQL cluster; each
 * answer is chobo's interpreter's.
 */

import { deepStrictEqual, ok } from "node:assert/strict";
import pg from "pg";
import { runnableFlows } from "../../verify/dandori/flows.ts";
import { FLOW_DIRS } from "../../verify/dandori/pydantic_graph.ts";
import { playPythonBooks, pythonBookSequences } from "../../verify/dandori/pydantic_graph_books.ts";
import { findPgBin, startCluster } from "../../verify/services/pg_cluster.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("every sequence of book operations answers through io.py and postgres-python as chobo says", async () => {
  const sequences = pythonBookSequences(runnableFlows(ROOT, FLOW_DIRS));
  ok(sequences.length > 0, "the flows' runs make book operations");
  const bin = findPgBin();
  if (bin === null) return console.log("SKIP: postgres: no initdb/pg_ctl on this machine");
  const drivers = await new Deno.Command("python3", { args: ["-c", "import psycopg"], stderr: "null" })
    .output()
    .catch(() => null);
  if (drivers === null || !drivers.success) {
    return console.log("SKIP: psycopg: not installed (pip install -r verify/requirements.txt)");
  }
  const cluster = await startCluster(bin);
  const pool = new pg.Pool({ host: cluster.socketDir, user: cluster.user, database: "postgres", max: 2 });
  pool.on("error", () => {});
  const dir = Deno.makeTempDirSync({ prefix: "dandori-pybooks-" });
  try {
    const report = await playPythonBooks(sequences, cluster, async (sql) => void await pool.query(sql), dir);
    console.log(`postgres-python: ${report.sequences} sequences, ${report.operations} operations`);
    deepStrictEqual(report.failures, []);
  } finally {
    await pool.end();
    await cluster.stop();
    Deno.removeSync(dir, { recursive: true });
  }
});
