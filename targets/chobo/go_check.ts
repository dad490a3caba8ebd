/**
 * The Go targets' own stop: a book name Go cannot spell as an identifier stops a Go build the way
 * E061 stops a long PostgreSQL name.
 * @module
 */

import type { Diagnostic } from "../../lang/common/diagnostic.ts";
import { tr } from "../../lang/common/text.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { clientNameDiagnostics } from "./client_names_check.ts";
import { goNameProblems } from "./go_names.ts";
import type { Origin } from "./target.ts";

/** E061 for the names of a book Go cannot spell, as one diagnostic at the top of the book. */
export function goNameDiagnostics(book: Book, origin: Pick<Origin, "file" | "text">): Diagnostic[] {
  const problems = goNameProblems(book);
  return clientNameDiagnostics(
    origin,
    problems,
    tr(
      `names Go cannot spell as identifiers: ${problems.join(", ")}`,
      `Go の識別子に書けない名前があります: ${problems.join("、")}`,
    ),
    tr(
      "rename them with letters, digits and _ (a combining mark or a letter number such as Ⅻ cannot be in a Go name)",
      "文字、数字、_ で名前を付け直してください(結合文字や Ⅻ のような数の文字は Go の名前に使えません)",
    ),
  );
}
