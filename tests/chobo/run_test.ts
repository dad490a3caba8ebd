/**
 * `chobo run`: what it prints for books in cents (every amount in the unit's scale, pinned in
 * tests/chobo/golden/run/ in both languages, JSON in integers), amounts written as `"12.50"` in a
 * scenario file, the Japanese titles, the endings before the outcomes, the parts it prints one at a
 * time, and what holds its size: time in proportion to the steps, and the limits on outcomes
 * (docs/reference.md#limits).
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import process from "node:process";
import { checkBook } from "../../lang/chobo/check.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { runJson, runsJsonParts, runsTextParts, runText } from "../../lang/chobo/run.ts";
import {
  MAX_OUTCOME_STEPS,
  MAX_OUTCOMES,
  readScenarios,
  runScenario,
  type Scenario,
  ScenarioError,
} from "../../lang/chobo/scenario.ts";
import { stringifyJson } from "../../lang/common/json.ts";
import { assertGolden } from "../support/golden.ts";
import { runCli } from "../support/run.ts";

const RUN = "tests/chobo/fixtures/run/";
const GOLDEN = new URL("./golden/run/", import.meta.url).pathname;
const INVENTORY = "examples/inventory/inventory.book";

function load(path: string): Book {
  const book = checkBook(path, Deno.readTextFileSync(path)).book;
  ok(book !== null, `${path} has errors`);
  return book;
}

function runFiles(): string[] {
  return [...Deno.readDirSync(RUN)].map((e) => e.name).filter((n) => n.endsWith(".book")).sort();
}

Deno.test("chobo run of the books in cents, English and Japanese, text and JSON, is pinned", () => {
  const names = runFiles();
  deepStrictEqual(names, ["purse.book", "財布.book"]);
  for (const name of names) {
    const stem = name.replace(/\.book$/, "");
    const args = ["chobo", "run", RUN + name, "--scenario", `${RUN}${stem}.json`];
    for (const lang of ["en", "ja"] as const) {
      const run = runCli([...args, "--lang", lang]);
      strictEqual(run.code, 0, run.stderr);
      assertGolden(`${GOLDEN}${stem}.${lang}.txt`, run.stdout);
    }
    const json = runCli([...args, "--format", "json"]);
    strictEqual(json.code, 0, json.stderr);
    assertGolden(`${GOLDEN}${stem}.json`, json.stdout);
  }
});

Deno.test("people read amounts in the unit's scale, programs read integers of the smallest unit", () => {
  const args = ["chobo", "run", `${RUN}purse.book`, "--scenario", `${RUN}purse.json`];
  const text = runCli(args).stdout;
  ok(text.includes("top_up.do(slip: slip-1, member: member-2, amount: 12.50)"), text);
  ok(text.includes("purchase.hold(order: order-4, member: member-2, amount: 10.00)"), text);
  ok(text.includes("purse(member-2)  posted 7.25, held out 0.00, held in 0.00"), text);
  ok(!/amount: 1250\b|posted 725\b/.test(text), text);
  const json = runCli([...args, "--format", "json"]).stdout;
  ok(
    json.includes(`"amount": 1250`) && json.includes(`"amount": 1000`) && json.includes(`"posted": 725`),
    json,
  );
  ok(!json.includes("12.50,") && !json.includes(`"7.25"`), json);
});

Deno.test("an amount given as a string in the unit's scale is the same amount as its integer", () => {
  const book = load(`${RUN}purse.book`);
  const scenario = (amount: string) =>
    readScenarios(
      book,
      `{"name": "x", "steps": [{"call": "top_up.do", "args": {"slip": "s", "member": "m", "amount": ${amount}}}]}`,
    );
  const cents = stringifyJson(scenario("1250").map((s) => runJson(s, runScenario(book, s))));
  for (const written of [`"12.50"`, `"12.5"`, `"012.50"`]) {
    strictEqual(
      stringifyJson(scenario(written).map((s) => runJson(s, runScenario(book, s)))),
      cents,
      written,
    );
  }
  const [largest] = scenario(`"92233720368547758.07"`);
  const step = largest.steps[0];
  ok(step.kind === "call");
  strictEqual(step.call.amounts.get("amount"), (1n << 63n) - 1n);
});

Deno.test("an amount that is not one of the unit is one error with the scenario and step, in both languages", () => {
  const files = (amount: string) => ({
    "purse.book": Deno.readTextFileSync(`${RUN}purse.book`),
    "s.json": `[{"name": "ok", "steps": []}, {"name": "bad", "steps": [{"pass": "1 seconds"}, ` +
      `{"call": "top_up.do", "args": {"slip": "s", "member": "m", "amount": ${amount}}}]}]`,
  });
  const cases: [string, string, string][] = [
    [`"12.505"`, "12.505 has 3 decimal places and the unit has scale 2", "12.505 は小数 3 桁ですが"],
    [`"-1.00"`, "the amount -1.00 is negative", "額 -1.00 が負です"],
    [`"1e3"`, "1e3 is not a number", "1e3 は数ではありません"],
    [`""`, " is not a number", " は数ではありません"],
    [`" 12"`, " 12 is not a number", " 12 は数ではありません"],
    [`"12."`, "12. is not a number", "12. は数ではありません"],
    [`".5"`, ".5 is not a number", ".5 は数ではありません"],
    [`"92233720368547758.08"`, "outside ±(2⁶³ − 1)", "±(2⁶³ − 1) の外です"],
    [`12.5`, "amount is an amount of USD: a whole number", "amount は USD の額です。"],
    [`-1`, "amount is an amount of USD: a whole number", "amount は USD の額です。"],
    [`true`, "amount is an amount of USD: a whole number", "amount は USD の額です。"],
  ];
  for (const [amount, en, ja] of cases) {
    const run = runCli(["chobo", "run", "purse.book", "--scenario", "s.json"], { files: files(amount) });
    strictEqual(run.code, 1, amount);
    strictEqual(run.stdout, "", amount);
    ok(
      run.stderr.startsWith("chobo run: s.json: scenario 2 (bad), step 2: amount is an amount of USD"),
      run.stderr,
    );
    ok(run.stderr.includes(en), `${amount}: ${run.stderr}`);
    ok(run.stderr.includes(`such as "12.50"`), run.stderr);
    strictEqual(run.stderr.split("\n").length, 2, run.stderr);
    const inJa = runCli(["chobo", "run", "purse.book", "--scenario", "s.json", "--lang", "ja"], {
      files: files(amount),
    });
    ok(
      inJa.stderr.startsWith("chobo run: s.json: シナリオ 2(bad)のステップ 2: amount は USD の額です"),
      inJa.stderr,
    );
    ok(inJa.stderr.includes(ja), `${amount}: ${inJa.stderr}`);
    ok(inJa.stderr.includes(`"12.50" のように`), inJa.stderr);
  }
});

Deno.test("chobo run --lang ja heads a scenario with its title_ja, and with its name when it has none", () => {
  const run = runCli(["chobo", "run", `${RUN}purse.book`, "--scenario", `${RUN}purse.json`, "--lang", "ja"]);
  const headings = run.stdout.split("\n").filter((l) => l.startsWith(RUN));
  deepStrictEqual(headings.map((l) => l.slice(0, l.indexOf("):") + 1)), [
    `${RUN}purse.book (12.50 の入金、押さえて一部を確定する買い物、期限を過ぎる買い物)`,
    `${RUN}purse.book (four purchases at once after a 10.00 top-up)`,
  ]);
  const en = runCli(["chobo", "run", `${RUN}purse.book`, "--scenario", `${RUN}purse.json`]);
  ok(en.stdout.startsWith(`${RUN}purse.book (a 12.50 top-up, a purchase held`), en.stdout);
});

Deno.test("a run of many outcomes says first how many and how they end: the distinct balances, with their outcomes", () => {
  const book = load(INVENTORY);
  const callers = Array.from({ length: 6 }, (_, i) => [
    { call: "reserve.hold", args: { order: `order-${i + 3}`, sku: "sku-2", qty: 1 } },
  ]);
  const [scenario] = readScenarios(
    book,
    JSON.stringify({
      name: "six callers after the last 2",
      title_ja: "最後の 2 個に六つの呼び出し元",
      steps: [{ call: "receive.do", args: { delivery: "delivery-1", sku: "sku-2", qty: 2 } }, {
        together: callers,
      }],
    }),
  );
  const branches = runScenario(book, scenario);
  strictEqual(branches.length, 15);
  const text = runText("inventory.book", book, scenario, branches, "en").split("\n");
  deepStrictEqual(text.slice(0, 5), [
    "inventory.book (six callers after the last 2): 2 steps, 15 possible outcomes, 1 ending",
    "ending 1 (outcomes 1–15):",
    "  stock(sku-2)  posted 2, held out 2, held in 0",
    "  suppliers     posted -2, held out 0, held in 0",
    "  customers     posted 0, held out 0, held in 2",
  ]);
  strictEqual(text[5], "outcome 1:");
  strictEqual(
    runText("inventory.book", book, scenario, branches, "ja").split("\n")[0],
    "inventory.book (最後の 2 個に六つの呼び出し元): 2 ステップ、とりうる結果は 15 通り、終わり方は 1 通り",
  );
});

Deno.test("the parts chobo run prints one at a time make the whole text and the whole JSON", () => {
  const book = load(`${RUN}purse.book`);
  const scenarios = readScenarios(book, Deno.readTextFileSync(`${RUN}purse.json`));
  const runs = scenarios.map((s) => ({ s, branches: runScenario(book, s) }));
  for (const lang of ["en", "ja"] as const) {
    const parts = [...runsTextParts("p.book", book, runs, lang)];
    strictEqual(parts.length, 1 + 1 + 1 + runs[1].branches.length, "one part per outcome, and each heading");
    strictEqual(
      parts.join(""),
      runs.map(({ s, branches }) => runText("p.book", book, s, branches, lang)).join("\n"),
    );
  }
  const whole = stringifyJson(
    { file: "p.book", runs: runs.map(({ s, branches }) => runJson(s, branches)) },
    2,
  );
  strictEqual([...runsJsonParts("p.book", runs)].join(""), whole + "\n");
  strictEqual(
    [...runsJsonParts("p.book", [])].join(""),
    stringifyJson({ file: "p.book", runs: [] }, 2) + "\n",
  );
});

/** Deliveries, holds, posts, voids and passes on the inventory example, `steps` of them. */
function longScenario(steps: number): string {
  const out: unknown[] = [];
  for (let i = 0; out.length < steps; i++) {
    const sku = `sku-${i % 50}`;
    out.push({ call: "receive.do", args: { delivery: `delivery-${i}`, sku, qty: 2 } });
    out.push({ call: "reserve.hold", args: { order: `order-${i}`, sku, qty: 1 } });
    if (i % 3 === 0) out.push({ call: "reserve.post", args: { order: `order-${i}`, sku } });
    else if (i % 3 === 1) out.push({ call: "reserve.void", args: { order: `order-${i}`, sku } });
    else out.push({ pass: "1 seconds" });
  }
  return JSON.stringify({ name: `${steps} steps`, steps: out.slice(0, steps) });
}

/**
 * The CPU time of this thread for one `chobo run`, in milliseconds. Wall time on a machine shared
 * with other work measures the machine; the thread's own time measures the run.
 */
function runTime(steps: number): { ms: number; stdout: string } {
  const files = { "inventory.book": Deno.readTextFileSync(INVENTORY), "s.json": longScenario(steps) };
  const start = process.threadCpuUsage();
  const run = runCli(["chobo", "run", "inventory.book", "--scenario", "s.json"], { files });
  const used = process.threadCpuUsage(start);
  strictEqual(run.code, 0, run.stderr);
  return { ms: (used.user + used.system) / 1000, stdout: run.stdout };
}

Deno.test("a scenario of 100,000 steps runs in well under 10 seconds, in proportion to its steps", () => {
  const small = runTime(10_000);
  const large = runTime(100_000);
  ok(large.stdout.startsWith("inventory.book (100000 steps): 100000 steps\n"), large.stdout.slice(0, 200));
  strictEqual(large.stdout.split("\n").filter((l) => /^ +\d+ {2}/.test(l)).length, 100_000);
  ok(large.ms < 10_000, `100,000 steps took ${large.ms.toFixed(0)} ms of CPU`);
  // Ten times the steps: about ten times the time; a run that copied its past at every step would take
  // about a hundred times.
  ok(
    large.ms < 30 * small.ms,
    `10,000 steps ${small.ms.toFixed(0)} ms, 100,000 steps ${large.ms.toFixed(0)} ms`,
  );
});

/** A delivery of 1 and two callers after it, `times` times: the outcomes double each time. */
function doubling(name: string, times: number): unknown {
  const steps = [];
  for (let i = 0; i < times; i++) {
    steps.push({ call: "receive.do", args: { delivery: `delivery-${i}`, sku: `sku-${i}`, qty: 1 } });
    steps.push({
      together: [0, 1].map((
        c,
      ) => [{ call: "reserve.hold", args: { order: `order-${i}-${c}`, sku: `sku-${i}`, qty: 1 } }]),
    });
  }
  return { name, title_ja: `${name} (二倍ずつ)`, steps };
}

Deno.test("together steps whose outcomes double stop at MAX_OUTCOMES with the scenario, the step and the limit", () => {
  strictEqual(MAX_OUTCOMES, 1000);
  const times = Math.ceil(Math.log2(MAX_OUTCOMES + 1));
  const files = {
    "inventory.book": Deno.readTextFileSync(INVENTORY),
    "s.json": JSON.stringify([doubling("three times", 3), doubling("doubling", times + 5)]),
  };
  const args = ["chobo", "run", "inventory.book", "--scenario", "s.json"];
  const en = runCli(args, { files });
  strictEqual(en.code, 1);
  strictEqual(
    en.stderr,
    `chobo run: s.json: scenario (doubling), step ${
      2 * times
    }: more than 1000 possible outcomes, the most a run keeps (MAX_OUTCOMES); split the scenario, or give its together steps fewer callers\n`,
  );
  ok(
    en.stdout.startsWith("inventory.book (three times): 6 steps, 8 possible outcomes, 1 ending\n"),
    en.stdout,
  );
  ok(!en.stdout.includes("(doubling)"), "nothing of the scenario that passed the limit is printed");
  const ja = runCli([...args, "--lang", "ja"], { files });
  strictEqual(ja.code, 1);
  strictEqual(
    ja.stderr,
    `chobo run: s.json: シナリオ(doubling)のステップ ${
      2 * times
    }: とりうる結果が 1000 通りを超えます。一度の実行で持てるのは 1000 通りまでです(MAX_OUTCOMES)。シナリオを分けるか、together の呼び出し元を減らしてください\n`,
  );
  const json = runCli([...args, "--format", "json"], { files });
  strictEqual(json.code, 1);
  ok(json.stderr.includes("MAX_OUTCOMES") && !json.stderr.includes("internal error"), json.stderr);
});

Deno.test("a long scenario whose together branches stops at MAX_OUTCOME_STEPS before it runs on", () => {
  const book = load(INVENTORY);
  const [head] = readScenarios(book, JSON.stringify(doubling("long", 1)));
  const pass = { kind: "pass", seconds: 1n, text: "1 seconds" } as const;
  const steps = [...head.steps, ...Array.from({ length: MAX_OUTCOME_STEPS / 2 }, () => pass)];
  const scenario: Scenario = { ...head, steps };
  let error: unknown = null;
  try {
    runScenario(book, scenario);
  } catch (e) {
    error = e;
  }
  ok(error instanceof ScenarioError, String(error));
  strictEqual(
    error.text.en,
    `scenario (long), step 2: 2 possible outcomes of ${steps.length} steps each are more than 1000000 steps, the most a run keeps (MAX_OUTCOME_STEPS); split the scenario`,
  );
  strictEqual(
    error.text.ja,
    `シナリオ(long)のステップ 2: ${steps.length} ステップの結果が 2 通りで、一度の実行で持てる 1000000 ステップを超えます(MAX_OUTCOME_STEPS)。シナリオを分けてください`,
  );
  strictEqual(runScenario(book, { ...scenario, steps: steps.slice(0, MAX_OUTCOME_STEPS / 2) }).length, 2);
});
