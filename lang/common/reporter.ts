/**
 * Collects the diagnostics of one file, quoting its source line with every key masked.
 * @module
 */

import type { Diagnostic, Severity } from "./diagnostic.ts";
import { maskSecrets } from "./secrets.ts";
import type { Text } from "./text.ts";

/** What a diagnostic says beyond its code, place and message. */
export interface Extra {
  readonly hint?: Text;
  readonly notes?: readonly Text[];
  /** False for diagnostics about the whole file or whose line must not be quoted. */
  readonly quote?: boolean;
  /** The operations that get there, one line each. */
  readonly operations?: readonly Text[];
}

/** Collects diagnostics about one source file. */
export class Reporter {
  readonly diagnostics: Diagnostic[] = [];
  private readonly lines: readonly string[];

  constructor(readonly file: string, text: string) {
    this.lines = text.split("\n").map((l) => l.endsWith("\r") ? l.slice(0, -1) : l);
  }

  /** Adds a diagnostic at `line:col`, quoting that line unless told not to. */
  add(code: string, severity: Severity, line: number, col: number, message: Text, extra: Extra = {}): void {
    const quote = extra.quote ?? true;
    this.diagnostics.push({
      code,
      severity,
      file: this.file,
      line,
      col,
      message,
      notes: extra.notes ?? [],
      excerpt: quote && line > 0 ? maskSecrets(this.lines[line - 1] ?? "") : null,
      operations: extra.operations ?? [],
      hint: extra.hint ?? null,
    });
  }

  error(code: string, at: { line: number; col: number }, message: Text, extra?: Extra): void {
    this.add(code, "error", at.line, at.col, message, extra);
  }

  warning(code: string, at: { line: number; col: number }, message: Text, extra?: Extra): void {
    this.add(code, "warning", at.line, at.col, message, extra);
  }

  hasErrors(): boolean {
    return this.diagnostics.some((d) => d.severity === "error");
  }
}
