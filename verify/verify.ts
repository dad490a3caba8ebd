/**
 * `deno task verify <target>`: plays every scenario of every test and example book on a target
 * for real and compares it with the reference interpreter. Prints a progress line per
 * combination and a summary; exits 1 when anything disagrees.
 *
 * - `postgres`: a disposable PostgreSQL cluster (when server binaries exist), then embedded PGlite.
 * @module
 */

import { entriesAddUp, loadSchemas, type Report, subjects, verifyScenarios } from "./chobo_postgres.ts";
import { findPgBin, startCluster } from "./pg_cluster.ts";
import { pgliteDb, serverDb } from "./pg_db.ts";

function line(label: string, r: Report, seconds: number): string {
  return `${label}: ${r.agreed}/${r.scenarios} scenarios agree with the interpreter (${r.together} with together), ` +
    `${r.ranAgain.length} run again, ${seconds.toFixed(1)} s`;
}

async function verifyPostgres(): Promise<number> {
  const list = subjects(["tests/books", "examples"]);
  const failures: string[] = [];
  const combinations: [
    string,
    () => Promise<{ db: Parameters<typeof verifyScenarios>[0]; end(): Promise<void> }>,
  ][] = [];
  const bin = findPgBin();
  if (bin === null) {
    console.log("SKIP: chobo: postgres server: no initdb/pg_ctl on this machine (PGlite still runs)");
  } else {
    combinations.push(["postgres server × SQL", async () => {
      const cluster = await startCluster(bin);
      const db = serverDb(cluster.socketDir);
      return {
        db,
        end: async () => {
          await db.end();
          await cluster.stop();
        },
      };
    }]);
  }
  combinations.push(["PGlite × SQL", async () => {
    const db = await pgliteDb();
    return { db, end: () => db.end() };
  }]);
  for (const [label, open] of combinations) {
    const started = performance.now();
    const { db, end } = await open();
    try {
      await loadSchemas(db, list);
      const report = await verifyScenarios(db, list, `verify-${Date.now()}`);
      const wrong = await entriesAddUp(db, list);
      console.log(line(label, report, (performance.now() - started) / 1000));
      for (const r of report.ranAgain) console.log(`  run again: ${r}`);
      failures.push(
        ...report.failures.map((f) => `${label}: ${f}`),
        ...wrong.map((w) => `${label}: entries do not add up: ${w}`),
      );
    } finally {
      await end();
    }
  }
  console.log(
    failures.length === 0
      ? "verify postgres: every combination agrees"
      : `verify postgres: ${failures.length} failures`,
  );
  for (const f of failures) console.log(`  ${f}`);
  return failures.length === 0 ? 0 : 1;
}

const TARGETS: Record<string, () => Promise<number>> = { postgres: verifyPostgres };
const target = TARGETS[Deno.args[0] ?? ""];
if (target === undefined) {
  console.error(`usage: deno task verify <${Object.keys(TARGETS).join("|")}>`);
  Deno.exit(2);
}
Deno.exit(await target());
