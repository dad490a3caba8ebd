/**
 * What commands ask of git: a file as it was at a revision, for checks that compare with a base
 * revision (`chobo check --diff-base`), and the top of the work tree a directory is in (the
 * boundary of the files a flow names). Runs the `git` command; nothing here writes to the
 * repository.
 * @module
 */

import { type Text, tr } from "../lang/common/text.ts";

/**
 * The text of `path` at git revision `rev`; `absent` when no file had that path there (a new
 * file, which has nothing to compare with); else why it cannot be had (not a git work tree, an
 * unknown revision, not UTF-8). `path` is read relative to the repository it is in,
 * wherever the process runs; the reason is one line in both languages.
 *
 * @example
 * ```ts
 * const base = readAtRevision("books/stock.book", "origin/main");
 * if ("error" in base) console.error(base.error.en);
 * ```
 */
export function readAtRevision(
  path: string,
  rev: string,
): { text: string } | { absent: true } | { error: Text } {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  const dir = cut < 0 ? "." : cut === 0 ? path.slice(0, 1) : path.slice(0, cut);
  const name = path.slice(cut + 1);

  const inTree = git(dir, ["rev-parse", "--is-inside-work-tree"]);
  if (inTree === null) {
    return {
      error: tr(
        "git cannot be run: it is not installed or not on PATH",
        "git を実行できません。入っていないか、PATH にありません",
      ),
    };
  }
  if (!inTree.success || decode(inTree.stdout).trim() !== "true") {
    return {
      error: tr(
        `${path} is not in a git work tree, so it has no revision ${rev}`,
        `${path} は git の作業ツリーの中に無いので、リビジョン ${rev} の中身がありません`,
      ),
    };
  }
  // A revision starting with `-` would reach git as an option.
  const commit = rev.startsWith("-")
    ? null
    : git(dir, ["rev-parse", "--verify", "--quiet", `${rev}^{commit}`]);
  if (commit === null || !commit.success) {
    return {
      error: tr(
        `${rev} is not a revision in the repository of ${path}`,
        `${rev} は ${path} のリポジトリのリビジョンではありません`,
      ),
    };
  }
  // `./` makes git read the name relative to `dir`, not to the top of the repository.
  const object = `${rev}:./${name}`;
  const kind = git(dir, ["cat-file", "-t", object]);
  const blob = kind?.success && decode(kind.stdout).trim() === "blob"
    ? git(dir, ["cat-file", "blob", object])
    : null;
  if (kind !== null && kind.success && decode(kind.stdout).trim() !== "blob") {
    return {
      error: tr(
        `${path} at revision ${rev} is not a file`,
        `リビジョン ${rev} の ${path} はファイルではありません`,
      ),
    };
  }
  if (blob === null || !blob.success) return { absent: true };
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(blob.stdout) };
  } catch {
    return {
      error: tr(
        `${path} at revision ${rev} is not UTF-8 text`,
        `リビジョン ${rev} の ${path} が UTF-8 のテキストではありません`,
      ),
    };
  }
}

/**
 * The top directory of the git work tree `dir` is in (`git rev-parse --show-toplevel`), or null
 * when `dir` is in none, or git cannot be run.
 *
 * @example
 * ```ts
 * workTreeTop("flows"); // "/home/me/shop" inside a clone of shop; null outside any
 * ```
 */
export function workTreeTop(dir: string): string | null {
  const top = git(dir, ["rev-parse", "--show-toplevel"]);
  if (top === null || !top.success) return null;
  const path = decode(top.stdout).replace(/\n$/, "");
  return path === "" ? null : path;
}

/** Runs git in `dir`; null when git itself cannot be started. */
function git(dir: string, args: readonly string[]): Deno.CommandOutput | null {
  try {
    return new Deno.Command("git", {
      args: ["-C", dir, ...args],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    })
      .outputSync();
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}

function decode(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}
