/**
 * Which items each way of calling a task takes (docs/design/dandori.md#ways-of-calling-a-task): one
 * table, item × method, each cell the method taking the item or, in both languages, why it does
 * not (E007). The resolver says the reasons (tasks.ts); a compiler reads which items a method's
 * tasks may have.
 *
 * A written item has one aspect or more, the most particular first: `key order` is
 * `key <argument>`, then `key`. A method takes the item when it takes every aspect; the first it
 * does not take says why. What turns on more than the item and the method stays with the
 * resolver as small checks of its own: an argument the item names, `timeout until` (it needs a
 * task that waits for an answer, `event` or `callback`, and a `timestamp`), the operation of an
 * `aws` callback, the URL of a `plaintext`, the statuses of an `http` task's errors. An item
 * with no row (`timeout`, `idempotent`, `queue`, `connection`, `discloses`, and `starts`, `sends`,
 * `observes`, which the case rules judge, E008) is taken by every method; the items that say how
 * a task is called are the methods themselves.
 *
 * `jev` tasks stop at E018 before they are resolved (support.ts), so the table has no column for
 * them yet. What an agent takes beyond the table (its provider, model, effort level,
 * `url` and result type) is checked in agent_check.ts.
 * @module
 */

import { assert } from "../common/assert.ts";
import { type Text, tr } from "../common/text.ts";
import type { Method } from "./model.ts";

/** The methods whose tasks this dandori resolves: the table's columns. */
export type CheckedMethod = Exclude<Method, "jev">;

/** The table's columns, in the order of `Method`. */
export const CHECKED_METHODS: readonly CheckedMethod[] = [
  "lambda",
  "http",
  "aws",
  "connect",
  "agent",
  "book",
  "flow",
  "event",
  "child",
  "own",
];

/** What a written item says that a method may not take: the table's rows. */
export type ItemAspect =
  | "key"
  | "key <argument>"
  | "refused as"
  | "errors <name>"
  | "<error> = …"
  | "<error> = <exception>"
  | "retry"
  | "callback"
  | "image"
  | "model"
  | "effort"
  | "url"
  | "confidence"
  | "refusal"
  | "plaintext";

/** A cell: the method takes the aspect (`TAKES`), or why it does not. */
export type Cell = Text | null;

/** The method takes the aspect. */
export const TAKES: Cell = null;

/** A row: every method's cell, so a new method fails to type-check until each row says. */
export type ItemRow = { readonly [M in CheckedMethod]: Cell };

const CHILD_STARTS_ONCE = tr(
  "a child workflow is started once per the parent's call",
  "子ワークフローは親の呼び出しごとに一度だけ始まります",
);

const ONLY_AWS_NAMES_THE_KEY = tr(
  "only an `aws` task names the argument that takes the key",
  "キーを受け取る引数を書くのは `aws` のタスクだけです",
);

/** Why a callback is refused; also said for an `aws` operation other than `sqs:sendMessage`. */
export const CALLBACK_WAYS: Text = tr(
  "a callback is sent through `lambda`, `aws sqs:sendMessage`, or the task's own code",
  "コールバックを渡せるのは `lambda`、`aws sqs:sendMessage`、呼び出し方の無いタスクだけです",
);

/** Why `plaintext` is refused; also said for an `http` task whose URL is not `http://`. */
export const NO_PLAIN_URL: Text = tr(
  "the task sends to no `http://` URL of its own",
  "このタスクは自分の `http://` の URL に送りません",
);

const AGENTS_ONLY = tr(
  "only an agent or a decision model task takes it",
  "書けるのはエージェントか判断のモデルのタスクだけです",
);

const AGENT_CHANGES_NOTHING = tr(
  "an agent changes no outside data, so a second call does no harm",
  "エージェントは外部のデータを何も変えないので、二度呼んでも害はありません",
);

const AGENT_DECLARES_NO_ERRORS = tr(
  "an agent declares no errors: a refusal, an answer that cannot be read and a failed call are `failure`, a late one `timeout`",
  "エージェントはエラーを宣言しません。拒否、読めない応答、失敗した呼び出しは `failure`、時間切れは `timeout` です",
);

/** What an agent takes and no other checked method does; decision models (`jev`) are not checked yet. */
const AGENTS_ONLY_ROW: ItemRow = {
  lambda: AGENTS_ONLY,
  http: AGENTS_ONLY,
  aws: AGENTS_ONLY,
  connect: AGENTS_ONLY,
  agent: TAKES,
  book: AGENTS_ONLY,
  flow: AGENTS_ONLY,
  event: AGENTS_ONLY,
  child: AGENTS_ONLY,
  own: AGENTS_ONLY,
};

const CONNECT_BY_DANDORI = tr(
  "a `connect` task is called by the code dandori writes, not by an image of yours",
  "`connect` のタスクを呼ぶのは dandori が書くコードで、利用者のイメージではありません",
);

const PLAIN_UNDER_USE = tr(
  "a `connect` task sends to the `url` of its `use proto`; a plain `http://` URL is said there",
  "`connect` のタスクは `use proto` の `url` に送ります。`http://` の URL のことは、そこで言います",
);

const DECISION_MODELS_ONLY = tr(
  "only a decision model task (`jev`) takes it",
  "書けるのは判断のモデルのタスク(`jev`)だけです",
);

/** What only decision models take, which this dandori does not check yet: no checked method takes it. */
const DECISION_MODELS_ONLY_ROW: ItemRow = {
  lambda: DECISION_MODELS_ONLY,
  http: DECISION_MODELS_ONLY,
  aws: DECISION_MODELS_ONLY,
  connect: DECISION_MODELS_ONLY,
  agent: DECISION_MODELS_ONLY,
  book: DECISION_MODELS_ONLY,
  flow: DECISION_MODELS_ONLY,
  event: DECISION_MODELS_ONLY,
  child: DECISION_MODELS_ONLY,
  own: DECISION_MODELS_ONLY,
};

/**
 * The table. `key <argument>` is read before `key` and says only what naming the argument adds:
 * whether a method takes a key at all is `key`'s. `<error> = <exception>` is read before
 * `<error> = …` in the same way.
 */
export const TASK_ITEMS: Readonly<Record<ItemAspect, ItemRow>> = {
  "key": {
    lambda: TAKES,
    http: TAKES,
    aws: TAKES,
    connect: TAKES,
    agent: AGENT_CHANGES_NOTHING,
    book: tr(
      "a book's transfer passes once per its own key, so a second call is done before",
      "帳簿の振替は帳簿に書いたキーで一度しか通らないので、二度目は前にしたとして通ります",
    ),
    flow: CHILD_STARTS_ONCE,
    event: tr("an event task calls nothing", "イベントのタスクは何も呼びません"),
    child: CHILD_STARTS_ONCE,
    own: TAKES,
  },
  "key <argument>": {
    lambda: ONLY_AWS_NAMES_THE_KEY,
    http: ONLY_AWS_NAMES_THE_KEY,
    aws: TAKES,
    connect: ONLY_AWS_NAMES_THE_KEY,
    agent: AGENT_CHANGES_NOTHING,
    book: TAKES,
    flow: TAKES,
    event: ONLY_AWS_NAMES_THE_KEY,
    child: TAKES,
    own: ONLY_AWS_NAMES_THE_KEY,
  },
  "refused as": {
    lambda: TAKES,
    http: TAKES,
    aws: TAKES,
    connect: TAKES,
    agent: AGENT_DECLARES_NO_ERRORS,
    book: tr(
      "a hold is refused with a reason per state; write the reasons in `errors`",
      "仮押さえは状態ごとの理由で拒否されます。理由を `errors` に書いてください",
    ),
    flow: TAKES,
    event: TAKES,
    child: TAKES,
    own: TAKES,
  },
  "errors <name>": {
    lambda: TAKES,
    http: tr(
      "an error of an `http` task says its status: `errors name = 409`",
      "`http` のタスクのエラーにはステータスを書きます: `errors name = 409`",
    ),
    aws: TAKES,
    connect: TAKES,
    agent: AGENT_DECLARES_NO_ERRORS,
    book: TAKES,
    flow: TAKES,
    event: TAKES,
    child: TAKES,
    own: TAKES,
  },
  "<error> = …": {
    lambda: TAKES,
    http: TAKES,
    aws: TAKES,
    connect: TAKES,
    agent: AGENT_DECLARES_NO_ERRORS,
    book: tr(
      "a book's refusal is its reason's name, with nothing after it",
      "帳簿の拒否は理由の名前そのもので、`=` のあとには何も書きません",
    ),
    flow: TAKES,
    event: TAKES,
    child: TAKES,
    own: TAKES,
  },
  "<error> = <exception>": {
    lambda: TAKES,
    http: tr(
      "an error of an `http` task is an HTTP status",
      "`http` のタスクのエラーは HTTP のステータスです",
    ),
    aws: TAKES,
    connect: TAKES,
    agent: AGENT_DECLARES_NO_ERRORS,
    book: TAKES,
    flow: TAKES,
    event: TAKES,
    child: TAKES,
    own: TAKES,
  },
  "retry": {
    lambda: TAKES,
    http: TAKES,
    aws: TAKES,
    connect: TAKES,
    agent: TAKES,
    book: TAKES,
    flow: TAKES,
    event: tr(
      "an event task calls nothing to retry",
      "イベントのタスクは何も呼ばないので、リトライするものがありません",
    ),
    child: TAKES,
    own: TAKES,
  },
  "callback": {
    lambda: TAKES,
    http: CALLBACK_WAYS,
    aws: TAKES,
    connect: CALLBACK_WAYS,
    agent: tr(
      "an agent answers in the call itself",
      "エージェントは呼び出しそのものの中で答えます",
    ),
    book: CALLBACK_WAYS,
    flow: CALLBACK_WAYS,
    event: CALLBACK_WAYS,
    child: CALLBACK_WAYS,
    own: TAKES,
  },
  "image": {
    lambda: TAKES,
    http: TAKES,
    aws: TAKES,
    connect: CONNECT_BY_DANDORI,
    agent: tr(
      "an agent is called by the code dandori writes, not by an image of yours",
      "エージェントを呼ぶのは dandori が書くコードで、利用者のイメージではありません",
    ),
    book: TAKES,
    flow: tr(
      "a `flow` task runs the child flow and nothing else",
      "`flow` のタスクは子のフローを走らせるだけです",
    ),
    event: TAKES,
    child: TAKES,
    own: TAKES,
  },
  "model": AGENTS_ONLY_ROW,
  "effort": AGENTS_ONLY_ROW,
  "url": AGENTS_ONLY_ROW,
  "confidence": DECISION_MODELS_ONLY_ROW,
  "refusal": DECISION_MODELS_ONLY_ROW,
  "plaintext": {
    lambda: NO_PLAIN_URL,
    http: TAKES,
    aws: NO_PLAIN_URL,
    connect: PLAIN_UNDER_USE,
    agent: TAKES,
    book: NO_PLAIN_URL,
    flow: NO_PLAIN_URL,
    event: NO_PLAIN_URL,
    child: NO_PLAIN_URL,
    own: NO_PLAIN_URL,
  },
};

/** Whether `method` is one whose tasks this dandori resolves (a column of the table). */
export function isChecked(method: Method): method is CheckedMethod {
  return (CHECKED_METHODS as readonly Method[]).includes(method);
}

/**
 * Why a task called by `method` cannot have an item with `aspect`, or null when it can.
 *
 * @example
 * ```ts
 * itemRefusal("key", "book")?.en; // "a book's transfer passes once per its own key, …"
 * ```
 */
export function itemRefusal(aspect: ItemAspect, method: Method): Text | null {
  assert(isChecked(method), `a ${method} task stops at E018 before its items are read`);
  return TASK_ITEMS[aspect][method];
}
