/**
 * `deno task bench <name>`: benchmarks reported as a ratio to a baseline measured in the same run,
 * so the numbers compare across machines. Each command runs several times; the median counts.
 *
 * - `check`: `chobo check` on every fixture, test and example book, against `deno eval 'null'`
 *   (the cost of starting Deno at all).
 * - `scenarios`: generating and running every scenario of every test and example book, and one
 *   `together` of 8 callers (8! orders), against the same baseline.
 * @module
 */

const RUNS = 7;

async function timeCommand(args: readonly string[]): Promise<number> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), { args: [...args], stdout: "null", stderr: "piped" })
    .output();
  const elapsed = performance.now() - started;
  if (out.code > 1) {
    throw new Error(`${args.join(" ")} exited ${out.code}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return elapsed;
}

async function median(args: readonly string[]): Promise<number> {
  await timeCommand(args);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timeCommand(args));
  times.sort((a, b) => a - b);
  return times[Math.floor(RUNS / 2)];
}

function booksUnder(dirs: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) walk(path);
      else if (e.name.endsWith(".book")) found.push(path);
    }
  };
  for (const dir of dirs) walk(dir);
  return found.sort();
}

async function benchCheck(): Promise<void> {
  const books = booksUnder(["tests", "examples"]);
  const baseline = await median(["eval", "null"]);
  const check = await median(["run", "-A", "cli.ts", "chobo", "check", ...books]);
  console.log(`bench check: ${books.length} books, median of ${RUNS} runs each`);
  console.log(`  baseline  deno eval 'null'                 ${baseline.toFixed(1)} ms`);
  console.log(`  check     chobo check (${books.length} books)`.padEnd(45) + `${check.toFixed(1)} ms`);
  console.log(`  ratio     ${(check / baseline).toFixed(2)} × baseline`);
}

async function benchScenarios(): Promise<void> {
  const baseline = await median(["eval", "null"]);
  const all = await median(["run", "-A", "verify/workloads.ts", "scenarios"]);
  const together = await median(["run", "-A", "verify/workloads.ts", "together8"]);
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

const BENCHES: Record<string, () => Promise<void>> = { check: benchCheck, scenarios: benchScenarios };

const name = Deno.args[0];
const bench = name === undefined ? undefined : BENCHES[name];
if (bench === undefined) {
  console.error(`usage: deno task bench <${Object.keys(BENCHES).join("|")}>`);
  Deno.exit(2);
}
await bench();
