/**
 * The prose of `dandori doc`: how to read the page, and under each chart what its block does and
 * where it is entered from — which calls' unhandled errors lead to `on failure` (they
 * are marks, not lines), and the lines whose `now` the period checks (checks are not drawn:
 * docs/design/dandori.md#the-page).
 * @module
 */

import { type Lang, tr } from "../common/text.ts";
import type { Plan, StmtPlan } from "./plan.ts";

/** How to read the page, a paragraph each. */
export function flowIntro(lang: Lang): string[] {
  return [
    tr(
      "This page is drawn from the checked flow: it is the same for every platform, and nothing has to run for it.",
      "このページは検査したフローから描いています。どのプラットフォームでも同じで、何も走らせずに手に入ります。",
    )[lang],
    tr(
      "In the charts a task is a rectangle, a task that waits for a value from outside (`event`, `callback`) a parallelogram, `match` a hexagon, a wait a rounded box, and the start and every end a stadium. A loop is a frame around its body: the way to its next iteration is on its left, the way out on its right. An edge says what must happen to go along it.",
      "図では、タスクが四角、外から値が届くタスク(`event`、`callback`)が斜めの四角、`match` が六角形、待ちが角の丸い四角、始まりと終わりが両端の丸い形です。ループは本体を囲む枠で、左に次のイテレーションへ戻る線、右に外へ出る線があります。辺には、その辺を通るために起きていなければならないことを書いています。",
    )[lang],
    tr(
      "A call marked ! can end with an error no handler takes: it goes to `on failure` when the flow has one, else the workflow fails with it. Those ways are not drawn as lines; the note under each chart says where they come from.",
      "! の付いた呼び出しは、ハンドラの受けないエラーで終わることがあります。そのエラーは、`on failure` があればそこへ進み、無ければワークフローがそのエラーで失敗します。この行き先は線で描かず、図の下にどこから来るかを書いています。",
    )[lang],
  ];
}

function callsOf(ss: readonly StmtPlan[]): (StmtPlan & { kind: "call" })[] {
  return ss.flatMap((s): (StmtPlan & { kind: "call" })[] => {
    switch (s.kind) {
      case "call":
        return [s, ...s.call.handlers.flatMap((h) => callsOf(h.body))];
      case "match":
        return s.arms.flatMap((a) => callsOf(a.body));
      case "repeat":
      case "for":
        return callsOf(s.body);
      default:
        return [];
    }
  });
}

function checksOf(ss: readonly StmtPlan[]): number[] {
  return ss.flatMap((s): number[] => {
    switch (s.kind) {
      case "period":
        return [s.line];
      case "call":
        return s.call.handlers.flatMap((h) => checksOf(h.body));
      case "match":
        return s.arms.flatMap((a) => checksOf(a.body));
      case "repeat":
      case "for":
        return checksOf(s.body);
      default:
        return [];
    }
  });
}

/** `line 60 (timeout, failure), line 62 (failure)`: each call with the errors no handler of it takes. */
function unhandledLines(calls: readonly (StmtPlan & { kind: "call" })[], lang: Lang): string {
  return calls.flatMap((s) => {
    const errors = s.call.routes.filter((r) => typeof r.to !== "number").map((r) => r.error);
    return errors.length === 0 ? [] : [
      tr(`line ${s.line} (${errors.join(", ")})`, `${s.line} 行(${errors.join("・")})`)[lang],
    ];
  }).join(lang === "ja" ? "、" : ", ");
}

/** What each block's chart does and where it is entered from, by block. */
export function flowNotes(plan: Plan, lang: Lang): Record<string, string> {
  const notes: Record<string, string> = {};
  const fromFlow = unhandledLines(callsOf(plan.blocks.flow), lang);
  const checks = checksOf(plan.blocks.flow);
  const period = checks.length === 0 || plan.period === null ? null : tr(
    `\`now\` on line ${
      checks.join(", ")
    } is outside the period the workflow runs in, \`${plan.period.text}\``,
    `${checks.join("・")} 行目の \`now\` がワークフローの動く期間 \`${plan.period.text}\` の外`,
  );
  if (plan.blocks.failure === null) {
    const parts = [
      ...(fromFlow === ""
        ? []
        : [tr(`an error no handler takes, from ${fromFlow}`, `ハンドラの受けないエラー(${fromFlow})`)]),
      ...(period === null ? [] : [tr(`when ${period.en}`, `${period.ja}のとき`)]),
    ];
    if (parts.length > 0) {
      notes.flow = tr(
        `There is no \`on failure\`: the workflow fails with ${parts.map((p) => p.en).join(", and ")}.`,
        `\`on failure\` はありません。${parts.map((p) => p.ja).join("と、")}で、ワークフローが失敗します。`,
      )[lang];
    }
  } else {
    const also = period === null
      ? ""
      : tr(` It also runs when ${period.en}.`, `${period.ja}のときにも走ります。`)[lang];
    notes.failure = tr(
      `Runs when a call of \`flow\` ends with an error no handler takes (${
        fromFlow || "none"
      }); when it ends, the workflow fails again with that error.${also}`,
      `\`flow\` の呼び出しがハンドラの受けないエラーで終わると走ります(${
        fromFlow || "なし"
      })。終わると、ワークフローはそのエラーでもう一度失敗します。${also}`,
    )[lang];
  }
  if (plan.blocks.cancel !== null) {
    notes.cancel = tr(
      "Runs when the workflow is cancelled while a call or a wait of `flow` or `on failure` runs; when it ends, the workflow ends cancelled.",
      "`flow` か `on failure` の呼び出しや待ちのあいだにワークフローがキャンセルされると走ります。終わると、ワークフローはキャンセルで終わります。",
    )[lang];
  }
  for (const block of ["failure", "cancel"] as const) {
    const from = unhandledLines(callsOf(plan.blocks[block] ?? []), lang);
    if (from === "") continue;
    notes[block] = `${notes[block]} ${
      tr(
        `An error no handler takes here fails the workflow: ${from}.`,
        `ここでハンドラの受けないエラーが起きると、ワークフローが失敗します(${from})。`,
      )[lang]
    }`;
  }
  return notes;
}
