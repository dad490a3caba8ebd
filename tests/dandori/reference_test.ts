/**
 * The language reference (docs/dandori.md and docs/dandori.ja.md): every `flow` example of both pages
 * passes `dandori check` with nothing to say, in both languages, read as a file of docs/ (so the books
 * and child flows it names are the repository's); the two pages have the same sections and examples;
 * each page's keyword table is the lexer's KEYWORDS.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { KEYWORDS } from "../../lang/dandori/lexer.ts";
import { runCli } from "../support/run.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const PAGES = ["docs/dandori.md", "docs/dandori.ja.md"] as const;

function examples(page: string): string[] {
  return [...Deno.readTextFileSync(ROOT + page).matchAll(/```flow\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** The repository's example and test files an example may read, by their path from the root. */
function repositoryFiles(): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(ROOT + dir)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) walk(path);
      else files[path] = Deno.readFileSync(ROOT + path);
    }
  };
  walk("examples");
  walk("tests/dandori/flows/apis");
  return files;
}

Deno.test("every flow example of the reference passes dandori check with nothing to say, in both languages", () => {
  const files = repositoryFiles();
  let checked = 0;
  for (const page of PAGES) {
    examples(page).forEach((text, i) => {
      const path = `docs/example-${i + 1}.flow`;
      for (const lang of ["en", "ja"] as const) {
        const run = runCli(["dandori", "check", path, "--lang", lang], { files: { ...files, [path]: text } });
        strictEqual(
          run.stdout,
          `${path}: ok\n`,
          `${page}, example ${i + 1} (${lang}):\n${text}\n${run.stdout}`,
        );
        strictEqual(run.code, 0);
      }
      checked++;
    });
  }
  ok(checked >= 20, `only ${checked} examples`);
});

Deno.test("the English and the Japanese reference have the same sections and as many examples", () => {
  const shape = (page: string) => {
    const text = Deno.readTextFileSync(ROOT + page);
    return {
      sections: [...text.matchAll(/^(#{2,3}) /gm)].map((m) => m[1]),
      examples: examples(page).length,
      consoles: [...text.matchAll(/```console\n/g)].length,
    };
  };
  deepStrictEqual(shape(PAGES[1]), shape(PAGES[0]));
});

Deno.test("each reference's keyword table is the lexer's KEYWORDS, in order", () => {
  for (const page of PAGES) {
    const text = Deno.readTextFileSync(ROOT + page);
    const rows = [...text.matchAll(/^\| ([a-z ]+?) +\| (yes|no|はい|いいえ) +\| (.+) \|$/gm)].map((m) => ({
      position: m[1],
      reserved: m[2] === "yes" || m[2] === "はい",
      words: [...m[3].matchAll(/`([^`]+)`/g)].map((w) => w[1]),
    }));
    deepStrictEqual(rows, KEYWORDS.map((k) => ({ ...k, words: [...k.words] })), page);
  }
});
