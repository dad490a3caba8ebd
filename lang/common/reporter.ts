/**
 * Collects the diagnostics of one file, quoting its source line with every key masked.
 * @module
 */

import type { Diagnostic, Severity } from "./diagnostic.ts";
import { findSecrets, maskText, SECRET_KINDS } from "./secrets.ts";
import { type Text, tr } from "./text.ts";
import { decodeUtf8 } from "./utf8.ts";

/** What a diagnostic says beyond its code, place and message. */
export interface Extra {
  readonly hint?: Text;
  readonly notes?: readonly Text[];
  /** False for diagnostics about the whole file or whose line must not be quoted. */
  readonly quote?: boolean;
  /** The operations that get there, one line each. */
  readonly operations?: readonly Text[];
}

/** An `Extra` with `hint` when there is one: `{ ...hintOf(didYouMean(…)) }`. */
export function hintOf(hint: Text | null): Pick<Extra, "hint"> {
  return hint === null ? {} : { hint };
}

/**
 * Collects diagnostics about one source file. `C` is the set of codes it takes: a language's whole
 * registry where a check starts (`ChoboCode`, `DandoriCode`), or the few a stage emits where it is
 * passed on (`Reporter<"E001">` for a parser), so an unregistered code does not type-check. `C` is
 * contravariant (`in`): a `Reporter<ChoboCode>` is a `Reporter<"E001">` because chobo registers
 * E001; a reporter of a language that did not would not be. Without a `C` it takes no code
 * (`never`), rather than every string.
 *
 * @example
 * ```ts
 * const r = new Reporter<ChoboCode>("stock.book", text);
 * r.error("E020", { line: 6, col: 1 }, tr("stock has no bound", "stock に境界がありません"));
 * ```
 */
export class Reporter<in C extends string = never> {
  /** What was reported; `code` is a plain string here, where both languages' diagnostics meet. */
  readonly diagnostics: Diagnostic[] = [];
  /** The file's lines with every key masked (a PEM block whole), as excerpts quote them. */
  private readonly lines: readonly string[];
  /** The file's lines as written. */
  private readonly raw: readonly string[];

  constructor(readonly file: string, text: string) {
    const lines = (t: string) => t.split("\n").map((l) => l.endsWith("\r") ? l.slice(0, -1) : l);
    this.lines = lines(maskText(text));
    this.raw = lines(text);
  }

  /**
   * `text` with every word the mask took from line `line` masked too, so a message that quotes a
   * token of a key (a base64 line of a PEM block read as a declaration) does not show it. A word
   * counts from 8 characters, so a message's own short words are left alone.
   */
  private masked(text: Text, line: number): Text {
    const raw = this.raw[line - 1] ?? "";
    const shown = this.lines[line - 1] ?? "";
    if (raw === shown) return text;
    const hide = (s: string) =>
      s.replace(/[^\s"'`()]{8,}/g, (word) => raw.includes(word) && !shown.includes(word) ? "\u2026" : word);
    return { en: hide(text.en), ja: hide(text.ja) };
  }

  /** Adds a diagnostic at `line:col`, quoting that line unless told not to. */
  add(code: C, severity: Severity, line: number, col: number, message: Text, extra: Extra = {}): void {
    const quote = extra.quote ?? true;
    this.diagnostics.push({
      code,
      severity,
      file: this.file,
      line,
      col,
      message: this.masked(message, line),
      notes: (extra.notes ?? []).map((n) => this.masked(n, line)),
      excerpt: quote && line > 0 ? this.lines[line - 1] ?? "" : null,
      operations: extra.operations ?? [],
      hint: extra.hint === undefined ? null : this.masked(extra.hint, line),
    });
  }

  /** An error at `at`. */
  error(code: C, at: { line: number; col: number }, message: Text, extra?: Extra): void {
    this.add(code, "error", at.line, at.col, message, extra);
  }

  /** A warning at `at`. */
  warning(code: C, at: { line: number; col: number }, message: Text, extra?: Extra): void {
    this.add(code, "warning", at.line, at.col, message, extra);
  }

  hasErrors(): boolean {
    return this.diagnostics.some((d) => d.severity === "error");
  }
}

/**
 * Reads a source file's bytes as UTF-8; text that is not UTF-8 is one E001 at its first bad byte in
 * `r`, and null comes back. A BOM is kept, so the parser reports it.
 */
export function decodeSource(bytes: Uint8Array, r: Reporter<"E001">, what: Text): string | null {
  const text = decodeUtf8(bytes);
  if (typeof text === "string") return text;
  r.error(
    "E001",
    text,
    tr("the file is not UTF-8 text", "ファイルが UTF-8 のテキストではありません"),
    { quote: false, hint: tr(`save the ${what.en} as UTF-8`, `${what.ja}を UTF-8 で保存してください`) },
  );
  return null;
}

/** W901: every key-shaped value in the text of a `what` (book, flow); the value itself is never shown. */
export function reportKeyShapedValues(text: string, r: Reporter<"W901">, what: Text): void {
  for (const hit of findSecrets(text)) {
    const kind = SECRET_KINDS[hit.kind];
    r.warning(
      "W901",
      hit,
      tr(
        `a key-shaped value is written here: ${kind.en}, starting with ${hit.prefix}, ${hit.length} characters`,
        `鍵の形の値が書いてあります: ${kind.ja}、${hit.prefix} で始まる ${hit.length} 文字`,
      ),
      {
        quote: false,
        hint: tr(
          `keep keys out of the ${what.en} (an environment variable or a secret store); for a value made up for a test, write \`# ritsu: test secret\` on the same line`,
          `鍵は${what.ja}の外(環境変数やシークレットの置き場)に置いてください。テスト用に作った値なら、同じ行に \`# ritsu: test secret\` と書いてください`,
        ),
      },
    );
  }
}
