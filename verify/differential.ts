/**
 * The differential core every target's run shares: jobs are played in a first round and each is
 * compared with the reference interpreter; a job that disagrees and was late (a timing the
 * target could not keep, such as a hold that expired before its step ran) runs again in a second
 * round, and fails only when it is late again. A runner process plays a batch from a jobs file
 * and is killed when it takes longer than its limit.
 *
 * Nothing here knows a language: chobo's runs (`verify/chobo/`) give the jobs, the comparison and
 * the runners, and dandori's runs will do the same.
 * @module
 */

import { type Text, tr } from "../lang/common/text.ts";

/** Why a run cannot go on (a store that does not start, SQL that does not load), in both languages. */
export class VerifyError extends Error {
  constructor(readonly text: Text) {
    super(text.en);
  }
}

/** One scenario to play on a target: its id in the run, and where it comes from for messages. */
export interface DiffJob {
  readonly id: string;
  readonly where: string;
}

/** What a target did of one job, whether it was late, and what it did that it should not have. */
export interface Judged<P> {
  readonly played: P;
  readonly late: boolean;
  readonly problems: readonly Text[];
}

/** The outcome of one combination of target and runner. */
export interface Report {
  readonly scenarios: number;
  readonly agreed: number;
  /** The ids of the jobs that agreed, with nothing wrong in what they sent. */
  readonly agreedJobs: ReadonlySet<string>;
  readonly ranAgain: readonly string[];
  /** Each failure with the job's `where` first. */
  readonly failures: readonly Text[];
}

/** How a run compares a job's play with the interpreter, and prints a play that disagrees. */
export interface Comparison<J extends DiffJob, P> {
  /** Plays a batch in a round; the results by job id. */
  readonly attempt: (batch: readonly J[], round: number) => Promise<ReadonlyMap<string, Judged<P>>>;
  /** True when the play of `job` in `round` is what the interpreter says. */
  readonly agrees: (job: J, round: number, played: P) => boolean;
  /** Where the play of `job` in `round` leaves the interpreter, for a failure's lines. */
  readonly show: (job: J, round: number, played: P) => Text;
}

/**
 * Plays every job in a first round and compares each with the interpreter; a job that disagrees
 * and was late runs again in a second round ("run again"), and fails only when it is late again.
 */
export async function inRounds<J extends DiffJob, P>(
  jobs: readonly J[],
  c: Comparison<J, P>,
): Promise<Report> {
  const failures: Text[] = [];
  const at = (job: J, t: Text) => tr(`${job.where}: ${t.en}`, `${job.where}: ${t.ja}`);
  const ranAgain: string[] = [];
  const agreedJobs = new Set<string>();
  const judge = async (batch: readonly J[], round: number): Promise<J[]> => {
    const results = await c.attempt(batch, round);
    const late: J[] = [];
    for (const job of batch) {
      const r = results.get(job.id);
      if (r === undefined) {
        failures.push(at(job, tr("the runner gave no result", "ランナーが結果を返さなかった")));
        continue;
      }
      failures.push(...r.problems.map((p) => at(job, p)));
      if (c.agrees(job, round, r.played)) {
        if (r.problems.length === 0) agreedJobs.add(job.id);
      } else if (r.late && round === 1) late.push(job);
      else {
        const shown = c.show(job, round, r.played);
        const why = r.late ? tr("late again", "再び遅れた") : tr("disagrees", "一致しない");
        failures.push(at(job, tr(`${why.en}: ${shown.en}`, `${why.ja}: ${shown.ja}`)));
      }
    }
    return late;
  };
  const late = await judge(jobs, 1);
  if (late.length > 0) {
    ranAgain.push(...late.map((j) => j.where));
    await judge(late, 2);
  }
  return { scenarios: jobs.length, agreed: agreedJobs.size, agreedJobs, ranAgain, failures };
}

/** How long a runner may take over one round before it is killed. */
export const RUNNER_LIMIT_MS = 10 * 60_000;

/**
 * Writes `jobs` as JSON to `file` and runs `command` (which reads it); the results it prints
 * (`{"results": [{"id", …}, …]}`) by id. Throws when the runner fails, or when it takes longer
 * than `limitMs` (then it is killed: a client that cannot reach its server may retry for ever).
 */
export async function runRunner<R extends { readonly id: string }>(
  name: string,
  command: readonly string[],
  file: string,
  jobs: unknown,
  limitMs: number = RUNNER_LIMIT_MS,
): Promise<Map<string, R>> {
  return (await runRunnerOutput<R, Record<string, unknown>>(name, command, file, jobs, limitMs)).results;
}

/** `runRunner`, with the rest of what the runner printed beside its results. */
export async function runRunnerOutput<R extends { readonly id: string }, E>(
  name: string,
  command: readonly string[],
  file: string,
  jobs: unknown,
  limitMs: number = RUNNER_LIMIT_MS,
): Promise<{ results: Map<string, R>; rest: E }> {
  Deno.writeTextFileSync(file, JSON.stringify(jobs));
  const [cmd, ...args] = command;
  const signal = AbortSignal.timeout(limitMs);
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped", signal }).output();
  if (signal.aborted) throw new Error(`${name} runner did not finish within ${limitMs / 1000} s`);
  if (!out.success) throw new Error(`${name} runner failed: ${new TextDecoder().decode(out.stderr)}`);
  const { results, ...rest } = JSON.parse(new TextDecoder().decode(out.stdout)) as { results: R[] } & E;
  return { results: new Map(results.map((r) => [r.id, r])), rest: rest as E };
}
