/**
 * A disposable PostgreSQL cluster for one test run (docs/design/chobo.md#differential-verification): `initdb`
 * into a temp dir, listening on a Unix socket only, `fsync=off`; stopped and removed even on failure. A run
 * that was killed leaves a record with its pid; the next run stops and removes what it left.
 *
 * Binaries come from `CHOBO_PG_BIN`, else PATH, else `/usr/lib/postgresql/<n>/bin`. As root,
 * the server runs as the `postgres` user (PostgreSQL refuses to run as root).
 * @module
 */

import { deadRecords, exists, removeGone } from "./procs.ts";

/** Where each run records the clusters it started, so that the next run removes what a killed one left. */
export const PG_RECORDS = "/tmp/chobo-pg-runs";

/** A running cluster: where its socket is, and how to stop it. */
export interface Cluster {
  readonly socketDir: string;
  readonly user: string;
  readonly binDir: string;
  /** The cluster's data directory, for a server started on it by hand once `halt()` stopped this one. */
  readonly dataDir: string;
  /** The system user that owns the data directory (`postgres` when run as root), or null: this one. */
  readonly owner: string | null;
  /** Stops the server and keeps the directory (`stop()` still removes it). */
  halt(): Promise<void>;
  stop(): Promise<void>;
}

/** The directory of `initdb` and `pg_ctl`, or null when this machine has no server binaries. */
export function findPgBin(): string | null {
  const candidates: string[] = [];
  const env = Deno.env.get("CHOBO_PG_BIN");
  if (env !== undefined && env !== "") candidates.push(env);
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) if (dir !== "") candidates.push(dir);
  try {
    const versions = [...Deno.readDirSync("/usr/lib/postgresql")].map((e) => e.name).sort((a, b) =>
      Number(b) - Number(a)
    );
    for (const v of versions) candidates.push(`/usr/lib/postgresql/${v}/bin`);
  } catch {
    // No Debian PostgreSQL here.
  }
  return candidates.find((d) => exists(`${d}/initdb`) && exists(`${d}/pg_ctl`)) ?? null;
}

function isRoot(): boolean {
  return Deno.uid() === 0;
}

async function run(bin: string, args: string[], asUser: string | null): Promise<void> {
  const [cmd, argv] = asUser === null ? [bin, args] : ["runuser", ["-u", asUser, "--", bin, ...args]];
  const out = await new Deno.Command(cmd, { args: argv, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(`${bin} ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
}

/** Stops and removes clusters whose test process is gone (a run that was killed). */
async function cleanLeftovers(binDir: string): Promise<void> {
  for (const record of deadRecords(PG_RECORDS)) {
    const dir = record.text.trim();
    try {
      await run(
        `${binDir}/pg_ctl`,
        ["-D", `${dir}/data`, "-m", "immediate", "stop"],
        isRoot() ? "postgres" : null,
      );
    } catch {
      // Already stopped.
    }
    removeGone(dir);
    record.remove();
  }
}

/**
 * Starts a disposable cluster; throws when it cannot. `settings` are more `name=value` server
 * settings (the benchmark preloads `pg_stat_statements`).
 */
export async function startCluster(binDir: string, settings: readonly string[] = []): Promise<Cluster> {
  await cleanLeftovers(binDir);
  const dir = Deno.makeTempDirSync({ prefix: "chobo-pg-" });
  const user = isRoot() ? "postgres" : null;
  Deno.mkdirSync(PG_RECORDS, { recursive: true });
  // Test files run in parallel in one process: the record names the process, then the cluster.
  const record = `${PG_RECORDS}/${Deno.pid}-${dir.split("/").pop()}`;
  Deno.writeTextFileSync(record, dir);
  let running = true;
  const halt = async () => {
    if (!running) return;
    running = false;
    await run(`${binDir}/pg_ctl`, ["-D", `${dir}/data`, "-m", "fast", "-w", "stop"], user);
  };
  const stop = async () => {
    try {
      await halt();
    } finally {
      Deno.removeSync(dir, { recursive: true });
      Deno.removeSync(record);
    }
  };
  try {
    if (user !== null) {
      Deno.chmodSync(dir, 0o777);
      await run("chown", [user, dir], null);
    }
    await run(`${binDir}/initdb`, [
      "-D",
      `${dir}/data`,
      "-A",
      "trust",
      "-U",
      "postgres",
      "-E",
      "UTF8",
      "--locale=C",
      "--no-sync",
    ], user);
    const options = [
      `-c listen_addresses='' -k ${dir} -c fsync=off -c synchronous_commit=off -c max_connections=200`,
      ...settings.map((s) => `-c ${s}`),
    ].join(" ");
    await run(
      `${binDir}/pg_ctl`,
      ["-D", `${dir}/data`, "-o", options, "-l", `${dir}/log`, "-w", "start"],
      user,
    );
  } catch (e) {
    try {
      await stop();
    } catch {
      // The cluster never started; the directory is removed above.
    }
    throw e;
  }
  return { socketDir: dir, user: "postgres", binDir, dataDir: `${dir}/data`, owner: user, halt, stop };
}
