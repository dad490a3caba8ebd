/**
 * How the books and child flows a flow names are read (docs/dandori.md#files-a-flow-names): each
 * must be, by its real path (every symbolic link followed), inside the boundary of the flow the
 * command was given — the git work tree that flow is in, or the working directory when it is in
 * none — and, as every input, a regular file of at most `MAX_INPUT_BYTES`. A file outside is
 * refused before it is read, so nothing of it is quoted; the refusal names the boundary.
 * @module
 */

import { dirname } from "node:path";
import { type Text, tr } from "../lang/common/text.ts";
import { type FileRead, NO_SUCH_FILE } from "../lang/dandori/env.ts";
import { type Io, readInput } from "./io.ts";

/** Where the files a flow names must be: a real directory, and how a refusal names it. */
interface Boundary {
  readonly dir: string;
  /** Why a file outside is refused, given the path it was named by and its real path. */
  readonly outside: (path: string, real: string) => Text;
}

/**
 * The reader of the files the flow at `flow` (read already) and the flows under it name. The
 * boundary is found at the first file read, so a flow that names none runs no git.
 */
export function flowReader(io: Io, flow: string): (path: string) => FileRead {
  let boundary: Boundary | null = null;
  return (path) => {
    let real: string;
    try {
      real = io.realPath(path);
      boundary ??= boundaryOf(io, flow);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return NO_SUCH_FILE;
      const why = e instanceof Error ? e.message : String(e);
      return { unreadable: tr(`${path} cannot be read (${why})`, `${path} を読めません(${why})`) };
    }
    if (!inside(real, boundary.dir)) return { unreadable: boundary.outside(path, real) };
    const r = readInput(io, path);
    if ("bytes" in r) return { bytes: r.bytes, real };
    return r.missing ? NO_SUCH_FILE : { unreadable: r.error };
  };
}

function boundaryOf(io: Io, flow: string): Boundary {
  const top = io.repositoryTop(io.realPath(dirname(flow)));
  if (top !== null) {
    const dir = io.realPath(top);
    return {
      dir,
      outside: (path, real) =>
        tr(
          `${path} is ${real}, outside the repository ${dir}: a flow reads books and child flows only inside the git repository it is in`,
          `${path} の実体は ${real} で、リポジトリ ${dir} の外にあります。フローが読む帳簿と子のフローは、フローのある git のリポジトリの中のものだけです`,
        ),
    };
  }
  const dir = io.realPath(".");
  return {
    dir,
    outside: (path, real) =>
      tr(
        `${path} is ${real}, outside the working directory ${dir}: a flow in no git repository reads books and child flows only inside the directory the command runs in`,
        `${path} の実体は ${real} で、作業ディレクトリ ${dir} の外にあります。git のリポジトリに無いフローが読む帳簿と子のフローは、コマンドを走らせるディレクトリの中のものだけです`,
      ),
  };
}

/** True when the real path `real` is `dir` or under it. */
function inside(real: string, dir: string): boolean {
  return real === dir || real.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}
