/**
 * What `dandori doc` does (docs/design/dandori.md#the-page): read a flow once, check it, and write its page as
 * Markdown or as one HTML file. A flow whose names and types resolve is drawn even when the checks
 * along it find errors: the diagnostics go to stderr and the exit code is 1, and the page shows
 * them, so the run an error is reached by can be read on the chart. A flow that holds a key
 * (W901) is not drawn (commands/keys.ts): the page would carry it. Nor is a flow past the page's
 * limits (lang/dandori/limits.ts): more statements than `MAX_PAGE_STATEMENTS`, or an exploration
 * of its scenarios past `MAX_SCENARIO_CHOICES` choices.
 * @module
 */

import { hasErrors, renderDiagnostic, summaryLine } from "../lang/common/diagnostic.ts";
import { type Lang, tr } from "../lang/common/text.ts";
import { checkFlowBytes } from "../lang/dandori/check.ts";
import { buildFlowPage, flowPageMarkdown } from "../lang/dandori/doc.ts";
import { statementsOf } from "../lang/dandori/doc_text.ts";
import { flowPageHtml } from "../lang/dandori/draw.ts";
import { MAX_PAGE_STATEMENTS } from "../lang/dandori/limits.ts";
import { lower } from "../lang/dandori/lower.ts";
import { generateFlowScenarios, tooLargeToExplore } from "../lang/dandori/scenarios.ts";
import { flowReader } from "./flow_files.ts";
import { type Io, readInput, writeFile } from "./io.ts";
import { refusedForKeys } from "./keys.ts";

/** `dandori doc`: the page on stdout, or in `<dir>/<flow file name without .flow>.md` (or `.html`). */
export function docCommand(path: string, html: boolean, out: string | undefined, io: Io, lang: Lang): number {
  const input = readInput(io, path);
  if ("error" in input) {
    io.stderr(`dandori doc: ${input.error[lang]}\n`);
    return 1;
  }
  const check = checkFlowBytes(path, input.bytes, { read: flowReader(io, path) });
  // A page that would carry a key is not drawn, whatever else the check found (`dandori check` says all).
  if (check.typedFlow !== null && refusedForKeys("dandori doc", path, check.diagnostics, io, lang)) return 1;
  const failed = hasErrors(check.diagnostics);
  const said = check.afterCheck === null ? check.diagnostics : [...check.diagnostics, check.afterCheck];
  if (hasErrors(said)) {
    io.stderr(said.map((d) => renderDiagnostic(d, lang)).join(""));
    io.stderr(`${summaryLine(path, said.map((d) => d.severity), lang)}\n`);
  }
  if (check.typedFlow === null) return check.unsupported || check.afterCheck !== null ? 2 : 1;
  const statements = statementsOf(lower(check.typedFlow)).length;
  if (statements > MAX_PAGE_STATEMENTS) {
    io.stderr(
      `dandori doc: ${
        tr(
          `${path}: the flow has ${statements} statements, more than the ${MAX_PAGE_STATEMENTS} a page draws (MAX_PAGE_STATEMENTS), so nothing was written; split it into child flows, each with its own page`,
          `${path}: フローの文が ${statements} 個あり、ページに描く上限の ${MAX_PAGE_STATEMENTS} 個(MAX_PAGE_STATEMENTS)を超えるので、何も書いていません。子のフローに分けてください。子はそれぞれのページに描きます`,
        )[lang]
      }\n`,
    );
    return 1;
  }
  // The scenarios first: a flow too large to explore is refused before anything is drawn.
  const generated = check.checked === null
    ? undefined
    : generateFlowScenarios(check.checked, lower(check.checked));
  if (generated?.tooLarge) {
    io.stderr(`dandori doc: ${tooLargeToExplore(path)[lang]}\n`);
    return 1;
  }
  const page = buildFlowPage(check, lang, generated?.scenarios);
  const text = html ? flowPageHtml(page) : flowPageMarkdown(page);
  const exit = failed ? 1 : 0;
  if (out === undefined) {
    io.stdout(text);
    return exit;
  }
  const stem = (path.split("/").pop() ?? path).replace(/\.flow$/, "");
  const target = `${out.replace(/\/$/, "")}/${stem}.${html ? "html" : "md"}`;
  const written = writeFile(io, target, text);
  if (written !== null) {
    io.stderr(`dandori doc: ${written[lang]}\n`);
    return 1;
  }
  io.stderr(`${target}\n`);
  return exit;
}
