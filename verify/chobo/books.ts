/**
 * The books the verifications and benchmarks play: books given by name, and every `.book` under
 * directories.
 * @module
 */

/** Every `.book` file of `paths`: a file as it is, a directory's `.book` files at any depth; sorted, each once. */
export function bookPaths(paths: readonly string[]): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(`${dir}/${e.name}`);
      else if (e.name.endsWith(".book")) found.add(`${dir}/${e.name}`);
    }
  };
  for (const path of paths) {
    if (Deno.statSync(path).isDirectory) walk(path.replace(/\/$/, ""));
    else found.add(path);
  }
  return [...found].sort();
}
