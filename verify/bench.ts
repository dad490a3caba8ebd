/**
 * `deno task bench <name>`: benchmarks reported as a ratio to a baseline measured in the same run,
 * so the numbers compare across machines. Each command runs several times; the median counts.
 *
 * - `check`: `chobo check` on every fixture, test and example book, against `deno eval 'null'`
 *   (the cost of starting Deno at all); then each big book of `verify/chobo/big_books.ts` alone (one
 *   transfer of 1,000 moves, 1,000 moves over 500 bounded account kinds, a book of 1 MB, a line written
 *   2,000 times) against the 2 s a check should take (issue 17); and `dandori check` on a flow that
 *   calls one operation of an OpenAPI description of about 8 MB (`verify/dandori/big_description.ts`),
 *   and flows at the case analysis's limits (`verify/dandori/big_flows.ts`),
 *   against the same 2 s (issue 36).
 * - `scenarios`: generating and running every scenario of every test and example book, and one
 *   `together` of 8 callers (8! orders), against the same baseline.
 * - `dandori`: generating and running every scenario of every test and example flow on dandori's
 *   reference interpreter, against the same baseline.
 * - `postgres`: the generated SQL against a floor on the same disposable server in the same run
 *   (`verify/chobo/bench_postgres.ts`: throughput on one hot account and on 100, latency,
 *   `expire()`, 10,000 holds in one `SELECT`, server time per call of every function, and CPU
 *   instructions per call counted by callgrind, `verify/chobo/bench_instructions.ts`).
 * - `tigerbeetle`: the generated TypeScript client's `do` and `hold` on a disposable replica of
 *   `CHOBO_TIGERBEETLE`, against raw `create_transfers` batches of the same transfers
 *   (`verify/chobo/bench_tigerbeetle.ts`); SKIP without the variable.
 * - `temporal`: the Temporal differential run's runs per second and time a run, against the same
 *   dev server's empty workflow (`verify/dandori/temporal_bench.ts`).
 * - `go-runtime`: the dev server's CPU over the example flows' scenarios with the Go runtime's
 *   settings of `verify/services/go_runtime.ts`, against Go's defaults (`verify/dandori/temporal_bench.ts`).
 * @module
 */

import { manyAccounts, manyMoves, manyTransfers, repeatedLine } from "./chobo/big_books.ts";
import { bookPaths } from "./chobo/books.ts";
import { benchPostgres } from "./chobo/bench_postgres.ts";
import { benchTigerBeetle } from "./chobo/bench_tigerbeetle.ts";
import { benchGoRuntime, benchTemporal } from "./dandori/temporal_bench.ts";
import { bigDescription, ONE_OPERATION_FLOW } from "./dandori/big_description.ts";
import { chainFlow, HOLDS, holdsFlow } from "./dandori/big_flows.ts";
import { MAX_LOOP_ROUNDS, MAX_STATES } from "../lang/dandori/limits.ts";

const RUNS = 7;

async function timeCommand(args: readonly string[]): Promise<number> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), { args: [...args], stdout: "null", stderr: "piped" })
    .output();
  const elapsed = performance.now() - started;
  // Exit 2 is also dandori's E018 (a flow that uses rules); only an internal error stops the bench.
  const stderr = new TextDecoder().decode(out.stderr);
  if (out.code > 2 || stderr.includes("internal error")) {
    throw new Error(`${args.join(" ")} exited ${out.code}: ${stderr}`);
  }
  return elapsed;
}

async function median(args: readonly string[], runs = RUNS): Promise<number> {
  await timeCommand(args);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await timeCommand(args));
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)];
}

function flowPaths(dir: string): string[] {
  const found: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    if (e.isDirectory) found.push(...flowPaths(`${dir}/${e.name}`));
    else if (e.name.endsWith(".flow")) found.push(`${dir}/${e.name}`);
  }
  return found.sort();
}

async function benchCheck(): Promise<void> {
  const books = bookPaths(["tests", "examples"]);
  const flows = flowPaths("tests");
  const baseline = await median(["eval", "null"]);
  const check = await median(["run", "-A", "cli.ts", "chobo", "check", ...books]);
  const flowCheck = await median(["run", "-A", "cli.ts", "dandori", "check", ...flows]);
  console.log(`bench check: ${books.length} books, ${flows.length} flows, median of ${RUNS} runs each`);
  console.log(`  baseline  deno eval 'null'                 ${baseline.toFixed(1)} ms`);
  console.log(`  chobo     chobo check (${books.length} books)`.padEnd(45) + `${check.toFixed(1)} ms`);
  console.log(`  dandori   dandori check (${flows.length} flows)`.padEnd(45) + `${flowCheck.toFixed(1)} ms`);
  console.log(
    `  ratio     chobo ${(check / baseline).toFixed(2)} × baseline, dandori ${
      (flowCheck / baseline).toFixed(2)
    } × baseline`,
  );
  await benchBigBooks(baseline);
  await benchBigDescription(baseline);
  await benchBigCases(baseline);
}

/** The time a check should stay under, whatever the book (issue 17). */
const BIG_BOOK_TARGET_MS = 2000;

/** The size of the big OpenAPI description: 8 MB, under the 8 MiB a file read may be. */
const BIG_DESCRIPTION_BYTES = 8_000_000;

async function benchBigDescription(baseline: number): Promise<void> {
  const dir = Deno.makeTempDirSync({ prefix: "ritsu-bench-openapi-" });
  try {
    // A flow outside any git repository reads only inside the working directory: the directory is one.
    await new Deno.Command("git", { args: ["init", "-q", dir] }).output();
    Deno.writeTextFileSync(`${dir}/big.json`, bigDescription(BIG_DESCRIPTION_BYTES));
    Deno.writeTextFileSync(`${dir}/big.flow`, ONE_OPERATION_FLOW);
    const bytes = Deno.statSync(`${dir}/big.json`).size;
    console.log(
      `bench check, a big OpenAPI description: median of ${BIG_BOOK_RUNS} runs, target under ${BIG_BOOK_TARGET_MS} ms`,
    );
    await againstTarget(
      `  openapi8mb  one operation of a description of ${bytes.toLocaleString("en")} bytes`,
      ["run", "-A", "cli.ts", "dandori", "check", `${dir}/big.flow`],
      baseline,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

/**
 * The case analysis at its limits, against the same 2 s: the most holds whose combinations of the
 * cases' states stay within `MAX_STATES`, and the most cases a loop can ship one by one and settle
 * within `MAX_LOOP_ROUNDS` rounds (`verify/dandori/big_flows.ts`; one more of each is E023).
 */
async function benchBigCases(baseline: number): Promise<void> {
  const dir = Deno.makeTempDirSync({ prefix: "ritsu-bench-cases-" });
  try {
    await new Deno.Command("git", { args: ["init", "-q", dir] }).output();
    Deno.mkdirSync(`${dir}/books`);
    Deno.copyFileSync("tests/dandori/flows/books/stock.book", `${dir}/books/stock.book`);
    const flows: [string, string, string][] = [
      [
        "states",
        `${HOLDS - 1} holds: ${(2 ** (HOLDS - 1)).toLocaleString("en")} combinations (MAX_STATES ${
          MAX_STATES.toLocaleString("en")
        })`,
        holdsFlow(HOLDS - 1),
      ],
      [
        "rounds",
        `a loop of ${MAX_LOOP_ROUNDS - 1} cases in ${MAX_LOOP_ROUNDS} rounds (MAX_LOOP_ROUNDS)`,
        chainFlow(MAX_LOOP_ROUNDS - 1),
      ],
    ];
    console.log(
      `bench check, the case analysis at its limits: median of ${BIG_BOOK_RUNS} runs, target under ${BIG_BOOK_TARGET_MS} ms`,
    );
    for (const [name, what, text] of flows) {
      Deno.writeTextFileSync(`${dir}/${name}.flow`, text);
      const argv = ["run", "-A", "cli.ts", "dandori", "check", `${dir}/${name}.flow`];
      await againstTarget(`  ${name.padEnd(10)} ${what}`, argv, baseline);
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

/** Times a command's median of `BIG_BOOK_RUNS` runs and prints its row: `label`, the time, the ratio, the verdict against the 2 s. */
async function againstTarget(label: string, argv: string[], baseline: number): Promise<void> {
  const took = await median(argv, BIG_BOOK_RUNS);
  const verdict = took < BIG_BOOK_TARGET_MS ? "under" : "OVER";
  console.log(
    label.padEnd(64) +
      `${took.toFixed(1)} ms  ${
        (took / baseline).toFixed(2)
      } × baseline  ${verdict} ${BIG_BOOK_TARGET_MS} ms`,
  );
}

/** Runs of each big book: fewer than the others, since one may take many seconds. */
const BIG_BOOK_RUNS = 3;

async function benchBigBooks(baseline: number): Promise<void> {
  const dir = Deno.makeTempDirSync({ prefix: "ritsu-bench-big-" });
  try {
    const inventory = Deno.readTextFileSync("examples/inventory/inventory.book");
    const cases: [string, string, string][] = [
      ["moves1000", "one transfer of 1,000 moves", manyMoves(1000)],
      ["accounts500", "1,000 moves over 500 bounded account kinds", manyAccounts(500)],
      ["mb1", "a book of 1 MB (pairs of transfers)", manyTransfers(1_000_000)],
      ["repeated", "inventory.book, its line 11 written 2,000 times", repeatedLine(inventory, 10, 2000)],
    ];
    console.log(
      `bench check, big books: median of ${BIG_BOOK_RUNS} runs each, target under ${BIG_BOOK_TARGET_MS} ms`,
    );
    for (const [name, what, text] of cases) {
      const path = `${dir}/${name}.book`;
      Deno.writeTextFileSync(path, text);
      await againstTarget(
        `  ${name.padEnd(12)}${what}`,
        ["run", "-A", "cli.ts", "chobo", "check", path],
        baseline,
      );
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

async function benchScenarios(): Promise<void> {
  const baseline = await median(["eval", "null"]);
  const all = await median(["run", "-A", "verify/chobo/workloads.ts", "scenarios"]);
  const together = await median(["run", "-A", "verify/chobo/workloads.ts", "together8"]);
  console.log(`bench scenarios: median of ${RUNS} runs each`);
  console.log(`  baseline   deno eval 'null'                              ${baseline.toFixed(1)} ms`);
  console.log(`  scenarios  generate and run all (test and example books)  ${all.toFixed(1)} ms`);
  console.log(`  together8  8 callers, 8! = 40320 orders                   ${together.toFixed(1)} ms`);
  console.log(
    `  ratio      scenarios ${(all / baseline).toFixed(2)} × baseline, together8 ${
      (together / baseline).toFixed(2)
    } × baseline`,
  );
}

/** dandori's scenarios: generate and run every scenario of every test and example flow. */
async function benchDandori(): Promise<void> {
  const baseline = await median(["eval", "null"]);
  const all = await median(["run", "-A", "verify/dandori/workloads.ts"]);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "verify/dandori/workloads.ts"],
    stdout: "piped",
  })
    .output();
  console.log(`bench dandori: ${new TextDecoder().decode(out.stdout).trim()}, median of ${RUNS} runs`);
  console.log(`  baseline   deno eval 'null'                                  ${baseline.toFixed(1)} ms`);
  console.log(`  dandori    generate and run all (test and example flows)     ${all.toFixed(1)} ms`);
  console.log(`  ratio      ${(all / baseline).toFixed(2)} × baseline`);
}

const BENCHES: Record<string, () => Promise<void>> = {
  check: benchCheck,
  scenarios: benchScenarios,
  dandori: benchDandori,
  postgres: benchPostgres,
  tigerbeetle: benchTigerBeetle,
  temporal: benchTemporal,
  "go-runtime": benchGoRuntime,
};

const name = Deno.args[0];
const bench = name === undefined ? undefined : BENCHES[name];
if (bench === undefined) {
  console.error(`usage: deno task bench <${Object.keys(BENCHES).join("|")}>`);
  Deno.exit(2);
}
try {
  await bench();
} catch (e) {
  // A bench that cannot run says why in one line (a missing binary, a replica that did not start).
  console.error(`bench ${name}: ${e instanceof Error ? e.message : String(e)}`);
  Deno.exit(1);
}
