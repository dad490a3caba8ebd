/**
 * The names a book's transfers, accounts and parameters take in each client language: the same in
 * both targets, so switching targets changes no caller's code (docs/targets.md, "Generated names").
 *
 * - A name made of ASCII words (`take_back`, `sku`, `orderId`: ASCII letters and digits, words
 *   joined by single `_`s) takes the language's convention: camelCase in TypeScript (`takeBack`),
 *   exported CamelCase in Go (`TakeBack`), and in Python the book's own spelling, since chobo's
 *   usual snake_case is Python's. A word's letters after its first are the book's: `order_id` is
 *   Go's `OrderId` (no table of initialisms to learn).
 * - Any other name (`引当`, `_tmp`, `a__b`) is kept as written. Go exports it: an ASCII first
 *   letter is upper-cased (`sku_在庫` → `Sku_在庫`), anything else gets `X` in front (`引当` → `X引当`).
 * - Python reads a name after NFKC (`ｃａｓｈ` is `cash`, `ﬁ` is `fi`), so its spelling is normalized,
 *   then gets `_` after a keyword; two names that normalize alike take `_2` as any other spellings do.
 * - A transfer whose spelling is that of `balance` or `expire` gets `_2` (those members belong
 *   to the book value); a name whose spelling an earlier name of its kind (in declared order)
 *   took gets `_2` too, then `_3` … (`take_back` then `takeBack`: `takeBack`, `takeBack_2`).
 * @module
 */

import type { Book } from "../../lang/chobo/model.ts";

/** The client languages. */
export type ClientLang = "typescript" | "python" | "go";

/**
 * Python's keywords and soft keywords (3.11–3.13); dandori's Python targets take them too
 * (`targets/dandori/python/names.ts`). chobo's clients also take `self`, every method's first parameter.
 */
export const PYTHON_KEYWORDS: ReadonlySet<string> = new Set([
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

/** Words of ASCII letters and digits joined by single `_`s; the first starts with a letter. */
const ASCII_WORDS = /^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*$/;

/** The words of a name made of ASCII words (`take_back` → `take`, `back`), or null for any other name. */
export function asciiWords(name: string): readonly string[] | null {
  return ASCII_WORDS.test(name) ? name.split("_") : null;
}

function upperFirst(word: string): string {
  return word[0].toUpperCase() + word.slice(1);
}

/** PascalCase of a name made of ASCII words (`take_back` → `TakeBack`); any other name as written. */
export function pascalCase(name: string): string {
  const words = asciiWords(name);
  return words === null ? name : words.map(upperFirst).join("");
}

/** camelCase of a name made of ASCII words (`take_back` → `takeBack`); any other name as written. */
export function camelCase(name: string): string {
  const words = asciiWords(name);
  return words === null ? name : words[0] + words.slice(1).map(upperFirst).join("");
}

/** One name in a language, before collisions are resolved. */
export function spell(name: string, lang: ClientLang): string {
  switch (lang) {
    case "typescript":
      return camelCase(name);
    case "python": {
      const read = name.normalize("NFKC");
      return PYTHON_KEYWORDS.has(read) ? `${read}_` : read;
    }
    case "go":
      if (asciiWords(name) !== null) return pascalCase(name);
      return /^[a-zA-Z]/.test(name) ? upperFirst(name) : `X${name}`;
  }
}

/**
 * Each name's spelling, in order; a spelling that `taken` or an earlier name has gets `_2`, then
 * `_3` …, so the first declared keeps its plain spelling.
 *
 * @example
 * ```ts
 * distinctSpellings(["take_back", "takeBack"], camelCase); // take_back → takeBack, takeBack → takeBack_2
 * ```
 */
export function distinctSpellings(
  names: readonly string[],
  spelling: (name: string) => string,
  taken: readonly string[] = [],
): Map<string, string> {
  const used = new Set(taken);
  const out = new Map<string, string>();
  for (const n of names) {
    const base = spelling(n);
    let candidate = base;
    for (let i = 2; used.has(candidate); i++) candidate = `${base}_${i}`;
    used.add(candidate);
    out.set(n, candidate);
  }
  return out;
}

function unique(names: readonly string[], lang: ClientLang, taken: readonly string[]): Map<string, string> {
  return distinctSpellings(names, (n) => spell(n, lang), taken.map((t) => spell(t, lang)));
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

/**
 * The members of every book value beside its transfers. TigerBeetle's clients have no `expire`, but
 * it is taken there too, so a caller names the transfers alike on both targets.
 */
export const BOOK_MEMBERS: readonly string[] = ["balance", "expire"];

/**
 * The member names of a book's transfers and of their parameters in one language, from the names
 * alone (the transfers in declared order, each with its parameters in theirs): what a caller of
 * the client that does not read the book itself (a dandori target's book Lambda) spells.
 */
export function transferMembers(
  transfers: readonly { readonly name: string; readonly params: readonly string[] }[],
  lang: ClientLang,
): Pick<Members, "transfers" | "transferParams"> {
  return {
    transfers: unique(transfers.map((t) => t.name), lang, BOOK_MEMBERS),
    transferParams: new Map(transfers.map((t) => [t.name, unique(t.params, lang, [])])),
  };
}

/** Every member name of a book in one language. */
export function members(book: Book, lang: ClientLang): Members {
  const { transfers, transferParams } = transferMembers(
    book.transfers.map((t) => ({ name: t.name, params: t.params.map((p) => p.name) })),
    lang,
  );
  const accounts = unique(book.accounts.map((a) => a.name), lang, []);
  const accountParams = new Map(book.accounts.map((a) => [a.name, unique(a.params, lang, [])]));
  return { transfers, accounts, transferParams, accountParams };
}
