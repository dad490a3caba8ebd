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
import type { ClientLang } from "../../targets/chobo/names.ts";
import { type Platform, type ProofRecord, secondsSince, skippedRecord, type Verified } from "../summary.ts";

/** The client languages played through their runners, besides the SQL called directly. */
const RUNNERS: readonly ClientRunner[] = [TYPESCRIPT_RUNNER, PYTHON_RUNNER, goRunner({ path: null })];

function line(label: string, r: ChoboReport, seconds: number): string {
  return `${label}: ${r.agreed}/${r.scenarios} scenarios agree with the interpreter (${r.together} with together), ` +
    `${r.ranAgain.length} run again, ${seconds.toFixed(1)} s`;
}

/** Prints the run's last lines; the exit code with the records. */
function summary(target: string, failures: readonly string[], records: readonly ProofRecord[]): Verified {
  console.log(
    failures.length === 0
      ? `verify ${target}: every combination agrees`
      : `verify ${target}: ${failures.length} failures`,
  );
  for (const f of failures) console.log(`  ${f}`);
  return { exit: failures.length === 0 ? 0 : 1, records };
}

/**
 * One combination of a target and a client language: its label, the platform it records, the runner
 * (none: the SQL itself), the run.
 */
type Combination = readonly [string, Platform, ClientRunner | null, () => Promise<ChoboReport>];

/** The record of a run of `books` books on `platform`. */
export function choboRecord(platform: Platform, books: number, r: ChoboReport, seconds: number): ProofRecord {
  return {
    platform,
    of: "books",
    subjects: books,
    played: r.scenarios,
    agreed: r.agreed,
    excluded: [],
    ranAgain: r.ranAgain,
    skipped: [],
    seconds,
  };
}

/** Runs each combination of `books` books in turn, printing its line (or SKIP and why); its failures and records. */
async function play(
  runs: readonly Combination[],
  books: number,
): Promise<{ failures: string[]; records: ProofRecord[] }> {
  const failures: string[] = [];
  const records: ProofRecord[] = [];
  for (const [label, platform, runner, run] of runs) {
    const lacks = runner === null ? null : await runner.lacks();
    if (lacks !== null) {
      console.log(`SKIP: chobo: ${label}: ${lacks}`);
      records.push(skippedRecord(platform, "books", label, lacks));
      continue;
    }
    const started = performance.now();
    const report = await run();
    console.log(line(label, report, (performance.now() - started) / 1000));
    for (const r of report.ranAgain) console.log(`  run again: ${r}`);
    failures.push(...report.failures.map((f) => `${label}: ${f.en}`));
    records.push(choboRecord(platform, books, report, secondsSince(started)));
  }
  return { failures, records };
}

/** Runs each combination on one database, then checks that its entries add up; its failures and records. */
async function combinations(
  db: Db,
  list: readonly Subject[],
  runs: readonly Combination[],
  where: string,
): Promise<{ failures: string[]; records: ProofRecord[] }> {
  const { failures, records } = await play(runs, list.length);
  return {
    failures: [
      ...failures,
      ...(await entriesAddUp(db, list)).map((w) => `${where}: entries do not add up: ${w}`),
    ],
    records,
  };
}

/** What `deno task verify` plays when it is given no paths: every test and example book. */
export const DEFAULT_PATHS: readonly string[] = ["tests/chobo/books", "examples"];

/** The platform of each client language on a disposable PostgreSQL server. */
export const ON_POSTGRES: Record<ClientLang, Platform> = {
  typescript: "PostgreSQL: TypeScript client",
  python: "PostgreSQL: Python client",
  go: "PostgreSQL: Go client",
};

/**
 * `deno task verify postgres [path…]`: the server (when its binaries exist) × SQL and every client
 * language, then PGlite, on the books of `paths`.
 */
export async function verifyPostgres(paths: readonly string[]): Promise<Verified> {
  const list = subjects(paths);
  const failures: string[] = [];
  const records: ProofRecord[] = [];
  const bin = findPgBin();
  if (bin === null) {
    const why = "no initdb/pg_ctl on this machine (PGlite still runs)";
    console.log(`SKIP: chobo: postgres server: ${why}`);
    records.push(
      ...(["PostgreSQL: SQL", ...Object.values(ON_POSTGRES)] as const).map((p) =>
        skippedRecord(p, "books", "postgres server", why)
      ),
    );
  } else {
    const cluster = await startCluster(bin);
    const db = serverDb(cluster.socketDir);
    try {
      await loadSchemas(db, list);
      const run = `verify-${Date.now()}`;
      const server = await combinations(db, list, [
        [
          "postgres server × SQL",
          "PostgreSQL: SQL",
          null,
          () => verifyScenarios(db, list, run, "postgres server"),
        ],
        ...RUNNERS.map((r): Combination => [
          `postgres server × ${r.lang}`,
          ON_POSTGRES[r.lang],
          r,
          () => verifyWithRunner(cluster.socketDir, list, r, run),
        ]),
      ], "postgres server");
      failures.push(...server.failures);
      records.push(...server.records);
    } finally {
      await db.end();
      await cluster.stop();
    }
  }
  const lite = await pgliteDb();
  try {
    await loadSchemas(lite, list);
    const played = await combinations(lite, list, [[
      "PGlite × SQL",
      "PGlite: SQL",
      null,
      () => verifyScenarios(lite, list, `verify-${Date.now()}`, "PGlite"),
    ]], "PGlite");
    failures.push(...played.failures);
    records.push(...played.records);
  } finally {
    await lite.end();
  }
  return summary("postgres", failures, records);
}

/** The client languages played on TigerBeetle, one after another. */
const TB_RUNNERS: readonly ClientRunner[] = [
  TB_TYPESCRIPT_RUNNER,
  TB_PYTHON_RUNNER,
  tbGoRunner({ path: null }),
];

/** The platform of each client language on a TigerBeetle replica. */
const ON_TIGERBEETLE: Record<ClientLang, Platform> = {
  typescript: "TigerBeetle: TypeScript runner",
  python: "TigerBeetle: Python runner",
  go: "TigerBeetle: Go runner",
};

/** The platform of each client language on the test double of `tests/support/tigerbeetle_double.ts` (not TigerBeetle). */
export const ON_TIGERBEETLE_DOUBLE: Record<ClientLang, Platform> = {
  typescript: "TigerBeetle test double: TypeScript runner",
  python: "TigerBeetle test double: Python runner",
  go: "TigerBeetle test double: Go runner",
};

/**
 * `deno task verify tigerbeetle [path…]`: a disposable replica of `CHOBO_TIGERBEETLE` × every client
 * language on the books of `paths`, or SKIP.
 */
export async function verifyTigerBeetle(paths: readonly string[]): Promise<Verified> {
  const bin = Deno.env.get("CHOBO_TIGERBEETLE") ?? "";
  if (bin === "") {
    const why = "CHOBO_TIGERBEETLE is not set";
    console.log(`SKIP: chobo: tigerbeetle: ${why}`);
    return {
      exit: 0,
      records: TB_RUNNERS.map((r) =>
        skippedRecord(ON_TIGERBEETLE[r.lang], "books", "a TigerBeetle replica", why)
      ),
    };
  }
  const failures: string[] = [];
  const records: ProofRecord[] = [];
  try {
    console.log(`CHOBO_TIGERBEETLE: ${await checkVersion(bin)}`);
    const list = subjects(paths);
    const replica = await startReplica(bin);
    try {
      const run = `verify-${Date.now()}`;
      const played = await play(
        TB_RUNNERS.map((r): Combination => [
          `tigerbeetle × ${r.lang}`,
          ON_TIGERBEETLE[r.lang],
          r,
          () => verifyOnTigerBeetle({ addresses: replica.address }, list, r, run),
        ]),
        list.length,
      );
      failures.push(...played.failures);
      records.push(...played.records);
    } finally {
      await replica.stop();
    }
  } catch (e) {
    failures.push(e instanceof Error ? e.message : String(e));
  }
  return summary("tigerbeetle", failures, records);
}
