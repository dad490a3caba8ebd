/**
 * What the playground (docs/playground.md) shows of one book or flow, computed as the command line
 * computes it and in the same bytes: `check --format json`, `scenarios`, `run` of those scenarios
 * (each scenario's text), the book's report or the flow's plan, and the page `doc --format html`
 * writes. Every text passes through what the commands print through (`maskText`, then `visible`), so
 * a key typed into the page is masked there as it is on a terminal. The files a flow names come
 * from `files`, by the path the flow's directory and its `use` make (`besidePath`).
 * @module
 */

import { checkBookBytes } from "../chobo/check.ts";
import { buildPage } from "../chobo/doc.ts";
import { pageHtml } from "../chobo/draw.ts";
import { explainText as choboExplain, findCode as choboCode } from "../chobo/explain.ts";
import { generatorLimits, reportJson, reportText, scenarioNoteText } from "../chobo/report.ts";
import { runText as choboRunText } from "../chobo/run.ts";
import { readScenarios, runScenario, scenarioJson } from "../chobo/scenario.ts";
import { generate } from "../chobo/scenarios.ts";
import type { Book } from "../chobo/model.ts";
import type { OpRefusals } from "../chobo/refusals.ts";
import {
  type Diagnostic,
  diagnosticJson,
  DIAGNOSTICS_JSON_VERSION,
  hasErrors,
  renderDiagnostic,
  summaryLine,
} from "../common/diagnostic.ts";
import { stringifyJson } from "../common/json.ts";
import { maskText } from "../common/secrets.ts";
import type { Lang, Text } from "../common/text.ts";
import { visible } from "../common/visible.ts";
import { checkFlowBytes } from "../dandori/check.ts";
import { buildFlowPage } from "../dandori/doc.ts";
import { statementsOf } from "../dandori/doc_text.ts";
import { flowPageHtml } from "../dandori/draw.ts";
import { type FlowCheck, NO_SUCH_FILE } from "../dandori/env.ts";
import { explainText as dandoriExplain, findCode as dandoriCode } from "../dandori/explain.ts";
import { MAX_PAGE_STATEMENTS } from "../dandori/limits.ts";
import { lower } from "../dandori/lower.ts";
import { maskedRun } from "../dandori/masked.ts";
import { planText } from "../dandori/plan_text.ts";
import { playScenario } from "../dandori/play.ts";
import { runText as flowRunText } from "../dandori/run.ts";
import { readFlowScenarios } from "../dandori/scenario.ts";
import { generatedJson, generateFlowScenarios, tooLargeToExplore } from "../dandori/scenarios.ts";
import { NOT_DRAWN } from "./words.ts";

/** The two languages a file of the playground is in, by its extension. */
export type Language = "chobo" | "dandori";

/** The language of a file by its name: `.book` is chobo, `.flow` dandori, anything else neither. */
export function languageOf(path: string): Language | null {
  return path.endsWith(".book") ? "chobo" : path.endsWith(".flow") ? "dandori" : null;
}

/** What the check of one file found: the diagnostics pane, shown first (a keystroke's answer). */
export interface Checked {
  readonly language: Language;
  /** The diagnostics, for the marks beside the lines and the list. */
  readonly diagnostics: readonly Diagnostic[];
  /** Each diagnostic as `check` prints it, in the order of `diagnostics`. */
  readonly rendered: readonly string[];
  /** `check`'s last line: how many errors and warnings. */
  readonly summary: string;
  /** What `check --format json` prints. */
  readonly checkJson: string;
  /** The rest of the answers, computed when asked (after the diagnostics are shown). */
  readonly explore: () => Explored;
}

/** What the other panes show of a file: its scenarios, their runs, its report or plan, its page. */
export interface Explored {
  /** What `scenarios` prints, or null when the file has errors (or a flow is too large to explore). */
  readonly scenariosJson: string | null;
  /** Each scenario's name, in the order of `runs`. */
  readonly scenarioNames: readonly string[];
  /** What `run --scenario` prints of each scenario of `scenariosJson` (`run` of them all joins them with an empty line). */
  readonly runs: readonly string[];
  /** A book's report (what each operation may be refused with) as `chobo check` prints it, or a flow's plan as `dandori plan` does. */
  readonly detail: string | null;
  /** The page `doc --format html` writes, or null when there is none (`notes` say why). */
  readonly page: string | null;
  /** What the commands say on stderr beside their output: limits reached, why no page was drawn. */
  readonly notes: readonly string[];
}

/** What the commands print goes through this (commands/io.ts `shownIo`). */
function shown(text: string): string {
  return visible(maskText(text));
}

/** Everything the panes show of one file. */
export type Answers = Omit<Checked, "explore"> & Explored;

/** Every answer for the file at `path` at once, as `check` then `explore` give them. */
export function answer(files: ReadonlyMap<string, string>, path: string, lang: Lang): Answers {
  const { explore, ...checked } = check(files, path, lang);
  return { ...checked, ...explore() };
}

/** The check of the file at `path` whose text is `files.get(path)`; the other files are what it may name. */
export function check(files: ReadonlyMap<string, string>, path: string, lang: Lang): Checked {
  const language = languageOf(path);
  const text = files.get(path);
  if (language === null || text === undefined) throw new Error(`no book or flow at ${path}`);
  const bytes = new TextEncoder().encode(text);
  return language === "chobo" ? checkBook(path, bytes, lang) : checkFlow(files, path, bytes, lang);
}

function diagnosticsOf(path: string, diagnostics: readonly Diagnostic[], lang: Lang) {
  return {
    diagnostics,
    rendered: diagnostics.map((d) => shown(renderDiagnostic(d, lang))),
    summary: shown(`${summaryLine(path, diagnostics.map((d) => d.severity), lang)}\n`),
  };
}

function checkJsonOf(file: Record<string, unknown>): string {
  return shown(stringifyJson({ v: DIAGNOSTICS_JSON_VERSION, files: [file] }, 2) + "\n");
}

function keysRefused(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.code === "W901");
}

const NOTHING: Explored = {
  scenariosJson: null,
  scenarioNames: [],
  runs: [],
  detail: null,
  page: null,
  notes: [],
};

function checkBook(path: string, bytes: Uint8Array, lang: Lang): Checked {
  const result = checkBookBytes(path, bytes);
  const book = result.book;
  const report = book === null || result.report === null ? null : result.report;
  const checkJson = checkJsonOf({
    file: path,
    ok: !hasErrors(result.diagnostics),
    diagnostics: result.diagnostics.map((d) => diagnosticJson(d, lang)),
    report: book === null || report === null ? null : reportJson(book, report),
  });
  const base = { language: "chobo" as const, ...diagnosticsOf(path, result.diagnostics, lang), checkJson };
  if (book === null || report === null) return { ...base, explore: () => NOTHING };
  return { ...base, explore: () => exploreBook(path, book, report, result.diagnostics, lang) };
}

function exploreBook(
  path: string,
  book: Book,
  report: readonly OpRefusals[],
  diagnostics: readonly Diagnostic[],
  lang: Lang,
): Explored {
  const generated = generate(book);
  const notes: Text[] = [...generated.notes.map(scenarioNoteText), ...generatorLimits(generated.limits)];
  const scenariosJson = stringifyJson(generated.scenarios.map(scenarioJson), 2) + "\n";
  // Run as `chobo run` runs the file `chobo scenarios` wrote: read back from its text.
  const scenarios = readScenarios(book, scenariosJson);
  const refused = keysRefused(diagnostics);
  return {
    scenariosJson: shown(scenariosJson),
    scenarioNames: scenarios.map((s) => shown(s.name)),
    runs: scenarios.map((s) => shown(choboRunText(path, book, s, runScenario(book, s), lang))),
    detail: shown(reportText(book, report, lang)),
    page: refused ? null : pageHtml(buildPage(book, diagnostics, lang, [], report)),
    notes: [...notes, ...(refused ? [NOT_DRAWN.keys] : [])].map((t) => shown(t[lang])),
  };
}

function checkFlow(
  files: ReadonlyMap<string, string>,
  path: string,
  bytes: Uint8Array,
  lang: Lang,
): Checked {
  const encoder = new TextEncoder();
  const flow = checkFlowBytes(path, bytes, {
    read: (p) => {
      const named = files.get(p);
      return named === undefined ? NO_SUCH_FILE : { bytes: encoder.encode(named), real: p };
    },
  });
  const checkJson = checkJsonOf({
    file: path,
    ok: !hasErrors(flow.diagnostics),
    diagnostics: flow.diagnostics.map((d) => diagnosticJson(d, lang)),
  });
  const base = { language: "dandori" as const, ...diagnosticsOf(path, flow.diagnostics, lang), checkJson };
  return { ...base, explore: () => exploreFlow(path, flow, lang) };
}

function exploreFlow(path: string, check: FlowCheck, lang: Lang): Explored {
  const notes: Text[] = [];
  let scenariosJson: string | null = null;
  let names: string[] = [];
  let runs: string[] = [];
  let detail: string | null = null;
  let generated: ReturnType<typeof generateFlowScenarios> | undefined;
  if (check.afterCheck !== null) notes.push(check.afterCheck.message);
  if (check.checked !== null) {
    const checked = check.checked;
    const plan = lower(checked);
    detail = shown(planText(plan, lang));
    generated = generateFlowScenarios(checked, plan);
    if (generated.tooLarge) notes.push(tooLargeToExplore(path));
    else {
      const written = stringifyJson(generated.scenarios.map(generatedJson), 2) + "\n";
      scenariosJson = shown(written);
      // Run as `dandori run` runs the file `dandori scenarios` wrote: read back from its text.
      const scenarios = readFlowScenarios(checked, written);
      names = scenarios.map((s, i) => shown(s.name ?? String(i + 1)));
      runs = scenarios.map((s, i) => {
        const masked = maskedRun(
          checked,
          s,
          playScenario(checked, s, i + 1, { books: null, children: false }),
        );
        return shown(flowRunText(path, plan, "transport", masked.scenario, masked.run, lang));
      });
    }
  }
  let page: string | null = null;
  if (check.typedFlow !== null && !generated?.tooLarge) {
    if (keysRefused(check.diagnostics)) notes.push(NOT_DRAWN.keys);
    else if (statementsOf(lower(check.typedFlow)).length > MAX_PAGE_STATEMENTS) {
      notes.push(NOT_DRAWN.statements);
    } else page = flowPageHtml(buildFlowPage(check, lang, generated?.scenarios));
  }
  return {
    scenariosJson,
    scenarioNames: names,
    runs,
    detail,
    page,
    notes: notes.map((t) => shown(t[lang])),
  };
}

/** `explain <code>` of the file's language as text, or null for a code it does not have. */
export function explainCode(language: Language, code: string, lang: Lang): string | null {
  if (language === "chobo") {
    const info = choboCode(code);
    return info === undefined ? null : choboExplain(info, lang);
  }
  const info = dandoriCode(code);
  return info === undefined ? null : dandoriExplain(info, lang);
}
