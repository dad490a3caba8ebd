/**
 * Assertions for what must be true: a broken one is a bug in this toolchain, never a user's
 * mistake, so it throws an `AssertionError` that the CLI reports as an internal error (exit 2).
 *
 * - `assert(cond, why)` for an invariant, with the reason it holds;
 * - `unreachable(x)` at the end of a switch over a closed union, so a new member fails to
 *   type-check until it is handled;
 * - `lookup(map, key, what)` instead of `map.get(key)!`: a missing key says what was missing.
 * @module
 */

/** A broken invariant of this toolchain. */
export class AssertionError extends Error {
  override readonly name = "AssertionError";
}

/**
 * Asserts `condition`; `why` says what was expected (and is the message when it does not hold).
 *
 * @example
 * ```ts
 * assert(moves.length > 0, "a checked transfer has a move");
 * ```
 */
export function assert(condition: boolean, why: string): asserts condition {
  if (!condition) throw new AssertionError(why);
}

/**
 * The end of a switch over a closed union: type-checks only when every member is handled.
 *
 * @example
 * ```ts
 * switch (op) { case "do": …; case "hold": …; case "post": …; case "void": …; default: return unreachable(op); }
 * ```
 */
export function unreachable(value: never, what = "value"): never {
  throw new AssertionError(`unexpected ${what}: ${show(value)}`);
}

/**
 * `map.get(key)`, asserting the key is there; `what` names what the map holds (`"account"`).
 *
 * @example
 * ```ts
 * const account = lookup(accounts, name, "account");
 * ```
 */
export function lookup<K, V>(map: ReadonlyMap<K, V>, key: K, what: string): V {
  const value = map.get(key);
  if (value === undefined) throw new AssertionError(`no ${what} ${show(key)}`);
  return value;
}

/**
 * The first element of `items` that `pred` accepts, asserting there is one; `what` names it.
 *
 * @example
 * ```ts
 * const transfer = findOne(book.transfers, (t) => t.name === name, `transfer ${name}`);
 * ```
 */
export function findOne<T>(items: readonly T[], pred: (item: T) => boolean, what: string): T {
  const found = items.find(pred);
  if (found === undefined) throw new AssertionError(`no ${what}`);
  return found;
}

/** A value in a message; never throws (a bigint or a cycle does not stop the report). */
function show(value: unknown): string {
  try {
    return JSON.stringify(value, (_, v) => typeof v === "bigint" ? `${v}n` : v) ?? String(value);
  } catch {
    return String(value);
  }
}
