/**
 * chobo's differential runs: every scenario of every test and example book played on a target
 * for real and compared with the reference interpreter, with a progress line per combination
 * and a summary; 1 when anything disagrees.
 *
 * - `postgres`: on a disposable PostgreSQL cluster (when server binaries exist), the SQL called
 *   directly and each client language through its runner; then embedded PGlite.
 * - `tigerbeetle`: on a disposable replica of the binary `CHOBO_TIGERBEETLE` names, each client
 *   language through its runner; without the variable it says SKIP and passes.
 *
 * A client language this machine cannot run (no `go`, Python without its packages) says SKIP with
 * what to install, and the other combinations still run.
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

/** One combination of a target and a client language: its label, the runner (none: the SQL itself), the run. */
type Combination = readonly [string, ClientRunner | null, () => Promise<ChoboReport>];

/** Runs each combination in turn, printing its line (or SKIP and why); returns the failures. */
async function play(runs: readonly Combination[]): Promise<string[]> {
  const failures: string[] = [];
  for (const [label, runner, run] of runs) {
    const lacks = runner === null ? null : await runner.lacks();
    if (lacks !== null) {
      console.log(`SKIP: chobo: ${label}: ${lacks}`);
      continue;
    }
    const started = performance.now();
    const report = await run();
    console.log(line(label, report, (performance.now() - started) / 1000));
    for (const r of report.ranAgain) console.log(`  run again: ${r}`);
    failures.push(...report.failures.map((f) => `${label}: ${f.en}`));
  }
  return failures;
}

/** Runs each combination on one database, then checks that its entries add up; returns the failures. */
async function combinations(
  db: Db,
  list: readonly Subject[],
  runs: readonly Combination[],
  where: string,
): Promise<string[]> {
  const failures = await play(runs);
  return [...failures, ...(await entriesAddUp(db, list)).map((w) => `${where}: entries do not add up: ${w}`)];
}

/** What `deno task verify` plays when it is given no paths: every test and example book. */
export const DEFAULT_PATHS: readonly string[] = ["tests/chobo/books", "examples"];

/**
 * `deno task verify postgres [path…]`: the server (when its binaries exist) × SQL and every client
 * language, then PGlite, on the books of `paths`.
 */
export async function verifyPostgres(paths: readonly string[]): Promise<number> {
  const list = subjects(paths);
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
          ["postgres server × SQL", null, () => verifyScenarios(db, list, run, "postgres server")],
          ...RUNNERS.map((r): Combination => [
            `postgres server × ${r.lang}`,
            r,
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
        null,
        () => verifyScenarios(lite, list, `verify-${Date.now()}`, "PGlite"),
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

/**
 * `deno task verify tigerbeetle [path…]`: a disposable replica of `CHOBO_TIGERBEETLE` × every client
 * language on the books of `paths`, or SKIP.
 */
export async function verifyTigerBeetle(paths: readonly string[]): Promise<number> {
  const bin = Deno.env.get("CHOBO_TIGERBEETLE") ?? "";
  if (bin === "") {
    console.log("SKIP: chobo: tigerbeetle: CHOBO_TIGERBEETLE is not set");
    return 0;
  }
  const failures: string[] = [];
  try {
    console.log(`CHOBO_TIGERBEETLE: ${await checkVersion(bin)}`);
    const list = subjects(paths);
    const replica = await startReplica(bin);
    try {
      const run = `verify-${Date.now()}`;
      failures.push(
        ...await play(TB_RUNNERS.map((r): Combination => [
          `tigerbeetle × ${r.lang}`,
          r,
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
