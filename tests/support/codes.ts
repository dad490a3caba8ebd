/**
 * The codes the chobo checker can emit, read from its source: every `.error("E…")` and
 * `.warning("W…")` call under lang/chobo/ and targets/chobo/. Tests compare this set with the registry and fixtures.
 * @module
 */

const CALL = /\.(?:error|warning)\(\s*"([EW]\d{3})"/g;

/** Every code a `Reporter` call in lang/chobo/*.ts or targets/chobo/*.ts names. */
export function emittedChoboCodes(): Set<string> {
  const codes = new Set<string>();
  for (const dir of ["../../lang/chobo/", "../../targets/chobo/"]) {
    const path = new URL(dir, import.meta.url).pathname;
    for (const e of Deno.readDirSync(path)) {
      if (!e.name.endsWith(".ts")) continue;
      for (const m of Deno.readTextFileSync(path + e.name).matchAll(CALL)) codes.add(m[1]);
    }
  }
  return codes;
}
