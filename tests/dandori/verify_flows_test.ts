/**
 * The flows `deno task verify <target> [path…]` plays (`verify/dandori/flows.ts`'s `flowsNamed`,
 * which the Temporal, durable and pydantic-graph runs call with the repository as their root):
 * files and directories anywhere, named by absolute or relative paths, with their children. And
 * of every test and example flow, those and only those `dandori check` passes: verify checks with a
 * checker of its own making and leaves out a flow that does not check, so a difference from the
 * command line's (a parser the command line hands the checker and verify did not: the `use proto`
 * flows were once left out so, unseen) would leave a flow unplayed without a word. Verify's checker
 * is asked in a process of its own, which imports no command (the command line hands its parsers to
 * the checker for the whole process, and would hand them to verify's too).
 */

import { deepStrictEqual, ok } from "node:assert/strict";
import { relative } from "node:path";
import { flowPaths, flowsNamed } from "../../verify/dandori/flows.ts";
import { runCli } from "../support/run.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const PARENT = "tests/dandori/flows/children_run.flow";
const CHILD = "tests/dandori/flows/children/deliver.flow";

Deno.test("verify takes a directory outside the repository by its absolute and its relative path", () => {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "ritsu-flows-" }));
  try {
    Deno.mkdirSync(`${dir}/flows/children`, { recursive: true });
    Deno.copyFileSync(`${ROOT}${PARENT}`, `${dir}/flows/children_run.flow`);
    Deno.copyFileSync(`${ROOT}${CHILD}`, `${dir}/flows/children/deliver.flow`);
    const found = [`${dir}/flows/children/deliver.flow`, `${dir}/flows/children_run.flow`];
    for (const named of [`${dir}/flows`, `${dir}/flows/`, relative(Deno.cwd(), `${dir}/flows`)]) {
      deepStrictEqual(flowsNamed(ROOT, [named], []).map((f) => f.path), found, named);
    }
    deepStrictEqual(flowsNamed(ROOT, [`${dir}/flows/children_run.flow`], []).map((f) => f.path), [found[1]]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a flow of the repository named by its absolute path is named from the repository", () => {
  deepStrictEqual(flowsNamed(ROOT, [`${ROOT}${PARENT}`], []).map((f) => f.path), [PARENT]);
  deepStrictEqual(flowsNamed("", [`${ROOT}${PARENT}`], []).map((f) => f.path), [`${ROOT}${PARENT}`]);
});

/** The flows of `paths` verify's checker passes, asked in a process that imports verify/dandori/flows.ts alone. */
async function playedApart(paths: readonly string[]): Promise<Set<string>> {
  const script = `import { checkedFlowAt } from "${ROOT}verify/dandori/flows.ts";
const paths = JSON.parse(Deno.args[0]);
console.log(JSON.stringify(paths.filter((p) => checkedFlowAt("${ROOT}", p) !== null)));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--config", `${ROOT}deno.json`, script, JSON.stringify(paths)],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  ok(out.success, new TextDecoder().decode(out.stderr));
  return new Set(JSON.parse(new TextDecoder().decode(out.stdout)) as string[]);
}

Deno.test("verify plays exactly the test and example flows `dandori check` passes", async () => {
  const paths = ["tests/dandori/flows/", "examples/"].flatMap((d) => flowPaths(ROOT, d));
  ok(paths.length > 100, `${paths.length} flows`);
  const played = await playedApart(paths);
  const differ = paths.flatMap((p) => {
    const passed = runCli(["dandori", "check", `${ROOT}${p}`]).code === 0;
    return played.has(p) === passed ? [] : [
      `${p}: verify ${played.has(p) ? "plays it" : "leaves it out"}, check exits ${passed ? 0 : "non-zero"}`,
    ];
  });
  deepStrictEqual(differ, []);
  console.log(
    `verify's flows: ${played.size} of ${paths.length} test and example flows pass check and are played`,
  );
});
