/**
 * `chobo doc` (docs/design/chobo.md#the-page): the page accountants and operators read to approve a book —
 * its accounts, the flow between them, every transfer's refusals with the operations that reach them,
 * and every generated scenario stepped through with balances. `buildPage` gathers it (every number
 * in its unit's scale); `pageMarkdown` writes it with Mermaid charts; `draw.ts` writes the HTML.
 * @module
 */

import { findOne, lookup } from "../common/assert.ts";
import { type Diagnostic, renderDiagnostic } from "../common/diagnostic.ts";
import { escapeHtml, fenced, inline } from "../common/markdown.ts";
import { visible } from "../common/visible.ts";
import { type Lang, tr } from "../common/text.ts";
import { VERSION } from "../common/version.ts";
import { holdTable } from "./holds.ts";
import { accountText, holdText, Ledger, type Outcome } from "./interp.ts";
import type { Account, Book, Move, Transfer, Unit } from "./model.ts";
import type { Page, PageAccount, PageBalance, PageFlow, PageStep, PageTransfer, WordKey } from "./page.ts";
import { type OpRefusals, refusalsOf } from "./refusals.ts";
import type { BuiltinReason } from "./resolve.ts";
import { keyLine } from "./report.ts";
import { type Branch, runScenario, type Scenario } from "./scenario.ts";
import { generateScenarios } from "./scenarios.ts";
import { play } from "./search.ts";
import { callText, operationLines, outcomeText, quantityText } from "./words.ts";

const WORDS: Record<WordKey, [string, string]> = {
  accounts: ["Accounts", "勘定"],
  flow: ["Flow between accounts", "勘定のあいだの流れ"],
  transfers: ["Transfers", "振替"],
  scenarios: ["Scenarios", "シナリオ"],
  warnings: ["Warnings of the check", "検査の警告"],
  name: ["name", "名前"],
  split_by: ["split by", "分け方"],
  unit: ["unit", "単位"],
  bounds: ["bounds (refused as)", "境界(拒否の理由)"],
  outside: ["outside", "外の勘定"],
  description: ["description", "説明"],
  moves: ["Moves", "移動"],
  key: ["Key", "キー"],
  hold_ends: ["How the hold ends", "仮押さえの終わり方"],
  lifecycle: ["Lifecycle", "ライフサイクル"],
  state: ["state", "状態"],
  refusals: ["May be refused", "拒否されうる理由"],
  operation: ["operation", "操作"],
  reason: ["reason", "理由"],
  meaning: ["meaning", "意味"],
  operations_that_get_there: ["the operations that get there", "そうなる例"],
  step: ["step", "ステップ"],
  call: ["call", "呼び出し"],
  result: ["result", "結果"],
  balances: ["balances", "残高"],
  holds: ["holds", "仮押さえ"],
  posted: ["posted", "確定"],
  outcome: ["outcome", "結果"],
  previous: ["previous", "前へ"],
  next: ["next", "次へ"],
  scenario: ["scenario", "シナリオ"],
  hand_written: ["Written by hand", "手で書いたシナリオ"],
  generated: ["Generated", "生成したシナリオ"],
};

const STATES: Record<string, [string, string]> = {
  held: ["held", "押さえ中"],
  posted: ["posted", "確定"],
  voided: ["voided", "取消"],
  expired: ["expired", "期限切れ"],
};

function say(pair: [string, string], lang: Lang): string {
  return lang === "ja" ? pair[1] : pair[0];
}

function unitText(u: Unit): string {
  return u.tax === null ? u.name : `${u.name} ${u.tax}`;
}

function boundsOf(a: Account, lang: Lang): string[] {
  const open = lang === "ja" ? "(" : " (";
  const close = lang === "ja" ? ")" : ")";
  const out: string[] = [];
  if (a.lower !== null) {
    out.push(`at least ${quantityText(a.lower.value, a.unit.scale)}${open}${a.lower.reason}${close}`);
  }
  if (a.upper !== null) {
    out.push(`at most ${quantityText(a.upper.value, a.unit.scale)}${open}${a.upper.reason}${close}`);
  }
  return out;
}

function amountWord(m: Move): string {
  return m.amount.kind === "param" ? m.amount.param : quantityText(m.amount.value, m.unit.scale);
}

function moveText(m: Move): string {
  const ref = (r: Move["from"]) =>
    r.args.length === 0 ? r.account.name : `${r.account.name}(${r.args.join(", ")})`;
  return `move ${amountWord(m)} from ${ref(m.from)} to ${ref(m.to)}`;
}

function flows(book: Book, lang: Lang): PageFlow[] {
  const id = (a: Account) => `a${book.accounts.indexOf(a)}`;
  return book.transfers.flatMap((t) =>
    t.moves.map((m) => ({
      from: id(m.from.account),
      to: id(m.to.account),
      transfer: t.name,
      label: t.moves.length === 1
        ? t.name
        : lang === "ja"
        ? `${t.name}(${amountWord(m)})`
        : `${t.name} (${amountWord(m)})`,
      pending: t.pending !== null,
    }))
  );
}

function duration(seconds: bigint, lang: Lang): string {
  const units: [bigint, string, string][] = [[86400n, "days", "日"], [3600n, "hours", "時間"], [
    60n,
    "minutes",
    "分",
  ]];
  const found = units.find(([u]) => seconds % u === 0n);
  if (found === undefined) return lang === "ja" ? `${seconds} 秒` : `${seconds} seconds`;
  return lang === "ja" ? `${seconds / found[0]} ${found[2]}` : `${seconds / found[0]} ${found[1]}`;
}

function ending(t: Transfer, lang: Lang): string | null {
  if (t.pending === null) return null;
  if (t.pending.expires === "never") {
    return tr(
      "never expires: only post or void ends the hold",
      "有効期限は無い。確定か取消でだけ終わる",
    )[lang];
  }
  const d = duration(t.pending.seconds, lang);
  return tr(
    `expires after ${d}: from then on post and void are refused with expired, and the held amounts go back`,
    `${d} で期限切れになる。それからは確定も取消も expired で拒否され、押さえた量は元に戻る`,
  )[lang];
}

function lifecycle(t: Transfer, lang: Lang): PageTransfer["lifecycle"] {
  if (t.pending === null) return null;
  const rows = holdTable(t.pending.expires === "after");
  const cell = (state: string, event: string) => {
    const r = findOne(rows, (x) => x.state === state && x.event === event, `hold row ${state} × ${event}`);
    if (r.next !== null) return `→ ${say(STATES[r.next], lang)}`;
    if (r.refused === null) return "done_before";
    return r.sameContent === null ? r.refused : `done_before / ${r.refused}`;
  };
  const states = t.pending.expires === "after"
    ? ["held", "posted", "voided", "expired"]
    : ["held", "posted", "voided"];
  return states.map((s) => [say(STATES[s], lang), cell(s, "post"), cell(s, "void")] as const);
}

/** The Mermaid `stateDiagram-v2` of a hold's lifecycle. */
export function stateDiagram(t: Transfer, lang: Lang): string | null {
  if (t.pending === null) return null;
  const expires = t.pending.expires === "after";
  const states = expires ? ["held", "posted", "voided", "expired"] : ["held", "posted", "voided"];
  const lines = ["stateDiagram-v2"];
  for (const s of states) lines.push(`    state "${say(STATES[s], lang)}" as ${s}`);
  lines.push("    [*] --> held: hold", "    held --> posted: post", "    held --> voided: void");
  if (expires) lines.push("    held --> expired: expire");
  for (const s of states.slice(1)) lines.push(`    ${s} --> [*]`);
  return lines.join("\n");
}

function meaning(r: OpRefusals["refusals"][number], lang: Lang): string {
  if (r.bound !== null) {
    const a = r.bound.account;
    const v = quantityText(r.bound.bound.value, a.unit.scale);
    return r.bound.side === "lower"
      ? tr(
        `a move would take ${a.name} below at least ${v}`,
        `移動が ${a.name} を下限 ${v} より下にする`,
      )[lang]
      : tr(
        `a move would put ${a.name} above at most ${v}`,
        `移動が ${a.name} を上限 ${v} より上にする`,
      )[lang];
  }
  const texts: Record<BuiltinReason, [string, string]> = {
    key_conflict: ["the same key was used with other content", "同じキーで中身が違う"],
    already_refused: ["the key was refused by a bound before", "そのキーは前に境界で拒否された"],
    same_account: ["a move's source and target are the same account", "移動の元と先が同じ勘定"],
    no_such_hold: ["no hold has this key", "そのキーの仮押さえが無い"],
    already_posted: ["the hold was posted", "仮押さえは確定済み"],
    already_voided: ["the hold was voided", "仮押さえは取消済み"],
    expired: ["the hold expired", "仮押さえは期限切れ"],
    over_hold: ["more than was held", "押さえた額を超える"],
  };
  return say(texts[r.reason], lang);
}

function transfers(book: Book, report: readonly OpRefusals[], lang: Lang): PageTransfer[] {
  return book.transfers.map((t) => ({
    name: t.name,
    description: shown(t.description),
    moves: t.moves.map((m) => t.moves.length === 1 ? moveText(m) : `${m.index}. ${moveText(m)}`),
    key: keyLine(t, lang).replace(/^(key|キー): /, ""),
    ending: ending(t, lang),
    lifecycle: lifecycle(t, lang),
    stateDiagram: stateDiagram(t, lang),
    operations: report.filter((r) => r.transfer === t).map((r) => ({
      op: r.op,
      refusals: r.refusals.map((x) => ({
        reason: x.reason,
        meaning: meaning(x, lang),
        example: operationLines(play(book, x.example)).map((line) => line[lang]),
      })),
    })),
  }));
}

/** Replays one outcome step by step, with the balances and holds after each step. */
function trace(book: Book, b: Branch, lang: Lang): PageStep[] {
  const ledger = Ledger.empty(book.accounts.map((a) => a.name));
  const units = new Map(book.accounts.map((a) => [a.name, a.unit.scale]));
  let before = new Map<string, string>();
  let beforeHolds = new Map<string, string>();
  return b.steps.map((step) => {
    let label: string;
    let result: string;
    let refused = false;
    let called: string[] = [];
    if (step.kind === "call") {
      ledger.apply(step.call);
      label = callText(step.call);
      result = outcomeText(step.outcome, lang);
      refused = step.outcome.kind === "refused";
      called = [step.call.transfer.name];
    } else if (step.kind === "pass") {
      const expired = ledger.pass(step.seconds);
      label = `pass ${step.text}`;
      result = expired.map((h) => `${holdText(h)} ${say(STATES.expired, lang)}`).join(", ");
    } else {
      const next = step.callers.map(() => 0);
      const outcomes: Outcome[][] = step.callers.map(() => []);
      for (const c of step.order) {
        const r = step.callers[c][next[c]++];
        ledger.apply(r.call);
        outcomes[c].push(r.outcome);
      }
      const who = (i: number) => tr(`caller ${i + 1}`, `呼び出し元 ${i + 1}`)[lang];
      label = [
        "together",
        ...step.callers.map((c, i) => `${who(i)}: ${c.map((r) => callText(r.call)).join("; ")}`),
      ].join("\n");
      result = step.callers.map((c, i) =>
        `${who(i)}: ${c.map((r) => outcomeText(r.outcome, lang)).join("; ")}`
      ).join("\n");
      refused = step.callers.some((c) => c.some((r) => r.outcome.kind === "refused"));
      called = [...new Set(step.callers.flatMap((c) => c.map((r) => r.call.transfer.name)))];
    }
    const balances: PageBalance[] = ledger.accounts().map((a) => {
      const scale = lookup(units, a.id.account, "account kind's scale");
      const held = [
        a.balance.heldOut === 0n
          ? ""
          : `${tr("held out", "出ていく仮押さえ")[lang]} ${quantityText(a.balance.heldOut, scale)}`,
        a.balance.heldIn === 0n
          ? ""
          : `${tr("held in", "入ってくる仮押さえ")[lang]} ${quantityText(a.balance.heldIn, scale)}`,
      ].filter((x) => x !== "").join(lang === "ja" ? "、" : ", ");
      return {
        account: accountText(a.id),
        posted: quantityText(a.balance.posted, scale),
        held,
        changed: false,
      };
    }).map((x, i) => {
      // An account a step names for the first time was zero before it.
      const zero = `${
        quantityText(0n, lookup(units, ledger.accounts()[i].id.account, "account kind's scale"))
      }|`;
      return { ...x, changed: (before.get(x.account) ?? zero) !== `${x.posted}|${x.held}` };
    });
    before = new Map(balances.map((x) => [x.account, `${x.posted}|${x.held}`]));
    const holds = ledger.holds().map((h) => {
      const state = say(STATES[h.state], lang);
      return { hold: holdText(h), state, changed: beforeHolds.get(holdText(h)) !== state };
    });
    beforeHolds = new Map(holds.map((h) => [h.hold, h.state]));
    return { label, result, refused, transfers: called, balances, holds };
  });
}

/** Everything the page of a book shows, in one language. */
export function buildPage(
  book: Book,
  warnings: readonly Diagnostic[],
  lang: Lang,
  handWritten: readonly Scenario[] = [],
): Page {
  const accounts: PageAccount[] = book.accounts.map((a, i) => ({
    id: `a${i}`,
    name: a.name,
    params: a.params,
    unit: unitText(a.unit),
    outside: a.outside,
    bounds: boundsOf(a, lang),
    description: shown(a.description),
  }));
  const scenarios = [
    ...handWritten.map((s) => [s, true] as const),
    ...generateScenarios(book).map((s) => [s, false] as const),
  ].map(([s, byHand]) => ({
    name: s.name,
    title: lang === "ja" ? s.titleJa ?? s.name : s.name,
    handWritten: byHand,
    outcomes: runScenario(book, s).map((b) => trace(book, b, lang)),
  }));
  const words = Object.fromEntries(Object.entries(WORDS).map(([k, v]) => [k, say(v, lang)])) as Record<
    WordKey,
    string
  >;
  return {
    lang,
    title: `${book.name} v${book.version}`,
    description: shown(book.description),
    intro: [
      tr(
        "A balance is what came in minus what went out. An account inside the book keeps within its bounds: a transfer that would break a bound is refused with the bound's name, and then nothing moves. Outside accounts stand for the world outside and have no bounds.",
        "残高は、入った量から出た量を引いたもの。帳簿の中の勘定は境界を守る。境界を割る振替は境界の名前で拒否され、そのときは何も動かない。外の勘定は外の世界を表し、境界を持たない。",
      )[lang],
      tr(
        "Operations: do moves at once. hold holds the amounts; post moves them (in full, or part of them), void gives them back, and a hold with an expiry gives them back when it expires.",
        "操作: do はすぐに動かす。hold は量を押さえる。post で動かし(全額か一部)、void で元に戻す。有効期限のある仮押さえは、期限が切れると元に戻る。",
      )[lang],
    ],
    words,
    accounts,
    flows: flows(book, lang),
    transfers: transfers(book, refusalsOf(book), lang),
    warnings: warnings.filter((d) => d.severity === "warning").map((d) => visible(renderDiagnostic(d, lang))),
    scenarios,
    generator: `chobo ${VERSION}`,
  };
}

/** The Mermaid `flowchart LR` of the flow between accounts. */
export function flowchart(page: Page): string {
  const lines = ["flowchart LR"];
  for (const a of page.accounts) {
    const name = a.params.length === 0 ? a.name : `${a.name}(${a.params.join(", ")})`;
    lines.push(
      a.outside
        ? `    ${a.id}(["${name}<br>${a.unit} · ${page.words.outside}"])`
        : `    ${a.id}["${[name, a.unit, ...a.bounds].join("<br>")}"]`,
    );
  }
  for (const f of page.flows) lines.push(`    ${f.from} ${f.pending ? "-.->" : "-->"}|"${f.label}"| ${f.to}`);
  return lines.join("\n");
}

function cell(s: string): string {
  return s.replaceAll("|", "\\|").replaceAll("\n", "<br>");
}

function table(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [
    `| ${head.map(cell).join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ];
}

/** The Markdown page: headings, tables, Mermaid charts, one `<details>` per scenario. */
export function pageMarkdown(page: Page): string {
  const w = page.words;
  const out: string[] = [`# ${page.title}`, ""];
  if (page.description !== null) out.push(inline(page.description), "");
  for (const p of page.intro) out.push(p, "");
  out.push(`## ${w.accounts}`, "");
  out.push(
    ...table(
      [w.name, w.split_by, w.unit, w.bounds, w.description],
      page.accounts.map((
        a,
      ) => [
        a.name,
        a.params.join(", "),
        a.unit,
        a.outside ? w.outside : a.bounds.join("; "),
        inline(a.description ?? ""),
      ]),
    ),
    "",
  );
  out.push(`## ${w.flow}`, "", "```mermaid", flowchart(page), "```", "");
  out.push(`## ${w.transfers}`, "");
  for (const t of page.transfers) {
    out.push(`### ${t.name}`, "");
    if (t.description !== null) out.push(inline(t.description), "");
    out.push(`${w.moves}:`, "", "```book", ...t.moves, "```", "");
    out.push(`${w.key}: ${t.key}`, "");
    if (t.ending !== null) out.push(`${w.hold_ends}: ${t.ending}`, "");
    if (t.lifecycle !== null) out.push(...table([w.state, "post", "void"], t.lifecycle), "");
    if (t.stateDiagram !== null) out.push("```mermaid", t.stateDiagram, "```", "");
    const rows = t.operations.flatMap((o) =>
      o.refusals.map((r) => [`${t.name}.${o.op}`, r.reason, r.meaning])
    );
    if (rows.length > 0) {
      out.push(`${w.refusals}:`, "", ...table([w.operation, w.reason, w.meaning], rows), "");
      for (const o of t.operations) {
        for (const r of o.refusals) {
          out.push(
            "<details>",
            `<summary>${
              escapeHtml(`${t.name}.${o.op} ${r.reason}`)
            }: ${w.operations_that_get_there}</summary>`,
            "",
            ...fenced("text", r.example),
            "",
            "</details>",
            "",
          );
        }
      }
    }
  }
  if (page.warnings.length > 0) {
    out.push(
      `## ${w.warnings}`,
      "",
      ...fenced("text", page.warnings.map((x) => x.trimEnd())),
      "",
    );
  }
  out.push(`## ${w.scenarios}`, "");
  const grouped = page.scenarios.some((s) => s.handWritten);
  page.scenarios.forEach((s, i) => {
    if (grouped && (i === 0 || s.handWritten !== page.scenarios[i - 1].handWritten)) {
      out.push(`### ${s.handWritten ? w.hand_written : w.generated}`, "");
    }
    out.push("<details>", `<summary>${escapeHtml(s.title)}</summary>`, "");
    s.outcomes.forEach((steps, i) => {
      if (s.outcomes.length > 1) out.push(`${w.outcome} ${i + 1}:`, "");
      const accounts = steps[steps.length - 1]?.balances.map((b) => b.account) ?? [];
      const rows = steps.map((st, n) => {
        const byAccount = new Map(
          st.balances.map((b) => [b.account, b.held === "" ? b.posted : `${b.posted} (${b.held})`]),
        );
        return [String(n + 1), st.label, st.result, ...accounts.map((a) => byAccount.get(a) ?? "0")];
      });
      out.push(...table([w.step, w.call, w.result, ...accounts], rows), "");
    });
    out.push("</details>", "");
  });
  return out.join("\n");
}

/** A book's text as a page shows it: every character that would act instead of show, escaped. */
function shown(s: string | null): string | null {
  return s === null ? null : visible(s);
}
