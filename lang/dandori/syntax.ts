/**
 * dandori's parser: `.flow` text → syntax tree (docs/design/dandori.md).
 *
 * Indentation makes blocks (docs/design/dandori.md#file-shape): a declaration starts at the left edge, its
 * items, fields and statements are indented under it, and a statement's handlers, arms and bodies are
 * indented under the statement. The text is first cut into a tree of lines; each line is then read on its
 * own. A line that cannot be read gives E001 and is skipped with the lines under it, so one run
 * reports every unreadable construct and parsing goes on with the next line or declaration.
 * @module
 */

import { unreachable } from "../common/assert.ts";
import { didYouMean } from "../common/nearest.ts";
import type { Reporter } from "../common/reporter.ts";
import { type Text, tr } from "../common/text.ts";
import type {
  ArgAst,
  ArmAst,
  BodyAst,
  BoundAst,
  BoundValueAst,
  CallAst,
  CallStmtAst,
  CaseItemAst,
  DurationAst,
  ElidedAst,
  ErrorDeclAst,
  ExprAst,
  FieldAst,
  FlowAst,
  ForStmtAst,
  HandlerAst,
  JevEntryAst,
  PatternAst,
  Pos,
  RangeAst,
  RecordEntryAst,
  ResultAst,
  StmtAst,
  Str,
  StringPartAst,
  TaskItemAst,
  TypeAst,
  UseItemAst,
  Word,
} from "./ast.ts";
import { Cursor, keywordsAt, LineError, show, TIME_WORDS, type Token, tokenize } from "./lexer.ts";

export { KEYWORDS, keywordsAt, RESERVED, TIME_WORDS } from "./lexer.ts";

/**
 * How deep blocks and values may nest. The design names no bound; this one keeps the parser's
 * recursion bounded for any input (a line indented once more than the last, ten thousand times,
 * or `[[[[…`), far above anything a person writes.
 */
export const MAX_NESTING = 64;

const DECLARATION_LIST = keywordsAt("declaration").join(", ");
const USE_SOURCES = keywordsAt("use source");
const USE_ITEMS = keywordsAt("use item");
const TASK_ITEM_LIST = keywordsAt("task item").join(", ");
const CASE_ITEM_LIST = keywordsAt("case item").join(", ");
const STATEMENT_WORDS = [...new Set(keywordsAt("statement").map((w) => w.split(" ")[0]))];
const STATEMENT_LIST = tr(
  `${STATEMENT_WORDS.join(", ")}, a call \`t(…)\` or \`c <- t(…)\``,
  `${STATEMENT_WORDS.join("、")}、呼び出し \`t(…)\`、\`c <- t(…)\``,
);

/** The first words of the declarations, for the word a slip was meant to be. */
const DECLARATION_WORDS = [...new Set(keywordsAt("declaration").map((w) => w.split(" ")[0]))];

/** "did you mean `task`?" for a word near one of `words`, else `hint`. */
function slipOr(head: Token, words: readonly string[], hint: Text): Text {
  return (head.kind === "name" ? didYouMean(head.text, words) : null) ?? hint;
}

/** One line of the source with the lines indented under it; `cursor` is null when it could not be read. */
interface LineNode {
  readonly line: number;
  readonly indent: number;
  readonly cursor: Cursor | null;
  readonly children: LineNode[];
}

/** What the lines under a statement are: its handlers, its body, its arms, or nothing. */
type Under =
  | { readonly kind: "handlers"; readonly into: HandlerAst[] }
  | { readonly kind: "body"; readonly into: StmtAst[] }
  | { readonly kind: "arms"; readonly into: ArmAst[] }
  | null;

/**
 * Parses a `.flow` file. Never throws for any input: every line or construct that cannot be read
 * becomes an E001 diagnostic in `r`, and parsing goes on with the next line or declaration.
 *
 * @example
 * ```ts
 * const r = new Reporter("hotel.flow", text);
 * const ast = parseFlow(text, r);
 * ```
 */
export function parseFlow(text: string, r: Reporter<"E001">): FlowAst {
  const ast: FlowAst = {
    workflows: [],
    descriptions: [],
    uses: [],
    records: [],
    enums: [],
    tasks: [],
    cases: [],
    inputs: [],
    outputs: [],
    flows: [],
    onFailure: [],
    onCancel: [],
    elisions: [],
  };
  const parser = new Parser(r, ast);
  for (const node of lineTree(text, r)) parser.read(node, (c) => parser.declaration(node, c));
  ast.elisions.sort((a, b) => a.line - b.line || a.col - b.col);
  return ast;
}

function report(r: Reporter<"E001">, line: number, e: LineError): void {
  r.error("E001", { line, col: e.col }, e.message, e.hint === null ? {} : { hint: e.hint });
}

/** Cuts the text into lines nested by indentation; blank and comment lines are left out. */
function lineTree(text: string, r: Reporter<"E001">): LineNode[] {
  const roots: LineNode[] = [];
  const stack: LineNode[] = [];
  text.split("\n").forEach((source, index) => {
    const line = index + 1;
    const chars = [...(source.endsWith("\r") ? source.slice(0, -1) : source)];
    let spaces = 0;
    while (spaces < chars.length && chars[spaces] === " ") spaces++;
    // A tab in the indentation is reported by the lexer; it still counts as indentation so the
    // line stays in its block and the lines after it are not misread.
    let indent = spaces;
    while (indent < chars.length && (chars[indent] === " " || chars[indent] === "\t")) indent++;
    let cursor: Cursor | null = null;
    try {
      const tokens = tokenize(chars, spaces, chars.length, 0);
      if (tokens.length === 0) return;
      cursor = new Cursor(tokens, line, chars.length + 1);
    } catch (e) {
      if (!(e instanceof LineError)) throw e;
      report(r, line, e);
    }
    while (stack.length > 0 && stack[stack.length - 1].indent >= indent) stack.pop();
    const parent = stack[stack.length - 1];
    // The lines under an unreadable line are skipped with it; its diagnostic is the one to read.
    const skipped = cursor === null || parent?.cursor === null;
    const misplaced = skipped ? null : placement(parent, indent, stack.length);
    if (misplaced !== null) report(r, line, misplaced);
    const node: LineNode = {
      line,
      indent,
      cursor: skipped || misplaced !== null ? null : cursor,
      children: [],
    };
    (parent === undefined ? roots : parent.children).push(node);
    stack.push(node);
  });
  return roots;
}

/** Why a line cannot stand where its indentation puts it, or null when it can. */
function placement(parent: LineNode | undefined, indent: number, depth: number): LineError | null {
  if (parent === undefined) {
    if (indent === 0) return null;
    return new LineError(
      1,
      tr("an indented line with no declaration above it", "字下げした行の上に宣言がありません"),
      tr(
        "start a declaration at the left edge (task, record, flow …) and indent its lines under it",
        "宣言(task、record、flow …)は左端から書き、その下の行を字下げしてください",
      ),
    );
  }
  const siblings = parent.children;
  if (siblings.length > 0 && siblings[0].indent !== indent) {
    const block = siblings[0].indent;
    return new LineError(
      1,
      tr(
        `indented by ${indent} spaces where the lines of this block are indented by ${block}`,
        `この塊の行は ${block} 字の字下げですが、この行は ${indent} 字です`,
      ),
      tr(
        "indent every line of a block by the same number of spaces",
        "一つの塊の行は、同じ字数で字下げしてください",
      ),
    );
  }
  if (depth >= MAX_NESTING) {
    return new LineError(
      indent + 1,
      tr(`blocks nested more than ${MAX_NESTING} deep`, `塊の入れ子が ${MAX_NESTING} 段を超えています`),
    );
  }
  return null;
}

class Parser {
  constructor(private readonly r: Reporter<"E001">, private readonly ast: FlowAst) {}

  /** Runs `read` on a readable line; an unreadable one gives E001 and `null`. */
  read<T>(node: LineNode, read: (c: Cursor) => T): T | null {
    if (node.cursor === null) return null;
    try {
      return read(node.cursor);
    } catch (e) {
      if (!(e instanceof LineError)) throw e;
      report(this.r, node.line, e);
      return null;
    }
  }

  /** Reads each line under `node` with `read`, keeping what could be read. */
  each<T>(node: LineNode, read: (child: LineNode, c: Cursor) => T): T[] {
    const out: T[] = [];
    for (const child of node.children) {
      const item = this.read(child, (c) => read(child, c));
      if (item !== null) out.push(item);
    }
    return out;
  }

  /** E001 on the first line under `node` when something is indented under a line that takes nothing. */
  nothingUnder(node: LineNode, what: Text): void {
    const first = node.children[0];
    if (first === undefined || first.cursor === null) return;
    report(
      this.r,
      first.line,
      new LineError(
        first.indent + 1,
        tr(`nothing can be indented under ${what.en}`, `${what.ja}の下には何も字下げして書けません`),
        tr(
          "write this line at the indentation of the lines around it",
          "この行は、まわりの行と同じ字下げで書いてください",
        ),
      ),
    );
  }

  elided(c: Cursor): ElidedAst {
    const t = c.next();
    const at = { line: c.line, col: t.col };
    this.ast.elisions.push(at);
    return { kind: "elided", ...at };
  }

  // -------------------------------------------------------------------------------------------
  // Declarations (docs/design/dandori.md#declarations)

  declaration(node: LineNode, c: Cursor): void {
    const head = c.peek()!;
    if (head.kind === "elided") {
      this.elided(c);
      c.end();
      return;
    }
    const at = { line: c.line, col: head.col };
    switch (head.kind === "name" ? head.text : "") {
      case "workflow":
        return this.workflow(node, c, at);
      case "description":
        c.next();
        this.ast.descriptions.push({
          text: c.string(tr("the description in double quotes", "二重引用符で囲んだ説明")).text,
          ...at,
        });
        c.end();
        return this.nothingUnder(node, tr("`description`", "`description`"));
      case "use":
        return this.use(node, c, at);
      case "record": {
        c.next();
        const name = c.name(tr("the record's name", "レコードの名前"));
        c.end();
        this.ast.records.push({ name, fields: this.fields(node), ...at });
        return;
      }
      case "enum":
        return this.enumDecl(node, c, at);
      case "task":
        return this.task(node, c, at);
      case "case":
        return this.caseDecl(node, c, at);
      case "inputs":
      case "outputs": {
        c.next();
        c.end();
        (head.text === "inputs" ? this.ast.inputs : this.ast.outputs).push({
          fields: this.fields(node),
          ...at,
        });
        return;
      }
      case "flow":
        c.next();
        c.end();
        this.ast.flows.push(this.body(node, at));
        return;
      case "on": {
        c.next();
        const which = c.peek();
        if (c.takeWord("failure") === null && c.takeWord("cancel") === null) {
          throw c.expected("`failure` or `cancel` after `on`", "`on` のあとに `failure` か `cancel`");
        }
        c.end();
        (which!.text === "failure" ? this.ast.onFailure : this.ast.onCancel).push(this.body(node, at));
        return;
      }
      default:
        throw new LineError(
          head.col,
          tr(`${show(head)} does not start a declaration`, `${show(head)} では宣言が始まりません`),
          slipOr(
            head,
            DECLARATION_WORDS,
            tr(
              `a line at the left edge starts with ${DECLARATION_LIST}`,
              `左端の行は ${DECLARATION_LIST} のどれかで始めます`,
            ),
          ),
        );
    }
  }

  workflow(node: LineNode, c: Cursor, at: Pos): void {
    c.next();
    const name = c.name(tr("the workflow's name", "ワークフローの名前"));
    const v = c.peek();
    if (v === undefined || v.kind !== "name" || !/^v[0-9]+$/.test(v.text)) {
      throw c.expected("the version `v<n>` (v1, v2 …)", "バージョン `v<n>`(v1、v2 …)");
    }
    const version = c.word(c.next());
    let implementsAst: { api: Word; service: Word[] } | null = null;
    if (c.takeWord("implements")) {
      const api = c.name(tr("the name given to `use proto`", "`use proto` に付けた名前"));
      if (!c.isPunct(".")) {
        throw c.expected(
          "`.` and the service after the API (`implements shop.FulfillmentService`)",
          "API のあとに `.` とサービス(`implements shop.FulfillmentService`)",
        );
      }
      const service: Word[] = [];
      while (c.takePunct(".")) service.push(c.name(tr("the service's name", "サービスの名前")));
      implementsAst = { api, service };
    }
    c.end();
    let historyEncrypted: Pos | null = null;
    let period: RangeAst | null = null;
    this.each(node, (child, d) => {
      const head = d.peek()!;
      const here = { line: d.line, col: head.col };
      if (d.isWord("history") && d.isWord("encrypted", 1)) {
        if (historyEncrypted !== null) throw twice(head, "history encrypted");
        d.next();
        d.next();
        historyEncrypted = here;
      } else if (d.isWord("now") && d.isWord("range", 1)) {
        if (period !== null) throw twice(head, "now range");
        d.next();
        period = this.range(d);
      } else {
        throw new LineError(
          head.col,
          tr(
            "only `history encrypted` and `now range` can be written under `workflow`",
            "`workflow` の下に書けるのは `history encrypted` と `now range` だけです",
          ),
        );
      }
      d.end();
      this.nothingUnder(child, tr(`\`${head.text}\``, `\`${head.text}\``));
    });
    this.ast.workflows.push({ name, version, implements: implementsAst, historyEncrypted, period, ...at });
  }

  use(node: LineNode, c: Cursor, at: Pos): void {
    c.next();
    const s = c.peek();
    if (s === undefined || s.kind !== "name" || !USE_SOURCES.includes(s.text)) {
      throw c.expected(
        `what is read (${USE_SOURCES.join(", ")})`,
        `読むもの(${USE_SOURCES.join("、")})`,
        s?.kind === "name" ? didYouMean(s.text, USE_SOURCES) : null,
      );
    }
    const source = c.word(c.next());
    const name = c.name(tr("the name it is used by", "使うときの名前"));
    c.expectWord("from");
    const path = c.string(
      tr('the path in double quotes: from "rules/x.rule"', '二重引用符で囲んだパス: from "rules/x.rule"'),
    );
    c.end();
    const items = this.each(node, (child, d): UseItemAst => {
      const head = d.peek()!;
      const here = { line: d.line, col: head.col };
      let item: UseItemAst;
      if (d.isWord("local")) {
        d.next();
        item = { kind: "local", ...here };
      } else if (head.kind === "name" && USE_ITEMS.includes(head.text)) {
        d.next();
        const kind = head.text as "lambda" | "connect" | "connection" | "url" | "plaintext";
        item = {
          kind,
          value: d.string(
            tr(`a string in double quotes after \`${kind}\``, `\`${kind}\` のあとに二重引用符で囲んだ文字列`),
          ),
          ...here,
        };
      } else {
        throw new LineError(
          head.col,
          tr(`${show(head)} is not a line of \`use\``, `${show(head)} は \`use\` の下に書けません`),
          slipOr(
            head,
            USE_ITEMS,
            tr(
              `under \`use\` come: ${USE_ITEMS.join(", ")}`,
              `\`use\` の下に書けるのは ${USE_ITEMS.join(", ")} です`,
            ),
          ),
        );
      }
      d.end();
      this.nothingUnder(child, tr(`\`${head.text}\``, `\`${head.text}\``));
      return item;
    });
    this.ast.uses.push({ source, name, path, items, ...at });
  }

  enumDecl(node: LineNode, c: Cursor, at: Pos): void {
    c.next();
    const name = c.name(tr("the enum's name", "列挙の名前"));
    c.expectPunct("=");
    const values = [enumValue(c)];
    while (c.takePunct("|")) values.push(enumValue(c));
    if (c.isPunct("<")) {
      throw new LineError(
        c.col(),
        tr(
          "an enum of a .flow has no order; its values are separated by `|`",
          ".flow の列挙には順序がありません。値は `|` で区切ります",
        ),
        tr(
          "write `enum tier = basic | silver | gold`; ordered enums come from rules",
          "`enum 段階 = 一般 | シルバー | ゴールド` と書いてください。順序のある列挙は規則に書きます",
        ),
      );
    }
    c.end();
    this.nothingUnder(node, tr("`enum`", "`enum`"));
    this.ast.enums.push({ name, values, ...at });
  }

  /** The field lines under `record`, `inputs` or `outputs`. */
  fields(node: LineNode): (FieldAst | ElidedAst)[] {
    return this.each(node, (child, d) => {
      const field = d.isKind("elided") ? this.elided(d) : this.field(d);
      d.end();
      this.nothingUnder(child, tr("a field", "フィールド"));
      return field;
    });
  }

  /** `name : type [range …] [secret]` */
  field(c: Cursor): FieldAst {
    const name = c.name(tr("a name", "名前"));
    c.expectPunct(":");
    const type = this.type(c, 0);
    const range = c.isWord("range") ? this.range(c) : null;
    const secret = c.isWord("secret") ? posOf(c, c.next()) : null;
    return { kind: "field", name, type, range, secret, line: name.line, col: name.col };
  }

  task(node: LineNode, c: Cursor, at: Pos): void {
    c.next();
    const name = c.name(tr("the task's name", "タスクの名前"));
    c.expectPunct("(");
    const params: (FieldAst | ElidedAst)[] = [];
    if (!c.takePunct(")")) {
      for (;;) {
        params.push(c.isKind("elided") ? this.elided(c) : this.field(c));
        if (c.takePunct(",")) continue;
        if (!c.isPunct(")")) throw c.expected("`,` or `)`", "`,` か `)`");
        c.next();
        break;
      }
    }
    let result: ResultAst | null = null;
    const arrow = c.takePunct("->");
    if (arrow !== null) {
      const type = this.type(c, 0);
      const range = c.isWord("range") ? this.range(c) : null;
      const secret = c.isWord("secret") ? posOf(c, c.next()) : null;
      result = { type, range, secret, line: c.line, col: arrow.col };
    }
    c.end();
    const items = this.each(node, (child, d) => this.taskItem(child, d));
    this.ast.tasks.push({ name, params, result, items, ...at });
  }

  /** One line under `task`: the reader of its first word (`TASK_ITEM_READERS`), or `jev` and what is under it. */
  taskItem(node: LineNode, c: Cursor): TaskItemAst {
    const head = c.peek()!;
    if (head.kind === "elided") {
      const e = this.elided(c);
      c.end();
      return e;
    }
    const at = { line: c.line, col: head.col };
    if (head.kind === "name" && head.text === "jev") return this.jev(node, c, at);
    const read = head.kind === "name" ? TASK_ITEM_READERS.get(head.text) : undefined;
    if (read === undefined) {
      throw new LineError(
        head.col,
        tr(`${show(head)} is not an item of a task`, `${show(head)} はタスクの下に書けません`),
        slipOr(
          head,
          [...TASK_ITEM_READERS.keys(), "jev"],
          tr(`under a task come: ${TASK_ITEM_LIST}`, `タスクの下に書けるのは ${TASK_ITEM_LIST} です`),
        ),
      );
    }
    c.next();
    const item = read(c, at, this);
    c.end();
    this.nothingUnder(node, tr(`\`${head.text}\``, `\`${head.text}\``));
    return item;
  }

  /** `name [= 402 | = ExceptionName], …` after `errors`. */
  errorDecls(c: Cursor): ErrorDeclAst[] {
    const out: ErrorDeclAst[] = [];
    do {
      const name = c.name(tr("an error's name", "エラーの名前"));
      let value: ErrorDeclAst["value"] = null;
      if (c.takePunct("=")) {
        value = c.isKind("number")
          ? { kind: "status", status: c.count(tr("an HTTP status", "HTTP のステータス")) }
          : {
            kind: "name",
            name: c.name(tr("an HTTP status or the name of an exception", "HTTP のステータスか例外の名前")),
          };
      }
      out.push({ name, value, line: name.line, col: name.col });
    } while (c.takePunct(","));
    return out;
  }

  /** `jev [provider] [score] ["question"]` and the meanings and questions under it. */
  jev(node: LineNode, c: Cursor, at: Pos): TaskItemAst {
    c.next();
    const provider = c.isKind("name") && !c.isWord("score")
      ? c.name(tr("the provider (typesafe or openai)", "送り先(typesafe か openai)"))
      : null;
    const score = c.isWord("score") ? posOf(c, c.next()) : null;
    const question = c.isKind("string") ? c.string(tr("the question", "質問")) : null;
    c.end();
    return { kind: "jev", provider, score, question, entries: this.jevEntries(node), ...at };
  }

  jevEntries(node: LineNode): JevEntryAst[] {
    return this.each(node, (child, d): JevEntryAst => {
      if (d.isKind("elided")) {
        const e = this.elided(d);
        d.end();
        return e;
      }
      const t = d.peek()!;
      const name = t.kind === "name" && (t.text === "true" || t.text === "false")
        ? d.anyName(tr("a value", "値"))
        : d.valueName(tr("a value, a field, or `true`/`false`", "値、フィールド、`true` か `false`"));
      if (d.isWord("confidence") && d.isWord("of", 1)) {
        d.next();
        d.next();
        const of = d.name(tr("the field whose confidence it takes", "確信度を取るフィールド"));
        d.end();
        this.nothingUnder(child, tr("`confidence of`", "`confidence of`"));
        return { kind: "confidence", name, of, line: name.line, col: name.col };
      }
      const score = d.isWord("score") ? posOf(d, d.next()) : null;
      const text = d.isKind("string") ? d.string(tr("the meaning or the question", "意味か質問")) : null;
      d.end();
      return {
        kind: "entry",
        name,
        score,
        text,
        entries: this.jevEntries(child),
        line: name.line,
        col: name.col,
      };
    });
  }

  caseDecl(node: LineNode, c: Cursor, at: Pos): void {
    c.next();
    const name = c.name(tr("the case's name", "案件の名前"));
    c.expectPunct(":");
    const type = c.dotted(tr("the case's record", "案件のレコード"));
    c.expectWord("follows");
    const follows = c.dotted(
      tr("the state machine `<rule>.<machine>`", "ステートマシン `<規則>.<ステートマシン>`"),
    );
    c.end();
    const items = this.each(node, (child, d): CaseItemAst => {
      const head = d.peek()!;
      const at = { line: d.line, col: head.col };
      let item: CaseItemAst;
      if (head.kind === "elided") {
        item = this.elided(d);
      } else if (d.takeWord("held")) {
        const input = d.name(tr("the rule's input", "規則の入力"));
        d.expectPunct("=");
        item = { kind: "held", input, value: this.expr(d, 0), ...at };
      } else if (d.takeWord("external")) {
        item = { kind: "external", events: d.names(tr("an event's name", "イベントの名前")), ...at };
      } else if (d.takeWord("state")) {
        item = {
          kind: "state",
          field: d.name(tr("the field that holds the state", "状態を持つフィールド")),
          ...at,
        };
      } else if (d.isWord("refused") && d.isWord("when", 1)) {
        d.next();
        d.next();
        const output = d.name(tr("the rule's output", "規則の出力"));
        d.expectPunct("=");
        item = { kind: "refused when", output, value: this.expr(d, 0), ...at };
      } else {
        throw new LineError(
          head.col,
          tr(`${show(head)} is not an item of a case`, `${show(head)} は案件の下に書けません`),
          slipOr(
            head,
            [...new Set(keywordsAt("case item").map((w) => w.split(" ")[0]))],
            tr(`under a case come: ${CASE_ITEM_LIST}`, `案件の下に書けるのは ${CASE_ITEM_LIST} です`),
          ),
        );
      }
      d.end();
      this.nothingUnder(child, tr(`\`${head.text}\``, `\`${head.text}\``));
      return item;
    });
    this.ast.cases.push({ name, type, follows, items, ...at });
  }

  // -------------------------------------------------------------------------------------------
  // Types and ranges (docs/design/dandori.md#types, docs/design/dandori.md#ranges)

  type(c: Cursor, depth: number): TypeAst {
    if (depth > MAX_NESTING) throw tooDeep(c);
    const start = c.peek();
    const at = { line: c.line, col: c.col() };
    let type: TypeAst;
    if (c.isWord("list") && c.isPunct("[", 1)) {
      c.next();
      c.next();
      const element = this.type(c, depth + 1);
      c.expectPunct("]");
      type = { kind: "list", element, ...at };
    } else if (start?.kind === "name" && c.isPunct("[", 1)) {
      type = this.unitType(c, at);
    } else {
      type = { kind: "named", parts: c.dotted(tr("a type", "型")), ...at };
    }
    return c.takePunct("?") ? { kind: "optional", inner: type, ...at } : type;
  }

  /** `dimension[unit]`, `money[円, incl_tax]`, `rate[step 0.1%]`; `℃` and `℉` only right after `[`. */
  unitType(c: Cursor, at: Pos): TypeAst {
    const dimension = c.name(tr("a type", "型"));
    c.expectPunct("[");
    let step: Word | null = null;
    let unit: Word | null = null;
    if (c.isWord("step") && c.isKind("number", 1)) {
      c.next();
      const n = c.number(tr("the step", "刻み"));
      const sign = c.peek();
      const percent = sign?.kind === "sign" && sign.text === "%" && sign.col === c.last().end;
      if (percent) c.next();
      step = { text: percent ? `${n.text}%` : n.text, line: n.line, col: n.col };
    } else {
      const u = c.peek();
      if (u?.kind === "sign") unit = c.word(c.next());
      else unit = c.name(tr("a unit (円, kg, ℃ …)", "単位(円、kg、℃ …)"));
    }
    const tax = c.takePunct(",")
      ? c.name(tr("the tax class (incl_tax or excl_tax)", "税区分(incl_tax か excl_tax)"))
      : null;
    c.expectPunct("]");
    return { kind: "unit", dimension, step, unit, tax, ...at };
  }

  /** `range >=a <=b [offset ±hh:mm]`; either end may be left out. */
  range(c: Cursor): RangeAst {
    const head = c.expectWord("range");
    let lower: BoundAst | null = null;
    let upper: BoundAst | null = null;
    while (c.isPunct(">=") || c.isPunct("<=")) {
      const op = c.next();
      const bound: BoundAst = {
        op: op.text as ">=" | "<=",
        value: this.boundValue(c),
        line: c.line,
        col: op.col,
      };
      if ((op.text === ">=" ? lower : upper) !== null) throw twice(op, op.text);
      if (op.text === ">=") lower = bound;
      else upper = bound;
    }
    if (c.isPunct(">") || c.isPunct("<")) {
      throw new LineError(
        c.col(),
        tr("a range's ends are written with `>=` and `<=`", "範囲の端は `>=` と `<=` で書きます"),
        tr("write `>=1` for `>0`, and `<=9` for `<10`", "`>0` は `>=1`、`<10` は `<=9` と書いてください"),
      );
    }
    if (lower === null && upper === null) {
      throw c.expected("`>=` or `<=` after `range`", "`range` のあとに `>=` か `<=`");
    }
    const offset = c.takeWord("offset") ? this.offset(c) : null;
    return { lower, upper, offset, line: c.line, col: head.col };
  }

  boundValue(c: Cursor): BoundValueAst {
    const t = c.peek();
    if (t?.kind === "number") {
      const number = c.word(c.next());
      const rest = c.peek();
      if (rest?.kind === "number" && rest.col === t.end && rest.text.startsWith("-")) {
        throw new LineError(
          t.col,
          tr("a date in a range is written `YYYY-MM-DD`", "範囲の日付は `YYYY-MM-DD` と書きます"),
          tr(
            "write the month and the day with two digits: `2026-01-01`",
            "月と日は二桁で書いてください: `2026-01-01`",
          ),
        );
      }
      const u = c.peek();
      const unit = u !== undefined && u.col === t.end && (u.kind === "name" || u.kind === "sign")
        ? c.word(c.next())
        : null;
      return { kind: "number", number, unit };
    }
    if (t?.kind === "date") return { kind: "date", date: c.word(c.next()) };
    if (t?.kind === "name") return { kind: "name", name: c.valueName(tr("an end of the range", "範囲の端")) };
    throw c.expected(
      "an integer, a number with a unit, an enum value or a date",
      "整数、単位の付いた数、列挙の値か日付",
    );
  }

  /** `+09:00` or `-05:00`, written without spaces. */
  offset(c: Cursor): Word {
    const first = c.peek();
    const bad = () =>
      new LineError(
        first?.col ?? c.col(),
        tr(
          "expected the offset as `+09:00` or `-05:00` after `offset`",
          "`offset` のあとには `+09:00` や `-05:00` の形のオフセットが来ます",
        ),
      );
    let hours: string;
    if (first?.kind === "punct" && first.text === "+") {
      c.next();
      const h = c.peek();
      if (h?.kind !== "number" || h.col !== first.end || !/^[0-9]{2}$/.test(h.text)) throw bad();
      c.next();
      hours = `+${h.text}`;
    } else if (first?.kind === "number" && /^-[0-9]{2}$/.test(first.text)) {
      c.next();
      hours = first.text;
    } else {
      throw bad();
    }
    const colon = c.peek();
    if (colon?.kind !== "punct" || colon.text !== ":" || colon.col !== c.last().end) throw bad();
    c.next();
    const m = c.peek();
    if (m?.kind !== "number" || m.col !== colon.end || !/^[0-9]{2}$/.test(m.text)) throw bad();
    c.next();
    return { text: `${hours}:${m.text}`, line: c.line, col: first!.col };
  }

  duration(c: Cursor): DurationAst {
    const amount = c.count(tr("a length of time, a whole number", "時間の長さ(整数)"));
    const u = c.peek();
    if (u?.kind !== "name" || !TIME_WORDS.has(u.text)) {
      throw c.expected("seconds, minutes, hours or days", "seconds、minutes、hours、days のどれか");
    }
    return { amount, unit: c.word(c.next()), line: amount.line, col: amount.col };
  }

  // -------------------------------------------------------------------------------------------
  // Statements (docs/design/dandori.md#statements-and-values)

  body(node: LineNode, at: Pos): BodyAst {
    return { body: this.block(node), ...at };
  }

  /** The statements indented under `node`. */
  block(node: LineNode): StmtAst[] {
    return this.each(node, (child, c) => this.statement(child, c));
  }

  /** A statement and what is indented under it. */
  statement(node: LineNode, c: Cursor): StmtAst {
    const { stmt, under } = this.simple(c);
    this.under(node, under, stmt);
    return stmt;
  }

  /** Gives the lines under a statement to it: handlers, a body or arms. */
  under(node: LineNode, under: Under, stmt: StmtAst): void {
    if (under === null) {
      if (stmt.kind !== "elided") this.nothingUnder(node, tr(`\`${stmt.kind}\``, `\`${stmt.kind}\``));
      return;
    }
    switch (under.kind) {
      case "handlers":
        under.into.push(...this.each(node, (child, d) => this.handler(child, d)));
        return;
      case "body":
        under.into.push(...this.block(node));
        return;
      case "arms":
        under.into.push(...this.each(node, (child, d) => this.arm(child, d)));
        return;
      default:
        unreachable(under, "block under a statement");
    }
  }

  /** One statement on the rest of the line. */
  simple(c: Cursor): { stmt: StmtAst; under: Under } {
    const head = c.peek()!;
    const at = { line: c.line, col: head.col };
    if (head.kind === "elided") {
      const stmt = this.elided(c);
      c.end();
      return { stmt, under: null };
    }
    let stmt: StmtAst;
    let under: Under = null;
    switch (head.kind === "name" ? head.text : "") {
      case "let": {
        c.next();
        const name = c.name(tr("the variable's name", "変数の名前"));
        const type = c.takePunct(":") ? this.type(c, 0) : null;
        const equals = c.expectPunct("=");
        if (c.isWord("for")) {
          if (type !== null) {
            throw new LineError(
              equals.col,
              tr(
                "a `for` that collects its `yield`s takes no type: the list's type comes from what it yields",
                "`yield` を集める `for` には型を書きません。リストの型は `yield` する値から決まります",
              ),
              tr("write `let r = for …`", "`let r = for …` と書いてください"),
            );
          }
          return this.forLoop(c, name, at);
        }
        if (callAhead(c)) return this.callStatement(c, { kind: "let", name, type }, at);
        stmt = { kind: "let", name, type, value: this.expr(c, 0), ...at };
        break;
      }
      case "match": {
        c.next();
        const arms: ArmAst[] = [];
        stmt = { kind: "match", subject: this.expr(c, 0), arms, ...at };
        under = { kind: "arms", into: arms };
        break;
      }
      case "wait":
        c.next();
        stmt = c.takeWord("until")
          ? { kind: "wait", duration: null, until: this.expr(c, 0), ...at }
          : { kind: "wait", duration: this.duration(c), until: null, ...at };
        break;
      case "repeat": {
        c.next();
        c.expectWord("at");
        c.expectWord("most");
        const atMost = c.count(tr("the most times it runs, a whole number", "回る回数の上限(整数)"));
        c.expectWord("times");
        const body: StmtAst[] = [];
        stmt = { kind: "repeat", atMost, body, ...at };
        under = { kind: "body", into: body };
        break;
      }
      case "for":
        return this.forLoop(c, null, at);
      case "yield":
        c.next();
        stmt = { kind: "yield", value: this.expr(c, 0), ...at };
        break;
      case "break":
      case "pass":
        c.next();
        stmt = { kind: head.text as "break" | "pass", ...at };
        break;
      case "succeed": {
        c.next();
        const outputs: { name: Word; value: ExprAst }[] = [];
        if (!c.atEnd()) {
          do {
            const name = c.name(tr("an output's name", "出力の名前"));
            c.expectPunct("=");
            outputs.push({ name, value: this.expr(c, 0) });
          } while (c.takePunct(","));
        }
        stmt = { kind: "succeed", outputs, ...at };
        break;
      }
      case "fail": {
        c.next();
        const error = c.name(tr("the error's name", "エラーの名前"));
        const reason = c.isKind("string") ? this.stringExpr(c, c.next(), 0) : null;
        const leaving = c.takeWord("leaving") ? c.names(tr("a case's name", "案件の名前")) : [];
        stmt = { kind: "fail", error, reason, leaving, ...at };
        break;
      }
      case "on":
        throw new LineError(
          head.col,
          tr(
            "a handler `on … =>` is written under a call, indented deeper than it",
            "ハンドラー `on … =>` は、呼び出しの下に、それより深く字下げして書きます",
          ),
        );
      default:
        if (head.kind === "name" && c.isPunct("<-", 1)) {
          const name = c.name(tr("the case's name", "案件の名前"));
          c.next();
          if (!callAhead(c)) throw c.expected("a task call after `<-`", "`<-` のあとにタスクの呼び出し");
          return this.callStatement(c, { kind: "case", name }, at);
        }
        if (callAhead(c)) return this.callStatement(c, null, at);
        throw new LineError(
          head.col,
          tr(`${show(head)} does not start a statement`, `${show(head)} では文が始まりません`),
          slipOr(
            head,
            STATEMENT_WORDS,
            tr(
              `a statement starts with ${STATEMENT_LIST.en}`,
              `文は ${STATEMENT_LIST.ja} のどれかで始めます`,
            ),
          ),
        );
    }
    c.end();
    return { stmt, under };
  }

  callStatement(c: Cursor, bind: CallStmtAst["bind"], at: Pos): { stmt: StmtAst; under: Under } {
    const call = this.call(c);
    c.end();
    const handlers: HandlerAst[] = [];
    return {
      stmt: { kind: "call", bind, call, handlers, ...at },
      under: { kind: "handlers", into: handlers },
    };
  }

  call(c: Cursor): CallAst {
    const at = { line: c.line, col: c.col() };
    const callee = c.dotted(tr("the task, rule or date called", "呼ぶタスク・規則・日付"));
    c.expectPunct("(");
    const args: ArgAst[] = [];
    if (!c.takePunct(")")) {
      for (;;) {
        if (c.isKind("elided")) {
          args.push(this.elided(c));
        } else {
          const name = c.name(tr("an argument's name (`name: value`)", "引数の名前(`名前: 値`)"));
          c.expectPunct(":");
          args.push({ kind: "arg", name, value: this.expr(c, 0), line: name.line, col: name.col });
        }
        if (c.takePunct(",")) continue;
        if (!c.isPunct(")")) throw c.expected("`,` or `)`", "`,` か `)`");
        c.next();
        break;
      }
    }
    return { callee, args, ...at };
  }

  /** `for x in <list> at most <n> [in parallel[, <k> at a time]]`, after `let r =` when `bind` is given. */
  forLoop(c: Cursor, bind: Word | null, at: Pos): { stmt: StmtAst; under: Under } {
    c.expectWord("for");
    const variable = c.name(tr("the loop's variable", "ループの変数"));
    c.expectWord("in");
    const list = this.expr(c, 0);
    c.expectWord("at");
    c.expectWord("most");
    const atMost = c.count(tr("the most items, a whole number", "要素の数の上限(整数)"));
    let parallel: ForStmtAst["parallel"] = null;
    const inWord = c.takeWord("in");
    if (inWord !== null) {
      c.expectWord("parallel");
      let together: Word | null = null;
      if (c.takePunct(",")) {
        together = c.count(tr("how many run at a time, a whole number", "同時に回す数(整数)"));
        c.expectWord("at");
        c.expectWord("a");
        c.expectWord("time");
      }
      parallel = { at: posOf(c, inWord), together };
    }
    c.end();
    const body: StmtAst[] = [];
    return {
      stmt: { kind: "for", bind, variable, list, atMost, parallel, body, ...at },
      under: { kind: "body", into: body },
    };
  }

  /** `on e1, e2 => [statement]` under a call. */
  handler(node: LineNode, c: Cursor): HandlerAst {
    const on = c.peek()!;
    if (!c.isWord("on")) {
      throw new LineError(
        on.col,
        tr(
          "under a call come only its handlers `on <error>, … =>`",
          "呼び出しの下に書けるのは、ハンドラー `on <エラー>, … =>` だけです",
        ),
        tr(
          "write the next statement at the call's indentation",
          "次の文は、呼び出しと同じ字下げで書いてください",
        ),
      );
    }
    c.next();
    const errors = c.names(
      tr(
        "an error's name (failure, timeout or a declared error)",
        "エラーの名前(failure、timeout か宣言したエラー)",
      ),
    );
    return { errors, body: this.arrowBody(node, c), line: c.line, col: on.col };
  }

  /** `<pattern>, … => [statement]` under `match`. */
  arm(node: LineNode, c: Cursor): ArmAst {
    const at = { line: c.line, col: c.col() };
    const patterns: PatternAst[] = [];
    do {
      patterns.push(this.pattern(c));
    } while (c.takePunct(","));
    return { patterns, body: this.arrowBody(node, c), ...at };
  }

  pattern(c: Cursor): PatternAst {
    const t = c.peek();
    if (t?.kind === "elided") return this.elided(c);
    const at = { line: c.line, col: c.col() };
    if (c.takeWord("none")) return { kind: "none", ...at };
    if (c.takeWord("true")) return { kind: "bool", value: true, ...at };
    if (c.takeWord("false")) return { kind: "bool", value: false, ...at };
    if (c.takeWord("some")) {
      return { kind: "some", name: c.name(tr("the name after `some`", "`some` のあとの名前")), ...at };
    }
    return {
      kind: "value",
      name: c.valueName(tr("a value, `none` or `some <name>`", "値、`none` か `some <名前>`")),
      ...at,
    };
  }

  /** After `=>`: a statement on the same line, or the statements indented under the line. */
  arrowBody(node: LineNode, c: Cursor): StmtAst[] {
    c.expectPunct("=>");
    if (!c.atEnd()) {
      const { stmt, under } = this.simple(c);
      this.under(node, under, stmt);
      return [stmt];
    }
    if (node.children.length === 0) {
      throw new LineError(
        c.col(),
        tr("nothing follows `=>`", "`=>` のあとに何もありません"),
        tr(
          "write a statement after `=>` (`pass` to do nothing) or indent statements under it",
          "`=>` のあとに文(何もしないなら `pass`)を書くか、下に字下げして文を書いてください",
        ),
      );
    }
    return this.block(node);
  }

  // -------------------------------------------------------------------------------------------
  // Values

  expr(c: Cursor, depth: number): ExprAst {
    if (depth > MAX_NESTING) throw tooDeep(c);
    const t = c.peek();
    if (t === undefined) throw c.expected("a value", "値");
    const at = { line: c.line, col: t.col };
    switch (t.kind) {
      case "elided":
        return this.elided(c);
      case "number":
        c.next();
        return { kind: "number", text: t.text, ...at };
      case "string":
        c.next();
        return this.stringExpr(c, t, depth);
      case "date":
        throw new LineError(
          t.col,
          tr("a date is written in a value as a string", "値の中の日付は文字列で書きます"),
          tr(`write "${t.text}"`, `"${t.text}" と書いてください`),
        );
      case "punct":
        if (t.text === "{") return this.recordExpr(c, depth);
        if (t.text === "[") return this.listExpr(c, depth);
        throw c.expected("a value", "値");
      case "sign":
        throw c.expected("a value", "値");
      case "name":
        switch (t.text) {
          case "true":
          case "false":
            c.next();
            return { kind: "bool", value: t.text === "true", ...at };
          case "none":
            c.next();
            return { kind: "none", ...at };
          case "now":
            c.next();
            return { kind: "now", ...at };
        }
        if (callAhead(c)) {
          throw new LineError(
            t.col,
            tr("a call is a statement of its own, not a value", "呼び出しは文で、値の中には書けません"),
            tr(
              "call it on its own line, `let x = t(…)`, and use `x` here",
              "`let x = t(…)` と別の行で呼び、ここには `x` を書いてください",
            ),
          );
        }
        return { kind: "path", parts: c.path(tr("a value", "値")), ...at };
      default:
        return unreachable(t.kind, "token");
    }
  }

  recordExpr(c: Cursor, depth: number): ExprAst {
    const open = c.next();
    const fields: RecordEntryAst[] = [];
    if (!c.takePunct("}")) {
      for (;;) {
        const name = c.name(tr("a field's name (`name: value`)", "フィールドの名前(`名前: 値`)"));
        c.expectPunct(":");
        fields.push({ name, value: this.expr(c, depth + 1), line: name.line, col: name.col });
        if (c.takePunct(",")) continue;
        if (!c.isPunct("}")) throw c.expected("`,` or `}`", "`,` か `}`");
        c.next();
        break;
      }
    }
    return { kind: "record", fields, line: c.line, col: open.col };
  }

  listExpr(c: Cursor, depth: number): ExprAst {
    const open = c.next();
    const items: ExprAst[] = [];
    if (!c.takePunct("]")) {
      for (;;) {
        items.push(this.expr(c, depth + 1));
        if (c.takePunct(",")) continue;
        if (!c.isPunct("]")) throw c.expected("`,` or `]`", "`,` か `]`");
        c.next();
        break;
      }
    }
    return { kind: "list", items, line: c.line, col: open.col };
  }

  /** A string in a value: `{value}` embeds a value, `{{` and `}}` are braces themselves. */
  stringExpr(c: Cursor, t: Token, depth: number): ExprAst {
    const raw = t.raw;
    const parts: StringPartAst[] = [];
    let text = "";
    let i = 0;
    const colOf = (k: number) => t.col + k + 1;
    while (i < raw.length) {
      const ch = raw[i];
      if (ch === "\\" && (raw[i + 1] === '"' || raw[i + 1] === "\\")) {
        text += raw[i + 1];
        i += 2;
      } else if ((ch === "{" || ch === "}") && raw[i + 1] === ch) {
        text += ch;
        i += 2;
      } else if (ch === "}") {
        throw new LineError(
          colOf(i),
          tr("a `}` alone in a string", "文字列の中に `}` が一つだけあります"),
          tr("write `}}` for a brace itself", "波括弧そのものは `}}` と書いてください"),
        );
      } else if (ch === "{") {
        let j = i + 1;
        while (j < raw.length && raw[j] !== "}") j++;
        if (j >= raw.length) {
          throw new LineError(
            colOf(i),
            tr("a `{` in a string that is not closed", "文字列の中の `{` が閉じていません"),
            tr(
              "close the value with `}`, or write `{{` for a brace itself",
              "値を `}` で閉じるか、波括弧そのものは `{{` と書いてください",
            ),
          );
        }
        const tokens = tokenize(raw, i + 1, j, t.col);
        if (tokens.length === 0) {
          throw new LineError(
            colOf(i),
            tr("an empty `{}` in a string", "文字列の中に空の `{}` があります"),
            tr(
              "write a value between the braces, or `{{}}` for braces themselves",
              "波括弧の中に値を書くか、波括弧そのものは `{{}}` と書いてください",
            ),
          );
        }
        if (text !== "") parts.push({ kind: "text", text });
        text = "";
        const inner = new Cursor(tokens, c.line, colOf(j));
        parts.push({ kind: "hole", value: this.expr(inner, depth + 1) });
        inner.end();
        i = j + 1;
      } else {
        text += ch;
        i++;
      }
    }
    if (text !== "") parts.push({ kind: "text", text });
    return { kind: "string", parts, line: c.line, col: t.col };
  }
}

// ---------------------------------------------------------------------------------------------
// Task items (docs/design/dandori.md#ways-of-calling-a-task)

/** Reads the rest of a task item's line, its first word taken; `p` reads what statements share. */
type ItemReader = (c: Cursor, at: Pos, p: Parser) => TaskItemAst;

/** A string in double quotes after the item's word. */
function quotedAfter(c: Cursor, after: string): Str {
  return c.string(
    tr(`a string in double quotes after \`${after}\``, `\`${after}\` のあとに二重引用符で囲んだ文字列`),
  );
}

/** `lambda "…"`, `model "…"`, `flow "…"` and the other items that are a word and a string. */
function valueItem(
  kind: "lambda" | "connection" | "model" | "url" | "plaintext" | "flow" | "queue" | "image",
): ItemReader {
  return (c, at) => ({ kind, value: quotedAfter(c, kind), ...at });
}

/** `idempotent`, `callback`, `event`, `observes`: a word alone. */
function wordItem(kind: "idempotent" | "callback" | "event" | "observes"): ItemReader {
  return (_, at) => ({ kind, ...at });
}

/** Where a child workflow is: `workflow ["template"] "…"`, `state machine "…"`, `durable function "…"`. */
function childItem(c: Cursor, at: Pos): TaskItemAst {
  const platform = c.takeWord("template") ? "workflow template" : "workflow";
  return { kind: "child", platform, value: quotedAfter(c, platform), ...at };
}

/** A child platform of two words: the second must follow the first. */
function twoWordChild(second: string, platform: "state machine" | "durable function"): ItemReader {
  return (c, at) => {
    c.expectWord(second);
    return { kind: "child", platform, value: quotedAfter(c, platform), ...at };
  };
}

/** `http <METHOD> [<api>] "<url>" [form]` */
function httpItem(c: Cursor, at: Pos): TaskItemAst {
  const method = c.name(tr("the HTTP method (GET, POST …)", "HTTP のメソッド(GET、POST …)"));
  const api = c.isKind("name")
    ? c.name(tr("the name given to `use openapi`", "`use openapi` に付けた名前"))
    : null;
  const url = c.string(tr("the URL or the path in double quotes", "二重引用符で囲んだ URL かパス"));
  const form = c.isWord("form") ? posOf(c, c.next()) : null;
  return { kind: "http", method, api, url, form, ...at };
}

/** `aws <service>:<operation>` */
function awsItem(c: Cursor, at: Pos): TaskItemAst {
  const service = c.name(
    tr("the AWS service (sns, sqs, dynamodb …)", "AWS のサービス(sns、sqs、dynamodb …)"),
  );
  c.expectPunct(":");
  const operation = c.name(tr("the operation after `:`", "`:` のあとに操作"));
  return { kind: "aws", service, operation, ...at };
}

/** `agent [provider] "<instructions>"` */
function agentItem(c: Cursor, at: Pos): TaskItemAst {
  const provider = c.isKind("name")
    ? c.name(tr("the provider (openai or claude)", "プロバイダー(openai か claude)"))
    : null;
  return { kind: "agent", provider, instructions: quotedAfter(c, "agent"), ...at };
}

/** `effort <level>` */
function effortItem(c: Cursor, at: Pos): TaskItemAst {
  const level = c.anyName(tr("the level (low, medium, high …)", "レベル(low、medium、high …)"));
  return { kind: "effort", level, ...at };
}

/** `confidence <lowest> else <error>` */
function confidenceItem(c: Cursor, at: Pos): TaskItemAst {
  const threshold = c.number(
    tr("the lowest confidence, a number from 0 to 1", "確信度の下限(0 から 1 の数)"),
  );
  c.expectWord("else");
  const error = c.name(tr("the error's name after `else`", "`else` のあとにエラーの名前"));
  return { kind: "confidence", threshold, error, ...at };
}

/** `refusal else <error>` */
function refusalItem(c: Cursor, at: Pos): TaskItemAst {
  c.expectWord("else");
  return {
    kind: "refusal",
    error: c.name(tr("the error's name after `else`", "`else` のあとにエラーの名前")),
    ...at,
  };
}

/** `connect <api> "<service>/<method>"` */
function connectItem(c: Cursor, at: Pos): TaskItemAst {
  const api = c.name(tr("the name given to `use proto`", "`use proto` に付けた名前"));
  const method = c.string(
    tr('"<service>/<method>" in double quotes', '二重引用符で囲んだ "<サービス>/<メソッド>"'),
  );
  return { kind: "connect", api, method, ...at };
}

/** `retry <n> times [every <duration>] [backoff <rate>] [on <error>, …]` */
function retryItem(c: Cursor, at: Pos, p: Parser): TaskItemAst {
  const times = c.count(tr("how many times, a whole number", "回数(整数)"));
  c.expectWord("times");
  const every = c.takeWord("every") ? p.duration(c) : null;
  const backoff = c.takeWord("backoff")
    ? c.number(tr("the backoff rate, a number", "間隔を伸ばす倍率(数)"))
    : null;
  const on = c.takeWord("on") ? c.names(tr("an error's name", "エラーの名前")) : [];
  return { kind: "retry", times, every, backoff, on, ...at };
}

/** `timeout <duration>` or `timeout until <argument>` */
function timeoutItem(c: Cursor, at: Pos, p: Parser): TaskItemAst {
  if (!c.takeWord("until")) return { kind: "timeout", after: p.duration(c), until: null, ...at };
  const until = c.name(tr("the task's timestamp argument", "タスクの timestamp の引数"));
  return { kind: "timeout", after: null, until, ...at };
}

/** `key [<argument>]` */
function keyItem(c: Cursor, at: Pos): TaskItemAst {
  const param = c.isKind("name") ? c.name(tr("the argument that takes the key", "キーを受け取る引数")) : null;
  return { kind: "key", param, ...at };
}

/** `starts <machine> [then <event>, …]` */
function startsItem(c: Cursor, at: Pos): TaskItemAst {
  const machine = c.dotted(
    tr("the state machine `<rule>.<machine>`", "ステートマシン `<規則>.<ステートマシン>`"),
  );
  const then = c.takeWord("then") ? c.names(tr("an event's name", "イベントの名前")) : [];
  return { kind: "starts", machine, then, ...at };
}

/** `book <book>.<transfer>.<operation>` */
function bookItem(c: Cursor, at: Pos): TaskItemAst {
  const parts = c.dotted(tr("`<book>.<transfer>.<operation>`", "`<帳簿>.<振替>.<操作>`"));
  if (parts.length !== 3) {
    throw new LineError(
      parts[0].col,
      tr(
        "a book task names `<book>.<transfer>.<operation>`",
        "帳簿のタスクは `<帳簿>.<振替>.<操作>` と書きます",
      ),
      tr("for example `book stock.reserve.hold`", "たとえば `book stock.reserve.hold`"),
    );
  }
  return { kind: "book", book: parts[0], transfer: parts[1], operation: parts[2], ...at };
}

/** `discloses <argument>, … "<reason>"` (docs/design/dandori.md#secrets-and-plain-http) */
function disclosesItem(c: Cursor, at: Pos): TaskItemAst {
  const params = c.names(tr("an argument's name", "引数の名前"));
  return { kind: "discloses", params, reason: quotedAfter(c, "discloses <argument>"), ...at };
}

/** The readers of a task's items by their first word; `jev` reads the lines under it too (`Parser.jev`). */
const TASK_ITEM_READERS: ReadonlyMap<string, ItemReader> = new Map<string, ItemReader>([
  ["lambda", valueItem("lambda")],
  ["connection", valueItem("connection")],
  ["model", valueItem("model")],
  ["url", valueItem("url")],
  ["plaintext", valueItem("plaintext")],
  ["flow", valueItem("flow")],
  ["queue", valueItem("queue")],
  ["image", valueItem("image")],
  ["workflow", childItem],
  ["state", twoWordChild("machine", "state machine")],
  ["durable", twoWordChild("function", "durable function")],
  ["http", httpItem],
  ["aws", awsItem],
  ["agent", agentItem],
  ["effort", effortItem],
  ["confidence", confidenceItem],
  ["refusal", refusalItem],
  ["connect", connectItem],
  ["errors", (c, at, p) => ({ kind: "errors", errors: p.errorDecls(c), ...at })],
  ["retry", retryItem],
  ["timeout", timeoutItem],
  ["key", keyItem],
  ["idempotent", wordItem("idempotent")],
  ["callback", wordItem("callback")],
  ["event", wordItem("event")],
  ["observes", wordItem("observes")],
  ["starts", startsItem],
  ["sends", (c, at) => ({ kind: "sends", event: c.name(tr("the event's name", "イベントの名前")), ...at })],
  ["refused", (c, at) => {
    c.expectWord("as");
    return { kind: "refused as", error: c.name(tr("the error's name", "エラーの名前")), ...at };
  }],
  ["book", bookItem],
  ["discloses", disclosesItem],
]);

/**
 * A value of an enum. `none` is read so the checker can say why it cannot be one (E006,
 * docs/design/dandori.md#statements-and-values: `match` reads `none` as the arm of no value); the other value
 * words cannot be read as names at all.
 */
function enumValue(c: Cursor): Word {
  return c.isWord("none")
    ? c.anyName(tr("a value of the enum", "列挙の値"))
    : c.valueName(tr("a value of the enum", "列挙の値"));
}

/** A name, maybe dotted, followed by `(`: a call. */
function callAhead(c: Cursor): boolean {
  if (!c.isKind("name")) return false;
  let k = 0;
  while (c.isPunct(".", k + 1) && c.isKind("name", k + 2)) k += 2;
  return c.isPunct("(", k + 1);
}

function posOf(c: Cursor, t: Token): Pos {
  return { line: c.line, col: t.col };
}

function twice(t: Token, what: string): LineError {
  return new LineError(
    t.col,
    tr(`\`${what}\` is written twice`, `\`${what}\` が二度書かれています`),
    tr("write it once", "一度だけ書いてください"),
  );
}

function tooDeep(c: Cursor): LineError {
  return new LineError(
    c.col(),
    tr(`values nested more than ${MAX_NESTING} deep`, `値の入れ子が ${MAX_NESTING} 段を超えています`),
  );
}
