/**
 * Workloads the benchmarks time as whole processes (`deno task bench …`), so their numbers
 * include Deno's start like the baseline `deno eval 'null'` does.
 *
 * - `scenarios`: generate and run every scenario of every test and example book.
 * - `together8`: one `together` of 8 callers with one call each: 8! = 40,320 orders.
 * @module
 */

import { checkBook } from "../../lang/chobo/check.ts";
import { bookPaths } from "./books.ts";
import { readScenarios, runScenario } from "../../lang/chobo/scenario.ts";
import { generateScenarios } from "../../lang/chobo/scenarios.ts";

function load(path: string) {
  const book = checkBook(path, Deno.readTextFileSync(path)).book;
  if (book === null) throw new Error(`${path} has errors`);
  return book;
}

function scenarios(): void {
  let count = 0;
  for (const path of bookPaths(["tests/chobo/books", "examples"])) {
    const book = load(path);
    for (const s of generateScenarios(book)) {
      runScenario(book, s);
      count++;
    }
  }
  console.log(`${count} scenarios`);
}

function together8(): void {
  const book = load("tests/chobo/books/在庫.book");
  const callers = Array.from(
    { length: 8 },
    (_, i) => [{ call: "引当.hold", args: { 注文: `注文-${i + 3}`, sku: "sku-2", 数: 1 } }],
  );
  const text = JSON.stringify({
    name: "together: 8 callers take 7",
    steps: [{ call: "入荷.do", args: { 納品書: "納品書-1", sku: "sku-2", 数: 7 } }, { together: callers }],
  });
  const [scenario] = readScenarios(book, text);
  console.log(`${runScenario(book, scenario).length} outcomes`);
}

const WORKLOADS: Record<string, () => void> = { scenarios, together8 };
const run = WORKLOADS[Deno.args[0] ?? ""];
if (run === undefined) {
  console.error(`usage: deno run -A verify/chobo/workloads.ts <${Object.keys(WORKLOADS).join("|")}>`);
  Deno.exit(2);
}
run();
