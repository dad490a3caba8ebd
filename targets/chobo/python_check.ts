/**
 * The Python targets' own stop: a name Python would rewrite stops a Python build the way E061 stops a
 * long PostgreSQL name. Python rewrites a name that starts with `__` inside a class (`__x` is
 * `_Book__x` there), and the clients' transfers, accounts and parameters are members and keyword
 * arguments of classes, so a caller could never reach them by the book's name.
 * @module
 */

import type { Diagnostic } from "../../lang/common/diagnostic.ts";
import { tr } from "../../lang/common/text.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { clientNameDiagnostics, spelledMembers } from "./client_names_check.ts";
import type { Origin } from "./target.ts";

/** The names of a book Python would rewrite, as its clients spell them. */
export function pythonNameProblems(book: Book): string[] {
  return [...new Set(spelledMembers(book, "python").filter((s) => s.startsWith("__")))];
}

/** E061 for the names of a book Python would rewrite, as one diagnostic at the top of the book. */
export function pythonNameDiagnostics(book: Book, origin: Pick<Origin, "file" | "text">): Diagnostic[] {
  const problems = pythonNameProblems(book);
  return clientNameDiagnostics(
    origin,
    problems,
    tr(
      `names Python would rewrite inside a class: ${problems.join(", ")}`,
      `Python がクラスの中で書き換える名前があります: ${problems.join("、")}`,
    ),
    tr("rename them so that they do not start with __", "__ で始まらない名前に付け直してください"),
  );
}
