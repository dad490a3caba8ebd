/**
 * The checks that need calls (docs/design/chobo.md#the-checker): E012, W101, W102, W103, W104. Each is
 * reported only with operations that were run on the reference interpreter and ended as the message says.
 * @module
 */

import type { Reporter } from "../common/reporter.ts";
import { tr } from "../common/text.ts";
import type { ChoboCode } from "./codes.ts";
import { isRefused, type Outcome } from "./interp.ts";
import type { Account, Book, Move, Transfer } from "./model.ts";
import { amountChoices, feed, lastOutcome, makeDone, netOf, planFor, play, Symbols } from "./search.ts";
import { operationLines, quantityText } from "./words.ts";

/** `shop_sales(shop)`: an account as a move names it, with the transfer's parameter names. */
function refText(ref: Move["from"]): string {
  return ref.args.length === 0 ? ref.account.name : `${ref.account.name}(${ref.args.join(", ")})`;
}

function sameRef(a: Move["from"], b: Move["from"]): boolean {
  return a.account === b.account && a.args.length === b.args.length &&
    a.args.every((x, i) => x === b.args[i]);
}

function opOf(t: Transfer): "do" | "hold" {
  return t.pending === null ? "do" : "hold";
}

/** Runs every check of this module on a book that resolved without errors. */
export function searchChecks(book: Book, r: Reporter<ChoboCode>): void {
  sameAccountMoves(book, r);
  onlyFilling(book, r);
  alwaysRefused(book, r);
  moveOrder(book, r);
}

/** E012: a move whose source and target are the same account, parameters and all. */
function sameAccountMoves(book: Book, r: Reporter<ChoboCode>): void {
  for (const t of book.transfers) {
    for (const m of t.moves) {
      if (!sameRef(m.from, m.to)) continue;
      const syms = new Symbols();
      const played = play(book, [{ kind: "call", plan: planFor(t, opOf(t), syms) }]);
      if (!isRefused(lastOutcome(played), "same_account")) continue;
      const k = refText(m.from);
      r.error(
        "E012",
        m,
        tr(
          `move ${m.index} of ${t.name} goes from ${k} to ${k}, the same account, so every call is refused with same_account`,
          `${t.name} の ${m.index} つ目の移動は ${k} から ${k} へ、同じ勘定のあいだで動かすので、どの呼び出しも same_account で拒否されます`,
        ),
        {
          operations: operationLines(played),
          hint: tr(
            "move between two accounts: another account kind, or other parameters",
            "二つの勘定のあいだで動かしてください(別の勘定の種類か、別の引数)",
          ),
        },
      );
    }
  }
}

function moves(book: Book): Move[] {
  return book.transfers.flatMap((t) => t.moves);
}

/** W101: an inside account that transfers put into and none takes from. */
function onlyFilling(book: Book, r: Reporter<ChoboCode>): void {
  const all = moves(book);
  for (const a of book.accounts) {
    if (a.outside || all.some((m) => m.from.account === a)) continue;
    const filler = book.transfers.find((t) => t.moves.some((m) => m.to.account === a));
    if (filler === undefined) continue;
    const acts = makeDone(book, [], filler, opOf(filler), new Symbols());
    if (acts === null) continue;
    const played = play(book, acts);
    const grew = played.ledger.accounts().some((x) =>
      x.id.account === a.name && (x.balance.posted > 0n || x.balance.heldIn > 0n)
    );
    if (!grew) continue;
    r.warning(
      "W101",
      a,
      tr(
        `${a.name} only ever fills: transfers put into it and none takes from it, so its balance only grows`,
        `${a.name} は増える一方です。入れる振替はあるのに、取る振替がどこにもありません`,
      ),
      {
        operations: operationLines(played),
        hint: tr(
          `write the transfer that takes from ${a.name}, or mark it outside if it stands for the world outside`,
          `${a.name} から取る振替を書くか、外の世界を表すなら outside を付けてください`,
        ),
      },
    );
  }
}

/** W102: a transfer that takes from an account with a lower bound of 0 or more that nothing fills. */
function alwaysRefused(book: Book, r: Reporter<ChoboCode>): void {
  const all = moves(book);
  for (const t of book.transfers) {
    const m = t.moves.find((m) =>
      m.from.account.lower !== null && m.from.account.lower.value >= 0n &&
      !all.some((n) => n.to.account === m.from.account)
    );
    if (m === undefined) continue;
    const a = m.from.account;
    const played = play(book, [{ kind: "call", plan: planFor(t, opOf(t), new Symbols()) }]);
    const o = lastOutcome(played);
    if (o.kind !== "refused" || o.reason !== a.lower!.reason) continue;
    const lower = quantityText(a.lower!.value, a.unit.scale);
    r.warning(
      "W102",
      t,
      tr(
        `${t.name}.${
          opOf(t)
        } is always refused with ${o.reason}: it takes from ${a.name}, which is at least ${lower}, and no transfer puts into ${a.name}`,
        `${t.name}.${
          opOf(t)
        } はいつも ${o.reason} で拒否されます。下限 ${lower} の ${a.name} から取りますが、${a.name} へ入れる振替がどこにもありません`,
      ),
      {
        operations: operationLines(played),
        hint: tr(
          `write the transfer that puts into ${a.name}, or take from another account`,
          `${a.name} へ入れる振替を書くか、別の勘定から取ってください`,
        ),
      },
    );
  }
}

/**
 * W103 (immediate transfers) and W104 (holds): a bound refuses a move because of how the moves of
 * one transfer meet on one account. In an immediate transfer it is their order: a take before a put
 * on a lower bound, a put before a take on an upper bound, and the first move is refused. In a hold
 * the order does not matter: what one move puts in (or takes out) is held and never counts for
 * another, so the move that takes (lower bound) or puts (upper bound) is refused whichever comes
 * first.
 */
function moveOrder(book: Book, r: Reporter<ChoboCode>): void {
  for (const t of book.transfers) {
    const held = t.pending !== null;
    const reported = new Set<number>();
    for (let i = 0; i < t.moves.length; i++) {
      for (let j = i + 1; j < t.moves.length; j++) {
        const [first, second] = [t.moves[i], t.moves[j]];
        // Each meeting: the side of the bound, the account, the move refused and the other move.
        const meetings: ["lower" | "upper", Move["from"], Move, Move][] = [];
        const lower = (ref: Move["from"]) => ref.account.lower !== null;
        const upper = (ref: Move["from"]) => ref.account.upper !== null;
        if (!held) {
          if (sameRef(first.from, second.to) && lower(first.from)) {
            meetings.push(["lower", first.from, first, second]);
          }
          if (sameRef(first.to, second.from) && upper(first.to)) {
            meetings.push(["upper", first.to, first, second]);
          }
        } else {
          if (sameRef(first.to, second.from) && lower(second.from)) {
            meetings.push(["lower", first.to, second, first]);
          }
          if (sameRef(first.from, second.to) && upper(second.to)) {
            meetings.push(["upper", first.from, second, first]);
          }
          if (sameRef(first.from, second.to) && lower(first.from)) {
            meetings.push(["lower", first.from, first, second]);
          }
          if (sameRef(first.to, second.from) && upper(first.to)) {
            meetings.push(["upper", first.to, first, second]);
          }
        }
        for (const [side, ref, refused, other] of meetings) {
          if (reported.has(refused.index)) continue;
          const found = findOrderRefusal(book, t, refused.index, side, ref, ref.account, held);
          if (found === null) continue;
          reported.add(refused.index);
          // The words read move i, then move j: the taker and the filler of an immediate transfer in
          // written order; in a hold, the move whose amount is held, then the one it does not help.
          const [a, b] = held ? [other.index, refused.index] : [refused.index, other.index];
          report(r, t, a, b, refused, side, ref, found);
        }
      }
    }
  }
}

function findOrderRefusal(
  book: Book,
  t: Transfer,
  moveIndex: number,
  side: "lower" | "upper",
  ref: Move["from"],
  account: Account,
  held: boolean,
) {
  const bound = side === "lower" ? account.lower! : account.upper!;
  const isIt = (o: Outcome) =>
    o.kind === "refused" && o.at !== null && o.at.move === moveIndex && o.at.side === side;
  for (const amounts of amountChoices(t)) {
    const syms = new Symbols();
    const acts = feed(book, [], planFor(t, opOf(t), syms, new Map(), amounts), syms, 0, isIt);
    if (acts === null) continue;
    const played = play(book, acts);
    const o = lastOutcome(played);
    if (!isIt(o) || o.kind !== "refused" || o.at === null) continue;
    const b = o.at.balance;
    const total = netOf(t, ref, amounts);
    const within = side === "lower"
      ? b.posted - b.heldOut + total >= bound.value
      : b.posted + b.heldIn + total <= bound.value;
    // A hold is refused although what another of its moves holds would have covered it: held
    // already when that move comes first, or counted in the hold's net when it comes after.
    const counted = side === "lower" ? b.heldIn : b.heldOut;
    if (held ? counted > 0n || within : within) return played;
  }
  return null;
}

function report(
  r: Reporter<ChoboCode>,
  t: Transfer,
  i: number,
  j: number,
  refused: Move,
  side: "lower" | "upper",
  ref: Move["from"],
  played: ReturnType<typeof play>,
): void {
  const k = refText(ref);
  const o = lastOutcome(played);
  const reason = o.kind === "refused" ? o.reason : "";
  const operations = operationLines(played);
  if (t.pending === null) {
    const [message, hint] = side === "lower"
      ? [
        tr(
          `move ${i} takes from ${k} before move ${j} puts into it: when ${k} is short at that point, the call is refused with ${reason}, even when the two moves together would leave enough`,
          `${i} つ目の移動が ${k} から取るのは、${j} つ目の移動が入れるより前です。その時点で ${k} が足りなければ、二つの移動を合わせれば足りる場合でも、${reason} で拒否されます`,
        ),
        tr(`write the move that puts into ${k} first`, `${k} へ入れる移動を先に書いてください`),
      ]
      : [
        tr(
          `move ${i} puts into ${k} before move ${j} takes from it: when ${k} is full at that point, the call is refused with ${reason}, even when the two moves together would leave room`,
          `${i} つ目の移動が ${k} へ入れるのは、${j} つ目の移動が取るより前です。その時点で ${k} に空きが無ければ、二つの移動を合わせれば収まる場合でも、${reason} で拒否されます`,
        ),
        tr(`write the move that takes from ${k} first`, `${k} から取る移動を先に書いてください`),
      ];
    r.warning("W103", refused, message, { operations, hint });
    return;
  }
  const [message, hint] = side === "lower"
    ? [
      tr(
        `in a hold, what move ${i} puts into ${k} is held coming in, and does not count when move ${j} takes from ${k}: unless ${k} has enough already, the hold is refused with ${reason}`,
        `仮押さえでは、${i} つ目の移動が ${k} へ入れる額は入ってくる仮押さえになり、${j} つ目の移動が ${k} から取るときに数えられません。${k} にはじめから足りるだけの残高が無ければ、${reason} で拒否されます`,
      ),
      tr(
        `have what it takes in ${k} beforehand, or take it in another transfer after the hold is posted`,
        `取る分をはじめから ${k} に入れておくか、確定のあとで取る別の振替にしてください`,
      ),
    ]
    : [
      tr(
        `in a hold, what move ${i} takes from ${k} is held going out, and does not make room when move ${j} puts into ${k}: unless ${k} has room already, the hold is refused with ${reason}`,
        `仮押さえでは、${i} つ目の移動が ${k} から取る額は出ていく仮押さえになり、${j} つ目の移動が ${k} へ入れるときの空きになりません。${k} にはじめから空きが無ければ、${reason} で拒否されます`,
      ),
      tr(
        `make room in ${k} beforehand, or put it in another transfer after the hold is posted`,
        `入れる分の空きをはじめから ${k} に作っておくか、確定のあとで入れる別の振替にしてください`,
      ),
    ];
  r.warning("W104", refused, message, { operations, hint });
}
