/**
 * The registry of dandori's diagnostic codes (docs/design/dandori.md#checks): what `dandori explain`,
 * `docs/dandori-codes.md` and the tests read. Every code the checker emits is here, with a flow
 * that reproduces it and the files that flow reads (a book, a child flow), inline. The codes of
 * the design's table this checker does not emit are listed in `NOT_CHECKED`, each with why; the
 * one code this toolchain adds to the table (E023, the case analysis reaching a limit) sits
 * beside the other codes of the case analysis.
 * @module
 */

import type { Severity } from "../common/diagnostic.ts";
import { type Text, tr } from "../common/text.ts";
import { MAX_CHILD_FLOWS, MAX_LOOP_ROUNDS, MAX_STATES } from "./limits.ts";

/** One diagnostic code. */
export interface CodeInfo {
  readonly code: string;
  readonly severity: Severity;
  /** One line: what the code says. */
  readonly title: Text;
  /** When it fires, in a few sentences. */
  readonly when: Text;
  /** How to fix it. */
  readonly fix: Text;
  /** A minimal `.flow` that reproduces it (file name `example.flow`). */
  readonly example: string;
  /** The other files the example reads, by their path beside it. */
  readonly files: Readonly<Record<string, string>>;
  /**
   * For a code a platform's build reports (E031, E040, E050) rather than `check`: the target and
   * the flags of the `dandori build` that reproduces it.
   */
  readonly build?: { readonly target: string; readonly flags: readonly string[] };
}

/** A code of the design's table this checker does not emit, and why. */
export interface NotChecked {
  readonly code: string;
  readonly why: Text;
}

/** A made-up Stripe secret key for W901, assembled here so this file holds no key-shaped literal. */
const FAKE_STRIPE_KEY = "sk_live_" + "EXAMPLE0NOT0REAL0KEY0000";

/** The book most examples read: stock per SKU, held for 30 minutes per order. */
const STOCK_BOOK = `book stock v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside
account customers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)

transfer reserve(order: string, sku: string, qty: pcs)
  key order, sku
  pending expires after 30 minutes
  move qty from stock(sku) to customers
`;

const BOOK = { "books/stock.book": STOCK_BOOK };

/** The OpenAPI description E016's example calls: one operation, which takes `charge` and `amount`. */
const PAYMENTS_API = {
  "apis/payments.json": `{
  "openapi": "3.1.0",
  "info": {
    "title": "payments",
    "version": "1"
  },
  "servers": [
    {
      "url": "https://api.example.com"
    }
  ],
  "paths": {
    "/v1/refunds": {
      "post": {
        "operationId": "createRefund",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "required": [
                  "charge"
                ],
                "properties": {
                  "charge": {
                    "type": "string"
                  },
                  "amount": {
                    "type": "integer",
                    "minimum": 1
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "the refund",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "id",
                    "status"
                  ],
                  "properties": {
                    "id": {
                      "type": "string"
                    },
                    "status": {
                      "type": "string",
                      "enum": [
                        "pending",
                        "succeeded",
                        "failed"
                      ]
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}
`,
};

/** The declarations of a flow that holds stock; each example adds its `flow`. */
const HOLDING = `workflow order v1

use book stock from "books/stock.book"

task reserve(order: string, sku: string, qty: int) -> stock.reserve
  book stock.reserve.hold
  starts stock.reserve
  errors out_of_stock

task ship(order: string, sku: string) -> stock.reserve
  book stock.reserve.post
  sends post
  errors expired

task put_back(order: string, sku: string) -> stock.reserve
  book stock.reserve.void
  sends void
  errors expired, already_posted

task pay(order: string) -> bool

case goods : stock.reserve follows stock.reserve
`;

/**
 * E023's example: 15 holds that each may start or not make 2^15 = 32768 combinations of the
 * cases' states at the last of them, past `MAX_STATES`.
 */
const MANY_LINES = Array.from({ length: 15 }, (_, i) => `line${i + 1}`);

/** Every code the checker emits, in the order of the design's table (E023 after E022). */
const REGISTRY = [
  {
    code: "E001",
    severity: "error",
    title: tr("A line cannot be read", "読めない行がある"),
    when: tr(
      "A line does not follow the grammar of a flow: an unknown word, a block indented unevenly, a string that is not closed, a keyword used as a name, a tab, a `…` left where text was shortened, or a file without a `workflow` line or a `flow` block. When any line cannot be read, the checker stops before resolving names, because everything after that would be guesswork.",
      "フローの文法に合わない行があります。知らない語、そろっていない字下げ、閉じていない文字列、名前に使ったキーワード、タブ、文を省いた印の `…`、`workflow` の行や `flow` の塊の無いファイルがこれに当たります。読めない行が一つでもあると、そこから先は推測になるので、名前の解決には進みません。",
    ),
    fix: tr(
      "Correct the line as the message says.",
      "診断の言うとおりに行を直してください。",
    ),
    example: `workflow order v1

flow
  wiat 3 days
`,
    files: {},
  },
  {
    code: "E002",
    severity: "error",
    title: tr("A name is not declared", "宣言されていない名前を使っている"),
    when: tr(
      "A type, a variable, a field, a task, an error, a case, a book or a transfer of a book is used but declared nowhere; or a unit type names a unit the unit table does not have (`mass[foo]`), a dimension that does not have it (`length[kg]`), or a tax class other than incl_tax and excl_tax; or a type written `<api>.<Name>` names no message or enum of its `use proto` file, no schema of its `use openapi` description's `components.schemas`, a service, or a Smithy model's shape.",
      "型、変数、フィールド、タスク、エラー、案件、帳簿、帳簿の振替のどれかを、宣言しないまま使っています。または、単位の型が、単位の表に無い単位(`mass[foo]`)、その次元に無い単位(`length[kg]`)、incl_tax と excl_tax のほかの税区分を書いています。または、`<API>.<名前>` と書いた型が、`use proto` のファイルのメッセージや列挙でも、`use openapi` の記述の `components.schemas` のスキーマでもないか、サービスか、Smithy のモデルのシェイプを名指しています。",
    ),
    fix: tr(
      "Fix the spelling, or declare what is missing. A unit is written as the unit table spells it: `money[円, incl_tax]`, `mass[kg]`, `rate[step 1%]`.",
      "綴りを直すか、足りないものを宣言してください。単位は表の綴りで書きます: `money[円, incl_tax]`、`mass[kg]`、`rate[step 1%]`。",
    ),
    example: `workflow order v1

record Parcel
  weight : mass[kgs]

flow
  pass
`,
    files: {},
  },
  {
    code: "E003",
    severity: "error",
    title: tr("A type does not fit", "型が合わない"),
    when: tr(
      "A value goes where its type is not taken: an optional value used as if it were there, `none` where nothing optional is expected, a variable given values of two types, a list of lists, a `{…}` or `[]` whose type is not known, a record that contains itself, a type made from a description that would (a message or schema that contains itself, nests deeper than its limit, or has a field name or an enum value a flow cannot write). Ranges too: a range on something that is neither a number, a date nor a time, a range no value is inside, an end that is not a whole number in the type's unit or not of its dimension, a day the calendar does not have, an offset on a date.",
      "値を、その型を受け取らないところに渡しています。オプショナルな値をそのまま使う、オプショナルでないところの `none`、二つの型の値を入れる変数、リストのリスト、型の分からない `{…}` や `[]`、自分自身を含むレコード、記述から作るとそうなる型(自分を含むメッセージやスキーマ、上限より深い入れ子、フローに書けないフィールドの名前や列挙の値を持つもの)がこれに当たります。範囲では、数・日付・時刻でないものの範囲、値の入らない範囲、型の単位で整数にならない端や次元の違う端、暦に無い日、日付に書いたオフセットも E003 です。",
    ),
    fix: tr(
      "Pass a value of the type the place takes; split an optional value with `match` first; give a `{…}` its type (`let x: T = {…}`); write ranges on numbers, dates and times only.",
      "受け取る型の値を渡してください。オプショナルな値は先に `match` で分け、`{…}` には型を書き(`let x: T = {…}`)、範囲は数・日付・時刻にだけ書きます。",
    ),
    example: `workflow order v1

task notify(text: string)

flow
  let count = 3
  notify(text: count)
`,
    files: {},
  },
  {
    code: "E004",
    severity: "error",
    title: tr("An argument or an output is missing or extra", "引数や出力の過不足"),
    when: tr(
      "A call leaves out an argument the task needs (one that is not `T?`) or gives one the task does not take; `succeed` leaves out an output that is not `T?` or names one the workflow does not have; a `{…}` record leaves out a field it needs.",
      "呼び出しが、タスクの要る引数(`T?` でないもの)を渡していないか、タスクの取らない引数を渡しています。または `succeed` が `T?` でない出力を書いていないか、ワークフローに無い出力を書いています。`{…}` のレコードの要るフィールドが無いときも E004 です。",
    ),
    fix: tr(
      "Give every argument and output the declaration asks for, and only those.",
      "宣言が求める引数と出力を、過不足なく書いてください。",
    ),
    example: `workflow order v1

task notify(order: string, text: string)

flow
  notify(order: "o-1")
`,
    files: {},
  },
  {
    code: "E005",
    severity: "error",
    title: tr("A book cannot be read", "帳簿を読めない"),
    when: tr(
      "The `.book` of a `use book` does not exist beside the flow, cannot be read, or does not pass chobo's check; the first of chobo's errors is in the note. Paths are read from the directory of the `.flow` file, and a book must be, by its real path, inside the git repository of the flow the command was given (the working directory when it is in none): a path that leads out is refused before it is read. The check stops there: the types, tasks and cases of the book would only be said again as names that do not exist.",
      "`use book` の `.book` が、フローのあるところから見て無いか、読めないか、chobo の検査を通りません。chobo の最初のエラーを注に書きます。パスは `.flow` のあるディレクトリから読み、帳簿は実体のパスで、コマンドに渡したフローのある git のリポジトリ(リポジトリに無ければ作業ディレクトリ)の中になければなりません。外に出るパスは、読む前に断ります。検査はそこで止まります。帳簿の型、タスク、案件を確かめても、無い名前として言い直すだけだからです。",
    ),
    fix: tr(
      "Fix the path, or run `chobo check` on the book and fix it.",
      "パスを直すか、帳簿を `chobo check` で確かめて直してください。",
    ),
    example: `workflow order v1

use book stock from "books/stok.book"

flow
  pass
`,
    files: BOOK,
  },
  {
    code: "E006",
    severity: "error",
    title: tr("Something is declared twice", "二度の宣言"),
    when: tr(
      "Two types, tasks, cases, fields, inputs, outputs, parameters or `use` names have one name; an enum lists a value twice or has the value `none` (which `match` reads as the arm of no value); a task declares an error twice, or declares `timeout` or `failure`, which every task has; a variable takes the name of an input or a case; a file has two `flow`, `on failure`, `on cancel`, `inputs` or `outputs` blocks. A build says E006 too when its target would write two names of one scope as one (Python reads `ｎｏｔｅ` as `note`; `stock.reserve`, a book's hold record, and a record `stock_reserve` are one type name), or cannot write a name at all (a Python name that starts with `__`, which Python rewrites inside a class; a name with an enclosing mark, which is no JavaScript or Python identifier). docs/dandori.md says which names each target renames with a trailing `_` and which it refuses.",
      "二つの型、タスク、案件、フィールド、入力、出力、引数、`use` の名前が同じです。または列挙に同じ値が二つあるか、値 `none`(`match` はこれを値の無い分岐と読みます)があります。タスクが同じエラーを二度宣言する、どのタスクにもある `timeout` や `failure` を宣言する、変数が入力や案件の名前を使う、`flow`・`on failure`・`on cancel`・`inputs`・`outputs` の塊が二つあるのも E006 です。出力先が、一つのスコープの二つの名前を同じ名前に書いてしまうとき(Python は `ｎｏｔｅ` を `note` と読みます。帳簿の仮押さえのレコード `stock.reserve` とレコード `stock_reserve` は同じ型の名前になります)、名前をまったく書けないとき(Python がクラスの中で書き換える `__` で始まる名前、JavaScript や Python の識別子にならない囲み文字のある名前)も、ビルドが E006 を言います。どの出力先がどの名前を末尾の `_` で書き換え、どの名前を拒むかは docs/dandori.md にあります。",
    ),
    fix: tr(
      "Rename one of the two, or merge them.",
      "どちらかの名前を変えるか、一つにまとめてください。",
    ),
    example: `workflow order v1

task notify(text: string)

task notify(order: string)

flow
  pass
`,
    files: {},
  },
  {
    code: "E007",
    severity: "error",
    title: tr("An item of a task is wrong", "タスクの項目の誤り"),
    when: tr(
      "A task is called two ways; an item is written twice; an item does not fit the way the task is called: a book task with `key`, `refused as` or an error written `= …`, an operation the transfer does not have, an `http` error without its status or two with one status, two Connect codes of one HTTP status under a `connect` task, a callback through a way that cannot pass one, `timeout until` on a task that waits for no answer or on an `aws` callback (an `aws` task's arguments are the API's), an event task with arguments or a call, a `flow` task with `image`, `key` or `callback`, `model` or `effort` on a task that is no agent, an agent (docs/dandori.md#agents) with `key`, declared errors, `refused as`, `callback`, `image`, `starts`, `sends` or `observes`, without `model`, without a result type or with empty instructions, a provider other than `openai` and `claude`, an effort level its provider does not take, `url` on Claude or a `url` that is no `https://` or `http://` base URL without a query, a result a strict JSON Schema cannot hold (`json`) or that passes a provider's limits (OpenAI: 10 levels of objects, 5,000 properties, 1,000 enum values; Claude: 16 choices with null), or for Claude an enum in the result with two values equal but for case, `plaintext` without a URL of its own, `discloses` naming no argument, an `aws` service that Step Functions' table of AWS SDK integrations does not have (`dynamo` for `dynamodb`: the table gives each service's error names), or an operation that is not in the service's API (its model in botocore 1.43.11, camelCase: `s3:generatePresignedPost` is a helper of the SDKs, not an operation). Also an item under `use book` other than `lambda`. An address not of its shape: `lambda` (here and under `use book`) and `durable function` a Lambda function's name or ARN `arn:aws:lambda:<region>:<account>:function:<name>` (a version or alias after `:`), `connection` an ARN `arn:aws:events:<region>:<account>:connection/<name>/<id>`, `state machine` an ARN `arn:aws:states:<region>:<account>:stateMachine:<name>` (a name has no space and none of `{ } % $ \" \\` and the like): Step Functions evaluates a string `{% … %}`. An `http` URL that means something other than it reads, at its character: not `https://` or `http://`; a backslash (`fetch` reads it as `/`); a space, a control or an invisible character; a `%` that is no escape; a `{` not closed, or naming no argument, or a `}` closing none; what the WHATWG URL parser writes back otherwise (an upper case or non-ASCII host, a default port, a dot segment, a character it escapes); a user or password before `@` (the host is what follows it); a fragment.",
      'タスクの呼び出し方が二つある、項目が二つある、項目が呼び出し方に合わない、のどれかです。帳簿のタスクの `key`・`refused as`・`= …` を書いたエラー、振替に無い操作、ステータスの無い `http` のエラーや同じステータスの二つのエラー、`connect` のタスクの同じ HTTP のステータスになる二つの Connect のコード、コールバックを渡せない呼び出し方のコールバック、答えを待たないタスクや `aws` のコールバックの `timeout until`(`aws` のタスクの引数は API の引数です)、引数や呼び出し方のあるイベントのタスク、`image`・`key`・`callback` のある `flow` のタスク、エージェントでないタスクの `model` や `effort`、`key`・宣言したエラー・`refused as`・`callback`・`image`・`starts`・`sends`・`observes` のあるエージェント(docs/dandori.md#agents)、`model` や結果の型の無いエージェント、空の指示、`openai` と `claude` のほかのプロバイダー、プロバイダーが受け付けないエフォート、Claude の `url` や、`https://` か `http://` で始まりクエリの無いベース URL でない `url`、strict の JSON Schema に書けない結果(`json`)やプロバイダーの上限を超える結果(OpenAI はオブジェクトが 10 段、プロパティが 5,000 個、列挙の値が 1,000 個、Claude は null との選択が 16 個まで)、Claude の結果にある大文字と小文字だけが違う値を持つ列挙、自分の URL の無い `plaintext`、無い引数を書いた `discloses`、Step Functions の AWS SDK の統合の表に無い `aws` のサービス(`dynamodb` のつもりの `dynamo`。表がサービスごとのエラーの名前を決めます)、サービスの API に無い操作(botocore 1.43.11 のモデルにあるもの。camelCase で書く。`s3:generatePresignedPost` は SDK の補助で、操作ではありません)がこれに当たります。`use book` の下の `lambda` のほかの項目も E007 です。形の合わない宛先も E007 です。`lambda`(`use book` の下も)と `durable function` は Lambda の関数の名前か ARN の `arn:aws:lambda:<リージョン>:<アカウント>:function:<名前>`(`:` のあとにバージョンかエイリアス)、`connection` は ARN の `arn:aws:events:<リージョン>:<アカウント>:connection/<名前>/<ID>`、`state machine` は ARN の `arn:aws:states:<リージョン>:<アカウント>:stateMachine:<名前>`(名前には空白も `{ } % $ " \\` なども入りません)で書きます。Step Functions は `{% … %}` の文字列を評価するからです。書いたのと違う意味になる `http` の URL も、その文字で E007 です。`https://` か `http://` で始まらないもの、バックスラッシュ(`fetch` は `/` と読む)、空白・制御文字・見えない文字、エスケープでない `%`、閉じていないか引数の無い `{` と何も閉じない `}`、WHATWG の URL パーサーが書き直すもの(大文字や ASCII でないホスト、既定のポート、ドットのセグメント、パーサーがエスケープする文字)、`@` の前のユーザーかパスワード(ホストは `@` のあと)、フラグメントです。',
    ),
    fix: tr(
      "Keep one way of calling, and only the items it takes (docs/design/dandori.md#ways-of-calling-a-task).",
      "呼び出し方を一つにし、それが取る項目だけを書いてください(docs/design/dandori.md#ways-of-calling-a-task)。",
    ),
    example: `workflow order v1

use book stock from "books/stock.book"

task reserve(order: string, sku: string, qty: int) -> stock.reserve
  book stock.reserve.hold
  starts stock.reserve
  key

flow
  pass
`,
    files: BOOK,
  },
  {
    code: "E008",
    severity: "error",
    title: tr("A case, or what a task does to one, is wrong", "案件の宣言や、案件に何をするかの誤り"),
    when: tr(
      "A case follows something that is not the hold of a book, or its record is not that hold; a case of a hold has `held`, `state`, `refused when`, or an `external` event other than the book's `expire`; a hold task does not say `starts <book>.<transfer>`, a post or void task does not say `sends post` or `sends void`, or a task says what its operation does not do; a task that acts on a hold is called without its case (`<case> <- task(…)`), or on a case it does nothing to.",
      "案件が帳簿の仮押さえでないものに従うか、案件のレコードがその仮押さえでありません。または仮押さえの案件に `held`・`state`・`refused when`、帳簿の `expire` のほかの `external` を書いています。仮押さえを作るタスクが `starts <帳簿>.<振替>` を、確定と取消のタスクが `sends post`・`sends void` を書いていないか、操作のしないことを書いている、仮押さえに何かするタスクを案件なしで呼ぶ(`<案件> <- タスク(…)` で呼びます)、何もしない案件に対して呼ぶのも E008 です。",
    ),
    fix: tr(
      "Declare a hold's case as `case c : <book>.<transfer> follows <book>.<transfer>`, have its tasks say `starts` and `sends` as their operation does, and call them as `c <- task(…)`. Whether and why a hold is refused comes from the book, not from the case.",
      "仮押さえの案件は `case c : <帳簿>.<振替> follows <帳簿>.<振替>` と宣言し、そのタスクには操作のとおりに `starts` と `sends` を書いて、`c <- タスク(…)` で呼んでください。仮押さえを拒否するかどうかと理由は、案件ではなく帳簿が決めます。",
    ),
    example: `workflow order v1

use book stock from "books/stock.book"

task reserve(order: string, sku: string, qty: int) -> stock.reserve
  book stock.reserve.hold
  errors out_of_stock

flow
  pass
`,
    files: BOOK,
  },
  {
    code: "E009",
    severity: "error",
    title: tr("A statement is in the wrong place", "文の置き場所の誤り"),
    when: tr(
      "`break` outside a loop or in a parallel iteration; `yield` anywhere but the last line of `let r = for …`, or such a loop whose body does not end with it; `succeed` in `on failure`, in `on cancel` or in a parallel iteration; a case moved or an event awaited in a parallel iteration; a variable given a value both inside a parallel iteration and outside it.",
      "ループの外か並列のイテレーションの中の `break`、`let r = for …` の最後の行のほかの `yield`(またはそれで終わらない本体)、`on failure`・`on cancel`・並列のイテレーションの中の `succeed`、並列のイテレーションの中で案件を動かすこととイベントを待つこと、並列のイテレーションの中と外の両方で値を入れる変数がこれに当たります。",
    ),
    fix: tr(
      "Move the statement where it means something (docs/design/dandori.md#statements-and-values).",
      "文を、意味のある場所へ移してください(docs/design/dandori.md#statements-and-values)。",
    ),
    example: `workflow order v1

flow
  break
`,
    files: {},
  },
  {
    code: "E010",
    severity: "error",
    title: tr("A value has no arm in a `match`", "`match` のどの分岐にも当たらない値がある"),
    when: tr(
      "A `match` has no arm for a value its subject can take: an enum value, `true` or `false`, `none`, `some …` of an optional value, or a state the record of a case can say (with `none` before the case starts). A workflow meeting such a value would fail with `Dandori.UnexpectedValue`; no arm is the default.",
      "`match` に、その値がとりうる値の分岐がありません。列挙の値、`true` か `false`、`none`、オプショナルな値の `some …`、案件のレコードが言いうる状態(始まる前の `none` も)です。そういう値に出会ったワークフローは `Dandori.UnexpectedValue` で失敗します。既定の分岐はありません。",
    ),
    fix: tr(
      "Add an arm for the value (`pass` to do nothing).",
      "その値の分岐を足してください(何もしないなら `pass`)。",
    ),
    example: `workflow order v1

task pay(order: string) -> bool
task ship(order: string)

flow
  let paid = pay(order: "o-1")
  match paid
    true => ship(order: "o-1")
`,
    files: {},
  },
  {
    code: "E011",
    severity: "error",
    title: tr("An arm or a handler is never taken", "通らない分岐"),
    when: tr(
      "An arm of a `match` takes a value an earlier arm takes, or a state the record of a case cannot say there (a hold's record never says `expired`: an expiry shows only as a refusal); or two handlers of one call handle the same error, so the second never runs.",
      "`match` の分岐が、前の分岐の受ける値か、そこで案件のレコードが言うはずのない状態を受けています(仮押さえのレコードは `expired` を言いません。期限切れは拒否でだけ分かります)。または一つの呼び出しの二つのハンドラーが同じエラーを処理していて、後のほうは動きません。",
    ),
    fix: tr(
      "Remove the arm or the handler.",
      "その分岐かハンドラーを消してください。",
    ),
    example: `${HOLDING}
flow
  goods <- reserve(order: "o-1", sku: "s-1", qty: 1)
    on out_of_stock => succeed
  goods <- put_back(order: "o-1", sku: "s-1")
    on expired, already_posted => pass
    on timeout, failure => fail NotPutBack leaving goods
  match goods.state
    held => pass
    voided => pass
    expired => pass
`,
    files: BOOK,
  },
  {
    code: "E012",
    severity: "error",
    title: tr("A variable may have no value where it is read", "値を持っていないことがある変数を読んだ"),
    when: tr(
      "On some way to this read, nothing put a value into the variable: it is given one only in some arms of a `match`, a handler passes over the call that gives it, or a `for` may run no iteration. The record of a case that may not have started has no value either.",
      "ここに来るいずれかの道で、変数に値が入っていません。`match` の一部の分岐でだけ値を入れる、ハンドラーが値を入れる呼び出しを飛ばす、`for` が一度も回らないことがある、といった場合です。始まっていないことがある案件のレコードにも値がありません。",
    ),
    fix: tr(
      "Give the variable a value on every way here, or read it only where it has one.",
      "ここに来るどの道でも値を入れるか、値のあるところでだけ読んでください。",
    ),
    example: `workflow order v1

task quote(order: string) -> string
task notify(text: string)

flow
  let price = quote(order: "o-1")
    on failure => pass
  notify(text: price)
`,
    files: {},
  },
  {
    code: "E013",
    severity: "error",
    title: tr(
      "A case is called before it starts, or started twice",
      "始まっていない案件にタスクを呼んだ、始まった案件をもう一度始めた",
    ),
    when: tr(
      "A task sends to a case that may not have started at that point (its hold was refused or failed, and the flow went on), or starts a case that may have started already.",
      "案件がまだ始まっていないことがある点で、タスクがそれに送っています(仮押さえが拒否されたか失敗して、そのまま進んだ場合)。または、もう始まっていることがある案件を始めています。",
    ),
    fix: tr(
      "Split the case's state with `match c.state` first, and call the task only where it has started.",
      "先に `match c.state` で分け、始まっているところでだけ呼んでください。",
    ),
    example: `${HOLDING}
flow
  goods <- reserve(order: "o-1", sku: "s-1", qty: 1)
    on out_of_stock => pass
  goods <- ship(order: "o-1", sku: "s-1")
    on expired => pass
    on timeout, failure => fail NotShipped leaving goods
`,
    files: BOOK,
  },
  {
    code: "E014",
    severity: "error",
    title: tr("A value may fall outside a range", "範囲を外れることのある値を渡した"),
    when: tr(
      "A value goes to a place with a range (a task's argument, a field of a record the flow writes, an output) and may be outside it. What a value may be is the union of every value put into its variable, wherever the flow puts it, so a value that never reaches the place can still count; literals count as themselves, inputs, fields and results as their ranges.",
      "範囲のあるところ(タスクの引数、フローが書き出すレコードのフィールド、出力)に、範囲を外れることのある値を渡しています。値がとりうるのは、変数に入れるすべての値を合わせたもので、流れのどこで入れたかは区別しません。リテラルはその値、入力・フィールド・結果はその範囲で数えます。",
    ),
    fix: tr(
      "Narrow the range where the value comes from, pass a value inside, or split the variable.",
      "値の出どころの範囲を狭めるか、範囲の中の値を渡すか、変数を分けてください。",
    ),
    example: `workflow order v1

task book_room(nights: int range >=1 <=30)

flow
  book_room(nights: 40)
`,
    files: {},
  },
  {
    code: "E015",
    severity: "error",
    title: tr("A task does not fit the child flow it runs", "子のフローと合わないタスク"),
    when: tr(
      `A \`flow "<path>"\` task does not fit the child \`.flow\`: an argument the child has no input for, an input the child needs that the task does not pass, a result field the child has no output for, types or ranges that do not fit in the direction values go, an error the child never fails with. Also a child that cannot be read (one outside the git repository of the flow the command was given, by its real path, is refused before it is read), that does not pass the check (its first error is in the note), that runs the flow itself, or that is past the ${MAX_CHILD_FLOWS} different child flows one check reads (MAX_CHILD_FLOWS; each is checked once however many tasks run it).`,
      `\`flow "<パス>"\` のタスクが子の \`.flow\` に合いません。子に入力の無い引数、子の要る入力を渡さないこと、子に出力の無い結果のフィールド、値の渡る向きに合わない型や範囲、子が失敗しない名前のエラーがこれに当たります。子を読めない(コマンドに渡したフローのある git のリポジトリの外に実体のある子は、読む前に断ります)、子が検査を通らない(最初の誤りを注に書きます)、自分自身を走らせる、一つの検査が読む ${MAX_CHILD_FLOWS} 個の子のフローを超える(MAX_CHILD_FLOWS。同じ子は、いくつのタスクが走らせても一度だけ検査します)のも E015 です。`,
    ),
    fix: tr(
      "Make the task's arguments, result and errors the child's inputs, outputs and `fail` names.",
      "タスクの引数・結果・エラーを、子の入力・出力・`fail` の名前に合わせてください。",
    ),
    example: `workflow order v1

task deliver(order: string) -> json
  flow "children/deliver.flow"

flow
  deliver(order: "o-1")
`,
    files: {
      "children/deliver.flow": `workflow deliver v1

inputs
  order   : string
  address : string

flow
  pass
`,
    },
  },
  {
    code: "E016",
    severity: "error",
    title: tr(
      "A task does not fit the API description or the book transfer it calls",
      "タスクが、呼ぶ API の記述や帳簿の振替と合わない",
    ),
    when: tr(
      "An `http <METHOD> <api> \"<path>\"` task does not fit its operation in the `use openapi` description: an operation the description does not have, an argument the operation does not take (GET and DELETE send what the path does not take as query parameters, other methods as the body's properties), a required argument left out or passed as `T?`, a type, range (`minimum`, `maximum`), enum value or format (`date`, `date-time`; an integer is not a `timestamp`) that does not fit where values flow, a result field the response does not have or may omit or give null without `T?`, an enum result without every value the operation returns, a declared status the operation never returns (`4XX` and `default` count), a `$ref` outside the description; also a description that cannot be read (missing, outside the repository, too large, not JSON, nested too deep, YAML, not OpenAPI 3.0 or 3.1) or names no server without `url`. Each mismatch is said once, at the argument, field, status or path, with the place in the description as a JSON pointer. Also an `aws <service>:<operation>` task whose service a `use smithy` model describes that does not fit the operation: an operation the service does not have, an argument the input does not have, an `@required` member left out or passed as `T?`, a type, `@range` or enum value that does not fit where values flow (an integer shape is not a `timestamp`), a result field the output does not have, an enum result without every value the member may hold, a declared exception that is neither the operation's nor the service's error, a `key <argument>` that is not the `@idempotencyToken` member, a member whose target the model does not have; also a model that cannot be read (missing, not JSON, no `smithy` version 1 or 2, no `shapes`, not exactly one service). Each is said once, with the shape or member id (`ns#Shape$member`). Also a `connect <api> \"<Service>/<Method>\"` task that does not fit the method of its `use proto` description (proto3, read by protobufjs with what it imports; Google's well-known types are known without files): a service or method the file does not have, a streaming method, an argument the request does not have (by the field's name or its JSON name), a value that does not fit the field, a result field not named by the response's JSON name (lowerCamelCase, or `json_name`), a 64-bit integer read as anything but `string` (protobuf's JSON writes it as a string), a decimal read as anything but `json`, a field with presence (`optional`, a message, a `oneof` member) read without `T?`, an enum result without every value but the zero value, a declared error that is not a Connect code, a `use proto` without `url`; also a file that cannot be read (missing, not UTF-8, not proto3, not parsed). Each is said once, with the message, field or method (`pkg.Message.field`). Also a `book <book>.<transfer>.<op>` task that does not fit the transfer: an argument the transfer lacks, an argument it needs left out, a string or an amount of the wrong type (amounts are `int`, or the unit type of the book's unit), a part-post with some amounts but not all, a result other than the hold `<book>.<transfer>` (or any result of `do`), an error the operation can never be refused with.",
      '`http <メソッド> <API> "<パス>"` のタスクが、`use openapi` の記述の操作に合いません。記述に無い操作、操作が受け取らない引数(GET と DELETE ではパスに入らない引数をクエリの引数と、ほかでは本文のプロパティと比べる)、要る引数の不足や `T?` で渡すこと、値の渡る向きに合わない型・範囲(`minimum`・`maximum`)・列挙の値・形式(`date`・`date-time`。整数は `timestamp` ではない)、レスポンスに無いフィールドや、省くか null のことがあるのに `T?` でないフィールド、操作が返す値を全部は持たない列挙の結果、操作が返さないステータス(`4XX` と `default` も見る)、記述の外を指す `$ref` がこれに当たります。記述を読めないとき(無い、リポジトリの外、大きすぎる、JSON でない、入れ子が深すぎる、YAML、OpenAPI 3.0 か 3.1 でない)と、サーバーが無いのに `url` も無いときも同じです。食い違いは一つずつ、引数・フィールド・ステータス・パスのところで、記述の場所を JSON ポインタで添えて言います。また、`use smithy` のモデルがサービスを記述する `aws <サービス>:<操作>` のタスクが、操作に合わないとき。サービスに無い操作、入力に無い引数、`@required` のメンバーの不足や `T?` で渡すこと、値の渡る向きに合わない型・`@range`・列挙の値(整数の shape は `timestamp` ではない)、出力に無い結果のフィールド、メンバーがとりうる値を全部は持たない列挙の結果、操作のエラーでもサービスのエラーでもない例外の宣言、`@idempotencyToken` のメンバーでない `key <引数>`、モデルに無い shape を指すメンバーがこれに当たります。モデルを読めないとき(無い、JSON でない、`smithy` の版が 1 か 2 でない、`shapes` が無い、サービスがちょうど一つでない)も同じです。どれも一つずつ、shape かメンバーの ID(`ns#Shape$member`)を添えて言います。また、`connect <API> "<サービス>/<メソッド>"` のタスクが、`use proto` の記述(proto3。protobufjs で、import するファイルとともに読む。Google の well-known types はファイルが無くても知っている)のメソッドに合わないとき。ファイルに無いサービスやメソッド、ストリームのメソッド、リクエストに無い引数(フィールドの名前でも JSON の名前でもないもの)、フィールドに合わない値、レスポンスの JSON の名前(lowerCamelCase か `json_name`)でない結果のフィールド、`string` 以外で読む 64 ビットの整数(protobuf の JSON は文字列で書く)、`json` 以外で読む小数、値があるかを持つフィールド(`optional`、メッセージ、`oneof` の一つ)を `T?` でなく読むこと、ゼロ値のほかの値を全部は持たない列挙の結果、Connect のコードでないエラーの宣言、`url` の無い `use proto` がこれに当たります。ファイルを読めないとき(無い、UTF-8 でない、proto3 でない、構文が読めない)も同じです。どれも一つずつ、メッセージ・フィールド・メソッド(`pkg.Message.field`)を添えて言います。また、`book <帳簿>.<振替>.<操作>` のタスクが振替に合わないとき。振替に無い引数、要る引数の不足、文字列や額の型の違い(額は `int` か、帳簿の単位の単位の型)、額の一部だけを渡す一部の確定、仮押さえ `<帳簿>.<振替>` のほかの結果(`do` ならどんな結果も)、その操作が拒否されることのないエラーがこれに当たります。',
    ),
    fix: tr(
      "For an API task, write its arguments, result fields and error statuses as the operation the note points at says (`T?` where the response may leave a value out). For a book task, write the task's arguments as the transfer's parameters (the key for post and void), its result as the hold, and its errors from the reasons the note lists.",
      "API のタスクは、引数と結果のフィールドとエラーのステータスを、注が指す操作のとおりに書いてください(レスポンスが値を省くことがあれば `T?`)。帳簿のタスクは、引数を振替の引数(post と void ならキー)に、結果を仮押さえに、エラーを注の理由から選んで書いてください。",
    ),
    example: `workflow refund v1

use openapi payments from "apis/payments.json"

enum RefundStatus = pending | succeeded | failed

record Refund
  id     : string
  status : RefundStatus

task refund(charge: string, amount: int range >=1 <=100000, note: string) -> Refund
  http POST payments "/v1/refunds"

flow
  pass
`,
    files: PAYMENTS_API,
  },
  {
    code: "E018",
    severity: "error",
    title: tr("This dandori cannot read what the flow uses", "この dandori では読めないものを使っている"),
    when: tr(
      "The flow uses something this dandori has no way to read: rules (`use rule`, no rule port is joined), date files (`use dates`, no date port), `implements` or decision-model tasks (`jev`). The first such construct gets this one diagnostic and the command exits 2: a check that guessed the rest would say things that are not so. Nothing else that follows from it is said.",
      "このフローは、この dandori が読む手段を持たないものを使っています。規則(`use rule`。規則の口がつながっていない)、日付のファイル(`use dates`。日付の口が無い)、`implements`、判断のモデルのタスク(`jev`)です。最初のものにこの診断を一つだけ出し、コマンドは 2 で終わります。残りを推測して確かめると、本当でないことを言うからです。そこから起きるほかの診断は出しません。",
    ),
    fix: tr(
      "This toolchain has no rule or date provider yet, and does not yet read decision models or implemented services; until they land, take the construct out or check the flow elsewhere. It checks flows that use books, OpenAPI descriptions, Smithy models, proto descriptions, child flows, agents, and tasks called by lambda, http, aws, connect, event, callback or their own code.",
      "この処理系には、まだ規則と日付を読む口が無く、判断のモデルと実装するサービスも読みません。それまでは、その構文を外すか、ほかの処理系で確かめてください。確かめるのは、帳簿、OpenAPI の記述、Smithy のモデル、proto の記述、子のフロー、エージェント、lambda・http・aws・connect・event・callback・呼び出し方の無いタスクを使うフローです。",
    ),
    example: `workflow order v1

use rule fee from "rules/fee.rule"

flow
  pass
`,
    files: {},
  },
  {
    code: "E020",
    severity: "error",
    title: tr("A case is left in a state that is not final", "終わりでない状態の案件を残して終わる"),
    when: tr(
      "At `succeed`, `fail`, the end of `flow`, the end of `on failure` or the end of `on cancel`, a case that started may be in a state that is not final (a hold still held), counting what the outside may do to it meanwhile (a hold may expire) and calls that failed after doing their work outside. `fail … leaving c` hands `c` over on purpose.",
      "`succeed`・`fail`・`flow` の終わり・`on failure` の終わり・`on cancel` の終わりで、始まった案件が終わりでない状態(押さえ中の仮押さえ)にいることがあります。そのあいだに外で起きうること(仮押さえの期限切れ)と、外では済んでから失敗した呼び出しも数えます。`fail … leaving c` は、承知で `c` を引き渡す宣言です。",
    ),
    fix: tr(
      "Settle the case on every way to the end (post or void the hold), or end with `fail … leaving c` to hand it over as it is.",
      "終わりへのどの道でも案件を片付けるか(仮押さえを確定か取消する)、`fail … leaving c` でそのまま引き渡してください。",
    ),
    example: `${HOLDING}
flow
  goods <- reserve(order: "o-1", sku: "s-1", qty: 1)
    on out_of_stock => succeed
  succeed
`,
    files: BOOK,
  },
  {
    code: "E021",
    severity: "error",
    title: tr(
      "The book refuses an operation in every state the case can be in",
      "どの状態でも拒否される操作を送った",
    ),
    when: tr(
      "Every state the hold can be in at this call refuses the operation: voiding a hold that was posted, posting one that was voided. The call can only fail.",
      "この呼び出しで、仮押さえがとりうるどの状態でも、帳簿はその操作を拒否します。確定した仮押さえの取消や、取り消した仮押さえの確定です。呼び出しは失敗するしかありません。",
    ),
    fix: tr(
      "Do not make the call there.",
      "そこでは呼ばないでください。",
    ),
    example: `${HOLDING}
flow
  goods <- reserve(order: "o-1", sku: "s-1", qty: 1)
    on out_of_stock => succeed
  goods <- ship(order: "o-1", sku: "s-1")
    on expired => succeed
    on timeout, failure => fail NotShipped leaving goods
  goods <- put_back(order: "o-1", sku: "s-1")
    on expired, already_posted => pass
    on timeout, failure => fail NotPutBack leaving goods
`,
    files: BOOK,
  },
  {
    code: "E022",
    severity: "error",
    title: tr("A refusal the book may answer is not handled", "拒否されることがあるのに処理していない"),
    when: tr(
      "In a state the hold may be in at this call, the book refuses the operation with a reason (a post of an expired hold with `expired`, a void of a posted one with `already_posted`), and the task does not declare the reason in `errors`, or no `on` under the call handles it. A hold that expires may expire before any post or void, whether or not the flow says so.",
      "この呼び出しで仮押さえがとりうる状態のどれかで、帳簿がその操作を理由つきで拒否します(期限切れの確定は `expired`、確定済みの取消は `already_posted`)。タスクがその理由を `errors` に宣言していないか、呼び出しの下の `on` が処理していません。期限のある仮押さえは、書かなくても、どの確定と取消の前にも期限が切れえます。",
    ),
    fix: tr(
      "Declare the reason in the task's `errors` and handle it with `on <reason> =>` under the call.",
      "理由をタスクの `errors` に宣言し、呼び出しの下の `on <理由> =>` で処理してください。",
    ),
    example: `workflow order v1

use book stock from "books/stock.book"

task reserve(order: string, sku: string, qty: int) -> stock.reserve
  book stock.reserve.hold
  starts stock.reserve
  errors out_of_stock

task ship(order: string, sku: string) -> stock.reserve
  book stock.reserve.post
  sends post

case goods : stock.reserve follows stock.reserve

flow
  goods <- reserve(order: "o-1", sku: "s-1", qty: 1)
    on out_of_stock => succeed
  goods <- ship(order: "o-1", sku: "s-1")
    on timeout, failure => fail NotShipped leaving goods
`,
    files: BOOK,
  },
  {
    code: "E023",
    severity: "error",
    title: tr(
      "The case analysis reached a limit, so the check is incomplete",
      "案件の解析が上限に達し、検査が完全でない",
    ),
    when: tr(
      `The case analysis follows every run of the flow over the states its cases can be in. It keeps at most ${MAX_STATES} combinations of the cases' states at one point of the flow (MAX_STATES) and goes round a loop at most ${MAX_LOOP_ROUNDS} times to learn all the loop can do (MAX_LOOP_ROUNDS), so that a flow with very many cases cannot keep it running without end. Where either limit is reached, the runs past it are not followed. Then the analysis can no longer promise that no case is left open (E020), that every refusal is handled (E022), that every variable has a value where it is read (E012) or that a case starts once (E013), and what it says about arms never taken (E011), calls refused in every state (E021) and handlers that never run (W102) rests only on the runs it did follow. It is an error and not a warning because a flow that passes \`check\` must have been followed to its end: a check that stopped half way has not shown the flow right, and exit 0 would say it had. The diagnostic points at the statement where the states grew past the limit, with one run it did not follow, or at the loop that did not settle.`,
      `案件の解析は、案件がとりうる状態の上で、フローのすべての実行を追います。フローの一つの点で持つ案件の状態の組み合わせは ${MAX_STATES} 個まで(MAX_STATES)、ループが何をしうるかを知るために回るのは ${MAX_LOOP_ROUNDS} 周まで(MAX_LOOP_ROUNDS)で、案件がとても多いフローでも解析が終わるようにしています。どちらかの上限に達すると、その先の実行は追いません。すると、終わりでない状態の案件を残さないこと(E020)、拒否をどれも処理すること(E022)、読む変数がどれも値を持つこと(E012)、案件を一度だけ始めること(E013)を約束できなくなり、通らない分岐(E011)、どの状態でも拒否される呼び出し(E021)、動くことのないハンドラー(W102)の診断も、追った実行だけに基づくものになります。警告でなくエラーにするのは、\`check\` を通るフローは終わりまで追ったフローでなければならないからです。途中で止めた検査はフローが正しいことを示しておらず、exit 0 はそれを示したと言ってしまいます。診断は、状態が上限を超えた文を指して追わなかった実行を一つ添えるか、落ち着かなかったループを指します。`,
    ),
    fix: tr(
      'Make the flow smaller where the diagnostic points: open fewer cases whose outcome is undecided at the same time (settle one before the next starts), let a loop move fewer cases on one after another, or move a part of the flow into a child flow (`flow "…"`), which is checked on its own.',
      '診断の指すところでフローを小さくしてください。成り行きの決まらない案件を同時にたくさん開かない(次を始める前に片付ける)、ループで順に進める案件を少なくする、フローの一部を子のフロー(`flow "…"`)に移す(子は別に検査します)のどれかです。',
    ),
    example: `workflow order v1

use book stock from "books/stock.book"

task reserve(order: string, sku: string, qty: int) -> stock.reserve
  book stock.reserve.hold
  starts stock.reserve
  errors out_of_stock

${MANY_LINES.map((l) => `case ${l} : stock.reserve follows stock.reserve`).join("\n")}

flow
${
      MANY_LINES.map((l, i) =>
        `  ${l} <- reserve(order: "o-1", sku: "s-${
          i + 1
        }", qty: 1)\n    on out_of_stock, timeout, failure => pass`
      ).join("\n")
    }
  fail HandOver leaving ${MANY_LINES.join(", ")}
`,
    files: BOOK,
  },
  {
    code: "E030",
    severity: "error",
    title: tr(
      "A call that changes outside data is retried without a key",
      "外部のデータを変える呼び出しを key なしでリトライする",
    ),
    when: tr(
      "A task that surely changes outside data (an `http` POST, PUT, PATCH or DELETE, or a task that starts or sends to a case) has `retry` but no `key` and is not `idempotent`. A try that timed out may have done its work, and the next try does it again.",
      "外部のデータを必ず変えるタスク(`http` の POST・PUT・PATCH・DELETE、案件を始めるか案件に送るタスク)が、`key` も `idempotent` も無いまま `retry` します。タイムアウトした試しが済ませていても、次の試しがもう一度します。",
    ),
    fix: tr(
      "Write `key` under the task so every try is the same request, or `idempotent` when two calls do what one does.",
      "どの試しも同じリクエストになるようタスクの下に `key` を書くか、二度呼んでも一度と同じなら `idempotent` と書いてください。",
    ),
    example: `workflow order v1

task charge(order: string)
  http POST "https://payments.example.com/charges/{order}"
  retry 3 times every 2 seconds

flow
  charge(order: "o-1")
`,
    files: {},
  },
  {
    code: "E031",
    severity: "error",
    title: tr(
      "Step Functions Express cannot run the flow (`--express`)",
      "Step Functions の Express では走らせられない(`--express`)",
    ),
    when: tr(
      "`dandori build --target stepfunctions --express` builds for an Express state machine, which runs at most five minutes, at least once, and without a history to wait in. The flow waits longer than five minutes (`wait` over 300 seconds, or `wait until`, whose length is not known), waits for a callback, starts a nested execution (`state machine`), or makes a call that may change outside data without a `key` (a task that is neither keyed nor `idempotent`: Express may run it twice).",
      "`dandori build --target stepfunctions --express` は Express のステートマシン向けに組みます。Express は五分までしか走らず、少なくとも一度走り(二度走ることがある)、待つための履歴を持ちません。フローが五分を超えて待つ(300 秒を超える `wait`、長さの分からない `wait until`)、コールバックを待つ、ネストした実行(`state machine`)を始める、`key` なしで外部のデータを変えうる呼び出し(`key` も `idempotent` も無いタスク。Express は二度走らせることがあります)をする、のどれかです。",
    ),
    fix: tr(
      "Build it without `--express` (a Standard state machine), or move the waits, the callbacks and the children into a Standard state machine the Express one starts; write `key` or `idempotent` under a task that changes data.",
      "`--express` なしで(Standard のステートマシンとして)組むか、待ち・コールバック・子を、Express から始める Standard のステートマシンに移してください。データを変えるタスクには `key` か `idempotent` を書いてください。",
    ),
    example: `workflow reminder v1

inputs
  user : string

task remind(user: string)
  lambda "arn:aws:lambda:ap-northeast-1:123456789012:function:remind"
  key

flow
  wait 1 hour
  remind(user: user)
`,
    files: {},
    build: { target: "stepfunctions", flags: ["--express"] },
  },
  {
    code: "E040",
    severity: "error",
    title: tr(
      "A run may outgrow what the platform keeps of it",
      "一つの実行が、プラットフォームが持てる大きさを超えうる",
    ),
    when: tr(
      "`dandori build` estimates the most one run may write on the target's platform, from the flow's loops, calls, retries and waits, and the platform cannot keep that much. Step Functions (`stepfunctions`): one execution's history may exceed 25,000 events; every loop goes round `at most` times and every call is tried as often as its retries allow, a state entered and left counts 2 events, a Task's try 4 more, a Map's iteration 2 more. Temporal (`temporal-typescript`, `temporal-python`, `temporal-go`, alike): one run's history may exceed 51,200 events (the server terminates the run there); an activity's attempt counts 6 events, a timer 5, a child workflow 9, an Update 5, and the outermost loops continue as new at 10,000 events, so only loops inside others, in parallel or in a branch count whole. Lambda durable functions (`durable`): one execution may use more than the 3,000 operations the service allows; a step, a wait, an invoke, a `map` and each of its iterations count 1, a callback's attempt 2 (3 with `timeout until`), each clock step (`now`, `wait until`, the period) 1, and no loop continues as new, so every loop counts whole.",
      "`dandori build` が、フローのループ・呼び出し・リトライ・待ちから、出力先のプラットフォームで一つの実行が書きうる最大を見積もり、プラットフォームがそれを持てません。Step Functions(`stepfunctions`)では、一つの実行の履歴が 25,000 件を超ええます。どのループも `at most` の回数だけ回り、どの呼び出しもリトライの許すだけ試すとして、ステートに入って出ると 2 件、Task の試し一回でさらに 4 件、Map のイテレーション一つでさらに 2 件と数えます。Temporal(`temporal-typescript`、`temporal-python`、`temporal-go`。同じです)では、一つの実行の履歴が 51,200 件を超ええます(サーバーはそこで実行を止めます)。アクティビティの一回の試しを 6 件、タイマーを 5 件、子ワークフローを 9 件、Update を 5 件と数え、一番外のループは 10,000 件で新しい実行に続くので、ほかのループの中、並列、分岐の中のループだけがまるごと数えられます。Lambda durable functions(`durable`)では、一つの実行が、サービスが許す 3,000 回を超える操作を使いえます。step、待ち、invoke、`map` とその一つひとつのイテレーションを 1 回、コールバックの一回の試しを 2 回(`timeout until` なら 3 回)、時計の step(`now`、`wait until`、期間)を 1 回ずつと数え、新しい実行に続くループが無いので、どのループもまるごと数えられます。",
    ),
    fix: tr(
      "Lower the loops' `at most` or the retries. On Temporal, make the largest loop the flow's outermost one (not in parallel), so that each iteration can continue as a new run; on Step Functions, run each round as a child (`state machine`), or start a new execution to go on.",
      "ループの `at most` かリトライの回数を下げてください。Temporal では、いちばん大きいループをフローの一番外の(並列でない)ループにして、イテレーションごとに新しい実行で続けられるようにします。Step Functions では、一回りずつを子(`state machine`)で走らせるか、新しい実行を始めて続けます。",
    ),
    example: `workflow labels v1

inputs
  parcels : list[string]

task print_label(parcel: string)
  lambda "arn:aws:lambda:eu-west-2:123456789012:function:print-label"
  key
  retry 9 times

flow
  for p in parcels at most 1000 in parallel, 10 at a time
    print_label(parcel: p)
`,
    files: {},
    build: { target: "temporal-typescript", flags: [] },
  },
  {
    code: "E050",
    severity: "error",
    title: tr(
      "The platform cannot run what the flow asks",
      "フローが求めることを、プラットフォームが動かせない",
    ),
    when: tr(
      "`dandori build` for a target meets something of the flow its platform cannot run, an item the platform needs that the flow does not write, or what this target does not build yet. Other platforms may run the same flow, so the build says it, not `check`. Step Functions (`stepfunctions`): a task with no way of calling (the user's own code) or an `event` task (a state machine takes a value only through a token a Task hands on); `on cancel`; a `flow` task without `state machine`, or a nested execution with declared errors (the child's `fail` reaches the parent only inside `Cause`); an `http` task without `connection`, with a `timeout` over 60 seconds (an HTTP Task's limit) or to a URL that is not `https://`; a book task whose `use book` has no `lambda`. pydantic-graph (`pydantic-graph`): `on cancel` (nothing cancels a graph run from outside) and `event` tasks (a value sent to a run by name is not written yet). Lambda durable functions (`durable`): `on cancel` (an execution is stopped, not cancelled into its code), a task that waits for an `event` (nothing but a callback sends into an execution), and `timeout` on a child (`context.invoke` takes none). An agent task (docs/dandori.md#agents) on Step Functions, which sends it as an HTTP Task: it needs what an `http` task needs there (`connection`, an `https://` endpoint, a `timeout` of 60 seconds at most).",
      "`dandori build` が、出力先のプラットフォームで動かせないもの、プラットフォームに要るのにフローに書いていない項目、またはこの出力先がまだ組まないものに、フローの中で出会いました。ほかのプラットフォームでは同じフローが走りうるので、`check` ではなくビルドが言います。Step Functions(`stepfunctions`)では、呼び出し方の無いタスク(利用者のコード)と `event` のタスク(ステートマシンが値を受け取れるのは、Task が渡すトークンを通してだけです)、`on cancel`、`state machine` の無い `flow` のタスクと、エラーを宣言したネストした実行(子の `fail` は親には `Cause` の中にしか届きません)、`connection` の無い `http` のタスク、60 秒を超える `timeout`(HTTP Task の上限)の `http` のタスク、`https://` でない URL、`lambda` を書いていない `use book` の帳簿のタスクがこれに当たります。pydantic-graph(`pydantic-graph`)では、`on cancel`(グラフの実行を外から取り消す手段がありません)と `event` のタスク(名前で実行に届く値を、まだ書きません)です。Lambda durable functions(`durable`)では、`on cancel`(実行は止められるだけで、コードにキャンセルが届きません)、`event` を待つタスク(実行に送れるのはコールバックだけです)、子の `timeout`(`context.invoke` はタイムアウトを取りません)です。Step Functions はエージェントのタスク(docs/dandori.md#agents)を HTTP Task として送るので、そこでのエージェントには `http` のタスクと同じもの(`connection`、`https://` の送り先、60 秒までの `timeout`)が要ります。",
    ),
    fix: tr(
      "Write the item the platform needs (on Step Functions `lambda`, `state machine`, `connection`, `lambda` under `use book`), write the flow without what the diagnostic names, or build it for a target that runs it.",
      "プラットフォームに要る項目(Step Functions では `lambda`、`state machine`、`connection`、`use book` の下の `lambda`)を書くか、診断が名指すものを使わずに書くか、それを動かせる出力先に組んでください。",
    ),
    example: `workflow approval v1

task approved() -> bool
  event
  timeout 3 days

flow
  let ok = approved()
`,
    files: {},
    build: { target: "stepfunctions", flags: [] },
  },
  {
    code: "E906",
    severity: "error",
    title: tr(
      "A secret is sent to a party outside the project",
      "秘密の値を、プロジェクトの外の相手に送る",
    ),
    when: tr(
      "A call passes a secret to a task that sends its arguments outside the project: a Lambda function, an `http` URL that is not this machine, or an AWS service, which the flow names only by an address. A value is secret when it is read from a place marked `secret` (an input, an output, a record's field, a task's argument or result) or made from one: a record carries the secrets of its fields, a list those of its items, a string those of the values written into it, and a variable those of every place that gives it a value. The diagnostic names the secret as the flow reads it, says where the mark is, and lists the statements that carry it to the call. A book, a child flow and a task of the user's own code are inside the project.",
      "秘密の値を、引数をプロジェクトの外へ送るタスクに渡しています。Lambda の関数、このマシンでない `http` の URL、AWS のサービスで、フローはどれもアドレスでしか知りません。`secret` の印を付けた場所(入力、出力、レコードのフィールド、タスクの引数と結果)から読んだ値と、それから作った値が秘密です。レコードはフィールドの、リストは項目の、文字列は埋め込んだ値の、変数は値を入れるすべての場所の秘密を持ちます。診断は、秘密の値をフローが読んだ書き方で言い、印の場所と、呼び出しまで運んだ文を出します。帳簿、子のフロー、利用者のコードのタスクはプロジェクトの中です。",
    ),
    fix: tr(
      'Send a reference (an ID, the name of a secret) or only what the party needs. If sending it there is meant, write `discloses <argument>, … "<reason>"` under the task; it lets E906 pass and nothing else (the argument is still kept in the history, W904).',
      '参照(ID、シークレットの名前)か、相手に要るものだけを送ってください。そこへ送ることを意図しているなら、タスクの下に `discloses <引数>, … "<理由>"` と書きます。通すのは E906 だけで、引数が履歴に残ること(W904)は変わりません。',
    ),
    example: `workflow payout v1
  history encrypted

inputs
  account_number : string secret

task pay(reference: string)
  http POST "https://bank.example.com/payouts"

flow
  pay(reference: "payout to {account_number}")
`,
    files: {},
  },
  {
    code: "W030",
    severity: "warning",
    title: tr(
      "A call that may change outside data is retried without a key",
      "外部のデータを変えるかもしれない呼び出しを key なしでリトライする",
    ),
    when: tr(
      "A task that may change outside data (a `lambda`, an `aws` operation that is not a read, a child flow, a task of the user's own code) has `retry` but no `key` and is not `idempotent`. Book tasks are idempotent by the book's key, agents change nothing, and reads (`http` GET, `aws` get, list, describe …) are left alone.",
      "外部のデータを変えるかもしれないタスク(`lambda`、読むだけでない `aws` の操作、子のフロー、利用者のコードのタスク)が、`key` も `idempotent` も無いまま `retry` します。帳簿のタスクは帳簿のキーで冪等で、読むだけのもの(`http` の GET、`aws` の get・list・describe など)は数えません。",
    ),
    fix: tr(
      "Write `key`, or `idempotent` when the call does nothing twice.",
      "`key` を書くか、二度呼んでも一度と同じなら `idempotent` と書いてください。",
    ),
    example: `workflow order v1

task notify(order: string)
  lambda "arn:aws:lambda:eu-west-2:123456789012:function:notify"
  retry 2 times

flow
  notify(order: "o-1")
`,
    files: {},
  },
  {
    code: "W101",
    severity: "warning",
    title: tr(
      "An unhandled failure may leave a case open",
      "処理されないエラーで、案件を終わりでない状態に残して失敗することがある",
    ),
    when: tr(
      "A call can fail with an error nothing handles while a case may be in a state that is not final, and the flow has no `on failure` to settle it; or a cleanup call in `on failure` or `on cancel` can fail that way. One warning per case, at the first such call; the note lists the others.",
      "案件が終わりでない状態にいることがあるところで、呼び出しが処理されないエラーで失敗しえて、それを片付ける `on failure` がありません。または `on failure` や `on cancel` の片付けの呼び出しが、そう失敗しえます。案件ごとに、最初の呼び出しに一つ出し、ほかの行は注に書きます。",
    ),
    fix: tr(
      "Write `on failure` that settles the case, or handle the call's errors.",
      "案件を片付ける `on failure` を書くか、呼び出しのエラーを処理してください。",
    ),
    example: `${HOLDING}
flow
  goods <- reserve(order: "o-1", sku: "s-1", qty: 1)
    on out_of_stock => succeed
  let paid = pay(order: "o-1")
  match paid
    true =>
      goods <- ship(order: "o-1", sku: "s-1")
        on expired => succeed
        on timeout, failure => fail NotShipped leaving goods
    false =>
      goods <- put_back(order: "o-1", sku: "s-1")
        on expired, already_posted => pass
        on timeout, failure => fail NotPutBack leaving goods
`,
    files: BOOK,
  },
  {
    code: "W102",
    severity: "warning",
    title: tr("A refusal handler never runs", "動くことのない `on <拒否>`"),
    when: tr(
      "An `on` under a call of a hold lists only refusals of the hold's machine, and in no state the hold can be in at this call does the book refuse the operation with any of them.",
      "仮押さえの呼び出しの下の `on` が、仮押さえのステートマシンの拒否だけを並べていて、この呼び出しで仮押さえがとりうるどの状態でも、帳簿がその理由で拒否することはありません。",
    ),
    fix: tr(
      "Remove the handler.",
      "そのハンドラーを消してください。",
    ),
    example: `${HOLDING}
flow
  goods <- reserve(order: "o-1", sku: "s-1", qty: 1)
    on out_of_stock => succeed
  goods <- put_back(order: "o-1", sku: "s-1")
    on expired => pass
    on already_posted => pass
    on timeout, failure => fail NotPutBack leaving goods
`,
    files: BOOK,
  },
  {
    code: "W104",
    severity: "warning",
    title: tr("The range of a value is not known", "範囲のあるところに、範囲の分からない値を渡した"),
    when: tr(
      "A value goes to a place with a range, and some source of it has no range: an input, a field or a task's result written without one, or `now` in a workflow without `now range` (and in `on failure` and `on cancel`, where `now` is not checked against the period).",
      "範囲のあるところに渡す値の出どころのどれかに、範囲がありません。範囲を書いていない入力・フィールド・タスクの結果、`now range` の無いワークフローの `now`(`on failure` と `on cancel` の `now` は期間で確かめないので、そこでも)です。",
    ),
    fix: tr(
      "Write a range where the value comes from; it is checked there when the workflow runs, so from there on the value is inside it.",
      "値の出どころに範囲を書いてください。走らせたときにそこで確かめるので、そこから先は範囲の中にあると言えます。",
    ),
    example: `workflow order v1

inputs
  nights : int

task book_room(nights: int range >=1 <=30)

flow
  book_room(nights: nights)
`,
    files: {},
  },
  {
    code: "W901",
    severity: "warning",
    title: tr("A key-shaped value is written in the flow", "鍵の形の値が `.flow` に書いてある"),
    when: tr(
      "A value shaped like a credential (an AWS access key ID; a GitHub, Slack, Stripe, OpenAI, Anthropic or Google key or token; a Slack incoming webhook URL; a PEM private key) appears in a string or a comment. The whole text is searched even when the flow has errors, and the diagnostic gives only the kind of key, its prefix and its length, never the value.",
      "鍵の形の値(AWS のアクセスキー ID、GitHub・Slack・Stripe・OpenAI・Anthropic・Google の鍵やトークン、Slack の Incoming Webhook の URL、PEM の秘密鍵)が、文字列かコメントに書いてあります。フローに誤りがあっても全文から探し、診断には鍵の種類と接頭辞と長さだけを出して、鍵そのものは出しません。",
    ),
    fix: tr(
      "Take the key out of the flow and rotate it if it was real. For a value made up for a test, write `# ritsu: test secret` on the same line.",
      "鍵をフローから外し、本物だったなら鍵を替えてください。テスト用に作った値なら、同じ行に `# ritsu: test secret` と書きます。",
    ),
    example: `workflow order v1

# charges go through ${FAKE_STRIPE_KEY}
task charge(order: string)

flow
  charge(order: "o-1")
`,
    files: {},
  },
  {
    code: "W902",
    severity: "warning",
    title: tr(
      "A task calls `http://` off this machine",
      "このマシンの外へ、暗号化しない HTTP で送る",
    ),
    when: tr(
      "An `http` task's URL is `http://` and its host is not this machine (`localhost`, a name under `.localhost`, `127.0.0.0/8`, `::1`): what it sends and what comes back travel unencrypted, and whoever is on the way can read and change them. A host written with a value in braces is not known to be this machine. Step Functions' HTTP Task calls HTTPS only, so its build refuses such a task whatever the flow says.",
      "`http` のタスクの URL が `http://` で、ホストがこのマシン(`localhost`、`.localhost` の下の名前、`127.0.0.0/8`、`::1`)ではありません。送るものも返るものも暗号化されずに運ばれ、途中のだれでも読み、書き換えられます。波括弧で値を埋め込んだホストは、このマシンとは分かりません。Step Functions の HTTP Task は HTTPS しか呼ばないので、そのビルドはフローに何を書いても、このタスクを受け付けません。",
    ),
    fix: tr(
      'Call `https://`. If plain HTTP is meant (a network you trust end to end), write `plaintext "<reason>"` under the task.',
      '`https://` で呼んでください。暗号化しない HTTP を意図しているなら(端から端まで信頼できるネットワーク)、タスクの下に `plaintext "<理由>"` と書きます。',
    ),
    example: `workflow notify v1

task notify(order: string)
  http POST "http://hooks.example.com/orders/{order}"

flow
  notify(order: "o-1")
`,
    files: {},
  },
  {
    code: "W904",
    severity: "warning",
    title: tr(
      "A secret is kept in a platform's history",
      "秘密の値が、プラットフォームの履歴に残る",
    ),
    when: tr(
      "A secret is where the platforms keep it in the history of every execution: an input or an output (said on its declaration, and on a `succeed` that gives an output a secret), the result of a task the flow calls (on the task's declaration: the result is kept even when the flow does not read it), an argument of any call (tasks, books, child flows), or the reason of a `fail`. Temporal, Step Functions, Lambda durable functions and Argo Workflows keep them, and whoever may read the executions can read them. Secrets are followed as for E906.",
      "秘密の値が、プラットフォームが実行ごとに履歴に残すところにあります。入力と出力(宣言の行と、出力に秘密の値を書く `succeed` の行)、フローが呼ぶタスクの結果(タスクの宣言の行。フローが読まなくても履歴に残ります)、どの呼び出しの引数(タスク、帳簿、子のフロー)、`fail` の理由です。Temporal・Step Functions・Lambda durable functions・Argo Workflows がそれを残し、実行を読める人はだれでも読めます。秘密の値の追い方は E906 と同じです。",
    ),
    fix: tr(
      "Pass a reference (an ID, the name of a secret) and fetch the value inside the task. If the history is encrypted with a key you hold (Temporal: a payload codec; Step Functions and Lambda durable functions: a customer managed KMS key), write `history encrypted` under `workflow`. A Temporal build (`temporal-typescript`, `temporal-python`, `temporal-go`) then makes a worker, a client and a replay that take a payload codec and cannot be made without one, and writes beside them an AES-256-GCM codec (`codec.ts`, `codec.py`, `codec.go`, one wire format) to which your program gives the key.",
      "参照(ID、シークレットの名前)を渡し、値はタスクの中で取ってきてください。履歴を自分の持つ鍵で暗号化しているなら(Temporal はペイロードのコーデック、Step Functions と Lambda durable functions はカスタマー管理の KMS キー)、`workflow` の下に `history encrypted` と書きます。Temporal のビルド(`temporal-typescript`、`temporal-python`、`temporal-go`)は、そのとき、ペイロードのコーデックを受け取り、それなしには作れないワーカー、クライアント、再生を作り、鍵をプログラムが渡す AES-256-GCM のコーデック(`codec.ts`、`codec.py`、`codec.go`。ワイヤー形式は一つです)を横に書きます。",
    ),
    example: `workflow payout v1

record Account
  id     : string
  number : string secret

inputs
  account : Account

task note(text: string)

flow
  note(text: account.number)
`,
    files: {},
  },
] as const satisfies readonly CodeInfo[];

/** A code of dandori's registry: the codes a dandori `Reporter` takes. */
export type DandoriCode = typeof REGISTRY[number]["code"];

/** The registry as the rest reads it (`REGISTRY` is `as const` only so that `DandoriCode` is its codes). */
export const CODES: readonly CodeInfo[] = REGISTRY;

/** The codes of the design's table (docs/design/dandori.md#checks) this checker does not emit, and why. */
export const NOT_CHECKED: readonly NotChecked[] = [
  {
    code: "E017",
    why: tr(
      "`implements` checks a flow against a `.proto` service it implements, which this dandori does not do yet; a flow that uses it gets E018.",
      "`implements` はフローを、それが実装する `.proto` のサービスと突き合わせますが、この dandori はまだそれをしません。使うフローは E018 になります。",
    ),
  },
  {
    code: "W032",
    why: tr(
      "decision-model tasks (`jev`) get E018 here.",
      "判断のモデルのタスク(`jev`)は、ここでは E018 になります。",
    ),
  },
  {
    code: "W103",
    why: tr(
      "it asks a task that starts a rule's case for a `key`; rules get E018 here, and a book's hold may not have `key` (its book key makes it idempotent, docs/design/dandori.md#books).",
      "規則の案件を始めるタスクに `key` を求めるもので、規則はここでは E018 になります。帳簿の仮押さえには `key` を書けません(帳簿のキーで冪等。docs/design/dandori.md#books)。",
    ),
  },
];
