/**
 * The first command fetches only what it runs: on a copy of the repository with an empty Deno cache
 * and no `node_modules`, `deno task chobo check`, `deno task dandori check` and the pre-commit hook
 * (what the Action runs too) fetch no package (a flow's `use proto` then says protobufjs is not
 * installed, which `deno install` brings), and `deno task demo` (README's first command) fetches
 * PGlite and nothing else, and prints the balances PGlite holds and the flow's ending. deno.json says
 * `"nodeModulesDir": "manual"`, so `deno task` installs nothing up front; the demo runs with
 * `--no-config` and its own lockfile (with deno.json's, Deno would install every package of deno.lock);
 * the tasks that test, benchmark and verify start with `deno install`. The bytes the cache holds
 * afterwards, and the demo's time, are printed for the record: a time is no pass or failure here.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
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

Deno.test("on a fresh copy with an empty Deno cache, the checks and the hook fetch no package, and the demo PGlite alone", async () => {
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
    // A `use proto` needs protobufjs, which only `deno install` brings: without it the check says so.
    const proto = await run(
      [Deno.execPath(), "task", "dandori", "check", "tests/dandori/flows/proto_calls.flow"],
      clone,
      env,
    );
    strictEqual(proto.code, 1, proto.out);
    ok(
      proto.out.includes(
        "protobufjs, which reads `.proto` files, is not installed here (run `deno install`)",
      ),
      proto.out,
    );
    const packages = sizeOf(`${cache}/npm`);
    strictEqual(packages.files, 0, `the Deno cache holds ${packages.files} files of npm packages`);
    strictEqual(sizeOf(`${cache}/remote`).files, 0, "the Deno cache holds remote modules");
    strictEqual(sizeOf(`${clone}/node_modules`).files, 0, "node_modules was made");
    const compiled = sizeOf(cache).bytes;

    const started = performance.now();
    const demo = await run([Deno.execPath(), "task", "demo"], clone, env);
    const seconds = (performance.now() - started) / 1000;
    if (demo.code !== 0 && /registry\.npmjs\.org|error sending request|dns error/i.test(demo.out)) {
      console.log(`SKIP: npm: deno task demo could not fetch PGlite from the npm registry:\n${demo.out}`);
      return;
    }
    strictEqual(demo.code, 0, demo.out);
    ok(demo.out.includes("refundable(o-1)  posted 10.00, held in 0.00, held out 0.00"), demo.out);
    ok(demo.out.includes('ending      succeed outcome = "declined" charge = null'), demo.out);
    const registry = `${cache}/npm/registry.npmjs.org`;
    const fetched = [...Deno.readDirSync(registry)].flatMap((scope) =>
      scope.name.startsWith("@")
        ? [...Deno.readDirSync(`${registry}/${scope.name}`)].map((p) => `${scope.name}/${p.name}`)
        : [scope.name]
    );
    deepStrictEqual(fetched, ["@electric-sql/pglite"]);
    strictEqual(sizeOf(`${cache}/remote`).files, 0, "the demo fetched remote modules");
    strictEqual(sizeOf(`${clone}/node_modules`).files, 0, "the demo made node_modules");
    console.log(
      `deno task demo: ${seconds.toFixed(1)} s with an empty cache, load average ${
        Deno.loadavg().map((l) => l.toFixed(1)).join(" ")
      }; it fetched ${(sizeOf(`${cache}/npm`).bytes / 1e6).toFixed(1)} MB (PGlite)`,
    );
    console.log(`first commands: 0 packages fetched; the Deno cache held ${compiled} bytes of compiled code`);
  } finally {
    Deno.removeSync(clone, { recursive: true });
    Deno.removeSync(cache, { recursive: true });
  }
});
