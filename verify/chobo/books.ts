/**
 * The books the verifications and benchmarks play: every `.book` under some directories.
 * @module
 */

/** Every `.book` file under `dirs`, sorted. */
export function bookPaths(dirs: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(`${dir}/${e.name}`);
      else if (e.name.endsWith(".book")) found.push(`${dir}/${e.name}`);
    }
  };
  dirs.forEach(walk);
  return found.sort();
}
