/**
 * The codes the chobo checker can emit, read from its source: every `.error("E…")` and
 * `.warning("W…")` call under lang/chobo/. Tests compare this set with the registry and fixtures.
 * @module
 */

const CALL = /\.(?:error|warning)\(\s*"([EW]\d{3})"/g;

/** Every code a `Reporter` call in lang/chobo/*.ts names. */
export function emittedChoboCodes(): Set<string> {
  const dir = new URL("../../lang/chobo/", import.meta.url).pathname;
  const codes = new Set<string>();
  for (const e of Deno.readDirSync(dir)) {
    if (!e.name.endsWith(".ts")) continue;
    for (const m of Deno.readTextFileSync(dir + e.name).matchAll(CALL)) codes.add(m[1]);
  }
  return codes;
}
