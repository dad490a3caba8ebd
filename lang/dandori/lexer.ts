/**
 * dandori's words: the keyword table, the lexer of one line, and the cursor the parser reads a
 * line's tokens with (docs/design/dandori.md#file-shape).
 *
 * A line is read on its own; an unreadable line throws a `LineError` that the parser turns into
 * E001 and goes on with the next line.
 * @module
 */

import { lookup } from "../common/assert.ts";
import { didYouMean } from "../common/nearest.ts";
import { type Text, tr } from "../common/text.ts";
import { isCombining } from "../common/width.ts";
import type { Word } from "./ast.ts";

/**
 * The keywords of `.flow`, by where they are read; the parser's hints list the rows' words. Only
 * the rows marked `reserved` keep their first words from being names; every other word is read
 * as a keyword only where it stands (`dates` and `book`, like `agent`, `jev` and `secret`, are read
 * only in their place; docs/design/dandori.md#file-shape), because words such as `at`, `event`,
 * `state` and `score` are ordinary names in real flows. `description` is a declaration but stays a
 * name too: records that mirror an API (Stripe's objects) have a `description` field.
 */
export const KEYWORDS: readonly {
  readonly position: string;
  readonly reserved: boolean;
  readonly words: readonly string[];
}[] = [
  {
    position: "declaration",
    reserved: true,
    words: [
      "workflow",
      "use",
      "record",
      "enum",
      "task",
      "case",
      "inputs",
      "outputs",
      "flow",
      "on failure",
      "on cancel",
    ],
  },
  { position: "declaration", reserved: false, words: ["description"] },
  { position: "declaration word", reserved: false, words: ["implements", "from", "follows"] },
  { position: "workflow item", reserved: false, words: ["history encrypted", "now range"] },
  { position: "use source", reserved: false, words: ["rule", "dates", "book", "openapi", "smithy", "proto"] },
  {
    position: "use item",
    reserved: false,
    words: ["lambda", "local", "connect", "connection", "url", "plaintext"],
  },
  {
    position: "task item",
    reserved: false,
    words: [
      "lambda",
      "http",
      "connection",
      "aws",
      "agent",
      "model",
      "effort",
      "url",
      "plaintext",
      "jev",
      "confidence",
      "refusal",
      "connect",
      "flow",
      "workflow",
      "state machine",
      "durable function",
      "workflow template",
      "queue",
      "image",
      "errors",
      "retry",
      "timeout",
      "timeout until",
      "key",
      "idempotent",
      "callback",
      "event",
      "starts",
      "sends",
      "observes",
      "refused as",
      "book",
      "discloses",
    ],
  },
  {
    position: "task item word",
    reserved: false,
    words: ["form", "score", "confidence of", "else", "times", "every", "backoff", "on", "then"],
  },
  { position: "case item", reserved: false, words: ["held", "external", "state", "refused when"] },
  {
    position: "statement",
    reserved: true,
    words: [
      "let",
      "match",
      "wait",
      "wait until",
      "repeat at most",
      "for",
      "yield",
      "break",
      "pass",
      "succeed",
      "fail",
    ],
  },
  {
    position: "statement word",
    reserved: false,
    words: ["on", "in", "at most", "times", "in parallel", "at a time", "leaving"],
  },
  { position: "value", reserved: true, words: ["true", "false", "none", "some", "now"] },
  {
    position: "type",
    reserved: false,
    words: [
      "int",
      "string",
      "bool",
      "timestamp",
      "date",
      "json",
      "list",
      "step",
      "range",
      "offset",
      "secret",
    ],
  },
  {
    position: "time",
    reserved: false,
    words: ["second", "seconds", "minute", "minutes", "hour", "hours", "day", "days"],
  },
];

/** The keywords of the rows at `position`, in the table's order. */
export function keywordsAt(position: string): string[] {
  return KEYWORDS.filter((row) => row.position === position).flatMap((row) => row.words);
}

/** Words that cannot be names: the first word of every phrase in a reserved row. */
export const RESERVED: ReadonlySet<string> = new Set(
  KEYWORDS.filter((row) => row.reserved).map((row) => row.words.map((w) => w.split(" ")[0])).flat(),
);

/**
 * True when `text` is one name as the lexer reads it and not a reserved word: what a flow can write
 * for a field or an enum value (a type made from a description keeps only such names).
 */
export function isName(text: string): boolean {
  const chars = [...text];
  return chars.length > 0 && NAME_START.test(chars[0]) && chars.slice(1).every((c) => NAME_PART.test(c)) &&
    !RESERVED.has(text);
}

/** The words that are values of their own and so cannot name an enum value or a variable. */
const VALUE_WORDS: ReadonlySet<string> = new Set(keywordsAt("value"));

/** Seconds per time word (`wait`, `timeout`, `retry … every`). */
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

/**
 * The seconds of `<n> seconds|minutes|hours|days` as written (`wait`, `timeout`, `retry … every`):
 * what the words mean, read the same by the resolution, the interpreter and the lowering.
 */
export function durationSeconds(
  d: { readonly amount: { readonly text: string }; readonly unit: { readonly text: string } },
): number {
  return Number(d.amount.text) * Number(lookup(TIME_WORDS, d.unit.text, "time word"));
}

/** What a token is. `sign` is a unit symbol (`%`, `℃`, `℉`; `％` is read as `%`), `elided` is `…`. */
export type TokenKind = "name" | "number" | "date" | "string" | "punct" | "sign" | "elided";

/** One token of a line. `end` is the column just after it; a string keeps its raw characters. */
export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly col: number;
  readonly end: number;
  /** For a string: the characters between the quotes, escapes not undone. */
  readonly raw: readonly string[];
}

/** Why a line cannot be read: the column, the message and a hint. */
export class LineError {
  constructor(readonly col: number, readonly message: Text, readonly hint: Text | null = null) {}
}

const NAME_START = /[\p{L}\p{Nl}_]/u;
const NAME_PART = /[\p{L}\p{Nl}\p{Nd}\p{M}_]/u;
const DIGIT = /[0-9]/;
const PUNCT_2 = ["->", "<-", "=>", ">=", "<="];
const PUNCT_1 = "()[]{},:.=?|<>+-";
const SIGNS: ReadonlyMap<string, string> = new Map([["%", "%"], ["％", "%"], ["℃", "℃"], ["℉", "℉"]]);
const ELLIPSIS = "…";

/**
 * Reads `chars[from, to)` into tokens; a `#` outside a string ends the line. Columns are
 * `base + index + 1`, so a piece of a string (`{…}` in a value) keeps the columns of the line.
 */
export function tokenize(chars: readonly string[], from: number, to: number, base: number): Token[] {
  const tokens: Token[] = [];
  const colOf = (i: number) => base + i + 1;
  const push = (kind: TokenKind, text: string, i: number, j: number, raw: readonly string[] = []) =>
    tokens.push({ kind, text, col: colOf(i), end: colOf(j), raw });
  let i = from;
  while (i < to) {
    const ch = chars[i];
    if (ch === " ") {
      i++;
    } else if (ch === "#") {
      break;
    } else if (ch === "\t") {
      throw new LineError(
        colOf(i),
        tr(
          "a tab; dandori indents and separates with spaces",
          "タブがあります。字下げと区切りは空白で書きます",
        ),
        tr("replace the tab with spaces", "タブを空白に置き換えてください"),
      );
    } else if (ch === "\uFEFF") {
      throw new LineError(
        colOf(i),
        tr("a byte order mark (U+FEFF)", "バイト順マーク(U+FEFF)があります"),
        tr("save the file as UTF-8 without a BOM", "BOM の無い UTF-8 で保存してください"),
      );
    } else if (ch === '"') {
      i = readString(chars, i, to, colOf, push);
    } else if (ch === ELLIPSIS) {
      push("elided", ch, i, i + 1);
      i++;
    } else if (SIGNS.has(ch)) {
      push("sign", SIGNS.get(ch)!, i, i + 1);
      i++;
    } else if (isDate(chars, i, to)) {
      push("date", chars.slice(i, i + 10).join(""), i, i + 10);
      i += 10;
    } else if (DIGIT.test(ch) || (ch === "-" && i + 1 < to && DIGIT.test(chars[i + 1]))) {
      const j = digitsEnd(chars, i + 1, to);
      const k = chars[j] === "." && j + 1 < to && DIGIT.test(chars[j + 1]) ? digitsEnd(chars, j + 1, to) : j;
      push("number", chars.slice(i, k).join(""), i, k);
      i = k;
    } else if (NAME_START.test(ch)) {
      let j = i + 1;
      while (j < to && NAME_PART.test(chars[j])) j++;
      checkCombining(chars, i, j, colOf);
      push("name", chars.slice(i, j).join(""), i, j);
      i = j;
    } else if (i + 1 < to && PUNCT_2.includes(ch + chars[i + 1])) {
      push("punct", ch + chars[i + 1], i, i + 2);
      i += 2;
    } else if (PUNCT_1.includes(ch)) {
      push("punct", ch, i, i + 1);
      i++;
    } else {
      throw new LineError(
        colOf(i),
        tr(`a character dandori does not read here: ${ch}`, `ここで読めない文字です: ${ch}`),
      );
    }
  }
  return tokens;
}

function readString(
  chars: readonly string[],
  i: number,
  to: number,
  colOf: (i: number) => number,
  push: (kind: TokenKind, text: string, i: number, j: number, raw: readonly string[]) => void,
): number {
  let j = i + 1;
  let text = "";
  while (j < to && chars[j] !== '"') {
    if (chars[j] === "\\" && (chars[j + 1] === '"' || chars[j + 1] === "\\")) j++;
    text += chars[j];
    j++;
  }
  if (j >= to) {
    throw new LineError(
      colOf(i),
      tr("a string that is not closed", "文字列が閉じていません"),
      tr('end it with " on the same line', '同じ行の中で " で閉じてください'),
    );
  }
  push("string", text, i, j + 1, chars.slice(i + 1, j));
  return j + 1;
}

/** Where the run of digits from `i` ends. */
function digitsEnd(chars: readonly string[], i: number, to: number): number {
  while (i < to && DIGIT.test(chars[i])) i++;
  return i;
}

/**
 * `YYYY-MM-DD` not followed by another digit: a date (range ends, docs/design/dandori.md#dates-and-times).
 */
function isDate(chars: readonly string[], i: number, to: number): boolean {
  if (i + 10 > to) return false;
  const shape = "dddd-dd-dd";
  for (let k = 0; k < 10; k++) {
    const c = chars[i + k];
    if (shape[k] === "d" ? !DIGIT.test(c) : c !== "-") return false;
  }
  return i + 10 >= to || !DIGIT.test(chars[i + 10]);
}

function checkCombining(chars: readonly string[], i: number, j: number, colOf: (i: number) => number): void {
  for (let k = i; k < j; k++) {
    const cp = chars[k].codePointAt(0)!;
    if (isCombining(cp)) {
      const name = chars.slice(i, j).join("");
      const hex = cp.toString(16).toUpperCase().padStart(4, "0");
      throw new LineError(
        colOf(k),
        tr(
          `the name ${name} has a separate combining mark (U+${hex})`,
          `名前 ${name} に分かれた結合文字(U+${hex})があります`,
        ),
        tr(
          "write the precomposed character instead (names are compared as written, not normalized)",
          "合成済みの文字で書いてください(名前は正規化せず、書いたとおりに比べます)",
        ),
      );
    }
  }
}

/** How a token reads in a message. */
export function show(t: Token): string {
  return t.kind === "string" ? `"${t.text}"` : t.text;
}

/** A cursor over the tokens of one line (or of one `{…}` inside a string). */
export class Cursor {
  private pos = 0;

  constructor(
    private readonly tokens: readonly Token[],
    readonly line: number,
    private readonly endCol: number,
  ) {}

  peek(offset = 0): Token | undefined {
    return this.tokens[this.pos + offset];
  }

  atEnd(): boolean {
    return this.pos >= this.tokens.length;
  }

  /** Column of the next token, or just past the end. */
  col(): number {
    return this.peek()?.col ?? this.endCol;
  }

  next(): Token {
    const t = this.tokens[this.pos];
    if (t === undefined) throw this.expected("more", "続き");
    this.pos++;
    return t;
  }

  /** The token just read. */
  last(): Token {
    return this.tokens[this.pos - 1];
  }

  isWord(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t !== undefined && t.kind === "name" && t.text === text;
  }

  isPunct(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t !== undefined && t.kind === "punct" && t.text === text;
  }

  isKind(kind: TokenKind, offset = 0): boolean {
    return this.peek(offset)?.kind === kind;
  }

  /** Reads `text` if it comes next. */
  takeWord(text: string): Token | null {
    return this.isWord(text) ? this.next() : null;
  }

  takePunct(text: string): Token | null {
    return this.isPunct(text) ? this.next() : null;
  }

  expectWord(text: string): Token {
    if (!this.isWord(text)) {
      const t = this.peek();
      throw this.expected(
        `\`${text}\``,
        `\`${text}\``,
        t?.kind === "name" ? didYouMean(t.text, [text]) : null,
      );
    }
    return this.next();
  }

  expectPunct(text: string): Token {
    if (!this.isPunct(text)) throw this.expected(`\`${text}\``, `\`${text}\``);
    return this.next();
  }

  /** A name that is not a reserved word. */
  name(what: Text): Word {
    const t = this.peek();
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
    return this.word(t);
  }

  /** Any word, reserved or not (effort levels, `true`/`false` meanings under `jev`). */
  anyName(what: Text): Word {
    const t = this.peek();
    if (t === undefined || t.kind !== "name") throw this.expected(what.en, what.ja);
    this.pos++;
    return this.word(t);
  }

  /** Names separated by commas: `a, b, c`. */
  names(what: Text): Word[] {
    const out = [this.name(what)];
    while (this.takePunct(",")) out.push(this.name(what));
    return out;
  }

  /**
   * A name in a value, a pattern or a range end: any word but `true`, `false`, `none`, `some` and
   * `now`, which are values of their own. Statement words may be enum values (`pass | fail`).
   */
  valueName(what: Text): Word {
    const t = this.peek();
    if (t === undefined || t.kind !== "name" || VALUE_WORDS.has(t.text)) {
      throw this.expected(what.en, what.ja);
    }
    this.pos++;
    return this.word(t);
  }

  /** `a.b.c` in a value: a variable or an enum value, then fields. */
  path(what: Text): Word[] {
    const out = [this.valueName(what)];
    while (this.isPunct(".") && this.isKind("name", 1)) {
      this.next();
      out.push(this.anyName(what));
    }
    return out;
  }

  /** `a.b.c`: names joined by dots. */
  dotted(what: Text): Word[] {
    const out = [this.name(what)];
    while (this.isPunct(".")) {
      this.next();
      out.push(this.name(what));
    }
    return out;
  }

  number(what: Text): Word {
    const t = this.peek();
    if (t === undefined || t.kind !== "number") throw this.expected(what.en, what.ja);
    this.pos++;
    return this.word(t);
  }

  /** A whole number that is not negative (counts: `at most 10`, `retry 2 times`). */
  count(what: Text): Word {
    const t = this.peek();
    if (t === undefined || t.kind !== "number" || !/^[0-9]+$/.test(t.text)) {
      throw this.expected(what.en, what.ja);
    }
    this.pos++;
    return this.word(t);
  }

  /** A string literal as plain text. */
  string(what: Text): Word {
    return this.word(this.stringToken(what));
  }

  /** A string literal with its raw characters, for a value that may embed `{…}`. */
  stringToken(what: Text): Token {
    const t = this.peek();
    if (t === undefined || t.kind !== "string") throw this.expected(what.en, what.ja);
    this.pos++;
    return t;
  }

  /** Ends the line: nothing more may follow. */
  end(): void {
    const t = this.peek();
    if (t !== undefined) {
      throw new LineError(
        t.col,
        tr(
          `nothing more was expected here, found ${show(t)}`,
          `ここで終わるはずですが、${show(t)} があります`,
        ),
      );
    }
  }

  word(t: Token): Word {
    return { text: t.text, line: this.line, col: t.col };
  }

  expected(en: string, ja: string, hint: Text | null = null): LineError {
    const t = this.peek();
    const found = t === undefined ? tr("the end of the line", "行の終わり") : tr(show(t), show(t));
    return new LineError(
      this.col(),
      tr(`expected ${en} here, found ${found.en}`, `ここには ${ja} が来るはずですが、${found.ja} があります`),
      hint,
    );
  }
}
