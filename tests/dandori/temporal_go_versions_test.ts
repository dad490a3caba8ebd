/**
 * Worker Deployment Versioning of the temporal-go target (docs/targets.md#temporal-go), as
 * `temporal_versions_test.ts` proves it for TypeScript: two builds A and B of
 * `tests/dandori/versions/approvals.flow` (they differ in what they tell, so in their build ids),
 * each the generated `NewWorker` with a `Deployment`, on one dev server, caching no workflow
 * (`fixtures/temporal_go/versions_main.go`). A run started while A is current stays on A after B
 * becomes current, its continuation (the outermost loop's second iteration, `ddContinueAt` 1 as in
 * the verification's copy) included; a run started after runs on B.
 */

import { deepStrictEqual, notStrictEqual, ok, strictEqual } from "node:assert/strict";
import { checkFlow } from "../../lang/dandori/check.ts";
import { NO_SUCH_FILE } from "../../lang/dandori/env.ts";
import { lower } from "../../lang/dandori/lower.ts";
import { TEMPORAL_GO } from "../../targets/dandori/temporal_go/target.ts";
import { DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import { findTemporal, startTemporal } from "../../verify/services/temporal_server.ts";
import { go, goModText, hasGo } from "../../verify/dandori/temporal_go_build.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const FLOW = "tests/dandori/versions/approvals.flow";
const MAIN = `${ROOT}tests/dandori/fixtures/temporal_go/versions_main.go`;
const ORIGIN = {
  file: "approvals.flow",
  path: "approvals.flow",
  text: "",
  sha: "0123456789abcdef",
  version: "test",
};

/** A build of the flow's text as package `pkg`, every outermost iteration after a run's first continuing as new. */
function build(text: string, pkg: string): Map<string, string> {
  const checked = checkFlow(FLOW, text, { read: () => NO_SUCH_FILE }).checked;
  ok(checked !== null, "the flow checks");
  const files = new Map(TEMPORAL_GO.generate(lower(checked), ORIGIN, DEFAULT_BUILD));
  for (const [name, body] of files) files.set(name, body.replace(/^package approvals$/m, `package ${pkg}`));
  const runtime = files.get("runtime.go") ?? "";
  ok(runtime.includes("const ddContinueAt = 10_000"), "runtime.go has ddContinueAt");
  files.set("runtime.go", runtime.replace("const ddContinueAt = 10_000", "const ddContinueAt = 1"));
  return files;
}

function buildId(files: ReadonlyMap<string, string>): string {
  const m = /^const BuildID = "([^"]+)"$/m.exec(files.get("worker.go") ?? "");
  ok(m !== null, "worker.go has its BuildID");
  return m[1];
}

Deno.test({
  name:
    "temporal-go: a run started on build A stays on A, continuation included, after B is current; a new run takes B",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    if (!(await hasGo())) return console.log("SKIP: go: the go command is not installed");
    const bin = await findTemporal();
    if (bin === null) return console.log("SKIP: temporal: the temporal CLI 1.9.1 is not installed");
    const textA = Deno.readTextFileSync(`${ROOT}${FLOW}`);
    const textB = textA.replace('"build A: approved by', '"build B: approved by');
    notStrictEqual(textA, textB);
    const builds = { a: build(textA, "a"), b: build(textB, "b") };
    notStrictEqual(buildId(builds.a), buildId(builds.b), "different code has different build ids");
    const dir = Deno.makeTempDirSync({ prefix: "dandori-temporal-go-versions-" });
    try {
      Deno.writeTextFileSync(`${dir}/go.mod`, goModText("dandori.invalid/versions"));
      for (const [pkg, files] of Object.entries(builds)) {
        Deno.mkdirSync(`${dir}/${pkg}`);
        for (const [name, text] of files) Deno.writeTextFileSync(`${dir}/${pkg}/${name}`, text);
      }
      Deno.copyFileSync(MAIN, `${dir}/main.go`);
      await go(["mod", "tidy"], dir);
      await go(["build", "-o", "versions", "."], dir);
      const server = await startTemporal(bin);
      try {
        const out = await new Deno.Command(`${dir}/versions`, {
          args: [server.address],
          stdout: "piped",
          stderr: "piped",
        }).output();
        strictEqual(out.code, 0, new TextDecoder().decode(out.stderr));
        const seen = JSON.parse(new TextDecoder().decode(out.stdout).trimEnd().split("\n").pop() ?? "");
        deepStrictEqual(seen.builds, [buildId(builds.a), buildId(builds.b)]);
        strictEqual(seen.runs, 2, "run-1's second iteration is a continuation");
        deepStrictEqual(seen.told, [
          { run: "run-1", text: "build A: approved by kim" },
          { run: "run-1", text: "build A: approved by kim" },
          { run: "run-2", text: "build B: approved by kim" },
          { run: "run-2", text: "build B: approved by kim" },
        ]);
        console.log(`temporal-go versions: ${JSON.stringify(seen)}`);
      } finally {
        await server.stop();
      }
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
