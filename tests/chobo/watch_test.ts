/**
 * `chobo check --watch`: in-process on books held in memory, a check, then one after each change,
 * with a line between them on stderr, until Ctrl-C ends it with exit 0 (pinned in English and
 * Japanese); the flag is in the one command table `--help` and parsing read; the real watcher sees a
 * file an editor replaces by a rename; and a real process ends with exit 0 on SIGINT.
 */

import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { denoIo } from "../../commands/io.ts";
import { assertGolden } from "../support/golden.ts";
import { runCli, runCliAsync } from "../support/run.ts";

const GOLDEN = new URL("./golden/check/", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;

const GOOD = `book shop v1

unit pcs

account shelf(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery
  move qty from suppliers to shelf(sku)
`;

/** The same book with a misspelt account: E002. */
const BROKEN = GOOD.replace("to shelf(sku)", "to shelve(sku)");

Deno.test("chobo check --watch: a check, one after each change, a line between on stderr; Ctrl-C exits 0", async () => {
  for (const lang of ["en", "ja"] as const) {
    const run = await runCliAsync(["chobo", "check", "shop.book", "other.book", "--watch", "--lang", lang], {
      files: { "shop.book": GOOD, "other.book": GOOD.replace("book shop", "book other") },
      happenings: [{ change: { "shop.book": BROKEN } }, { change: { "shop.book": GOOD } }, "interrupt"],
    });
    strictEqual(run.code, 0, run.stderr);
    deepStrictEqual(run.watched, ["shop.book", "other.book"]);
    ok(run.watchClosed);
    strictEqual(run.stdout.split("shop.book: ok").length - 1, 2, run.stdout);
    match(run.stdout, /E002/);
    assertGolden(`${GOLDEN}watch.${lang}.txt`, `-- stdout --\n${run.stdout}-- stderr --\n${run.stderr}`);
  }
});

Deno.test("chobo check --watch --format json: one JSON document per check on stdout", async () => {
  const run = await runCliAsync(["chobo", "check", "shop.book", "--watch", "--format", "json"], {
    files: { "shop.book": GOOD },
    happenings: [{ change: { "shop.book": BROKEN } }, "interrupt"],
  });
  strictEqual(run.code, 0, run.stderr);
  const documents = run.stdout.split(/\n(?=\{)/).map((d) => JSON.parse(d));
  deepStrictEqual(documents.map((d) => d.files[0].ok), [true, false]);
});

Deno.test("chobo check --watch: a book removed while watched is said, and the watch goes on", async () => {
  const run = await runCliAsync(["chobo", "check", "shop.book", "--watch"], {
    files: { "shop.book": GOOD },
    happenings: [{ change: { "shop.book": null } }, { change: { "shop.book": GOOD } }, "interrupt"],
  });
  strictEqual(run.code, 0);
  match(run.stderr, /chobo check: shop\.book: no such file\n/);
  strictEqual(run.stdout.split("shop.book: ok").length - 1, 2, run.stdout);
});

Deno.test("--watch is in the command table: help shows it, and it takes no value", () => {
  const help = runCli(["chobo", "help", "check"]);
  match(help.stdout, /\[--watch\]/);
  match(help.stdout, /--watch +check again each time a book changes, until Ctrl-C/);
  const wrong = runCli(["chobo", "check", "a.book", "--watch=yes"]);
  strictEqual(wrong.code, 2);
  match(wrong.stderr, /--watch takes no value/);
});

Deno.test("the real watcher sees a book an editor replaces by a rename, and nothing after it is closed", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = `${dir}/shop.book`;
    Deno.writeTextFileSync(path, GOOD);
    const watcher = denoIo().watch([path, `${dir}/missing.book`]);
    try {
      // Reading is no change.
      Deno.readTextFileSync(path);
      Deno.writeTextFileSync(`${dir}/.shop.book.swp`, BROKEN);
      Deno.renameSync(`${dir}/.shop.book.swp`, path);
      deepStrictEqual(await watcher.next(), { kind: "changed", paths: [path] });
      Deno.writeTextFileSync(`${dir}/missing.book`, GOOD);
      deepStrictEqual(await watcher.next(), { kind: "changed", paths: [`${dir}/missing.book`] });
    } finally {
      watcher.close();
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

/** Reads a child's stream until `pattern` shows, within 20 s; everything read so far. */
async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  sofar: { text: string },
  pattern: RegExp,
): Promise<void> {
  const decoder = new TextDecoder();
  const deadline = Date.now() + 20_000;
  while (!pattern.test(sofar.text)) {
    ok(Date.now() < deadline, `no ${pattern} in:\n${sofar.text}`);
    const { value, done } = await reader.read();
    ok(!done, `the process ended before ${pattern}:\n${sofar.text}`);
    sofar.text += decoder.decode(value, { stream: true });
  }
}

Deno.test("a real chobo check --watch re-checks a changed book and ends with exit 0 on SIGINT", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = `${dir}/shop.book`;
    Deno.writeTextFileSync(path, GOOD);
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${ROOT}cli.ts`, "chobo", "check", path, "--watch"],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).spawn();
    // A watch that never ends would hang the test: it is stopped after 60 s, and the checks below fail.
    const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
    try {
      const stderr = child.stderr.getReader();
      const err = { text: "" };
      await readUntil(stderr, err, /Ctrl-C ends it\n/);
      Deno.writeTextFileSync(path, BROKEN);
      await readUntil(stderr, err, /changed; checking again/);
      child.kill("SIGINT");
      await readUntil(stderr, err, /stopped watching\n/);
      stderr.releaseLock();
      const [status, out] = await Promise.all([child.status, new Response(child.stdout).text()]);
      await child.stderr.cancel();
      strictEqual(status.code, 0, err.text);
      match(out, /shop\.book: ok/);
      match(out, /E002/);
    } finally {
      clearTimeout(guard);
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
