/**
 * How chobo writes its values wherever a person reads them — diagnostics, the report, runs and
 * pages: amounts in a unit's scale (docs/design/chobo.md#units-and-amounts), account kinds and
 * bounds, calls and their outcomes, balances, and the numbered operations that get somewhere.
 * Programs read amounts as integers of the smallest unit in JSON; people read them here, as the book
 * writes them.
 * @module
 */

import { type Lang, type Text, tr } from "../common/text.ts";
import { displayWidth, padEnd } from "../common/width.ts";
import { accountText, type Balance, type Call, type Outcome } from "./interp.ts";
import type { Account, Bound } from "./model.ts";
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

/**
 * An outcome with the place a bound refused it: which move, which account, its numbers there, in
 * the unit of the call's move.
 */
function detailedOutcome(call: Call, o: Outcome, lang: Lang): string {
  if (o.kind !== "refused" || o.at === null) return outcomeText(o, lang);
  const { move, side, account, balance } = o.at;
  const scale = call.transfer.moves[move - 1].unit.scale;
  const q = (v: bigint) => quantityText(v, scale);
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

/** The numbered lines of a played sequence, results aligned, bound refusals explained. */
export function operationLines(p: Played): Text[] {
  const render = (lang: Lang) => {
    const rows = p.calls.map((c, i) => {
      const head = `${String(i + 1).padStart(4)}  `;
      if ("pass" in c) return [`${head}pass ${c.pass}`, ""];
      return [head + callText(c.call), detailedOutcome(c.call, c.outcome, lang)];
    });
    const width = Math.max(...rows.map(([a]) => displayWidth(a)));
    return rows.map(([a, b]) => b === "" ? a : `${padEnd(a, width)}  ${b}`);
  };
  const en = render("en");
  const ja = render("ja");
  return en.map((line, i) => tr(line, ja[i]));
}

/**
 * `reserve.hold(order: order-3, sku: sku-2, qty: 2)`, `sale.do(order: order-1, amount: 0.01)`:
 * arguments in the transfer's order, amounts in their units' scale.
 */
export function callText(call: Call): string {
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

/** `posted 2.50, held out 0.00, held in 0.00` / `確定 2.50、出ていく仮押さえ 0.00、入ってくる仮押さえ 0.00`. */
export function balanceText(b: Balance, scale: number, lang: Lang): string {
  const q = (v: bigint) => quantityText(v, scale);
  return tr(
    `posted ${q(b.posted)}, held out ${q(b.heldOut)}, held in ${q(b.heldIn)}`,
    `確定 ${q(b.posted)}、出ていく仮押さえ ${q(b.heldOut)}、入ってくる仮押さえ ${q(b.heldIn)}`,
  )[lang];
}

/** `done`, `refused: expired` / `通る`, `在庫切れ で拒否される`. */
export function outcomeText(o: Outcome, lang: Lang): string {
  switch (o.kind) {
    case "done":
      return tr("done", "通る")[lang];
    case "done_before":
      return tr("done_before", "前に済んでいる")[lang];
    case "refused":
      return tr(`refused: ${o.reason}`, `${o.reason} で拒否される`)[lang];
    case "failed":
      return tr(`failed: ${o.why.en}`, `失敗する(${o.why.ja})`)[lang];
  }
}
