/**
 * The differential run (docs/design/chobo.md#differential-verification) on TigerBeetle: every scenario of
 * every test and example book is played through one language's generated TigerBeetle client (a runner
 * process, `verify/chobo/runners/README.md` 「TigerBeetle」), all at once, one tenant per scenario, on four
 * shared clients; each must end as the reference interpreter says, and every operation must have
 * sent what `chobo run --show tigerbeetle` prints for that tenant.
 *
 * The test copies' holds expire after 3 seconds. TigerBeetle gives expired holds back by itself,
 * so a `pass` waits until every hold of the scenario is 0.3 s past its expiry and then until the
 * book's accounts hold out only what the interpreter says they still hold (at most 10 s).
 * Late scenarios run again as on PostgreSQL (`inRounds`).
 *
 * What was sent is compared per operation. A book value sends each account and opening once
 * (docs/design/chobo.md#tigerbeetle), so the expected requests leave out those its earlier operations
 * sent: a job's own book value plays its calls, and each caller of a `together` has a new one.
 * The status chain's ids are random: they must be distinct and valid, and compare as `random`.
 * A `together` of posts or voids is refused up front: what such a caller sends depends on the
 * order the callers ran in, which `--show` (callers one after another) cannot know.
 * @module
 */

import { accountId, holdId, uuidText } from "../../lang/chobo/ids.ts";
import { findOne } from "../../lang/common/assert.ts";
import { stringArg } from "../../lang/chobo/interp.ts";
import { runScenario, type Scenario } from "../../lang/chobo/scenario.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { type Text, tr } from "../../lang/common/text.ts";
import { requests, type TbAccount, type TbTransfer } from "../../targets/chobo/tigerbeetle/chain.ts";
import { ACCOUNT_FLAGS, TRANSFER_FLAGS } from "../../targets/chobo/tigerbeetle/runtime/runtime.ts";
import { isRandom, type SentOperation, sentTigerBeetleSteps } from "../../targets/chobo/tigerbeetle/show.ts";
import {
  type ChoboJudged,
  type ChoboReport,
  choboRounds,
  type ClientRunner,
  type Job,
  jobsOf,
  jobSteps,
  type Played,
  runJobs,
  type Subject,
  swapTransfers,
} from "./differential.ts";

/** TigerBeetle clients the runner shares among all jobs (a cluster remembers at most 64). */
const CONNECTIONS = 4;
/** How long a `pass` waits at most for TigerBeetle to give expired holds back. */
const SETTLE_MS = 10_000;
const MAX_ID = (1n << 128n) - 1n;

/** Where the runner finds TigerBeetle: a replica's address, or (tests only) the test double's bridge. */
export type Where = { readonly addresses: string } | { readonly double: string };

/** A request as a runner reports it: events with every field a decimal string, or ids. */
export type SentRequest =
  | { readonly kind: "create_accounts" | "create_transfers"; readonly events: Record<string, string>[] }
  | { readonly kind: "lookup_accounts" | "lookup_transfers"; readonly ids: string[] };

/** What a TigerBeetle runner reports of one job. */
export interface TigerBeetleRunnerResult {
  readonly id: string;
  /** A pass is null, or `"unsettled"` when the held amounts did not return in time. */
  readonly steps: (string | null | string[][])[];
  readonly late: boolean;
  /** Per step, per operation (a together's callers in order), the requests it sent. */
  readonly sent: { readonly requests: SentRequest[] }[][];
  /** The book accounts asked for that exist: [id as 32 hex digits, posted, held in, held out]. */
  readonly accounts: [string, string, string, string][];
  /** The state of each hold asked for, in order; null when there is none. */
  readonly holds: (string | null)[];
}

function bits(names: readonly string[], table: Readonly<Record<string, number>>): string {
  return String(names.reduce((sum, n) => sum | table[n], 0));
}

/** An account event as runners report it. */
export function accountFields(a: TbAccount): Record<string, string> {
  return {
    id: String(a.id),
    user_data_128: String(a.user_data_128),
    user_data_64: String(a.user_data_64),
    user_data_32: String(a.user_data_32),
    ledger: String(a.ledger),
    code: String(a.code),
    flags: bits(a.flags, ACCOUNT_FLAGS),
  };
}

/** A transfer event as runners report it; the id `random` where the id is random. */
export function transferFields(t: TbTransfer, random: boolean): Record<string, string> {
  return {
    id: random ? "random" : String(t.id),
    debit_account_id: String(t.debit_account_id),
    credit_account_id: String(t.credit_account_id),
    amount: String(t.amount),
    pending_id: String(t.pending_id),
    user_data_128: String(t.user_data_128),
    user_data_64: String(t.user_data_64),
    user_data_32: String(t.user_data_32),
    timeout: String(t.timeout),
    ledger: String(t.ledger),
    code: String(t.code),
    flags: bits(t.flags, TRANSFER_FLAGS),
  };
}

/**
 * The requests one operation sends from a book value that already sent `created` (which takes
 * what this one sends): accounts and openings it has not sent, then the chain; a post or void
 * reads its hold first.
 */
export function expectedRequests(op: SentOperation, created: Set<bigint>): SentRequest[] {
  const out: SentRequest[] = [];
  if (op.lookups.length > 0) out.push({ kind: "lookup_transfers", ids: op.lookups.map(String) });
  const accounts = op.accounts.filter((a) => !created.has(a.event.id)).map((a) => a.event);
  for (const batch of requests(accounts)) {
    out.push({ kind: "create_accounts", events: batch.map(accountFields) });
  }
  accounts.forEach((a) => created.add(a.id));
  const openings = op.openings.filter((o) => !created.has(o.id));
  for (const batch of requests(openings)) {
    out.push({ kind: "create_transfers", events: batch.map((o) => transferFields(o, false)) });
  }
  openings.forEach((o) => created.add(o.id));
  if (op.chain.length > 0) {
    out.push({
      kind: "create_transfers",
      events: op.chain.map((e) => transferFields(e.transfer, isRandom(e))),
    });
  }
  return out;
}

/** Sorts the keys of every object, so that objects compare by what they hold. */
function canonical(list: readonly SentRequest[]): string {
  const sorted = (x: unknown): unknown =>
    Array.isArray(x) ? x.map(sorted) : x !== null && typeof x === "object"
      ? Object.fromEntries(
        Object.entries(x).sort(([a], [b]) => a < b ? -1 : 1).map(([k, v]) => [k, sorted(v)]),
      )
      : x;
  return JSON.stringify(sorted(list));
}

/**
 * `sent` with the random ids of the status chain (where `want` says `random`) checked and
 * written as `random`; null when they are not distinct ids TigerBeetle takes.
 */
function withRandomIds(sent: readonly SentRequest[], want: readonly SentRequest[]): SentRequest[] | null {
  const seen = new Set<string>();
  let valid = true;
  const out = sent.map((r, i): SentRequest => {
    const w = want[i];
    if (!("events" in r) || w === undefined || !("events" in w)) return r;
    return {
      kind: r.kind,
      events: r.events.map((e, k) => {
        if (w.events[k]?.id !== "random") return e;
        const id = BigInt(e.id ?? "0");
        if (id <= 0n || id >= MAX_ID || seen.has(e.id)) valid = false;
        seen.add(e.id);
        return { ...e, id: "random" };
      }),
    };
  });
  return valid ? out : null;
}

/** What is wrong with what a job sent, operation by operation; empty when it is `--show`'s. */
export function sentProblems(
  copy: Book,
  s: Scenario,
  tenant: string,
  sent: TigerBeetleRunnerResult["sent"],
): Text[] {
  const shown = sentTigerBeetleSteps(
    copy,
    { ...s, steps: s.steps.map((st) => swapTransfers(copy, st)) },
    tenant,
  );
  if (sent.length !== shown.length) {
    return [
      tr(
        `sent ${sent.length} steps, --show has ${shown.length}`,
        `${sent.length} ステップ分を送ったが、--show には ${shown.length} ステップある`,
      ),
    ];
  }
  const problems: Text[] = [];
  const own = new Set<bigint>();
  shown.forEach((step, i) => {
    const callers = new Map<number, Set<bigint>>();
    if (sent[i].length !== step.operations.length) {
      problems.push(
        tr(
          `step ${i + 1}: ${sent[i].length} operations, --show has ${step.operations.length}`,
          `ステップ ${i + 1}: 操作が ${sent[i].length} 個で、--show には ${step.operations.length} 個ある`,
        ),
      );
      return;
    }
    step.operations.forEach((op, k) => {
      const created = op.caller === null ? own : callers.get(op.caller) ?? new Set<bigint>();
      if (op.caller !== null) callers.set(op.caller, created);
      const want = expectedRequests(op, created);
      const got = withRandomIds(sent[i][k].requests, want);
      if (got === null) {
        problems.push(
          tr(
            `step ${i + 1}: the status chain's ids are not distinct valid ids`,
            `ステップ ${i + 1}: 状態を問うチェーンの ID が、重ならない正しい ID になっていない`,
          ),
        );
      } else if (canonical(got) !== canonical(want)) {
        const call = `${op.call.transfer.name}.${op.call.op}`;
        problems.push(
          tr(
            `step ${i + 1} (${call}): sent other requests than run --show tigerbeetle`,
            `ステップ ${i + 1}(${call}): run --show tigerbeetle と違うリクエストを送った`,
          ),
        );
      }
    });
  });
  return problems;
}

/** The book accounts a job reads at the end: every account of every branch, and every one it creates. */
function accountsToRead(job: Job, tenant: string): bigint[] {
  const { book } = job.subject;
  const ids = new Set<bigint>();
  for (const b of job.branches) {
    for (const a of b.ledger.accounts()) ids.add(accountId(book, tenant, a.id.account, a.id.args));
  }
  for (const step of sentTigerBeetleSteps(book, job.s, tenant)) {
    for (const op of step.operations) {
      for (const a of op.accounts) if (a.what.kind === "account") ids.add(a.event.id);
    }
  }
  return [...ids].sort((x, y) => x < y ? -1 : x > y ? 1 : 0);
}

/** Every hold a job's scenario asks for: each transfer and key it holds under, once. */
function holdsToRead(s: Scenario): { call: string; strings: Record<string, string> }[] {
  const seen = new Map<string, { call: string; strings: Record<string, string> }>();
  for (const st of s.steps) {
    const calls = st.kind === "call" ? [st.call] : st.kind === "together" ? st.callers.flat() : [];
    for (const c of calls) {
      if (c.op !== "hold") continue;
      const strings = Object.fromEntries(c.transfer.key.map((k) => [k, stringArg(c, k)]));
      seen.set(JSON.stringify([c.transfer.name, ...Object.values(strings)]), {
        call: c.transfer.name,
        strings,
      });
    }
  }
  return [...seen.values()];
}

/**
 * After the pass at `index`, what each account of each branch holds out (a runner waits
 * until the accounts hold out only this, the holds that never expire).
 */
function heldOutAfter(job: Job, index: number, tenant: string): Record<string, string>[] {
  const { book } = job.subject;
  const prefix = { ...job.s, steps: job.s.steps.slice(0, index + 1) };
  const seen = new Map<string, Record<string, string>>();
  for (const b of runScenario(book, prefix)) {
    const held = Object.fromEntries(
      b.ledger.accounts().map((a) => [
        hexId(accountId(book, tenant, a.id.account, a.id.args)),
        String(a.balance.heldOut),
      ]).sort(),
    );
    seen.set(JSON.stringify(held), held);
  }
  return [...seen.values()];
}

function hexId(id: bigint): string {
  return id.toString(16).padStart(32, "0");
}

/** A job as `jobs.json` has it for a TigerBeetle runner. */
function jobJson(job: Job, tenant: string) {
  const { s } = job;
  for (const st of s.steps) {
    if (st.kind === "together" && st.callers.flat().some((c) => c.op === "post" || c.op === "void")) {
      throw new Error(
        `${job.subject.path}: ${s.name}: a together of posts or voids cannot be compared with --show`,
      );
    }
  }
  return {
    id: job.id,
    book: job.subject.copy.name,
    tenant,
    steps: jobSteps(s, (i) => ({ pass: true, held_out: heldOutAfter(job, i, tenant) })),
    accounts: accountsToRead(job, tenant).map(hexId),
    holds: holdsToRead(s),
  };
}

/** A runner's result as the verifier compares it with the interpreter. */
function judged(job: Job, tenant: string, r: TigerBeetleRunnerResult): ChoboJudged {
  const { book, copy } = job.subject;
  const problems = sentProblems(copy, job.s, tenant, r.sent);
  r.steps.forEach((st, i) => {
    if (st === "unsettled") {
      problems.push(
        tr(
          `step ${i + 1}: the held amounts did not return within ${SETTLE_MS / 1000} s of the pass`,
          `ステップ ${i + 1}: pass から ${SETTLE_MS / 1000} 秒のうちに、押さえた額が戻らなかった`,
        ),
      );
    }
  });
  const holds = new Map<string, string>();
  holdsToRead(job.s).forEach((h, i) => {
    const state = r.holds[i];
    if (state === null || state === undefined) return;
    const t = findOne(book.transfers, (x) => x.name === h.call, `transfer ${h.call}`);
    holds.set(uuidText(holdId(book, tenant, t, t.key.map((k) => h.strings[k]))), state);
  });
  const played: Played = {
    steps: r.steps.map((st) => st === "unsettled" ? null : st),
    late: r.late,
    accounts: new Map(
      r.accounts.map(([id, p, i, o]) => [uuidText(BigInt(`0x${id}`)), [BigInt(p), BigInt(i), BigInt(o)]]),
    ),
    holds,
  };
  return { played, problems };
}

/**
 * Plays every scenario through one language's generated TigerBeetle client, and compares each
 * with the interpreter, and what it sent with `chobo run --show tigerbeetle`.
 */
export async function verifyOnTigerBeetle(
  where: Where,
  list: readonly Subject[],
  runner: ClientRunner,
  run: string,
): Promise<ChoboReport> {
  const dir = Deno.makeTempDirSync({ prefix: `chobo-tb-${runner.lang}-` });
  try {
    const clients = await runner.writeClients(list, dir);
    const tenant = (job: Job, round: number) => `${run}/${runner.lang}/${job.id}/${round}`;
    return await choboRounds(
      jobsOf(list),
      async (batch, round) => {
        const results = await runJobs<TigerBeetleRunnerResult>(runner, list, dir, round, clients, {
          ...where,
          connections: CONNECTIONS,
          settle_ms: SETTLE_MS,
          jobs: batch.map((j) => jobJson(j, tenant(j, round))),
        });
        return new Map(
          batch.flatMap((job) => {
            const r = results.get(job.id);
            return r === undefined ? [] : [[job.id, judged(job, tenant(job, round), r)]];
          }),
        );
      },
      tenant,
      `tigerbeetle × ${runner.lang}`,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}
