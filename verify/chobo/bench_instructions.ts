/**
 * Case (g) of `deno task bench postgres`: the CPU instructions one call of a function costs the
 * server, counted by callgrind (valgrind) on a single-user server (`postgres --single`). The count
 * is the same from run to run whatever else the machine does, so a change to the generated SQL is
 * measured to a fraction of a percent where the throughput cases vary by a tenth on a busy
 * machine. It counts no lock wait and no client: it says what a call costs, not how calls contend.
 *
 * Each function is run twice, `FEW` and `MANY` calls with keys of their own, each call its own
 * transaction (single-user mode commits every statement); the difference over `MANY − FEW` calls
 * leaves out the server's start and stop. The statements are parsed and planned on every call
 * there (single-user mode prepares nothing), which adds the same to every function, the floor's too.
 * @module
 */

import type { Cluster } from "../services/pg_cluster.ts";

const FEW = 200;
const MANY = 1200;

/** A function to count: a name for the table, and its call with the key `key`. */
export interface Counted {
  readonly what: string;
  readonly call: (key: string) => string;
}

/** Null when valgrind is on PATH, else why the case is skipped. */
export function instructionsSkipped(): string | null {
  try {
    const out = new Deno.Command("valgrind", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync();
    return out.success ? null : "valgrind --version failed";
  } catch {
    return "valgrind is not installed (apt-get install valgrind)";
  }
}

async function collected(cluster: Cluster, calls: string[]): Promise<number> {
  const argv = [
    "valgrind",
    "--tool=callgrind",
    `--callgrind-out-file=${cluster.socketDir}/callgrind.out`,
    `${cluster.binDir}/postgres`,
    "--single",
    "-D",
    cluster.dataDir,
    "-c",
    "fsync=off",
    "postgres",
  ];
  const [cmd, ...args] = cluster.owner === null ? argv : ["runuser", "-u", cluster.owner, "--", ...argv];
  const child = new Deno.Command(cmd, { args, stdin: "piped", stdout: "null", stderr: "piped" }).spawn();
  const stdin = child.stdin.getWriter();
  await stdin.write(new TextEncoder().encode(calls.map((c) => `${c};\n`).join("")));
  await stdin.close();
  const out = await child.output();
  const text = new TextDecoder().decode(out.stderr);
  const found = text.match(/Collected : (\d+)/);
  if (!out.success || found === null) throw new Error(`callgrind of postgres --single failed:\n${text}`);
  return Number(found[1]);
}

/**
 * Instructions per call of each function, on `cluster` (halted here: single-user mode needs the
 * data directory to itself). `progress` gets a line per function.
 */
export async function instructionsPerCall(
  cluster: Cluster,
  functions: readonly Counted[],
  progress: (line: string) => void,
): Promise<{ what: string; instructions: number }[]> {
  await cluster.halt();
  const out = [];
  for (const [n, f] of functions.entries()) {
    progress(`(g) ${f.what}, callgrind over ${MANY - FEW} calls`);
    const calls = (prefix: string, count: number) =>
      Array.from({ length: count }, (_, i) => f.call(`'g${n}-${prefix}-${i + 1}'`));
    const few = await collected(cluster, calls("few", FEW));
    const many = await collected(cluster, calls("many", MANY));
    out.push({ what: f.what, instructions: (many - few) / (MANY - FEW) });
  }
  return out;
}
