/**
 * What the clients' own name checks share: every member name a book's client spells in a language,
 * and the one E061 at the top of the book that lists the names the language cannot keep, the way E061
 * stops a long PostgreSQL name (`go_check.ts`, `python_check.ts`).
 * @module
 */

import type { Diagnostic } from "../../lang/common/diagnostic.ts";
import { Reporter } from "../../lang/common/reporter.ts";
import type { Text } from "../../lang/common/text.ts";
import type { ChoboCode } from "../../lang/chobo/codes.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { type ClientLang, members } from "./names.ts";
import type { Origin } from "./target.ts";

/** Every member name of a book's client in `lang`: transfers, accounts and their parameters. */
export function spelledMembers(book: Book, lang: ClientLang): readonly string[] {
  const n = members(book, lang);
  return [
    ...n.transfers.values(),
    ...n.accounts.values(),
    ...[...n.transferParams.values(), ...n.accountParams.values()].flatMap((m) => [...m.values()]),
  ];
}

/** E061 listing `problems` (`what` says them, `hint` how to mend them), or nothing when there are none. */
export function clientNameDiagnostics(
  origin: Pick<Origin, "file" | "text">,
  problems: readonly string[],
  what: Text,
  hint: Text,
): Diagnostic[] {
  if (problems.length === 0) return [];
  const r = new Reporter<ChoboCode>(origin.file, origin.text);
  r.error("E061", { line: 1, col: 1 }, what, { quote: false, hint });
  return r.diagnostics;
}
