/**
 * chobo's side of the differential runs (`verify/differential.ts`): the books to play with their
 * test copies and scenarios, the jobs, what a play of one is, how it is compared with the
 * interpreter's branches, and the jobs file every chobo runner reads (`verify/chobo/runners/README.md`).
 *
 * Holds are built from test copies of the books whose expiries are 3 seconds; a `pass` really
 * waits until every hold of the scenario is 0.3 s past its expiry. A scenario whose step ran after
 * a hold's real expiry without a `pass` before it is late.
 * @module
 */

import { checkBook } from "../../lang/chobo/check.ts";
import { accountId, holdId, uuidText } from "../../lang/chobo/ids.ts";
import type { Call } from "../../lang/chobo/interp.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { type Branch, readScenarios, runScenario, type Scenario } from "../../lang/chobo/scenario.ts";
import { generateScenarios } from "../../lang/chobo/scenarios.ts";
import { type ClientLang, type Members, members } from "../../targets/chobo/names.ts";
import { type Text, tr } from "../../lang/common/text.ts";
import {
  type DiffJob,
  inRounds,
  type Report,
  RUNNER_LIMIT_MS,
  runRunner,
  VerifyError,
} from "../differential.ts";
import { bookPaths } from "./books.ts";
import { disagreement, type Played, stepAgrees } from "./disagreement.ts";

export type { Played } from "./disagreement.ts";

/** How long a hold lasts in the test copies. */
export const TEST_EXPIRY_SECONDS = 3;
/** How far past the last expiry a `pass` waits before calling `expire()`. */
export const PASS_MARGIN_MS = 300;

/** A book with its test copy (expiries of 3 seconds) and the scenarios to play. */
export interface Subject {
  readonly path: string;
  readonly book: Book;
  readonly copy: Book;
  readonly scenarios: readonly Scenario[];
}

const EXPIRY = /pending +expires +after +[0-9]+ +(seconds?|minutes?|hours?|days?)/g;

/** The test copy of a book: every `pending expires after …` becomes 3 seconds. */
export function testCopy(path: string, text: string): Book {
  const rewritten = text.replace(EXPIRY, `pending expires after ${TEST_EXPIRY_SECONDS} seconds`);
  const book = checkBook(path, rewritten).book;
  if (book === null) {
    throw new VerifyError(
      tr(
        `${path}: the copy with ${TEST_EXPIRY_SECONDS}-second expiries has errors`,
        `${path}: 期限を ${TEST_EXPIRY_SECONDS} 秒にした写しにエラーがあります`,
      ),
    );
  }
  for (const t of book.transfers) {
    if (t.pending?.expires === "after" && t.pending.seconds !== BigInt(TEST_EXPIRY_SECONDS)) {
      throw new VerifyError(
        tr(
          `${path}: ${t.name}'s expiry could not be shortened to ${TEST_EXPIRY_SECONDS} seconds for the run`,
          `${path}: ${t.name} の期限を、流すために ${TEST_EXPIRY_SECONDS} 秒に縮められませんでした`,
        ),
      );
    }
  }
  return book;
}

/**
 * A checked book with its test copy (made from its `text`), its generated scenarios and `more`,
 * the hand-written ones of its `<book>.more.json`.
 */
export function subjectOf(path: string, book: Book, text: string, more: readonly Scenario[]): Subject {
  return { path, book, copy: testCopy(path, text), scenarios: [...generateScenarios(book), ...more] };
}

/**
 * The books of `paths` (files, and directories searched for `.book` files), each with `<book>.more.json`.
 * A book is one schema, one set of tenants and one client, so a book whose name an earlier one of the
 * list has (two versions side by side, examples/bound-change) plays under `<name>_2`, `_3` …
 * (docs/targets.md#chobo-verify).
 */
export function subjects(paths: readonly string[]): Subject[] {
  const taken = new Set<string>();
  return bookPaths(paths).map((path) => asDistinct(readSubject(path), taken));
}

/** `s`, its book and copy renamed `<name>_<n>` when `taken` has its name; its name is then taken. */
function asDistinct(s: Subject, taken: Set<string>): Subject {
  let name = s.book.name;
  for (let n = 2; taken.has(name); n++) name = `${s.book.name}_${n}`;
  taken.add(name);
  return name === s.book.name ? s : { ...s, book: { ...s.book, name }, copy: { ...s.copy, name } };
}

/** The book of `path` with its `<book>.more.json`. */
function readSubject(path: string): Subject {
  const text = Deno.readTextFileSync(path);
  const book = checkBook(path, text).book;
  if (book === null) throw new Error(`${path} has errors`);
  let more: Scenario[] = [];
  try {
    more = readScenarios(book, Deno.readTextFileSync(path.replace(/\.book$/, ".more.json")));
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return subjectOf(path, book, text, more);
}

/**
 * True when the target's run is the interpreter's branch `b`, step by step and at the end:
 * accounts by `uuidText` of their ids (missing ones are 0), holds by `uuidText` of their ids.
 */
export function agrees(subject: Subject, tenant: string, b: Branch, p: Played): boolean {
  const { book } = subject;
  for (const [i, step] of b.steps.entries()) {
    if (step.kind !== "pass" && !stepAgrees(step, p.steps[i])) return false;
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

/** One scenario to play: its book, the scenario, its id in a run, and the interpreter's branches. */
export interface Job extends DiffJob {
  readonly subject: Subject;
  readonly s: Scenario;
  readonly branches: readonly Branch[];
}

/** Every scenario of every subject, as jobs. */
export function jobsOf(list: readonly Subject[]): Job[] {
  return list.flatMap((subject) =>
    subject.scenarios.map((s, i) => ({
      subject,
      s,
      id: `${subject.book.name}#${i + 1}`,
      where: `${subject.path}: ${s.name}`,
      branches: runScenario(subject.book, s),
    }))
  );
}

/** A client language's runner: writes each book's client into a directory, and how to start it. */
export interface ClientRunner {
  readonly lang: ClientLang;
  /** What this machine lacks to run it, with what to install; null when nothing. */
  lacks(): Promise<string | null>;
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
    const text = c.strings.get(p.name);
    if (text !== undefined) strings[p.name] = text;
    const amount = c.amounts.get(p.name);
    if (amount !== undefined) amounts[p.name] = String(amount);
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

/**
 * Writes round `round`'s `jobs.json` into `dir` — `fields` (the target's, and the jobs) with the
 * expiry, the margin, the clients and every book's member names — and runs the runner on it; its
 * results by job id. Throws when the runner fails or takes longer than `limitMs` (then it is killed).
 */
export function runJobs<R extends { readonly id: string }>(
  runner: ClientRunner,
  list: readonly Subject[],
  dir: string,
  round: number,
  clients: Record<string, string>,
  fields: Record<string, unknown>,
  limitMs: number = RUNNER_LIMIT_MS,
): Promise<Map<string, R>> {
  const file = `${dir}/jobs-${round}.json`;
  return runRunner<R>(runner.lang, runner.command(file), file, {
    ...fields,
    expiry_ms: TEST_EXPIRY_SECONDS * 1000,
    margin_ms: PASS_MARGIN_MS,
    clients,
    members: Object.fromEntries(list.map((x) => [x.copy.name, membersJson(members(x.copy, runner.lang))])),
  }, limitMs);
}

/** A chobo combination's outcome: the core's, and how many of its scenarios have a `together`. */
export interface ChoboReport extends Report {
  readonly together: number;
}

/** What a chobo runner did of one job, and what it sent that it should not have. */
export interface ChoboJudged {
  readonly played: Played;
  readonly problems: readonly Text[];
}

/**
 * The rounds of `verify/differential.ts` over chobo's jobs: a job agrees when its play is one of
 * the interpreter's branches; `tenant` names a job's tenant in a round, `target` what played it
 * (in the lines of a disagreement).
 */
export async function choboRounds(
  jobs: readonly Job[],
  attempt: (batch: readonly Job[], round: number) => Promise<ReadonlyMap<string, ChoboJudged>>,
  tenant: (job: Job, round: number) => string,
  target: string,
): Promise<ChoboReport> {
  const report = await inRounds<Job, Played>(jobs, {
    attempt: async (batch, round) =>
      new Map([...await attempt(batch, round)].map(([id, j]) => [id, { ...j, late: j.played.late }])),
    agrees: (job, round, played) =>
      job.branches.some((b) => agrees(job.subject, tenant(job, round), b, played)),
    show: (job, round, played) =>
      disagreement(job.subject.book, tenant(job, round), job.branches, played, target),
  });
  const together = jobs.filter((j) => j.s.steps.some((s) => s.kind === "together")).length;
  return { ...report, together };
}
