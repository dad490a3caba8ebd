/**
 * Scenarios: generated ones reach what their names say and are pinned per test book
 * (`tests/chobo/books/<book>.runs.json`); the hand-written ones too (`<book>.more.runs.json`); the run
 * text of a `together` and of a `pass` comes out character for character; bad scenario files are errors with
 * the step's position.
 */

import { ok, strictEqual } from "node:assert/strict";
import { checkBook } from "../../lang/chobo/check.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { runJson, runText } from "../../lang/chobo/run.ts";
import { readScenarios, runScenario, type Scenario, scenarioJson } from "../../lang/chobo/scenario.ts";
import { generateScenarios } from "../../lang/chobo/scenarios.ts";
import { stringifyJson } from "../../lang/common/json.ts";
import { assertGolden } from "../support/golden.ts";
import { runCli } from "../support/run.ts";

const BOOKS = new URL("./books/", import.meta.url).pathname;
const EXAMPLES = new URL("../../examples/", import.meta.url).pathname;

function load(path: string): Book {
  const book = checkBook(path, Deno.readTextFileSync(path)).book;
  if (book === null) throw new Error(`${path} has errors`);
  return book;
}

function testBooks(): string[] {
  return [...Deno.readDirSync(BOOKS)].map((e) => e.name).filter((n) => n.endsWith(".book")).sort();
}

function runsJson(book: Book, scenarios: readonly Scenario[]): string {
  return stringifyJson(scenarios.map((s) => runJson(s, runScenario(book, s))), 2) + "\n";
}

Deno.test("acceptance: a bound on the receiving account gets its scenarios when the source is bounded too", () => {
  const cases: [string, string, string][] = [
    ["tickets.book", "buy.do", "fan_seats(fan)"],
    ["wallet.book", "remittance.do", "wallet(member)"],
    ["チケット.book", "購入.do", "ファンの席(ファン)"],
    ["ウォレット.book", "送金.do", "ウォレット(会員)"],
  ];
  for (const [file, op, account] of cases) {
    const names = generateScenarios(load(BOOKS + file)).map((s) => s.name);
    for (const end of ["one below", "exactly on", "one beyond"]) {
      ok(names.some((n) => n.startsWith(`bound: ${op} leaves ${account} ${end} at most`)), `${file}: ${end}`);
    }
    ok(names.includes(`together: two callers take the last room of 1 in ${account} with ${op}`), file);
  }
});

Deno.test("every test book's generated scenarios and their runs are pinned in <book>.runs.json", () => {
  for (const name of testBooks()) {
    const book = load(BOOKS + name);
    const scenarios = generateScenarios(book);
    ok(scenarios.length >= 5, `${name}: only ${scenarios.length} scenarios`);
    assertGolden(`${BOOKS}${name.replace(/\.book$/, "")}.runs.json`, runsJson(book, scenarios));
  }
});

Deno.test("hand-written scenarios and their runs are pinned in <book>.more.runs.json", () => {
  const more = [...Deno.readDirSync(BOOKS)].map((e) => e.name).filter((n) => n.endsWith(".more.json"));
  ok(more.length >= 2);
  for (const name of more) {
    const stem = name.replace(/\.more\.json$/, "");
    const book = load(`${BOOKS}${stem}.book`);
    const scenarios = readScenarios(book, Deno.readTextFileSync(BOOKS + name));
    assertGolden(`${BOOKS}${stem}.more.runs.json`, runsJson(book, scenarios));
  }
});

Deno.test("what chobo scenarios prints, chobo run reads back with the same results", () => {
  for (const dir of [BOOKS, `${EXAMPLES}inventory/`]) {
    for (const name of [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".book"))) {
      const printed = runCli(["chobo", "scenarios", dir + name]);
      strictEqual(printed.code, 0, printed.stderr);
      const book = load(dir + name);
      const again = readScenarios(book, printed.stdout);
      strictEqual(runsJson(book, again), runsJson(book, generateScenarios(book)), name);
      for (const s of again) {
        ok(s.titleJa !== undefined && s.titleJa !== "", `${name}: ${s.name} has no Japanese title`);
      }
    }
  }
});

Deno.test("values are distinct within a scenario and numbered by first appearance", () => {
  for (const name of testBooks()) {
    for (const s of generateScenarios(load(BOOKS + name))) {
      const seen: string[] = [];
      const json = stringifyJson(scenarioJson(s));
      for (const m of json.matchAll(/"[^"]+-(\d+)"/g)) {
        const n = Number(m[1]);
        if (!seen.includes(m[0])) {
          strictEqual(n, seen.length + 1, `${name}: ${s.name}: ${m[0]}`);
          seen.push(m[0]);
        }
      }
    }
  }
});

const TOGETHER_JA =
  `在庫.book (同時: 二つの呼び出し元が 引当.hold で 在庫(sku) の最後の 1 を取りに来る): 2 ステップ、とりうる結果は 2 通り、終わり方は 1 通り
終わり方 1(結果 1、2):
  在庫(sku-2)  確定 1、出ていく仮押さえ 1、入ってくる仮押さえ 0
  仕入先       確定 -1、出ていく仮押さえ 0、入ってくる仮押さえ 0
  客           確定 0、出ていく仮押さえ 0、入ってくる仮押さえ 1
結果 1:
    1  入荷.do(納品書: 納品書-1, sku: sku-2, 数: 1)                通る
    2  together
         呼び出し元 1: 引当.hold(注文: 注文-3, sku: sku-2, 数: 1)  通る
         呼び出し元 2: 引当.hold(注文: 注文-4, sku: sku-2, 数: 1)  在庫切れ で拒否される
  勘定:
    在庫(sku-2)  確定 1、出ていく仮押さえ 1、入ってくる仮押さえ 0
    仕入先       確定 -1、出ていく仮押さえ 0、入ってくる仮押さえ 0
    客           確定 0、出ていく仮押さえ 0、入ってくる仮押さえ 1
  仮押さえ:
    引当(注文-3, sku-2)  押さえ中
結果 2:
    1  入荷.do(納品書: 納品書-1, sku: sku-2, 数: 1)                通る
    2  together
         呼び出し元 1: 引当.hold(注文: 注文-3, sku: sku-2, 数: 1)  在庫切れ で拒否される
         呼び出し元 2: 引当.hold(注文: 注文-4, sku: sku-2, 数: 1)  通る
  勘定:
    在庫(sku-2)  確定 1、出ていく仮押さえ 1、入ってくる仮押さえ 0
    仕入先       確定 -1、出ていく仮押さえ 0、入ってくる仮押さえ 0
    客           確定 0、出ていく仮押さえ 0、入ってくる仮押さえ 1
  仮押さえ:
    引当(注文-4, sku-2)  押さえ中
`;

const PASS_EN = `在庫.book (pass: 引当 expires, then is posted and voided): 5 steps
  1  入荷.do(納品書: 納品書-1, sku: sku-2, 数: 2)  done
  2  引当.hold(注文: 注文-3, sku: sku-2, 数: 2)    done
  3  pass 31 minutes                               引当(注文-3, sku-2) expired
  4  引当.post(注文: 注文-3, sku: sku-2)           refused: expired
  5  引当.void(注文: 注文-3, sku: sku-2)           refused: expired
accounts:
  在庫(sku-2)  posted 2, held out 0, held in 0
  仕入先       posted -2, held out 0, held in 0
  客           posted 0, held out 0, held in 0
holds:
  引当(注文-3, sku-2)  expired
`;

Deno.test("the together output and the pass output of 在庫.book's generated scenarios, character for character", () => {
  const book = load(`${BOOKS}在庫.book`);
  const scenarios = generateScenarios(book);
  const pick = (name: string) => {
    const s = scenarios.find((x) => x.name === name);
    ok(s !== undefined, `no scenario named ${name}`);
    return s;
  };
  const together = pick("together: two callers take the last 1 of 在庫(sku) with 引当.hold");
  strictEqual(runText("在庫.book", book, together, runScenario(book, together), "ja"), TOGETHER_JA);
  const pass = pick("pass: 引当 expires, then is posted and voided");
  strictEqual(runText("在庫.book", book, pass, runScenario(book, pass), "en"), PASS_EN);
});

Deno.test("a bad scenario file is one error with the scenario and step, exit 1", () => {
  const call = (c: string, args: string) => `{"call": "${c}", "args": ${args}}`;
  const ok3 = `{"納品書": "a", "sku": "b", "数": 1}`;
  const cases: [string, string][] = [
    [`{"name": "x", "steps": [{"cal": "入荷.do"}]}`, "scenario 1 (x), step 1: a step is"],
    [
      `{"name": "x", "steps": [${call("入荷.do", ok3)}, ${call("出荷.do", ok3)}]}`,
      "step 2: the book has no transfer 出荷",
    ],
    [`{"name": "x", "steps": [${call("入荷.hold", ok3)}]}`, "入荷 has no operation hold; it has do"],
    [
      `{"name": "x", "steps": [${call("入荷.do", `{"納品書": "a", "sku": "b"}`)}]}`,
      "the argument 数 is missing",
    ],
    [
      `{"name": "x", "steps": [${call("入荷.do", `{"納品書": "a", "sku": "b", "数": 1, "x": 1}`)}]}`,
      "takes no argument x",
    ],
    [
      `{"name": "x", "steps": [${call("入荷.do", `{"納品書": "a", "sku": "b", "数": "1.5"}`)}]}`,
      "数 is an amount of 個 (1.5 has 1 decimal places and the unit has scale 0)",
    ],
    [
      `{"name": "x", "steps": [${
        call("入荷.do", `{"納品書": "a", "sku": "b", "数": 9223372036854775808}`)
      }]}`,
      "数 is an amount",
    ],
    [`{"name": "x", "steps": [], "extra": 1}`, `unknown key "extra"`],
    [`{"name": "x", "steps": [{"pass": "3 weeks"}]}`, `"pass" is`],
    [
      `{"name": "x", "steps": [${call("引当.post", `{"注文": "a", "sku": "b", "x": 1}`)}]}`,
      "takes no argument x",
    ],
    [
      `{"name": "x", "steps": [{"together": [${
        Array.from(
          { length: 9 },
          (_, i) => `[${call("入荷.do", `{"納品書": "n${i}", "sku": "b", "数": 1}`)}]`,
        ).join(", ")
      }]}]}`,
      "9 calls in one together; at most 8",
    ],
    [`[{"name": "ok", "steps": []}, {"name": "y", "steps": [1]}]`, "scenario 2 (y), step 1: not an object"],
    [`{"name": "x", "steps": [}`, "not JSON at 1:"],
    [`[]`, "an empty list: the file holds no scenario to run"],
  ];
  for (const [text, message] of cases) {
    const run = runCli(["chobo", "run", "在庫.book", "--scenario", "s.json"], {
      files: { "在庫.book": Deno.readTextFileSync(`${BOOKS}在庫.book`), "s.json": text },
    });
    strictEqual(run.code, 1, text);
    ok(run.stderr.includes(message), `${message}\n${run.stderr}`);
    strictEqual(run.stderr.split("\n").length, 2, run.stderr);
  }
});

Deno.test("an empty scenario list is an error in both languages", () => {
  for (const [lang, message] of [["en", "an empty list"], ["ja", "空のリストです"]]) {
    const run = runCli(["chobo", "run", "在庫.book", "--scenario", "s.json", "--lang", lang], {
      files: { "在庫.book": Deno.readTextFileSync(`${BOOKS}在庫.book`), "s.json": " [ ]\n" },
    });
    strictEqual(run.code, 1);
    ok(run.stderr.startsWith(`chobo run: s.json: ${message}`), run.stderr);
  }
});

Deno.test("a key scenario with another value names the parameter in plain English", () => {
  const book = checkBook(
    "seats.book",
    [
      "book seats v1",
      "unit seat",
      "account free(show: string) : seat",
      "  at least 0 refused as sold_out",
      "account audience : seat outside",
      "transfer book_seats(booking: string, show: string, seats: seat)",
      "  key booking, show",
      "  move seats from free(show) to audience",
      "transfer release(batch: string, show: string, seats: seat)",
      "  key batch",
      "  move seats from audience to free(show)",
      "",
    ].join("\n"),
  ).book!;
  const names = generateScenarios(book).map((s) => s.name);
  ok(
    names.includes("key: book_seats.do again with the same key and another value for seats"),
    names.join("\n"),
  );
  ok(!names.some((n) => n.includes("another seats")));
});

Deno.test("amounts beyond 2⁵³ pass through a run exactly", () => {
  const big = "9007199254740993";
  const run = runCli(["chobo", "run", "在庫.book", "--scenario", "s.json", "--format", "json"], {
    files: {
      "在庫.book": Deno.readTextFileSync(`${BOOKS}在庫.book`),
      "s.json":
        `{"name": "big", "steps": [{"call": "入荷.do", "args": {"納品書": "a", "sku": "b", "数": ${big}}}]}`,
    },
  });
  strictEqual(run.code, 0, run.stderr);
  ok(run.stdout.includes(`"数": ${big}`) && run.stdout.includes(`"posted": ${big}`), run.stdout);
});
