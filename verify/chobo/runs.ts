/**
 * chobo's differential runs: every scenario of every test and example book played on a target
 * for real and compared with the reference interpreter, with a progress line per combination
 * and a summary; 1 when anything disagrees.
 *
 * - `postgres`: on a disposable PostgreSQL cluster (when server binaries exist), the SQL called
 *   directly and each client language through its runner; then embedded PGlite.
 * - `tigerbeetle`: on a disposable replica of the binary `CHOBO_TIGERBEETLE` names, each client
 *   language through its runner; without the variable it says SKIP and passes.
 * @module
 */

import { type ChoboReport, type ClientRunner, type Subject, subjects } from "./differential.ts";
import { entriesAddUp, loadSchemas, verifyScenarios, verifyWithRunner } from "./postgres.ts";
import { verifyOnTigerBeetle } from "./tigerbeetle.ts";
import {
  goRunner,
  PYTHON_RUNNER,
  TB_PYTHON_RUNNER,
  TB_TYPESCRIPT_RUNNER,
  tbGoRunner,
  TYPESCRIPT_RUNNER,
} from "./client_runners.ts";
import { checkVersion, startReplica } from "../services/tb_replica.ts";
import { findPgBin, startCluster } from "../services/pg_cluster.ts";
import { type Db, pgliteDb, serverDb } from "../services/pg_db.ts";

/** The client languages played through their runners, besides the SQL called directly. */
const RUNNERS: readonly ClientRunner[] = [TYPESCRIPT_RUNNER, PYTHON_RUNNER, goRunner({ path: null })];

function line(label: string, r: ChoboReport, seconds: number): string {
  return `${label}: ${r.agreed}/${r.scenarios} scenarios agree with the interpreter (${r.together} with together), ` +
    `${r.ranAgain.length} run again, ${seconds.toFixed(1)} s`;
}

/** Prints the run's last lines; the exit code. */
function summary(target: string, failures: readonly string[]): number {
  console.log(
    failures.length === 0
      ? `verify ${target}: every combination agrees`
      : `verify ${target}: ${failures.length} failures`,
  );
  for (const f of failures) console.log(`  ${f}`);
  return failures.length === 0 ? 0 : 1;
}

/** Runs each combination in turn, printing its line; returns the failures. */
async function play(runs: readonly [string, () => Promise<ChoboReport>][]): Promise<string[]> {
  const failures: string[] = [];
  for (const [label, run] of runs) {
    const started = performance.now();
    const report = await run();
    console.log(line(label, report, (performance.now() - started) / 1000));
    for (const r of report.ranAgain) console.log(`  run again: ${r}`);
    failures.push(...report.failures.map((f) => `${label}: ${f}`));
  }
  return failures;
}

/** Runs each combination on one database, then checks that its entries add up; returns the failures. */
async function combinations(
  db: Db,
  list: readonly Subject[],
  runs: readonly [string, () => Promise<ChoboReport>][],
  where: string,
): Promise<string[]> {
  const failures = await play(runs);
  return [...failures, ...(await entriesAddUp(db, list)).map((w) => `${where}: entries do not add up: ${w}`)];
}

/** `deno task verify postgres`: the server (when its binaries exist) × SQL and every client language, then PGlite. */
export async function verifyPostgres(): Promise<number> {
  const list = subjects(["tests/chobo/books", "examples"]);
  const failures: string[] = [];
  const bin = findPgBin();
  if (bin === null) {
    console.log("SKIP: chobo: postgres server: no initdb/pg_ctl on this machine (PGlite still runs)");
  } else {
    const cluster = await startCluster(bin);
    const db = serverDb(cluster.socketDir);
    try {
      await loadSchemas(db, list);
      const run = `verify-${Date.now()}`;
      failures.push(
        ...await combinations(db, list, [
          ["postgres server × SQL", () => verifyScenarios(db, list, run)],
          ...RUNNERS.map((r): [string, () => Promise<ChoboReport>] => [
            `postgres server × ${r.lang}`,
            () => verifyWithRunner(cluster.socketDir, list, r, run),
          ]),
        ], "postgres server"),
      );
    } finally {
      await db.end();
      await cluster.stop();
    }
  }
  const lite = await pgliteDb();
  try {
    await loadSchemas(lite, list);
    failures.push(
      ...await combinations(lite, list, [[
        "PGlite × SQL",
        () => verifyScenarios(lite, list, `verify-${Date.now()}`),
      ]], "PGlite"),
    );
  } finally {
    await lite.end();
  }
  return summary("postgres", failures);
}

/** The client languages played on TigerBeetle, one after another. */
const TB_RUNNERS: readonly ClientRunner[] = [
  TB_TYPESCRIPT_RUNNER,
  TB_PYTHON_RUNNER,
  tbGoRunner({ path: null }),
];

/** `deno task verify tigerbeetle`: a disposable replica of `CHOBO_TIGERBEETLE` × every client language, or SKIP. */
export async function verifyTigerBeetle(): Promise<number> {
  const bin = Deno.env.get("CHOBO_TIGERBEETLE") ?? "";
  if (bin === "") {
    console.log("SKIP: chobo: tigerbeetle: CHOBO_TIGERBEETLE is not set");
    return 0;
  }
  const failures: string[] = [];
  try {
    console.log(`CHOBO_TIGERBEETLE: ${await checkVersion(bin)}`);
    const list = subjects(["tests/chobo/books", "examples"]);
    const replica = await startReplica(bin);
    try {
      const run = `verify-${Date.now()}`;
      failures.push(
        ...await play(TB_RUNNERS.map((r): [string, () => Promise<ChoboReport>] => [
          `tigerbeetle × ${r.lang}`,
          () => verifyOnTigerBeetle({ addresses: replica.address }, list, r, run),
        ])),
      );
    } finally {
      await replica.stop();
    }
  } catch (e) {
    failures.push(e instanceof Error ? e.message : String(e));
  }
  return summary("tigerbeetle", failures);
}
