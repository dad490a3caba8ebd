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

/** One scenario to play on a target: its id in the run, and where it comes from for messages. */
export interface DiffJob {
  readonly id: string;
  readonly where: string;
}

/** What a target did of one job, whether it was late, and what it did that it should not have. */
export interface Judged<P> {
  readonly played: P;
  readonly late: boolean;
  readonly problems: readonly string[];
}

/** The outcome of one combination of target and runner. */
export interface Report {
  readonly scenarios: number;
  readonly agreed: number;
  readonly ranAgain: readonly string[];
  readonly failures: readonly string[];
}

/** How a run compares a job's play with the interpreter, and prints a play that disagrees. */
export interface Comparison<J extends DiffJob, P> {
  /** Plays a batch in a round; the results by job id. */
  readonly attempt: (batch: readonly J[], round: number) => Promise<ReadonlyMap<string, Judged<P>>>;
  /** True when the play of `job` in `round` is what the interpreter says. */
  readonly agrees: (job: J, round: number, played: P) => boolean;
  /** A play in a failure's line. */
  readonly show: (played: P) => string;
}

/**
 * Plays every job in a first round and compares each with the interpreter; a job that disagrees
 * and was late runs again in a second round ("run again"), and fails only when it is late again.
 */
export async function inRounds<J extends DiffJob, P>(
  jobs: readonly J[],
  c: Comparison<J, P>,
): Promise<Report> {
  const failures: string[] = [];
  const ranAgain: string[] = [];
  let agreed = 0;
  const judge = async (batch: readonly J[], round: number): Promise<J[]> => {
    const results = await c.attempt(batch, round);
    const late: J[] = [];
    for (const job of batch) {
      const r = results.get(job.id);
      if (r === undefined) {
        failures.push(`${job.where}: the runner gave no result`);
        continue;
      }
      failures.push(...r.problems.map((p) => `${job.where}: ${p}`));
      if (c.agrees(job, round, r.played)) {
        if (r.problems.length === 0) agreed++;
      } else if (r.late && round === 1) late.push(job);
      else failures.push(`${job.where}: ${r.late ? "late again" : "disagrees"}: ${c.show(r.played)}`);
    }
    return late;
  };
  const late = await judge(jobs, 1);
  if (late.length > 0) {
    ranAgain.push(...late.map((j) => j.where));
    await judge(late, 2);
  }
  return { scenarios: jobs.length, agreed, ranAgain, failures };
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
