/**
 * The words of the search's findings: "the operations that get there" under a diagnostic, and
 * the per-transfer report `chobo check` prints after the diagnostics (seed chobo 3.1, 3.2).
 * @module
 */

import { type Lang, type Text, tr } from "../common/text.ts";
import { displayWidth, padEnd } from "../common/width.ts";
import { accountText, type Call, type Outcome } from "./interp.ts";
import type { Account, Book, Bound, Transfer } from "./model.ts";
import type { OpRefusals } from "./refusals.ts";
import { callJson, callText, outcomeText } from "./run.ts";
import type { Played } from "./search.ts";

/** A quantity in the unit's scale, as a book writes it: 1250 at scale 2 is `12.50`. */
export function quantityText(value: bigint, scale: number): string {
  if (scale === 0) return value.toString();
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, "0");
  return `${negative ? "-" : ""}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** `stock(sku)`: an account kind with its declared parameters. */
export function accountKindText(a: Account): string {
  return a.params.length === 0 ? a.name : `${a.name}(${a.params.join(", ")})`;
}

/** `at least 0`, `at most 1000000`, in the unit's scale. */
export function boundText(side: "lower" | "upper", b: Bound, a: Account): string {
  return `${side === "lower" ? "at least" : "at most"} ${quantityText(b.value, a.unit.scale)}`;
}

function ordinal(n: number, lang: Lang): string {
  return tr(`move ${n}`, `${n} つ目の移動`)[lang];
}

/** An outcome with the place a bound refused it: which move, which account, its numbers there. */
function detailedOutcome(o: Outcome, lang: Lang, scale: Scale | null): string {
  if (o.kind !== "refused" || o.at === null) return outcomeText(o, lang);
  const { move, side, account, balance } = o.at;
  const q = (v: bigint) => scale === null ? String(v) : quantityText(v, scale(account.account));
  const amount = q(o.at.amount);
  const acct = accountText(account);
  const numbers: [string, string, bigint][] = side === "lower"
    ? [["posted", "確定", balance.posted], ["held out", "出ていく仮押さえ", balance.heldOut]]
    : [["posted", "確定", balance.posted], ["held in", "入ってくる仮押さえ", balance.heldIn]];
  const other: [string, string, bigint] = side === "lower"
    ? ["held in", "入ってくる仮押さえ", balance.heldIn]
    : ["held out", "出ていく仮押さえ", balance.heldOut];
  if (other[2] !== 0n) numbers.push(other);
  if (lang === "en") {
    const verb = side === "lower" ? `takes ${amount} from` : `puts ${amount} into`;
    return `refused: ${o.reason} (${ordinal(move, lang)} ${verb} ${acct}: ${
      numbers.map(([en, , v]) => `${en} ${q(v)}`).join(", ")
    })`;
  }
  const verb = side === "lower"
    ? `${acct} から ${amount} を取ろうとした`
    : `${acct} へ ${amount} を入れようとした`;
  return `${o.reason} で拒否される(${ordinal(move, lang)}が ${verb}ときの残高は、${
    numbers.map(([, ja, v]) => `${ja} ${q(v)}`).join("、")
  })`;
}

/** The scale of an account kind's unit, for pages that write numbers as the book does. */
export type Scale = (account: string) => number;

/** A call with its amounts in their units' scale: `sale.do(order: order-1, amount: 0.01)`. */
export function scaledCallText(call: Call): string {
  const args = call.transfer.params.flatMap((p) => {
    if (p.type.kind === "string") {
      const v = call.strings.get(p.name);
      return v === undefined ? [] : [`${p.name}: ${v}`];
    }
    const v = call.amounts.get(p.name);
    return v === undefined ? [] : [`${p.name}: ${quantityText(v, p.type.unit.scale)}`];
  });
  return `${call.transfer.name}.${call.op}(${args.join(", ")})`;
}

/**
 * The numbered lines of a played sequence, results aligned, bound refusals explained. Numbers are
 * integers of the smallest unit, as scenarios and diagnostics write them (seed 7), unless `scale`
 * is given: then they are written in each unit's scale, as pages write them.
 */
export function operationLines(p: Played, scale: Scale | null = null): Text[] {
  const render = (lang: Lang) => {
    const rows = p.calls.map((c, i) => {
      const head = `${String(i + 1).padStart(4)}  `;
      if ("pass" in c) return [`${head}pass ${c.pass}`, ""];
      const call = scale === null ? callText(c.call) : scaledCallText(c.call);
      return [head + call, detailedOutcome(c.outcome, lang, scale)];
    });
    const width = Math.max(...rows.map(([a]) => displayWidth(a)));
    return rows.map(([a, b]) => b === "" ? a : `${padEnd(a, width)}  ${b}`);
  };
  const en = render("en");
  const ja = render("ja");
  return en.map((line, i) => tr(line, ja[i]));
}

function reasonText(r: OpRefusals["refusals"][number], lang: Lang): string {
  if (r.bound === null) return r.reason;
  const where = `${accountKindText(r.bound.account)} ${
    boundText(r.bound.side, r.bound.bound, r.bound.account)
  }`;
  return lang === "ja" ? `${r.reason}(${where})` : `${r.reason} (${where})`;
}

/** What a transfer's key means, in one line (seed 3.2's `key:` lines). */
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

/** The report of seed 3.2: each operation's reasons (names only), then each transfer's key. */
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
