/**
 * What the disposable servers of `verify/` (PostgreSQL, TigerBeetle, Temporal) ask of this machine:
 * whether a path exists, and whether a process still runs (a run that was killed left its records),
 * and a removal that a path already gone satisfies.
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

/**
 * When the process `pid` started, in clock ticks since boot (the 22nd field of `/proc/<pid>/stat`), or
 * null when no process has that pid. With its pid, it names one process: a pid alone may since have been
 * given to another (this machine's pids wrap at 32,768, in minutes when tests run).
 */
export function startedAt(pid: number): string | null {
  return statFields(pid)?.[19] ?? null;
}

/** Clock ticks a second in `/proc/<pid>/stat` (`getconf CLK_TCK`, 100 on Linux). */
const CLOCK_TICKS = 100;

/**
 * The CPU seconds (user and system, the 14th and 15th fields of `/proc/<pid>/stat`) the process `pid`
 * has used so far, or null when no process has that pid.
 */
export function cpuSecondsOf(pid: number): number | null {
  const fields = statFields(pid);
  return fields === null ? null : (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** The fields of `/proc/<pid>/stat` after the command's name (the third on), or null when no process has that pid. */
function statFields(pid: number): string[] | null {
  let stat: string;
  try {
    stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  } catch {
    return null;
  }
  // The second field, the command's name in parentheses, may hold spaces: count after its last `)`.
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/**
 * Kills the process a record names, when it is still that process: its pid started at `started`
 * (`startedAt` when the record was written). A record without `started`, or whose pid another
 * process has now, kills nothing.
 */
export function killRecorded(pid: number, started: string | undefined): void {
  if (started === undefined || startedAt(pid) !== started) return;
  try {
    Deno.kill(pid, "SIGKILL");
  } catch {
    // Gone since.
  }
}

/**
 * The records in `records` (files named `<pid>-…`) of runs whose process is gone, each with its
 * text; the caller stops what a record names, then removes it with `remove`.
 */
export function deadRecords(records: string): { text: string; remove(): void }[] {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(records)];
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const owner = Number(e.name.split("-")[0]);
    if (!Number.isInteger(owner) || alive(owner)) return [];
    const path = `${records}/${e.name}`;
    let text: string;
    try {
      text = Deno.readTextFileSync(path);
    } catch (err) {
      // Another run's cleaning took it between the listing and now.
      if (err instanceof Deno.errors.NotFound) return [];
      throw err;
    }
    return [{ text, remove: () => removeGone(path) }];
  });
}

/**
 * Removes `path` and all under it; a path already gone is what was asked (test files clean each
 * other's leftovers at once, and a directory a record names may have been removed by hand).
 */
export function removeGone(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
}
