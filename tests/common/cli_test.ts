/**
 * The command line: the one table that `--help` and parsing read, usage errors with exit 2,
 * `--flag=value`, the language choice, and files that cannot be read.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { chooseLang } from "../../lang/common/text.ts";
import { CHOBO } from "../../commands/chobo.ts";
import { runCli } from "../support/run.ts";

const BOOK = "tests/chobo/books/在庫.book";

Deno.test("usage errors exit 2 with the command's usage on stderr", () => {
  const cases: [string[], string][] = [
    [["chobo", "check", BOOK, "--frmat", "json"], "unknown flag --frmat"],
    [["chobo", "check", BOOK, "--format", "yaml"], "--format is one of text, json, not yaml"],
    [["chobo", "check", BOOK, "--format"], "--format needs a value"],
    [["chobo", "check", BOOK, "--format", "--lang", "en"], "--format needs a value"],
    [["chobo", "check", BOOK, "--format", "json", "--format=text"], "--format is given twice"],
    [["chobo", "check", BOOK, "--lang", "fr"], "--lang is one of en, ja, not fr"],
    [["chobo", "check"], "<file.book> is missing"],
    [["chobo", "explain"], "give one code or --all"],
    [["chobo", "explain", "E020", "--all"], "give one code or --all"],
    [["chobo", "explain", "E999"], "no code E999"],
    [["chobo", "explain", "--all=yes"], "--all takes no value"],
  ];
  for (const [argv, message] of cases) {
    const run = runCli(argv);
    strictEqual(run.code, 2, argv.join(" "));
    strictEqual(run.stdout, "", argv.join(" "));
    ok(run.stderr.includes(message), `${argv.join(" ")}: ${run.stderr}`);
    ok(run.stderr.includes(`usage: chobo ${argv[1]}`), run.stderr);
  }
});

Deno.test("an unknown command or tool exits 2 and names the known ones", () => {
  const command = runCli(["chobo", "chek"]);
  strictEqual(command.code, 2);
  ok(
    command.stderr.includes(
      "unknown command chek; the commands are check, run, scenarios, build, doc, verify, api, explain; did you mean `check`?",
    ),
    command.stderr,
  );
  ok(runCli(["chobo", "zzz"]).stderr.includes("explain\n"), "no guess for what is near nothing");
  const tool = runCli(["choboo"]);
  strictEqual(tool.code, 2);
  ok(tool.stderr.includes("unknown tool choboo"));
});

Deno.test("--flag=value works like --flag value", () => {
  const a = runCli(["chobo", "check", BOOK, "--format=json", "--lang=ja"]);
  const b = runCli(["chobo", "check", BOOK, "--format", "json", "--lang", "ja"]);
  strictEqual(a.code, 0);
  strictEqual(a.stdout, b.stdout);
  strictEqual(JSON.parse(a.stdout).v, 2);
});

Deno.test("--help and help <command> print the table's entry to stdout and exit 0", () => {
  for (const command of CHOBO.commands) {
    const viaFlag = runCli(["chobo", command.name, "--help"]);
    const viaHelp = runCli(["chobo", "help", command.name]);
    strictEqual(viaFlag.code, 0);
    strictEqual(viaFlag.stdout, viaHelp.stdout);
    for (const flag of command.flags) {
      ok(viaFlag.stdout.includes(`--${flag.name}`), `${command.name} --${flag.name}`);
    }
    ok(viaFlag.stdout.includes("--lang en|ja"));
    const ja = runCli(["chobo", "help", command.name, "--lang", "ja"]);
    ok(ja.stdout.includes("使い方:") && ja.stdout.includes("終了コード:"), ja.stdout);
  }
  const tool = runCli(["chobo", "--help"]);
  strictEqual(tool.code, 0);
  for (const command of CHOBO.commands) ok(tool.stdout.includes(`  ${command.name}`));
});

Deno.test("--version prints the tool and version", () => {
  const run = runCli(["chobo", "--version"]);
  strictEqual(run.code, 0);
  ok(/^chobo \d+\.\d+\.\d+\n$/.test(run.stdout), run.stdout);
  strictEqual(runCli(["--version"]).stdout.replace("ritsu", "chobo"), run.stdout);
});

Deno.test("the language: --lang, else CHOBO_LANG, else RITSU_LANG, else English", () => {
  strictEqual(chooseLang(undefined, "chobo", {}), "en");
  strictEqual(chooseLang(undefined, "chobo", { RITSU_LANG: "ja_JP.UTF-8" }), "ja");
  strictEqual(chooseLang(undefined, "chobo", { CHOBO_LANG: "en", RITSU_LANG: "ja" }), "en");
  strictEqual(chooseLang("en", "chobo", { CHOBO_LANG: "ja" }), "en");
  strictEqual(chooseLang(undefined, "chobo", { CHOBO_LANG: "ja" }), "ja");
  const broken = { "x.book": "book x v1\nunit\n" };
  ok(
    runCli(["chobo", "check", "x.book"], { files: broken, env: { CHOBO_LANG: "ja" } }).stdout.startsWith(
      "エラー[E001]",
    ),
  );
  ok(
    runCli(["chobo", "check", "x.book"], { files: broken, env: { RITSU_LANG: "ja_JP.UTF-8" } }).stdout
      .startsWith("エラー[E001]"),
  );
  ok(runCli(["chobo", "check", "x.book"], { files: broken }).stdout.startsWith("error[E001]"));
});

Deno.test("CHOBO_LANG or RITSU_LANG that is neither ja… nor en… warns once on stderr, in both languages", () => {
  const books = { "a.book": Deno.readTextFileSync(BOOK), "b.book": Deno.readTextFileSync(BOOK) };
  const run = runCli(["chobo", "check", "a.book", "b.book"], { files: books, env: { CHOBO_LANG: "xx" } });
  strictEqual(run.code, 0);
  strictEqual(
    run.stderr,
    "chobo: warning: CHOBO_LANG=xx is neither ja… nor en…; English is used\n" +
      "chobo: 警告: CHOBO_LANG=xx は ja… でも en… でもないので、英語を使います\n",
  );
  ok(run.stdout.startsWith("a.book: ok"), run.stdout);
  const ritsu = runCli(["dandori", "--version"], { env: { RITSU_LANG: "C.UTF-8" } });
  ok(ritsu.stderr.startsWith("dandori: warning: RITSU_LANG=C.UTF-8 is neither"), ritsu.stderr);
  const fine: Record<string, string>[] = [{ CHOBO_LANG: "ja_JP.UTF-8" }, { CHOBO_LANG: "en_US" }, {
    RITSU_LANG: "EN",
  }, {}];
  for (const env of fine) {
    strictEqual(runCli(["chobo", "check", "a.book"], { files: books, env }).stderr, "", JSON.stringify(env));
  }
  strictEqual(
    runCli(["chobo", "check", "a.book", "--lang", "ja"], { files: books, env: { CHOBO_LANG: "xx" } }).stderr,
    "",
    "--lang decides, and the variable is not read",
  );
});

Deno.test("check --format json lists a file that cannot be read with why, in both languages", () => {
  for (
    const [lang, why] of [["en", "missing.book: no such file"], ["ja", "missing.book: ファイルがありません"]]
  ) {
    const run = runCli(["chobo", "check", "missing.book", BOOK, "--format", "json", "--lang", lang]);
    strictEqual(run.code, 1);
    const out = JSON.parse(run.stdout);
    strictEqual(out.files.length, 2);
    deepStrictEqual(out.files[0], {
      file: "missing.book",
      ok: false,
      error: why,
      diagnostics: [],
      report: null,
    });
    strictEqual(out.files[1].file, BOOK);
    strictEqual(out.files[1].ok, true);
    strictEqual(run.stderr, `chobo check: ${why}\n`);
  }
});

Deno.test("a file that cannot be read is one line and exit 1; the other files are still checked", () => {
  const run = runCli(["chobo", "check", "missing.book", BOOK]);
  strictEqual(run.code, 1);
  strictEqual(run.stderr, "chobo check: missing.book: no such file\n");
  ok(run.stdout.includes(`${BOOK}: ok`));
  const dir = runCli(["chobo", "check", "tests"]);
  strictEqual(dir.code, 1);
  strictEqual(dir.stderr.split("\n").length, 2, dir.stderr);
  ok(!dir.stderr.includes("    at "), "no stack trace");
});

Deno.test("the summary line counts errors and warnings in both languages", () => {
  const files = {
    "w.book":
      "book w v1\nunit pcs\nunit kg\naccount o : pcs outside\naccount p : pcs outside\ntransfer t(id: string, n: pcs)\n  key id\n  move n from o to p\n",
  };
  strictEqual(
    runCli(["chobo", "check", "w.book"], { files }).stdout.split("\n").find((l) => l.startsWith("w.book")),
    "w.book: ok (1 warning)",
  );
  strictEqual(
    runCli(["chobo", "check", "w.book", "--lang", "ja"], { files }).stdout.split("\n").find((l) =>
      l.startsWith("w.book")
    ),
    "w.book: ok(警告 1 件)",
  );
});

Deno.test("the process: deno run cli.ts exits with the command's code and prints no stack trace", async () => {
  const run = async (...args: string[]) => {
    const out = await new Deno.Command(Deno.execPath(), { args: ["run", "-A", "cli.ts", ...args] }).output();
    return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
  };
  strictEqual((await run("chobo", "check", BOOK)).code, 0);
  strictEqual((await run("chobo", "check", "tests/chobo/fixtures/expect.json")).code, 1);
  const usage = await run("chobo", "check", "--nope");
  strictEqual(usage.code, 2);
  ok(!usage.stderr.includes("    at "));
});
