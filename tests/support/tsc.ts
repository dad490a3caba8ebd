/**
 * Runs the TypeScript compiler over generated files, as chobo's clients and dandori's targets are
 * checked: `typescript@7.0.2` through npx, `--strict --noEmit`, `.ts` imports, Node's types.
 * @module
 */

import { strictEqual } from "node:assert/strict";

/** The compiler the generated TypeScript is checked with. */
export const TYPESCRIPT = "typescript@7.0.2";

/** `tsc` of {@link TYPESCRIPT} with `args` through npx; null (after a SKIP line) when there is no npx. */
export async function npxTsc(args: string[], cwd: string): Promise<{ code: number; out: string } | null> {
  try {
    const run = await new Deno.Command("npx", {
      args: ["-y", "-p", TYPESCRIPT, "tsc", ...args],
      cwd,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder();
    return { code: run.code, out: text.decode(run.stdout) + text.decode(run.stderr) };
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    console.log("SKIP: tsc: no npx on this machine to run the TypeScript compiler");
    return null;
  }
}

/**
 * `tsc --strict --noEmit` over `files` (relative to `cwd`, which links the repository's
 * node_modules); null after a SKIP line when there is no npx.
 */
export async function tsc(
  files: readonly string[],
  cwd: string,
): Promise<{ code: number; out: string } | null> {
  const version = await npxTsc(["--version"], cwd);
  if (version === null) return null;
  strictEqual(version.out.trim(), `Version ${TYPESCRIPT.split("@")[1]}`);
  // skipLibCheck: the SDKs' own declarations import packages that ship no types (`ms`, `aws-lambda`).
  return await npxTsc([
    "--strict",
    "--noEmit",
    "--skipLibCheck",
    "--allowImportingTsExtensions",
    "--target",
    "es2022",
    "--module",
    "nodenext",
    "--types",
    "node",
    ...files,
  ], cwd);
}
