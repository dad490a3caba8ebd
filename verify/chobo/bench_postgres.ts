/**
 * `deno task bench postgres`: the generated SQL of `tests/chobo/books/在庫.book` against a floor on
 * the same disposable server in the same run, so every number is a ratio that compares across
 * machines. The floor is the least any correct design does: one idempotency-key insert plus one
 * conditional UPDATE of one row (`floor_call`), and for `expire()` one UPDATE marking the due holds
 * plus one UPDATE giving their amounts back (`floor_expire`).
 *
 * | case | what                                                    | floor                         |
 * | ---- | ------------------------------------------------------- | ----------------------------- |
 * | (a)  | `do`, `hold` and `floor_hold_writes` of 1 on one hot inside account, 1/4/8/16 connections | `floor_call` on one row |
 * | (b)  | the same on 100 inside accounts, 16 connections         | `floor_call` on 100 rows      |
 * | (c)  | one session's latency (the 1-connection run of (a))     | the same                      |
 * | (d)  | `expire()` of 1,000 and 10,000 due holds, per hold       | `floor_expire`                |
 * | (e)  | 10,000 `hold` calls inside one `SELECT`                  | 10,000 `floor_call`s          |
 * | (f)  | server time per call of each function (pg_stat_statements: execution + planning) | `floor_call` |
 * | (g)  | CPU instructions per call of `do` and `hold` (callgrind, `verify/chobo/bench_instructions.ts`) | `floor_call`, and `floor_hold_writes` |
 *
 * `floor_hold_writes` writes the rows a `hold` of the book writes and does nothing else: the key
 * row, two entries, the hold row, the account's UPDATE (`holdWritesSql`). Its ids are an md5 of the
 * tenant and the SKU, its account rows made for it by `fill`. What `hold` costs above it is what its
 * checks, ids and answers cost. What it costs itself is about the least a hold can cost that writes
 * the rows the design's tables require (docs/design/chobo.md#postgresql), so its ratio in (a) and
 * (b) is about the highest such a hold's can be on the machine that runs the bench.
 *
 * Throughput runs are pgbench (`-M prepared`, `ROUNDS` rounds of `SECONDS` s, floor and functions
 * taking turns in each round so a busy machine slows them alike); the table shows medians, and
 * each ratio is the median of the rounds' ratios. A progress line per case goes to stderr.
 * @module
 */

import { checkBook } from "../../lang/chobo/check.ts";
import type { Book, Transfer } from "../../lang/chobo/model.ts";
import { findOne } from "../../lang/common/assert.ts";
import { displayWidth, padEnd } from "../../lang/common/width.ts";
import { balanceName, functionName, ident } from "../../targets/chobo/postgres/sql_names.ts";
import { postgresSql } from "../../targets/chobo/postgres/sql.ts";
import { type Cluster, findPgBin, startCluster } from "../services/pg_cluster.ts";
import { serverDb } from "../services/pg_db.ts";
import { findPgbench, pgbench, type PgbenchRun } from "../services/pgbench.ts";
import { instructionsPerCall, instructionsSkipped } from "./bench_instructions.ts";

const BOOK = "tests/chobo/books/在庫.book";

/** Rounds of every throughput case; the median of 3 survives one round on a busy machine. */
const ROUNDS = 3;
/** Seconds of one pgbench run: enough for thousands of calls at the slowest case here. */
const SECONDS = 2;
/** Connections of case (a), as the issue sets them. */
const HOT_CONNECTIONS = [1, 4, 8, 16] as const;
/** Inside accounts of case (b), and of (d) and (e) as the design measured (docs/design/chobo.md#postgresql: 100 accounts). */
const WIDE_ACCOUNTS = 100;
/** Due holds of case (d). */
const EXPIRE_SIZES = [1000, 10000] as const;
/** `hold` calls in the one `SELECT` of case (e) (docs/design/chobo.md#postgresql: 10,000 took 5.5 s). */
const ONE_SELECT_CALLS = 10000;
/** Calls of each function in case (f), from one session. */
const PER_FUNCTION_CALLS = 2000;
/** Stock put in every benchmark account: no run here takes it all. */
const STOCK = 10n ** 15n;

/**
 * pg_stat_statements keeps server time per statement; it must be loaded when the server starts.
 * Its `track` stays off the command line, which would outrank the `alter system` of case (f).
 */
const SERVER_SETTINGS = [
  "shared_preload_libraries=pg_stat_statements",
  "pg_stat_statements.track_planning=on",
];

const FLOOR_SQL = `
create extension if not exists pg_stat_statements;
create table floor_keys (tenant text, key text, primary key (tenant, key));
create table floor_accounts (tenant text, id text, balance bigint not null, primary key (tenant, id));
create function floor_call(p_tenant text, p_key text, p_account text, p_amount bigint) returns text
language plpgsql as $$
begin
  insert into floor_keys values (p_tenant, p_key) on conflict do nothing;
  if not found then
    return 'done_before';
  end if;
  update floor_accounts set balance = balance - p_amount
   where tenant = p_tenant and id = p_account and balance - p_amount >= 0;
  return case when found then 'done' else 'refused' end;
end $$;
create table floor_holds (tenant text, id bigint, account text not null, amount bigint not null,
  state text not null, expires_at timestamptz not null, primary key (tenant, id));
create index floor_holds_due on floor_holds (expires_at) where state = 'held';
create function floor_expire(p_max integer) returns integer language sql as $$
  with due as (
    select tenant, id from floor_holds where state = 'held' and expires_at <= clock_timestamp()
     order by expires_at limit p_max for update skip locked
  ), marked as (
    update floor_holds h set state = 'expired' from due where h.tenant = due.tenant and h.id = due.id
    returning h.tenant, h.account, h.amount
  ), given as (
    update floor_accounts a set balance = a.balance + g.amount
      from (select tenant, account, sum(amount)::bigint as amount from marked group by 1, 2) as g
     where a.tenant = g.tenant and a.id = g.account
    returning 1
  )
  select count(*)::integer from marked
$$;`;

/** The id of the account `floor_hold_writes` takes from (`sku`) or moves to (`null`), as SQL. */
function writesId(tenant: string, sku: string | null): string {
  return `md5(${tenant} || '/' || ${sku ?? "''"})::uuid`;
}

/** `floor_hold_writes`: the rows `引当.hold` writes, nothing else (no check, an md5 for an id). */
function holdWritesSql(schema: string): string {
  return `
create function floor_hold_writes(p_tenant text, p_key text, p_sku text, p_amount bigint)
returns text language plpgsql as $$
declare
  v_now timestamptz := clock_timestamp();
  v_from uuid := ${writesId("p_tenant", "p_sku")};
  v_to uuid := ${writesId("p_tenant", null)};
begin
  insert into ${schema}.keys (tenant, kind, op, key, key_hash, content, definition, result, reason, at)
  values (p_tenant, '引当', 'hold', p_key, sha256(convert_to(p_key, 'UTF8')), p_key, '', 'done', null, v_now)
  on conflict do nothing;
  if not found then
    return 'done_before';
  end if;
  insert into ${schema}.entries (tenant, account, kind, op, key, posted, held_in, held_out, at)
  values (p_tenant, v_from, '引当', 'hold', p_key, 0, 0, p_amount, v_now),
         (p_tenant, v_to, '引当', 'hold', p_key, 0, p_amount, 0, v_now);
  insert into ${schema}.holds (tenant, id, kind, key, from_ids, to_ids, amounts, state, created_at, expires_at)
  values (p_tenant, md5(p_key)::uuid, '引当', p_key, array[v_from], array[v_to], array[p_amount], 'held', v_now,
          v_now + interval '1800 seconds');
  update ${schema}.accounts r set held_out = r.held_out + p_amount
   where r.tenant = p_tenant and r.id = v_from and r.posted - r.held_out - p_amount >= 0;
  return case when found then 'done' else 'refused' end;
end $$;`;
}

/** The functions of the book the cases call, as SQL names. */
interface Names {
  readonly schema: string;
  readonly receive: string;
  readonly reserve: Transfer;
  readonly hold: string;
  readonly post: string;
  readonly void: string;
  readonly status: string;
  readonly balances: readonly { readonly name: string; readonly args: string }[];
  readonly expire: string;
}

function namesOf(book: Book): Names {
  const schema = ident(book.name);
  const transfer = (name: string) => findOne(book.transfers, (t) => t.name === name, `transfer ${name}`);
  const fn = (t: Transfer, op: string) => `${schema}.${ident(functionName(t, op))}`;
  const reserve = transfer("引当");
  return {
    schema,
    receive: fn(transfer("入荷"), "do"),
    reserve,
    hold: fn(reserve, "hold"),
    post: fn(reserve, "post"),
    void: fn(reserve, "void"),
    status: fn(reserve, "status"),
    balances: book.accounts.map((a) => ({
      name: `${schema}.${ident(balanceName(a))}`,
      args: a.params.length === 0 ? "" : ", 's'",
    })),
    expire: `${schema}.expire`,
  };
}

/** A pgbench script of one call with a key of its own: `'<prefix>' || client || '-' || n`. */
function script(call: (key: string, account: string) => string, prefix: string, wide: boolean): string {
  const key = `'${prefix}-' || :client_id || '-' || :n`;
  const account = wide ? `'s' || :a` : `'s'`;
  return [
    "\\set n :n + 1",
    ...(wide ? [`\\set a random(1, ${WIDE_ACCOUNTS})`] : []),
    `${call(key, account)};`,
    "",
  ].join("\n");
}

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function progress(line: string): void {
  console.error(`  … ${line}`);
}

/** One throughput case: floor, `do` and `hold`, `ROUNDS` rounds each, taking turns. */
interface Throughput {
  readonly floor: PgbenchRun[];
  readonly do: PgbenchRun[];
  readonly hold: PgbenchRun[];
  readonly writes: PgbenchRun[];
}

async function throughput(
  bin: string,
  cluster: Cluster,
  names: Names,
  label: string,
  tenant: string,
  clients: number,
  wide: boolean,
): Promise<Throughput> {
  const runs: Throughput = { floor: [], do: [], hold: [], writes: [] };
  const t = `'${tenant}'`;
  const calls = {
    floor: (key: string, account: string) => `select floor_call(${t}, ${key}, ${account}, 1)`,
    do: (key: string, account: string) =>
      `select result, reason from ${names.receive}(${t}, ${key}, ${account}, 1)`,
    hold: (key: string, account: string) =>
      `select result, reason from ${names.hold}(${t}, ${key}, ${account}, 1)`,
    writes: (key: string, account: string) => `select floor_hold_writes(${t}, ${key}, ${account}, 1)`,
  };
  for (let round = 1; round <= ROUNDS; round++) {
    progress(`${label}, round ${round} of ${ROUNDS}`);
    for (const what of ["floor", "do", "hold", "writes"] as const) {
      const run = await pgbench(bin, cluster, {
        script: script(calls[what], `${tenant}-${clients}-${round}-${what}`, wide),
        clients,
        until: { seconds: SECONDS },
        vars: { n: "0" },
      });
      if (run.failed > 0) {
        throw new Error(`${label}: ${run.failed} ${what} calls failed (deadlock or serialization)`);
      }
      runs[what].push(run);
    }
  }
  return runs;
}

/** The median of the rounds' ratios of `value` between `runs` and the floor. */
function ratio(floor: readonly PgbenchRun[], runs: readonly PgbenchRun[], value: (r: PgbenchRun) => number) {
  return median(runs.map((r, i) => value(r) / value(floor[i])));
}

async function fill(db: ReturnType<typeof serverDb>, names: Names, tenant: string, skus: readonly string[]) {
  for (const sku of skus) {
    await db.query({
      text: `select result from ${names.receive}($1, $2, $3, $4)`,
      values: [tenant, `fill-${sku}`, sku, String(STOCK)],
    });
    await db.query({
      text: `insert into floor_accounts values ($1, $2, $3)`,
      values: [tenant, sku, String(STOCK)],
    });
    await db.query({
      text: `insert into ${names.schema}.accounts (tenant, id, kind, args, unit, lower_bound, posted)
             values ($1, ${writesId("$1", "$2")}, '在庫', array[$2], '個', 0, $3)`,
      values: [tenant, sku, String(STOCK)],
    });
  }
}

const WIDE_SKUS = Array.from({ length: WIDE_ACCOUNTS }, (_, i) => `s${i + 1}`);

async function timed(db: ReturnType<typeof serverDb>, text: string, values: string[]) {
  const started = performance.now();
  const rows = await db.query({ text, values });
  return { ms: performance.now() - started, rows };
}

/** Case (d): `expire()` of `n` due holds over 100 accounts against `floor_expire`, ms per hold. */
async function expireCase(db: ReturnType<typeof serverDb>, names: Names, n: number, round: number) {
  const tenant = `expire-${n}-${round}`;
  await fill(db, names, tenant, WIDE_SKUS);
  await db.query({
    text: `select count(*) from generate_series(1, $2::integer) g,
      lateral ${names.hold}($1, 'x-' || g, 's' || (g % ${WIDE_ACCOUNTS} + 1), 1) r where r.result = 'done'`,
    values: [tenant, String(n)],
  });
  // Due now: the book's holds last 30 minutes, and the benchmark does not wait for them.
  await db.query({
    text: `update ${names.schema}.holds set expires_at = clock_timestamp() - interval '1 second'
            where tenant = $1 and state = 'held'`,
    values: [tenant],
  });
  await db.query({
    text: `insert into floor_holds select $1, g, 's' || (g % ${WIDE_ACCOUNTS} + 1), 1, 'held',
             clock_timestamp() - interval '1 second' from generate_series(1, $2::integer) g`,
    values: [tenant, String(n)],
  });
  const ours = await timed(db, `select ${names.expire}($1::integer) as n`, [String(n)]);
  const floor = await timed(db, `select floor_expire($1::integer) as n`, [String(n)]);
  for (const [what, r] of [["expire()", ours], ["floor_expire", floor]] as const) {
    if (Number(r.rows[0].n) !== n) throw new Error(`${what} gave back ${r.rows[0].n} of ${n} due holds`);
  }
  return { ours: ours.ms / n, floor: floor.ms / n };
}

/** Case (e): 10,000 holds in one SELECT against 10,000 floor calls in one SELECT. */
async function oneSelectCase(db: ReturnType<typeof serverDb>, names: Names, round: number) {
  const tenant = `one-select-${round}`;
  await fill(db, names, tenant, WIDE_SKUS);
  const ours = await timed(
    db,
    `select count(*) as n from generate_series(1, $2::integer) g,
      lateral ${names.hold}($1, 'e-' || g, 's' || (g % ${WIDE_ACCOUNTS} + 1), 1) r where r.result = 'done'`,
    [tenant, String(ONE_SELECT_CALLS)],
  );
  const floor = await timed(
    db,
    `select count(*) as n from generate_series(1, $2::integer) g
      where floor_call($1, 'e-' || g, 's' || (g % ${WIDE_ACCOUNTS} + 1), 1) = 'done'`,
    [tenant, String(ONE_SELECT_CALLS)],
  );
  for (const r of [ours, floor]) {
    if (Number(r.rows[0].n) !== ONE_SELECT_CALLS) throw new Error(`one SELECT did ${r.rows[0].n} calls`);
  }
  return { ours: ours.ms, floor: floor.ms };
}

/** One row of case (f): a function, its calls from one session, and its server time per call. */
interface ServerTime {
  readonly what: string;
  readonly calls: number;
  readonly us: number;
}

/** A pgbench load of case (f): `calls` calls of `sql`, its key counter `:n` starting after `from`. */
interface PerCall {
  readonly what: string;
  readonly sql: string;
  readonly calls: number;
  readonly from: number;
}

/**
 * Every function with keys `'<prefix>-' || :n`, `n` calls each: `hold` makes holds 1 … n, `post`
 * posts the first half and `void` voids the second, `status` reads them.
 */
function perCallLoads(names: Names, tenant: string, prefix: string, n: number): PerCall[] {
  const t = `'${tenant}'`;
  const key = `'${prefix}-' || :n`;
  const call = (fn: string, args: string) => `select result, reason from ${fn}(${t}, ${args})`;
  return [
    { what: "floor_call", sql: `select floor_call(${t}, ${key}, 's', 1)`, calls: n, from: 0 },
    { what: names.receive, sql: call(names.receive, `${key}, 's', 1`), calls: n, from: 0 },
    { what: names.hold, sql: call(names.hold, `${key}, 's', 1`), calls: n, from: 0 },
    { what: names.post, sql: call(names.post, `${key}, 's'`), calls: n / 2, from: 0 },
    { what: names.void, sql: call(names.void, `${key}, 's'`), calls: n / 2, from: n / 2 },
    { what: names.status, sql: `select ${names.status}(${t}, ${key}, 's') as state`, calls: n, from: 0 },
    ...names.balances.map((b) => ({
      what: b.name,
      sql: `select posted::text, held_in::text, held_out::text from ${b.name}(${t}${b.args})`,
      calls: n,
      from: 0,
    })),
  ];
}

async function playPerCall(bin: string, cluster: Cluster, loads: readonly PerCall[]): Promise<void> {
  for (const l of loads) {
    progress(`(f) ${l.what}, ${fmt(l.calls)} calls`);
    await pgbench(bin, cluster, {
      script: `\\set n :n + 1\n${l.sql};\n`,
      clients: 1,
      until: { transactions: l.calls },
      vars: { n: String(l.from) },
    });
  }
}

/** Calls of each function while nested statements are tracked: enough to see a plan per call. */
const REPLAN_CALLS = 200;
/** Plans per call above which a statement counts as planned again on calls (a session plans once: 1/200). */
const REPLANNED = 0.5;
/** Characters of a re-planned statement the report shows. */
const QUERY_SHOWN = 90;

/**
 * Case (f): every function from one session, then each one's server time per call; then again
 * with the statements inside the functions tracked, for how often each is planned.
 */
async function serverTimes(bin: string, cluster: Cluster, db: ReturnType<typeof serverDb>, names: Names) {
  const tenant = "per-call";
  await fill(db, names, tenant, ["s"]);
  const loads = perCallLoads(names, tenant, "f", PER_FUNCTION_CALLS);
  await db.query({ text: "select pg_stat_statements_reset()", values: [] });
  await playPerCall(bin, cluster, loads);
  const rows = await db.query({
    text: `select query, calls::text, (total_exec_time + total_plan_time)::text as ms
             from pg_stat_statements where toplevel`,
    values: [],
  });
  const times: ServerTime[] = loads.map((l) => {
    const row = rows.find((r) => (r.query as string).includes(`${l.what}(`) && Number(r.calls) === l.calls);
    if (row === undefined) throw new Error(`pg_stat_statements has no statement of ${l.what}`);
    return { what: l.what, calls: l.calls, us: Number(row.ms) * 1000 / l.calls };
  });
  const [{ n }] = await db.query({
    text: `select count(*)::text as n from ${names.schema}.entries
            where tenant = $1 and account = ${names.schema}.chobo_id(array['account', '在庫', $1, '客'])`,
    values: [tenant],
  });
  await db.query({ text: "alter system set pg_stat_statements.track = 'all'", values: [] });
  await db.query({ text: "select pg_reload_conf()", values: [] });
  await db.query({ text: "select pg_stat_statements_reset()", values: [] });
  await playPerCall(bin, cluster, perCallLoads(names, tenant, "r", REPLAN_CALLS));
  const nested = await db.query({
    text: `select query, (plans::float8 / calls)::text as per_call from pg_stat_statements
            where not toplevel and calls >= $1 order by plans::float8 / calls desc, query`,
    values: [String(REPLAN_CALLS / 2)],
  });
  await db.query({ text: "alter system reset pg_stat_statements.track", values: [] });
  await db.query({ text: "select pg_reload_conf()", values: [] });
  const replanned = nested.filter((r) => Number(r.per_call) > REPLANNED).map((r) => ({
    query: (r.query as string).replaceAll(/\s+/g, " "),
    perCall: Number(r.per_call),
  }));
  return { times, outsideEntries: Number(n), statements: nested.length, replanned };
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Runs every case and prints the table. */
export async function benchPostgres(): Promise<void> {
  const pgBin = findPgBin();
  if (pgBin === null) {
    console.log("SKIP: chobo: bench postgres: no initdb/pg_ctl on this machine");
    return;
  }
  const cluster = await startCluster(pgBin, SERVER_SETTINGS);
  const db = serverDb(cluster.socketDir);
  let dbOpen = true;
  try {
    const bin = findPgbench(cluster);
    if (bin === null) {
      console.log(
        `SKIP: chobo: bench postgres: no pgbench in ${cluster.binDir} (apt-get install postgresql-client)`,
      );
      return;
    }
    const book = checkBook(BOOK, Deno.readTextFileSync(BOOK)).book;
    if (book === null) throw new Error(`${BOOK} has errors`);
    await db.exec(postgresSql(book, BOOK, "bench", "bench"));
    await db.exec(FLOOR_SQL);
    const names = namesOf(book);
    await db.exec(holdWritesSql(names.schema));
    const [{ v }] = await db.query({ text: "select current_setting('server_version') as v", values: [] });
    console.log(
      `bench postgres: ${BOOK} on PostgreSQL ${v} (a disposable cluster, fsync off); pgbench -M prepared, ` +
        `${ROUNDS} rounds of ${SECONDS} s per throughput case, medians`,
    );

    const hot: [number, Throughput][] = [];
    await fill(db, names, "hot", ["s"]);
    for (const clients of HOT_CONNECTIONS) {
      hot.push([
        clients,
        await throughput(bin, cluster, names, `(a) ${clients} on one account`, "hot", clients, false),
      ]);
    }
    await fill(db, names, "wide", WIDE_SKUS);
    const wide = await throughput(
      bin,
      cluster,
      names,
      `(b) 16 on ${WIDE_ACCOUNTS} accounts`,
      "wide",
      16,
      true,
    );
    const expires: { n: number; ours: number; floor: number; ratio: number }[] = [];
    for (const n of EXPIRE_SIZES) {
      const rounds = [];
      for (let round = 1; round <= ROUNDS; round++) {
        progress(`(d) expire() of ${fmt(n)} due holds, round ${round} of ${ROUNDS}`);
        rounds.push(await expireCase(db, names, n, round));
      }
      expires.push({
        n,
        ours: median(rounds.map((r) => r.ours)),
        floor: median(rounds.map((r) => r.floor)),
        ratio: median(rounds.map((r) => r.ours / r.floor)),
      });
    }
    const selects = [];
    for (let round = 1; round <= ROUNDS; round++) {
      progress(`(e) ${fmt(ONE_SELECT_CALLS)} holds in one SELECT, round ${round} of ${ROUNDS}`);
      selects.push(await oneSelectCase(db, names, round));
    }
    const perCall = await serverTimes(bin, cluster, db, names);
    const skipped = instructionsSkipped();
    await fill(db, names, "instructions", ["s"]);
    const [{ r }] = await db.query({
      text: "select floor_hold_writes('instructions', 'check', 's', 1) as r",
      values: [],
    });
    if (r !== "done") throw new Error(`floor_hold_writes answered ${r}: its account row is missing`);
    await db.end();
    dbOpen = false;
    const t = "'instructions'";
    const instructions = skipped !== null ? [] : await instructionsPerCall(cluster, [
      { what: "floor_call", call: (key) => `select floor_call(${t}, ${key}, 's', 1)` },
      { what: names.receive, call: (key) => `select ${names.receive}(${t}, ${key}, 's', 1)` },
      { what: names.hold, call: (key) => `select ${names.hold}(${t}, ${key}, 's', 1)` },
      {
        what: "floor_hold_writes",
        call: (key) => `select floor_hold_writes(${t}, ${key}, 's', 1)`,
      },
    ], progress);

    const rows: string[][] = [["case", "floor", "do (入荷)", "hold (引当)", "hold's writes alone"]];
    const tp = (label: string, r: Throughput) => {
      const cell = (runs: PgbenchRun[]) =>
        `${fmt(median(runs.map((x) => x.tps)))}/s  ${ratio(r.floor, runs, (x) => x.tps).toFixed(2)} ×`;
      rows.push([
        label,
        `${fmt(median(r.floor.map((x) => x.tps)))}/s`,
        cell(r.do),
        cell(r.hold),
        cell(r.writes),
      ]);
    };
    for (const [clients, r] of hot) {
      tp(`(a) ${clients} connection${clients === 1 ? "" : "s"}, one hot account`, r);
    }
    tp(`(b) 16 connections, ${WIDE_ACCOUNTS} accounts`, wide);
    const [, one] = hot[0];
    const lat = (runs: PgbenchRun[]) =>
      `${median(runs.map((x) => x.latencyMs)).toFixed(3)} ms  ${
        ratio(one.floor, runs, (x) => x.latencyMs).toFixed(2)
      } ×`;
    rows.push([
      "(c) latency, one session",
      `${median(one.floor.map((x) => x.latencyMs)).toFixed(3)} ms`,
      lat(one.do),
      lat(one.hold),
      lat(one.writes),
    ]);
    for (const e of expires) {
      rows.push([
        `(d) expire() of ${fmt(e.n)} due holds`,
        `${(e.floor * 1000).toFixed(1)} µs/hold`,
        "",
        `${(e.ours * 1000).toFixed(1)} µs/hold  ${e.ratio.toFixed(2)} ×`,
        "",
      ]);
    }
    rows.push([
      `(e) ${fmt(ONE_SELECT_CALLS)} holds in one SELECT`,
      `${fmt(median(selects.map((s) => s.floor)))} ms`,
      "",
      `${fmt(median(selects.map((s) => s.ours)))} ms  ${
        median(selects.map((s) => s.ours / s.floor)).toFixed(2)
      } ×`,
      "",
    ]);
    const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => displayWidth(r[c]))));
    for (const r of rows) {
      console.log(`  ${r.map((cell, c) => padEnd(cell, widths[c])).join("   ").trimEnd()}`);
    }
    console.log(
      "  (a), (b): calls per second and × the floor's (higher is better); (c)–(e): × the floor's time; " +
        "hold's writes alone: floor_hold_writes, the rows a hold writes and nothing else",
    );
    console.log(
      `(f) server time per call, one session, ${fmt(PER_FUNCTION_CALLS)} calls each (post and void: ${
        fmt(PER_FUNCTION_CALLS / 2)
      }); pg_stat_statements, execution + planning:`,
    );
    const floorUs = perCall.times[0].us;
    const width = Math.max(...perCall.times.map((t) => displayWidth(t.what)));
    for (const t of perCall.times) {
      const note = t.what.includes("balance_客")
        ? `  (over ${fmt(perCall.outsideEntries)} entries of 客)`
        : "";
      console.log(
        `  ${padEnd(t.what, width)}  ${t.us.toFixed(1).padStart(7)} µs  ${
          (t.us / floorUs).toFixed(2)
        } ×${note}`,
      );
    }
    console.log(
      `  of the ${perCall.statements} statements inside them (${fmt(REPLAN_CALLS)} calls each, nested ` +
        `statements tracked), ${perCall.replanned.length} are planned again on calls:`,
    );
    for (const r of perCall.replanned) {
      console.log(`    ${r.perCall.toFixed(2)} plans per call  ${r.query.slice(0, QUERY_SHOWN)}`);
    }
    if (skipped !== null) {
      console.log(`(g) SKIP: valgrind: ${skipped}`);
    } else {
      console.log(
        "(g) CPU instructions per call, callgrind on a single-user server (the same on a busy machine); " +
          "floor_hold_writes writes what hold writes and nothing else:",
      );
      const [floor] = instructions;
      const w = Math.max(...instructions.map((x) => displayWidth(x.what)));
      for (const x of instructions) {
        console.log(
          `  ${padEnd(x.what, w)}  ${fmt(x.instructions).padStart(9)}  ${
            (x.instructions / floor.instructions).toFixed(2)
          } ×`,
        );
      }
    }
  } finally {
    if (dbOpen) await db.end();
    await cluster.stop();
  }
}
