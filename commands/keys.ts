/**
 * A file that holds a key-shaped value (W901) is not written out: `chobo build`, `chobo doc`,
 * `chobo api` and `dandori build` refuse it, so no generated file, page or description carries
 * the key, and a key that is also a name (`AKIA…` as an account) never becomes an identifier.
 * `check` and `run` still read such a file and print it masked (commands/io.ts `shownIo`). A value
 * made up for a test is marked `# ritsu: test secret` on its line: then there is no W901, and the
 * file is written out as it is (docs/decisions.md#a-file-with-a-key-is-not-written-out).
 * @module
 */

import { type Diagnostic, renderDiagnostic } from "../lang/common/diagnostic.ts";
import { type Lang, tr } from "../lang/common/text.ts";
import type { Io } from "./io.ts";

/**
 * True, after printing the W901 diagnostics and why on stderr, when `diagnostics` hold a W901:
 * `what` of `path` must not be written out by `command` (`chobo build`, …).
 */
export function refusedForKeys(
  command: string,
  path: string,
  diagnostics: readonly Diagnostic[],
  io: Io,
  lang: Lang,
): boolean {
  const keys = diagnostics.filter((d) => d.code === "W901");
  if (keys.length === 0) return false;
  io.stderr(keys.map((d) => renderDiagnostic(d, lang)).join(""));
  io.stderr(
    `${command}: ${
      tr(
        `${path}: holds ${keys.length} key-shaped value${
          keys.length === 1 ? "" : "s"
        } (W901), and what it writes would carry ${
          keys.length === 1 ? "it" : "them"
        }; take the key out of the file, or mark a value made up for a test with \`# ritsu: test secret\` on its line`,
        `${path}: 鍵の形の値が ${keys.length} 個あり(W901)、書き出すものにそれが載ってしまいます。鍵をファイルから除くか、テスト用に作った値ならその行に \`# ritsu: test secret\` と書いてください`,
      )[lang]
    }\n`,
  );
  return true;
}
