/**
 * The command floor's writes (`commands/io.ts`): a build writes all its files or none, a file
 * that is replaced keeps its mode, a symlink planted where a file goes is replaced and never
 * written through, and no temporary file is left behind.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { denoIo, MAX_INPUT_BYTES } from "../../commands/io.ts";
import { runCli } from "../support/run.ts";

function withDir(f: (dir: string) => void): void {
  const dir = Deno.makeTempDirSync({ prefix: "ritsu-io-" });
  try {
    f(dir);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("a build whose second file cannot be written writes none, and leaves no temporary file", () => {
  withDir((dir) => {
    Deno.mkdirSync(`${dir}/b.go`);
    const failed = denoIo().writeFiles(
      new Map([[`${dir}/a.go`, "package a\n"], [`${dir}/b.go/x`, "x"], [`${dir}/b.go`, "package b\n"]]),
    );
    ok(failed !== null);
    deepStrictEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["b.go"]);
    deepStrictEqual([...Deno.readDirSync(`${dir}/b.go`)].map((e) => e.name), []);
  });
});

Deno.test("files are written whole, a replaced file keeps its mode, a planted symlink is replaced, not followed", () => {
  withDir((dir) => {
    Deno.writeTextFileSync(`${dir}/kept.sql`, "old");
    Deno.chmodSync(`${dir}/kept.sql`, 0o600);
    Deno.writeTextFileSync(`${dir}/secret`, "do not touch");
    Deno.symlinkSync(`${dir}/secret`, `${dir}/book.sql`);
    const failed = denoIo().writeFiles(
      new Map([[`${dir}/kept.sql`, "new"], [`${dir}/book.sql`, "select 1;"], [`${dir}/sub/c.ts`, "c"]]),
    );
    strictEqual(failed, null);
    strictEqual(Deno.readTextFileSync(`${dir}/kept.sql`), "new");
    strictEqual((Deno.statSync(`${dir}/kept.sql`).mode ?? 0) & 0o777, 0o600);
    strictEqual(Deno.readTextFileSync(`${dir}/secret`), "do not touch");
    ok(!Deno.lstatSync(`${dir}/book.sql`).isSymlink);
    strictEqual(Deno.readTextFileSync(`${dir}/book.sql`), "select 1;");
    strictEqual(Deno.readTextFileSync(`${dir}/sub/c.ts`), "c");
    deepStrictEqual([...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".tmp")), []);
  });
});

Deno.test("--out naming a file says it must be a directory, in both languages, and writes nothing", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "ritsu-io-" });
  try {
    Deno.writeTextFileSync(`${dir}/file`, "kept");
    const cli = new URL("../../cli.ts", import.meta.url).pathname;
    const cases: [string[], string][] = [
      [["build", "examples/refunds/refunds.book", "--target", "postgres", "--out", `${dir}/file`], "en"],
      [["doc", "examples/refunds/refunds.book", "--out", `${dir}/file`, "--lang", "ja"], "ja"],
      [["scenarios", "examples/refunds/refunds.book", "--out", `${dir}/file/sub`], "en"],
    ];
    for (const [args, lang] of cases) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", cli, "chobo", ...args],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      strictEqual(out.code, 1, stderr);
      ok(
        stderr.startsWith(
          lang === "en"
            ? `chobo ${args[0]}: ${dir}/file: is a file, but it must be a directory to write ${dir}/file/`
            : `chobo ${args[0]}: ${dir}/file: ファイルですが、${dir}/file/`,
        ),
        stderr,
      );
      ok(stderr.includes(lang === "en" ? "(--out names a directory)" : "(--out にはディレクトリを渡します)"));
    }
    strictEqual(Deno.readTextFileSync(`${dir}/file`), "kept");
    deepStrictEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["file"]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("only regular files are read: a symlink, a device, a directory and a file past the limit are refused", () => {
  withDir((dir) => {
    Deno.writeTextFileSync(`${dir}/.env`, "SECRET=hunter2\n");
    Deno.symlinkSync(`${dir}/.env`, `${dir}/a.book`);
    Deno.symlinkSync("/dev/zero", `${dir}/zero.book`);
    const cases: [string, string][] = [
      [`${dir}/a.book`, "is a symbolic link; only regular files are read"],
      [`${dir}/zero.book`, "is a symbolic link"],
      ["/dev/zero", "is not a regular file (a device, a pipe or a socket)"],
      [dir, "is a directory"],
    ];
    for (const [path, why] of cases) {
      const run = runCli(["chobo", "check", path]);
      strictEqual(run.code, 1, path);
      ok(run.stderr.includes(why), run.stderr);
      ok(!run.stdout.includes("hunter2") && !run.stderr.includes("hunter2"));
    }
    const big = `${dir}/big.book`;
    const f = Deno.openSync(big, { write: true, create: true });
    f.truncateSync(MAX_INPUT_BYTES + 1);
    f.close();
    const run = runCli(["chobo", "check", big]);
    strictEqual(run.code, 1);
    ok(run.stderr.includes(`is larger than the ${MAX_INPUT_BYTES} bytes an input may have`), run.stderr);
  });
});
