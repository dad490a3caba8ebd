/**
 * The flows every `deno task verify` plays are the test and example flows that pass `check`, and
 * those alone (verify/dandori/flows.ts leaves out a flow that does not check, since there is nothing
 * to play). The verifications check with a checker of their own making, so a difference from the
 * command line's (a parser the command line hands the checker and the verifications did not: the
 * `use proto` flows were once left out so, unseen) would leave a flow unplayed without a word. Here
 * each flow is checked both ways, and both must say the same of it: verify's checker in a process of
 * its own, which imports no command (the command line hands its parsers to the checker for the whole
 * process, and would hand them to verify's too).
 */

import { deepStrictEqual, ok } from "node:assert/strict";
import { flowPaths } from "../../verify/dandori/flows.ts";
import { runCli } from "../support/run.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

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
