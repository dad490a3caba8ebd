/**
 * The flows `deno task verify <target> [path…]` plays (`verify/dandori/flows.ts`'s `flowsNamed`,
 * which the Temporal, durable and pydantic-graph runs call with the repository as their root):
 * files and directories anywhere, named by absolute or relative paths, with their children.
 */

import { deepStrictEqual } from "node:assert/strict";
import { relative } from "node:path";
import { flowsNamed } from "../../verify/dandori/flows.ts";

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
