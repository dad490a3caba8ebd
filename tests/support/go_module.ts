/**
 * A Go module of temporal-go packages made by a test: its go.mod with the versions `doc.go` names,
 * the go command run with the build cache the tests and `deno task verify temporal-go` share and
 * `-trimpath` (so the cache does not grow run after run; `verify/dandori/temporal_go_build.ts` has
 * them), and what `gofmt -l` lists.
 * @module
 */

import { ok } from "node:assert/strict";
import { go } from "../../verify/dandori/temporal_go_build.ts";

export { go, GO_CACHE, goModText, hasGo } from "../../verify/dandori/temporal_go_build.ts";

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
