/**
 * Every word the playground's own panes show, in English and Japanese (the answers themselves are
 * the commands' texts). `tests/common/playground_test.ts` pins them in golden files.
 * @module
 */

import { type Text, tr } from "../common/text.ts";
import { MAX_PAGE_STATEMENTS } from "../dandori/limits.ts";

/** The labels, headings and sentences of the page, by key. */
export const WORDS = {
  title: tr("ritsu playground", "ritsu プレイグラウンド"),
  intro: tr(
    "Type a book (chobo) or a flow (dandori): it is checked, drawn and run in this page as you type, with the same answers as the command line. Nothing leaves the page.",
    "帳簿(chobo)かフロー(dandori)を書くと、書くそばからこのページの中で検査し、描き、流します。答えはコマンドラインと同じです。何もページの外には出ません。",
  ),
  preset: tr("Example", "例"),
  language: tr("Language", "言語"),
  source: tr("Source", "ソース"),
  diagnostics: tr("Diagnostics", "診断"),
  noDiagnostics: tr("No errors and no warnings.", "エラーも警告もありません。"),
  explain: tr("Explain", "説明"),
  line: tr("line", "行"),
  chart: tr("Chart", "図"),
  noChart: tr("Nothing is drawn while the file has errors.", "ファイルにエラーがある間は何も描きません。"),
  scenarios: tr("Scenarios", "シナリオ"),
  noScenarios: tr(
    "No scenarios while the file has errors.",
    "ファイルにエラーがある間はシナリオがありません。",
  ),
  scenario: tr("Scenario", "シナリオ"),
  scenariosJson: tr(
    "The scenarios as JSON (chobo/dandori scenarios)",
    "シナリオの JSON(chobo/dandori scenarios)",
  ),
  run: tr("Run", "実行"),
  noRun: tr("Choose a scenario to run it.", "シナリオを選ぶと流します。"),
  refusals: tr("What each operation may be refused with", "操作ごとの拒否されうる理由"),
  plan: tr("Plan", "計画"),
  notes: tr("Notes", "注"),
  checked: tr("Checked in", "検査にかかった時間:"),
  internal: tr(
    "internal error (please report it with the text that caused it)",
    "内部の異常(原因になった文といっしょに報告してください)",
  ),
  noscript: tr(
    "This page needs JavaScript: it runs the checker in the browser.",
    "このページには JavaScript が要ります。検査をブラウザの中で走らせます。",
  ),
} as const satisfies Record<string, Text>;

/** The key of a word. */
export type WordKey = keyof typeof WORDS;

/** Why the page of a file that checked is not drawn, as `doc` refuses it. */
export const NOT_DRAWN = {
  keys: tr(
    "The page is not drawn: the file holds a key-shaped value (W901), and the page would carry it; `doc` refuses it too.",
    "ページは描きません。ファイルに鍵の形の値があり(W901)、ページに載ってしまいます。`doc` も書きません。",
  ),
  statements: tr(
    `The page is not drawn: the flow has more than the ${MAX_PAGE_STATEMENTS} statements a page draws (MAX_PAGE_STATEMENTS); \`dandori doc\` refuses it too.`,
    `ページは描きません。フローの文が、ページに描く上限の ${MAX_PAGE_STATEMENTS} 個(MAX_PAGE_STATEMENTS)を超えています。\`dandori doc\` も書きません。`,
  ),
} as const;
