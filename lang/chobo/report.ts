/**
 * The words of the search's findings: "the operations that get there" under a diagnostic, the
 * per-transfer report `chobo check` prints after the diagnostics (docs/design/chobo.md#the-checker) with
 * what the search did not reach and the limits it reached, and what the scenario generator owed and did
 * not generate (docs/design/chobo.md#scenarios).
 * @module
 */

import { type Lang, type Text, tr } from "../common/text.ts";
import { displayWidth, padEnd } from "../common/width.ts";
import type { Book, Transfer } from "./model.ts";
import type { OpRefusals, ReasonOf } from "./refusals.ts";
import { callJson } from "./run.ts";
import type { RaceGap, ScenarioNote } from "./scenarios.ts";
import type { LimitReached, Played } from "./search.ts";
import { accountKindText, boundText } from "./words.ts";

/** A reason as the report names it: a bound's with its account and bound, chobo's own alone. */
export function reasonText(r: ReasonOf, lang: Lang): string {
  if (r.bound === null) return r.reason;
  const where = `${accountKindText(r.bound.account)} ${
    boundText(r.bound.side, r.bound.bound, r.bound.account)
  }`;
  return lang === "ja" ? `${r.reason}(${where})` : `${r.reason} (${where})`;
}

/** What a transfer's key means, in one line (the report's `key:` lines). */
export function keyLine(t: Transfer, lang: Lang): string {
  const nonKey = t.params.filter((p) => !t.key.includes(p.name)).map((p) => p.name);
  if (lang === "en") {
    let line = `key: ${t.name} once per ${t.key.join(", ")}`;
    if (nonKey.length > 0) {
      line += `; a second call that differs only in ${nonKey.join(" or ")} is refused with key_conflict`;
    }
    if (t.pending !== null) {
      line +=
        "; holding again with the same key after the hold has ended answers done_before and holds nothing";
    }
    return line;
  }
  const per = t.key.length === 1 ? `${t.key[0]} ごとに` : `${t.key.join(" と ")} の組ごとに`;
  let line = `キー: ${t.name} は、${per}一度だけ動きます。`;
  if (nonKey.length > 0) {
    line += `キーが同じで ${nonKey.join(" か ")} が違う二度目の呼び出しは、key_conflict で拒否されます。`;
  }
  if (t.pending !== null) {
    line += "仮押さえが終わったあとに同じキーでもう一度押さえると、done_before が返り、何も押さえません。";
  }
  return line;
}

/** The words before the reasons an operation may be refused with. */
export const MAY_BE_REFUSED: Text = tr("may be refused", "拒否されうる理由");

/** The words before the reasons the book allows and the search did not reach. */
export const NOT_REACHED: Text = tr("not reached within the search", "探索の範囲で届かなかった理由");

function reasonsText(reasons: readonly ReasonOf[], lang: Lang): string {
  return reasons.map((x) => reasonText(x, lang)).join(lang === "ja" ? "、" : ", ");
}

/**
 * The report after the diagnostics: each operation's reasons (names only) and those not reached,
 * the limits the search reached, then each transfer's key.
 */
export function reportText(book: Book, report: readonly OpRefusals[], lang: Lang): string {
  const names = report.map((r) => `${r.transfer.name}.${r.op}`);
  const width = Math.max(...names.map(displayWidth));
  const lines = report.flatMap((r, i) => {
    const label = padEnd(names[i], width);
    const out: string[] = [];
    if (r.refusals.length > 0) out.push(`${MAY_BE_REFUSED[lang]}: ${reasonsText(r.refusals, lang)}`);
    if (r.unreached.length > 0) out.push(`${NOT_REACHED[lang]}: ${reasonsText(r.unreached, lang)}`);
    if (out.length === 0) out.push(tr("never refused", "拒否されることはありません")[lang]);
    return out.map((line, j) => `  ${j === 0 ? label : " ".repeat(width)}  ${line}`);
  });
  for (const l of searchLimits(report)) lines.push(`  ${l.text[lang]}`);
  for (const t of book.transfers) lines.push(`  ${keyLine(t, lang)}`);
  return lines.join("\n") + "\n";
}

/** The limits the check's search reached, each with where and what it means, in both languages. */
export function searchLimits(report: readonly OpRefusals[]): { limit: LimitReached; text: Text }[] {
  const all = report.length === 0 ? [] : report[report.length - 1].limits;
  return all.map((limit) => {
    if (limit.limit === "MAX_AMOUNTS_PER_UNIT") return { limit, text: amountsLimitText(limit) };
    const at = report.find((r) => r.limits.some((l) => l.limit === "MAX_SEARCH_STEPS"));
    const where = at === undefined ? "" : `${at.transfer.name}.${at.op}`;
    return {
      limit,
      text: tr(
        `note: the search stopped at its limit of ${limit.steps} steps of the interpreter (MAX_SEARCH_STEPS) while it searched ${where}: what it had not reached by then is listed as not reached, and W101–W104 say only what it confirmed`,
        `注: 探索は ${where} を探しているときに上限の ${limit.steps} ステップ(インタプリタの手数、MAX_SEARCH_STEPS)で止まりました。それまでに届かなかった理由は「${NOT_REACHED.ja}」に並べています。W101〜W104 は確かめられたことだけを言います`,
      ),
    };
  });
}

function amountsLimitText(l: Extract<LimitReached, { limit: "MAX_AMOUNTS_PER_UNIT" }>): Text {
  return tr(
    `note: the search tried ${l.tried} of the ${l.found} amounts the bounds of ${l.unit} give (MAX_AMOUNTS_PER_UNIT)`,
    `注: 探索は、${l.unit} の境界から出る ${l.found} 個の額のうち ${l.tried} 個だけを試しました(MAX_AMOUNTS_PER_UNIT)`,
  );
}

/** The limits the scenario generator reached, in both languages. */
export function generatorLimits(limits: readonly LimitReached[]): Text[] {
  return limits.map((l) =>
    l.limit === "MAX_AMOUNTS_PER_UNIT" ? amountsLimitText(l) : tr(
      `note: the generator stopped at its limit of ${l.steps} steps of the interpreter (MAX_SEARCH_STEPS): the scenarios it had not made by then are not generated`,
      `注: シナリオの生成は上限の ${l.steps} ステップ(インタプリタの手数、MAX_SEARCH_STEPS)で止まりました。それまでに作れなかったシナリオはありません`,
    )
  );
}

function raceGapText(n: Extract<ScenarioNote, { kind: "race" }>, why: RaceGap): Text {
  const k = n.account;
  const t = n.transfer;
  switch (why) {
    case "both_ways":
      return n.side === "lower"
        ? tr(`a move of ${t} also puts into ${k}`, `${t} の移動が ${k} へ入れもします`)
        : tr(`a move of ${t} also takes from ${k}`, `${t} の移動が ${k} から取りもします`);
    case "no_free_key":
      return tr(
        `every key parameter of ${t} chooses an account, so two calls on one ${k} have the same key`,
        `${t} のキーの引数はどれも勘定を選ぶので、同じ ${k} への二つの呼び出しは同じキーになります`,
      );
    case "one_call_too_many":
      return tr(
        `one call alone puts more into ${k} than its upper bound allows`,
        `一度の呼び出しだけで ${k} の上限より多く入ります`,
      );
    case "no_fill":
      return tr(
        `no transfer brought ${k} to one call short of the bound within the search`,
        `探索の範囲で、${k} を境界の一回分手前にする振替がありませんでした`,
      );
    case "not_reached":
      return tr(
        "the race was run and did not end with one call done and the other refused",
        "実行しても、一方が done で他方が拒否される結果になりませんでした",
      );
  }
}

/** What the generator owed and did not generate, and why, in both languages. */
export function scenarioNoteText(n: ScenarioNote): Text {
  switch (n.kind) {
    case "hold":
      return tr(
        `not generated: the life of a ${n.transfer} hold (post, void, expiry …): no ${n.transfer}.hold was done within the search`,
        `作れなかったシナリオ: ${n.transfer} の仮押さえの一生(確定、取消、期限切れ …)。探索の範囲で ${n.transfer}.hold が一度も done になりませんでした`,
      );
    case "hold_step":
      return tr(
        `not generated: ${n.name}: running it did not end as its name says`,
        `作れなかったシナリオ: ${n.titleJa}。実行すると名前のとおりに終わりませんでした`,
      );
    case "race": {
      const why = raceGapText(n, n.why);
      const what = n.side === "lower"
        ? tr(
          `two callers at once after the last units of ${n.account}`,
          `${n.account} の最後の分を二つの呼び出し元が同時に取りに来る`,
        )
        : tr(
          `two callers at once after the last room in ${n.account}`,
          `${n.account} の最後の空きに二つの呼び出し元が同時に入れに来る`,
        );
      return tr(
        `not generated: ${what.en} with ${n.transfer}.${n.op}: ${why.en}`,
        `作れなかったシナリオ: ${n.transfer}.${n.op} で、${what.ja}。${why.ja}`,
      );
    }
  }
}

/** A played sequence as JSON: the calls with their results, and `pass` steps. */
export function operationsJson(p: Played): Record<string, unknown>[] {
  return p.calls.map((c) => "pass" in c ? { pass: c.pass } : callJson(c.call, c.outcome));
}

/** A bound as JSON: the account kind, the side and the value; null for chobo's own reasons. */
export function boundJson(x: ReasonOf) {
  return x.bound === null
    ? null
    : { account: x.bound.account.name, side: x.bound.side, value: x.bound.bound.value };
}

/** The limits the search reached, as JSON: the limit's name and numbers, and the note in both languages. */
export function limitsJson(limits: readonly { limit: LimitReached; text: Text }[]) {
  return limits.map((l) => ({ ...l.limit, text: { en: l.text.en, ja: l.text.ja } }));
}

/**
 * The report as JSON: every operation's reasons with the bound, whether the key is used, and the example;
 * the reasons not reached; the limits the search reached.
 */
export function reportJson(
  book: Book,
  report: readonly OpRefusals[],
) {
  return {
    operations: report.map((r) => ({
      transfer: r.transfer.name,
      op: r.op,
      refusals: r.refusals.map((x) => ({
        reason: x.reason,
        bound: boundJson(x),
        key_used: x.keyUsed,
        operations: operationsJson(x.played),
      })),
      unreached: r.unreached.map((x) => ({ reason: x.reason, bound: boundJson(x) })),
    })),
    search_limits: limitsJson(searchLimits(report)),
    keys: book.transfers.map((t) => ({
      transfer: t.name,
      key: t.key,
      text: { en: keyLine(t, "en"), ja: keyLine(t, "ja") },
    })),
  };
}
