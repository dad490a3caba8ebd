/**
 * The words for what a TigerBeetle account or chain transfer stands for, in both languages:
 * `--show tigerbeetle`, E060's note and the client's errors read them.
 * @module
 */

import { accountText } from "../../../lang/chobo/interp.ts";
import type { Move, Transfer } from "../../../lang/chobo/model.ts";
import { unreachable } from "../../../lang/common/assert.ts";
import { type Text, tr } from "../../../lang/common/text.ts";
import type { AccountWhat, ChainEntry } from "./chain.ts";
import type { MoveRole } from "./plan.ts";
import { quantityText } from "../../../lang/chobo/words.ts";

/** `stock(sku-2)`, `floor of bin(sku-2)` / `bin(sku-2) の余裕`, `sink of pcs` / `pcs の受け皿`. */
export function accountWhatText(what: AccountWhat): Text {
  if (what.kind === "sink") return tr(`sink of ${what.unit.name}`, `${what.unit.name} の受け皿`);
  const name = accountText({ account: what.account.name, args: what.args });
  switch (what.kind) {
    case "account":
      return tr(name, name);
    case "floor":
      return tr(`floor of ${name}`, `${name} の余裕`);
    case "room":
      return tr(`room of ${name}`, `${name} の空き`);
  }
}

/**
 * What one chain transfer does. `arg` gives a string parameter's value, or null where the call
 * does not pass it (a post or void passes only the key): then the parameter's name is shown.
 */
export function chainEntryText(
  t: Transfer,
  e: Pick<ChainEntry, "role" | "move">,
  op: string,
  arg: (name: string) => string | null,
): Text {
  if (e.role === "status_void") {
    return tr("status: void of the hold's first transfer", "状態: 仮押さえの一件目の取消");
  }
  if (e.role === "status_refusal") {
    return tr(
      "status: refused on purpose (the same account on both sides)",
      "状態: 必ず拒否される振替(借方と貸方が同じ)",
    );
  }
  const m = t.moves[(e.move ?? 1) - 1];
  const side = (s: "from" | "to") =>
    accountText({ account: m[s].account.name, args: m[s].args.map((a) => arg(a) ?? a) });
  const piece = pieceText(m, e.role, side("from"), side("to"));
  const n = m.index;
  const text = tr(`move ${n}: ${piece.en}`, `${n} つ目の移動: ${piece.ja}`);
  if (op === "post") return tr(`post of ${text.en}`, `${text.ja} の確定`);
  if (op === "void") return tr(`void of ${text.en}`, `${text.ja} の取消`);
  return text;
}

/** One piece of a move, with the texts of its from and to accounts: `room of bin taken` / `bin の空きを減らす`. */
export function pieceText(m: Move, role: MoveRole, from: string, to: string): Text {
  const lower = m.from.account.lower;
  const bound = lower === null ? "" : quantityText(lower.value, m.from.account.unit.scale);
  switch (role) {
    case "move":
      return tr(`${from} → ${to}`, `${from} → ${to}`);
    case "probe":
      return tr(`probe hold of at least ${bound} on ${from}`, `${from} の下限 ${bound} の仮押さえ`);
    case "probe_void":
      return tr("void of the probe hold", "下限の仮押さえの取消");
    case "from_floor":
      return tr(`floor of ${from} taken`, `${from} の余裕を減らす`);
    case "from_room":
      return tr(`room of ${from} given back`, `${from} の空きを戻す`);
    case "to_room":
      return tr(`room of ${to} taken`, `${to} の空きを減らす`);
    case "to_floor":
      return tr(`floor of ${to} given back`, `${to} の余裕を戻す`);
    default:
      return unreachable(role, "piece of a move");
  }
}
