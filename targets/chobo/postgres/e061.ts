/**
 * E061: a name PostgreSQL would cut silently to 63 bytes stops the build of every PostgreSQL
 * target (the clients call the functions by these names), and so do two functions of one name, a
 * schema name PostgreSQL refuses (`pg_…`) and a parameter named like the tenant's (`p_tenant`).
 * @module
 */

import type { Diagnostic } from "../../../lang/common/diagnostic.ts";
import { Reporter } from "../../../lang/common/reporter.ts";
import { tr } from "../../../lang/common/text.ts";
import type { ChoboCode } from "../../../lang/chobo/codes.ts";
import type { Book } from "../../../lang/chobo/model.ts";
import type { Origin } from "../target.ts";
import {
  clashingFunctions,
  identifiers,
  MAX_IDENTIFIER_BYTES,
  paramName,
  RESERVED_SCHEMA_PREFIX,
  TENANT_PARAM,
} from "./sql_names.ts";

/** Where the book's name is written: the name on its `book` line (the model keeps no place for it). */
function bookNamePlace(text: string): { line: number; col: number } {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => /^book\s/.test(l));
  if (at < 0) return { line: 1, col: 1 };
  return { line: at + 1, col: (lines[at].match(/^book\s+/)?.[0].length ?? 0) + 1 };
}

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
  if (book.name.startsWith(RESERVED_SCHEMA_PREFIX)) {
    r.error(
      "E061",
      bookNamePlace(origin.text),
      tr(
        `the PostgreSQL schema ${book.name} starts with ${RESERVED_SCHEMA_PREFIX}, which PostgreSQL keeps for its own schemas`,
        `PostgreSQL のスキーマ ${book.name} は ${RESERVED_SCHEMA_PREFIX} で始まります。この名前は PostgreSQL が自分のスキーマに取ってあります`,
      ),
      {
        hint: tr(
          `rename the book: PostgreSQL refuses to create a schema whose name starts with ${RESERVED_SCHEMA_PREFIX}`,
          `帳簿の名前を変えてください。PostgreSQL は ${RESERVED_SCHEMA_PREFIX} で始まる名前のスキーマを作りません`,
        ),
      },
    );
  }
  const params = [
    ...book.accounts.flatMap((a) => a.params.map((p) => ({ name: p, line: a.line, col: a.col }))),
    ...book.transfers.flatMap((t) => t.params.map((p) => ({ name: p.name, line: p.line, col: p.col }))),
  ];
  for (const p of params.filter((p) => paramName(p.name) === TENANT_PARAM)) {
    r.error(
      "E061",
      p,
      tr(
        `the parameter ${p.name} becomes the PostgreSQL parameter ${TENANT_PARAM}, which every function already takes for the tenant`,
        `引数 ${p.name} は PostgreSQL の引数 ${TENANT_PARAM} になりますが、どの関数もこの名前でテナントを受け取ります`,
      ),
      {
        hint: tr(
          "rename the parameter: one function cannot take two parameters of one name",
          "引数の名前を変えてください。一つの関数は同じ名前の引数を二つ受け取れません",
        ),
      },
    );
  }
  return r.diagnostics;
}
