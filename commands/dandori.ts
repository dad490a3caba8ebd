/**
 * dandori's commands: the table `--help` and parsing read (docs/design/dandori.md#commands),
 * and what each command does. `cli.ts` lists `DANDORI` beside chobo's table.
 * @module
 */

import { createRequire } from "node:module";
import { command, type Outcome, type ToolSpec } from "./table.ts";
import {
  diagnosticJson,
  DIAGNOSTICS_JSON_VERSION,
  hasErrors,
  renderDiagnostic,
  summaryLine,
} from "../lang/common/diagnostic.ts";
import { buildCommand, planCommand, runCommand, scenariosCommand } from "./dandori_run.ts";
import { flowReader } from "./flow_files.ts";
import { docCommand } from "./dandori_doc.ts";
import { DANDORI_TARGET_NAMES } from "../targets/dandori/targets.ts";
import { type Io, readInput } from "./io.ts";
import { stringifyJson } from "../lang/common/json.ts";
import { type Lang, tr } from "../lang/common/text.ts";
import { VERSION } from "../lang/common/version.ts";
import { checkFlowBytes } from "../lang/dandori/check.ts";
import { CODES } from "../lang/dandori/codes.ts";
import { VIEWS } from "../lang/dandori/views.ts";
import {
  explainAllJson,
  explainAllMarkdown,
  explainAllText,
  explainJson,
  explainText,
  findCode,
} from "../lang/dandori/explain.ts";
import { type Pb, useProtobufjs } from "../lang/dandori/proto.ts";

// protobufjs is required from node_modules only when a flow's `use proto` is first read, so a command
// that reads no `.proto` loads nothing and works where `deno install` has not run (lang/dandori/proto.ts).
useProtobufjs(() => createRequire(import.meta.url)("protobufjs") as Pb);

/** dandori's command table. */
export const DANDORI: ToolSpec = {
  name: "dandori",
  version: VERSION,
  summary: tr(
    "the workflow language: typed tasks, cases that follow state machines, checked before they run",
    "ワークフローの言語。型の付いたタスクと、ステートマシンに従う案件を、走らせる前に検査する",
  ),
  commands: [
    command({
      name: "check",
      summary: tr(
        "check flows: syntax, names, types, ranges, books, child flows, and what happens to every case",
        "フローを検査する(構文、名前、型、範囲、帳簿、子のフロー、案件のたどる状態)",
      ),
      args: {
        placeholder: "<file.flow>",
        min: 1,
        max: null,
        help: tr("the flows to check", "検査するフロー"),
      },
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
      ],
      exits: [
        {
          code: 0,
          meaning: tr("no error (warnings may be printed)", "エラーなし(警告は出ることがあります)"),
        },
        {
          code: 1,
          meaning: tr(
            "an error in a flow, or a file that cannot be read",
            "フローにエラーがある、または読めないファイルがある",
          ),
        },
        {
          code: 2,
          meaning: tr(
            "a flow uses what this dandori cannot read yet (E018: rules, date files, implemented services, decision models), a usage error, or an internal error",
            "この dandori でまだ読めないもの(規則、日付のファイル、実装するサービス、判断のモデル)を使うフローがある(E018)、使い方の誤り、または内部の異常",
          ),
        },
      ],
      examples: [
        "dandori check tests/dandori/flows/order_stock.flow",
        "dandori check tests/dandori/flows/在庫の引当.flow --lang ja --format json",
      ],
      run: ({ args, flags, io, lang }) => check(args, flags.format === "json", io, lang),
    }),
    command({
      name: "run",
      summary: tr(
        "run scenarios on the reference interpreter: each call as a platform sees it, its answer, the ending and the cases",
        "シナリオを参照インタプリタで流す(呼び出しのプラットフォームからの見え方と答え、終わり方、案件)",
      ),
      args: { placeholder: "<file.flow>", min: 1, max: 1, help: tr("the flow", "フロー") },
      flags: [
        {
          name: "scenario",
          value: "file.json",
          required: true,
          help: tr(
            "one scenario, or a list of them as dandori scenarios prints",
            "シナリオ一つか、dandori scenarios が出すシナリオの並び",
          ),
        },
        {
          name: "target",
          value: "view",
          choices: VIEWS,
          help: tr(
            "how each call is shown: transport (what dandori-written code sends, the default) or temporal",
            "呼び出しの見え方: transport(dandori が書くコードが送るもの。既定)か temporal",
          ),
        },
        {
          name: "books",
          value: "how",
          choices: ["computed"],
          help: tr(
            "computed: book tasks are answered by chobo's reference interpreter, from the scenario's books",
            "computed: 帳簿のタスクに、シナリオの books から chobo の参照インタプリタが答える",
          ),
        },
        {
          name: "children",
          value: "how",
          choices: ["run"],
          help: tr(
            "run: a `flow` task's child flow runs on the interpreter with the parent's arguments",
            "run: `flow` のタスクの子のフローを、親の引数でインタプリタが走らせる",
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
        {
          code: 0,
          meaning: tr("the scenarios ran, whatever their endings", "シナリオを流した(終わり方によらない)"),
        },
        {
          code: 1,
          meaning: tr(
            "the flow has errors, or a scenario does not fit the flow",
            "フローにエラーがある、またはシナリオがフローに合わない",
          ),
        },
        {
          code: 2,
          meaning: tr(
            "the flow uses what this dandori cannot read (E018), a usage error, or an internal error",
            "この dandori で読めないものを使うフロー(E018)、使い方の誤り、または内部の異常",
          ),
        },
      ],
      examples: ["dandori run examples/orders/orders.flow --scenario examples/orders/orders.runs.json"],
      run: ({ args, flags, io, lang }) =>
        runCommand(
          args[0],
          flags.scenario,
          {
            view: flags.target ?? "transport",
            json: flags.format === "json",
            books: flags.books ?? null,
            children: flags.children === "run",
          },
          io,
          lang,
        ),
    }),
    command({
      name: "scenarios",
      summary: tr(
        "generate scenarios from a flow: every result, error, timeout, failure, malformed answer and cancel its calls can get, each run on the reference interpreter",
        "フローからシナリオを作る(呼び出しが受け取りうる結果、エラー、タイムアウト、失敗、形の合わない答え、キャンセル。どれも参照インタプリタで流す)",
      ),
      args: { placeholder: "<file.flow>", min: 1, max: 1, help: tr("the flow", "フロー") },
      flags: [
        {
          name: "out",
          value: "dir",
          help: tr(
            "write <dir>/<flow file name without .flow>.scenarios.json instead of printing",
            "出力せずに <dir>/<.flow を除いたフローのファイル名>.scenarios.json に書く",
          ),
        },
      ],
      exits: [
        { code: 0, meaning: tr("the scenarios were written", "シナリオを書いた") },
        {
          code: 1,
          meaning: tr(
            "the flow has errors, is too large to explore whole (MAX_SCENARIO_CHOICES), or the file cannot be written; nothing was written",
            "フローにエラーがある、大きすぎて全体をたどれない(MAX_SCENARIO_CHOICES)、またはファイルを書けない。何も書いていない",
          ),
        },
        {
          code: 2,
          meaning: tr(
            "the flow uses what this dandori cannot read (E018), a usage error, or an internal error",
            "この dandori で読めないものを使うフロー(E018)、使い方の誤り、または内部の異常",
          ),
        },
      ],
      examples: [
        "dandori scenarios examples/orders/orders.flow",
        "dandori scenarios examples/orders/orders.flow --out /tmp/s",
      ],
      run: ({ args, flags, io, lang }) => scenariosCommand(args[0], flags.out, io, lang),
    }),
    command({
      name: "plan",
      summary: tr(
        "print the plan every target is built from: tasks, calls, retriers, keys, cases, statements and their graph",
        "どの出力先もそこから作る計画を出す(タスク、呼び出し、リトライ、キー、案件、文とそのグラフ)",
      ),
      args: { placeholder: "<file.flow>", min: 1, max: 1, help: tr("the flow", "フロー") },
      flags: [
        {
          name: "format",
          value: "format",
          choices: ["json", "text"],
          help: tr(
            "json for programs (the default, docs/formats.md), text for people",
            "json はプログラムが読む形(既定、docs/formats.md)、text は人が読む形",
          ),
        },
      ],
      exits: [
        { code: 0, meaning: tr("the plan was printed", "計画を出した") },
        { code: 1, meaning: tr("the flow has errors", "フローにエラーがある") },
        {
          code: 2,
          meaning: tr(
            "the flow uses what this dandori cannot read (E018), a usage error, or an internal error",
            "この dandori で読めないものを使うフロー(E018)、使い方の誤り、または内部の異常",
          ),
        },
      ],
      examples: ["dandori plan examples/orders/orders.flow --format text"],
      run: ({ args, flags, io, lang }) => planCommand(args[0], flags.format !== "text", io, lang),
    }),
    command({
      name: "build",
      summary: tr(
        "write a target's files: a workflow for a platform, built from the flow's plan",
        "出力先のファイルを書く(プラットフォームのワークフローを、フローの計画から作る)",
      ),
      args: { placeholder: "<file.flow>", min: 1, max: 1, help: tr("the flow", "フロー") },
      flags: [
        {
          name: "target",
          value: "target",
          required: true,
          choices: DANDORI_TARGET_NAMES,
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
        {
          name: "express",
          value: null,
          help: tr(
            "build for a Step Functions Express state machine, and say what it cannot run (E031)",
            "Step Functions の Express のステートマシン向けに組み、走らせられないものを言う(E031)",
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
            "the flow has errors or the platform cannot run it (E031, E040, E050); nothing was written",
            "フローにエラーがある、またはプラットフォームで走らせられない(E031、E040、E050)。何も書いていない",
          ),
        },
        {
          code: 2,
          meaning: tr(
            "the flow uses what this dandori cannot read (E018), a usage error, or an internal error",
            "この dandori で読めないものを使うフロー(E018)、使い方の誤り、または内部の異常",
          ),
        },
      ],
      examples: ["dandori build examples/orders/orders.flow --target <target> --out /tmp/orders"],
      run: ({ args, flags, io, lang }) =>
        buildCommand(
          args[0],
          flags.target,
          flags.out ?? ".",
          { express: flags.express, yaml: null },
          io,
          lang,
        ),
    }),
    command({
      name: "doc",
      summary: tr(
        "write the page the people who approve a flow read: its charts, every call and where its errors go, how it ends and the cases there, every scenario step by step",
        "フローを承認する人が読むページを書く(図、呼び出しとエラーの行き先、終わり方とそこでの案件、シナリオの一歩ずつ)",
      ),
      args: { placeholder: "<file.flow>", min: 1, max: 1, help: tr("the flow", "フロー") },
      flags: [
        {
          name: "format",
          value: "format",
          choices: ["md", "html"],
          help: tr(
            "md: Markdown with Mermaid charts (the default); html: one self-contained page that lights every scenario step by step",
            "md: Mermaid の図を入れた Markdown(既定)。html: シナリオを一歩ずつ光らせる、一つで完結したページ",
          ),
        },
        {
          name: "out",
          value: "dir",
          help: tr(
            "write <dir>/<flow file name without .flow>.md (or .html) instead of printing",
            "出力せずに <dir>/<.flow を除いたフローのファイル名>.md(または .html)に書く",
          ),
        },
      ],
      exits: [
        { code: 0, meaning: tr("the page was written", "ページを書いた") },
        {
          code: 1,
          meaning: tr(
            "the flow has errors (a flow whose names and types resolve is drawn all the same, its diagnostics on stderr), is too large for a page (MAX_PAGE_STATEMENTS, MAX_SCENARIO_CHOICES: nothing is written), or a file cannot be read or written",
            "フローにエラーがある(名前と型が解決したフローは描き、診断を標準エラーに出す)、ページには大きすぎる(MAX_PAGE_STATEMENTS、MAX_SCENARIO_CHOICES。何も書かない)、またはファイルを読めない・書けない",
          ),
        },
        {
          code: 2,
          meaning: tr(
            "the flow uses what this dandori cannot read (E018), a usage error, or an internal error",
            "この dandori で読めないものを使うフロー(E018)、使い方の誤り、または内部の異常",
          ),
        },
      ],
      examples: [
        "dandori doc examples/orders/orders.flow",
        "dandori doc examples/orders/orders.ja.flow --lang ja --format html --out /tmp/doc",
      ],
      run: ({ args, flags, io, lang }) => docCommand(args[0], flags.format === "html", flags.out, io, lang),
    }),
    command({
      name: "explain",
      summary: tr(
        "explain a diagnostic code: when it fires, how to fix it, a flow that reproduces it",
        "診断コードを説明する(いつ出るか、直し方、再現するフロー)",
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
          choices: ["text", "markdown", "json"],
          help: tr(
            "text (the default), markdown (the page docs/dandori-codes.md) or json",
            "text(既定)、markdown(docs/dandori-codes.md のページ)、json",
          ),
        },
      ],
      exits: [
        { code: 0, meaning: tr("the code was explained", "説明した") },
        { code: 2, meaning: tr("no such code, or a usage error", "そのコードが無い、または使い方の誤り") },
      ],
      examples: ["dandori explain E022", "dandori explain --all --format markdown --lang ja"],
      run: ({ args, flags, io, lang }) => explain(args, flags.all, flags.format ?? "text", io, lang),
    }),
  ],
};

function check(paths: readonly string[], json: boolean, io: Io, lang: Lang): number {
  let exit = 0;
  const files: Record<string, unknown>[] = [];
  for (const path of paths) {
    const input = readInput(io, path);
    if ("error" in input) {
      io.stderr(`dandori check: ${input.error[lang]}\n`);
      exit = Math.max(exit, 1);
      continue;
    }
    const result = checkFlowBytes(path, input.bytes, { read: flowReader(io, path) });
    const failed = hasErrors(result.diagnostics);
    if (result.unsupported) exit = 2;
    else if (failed) exit = Math.max(exit, 1);
    if (json) {
      files.push({
        file: path,
        ok: !failed,
        diagnostics: result.diagnostics.map((d) => diagnosticJson(d, lang)),
      });
      continue;
    }
    io.stdout(result.diagnostics.map((d) => renderDiagnostic(d, lang)).join(""));
    io.stdout(`${summaryLine(path, result.diagnostics.map((d) => d.severity), lang)}\n`);
  }
  if (json) io.stdout(stringifyJson({ v: DIAGNOSTICS_JSON_VERSION, files }, 2) + "\n");
  return exit;
}

function explain(
  args: readonly string[],
  all: boolean,
  format: "text" | "markdown" | "json",
  io: Io,
  lang: Lang,
): Outcome {
  if (all === (args.length === 1)) {
    return { usage: tr("give one code or --all", "コードを一つか --all を渡してください") };
  }
  if (all) {
    if (format === "json") io.stdout(stringifyJson(explainAllJson(lang), 2) + "\n");
    else io.stdout(format === "markdown" ? explainAllMarkdown(lang) : explainAllText(lang));
    return 0;
  }
  const info = findCode(args[0]);
  if (info === undefined) {
    const first = CODES[0].code;
    const last = CODES[CODES.length - 1].code;
    return {
      usage: tr(
        `no code ${args[0]}; dandori explain --all lists ${first} … ${last}`,
        `${args[0]} というコードはありません。dandori explain --all が ${first} … ${last} を並べます`,
      ),
    };
  }
  if (format === "json") io.stdout(stringifyJson(explainJson(info, lang), 2) + "\n");
  else if (format === "markdown") {
    return { usage: tr("--format markdown is for --all", "--format markdown は --all と使います") };
  } else io.stdout(explainText(info, lang));
  return 0;
}
