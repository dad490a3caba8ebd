/**
 * `chobo check --diff-base`: what changed between the book at a base revision and now
 * (docs/design/chobo.md#versions-of-a-book). Accounts and holds outlive a version bump — an account is
 * identified by book, tenant, name and arguments, a transfer's definition hash goes into its keys — so a
 * change that gives existing balances or holds a new meaning is an error, and a removal or rename, which
 * leaves them behind in the database, is a warning.
 * @module
 */

import type { Reporter } from "../common/reporter.ts";
import { same, type Text, tr } from "../common/text.ts";
import type { ChoboCode } from "./codes.ts";
import type { Account, AccountRef, Book, Bound, Move, Param, Pending, Transfer, Unit } from "./model.ts";
import { quantityText } from "./words.ts";

/** E050, E051, W107: what changed between the book at the base revision and now. */
export function diffBooks(before: Book, after: Book, r: Reporter<ChoboCode>): void {
  const accountsNow = new Map(after.accounts.map((a) => [a.name, a]));
  for (const was of before.accounts) {
    const now = accountsNow.get(was.name);
    if (now === undefined) {
      removedAccount(was, r);
      continue;
    }
    const changes = accountChanges(was, now);
    if (changes.length === 0) continue;
    r.error(
      "E050",
      { line: now.line, col: 1 },
      tr(
        `the account ${now.name} changed since the base revision: ${changes.map((c) => c.en).join("; ")}`,
        `勘定 ${now.name} が前のリビジョンから変わっています: ${changes.map((c) => c.ja).join("、")}`,
      ),
      {
        hint: tr(
          "the bounds and identity of an existing account cannot change in place, and a new version does not help, since accounts carry on across versions; declare an account kind under a new name and write a transfer that moves the balances across",
          "すでにある勘定の境界や同一性は、その場では変えられません。勘定はバージョンをまたいで続くので、バージョンを上げても同じです。新しい名前の勘定の種類を宣言し、残高を移す振替を書いてください",
        ),
      },
    );
  }

  const transfersNow = new Map(after.transfers.map((t) => [t.name, t]));
  for (const was of before.transfers) {
    const now = transfersNow.get(was.name);
    if (now === undefined) {
      removedTransfer(was, r);
      continue;
    }
    const changes = transferChanges(was, now);
    if (changes.length === 0) continue;
    r.error(
      "E051",
      { line: now.line, col: 1 },
      tr(
        `the transfer ${now.name} changed since the base revision: ${changes.map((c) => c.en).join("; ")}`,
        `振替 ${now.name} が前のリビジョンから変わっています: ${changes.map((c) => c.ja).join("、")}`,
      ),
      {
        hint: tr(
          "the definition's hash goes into each key's content, so a call in flight that is retried answers key_conflict, and holds in flight can no longer be posted; leave this transfer kind as it was and make a new transfer kind under a new name",
          "定義のハッシュはキーの中身に入るので、呼んでいる途中の操作をリトライすると key_conflict になり、仮押さえ中のものは確定できなくなります。この振替の種類はそのままにして、新しい名前の振替の種類を作ってください",
        ),
      },
    );
  }

  if (before.name !== after.name) {
    r.warning(
      "W107",
      { line: 1, col: 1 },
      tr(
        `the book was renamed from ${before.name} to ${after.name}: accounts are identified by the book's name, so the balances and holds under ${before.name} stay in the database, and this book starts from empty accounts`,
        `帳簿の名前が ${before.name} から ${after.name} に変わっています。勘定の同一性には帳簿の名前が入るので、${before.name} の残高と仮押さえはデータベースに残り、この帳簿は残高 0 の勘定から始まります`,
      ),
      {
        hint: tr(
          "keep the name; a new version changes only `v<n>` on the book line, and the accounts carry on",
          "名前はそのままにしてください。バージョンを上げるときは book の行の `v<数>` だけを変えれば、勘定はそのまま続きます",
        ),
      },
    );
  }
}

function removedAccount(was: Account, r: Reporter<ChoboCode>): void {
  r.warning(
    "W107",
    { line: 0, col: 0 },
    tr(
      `the account ${was.name} of the base revision is gone: its balances stay in the database, and this book no longer reaches them`,
      `前のリビジョンにあった勘定 ${was.name} がありません。残高はデータベースに残り、この帳簿からはもう触れません`,
    ),
    {
      hint: tr(
        "keep the declaration until its balances have been moved to another account; if the removal is meant, make sure no balance is left in the database",
        "残高をほかの勘定へ移すまでは宣言を残してください。消すつもりなら、データベースに残高が残っていないことを確かめてください",
      ),
    },
  );
}

function removedTransfer(was: Transfer, r: Reporter<ChoboCode>): void {
  // What a removed transfer leaves behind depends on whether it held: open holds, or only keys.
  const message = was.pending === null
    ? tr(
      `the transfer ${was.name} of the base revision is gone: the balances it moved and its keys stay in the database`,
      `前のリビジョンにあった振替 ${was.name} がありません。動かした残高とキーはデータベースに残ります`,
    )
    : tr(
      `the transfer ${was.name} of the base revision is gone: its holds stay in the database, and this book can no longer post or void them`,
      `前のリビジョンにあった振替 ${was.name} がありません。仮押さえはデータベースに残り、この帳簿からはもう確定も取消もできません`,
    );
  const hint = was.pending === null
    ? tr(
      "make sure no caller still calls or retries it",
      "呼んだりリトライしたりする側が残っていないことを確かめてください",
    )
    : tr(
      "keep the declaration until every hold it made has been posted, voided or has expired",
      "作った仮押さえがすべて確定、取消、期限切れのどれかになるまでは、宣言を残してください",
    );
  r.warning("W107", { line: 0, col: 0 }, message, { hint });
}

/** One changed part, `before → after`. */
function changed(label: Text, was: Text, now: Text): Text {
  const en = label.en === "" ? "" : `${label.en} `;
  const ja = label.ja === "" ? "" : `${label.ja} `;
  return tr(`${en}${was.en} → ${now.en}`, `${ja}${was.ja} → ${now.ja}`);
}

const NO_LABEL = tr("", "");

function accountChanges(was: Account, now: Account): Text[] {
  const out: Text[] = [];
  if (unitText(was.unit) !== unitText(now.unit)) {
    out.push(changed(tr("unit", "単位"), same(unitText(was.unit)), same(unitText(now.unit))));
  }
  if (was.outside !== now.outside) out.push(changed(NO_LABEL, side(was.outside), side(now.outside)));
  const params = (a: Account) => same(`(${a.params.join(", ")})`);
  if (params(was).en !== params(now).en) {
    out.push(changed(tr("parameters", "引数"), params(was), params(now)));
  }
  for (const kind of ["lower", "upper"] as const) {
    const a = was[kind];
    const b = now[kind];
    if (sameBound(a, was.unit, b, now.unit)) continue;
    // The reason is shown only when it is part of the change, so a new value reads `at least 0 → at least 3`.
    const withReason = a === null || b === null || a.reason !== b.reason;
    out.push(
      changed(NO_LABEL, boundText(kind, a, was.unit, withReason), boundText(kind, b, now.unit, withReason)),
    );
  }
  return out;
}

function side(outside: boolean): Text {
  return outside ? tr("outside account", "外の勘定") : tr("inside account", "中の勘定");
}

function boundText(kind: "lower" | "upper", b: Bound | null, unit: Unit, withReason: boolean): Text {
  if (b === null) {
    return kind === "lower" ? tr("no lower bound", "下限なし") : tr("no upper bound", "上限なし");
  }
  const word = kind === "lower" ? "at least" : "at most";
  return same(`${word} ${quantityText(b.value, unit.scale)}${withReason ? ` refused as ${b.reason}` : ""}`);
}

/** A unit as its `unit` line names it; scale 0 is the default and goes unsaid. */
function unitText(u: Unit): string {
  return u.scale === 0 ? u.name : `${u.name} scale ${u.scale}`;
}

/**
 * True when two amounts, each counted in the smallest unit of its scale, are the same number as the
 * book writes it: `2.50` at scale 2 and `2.500` at scale 3 are one amount, so changing `scale`
 * reports the unit, not every bound and move.
 */
function sameQuantity(a: bigint, scaleA: number, b: bigint, scaleB: number): boolean {
  return a * 10n ** BigInt(scaleB) === b * 10n ** BigInt(scaleA);
}

function sameBound(a: Bound | null, unitA: Unit, b: Bound | null, unitB: Unit): boolean {
  if (a === null || b === null) return a === b;
  return a.reason === b.reason && sameQuantity(a.value, unitA.scale, b.value, unitB.scale);
}

function transferChanges(was: Transfer, now: Transfer): Text[] {
  const out: Text[] = [];
  const params = (t: Transfer) => same(`(${t.params.map(paramText).join(", ")})`);
  if (params(was).en !== params(now).en) {
    out.push(changed(tr("parameters", "引数"), params(was), params(now)));
  }
  const key = (t: Transfer) => same(`key ${t.key.join(", ")}`);
  if (key(was).en !== key(now).en) out.push(changed(NO_LABEL, key(was), key(now)));
  if (pendingText(was.pending).en !== pendingText(now.pending).en) {
    out.push(changed(NO_LABEL, pendingText(was.pending), pendingText(now.pending)));
  }
  for (let i = 0; i < Math.max(was.moves.length, now.moves.length); i++) {
    const [a, b] = [was.moves[i], now.moves[i]];
    if (sameMove(a, b)) continue;
    out.push(changed(tr(`move ${i + 1}:`, `${i + 1} つ目の移動:`), moveText(a), moveText(b)));
  }
  return out;
}

function paramText(p: Param): string {
  return `${p.name}: ${p.type.kind === "string" ? "string" : unitText(p.type.unit)}`;
}

function pendingText(p: Pending | null): Text {
  if (p === null) return tr("no pending (done at once)", "pending なし(すぐに確定)");
  if (p.expires === "never") return same("pending never expires");
  return same(`pending expires after ${duration(p.seconds)}`);
}

/** Seconds in the largest time word that divides them, as a book would say it. */
function duration(seconds: bigint): string {
  for (const [word, size] of [["day", 86400n], ["hour", 3600n], ["minute", 60n]] as const) {
    if (seconds % size === 0n) return count(seconds / size, word);
  }
  return count(seconds, "second");
}

function count(n: bigint, word: string): string {
  return `${n} ${word}${n === 1n ? "" : "s"}`;
}

function sameMove(a: Move | undefined, b: Move | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const amount = a.amount.kind === "param"
    ? b.amount.kind === "param" && a.amount.param === b.amount.param
    : b.amount.kind === "literal" && sameQuantity(a.amount.value, a.unit.scale, b.amount.value, b.unit.scale);
  return amount && refText(a.from) === refText(b.from) && refText(a.to) === refText(b.to);
}

function moveText(m: Move | undefined): Text {
  if (m === undefined) return tr("none", "なし");
  const amount = m.amount.kind === "param" ? m.amount.param : quantityText(m.amount.value, m.unit.scale);
  return same(`move ${amount} from ${refText(m.from)} to ${refText(m.to)}`);
}

function refText(ref: AccountRef): string {
  return ref.args.length === 0 ? ref.account.name : `${ref.account.name}(${ref.args.join(", ")})`;
}
