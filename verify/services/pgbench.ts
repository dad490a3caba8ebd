/**
 * pgbench, PostgreSQL's load generator (beside `initdb` in the server's bin directory, Debian's
 * `postgresql-client`), on a disposable cluster: one custom script, sent as prepared statements
 * (`-M prepared`, as the clients' drivers do once a statement repeats), and what it counts.
 * @module
 */

import type { Cluster } from "./pg_cluster.ts";
import { exists } from "./procs.ts";

/** What one run counted. */
export interface PgbenchRun {
  readonly transactions: number;
  /** Transactions that ended in a serialization failure or a deadlock (pgbench counts them apart). */
  readonly failed: number;
  /** Transactions per second, without the time to connect. */
  readonly tps: number;
  /** The mean time of one transaction as the client sees it, in milliseconds. */
  readonly latencyMs: number;
}

/** How long or how many, and with how many connections. */
export interface PgbenchLoad {
  /** The script: pgbench's meta-commands and one SQL statement per line. */
  readonly script: string;
  readonly clients: number;
  /** Either a duration or a number of transactions per client. */
  readonly until: { readonly seconds: number } | { readonly transactions: number };
  /** Variables every client starts with (`-D name=value`). */
  readonly vars?: Readonly<Record<string, string>>;
}

/**
 * The pgbench of the server the cluster runs: beside its `initdb` (also where a link to `initdb`
 * points), else on PATH; null when this machine has none.
 */
export function findPgbench(cluster: Cluster): string | null {
  const initdb = Deno.realPathSync(`${cluster.binDir}/initdb`);
  const dirs = [
    cluster.binDir,
    initdb.slice(0, initdb.lastIndexOf("/")),
    ...(Deno.env.get("PATH") ?? "").split(":"),
  ];
  return dirs.filter((d) => d !== "").map((d) => `${d}/pgbench`).find(exists) ?? null;
}

/** The two cores of the development machine: more client threads than cores only queue. */
const MAX_THREADS = 2;

function number(out: string, pattern: RegExp, what: string): number {
  const m = out.match(pattern);
  if (m === null) throw new Error(`pgbench printed no ${what}:\n${out}`);
  return Number(m[1]);
}

/** Runs `load` on the cluster's `postgres` database; throws when a client stopped on an error. */
export async function pgbench(bin: string, cluster: Cluster, load: PgbenchLoad): Promise<PgbenchRun> {
  const file = Deno.makeTempFileSync({ prefix: "chobo-pgbench-", suffix: ".sql" });
  try {
    Deno.writeTextFileSync(file, load.script);
    const until = "seconds" in load.until
      ? ["-T", String(load.until.seconds)]
      : ["-t", String(load.until.transactions)];
    const vars = Object.entries(load.vars ?? {}).flatMap(([k, v]) => ["-D", `${k}=${v}`]);
    const args = [
      ...["-h", cluster.socketDir, "-U", cluster.user, "-n", "-M", "prepared", "-f", file],
      ...["-c", String(load.clients), "-j", String(Math.min(load.clients, MAX_THREADS)), ...until, ...vars],
      "postgres",
    ];
    const out = await new Deno.Command(bin, { args, stdout: "piped", stderr: "piped" }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    if (!out.success || text.includes("aborted")) {
      throw new Error(`pgbench ${args.join(" ")} failed (exit ${out.code}):\n${text}`);
    }
    return {
      transactions: number(text, /number of transactions actually processed: (\d+)/, "transaction count"),
      failed: number(text, /number of failed transactions: (\d+)/, "failure count"),
      tps: number(text, /tps = ([\d.]+) \(without initial connection time\)/, "tps"),
      latencyMs: number(text, /latency average = ([\d.]+) ms/, "latency"),
    };
  } finally {
    Deno.removeSync(file);
  }
}
