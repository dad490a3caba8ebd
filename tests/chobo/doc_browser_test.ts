/// <reference lib="dom" />
/// <reference lib="deno.ns" />
/**
 * The HTML page of `chobo doc` (docs/design/chobo.md#the-page) in headless Chromium: it loads nothing, logs
 * no error, fits 360 px, draws every move as an arrow without boxes or labels overlapping, and its
 * stepper moves with the buttons, the arrow keys and the step list, keeps the choice in the URL
 * hash, lights the called transfers' arrows (refused ones in their own style) and marks what
 * changed. Mermaid renders the Markdown page's charts. Screenshots are taken when RITSU_SCREENSHOTS names a directory (tests/support/pages.ts).
 */

import { deepStrictEqual, notStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { checkBook } from "../../lang/chobo/check.ts";
import { readScenarios, type Scenario } from "../../lang/chobo/scenario.ts";
import { buildPage, flowchart } from "../../lang/chobo/doc.ts";
import { pageHtml } from "../../lang/chobo/draw.ts";
import type { Page, PageBalance, PageStep, WordKey } from "../../lang/chobo/page.ts";
import {
  type Browser,
  chromiumInstalled,
  launchChromium,
  type Tab,
  validateMermaid,
  VERSIONS,
} from "../support/mermaid.ts";
import { close, open, screenshot, screenshotsDir, screenshotsLine } from "../support/pages.ts";

const WORDS_EN: Record<WordKey, string> = {
  accounts: "Accounts",
  flow: "Flow between accounts",
  transfers: "Transfers",
  scenarios: "Scenarios",
  warnings: "Warnings of the check",
  name: "name",
  split_by: "split by",
  unit: "unit",
  bounds: "bounds (refused as)",
  outside: "outside",
  description: "description",
  moves: "Moves",
  key: "Key",
  hold_ends: "How the hold ends",
  lifecycle: "Lifecycle",
  state: "state",
  refusals: "May be refused",
  operation: "operation",
  reason: "reason",
  meaning: "meaning",
  operations_that_get_there: "the operations that get there",
  step: "step",
  call: "call",
  result: "result",
  balances: "balances",
  holds: "holds",
  posted: "posted",
  outcome: "outcome",
  previous: "previous",
  next: "next",
  scenario: "scenario",
  unreached: "Not reached within the search",
  notes: "What the search and the scenarios did not reach",
  hand_written: "Written by hand",
  generated: "Generated",
};

const WORDS_JA: Record<WordKey, string> = {
  ...WORDS_EN,
  accounts: "勘定",
  flow: "勘定のあいだの流れ",
  transfers: "振替",
  scenarios: "シナリオ",
  warnings: "検査の警告",
  name: "名前",
  outside: "外の勘定",
  step: "ステップ",
  balances: "残高",
  holds: "仮押さえ",
  posted: "確定",
  outcome: "結果",
  previous: "前へ",
  next: "次へ",
  scenario: "シナリオ",
  unreached: "探索の範囲で届かなかった理由",
  notes: "探索とシナリオが届かなかったこと",
  hand_written: "手で書いたシナリオ",
  generated: "生成したシナリオ",
};

function balance(account: string, posted: string, held = "", changed = true): PageBalance {
  return { account, posted, held, changed };
}

function step(
  label: string,
  result: string,
  transfers: string[],
  balances: PageBalance[],
  more: Partial<PageStep> = {},
): PageStep {
  return { label, result, refused: result.startsWith("refused"), transfers, balances, holds: [], ...more };
}

const RESERVE_DIAGRAM = [
  "stateDiagram-v2",
  '    state "held" as held',
  '    state "posted" as posted',
  '    state "voided" as voided',
  '    state "expired" as expired',
  "    [*] --> held: hold",
  "    held --> posted: post",
  "    held --> voided: void",
  "    held --> expired: expire",
  "    posted --> [*]",
  "    voided --> [*]",
  "    expired --> [*]",
].join("\n");

/** A small stock book: a delivery in, an order held for 30 minutes, a return back. */
const STOCKROOM: Page = {
  lang: "en",
  title: "stockroom v1",
  description: 'Stock per SKU. Text such as <b>bold</b> & "quotes" stays text.',
  intro: ["A balance is what came in minus what went out.", "Operations: do moves at once; hold holds."],
  words: WORDS_EN,
  accounts: [
    {
      id: "a0",
      name: "stock",
      params: ["sku"],
      unit: "pcs",
      outside: false,
      bounds: ["at least 0 (out_of_stock)"],
      description: "what is on the shelves",
    },
    { id: "a1", name: "suppliers", params: [], unit: "pcs", outside: true, bounds: [], description: null },
    { id: "a2", name: "customers", params: [], unit: "pcs", outside: true, bounds: [], description: null },
  ],
  flows: [
    { from: "a1", to: "a0", transfer: "receive", label: "receive", pending: false },
    { from: "a0", to: "a2", transfer: "reserve", label: "reserve", pending: true },
    { from: "a2", to: "a0", transfer: "take_back", label: "take_back", pending: false },
  ],
  transfers: [
    {
      name: "receive",
      description: null,
      moves: ["move qty from suppliers to stock(sku)"],
      key: "key: receive once per delivery, sku",
      ending: null,
      lifecycle: null,
      stateDiagram: null,
      operations: [{
        op: "do",
        refusals: [{
          reason: "key_conflict",
          meaning: "the same key was used with other content",
          example: [
            "   1  receive.do(delivery: delivery-1, sku: sku-2, qty: 1)  done",
            "   2  receive.do(delivery: delivery-1, sku: sku-2, qty: 2)  refused: key_conflict",
          ],
        }],
        unreached: [],
      }],
    },
    {
      name: "reserve",
      description: "posted when the order ships, voided when it is cancelled",
      moves: ["move qty from stock(sku) to customers"],
      key: "key: reserve once per order, sku",
      ending: "expires after 30 minutes: from then on post and void are refused with expired",
      lifecycle: [
        ["held", "→ posted", "→ voided"],
        ["posted", "done_before", "already_posted"],
        ["voided", "already_voided", "done_before"],
        ["expired", "expired", "expired"],
      ],
      stateDiagram: RESERVE_DIAGRAM,
      operations: [
        {
          op: "hold",
          refusals: [{
            reason: "out_of_stock",
            meaning: "a move would take stock below at least 0",
            example: ["   1  reserve.hold(order: order-1, sku: sku-2, qty: 1)  refused: out_of_stock"],
          }],
          unreached: [],
        },
        {
          op: "post",
          refusals: [{ reason: "no_such_hold", meaning: "no hold has this key", example: [] }],
          unreached: [{ reason: "over_hold", meaning: "more than was held" }],
        },
      ],
    },
    {
      name: "take_back",
      description: null,
      moves: ["move qty from customers to stock(sku)"],
      key: "key: take_back once per return_id, sku",
      ending: null,
      lifecycle: null,
      stateDiagram: null,
      operations: [],
    },
  ],
  warnings: [],
  notes: ["not generated: the life of a <tag> hold & more"],
  scenarios: [
    {
      name: "ship an order",
      title: "ship an order",
      handWritten: false,
      outcomes: [[
        step("receive.do(delivery: delivery-1, sku: sku-2, qty: 5)", "done", ["receive"], [
          balance("stock(sku-2)", "5"),
          balance("suppliers", "-5"),
        ]),
        step("reserve.hold(order: order-3, sku: sku-2, qty: 3)", "done", ["reserve"], [
          balance("stock(sku-2)", "5", "held out 3"),
          balance("suppliers", "-5", "", false),
          balance("customers", "0", "held in 3"),
        ], { holds: [{ hold: "reserve(order-3, sku-2)", state: "held", changed: true }] }),
        step("reserve.post(order: order-3, sku: sku-2)", "done", ["reserve"], [
          balance("stock(sku-2)", "2"),
          balance("suppliers", "-5", "", false),
          balance("customers", "3"),
        ], { holds: [{ hold: "reserve(order-3, sku-2)", state: "posted", changed: true }] }),
        step("reserve.hold(order: order-4, sku: sku-2, qty: 4)", "refused: out_of_stock", ["reserve"], [
          balance("stock(sku-2)", "2", "", false),
          balance("suppliers", "-5", "", false),
          balance("customers", "3", "", false),
        ], { holds: [{ hold: "reserve(order-3, sku-2)", state: "posted", changed: false }] }),
      ]],
    },
    {
      name: "together: two orders for the last 3",
      title: "together: two orders for the last 3",
      handWritten: false,
      outcomes: [1, 2].map((first) => [
        step("receive.do(delivery: delivery-1, sku: sku-2, qty: 3)", "done", ["receive"], [
          balance("stock(sku-2)", "3"),
          balance("suppliers", "-3"),
        ]),
        step(
          "together\ncaller 1: reserve.hold(order: order-3, sku: sku-2, qty: 3)\ncaller 2: reserve.hold(order: order-4, sku: sku-2, qty: 3)",
          `caller ${first}: done\ncaller ${3 - first}: refused: out_of_stock`,
          ["reserve"],
          [
            balance("stock(sku-2)", "3", "held out 3"),
            balance("suppliers", "-3", "", false),
            balance("customers", "0", "held in 3"),
          ],
          {
            refused: true,
            holds: [{ hold: `reserve(order-${first + 2}, sku-2)`, state: "held", changed: true }],
          },
        ),
      ]),
    },
  ],
  generator: "chobo 0.1.0",
};

/**
 * A book whose chart has every kind of arrow: a move that skips a column, a return across three
 * columns, a loop between accounts of one kind, a transfer of two moves; Japanese text and a warning.
 */
const WAREHOUSE: Page = {
  ...STOCKROOM,
  lang: "ja",
  title: "倉庫 v2",
  description: "荷受け場から棚へ。<script>alert(1)</script> は文字のまま",
  intro: ["残高は、入った量から出た量を引いたもの。"],
  words: WORDS_JA,
  accounts: [
    { id: "a0", name: "仕入先", params: [], unit: "個", outside: true, bounds: [], description: null },
    {
      id: "a1",
      name: "荷受け場",
      params: ["倉庫"],
      unit: "個",
      outside: false,
      bounds: ["at least 0(荷受け不足)"],
      description: null,
    },
    {
      id: "a2",
      name: "在庫",
      params: ["倉庫", "品番"],
      unit: "個",
      outside: false,
      bounds: ["at least 0(在庫切れ)", "at most 1000(置き場不足)"],
      description: "棚にあるもの",
    },
    { id: "a3", name: "お客様", params: [], unit: "個", outside: true, bounds: [], description: null },
  ],
  flows: [
    { from: "a0", to: "a1", transfer: "入荷", label: "入荷", pending: false },
    { from: "a1", to: "a2", transfer: "棚入れ", label: "棚入れ(良品)", pending: false },
    { from: "a1", to: "a3", transfer: "棚入れ", label: "棚入れ(不良品)", pending: false },
    { from: "a2", to: "a3", transfer: "引当", label: "引当", pending: true },
    { from: "a0", to: "a2", transfer: "直送", label: "直送", pending: false },
    { from: "a3", to: "a0", transfer: "仕入先へ返品", label: "仕入先へ返品", pending: false },
    { from: "a2", to: "a2", transfer: "棚替え", label: "棚替え", pending: false },
    { from: "a3", to: "a2", transfer: "返品", label: "返品", pending: false },
  ],
  transfers: STOCKROOM.transfers.slice(0, 2),
  warnings: ["warning[W103]: <tag> & more\n --> 倉庫.book:3:1\n"],
  scenarios: [{
    name: "expire",
    title: "引当が期限切れになる",
    handWritten: false,
    outcomes: [[
      step("直送.do(品番: p-1, 数量: 2)", "done", ["直送"], [
        balance("在庫(東, p-1)", "2"),
        balance("仕入先", "-2"),
      ]),
      step("引当.hold(注文: o-1, 品番: p-1, 数量: 2)", "done", ["引当"], [
        balance("在庫(東, p-1)", "2", "出ていく仮押さえ 2"),
        balance("仕入先", "-2", "", false),
        balance("お客様", "0", "入ってくる仮押さえ 2"),
      ], { holds: [{ hold: "引当(o-1, p-1)", state: "押さえ中", changed: true }] }),
      step("pass 31m", "引当(o-1, p-1) 期限切れ", [], [
        balance("在庫(東, p-1)", "2"),
        balance("仕入先", "-2", "", false),
        balance("お客様", "0"),
      ], { holds: [{ hold: "引当(o-1, p-1)", state: "期限切れ", changed: true }] }),
      step("引当.hold(注文: o-2, 品番: p-1, 数量: 5)", "refused: 在庫切れ", ["引当"], [
        balance("在庫(東, p-1)", "2", "", false),
        balance("仕入先", "-2", "", false),
        balance("お客様", "0", "", false),
      ], { holds: [{ hold: "引当(o-1, p-1)", state: "期限切れ", changed: false }] }),
    ]],
  }],
};

/** The page of every example book, English and Japanese, as `chobo doc --format html` draws it. */
function examplePages(): [string, Page][] {
  return ["inventory", "points", "refunds", "marketplace"].flatMap((name) =>
    (["en", "ja"] as const).map((lang): [string, Page] => {
      const path = `examples/${name}/${name}${lang === "ja" ? ".ja" : ""}.book`;
      const checked = checkBook(path, Deno.readTextFileSync(path));
      let more: Scenario[] = [];
      try {
        more = readScenarios(checked.book!, Deno.readTextFileSync(path.replace(/\.book$/, ".more.json")));
      } catch (e) {
        if (!(e instanceof Deno.errors.NotFound)) throw e;
      }
      return [`${name}.${lang}`, buildPage(checked.book!, checked.diagnostics, lang, more)];
    })
  );
}

const PAGES: readonly [string, Page][] = [
  ["stockroom", STOCKROOM],
  ["warehouse", WAREHOUSE],
  ...examplePages(),
];

Deno.test("chobo doc html: the same page gives the same bytes, and every text stays text", () => {
  for (const [, page] of PAGES) {
    const html = pageHtml(page);
    strictEqual(pageHtml(structuredClone(page)), html);
    ok(html.includes(`<meta name="generator" content="chobo 0.1.0">`));
    ok(html.includes(`<html lang="${page.lang}">`));
    ok(!/<(link|img|iframe)\b|\bsrc=|\bhref="(?!#)|url\(/i.test(html), "nothing is loaded from outside");
    ok(!html.includes("<b>") && !html.includes("<script>alert") && !html.includes("<tag>"));
    // What the search did not reach is on the page too, as text.
    const text = (s: string) =>
      s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;")
        .replaceAll("'", "&#39;");
    for (const note of page.notes) ok(html.includes(`<li>${text(note)}</li>`), note);
    for (const o of page.transfers.flatMap((t) => t.operations)) {
      for (const u of o.unreached) {
        ok(html.includes(`<td><code>${text(u.reason)}</code></td><td>${text(u.meaning)}</td>`), u.reason);
      }
    }
    // The embedded scenarios cannot end their script element early.
    const json = html.match(/<script type="application\/json" id="chobo-scenarios">([^<]*)<\/script>/)?.[1];
    ok(json !== undefined);
    deepStrictEqual(
      JSON.parse(json).scenarios.map((s: { title: string }) => s.title),
      page.scenarios.map((s) => s.title),
    );
  }
});

Deno.test("chobo doc html: a book where everything has a way in starts from the first outside account it takes from", () => {
  const page: Page = {
    ...STOCKROOM,
    accounts: [
      { ...STOCKROOM.accounts[0], id: "a0", name: "wallet" },
      { ...STOCKROOM.accounts[1], id: "a1", name: "bank" },
    ],
    flows: [
      { from: "a0", to: "a1", transfer: "withdraw", label: "withdraw", pending: false },
      { from: "a1", to: "a0", transfer: "deposit", label: "deposit", pending: false },
    ],
    scenarios: [],
  };
  const html = pageHtml(page);
  const x = (id: string) =>
    Number(html.match(new RegExp(`data-account="${id}">(?:<title>[^<]*</title>)?<rect x="([\\d.]+)"`))?.[1]);
  ok(x("a1") < x("a0"), "bank (outside, taken from by deposit) is left of wallet");
  ok(!html.includes('id="scenarios"'), "no stepper without scenarios");
});

function currentStep(tab: Tab): Promise<number> {
  return tab.evaluate(() =>
    [...document.querySelectorAll("#steps button")].findIndex((b) => b.hasAttribute("aria-current"))
  );
}

function hash(tab: Tab): Promise<string> {
  return tab.evaluate(() => location.hash);
}

/** The balances table as shown: account, posted, held, and whether the row carries a visible mark. */
function shownBalances(tab: Tab): Promise<{ cells: string[]; marked: boolean; changed: boolean }[]> {
  return tab.evaluate(() =>
    [...document.querySelectorAll<HTMLTableRowElement>("#balances tbody tr")].map((tr) => ({
      cells: [...tr.cells].map((td) => td.innerText.replace("●", "").trim()),
      marked: tr.innerText.includes("●"),
      changed: tr.classList.contains("changed"),
    }))
  );
}

function where(page: Page, test: (s: PageStep) => boolean): [number, number, number] | null {
  for (const [s, scenario] of page.scenarios.entries()) {
    for (const [o, steps] of scenario.outcomes.entries()) {
      const i = steps.findIndex(test);
      if (i >= 0) return [s, o, i];
    }
  }
  return null;
}

const hashOf = ([s, o, i]: [number, number, number]) => `#scenario=${s + 1}&step=${i + 1}&outcome=${o + 1}`;

async function checkChart(browser: Browser, url: string, page: Page): Promise<void> {
  const opened = await open(browser, url, 1200, "light");
  const chart = await opened.tab.evaluate(() => {
    const svg = document.querySelector<SVGSVGElement>("#flow svg")!;
    const rect = (e: Element) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    };
    return {
      arrows: [...svg.querySelectorAll(".arrow")].map((a) => ({
        transfer: a.getAttribute("data-transfer"),
        pending: a.classList.contains("pending"),
      })),
      boxes: [...svg.querySelectorAll("[data-account]")].map((b) => ({
        id: b.getAttribute("data-account")!,
        ...rect(b.querySelector("rect")!),
      })),
      labels: [...svg.querySelectorAll(".flow-label rect")].map(rect),
    };
  });
  deepStrictEqual(chart.arrows, page.flows.map((f) => ({ transfer: f.transfer, pending: f.pending })));
  type Rect = { left: number; right: number; top: number; bottom: number };
  const apart = (a: Rect, b: Rect) =>
    a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
  const things = [...chart.boxes, ...chart.labels];
  for (const [i, a] of things.entries()) {
    for (const b of things.slice(i + 1)) {
      ok(apart(a, b), `boxes and labels overlap: ${JSON.stringify([a, b])}`);
    }
  }
  if (page === STOCKROOM) {
    const left = (id: string) => chart.boxes.find((b) => b.id === id)!.left;
    ok(left("a1") < left("a0") && left("a0") < left("a2"), "suppliers | stock | customers");
  }
  await close(opened);
}

async function checkNarrow(browser: Browser, url: string, shots: string | null, name: string): Promise<void> {
  for (const scheme of ["light", "dark"] as const) {
    for (const width of [360, 1200]) {
      const opened = await open(browser, url, width, scheme);
      const { scrollWidth, svgWidth, drawnWidth } = await opened.tab.evaluate(() => {
        const svg = document.querySelector("#flow svg")!;
        return {
          scrollWidth: document.documentElement.scrollWidth,
          svgWidth: Number(svg.getAttribute("width")),
          drawnWidth: svg.getBoundingClientRect().width,
        };
      });
      ok(scrollWidth <= width, `${name} at ${width} px is ${scrollWidth} px wide`);
      ok(Math.abs(svgWidth - drawnWidth) < 1, "the chart is drawn at its natural size");
      await screenshot(opened.tab, shots, `${name}-${width}-${scheme}.png`);
      await close(opened);
    }
  }
}

async function checkStepper(browser: Browser, url: string, page: Page): Promise<void> {
  // Without a hash: the first step of the first scenario, as the data says.
  let opened = await open(browser, url, 1200, "light");
  let tab = opened.tab;
  const first = page.scenarios[0].outcomes[0];
  strictEqual(await currentStep(tab), 0);
  deepStrictEqual(
    (await shownBalances(tab)).map((r) => r.cells.slice(0, 2)),
    first[0].balances.map((b) => [b.account, b.posted]),
  );
  if (first.length >= 3) {
    await tab.click("#next");
    strictEqual(await hash(tab), "#scenario=1&step=2&outcome=1");
    strictEqual(await currentStep(tab), 1);
    await tab.keyboard.press("ArrowRight");
    strictEqual(await hash(tab), "#scenario=1&step=3&outcome=1");
    strictEqual(await currentStep(tab), 2);
    deepStrictEqual(
      (await shownBalances(tab)).map((r) => r.cells.slice(0, 2)),
      first[2].balances.map((b) => [b.account, b.posted]),
    );
    await tab.keyboard.press("ArrowLeft");
    strictEqual(await hash(tab), "#scenario=1&step=2&outcome=1");
    await tab.click("#steps li:nth-child(1) button");
    strictEqual(await hash(tab), "#scenario=1&step=1&outcome=1");
    strictEqual(await currentStep(tab), 0);
  }
  await close(opened);

  // A hash on load chooses the scenario, the outcome and the step.
  const several = page.scenarios.findIndex((s) => s.outcomes.length > 1);
  if (several >= 0) {
    const steps = page.scenarios[several].outcomes[1];
    const chosen: [number, number, number] = [several, 1, steps.length - 1];
    opened = await open(browser, url + hashOf(chosen), 360, "light");
    tab = opened.tab;
    deepStrictEqual(
      await tab.evaluate(() => [
        (document.getElementById("scenario") as HTMLSelectElement).value,
        (document.getElementById("outcome") as HTMLSelectElement).value,
        document.getElementById("outcome-choice")!.hidden,
      ]),
      [String(several), "1", false],
    );
    strictEqual(await currentStep(tab), steps.length - 1);
    strictEqual(await hash(tab), hashOf(chosen));
    await close(opened);
  }

  // The arrows of the called transfers light up; refused ones in their own style.
  const stroke = (tab: Tab, selector: string) =>
    tab.evaluate((s) => getComputedStyle(document.querySelector(`#flow ${s} .line`)!).stroke, selector);
  const done = where(page, (s) => !s.refused && s.transfers.length > 0);
  const refused = where(page, (s) => s.refused && s.transfers.length > 0);
  ok(done !== null && refused !== null, "the page has a step that is done and one that is refused");
  opened = await open(browser, url + hashOf(done), 1200, "light");
  const doneStep = page.scenarios[done[0]].outcomes[done[1]][done[2]];
  const litStroke = await stroke(opened.tab, `.arrow.lit[data-transfer="${doneStep.transfers[0]}"]`);
  strictEqual(await opened.tab.locator("#flow .arrow.lit.refused").count(), 0);
  await close(opened);
  opened = await open(browser, url + hashOf(refused), 1200, "light");
  tab = opened.tab;
  const refusedStep = page.scenarios[refused[0]].outcomes[refused[1]][refused[2]];
  const transfer = refusedStep.transfers[0];
  strictEqual(
    await tab.locator(`#flow .arrow.lit.refused[data-transfer="${transfer}"]`).count(),
    page.flows.filter((f) => f.transfer === transfer).length,
  );
  const refusedStroke = await stroke(tab, `.arrow.lit.refused[data-transfer="${transfer}"]`);
  const unlit = page.flows.find((f) => !refusedStep.transfers.includes(f.transfer));
  notStrictEqual(refusedStroke, litStroke);
  if (unlit !== undefined) {
    notStrictEqual(refusedStroke, await stroke(tab, `.arrow:not(.lit)[data-transfer="${unlit.transfer}"]`));
  }
  ok(await tab.locator(`#stepper-chart .arrow.lit.refused[data-transfer="${transfer}"]`).count() > 0);
  await close(opened);

  // Changed balances carry a class and a visible mark; the others neither.
  // (Every step of a book with two accounts changes both: its marking is then all marked.)
  const changed =
    where(page, (s) => s.balances.some((b) => b.changed) && s.balances.some((b) => !b.changed)) ??
      where(page, (s) => s.balances.some((b) => b.changed));
  ok(changed !== null, "the page has a step where a balance changes");
  opened = await open(browser, url + hashOf(changed), 360, "light");
  const expected = page.scenarios[changed[0]].outcomes[changed[1]][changed[2]].balances;
  deepStrictEqual(
    (await shownBalances(opened.tab)).map((r) => [r.cells[0], r.changed, r.marked]),
    expected.map((b) => [b.account, b.changed, b.changed]),
  );
  await close(opened);

  // At 360 px a changed value's mark stays on the line of the value it marks, also where the
  // value wraps (a held amount in a narrow column).
  const held = where(page, (s) => s.balances.some((b) => b.changed && b.held !== ""));
  if (held !== null) {
    opened = await open(browser, url + hashOf(held), 360, "light");
    const marks = await opened.tab.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("#balances td.changed .mark")].map((mark) => {
        const walker = document.createTreeWalker(mark.parentElement!, NodeFilter.SHOW_TEXT);
        let value: Text | null = null;
        for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
          if (!mark.contains(n) && n.textContent!.trim() !== "") {
            value = n as Text;
            break;
          }
        }
        const range = document.createRange();
        const start = value!.textContent!.search(/\S/);
        range.setStart(value!, start);
        range.setEnd(value!, start + 1);
        return {
          text: mark.parentElement!.textContent,
          mark: Math.round(mark.getBoundingClientRect().bottom),
          value: Math.round(range.getBoundingClientRect().bottom),
        };
      })
    );
    ok(marks.length > 0, "a changed value is marked");
    for (const m of marks) ok(Math.abs(m.mark - m.value) <= 2, `the mark of "${m.text}" is on another line`);
    await close(opened);
  }
}

Deno.test({
  name: "chobo doc html: in Chromium, and Mermaid renders the Markdown page's charts",
  // playwright-core keeps its connection's timers alive across steps.
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    if (!chromiumInstalled()) {
      console.log("SKIP: chobo: doc: chromium is not installed");
      return;
    }
    const browser = await launchChromium();
    const dir = await Deno.makeTempDir({ prefix: "chobo_doc_" });
    const shots = await screenshotsDir("chobo_doc");
    try {
      console.log(
        `chromium ${browser.version()}, playwright-core ${VERSIONS.playwrightCore}, mermaid ${VERSIONS.mermaid}`,
      );
      for (const [name, page] of PAGES) {
        const file = `${dir}/${name}.html`;
        await Deno.writeTextFile(file, pageHtml(page));
        const url = `file://${file}`;
        await t.step(
          `${name}: every move is an arrow, and nothing overlaps`,
          () => checkChart(browser, url, page),
        );
        await t.step(`${name}: fits 360 px in light and dark`, () => checkNarrow(browser, url, shots, name));
        await t.step(`${name}: the stepper`, () => checkStepper(browser, url, page));
        await t.step(`${name}: Mermaid renders the flow chart and the lifecycles`, async () => {
          const texts = [flowchart(page), ...page.transfers.flatMap((x) => x.stateDiagram ?? [])];
          ok(texts.some((x) => x.startsWith("stateDiagram-v2")) && texts[0].startsWith("flowchart LR"));
          for (const svg of await validateMermaid(texts, browser)) ok(svg.startsWith("<svg"));
        });
      }
      await t.step("Mermaid refuses text that is not Mermaid", async () => {
        await rejects(validateMermaid(["flowchart LR\n    a0 -->|"], browser), /Mermaid refused/);
      });
    } finally {
      await browser.close();
    }
    console.log(screenshotsLine("chobo doc", shots));
  },
});
