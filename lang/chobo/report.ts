/**
 * The words of the search's findings: "the operations that get there" under a diagnostic, and
 * the per-transfer report `chobo check` prints after the diagnostics (docs/design/chobo.md#the-checker).
 * @module
 */

import { type Lang, tr } from "../common/text.ts";
import { displayWidth, padEnd } from "../common/width.ts";
import type { Book, Transfer } from "./model.ts";
import type { OpRefusals } from "./refusals.ts";
import { callJson } from "./run.ts";
import type { Played } from "./search.ts";
import { accountKindText, boundText } from "./words.ts";

function reasonText(r: OpRefusals["refusals"][number], lang: Lang): string {
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

/** The report after the diagnostics: each operation's reasons (names only), then each transfer's key. */
export function reportText(book: Book, report: readonly OpRefusals[], lang: Lang): string {
  const names = report.map((r) => `${r.transfer.name}.${r.op}`);
  const width = Math.max(...names.map(displayWidth));
  const lines = report.map((r, i) => {
    const label = padEnd(names[i], width);
    if (r.refusals.length === 0) {
      return `  ${label}  ${tr("never refused", "拒否されることはありません")[lang]}`;
    }
    const reasons = r.refusals.map((x) => reasonText(x, lang)).join(lang === "ja" ? "、" : ", ");
    return `  ${label}  ${tr("may be refused", "拒否されうる理由")[lang]}: ${reasons}`;
  });
  for (const t of book.transfers) lines.push(`  ${keyLine(t, lang)}`);
  return lines.join("\n") + "\n";
}

/** A played sequence as JSON: the calls with their results, and `pass` steps. */
export function operationsJson(p: Played): Record<string, unknown>[] {
  return p.calls.map((c) => "pass" in c ? { pass: c.pass } : callJson(c.call, c.outcome));
}

/** The report as JSON: every operation's reasons with the bound, whether the key is used, and the example. */
export function reportJson(
  book: Book,
  report: readonly OpRefusals[],
  played: (r: OpRefusals["refusals"][number]) => Played,
) {
  return {
    operations: report.map((r) => ({
      transfer: r.transfer.name,
      op: r.op,
      refusals: r.refusals.map((x) => ({
        reason: x.reason,
        bound: x.bound === null ? null : {
          account: x.bound.account.name,
          side: x.bound.side,
          value: x.bound.bound.value,
        },
        key_used: x.keyUsed,
        operations: operationsJson(played(x)),
      })),
    })),
    keys: book.transfers.map((t) => ({
      transfer: t.name,
      key: t.key,
      text: { en: keyLine(t, "en"), ja: keyLine(t, "ja") },
    })),
  };
}
