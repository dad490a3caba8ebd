/**
 * chobo's lexer and parser: `.book` text → syntax tree (docs/reference.md#lines,
 * docs/design/chobo.md#names-and-keywords).
 *
 * A book is read line by line. Indentation makes blocks: declarations start at column 1, their
 * items (`description`, `at least`, `key`, `move` …) are indented under them. Every line that
 * cannot be read gives E001 and the parser goes on with the next line, so one run reports every
 * unreadable line; the checker stops after this stage when any was found (docs/design/chobo.md#the-checker).
 * @module
 */

import { unreachable } from "../common/assert.ts";
import { didYouMean } from "../common/nearest.ts";
import type { Reporter } from "../common/reporter.ts";
import { type Text, tr } from "../common/text.ts";
import { isCombining } from "../common/width.ts";

/**
 * The keyword table (docs/reference.md#keywords), in its order. Words of the first three rows cannot be names
 * (`at least` reserves `at` and `least`); time words are keywords only after `expires after <n>`.
 */
export const KEYWORDS: readonly { readonly position: string; readonly words: readonly string[] }[] = [
  {
    position: "line",
    words: ["book", "description", "unit", "account", "transfer", "key", "pending", "move"],
  },
  {
    position: "modifier",
    words: [
      "scale",
      "incl_tax",
      "excl_tax",
      "outside",
      "at least",
      "at most",
      "refused as",
      "expires after",
      "never expires",
      "from",
      "to",
    ],
  },
  { position: "type", words: ["string"] },
  { position: "time", words: ["second", "seconds", "minute", "minutes", "hour", "hours", "day", "days"] },
];

/** Words that cannot be names: every single word of the line, modifier and type rows. */
export const RESERVED: ReadonlySet<string> = new Set(
  KEYWORDS.filter((row) => row.position !== "time").flatMap((row) => row.words.flatMap((w) => w.split(" "))),
);

/** Seconds per time word (`pending expires after <n> seconds|minutes|hours|days`). */
export const TIME_WORDS: ReadonlyMap<string, bigint> = new Map([
  ["second", 1n],
  ["seconds", 1n],
  ["minute", 60n],
  ["minutes", 60n],
  ["hour", 3600n],
  ["hours", 3600n],
  ["day", 86400n],
  ["days", 86400n],
]);

/** A word of the source with its place. */
export interface Word {
  readonly text: string;
  readonly line: number;
  readonly col: number;
}

/** `book <name> v<n>` */
export interface HeaderAst {
  readonly name: Word;
  readonly version: number;
  readonly line: number;
}

/** A `description "…"` line. */
export interface DescriptionAst {
  readonly text: string;
  readonly line: number;
  readonly col: number;
}

/** `unit <name> [scale <n>] [incl_tax|excl_tax]` */
export interface UnitAst {
  readonly name: Word;
  readonly scale: Word | null;
  readonly tax: Word | null;
  readonly line: number;
}

/** `<name>: <type>` in a declaration's parentheses. */
export interface ParamAst {
  readonly name: Word;
  readonly type: Word;
}

/** `at least <n> refused as <reason>` or `at most …`; `reason` is null when `refused as` is missing. */
export interface BoundAst {
  readonly kind: "lower" | "upper";
  readonly value: Word;
  readonly reason: Word | null;
  readonly line: number;
  readonly col: number;
}

/** An account declaration and its items. */
export interface AccountAst {
  readonly name: Word;
  readonly params: readonly ParamAst[];
  readonly unit: Word;
  readonly outside: boolean;
  readonly descriptions: DescriptionAst[];
  readonly bounds: BoundAst[];
  readonly line: number;
}

/** `key a, b` */
export interface KeyAst {
  readonly names: readonly Word[];
  readonly line: number;
  readonly col: number;
}

/** How a hold ends: `never expires`, `expires after <n> <word>`, or missing (E040). */
export type PendingEnd =
  | { readonly kind: "never" }
  | { readonly kind: "after"; readonly amount: Word; readonly word: Word }
  | { readonly kind: "missing" };

/** A `pending …` line. */
export interface PendingAst {
  readonly end: PendingEnd;
  readonly line: number;
  readonly col: number;
}

/** `stock(sku)` in a move. */
export interface AccountRefAst {
  readonly name: Word;
  readonly args: readonly Word[];
}

/** `move <amount> from <account> to <account>`; the amount is a name or a number literal. */
export interface MoveAst {
  readonly amount: { readonly kind: "name" | "number"; readonly word: Word };
  readonly from: AccountRefAst;
  readonly to: AccountRefAst;
  readonly line: number;
  readonly col: number;
}

/** A transfer declaration and its items. */
export interface TransferAst {
  readonly name: Word;
  readonly params: readonly ParamAst[];
  readonly descriptions: DescriptionAst[];
  readonly keys: KeyAst[];
  readonly pendings: PendingAst[];
  readonly moves: MoveAst[];
  readonly line: number;
}

/** The syntax tree of one book, declarations in written order. */
export interface BookAst {
  readonly headers: HeaderAst[];
  readonly descriptions: DescriptionAst[];
  readonly units: UnitAst[];
  readonly accounts: AccountAst[];
  readonly transfers: TransferAst[];
}

/** `digits` is a word that starts like a number and goes on with letters (`30x`): no number, no name. */
type TokenKind = "name" | "number" | "string" | "punct" | "digits";

interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly col: number;
}

class LineError {
  constructor(readonly col: number, readonly message: Text, readonly hint: Text | null = null) {}
}

const NAME_START = /[\p{L}\p{Nl}_]/u;
const NAME_PART = /[\p{L}\p{Nl}\p{Nd}\p{M}_]/u;
const DIGIT = /[0-9]/;

/** Reads one line (without its indentation) into tokens; comments are dropped. */
function tokenize(chars: readonly string[], start: number): Token[] {
  const tokens: Token[] = [];
  let i = start;
  while (i < chars.length) {
    const ch = chars[i];
    const col = i + 1;
    if (ch === " ") {
      i++;
    } else if (ch === "#") {
      break;
    } else if (ch === "\t") {
      throw new LineError(
        col,
        tr(
          "a tab; chobo indents and separates with spaces",
          "タブがあります。字下げと区切りは空白で書きます",
        ),
        tr("replace the tab with spaces", "タブを空白に置き換えてください"),
      );
    } else if (ch === "\uFEFF") {
      throw new LineError(
        col,
        tr("a byte order mark (U+FEFF)", "バイト順マーク(U+FEFF)があります"),
        tr("save the file as UTF-8 without a BOM", "BOM の無い UTF-8 で保存してください"),
      );
    } else if (ch === '"') {
      let j = i + 1;
      let text = "";
      while (j < chars.length && chars[j] !== '"') {
        if (chars[j] === "\\" && (chars[j + 1] === '"' || chars[j + 1] === "\\")) j++;
        text += chars[j];
        j++;
      }
      if (j >= chars.length) {
        throw new LineError(
          col,
          tr("a string that is not closed", "文字列が閉じていません"),
          tr('end it with " on the same line', '同じ行の中で " で閉じてください'),
        );
      }
      tokens.push({ kind: "string", text, col });
      i = j + 1;
    } else if ("(),:".includes(ch)) {
      tokens.push({ kind: "punct", text: ch, col });
      i++;
    } else if (DIGIT.test(ch) || (ch === "-" && DIGIT.test(chars[i + 1] ?? ""))) {
      let j = i + 1;
      while (
        j < chars.length && (DIGIT.test(chars[j]) || (chars[j] === "." && DIGIT.test(chars[j + 1] ?? "")))
      ) j++;
      if (j < chars.length && NAME_PART.test(chars[j])) {
        // What it should have been depends on where it stands: the parser says (`Line.name`, `Line.number_`).
        const word = wordAt(chars, i);
        tokens.push({ kind: "digits", text: word, col });
        i += [...word].length;
        continue;
      }
      tokens.push({ kind: "number", text: chars.slice(i, j).join(""), col });
      i = j;
    } else if (NAME_START.test(ch)) {
      let j = i + 1;
      while (j < chars.length && NAME_PART.test(chars[j])) j++;
      const text = chars.slice(i, j).join("");
      const combining = [...text].findIndex((c) => isCombining(c.codePointAt(0)!));
      if (combining >= 0) {
        const cp = text.codePointAt([...text].slice(0, combining).join("").length)!;
        throw new LineError(
          col + combining,
          tr(
            `the name ${text} has a separate combining mark (U+${hex(cp)})`,
            `名前 ${text} に分かれた結合文字(U+${hex(cp)})があります`,
          ),
          tr(
            "write the precomposed character instead (names are compared as written, not normalized)",
            "合成済みの文字で書いてください(名前は正規化せず、書いたとおりに比べます)",
          ),
        );
      }
      tokens.push({ kind: "name", text, col });
      i = j;
    } else {
      throw new LineError(
        col,
        tr(`a character chobo does not read here: ${ch}`, `ここで読めない文字です: ${ch}`),
      );
    }
  }
  return tokens;
}

function hex(cp: number): string {
  return cp.toString(16).toUpperCase().padStart(4, "0");
}

function wordAt(chars: readonly string[], i: number): string {
  let j = i;
  while (j < chars.length && chars[j] !== " " && !"(),:".includes(chars[j])) j++;
  return chars.slice(i, j).join("");
}

/** A cursor over one line's tokens. */
class Line {
  private pos = 0;
  constructor(
    private readonly tokens: readonly Token[],
    readonly number: number,
    private readonly endCol: number,
  ) {}

  peek(offset = 0): Token | undefined {
    return this.tokens[this.pos + offset];
  }

  atEnd(): boolean {
    return this.pos >= this.tokens.length;
  }

  /** Column of the next token, or just past the line's end. */
  col(): number {
    return this.peek()?.col ?? this.endCol;
  }

  next(): Token {
    const t = this.tokens[this.pos];
    this.pos++;
    return t;
  }

  isWord(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t !== undefined && t.kind === "name" && t.text === text;
  }

  isPunct(text: string): boolean {
    const t = this.peek();
    return t !== undefined && t.kind === "punct" && t.text === text;
  }

  expectWord(text: string): void {
    if (!this.isWord(text)) throw this.expected(`\`${text}\``, `\`${text}\``, [text]);
    this.pos++;
  }

  expectPunct(text: string): void {
    if (!this.isPunct(text)) throw this.expected(`\`${text}\``, `\`${text}\``);
    this.pos++;
  }

  /** A name that is not a reserved word. */
  name(what: Text): Word {
    const t = this.peek();
    if (t?.kind === "digits") {
      throw new LineError(
        t.col,
        tr(`a name cannot start with a digit: ${t.text}`, `名前は数字で始められません: ${t.text}`),
      );
    }
    if (t === undefined || t.kind !== "name") throw this.expected(what.en, what.ja);
    if (RESERVED.has(t.text)) {
      throw new LineError(
        t.col,
        tr(
          `${t.text} is a keyword and cannot be a name (${what.en})`,
          `${t.text} はキーワードなので名前に使えません(${what.ja})`,
        ),
        tr("choose another name", "別の名前にしてください"),
      );
    }
    this.pos++;
    return { text: t.text, line: this.number, col: t.col };
  }

  number_(what: Text): Word {
    const t = this.peek();
    if (t?.kind === "digits") {
      throw new LineError(
        t.col,
        tr(`${t.text} is not a number (${what.en})`, `${t.text} は数ではありません(${what.ja})`),
        tr("write digits only", "数字だけで書いてください"),
      );
    }
    if (t === undefined || t.kind !== "number") throw this.expected(what.en, what.ja);
    this.pos++;
    return { text: t.text, line: this.number, col: t.col };
  }

  /** An amount or a bound written as a number in its unit's scale. */
  amount(what: Text): Word {
    const t = this.peek();
    if (t?.kind === "digits") {
      throw new LineError(
        t.col,
        tr(`${t.text} is not an amount`, `${t.text} は額として読めません`),
        tr(
          "an amount is digits with as many decimals as the unit's scale, and no unit after it: 30 at scale 0, 30.00 at scale 2 (a bound may start with -)",
          "額は数字だけで、単位の scale の桁数の小数をつけて書き、うしろに単位を書きません: scale 0 なら 30、scale 2 なら 30.00(境界は - で始めてもかまいません)",
        ),
      );
    }
    if (t === undefined || t.kind !== "number") throw this.expected(what.en, what.ja);
    this.pos++;
    return { text: t.text, line: this.number, col: t.col };
  }

  string(): string {
    const t = this.peek();
    if (t === undefined || t.kind !== "string") {
      throw this.expected("a string in double quotes", "二重引用符で囲んだ文字列");
    }
    this.pos++;
    return t.text;
  }

  end(): void {
    const t = this.peek();
    if (t !== undefined) {
      throw new LineError(
        t.col,
        tr(
          `nothing more was expected on this line, found ${show(t)}`,
          `この行はここで終わるはずですが、${show(t)} があります`,
        ),
      );
    }
  }

  /** The line's error where `en` (`ja`) was expected; a word near one of `words` is said to be a slip of it. */
  expected(en: string, ja: string, words: readonly string[] = []): LineError {
    const t = this.peek();
    const found = t === undefined ? tr("the end of the line", "行の終わり") : tr(show(t), show(t));
    return new LineError(
      this.col(),
      tr(`expected ${en} here, found ${found.en}`, `ここには ${ja} が来るはずですが、${found.ja} があります`),
      t?.kind === "name" ? didYouMean(t.text, words) : null,
    );
  }
}

function show(t: Token): string {
  return t.kind === "string" ? `"${t.text}"` : t.text;
}

const DECLARATION_HEADS = ["book", "description", "unit", "account", "transfer"] as const;
const ACCOUNT_ITEMS = ["description", "at"] as const;
const TRANSFER_ITEMS = ["description", "key", "pending", "move"] as const;

/** True when `t` is a name among `words`, whose text it then narrows to. */
function isOneOf<W extends string>(t: Token, words: readonly W[]): t is Token & { readonly text: W } {
  return t.kind === "name" && (words as readonly string[]).includes(t.text);
}

type Block =
  | { readonly kind: "account"; readonly decl: AccountAst }
  | { readonly kind: "transfer"; readonly decl: TransferAst }
  | { readonly kind: "none" }
  // A declaration line that could not be read: its items are its own and say nothing more of it.
  | { readonly kind: "unread" };

/**
 * Parses a book. Never throws for any input: every unreadable line becomes an E001 diagnostic
 * in `r`, and a book without a `book <name> v<n>` line gets one too.
 *
 * @example
 * ```ts
 * const r = new Reporter("stock.book", text);
 * const ast = parseBook(text, r);
 * ```
 */
export function parseBook(text: string, r: Reporter<"E001">): BookAst {
  const ast: BookAst = { headers: [], descriptions: [], units: [], accounts: [], transfers: [] };
  const sourceLines = text.split("\n").map((l) => l.endsWith("\r") ? l.slice(0, -1) : l);
  let block: Block = { kind: "none" };
  let itemIndent = 0;

  sourceLines.forEach((raw, index) => {
    const lineNo = index + 1;
    const chars = [...raw];
    let indent = 0;
    while (indent < chars.length && chars[indent] === " ") indent++;
    // A tab in the indentation is reported by the lexer; it still counts as indentation so the
    // line stays in its block and the lines after it are not misread as orphans.
    let leading = indent;
    while (leading < chars.length && (chars[leading] === " " || chars[leading] === "\t")) leading++;
    try {
      const tokens = tokenize(chars, indent);
      if (tokens.length === 0) return;
      const line = new Line(tokens, lineNo, chars.length + 1);
      if (indent === 0) {
        block = parseDeclaration(line, ast);
        itemIndent = 0;
        return;
      }
      // One mistake, one diagnostic: the items of a declaration that could not be read are not
      // orphans to report again.
      if (block.kind === "unread") return;
      if (block.kind === "none") {
        throw new LineError(
          1,
          tr(
            "an indented line with no account or transfer above it",
            "字下げした行の上に勘定も振替もありません",
          ),
          tr("indent only the items of an account or a transfer", "字下げするのは勘定か振替の下の行だけです"),
        );
      }
      if (itemIndent === 0) itemIndent = indent;
      if (indent !== itemIndent) {
        throw new LineError(
          1,
          tr(
            `indented by ${indent} spaces where the block's items are indented by ${itemIndent}`,
            `この塊の行は ${itemIndent} 字の字下げですが、この行は ${indent} 字です`,
          ),
          tr(
            "indent every item of a declaration by the same number of spaces",
            "一つの宣言の下の行は、同じ字数で字下げしてください",
          ),
        );
      }
      if (block.kind === "account") parseAccountItem(line, block.decl);
      else parseTransferItem(line, block.decl);
    } catch (e) {
      if (!(e instanceof LineError)) throw e;
      r.error("E001", { line: lineNo, col: e.col }, e.message, e.hint === null ? {} : { hint: e.hint });
      if (leading === 0) block = { kind: "unread" };
    }
  });
  if (ast.headers.length === 0 && !r.hasErrors()) {
    r.error(
      "E001",
      { line: 1, col: 1 },
      tr(
        "the file does not start with `book <name> v<n>`",
        "ファイルが `book <名前> v<数>` で始まっていません",
      ),
      {
        hint: tr(
          "write the book's name and version first: `book inventory v1`",
          "はじめに帳簿の名前とバージョンを書いてください: `book inventory v1`",
        ),
        quote: sourceLines.length > 1 || sourceLines[0] !== "",
      },
    );
  }
  return ast;
}

function parseDeclaration(line: Line, ast: BookAst): Block {
  const head = line.peek()!;
  if (!isOneOf(head, DECLARATION_HEADS)) {
    throw new LineError(
      head.col,
      tr(`${show(head)} does not start a declaration`, `${show(head)} では宣言が始まりません`),
      (head.kind === "name" ? didYouMean(head.text, DECLARATION_HEADS) : null) ?? tr(
        "a line at the left edge starts with book, description, unit, account or transfer",
        "左端の行は book、description、unit、account、transfer のどれかで始めます",
      ),
    );
  }
  line.next();
  switch (head.text) {
    case "book": {
      const name = line.name(tr("the book's name", "帳簿の名前"));
      const v = line.peek();
      if (v === undefined || v.kind !== "name" || !/^v[0-9]+$/.test(v.text)) {
        throw line.expected("the version `v<n>` (v1, v2 …)", "バージョン `v<n>`(v1、v2 …)");
      }
      line.next();
      line.end();
      ast.headers.push({ name, version: Number(v.text.slice(1)), line: line.number });
      return { kind: "none" };
    }
    case "description": {
      ast.descriptions.push(parseDescription(line, head.col));
      return { kind: "none" };
    }
    case "unit": {
      const name = line.name(tr("the unit's name", "単位の名前"));
      let scale: Word | null = null;
      if (line.isWord("scale")) {
        line.next();
        scale = line.number_(tr("the number of decimal places after `scale`", "`scale` のあとの小数の桁数"));
      }
      let tax: Word | null = null;
      if (line.isWord("incl_tax") || line.isWord("excl_tax")) {
        const t = line.next();
        tax = { text: t.text, line: line.number, col: t.col };
      }
      line.end();
      ast.units.push({ name, scale, tax, line: line.number });
      return { kind: "none" };
    }
    case "account": {
      const name = line.name(tr("the account's name", "勘定の名前"));
      const params = line.isPunct("(") ? parseParams(line) : [];
      line.expectPunct(":");
      const unit = line.name(tr("the account's unit", "勘定の単位"));
      let outside = false;
      if (line.isWord("outside")) {
        line.next();
        outside = true;
      }
      line.end();
      const decl: AccountAst = {
        name,
        params,
        unit,
        outside,
        descriptions: [],
        bounds: [],
        line: line.number,
      };
      ast.accounts.push(decl);
      return { kind: "account", decl };
    }
    case "transfer": {
      const name = line.name(tr("the transfer's name", "振替の名前"));
      const params = line.isPunct("(") ? parseParams(line) : [];
      line.end();
      const decl: TransferAst = {
        name,
        params,
        descriptions: [],
        keys: [],
        pendings: [],
        moves: [],
        line: line.number,
      };
      ast.transfers.push(decl);
      return { kind: "transfer", decl };
    }
    default:
      return unreachable(head.text, "declaration");
  }
}

function parseDescription(line: Line, col: number): DescriptionAst {
  const text = line.string();
  line.end();
  return { text, line: line.number, col };
}

function parseParams(line: Line): ParamAst[] {
  line.expectPunct("(");
  const params: ParamAst[] = [];
  if (line.isPunct(")")) {
    line.next();
    return params;
  }
  for (;;) {
    const name = line.name(tr("a parameter's name", "引数の名前"));
    line.expectPunct(":");
    const typeTok = line.peek();
    if (typeTok === undefined || typeTok.kind !== "name") {
      throw line.expected("a type (`string` or a unit)", "型(`string` か単位)");
    }
    line.next();
    params.push({ name, type: { text: typeTok.text, line: line.number, col: typeTok.col } });
    if (line.isPunct(",")) {
      line.next();
      continue;
    }
    line.expectPunct(")");
    return params;
  }
}

function itemHead<W extends string>(
  line: Line,
  allowed: readonly W[],
  where: Text,
): Token & { readonly text: W } {
  const head = line.peek()!;
  if (!isOneOf(head, allowed)) {
    const list = allowed.map((w) => w === "at" ? "at least, at most" : w).join(", ");
    throw new LineError(
      head.col,
      tr(`${show(head)} is not an item of ${where.en}`, `${show(head)} は${where.ja}の下に書けません`),
      (head.kind === "name" ? didYouMean(head.text, allowed) : null) ??
        tr(`under ${where.en} come: ${list}`, `${where.ja}の下に書けるのは ${list} です`),
    );
  }
  line.next();
  return head;
}

function parseAccountItem(line: Line, decl: AccountAst): void {
  const head = itemHead(line, ACCOUNT_ITEMS, tr("an account", "勘定"));
  switch (head.text) {
    case "description":
      decl.descriptions.push(parseDescription(line, head.col));
      return;
    case "at":
      decl.bounds.push(parseBound(line, head.col));
      return;
    default:
      return unreachable(head.text, "account item");
  }
}

/** After `at`: `least <n>` or `most <n>`, then `refused as <reason>` (which resolving requires). */
function parseBound(line: Line, col: number): BoundAst {
  let kind: "lower" | "upper";
  if (line.isWord("least")) kind = "lower";
  else if (line.isWord("most")) kind = "upper";
  else {throw line.expected("`least` or `most` after `at`", "`at` のあとに `least` か `most`", [
      "least",
      "most",
    ]);}
  line.next();
  const value = line.amount(tr("the bound, a number", "境界の数"));
  let reason: Word | null = null;
  if (!line.atEnd()) {
    line.expectWord("refused");
    line.expectWord("as");
    reason = line.name(tr("the name of the refusal", "拒否の理由の名前"));
    line.end();
  }
  return { kind, value, reason, line: line.number, col };
}

function parseTransferItem(line: Line, decl: TransferAst): void {
  const head = itemHead(line, TRANSFER_ITEMS, tr("a transfer", "振替"));
  switch (head.text) {
    case "description":
      decl.descriptions.push(parseDescription(line, head.col));
      return;
    case "key": {
      const names = [line.name(tr("a parameter in the key", "キーの引数"))];
      while (line.isPunct(",")) {
        line.next();
        names.push(line.name(tr("a parameter in the key", "キーの引数")));
      }
      line.end();
      decl.keys.push({ names, line: line.number, col: head.col });
      return;
    }
    case "pending":
      decl.pendings.push({ end: parsePendingEnd(line), line: line.number, col: head.col });
      return;
    case "move": {
      const amountTok = line.peek();
      if (amountTok === undefined || amountTok.kind === "string" || amountTok.kind === "punct") {
        throw line.expected("the amount, a parameter or a number", "額(引数か数)");
      }
      const amount = amountTok.kind !== "name"
        ? { kind: "number" as const, word: line.amount(tr("the amount", "額")) }
        : { kind: "name" as const, word: line.name(tr("the amount", "額")) };
      line.expectWord("from");
      const from = parseAccountRef(line);
      line.expectWord("to");
      const to = parseAccountRef(line);
      line.end();
      decl.moves.push({ amount, from, to, line: line.number, col: head.col });
      return;
    }
    default:
      return unreachable(head.text, "transfer item");
  }
}

/** After `pending`: `never expires` or `expires after <n> <time word>`; anything else is missing (E040). */
function parsePendingEnd(line: Line): PendingEnd {
  if (line.isWord("never") && line.isWord("expires", 1)) {
    line.next();
    line.next();
    line.end();
    return { kind: "never" };
  }
  if (
    line.isWord("expires") && line.isWord("after", 1) &&
    ((line.peek(2)?.kind === "number" && line.peek(3)?.kind === "name") || line.peek(2)?.kind === "digits")
  ) {
    line.next();
    line.next();
    const amount = line.number_(tr("the length of time", "時間の長さ"));
    const wordTok = line.next();
    if (!TIME_WORDS.has(wordTok.text)) {
      throw new LineError(
        wordTok.col,
        tr(`${wordTok.text} is not a time word`, `${wordTok.text} は時間の語ではありません`),
        didYouMean(wordTok.text, TIME_WORDS.keys()) ??
          tr(
            "write seconds, minutes, hours or days",
            "seconds、minutes、hours、days のどれかを書いてください",
          ),
      );
    }
    line.end();
    return { kind: "after", amount, word: { text: wordTok.text, line: line.number, col: wordTok.col } };
  }
  return { kind: "missing" };
}

function parseAccountRef(line: Line): AccountRefAst {
  const name = line.name(tr("an account", "勘定"));
  const args: Word[] = [];
  if (line.isPunct("(")) {
    line.next();
    if (!line.isPunct(")")) {
      args.push(line.name(tr("a parameter passed to the account", "勘定に渡す引数")));
      while (line.isPunct(",")) {
        line.next();
        args.push(line.name(tr("a parameter passed to the account", "勘定に渡す引数")));
      }
    }
    line.expectPunct(")");
  }
  return { name, args };
}
