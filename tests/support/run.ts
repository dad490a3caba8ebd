/**
 * Runs the CLI in-process with captured output, for tests.
 * @module
 */

import { main } from "../../cli.ts";
import { denoIo, type Io, type Watched, type Watcher } from "../../commands/io.ts";
import { MemoryFs } from "./memory_fs.ts";

/** What one run printed and returned. */
export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Files the command wrote (kept in memory). */
  readonly written: Readonly<Record<string, string>>;
  /** The paths the command watched (`Io.watch`), and whether it closed the watch: empty and true when none. */
  readonly watched: readonly string[];
  readonly watchClosed: boolean;
}

/**
 * What happens while a command watches, one at a time: files changed (path → new content, or null
 * for a file removed), or Ctrl-C.
 */
export type Happening = { readonly change: Record<string, string | null> } | "interrupt";

/** Where a run reads its files and environment from. */
export interface RunOptions {
  /**
   * path → content, relative paths under `cwd` (tests/support/memory_fs.ts); without it, files
   * come from disk.
   */
  readonly files?: Record<string, string | Uint8Array>;
  /** Symbolic links among `files`: path → target (relative to the link's directory, or absolute). */
  readonly links?: Record<string, string>;
  /** The working directory of the in-memory files (absolute); `MEMORY_CWD` unless given. */
  readonly cwd?: string;
  /** The top of the git work tree the in-memory files are in; they are in none unless given. */
  readonly repository?: string;
  /** The environment; empty unless given, so no outer variable leaks in. */
  readonly env?: Record<string, string>;
  /** What a watch sees, in order (needs `files`); a watch asked for more fails the test. */
  readonly happenings?: readonly Happening[];
}

/** An `Io` that reads `opts.files` (or the disk) and keeps what is printed and written, for tests. */
export function capturingIo(opts: RunOptions = {}): { io: Io; done(code: number): Run } {
  const written: Record<string, string> = {};
  let stdout = "";
  let stderr = "";
  const disk = denoIo();
  const memory = opts.files === undefined ? null : new MemoryFs(opts.files, opts.links, opts.cwd);
  const repository = memory === null || opts.repository === undefined
    ? null
    : memory.realPath(opts.repository);
  const happenings = [...opts.happenings ?? []];
  let watched: readonly string[] = [];
  let watchClosed = true;
  const watch = (paths: readonly string[]): Watcher => {
    watched = paths;
    watchClosed = false;
    return {
      next: (): Promise<Watched> => {
        const next = happenings.shift();
        if (next === undefined) throw new Error("the command watched for more than the test's happenings");
        if (next === "interrupt") return Promise.resolve({ kind: "interrupted" });
        if (memory === null) throw new Error("a change needs the run's files in memory");
        for (const [path, content] of Object.entries(next.change)) memory.change(path, content);
        return Promise.resolve({ kind: "changed", paths: paths.filter((p) => p in next.change) });
      },
      close: () => watchClosed = true,
    };
  };
  const io: Io = {
    env: opts.env ?? {},
    readFile: (path) => memory === null ? disk.readFile(path) : memory.readFile(path),
    realPath: (path) => memory === null ? disk.realPath(path) : memory.realPath(path),
    repositoryTop: (dir) => {
      if (memory === null) return disk.repositoryTop(dir);
      const at = memory.realPath(dir);
      return repository !== null && (at === repository || at.startsWith(`${repository}/`))
        ? repository
        : null;
    },
    stdout: (t) => stdout += t,
    stderr: (t) => stderr += t,
    writeFiles: (files) => {
      for (const [path, text] of files) written[path] = text;
      return null;
    },
    watch,
  };
  return { io, done: (code) => ({ code, stdout, stderr, written, watched, watchClosed }) };
}

/**
 * Runs `ritsu <argv>` in-process, for a command that answers at once. Files come from `files` when
 * given (path → content), else from disk; the environment is empty unless `env` says otherwise.
 */
export function runCli(argv: readonly string[], opts: RunOptions = {}): Run {
  const { io, done } = capturingIo(opts);
  const code = main(argv, io);
  if (typeof code !== "number") throw new Error(`${argv.join(" ")} waits: run it with runCliAsync`);
  return done(code);
}

/** Runs `ritsu <argv>` in-process as `runCli` does, waiting for a command that waits (`chobo verify`). */
export async function runCliAsync(argv: readonly string[], opts: RunOptions = {}): Promise<Run> {
  const { io, done } = capturingIo(opts);
  return done(await main(argv, io));
}
