/**
 * The outside world a command sees: environment, files, and the two output streams. Commands
 * take an `Io` so tests run them in-process on files in memory.
 * @module
 */

import { type Text, tr } from "../lang/common/text.ts";

/** What a command reads and writes. */
export interface Io {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Reads a file's bytes; throws the platform's error when it cannot. */
  readFile(path: string): Uint8Array;
  stdout(text: string): void;
  stderr(text: string): void;
  /**
   * Writes a whole file, creating its directory, through a temporary file renamed into place so
   * a reader never sees half of it; returns why it could not, or null.
   */
  writeFile(path: string, text: string): Text | null;
}

/** The real process: Deno's environment, file system and streams. */
export function denoIo(): Io {
  const encoder = new TextEncoder();
  return {
    env: Deno.env.toObject(),
    readFile: (path) => Deno.readFileSync(path),
    stdout: (text) => writeAll(Deno.stdout, encoder.encode(text)),
    stderr: (text) => writeAll(Deno.stderr, encoder.encode(text)),
    writeFile: (path, text) => {
      const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".";
      const temp = `${path}.tmp-${Deno.pid}`;
      try {
        Deno.mkdirSync(dir, { recursive: true });
        Deno.writeTextFileSync(temp, text);
        Deno.renameSync(temp, path);
        return null;
      } catch (e) {
        try {
          Deno.removeSync(temp);
        } catch {
          // Nothing was written, or it is gone already.
        }
        return whyUnwritable(path, e);
      }
    },
  };
}

function whyUnwritable(path: string, e: unknown): Text {
  if (e instanceof Deno.errors.PermissionDenied) {
    return tr(`${path}: permission denied`, `${path}: 書く権限がありません`);
  }
  const reason = e instanceof Error ? e.message : String(e);
  return tr(`${path}: cannot be written (${reason})`, `${path}: 書けません(${reason})`);
}

/** Writes everything; when the reader has gone (a closed pipe), the rest is dropped, not an error. */
function writeAll(stream: { writeSync(p: Uint8Array): number }, bytes: Uint8Array): void {
  let done = 0;
  try {
    while (done < bytes.length) done += stream.writeSync(bytes.subarray(done));
  } catch (e) {
    if (!(e instanceof Deno.errors.BrokenPipe)) throw e;
  }
}

/** Reads a file, or says in one line why it cannot be read. */
export function readInput(io: Io, path: string): { bytes: Uint8Array } | { error: Text } {
  try {
    return { bytes: io.readFile(path) };
  } catch (e) {
    return { error: whyUnreadable(path, e) };
  }
}

function whyUnreadable(path: string, e: unknown): Text {
  if (e instanceof Deno.errors.NotFound) return tr(`${path}: no such file`, `${path}: ファイルがありません`);
  if (e instanceof Deno.errors.PermissionDenied) {
    return tr(`${path}: permission denied`, `${path}: 読む権限がありません`);
  }
  if (e instanceof Deno.errors.IsADirectory) {
    return tr(`${path}: is a directory`, `${path}: ディレクトリです`);
  }
  const reason = e instanceof Error ? e.message : String(e);
  return tr(`${path}: cannot be read (${reason})`, `${path}: 読めません(${reason})`);
}
