/**
 * E060 (docs/design/chobo.md#the-checker): an operation whose chain is longer than one TigerBeetle request
 * takes (`MAX_CHAIN`, 253 on a `--development` replica) stops a build for the TigerBeetle targets
 * only; PostgreSQL builds the same book. A `do` or `hold` chain is the longest of a transfer (a
 * post or void leaves out the probe holds), so one diagnostic per transfer, at its name, with a
 * call that would not fit. Accounts and openings go in requests of their own and do not count.
 * @module
 */

import type { Book, Transfer } from "../../../lang/chobo/model.ts";
import { operationsOf } from "../../../lang/chobo/scenario.ts";
import { concretize, planFor, Symbols } from "../../../lang/chobo/search.ts";
import type { Diagnostic } from "../../../lang/common/diagnostic.ts";
import { Reporter } from "../../../lang/common/reporter.ts";
import type { ChoboCode } from "../../../lang/chobo/codes.ts";
import { type Text, tr } from "../../../lang/common/text.ts";
import type { Origin } from "../target.ts";
import { lowerChains, MAX_CHAIN, type MoveRole, type TbChain } from "./plan.ts";
import { pieceText } from "./labels.ts";
import { accountKindText, callText } from "../../../lang/chobo/words.ts";

/** The pieces of a chain, move by move (1-based). */
function piecesByMove(chain: TbChain): Map<number, MoveRole[]> {
  const byMove = new Map<number, MoveRole[]>();
  for (const p of chain.pieces) {
    if (p.move === null || p.role === "status_void" || p.role === "status_refusal") continue;
    byMove.set(p.move, [...byMove.get(p.move) ?? [], p.role]);
  }
  return byMove;
}

/** The move with the most pieces, and what they are (the note under E060). */
function longestMove(t: Transfer, chain: TbChain): Text {
  const [index, roles] = [...piecesByMove(chain)].reduce((a, b) => b[1].length > a[1].length ? b : a);
  const m = t.moves[index - 1];
  const pieces = roles.map((role) =>
    pieceText(m, role, accountKindText(m.from.account), accountKindText(m.to.account))
  );
  const n = pieces.length;
  return tr(
    `move ${m.index} alone is ${n} transfer${n === 1 ? "" : "s"}: ${pieces.map((p) => p.en).join("; ")}`,
    `${m.index} つ目の移動だけで ${n} 件の振替になります: ${pieces.map((p) => p.ja).join("、")}`,
  );
}

/** The E060 diagnostics of a book, for a build of a TigerBeetle target. */
export function e060Diagnostics(book: Book, origin: Pick<Origin, "file" | "text">): Diagnostic[] {
  const r = new Reporter<ChoboCode>(origin.file, origin.text);
  const plan = lowerChains(book);
  book.transfers.forEach((t, i) => {
    const op = operationsOf(t)[0];
    const chain = plan.transfers[i].chains[op];
    if (chain === undefined) throw new Error(`${t.name} has no ${op} chain`);
    const n = chain.pieces.length;
    if (n <= MAX_CHAIN) return;
    const [call] = concretize([{ kind: "call", plan: planFor(t, op, new Symbols()) }]);
    r.error(
      "E060",
      t,
      tr(
        `the chain of ${t.name}.${op} is ${n} TigerBeetle transfers, more than the ${MAX_CHAIN} one request takes`,
        `${t.name}.${op} のチェーンは TigerBeetle の振替 ${n} 件で、一つのリクエストに入る ${MAX_CHAIN} 件を超えます`,
      ),
      {
        notes: [longestMove(t, chain)],
        operations: [tr(callText(call), callText(call))],
        hint: tr(
          "split the transfer into several transfers with fewer moves each; accounts and openings are sent apart and do not count",
          "移動の少ないいくつかの振替に分けてください。勘定と開始の振替は別のリクエストで送るので数えません",
        ),
      },
    );
  });
  return r.diagnostics;
}
