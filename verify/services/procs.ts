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
    return [{ text: Deno.readTextFileSync(path), remove: () => Deno.removeSync(path) }];
  });
}
