/**
 * The registry of chobo's diagnostic codes (docs/design/chobo.md#the-checker): what `explain`,
 * `docs/codes.md` and the tests read. Every code the checker can emit is here, with a book that reproduces
 * it.
 * @module
 */

import type { Severity } from "../common/diagnostic.ts";
import { type Text, tr } from "../common/text.ts";

/** Which command reports a code, and what else its reproduction needs. */
export type Stage =
  | { readonly kind: "check" }
  | { readonly kind: "diff"; readonly before: string }
  | { readonly kind: "build"; readonly target: string };

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
  /** A minimal `.book` that reproduces it (file name `example.book`). */
  readonly example: string;
  readonly stage: Stage;
}

/** A made-up AWS access key ID for W901, assembled here so this file holds no key-shaped literal. */
const FAKE_AWS_KEY = "AKIA" + "EXAMPLE0NOTREAL0";

/** The 43 moves of E060's example: 43 × 6 = 258 TigerBeetle transfers, over the 253 of one request. */
const FORTY_THREE_MOVES = Array.from({ length: 43 }, () => "  move qty from shelf to bin\n").join("");

/** Every code, in the design's order (docs/design/chobo.md#the-checker). */
const REGISTRY = [
  {
    code: "E001",
    severity: "error",
    title: tr("A line cannot be read", "読めない行がある"),
    when: tr(
      "A line does not follow the grammar of a book: an unknown word, wrong indentation, a string that is not closed, a keyword used as a name, a byte order mark, a tab, or a name with a separate combining mark. Names are compared as written, without Unicode normalization, so a decomposed character (as copied from a macOS file name) is stopped here instead of quietly becoming a different name. When any line cannot be read, the checker stops before resolving names, because everything after that would be guesswork.",
      "帳簿の文法に合わない行があります。知らない語、字下げのずれ、閉じていない文字列、名前に使ったキーワード、BOM、タブ、分かれた結合文字を含む名前がこれに当たります。名前は正規化せずに書いたとおりに比べるので、macOS のファイル名からコピーした「か + 濁点」のような分かれた形は、黙って別の名前にせず、ここで止めます。読めない行が一つでもあると、そこから先は推測になるので、名前の解決には進みません。",
    ),
    fix: tr(
      "Correct the line as the message says: spell keywords exactly, indent the items of a declaration with spaces, and write names with precomposed characters.",
      "診断の言うとおりに行を直してください。キーワードは決まった綴りで書き、宣言の下の行は空白で字下げし、名前は合成済みの文字で書きます。",
    ),
    example: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty form suppliers to stock(sku)
`,
    stage: { kind: "check" },
  },
  {
    code: "E002",
    severity: "error",
    title: tr("A name is not declared", "宣言されていない名前を使っている"),
    when: tr(
      "A unit, an account, a type or a transfer parameter is used but declared nowhere in the book. It is usually a typo or a declaration that was forgotten. The book cannot be put together until every name resolves.",
      "単位、勘定、型、振替の引数のどれかを、宣言しないまま使っています。たいていは綴りの誤りか、宣言の書き忘れです。名前がすべて解決できるまで、帳簿は組み立てられません。",
    ),
    fix: tr(
      "Fix the spelling, or declare the missing unit, account or parameter.",
      "綴りを直すか、足りない単位、勘定、引数を宣言してください。",
    ),
    example: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stok(sku)
`,
    stage: { kind: "check" },
  },
  {
    code: "E003",
    severity: "error",
    title: tr("Something is declared twice", "同じものを二度宣言している"),
    when: tr(
      "A unit, account, transfer or parameter has the same name as an earlier one; or one account or transfer has two `description`, `at least`, `at most`, `key` or `pending` lines; or a key lists the same parameter twice. chobo does not guess which of the two was meant.",
      "単位、勘定、振替、引数に、前のものと同じ名前を付けています。または、一つの勘定や振替の下に `description`・`at least`・`at most`・`key`・`pending` が二つあるか、キーに同じ引数を二度書いています。どちらのつもりだったのかを、chobo は推測しません。",
    ),
    fix: tr(
      "Rename one of the two, or merge them into one declaration.",
      "どちらかの名前を変えるか、一つの宣言にまとめてください。",
    ),
    example: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)

transfer receive(order: string, sku: string, qty: pcs)
  key order, sku
  move qty from suppliers to stock(sku)
`,
    stage: { kind: "check" },
  },
  {
    code: "E004",
    severity: "error",
    title: tr("An account is given the wrong number of arguments", "勘定に渡す引数の数が合わない"),
    when: tr(
      "A move passes an account a different number of arguments than the account declares. An account kind is split by its arguments (one account per SKU, per member, per day), so every move has to say exactly which one it touches.",
      "移動で勘定に渡した引数の数が、勘定の宣言と違います。勘定は引数ごとに分かれる(SKU ごと、会員ごと、日ごと)ので、どの移動も、どの勘定に触るのかを引数で言い切らなければなりません。",
    ),
    fix: tr(
      "Pass as many arguments as the account declares, in the same order.",
      "勘定の宣言と同じ数の引数を、同じ順で渡してください。",
    ),
    example: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock
`,
    stage: { kind: "check" },
  },
  {
    code: "E005",
    severity: "error",
    title: tr("A value has the wrong type", "型が合わない"),
    when: tr(
      "A value is used where its type does not fit: a `string` parameter as the amount of a move, an amount parameter to choose an account, or an account parameter typed as something other than `string`. Amounts are counted in a unit and accounts are split by strings; mixing the two leaves the book without a definite meaning.",
      "型の合わない所で値を使っています。`string` の引数を移動の額にする、額の引数で勘定を選ぶ、勘定の引数を `string` 以外の型にする、のどれかです。額は単位で数えるもの、勘定は文字列で分けるもので、取り違えると帳簿の意味が決まりません。",
    ),
    fix: tr(
      "Give a parameter used as an amount a unit type (`qty: pcs`), and choose accounts with string parameters.",
      "額にする引数には単位の型(`数: 個`)を付け、勘定は文字列の引数で選んでください。",
    ),
    example: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside

transfer receive(delivery: string, sku: string, qty: string)
  key delivery, sku
  move qty from suppliers to stock(sku)
`,
    stage: { kind: "check" },
  },
  {
    code: "E010",
    severity: "error",
    title: tr("The units of a move do not match", "移動の単位が合わない"),
    when: tr(
      "The source account, the destination account and the amount of one move are not all of one unit. chobo never converts between units, and it compares units by name only. The message names the unit of each of the three.",
      "一つの移動の元の勘定、先の勘定、額の単位がそろっていません。chobo は単位のあいだで換算をせず、単位は名前だけで比べます。診断は、三つのそれぞれの単位を言います。",
    ),
    fix: tr(
      "Use accounts and an amount of the same unit. For an exchange, give each unit its own outside account and write two moves, one in each unit.",
      "同じ単位の勘定と額にしてください。両替なら、単位ごとに外の勘定を置き、単位の違う二つの移動で書きます。",
    ),
    example: `book inventory v1

unit pcs
unit JPY

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : JPY outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)
`,
    stage: { kind: "check" },
  },
  {
    code: "E011",
    severity: "error",
    title: tr("A number does not fit its unit", "数が単位に収まらない"),
    when: tr(
      "A literal amount or bound has more decimal places than the unit's `scale`, an amount is negative, or the value counted in the unit's smallest unit lies outside ±(2⁶³ − 1). Quantities are carried as whole numbers of the smallest unit and must fit PostgreSQL's `bigint`, so a number that no target could hold exactly is stopped here.",
      "リテラルの額や境界の小数の桁が単位の `scale` より多い、額が負である、単位のいちばん小さい単位で数えて ±(2⁶³ − 1) の外にある、のどれかです。量はいちばん小さい単位の整数で運び、PostgreSQL の `bigint` に収まらなければならないので、出力先でそのまま持てない数はここで止めます。",
    ),
    fix: tr(
      "Write the number with at most `scale` decimal places and within the range, or reconsider the unit's `scale`. An amount is never negative: reverse the move instead.",
      "`scale` 以下の小数の桁で、範囲の中で書くか、単位の `scale` を見直してください。額は負にできないので、向きを逆にした移動にします。",
    ),
    example: `book wallet v1

unit USD scale 2

account wallet(member: string) : USD
  at least 0 refused as insufficient_funds
account bank : USD outside

transfer top_up(payment: string, member: string, amount: USD)
  key payment
  move amount from bank to wallet(member)

transfer monthly_fee(charge: string, member: string)
  key charge
  move 0.125 from wallet(member) to bank
`,
    stage: { kind: "check" },
  },
  {
    code: "E012",
    severity: "error",
    title: tr("A move goes from an account to itself", "移動の元と先が同じ勘定"),
    when: tr(
      "The source and the destination of one move are the same account kind with the same arguments, so every call is refused with `same_account`. The checker runs the transfer in the reference interpreter and shows the call that gets there. A move that goes nowhere is nearly always a mistake in an argument.",
      "一つの移動の元と先が、引数まで同じ勘定です。どう呼んでも `same_account` で拒否されます。検査は参照インタプリタで実際に流し、そうなる呼び出しを添えます。どこへも動かない移動は、たいてい引数の書き間違いです。",
    ),
    fix: tr(
      "Pass arguments that name two different accounts (for example a separate parameter for the destination), or remove the move.",
      "二つの別の勘定を指す引数にする(先の勘定には別の引数を渡すなど)か、その移動を消してください。",
    ),
    example: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside
account customers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)

transfer ship(order: string, sku: string, qty: pcs)
  key order, sku
  move qty from stock(sku) to customers

transfer recount(count: string, sku: string, qty: pcs)
  key count, sku
  move qty from stock(sku) to stock(sku)
`,
    stage: { kind: "check" },
  },
  {
    code: "E013",
    severity: "error",
    title: tr("A transfer has no move", "振替に move の行が無い"),
    when: tr(
      "A transfer has its parameters and key but no `move` line. It can be read, but every call would move nothing, so it is stopped as a mistake in the book instead of being accepted as a transfer.",
      "振替に引数とキーはあるのに、`move` の行がありません。構文としては読めますが、呼んでも何も動かないので、振替として通さず、書き方の誤りとして止めます。",
    ),
    fix: tr(
      "Write at least one `move <amount> from <account> to <account>`, or remove the transfer.",
      "`move <額> from <勘定> to <勘定>` を一つ以上書くか、振替を消してください。",
    ),
    example: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
`,
    stage: { kind: "check" },
  },
  {
    code: "E014",
    severity: "error",
    title: tr(
      "A unit that is not money is marked tax-included or tax-excluded",
      "お金でない単位に、税込か税抜を書いている",
    ),
    when: tr(
      "A unit that is not money carries `incl_tax` or `excl_tax`. The marking changes nothing inside the book; it is there so that amounts handed over by rules and workflows keep tax-included and tax-excluded money apart. Only currency units can be money: a currency at scale 0, or a currency other than the yen at scale 2.",
      "お金でない単位に `incl_tax` か `excl_tax` を書いています。この区別は帳簿の中では何も変えず、規則やワークフローから額を受け取るときに、税込と税抜を取り違えないためのものです。区別を書けるのは通貨の単位(`scale 0` の通貨か、円のほかの通貨の `scale 2`)だけです。",
    ),
    fix: tr(
      "Remove the word; if the unit is money, declare it under its currency's name (JPY, 円, USD …).",
      "語を消してください。お金の単位なら、通貨の名前(JPY、円、USD など)で宣言します。",
    ),
    example: `book inventory v1

unit pcs incl_tax

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)
`,
    stage: { kind: "check" },
  },
  {
    code: "E020",
    severity: "error",
    title: tr("An inside account has no bound", "中の勘定に境界が無い"),
    when: tr(
      "An account that is not `outside` has neither `at least` nor `at most`. Bounds are the only conditions a book can state, and an inside account is there to be kept within them. An account that may grow or shrink without limit stands for the world outside.",
      "`outside` でない勘定に、`at least` も `at most` もありません。帳簿に書ける条件は勘定の境界だけで、中の勘定は、その境界を守らせるために置くものです。どこまでも増えたり減ったりしてよい勘定は、外の世界を表す勘定です。",
    ),
    fix: tr(
      "Add `at least <n> refused as <reason>` or `at most <n> refused as <reason>`, or mark the account `outside`.",
      "`at least <数> refused as <理由>` か `at most <数> refused as <理由>` を書くか、`outside` を付けてください。",
    ),
    example: `book inventory v1

unit pcs

account stock(sku: string) : pcs
account suppliers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)
`,
    stage: { kind: "check" },
  },
  {
    code: "E021",
    severity: "error",
    title: tr("An outside account has a bound", "外の勘定に境界がある"),
    when: tr(
      "An account marked `outside` has `at least` or `at most`. Outside accounts stand for the world beyond the book (suppliers, customers) and may go negative; their balance only records what went in and out, so there is nothing for a bound to guard.",
      "`outside` を付けた勘定に、`at least` か `at most` があります。外の勘定は仕入先や客のような帳簿の外の世界を表し、マイナスになってかまいません。残高は出入りを記録するだけで、境界が守るものはありません。",
    ),
    fix: tr(
      "Remove the bound, or remove `outside` if the book has to keep this account within limits.",
      "境界を消すか、帳簿が限度を守らせる勘定なら `outside` を消してください。",
    ),
    example: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside
  at least 0 refused as supplier_short

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)
`,
    stage: { kind: "check" },
  },
  {
    code: "E022",
    severity: "error",
    title: tr("No balance fits the bounds", "境界に収まる残高が無い"),
    when: tr(
      "The lower bound is above the upper bound, or the upper bound is below 0. Every account starts at 0 and its bounds are checked at each move; with such bounds either no balance is allowed at all, or nothing can ever be put into the account.",
      "下限が上限より大きいか、上限が 0 より小さくなっています。勘定は残高 0 から始まり、境界は移動ごとに確かめます。このままでは、許される残高がまったく無いか、勘定へ何も入れられません。",
    ),
    fix: tr(
      "Make the lower bound no larger than the upper bound, and the upper bound 0 or more; for a balance that must stay below zero, turn the account around.",
      "下限を上限以下に、上限を 0 以上にしてください。残高をマイナスに保ちたいなら、勘定の向きを逆にします。",
    ),
    example: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 10 refused as below_safety_stock
  at most 5 refused as shelf_full
account suppliers : pcs outside
account customers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)

transfer ship(order: string, sku: string, qty: pcs)
  key order, sku
  move qty from stock(sku) to customers
`,
    stage: { kind: "check" },
  },
  {
    code: "E023",
    severity: "error",
    title: tr("A bound has no usable refusal reason", "境界に、使える拒否の理由が無い"),
    when: tr(
      "An `at least` or `at most` line has no `refused as <reason>`, or its reason is one of the names chobo answers itself (`key_conflict`, `already_refused`, `same_account`, `no_such_hold`, `already_posted`, `already_voided`, `expired`, `over_hold`). The reason is what a caller receives when a move would break the bound, and it becomes the error name of dandori's tasks, so it has to be given and must not be confused with chobo's own reasons.",
      "`at least` か `at most` の行に `refused as <理由>` が無いか、理由の名前が chobo の決めている名前(`key_conflict`、`already_refused`、`same_account`、`no_such_hold`、`already_posted`、`already_voided`、`expired`、`over_hold`)と同じです。理由の名前は、移動が境界を割るときに呼ぶ側が受け取るもので、dandori のタスクのエラーの名前にもなります。だから必ず書き、chobo の理由と紛れない名前にします。",
    ),
    fix: tr(
      "Write `refused as <reason>` with a name from the business, such as `out_of_stock` or `over_limit`.",
      "`在庫切れ`、`上限超え` のような業務の言葉で、`refused as <理由>` を書いてください。",
    ),
    example: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 0
account suppliers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)
`,
    stage: { kind: "check" },
  },
  {
    code: "E030",
    severity: "error",
    title: tr(
      "A transfer has no key, or its key names something that is not a parameter",
      "振替にキーが無い、またはキーの名前が引数に無い",
    ),
    when: tr(
      "A transfer has no `key` line, or its key lists a name that is not one of the transfer's parameters. The key identifies a call: a second call with the same key and the same contents does nothing, so retries and a workflow that runs twice never move twice. Because the key is written in the book, the checker can say which calls collide.",
      "振替に `key` の行が無いか、キーに振替の引数でない名前を書いています。キーは呼び出しを見分けるもので、同じキーで同じ中身の二度目は何もしないので、リトライしても、同じワークフローが二つ走っても、二重には動きません。キーが帳簿に書いてあるから、検査はどの呼び出しがぶつかるかを言えます。",
    ),
    fix: tr(
      "Write `key <p>, …` with the string parameters that name one call (an order; a delivery and a SKU).",
      "一回の呼び出しを名指す文字列の引数(注文、納品書と SKU など)で、`key <引数>, …` を書いてください。",
    ),
    example: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  move qty from suppliers to stock(sku)
`,
    stage: { kind: "check" },
  },
  {
    code: "E031",
    severity: "error",
    title: tr("An amount is part of the key", "キーに額の引数がある"),
    when: tr(
      "The key includes a parameter whose type is a unit. Two calls that differ only in the amount then have different keys and both go through, so a retry with a corrected amount moves a second time instead of being refused with `key_conflict`.",
      "キーに、単位の型の引数(額)を入れています。そうすると、額だけが違う二つの呼び出しが別のキーになってどちらも通り、額を直したリトライが `key_conflict` で止まらずに、もう一度動きます。",
    ),
    fix: tr(
      "Key on what names the call (the order, the delivery) and leave amounts out.",
      "呼び出しを名指すもの(注文、納品書)をキーにし、額はキーから外してください。",
    ),
    example: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku, qty
  move qty from suppliers to stock(sku)
`,
    stage: { kind: "check" },
  },
  {
    code: "E040",
    severity: "error",
    title: tr("`pending` does not say how the hold ends", "`pending` に仮押さえの終わり方が無い"),
    when: tr(
      "A transfer has a `pending` line without an ending. Every hold ends by being posted, voided or expiring, and the book must say whether it expires and after how long, so that a hold cannot be left open by accident.",
      "`pending` の行に、仮押さえの終わり方が書いてありません。仮押さえは確定、取消、有効期限切れのどれかで必ず終わるもので、期限で切れるのか、どれだけで切れるのかを帳簿に書きます。うっかり押さえたままにならないようにするためです。",
    ),
    fix: tr(
      "Write `pending expires after <n> seconds|minutes|hours|days`, or `pending never expires` when the caller always posts or voids the hold.",
      "`pending expires after <数> seconds|minutes|hours|days` と書くか、呼ぶ側が必ず確定か取消をするなら `pending never expires` と書いてください。",
    ),
    example: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account customers : pcs outside

transfer reserve(order: string, sku: string, qty: pcs)
  key order, sku
  pending
  move qty from stock(sku) to customers
`,
    stage: { kind: "check" },
  },
  {
    code: "E041",
    severity: "error",
    title: tr("The expiry of a hold is out of range", "有効期限が範囲の外"),
    when: tr(
      "The expiry of a hold is shorter than 1 second, longer than 2³² − 1 seconds (about 136 years), or not a whole number. TigerBeetle keeps a hold's timeout as a 32-bit count of seconds, and the book keeps to that limit for every target.",
      "仮押さえの有効期限が 1 秒より短いか、2³² − 1 秒(およそ 136 年)より長いか、整数ではありません。TigerBeetle は仮押さえの timeout を 32 ビットの秒で持つので、帳簿はどの出力先でもこの範囲に収めます。",
    ),
    fix: tr(
      "Write a whole number of seconds, minutes, hours or days within the range, or `pending never expires`.",
      "範囲の中の整数の seconds、minutes、hours、days で書くか、`pending never expires` にしてください。",
    ),
    example: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account customers : pcs outside

transfer reserve(order: string, sku: string, qty: pcs)
  key order, sku
  pending expires after 0 minutes
  move qty from stock(sku) to customers
`,
    stage: { kind: "check" },
  },
  {
    code: "E050",
    severity: "error",
    title: tr(
      "An account kind changed since the base revision",
      "前のリビジョンからある勘定の種類が変わった",
    ),
    when: tr(
      "Compared with the book at the `--diff-base` revision, an existing account kind has a different unit, `scale`, `outside` marking, parameters or bounds. An account is identified by book, tenant, name and argument values, not by version, so raising the version does not help: the balances already in the database would carry on under the new meaning. PostgreSQL and TigerBeetle also stop with an error at run time when the bounds differ from those the account was created with.",
      "`--diff-base` のリビジョンの帳簿と比べて、すでにある勘定の種類の単位、`scale`、外の勘定かどうか、引数、境界のどれかが変わっています。勘定の同一性にバージョンは入らないので、v2 にしても、データベースにある残高が新しい意味のまま使われ続けます。実行のときにも、PostgreSQL と TigerBeetle は、作ったときと境界の違う勘定をエラーにします。",
    ),
    fix: tr(
      "Leave the old account kind as it was, declare an account kind with a new name, and write a transfer that moves the balances across. A limit that may change belongs in an account from the start.",
      "前の勘定の種類はそのままにして、新しい名前の勘定の種類を作り、残高を移す振替を書いてください。変わりうる限度は、はじめから勘定にしておきます。",
    ),
    example: `book inventory v2

unit pcs

account stock(sku: string) : pcs
  at least 3 refused as out_of_stock
account suppliers : pcs outside
account customers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)

transfer ship(order: string, sku: string, qty: pcs)
  key order, sku
  move qty from stock(sku) to customers
`,
    stage: {
      kind: "diff",
      before: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside
account customers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)

transfer ship(order: string, sku: string, qty: pcs)
  key order, sku
  move qty from stock(sku) to customers
`,
    },
  },
  {
    code: "E051",
    severity: "error",
    title: tr(
      "A transfer kind changed since the base revision",
      "前のリビジョンからある振替の種類が変わった",
    ),
    when: tr(
      "Compared with the book at the `--diff-base` revision, an existing transfer kind has different parameters, key, hold ending (whether it holds, and how long until it expires) or moves. All of these go into the hash of the transfer's definition, so a call retried across the change is refused with `key_conflict`, and holds made under the old definition can no longer be posted.",
      "`--diff-base` のリビジョンの帳簿と比べて、すでにある振替の種類の引数、キー、仮押さえの終わり方(仮押さえかどうかと有効期限の長さ)、移動のどれかが変わっています。どれも振替の定義のハッシュに入るので、変更をまたいでリトライした呼び出しは `key_conflict` になり、前の定義で作った仮押さえは確定できなくなります。",
    ),
    fix: tr(
      "Leave the old transfer kind unchanged and add the new behaviour as a transfer kind with a new name; retire the old one once no call or hold depends on it.",
      "前の振替の種類はそのままにして、変えた形は新しい名前の振替の種類として足してください。古いほうは、呼んでいる途中の操作や仮押さえが無くなってから片づけます。",
    ),
    example: `book inventory v2

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
  pending expires after 2 hours
  move qty from stock(sku) to customers
`,
    stage: {
      kind: "diff",
      before: `book inventory v1

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
`,
    },
  },
  {
    code: "E060",
    severity: "error",
    title: tr(
      "An operation's chain does not fit in one TigerBeetle request",
      "一つの操作のチェーンが、TigerBeetle の一つのリクエストに入らない",
    ),
    when: tr(
      "`chobo build` for TigerBeetle found an operation whose chain is longer than 253 transfers. One move becomes up to 6 TigerBeetle transfers, depending on the bounds of the accounts it touches, so 43 moves between bounded accounts are already too many. 253 is what a replica started with `--development` accepts, and that is the only setup chobo can run and compare against; the message includes one call that would not fit.",
      "TigerBeetle 向けの `chobo build` で、チェーンが 253 件を超える操作が見つかりました。一つの移動は、触る勘定の境界によって多いときで 6 件の振替になるので、境界のある勘定のあいだの移動が 43 個あれば超えます。253 件は `--development` で立てたレプリカに入る件数で、chobo が実際に走らせて突き合わせられるのはこの構成だけです。診断は、入りきらない呼び出しを一つ添えます。",
    ),
    fix: tr(
      "Split the transfer into several transfers with fewer moves each.",
      "移動の少ないいくつかの振替に分けてください。",
    ),
    example: `book sorting v1

unit pcs

account shelf : pcs
  at least 3 refused as below_safety_stock
  at most 1000 refused as shelf_full
account bin : pcs
  at least -5 refused as bin_overdrawn
  at most 1000 refused as bin_full
account suppliers : pcs outside
account customers : pcs outside

transfer restock(delivery: string, qty: pcs)
  key delivery
  move qty from suppliers to shelf

transfer ship(order: string, qty: pcs)
  key order
  move qty from bin to customers

transfer spread(batch: string, qty: pcs)
  key batch
${FORTY_THREE_MOVES}`,
    stage: { kind: "build", target: "tigerbeetle-typescript" },
  },
  {
    code: "E061",
    severity: "error",
    title: tr(
      "A PostgreSQL name is too long, or made twice",
      "PostgreSQL の名前が長すぎる、または二度できる",
    ),
    when: tr(
      'A `chobo build` for PostgreSQL found a schema, function or parameter name longer than 63 bytes, such as the function `"<transfer>_<op>"`. PostgreSQL silently cuts longer identifiers short, so the build stops instead and gives the name and its length in bytes. A Japanese character takes 3 bytes, so a Japanese name reaches the limit at 21 characters. The build stops too when two functions would get one name: a transfer `balance` with its `do` and an account `do` with its `"balance_<account>"` both make `balance_do`; when the book is named with `pg_` at its start, which PostgreSQL keeps for its own schemas; and when a parameter is named `tenant`, since its `p_tenant` is the parameter every function already takes for the tenant.',
      'PostgreSQL 向けの `chobo build` で、63 バイトを超えるスキーマ、関数、引数の名前が見つかりました(関数 `"<振替の種類>_<操作>"` など)。PostgreSQL は長すぎる識別子を黙って切り詰めるので、ビルドで止め、その名前と何バイトかを言います。日本語は一字 3 バイトなので、21 字で限りに達します。二つの関数が同じ名前になるとき(振替 `balance` の `do` と、勘定 `do` の `"balance_<勘定>"` は、どちらも `balance_do` になります)、帳簿の名前が `pg_` で始まるとき(PostgreSQL が自分のスキーマに取ってある名前です)、引数の名前が `tenant` のとき(その `p_tenant` は、どの関数もテナントを受け取る引数です)も止めます。',
    ),
    fix: tr(
      "Shorten the book, transfer, account or parameter name so that every generated identifier stays within 63 bytes; rename a transfer or account whose function takes another's name, a book whose name starts with `pg_`, a parameter named `tenant`.",
      "生成する識別子がどれも 63 バイトに収まるように、帳簿、振替、勘定、引数の名前を短くしてください。ほかの関数と同じ名前になる振替か勘定、`pg_` で始まる帳簿、`tenant` という引数は、名前を変えてください。",
    ),
    example: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside
account customers : pcs outside

transfer receive_goods_at_the_loading_dock_and_put_them_on_the_shop_shelf(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)

transfer ship(order: string, sku: string, qty: pcs)
  key order, sku
  move qty from stock(sku) to customers
`,
    stage: { kind: "build", target: "postgres" },
  },
  {
    code: "W101",
    severity: "warning",
    title: tr("An inside account only ever fills up", "入る一方の中の勘定"),
    when: tr(
      "Moves put into an inside account, but no move anywhere takes from it, so its balance can only grow. Usually a transfer was never written, such as the one that empties a bin or pays a balance out. The warning comes with operations, run in the reference interpreter, that put into the account.",
      "中の勘定へ入れる移動はあるのに、そこから取る移動がどこにもありません。残高はたまる一方です。たいていは、箱を空にする振替や残高を払い出す振替の書き忘れです。診断には、参照インタプリタで流して確かめた、この勘定へ入れる操作の列を添えます。",
    ),
    fix: tr(
      "Write the transfer that takes from the account; if it really stands for the world outside, mark it `outside` and remove its bounds.",
      "この勘定から取る振替を書いてください。本当に外の世界を表す勘定なら、`outside` を付けて境界を消します。",
    ),
    example: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account damaged(sku: string) : pcs
  at most 1000 refused as damaged_bin_full
account suppliers : pcs outside
account customers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)

transfer ship(order: string, sku: string, qty: pcs)
  key order, sku
  move qty from stock(sku) to customers

transfer write_off(report: string, sku: string, qty: pcs)
  key report, sku
  move qty from stock(sku) to damaged(sku)
`,
    stage: { kind: "check" },
  },
  {
    code: "W102",
    severity: "warning",
    title: tr("A transfer is always refused", "いつも拒否される振替"),
    when: tr(
      "A transfer takes from an account whose lower bound is 0 or more, and no move anywhere puts into that account. The account never rises above 0, so every call is refused with the bound's reason. The transfer that fills the account, such as a delivery or a top-up, is usually missing.",
      "振替が、下限が 0 以上の勘定から取るのに、その勘定へ入れる移動がどこにもありません。勘定は 0 から増えないので、どう呼んでも境界の理由で拒否されます。たいていは、入荷や入金のような、この勘定へ入れる振替が抜けています。",
    ),
    fix: tr(
      "Write the transfer that puts into the account, or lower the bound if the account may go below it.",
      "この勘定へ入れる振替を書くか、下回ってよいなら下限を下げてください。",
    ),
    example: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account customers : pcs outside

transfer ship(order: string, sku: string, qty: pcs)
  key order, sku
  move qty from stock(sku) to customers
`,
    stage: { kind: "check" },
  },
  {
    code: "W103",
    severity: "warning",
    title: tr(
      "An immediate transfer is refused because of the order of its moves",
      "すぐに確定する振替が、移動の順序のせいで拒否される",
    ),
    when: tr(
      "In a transfer done at once, an earlier move takes from an account with a lower bound that a later move puts into, or an earlier move puts into an account with an upper bound that a later move takes from. Bounds are checked after each move in the written order, as TigerBeetle checks a chain, so the call can be refused even when the moves taken together would leave the account within its bounds.",
      "すぐに確定する振替で、下限のある勘定から前の移動が取り、後の移動がそこへ入れています(または、上限のある勘定へ前の移動が入れ、後の移動がそこから取っています)。境界は、TigerBeetle がチェーンを処理するのと同じく、書いた順に移動を一つ行うごとに確かめるので、移動を合わせれば境界に収まる場合でも、呼び出しが拒否されることがあります。",
    ),
    fix: tr(
      "Reorder the moves: put into an account with a lower bound before taking from it, and take from an account with an upper bound before putting into it.",
      "移動の順序を入れ替えてください。下限のある勘定には取る前に入れ、上限のある勘定からは入れる前に取ります。",
    ),
    example: `book order v1

unit JPY

account shop_sales(shop: string) : JPY
  at least 0 refused as sales_short
account buyers : JPY outside
account fee_income : JPY outside

transfer sale(order: string, shop: string, price: JPY, fee: JPY)
  key order
  move fee from shop_sales(shop) to fee_income
  move price from buyers to shop_sales(shop)
`,
    stage: { kind: "check" },
  },
  {
    code: "W104",
    severity: "warning",
    title: tr(
      "A hold takes from an account that another of its own moves fills",
      "仮押さえの中で、同じ仮押さえの移動が入れる勘定から取っている",
    ),
    when: tr(
      "In a hold, one move takes from an account that another move of the same hold puts into, or puts into an account that another move takes from. What a hold puts in is held coming in and does not count when taking, and what it takes is held going out and frees no room, so reordering the moves does not help: unless the account already has enough, the hold is refused.",
      "仮押さえの中で、ある移動が、同じ仮押さえのほかの移動が入れる勘定から取っています(または、ほかの移動が取る勘定へ入れています)。仮押さえで入れた額は入ってくる仮押さえで、取るときには数えません。取った額も出ていく仮押さえで、入れるときの空きになりません。そのため順序を変えても通らず、勘定にはじめから足りるだけの残高が無ければ、仮押さえは拒否されます。",
    ),
    fix: tr(
      "Have what is taken in the account beforehand, or take it in a separate transfer after the hold is posted.",
      "取る分をはじめからその勘定に入れておくか、確定のあとで取る別の振替にしてください。",
    ),
    example: `book hold_order v1

unit JPY

account held(order: string) : JPY
  at least 0 refused as held_short
account buyers : JPY outside
account shop_payout : JPY outside

transfer settle(order: string, price: JPY)
  key order
  pending expires after 1 days
  move price from buyers to held(order)
  move price from held(order) to shop_payout
`,
    stage: { kind: "check" },
  },
  {
    code: "W105",
    severity: "warning",
    title: tr("A declaration is not used", "使われない宣言"),
    when: tr(
      "A unit, an account or a transfer parameter is declared but nothing uses it: no account or parameter has the unit, no transfer moves into or out of the account, or the parameter is neither in the key, nor an amount, nor passed to an account. It is often left over from an earlier revision, or a sign of a move that was forgotten.",
      "単位、勘定、振替の引数のどれかを宣言しているのに、どこでも使っていません。その単位の勘定も引数も無い、その勘定に出入りする振替が無い、その引数がキーにも額にも勘定の引数にも使われていない、のどれかです。前のリビジョンの書き残しか、移動の書き忘れであることが多いです。",
    ),
    fix: tr("Use the declaration, or remove it.", "使うか、消してください。"),
    example: `book inventory v1

unit pcs
unit kg

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside
account customers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)

transfer ship(order: string, sku: string, qty: pcs)
  key order, sku
  move qty from stock(sku) to customers
`,
    stage: { kind: "check" },
  },
  {
    code: "W106",
    severity: "warning",
    title: tr("A bound never applies", "効かない境界"),
    when: tr(
      "An account has an upper bound but no move puts into it, or a lower bound but no move takes from it, so the bound can never refuse anything. It usually describes a rule that no transfer exercises yet. Accounts already reported by W101 or W105 are not reported again.",
      "上限のある勘定へ入れる移動が無いか、下限のある勘定から取る移動が無く、その境界で拒否されることがありません。たいていは、まだどの振替も通らない決まりを書いています。W101 か W105 で言った勘定は、重ねて言いません。",
    ),
    fix: tr(
      "Remove the bound, or write the transfer it is meant to guard.",
      "境界を消すか、その境界が守るはずの振替を書いてください。",
    ),
    example: `book bar_tab v1

unit JPY

account tab(member: string) : JPY
  at least -30000 refused as tab_limit
  at most 0 refused as overpaid
account bar : JPY outside

transfer order_drink(order: string, member: string, price: JPY)
  key order
  move price from tab(member) to bar
`,
    stage: { kind: "check" },
  },
  {
    code: "W107",
    severity: "warning",
    title: tr(
      "An account or transfer kind was removed, or the book was renamed, since the base revision",
      "前のリビジョンにあった勘定や振替の種類が無くなった、または帳簿の名前が変わった",
    ),
    when: tr(
      "Compared with the book at the `--diff-base` revision, an account kind or a transfer kind has gone, or the book's name has changed. The balances and holds stay in the database regardless, and the new book no longer reaches them.",
      "`--diff-base` のリビジョンの帳簿と比べて、あった勘定や振替の種類が無くなったか、帳簿の名前が変わっています。残高と仮押さえはデータベースにそのまま残り、新しい帳簿からはもう触れません。",
    ),
    fix: tr(
      "Keep the declaration until its balances have been moved elsewhere and its holds have ended; if the removal is intended, make sure nothing is left behind in the database.",
      "残高を移し、仮押さえが終わるまでは宣言を残してください。消すつもりなら、データベースに残っているものが無いことを確かめてください。",
    ),
    example: `book inventory v2

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside
account customers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)

transfer ship(order: string, sku: string, qty: pcs)
  key order, sku
  move qty from stock(sku) to customers
`,
    stage: {
      kind: "diff",
      before: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside
account customers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)

transfer ship(order: string, sku: string, qty: pcs)
  key order, sku
  move qty from stock(sku) to customers

transfer take_back(return_id: string, sku: string, qty: pcs)
  key return_id, sku
  move qty from customers to stock(sku)
`,
    },
  },
  {
    code: "W901",
    severity: "warning",
    title: tr("A key-shaped value is written in the book", "帳簿に鍵の形の値が書いてある"),
    when: tr(
      "A value shaped like a credential (an AWS access key ID; a GitHub, Slack, Stripe, OpenAI, Anthropic or Google key or token; a Slack incoming webhook URL; a PEM private key) appears in a string or a comment. The whole text is searched even when the book has errors, and the diagnostic gives only the kind of key, its prefix and its length, never the value. Every ritsu language applies the same rule under this number.",
      "鍵の形の値(AWS のアクセスキー ID、GitHub・Slack・Stripe・OpenAI・Anthropic・Google の鍵やトークン、Slack の Incoming Webhook の URL、PEM の秘密鍵)が、文字列かコメントに書いてあります。帳簿に書き方の誤りがあっても全文から探し、診断には鍵の種類と接頭辞と長さだけを出して、鍵そのものは出しません。ritsu のどの言語も、同じ番号で同じ決まりを調べます。",
    ),
    fix: tr(
      "Take the key out of the book (into an environment variable or a secret store) and rotate it if it was real. For a value made up for a test, write `# ritsu: test secret` on the same line.",
      "鍵は帳簿から外し(環境変数やシークレットの置き場へ)、本物だったなら鍵を替えてください。テスト用に作った値なら、同じ行に `# ritsu: test secret` と書きます。",
    ),
    example: `book inventory v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside
account customers : pcs outside

# deliveries are imported by the uploader with ${FAKE_AWS_KEY}
transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)

transfer ship(order: string, sku: string, qty: pcs)
  key order, sku
  move qty from stock(sku) to customers
`,
    stage: { kind: "check" },
  },
] as const satisfies readonly CodeInfo[];

/** A code of chobo's registry: the codes a chobo `Reporter` takes. */
export type ChoboCode = typeof REGISTRY[number]["code"];

/** The registry as the rest reads it (`REGISTRY` is `as const` only so that `ChoboCode` is its codes). */
export const CODES: readonly CodeInfo[] = REGISTRY;
