/**
 * The library API: everything a program needs to embed chobo or dandori.
 *
 * @example
 * ```ts
 * import { checkBook, renderDiagnostic } from "./mod.ts";
 * const { diagnostics, book } = checkBook("stock.book", Deno.readTextFileSync("stock.book"));
 * for (const d of diagnostics) console.log(renderDiagnostic(d, "en"));
 * ```
 * @module
 */

export {
  type Diagnostic,
  diagnosticJson,
  hasErrors,
  renderDiagnostic,
  type Severity,
} from "./lang/common/diagnostic.ts";
export { chooseLang, type Lang, type Text, tr } from "./lang/common/text.ts";
export { VERSION } from "./lang/common/version.ts";
export { checkBook, checkBookBytes, type CheckResult } from "./lang/chobo/check.ts";
export { type CodeInfo, CODES } from "./lang/chobo/codes.ts";
export { explainAllMarkdown, explainText, findCode } from "./lang/chobo/explain.ts";
export { KEYWORDS } from "./lang/chobo/syntax.ts";
export {
  type AccountBalance,
  type AccountId,
  type Balance,
  type Call,
  type Hold,
  type HoldState,
  Ledger,
  type OpName,
  type Outcome,
} from "./lang/chobo/interp.ts";
export {
  type Branch,
  MAX_OUTCOME_STEPS,
  MAX_OUTCOMES,
  MAX_TOGETHER_OPS,
  readScenarios,
  runScenario,
  type Scenario,
  ScenarioError,
  scenarioJson,
} from "./lang/chobo/scenario.ts";
export { generateScenarios } from "./lang/chobo/scenarios.ts";
export { runJson, runsJsonParts, runsTextParts, runText, type ScenarioRun } from "./lang/chobo/run.ts";
export { type OpRefusals, type Refusal, refusalsOf } from "./lang/chobo/refusals.ts";
export { BUILTIN_REASONS, type BuiltinReason } from "./lang/chobo/resolve.ts";
export { apiJson } from "./lang/chobo/api.ts";
export { holdTable } from "./lang/chobo/holds.ts";
export { quantityText } from "./lang/chobo/words.ts";
export { parseJson, stringifyJson } from "./lang/common/json.ts";
export type {
  Account,
  AccountRef,
  Book,
  Bound,
  Move,
  Param,
  Pending,
  Transfer,
  Unit,
} from "./lang/chobo/model.ts";
export { MAX_AMOUNT, MAX_EXPIRY_SECONDS } from "./lang/chobo/model.ts";
export { build, CHOBO_TARGETS, type ChoboTargetName, TARGET_NAMES } from "./targets/chobo/targets.ts";
export type { BuildResult, ChoboTarget, Origin } from "./targets/chobo/target.ts";
export { targetsJson } from "./targets/chobo/api.ts";
export { buildPage, pageMarkdown } from "./lang/chobo/doc.ts";
export { pageHtml } from "./lang/chobo/draw.ts";
export type { Page } from "./lang/chobo/page.ts";
export { type CheckEnv, checkFlow, checkFlowBytes, type FlowCheck } from "./lang/dandori/check.ts";
export { parseFlow } from "./lang/dandori/syntax.ts";
export { type FileRead, NO_SUCH_FILE } from "./lang/dandori/env.ts";
export { lower as lowerFlow } from "./lang/dandori/lower.ts";
export type { Plan as FlowPlan } from "./lang/dandori/plan.ts";
export {
  type Answers,
  type Run as FlowRun,
  runFlow,
  ScenarioError as FlowScenarioError,
} from "./lang/dandori/interp.ts";
export { type FlowScenario, readFlowScenarios, ScenarioAnswers } from "./lang/dandori/scenario.ts";
export { runText as flowRunText } from "./lang/dandori/run.ts";
export { BooksComputed } from "./lang/dandori/computed.ts";
export { timestampMs } from "./lang/dandori/rules.ts";
export { CODES as DANDORI_CODES } from "./lang/dandori/codes.ts";
export { buildFlowPage, flowPageMarkdown } from "./lang/dandori/doc.ts";
export { flowPageHtml } from "./lang/dandori/draw.ts";
export type { FlowPage } from "./lang/dandori/page.ts";
