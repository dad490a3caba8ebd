/**
 * The codes the chobo checker can emit, read from its source: every `.error("E…")` and
 * `.warning("W…")` call under lang/chobo/ and targets/chobo/. Tests compare this set with the registry and fixtures.
 * @module
 */

const CALL = /\.(?:error|warning)\(\s*"([EW]\d{3})"/g;

/** Every code a `Reporter` call under lang/chobo/ or targets/chobo/ names, and those of lang/common/reporter.ts. */
export function emittedChoboCodes(): Set<string> {
  const codes = new Set<string>();
  const walk = (path: string) => {
    for (const e of Deno.readDirSync(path)) {
      if (e.isDirectory) walk(`${path}${e.name}/`);
      else if (e.name.endsWith(".ts")) {
        for (const m of Deno.readTextFileSync(path + e.name).matchAll(CALL)) codes.add(m[1]);
      }
    }
  };
  for (const dir of ["../../lang/chobo/", "../../targets/chobo/"]) {
    walk(new URL(dir, import.meta.url).pathname);
  }
  // What both languages report through lang/common (an unreadable file, key-shaped values).
  const common = Deno.readTextFileSync(new URL("../../lang/common/reporter.ts", import.meta.url));
  for (const m of common.matchAll(CALL)) codes.add(m[1]);
  return codes;
}
