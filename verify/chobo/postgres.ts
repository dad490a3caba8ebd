/**
 * The differential run of seed chobo 6 on PostgreSQL: every generated (and hand-written) scenario
 * of every test and example book is played on the generated SQL, all at once, one tenant per
 * scenario, and each must end as the reference interpreter says — step by step, and in the final
 * balances and holds (a `together` inside the interpreter's set of outcomes).
 *
 * Holds are built from test copies of the books whose expiries are 3 seconds; a `pass` really
 * waits until every hold of the scenario is 0.3 s past its expiry, then calls `expire()`. A
 * scenario whose step ran after a hold's real expiry without a `pass` before it is `late`: when it
 * disagrees it runs again on a new tenant ("run again:"), and fails only when it is late again.
 * @module
 */

import { checkBook } from "../../lang/chobo/check.ts";
import { bookPaths } from "./books.ts";
import { accountId, holdId, uuidText } from "../../lang/chobo/ids.ts";
import type { Call, Outcome } from "../../lang/chobo/interp.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { type Branch, readScenarios, runScenario, type Scenario } from "../../lang/chobo/scenario.ts";
import { generateScenarios } from "../../lang/chobo/scenarios.ts";
import { type ClientLang, type Members, members } from "../../targets/chobo/names.ts";
import { callStatement, expireStatement, type Statement } from "../../targets/chobo/postgres/calls.ts";
import { sentSteps } from "../../targets/chobo/postgres/show.ts";
import { postgresSql } from "../../targets/chobo/postgres/sql.ts";
import { OneAtATime } from "../one_at_a_time.ts";

/** How long a hold lasts in the test copies. */
export const TEST_EXPIRY_SECONDS = 3;
/** How far past the last expiry a `pass` waits before calling `expire()`. */
export const PASS_MARGIN_MS = 300;

/** A connection that runs one statement at a time. */
export interface Conn {
  query(s: Statement): Promise<Record<string, unknown>[]>;
}

/** A database the runner plays on: statements, dedicated connections, and DDL. */
export interface Db extends Conn {
  /** A connection of its own (a `together` caller), released after use. */
  connect(): Promise<Conn & { release(): void }>;
  exec(sql: string): Promise<void>;
}

/** A book with its test copy (expiries of 3 seconds) and the scenarios to play. */
export interface Subject {
  readonly path: string;
  readonly book: Book;
  readonly copy: Book;
  readonly scenarios: readonly Scenario[];
}

const EXPIRY = /pending expires after [0-9]+ (seconds?|minutes?|hours?|days?)/g;

/** The test copy of a book: every `pending expires after …` becomes 3 seconds. */
export function testCopy(path: string, text: string): Book {
  const rewritten = text.replace(EXPIRY, `pending expires after ${TEST_EXPIRY_SECONDS} seconds`);
  const book = checkBook(path, rewritten).book;
  if (book === null) throw new Error(`${path}: the test copy has errors`);
  for (const t of book.transfers) {
    if (t.pending?.expires === "after" && t.pending.seconds !== BigInt(TEST_EXPIRY_SECONDS)) {
      throw new Error(`${path}: ${t.name}'s expiry was not rewritten`);
    }
  }
  return book;
}

/** Every test and example book, with its copy, generated scenarios and `<book>.more.json`. */
export function subjects(dirs: readonly string[]): Subject[] {
  return bookPaths(dirs).map((path) => {
    const text = Deno.readTextFileSync(path);
    const book = checkBook(path, text).book;
    if (book === null) throw new Error(`${path} has errors`);
    const scenarios = [...generateScenarios(book)];
    try {
      scenarios.push(...readScenarios(book, Deno.readTextFileSync(path.replace(/\.book$/, ".more.json"))));
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
    return { path, book, copy: testCopy(path, text), scenarios };
  });
}

type Result = { result: string; reason: string | null };

function outcomeKey(o: Outcome): string {
  return o.kind === "refused" ? `refused:${o.reason}` : o.kind;
}

function resultKey(r: Result): string {
  return r.result === "refused" ? `refused:${r.reason}` : r.result;
}

/** What one scenario did on a target, as the verifier compares it with the interpreter. */
export interface Played {
  /** Per step: a call's result, a pass (null), or per caller per call. */
  readonly steps: (string | null | string[][])[];
  readonly accounts: Map<string, [bigint, bigint, bigint]>;
  readonly holds: Map<string, string>;
  readonly late: boolean;
}

async function play(
  db: Db,
  subject: Subject,
  s: Scenario,
  tenant: string,
  expiring: OneAtATime,
  acquiring: OneAtATime,
): Promise<Played> {
  const { copy } = subject;
  const steps: Played["steps"] = [];
  let holdsSince: number | null = null;
  let late = false;
  const holdTimes: number[] = [];
  const call = async (conn: Conn, c: Call): Promise<string> => {
    const copyCall = { ...c, transfer: copy.transfers.find((t) => t.name === c.transfer.name)! };
    const [row] = await conn.query(callStatement(copy, copyCall, tenant));
    const key = resultKey(row as Result);
    if (c.op === "hold" && key === "done") {
      const now = Date.now();
      holdTimes.push(now);
      holdsSince ??= now;
    }
    return key;
  };
  const checkLate = () => {
    if (holdsSince !== null && Date.now() > holdsSince + TEST_EXPIRY_SECONDS * 1000) late = true;
  };
  for (const step of s.steps) {
    if (step.kind === "call") {
      checkLate();
      steps.push(await call(db, step.call));
    } else if (step.kind === "pass") {
      const until = Math.max(0, ...holdTimes) + TEST_EXPIRY_SECONDS * 1000 + PASS_MARGIN_MS;
      const wait = until - Date.now();
      if (holdTimes.length > 0 && wait > 0) await new Promise((r) => setTimeout(r, wait));
      await expiring.run(() => db.query(expireStatement(copy)));
      holdsSince = null;
      steps.push(null);
    } else {
      checkLate();
      // One together at a time takes its connections, so two never hold half the pool each.
      const conns = await acquiring.run(() => Promise.all(step.callers.map(() => db.connect())));
      try {
        steps.push(
          await Promise.all(step.callers.map(async (calls, i) => {
            const out: string[] = [];
            for (const c of calls) out.push(await call(conns[i], c));
            return out;
          })),
        );
      } finally {
        conns.forEach((c) => c.release());
      }
    }
  }
  checkLate();
  return { steps, late, ...await finalState(db, subject, tenant) };
}

/** The balances and holds of a tenant at the end, from the tables. */
async function finalState(
  db: Db,
  subject: Subject,
  tenant: string,
): Promise<Pick<Played, "accounts" | "holds">> {
  const { copy } = subject;
  const schema = `"${copy.name.replaceAll('"', '""')}"`;
  const accounts = new Map<string, [bigint, bigint, bigint]>();
  for (
    const row of await db.query({
      text:
        `select id::text, posted::text, held_in::text, held_out::text from ${schema}.accounts where tenant = $1`,
      values: [tenant],
    })
  ) {
    accounts.set(row.id as string, [
      BigInt(row.posted as string),
      BigInt(row.held_in as string),
      BigInt(row.held_out as string),
    ]);
  }
  const holds = new Map<string, string>();
  for (
    const row of await db.query({
      text: `select id::text, state from ${schema}.holds where tenant = $1`,
      values: [tenant],
    })
  ) {
    holds.set(row.id as string, row.state as string);
  }
  return { accounts, holds };
}

/**
 * True when the target's run is the interpreter's branch `b`, step by step and at the end:
 * accounts by `uuidText` of their ids (missing ones are 0), holds by `uuidText` of their ids.
 */
export function agrees(subject: Subject, tenant: string, b: Branch, p: Played): boolean {
  const { book } = subject;
  for (const [i, step] of b.steps.entries()) {
    const got = p.steps[i];
    if (step.kind === "call" && got !== outcomeKey(step.outcome)) return false;
    if (step.kind === "together") {
      const want = step.callers.map((c) => c.map((r) => outcomeKey(r.outcome)));
      if (JSON.stringify(want) !== JSON.stringify(got)) return false;
    }
  }
  const zero: [bigint, bigint, bigint] = [0n, 0n, 0n];
  const expected = new Map<string, [bigint, bigint, bigint]>();
  for (const a of b.ledger.accounts()) {
    expected.set(uuidText(accountId(book, tenant, a.id.account, a.id.args)), [
      a.balance.posted,
      a.balance.heldIn,
      a.balance.heldOut,
    ]);
  }
  for (const id of new Set([...expected.keys(), ...p.accounts.keys()])) {
    if (
      JSON.stringify((expected.get(id) ?? zero).map(String)) !==
        JSON.stringify((p.accounts.get(id) ?? zero).map(String))
    ) {
      return false;
    }
  }
  const holds = new Map<string, string>();
  for (const h of b.ledger.holds()) {
    const t = book.transfers.find((x) => x.name === h.transfer)!;
    holds.set(uuidText(holdId(book, tenant, t, h.key)), h.state);
  }
  if (holds.size !== p.holds.size) return false;
  for (const [id, state] of holds) if (p.holds.get(id) !== state) return false;
  return true;
}

/** The outcome of one combination. */
export interface Report {
  readonly scenarios: number;
  readonly agreed: number;
  readonly together: number;
  readonly ranAgain: readonly string[];
  readonly failures: readonly string[];
}

/** Loads every subject's SQL (its test copy) into the database. */
export async function loadSchemas(db: Db, list: readonly Subject[]): Promise<void> {
  for (const s of list) await db.exec(postgresSql(s.copy, s.path, "test", "test"));
}

/** One scenario to play: its book, the scenario, its id in a run, and the interpreter's branches. */
export interface Job {
  readonly subject: Subject;
  readonly s: Scenario;
  readonly id: string;
  readonly branches: readonly Branch[];
}

/** Every scenario of every subject, as jobs. */
export function jobsOf(list: readonly Subject[]): Job[] {
  return list.flatMap((subject) =>
    subject.scenarios.map((s, i) => ({
      subject,
      s,
      id: `${subject.book.name}#${i + 1}`,
      branches: runScenario(subject.book, s),
    }))
  );
}

/** What a target did of one job, and what it sent that it should not have. */
export interface Judged {
  readonly played: Played;
  readonly problems: readonly string[];
}

/**
 * Plays every job in a first round and compares each with the interpreter; a job that disagrees
 * and was late runs again in a second round on a new tenant ("run again"), and fails only when it
 * is late again (seed 6). `attempt` plays a batch in a round; `tenant` names a job's tenant there.
 */
export async function inRounds(
  jobs: readonly Job[],
  attempt: (batch: readonly Job[], round: number) => Promise<ReadonlyMap<string, Judged>>,
  tenant: (job: Job, round: number) => string,
): Promise<Report> {
  const failures: string[] = [];
  const ranAgain: string[] = [];
  let agreed = 0;
  const judge = async (batch: readonly Job[], round: number): Promise<Job[]> => {
    const results = await attempt(batch, round);
    const late: Job[] = [];
    for (const job of batch) {
      const where = `${job.subject.path}: ${job.s.name}`;
      const r = results.get(job.id);
      if (r === undefined) {
        failures.push(`${where}: the runner gave no result`);
        continue;
      }
      failures.push(...r.problems.map((p) => `${where}: ${p}`));
      const { played } = r;
      if (job.branches.some((b) => agrees(job.subject, tenant(job, round), b, played))) {
        if (r.problems.length === 0) agreed++;
      } else if (played.late && round === 1) late.push(job);
      else {
        const why = played.late ? "late again" : "disagrees";
        failures.push(`${where}: ${why}: ${JSON.stringify(played.steps)}`);
      }
    }
    return late;
  };
  const late = await judge(jobs, 1);
  if (late.length > 0) {
    ranAgain.push(...late.map((j) => `${j.subject.path}: ${j.s.name}`));
    await judge(late, 2);
  }
  const together = jobs.filter((j) => j.s.steps.some((s) => s.kind === "together")).length;
  return { scenarios: jobs.length, agreed, together, ranAgain, failures };
}

/**
 * Plays every scenario of every subject at once on `db` and compares each with the interpreter.
 * `run` names this run, so tenants never meet those of another run on the same database.
 */
export function verifyScenarios(db: Db, list: readonly Subject[], run: string): Promise<Report> {
  const expiring = new OneAtATime();
  const acquiring = new OneAtATime();
  const tenant = (job: Job, round: number) => `${run}/${job.id}/${round}`;
  return inRounds(jobsOf(list), async (batch, round) => {
    const played = await Promise.all(
      batch.map((job) => play(db, job.subject, job.s, tenant(job, round), expiring, acquiring)),
    );
    return new Map(batch.map((job, i) => [job.id, { played: played[i], problems: [] }]));
  }, tenant);
}

/** Every balance equals the sum of its `entries` (seed 6). */
export async function entriesAddUp(db: Db, list: readonly Subject[]): Promise<string[]> {
  const wrong: string[] = [];
  for (const s of list) {
    const schema = `"${s.copy.name.replaceAll('"', '""')}"`;
    const rows = await db.query({
      text: `select a.tenant, a.id::text from ${schema}.accounts a
        left join (select tenant, account, sum(posted) p, sum(held_in) i, sum(held_out) o from ${schema}.entries group by 1, 2) e
          on e.tenant = a.tenant and e.account = a.id
       where a.posted <> coalesce(e.p, 0) or a.held_in <> coalesce(e.i, 0) or a.held_out <> coalesce(e.o, 0)`,
      values: [],
    });
    for (const r of rows) wrong.push(`${s.path}: ${r.tenant} ${r.id}`);
  }
  return wrong;
}

/** A client language's runner: writes each book's client into a directory, and how to start it. */
export interface ClientRunner {
  readonly lang: ClientLang;
  /** Writes the clients of every subject's test copy under `dir`; returns book name → client path. */
  writeClients(list: readonly Subject[], dir: string): Promise<Record<string, string>>;
  /** The command line that plays `jobs` (a path). */
  command(jobs: string): string[];
}

/** A call as a runner's job step: the transfer's name, the operation, its strings and amounts. */
function callJobStep(c: Call): {
  call: string;
  op: Call["op"];
  strings: Record<string, string>;
  amounts: Record<string, string>;
} {
  const strings: Record<string, string> = {};
  const amounts: Record<string, string> = {};
  for (const p of c.transfer.params) {
    const v = c.args.get(p.name);
    if (v === undefined) continue;
    if (p.type.kind === "string") strings[p.name] = v as string;
    else amounts[p.name] = String(v);
  }
  return { call: c.transfer.name, op: c.op, strings, amounts };
}

/** A book's member names in a runner's language, as `jobs.json` gives them. */
function membersJson(m: Members): Record<string, unknown> {
  return {
    transfers: Object.fromEntries(m.transfers),
    accounts: Object.fromEntries(m.accounts),
    params: Object.fromEntries([...m.transferParams].map(([k, v]) => [k, Object.fromEntries(v)])),
  };
}

interface RunnerResult {
  readonly id: string;
  readonly steps: Played["steps"];
  readonly late: boolean;
  readonly sent: readonly { readonly text: string; readonly values: readonly (string | null)[] }[];
  /** The tenant's rows at the end of the job: [id, posted, held_in, held_out]. */
  readonly accounts: readonly (readonly [string, string, string, string])[];
  /** [id, state]. */
  readonly holds: readonly (readonly [string, string])[];
}

/** The statements a job must send, as a sorted list (callers of a together interleave freely). */
function expectedSent(subject: Subject, s: Scenario, tenant: string): string[] {
  const { copy } = subject;
  const out: string[] = [];
  for (const step of sentSteps(copy, { ...s, steps: s.steps.map((st) => swapTransfers(copy, st)) })) {
    for (const { statement } of step.statements) {
      const values = statement.values.length === 0 ? [] : [tenant, ...statement.values.slice(1)];
      out.push(JSON.stringify([statement.text, values]));
    }
  }
  return out.sort();
}

/** A step of a scenario with its transfers swapped for those of the test copy. */
export function swapTransfers(copy: Book, step: Scenario["steps"][number]): Scenario["steps"][number] {
  const swap = (c: Call): Call => ({
    ...c,
    transfer: copy.transfers.find((t) => t.name === c.transfer.name)!,
  });
  if (step.kind === "call") return { ...step, call: swap(step.call) };
  if (step.kind === "together") return { ...step, callers: step.callers.map((c) => c.map(swap)) };
  return step;
}

/**
 * Plays every scenario through one language's generated client (a runner process, seed 6), and
 * compares each with the interpreter, and what the client sent with `chobo run --show postgres`.
 */
export async function verifyWithRunner(
  socketDir: string,
  list: readonly Subject[],
  runner: ClientRunner,
  run: string,
): Promise<Report> {
  const dir = Deno.makeTempDirSync({ prefix: `chobo-${runner.lang}-` });
  try {
    const clients = await runner.writeClients(list, dir);
    const tenant = (job: Job, round: number) => `${run}/${runner.lang}/${job.id}/${round}`;
    return await inRounds(jobsOf(list), async (batch, round) => {
      const results = await runJobs<RunnerResult>(runner, list, dir, round, clients, {
        socket_dir: socketDir,
        pool: 20,
        jobs: batch.map((j) => ({
          id: j.id,
          book: j.subject.copy.name,
          tenant: tenant(j, round),
          steps: jobSteps(j.s),
        })),
      });
      return new Map(batch.flatMap((job) => {
        const r = results.get(job.id);
        if (r === undefined) return [];
        const played: Played = {
          steps: r.steps,
          late: r.late,
          accounts: new Map(r.accounts.map(([id, p, i, o]) => [id, [BigInt(p), BigInt(i), BigInt(o)]])),
          holds: new Map(r.holds.map(([id, state]) => [id, state])),
        };
        const sent = r.sent.map((x) => JSON.stringify([x.text, x.values])).sort();
        const sentOk = JSON.stringify(sent) ===
          JSON.stringify(expectedSent(job.subject, job.s, tenant(job, round)));
        return [[job.id, {
          played,
          problems: sentOk ? [] : ["sent other statements than run --show postgres"],
        }]];
      }));
    }, tenant);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

/**
 * A scenario's steps as a runner's job steps (verify/chobo/runners/README.md); `pass` gives the step of
 * the pass at an index.
 */
export function jobSteps(s: Scenario, pass: (index: number) => unknown = () => ({ pass: true })): unknown[] {
  return s.steps.map((st, i) =>
    st.kind === "call"
      ? callJobStep(st.call)
      : st.kind === "pass"
      ? pass(i)
      : { together: st.callers.map((c) => c.map((x) => callJobStep(x))) }
  );
}

/** How long a runner may take over one round before it is killed. */
const RUNNER_LIMIT_MS = 10 * 60_000;

/**
 * Writes round `round`'s `jobs.json` into `dir` — `fields` (the target's, and the jobs) with the
 * expiry, the margin, the clients and every book's member names — and runs the runner on it; its
 * results by job id. Throws when the runner fails or takes longer than `limitMs` (then it is killed).
 */
export async function runJobs<R extends { readonly id: string }>(
  runner: ClientRunner,
  list: readonly Subject[],
  dir: string,
  round: number,
  clients: Record<string, string>,
  fields: Record<string, unknown>,
  limitMs: number = RUNNER_LIMIT_MS,
): Promise<Map<string, R>> {
  const file = `${dir}/jobs-${round}.json`;
  Deno.writeTextFileSync(
    file,
    JSON.stringify({
      ...fields,
      expiry_ms: TEST_EXPIRY_SECONDS * 1000,
      margin_ms: PASS_MARGIN_MS,
      clients,
      members: Object.fromEntries(list.map((x) => [x.copy.name, membersJson(members(x.copy, runner.lang))])),
    }),
  );
  const [cmd, ...args] = runner.command(file);
  // A client that cannot reach its server may retry for ever (TigerBeetle's do): the runner is killed.
  const signal = AbortSignal.timeout(limitMs);
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped", signal }).output();
  if (signal.aborted) {
    throw new Error(`${runner.lang} runner did not finish within ${limitMs / 1000} s`);
  }
  if (!out.success) {
    throw new Error(`${runner.lang} runner failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  const parsed = JSON.parse(new TextDecoder().decode(out.stdout)) as { results: R[] };
  return new Map(parsed.results.map((r) => [r.id, r]));
}
