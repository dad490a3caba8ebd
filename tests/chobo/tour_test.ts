/**
 * README's tour on a running database (README.md#the-tour-on-a-running-database): every command of its
 * console blocks runs in order, as a newcomer would paste it (`bash -c`, from the repository's root), on
 * a disposable PostgreSQL server (verify/services/pg_cluster.ts) reached by `PGHOST`, `PGPORT`,
 * `PGUSER` and `PGDATABASE`; each must exit 0 and print the lines shown, in order (`…` skips; psql's
 * padding at the ends of lines is not compared).
 *
 * The tour writes under `/tmp/tour`; here every `/tmp/tour` of a command is replaced by a temp dir of
 * this test's own, so nothing is written into the repository or where another run writes, and runs
 * beside other tests in parallel. Go uses the module and build caches the Go client tests fill (its
 * go.sum pins pgx), so it needs no network once they have run. Without psql or server binaries the
 * test says SKIP; without psycopg the Python block, without Go the Go block, is skipped and said so.
 * Then the SQL is loaded again and psql's writes are sent again, as the README says a second run does;
 * `deno run` does not type-check, so the TypeScript program is checked against its client at the end.
 */

import { ok, strictEqual } from "node:assert/strict";
import { findPgBin, startCluster } from "../../verify/services/pg_cluster.ts";
import { GO_MODULES, hasGo } from "../../verify/chobo/runners/go/runner.ts";
import { assertShown, consoleBlocks, type Shown, tourPart } from "../support/console.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Runs `command` with bash in the repository's root; its exit and all it printed. */
async function bash(command: string, env: Record<string, string>): Promise<{ code: number; out: string }> {
  const out = await new Deno.Command("bash", {
    args: ["-c", command],
    cwd: ROOT,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code: out.code, out: text.decode(out.stdout) + text.decode(out.stderr) };
}

/** True when `command` exits 0 (false when it cannot start). */
async function runs(command: string): Promise<boolean> {
  try {
    return (await bash(command, {})).code === 0;
  } catch {
    return false;
  }
}

/** What a block needs that may be missing here, with the SKIP line to print without it. */
async function missing(block: readonly Shown[]): Promise<string | null> {
  const text = block.map((c) => c.command).join("\n");
  if (/\bpython3\b/.test(text) && !(await runs("python3 -c 'import psycopg'"))) {
    return "SKIP: python: the tour's Python block: psycopg is not installed (pip install -r verify/requirements.txt)";
  }
  if (/\bgo (-C \S+ )?run\b/.test(text) && !(await hasGo())) {
    return "SKIP: go: the tour's Go block: go is not installed";
  }
  return null;
}

Deno.test("README's tour on a running database: every command runs in order and prints the lines shown", async () => {
  const commands = consoleBlocks(tourPart(Deno.readTextFileSync(`${ROOT}README.md`)).tour);
  ok(commands.length >= 15, `${commands.length} commands`);
  for (const want of ["psql -q -v ON_ERROR_STOP=1 -f", "deno run", "python3", "go -C"]) {
    ok(commands.some((c) => c.command.includes(want)), `the tour has no ${want}`);
  }
  const bin = findPgBin();
  if (bin === null) {
    console.log("SKIP: postgres: the tour: no PostgreSQL server binaries (initdb, pg_ctl)");
    return;
  }
  if (!(await runs("psql --version"))) {
    console.log("SKIP: psql: the tour: psql is not installed");
    return;
  }
  const cluster = await startCluster(bin);
  const dir = Deno.makeTempDirSync({ prefix: "chobo-tour-" });
  try {
    const env: Record<string, string> = {
      ...Deno.env.toObject(),
      PATH: `${Deno.execPath().replace(/\/[^/]*$/, "")}:${Deno.env.get("PATH") ?? ""}`,
      PGHOST: cluster.socketDir,
      PGPORT: "5432",
      PGUSER: cluster.user,
      PGDATABASE: "postgres",
      NO_COLOR: "1",
    };
    for (const name of ["PGPASSWORD", "PGSERVICE", "PGOPTIONS", "PGSSLMODE", "DATABASE_URL"]) {
      delete env[name];
    }
    const blocks = [...new Set(commands.map((c) => c.block))];
    for (const b of blocks) {
      const block = commands.filter((c) => c.block === b);
      const skip = await missing(block);
      if (skip !== null) {
        console.log(skip);
        continue;
      }
      for (const { command, shown } of block) {
        const started = performance.now();
        const run = await bash(command.replaceAll("/tmp/tour", dir), env);
        strictEqual(run.code, 0, `${command}\n${run.out}`);
        assertShown(command, run.out, shown, true);
        console.log(`${((performance.now() - started) / 1000).toFixed(1)} s  ${command}`);
      }
    }
    // What the README says of a second run: the SQL loads again over the data, and every write from
    // psql answers what its key answered, done_before or already_refused.
    const load = commands.find((c) => c.command.startsWith("psql -q -v ON_ERROR_STOP=1 -f"))!;
    strictEqual((await bash(load.command.replaceAll("/tmp/tour", dir), env)).code, 0);
    const writes = commands.filter((c) => /^psql -c .*refunds\.(sale_do|refund_\w+)\(/.test(c.command));
    ok(writes.length >= 5, `${writes.length} writes`);
    for (const { command, shown } of writes) {
      const again = await bash(command, env);
      const want = shown.some((l) => l.includes("refused")) ? "already_refused" : "done_before";
      ok(again.out.includes(want), `${command} again:\n${again.out}`);
    }
    // `deno run` does not type-check: the tour's program must still fit the client it runs with.
    const checked = await bash(`deno check ${dir}/ts/tour.ts`, env);
    strictEqual(checked.code, 0, checked.out);
  } finally {
    Deno.removeSync(dir, { recursive: true });
    await cluster.stop();
  }
});

Deno.test("the tour's Go module pins the pgx and Go the Go client tests build with, and README names that pgx", () => {
  const mod = Deno.readTextFileSync(`${ROOT}examples/refunds/tour/go/go.mod`);
  ok(mod.includes(`\nrequire github.com/jackc/pgx/v5 ${GO_MODULES.pgx}\n`), mod);
  ok(mod.includes(`\ngo ${GO_MODULES.go}\n`), mod);
  const sum = Deno.readTextFileSync(`${ROOT}examples/refunds/tour/go/go.sum`);
  ok(sum.includes(`github.com/jackc/pgx/v5 ${GO_MODULES.pgx} h1:`), sum);
  const { tour } = tourPart(Deno.readTextFileSync(`${ROOT}README.md`));
  ok(tour.includes(`pgx ${GO_MODULES.pgx}`), "README's tour names another pgx");
});
