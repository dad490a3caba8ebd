/**
 * `dandori explain`: a code's meaning, fix and reproducing flow (with the files it reads), as
 * text, as the Markdown of `docs/dandori-codes.md`, or as JSON.
 * @module
 */

import { type Lang, type Text, tr } from "../common/text.ts";
import { type CodeInfo, CODES, NOT_CHECKED } from "./codes.ts";

const SEVERITY = { error: tr("error", "エラー"), warning: tr("warning", "警告") };
const WHEN = tr("when", "いつ出るか");
const FIX = tr("fix", "直し方");
/** The command that reproduces a code: `dandori check`, or the build that reports it. */
export function reproduceCommand(c: CodeInfo): string {
  return c.build === undefined
    ? "dandori check example.flow"
    : ["dandori build example.flow --target", c.build.target, ...c.build.flags].join(" ");
}

function reproduce(c: CodeInfo): Text {
  const command = reproduceCommand(c);
  return tr(`reproduce with ${command}`, `${command} で再現します`);
}

function reproducePage(c: CodeInfo): Text {
  const command = reproduceCommand(c);
  return tr(`Reproduce with \`${command}\``, `\`${command}\` で再現します`);
}

/** The code's entry, accepting lower case (`e020`). */
export function findCode(code: string): CodeInfo | undefined {
  return CODES.find((c) => c.code === code.toUpperCase());
}

function indent(text: string, by: string): string[] {
  return text.trimEnd().split("\n").map((l) => l === "" ? "" : by + l);
}

/** One code as text: heading, when, fix, and the flow (and files) that reproduce it. */
export function explainText(c: CodeInfo, lang: Lang): string {
  const lines = [
    `${c.code} (${SEVERITY[c.severity][lang]}): ${c.title[lang]}`,
    `  ${WHEN[lang]}:`,
    ...indent(c.when[lang], "    "),
    `  ${FIX[lang]}:`,
    ...indent(c.fix[lang], "    "),
    `  ${reproduce(c)[lang]}:`,
    `    --- example.flow`,
    ...indent(c.example, "    "),
  ];
  for (const [path, text] of Object.entries(c.files)) lines.push(`    --- ${path}`, ...indent(text, "    "));
  return lines.join("\n") + "\n";
}

/** Every code as text, one after another. */
export function explainAllText(lang: Lang): string {
  return CODES.map((c) => explainText(c, lang)).join("\n");
}

/**
 * Every code as one Markdown page: a list of codes, a section per code, then the codes of the
 * design's table this checker does not emit. Lists rather than tables, so `deno fmt` leaves the
 * page as written.
 */
export function explainAllMarkdown(lang: Lang): string {
  const out = [
    tr("# dandori diagnostic codes", "# dandori の診断コード")[lang],
    "",
    tr(
      "Written by `dandori explain --all --format markdown`; every example is run by the tests and reports its code.",
      "`dandori explain --all --format markdown --lang ja` が書いたページです。どの例もテストが走らせ、そのコードが出ることを確かめています。",
    )[lang],
    "",
    ...CODES.map((c) =>
      `- [${c.code}](#${c.code.toLowerCase()}) (${SEVERITY[c.severity][lang]}): ${c.title[lang]}`
    ),
  ];
  for (const c of CODES) {
    out.push(
      "",
      `## ${c.code}`,
      "",
      `**${SEVERITY[c.severity][lang]}**: ${c.title[lang]}`,
      "",
      `${tr("When", "いつ出るか")[lang]}: ${c.when[lang]}`,
      "",
      `${tr("Fix", "直し方")[lang]}: ${c.fix[lang]}`,
      "",
      `${reproducePage(c)[lang]}:`,
      "",
      "```flow",
      c.example.trimEnd(),
      "```",
    );
    for (const [path, text] of Object.entries(c.files)) {
      out.push("", `\`${path}\`:`, "", "```", text.trimEnd(), "```");
    }
  }
  out.push(
    "",
    tr("## Codes of the design not checked here", "## ここで検査しない設計のコード")[lang],
    "",
    ...NOT_CHECKED.map((n) => `- ${n.code}: ${n.why[lang]}`),
  );
  return out.join("\n") + "\n";
}

/** One code as a JSON value, in the language asked for. */
export function explainJson(c: CodeInfo, lang: Lang): Record<string, unknown> {
  return {
    code: c.code,
    severity: c.severity,
    title: c.title[lang],
    when: c.when[lang],
    fix: c.fix[lang],
    example: c.example,
    files: c.files,
    reproduce: reproduceCommand(c),
  };
}

/** Every code as JSON, with the codes of the design's table not checked here. */
export function explainAllJson(lang: Lang): Record<string, unknown> {
  return {
    codes: CODES.map((c) => explainJson(c, lang)),
    not_checked: NOT_CHECKED.map((n) => ({ code: n.code, why: n.why[lang] })),
  };
}
