/**
 * What every target writes points at this project's own docs, never at the design documents: no
 * generated file of any test or example book, and no runtime file copied into one, holds the word
 * "seed"; and every `docs/<page>.md#<anchor>` they cite names a heading of that page.
 */

import { deepStrictEqual, ok } from "node:assert/strict";
import { build, TARGET_NAMES } from "../../targets/chobo/targets.ts";
import { anchorsOf, DOCS_LINK } from "../support/anchors.ts";
import { everyBook, loadBook } from "../support/books.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const RUNTIMES = ["postgres", "tigerbeetle"].map((target) => `${ROOT}targets/chobo/${target}/runtime`);
const SEED = /seed/i;

/** Every file every target writes for every test and example book, by `<target> <book>: <path>`. */
function generatedFiles(): Map<string, string> {
  const out = new Map<string, string>();
  for (const path of everyBook()) {
    const text = Deno.readTextFileSync(path);
    const book = loadBook(path, text);
    const file = path.slice(ROOT.length);
    for (const target of TARGET_NAMES) {
      const built = build(book, target, { file, text, sha: "0123456789abcdef", version: "test" });
      ok("files" in built, `${target} ${file} builds`);
      for (const [name, content] of built.files) out.set(`${target} ${file}: ${name}`, content);
    }
  }
  return out;
}

/** Every file under the runtime folders, by path. */
function runtimeFiles(): Map<string, string> {
  const out = new Map<string, string>();
  for (const dir of RUNTIMES) {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isFile) out.set(`${dir}/${e.name}`.slice(ROOT.length), Deno.readTextFileSync(`${dir}/${e.name}`));
    }
  }
  return out;
}

Deno.test("no generated file and no runtime file holds the word seed", () => {
  const generated = generatedFiles();
  ok(generated.size >= 20 * TARGET_NAMES.length, `${generated.size} files`);
  const runtimes = runtimeFiles();
  ok(runtimes.size >= 6, `${runtimes.size} runtime files`);
  const citing = [...generated, ...runtimes].filter(([, text]) => SEED.test(text)).map(([name, text]) =>
    `${name}: ${text.split("\n").find((line) => SEED.test(line))!.trim()}`
  );
  deepStrictEqual(citing, []);
});

Deno.test("every docs/<page>.md#<anchor> a generated or runtime file cites is a heading of that page", () => {
  const pages = new Map<string, Set<string>>();
  const missing: string[] = [];
  let links = 0;
  for (const [name, text] of [...generatedFiles(), ...runtimeFiles()]) {
    for (const [link, page, anchor] of text.matchAll(DOCS_LINK)) {
      links++;
      if (!pages.has(page)) pages.set(page, anchorsOf(Deno.readTextFileSync(`${ROOT}docs/${page}`)));
      if (!pages.get(page)!.has(anchor)) missing.push(`${name}: ${link}`);
    }
  }
  ok(links > 0, "the generated files cite the docs");
  deepStrictEqual([...new Set(missing)], []);
});
