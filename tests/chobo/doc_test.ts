/**
 * `chobo doc` as Markdown: the inventory page carries its flow chart exactly; every example's
 * `doc.md` and `doc.ja.md` are current (with the hand-written scenarios of `<book>.more.json`, by
 * `--scenario`, where there are some); numbers are in the unit's scale; warnings appear on the
 * page; a book with errors is not drawn; the HTML page groups hand-written scenarios first.
 */

import { ok, strictEqual } from "node:assert/strict";
import { runCli } from "../support/run.ts";

const EXAMPLES = ["inventory", "points", "refunds", "marketplace"];

const INVENTORY_FLOW = `\`\`\`mermaid
flowchart LR
    a0["stock(sku)<br>pcs<br>at least 0 (out_of_stock)"]
    a1(["suppliers<br>pcs · outside"])
    a2(["customers<br>pcs · outside"])
    a1 -->|"receive"| a0
    a0 -.->|"reserve"| a2
    a2 -->|"take_back"| a0
\`\`\``;

Deno.test("the inventory page's Markdown contains its flow chart exactly", () => {
  const page = runCli(["chobo", "doc", "examples/inventory/inventory.book"]);
  strictEqual(page.code, 0, page.stderr);
  ok(page.stdout.includes(INVENTORY_FLOW), page.stdout.slice(0, 2000));
});

Deno.test("every example's doc.md and doc.ja.md are what chobo doc writes now", () => {
  for (const name of EXAMPLES) {
    const dir = `examples/${name}`;
    const more = (book: string) => {
      const path = `${dir}/${book}.more.json`;
      try {
        Deno.statSync(path);
        return ["--scenario", path];
      } catch {
        return [];
      }
    };
    const en = runCli(["chobo", "doc", `${dir}/${name}.book`, ...more(name)]);
    const ja = runCli(["chobo", "doc", `${dir}/${name}.ja.book`, "--lang", "ja", ...more(`${name}.ja`)]);
    strictEqual(en.code, 0);
    strictEqual(ja.code, 0);
    if (Deno.env.get("RITSU_BLESS") === "1") {
      Deno.writeTextFileSync(`${dir}/doc.md`, en.stdout);
      Deno.writeTextFileSync(`${dir}/doc.ja.md`, ja.stdout);
    }
    strictEqual(en.stdout, Deno.readTextFileSync(`${dir}/doc.md`), `${dir}/doc.md is stale: RITSU_BLESS=1`);
    strictEqual(
      ja.stdout,
      Deno.readTextFileSync(`${dir}/doc.ja.md`),
      `${dir}/doc.ja.md is stale: RITSU_BLESS=1`,
    );
    ok(
      ja.stdout.includes("## 勘定") &&
        ja.stdout.includes("stateDiagram-v2") === en.stdout.includes("stateDiagram-v2"),
    );
  }
});

Deno.test("--scenario puts hand-written scenarios first, under their own heading, in Markdown and HTML", () => {
  const md = runCli([
    "chobo",
    "doc",
    "examples/refunds/refunds.book",
    "--scenario",
    "examples/refunds/refunds.more.json",
  ]);
  strictEqual(md.code, 0, md.stderr);
  const scenarios = md.stdout.slice(md.stdout.indexOf("## Scenarios"));
  ok(
    scenarios.startsWith(
      "## Scenarios\n\n### Written by hand\n\n<details>\n<summary>a 30.00 sale, two 20.00 refunds at once, then 10.00</summary>",
    ),
    scenarios.slice(0, 300),
  );
  ok(scenarios.indexOf("### Generated\n") > scenarios.indexOf("two 20.00 refunds"));
  ok(!runCli(["chobo", "doc", "examples/refunds/refunds.book"]).stdout.includes("### Generated"));
  const html = runCli([
    "chobo",
    "doc",
    "examples/refunds/refunds.ja.book",
    "--format",
    "html",
    "--lang",
    "ja",
    "--scenario",
    "examples/refunds/refunds.ja.more.json",
  ]);
  strictEqual(html.code, 0, html.stderr);
  ok(
    html.stdout.includes(
      '<optgroup label="手で書いたシナリオ">\n<option value="0">30 円の売上に 20 円の返金が二つ同時に来て、そのあと 10 円</option>\n</optgroup>\n<optgroup label="生成したシナリオ">\n<option value="1">',
    ),
    html.stdout.slice(html.stdout.indexOf("<select"), html.stdout.indexOf("<select") + 500),
  );
  const bad = runCli(["chobo", "doc", "r.book", "--scenario", "s.json"], {
    files: { "r.book": Deno.readTextFileSync("examples/refunds/refunds.book"), "s.json": "[]" },
  });
  strictEqual(bad.code, 1);
  strictEqual(bad.stderr, "chobo doc: s.json: an empty list: the file holds no scenario to run\n");
  strictEqual(bad.stdout, "");
});

Deno.test("numbers are written in the unit's scale", () => {
  const page = runCli(["chobo", "doc", "examples/refunds/refunds.book"]).stdout;
  ok(page.includes("at least 0.00 (over_refund)"), "the bound");
  ok(/sale\.do\(order: order-\d+, amount: \d+\.\d\d\)/.test(page), "a call's amount");
  ok(!/amount: \d+\)/.test(page), "no amount in the smallest unit");
});

Deno.test("warnings appear on the page; a book with errors is not drawn", () => {
  const warned = runCli(["chobo", "doc", "tests/chobo/fixtures/order.book"]);
  strictEqual(warned.code, 0);
  ok(warned.stdout.includes("## Warnings of the check") && warned.stdout.includes("warning[W103]"));
  const broken = runCli(["chobo", "doc", "tests/chobo/fixtures/no_bound.book"]);
  strictEqual(broken.code, 1);
  strictEqual(broken.stdout, "");
  ok(broken.stderr.includes("error[E020]"), broken.stderr);
});

Deno.test("--out writes <dir>/<the book's file name without .book>.md and nothing else, as its help says", () => {
  const run = runCli(["chobo", "doc", "examples/refunds/refunds.ja.book", "--lang", "ja", "--out", "out"]);
  strictEqual(run.code, 0);
  ok(Object.keys(run.written).length === 1 && run.written["out/refunds.ja.md"]?.startsWith("# 返金 v1"));
  for (const [command, written] of [["doc", "refunds.ja.md"], ["scenarios", "stock.ja.scenarios.json"]]) {
    ok(runCli(["chobo", "help", command]).stdout.includes(written), command);
  }
});
