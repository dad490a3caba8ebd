/**
 * Diagnostics: what a checker says about a file, with the code, the place, the concrete input
 * that gets there, and a hint; rendered as text in either language or as JSON (`{"v": 2, …}`).
 * @module
 */

import { type Lang, type Text, tr } from "./text.ts";

/** How bad a diagnostic is: errors make the exit code 1, warnings leave it 0. */
export type Severity = "error" | "warning";

/** One diagnostic about one place of one file. */
export interface Diagnostic {
  readonly code: string;
  readonly severity: Severity;
  readonly file: string;
  /** 1-based line; 0 when the diagnostic is about the whole file. */
  readonly line: number;
  /** 1-based column counted in Unicode code points. */
  readonly col: number;
  readonly message: Text;
  readonly notes: readonly Text[];
  /** The source line quoted under the message, keys masked; `null` when nothing is quoted. */
  readonly excerpt: string | null;
  /** The operations that get there, one line each (chobo: calls on the reference interpreter). */
  readonly operations: readonly Text[];
  readonly hint: Text | null;
}

/** The version of the JSON shape of `check --format json`. */
export const DIAGNOSTICS_JSON_VERSION = 2;

const LABEL: Record<Severity, Text> = {
  error: tr("error", "エラー"),
  warning: tr("warning", "警告"),
};
const OPERATIONS_HEADER = tr("the operations that get there:", "そうなる例:");
const NOTE = tr("note", "注");
const HINT = tr("hint", "ヒント");

/**
 * The text form: the heading line, the numbered source line, notes, operations and the hint.
 *
 * @example
 * ```text
 * error[E020]: stock.book:6:1: stock is inside the book but has no bound
 *      6 | account stock(sku: string) : pcs
 *   hint: write `at least 0 refused as out_of_stock` under it, or mark it `outside`
 * ```
 */
export function renderDiagnostic(d: Diagnostic, lang: Lang): string {
  const lines = [`${LABEL[d.severity][lang]}[${d.code}]: ${where(d)}: ${d.message[lang]}`];
  if (d.excerpt !== null) lines.push(`${String(d.line).padStart(6)} | ${d.excerpt}`);
  for (const note of d.notes) lines.push(`  ${NOTE[lang]}: ${note[lang]}`);
  if (d.operations.length > 0) {
    lines.push(`  ${OPERATIONS_HEADER[lang]}`);
    for (const op of d.operations) lines.push(`    ${op[lang]}`);
  }
  if (d.hint !== null) lines.push(`  ${HINT[lang]}: ${d.hint[lang]}`);
  return lines.join("\n") + "\n";
}

function where(d: Diagnostic): string {
  return d.line === 0 ? d.file : `${d.file}:${d.line}:${d.col}`;
}

/** The JSON object of one diagnostic; keys are English whatever the language of the values. */
export function diagnosticJson(d: Diagnostic, lang: Lang): Record<string, unknown> {
  return {
    code: d.code,
    severity: d.severity,
    file: d.file,
    line: d.line,
    col: d.col,
    message: d.message[lang],
    notes: d.notes.map((n) => n[lang]),
    fix: null,
    excerpt: d.excerpt ?? "",
    operations: d.operations.map((o) => o[lang]),
    hint: d.hint === null ? null : d.hint[lang],
  };
}

/** True when any diagnostic is an error. */
export function hasErrors(ds: readonly Diagnostic[]): boolean {
  return ds.some((d) => d.severity === "error");
}

/** Diagnostics in the order a reader meets them: by line, then column, then code. */
export function sortDiagnostics(ds: readonly Diagnostic[]): Diagnostic[] {
  return [...ds].sort((a, b) => a.line - b.line || a.col - b.col || a.code.localeCompare(b.code));
}

/** The line after a file's diagnostics: `在庫.book: ok`, `order.book: ok (1 warning)`, `bad.book: 2 errors, 1 warning`. */
export function summaryLine(path: string, severities: readonly Severity[], lang: Lang): string {
  const errors = severities.filter((s) => s === "error").length;
  const warnings = severities.length - errors;
  const w = tr(`${warnings} warning${warnings === 1 ? "" : "s"}`, `警告 ${warnings} 件`)[lang];
  if (errors === 0) {
    return warnings === 0 ? `${path}: ok` : lang === "ja" ? `${path}: ok(${w})` : `${path}: ok (${w})`;
  }
  const e = tr(`${errors} error${errors === 1 ? "" : "s"}`, `エラー ${errors} 件`)[lang];
  return warnings === 0 ? `${path}: ${e}` : `${path}: ${e}${lang === "ja" ? "、" : ", "}${w}`;
}
