/**
 * Files held in memory, read as a file system reads them: a working directory (an absolute
 * path), directories made by the files under them, and symbolic links followed component by component (`..` after a link
 * goes up from where the link leads, as on disk). The in-memory double of `Io` reads through it.
 * @module
 */

import { NotRegular } from "../../commands/io.ts";

/** The working directory relative paths are read from, unless another is given. */
export const MEMORY_CWD = "/memory";

/** As many links as one path may go through before it is a loop (Linux's `MAXSYMLINKS`). */
const MAX_LINKS = 40;

/** Files (path → bytes) and symbolic links (path → target, relative to the link's directory or absolute). */
export class MemoryFs {
  private readonly files = new Map<string, Uint8Array>();
  private readonly links = new Map<string, string>();

  constructor(
    files: Readonly<Record<string, string | Uint8Array>>,
    links: Readonly<Record<string, string>> = {},
    private readonly cwd: string = MEMORY_CWD,
  ) {
    for (const [path, target] of Object.entries(links)) this.links.set(this.follow(path, false), target);
    for (const [path, content] of Object.entries(files)) {
      const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
      this.files.set(this.follow(path, false), bytes);
    }
  }

  /** Writes a file's new content, or removes it (null): what a watched file's change does. */
  change(path: string, content: string | null): void {
    const at = this.follow(path, false);
    if (content === null) this.files.delete(at);
    else this.files.set(at, new TextEncoder().encode(content));
  }

  /** The bytes of a regular file: a link or a directory is refused as the disk's reader refuses it. */
  readFile(path: string): Uint8Array {
    const at = this.follow(path, false);
    if (this.links.has(at)) throw new NotRegular("symlink");
    if (this.isDirectory(at)) throw new NotRegular("directory");
    const bytes = this.files.get(at);
    if (bytes === undefined) throw new Deno.errors.NotFound(path);
    return bytes;
  }

  /** The real path: every link followed; `NotFound` when nothing is there. */
  realPath(path: string): string {
    const at = this.follow(path, true);
    if (!this.files.has(at) && !this.isDirectory(at)) throw new Deno.errors.NotFound(path);
    return at;
  }

  /** The absolute path of `path`, its links followed (the last one only when `last`). */
  private follow(path: string, last: boolean, hops = { n: 0 }): string {
    const parts = (path.startsWith("/") ? path : `${this.cwd}/${path}`).split("/");
    let at = "";
    parts.forEach((part, i) => {
      if (part === "" || part === ".") return;
      if (part === "..") {
        at = at.slice(0, at.lastIndexOf("/"));
        return;
      }
      at = `${at}/${part}`;
      const target = this.links.get(at);
      if (target === undefined || (!last && i === parts.length - 1)) return;
      if (++hops.n > MAX_LINKS) throw new Error(`${path}: too many levels of symbolic links`);
      const dir = at.slice(0, at.lastIndexOf("/"));
      at = this.follow(target.startsWith("/") ? target : `${dir}/${target}`, true, hops);
    });
    return at === "" ? "/" : at;
  }

  private isDirectory(at: string): boolean {
    const prefix = at === "/" ? "/" : `${at}/`;
    return [...this.files.keys(), ...this.links.keys()].some((p) => p.startsWith(prefix));
  }
}
