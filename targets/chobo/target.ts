/**
 * What a chobo target is: a record with its name, the check that may stop its build, and the
 * generator that writes its files. A generator is a pure function of the checked book and where
 * it came from: same book, same bytes.
 * @module
 */

import type { Diagnostic } from "../../lang/common/diagnostic.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { oneLine } from "../../lang/common/visible.ts";

/** Where the book came from, for the generated header and the diagnostics' excerpts. */
export interface Origin {
  /** The file name the header names (no directory). */
  readonly file: string;
  /** The text of the book, decoded from the same bytes `sha` is taken over. */
  readonly text: string;
  /** The first 16 hex digits of the SHA-256 of the file's bytes. */
  readonly sha: string;
  readonly version: string;
}

/** One target of `chobo build --target`. */
export interface ChoboTarget<N extends string = string> {
  readonly name: N;
  /** What stops this target's build (E060, E061): none when the book can be built. */
  check(book: Book, origin: Origin): readonly Diagnostic[];
  /** The files, by path relative to the output directory. */
  generate(book: Book, origin: Origin): ReadonlyMap<string, string>;
}

/** What a build gives: files (path relative to the output directory → text), or why not. */
export type BuildResult =
  | { readonly files: ReadonlyMap<string, string> }
  | { readonly diagnostics: readonly Diagnostic[] };

/** Builds one target: its check, then, when nothing stops it, its files. */
export function buildTarget(target: ChoboTarget, book: Book, origin: Origin): BuildResult {
  const stop = target.check(book, origin);
  return stop.length > 0 ? { diagnostics: stop } : { files: target.generate(book, origin) };
}

/**
 * The header's line that names the source, without its comment syntax: the file name is written on
 * one line, so a name with a line break in it cannot end the comment.
 */
export function sourceLine(book: Book, origin: Pick<Origin, "file" | "sha">): string {
  return `Source: ${oneLine(origin.file)} (book ${book.name} v${book.version}, sha256:${origin.sha})`;
}
