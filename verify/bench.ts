/**
 * `deno task bench <name>`: benchmarks reported as a ratio to a baseline measured in the same run,
 * so the numbers compare across machines. Each command runs several times; the median counts.
 *
 * - `check`: `chobo check` on every fixture, test and example book, against `deno eval 'null'`
 *   (the cost of starting Deno at all).
 * - `scenarios`: generating and running every scenario of every test and example book, and one
 *   `together` of 8 callers (8! orders), against the same baseline.
 * - `dandori`: generating and running every scenario of every test and example flow on dandori's
 *   reference interpreter, against the same baseline.
 * - `temporal`: the Temporal differential run's runs per second and time a run, against the same
 *   dev server's empty workflow (`verify/dandori/temporal_bench.ts`).
 * - `postgres`: throughput and per-call latency of the generated `do` and `hold` at 1, 4 and 16
 *   concurrent connections on a disposable server, against a floor function on the same server in
 *   the same run: one idempotency-key insert plus one conditional UPDATE, the least any correct
 *   implementation must do.
 * @module
 */

import { findOne } from "../lang/common/assert.ts";
import { checkBook } from "../lang/chobo/check.ts";
import { bookPaths } from "./chobo/books.ts";
import { callStatement, type Statement } from "../targets/chobo/postgres/calls.ts";
import { postgresSql } from "../targets/chobo/postgres/sql.ts";
import { findPgBin, startCluster } from "./services/pg_cluster.ts";
import { serverDb } from "./services/pg_db.ts";
import { benchTemporal } from "./dandori/temporal_bench.ts";

const RUNS = 7;

async function timeCommand(args: readonly string[]): Promise<number> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), { args: [...args], stdout: "null", stderr: "piped" })
    .output();
  const elapsed = performance.now() - started;
  // Exit 2 is also dandori's E018 (a flow that uses rules); only an internal error stops the bench.
  const stderr = new TextDecoder().decode(out.stderr);
  if (out.code > 2 || stderr.includes("internal error")) {
    throw new Error(`${args.join(" ")} exited ${out.code}: ${stderr}`);
  }
  return elapsed;
}

async function median(args: readonly string[]): Promise<number> {
  await timeCommand(args);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timeCommand(args));
  times.sort((a, b) => a - b);
  return times[Math.floor(RUNS / 2)];
}

function flowPaths(dir: string): string[] {
  const found: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    if (e.isDirectory) found.push(...flowPaths(`${dir}/${e.name}`));
    else if (e.name.endsWith(".flow")) found.push(`${dir}/${e.name}`);
  }
  return found.sort();
}

async function benchCheck(): Promise<void> {
  const books = bookPaths(["tests", "examples"]);
  const flows = flowPaths("tests");
  const baseline = await median(["eval", "null"]);
  const check = await median(["run", "-A", "cli.ts", "chobo", "check", ...books]);
  const flowCheck = await median(["run", "-A", "cli.ts", "dandori", "check", ...flows]);
  console.log(`bench check: ${books.length} books, ${flows.length} flows, median of ${RUNS} runs each`);
  console.log(`  baseline  deno eval 'null'                 ${baseline.toFixed(1)} ms`);
  console.log(`  chobo     chobo check (${books.length} books)`.padEnd(45) + `${check.toFixed(1)} ms`);
  console.log(`  dandori   dandori check (${flows.length} flows)`.padEnd(45) + `${flowCheck.toFixed(1)} ms`);
  console.log(
    `  ratio     chobo ${(check / baseline).toFixed(2)} × baseline, dandori ${
      (flowCheck / baseline).toFixed(2)
    } × baseline`,
  );
}

async function benchScenarios(): Promise<void> {
  const baseline = await median(["eval", "null"]);
  const all = await median(["run", "-A", "verify/chobo/workloads.ts", "scenarios"]);
  const together = await median(["run", "-A", "verify/chobo/workloads.ts", "together8"]);
  console.log(`bench scenarios: median of ${RUNS} runs each`);
  console.log(`  baseline   deno eval 'null'                              ${baseline.toFixed(1)} ms`);
  console.log(`  scenarios  generate and run all (test and example books)  ${all.toFixed(1)} ms`);
  console.log(`  together8  8 callers, 8! = 40320 orders                   ${together.toFixed(1)} ms`);
  console.log(
    `  ratio      scenarios ${(all / baseline).toFixed(2)} × baseline, together8 ${
      (together / baseline).toFixed(2)
    } × baseline`,
  );
}

const FLOOR_SQL = `
create table if not exists floor_keys (tenant text, key text, primary key (tenant, key));
create table if not exists floor_accounts (tenant text, id text, balance bigint not null, primary key (tenant, id));
create or replace function floor_call(p_tenant text, p_key text, p_amount bigint) returns text
language plpgsql as $$
begin
  insert into floor_keys values (p_tenant, p_key) on conflict do nothing;
  if not found then
    return 'done_before';
  end if;
  update floor_accounts set balance = balance - p_amount
   where tenant = p_tenant and id = 'stock' and balance - p_amount >= 0;
  return case when found then 'done' else 'refused' end;
end $$;`;

/** Calls of one kind at `connections` at once; returns calls per second and the median latency. */
async function measure(
  db: ReturnType<typeof serverDb>,
  connections: number,
  total: number,
  statement: (caller: number, n: number) => Statement,
): Promise<{ perSecond: number; medianMs: number }> {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, async (_, caller) => {
    const conn = await db.connect();
    try {
      for (let n = 0; n < total / connections; n++) {
        const t = performance.now();
        await conn.query(statement(caller, n));
        latencies.push(performance.now() - t);
      }
    } finally {
      conn.release();
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: total / elapsed, medianMs: latencies[Math.floor(latencies.length / 2)] };
}

async function benchPostgres(): Promise<void> {
  const bin = findPgBin();
  if (bin === null) {
    console.log("SKIP: chobo: bench postgres: no initdb/pg_ctl on this machine");
    return;
  }
  const cluster = await startCluster(bin);
  const db = serverDb(cluster.socketDir);
  try {
    const path = "tests/chobo/books/在庫.book";
    const book = checkBook(path, Deno.readTextFileSync(path)).book!;
    await db.exec(postgresSql(book, path, "bench", "bench"));
    await db.exec(FLOOR_SQL);
    const receive = findOne(book.transfers, (t) => t.name === "入荷", "transfer 入荷");
    const reserve = findOne(book.transfers, (t) => t.name === "引当", "transfer 引当");
    const TOTAL = 4000;
    const [{ v }] = await db.query({ text: "select current_setting('server_version') as v", values: [] });
    console.log(`bench postgres: ${TOTAL} calls per row, PostgreSQL ${v} (a disposable cluster, fsync off)`);
    console.log("  conns  what    calls/s   median ms   vs floor (throughput, latency)");
    for (const connections of [1, 4, 16]) {
      const tenant = `bench-${connections}`;
      await db.query({
        text: `insert into floor_accounts values ($1, 'stock', 1000000000)`,
        values: [tenant],
      });
      await db.query(
        callStatement(book, {
          transfer: receive,
          op: "do",
          strings: new Map([["納品書", "d"], ["sku", "s"]]),
          amounts: new Map([["数", 1000000000n]]),
        }, tenant),
      );
      const floor = await measure(db, connections, TOTAL, (c, n) => ({
        text: "select floor_call($1, $2, 1)",
        values: [tenant, `f-${c}-${n}`],
      }));
      const doCall = await measure(
        db,
        connections,
        TOTAL,
        (c, n) =>
          callStatement(book, {
            transfer: receive,
            op: "do",
            strings: new Map([["納品書", `r-${c}-${n}`], ["sku", "s"]]),
            amounts: new Map([["数", 1n]]),
          }, tenant),
      );
      const holdCall = await measure(
        db,
        connections,
        TOTAL,
        (c, n) =>
          callStatement(book, {
            transfer: reserve,
            op: "hold",
            strings: new Map([["注文", `h-${c}-${n}`], ["sku", "s"]]),
            amounts: new Map([["数", 1n]]),
          }, tenant),
      );
      for (const [what, m] of [["floor", floor], ["do", doCall], ["hold", holdCall]] as const) {
        const ratio = what === "floor"
          ? ""
          : `${(m.perSecond / floor.perSecond).toFixed(2)} ×, ${(m.medianMs / floor.medianMs).toFixed(2)} ×`;
        console.log(
          `  ${String(connections).padStart(5)}  ${what.padEnd(6)}${m.perSecond.toFixed(0).padStart(9)}   ${
            m.medianMs.toFixed(3).padStart(9)
          }   ${ratio}`,
        );
      }
    }
  } finally {
    await db.end();
    await cluster.stop();
  }
}

/** dandori's scenarios: generate and run every scenario of every test and example flow. */
async function benchDandori(): Promise<void> {
  const baseline = await median(["eval", "null"]);
  const all = await median(["run", "-A", "verify/dandori/workloads.ts"]);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "verify/dandori/workloads.ts"],
    stdout: "piped",
  })
    .output();
  console.log(`bench dandori: ${new TextDecoder().decode(out.stdout).trim()}, median of ${RUNS} runs`);
  console.log(`  baseline   deno eval 'null'                                  ${baseline.toFixed(1)} ms`);
  console.log(`  dandori    generate and run all (test and example flows)     ${all.toFixed(1)} ms`);
  console.log(`  ratio      ${(all / baseline).toFixed(2)} × baseline`);
}

const BENCHES: Record<string, () => Promise<void>> = {
  check: benchCheck,
  scenarios: benchScenarios,
  dandori: benchDandori,
  postgres: benchPostgres,
  temporal: benchTemporal,
};

const name = Deno.args[0];
const bench = name === undefined ? undefined : BENCHES[name];
if (bench === undefined) {
  console.error(`usage: deno task bench <${Object.keys(BENCHES).join("|")}>`);
  Deno.exit(2);
}
await bench();
