/**
 * E061: a name PostgreSQL would cut silently to 63 bytes stops the build of every PostgreSQL
 * target (the clients call the functions by these names), and so do two functions of one name.
 * @module
 */

import type { Diagnostic } from "../../../lang/common/diagnostic.ts";
import { Reporter } from "../../../lang/common/reporter.ts";
import { tr } from "../../../lang/common/text.ts";
import type { ChoboCode } from "../../../lang/chobo/codes.ts";
import type { Book } from "../../../lang/chobo/model.ts";
import type { Origin } from "../target.ts";
import { clashingFunctions, identifiers, MAX_IDENTIFIER_BYTES } from "./sql_names.ts";

/** The E061 diagnostics of a book, for a build of a PostgreSQL target. */
export function e061Diagnostics(book: Book, origin: Pick<Origin, "file" | "text">): Diagnostic[] {
  const r = new Reporter<ChoboCode>(origin.file, origin.text);
  const seen = new Set<string>();
  for (const id of identifiers(book)) {
    const bytes = new TextEncoder().encode(id.name).length;
    if (bytes <= MAX_IDENTIFIER_BYTES || seen.has(id.name)) continue;
    seen.add(id.name);
    r.error(
      "E061",
      id,
      tr(
        `the PostgreSQL name ${id.name} is ${bytes} bytes, longer than the ${MAX_IDENTIFIER_BYTES} PostgreSQL keeps`,
        `PostgreSQL の名前 ${id.name} は ${bytes} バイトで、PostgreSQL が持てる ${MAX_IDENTIFIER_BYTES} バイトを超えます`,
      ),
      {
        hint: tr(
          "shorten the name (a Japanese character is 3 bytes, so 21 of them fit); PostgreSQL would cut it silently",
          "名前を短くしてください(日本語は一字 3 バイトなので 21 字まで)。PostgreSQL は黙って切り詰めます",
        ),
      },
    );
  }
  for (const { id, fn, first } of clashingFunctions(book)) {
    r.error(
      "E061",
      id,
      tr(
        `the PostgreSQL function ${id.name}, the ${fn.en}, has the name of the ${first.en}`,
        `PostgreSQL の関数 ${id.name}(${fn.ja})は、${first.ja} の関数と同じ名前です`,
      ),
      {
        hint: tr(
          "rename the transfer or the account: one schema cannot hold two functions of one name",
          "振替か勘定の名前を変えてください。一つのスキーマに同じ名前の関数は二つ置けません",
        ),
      },
    );
  }
  return r.diagnostics;
}
