/**
 * A Go module of temporal-go packages made by a test: its go.mod with the versions `doc.go` names,
 * the go command run with a build cache the tests choose and `-trimpath` (so the cache is shared
 * between runs and does not grow run after run), and what `gofmt -l` lists.
 * @module
 */

import { ok } from "node:assert/strict";
import { GO_MODULES, GO_VERSION } from "../../targets/dandori/temporal_go/doc_go.ts";

/** The Go build cache the tests build into: kept between runs, so a run after the first compiles little. */
export const GO_CACHE = `${Deno.env.get("TMPDIR") ?? "/tmp"}/dandori-temporal-go-cache`;

/** The go.mod of a module that holds temporal-go packages (`modules`: the paths it requires; all of doc.go's when omitted). */
export function goModText(module: string, modules: readonly string[] = Object.keys(GO_MODULES)): string {
  const requires = modules.map((m) => `\t${m} ${GO_MODULES[m]}\n`).join("");
  return `module ${module}\n\ngo ${GO_VERSION}\n\nrequire (\n${requires})\n`;
}

/** Runs the go command in `cwd` with the tests' cache and `-trimpath`; its output, or the failure with it. */
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

/** What `gofmt -l .` lists in `dir` (gofmt ships in the Go installation's bin). */
export async function gofmtList(dir: string): Promise<string> {
  const root = (await go(["env", "GOROOT"], dir)).trim();
  const fmt = await new Deno.Command(`${root}/bin/gofmt`, { args: ["-l", "."], cwd: dir, stdout: "piped" })
    .output();
  ok(fmt.success);
  return new TextDecoder().decode(fmt.stdout);
}

/** The bytes under a directory. */
export function sizeOf(dir: string): number {
  let n = 0;
  for (const e of Deno.readDirSync(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) n += sizeOf(path);
    else if (e.isFile) n += Deno.statSync(path).size;
  }
  return n;
}
