/**
 * `chobo verify` in a checkout where `deno install` has not run (no `node_modules`): the drivers it
 * plays on cannot be loaded, and it says to run `deno install` there, in both languages, exit 1 —
 * not an internal error with a stack line. Run on a copy of the working tree without `node_modules`.
 */

import { ok, strictEqual } from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Runs `args` in `cwd`; its exit code and what it printed on each stream. */
async function run(
  args: readonly string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(args[0], { args: args.slice(1), cwd, env: { NO_COLOR: "1" } }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test("chobo verify without deno install says to run it, in both languages, exit 1", async () => {
  const copy = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "ritsu-uninstalled-" }));
  try {
    const tar = await run([
      "bash",
      "-c",
      `tar -C '${ROOT}' --exclude=./node_modules --exclude=./.git -cf - . | tar -C '${copy}' -xf -`,
    ], ROOT);
    strictEqual(tar.code, 0, tar.stderr);
    const said = {
      en: `run \`deno install\` in ${copy}/, which puts the packages deno.json names into node_modules`,
      ja: `${copy}/ で \`deno install\` を走らせて`,
    };
    for (const target of ["pglite", "postgres"]) {
      for (const lang of ["en", "ja"] as const) {
        const cli = [
          Deno.execPath(),
          "run",
          "-A",
          "cli.ts",
          "chobo",
          "verify",
          "examples/refunds/refunds.book",
        ];
        const out = await run([...cli, "--target", target, "--lang", lang], copy);
        const all = out.stdout + out.stderr;
        strictEqual(out.code, 1, all);
        ok(out.stdout.includes(said[lang]), all);
        ok(!all.includes("internal error") && !all.includes("内部の異常") && !/^\s+at /m.test(all), all);
      }
    }
  } finally {
    Deno.removeSync(copy, { recursive: true });
  }
});
