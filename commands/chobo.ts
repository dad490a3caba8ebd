/**
 * chobo's commands: the table `--help` and parsing read, and what each command does.
 * @module
 */

import { command, type CommandSpec, type Outcome, type ToolSpec } from "./table.ts";
import {
  diagnosticJson,
  DIAGNOSTICS_JSON_VERSION,
  hasErrors,
  renderDiagnostic,
  summaryLine,
} from "../lang/common/diagnostic.ts";
import { type Io, readInput, type Watcher, writeFile } from "./io.ts";
import { type Lang, tr } from "../lang/common/text.ts";
import { VERSION } from "../lang/common/version.ts";
import { stringifyJson } from "../lang/common/json.ts";
import { readAtRevision } from "./git.ts";
import { createHash } from "node:crypto";
import { buildTarget, type Origin } from "../targets/chobo/target.ts";
import { targetsJson } from "../targets/chobo/api.ts";
import { type ChoboTargetName, TARGET_NAMES, targetNamed } from "../targets/chobo/targets.ts";
import { sentJson, sentText } from "../targets/chobo/postgres/show.ts";
import { sentTigerBeetleJson, sentTigerBeetleText } from "../targets/chobo/tigerbeetle/show.ts";
import { apiJson } from "../lang/chobo/api.ts";
import { buildPage, pageMarkdown } from "../lang/chobo/doc.ts";
import { pageHtml } from "../lang/chobo/draw.ts";
import { checkBook, checkBookBytes } from "../lang/chobo/check.ts";
import type { Book } from "../lang/chobo/model.ts";
import { generatorLimits, reportJson, reportText, scenarioNoteText } from "../lang/chobo/report.ts";
import { runsJsonParts, runsTextParts, type ScenarioRun } from "../lang/chobo/run.ts";
import {
  readScenarios,
  runScenario,
  type Scenario,
  ScenarioError,
  scenarioJson,
} from "../lang/chobo/scenario.ts";
import { generate } from "../lang/chobo/scenarios.ts";
import { CODES } from "../lang/chobo/codes.ts";
import { loadBook, readBook } from "./books.ts";
import { VERIFY_TARGETS, verifyBooks } from "./chobo_verify.ts";
import { STORES } from "../verify/chobo/stores.ts";
import { explainAllMarkdown, explainAllText, explainText, findCode } from "../lang/chobo/explain.ts";

const CHECK_EXITS: CommandSpec["exits"] = [
  {
    code: 0,
    meaning: tr(
      "no error (warnings may be printed); with --watch, the watch was ended with Ctrl-C",
      "エラーなし(警告は出ることがあります)。--watch なら、Ctrl-C で見張りを終えた",
    ),
  },
  {
    code: 1,
    meaning: tr(
      "an error in a book, or a file that cannot be read",
      "帳簿にエラーがある、または読めないファイルがある",
    ),
  },
  { code: 2, meaning: tr("a usage error, or an internal error", "使い方の誤り、または内部の異常") },
];

/** chobo's command table. */
export const CHOBO: ToolSpec = {
  name: "chobo",
  version: VERSION,
  summary: tr(
    "the ledger language: put bounds on accounts; every transfer keeps them, in one write",
    "帳簿の言語。勘定に下限と上限を書く。どの振替も、一度の書き込みの中でそれを守る",
  ),
  commands: [
    command({
      name: "check",
      summary: tr(
        "check books: syntax, names, units, bounds, keys, holds",
        "帳簿を検査する(構文、名前、単位、境界、キー、仮押さえ)",
      ),
      args: { placeholder: "<file.book>", min: 1, max: null, help: tr("the books to check", "検査する帳簿") },
      flags: [
        {
          name: "format",
          value: "format",
          choices: ["text", "json"],
          help: tr(
            'text for people (the default), json for programs ({"v": 2, "files": […]})',
            'text は人が読む形(既定)、json はプログラムが読む形({"v": 2, "files": […]})',
          ),
        },
        {
          name: "diff-base",
          value: "revision",
          help: tr(
            "compare with each book at this git revision: changed accounts (E050) or transfers (E051), removed ones (W107)",
            "各帳簿を git のこのリビジョンのものと比べる(勘定の変更 E050、振替の変更 E051、消したもの W107)",
          ),
        },
        {
          name: "watch",
          value: null,
          help: tr(
            "check again each time a book changes, until Ctrl-C: each check to stdout, a line between checks to stderr",
            "帳簿が変わるたびに検査し直す(Ctrl-C まで)。検査の結果は標準出力に、検査のあいだの区切りの行は標準エラーに出す",
          ),
        },
      ],
      exits: CHECK_EXITS,
      examples: [
        "chobo check examples/inventory/inventory.book",
        "chobo check tests/chobo/books/在庫.book --lang ja --format json",
        "chobo check examples/refunds/refunds.book --watch",
      ],
      run: ({ args, flags, io, lang }) =>
        flags.watch
          ? watchCheck(args, flags.format === "json", flags["diff-base"], io, lang)
          : check(args, flags.format === "json", flags["diff-base"], io, lang),
    }),
    command({
      name: "run",
      summary: tr(
        "run scenarios on the reference interpreter: each step's result, then balances and holds",
        "シナリオを参照インタプリタで流す(ステップごとの結果と、終わりの残高と仮押さえ)",
      ),
      args: { placeholder: "<file.book>", min: 1, max: 1, help: tr("the book", "帳簿") },
      flags: [
        {
          name: "scenario",
          value: "file.json",
          required: true,
          help: tr(
            "one scenario, or a list of them as chobo scenarios prints",
            "シナリオ一つか、chobo scenarios が出すシナリオの並び",
          ),
        },
        {
          name: "show",
          value: "target",
          choices: ["postgres", "tigerbeetle"],
          help: tr(
            'instead of the results, what each step sends to the target (tenant "")',
            '結果の代わりに、ステップごとに出力先へ送るもの(テナントは "")',
          ),
        },
        {
          name: "format",
          value: "format",
          choices: ["text", "json"],
          help: tr(
            "text for people (the default), json for programs",
            "text は人が読む形(既定)、json はプログラムが読む形",
          ),
        },
      ],
      exits: [
        { code: 0, meaning: tr("the scenarios ran", "シナリオを流した") },
        {
          code: 1,
          meaning: tr(
            "the book has errors, or a scenario does not fit the book",
            "帳簿にエラーがある、またはシナリオが帳簿に合わない",
          ),
        },
        { code: 2, meaning: tr("a usage error, or an internal error", "使い方の誤り、または内部の異常") },
      ],
      examples: ["chobo run tests/chobo/books/在庫.book --scenario tests/chobo/books/在庫.more.json"],
      run: ({ args, flags, io, lang }) =>
        run(args[0], flags.scenario, flags.format === "json", flags.show, io, lang),
    }),
    command({
      name: "scenarios",
      summary: tr(
        "generate scenarios from a book, each run on the reference interpreter and kept only when it reaches what its name says",
        "帳簿からシナリオを作る(どれも参照インタプリタで流し、名前のとおりになったものだけを残す)",
      ),
      args: { placeholder: "<file.book>", min: 1, max: 1, help: tr("the book", "帳簿") },
      flags: [
        {
          name: "out",
          value: "dir",
          help: tr(
            "write <dir>/<name>.scenarios.json instead of printing: the book's file name without .book (stock.ja.book → stock.ja.scenarios.json)",
            "出力せずに <dir>/<名前>.scenarios.json に書く。名前は帳簿のファイル名から .book を除いたもの(stock.ja.book → stock.ja.scenarios.json)",
          ),
        },
      ],
      exits: [
        { code: 0, meaning: tr("the scenarios were written", "シナリオを書いた") },
        {
          code: 1,
          meaning: tr(
            "the book has errors, or the file cannot be written",
            "帳簿にエラーがある、またはファイルを書けない",
          ),
        },
        { code: 2, meaning: tr("a usage error, or an internal error", "使い方の誤り、または内部の異常") },
      ],
      examples: [
        "chobo scenarios tests/chobo/books/在庫.book",
        "chobo scenarios examples/inventory/inventory.book --out /tmp/s",
      ],
      run: ({ args, flags, io, lang }) => scenarios(args[0], flags.out, io, lang),
    }),
    command({
      name: "build",
      summary: tr(
        "write a target's files: the PostgreSQL schema and functions, or a client of PostgreSQL or TigerBeetle",
        "出力先のファイルを書く(PostgreSQL のスキーマと関数、または PostgreSQL か TigerBeetle を呼ぶクライアント)",
      ),
      args: { placeholder: "<file.book>", min: 1, max: 1, help: tr("the book", "帳簿") },
      flags: [
        {
          name: "target",
          value: "target",
          required: true,
          choices: TARGET_NAMES,
          help: tr("what to write", "書くもの"),
        },
        {
          name: "out",
          value: "dir",
          help: tr(
            "the directory to write into (default: the current one)",
            "書き込むディレクトリ(既定は今のディレクトリ)",
          ),
        },
      ],
      exits: [
        {
          code: 0,
          meaning: tr(
            "the files were written; their paths are on stderr",
            "ファイルを書いた(パスを標準エラーに出す)",
          ),
        },
        {
          code: 1,
          meaning: tr(
            "the book has errors or the target cannot take it (E060, E061); nothing was written",
            "帳簿にエラーがある、または出力先が帳簿を受け取れない(E060、E061)。何も書いていない",
          ),
        },
        { code: 2, meaning: tr("a usage error, or an internal error", "使い方の誤り、または内部の異常") },
      ],
      examples: ["chobo build tests/chobo/books/在庫.book --target postgres --out /tmp/sql"],
      run: ({ args, flags, io, lang }) => buildCommand(args[0], flags.target, flags.out ?? ".", io, lang),
    }),
    command({
      name: "doc",
      summary: tr(
        "write the page accountants read: accounts, the flow between them, refusals, every scenario step by step",
        "経理や運用の人が読むページを書く(勘定、流れの図、拒否されうる理由、シナリオの一歩ずつ)",
      ),
      args: { placeholder: "<file.book>", min: 1, max: 1, help: tr("the book", "帳簿") },
      flags: [
        {
          name: "format",
          value: "format",
          choices: ["md", "html"],
          help: tr(
            "md: Markdown with Mermaid charts (the default); html: one self-contained page that steps through scenarios",
            "md: Mermaid の図を入れた Markdown(既定)。html: シナリオを一歩ずつ進められる、一つで完結したページ",
          ),
        },
        {
          name: "out",
          value: "dir",
          help: tr(
            "write <dir>/<name>.md (or .html) instead of printing: the book's file name without .book (refunds.ja.book → refunds.ja.md)",
            "出力せずに <dir>/<名前>.md(または .html)に書く。名前は帳簿のファイル名から .book を除いたもの(refunds.ja.book → refunds.ja.md)",
          ),
        },
        {
          name: "scenario",
          value: "file.json",
          help: tr(
            "hand-written scenarios to show before the generated ones (one, or a list as chobo run reads)",
            "生成したシナリオの前に見せる、手で書いたシナリオ(一つか、chobo run が読む並び)",
          ),
        },
      ],
      exits: [
        { code: 0, meaning: tr("the page was written", "ページを書いた") },
        {
          code: 1,
          meaning: tr(
            "the book has errors (it is not drawn), or the scenario file cannot be read or does not fit the book",
            "帳簿にエラーがある(描かない)、またはシナリオのファイルが読めないか帳簿に合わない",
          ),
        },
        { code: 2, meaning: tr("a usage error, or an internal error", "使い方の誤り、または内部の異常") },
      ],
      examples: [
        "chobo doc examples/refunds/refunds.book",
        "chobo doc examples/refunds/refunds.ja.book --lang ja --out /tmp/doc",
        "chobo doc examples/refunds/refunds.book --format html --scenario examples/refunds/refunds.more.json",
      ],
      run: ({ args, flags, io, lang }) =>
        doc(args[0], flags.format === "html", flags.out, flags.scenario, io, lang),
    }),
    command({
      name: "verify",
      summary: tr(
        "play every scenario of books on a real store (a disposable PostgreSQL server, PGlite, or a TigerBeetle replica) and compare each with the reference interpreter",
        "帳簿のシナリオをすべて本物の保存先(使い捨ての PostgreSQL サーバー、PGlite、TigerBeetle のレプリカ)で流し、参照インタプリタと比べる",
      ),
      args: {
        placeholder: "<file.book>",
        min: 1,
        max: null,
        help: tr(
          "the books; each one's <book>.more.json is played too, when there is one",
          "帳簿(<帳簿>.more.json があれば、それも流す)",
        ),
      },
      flags: [
        {
          name: "target",
          value: "target",
          choices: VERIFY_TARGETS,
          help: tr(
            "postgres (the default): a disposable server, or PGlite when this machine has no server binaries; pglite: PGlite in this process; tigerbeetle: a disposable replica of the binary CHOBO_TIGERBEETLE names",
            "postgres(既定): 使い捨てのサーバー(サーバーのプログラムが無ければ PGlite)。pglite: このプロセスの中の PGlite。tigerbeetle: CHOBO_TIGERBEETLE が指すプログラムの使い捨てレプリカ",
          ),
        },
      ],
      exits: [
        {
          code: 0,
          meaning: tr(
            "every scenario agrees with the interpreter",
            "どのシナリオも参照インタプリタと一致した",
          ),
        },
        {
          code: 1,
          meaning: tr(
            "a scenario disagrees (printed with its step and both answers), a book cannot be read or has errors, or the store cannot start",
            "一致しないシナリオがある(ステップと両方の答えを出す)、帳簿を読めないかエラーがある、または保存先が起動しない",
          ),
        },
        { code: 2, meaning: tr("a usage error, or an internal error", "使い方の誤り、または内部の異常") },
      ],
      examples: [
        "chobo verify examples/refunds/refunds.book",
        "chobo verify examples/inventory/inventory.book examples/points/points.book --target pglite",
      ],
      run: ({ args, flags, io, lang }) => verifyBooks(args, flags.target ?? "postgres", io, lang, STORES),
    }),
    command({
      name: "api",
      summary: tr(
        "print how to call a book as JSON: units, accounts, transfers with their refusals, id rules, hold state machines, and each target's names",
        "帳簿の呼び方を JSON で出す(単位、勘定、振替と拒否されうる理由、ID の決め方、仮押さえのステートマシン、出力先ごとの名前)",
      ),
      args: { placeholder: "<file.book>", min: 1, max: 1, help: tr("the book", "帳簿") },
      flags: [],
      exits: [
        { code: 0, meaning: tr("the JSON was printed", "JSON を出した") },
        { code: 1, meaning: tr("the book has errors", "帳簿にエラーがある") },
        { code: 2, meaning: tr("a usage error, or an internal error", "使い方の誤り、または内部の異常") },
      ],
      examples: ["chobo api tests/chobo/books/在庫.book"],
      run: ({ args, io, lang }) => api(args[0], io, lang),
    }),
    command({
      name: "explain",
      summary: tr(
        "explain a diagnostic code: when it fires, how to fix it, a book that reproduces it",
        "診断コードを説明する(いつ出るか、直し方、再現する帳簿)",
      ),
      args: {
        placeholder: "<code>",
        min: 0,
        max: 1,
        help: tr("a code such as E020 (or --all)", "E020 のようなコード(または --all)"),
      },
      flags: [
        { name: "all", value: null, help: tr("explain every code", "すべてのコードを説明する") },
        {
          name: "format",
          value: "format",
          choices: ["text", "markdown"],
          help: tr(
            "text (the default) or markdown (the page docs/codes.md)",
            "text(既定)か markdown(docs/codes.md のページ)",
          ),
        },
      ],
      exits: [
        { code: 0, meaning: tr("the code was explained", "説明した") },
        { code: 2, meaning: tr("no such code, or a usage error", "そのコードが無い、または使い方の誤り") },
      ],
      examples: ["chobo explain E020", "chobo explain --all --format markdown --lang ja"],
      run: ({ args, flags, io, lang }) => explain(args, flags.all, flags.format === "markdown", io, lang),
    }),
  ],
};

/** The book at the base revision to compare with, or undefined when there is none to compare. */
function baseBook(path: string, rev: string, io: Io, lang: Lang): Book | undefined | "error" {
  const base = readAtRevision(path, rev);
  if ("absent" in base) return undefined;
  if ("error" in base) {
    io.stderr(`chobo check: ${base.error[lang]}\n`);
    return "error";
  }
  const book = checkBook(`${path}@${rev}`, base.text).book;
  if (book === null) {
    io.stderr(
      `chobo check: ${
        tr(
          `${path} at ${rev} has errors, so there is nothing to compare with`,
          `${rev} の ${path} にエラーがあるので、比べられません`,
        )[lang]
      }\n`,
    );
    return undefined;
  }
  return book;
}

function check(
  paths: readonly string[],
  json: boolean,
  diffBase: string | undefined,
  io: Io,
  lang: Lang,
): number {
  let exit = 0;
  const files: Record<string, unknown>[] = [];
  for (const path of paths) {
    const input = readInput(io, path);
    if ("error" in input) {
      io.stderr(`chobo check: ${input.error[lang]}\n`);
      exit = 1;
      if (json) {
        files.push({ file: path, ok: false, error: input.error[lang], diagnostics: [], report: null });
      }
      continue;
    }
    const base = diffBase === undefined ? undefined : baseBook(path, diffBase, io, lang);
    if (base === "error") {
      exit = 1;
      continue;
    }
    const result = checkBookBytes(path, input.bytes, { base });
    const failed = hasErrors(result.diagnostics);
    if (failed) exit = 1;
    if (json) {
      const book = result.book;
      const report = book === null || result.report === null ? null : reportJson(book, result.report);
      files.push({
        file: path,
        ok: !failed,
        diagnostics: result.diagnostics.map((d) => diagnosticJson(d, lang)),
        report,
      });
      continue;
    }
    io.stdout(result.diagnostics.map((d) => renderDiagnostic(d, lang)).join(""));
    io.stdout(`${summaryLine(path, result.diagnostics.map((d) => d.severity), lang)}\n`);
    if (result.book !== null && result.report !== null) {
      io.stdout(reportText(result.book, result.report, lang));
    }
  }
  if (json) io.stdout(stringifyJson({ v: DIAGNOSTICS_JSON_VERSION, files }, 2) + "\n");
  return exit;
}

/**
 * `chobo check --watch`: the books checked, then again after each change to one of them, until
 * Ctrl-C ends the watch with exit 0 (whatever the last check found). Each check prints to stdout as
 * `chobo check` does (text, or one JSON document per check), and what happens between checks goes
 * to stderr, so stdout stays the checks' own output.
 */
async function watchCheck(
  paths: readonly string[],
  json: boolean,
  diffBase: string | undefined,
  io: Io,
  lang: Lang,
): Promise<number> {
  let watcher: Watcher;
  try {
    watcher = io.watch(paths);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    io.stderr(`chobo check: ${tr(`cannot watch the books: ${why}`, `帳簿を見張れません: ${why}`)[lang]}\n`);
    return 1;
  }
  try {
    check(paths, json, diffBase, io, lang);
    const n = new Set(paths).size;
    io.stderr(
      `chobo check: ${
        tr(
          `watching ${n} ${n === 1 ? "file" : "files"} for changes; Ctrl-C ends it`,
          `${n} 個のファイルの変更を見張ります。Ctrl-C で終わります`,
        )[lang]
      }\n`,
    );
    for (;;) {
      const seen = await watcher.next();
      if (seen.kind === "interrupted") break;
      const changed = seen.paths.join(", ");
      io.stderr(
        `\n── chobo check: ${
          tr(`${changed} changed; checking again`, `${changed} が変わったので検査し直します`)[lang]
        } ──\n`,
      );
      check(paths, json, diffBase, io, lang);
    }
  } finally {
    watcher.close();
  }
  io.stderr(`chobo check: ${tr("stopped watching", "見張りを終えました")[lang]}\n`);
  return 0;
}

function run(
  bookPath: string,
  scenarioPath: string,
  json: boolean,
  show: "postgres" | "tigerbeetle" | undefined,
  io: Io,
  lang: Lang,
): number {
  const book = loadBook(bookPath, "run", io, lang);
  if (book === null) return 1;
  const scenarios = scenarioFile(book, scenarioPath, "run", io, lang);
  if (scenarios === null) return 1;
  if (show !== undefined) {
    const [asJson, asText] = show === "postgres"
      ? [sentJson, sentText]
      : [sentTigerBeetleJson, sentTigerBeetleText];
    if (json) {
      io.stdout(stringifyJson({ file: bookPath, runs: scenarios.map((s) => asJson(book, s)) }, 2) + "\n");
    } else io.stdout(scenarios.map((s) => asText(bookPath, book, s, lang)).join("\n"));
    return 0;
  }
  // Each scenario runs when its turn to print comes, so only one scenario's outcomes are held at a
  // time; one that passes a limit of the run stops it there (docs/reference.md#limits).
  const runs = (function* (): Generator<ScenarioRun> {
    for (const s of scenarios) yield { s, branches: runScenario(book, s) };
  })();
  try {
    for (const part of json ? runsJsonParts(bookPath, runs) : runsTextParts(bookPath, book, runs, lang)) {
      io.stdout(part);
    }
  } catch (e) {
    if (!(e instanceof ScenarioError)) throw e;
    io.stderr(`chobo run: ${scenarioPath}: ${e.text[lang]}\n`);
    return 1;
  }
  return 0;
}

/** The scenarios of the file at `path` for `book`, or null (and why not, on stderr). */
function scenarioFile(book: Book, path: string, command: string, io: Io, lang: Lang): Scenario[] | null {
  const input = readInput(io, path);
  if ("error" in input) {
    io.stderr(`chobo ${command}: ${input.error[lang]}\n`);
    return null;
  }
  try {
    return readScenarios(book, input.bytes);
  } catch (e) {
    if (!(e instanceof ScenarioError)) throw e;
    io.stderr(`chobo ${command}: ${path}: ${e.text[lang]}\n`);
    return null;
  }
}

/** Where a book read from `path` came from, as a target's header and checks name it. */
function originOf(path: string, bytes: Uint8Array): Origin {
  const sha = createHash("sha256").update(bytes).digest("hex").slice(0, 16);
  const file = path.split("/").pop() ?? path;
  return { file, text: new TextDecoder().decode(bytes), sha, version: VERSION };
}

function buildCommand(bookPath: string, target: ChoboTargetName, out: string, io: Io, lang: Lang): number {
  const read = readBook(bookPath, "build", io, lang, true);
  if (read === null) return 1;
  const { bytes, book } = read;
  const result = buildTarget(targetNamed(target), book, originOf(bookPath, bytes));
  if ("diagnostics" in result) {
    io.stderr(result.diagnostics.map((d) => renderDiagnostic(d, lang)).join(""));
    io.stderr(`${summaryLine(bookPath, result.diagnostics.map((d) => d.severity), lang)}\n`);
    return 1;
  }
  const files = new Map(
    [...result.files].map(([name, content]) => [`${out.replace(/\/$/, "")}/${name}`, content]),
  );
  const failed = io.writeFiles(files);
  if (failed !== null) {
    io.stderr(`chobo build: ${failed[lang]}\n`);
    return 1;
  }
  for (const path of files.keys()) io.stderr(`${path}\n`);
  return 0;
}

function doc(
  bookPath: string,
  html: boolean,
  out: string | undefined,
  scenarioPath: string | undefined,
  io: Io,
  lang: Lang,
): number {
  const read = readBook(bookPath, "doc", io, lang, true);
  if (read === null) return 1;
  const handWritten = scenarioPath === undefined
    ? []
    : scenarioFile(read.book, scenarioPath, "doc", io, lang);
  if (handWritten === null) return 1;
  const page = buildPage(read.book, read.diagnostics, lang, handWritten, read.report);
  const text = html ? pageHtml(page) : pageMarkdown(page);
  if (out === undefined) {
    io.stdout(text);
    return 0;
  }
  const stem = (bookPath.split("/").pop() ?? bookPath).replace(/\.book$/, "");
  const target = `${out.replace(/\/$/, "")}/${stem}.${html ? "html" : "md"}`;
  const failed = writeFile(io, target, text);
  if (failed !== null) {
    io.stderr(`chobo doc: ${failed[lang]}\n`);
    return 1;
  }
  io.stderr(`${target}\n`);
  return 0;
}

function api(bookPath: string, io: Io, lang: Lang): number {
  const read = readBook(bookPath, "api", io, lang, true);
  if (read === null) return 1;
  const json = {
    ...apiJson(read.book, read.report),
    targets: targetsJson(read.book, originOf(bookPath, read.bytes)),
  };
  io.stdout(stringifyJson(json, 2) + "\n");
  return 0;
}

function scenarios(bookPath: string, out: string | undefined, io: Io, lang: Lang): number {
  const book = loadBook(bookPath, "scenarios", io, lang);
  if (book === null) return 1;
  const generated = generate(book);
  for (const note of [...generated.notes.map(scenarioNoteText), ...generatorLimits(generated.limits)]) {
    io.stderr(`chobo scenarios: ${note[lang]}\n`);
  }
  const text = stringifyJson(generated.scenarios.map(scenarioJson), 2) + "\n";
  if (out === undefined) {
    io.stdout(text);
    return 0;
  }
  const stem = (bookPath.split("/").pop() ?? bookPath).replace(/\.book$/, "");
  const target = `${out.replace(/\/$/, "")}/${stem}.scenarios.json`;
  const written = writeFile(io, target, text);
  if (written !== null) {
    io.stderr(`chobo scenarios: ${written[lang]}\n`);
    return 1;
  }
  io.stderr(`${target}\n`);
  return 0;
}

function explain(
  args: readonly string[],
  all: boolean,
  markdown: boolean,
  io: Io,
  lang: Lang,
): Outcome {
  if (all === (args.length === 1)) {
    return { usage: tr("give one code or --all", "コードを一つか --all を渡してください") };
  }
  if (all) {
    io.stdout(markdown ? explainAllMarkdown(lang) : explainAllText(lang));
    return 0;
  }
  const info = findCode(args[0]);
  if (info === undefined) {
    const first = CODES[0].code;
    const last = CODES[CODES.length - 1].code;
    return {
      usage: tr(
        `no code ${args[0]}; chobo explain --all lists ${first} … ${last}`,
        `${args[0]} というコードはありません。chobo explain --all が ${first} … ${last} を並べます`,
      ),
    };
  }
  io.stdout(explainText(info, lang));
  return 0;
}
