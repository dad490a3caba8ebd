/**
 * Makes concurrent callers of a PostgreSQL client meet under REPEATABLE READ however busy the machine
 * (tests/chobo/client_*_test.ts): a transaction changes a tenant's account rows and holds their locks
 * while the callers start, and commits once one of them waits for a lock. A caller that waited read
 * its snapshot before that commit, so its call fails with 40001 (docs/design/chobo.md#postgresql) and
 * its client tries it again. Left to the scheduler, four callers on a loaded machine sometimes never
 * overlapped, and the test that counts the retries failed (CI27).
 * @module
 */

import type { Db } from "../../verify/services/pg_db.ts";

/** One connection, kept for the holding transaction. */
export interface Holder {
  query(text: string, values: readonly unknown[]): Promise<readonly unknown[]>;
  release(): void;
}

/** How long the callers may take to reach the held rows. */
const WAIT_MS = 10_000;

/**
 * Runs `run` while the account rows of `tenant` in `schema` (an identifier as SQL writes it) are held
 * by a transaction that changed them, committed as soon as a caller waits; the rows must exist.
 */
export async function whileRowsHeld<T>(
  holder: Holder,
  schema: string,
  tenant: string,
  run: () => Promise<T>,
): Promise<T> {
  try {
    await holder.query("begin", []);
    const [held] = await holder.query(
      `with changed as (update ${schema}.accounts set posted = posted where tenant = $1 returning 1)
       select count(*)::int as n from changed`,
      [tenant],
    ) as { n: number }[];
    if (held.n === 0) throw new Error(`no account row of ${tenant} to hold: make one first`);
    const running = run();
    const until = Date.now() + WAIT_MS;
    for (;;) {
      const [waiting] = await holder.query(
        "select count(*)::int as n from pg_locks where not granted",
        [],
      ) as {
        n: number;
      }[];
      if (waiting.n > 0) break;
      if (Date.now() > until) throw new Error(`no caller waited for the held rows within ${WAIT_MS} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
    await holder.query("commit", []);
    return await running;
  } finally {
    holder.release();
  }
}

/** `whileRowsHeld` on a connection of `db` (the runners' database of verify/services/pg_db.ts). */
export async function whileRowsHeldIn<T>(
  db: Db,
  schema: string,
  tenant: string,
  run: () => Promise<T>,
): Promise<T> {
  const conn = await db.connect();
  const holder: Holder = {
    query: (text, values) => conn.query({ text, values: values.map(String) }),
    release: () => conn.release(),
  };
  return await whileRowsHeld(holder, schema, tenant, run);
}
