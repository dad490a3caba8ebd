/**
 * The TypeScript runner of `verify/chobo/runners/README.md`: plays every job of a `jobs.json` at once
 * through each book's generated `<book>.ts` on a real PostgreSQL server, and prints what each
 * step answered and every statement the client sent.
 *
 * ```sh
 * deno run -A verify/chobo/runners/typescript/runner.ts jobs.json
 * ```
 * @module
 */

// The full specifier, not deno.json's "pg": the runner is one file that runs from any directory.
// deno-lint-ignore no-import-prefix
import pg from "npm:pg@8.23.1";
import {
  callClient,
  type CallStep,
  type ClientBook,
  HoldClock,
  loadClients,
  type Members,
  messageOf,
  playAll,
  type StepOutput,
} from "./common.ts";
import { OneAtATime } from "../../../one_at_a_time.ts";

type Step = CallStep | { readonly pass: true } | { readonly together: readonly (readonly CallStep[])[] };

interface Job {
  readonly id: string;
  readonly book: string;
  readonly tenant: string;
  readonly steps: readonly Step[];
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

/** A generated book value with its `expire()`. */
type PostgresBook = ClientBook & { expire(): Promise<number> };

interface ClientModule {
  postgres(db: Queryable, options: { tenant: string }): PostgresBook;
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

async function main(path: string): Promise<void> {
  const input: Jobs = JSON.parse(Deno.readTextFileSync(path));
  const modules = await loadClients<ClientModule>(input.clients);
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
    const clock = new HoldClock(input.expiry_ms, input.margin_ms);
    const call = async (on: ClientBook, step: CallStep) => {
      const answer = await callClient(on, members, step);
      clock.answered(step, answer);
      return answer;
    };
    const steps: StepOutput[] = [];
    for (const step of job.steps) {
      if ("pass" in step) {
        await clock.pass();
        try {
          await expiring.run(() => book.expire());
          steps.push(null);
        } catch (e) {
          steps.push(`failed:${messageOf(e)}`);
        }
      } else if ("together" in step) {
        clock.check();
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
        clock.check();
        steps.push(await call(book, step));
      }
    }
    // The end state is read here, inside the job's time, so a read after a hold's real expiry
    // counts as late like any step (another job's expire() may have given the hold back).
    const schema = `"${job.book.replaceAll('"', '""')}"`;
    const accounts = (await pool.query(
      `select id::text, posted::text, held_in::text, held_out::text from ${schema}.balances where tenant = $1 order by id`,
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
    clock.check();
    return { id: job.id, steps, late: clock.late, sent, accounts, holds };
  };

  await playAll(input.jobs, play, () => pool.end());
}

if (import.meta.main) {
  if (Deno.args.length !== 1) {
    console.error("usage: deno run -A verify/chobo/runners/typescript/runner.ts <jobs.json>");
    Deno.exit(2);
  }
  await main(Deno.args[0]);
}
