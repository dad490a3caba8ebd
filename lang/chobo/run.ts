/**
 * What `chobo run` prints: each step with its result, then the balances and holds at the end,
 * once per possible outcome (docs/design/chobo.md#together), in English or Japanese; columns are
 * aligned by display width, amounts written in their units' scale (lang/chobo/words.ts). A scenario
 * with more than one outcome starts with its endings: the distinct balances its outcomes end with.
 * Also the JSON form for programs, with amounts as integers of the smallest unit. Both come in parts
 * of at most one outcome, so that what a run prints never has to be one string.
 * @module
 */

import { stringifyJson } from "../common/json.ts";
import { type Lang, tr } from "../common/text.ts";
import { displayWidth, padEnd } from "../common/width.ts";
import { lookup } from "../common/assert.ts";
import { accountText, type Call, callArgs, type HoldState, holdText, type Outcome } from "./interp.ts";
import type { Book } from "./model.ts";
import type { Branch, Scenario, StepResult } from "./scenario.ts";
import { balanceText, callText, outcomeText } from "./words.ts";

const STATE: Record<HoldState, { en: string; ja: string }> = {
  held: tr("held", "押さえ中"),
  posted: tr("posted", "確定"),
  voided: tr("voided", "取消"),
  expired: tr("expired", "期限切れ"),
};

/** The widest of `texts` in display width, 0 for none (a loop: a run may have more rows than a call takes arguments). */
function widest(texts: Iterable<string>): number {
  let width = 0;
  for (const t of texts) width = Math.max(width, displayWidth(t));
  return width;
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
  const width = widest(rows.map(([a]) => a));
  return rows.map(([a, b]) => b === "" ? a : `${padEnd(a, width)}  ${b}`);
}

function table(rows: readonly [string, string][], indent: number): string[] {
  const width = widest(rows.map(([a]) => a));
  return rows.map(([a, b]) => `${" ".repeat(indent)}${padEnd(a, width)}  ${b}`);
}

/** The balances at the end of an outcome, as a table: what its ending is. */
function balanceLines(book: Book, b: Branch, indent: number, lang: Lang): string[] {
  const scales = new Map(book.accounts.map((a) => [a.name, a.unit.scale]));
  const scale = (kind: string) => lookup(scales, kind, "account kind's scale");
  const rows = b.ledger.accounts().map((a): [string, string] => [
    accountText(a.id),
    balanceText(a.balance, scale(a.id.account), lang),
  ]);
  return table(rows, indent);
}

function endLines(book: Book, b: Branch, indent: number, lang: Lang): string[] {
  const balances = balanceLines(book, b, indent + 2, lang);
  const holds = b.ledger.holds();
  return [
    ...(balances.length === 0 ? [] : [`${" ".repeat(indent)}${tr("accounts:", "勘定:")[lang]}`, ...balances]),
    ...(holds.length === 0 ? [] : [
      `${" ".repeat(indent)}${tr("holds:", "仮押さえ:")[lang]}`,
      ...table(holds.map((h) => [holdText(h), STATE[h.state][lang]]), indent + 2),
    ]),
  ];
}

/** `1–3, 5` / `1–3、5`: numbers from 1, runs of three or more as ranges. */
function numbersText(numbers: readonly number[], lang: Lang): string {
  const parts: string[] = [];
  for (let i = 0; i < numbers.length;) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j] + 1) j++;
    if (j - i >= 2) parts.push(`${numbers[i]}–${numbers[j]}`);
    else parts.push(...numbers.slice(i, j + 1).map(String));
    i = j + 1;
  }
  return parts.join(lang === "ja" ? "、" : ", ");
}

/**
 * The summary before the outcomes of a scenario with more than one: its endings (the distinct
 * balances the outcomes end with), each with the outcomes that end so.
 */
function endings(book: Book, branches: readonly Branch[], lang: Lang): { count: number; lines: string[] } {
  const found = new Map<string, { lines: string[]; outcomes: number[] }>();
  branches.forEach((b, i) => {
    const lines = balanceLines(book, b, 2, lang);
    const key = lines.join("\n");
    const ending = found.get(key) ?? { lines, outcomes: [] };
    ending.outcomes.push(i + 1);
    found.set(key, ending);
  });
  const lines = [...found.values()].flatMap((e, i) => {
    const outcomes = numbersText(e.outcomes, lang);
    const many = e.outcomes.length > 1;
    return [
      tr(
        `ending ${i + 1} (outcome${many ? "s" : ""} ${outcomes}):`,
        `終わり方 ${i + 1}(結果 ${outcomes}):`,
      )[lang],
      ...e.lines,
    ];
  });
  return { count: found.size, lines };
}

/** The scenario's title in `lang`: its Japanese title for Japanese, as `chobo doc` shows it. */
function titleOf(s: Scenario, lang: Lang): string {
  return lang === "ja" ? s.titleJa ?? s.name : s.name;
}

/**
 * The text of one scenario's run in parts, each ending in a newline: the heading, then, for more
 * than one outcome, the endings and each outcome's steps, balances and holds, one part each.
 */
export function* runTextParts(
  file: string,
  book: Book,
  s: Scenario,
  branches: readonly Branch[],
  lang: Lang,
): Generator<string> {
  const lines = (xs: readonly string[]) => xs.map((x) => `${x}\n`).join("");
  const n = s.steps.length;
  const steps = tr(`${n} step${n === 1 ? "" : "s"}`, `${n} ステップ`)[lang];
  const heading = `${file} (${titleOf(s, lang)}): ${steps}`;
  if (branches.length === 1) {
    yield lines([heading, ...stepLines(branches[0].steps, 2, lang), ...endLines(book, branches[0], 0, lang)]);
    return;
  }
  const { count, lines: endingLines } = endings(book, branches, lang);
  const outcomes = tr(
    `, ${branches.length} possible outcomes, ${count} ending${count === 1 ? "" : "s"}`,
    `、とりうる結果は ${branches.length} 通り、終わり方は ${count} 通り`,
  )[lang];
  yield lines([`${heading}${outcomes}`, ...endingLines]);
  for (const [i, b] of branches.entries()) {
    yield lines([
      `${tr("outcome", "結果")[lang]} ${i + 1}:`,
      ...stepLines(b.steps, 4, lang),
      ...endLines(book, b, 2, lang),
    ]);
  }
}

/** The text of one scenario's run: `runTextParts` in one string. */
export function runText(
  file: string,
  book: Book,
  s: Scenario,
  branches: readonly Branch[],
  lang: Lang,
): string {
  return [...runTextParts(file, book, s, branches, lang)].join("");
}

/** One scenario and its outcomes, as `chobo run` prints them. */
export interface ScenarioRun {
  readonly s: Scenario;
  readonly branches: readonly Branch[];
}

/**
 * What `chobo run` prints for every scenario of a file, in parts of at most one outcome each, so
 * that no text holds every outcome of every scenario: scenarios are separated by an empty line.
 * `runs` may run each scenario as it is asked for the next.
 */
export function* runsTextParts(
  file: string,
  book: Book,
  runs: Iterable<ScenarioRun>,
  lang: Lang,
): Generator<string> {
  let first = true;
  for (const { s, branches } of runs) {
    if (!first) yield "\n";
    first = false;
    yield* runTextParts(file, book, s, branches, lang);
  }
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

function outcomeJson(b: Branch): Record<string, unknown> {
  return {
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
  };
}

/** The JSON of one scenario's run (amounts as exact integers; write it with `stringifyJson`). */
export function runJson(s: Scenario, branches: readonly Branch[]): Record<string, unknown> {
  return { scenario: s.name, tenant: s.tenant, outcomes: branches.map(outcomeJson) };
}

/** `value` as `stringifyJson(value, 2)` writes it `depth` levels deep. */
function nested(value: unknown, depth: number): string {
  return stringifyJson(value, 2).replaceAll("\n", `\n${"  ".repeat(depth)}`);
}

/**
 * `{"file", "runs": [runJson, …]}` in parts of at most one outcome each, the same text as
 * `stringifyJson` with an indent of 2 and a newline: what `chobo run --format json` prints.
 * `runs` may run each scenario as it is asked for the next.
 */
export function* runsJsonParts(file: string, runs: Iterable<ScenarioRun>): Generator<string> {
  let first = true;
  for (const { s, branches } of runs) {
    const head = first ? `{\n  "file": ${stringifyJson(file)},\n  "runs": [` : ",";
    yield `${head}\n    {\n      "scenario": ${stringifyJson(s.name)},\n      "tenant": ${
      stringifyJson(s.tenant)
    },\n      "outcomes": [`;
    first = false;
    for (const [i, b] of branches.entries()) {
      yield `${i === 0 ? "" : ","}\n        ${nested(outcomeJson(b), 4)}`;
    }
    yield "\n      ]\n    }";
  }
  yield first ? `{\n  "file": ${stringifyJson(file)},\n  "runs": []\n}\n` : "\n  ]\n}\n";
}
