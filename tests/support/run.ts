/**
 * Runs the CLI in-process with captured output, for tests.
 * @module
 */

import { main } from "../../cli.ts";
import { denoIo, type Io, type Watched, type Watcher } from "../../commands/io.ts";

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
  /** path → content; without it, files come from disk. */
  readonly files?: Record<string, string | Uint8Array>;
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
  const files = opts.files === undefined ? undefined : { ...opts.files };
  const disk = denoIo();
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
        if (files === undefined) throw new Error("a change needs the run's files in memory");
        for (const [path, content] of Object.entries(next.change)) {
          if (content === null) delete files[path];
          else files[path] = content;
        }
        return Promise.resolve({ kind: "changed", paths: paths.filter((p) => p in next.change) });
      },
      close: () => watchClosed = true,
    };
  };
  const io: Io = {
    env: opts.env ?? {},
    readFile: (path) => {
      if (files === undefined) return disk.readFile(path);
      const content = files[path];
      if (content === undefined) throw new Deno.errors.NotFound(path);
      return typeof content === "string" ? new TextEncoder().encode(content) : content;
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
