/**
 * The differential run on PostgreSQL: every generated (and hand-written) scenario of every test
 * and example book is played on the generated SQL, all at once, one tenant per scenario, and each
 * must end as the reference interpreter says — step by step, and in the final balances and holds
 * (a `together` inside the interpreter's set of outcomes), every account's `balance_<account>`
 * answering what the balances hold. A `pass` waits until every hold of the
 * scenario is past its expiry, then calls `expire()`; late scenarios run again
 * (`verify/differential.ts`).
 * @module
 */

import { callProblem } from "../../lang/chobo/arguments.ts";
import { accountId, uuidText } from "../../lang/chobo/ids.ts";
import type { AccountId, Call } from "../../lang/chobo/interp.ts";
import type { Scenario } from "../../lang/chobo/scenario.ts";
import { findOne } from "../../lang/common/assert.ts";
import { type Text, tr } from "../../lang/common/text.ts";
import { balanceStatement, callStatement, expireStatement } from "../../targets/chobo/postgres/calls.ts";
import { sentSteps } from "../../targets/chobo/postgres/show.ts";
import { postgresSql } from "../../targets/chobo/postgres/sql.ts";
import { OneAtATime } from "../one_at_a_time.ts";
import type { Conn, Db } from "../services/pg_db.ts";
import {
  type ChoboReport,
  choboRounds,
  type ClientRunner,
  type Job,
  jobsOf,
  jobSteps,
  PASS_MARGIN_MS,
  type Played,
  runJobs,
  type Subject,
  swapTransfers,
  TEST_EXPIRY_SECONDS,
} from "./differential.ts";

type Result = { result: string; reason: string | null };

function resultKey(r: Result): string {
  return r.result === "refused" ? `refused:${r.reason}` : r.result;
}

async function play(
  db: Db,
  subject: Subject,
  s: Scenario,
  tenant: string,
  expiring: OneAtATime,
  acquiring: OneAtATime,
  named: readonly AccountId[],
): Promise<{ played: Played; problems: Text[] }> {
  const { copy } = subject;
  const steps: Played["steps"] = [];
  let holdsSince: number | null = null;
  let late = false;
  const holdTimes: number[] = [];
  const call = async (conn: Conn, c: Call): Promise<string> => {
    const copyCall = { ...c, transfer: copy.transfers.find((t) => t.name === c.transfer.name)! };
    const sent = Date.now();
    let row: Record<string, unknown>;
    try {
      [row] = await conn.query(callStatement(copy, copyCall, tenant));
    } catch (e) {
      // A failure (docs/targets.md#postgres-the-sql): an argument past docs/reference.md#limits, which
      // the function refuses (22023) or the server before it runs (U+0000 in any text, 22021), or a
      // balance that would leave the 64 bits (22003). The interpreter fails the same calls.
      const code = (e as { code?: unknown }).code;
      if (code === "22023" || code === "22021" || code === "22003") return `failed:${(e as Error).message}`;
      throw e;
    }
    const key = resultKey(row as Result);
    if (c.op === "hold" && key === "done") {
      // The hold was made between sending and the answer: a pass waits from the latest it can
      // have been, lateness counts from the earliest (a busy process may read the answer late).
      holdTimes.push(Date.now());
      holdsSince ??= sent;
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
  const { end, problems: unread } = await readEnd(db, subject, tenant);
  const problems = [...unread, ...await balanceProblems(db, subject, tenant, named, end.accounts)];
  checkLate();
  // A late scenario's holds may expire between the two reads (another scenario's `expire()`), so
  // its balances are compared again in the round it runs again.
  return { played: { steps, late, ...end }, problems: late ? [] : problems };
}

/** True for PostgreSQL's 22003: a number past its type, here a balance past the 64 bits. */
function outOfRange(e: unknown): boolean {
  return (e as { code?: unknown }).code === "22003";
}

/**
 * The balances and holds at the end, from the view `balances`; where the view cannot be read because
 * an outside account's entries sum past the 64 bits (docs/targets.md#outside-accounts: the call that
 * took it there passed, where the interpreter failed it), from the tables summed exactly, with a
 * problem that says so.
 */
async function readEnd(
  db: Db,
  subject: Subject,
  tenant: string,
): Promise<{ end: Pick<Played, "accounts" | "holds">; problems: Text[] }> {
  try {
    return { end: await finalState(db, subject, tenant, "view"), problems: [] };
  } catch (e) {
    if (!outOfRange(e)) throw e;
    const why = (e as Error).message;
    return {
      end: await finalState(db, subject, tenant, "exact"),
      problems: [
        tr(
          `the view balances cannot be read: ${why} (an outside account's entries sum past 64 bits)`,
          `ビュー balances を読めません: ${why}(外の勘定の記録の和が 64 ビットを超えています)`,
        ),
      ],
    };
  }
}

/**
 * The balances and holds of a tenant at the end, from the tables: through the view `balances`, or
 * `exact`, the same rows with an outside account's entries summed as `numeric`.
 */
async function finalState(
  db: Db,
  subject: Subject,
  tenant: string,
  read: "view" | "exact",
): Promise<Pick<Played, "accounts" | "holds">> {
  const { copy } = subject;
  const schema = `"${copy.name.replaceAll('"', '""')}"`;
  const accounts = new Map<string, [bigint, bigint, bigint]>();
  const exact = `select r.id, r.posted::numeric as posted, r.held_in::numeric as held_in,
                        r.held_out::numeric as held_out
                   from ${schema}.accounts r where r.tenant = $1
                 union all
                 select e.account, sum(e.posted), sum(e.held_in), sum(e.held_out)
                   from ${schema}.entries e
                  where e.tenant = $1
                    and not exists (select 1 from ${schema}.accounts r where r.tenant = e.tenant and r.id = e.account)
                  group by e.account`;
  const from = read === "view" ? `${schema}.balances where tenant = $1` : `(${exact}) as b`;
  for (
    const row of await db.query({
      text: `select id::text, posted::text, held_in::text, held_out::text from ${from}`,
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
 * Each account the interpreter names, read through its `balance_<account>` function: it must
 * answer what the view `balances` holds (an outside account's entries summed, docs/targets.md).
 */
async function balanceProblems(
  db: Db,
  subject: Subject,
  tenant: string,
  named: readonly AccountId[],
  fromView: ReadonlyMap<string, [bigint, bigint, bigint]>,
): Promise<Text[]> {
  const { copy } = subject;
  const problems: Text[] = [];
  for (const id of named) {
    const account = findOne(copy.accounts, (a) => a.name === id.account, `account ${id.account}`);
    const call = `balance_${id.account}(${id.args.join(", ")})`;
    let row: Record<string, unknown>;
    try {
      [row] = await db.query(balanceStatement(copy, account, id.args, tenant));
    } catch (e) {
      if (!outOfRange(e)) throw e;
      const why = (e as Error).message;
      problems.push(tr(`${call} cannot be read: ${why}`, `${call} を読めません: ${why}`));
      continue;
    }
    const got = [row.posted, row.held_in, row.held_out].map(String);
    const viewed = fromView.get(uuidText(accountId(copy, tenant, id.account, id.args)));
    const want = (viewed ?? [0n, 0n, 0n]).map(String);
    if (got.join() !== want.join()) {
      problems.push(
        tr(
          `${call} answers ${got.join(", ")}, balances ${want.join(", ")}`,
          `${call} の答えは ${got.join(", ")}、balances では ${want.join(", ")}`,
        ),
      );
    }
  }
  return problems;
}

/** The accounts any of the interpreter's outcomes of a scenario names, each once. */
function namedAccounts(job: Job): AccountId[] {
  const seen = new Map<string, AccountId>();
  for (const b of job.branches) for (const a of b.ledger.accounts()) seen.set(JSON.stringify(a.id), a.id);
  return [...seen.values()];
}

/** Loads every subject's SQL (its test copy) into the database. */
export async function loadSchemas(db: Db, list: readonly Subject[]): Promise<void> {
  for (const s of list) await db.exec(postgresSql(s.copy, s.path, "test", "test"));
}

/**
 * Plays every scenario of every subject at once on `db` and compares each with the interpreter.
 * `run` names this run, so tenants never meet those of another run on the same database; `target`
 * names the database in a disagreement's lines.
 */
export function verifyScenarios(
  db: Db,
  list: readonly Subject[],
  run: string,
  target: string,
): Promise<ChoboReport> {
  const expiring = new OneAtATime();
  const acquiring = new OneAtATime();
  const tenant = (job: Job, round: number) => `${run}/${job.id}/${round}`;
  return choboRounds(
    jobsOf(list),
    async (batch, round) => {
      const played = await Promise.all(
        batch.map((job) =>
          play(db, job.subject, job.s, tenant(job, round), expiring, acquiring, namedAccounts(job))
        ),
      );
      return new Map(batch.map((job, i) => [job.id, played[i]]));
    },
    tenant,
    target,
  );
}

/** Every balance equals the sum of its `entries` (docs/design/chobo.md#differential-verification). */
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
/**
 * The statements a client sends for a scenario, as `chobo run --show postgres` prints them, but for the
 * calls with an argument past docs/reference.md#limits, which a client refuses before sending.
 */
function expectedSent(subject: Subject, s: Scenario, tenant: string): string[] {
  const { copy } = subject;
  const out: string[] = [];
  const sendable = (step: Scenario["steps"][number]): Scenario["steps"][number][] => {
    if (step.kind === "call") return callProblem(step.call) === null ? [step] : [];
    if (step.kind === "together") {
      return [{ ...step, callers: step.callers.map((c) => c.filter((call) => callProblem(call) === null)) }];
    }
    return [step];
  };
  const steps = s.steps.flatMap(sendable).map((st) => swapTransfers(copy, st));
  for (const step of sentSteps(copy, { ...s, steps })) {
    for (const { statement } of step.statements) {
      const values = statement.values.length === 0 ? [] : [tenant, ...statement.values.slice(1)];
      out.push(JSON.stringify([statement.text, values]));
    }
  }
  return out.sort();
}

/**
 * Plays every scenario through one language's generated client (a runner process), and
 * compares each with the interpreter, and what the client sent with `chobo run --show postgres`.
 */
export async function verifyWithRunner(
  socketDir: string,
  list: readonly Subject[],
  runner: ClientRunner,
  run: string,
): Promise<ChoboReport> {
  const dir = Deno.makeTempDirSync({ prefix: `chobo-${runner.lang}-` });
  try {
    const clients = await runner.writeClients(list, dir);
    const tenant = (job: Job, round: number) => `${run}/${runner.lang}/${job.id}/${round}`;
    return await choboRounds(
      jobsOf(list),
      async (batch, round) => {
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
            problems: sentOk ? [] : [
              tr("sent other statements than run --show postgres", "run --show postgres と違う文を送った"),
            ],
          }]];
        }));
      },
      tenant,
      `postgres × ${runner.lang}`,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}
