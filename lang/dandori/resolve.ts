/**
 * Resolution of a flow's declarations (docs/design/dandori.md#declarations): names bound, types and
 * ranges read, books read through the port, tasks and cases checked against what they call and
 * follow (tasks in tasks.ts). Reports E002–E008 and E016; the statements are typed afterwards
 * (typing.ts).
 * @module
 */

import type { FileRead } from "./env.ts";
import { besidePath } from "../common/paths.ts";
import { unreachable } from "../common/assert.ts";
import { didYouMean } from "../common/nearest.ts";
import type { Reporter } from "../common/reporter.ts";
import { type Text, tr } from "../common/text.ts";
import type { DandoriCode } from "./codes.ts";
import type { CaseAst, ElidedAst, FieldAst, FlowAst, Pos, RecordAst, TypeAst, UseAst, Word } from "./ast.ts";
import { arnShape, hasArnShape } from "./arns.ts";
import { type BookPort, type BookTransfer, readBook } from "./books.ts";
import { type OpenApi, readOpenApi } from "./openapi.ts";
import { readSmithy, type Smithy } from "./smithy.ts";
import { type Proto, readProto } from "./proto.ts";
import { ProtoTypes } from "./proto_types.ts";
import { OpenApiTypes } from "./openapi_types.ts";
import { resolveTask } from "./tasks.ts";
import type { CaseDef, FlowModel, TaskDef } from "./model.ts";
import { readRange, timeRange } from "./ranges.ts";
import {
  type EnumDef,
  type FieldDef,
  INT,
  type Range,
  type RecordDef,
  SIMPLE_TYPES,
  STRING,
  type Ty,
} from "./types.ts";
import { unitOf } from "./units.ts";

/** Where a flow's files come from: its own path, and a reader for the files it names. */
export interface ResolveEnv {
  readonly file: string;
  /** A file, by a path already made relative to the working directory, or why it cannot be read. */
  readonly read: (path: string) => FileRead;
}

/** A path written in a flow, made relative to the directory of the flow. */
export function besideFlow(file: string, path: string): string {
  return besidePath(file, path);
}

class Resolver {
  private readonly records = new Map<string, RecordDef>();
  private readonly enums = new Map<string, EnumDef>();
  private readonly recordNames = new Set<string>();
  private readonly books = new Map<string, BookPort>();
  private readonly apis = new Map<string, OpenApi>();
  private readonly smithies = new Map<string, Smithy>();
  private readonly protos = new Map<string, Proto>();
  /** The types made from descriptions that generated code would spell as another type, by the name that made them. */
  private readonly clashes = new Map<string, [string, string][]>();
  private readonly clashesSaid = new Set<string>();

  constructor(
    private readonly ast: FlowAst,
    private readonly env: ResolveEnv,
    private readonly r: Reporter<DandoriCode>,
  ) {}

  resolve(): FlowModel | null {
    const ast = this.ast;
    const workflow = ast.workflows[0];
    if (workflow === undefined) {
      this.r.error(
        "E001",
        { line: 1, col: 1 },
        tr(
          "the file has no `workflow <name> v<n>` line",
          "ファイルに `workflow <名前> v<版>` の行がありません",
        ),
        {
          quote: false,
          hint: tr(
            "start the flow with `workflow <name> v1`",
            "フローは `workflow <名前> v1` の行から書きます",
          ),
        },
      );
    }
    this.twice(ast.workflows, (w) => w, tr("`workflow`", "`workflow`"));
    const body = ast.flows[0];
    if (body === undefined) {
      this.r.error(
        "E001",
        { line: workflow?.line ?? 1, col: 1 },
        tr("the file has no `flow` block", "ファイルに `flow` の塊がありません"),
        { hint: tr("write the workflow's steps under `flow`", "ワークフローの手順を `flow` の下に書きます") },
      );
    }
    this.twice(ast.flows, (f) => f, tr("`flow`", "`flow`"));
    this.twice(ast.onFailure, (f) => f, tr("`on failure`", "`on failure`"));
    this.twice(ast.onCancel, (f) => f, tr("`on cancel`", "`on cancel`"));
    this.twice(ast.inputs, (f) => f, tr("`inputs`", "`inputs`"));
    this.twice(ast.outputs, (f) => f, tr("`outputs`", "`outputs`"));
    // A book that cannot be read stops here: its types, tasks and cases would all be said again as
    // names that do not exist, each following from the one E005 already said.
    if (!this.uses(ast.uses)) return null;
    this.declareTypes();
    for (const rec of ast.records) this.recordFields(rec);
    this.selfContaining();
    const inputs = this.fields(ast.inputs[0]?.fields ?? [], tr("an input", "入力"));
    const outputs = this.fields(ast.outputs[0]?.fields ?? [], tr("an output", "出力"));
    const period = workflow?.period == null ? null : this.period(workflow.period);
    const tasks = new Map<string, TaskDef>();
    for (const t of ast.tasks) {
      if (tasks.has(t.name.text)) {
        this.declaredTwice(t.name, tr("a task", "タスク"));
        continue;
      }
      tasks.set(
        t.name.text,
        resolveTask(t, {
          r: this.r,
          books: this.books,
          apis: this.apis,
          smithies: this.smithies,
          protos: this.protos,
          types: { records: this.records, enums: this.enums },
          fields: (asts, what) => this.fields(asts, what),
          type: (ty) => this.type(ty),
          range: (ast, ty) => this.range(ast, ty),
        }),
      );
    }
    const cases = new Map<string, CaseDef>();
    for (const c of ast.cases) {
      if (cases.has(c.name.text) || inputs.some((i) => i.name === c.name.text)) {
        this.declaredTwice(c.name, tr("a case or an input", "案件か入力"));
        continue;
      }
      const def = this.caseDef(c);
      if (def !== null) cases.set(c.name.text, def);
    }
    if (workflow === undefined || body === undefined) return null;
    return {
      file: this.env.file,
      name: workflow.name.text,
      ast,
      types: { records: this.records, enums: this.enums },
      inputs,
      outputs,
      period,
      books: this.books,
      tasks,
      cases,
      flow: body,
      onFailure: ast.onFailure[0] ?? null,
      onCancel: ast.onCancel[0] ?? null,
      typeOf: (t, r) => this.type(t, r),
    };
  }

  // -------------------------------------------------------------------------------------------
  // Declarations

  private twice<T>(xs: readonly T[], at: (x: T) => Pos, what: Text): void {
    for (const x of xs.slice(1)) {
      this.r.error(
        "E006",
        at(x),
        tr(`${what.en} is written twice`, `${what.ja} が二つあります`),
        { hint: tr("keep one and merge the other into it", "一つにまとめてください") },
      );
    }
  }

  private declaredTwice(name: Word, what: Text): void {
    this.r.error(
      "E006",
      name,
      tr(
        `\`${name.text}\` is declared twice as ${what.en}`,
        `\`${name.text}\` が${what.ja}として二度宣言されています`,
      ),
      { hint: tr("rename one of the two", "どちらかの名前を変えてください") },
    );
  }

  /** Reads the books of `use book` and the descriptions of `use openapi` and `use smithy`; false when one cannot be read (E005, E016). */
  private uses(uses: readonly UseAst[]): boolean {
    let read = true;
    const seen = new Set<string>();
    for (const u of uses) {
      if (seen.has(u.name.text)) {
        this.declaredTwice(u.name, tr("the name of a `use`", "`use` の名前"));
        continue;
      }
      seen.add(u.name.text);
      if (u.source.text === "openapi") {
        if (!this.openApi(u)) read = false;
        continue;
      }
      if (u.source.text === "smithy") {
        if (!this.smithy(u)) read = false;
        continue;
      }
      if (u.source.text === "proto") {
        if (!this.proto(u)) read = false;
        continue;
      }
      if (u.source.text !== "book") continue;
      for (const item of u.items) {
        if (item.kind === "lambda" && !hasArnShape("function", item.value.text)) {
          const shape = arnShape("function");
          this.r.error(
            "E007",
            item.value,
            tr(
              `\`lambda\` under \`use book ${u.name.text}\` is not ${shape.en}`,
              `\`use book ${u.name.text}\` の下の \`lambda\` が、${shape.ja}になっていません`,
            ),
          );
        }
        if (item.kind === "lambda") continue;
        this.notUnder(
          "book",
          item,
          tr(
            'under `use book` comes only `lambda "<function>"`, the function that operates the book on Step Functions',
            '`use book` の下に書けるのは、Step Functions で帳簿を操作する関数の `lambda "<関数>"` だけです',
          ),
        );
      }
      const path = besideFlow(this.env.file, u.path.text);
      const got = this.env.read(path);
      if (!("bytes" in got)) {
        this.r.error(
          "E005",
          u.path,
          tr(
            `the book "${u.path.text}" cannot be read: ${got.unreadable.en}`,
            `帳簿 "${u.path.text}" を読めません。${got.unreadable.ja}`,
          ),
          { notes: [tr(`looked for ${path}`, `${path} を探しました`)], hint: pathHint() },
        );
        read = false;
        continue;
      }
      const book = readBook(path, got.bytes);
      if ("errors" in book) {
        const first = book.errors[0];
        this.r.error(
          "E005",
          u.path,
          tr(
            `the book "${u.path.text}" does not pass chobo's check`,
            `帳簿 "${u.path.text}" は chobo の検査を通りません`,
          ),
          {
            notes: first === undefined ? [] : [
              tr(
                `${first.file}:${first.line}:${first.col}: ${first.code}: ${first.message.en}`,
                `${first.file}:${first.line}:${first.col}: ${first.code}: ${first.message.ja}`,
              ),
            ],
            hint: tr(
              `run \`chobo check ${path}\` and fix the book`,
              `\`chobo check ${path}\` で帳簿を直してください`,
            ),
          },
        );
        read = false;
        continue;
      }
      this.books.set(u.name.text, book.book);
    }
    return read;
  }

  /** E007 for an item written under `use <source>` that does not go there; `hint` says what does. */
  private notUnder(source: string, item: UseAst["items"][number], hint: Text): void {
    this.r.error(
      "E007",
      item,
      tr(
        `\`${item.kind}\` cannot be written under \`use ${source}\``,
        `\`use ${source}\` の下に \`${item.kind}\` は書けません`,
      ),
      { hint },
    );
  }

  /** The `url` written under a `use`, or null; E007 with `hint` for any other item there. */
  private onlyUrl(u: UseAst, hint: Text): string | null {
    let url: string | null = null;
    for (const item of u.items) {
      if (item.kind === "url") url = item.value.text;
      else this.notUnder(u.source.text, item, hint);
    }
    return url;
  }

  /**
   * Reads a `use openapi` (openapi.ts): the file beside the flow, through the flow's file port, so a
   * symbolic link is followed and the file must lie inside the flow's repository; an absolute path
   * is refused (a flow names its descriptions beside it). E016 at the path when it cannot be read;
   * E007 for an item under it other than `url`. False when it cannot be read.
   */
  private openApi(u: UseAst): boolean {
    const url = this.onlyUrl(
      u,
      tr(
        'under `use openapi` comes only `url "<https URL>"`, which replaces the description\'s servers',
        '`use openapi` の下に書けるのは、記述のサーバーを置き換える `url "<https の URL>"` だけです',
      ),
    );
    const what = tr("OpenAPI description", "OpenAPI の記述");
    const got = this.description(u, what);
    if (got === null) return false;
    const api = readOpenApi(got.path, got.bytes, url);
    if ("why" in api) return this.unreadDescription(u, what, api.why);
    if (api.url === null && api.server === null) {
      this.r.error(
        "E016",
        u,
        tr(
          `the OpenAPI description "${u.path.text}" names no server, so its operations have no URL`,
          `OpenAPI の記述 "${u.path.text}" にサーバーが無いので、操作の URL が決まりません`,
        ),
        {
          hint: tr(
            'write `url "<https URL>"` under the `use`',
            '`use` の下に `url "<https の URL>"` と書いてください',
          ),
        },
      );
      return false;
    }
    this.apis.set(u.name.text, api);
    return true;
  }

  /**
   * Reads a `use smithy` (smithy.ts) as `use openapi` is read; nothing may be written under it
   * (the SDK of each platform knows where AWS's services are). False when it cannot be read.
   */
  private smithy(u: UseAst): boolean {
    for (const item of u.items) {
      this.notUnder(
        "smithy",
        item,
        tr(
          "nothing is written under `use smithy`: each platform's AWS SDK knows where the service is",
          "`use smithy` の下には何も書きません。サービスの場所は、各プラットフォームの AWS の SDK が知っています",
        ),
      );
    }
    const what = tr("Smithy model", "Smithy のモデル");
    const got = this.description(u, what);
    if (got === null) return false;
    const model = readSmithy(got.bytes);
    if ("why" in model) return this.unreadDescription(u, what, model.why);
    this.smithies.set(u.name.text, model);
    return true;
  }

  /**
   * Reads a `use proto` (proto.ts) as `use openapi` is read, with the files it imports through the
   * same port (one that cannot be read is recorded, not refused); under it comes only `url`, where a
   * `connect` task sends. False when it cannot be read.
   */
  private proto(u: UseAst): boolean {
    const url = this.onlyUrl(
      u,
      tr(
        'under `use proto` comes only `url "<https URL>"`, where its `connect` tasks send',
        '`use proto` の下に書けるのは、`connect` のタスクが送る先の `url "<https の URL>"` だけです',
      ),
    );
    const what = tr("proto description", "proto の記述");
    const got = this.description(u, what);
    if (got === null) return false;
    const decoder = new TextDecoder("utf-8", { fatal: true });
    let text: string;
    try {
      text = decoder.decode(got.bytes);
    } catch {
      return this.unreadDescription(u, what, tr("it is not UTF-8", "UTF-8 ではありません"));
    }
    const proto = readProto(u.path.text, text, url, (path) => {
      const read = this.env.read(besideFlow(this.env.file, path));
      if (!("bytes" in read)) return null;
      try {
        return decoder.decode(read.bytes);
      } catch {
        return null;
      }
    });
    if ("why" in proto) return this.unreadDescription(u, what, proto.why);
    this.protos.set(u.name.text, proto);
    return true;
  }

  /**
   * The bytes of a description beside the flow, through the flow's file port (a symbolic link is
   * followed and the file must lie inside the flow's repository; an absolute path is refused), or
   * null after E016 at the path.
   */
  private description(u: UseAst, what: Text): { path: string; bytes: Uint8Array } | null {
    if (u.path.text.startsWith("/")) {
      this.unreadDescription(u, what, tr("the path is absolute", "パスが絶対パスです"));
      return null;
    }
    const path = besideFlow(this.env.file, u.path.text);
    const got = this.env.read(path);
    if ("bytes" in got) return { path, bytes: got.bytes };
    this.unreadDescription(u, what, got.unreadable, [tr(`looked for ${path}`, `${path} を探しました`)]);
    return null;
  }

  /** E016 at a `use`'s path for a description that cannot be read; false. */
  private unreadDescription(u: UseAst, what: Text, why: Text, notes: readonly Text[] = []): false {
    this.r.error(
      "E016",
      u.path,
      tr(
        `the ${what.en} "${u.path.text}" cannot be read: ${why.en}`,
        `${what.ja} "${u.path.text}" を読めません。${why.ja}`,
      ),
      { notes, hint: pathHint() },
    );
    return false;
  }

  /**
   * Names of records and enums, and the hold records of every book (docs/design/dandori.md#holds-of-a-book).
   */
  private declareTypes(): void {
    for (const [bookName, book] of this.books) {
      for (const t of book.transfers) {
        if (t.machine === null) continue;
        const name = `${bookName}.${t.name}`;
        const state = `${name}.state`;
        this.enums.set(state, { name: state, values: t.machine.states, line: 0 });
        this.recordNames.add(name);
        this.records.set(name, {
          name,
          line: 0,
          fields: [
            ...t.key.map((k) => {
              const p = t.params.find((x) => x.name === k);
              return { name: k, type: p?.amount ? INT : STRING, range: null, secret: null, line: 0, col: 0 };
            }),
            {
              name: "state",
              type: { kind: "enum", name: state },
              range: null,
              secret: null,
              line: 0,
              col: 0,
            },
          ],
        });
      }
    }
    const taken = (w: Word) =>
      SIMPLE_TYPES.has(w.text) || this.recordNames.has(w.text) || this.enums.has(w.text);
    for (const e of this.ast.enums) {
      if (taken(e.name)) {
        this.declaredTwice(e.name, tr("a type", "型"));
        continue;
      }
      const values: string[] = [];
      for (const v of e.values) {
        if (v.text === "none") {
          this.r.error(
            "E006",
            v,
            tr(
              "an enum value cannot be `none`: `match` reads `none` as the arm of no value",
              "列挙の値に `none` は使えません。`match` は `none` を、値が無いことの分岐として読みます",
            ),
            { hint: tr("give the value another name", "値に別の名前を付けてください") },
          );
        } else if (values.includes(v.text)) {
          this.r.error(
            "E006",
            v,
            tr(
              `the value \`${v.text}\` is written twice in \`${e.name.text}\``,
              `\`${e.name.text}\` に値 \`${v.text}\` が二つあります`,
            ),
            { hint: tr("write each value once", "値は一度ずつ書いてください") },
          );
        } else values.push(v.text);
      }
      this.enums.set(e.name.text, { name: e.name.text, values, line: e.line });
    }
    for (const rec of this.ast.records) {
      if (taken(rec.name)) {
        this.declaredTwice(rec.name, tr("a type", "型"));
        continue;
      }
      this.recordNames.add(rec.name.text);
    }
  }

  private recordFields(rec: RecordAst): void {
    if (this.records.has(rec.name.text) || !this.recordNames.has(rec.name.text)) return;
    const fields = this.fields(rec.fields, tr("a field", "フィールド"));
    this.records.set(rec.name.text, { name: rec.name.text, fields, line: rec.line });
  }

  /** E003 for a record that contains itself, directly or through others (docs/design/dandori.md#types). */
  private selfContaining(): void {
    const reach = (t: Ty): string[] =>
      t.kind === "record"
        ? [t.name]
        : t.kind === "list"
        ? reach(t.element)
        : t.kind === "optional"
        ? reach(t.inner)
        : [];
    for (const rec of this.ast.records) {
      const def = this.records.get(rec.name.text);
      if (def === undefined || def.line !== rec.line) continue;
      const path = this.cycle(rec.name.text, rec.name.text, reach, new Set());
      if (path === null) continue;
      this.r.error(
        "E003",
        rec.name,
        tr(
          `the record \`${rec.name.text}\` contains itself (${[rec.name.text, ...path].join(" → ")})`,
          `レコード \`${rec.name.text}\` が自分自身を含みます(${[rec.name.text, ...path].join(" → ")})`,
        ),
        {
          hint: tr(
            "carry the nested part as `json`: a type that contains itself cannot be carried the same way on every platform",
            "入れ子になるところを `json` にしてください。自分を含む型は、どのプラットフォームでも同じには運べません",
          ),
        },
      );
    }
  }

  private cycle(start: string, at: string, reach: (t: Ty) => string[], seen: Set<string>): string[] | null {
    for (const f of this.records.get(at)?.fields ?? []) {
      for (const next of reach(f.type)) {
        if (next === start) return [`${f.name}`];
        if (seen.has(next)) continue;
        seen.add(next);
        const rest = this.cycle(start, next, reach, seen);
        if (rest !== null) return [f.name, ...rest];
      }
    }
    return null;
  }

  private fields(asts: readonly (FieldAst | ElidedAst)[], what: Text): FieldDef[] {
    const out: FieldDef[] = [];
    for (const f of asts) {
      if (f.kind !== "field") continue;
      if (out.some((o) => o.name === f.name.text)) {
        this.declaredTwice(f.name, what);
        continue;
      }
      const def = this.field(f);
      if (def !== null) out.push(def);
    }
    return out;
  }

  private field(f: FieldAst): FieldDef | null {
    const type = this.type(f.type);
    if (type === null) return null;
    const range = f.range === null ? null : this.range(f.range, type);
    return { name: f.name.text, type, range, secret: f.secret, line: f.name.line, col: f.name.col };
  }

  private range(ast: NonNullable<FieldAst["range"]>, type: Ty): Range | null {
    const read = readRange(ast, type);
    if ("at" in read) {
      this.r.error("E003", read.at, read.message);
      return null;
    }
    return read;
  }

  private period(ast: NonNullable<FieldAst["range"]>): Range | null {
    return this.range(ast, { kind: "timestamp" }) ?? timeRange(null, null, null);
  }

  type(t: TypeAst, r: Reporter<"E002" | "E003" | "E006"> | null = this.r): Ty | null {
    switch (t.kind) {
      case "optional": {
        const inner = this.type(t.inner, r);
        return inner === null ? null : { kind: "optional", inner };
      }
      case "list": {
        const element = this.type(t.element, r);
        if (element === null) return null;
        const inside = element.kind === "optional" ? element.inner : element;
        if (inside.kind === "list") {
          r?.error(
            "E003",
            t,
            tr("a list of lists cannot be written", "リストのリストは書けません"),
            {
              hint: tr(
                "put the inner list in a record: JSONata flattens nested arrays",
                "内側のリストをレコードに入れてください。JSONata は入れ子の配列を平らにします",
              ),
            },
          );
          return null;
        }
        return { kind: "list", element };
      }
      case "unit": {
        const u = unitOf({
          dimension: t.dimension.text,
          unit: t.unit?.text ?? null,
          step: t.step?.text ?? null,
          tax: t.tax?.text ?? null,
        });
        if ("message" in u) {
          r?.error("E002", t, u.message, u.note === null ? {} : { notes: [u.note] });
          return null;
        }
        return { kind: "num", unit: u };
      }
      case "named":
        return this.named(t.parts, t, r);
    }
  }

  private named(parts: readonly Word[], at: Pos, r: Reporter<"E002" | "E003" | "E006"> | null): Ty | null {
    const name = parts.map((p) => p.text).join(".");
    if (parts.length === 1) {
      const simple = SIMPLE_TYPES.get(name);
      if (simple !== undefined) return simple;
      if (this.recordNames.has(name)) return { kind: "record", name };
      if (this.enums.has(name)) return { kind: "enum", name };
    } else if (this.protos.has(parts[0].text) || this.apis.has(parts[0].text)) {
      return this.madeType(parts, at, r);
    } else if (this.smithies.has(parts[0].text)) {
      r?.error(
        "E002",
        at,
        tr(
          `\`${
            parts[0].text
          }\` is a Smithy model, and types are made only from \`use proto\` and \`use openapi\` descriptions`,
          `\`${
            parts[0].text
          }\` は Smithy のモデルで、型は \`use proto\` と \`use openapi\` の記述からだけ作ります`,
        ),
        {
          hint: tr(
            "declare the type with `record` or `enum`: the task is matched to the model all the same",
            "型を `record` か `enum` で宣言してください。タスクはそれでもモデルと突き合わせます",
          ),
        },
      );
      return null;
    } else if (parts.length === 2) {
      if (this.recordNames.has(name)) return { kind: "record", name };
      const book = this.books.get(parts[0].text);
      if (book !== undefined) {
        const t = book.transfers.find((x) => x.name === parts[1].text);
        r?.error(
          "E002",
          at,
          t === undefined
            ? tr(
              `the book \`${parts[0].text}\` has no transfer \`${parts[1].text}\``,
              `帳簿 \`${parts[0].text}\` に振替 \`${parts[1].text}\` はありません`,
            )
            : tr(
              `\`${name}\` is done at once and has no holds, so it is not a type`,
              `\`${name}\` はすぐに確定する振替で、仮押さえが無いので、型になりません`,
            ),
          { notes: [holdTypesNote(parts[0].text, book)] },
        );
        return null;
      }
    }
    const known = [...SIMPLE_TYPES.keys(), ...this.recordNames, ...this.enums.keys()];
    r?.error("E002", at, tr(`there is no type \`${name}\``, `型 \`${name}\` はありません`), {
      hint: didYouMean(name, known) ?? tr(
        "declare it with `record` or `enum`, or use int, string, bool, timestamp, date, json, a unit type such as money[円], list[T] or T?",
        "`record` か `enum` で宣言するか、int・string・bool・timestamp・date・json、money[円] のような単位の型、list[T]、T? を使ってください",
      ),
    });
    return null;
  }

  /**
   * A type made from a `use proto` (proto_types.ts) or a `use openapi` (openapi_types.ts), or null
   * after its E002, E003 or E006; E006 also where a made type is spelt in generated code as another
   * type is (every target writes `.` as `_`: `warehouse.Order` is `warehouse_Order`). Every declared
   * type is known before the first is made.
   */
  private madeType(parts: readonly Word[], at: Pos, r: Reporter<"E002" | "E003" | "E006"> | null): Ty | null {
    const api = parts[0].text;
    const maps = { records: this.records, enums: this.enums };
    const proto = this.protos.get(api);
    const openapi = this.apis.get(api);
    const maker = proto !== undefined
      ? new ProtoTypes(api, proto, maps)
      : openapi !== undefined
      ? new OpenApiTypes(api, openapi, maps)
      : null;
    if (maker === null) return null;
    const before = new Set([...this.records.keys(), ...this.enums.keys()]);
    const made = maker.make(parts.slice(1).map((p) => p.text));
    if ("code" in made) {
      r?.error(made.code, at, made.message, {
        notes: made.notes,
        ...(made.hint === null ? {} : { hint: made.hint }),
      });
      return null;
    }
    const written = parts.map((p) => p.text).join(".");
    const spelt = new Map([...this.recordNames, ...before].map((n) => [n.replaceAll(".", "_"), n]));
    for (const name of [...this.records.keys(), ...this.enums.keys()]) {
      if (before.has(name)) continue;
      if (this.records.has(name)) this.recordNames.add(name);
      const other = spelt.get(name.replaceAll(".", "_"));
      if (other !== undefined) {
        this.clashes.set(written, [...(this.clashes.get(written) ?? []), [name, other]]);
      }
    }
    // A probe (no reporter) may make the type first: its clashes are said at the next naming that reports.
    if (r !== null && !this.clashesSaid.has(written)) {
      for (const [name, other] of this.clashes.get(written) ?? []) {
        this.clashesSaid.add(written);
        const spelling = name.replaceAll(".", "_");
        r.error(
          "E006",
          at,
          tr(
            `\`${name}\` is written \`${spelling}\` in generated code, as \`${other}\` is`,
            `\`${name}\` は、生成するコードで \`${other}\` と同じ \`${spelling}\` になります`,
          ),
          { hint: tr(`rename \`${other}\``, `\`${other}\` の名前を変えてください`) },
        );
      }
    }
    return made;
  }

  // -------------------------------------------------------------------------------------------
  // Cases (docs/design/dandori.md#cases)

  /** The machines a case may follow: every hold of the books read, `<book>.<transfer>`. */
  private holdMachines(): string[] {
    return [...this.books].flatMap(([b, book]) =>
      book.transfers.filter((t) => t.machine !== null).map((t) => `${b}.${t.name}`)
    );
  }

  private caseDef(c: CaseAst): CaseDef | null {
    const name = c.follows.map((w) => w.text).join(".");
    const [bookName, transferName] = c.follows.map((w) => w.text);
    const book = this.books.get(bookName);
    const transfer = c.follows.length === 2
      ? book?.transfers.find((x) => x.name === transferName)
      : undefined;
    if (transfer === undefined) {
      this.r.error(
        "E002",
        c.follows[0],
        tr(`there is no state machine \`${name}\``, `ステートマシン \`${name}\` はありません`),
        {
          hint: didYouMean(name, this.holdMachines()) ?? tr(
            "a case follows the hold of a book: `case c : <book>.<transfer> follows <book>.<transfer>`",
            "案件は帳簿の仮押さえに従います: `case c : <帳簿>.<振替> follows <帳簿>.<振替>`",
          ),
        },
      );
      return null;
    }
    if (transfer.machine === null) {
      this.r.error(
        "E008",
        c.follows[0],
        tr(
          `\`${name}\` is done at once and has no holds to follow`,
          `\`${name}\` はすぐに確定する振替で、従う仮押さえがありません`,
        ),
      );
      return null;
    }
    const typeName = c.type.map((w) => w.text).join(".");
    if (typeName !== name) {
      this.r.error(
        "E008",
        c.type[0],
        tr(
          `the record of a hold's case is the hold \`${name}\`, not \`${typeName}\``,
          `仮押さえの案件のレコードは仮押さえ \`${name}\` で、\`${typeName}\` ではありません`,
        ),
        {
          hint: tr(
            `write \`case ${c.name.text} : ${name} follows ${name}\``,
            `\`case ${c.name.text} : ${name} follows ${name}\` と書いてください`,
          ),
        },
      );
    }
    const machine = transfer.machine;
    for (const item of c.items) {
      switch (item.kind) {
        case "external":
          for (const e of item.events) {
            if (machine.external.includes(e.text)) continue;
            this.r.error(
              "E008",
              e,
              tr(
                `\`${e.text}\` is not an event the outside raises on \`${name}\``,
                `\`${e.text}\` は \`${name}\` に外で起きるイベントではありません`,
              ),
              {
                notes: [
                  machine.external.length === 0
                    ? tr(
                      `the holds of \`${name}\` never expire, so nothing happens to them from outside`,
                      `\`${name}\` の仮押さえは期限が切れないので、外で起きることはありません`,
                    )
                    : tr(
                      "`expire` is counted from the book without being written",
                      "`expire` は書かなくても帳簿から数えます",
                    ),
                ],
              },
            );
          }
          break;
        case "held":
        case "state":
        case "refused when":
          this.r.error(
            "E008",
            item,
            tr(
              `\`${item.kind}\` cannot be written under a case that follows a hold`,
              `仮押さえに従う案件の下に \`${item.kind}\` は書けません`,
            ),
            {
              notes: [
                tr(
                  "whether a hold is refused, and why, is decided by the book state by state; the state is the record's `state`",
                  "拒否するかどうかと理由は、帳簿が状態ごとに決めています。状態はレコードの `state` です",
                ),
              ],
            },
          );
          break;
        case "elided":
          break;
        default:
          unreachable(item, "case item");
      }
    }
    return { name: c.name.text, line: c.name.line, machine, record: name };
  }
}

function pathHint(): Text {
  return tr(
    "the path is read from the directory of the .flow file",
    "パスは .flow のあるディレクトリから読みます",
  );
}

function holdTypesNote(bookName: string, book: BookPort): Text {
  const holds = book.transfers.filter((t: BookTransfer) => t.machine !== null).map((t) =>
    `${bookName}.${t.name}`
  );
  return holds.length === 0
    ? tr(
      `the book \`${bookName}\` has no transfer that holds`,
      `帳簿 \`${bookName}\` に仮押さえの振替はありません`,
    )
    : tr(
      `the hold types of \`${bookName}\`: ${holds.join(", ")}`,
      `\`${bookName}\` の仮押さえの型は ${holds.join("、")} です`,
    );
}

/**
 * Resolves a flow's declarations. Diagnostics go to `r`; the model is null only when the file has
 * no `workflow` or no `flow`.
 */
export function resolveFlow(ast: FlowAst, env: ResolveEnv, r: Reporter<DandoriCode>): FlowModel | null {
  return new Resolver(ast, env, r).resolve();
}
