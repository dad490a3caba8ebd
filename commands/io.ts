/**
 * The outside world a command sees: environment, files, the two output streams, and watching files
 * for changes (and for Ctrl-C). Commands take an `Io` so tests run them in-process on files in memory.
 * @module
 */

import { dirname, resolve } from "node:path";
import { maskText } from "../lang/common/secrets.ts";
import { workTreeTop } from "./git.ts";
import { type Text, tr } from "../lang/common/text.ts";
import { visible } from "../lang/common/visible.ts";

/** What a command reads and writes. */
export interface Io {
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Reads a regular file's bytes, at most `MAX_INPUT_BYTES`; throws the platform's error when it
   * cannot, `NotRegular` for anything but a regular file (a symlink, a device, a directory) and
   * `TooLarge` past the limit.
   */
  readFile(path: string): Uint8Array;
  /**
   * The real path of `path`: absolute, every symbolic link followed, no `.` or `..`; throws the
   * platform's error when it cannot (`Deno.errors.NotFound` when nothing is there).
   */
  realPath(path: string): string;
  /**
   * The top directory of the git work tree the directory `dir` is in, or null when it is in none
   * (or git cannot be run).
   */
  repositoryTop(dir: string): string | null;
  stdout(text: string): void;
  stderr(text: string): void;
  /**
   * Writes files (path → text), creating their directories: each goes to a temporary file of a
   * random name created exclusively beside it, and only when every one is written are they renamed
   * into place, so a reader never sees half of a file and a build that fails writes none. A file
   * that is replaced keeps its mode. Returns why it could not, or null.
   */
  writeFiles(files: ReadonlyMap<string, string>): Text | null;
  /**
   * Starts watching the files at `paths` (which need not exist yet: their directories are watched, so
   * a file an editor replaces by a rename is seen too). Throws the platform's error when a directory
   * cannot be watched.
   */
  watch(paths: readonly string[]): Watcher;
}

/** What a watcher saw: some of the watched paths changed, or the user asked to stop (Ctrl-C). */
export type Watched =
  | { readonly kind: "changed"; readonly paths: readonly string[] }
  | { readonly kind: "interrupted" };

/** A watch of some files (`Io.watch`): the next thing that happens, until it is closed. */
export interface Watcher {
  /**
   * Waits for the next change of a watched path (changes that come within `SETTLE_MS` of each other
   * are one), or for Ctrl-C (SIGINT), which ends the watch instead of the process.
   */
  next(): Promise<Watched>;
  /** Stops watching; Ctrl-C ends the process again. */
  close(): void;
}

/** Writes one whole file as `writeFiles` does. */
export function writeFile(io: Io, path: string, text: string): Text | null {
  return io.writeFiles(new Map([[path, text]]));
}

/**
 * `io` as commands print through it: every key-shaped value of what goes to stdout or stderr is
 * masked (a PEM block whole), and every character that would act on a terminal instead of showing
 * is written as `\uXXXX` (lang/common/visible.ts). A command's output is for people and for
 * programs reading JSON, and both read the same values: inside a JSON string the escapes mean
 * the same characters. Files are written as they are: what a build writes is checked before.
 */
export function shownIo(io: Io): Io {
  return {
    ...io,
    stdout: (text) => io.stdout(visible(maskText(text))),
    stderr: (text) => io.stderr(visible(maskText(text))),
  };
}

/**
 * The real process: Deno's environment, file system and streams. A directory's work tree is asked
 * of git once a process (`dandori check` of 113 flows in 20 directories ran git 113 times, 257 ms
 * of its 780).
 */
export function denoIo(): Io {
  const encoder = new TextEncoder();
  const tops = new Map<string, string | null>();
  return {
    env: Deno.env.toObject(),
    readFile: readRegular,
    realPath: (path) => Deno.realPathSync(path),
    repositoryTop: (dir) => {
      if (!tops.has(dir)) tops.set(dir, workTreeTop(dir));
      return tops.get(dir) ?? null;
    },
    stdout: (text) => writeAll(Deno.stdout, encoder.encode(text)),
    stderr: (text) => writeAll(Deno.stderr, encoder.encode(text)),
    writeFiles: (files) => writeAllOrNone(files),
    watch: (paths) => new FsWatcher(paths),
  };
}

/**
 * How long a watcher waits after a change for more before it says so: an editor's save is often
 * several events (a write, a rename, a change of mode), and one check of them all is enough.
 */
export const SETTLE_MS = 100;

/** `Io.watch` on the real file system: the files' directories through `Deno.watchFs`, and SIGINT. */
class FsWatcher implements Watcher {
  private readonly fs: Deno.FsWatcher;
  /** Watched path as resolved → the path as given. */
  private readonly watched: ReadonlyMap<string, string>;
  private readonly changed = new Set<string>();
  private interrupted = false;
  private wake: (() => void) | null = null;
  private readonly onInterrupt = () => {
    this.interrupted = true;
    this.wake?.();
  };

  constructor(paths: readonly string[]) {
    this.watched = new Map(paths.map((p) => [resolve(p), p]));
    this.fs = Deno.watchFs([...new Set([...this.watched.keys()].map(dirname))], { recursive: false });
    Deno.addSignalListener("SIGINT", this.onInterrupt);
    void this.listen();
  }

  private async listen(): Promise<void> {
    for await (const event of this.fs) {
      // Reading a file is an event too (`access`): the check's own reads must not start another.
      if (event.kind === "access") continue;
      for (const p of event.paths) {
        const given = this.watched.get(p);
        if (given !== undefined) this.changed.add(given);
      }
      if (this.changed.size > 0) this.wake?.();
    }
  }

  async next(): Promise<Watched> {
    for (;;) {
      if (this.interrupted) return { kind: "interrupted" };
      if (this.changed.size > 0) {
        await new Promise((r) => setTimeout(r, SETTLE_MS));
        if (this.interrupted) return { kind: "interrupted" };
        const paths = [...this.watched.values()].filter((p) => this.changed.has(p));
        this.changed.clear();
        return { kind: "changed", paths };
      }
      await new Promise<void>((r) => this.wake = r);
      this.wake = null;
    }
  }

  close(): void {
    Deno.removeSignalListener("SIGINT", this.onInterrupt);
    this.fs.close();
  }
}

/**
 * The most bytes read of one input (a book, a flow, a scenario file): far more than anyone writes
 * by hand; a file that goes on past it (`/dev/zero`, a log) is refused instead of filling memory.
 */
export const MAX_INPUT_BYTES = 8 * 1024 * 1024;

/** A path that is not a regular file: reading it could follow a link or never end. */
export class NotRegular extends Error {
  constructor(readonly what: "symlink" | "directory" | "special") {
    super(what);
  }
}

/** A file past `MAX_INPUT_BYTES`. */
export class TooLarge extends Error {}

function readRegular(path: string): Uint8Array {
  const info = Deno.lstatSync(path);
  if (info.isSymlink) throw new NotRegular("symlink");
  if (info.isDirectory) throw new NotRegular("directory");
  if (!info.isFile) throw new NotRegular("special");
  const file = Deno.openSync(path, { read: true });
  try {
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const buf = new Uint8Array(64 * 1024);
      const n = file.readSync(buf);
      if (n === null) break;
      total += n;
      if (total > MAX_INPUT_BYTES) throw new TooLarge(path);
      chunks.push(buf.subarray(0, n));
    }
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  } finally {
    file.close();
  }
}

/** A name beside `path` no other writer uses: `.<name>.<random>.tmp`. */
function tempBeside(path: string): string {
  const cut = path.lastIndexOf("/");
  const random = crypto.getRandomValues(new Uint8Array(8)).reduce(
    (s, b) => s + b.toString(16).padStart(2, "0"),
    "",
  );
  return `${path.slice(0, cut + 1)}.${path.slice(cut + 1)}.${random}.tmp`;
}

function writeAllOrNone(files: ReadonlyMap<string, string>): Text | null {
  const written: [string, string][] = [];
  let failed: Text | null = null;
  for (const [path, text] of files) {
    const temp = tempBeside(path);
    try {
      if (isDirectory(path)) throw new Deno.errors.IsADirectory(path);
      const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".";
      const blocking = fileAbove(dir);
      if (blocking !== null) throw new FileInTheWay(blocking);
      Deno.mkdirSync(dir, { recursive: true });
      // createNew opens exclusively: a name planted beforehand (a symlink too) is never written through.
      Deno.writeTextFileSync(temp, text, { createNew: true, mode: 0o644 });
      written.push([temp, path]);
      const old = modeOf(path);
      if (old !== null) Deno.chmodSync(temp, old);
    } catch (e) {
      failed = whyUnwritable(path, e);
      break;
    }
  }
  if (failed === null) {
    for (const [temp, path] of written) {
      try {
        Deno.renameSync(temp, path);
      } catch (e) {
        failed ??= whyUnwritable(path, e);
      }
    }
  }
  if (failed !== null) {
    for (const [temp] of written) {
      try {
        Deno.removeSync(temp);
      } catch {
        // Renamed into place before the failure, or gone already.
      }
    }
  }
  return failed;
}

/** A path where a directory must be (a file's directory, `--out`) that holds something else. */
class FileInTheWay extends Error {
  constructor(readonly path: string) {
    super(path);
  }
}

/** The nearest of `dir` and its parents that exists, when it is not a directory; else null. */
function fileAbove(dir: string): string | null {
  for (let at = dir; at !== "" && at !== "."; at = at.includes("/") ? at.slice(0, at.lastIndexOf("/")) : "") {
    try {
      return Deno.statSync(at).isDirectory ? null : at;
    } catch {
      // Not there (or under a file): look further up.
    }
  }
  return null;
}

function isDirectory(path: string): boolean {
  try {
    return Deno.lstatSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** The permission bits of an existing regular file, or null (none there, or not a plain file). */
function modeOf(path: string): number | null {
  try {
    const info = Deno.lstatSync(path);
    return info.isFile && info.mode !== null ? info.mode & 0o7777 : null;
  } catch {
    return null;
  }
}

function whyUnwritable(path: string, e: unknown): Text {
  if (e instanceof FileInTheWay) {
    return tr(
      `${e.path}: is a file, but it must be a directory to write ${path} into (--out names a directory)`,
      `${e.path}: ファイルですが、${path} を書き込むにはディレクトリでなければなりません(--out にはディレクトリを渡します)`,
    );
  }
  if (e instanceof Deno.errors.IsADirectory) {
    return tr(`${path}: is a directory`, `${path}: ディレクトリです`);
  }
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

/** Reads a file, or says in one line why it cannot be read (`missing` when there is no such file). */
export function readInput(io: Io, path: string): { bytes: Uint8Array } | { error: Text; missing: boolean } {
  try {
    return { bytes: io.readFile(path) };
  } catch (e) {
    return { error: whyUnreadable(path, e), missing: e instanceof Deno.errors.NotFound };
  }
}

function whyUnreadable(path: string, e: unknown): Text {
  if (e instanceof Deno.errors.NotFound) return tr(`${path}: no such file`, `${path}: ファイルがありません`);
  if (e instanceof NotRegular) {
    return e.what === "directory"
      ? tr(`${path}: is a directory`, `${path}: ディレクトリです`)
      : e.what === "symlink"
      ? tr(
        `${path}: is a symbolic link; only regular files are read`,
        `${path}: シンボリックリンクです。読むのは通常のファイルだけです`,
      )
      : tr(
        `${path}: is not a regular file (a device, a pipe or a socket); only regular files are read`,
        `${path}: 通常のファイルではありません(デバイス、パイプ、ソケット)。読むのは通常のファイルだけです`,
      );
  }
  if (e instanceof TooLarge) {
    return tr(
      `${path}: is larger than the ${MAX_INPUT_BYTES} bytes an input may have`,
      `${path}: 入力に許す ${MAX_INPUT_BYTES} バイトより大きいファイルです`,
    );
  }
  if (e instanceof Deno.errors.PermissionDenied) {
    return tr(`${path}: permission denied`, `${path}: 読む権限がありません`);
  }
  if (e instanceof Deno.errors.IsADirectory) {
    return tr(`${path}: is a directory`, `${path}: ディレクトリです`);
  }
  const reason = e instanceof Error ? e.message : String(e);
  return tr(`${path}: cannot be read (${reason})`, `${path}: 読めません(${reason})`);
}
