/**
 * The two PostgreSQL engines the runner plays on, behind one `Db`: a real server through `pg`
 * (a pool of 20 connections; a `together` caller gets a connection of its own) and embedded
 * PGlite (one connection in the process; calls take turns).
 * @module
 */

import pg from "pg";
import { PGlite } from "@electric-sql/pglite";

/** One statement: text with `$1 …` placeholders and its arguments. */
export interface Statement {
  readonly text: string;
  readonly values: readonly (string | null)[];
}

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

/** Connections in the pool (docs/design/chobo.md#differential-verification). */
export const POOL_SIZE = 20;

/** A pool on a server's Unix socket. */
export function serverDb(socketDir: string, database = "postgres"): Db & { end(): Promise<void> } {
  const pool = new pg.Pool({ host: socketDir, user: "postgres", database, max: POOL_SIZE });
  // An idle connection the server closes (at shutdown) is not an error of any call.
  pool.on("error", () => {});
  const conn = (c: { query: pg.Pool["query"] }): Conn => ({
    query: async (s) => (await c.query(s.text, [...s.values])).rows,
  });
  return {
    ...conn(pool),
    connect: async () => {
      const client = await pool.connect();
      return { ...conn(client), release: () => client.release() };
    },
    exec: async (sql) => {
      await pool.query(sql);
    },
    end: () => pool.end(),
  };
}

/** An embedded PGlite database in memory. */
export async function pgliteDb(): Promise<Db & { end(): Promise<void> }> {
  const db = await PGlite.create();
  const query: Conn["query"] = async (s) =>
    (await db.query<Record<string, unknown>>(s.text, [...s.values])).rows;
  return {
    query,
    connect: () => Promise.resolve({ query, release: () => {} }),
    exec: async (sql) => {
      await db.exec(sql);
    },
    end: () => db.close(),
  };
}
