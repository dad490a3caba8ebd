/**
 * `chobo check` on one file: parse, resolve, then the checks that need the whole book, with the
 * stop rules of docs/design/chobo.md#the-checker — an unreadable line stops before names are resolved, a name
 * or type error stops before the behaviour checks; key-shaped values are looked for in any case.
 * @module
 */

import { type Diagnostic, sortDiagnostics } from "../common/diagnostic.ts";
import { decodeSource, Reporter, reportKeyShapedValues } from "../common/reporter.ts";
import { type Text, tr } from "../common/text.ts";
import type { ChoboCode } from "./codes.ts";
import type { Account, Book } from "./model.ts";
import { diffBooks } from "./diff.ts";
import { searchChecks } from "./lints.ts";
import { type OpRefusals, refusalsOf } from "./refusals.ts";
import { resolveBook } from "./resolve.ts";
import { type BookAst, parseBook } from "./syntax.ts";

/** What checking one file found: its diagnostics in reading order, and the book when it has no error. */
export interface CheckResult {
  readonly file: string;
  readonly diagnostics: readonly Diagnostic[];
  readonly book: Book | null;
  /**
   * What each operation may be refused with (docs/design/chobo.md#the-checker), when the book has no error.
   */
  readonly report: readonly OpRefusals[] | null;
}

/** The word for what chobo checks, in messages shared with dandori. */
const BOOK: Text = tr("book", "帳簿");

/** What a check compares with: the same book at a base revision (`--diff-base`). */
export interface CheckOptions {
  readonly base?: Book;
}

/**
 * Checks the text of one book. `file` is the name diagnostics show.
 *
 * @example
 * ```ts
 * const { book, diagnostics } = checkBook("stock.book", Deno.readTextFileSync("stock.book"));
 * ```
 */
export function checkBook(file: string, text: string, options: CheckOptions = {}): CheckResult {
  const r = new Reporter<ChoboCode>(file, text);
  const ast = parseBook(text, r);
  const book = r.hasErrors() ? null : resolveBook(ast, r);
  if (book !== null) {
    if (options.base !== undefined) diffBooks(options.base, book, r);
    unusedDeclarations(ast, book, r);
    idleBounds(book, r);
    if (!r.hasErrors()) searchChecks(book, r);
  }
  reportKeyShapedValues(text, r, BOOK);
  const ok = book !== null && !r.hasErrors();
  return {
    file,
    diagnostics: sortDiagnostics(r.diagnostics),
    book: ok ? book : null,
    report: ok ? refusalsOf(book) : null,
  };
}

/**
 * Checks a book given as bytes: text that is not UTF-8 is one E001 at its first bad byte.
 */
export function checkBookBytes(file: string, bytes: Uint8Array, options: CheckOptions = {}): CheckResult {
  const r = new Reporter<ChoboCode>(file, "");
  const text = decodeSource(bytes, r, BOOK);
  if (text !== null) return checkBook(file, text, options);
  return { file, diagnostics: r.diagnostics, book: null, report: null };
}

/** W105: units, accounts and transfer parameters that nothing uses. */
function unusedDeclarations(ast: BookAst, book: Book, r: Reporter<ChoboCode>): void {
  const usedUnits = new Set<string>();
  for (const a of book.accounts) usedUnits.add(a.unit.name);
  for (const t of book.transfers) {
    for (const p of t.params) if (p.type.kind === "amount") usedUnits.add(p.type.unit.name);
  }
  for (const u of ast.units) {
    if (!usedUnits.has(u.name.text)) {
      r.warning(
        "W105",
        u.name,
        tr(`the unit ${u.name.text} is not used`, `単位 ${u.name.text} はどこでも使われていません`),
        {
          hint: tr(
            "no account and no parameter has this unit; remove it",
            "この単位の勘定も引数もありません。消してください",
          ),
        },
      );
    }
  }
  const moved = movedAccounts(book);
  for (const a of ast.accounts) {
    if (!moved.has(a.name.text)) {
      r.warning(
        "W105",
        a.name,
        tr(`no transfer moves into or out of ${a.name.text}`, `${a.name.text} に出入りする振替がありません`),
        {
          hint: tr("write a transfer that uses it, or remove it", "使う振替を書くか、消してください"),
        },
      );
    }
  }
  for (const t of book.transfers) {
    const used = new Set<string>(t.key);
    for (const m of t.moves) {
      if (m.amount.kind === "param") used.add(m.amount.param);
      for (const arg of [...m.from.args, ...m.to.args]) used.add(arg);
    }
    for (const p of t.params) {
      if (!used.has(p.name)) {
        r.warning(
          "W105",
          p,
          tr(
            `the parameter ${p.name} of ${t.name} is not used`,
            `${t.name} の引数 ${p.name} はどこでも使われていません`,
          ),
          {
            hint: tr(
              "use it in the key, as an amount or to choose an account, or remove it",
              "キー、額、勘定を選ぶ引数のどれかに使うか、消してください",
            ),
          },
        );
      }
    }
  }
}

function movedAccounts(book: Book): Map<string, { into: boolean; outOf: boolean }> {
  const moved = new Map<string, { into: boolean; outOf: boolean }>();
  const entry = (a: Account) => {
    const found = moved.get(a.name);
    if (found !== undefined) return found;
    const fresh = { into: false, outOf: false };
    moved.set(a.name, fresh);
    return fresh;
  };
  for (const t of book.transfers) {
    for (const m of t.moves) {
      entry(m.from.account).outOf = true;
      entry(m.to.account).into = true;
    }
  }
  return moved;
}

/**
 * W106: a bound no move can meet — an upper bound on an account nothing moves into, a lower bound
 * on an account nothing takes from. Unused accounts (W105) and accounts that only ever fill (W101:
 * moves in, none out) are left to those codes, so each account gets one warning.
 */
function idleBounds(book: Book, r: Reporter<ChoboCode>): void {
  const moved = movedAccounts(book);
  for (const a of book.accounts) {
    const m = moved.get(a.name);
    if (m === undefined || (m.into && !m.outOf)) continue;
    if (a.upper !== null && !m.into) {
      r.warning(
        "W106",
        a.upper,
        tr(
          `the upper bound of ${a.name} never applies: no move puts into it`,
          `${a.name} の上限は効きません。${a.name} へ入れる移動がありません`,
        ),
        {
          hint: tr(
            "remove `at most`, or write the transfer that fills the account",
            "`at most` を消すか、この勘定へ入れる振替を書いてください",
          ),
        },
      );
    }
    if (a.lower !== null && !m.outOf) {
      r.warning(
        "W106",
        a.lower,
        tr(
          `the lower bound of ${a.name} never applies: no move takes from it`,
          `${a.name} の下限は効きません。${a.name} から取る移動がありません`,
        ),
        {
          hint: tr(
            "remove `at least`, or write the transfer that takes from the account",
            "`at least` を消すか、この勘定から取る振替を書いてください",
          ),
        },
      );
    }
  }
}
