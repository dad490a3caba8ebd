/**
 * The code cites the project's own docs, never the design documents it was built from (they are in
 * Japanese, beside the repository in `../shared/seeds/`, and not part of it): no source file under
 * `lang/`, `targets/`, `commands/`, `verify/`, `tests/`, `hooks/`, `.ci/`, `cli.ts` or `mod.ts` cites one
 * of their sections, and every `docs/<page>.md#<anchor>` a source file cites names a heading of that page.
 *
 * A random generator's seed is not a citation, nor is `tests/dandori/syntax_test.ts` reading the dandori
 * design document as a test input.
 */

import { deepStrictEqual, ok } from "node:assert/strict";
import { anchorsOf, DOCS_LINK } from "../support/anchors.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const SOURCES = ["lang", "targets", "commands", "verify", "tests", "hooks", ".ci", "cli.ts", "mod.ts"];
/** Output pinned by tests, not source: the golden files. */
/** Folders of no source: goldens, packages, and the bytecode Python writes while the runs beside the tests run. */
const SKIPPED_DIRS = new Set(["golden", "node_modules", "__pycache__"]);
const SELF = "tests/common/citations_test.ts";
/** The one file that may name the design document's path: it reads the document as a test input. */
const READS_THE_DOCUMENT = "tests/dandori/syntax_test.ts";

/**
 * How a comment cites the design documents: a section (`seed chobo 4.2`, `(seed 2.3)`, a bare `(4.2)`,
 * `(17.3: …`, `as 13.1 prints`), a line, a chapter.
 */
const CITATIONS: readonly RegExp[] = [
  /\b[Ss]eed (chobo|dandori)\b/,
  /\([Ss]eed /,
  /\b[Ss]eed [0-9]/,
  /\b[Ss]eed l\.[0-9]/,
  /\b[Ss]eeds?'s? (table|records?|chapter|section|lines?)\b/,
  /\b[Dd]esign [0-9]/,
  /\b[Cc]hapter [0-9]/,
  /design, chapter/,
  /\b[0-9]\.[0-9]+'s (table|records?|rows?|cells|order|role)\b/,
  /(?<![0-9.])\b[0-9]{1,2}\.[0-9]{1,2} (prints|says|shows|writes|lists|describes)\b/,
  /\((?:[1-9][0-9]?\.[0-9]{1,2}(?:, )?)+[:;)]/,
  /\bsection [0-9]/,
  /設計文?書/,
];
/** The design documents' own path: only `READS_THE_DOCUMENT` may name it. */
const DOCUMENT_PATH = /shared\/seeds\/0/;

/** Every text file under the source folders, by path from the root. */
function sources(): Map<string, string> {
  const out = new Map<string, string>();
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const visit = (path: string) => {
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(ROOT + path);
    } catch (e) {
      // A file a run beside the tests wrote and removed while this walked (a CI run saw one).
      if (e instanceof Deno.errors.NotFound) return;
      throw e;
    }
    if (info.isDirectory) {
      for (const e of Deno.readDirSync(ROOT + path)) {
        if (!SKIPPED_DIRS.has(e.name)) visit(`${path}/${e.name}`);
      }
      return;
    }
    try {
      out.set(path, decoder.decode(Deno.readFileSync(ROOT + path)));
    } catch (e) {
      if (!(e instanceof TypeError) && !(e instanceof Deno.errors.NotFound)) throw e;
    }
  };
  for (const s of SOURCES) visit(s);
  return out;
}

/** `<path>:<line>: <text>` for every line of `text` that matches one of `patterns`. */
function matching(path: string, text: string, patterns: readonly RegExp[]): string[] {
  return text.split("\n").flatMap((line, i) =>
    patterns.some((p) => p.test(line)) ? [`${path}:${i + 1}: ${line.trim()}`] : []
  );
}

Deno.test("no source file cites a section, line or chapter of the design documents", () => {
  const files = sources();
  ok(files.size > 300, `${files.size} source files`);
  const cited = [...files].filter(([path]) => path !== SELF).flatMap(([path, text]) => [
    ...matching(path, text, CITATIONS),
    ...(path === READS_THE_DOCUMENT ? [] : matching(path, text, [DOCUMENT_PATH])),
  ]);
  deepStrictEqual(cited, []);
});

Deno.test("every docs/<page>.md#<anchor> a source file cites is a heading of that page", () => {
  const pages = new Map<string, Set<string> | null>();
  const anchors = (page: string): Set<string> | null => {
    if (!pages.has(page)) {
      let text: string | null = null;
      try {
        text = Deno.readTextFileSync(`${ROOT}docs/${page}`);
      } catch (e) {
        if (!(e instanceof Deno.errors.NotFound)) throw e;
      }
      pages.set(page, text === null ? null : anchorsOf(text));
    }
    return pages.get(page)!;
  };
  const missing: string[] = [];
  let links = 0;
  for (const [path, text] of sources()) {
    if (path === SELF) continue;
    text.split("\n").forEach((line, i) => {
      for (const [link, page, anchor] of line.matchAll(DOCS_LINK)) {
        links++;
        const found = anchors(page);
        if (found === null) missing.push(`${path}:${i + 1}: ${link}: there is no docs/${page}`);
        else if (!found.has(anchor)) {
          missing.push(`${path}:${i + 1}: ${link}: docs/${page} has no such heading`);
        }
      }
    });
  }
  ok(links > 100, `only ${links} links to the docs`);
  deepStrictEqual(missing, []);
});
