/**
 * The names a book's transfers, accounts and parameters take in each client language (seed chobo
 * 4.3): the same in both targets, so switching targets changes no caller's code.
 *
 * - A transfer named `balance` or `expire` gets `_2` (those members belong to the book value);
 *   a second name that would collide with one already given gets `_2` too (then `_3` …).
 * - Python adds `_` after a keyword.
 * - Go exports: an ASCII first letter is upper-cased (`sku` → `Sku`), anything else gets `X` in
 *   front (`引当` → `X引当`).
 * @module
 */

import type { Book } from "../../lang/chobo/model.ts";

/** The client languages. */
export type ClientLang = "typescript" | "python" | "go";

const PYTHON_KEYWORDS = new Set([
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
  "match",
  "case",
  "type",
  "self",
]);

/** One name in a language, before collisions are resolved. */
export function spell(name: string, lang: ClientLang): string {
  switch (lang) {
    case "typescript":
      return name;
    case "python":
      return PYTHON_KEYWORDS.has(name) ? `${name}_` : name;
    case "go":
      return /^[a-zA-Z]/.test(name) ? name[0].toUpperCase() + name.slice(1) : `X${name}`;
  }
}

function unique(names: readonly string[], lang: ClientLang, taken: readonly string[]): Map<string, string> {
  const used = new Set(taken.map((t) => spell(t, lang)));
  const out = new Map<string, string>();
  for (const n of names) {
    let candidate = spell(n, lang);
    for (let i = 2; used.has(candidate); i++) candidate = `${spell(n, lang)}_${i}`;
    used.add(candidate);
    out.set(n, candidate);
  }
  return out;
}

/** The members of a book value in one language. */
export interface Members {
  /** transfer name → member name (`book.<member>.hold(…)`). */
  readonly transfers: ReadonlyMap<string, string>;
  /** account name → member of `book.balance` (`book.balance.<member>(…)`). */
  readonly accounts: ReadonlyMap<string, string>;
  /** transfer name → parameter name → argument name (keyword, field). */
  readonly transferParams: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** account name → parameter name → argument name; apart, since a transfer may share an account's name. */
  readonly accountParams: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/** Every member name of a book in one language. */
export function members(book: Book, lang: ClientLang): Members {
  const transfers = unique(book.transfers.map((t) => t.name), lang, ["balance", "expire"]);
  const accounts = unique(book.accounts.map((a) => a.name), lang, []);
  const transferParams = new Map(
    book.transfers.map((t) => [t.name, unique(t.params.map((p) => p.name), lang, [])]),
  );
  const accountParams = new Map(book.accounts.map((a) => [a.name, unique(a.params, lang, [])]));
  return { transfers, accounts, transferParams, accountParams };
}
