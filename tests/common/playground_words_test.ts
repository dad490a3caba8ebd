/**
 * The playground's own words (lang/playground/words.ts) in English and Japanese, pinned by golden
 * files; `RITSU_BLESS=1` writes them anew.
 */

import { NOT_DRAWN, WORDS } from "../../lang/playground/words.ts";
import { assertGolden } from "../support/golden.ts";

const GOLDEN = new URL("./golden/", import.meta.url).pathname;

for (const lang of ["en", "ja"] as const) {
  Deno.test(`the playground's words in ${lang}`, () => {
    const lines = [
      ...Object.entries(WORDS).map(([key, text]) => `${key}: ${text[lang]}`),
      ...Object.entries(NOT_DRAWN).map(([key, text]) => `not drawn, ${key}: ${text[lang]}`),
    ];
    assertGolden(`${GOLDEN}playground.${lang}.txt`, lines.join("\n") + "\n");
  });
}
