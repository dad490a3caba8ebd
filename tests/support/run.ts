/**
 * Runs the CLI in-process with captured output, for tests.
 * @module
 */

import { main } from "../../cli.ts";
import { denoIo, type Io } from "../../commands/io.ts";

/** What one run printed and returned. */
export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Files the command wrote (kept in memory). */
  readonly written: Readonly<Record<string, string>>;
}

/**
 * Runs `ritsu <argv>` in-process. Files come from `files` when given (path → content), else from
 * disk; the environment is empty unless `env` says otherwise, so no outer variable leaks in.
 */
export function runCli(
  argv: readonly string[],
  opts: { files?: Record<string, string | Uint8Array>; env?: Record<string, string> } = {},
): Run {
  const written: Record<string, string> = {};
  let stdout = "";
  let stderr = "";
  const files = opts.files;
  const disk = denoIo();
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
  };
  const code = main(argv, io);
  return { code, stdout, stderr, written };
}
