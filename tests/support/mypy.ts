/**
 * The lasting cache of one test's mypy runs (`--cache-dir`): what every run reads and no change of
 * ours touches (the standard library, temporalio, pydantic, psycopg) is checked once on a machine, not
 * in every test run (28 generated pydantic-graph packages: 4.4 s cold, 0.3 s with the cache, copied to
 * another directory). mypy checks a cached module again whenever its source's hash differs, so a
 * cache is never trusted past its sources. Each test names its own directory: two mypy processes
 * sharing one could read each other's half-written entries.
 * @module
 */

/** `~/.cache/dandori/mypy/<name>` (under `XDG_CACHE_HOME` when set), made when missing. */
export function mypyCache(name: string): string {
  const base = Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME") ?? "/tmp"}/.cache`;
  const dir = `${base}/dandori/mypy/${name}`;
  Deno.mkdirSync(dir, { recursive: true });
  return dir;
}
