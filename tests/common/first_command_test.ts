/**
 * The first command installs only what it runs: on a copy of the repository with an empty Deno cache
 * and no `node_modules`, `deno task demo` (README's first command), `deno task chobo check`,
 * `deno task dandori check` and the pre-commit hook (what the Action runs too) fetch no package.
 * deno.json says `"nodeModulesDir": "manual"`, so `deno task` installs nothing up front; the tasks
 * that test, benchmark and verify start with `deno install`. The bytes the cache holds afterwards
 * (Deno's caches of compiled code) are printed for the record.
 */

import { ok, strictEqual } from "node:assert/strict";
import { dirname } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;

async function run(
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; out: string }> {
  const out = await new Deno.Command(args[0], {
    args: args.slice(1),
    cwd,
    env,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  return { code: out.code, out: new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr) };
}

/** The files git tracks, as they are in the working tree: what a fresh clone has. */
async function copyTracked(to: string): Promise<boolean> {
  const listed = await run(["git", "ls-files", "-z"], ROOT, {}).catch(() => null);
  if (listed === null || listed.code !== 0) return false;
  for (const path of listed.out.split("\0").filter((p) => p !== "")) {
    Deno.mkdirSync(`${to}/${dirname(path)}`, { recursive: true });
    Deno.copyFileSync(`${ROOT}${path}`, `${to}/${path}`);
  }
  return true;
}

/** Bytes of every file under `dir` (0 when it does not exist), and how many of them there are. */
function sizeOf(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  const walk = (d: string) => {
    for (const e of Deno.readDirSync(d)) {
      const p = `${d}/${e.name}`;
      if (e.isDirectory) walk(p);
      else if (e.isFile) {
        bytes += Deno.statSync(p).size;
        files++;
      }
    }
  };
  try {
    walk(dir);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return { bytes, files };
}

Deno.test("on a fresh copy with an empty Deno cache, the first commands and the hook fetch no package", async () => {
  const clone = Deno.makeTempDirSync({ prefix: "ritsu-fresh-" });
  const cache = Deno.makeTempDirSync({ prefix: "ritsu-deno-dir-" });
  try {
    if (!await copyTracked(clone)) {
      console.log("SKIP: ritsu: first command: git cannot list the repository's files here");
      return;
    }
    const env = {
      DENO_DIR: cache,
      NO_COLOR: "1",
      // The hook runs `deno` from PATH: this one, never `npx -y deno@2`, which would fetch Deno itself.
      PATH: `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? ""}`,
    };
    const commands = [
      [Deno.execPath(), "task", "demo"],
      [Deno.execPath(), "task", "chobo", "check", "examples/refunds/refunds.book"],
      [Deno.execPath(), "task", "dandori", "check", "examples/orders/orders.flow"],
      ["bash", "hooks/check", "dandori", "examples/orders/orders.flow"],
      ["bash", "hooks/check", "chobo", "examples/inventory/inventory.book"],
    ];
    for (const command of commands) {
      const out = await run(command, clone, env);
      strictEqual(out.code, 0, `${command.join(" ")}\n${out.out}`);
      ok(!/^Download /m.test(out.out), `${command.slice(1).join(" ")} downloads:\n${out.out}`);
    }
    const packages = sizeOf(`${cache}/npm`);
    strictEqual(packages.files, 0, `the Deno cache holds ${packages.files} files of npm packages`);
    strictEqual(sizeOf(`${cache}/remote`).files, 0, "the Deno cache holds remote modules");
    strictEqual(sizeOf(`${clone}/node_modules`).files, 0, "node_modules was made");
    console.log(
      `first command: 0 packages fetched; the Deno cache holds ${sizeOf(cache).bytes} bytes of compiled code`,
    );
  } finally {
    Deno.removeSync(clone, { recursive: true });
    Deno.removeSync(cache, { recursive: true });
  }
});
