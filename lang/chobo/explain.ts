/**
 * `chobo explain`: a code's meaning, fix and reproducing book, as text or as the Markdown of
 * `docs/codes.md`.
 * @module
 */

import { type Lang, tr } from "../common/text.ts";
import { type CodeInfo, CODES, type Stage } from "./codes.ts";

const SEVERITY = { error: tr("error", "エラー"), warning: tr("warning", "警告") };
const WHEN = tr("when", "いつ出るか");
const FIX = tr("fix", "直し方");

/** The code's entry, accepting lower case (`e020`). */
export function findCode(code: string): CodeInfo | undefined {
  return CODES.find((c) => c.code === code.toUpperCase());
}

function command(stage: Stage): string {
  switch (stage.kind) {
    case "check":
      return "chobo check example.book";
    case "diff":
      return "chobo check example.book --diff-base <rev>";
    case "build":
      return `chobo build example.book --target ${stage.target}`;
  }
}

function exampleHeading(c: CodeInfo, lang: Lang): string {
  const heading = tr(`reproduce with ${command(c.stage)}`, `${command(c.stage)} で再現します`)[lang];
  return c.stage.kind === "diff"
    ? `${heading}${
      tr("; example.book at <rev> is the first book", "。<rev> の example.book は一つ目の帳簿です")[lang]
    }`
    : heading;
}

function indent(text: string, by: string): string[] {
  return text.trimEnd().split("\n").map((l) => l === "" ? "" : by + l);
}

/** One code as text: heading, when, fix, and the book that reproduces it. */
export function explainText(c: CodeInfo, lang: Lang): string {
  const lines = [
    `${c.code} (${SEVERITY[c.severity][lang]}): ${c.title[lang]}`,
    `  ${WHEN[lang]}:`,
    ...indent(c.when[lang], "    "),
    `  ${FIX[lang]}:`,
    ...indent(c.fix[lang], "    "),
    `  ${exampleHeading(c, lang)}:`,
  ];
  if (c.stage.kind === "diff") lines.push(...indent(c.stage.before, "    "), `    ---`);
  lines.push(...indent(c.example, "    "));
  return lines.join("\n") + "\n";
}

/** Every code as text, one after another. */
export function explainAllText(lang: Lang): string {
  return CODES.map((c) => explainText(c, lang)).join("\n");
}

/** Every code as one Markdown page: a table of codes, then a section per code. */
export function explainAllMarkdown(lang: Lang): string {
  const out = [
    tr("# chobo diagnostic codes", "# chobo の診断コード")[lang],
    "",
    tr(
      "Written by `chobo explain --all --format markdown`; every example is run by the tests and reports its code.",
      "`chobo explain --all --format markdown --lang ja` が書いたページです。どの例もテストが走らせ、そのコードが出ることを確かめています。",
    )[lang],
    "",
    `| ${tr("code", "コード")[lang]} | ${tr("severity", "重さ")[lang]} | ${
      tr("what it says", "言うこと")[lang]
    } |`,
    "|---|---|---|",
    ...CODES.map((c) =>
      `| [${c.code}](#${c.code.toLowerCase()}) | ${SEVERITY[c.severity][lang]} | ${c.title[lang]} |`
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
      `${exampleHeading(c, lang)}:`,
      "",
    );
    if (c.stage.kind === "diff") out.push("```book", c.stage.before.trimEnd(), "```", "");
    out.push("```book", c.example.trimEnd(), "```");
  }
  return out.join("\n") + "\n";
}
