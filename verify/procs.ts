/**
 * What the disposable servers of `verify/` (PostgreSQL, TigerBeetle) ask of this machine: whether
 * a path exists, and whether a process still runs (a run that was killed left its records).
 * @module
 */

/** True when `path` exists. */
export function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** True while the process `pid` runs. */
export function alive(pid: number): boolean {
  return exists(`/proc/${pid}`);
}
