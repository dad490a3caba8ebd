/**
 * `chobo build`: a book → the files of one target, or the diagnostics that stop it (E061 for
 * PostgreSQL identifiers, E060 for TigerBeetle chains). A generator is a pure function: same book, same bytes.
 * @module
 */

import { Reporter } from "../../lang/common/reporter.ts";
import type { Diagnostic } from "../../lang/common/diagnostic.ts";
import { tr } from "../../lang/common/text.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { goClient, goNameProblems } from "./postgres/go.ts";
import { pythonClient } from "./postgres/python.ts";
import { clashingFunctions, identifiers, MAX_IDENTIFIER_BYTES, postgresSql } from "./postgres/sql.ts";
import { typescriptClient } from "./postgres/typescript.ts";
import { e060Diagnostics } from "./tigerbeetle/e060.ts";
import { tigerbeetleGoClient } from "./tigerbeetle/go.ts";
import { tigerbeetlePythonClient } from "./tigerbeetle/python.ts";
import { tigerbeetleTypescriptClient } from "./tigerbeetle/typescript.ts";

/** The targets `chobo build --target` knows. */
export const TARGETS = [
  "postgres",
  "postgres-typescript",
  "postgres-python",
  "postgres-go",
  "tigerbeetle-typescript",
  "tigerbeetle-python",
  "tigerbeetle-go",
] as const;
export type Target = typeof TARGETS[number];

/** What a build gives: files (path relative to the output directory → text), or why not. */
export type BuildResult = { readonly files: ReadonlyMap<string, string> } | {
  readonly diagnostics: readonly Diagnostic[];
};

/** Where the book came from, for the generated header. */
export interface Origin {
  readonly file: string;
  readonly text: string;
  /** The first 16 hex digits of the SHA-256 of the file. */
  readonly sha: string;
  readonly version: string;
}

/**
 * E061: a name PostgreSQL would cut silently to 63 bytes stops the build, and so do two functions
 * of one name.
 */
function longIdentifiers(book: Book, origin: Origin): Diagnostic[] {
  const r = new Reporter(origin.file, origin.text);
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
  for (const { id, first } of clashingFunctions(book)) {
    r.error(
      "E061",
      id,
      tr(
        `the PostgreSQL function ${id.name}, the ${id.fn!.en}, has the name of the ${first.en}`,
        `PostgreSQL の関数 ${id.name}(${id.fn!.ja})は、${first.ja} の関数と同じ名前です`,
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

/** Go identifiers: a name Go cannot spell stops a Go build the way E061 stops a long name. */
function goNames(book: Book, origin: Origin): Diagnostic[] {
  const problems = goNameProblems(book);
  if (problems.length === 0) return [];
  const r = new Reporter(origin.file, origin.text);
  r.error(
    "E061",
    { line: 1, col: 1 },
    tr(
      `names Go cannot spell as identifiers: ${problems.join(", ")}`,
      `Go の識別子に書けない名前があります: ${problems.join("、")}`,
    ),
    {
      quote: false,
      hint: tr(
        "rename them with letters, digits and _ (a combining mark or a letter number such as Ⅻ cannot be in a Go name)",
        "文字、数字、_ で名前を付け直してください(結合文字や Ⅻ のような数の文字は Go の名前に使えません)",
      ),
    },
  );
  return r.diagnostics;
}

/** Builds one target: the SQL, or a client that calls it. */
export function build(book: Book, target: Target, origin: Origin): BuildResult {
  if (target.startsWith("tigerbeetle")) {
    // E060 is the TigerBeetle targets' alone: PostgreSQL takes a transfer of any length.
    const long = e060Diagnostics(book, origin);
    if (long.length > 0) return { diagnostics: long };
    if (target === "tigerbeetle-go") {
      const problems = goNames(book, origin);
      return problems.length > 0 ? { diagnostics: problems } : { files: tigerbeetleGoClient(book, origin) };
    }
    return {
      files: target === "tigerbeetle-python"
        ? tigerbeetlePythonClient(book, origin)
        : tigerbeetleTypescriptClient(book, origin),
    };
  }
  const long = longIdentifiers(book, origin);
  if (long.length > 0) return { diagnostics: long };
  switch (target) {
    case "postgres":
      return {
        files: new Map([[`${book.name}.sql`, postgresSql(book, origin.file, origin.version, origin.sha)]]),
      };
    case "postgres-typescript":
      return { files: typescriptClient(book, origin) };
    case "postgres-python":
      return { files: pythonClient(book, origin) };
    default: {
      const problems = goNames(book, origin);
      return problems.length > 0 ? { diagnostics: problems } : { files: goClient(book, origin) };
    }
  }
}
