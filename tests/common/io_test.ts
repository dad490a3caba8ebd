/**
 * The command floor's writes (`commands/io.ts`): a build writes all its files or none, a file
 * that is replaced keeps its mode, a symlink planted where a file goes is replaced and never
 * written through, and no temporary file is left behind.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { denoIo } from "../../commands/io.ts";

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
