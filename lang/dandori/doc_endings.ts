/**
 * The endings table of `dandori doc` (docs/design/dandori.md#the-page): `succeed`, each `fail`, each block's end,
 * the workflow's failure with an error nothing handles, a cancel without `on cancel`, and the
 * failures dandori itself raises, each with the states its cases can be in there as the case
 * analysis found them, the outside's events (a hold's expiry) included, as E020 counts them.
 * @module
 */

import { assert, unreachable } from "../common/assert.ts";
import { type Lang, type Text, tr } from "../common/text.ts";
import type { TypedFlow } from "./checked.ts";
import { caseLines } from "./doc_runs.ts";
import { statementsOf, stmtText } from "./doc_text.ts";
import type { CaseFacts, CasePair, EndAt } from "./facts.ts";
import type { PageEnding } from "./page.ts";
import type { Plan, StmtPlan } from "./plan.ts";

/** The order of the table after the statements (by line): where a run that does not stop at a statement ends. */
const AFTER_STATEMENTS: readonly string[] = [
  "end flow",
  "unhandled",
  "end failure",
  "end cancel",
  "cancelled",
];

/** Statements by line first, then `AFTER_STATEMENTS`. */
function rank(at: EndAt): number {
  if (at.kind === "statement") return at.line;
  const key = at.kind === "end" ? `end ${at.block}` : at.kind;
  const i = AFTER_STATEMENTS.indexOf(key);
  assert(i >= 0, `the table has a place for ${key}`);
  return Number.MAX_SAFE_INTEGER - AFTER_STATEMENTS.length + i;
}

function statementEnding(s: StmtPlan): Text {
  if (s.kind === "succeed") return tr("succeeds", "成功する");
  assert(s.kind === "fail", "a statement that ends the workflow is succeed or fail");
  const leaving = s.leaving.length === 0 ? tr("", "") : tr(
    `, handing ${s.leaving.join(", ")} over as ${s.leaving.length === 1 ? "it is" : "they are"}`,
    `(${s.leaving.join("・")} はそのまま引き渡す)`,
  );
  return tr(`fails with ${s.error}${leaving.en}`, `${s.error} で失敗する${leaving.ja}`);
}

/** Where and how a run ends at one ending the analysis met, and the statement that ends it. */
function endingWords(at: EndAt, plan: Plan): { where: Text; how: Text; statement?: string } {
  switch (at.kind) {
    case "statement": {
      const s = statementsOf(plan).find((x) => x.line === at.line && x.kind !== "period");
      assert(s !== undefined, `the ending on line ${at.line} is a statement`);
      return {
        where: tr(`line ${at.line}`, `${at.line} 行`),
        how: statementEnding(s),
        statement: stmtText(s),
      };
    }
    case "end":
      switch (at.block) {
        case "flow":
          return {
            where: tr("the end of `flow`", "`flow` の終わり"),
            how: tr(
              "succeeds with no output given (an output not given is none)",
              "出力を与えずに成功する(与えない出力は none)",
            ),
          };
        case "failure":
          return {
            where: tr("the end of `on failure`", "`on failure` の終わり"),
            how: tr(
              "fails again with the error that started `on failure`",
              "`on failure` を始めたエラーで、もう一度失敗する",
            ),
          };
        case "cancel":
          return {
            where: tr("the end of `on cancel`", "`on cancel` の終わり"),
            how: tr("ends cancelled", "キャンセルで終わる"),
          };
        default:
          return unreachable(at.block, "block");
      }
    case "unhandled":
      return {
        where: tr(
          "a call whose error no handler takes (marked !)",
          "ハンドラの受けないエラーで終わる呼び出し(! の印)",
        ),
        how: tr(
          "fails with that error: its declared name, Dandori.Timeout or Dandori.Failure",
          "そのエラーで失敗する(宣言した名前、Dandori.Timeout、Dandori.Failure)",
        ),
      };
    case "cancelled":
      return {
        where: tr(
          "a call or a wait where a cancel arrives (there is no `on cancel`)",
          "キャンセルが届いた呼び出しか待ち(`on cancel` は無い)",
        ),
        how: tr("ends cancelled at once", "そのままキャンセルで終わる"),
      };
    default:
      return unreachable(at, "ending");
  }
}

/** Every case's pairs over several points, each once, in the machine's order. */
function union(plan: Plan, all: readonly CaseFacts[]): CaseFacts {
  return new Map(plan.cases.map((c) => {
    const seen = new Map<string, CasePair>();
    for (const f of all) for (const p of f.get(c.name) ?? []) seen.set(`${p.record}/${p.actual}`, p);
    const order = (s: string | null) => s === null ? -1 : c.states.indexOf(s);
    const pairs = [...seen.values()].sort((a, b) =>
      order(a.record) - order(b.record) || order(a.actual) - order(b.actual)
    );
    return [c.name, pairs];
  }));
}

/** The failures dandori raises itself (5, 9, 20): a malformed input, a run outside the period, a malformed answer, a list too long. */
function builtinEndings(flow: TypedFlow, plan: Plan, lang: Lang): PageEnding[] {
  const none = union(plan, [new Map(plan.cases.map((c) => [c.name, [{ record: null, actual: null }]]))]);
  const at = (lines: readonly number[]) => union(plan, lines.flatMap((l) => flow.facts.entry.get(l) ?? []));
  const stmts = statementsOf(plan);
  const checked = new Set(
    plan.tasks.filter((t) => t.result !== null || t.callee.kind === "book").map((t) => t.name),
  );
  const answers = stmts.filter((s) => s.kind === "call" && checked.has(s.call.task)).map((s) => s.line);
  const loops = stmts.filter((s) => s.kind === "for").map((s) => s.line);
  const lineList = (ls: readonly number[]) => tr(`line ${ls.join(", ")}`, `${ls.join("・")} 行`)[lang];
  const rows: { where: string; how: Text; cases: CaseFacts }[] = [{
    where: tr("before the start", "始まる前")[lang],
    how: tr(
      "fails with Dandori.BadInput: the input does not have the declared type or range; nothing is called",
      "Dandori.BadInput で失敗する(入力が宣言した型か範囲に合わない)。何も呼ばない",
    ),
    cases: none,
  }];
  if (plan.period !== null) {
    rows.push({
      where: tr("at the start", "始まるとき")[lang],
      how: tr(
        `fails with Dandori.OutOfPeriod: the run starts outside the period \`${plan.period.text}\`; nothing is called`,
        `Dandori.OutOfPeriod で失敗する(期間 \`${plan.period.text}\` の外で走り始める)。何も呼ばない`,
      ),
      cases: none,
    });
  }
  if (answers.length > 0) {
    rows.push({
      where: lineList(answers),
      how: tr(
        "fails with Dandori.BadResponse: the answer does not have the declared type or range; `on failure` does not run",
        "Dandori.BadResponse で失敗する(答えが宣言した型か範囲に合わない)。`on failure` は走らない",
      ),
      cases: at(answers),
    });
  }
  if (loops.length > 0) {
    rows.push({
      where: lineList(loops),
      how: tr(
        "fails with Dandori.TooManyItems: the list has more items than the loop takes (`at most`)",
        "Dandori.TooManyItems で失敗する(リストの要素が、ループが受け取る数(`at most`)より多い)",
      ),
      cases: at(loops),
    });
  }
  return rows.map((r) => ({
    where: r.where,
    how: r.how[lang],
    statement: null,
    cases: caseLines(r.cases, lang),
  }));
}

/**
 * The endings table: every ending the case analysis met, with its cases' states, then the
 * failures dandori raises itself.
 */
export function pageEndings(flow: TypedFlow, plan: Plan, lang: Lang): PageEnding[] {
  const met = [...flow.facts.ends].sort((a, b) => rank(a.at) - rank(b.at)).map((e) => {
    const w = endingWords(e.at, plan);
    return {
      where: w.where[lang],
      how: w.how[lang],
      statement: w.statement ?? null,
      cases: caseLines(e.cases, lang),
    };
  });
  return [...met, ...builtinEndings(flow, plan, lang)];
}
