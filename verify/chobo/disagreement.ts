/**
 * What a disagreement shows: where a target's play of a scenario first leaves the interpreter's
 * nearest outcome — the step, the call and both answers, or at the end the account or hold and
 * both states — in English and Japanese.
 * @module
 */

import { accountId, holdId, uuidText } from "../../lang/chobo/ids.ts";
import { accountText, type HoldState, holdText, type Outcome } from "../../lang/chobo/interp.ts";
import type { Book } from "../../lang/chobo/model.ts";
import type { Branch, StepResult } from "../../lang/chobo/scenario.ts";
import { callText, outcomeText, quantityText } from "../../lang/chobo/words.ts";
import { findOne, lookup } from "../../lang/common/assert.ts";
import { type Lang, type Text, tr } from "../../lang/common/text.ts";

/** A step as the comparison reads it: a call's result key, a pass (null), or per caller per call. */
export type PlayedStep = string | null | string[][];

/** What one scenario did on a target, as the verifier compares it with the interpreter. */
export interface Played {
  /** Per step: a call's result, a pass (null), or per caller per call. */
  readonly steps: PlayedStep[];
  readonly accounts: Map<string, [bigint, bigint, bigint]>;
  readonly holds: Map<string, string>;
  readonly late: boolean;
}

/** An outcome as a target reports it: `done`, `done_before`, `refused:<reason>`. */
export function outcomeKey(o: Outcome): string {
  return o.kind === "refused" ? `refused:${o.reason}` : o.kind;
}

/** The interpreter's step `step` as a played step, to compare with a target's. */
export function expectedStep(step: StepResult): PlayedStep {
  if (step.kind === "call") return outcomeKey(step.outcome);
  if (step.kind === "pass") return null;
  return step.callers.map((c) => c.map((r) => outcomeKey(r.outcome)));
}

/**
 * True when a target's call answered the interpreter's outcome: a call the interpreter fails (an
 * argument past docs/reference.md#limits) agrees with any `failed:<message>` of a target, whose words
 * are its own.
 */
function sameOutcome(o: Outcome, got: unknown): boolean {
  if (o.kind === "failed") return typeof got === "string" && got.startsWith("failed:");
  return got === outcomeKey(o);
}

/** True when a target's played step is the interpreter's step `step`. */
export function stepAgrees(step: StepResult, got: PlayedStep | undefined): boolean {
  if (step.kind === "pass") return got === null || got === undefined;
  if (step.kind === "call") return sameOutcome(step.outcome, got);
  return Array.isArray(got) && got.length === step.callers.length &&
    step.callers.every((c, i) =>
      Array.isArray(got[i]) && got[i].length === c.length &&
      c.every((r, j) => sameOutcome(r.outcome, got[i][j]))
    );
}

/** A target's result key in words, as `chobo run` writes the interpreter's. */
function keyText(key: string, lang: Lang): string {
  if (key === "done" || key === "done_before") return outcomeText({ kind: key }, lang);
  if (key.startsWith("refused:")) {
    return outcomeText({ kind: "refused", reason: key.slice("refused:".length), at: null }, lang);
  }
  return key;
}

function stepText(step: PlayedStep | undefined, lang: Lang): string {
  if (step === undefined) {
    return tr("nothing (the step did not run)", "なし(そのステップは流れていない)")[lang];
  }
  if (step === null) return "pass";
  if (typeof step === "string") return keyText(step, lang);
  return step.map((calls, c) =>
    `${tr(`caller ${c + 1}`, `呼び出し元 ${c + 1}`)[lang]}: ${calls.map((k) => keyText(k, lang)).join(", ")}`
  ).join("; ");
}

/** The step's heading: its number and what it calls. */
function stepHeading(index: number, step: StepResult | undefined, lang: Lang): string {
  const n = tr(`step ${index + 1}`, `ステップ ${index + 1}`)[lang];
  if (step === undefined) {
    return `${n}: ${tr("a step the scenario does not have", "シナリオに無いステップ")[lang]}`;
  }
  const what = step.kind === "call" ? callText(step.call) : step.kind === "pass" ? `pass ${step.text}` : [
    "together",
    ...step.callers.map((c, i) =>
      `${tr(`caller ${i + 1}`, `呼び出し元 ${i + 1}`)[lang]}: ${c.map((r) => callText(r.call)).join(", ")}`
    ),
  ].join("; ");
  return `${n}: ${what}`;
}

/** How many steps from the start `played` has as `b` has them. */
function agreeingSteps(b: Branch, played: Played): number {
  let n = 0;
  while (n < b.steps.length && stepAgrees(b.steps[n], played.steps[n])) n++;
  return n;
}

const STATE: Record<HoldState, Text> = {
  held: tr("held", "押さえ中"),
  posted: tr("posted", "確定"),
  voided: tr("voided", "取消"),
  expired: tr("expired", "期限切れ"),
};

function stateText(state: string | undefined, lang: Lang): string {
  if (state === undefined) return tr("no hold", "仮押さえなし")[lang];
  return state in STATE ? STATE[state as HoldState][lang] : state;
}

/**
 * An account's numbers in its unit's scale, as `chobo run` writes them; in the smallest unit for an
 * account only the target has, whose kind is not known here.
 */
function numbersText(n: readonly [bigint, bigint, bigint], scale: number | null, lang: Lang): string {
  const q = (v: bigint) => scale === null ? String(v) : quantityText(v, scale);
  return tr(
    `posted ${q(n[0])}, held in ${q(n[1])}, held out ${q(n[2])}`,
    `確定 ${q(n[0])}、入ってくる仮押さえ ${q(n[1])}、出ていく仮押さえ ${q(n[2])}`,
  )[lang];
}

/** The first account or hold whose end differs, as [what, the interpreter's, the target's]; null when none. */
function endDifference(
  book: Book,
  tenant: string,
  b: Branch,
  played: Played,
): [string, (lang: Lang) => string, (lang: Lang) => string] | null {
  const zero: [bigint, bigint, bigint] = [0n, 0n, 0n];
  const scales = new Map(book.accounts.map((a) => [a.name, a.unit.scale]));
  const named = new Map<string, [string, [bigint, bigint, bigint], number]>();
  for (const a of b.ledger.accounts()) {
    named.set(uuidText(accountId(book, tenant, a.id.account, a.id.args)), [
      accountText(a.id),
      [a.balance.posted, a.balance.heldIn, a.balance.heldOut],
      lookup(scales, a.id.account, "account kind's scale"),
    ]);
  }
  for (const id of new Set([...named.keys(), ...played.accounts.keys()])) {
    const [what, want, scale] = named.get(id) ?? [`account ${id}`, zero, null];
    const got = played.accounts.get(id) ?? zero;
    if (want.join() !== got.join()) {
      return [what, (lang) => numbersText(want, scale, lang), (lang) => numbersText(got, scale, lang)];
    }
  }
  const holds = new Map<string, [string, string]>();
  for (const h of b.ledger.holds()) {
    const t = findOne(book.transfers, (x) => x.name === h.transfer, `transfer ${h.transfer}`);
    holds.set(uuidText(holdId(book, tenant, t, h.key)), [holdText(h), h.state]);
  }
  for (const id of new Set([...holds.keys(), ...played.holds.keys()])) {
    const [what, want] = holds.get(id) ?? [`hold ${id}`, undefined];
    const got = played.holds.get(id);
    if (want !== got) return [what, (lang) => stateText(want, lang), (lang) => stateText(got, lang)];
  }
  return null;
}

/**
 * Where `played` (on `target`, for `tenant`) first leaves the interpreter's outcome nearest to it:
 * the step with the call and both answers, or the account or hold at the end with both states;
 * several lines, each but the first indented.
 */
export function disagreement(
  book: Book,
  tenant: string,
  branches: readonly Branch[],
  played: Played,
  target: string,
): Text {
  const nearest = branches.reduce((best, b) =>
    agreeingSteps(b, played) > agreeingSteps(best, played) ? b : best
  );
  const at = agreeingSteps(nearest, played);
  const interpreter = tr("the interpreter", "参照インタプリタ");
  const outcomes = branches.length === 1 ? tr("", "") : tr(
    ` (nearest of its ${branches.length} outcomes)`,
    `(${branches.length} 通りの結果のうち最も近いもの)`,
  );
  const render = (lang: Lang): string => {
    if (at < nearest.steps.length || played.steps.length !== nearest.steps.length) {
      const step = nearest.steps[at];
      const want = step === undefined
        ? tr("no such step", "そのステップは無い")[lang]
        : stepText(expectedStep(step), lang);
      return [
        stepHeading(at, step, lang),
        `  ${interpreter[lang]}${outcomes[lang]}: ${want}`,
        `  ${target}: ${stepText(played.steps[at], lang)}`,
      ].join("\n");
    }
    const end = endDifference(book, tenant, nearest, played);
    if (end === null) return tr("every step and the end agree", "どのステップも終わりも一致している")[lang];
    const [what, want, got] = end;
    return [
      tr(`at the end, ${what}`, `終わりの ${what}`)[lang],
      `  ${interpreter[lang]}${outcomes[lang]}: ${want(lang)}`,
      `  ${target}: ${got(lang)}`,
    ].join("\n");
  };
  return tr(render("en"), render("ja"));
}
