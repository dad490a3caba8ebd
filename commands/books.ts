/**
 * How a chobo command reads the book it works on: the file once, checked, or why not on stderr.
 * @module
 */

import { checkBookBytes } from "../lang/chobo/check.ts";
import type { Book } from "../lang/chobo/model.ts";
import { type Diagnostic, renderDiagnostic, summaryLine } from "../lang/common/diagnostic.ts";
import type { Lang } from "../lang/common/text.ts";
import { type Io, readInput } from "./io.ts";
import { refusedForKeys } from "./keys.ts";

/**
 * The bytes and checked book of `path`, read once, or null (and why not, on stderr). A command
 * that writes the book out (`writesOut`) refuses one that holds a key (commands/keys.ts).
 */
export function readBook(
  path: string,
  command: string,
  io: Io,
  lang: Lang,
  writesOut = false,
): { bytes: Uint8Array; book: Book; diagnostics: readonly Diagnostic[] } | null {
  const input = readInput(io, path);
  if ("error" in input) {
    io.stderr(`chobo ${command}: ${input.error[lang]}\n`);
    return null;
  }
  const result = checkBookBytes(path, input.bytes);
  if (result.book === null) {
    io.stderr(result.diagnostics.map((d) => renderDiagnostic(d, lang)).join(""));
    io.stderr(`${summaryLine(path, result.diagnostics.map((d) => d.severity), lang)}\n`);
    return null;
  }
  if (writesOut && refusedForKeys(`chobo ${command}`, path, result.diagnostics, io, lang)) return null;
  return { bytes: input.bytes, book: result.book, diagnostics: result.diagnostics };
}

/** The checked book of `path`, or null (and why not, on stderr). */
export function loadBook(path: string, command: string, io: Io, lang: Lang, writesOut = false): Book | null {
  return readBook(path, command, io, lang, writesOut)?.book ?? null;
}
