/**
 * `deno task demo`: a book that runs as a ledger, then a flow that runs as a workflow, with no server
 * to start, written over the library API (`mod.ts`) as any program that embeds ritsu would be.
 *
 * 1. `examples/refunds/refunds.book` is checked and built to its SQL and its TypeScript client (what
 *    `chobo build --target postgres` and `--target postgres-typescript` write), the SQL is loaded into
 *    PGlite, PostgreSQL compiled to WebAssembly and run in this process, and the client plays a sale
 *    and two refunds sent at once: the bound `at least 0.00` lets one through and refuses the other.
 *    The balances are read from the database.
 * 2. `examples/orders/orders.flow` runs one scenario (`examples/orders/orders.more.json`) on the
 *    reference interpreter, its book tasks answered by chobo's: each call as a platform sees it, its
 *    answer, the ending and the case.
 *
 * The task runs it with `--no-config` and its own lockfile (`demo.lock`), so Deno fetches PGlite and
 * nothing else: with the repository's deno.json it would install every package of deno.lock first.
 * English, or Japanese with `--lang ja` (or `RITSU_LANG=ja`).
 * @module
 */

// deno-lint-ignore no-import-prefix -- the task runs the demo with --no-config, so that Deno fetches PGlite alone
import { PGlite } from "npm:@electric-sql/pglite@0.5.16";
import {
  BooksComputed,
  build,
  checkBook,
  checkFlowBytes,
  chooseLang,
  type FileRead,
  flowRunText,
  type Lang,
  lowerFlow,
  NO_SUCH_FILE,
  quantityText,
  readFlowScenarios,
  renderDiagnostic,
  runFlow,
  ScenarioAnswers,
  type Text,
  timestampMs,
  tr,
  VERSION,
} from "../../mod.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const BOOK = "examples/refunds/refunds.book";
const FLOW = "examples/orders/orders.flow";
const FLOW_SCENARIO = "examples/orders/orders.more.json";

/** What a call of the refunds client answers. */
type Result = { readonly result: "done" | "done_before" } | {
  readonly result: "refused";
  readonly reason: string;
};

/** The part of the generated client of the refunds book the demo calls. */
interface Refunds {
  readonly sale: { do(a: { order: string; amount: bigint }): Promise<Result> };
  readonly refund: {
    hold(a: { refundId: string; order: string; amount: bigint }): Promise<Result>;
    post(k: { refundId: string; order: string }): Promise<Result>;
  };
  readonly balance: {
    refundable(a: { order: string }): Promise<Balance>;
    customers(): Promise<Balance>;
  };
}

interface Balance {
  readonly posted: bigint;
  readonly held_in: bigint;
  readonly held_out: bigint;
}

/** Where the demo writes, and in which language. */
interface Out {
  readonly lang: Lang;
  line(text: string): void;
}

function say(out: Out, t: Text): void {
  out.line(t[out.lang]);
}

function resultText(r: Result, lang: Lang): string {
  return r.result === "refused" ? `${tr("refused", "拒否")[lang]}: ${r.reason}` : r.result;
}

/** The lines of calls and their answers, the answers in one column. */
function answered(rows: readonly (readonly [string, string])[], indent: string): string[] {
  const width = Math.max(...rows.map(([call]) => call.length));
  return rows.map(([call, answer]) => `${indent}${call.padEnd(width)}  ${answer}`);
}

/** A module of TypeScript text, imported without a file: the generated client imports nothing. */
function importText(text: string): Promise<{ postgres(db: PGlite): Refunds }> {
  const bytes = new TextEncoder().encode(text);
  return import(
    `data:application/typescript;base64,${btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""))}`
  );
}

/** Part 1: the refunds book on PGlite. Null when it ran; else what stopped it. */
async function refundsOnPglite(out: Out): Promise<string | null> {
  const text = Deno.readTextFileSync(ROOT + BOOK);
  const { book, diagnostics } = checkBook(BOOK, text);
  if (book === null) return diagnostics.map((d) => renderDiagnostic(d, out.lang)).join("");
  const origin = { file: "refunds.book", text, sha: "demo", version: VERSION };
  const sql = build(book, "postgres", origin);
  const client = build(book, "postgres-typescript", origin);
  if ("diagnostics" in sql || "diagnostics" in client) return `${BOOK}: the build stopped`;
  const db = new PGlite();
  try {
    await db.exec([...sql.files.values()][0]);
    const [{ server_version: server }] =
      (await db.query<{ server_version: string }>("show server_version")).rows;
    say(
      out,
      tr(
        `1. ${BOOK}, built to SQL and a TypeScript client (chobo build --target postgres, --target postgres-typescript), played on PGlite: PostgreSQL ${server} in this process`,
        `1. ${BOOK} を SQL と TypeScript のクライアントにして(chobo build --target postgres、--target postgres-typescript)、PGlite(このプロセスの中の PostgreSQL ${server})で動かします`,
      ),
    );
    const refunds = (await importText([...client.files.values()][0])).postgres(db);
    const usd = (cents: bigint) => quantityText(cents, 2);
    const sale = { order: "o-1", amount: 3000n };
    const sold = await refunds.sale.do(sale);
    const asks = [{ refundId: "r-1", order: "o-1", amount: 2000n }, {
      refundId: "r-2",
      order: "o-1",
      amount: 2000n,
    }];
    const raced = await Promise.all(asks.map((a) => refunds.refund.hold(a)));
    const won = asks.find((_, i) => raced[i].result === "done");
    const posted = won === undefined
      ? null
      : await refunds.refund.post({ refundId: won.refundId, order: won.order });
    const calls: [string, string][] = [
      [`sale.do({ order: "o-1", amount: ${usd(sale.amount)} })`, resultText(sold, out.lang)],
      ...asks.map((a, i): [string, string] => [
        `refund.hold({ refundId: "${a.refundId}", order: "o-1", amount: ${usd(a.amount)} })`,
        resultText(raced[i], out.lang),
      ]),
    ];
    if (won !== undefined && posted !== null) {
      calls.push([
        `refund.post({ refundId: "${won.refundId}", order: "o-1" })`,
        resultText(posted, out.lang),
      ]);
    }
    say(
      out,
      tr(
        "   a sale of 30.00, then two refunds of 20.00 sent at once:",
        "   30.00 の売上のあと、20.00 の返金を二つ同時に送ります:",
      ),
    );
    for (const line of answered(calls, "     ")) out.line(line);
    const balances: [string, Balance][] = [
      ["refundable(o-1)", await refunds.balance.refundable({ order: "o-1" })],
      ["customers", await refunds.balance.customers()],
    ];
    say(out, tr("   the balances, read from the database:", "   データベースから読んだ残高:"));
    const width = Math.max(...balances.map(([name]) => name.length));
    for (const [name, b] of balances) {
      out.line(
        `     ${name.padEnd(width)}  ${
          tr(
            `posted ${usd(b.posted)}, held in ${usd(b.held_in)}, held out ${usd(b.held_out)}`,
            `確定 ${usd(b.posted)}、入ってくる仮押さえ ${usd(b.held_in)}、出ていく仮押さえ ${
              usd(b.held_out)
            }`,
          )[out.lang]
        }`,
      );
    }
    say(
      out,
      tr(
        "   The bound at least 0.00 refused the second refund: together they would have returned 40.00 of a 30.00 sale.",
        "   二つ目の返金は下限 at least 0.00 が拒否しました。二つ合わせると 30.00 の売上に 40.00 を返すことになるからです。",
      ),
    );
    return null;
  } finally {
    await db.close();
  }
}

/** How the flow reads the book it uses: the repository's files, by the path the checker gives. */
function readFromRoot(path: string): FileRead {
  try {
    const at = path.startsWith("/") ? path : ROOT + path;
    return { bytes: Deno.readFileSync(at), real: Deno.realPathSync(at) };
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return NO_SUCH_FILE;
    throw e;
  }
}

/** Part 2: one scenario of the orders flow on the reference interpreter. Null when it ran; else what stopped it. */
function ordersOnInterpreter(out: Out): string | null {
  const checked = checkFlowBytes(FLOW, Deno.readFileSync(ROOT + FLOW), { read: readFromRoot }).checked;
  if (checked === null) return `${FLOW}: the check found errors (deno task dandori check ${FLOW})`;
  const plan = lowerFlow(checked);
  const [scenario] = readFlowScenarios(checked, Deno.readFileSync(ROOT + FLOW_SCENARIO));
  // The book tasks are answered by chobo's reference interpreter, from the scenario's books.
  const given = new ScenarioAnswers(scenario.answers);
  const answers = new BooksComputed(checked, scenario, timestampMs(scenario.now[0]) ?? 0, given);
  const run = runFlow(checked, {
    input: scenario.input,
    now: scenario.now,
    answers,
    execution: "run-1",
    children: false,
  });
  given.finish();
  say(
    out,
    tr(
      `2. ${FLOW}, one scenario on the reference interpreter (dandori run ${FLOW} --scenario ${FLOW_SCENARIO} --books computed): each call as the platform sees it, its answer, then the ending`,
      `2. ${FLOW} のシナリオ一つを参照インタプリタで流します(dandori run ${FLOW} --scenario ${FLOW_SCENARIO} --books computed)。呼び出しごとにプラットフォームから見た形と答え、最後に終わり方を出します`,
    ),
  );
  for (const line of flowRunText(FLOW, plan, "transport", scenario, run, out.lang).trimEnd().split("\n")) {
    out.line(`   ${line}`);
  }
  return null;
}

/** Runs the demo, writing to `line`; 0 when both parts ran, 1 when one could not. */
export async function demo(lang: Lang, line: (text: string) => void): Promise<number> {
  const out: Out = { lang, line };
  say(
    out,
    tr(
      `ritsu ${VERSION} demo: a book that runs as a ledger, then a flow that runs as a workflow (in Japanese: deno task demo --lang ja)`,
      `ritsu ${VERSION} のデモ: 帳簿を台帳として、フローをワークフローとして動かします(英語では: deno task demo --lang en)`,
    ),
  );
  out.line("");
  const stopped = await refundsOnPglite(out) ?? (out.line(""), ordersOnInterpreter(out));
  if (stopped === null) return 0;
  out.line(stopped);
  return 1;
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--lang");
  const lang = chooseLang(at < 0 ? undefined : Deno.args[at + 1], "ritsu", {
    RITSU_LANG: Deno.env.get("RITSU_LANG"),
  });
  Deno.exit(await demo(lang, (text) => console.log(text)));
}
