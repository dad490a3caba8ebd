/**
 * The TypeScript runner of `verify/runners/README.md`: plays every job of a `jobs.json` at once
 * through each book's generated `<book>.ts` on a real PostgreSQL server, and prints what each
 * step answered and every statement the client sent.
 *
 * ```sh
 * deno run -A verify/runners/typescript/runner.ts jobs.json
 * ```
 * @module
 */

// The full specifier, not deno.json's "pg": the runner is one file that runs from any directory.
// deno-lint-ignore no-import-prefix
import pg from "npm:pg@8.23.1";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** One call of a job: the transfer's name in the book, the operation, and its arguments. */
interface CallStep {
  readonly call: string;
  readonly op: "do" | "hold" | "post" | "void";
  readonly strings: Readonly<Record<string, string>>;
  /** Decimal strings; absent or empty in a post in full and a void. */
  readonly amounts?: Readonly<Record<string, string>>;
}

type Step = CallStep | { readonly pass: true } | { readonly together: readonly (readonly CallStep[])[] };

interface Job {
  readonly id: string;
  readonly book: string;
  readonly tenant: string;
  readonly steps: readonly Step[];
}

/** The member names of one book in TypeScript (`targets/chobo/names.ts`). */
interface Members {
  readonly transfers: Readonly<Record<string, string>>;
  readonly params: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

interface Jobs {
  readonly socket_dir: string;
  readonly pool: number;
  readonly expiry_ms: number;
  readonly margin_ms: number;
  readonly clients: Readonly<Record<string, string>>;
  readonly jobs: readonly Job[];
  readonly members: Readonly<Record<string, Members>>;
}

/** A statement as the client sent it. */
interface Sent {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** What a generated client takes: the structural `Queryable` of its runtime. */
interface Queryable {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/** The part of `pg`'s pool the runner uses (`npm:pg` has no types of its own). */
interface Pool extends Queryable {
  connect(): Promise<Queryable & { release(): void }>;
  on(event: "error", listener: () => void): void;
  end(): Promise<void>;
}

type Answer = { readonly result: string; readonly reason?: string };
type Operation = (args: Record<string, string | bigint>, amounts?: Record<string, bigint>) => Promise<Answer>;

/** A generated book value, seen without its book's types. */
interface ClientBook {
  readonly [member: string]: unknown;
  expire(): Promise<number>;
}

interface ClientModule {
  postgres(db: Queryable, options: { tenant: string }): ClientBook;
}

/** A step's output: a call's answer, a pass (null), or per caller per call. */
type StepOutput = string | null | string[][];

/**
 * Runs its functions one at a time: `expire()` calls (they skip holds another `expire()` has
 * locked) and the checkouts of a `together`'s connections (callers that each held some of the
 * pool while waiting for the rest would wait for ever).
 */
class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();
  run<T>(f: () => Promise<T>): Promise<T> {
    const next = this.last.then(f, f);
    this.last = next.catch(() => {});
    return next;
  }
}

/** The same connection, with every statement written down before it is sent. */
function recording(db: Queryable, sent: Sent[]): Queryable {
  return {
    query: (text, values) => {
      sent.push({ text, values: [...values] });
      return db.query(text, values);
    },
  };
}

function answerText(a: Answer): string {
  return a.result === "refused" ? `refused:${a.reason}` : a.result;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** One call through the client: the step's names become the client's, amounts become bigints. */
async function callClient(book: ClientBook, members: Members, step: CallStep): Promise<string> {
  const names = members.params[step.call];
  const strings = Object.fromEntries(Object.entries(step.strings).map(([k, v]) => [names[k], v]));
  const amounts = Object.fromEntries(
    Object.entries(step.amounts ?? {}).map(([k, v]) => [names[k], BigInt(v)]),
  );
  const transfer = book[members.transfers[step.call]] as Readonly<Record<string, Operation>>;
  try {
    switch (step.op) {
      case "do":
      case "hold":
        return answerText(await transfer[step.op]({ ...strings, ...amounts }));
      case "post":
        return answerText(
          await transfer.post(strings, Object.keys(amounts).length > 0 ? amounts : undefined),
        );
      case "void":
        return answerText(await transfer.void(strings));
    }
  } catch (e) {
    return `failed:${messageOf(e)}`;
  }
}

async function main(path: string): Promise<void> {
  const input: Jobs = JSON.parse(Deno.readTextFileSync(path));
  const modules = new Map<string, ClientModule>();
  for (const [book, written] of Object.entries(input.clients)) {
    // The build writes one file, `<book>.ts`; a directory names the place it was written to.
    const file = Deno.statSync(written).isDirectory ? `${written}/${book}.ts` : written;
    modules.set(book, await import(pathToFileURL(resolve(file)).href));
  }
  const pool: Pool = new pg.Pool({
    host: input.socket_dir,
    user: "postgres",
    database: "postgres",
    max: input.pool,
  });
  // An idle connection the server closes (at shutdown) is not an error of any call.
  pool.on("error", () => {});
  const expiring = new OneAtATime();
  const connecting = new OneAtATime();

  const play = async (job: Job) => {
    const client = modules.get(job.book)!;
    const members = input.members[job.book];
    const sent: Sent[] = [];
    const book = client.postgres(recording(pool, sent), { tenant: job.tenant });
    const holdTimes: number[] = [];
    let holdsSince: number | null = null;
    let late = false;
    const checkLate = () => {
      if (holdsSince !== null && Date.now() > holdsSince + input.expiry_ms) late = true;
    };
    const call = async (on: ClientBook, step: CallStep) => {
      const answer = await callClient(on, members, step);
      if (step.op === "hold" && answer === "done") {
        const now = Date.now();
        holdTimes.push(now);
        holdsSince ??= now;
      }
      return answer;
    };
    const steps: StepOutput[] = [];
    for (const step of job.steps) {
      if ("pass" in step) {
        const wait = Math.max(0, ...holdTimes) + input.expiry_ms + input.margin_ms - Date.now();
        if (holdTimes.length > 0 && wait > 0) await new Promise((r) => setTimeout(r, wait));
        try {
          await expiring.run(() => book.expire());
          steps.push(null);
        } catch (e) {
          steps.push(`failed:${messageOf(e)}`);
        }
        holdsSince = null;
      } else if ("together" in step) {
        checkLate();
        const conns = await connecting.run(() => Promise.all(step.together.map(() => pool.connect())));
        try {
          steps.push(
            await Promise.all(step.together.map(async (calls, i) => {
              const own = client.postgres(recording(conns[i], sent), { tenant: job.tenant });
              const out: string[] = [];
              for (const c of calls) out.push(await call(own, c));
              return out;
            })),
          );
        } finally {
          conns.forEach((c) => c.release());
        }
      } else {
        checkLate();
        steps.push(await call(book, step));
      }
    }
    // The end state is read here, inside the job's time, so a read after a hold's real expiry
    // counts as late like any step (another job's expire() may have given the hold back).
    const schema = `"${job.book.replaceAll('"', '""')}"`;
    const accounts = (await pool.query(
      `select id::text, posted::text, held_in::text, held_out::text from ${schema}.accounts where tenant = $1 order by id`,
      [job.tenant],
    )).rows.map((r) => {
      const x = r as Record<string, string>;
      return [x.id, x.posted, x.held_in, x.held_out];
    });
    const holds =
      (await pool.query(`select id::text, state from ${schema}.holds where tenant = $1 order by id`, [
        job.tenant,
      ]))
        .rows.map((r) => {
          const x = r as Record<string, string>;
          return [x.id, x.state];
        });
    checkLate();
    return { id: job.id, steps, late, sent, accounts, holds };
  };

  try {
    const results = await Promise.all(input.jobs.map(play));
    console.log(JSON.stringify({ results }));
  } finally {
    await pool.end();
  }
}

if (import.meta.main) {
  if (Deno.args.length !== 1) {
    console.error("usage: deno run -A verify/runners/typescript/runner.ts <jobs.json>");
    Deno.exit(2);
  }
  await main(Deno.args[0]);
}
