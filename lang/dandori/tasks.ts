/**
 * Resolution of a flow's tasks (seed dandori 1.4, 1.6, 1.9, 1.16, 2.7, 16): how each is called,
 * which items that way takes (E007), what it does to a case (E008), and for a book task, how it
 * fits its transfer (E016).
 * @module
 */

import type { Reporter } from "../common/reporter.ts";
import { type Text, tr } from "../common/text.ts";
import type { OpName } from "../chobo/interp.ts";
import type { ElidedAst, FieldAst, Pos, TaskAst, TaskItemAst, TypeAst, Word } from "./ast.ts";
import type { BookPort, BookUnit } from "./books.ts";
import { type BookCall, BUILTIN_ERRORS, type Method, type TaskDef } from "./model.ts";
import { type FieldDef, type Range, showTy, type Ty } from "./types.ts";

/** What resolving a task reads from its flow: the reporter, the books, and the readers of types. */
export interface TaskScope {
  readonly r: Reporter;
  readonly books: ReadonlyMap<string, BookPort>;
  readonly fields: (asts: readonly (FieldAst | ElidedAst)[], what: Text) => FieldDef[];
  readonly type: (t: TypeAst) => Ty | null;
  readonly range: (ast: NonNullable<FieldAst["range"]>, type: Ty) => Range | null;
}

/** The operations of a book task (1.16). */
const BOOK_OPS: readonly string[] = ["do", "hold", "post", "void"];

/** Items that say how a task is called; at most one may be written (E007). */
const METHOD_ITEMS: ReadonlyMap<string, Method> = new Map<string, Method>([
  ["lambda", "lambda"],
  ["http", "http"],
  ["aws", "aws"],
  ["connect", "connect"],
  ["agent", "agent"],
  ["jev", "jev"],
  ["book", "book"],
  ["flow", "flow"],
  ["event", "event"],
  ["child", "child"],
]);

/** Items that may be written once under a task (E007 when twice). */
const ONCE_ITEMS: readonly string[] = [
  "errors",
  "retry",
  "timeout",
  "key",
  "idempotent",
  "callback",
  "observes",
  "starts",
  "sends",
  "refused as",
  "model",
  "url",
  "queue",
  "image",
  "connection",
  "effort",
  "confidence",
  "refusal",
  "plaintext",
];

class TaskResolver {
  constructor(private readonly s: TaskScope) {}

  task(t: TaskAst): TaskDef {
    const params = this.s.fields(t.params, tr("a parameter", "引数"));
    const resultType = t.result === null ? null : this.s.type(t.result.type);
    const result = resultType === null || t.result === null ? null : {
      type: resultType,
      range: t.result.range === null ? null : this.s.range(t.result.range, resultType),
    };
    const items = t.items.filter((i): i is Exclude<TaskItemAst, ElidedAst> => i.kind !== "elided");
    const seen = new Map<string, Pos>();
    let method: Method = "own";
    let methodAt: Pos | null = null;
    for (const item of items) {
      const kind = item.kind;
      const m = METHOD_ITEMS.get(kind);
      if (m !== undefined) {
        const compatible = (method === "flow" && m === "child") ||
          (method === "child" && (m === "child" || m === "flow"));
        if (method !== "own" && !compatible) {
          this.s.r.error(
            "E007",
            item,
            tr(
              `\`${t.name.text}\` is called two ways: \`${kind}\` and \`${method}\``,
              `\`${t.name.text}\` の呼び出し方が二つあります: \`${kind}\` と \`${method}\``,
            ),
            {
              hint: tr(
                "a task is called one way; keep one",
                "タスクの呼び出し方は一つです。一つを残してください",
              ),
            },
          );
          continue;
        }
        method = method === "child" && m === "flow" ? "flow" : method === "flow" ? "flow" : m;
        methodAt ??= item;
        continue;
      }
      if (ONCE_ITEMS.includes(kind)) {
        if (seen.has(kind)) {
          this.s.r.error(
            "E007",
            item,
            tr(
              `\`${kind}\` is written twice under \`${t.name.text}\``,
              `\`${t.name.text}\` の下に \`${kind}\` が二つあります`,
            ),
            { hint: tr("write it once", "一度だけ書いてください") },
          );
        }
        seen.set(kind, item);
      }
    }
    const errors = new Map<string, { line: number; col: number }>();
    for (const item of items) {
      if (item.kind !== "errors") continue;
      for (const e of item.errors) {
        if (errors.has(e.name.text) || BUILTIN_ERRORS.includes(e.name.text)) {
          this.s.r.error(
            "E006",
            e.name,
            BUILTIN_ERRORS.includes(e.name.text)
              ? tr(
                `\`${e.name.text}\` is an error every task has; it is not declared`,
                `\`${e.name.text}\` はどのタスクにもあるエラーで、宣言しません`,
              )
              : tr(
                `the error \`${e.name.text}\` is declared twice`,
                `エラー \`${e.name.text}\` が二度宣言されています`,
              ),
          );
          continue;
        }
        errors.set(e.name.text, e.name);
      }
    }
    const find = <K extends TaskItemAst["kind"]>(k: K) =>
      items.find((i) => i.kind === k) as Extract<TaskItemAst, { kind: K }> | undefined;
    const retryItem = find("retry");
    const httpItem = find("http");
    const awsItem = find("aws");
    const flowItem = items.find((i) => i.kind === "flow") as { value: Word; line: number } | undefined;
    const startsItem = find("starts");
    const sendsItem = find("sends");
    const def: TaskDef = {
      name: t.name.text,
      line: t.line,
      col: t.col,
      params,
      result,
      method,
      verb: httpItem?.method.text ?? (awsItem === undefined ? null : awsItem.operation.text),
      book: method === "book" ? this.bookCall(t, find("book")!, params, result?.type ?? null) : null,
      child: flowItem === undefined
        ? null
        : { path: flowItem.value.text, line: flowItem.line, col: flowItem.value.col },
      errors,
      retry: retryItem === undefined ? null : { line: retryItem.line, col: retryItem.col },
      key: find("key") !== undefined,
      idempotent: find("idempotent") !== undefined,
      event: method === "event",
      callback: find("callback") !== undefined,
      starts: startsItem === undefined ? null : startsItem.machine.map((w) => w.text).join("."),
      sends: sendsItem?.event.text ?? null,
    };
    this.taskItems(t, def, items, methodAt);
    return def;
  }

  /** E007 for items the task's way of calling does not take, E002 for names they miss (1.4, 1.6, 1.9, 1.16, 16). */
  private taskItems(
    t: TaskAst,
    def: TaskDef,
    items: readonly Exclude<TaskItemAst, ElidedAst>[],
    methodAt: Pos | null,
  ): void {
    const no = (item: Pos, what: string, why: Text) =>
      this.s.r.error(
        "E007",
        item,
        tr(
          `\`${what}\` cannot be written under \`${t.name.text}\`: ${why.en}`,
          `\`${t.name.text}\` の下に \`${what}\` は書けません。${why.ja}`,
        ),
      );
    const param = (w: Word) => def.params.find((p) => p.name === w.text);
    const declaredOrBuiltin = (w: Word, where: Text) => {
      if (def.errors.has(w.text) || BUILTIN_ERRORS.includes(w.text)) return;
      this.s.r.error(
        "E002",
        w,
        tr(
          `\`${t.name.text}\` declares no error \`${w.text}\` (${where.en})`,
          `\`${t.name.text}\` はエラー \`${w.text}\` を宣言していません(${where.ja})`,
        ),
        {
          hint: tr(
            `declare it with \`errors ${w.text}\`, or use failure or timeout`,
            `\`errors ${w.text}\` で宣言するか、failure か timeout を使ってください`,
          ),
        },
      );
    };
    for (const item of items) {
      switch (item.kind) {
        case "key":
          if (def.method === "book") {
            no(
              item,
              "key",
              tr(
                "a book's transfer passes once per its own key, so a second call is done before",
                "帳簿の振替は帳簿に書いたキーで一度しか通らないので、二度目は前にしたとして通ります",
              ),
            );
          } else if (def.method === "flow" || def.method === "child") {
            no(
              item,
              "key",
              tr(
                "a child workflow is started once per the parent's call",
                "子ワークフローは親の呼び出しごとに一度だけ始まります",
              ),
            );
          } else if (item.param !== null) {
            if (def.method !== "aws") {
              no(
                item,
                `key ${item.param.text}`,
                tr(
                  "only an `aws` task names the argument that takes the key",
                  "キーを受け取る引数を書くのは `aws` のタスクだけです",
                ),
              );
            } else if (param(item.param) === undefined) {
              no(
                item,
                `key ${item.param.text}`,
                tr(
                  `the task has no argument \`${item.param.text}\``,
                  `タスクに引数 \`${item.param.text}\` がありません`,
                ),
              );
            }
          } else if (def.method === "event") {
            no(item, "key", tr("an event task calls nothing", "イベントのタスクは何も呼びません"));
          }
          break;
        case "refused as":
          if (def.method === "book") {
            no(
              item,
              "refused as",
              tr(
                "a hold is refused with a reason per state; write the reasons in `errors`",
                "仮押さえは状態ごとの理由で拒否されます。理由を `errors` に書いてください",
              ),
            );
          } else declaredOrBuiltin(item.error, tr("`refused as`", "`refused as`"));
          break;
        case "errors":
          for (const e of item.errors) {
            if (e.value === null) {
              if (def.method === "http") {
                no(
                  e,
                  `errors ${e.name.text}`,
                  tr(
                    "an error of an `http` task says its status: `errors name = 409`",
                    "`http` のタスクのエラーにはステータスを書きます: `errors name = 409`",
                  ),
                );
              }
              continue;
            }
            if (def.method === "book") {
              no(
                e,
                `${e.name.text} = …`,
                tr(
                  "a book's refusal is its reason's name, with nothing after it",
                  "帳簿の拒否は理由の名前そのもので、`=` のあとには何も書きません",
                ),
              );
            } else if (def.method === "http" && e.value.kind !== "status") {
              no(
                e,
                `${e.name.text} = ${e.value.name.text}`,
                tr(
                  "an error of an `http` task is an HTTP status",
                  "`http` のタスクのエラーは HTTP のステータスです",
                ),
              );
            }
          }
          if (def.method === "http") {
            const statuses = new Map<string, string>();
            for (const e of item.errors) {
              if (e.value?.kind !== "status") continue;
              const other = statuses.get(e.value.status.text);
              if (other !== undefined) {
                no(
                  e,
                  `${e.name.text} = ${e.value.status.text}`,
                  tr(
                    `\`${other}\` has the same status; the two cannot be told apart`,
                    `\`${other}\` と同じステータスなので、二つを見分けられません`,
                  ),
                );
              }
              statuses.set(e.value.status.text, e.name.text);
            }
          }
          break;
        case "retry":
          for (const w of item.on) declaredOrBuiltin(w, tr("`retry … on`", "`retry … on`"));
          if (def.method === "event") {
            no(
              item,
              "retry",
              tr(
                "an event task calls nothing to retry",
                "イベントのタスクは何も呼ばないので、リトライするものがありません",
              ),
            );
          }
          break;
        case "timeout":
          if (item.until === null) break;
          if (!def.event && !def.callback) {
            no(
              item,
              "timeout until",
              tr(
                "only a task that waits for an answer (`event` or `callback`) waits until a time",
                "時刻まで待てるのは、答えを待つタスク(`event` か `callback`)だけです",
              ),
            );
            break;
          }
          {
            const p = param(item.until);
            if (p === undefined) {
              this.s.r.error(
                "E002",
                item.until,
                tr(
                  `\`${t.name.text}\` has no argument \`${item.until.text}\``,
                  `\`${t.name.text}\` に引数 \`${item.until.text}\` はありません`,
                ),
              );
            } else if (p.type.kind !== "timestamp") {
              this.s.r.error(
                "E003",
                item.until,
                tr(
                  `\`timeout until\` takes a \`timestamp\` argument, and \`${p.name}\` is \`${
                    showTy(p.type)
                  }\``,
                  `\`timeout until\` には \`timestamp\` の引数を書きます。\`${p.name}\` は \`${
                    showTy(p.type)
                  }\` です`,
                ),
              );
            }
            const retry = items.find((i) => i.kind === "retry");
            if (
              retry?.kind === "retry" && (retry.on.length === 0 || retry.on.some((w) => w.text === "timeout"))
            ) {
              no(
                retry,
                "retry",
                tr(
                  "a retry after the time has passed would time out at once; retry only declared errors or failure",
                  "期限を過ぎてからのリトライはすぐにまたタイムアウトします。宣言したエラーか failure だけをリトライしてください",
                ),
              );
            }
          }
          break;
        case "callback":
          if (
            !["lambda", "own", "aws"].includes(def.method) ||
            (def.method === "aws" && def.verb !== "sendMessage")
          ) {
            no(
              item,
              "callback",
              tr(
                "a callback is sent through `lambda`, `aws sqs:sendMessage`, or the task's own code",
                "コールバックを渡せるのは `lambda`、`aws sqs:sendMessage`、呼び出し方の無いタスクだけです",
              ),
            );
          }
          break;
        case "image":
          if (def.method === "flow") {
            no(
              item,
              "image",
              tr(
                "a `flow` task runs the child flow and nothing else",
                "`flow` のタスクは子のフローを走らせるだけです",
              ),
            );
          }
          break;
        case "model":
        case "effort":
        case "url":
        case "confidence":
        case "refusal":
          no(
            item,
            item.kind,
            tr(
              "only an agent or a decision model task takes it",
              "書けるのはエージェントか判断のモデルのタスクだけです",
            ),
          );
          break;
        case "plaintext":
          if (item.value.text.trim() === "") no(item, "plaintext", tr("the reason is empty", "理由が空です"));
          else if (
            !(def.method === "http" &&
              (items.find((i) => i.kind === "http") as { url: Word }).url.text.startsWith("http://"))
          ) {
            no(
              item,
              "plaintext",
              tr(
                "the task sends to no `http://` URL of its own",
                "このタスクは自分の `http://` の URL に送りません",
              ),
            );
          }
          break;
        case "discloses":
          if (item.reason.text.trim() === "") {
            no(item, "discloses", tr("the reason is empty", "理由が空です"));
          }
          for (const w of item.params) {
            if (param(w) === undefined) {
              no(
                w,
                `discloses ${w.text}`,
                tr(`the task has no argument \`${w.text}\``, `タスクに引数 \`${w.text}\` がありません`),
              );
            }
          }
          break;
        default:
          break;
      }
    }
    if (def.event) {
      const until = items.find((i) => i.kind === "timeout" && i.until !== null) as
        | { until: Word }
        | undefined;
      for (const p of def.params) {
        if (p.name === until?.until.text) continue;
        no(
          p,
          p.name,
          tr(
            "an event task sends nothing, so it takes no argument but the time of `timeout until`",
            "イベントのタスクは何も送らないので、`timeout until` の時刻のほかに引数を取りません",
          ),
        );
      }
      if (def.callback) {
        no(
          methodAt ?? t,
          "callback",
          tr(
            "an event task waits for its event, not for a callback",
            "イベントのタスクはイベントを待ち、コールバックは待ちません",
          ),
        );
      }
    }
    if (def.method === "flow") {
      for (const item of items) {
        if (item.kind === "callback") {
          no(item, "callback", tr("a child flow answers when it ends", "子のフローは終わったときに答えます"));
        }
      }
    }
    this.caseItems(t, def, items);
  }

  /** E008 for what a task does to a case (2.7): a hold starts its case, post and void send to it. */
  private caseItems(t: TaskAst, def: TaskDef, items: readonly Exclude<TaskItemAst, ElidedAst>[]): void {
    const wrong = (at: Pos, message: Text, hint?: Text) =>
      this.s.r.error("E008", at, message, hint === undefined ? {} : { hint });
    const starts = items.find((i) => i.kind === "starts");
    const sends = items.find((i) => i.kind === "sends");
    const observes = items.find((i) => i.kind === "observes");
    const b = def.book;
    if (starts?.kind === "starts") {
      const name = starts.machine.map((w) => w.text).join(".");
      const [bookName, transferName] = starts.machine.map((w) => w.text);
      const book = this.s.books.get(bookName);
      const transfer = book?.transfers.find((x) => x.name === transferName);
      if (starts.machine.length !== 2 || transfer === undefined) {
        this.s.r.error(
          "E002",
          starts,
          tr(`there is no state machine \`${name}\``, `ステートマシン \`${name}\` はありません`),
          {
            hint: tr(
              "a hold's machine is named `<book>.<transfer>` of a `use book`",
              "仮押さえのステートマシンは、`use book` の `<帳簿>.<振替>` です",
            ),
          },
        );
      } else if (transfer.machine === null) {
        wrong(
          starts,
          tr(
            `\`${name}\` is done at once and has no holds to start`,
            `\`${name}\` はすぐに確定する振替で、始める仮押さえがありません`,
          ),
        );
      } else if (b === null || b.op !== "hold" || b.transfer !== transfer) {
        wrong(
          starts,
          tr(
            `\`${t.name.text}\` cannot start \`${name}\`: a hold is started by \`book ${name}.hold\``,
            `\`${t.name.text}\` は \`${name}\` を始められません。仮押さえを始めるのは \`book ${name}.hold\` です`,
          ),
        );
      } else if (starts.then.length > 0) {
        wrong(
          starts.then[0],
          tr(
            "a hold starts in `held`; nothing is sent with `then`",
            "仮押さえは `held` で始まり、`then` で送るものはありません",
          ),
        );
      }
    } else if (b !== null && b.op === "hold") {
      wrong(
        t.name,
        tr(
          `\`${t.name.text}\` makes a hold and does not say it starts the case`,
          `\`${t.name.text}\` は仮押さえを作りますが、案件を始めると書いていません`,
        ),
        tr(
          `write \`starts ${b.book}.${b.transfer.name}\` under it`,
          `下に \`starts ${b.book}.${b.transfer.name}\` と書いてください`,
        ),
      );
    }
    if (sends?.kind === "sends") {
      if (b === null) {
        wrong(
          sends,
          tr(
            `\`${t.name.text}\` cannot send \`${sends.event.text}\`: the events of a hold are sent by its book's \`post\` and \`void\``,
            `\`${t.name.text}\` は \`${sends.event.text}\` を送れません。仮押さえのイベントを送るのは、帳簿の \`post\` と \`void\` です`,
          ),
        );
      } else if (b.op !== sends.event.text || (b.op !== "post" && b.op !== "void")) {
        wrong(
          sends,
          tr(
            `\`book … ${b.op}\` does not send \`${sends.event.text}\``,
            `\`book … ${b.op}\` は \`${sends.event.text}\` を送りません`,
          ),
          b.op === "post" || b.op === "void"
            ? tr(`write \`sends ${b.op}\``, `\`sends ${b.op}\` と書いてください`)
            : undefined,
        );
      }
    } else if (b !== null && (b.op === "post" || b.op === "void")) {
      wrong(
        t.name,
        tr(
          `\`${t.name.text}\` ${
            b.op === "post" ? "posts" : "voids"
          } a hold and does not say it sends \`${b.op}\``,
          `\`${t.name.text}\` は仮押さえを${
            b.op === "post" ? "確定し" : "取り消し"
          }ますが、\`${b.op}\` を送ると書いていません`,
        ),
        tr(`write \`sends ${b.op}\` under it`, `下に \`sends ${b.op}\` と書いてください`),
      );
    }
    if (observes !== undefined) {
      wrong(
        observes,
        tr(
          "a hold is read from what its operations return; `observes` has nothing to read",
          "仮押さえは操作の結果から読むので、`observes` で読むものはありません",
        ),
      );
    }
  }

  /** The book operation of a `book` task, with E002/E007/E016 against the transfer (1.16). */
  private bookCall(
    t: TaskAst,
    item: Extract<TaskItemAst, { kind: "book" }>,
    params: readonly FieldDef[],
    result: Ty | null,
  ): BookCall | null {
    const book = this.s.books.get(item.book.text);
    if (book === undefined) {
      this.s.r.error(
        "E002",
        item.book,
        tr(`there is no book \`${item.book.text}\``, `帳簿 \`${item.book.text}\` はありません`),
        {
          hint: tr(
            `read it with \`use book ${item.book.text} from "<path>.book"\``,
            `\`use book ${item.book.text} from "<パス>.book"\` で読んでください`,
          ),
        },
      );
      return null;
    }
    const transfer = book.transfers.find((x) => x.name === item.transfer.text);
    if (transfer === undefined) {
      this.s.r.error(
        "E002",
        item.transfer,
        tr(
          `the book \`${item.book.text}\` has no transfer \`${item.transfer.text}\``,
          `帳簿 \`${item.book.text}\` に振替 \`${item.transfer.text}\` はありません`,
        ),
        {
          notes: [
            tr(
              `its transfers: ${book.transfers.map((x) => x.name).join(", ")}`,
              `振替は ${book.transfers.map((x) => x.name).join("、")} です`,
            ),
          ],
        },
      );
      return null;
    }
    const op = item.operation.text;
    if (!BOOK_OPS.includes(op) || !transfer.ops.includes(op as OpName)) {
      this.s.r.error(
        "E007",
        item.operation,
        tr(
          `\`${item.transfer.text}\` has no operation \`${op}\``,
          `\`${item.transfer.text}\` に操作 \`${op}\` はありません`,
        ),
        {
          notes: [
            transfer.pending === null
              ? tr(
                `\`${transfer.name}\` is done at once: its operation is \`do\``,
                `\`${transfer.name}\` はすぐに確定する振替で、操作は \`do\` です`,
              )
              : tr(
                `\`${transfer.name}\` holds: its operations are \`hold\`, \`post\` and \`void\``,
                `\`${transfer.name}\` は仮押さえの振替で、操作は \`hold\`・\`post\`・\`void\` です`,
              ),
          ],
        },
      );
      return null;
    }
    const call: BookCall = { book: item.book.text, transfer, op: op as OpName };
    this.bookParams(t, call, params);
    this.bookResult(t, call, result);
    for (const e of t.items) {
      if (e.kind !== "errors") continue;
      for (const d of e.errors) {
        const reasons = transfer.reasons.get(call.op) ?? [];
        if (reasons.includes(d.name.text)) continue;
        this.s.r.error(
          "E016",
          d.name,
          tr(
            `the book never refuses \`${transfer.name}.${op}\` with \`${d.name.text}\``,
            `帳簿が \`${transfer.name}.${op}\` を \`${d.name.text}\` で拒否することはありません`,
          ),
          {
            notes: [
              tr(
                `\`${transfer.name}.${op}\` may be refused with ${reasons.join(", ")}`,
                `\`${transfer.name}.${op}\` が拒否されうる理由は ${reasons.join("、")} です`,
              ),
            ],
          },
        );
      }
    }
    return call;
  }

  private bookParams(t: TaskAst, call: BookCall, params: readonly FieldDef[]): void {
    const transfer = call.transfer;
    const where = `${transfer.name}.${call.op}`;
    const takes = call.op === "post" || call.op === "void"
      ? transfer.params.filter((p) =>
        transfer.key.includes(p.name) || (call.op === "post" && p.amount !== null)
      )
      : transfer.params;
    for (const p of params) {
      const bp = takes.find((x) => x.name === p.name);
      if (bp === undefined) {
        this.s.r.error(
          "E016",
          p,
          tr(
            `\`${where}\` takes no argument \`${p.name}\``,
            `\`${where}\` は引数 \`${p.name}\` を受け取りません`,
          ),
          {
            notes: [tr(
              `it takes ${takes.map((x) => x.name).join(", ")}`,
              `受け取る引数は ${takes.map((x) => x.name).join("、")} です`,
            )],
          },
        );
        continue;
      }
      const fits = bp.amount === null ? p.type.kind === "string" : p.type.kind === "int" ||
        (p.type.kind === "num" && p.type.unit.id === bp.amount.unitId && p.type.unit.tax === bp.amount.tax);
      if (!fits) {
        this.s.r.error(
          "E016",
          p,
          bp.amount === null
            ? tr(
              `\`${p.name}\` of \`${where}\` is a string, and the task says \`${showTy(p.type)}\``,
              `\`${where}\` の \`${p.name}\` は文字列ですが、タスクは \`${showTy(p.type)}\` と書いています`,
            )
            : tr(
              `\`${p.name}\` of \`${where}\` is an amount in the book's unit ${bp.amount.name}${
                bp.amount.tax === null ? "" : ` ${bp.amount.tax}`
              }, and the task says \`${showTy(p.type)}\``,
              `\`${where}\` の \`${p.name}\` は帳簿の単位 ${bp.amount.name}${
                bp.amount.tax === null ? "" : ` ${bp.amount.tax}`
              } の額ですが、タスクは \`${showTy(p.type)}\` と書いています`,
            ),
          { hint: amountHint(p.name, bp.amount) },
        );
      }
    }
    const written = new Set(params.map((p) => p.name));
    const needed = call.op === "post" || call.op === "void"
      ? transfer.key
      : transfer.params.map((p) => p.name);
    for (const n of needed) {
      if (written.has(n)) continue;
      this.s.r.error(
        "E016",
        t.name,
        tr(
          `\`${t.name.text}\` does not take \`${n}\`, which \`${where}\` needs`,
          `\`${t.name.text}\` は、\`${where}\` が要る引数 \`${n}\` を受け取りません`,
        ),
        { hint: tr(`add \`${n}\` to the task's arguments`, `タスクの引数に \`${n}\` を足してください`) },
      );
    }
    if (call.op === "post") {
      const amounts = transfer.params.filter((p) => p.amount !== null && !transfer.key.includes(p.name));
      const given = amounts.filter((p) => written.has(p.name));
      if (given.length > 0 && given.length < amounts.length) {
        this.s.r.error(
          "E016",
          t.name,
          tr(
            `a part-post gives every amount of \`${transfer.name}\` or none: ${
              amounts.filter((p) => !written.has(p.name)).map((p) => p.name).join(", ")
            } is missing`,
            `一部の確定では、\`${transfer.name}\` の額を全部渡すか、一つも渡しません。${
              amounts.filter((p) => !written.has(p.name)).map((p) => p.name).join("、")
            } がありません`,
          ),
        );
      }
    }
  }

  private bookResult(t: TaskAst, call: BookCall, result: Ty | null): void {
    const name = `${call.book}.${call.transfer.name}`;
    if (call.op === "do") {
      if (t.result !== null) {
        this.s.r.error(
          "E016",
          t.result,
          tr(
            `\`do\` returns nothing, so \`${t.name.text}\` has no result`,
            `\`do\` は何も返さないので、\`${t.name.text}\` に結果は書けません`,
          ),
          {
            hint: tr("remove `-> …`", "`-> …` を消してください"),
          },
        );
      }
      return;
    }
    if (t.result === null || (result !== null && (result.kind !== "record" || result.name !== name))) {
      this.s.r.error(
        "E016",
        t.result ?? t.name,
        tr(
          `\`${call.op}\` returns the hold \`${name}\``,
          `\`${call.op}\` が返すのは仮押さえ \`${name}\` です`,
        ),
        { hint: tr(`write \`-> ${name}\``, `\`-> ${name}\` と書いてください`) },
      );
    }
  }
}

/** How to write a book task's parameter: a string, or an amount as `int` or the book's unit type. */
function amountHint(name: string, amount: BookUnit | null): Text {
  if (amount === null) return tr(`write \`${name}: string\``, `\`${name}: string\` と書いてください`);
  const unit = amount.spelling === null ? "" : ` or \`${name}: ${amount.spelling}\``;
  const unitJa = amount.spelling === null ? "" : `か \`${name}: ${amount.spelling}\` `;
  return tr(
    `write \`${name}: int\`${unit}: amounts go as integers counted in the book's unit`,
    `\`${name}: int\` ${unitJa}と書いてください。額は帳簿の単位で数えた整数で渡します`,
  );
}

/** Resolves one task against the flow's books and types. */
export function resolveTask(t: TaskAst, scope: TaskScope): TaskDef {
  return new TaskResolver(scope).task(t);
}
