/**
 * Amounts and bounds at the ends of the 64 bits (docs/design/chobo.md#units-and-amounts): the reference
 * interpreter fails a call whose amount is outside 0 … 2⁶³ − 1 (a failure, as every client raises one,
 * not a refusal by a bound); the generated scenarios of a bound at 2⁶³ − 1 pass only amounts a caller
 * may, reach one beyond the bound all the same, and run; and `chobo verify`, on random books whose
 * bounds sit at ±(2⁶³ − 1) and next to 0, agrees with the interpreter on PGlite, on a disposable
 * PostgreSQL server (SKIP without one) and on TigerBeetle's test double, with no internal error. Where a
 * store does differ (an outside account past the 64 bits, docs/targets.md#outside-accounts), `chobo
 * verify` says so and exits 1, in both languages.
 */

import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { verifyBooks } from "../../commands/chobo_verify.ts";
import { checkBook } from "../../lang/chobo/check.ts";
import { Ledger } from "../../lang/chobo/interp.ts";
import { MAX_AMOUNT } from "../../lang/chobo/model.ts";
import { generateScenarios } from "../../lang/chobo/scenarios.ts";
import { parseJson } from "../../lang/common/json.ts";
import { STORES, type Stores, tigerBeetleStore } from "../../verify/chobo/stores.ts";
import { findPgBin } from "../../verify/services/pg_cluster.ts";
import { callOf } from "../support/calls.ts";
import { genBook, Random } from "../support/random_books.ts";
import { capturingIo, runCli } from "../support/run.ts";
import { startBridge } from "../support/tigerbeetle_bridge.ts";

/**
 * The books of this seed met the edges before the interpreter failed amounts past 2⁶³ − 1: their
 * generated scenarios then passed 13 such amounts, and `chobo verify` stopped with an internal error.
 */
const SEED = 9;
/** Books per store: enough for every edge pool to meet a transfer, few enough to play in seconds. */
const BOOKS = 8;

const EDGE = `book edge v1

unit USD scale 0

account wallet(user: string) : USD
  at most 9223372036854775807 refused as too_much
account world : USD outside

transfer deposit(id: string, user: string, amount: USD)
  key id
  move amount from world to wallet(user)
`;

function edgeBook() {
  const { book, diagnostics } = checkBook("edge.book", EDGE);
  ok(book !== null, diagnostics.map((d) => d.code).join(", "));
  return book;
}

Deno.test("the interpreter fails an amount outside 0 … 2⁶³ − 1, changing nothing; a bound does not refuse it", () => {
  const book = edgeBook();
  const ledger = Ledger.empty(book.accounts.map((a) => a.name));
  for (const amount of [MAX_AMOUNT + 1n, -1n]) {
    const before = ledger.snapshot();
    const outcome = ledger.apply(callOf(book, "deposit", "do", { id: "d-1", user: "u", amount }));
    strictEqual(outcome.kind, "failed");
    if (outcome.kind !== "failed") continue;
    strictEqual(outcome.why.en, `amount is ${amount}, outside the amounts 0 … 2⁶³ − 1`);
    strictEqual(outcome.why.ja, `amount は ${amount} で、額の範囲 0 〜 2⁶³ − 1 の外です`);
    strictEqual(ledger.snapshot(), before);
  }
  // The key was not used: the same key with an amount a caller may is done.
  strictEqual(
    ledger.apply(callOf(book, "deposit", "do", { id: "d-1", user: "u", amount: MAX_AMOUNT })).kind,
    "done",
  );
});

Deno.test("the scenarios of a bound at 2⁶³ − 1 pass amounts within 0 … 2⁶³ − 1, reach one beyond it, and run", () => {
  const scenarios = generateScenarios(edgeBook());
  const amounts = scenarios.flatMap((s) =>
    s.steps.flatMap((st) => st.kind === "call" ? [st.call] : st.kind === "together" ? st.callers.flat() : [])
  ).flatMap((c) => [...c.amounts.values()]);
  ok(amounts.length > 0);
  ok(amounts.every((a) => a >= 0n && a <= MAX_AMOUNT), amounts.join(", "));
  ok(amounts.includes(MAX_AMOUNT));
  const beyond = scenarios.find((s) => s.name.includes("one beyond at most 9223372036854775807"));
  ok(beyond !== undefined, scenarios.map((s) => s.name).join("\n"));

  const written = runCli(["chobo", "scenarios", "edge.book"], { files: { "edge.book": EDGE } });
  strictEqual(written.code, 0, written.stderr);
  const run = runCli(["chobo", "run", "edge.book", "--scenario", "s.json"], {
    files: { "edge.book": EDGE, "s.json": written.stdout },
  });
  strictEqual(run.code, 0, run.stdout + run.stderr);
  match(run.stdout, /one beyond at most 9223372036854775807\): 2 steps\n.*\n.*refused: too_much/);
  deepStrictEqual((parseJson(written.stdout) as unknown[]).length, scenarios.length);
});

/** `BOOKS` random books with bounds at the edges that check, by path, written in memory. */
function edgeBooks(): Record<string, string> {
  const rnd = new Random(SEED);
  const files: Record<string, string> = {};
  for (let i = 1; Object.keys(files).length < BOOKS; i++) {
    ok(i < BOOKS * 20, "too few random books check");
    const text = genBook(rnd, i, "edges");
    if (checkBook(`gen${i}.book`, text).book !== null) files[`gen${i}.book`] = text;
  }
  return files;
}

async function verifyEdges(target: "postgres" | "pglite" | "tigerbeetle", stores: Stores): Promise<void> {
  const files = edgeBooks();
  const { io, done } = capturingIo({
    files,
    env: target === "tigerbeetle" ? { CHOBO_TIGERBEETLE: "double" } : {},
  });
  const run = done(await verifyBooks(Object.keys(files), target, io, "en", stores));
  ok(!`${run.stdout}${run.stderr}`.includes("internal error"), run.stdout + run.stderr);
  strictEqual(run.code, 0, run.stdout + run.stderr);
  match(
    run.stdout,
    /^chobo verify: every scenario agrees with the interpreter on .*: \d+ scenarios of 8 books\n$/,
  );
}

Deno.test("random books with bounds at ±(2⁶³ − 1): their amounts reach the edges, and stay within 0 … 2⁶³ − 1", () => {
  let near = 0;
  for (const [path, text] of Object.entries(edgeBooks())) {
    const book = checkBook(path, text).book!;
    for (const s of generateScenarios(book)) {
      for (const st of s.steps) {
        const calls = st.kind === "call" ? [st.call] : st.kind === "together" ? st.callers.flat() : [];
        for (const a of calls.flatMap((c) => [...c.amounts.values()])) {
          ok(a >= 0n && a <= MAX_AMOUNT, `${path}: ${s.name}: ${a}`);
          if (a >= 1n << 62n) near++;
        }
      }
    }
  }
  ok(near >= 20, `${near} amounts of 2⁶² or more`);
});

Deno.test("chobo verify agrees on random books with bounds at the edges: PGlite", async () => {
  await verifyEdges("pglite", STORES);
});

Deno.test("chobo verify agrees on random books with bounds at the edges: a disposable PostgreSQL server", async () => {
  if (findPgBin() === null) {
    console.log("SKIP: postgres: no initdb/pg_ctl on this machine");
    return;
  }
  await verifyEdges("postgres", STORES);
});

Deno.test("chobo verify agrees on random books with bounds at the edges: TigerBeetle's test double (not TigerBeetle)", async () => {
  const bridge = startBridge();
  try {
    await verifyEdges("tigerbeetle", {
      ...STORES,
      tigerbeetle: () =>
        Promise.resolve(tigerBeetleStore({ double: bridge.url }, "the test double", () => Promise.resolve())),
    });
  } finally {
    await bridge.stop();
  }
});

/** Two deposits of 2⁶³ − 1 take the outside account past the 64 bits: PostgreSQL does the second. */
const WORLD_PAST = `[{"name": "the world past 64 bits", "steps": [
  {"call": "deposit.do", "args": {"id": "d-1", "user": "a", "amount": 9223372036854775807}},
  {"call": "deposit.do", "args": {"id": "d-2", "user": "b", "amount": 9223372036854775807}}
]}]`;

Deno.test("chobo verify: an outside account past the 64 bits on PGlite is a disagreement it says, not an internal error", async () => {
  for (const lang of ["en", "ja"] as const) {
    const { io, done } = capturingIo({ files: { "edge.book": EDGE, "edge.more.json": WORLD_PAST } });
    const run = done(await verifyBooks(["edge.book"], "pglite", io, lang, STORES));
    strictEqual(run.code, 1, run.stdout + run.stderr);
    ok(!`${run.stdout}${run.stderr}`.match(/internal error|内部の異常/), run.stdout + run.stderr);
    const lines = run.stdout.split("\n");
    const [view, world] = lang === "en"
      ? [
        "the view balances cannot be read: bigint out of range",
        "balance_world() cannot be read: bigint out of range",
      ]
      : [
        "ビュー balances を読めません: bigint out of range",
        "balance_world() を読めません: bigint out of range",
      ];
    ok(
      lines.some((l) => l.startsWith("edge.book: the world past 64 bits: ") && l.includes(view)),
      run.stdout,
    );
    ok(lines.some((l) => l.endsWith(world)), run.stdout);
    ok(
      lines.some((l) =>
        l.includes("step 2: deposit.do(id: d-2") || l.includes("ステップ 2: deposit.do(id: d-2")
      ),
      run.stdout,
    );
  }
});
