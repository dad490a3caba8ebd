// The part of every chobo PostgreSQL client that is the same for every book
// (docs/targets.md#postgresql-clients): sending one statement, retrying what PostgreSQL asks to
// retry, and reading the answers. It is copied byte for byte after the line `// chobo runtime` of
// each generated `<book>.ts`, so it imports nothing and uses only syntax that Node can run by
// stripping the types.

/** What a client needs of a connection: `pg`'s `Client`, `Pool` and `PoolClient` have it. */
export interface Queryable {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/** The answer of `do`, `hold`, `post` and `void`; `R` lists the reasons of a refusal. */
export type Outcome<R extends string> =
  | { readonly result: "done" }
  | { readonly result: "done_before" }
  | { readonly result: "refused"; readonly reason: R };

/** An account's numbers: what is posted, and what holds put in and take out. */
export interface Balance {
  readonly posted: bigint;
  readonly held_in: bigint;
  readonly held_out: bigint;
}

/** Where a hold stands (`status` answers null when there is no hold). */
export type HoldState = "held" | "posted" | "voided" | "expired";

/** One argument of a call: a string, an amount, or an amount left out (a post in full). */
export type Argument = string | bigint | undefined;

/** The calls a book's members make, on one connection for one tenant. */
export interface Calls<R extends string> {
  /** `do`, `hold`, `post` or `void`: `select result, reason from …`. */
  outcome(text: string, args: readonly Argument[]): Promise<Outcome<R>>;
  /** `select posted::text, held_in::text, held_out::text from …`. */
  balance(text: string, args: readonly string[]): Promise<Balance>;
  /** `select … as state`. */
  status(text: string, args: readonly string[]): Promise<HoldState | null>;
  /** `select … expire() as n`: the holds given back, for every tenant. */
  expire(text: string): Promise<number>;
}

/** Tries of one statement (docs/targets.md#postgresql-clients): 29 waits average 1.5 s, at most 2.9 s. */
const MAX_TRIES = 30;
/** The longest wait between tries, in ms; waits double from 1 ms up to it. */
const MAX_WAIT_MS = 128;
/** serialization_failure and deadlock_detected: the same call may succeed when tried again. */
const RETRIED_CODES: readonly unknown[] = ["40001", "40P01"];
/** in_failed_sql_transaction: a retry inside the caller's transaction that already failed. */
const IN_FAILED_TRANSACTION = "25P02";
const HOLD_STATES: readonly HoldState[] = ["held", "posted", "voided", "expired"];
/** The longest string argument, the tenant too, in UTF-8 bytes (docs/reference.md#limits). */
const MAX_STRING_BYTES = 256;
/** The largest amount: 2⁶³ − 1. */
const MAX_AMOUNT = (1n << 63n) - 1n;

/**
 * An argument chobo refuses before anything is sent (docs/reference.md#limits): a string that is not
 * well-formed Unicode (a lone surrogate would be sent as U+FFFD, and two keys become one), holds
 * U+0000, or is longer than 256 UTF-8 bytes; an amount that is not a `bigint` from 0 to 2⁶³ − 1.
 */
export class ChoboArgumentError extends Error {
  override name = "ChoboArgumentError";
}

/** The string argument `name` (a tenant or a parameter), or a `ChoboArgumentError`. */
export function stringArgument(name: string, v: unknown): string {
  if (typeof v !== "string") throw new ChoboArgumentError(`chobo: ${name} is a string, got ${typeof v}`);
  // With the u flag a pair is one code point, so \p{Cs} finds only a lone surrogate.
  if (/\p{Cs}/u.test(v)) {
    throw new ChoboArgumentError(`chobo: ${name} is not well-formed Unicode: it holds a lone surrogate`);
  }
  if (v.includes("\u0000")) {
    throw new ChoboArgumentError(`chobo: ${name} holds U+0000, which no string argument may`);
  }
  const bytes = new TextEncoder().encode(v).length;
  if (bytes > MAX_STRING_BYTES) {
    throw new ChoboArgumentError(
      `chobo: ${name} is ${bytes} UTF-8 bytes, longer than the ${MAX_STRING_BYTES} a string argument may be`,
    );
  }
  return v;
}

/** The amount argument `name`, or undefined where it may be left out (a post in full), or a `ChoboArgumentError`. */
export function amountArgument(name: string, v: unknown, optional = false): bigint | undefined {
  if (optional && v === undefined) return undefined;
  if (typeof v !== "bigint" || v < 0n || v > MAX_AMOUNT) {
    throw new ChoboArgumentError(`chobo: ${name} is an amount, a bigint from 0 to 2^63 - 1`);
  }
  return v;
}

function codeOf(e: unknown): unknown {
  return typeof e === "object" && e !== null && "code" in e ? e.code : undefined;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Sends one statement. A serialization failure or a deadlock is tried again with the same
 * arguments (the key makes that safe), after a random wait so that callers that failed together
 * do not meet again. Inside the caller's transaction the retry can only fail with 25P02, which
 * says nothing about the cause, so the first error is thrown instead.
 */
async function send(db: Queryable, text: string, values: (string | null)[]): Promise<unknown[]> {
  let first: unknown;
  for (let tries = 1;; tries++) {
    try {
      return (await db.query(text, values)).rows;
    } catch (e) {
      if (tries === 1) first = e;
      const code = codeOf(e);
      if (code === IN_FAILED_TRANSACTION) throw first;
      if (!RETRIED_CODES.includes(code) || tries === MAX_TRIES) throw e;
      await pause(Math.random() * Math.min(2 ** (tries - 1), MAX_WAIT_MS));
    }
  }
}

function onlyRow(rows: unknown[], text: string): Record<string, unknown> {
  const row = rows[0];
  if (rows.length !== 1 || typeof row !== "object" || row === null) {
    throw new Error(`chobo: expected one row from ${text}, got ${rows.length}`);
  }
  return row as Record<string, unknown>;
}

function unexpected(row: Record<string, unknown>, text: string): Error {
  return new Error(`chobo: unexpected answer from ${text}: ${JSON.stringify(row)}`);
}

function isOneOf<T>(list: readonly T[], x: unknown): x is T {
  return (list as readonly unknown[]).includes(x);
}

function amountOf(row: Record<string, unknown>, column: string, text: string): bigint {
  const v = row[column];
  if (typeof v !== "string" || !/^-?[0-9]+$/.test(v)) throw unexpected(row, text);
  return BigInt(v);
}

/**
 * The calls of one book value. `reasons` lists every reason the book's SQL may refuse with; an
 * answer outside it means the SQL and the client were built from different books.
 */
export function calls<R extends string>(db: Queryable, tenant: string, reasons: readonly R[]): Calls<R> {
  stringArgument("tenant", tenant);
  return {
    async outcome(text, args) {
      const values = [tenant, ...args.map((a) => a === undefined ? null : String(a))];
      const row = onlyRow(await send(db, text, values), text);
      const { result, reason } = row;
      if (result === "done" || result === "done_before") return { result };
      if (result === "refused" && isOneOf(reasons, reason)) return { result, reason };
      throw unexpected(row, text);
    },
    async balance(text, args) {
      const row = onlyRow(await send(db, text, [tenant, ...args]), text);
      return {
        posted: amountOf(row, "posted", text),
        held_in: amountOf(row, "held_in", text),
        held_out: amountOf(row, "held_out", text),
      };
    },
    async status(text, args) {
      const row = onlyRow(await send(db, text, [tenant, ...args]), text);
      const state = row.state;
      if (state === null) return null;
      if (isOneOf(HOLD_STATES, state)) return state;
      throw unexpected(row, text);
    },
    async expire(text) {
      const row = onlyRow(await send(db, text, []), text);
      const n = row.n;
      if (typeof n === "number" && Number.isInteger(n)) return n;
      if (typeof n === "string" && /^[0-9]+$/.test(n)) return Number(n);
      throw unexpected(row, text);
    },
  };
}
