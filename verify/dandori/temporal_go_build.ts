/**
 * The Temporal Go runner's build (docs/targets.md#the-runner-contract): Go cannot load a package at
 * run time, so one verification writes one Go module — the runner's package `dd`
 * (`temporal_go_runner/`, copied), every flow's Go code copy under `f<i>/` (`temporal_go_copy.ts`),
 * and a `main.go` that hands each to `dd.Main` by its directory's name — and builds it once into one
 * binary, with `-trimpath` into `GO_CACHE`, so a run after the first compiles only what changed and
 * the cache does not grow run after run. The jobs file's `dir` of a flow is its directory in the module.
 * @module
 */

import type { Plan } from "../../lang/dandori/plan.ts";
import { goPackage } from "../../targets/dandori/go/names.ts";
import { GO_MODULES, GO_VERSION } from "../../targets/dandori/temporal_go/doc_go.ts";
import type { CopyRun } from "./temporal_copy.ts";
import { goCopyFiles } from "./temporal_go_copy.ts";

/** The Go build cache of the tests and the verifications: kept between runs, so a run after the first compiles little. */
export const GO_CACHE = `${Deno.env.get("TMPDIR") ?? "/tmp"}/dandori-temporal-go-cache`;

/** The runner module's path. */
const MODULE = "dandori.invalid/verify";

/** The runner's package, copied into the module's `dd/`. */
const RUNNER_SOURCES = ["contract.go", "stubs.go", "runner.go"];

/** The binary the build writes into the module's directory. */
const BINARY = "temporal-go-runner";

/** The go.mod of a module that holds temporal-go packages (`modules`: the paths it requires; all of doc.go's when omitted). */
export function goModText(module: string, modules: readonly string[] = Object.keys(GO_MODULES)): string {
  const requires = modules.map((m) => `\t${m} ${GO_MODULES[m]}\n`).join("");
  return `module ${module}\n\ngo ${GO_VERSION}\n\nrequire (\n${requires})\n`;
}

/** Runs the go command in `cwd` with `GO_CACHE` and `-trimpath`; its output, or the failure with it. */
export async function go(
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<string> {
  const out = await new Deno.Command("go", {
    args: [...args],
    cwd,
    env: { GOCACHE: GO_CACHE, GOFLAGS: "-trimpath -mod=mod", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`go ${args.join(" ")} failed:\n${text}`);
  return text;
}

/** True when the go command runs here. */
export async function hasGo(): Promise<boolean> {
  try {
    return (await new Deno.Command("go", { args: ["version"], stdout: "null", stderr: "null" }).output())
      .success;
  } catch {
    return false;
  }
}

/** One flow the runner holds: its plan, the file its package is named after, its files, its runs' clocks. */
export interface GoFlow {
  readonly plan: Plan;
  readonly file: string;
  readonly files: ReadonlyMap<string, string>;
  readonly runs: readonly CopyRun[];
}

/** A built runner: its binary, each flow's directory (the jobs file's `dir`), and how to remove it. */
export interface GoRunner {
  readonly binary: string;
  readonly dirs: readonly string[];
  remove(): void;
}

/**
 * Writes the module of `flows` (each file changed by `mutate` when given, as a test breaks the code)
 * and builds its binary; removes it all and throws when the build fails.
 */
export async function buildGoRunner(
  flows: readonly GoFlow[],
  mutate?: (files: Map<string, string>) => void,
): Promise<GoRunner> {
  const dir = Deno.makeTempDirSync({ prefix: "dandori-temporal-go-runner-" });
  const remove = () => Deno.removeSync(dir, { recursive: true });
  try {
    Deno.writeTextFileSync(`${dir}/go.mod`, goModText(MODULE));
    Deno.mkdirSync(`${dir}/dd`);
    for (const f of RUNNER_SOURCES) {
      Deno.copyFileSync(new URL(`./temporal_go_runner/${f}`, import.meta.url), `${dir}/dd/${f}`);
    }
    const imports: string[] = [];
    const entries: string[] = [];
    flows.forEach((f, i) => {
      const copy = goCopyFiles(goPackage(f.plan, f.file), f.plan, f.files, f.runs);
      mutate?.(copy);
      Deno.mkdirSync(`${dir}/f${i}`);
      for (const [name, text] of copy) Deno.writeTextFileSync(`${dir}/f${i}/${name}`, text);
      imports.push(`\tf${i} "${MODULE}/f${i}"\n`);
      entries.push(`\t\t"f${i}": f${i}.DandoriRunner,\n`);
    });
    Deno.writeTextFileSync(
      `${dir}/main.go`,
      `// The runner of deno task verify temporal-go, written by verify/dandori/temporal_go_build.ts.\n\npackage main\n\nimport (\n\t"${MODULE}/dd"\n${
        imports.join("")
      })\n\nfunc main() {\n\tdd.Main(map[string]dd.NewFlow{\n${entries.join("")}\t})\n}\n`,
    );
    await go(["mod", "tidy"], dir);
    await go(["build", "-o", BINARY, "."], dir);
    return { binary: `${dir}/${BINARY}`, dirs: flows.map((_, i) => `${dir}/f${i}`), remove };
  } catch (e) {
    remove();
    throw e;
  }
}
