/**
 * What `chobo run` prints: each step with its result, then the balances and holds at the end,
 * once per possible outcome (docs/design/chobo.md#together), in English or Japanese; columns are aligned by
 * display width. Also the JSON form for programs.
 * @module
 */

import { type Lang, tr } from "../common/text.ts";
import { displayWidth, padEnd } from "../common/width.ts";
import {
  accountText,
  type Balance,
  type Call,
  callArgs,
  type HoldState,
  holdText,
  type Outcome,
} from "./interp.ts";
import type { Branch, Scenario, StepResult } from "./scenario.ts";
import { callText, outcomeText } from "./words.ts";

const STATE: Record<HoldState, { en: string; ja: string }> = {
  held: tr("held", "押さえ中"),
  posted: tr("posted", "確定"),
  voided: tr("voided", "取消"),
  expired: tr("expired", "期限切れ"),
};

/** `posted 2, held out 0, held in 0` / `確定 2、出ていく仮押さえ 0、入ってくる仮押さえ 0`. */
export function balanceText(b: Balance, lang: Lang): string {
  return tr(
    `posted ${b.posted}, held out ${b.heldOut}, held in ${b.heldIn}`,
    `確定 ${b.posted}、出ていく仮押さえ ${b.heldOut}、入ってくる仮押さえ ${b.heldIn}`,
  )[lang];
}

function stepLines(steps: readonly StepResult[], indent: number, lang: Lang): string[] {
  const number = String(steps.length).length;
  const rows: [string, string][] = [];
  steps.forEach((s, i) => {
    const head = `${" ".repeat(indent)}${String(i + 1).padStart(number)}  `;
    if (s.kind === "call") rows.push([head + callText(s.call), outcomeText(s.outcome, lang)]);
    else if (s.kind === "pass") {
      const expired = s.expired.map((h) => `${holdText(h)} ${tr("expired", "期限切れ")[lang]}`).join(", ");
      rows.push([`${head}pass ${s.text}`, expired]);
    } else {
      rows.push([`${head}together`, ""]);
      const pad = " ".repeat(indent + number + 4);
      s.callers.forEach((results, c) => {
        for (const r of results) {
          rows.push([
            `${pad}${tr(`caller ${c + 1}`, `呼び出し元 ${c + 1}`)[lang]}: ${callText(r.call)}`,
            outcomeText(r.outcome, lang),
          ]);
        }
      });
    }
  });
  const width = Math.max(...rows.map(([a]) => displayWidth(a)));
  return rows.map(([a, b]) => b === "" ? a : `${padEnd(a, width)}  ${b}`);
}

function table(rows: readonly [string, string][], indent: number): string[] {
  const width = Math.max(...rows.map(([a]) => displayWidth(a)));
  return rows.map(([a, b]) => `${" ".repeat(indent)}${padEnd(a, width)}  ${b}`);
}

function endLines(b: Branch, indent: number, lang: Lang): string[] {
  const lines: string[] = [];
  const accounts = b.ledger.accounts();
  if (accounts.length > 0) {
    lines.push(`${" ".repeat(indent)}${tr("accounts:", "勘定:")[lang]}`);
    lines.push(...table(accounts.map((a) => [accountText(a.id), balanceText(a.balance, lang)]), indent + 2));
  }
  const holds = b.ledger.holds();
  if (holds.length > 0) {
    lines.push(`${" ".repeat(indent)}${tr("holds:", "仮押さえ:")[lang]}`);
    lines.push(...table(holds.map((h) => [holdText(h), STATE[h.state][lang]]), indent + 2));
  }
  return lines;
}

/** The text of one scenario's run: the heading, then each outcome's steps, balances and holds. */
export function runText(file: string, s: Scenario, branches: readonly Branch[], lang: Lang): string {
  const n = s.steps.length;
  const steps = tr(`${n} step${n === 1 ? "" : "s"}`, `${n} ステップ`)[lang];
  if (branches.length === 1) {
    return [
      `${file} (${s.name}): ${steps}`,
      ...stepLines(branches[0].steps, 2, lang),
      ...endLines(branches[0], 0, lang),
    ]
      .join("\n") + "\n";
  }
  const outcomes =
    tr(`, ${branches.length} possible outcomes`, `、とりうる結果は ${branches.length} 通り`)[lang];
  const lines = [`${file} (${s.name}): ${steps}${outcomes}`];
  branches.forEach((b, i) => {
    lines.push(
      `${tr("outcome", "結果")[lang]} ${i + 1}:`,
      ...stepLines(b.steps, 4, lang),
      ...endLines(b, 2, lang),
    );
  });
  return lines.join("\n") + "\n";
}

/** One call and its result as JSON: `{"call", "args", "result", "reason"?}`. */
export function callJson(call: Call, o: Outcome): Record<string, unknown> {
  const out: Record<string, unknown> = {
    call: `${call.transfer.name}.${call.op}`,
    args: Object.fromEntries(callArgs(call)),
    result: o.kind,
  };
  if (o.kind === "refused") out.reason = o.reason;
  if (o.kind === "failed") out.why = o.why.en;
  return out;
}

/** The JSON of one scenario's run (amounts as exact integers; write it with `stringifyJson`). */
export function runJson(s: Scenario, branches: readonly Branch[]): Record<string, unknown> {
  return {
    scenario: s.name,
    tenant: s.tenant,
    outcomes: branches.map((b) => ({
      steps: b.steps.map((st) => {
        switch (st.kind) {
          case "call":
            return callJson(st.call, st.outcome);
          case "pass":
            return { pass: st.text, expired: st.expired.map((h) => ({ transfer: h.transfer, key: h.key })) };
          case "together":
            return { together: st.callers.map((c) => c.map((r) => callJson(r.call, r.outcome))) };
        }
      }),
      accounts: b.ledger.accounts().map((a) => ({
        account: a.id.account,
        args: a.id.args,
        posted: a.balance.posted,
        held_out: a.balance.heldOut,
        held_in: a.balance.heldIn,
      })),
      holds: b.ledger.holds().map((h) => ({ transfer: h.transfer, key: h.key, state: h.state })),
    })),
  };
}
