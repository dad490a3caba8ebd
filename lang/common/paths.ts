/**
 * Paths as POSIX writes them, in plain TypeScript: the languages' stages run in a browser too (the
 * playground), where `node:path` is not. `tests/common/paths_test.ts` holds `besidePath` to
 * `node:path`'s `normalize(join(dirname(file), path))` over written and random paths.
 * @module
 */

/**
 * `path` (as a flow writes it) made relative to the directory of `file`, normalized: `.` segments and
 * repeated slashes dropped, `..` taking the segment before it away (kept at the start of a relative path).
 *
 * @example
 * ```ts
 * besidePath("examples/orders/orders.flow", "../inventory/inventory.book"); // "examples/inventory/inventory.book"
 * ```
 */
export function besidePath(file: string, path: string): string {
  return normalizePath(path === "" ? directoryOf(file) : `${directoryOf(file)}/${path}`);
}

/** The directory `file` is in, as `node:path`'s `dirname` says it (final slashes of `file` ignored). */
function directoryOf(file: string): string {
  const trimmed = file.replace(/\/+$/, "");
  if (trimmed === "") return file === "" ? "." : "/";
  const slash = trimmed.lastIndexOf("/");
  if (slash < 0) return ".";
  return slash === 0 ? "/" : trimmed.slice(0, slash);
}

/** A path with `.`, `..` and repeated slashes resolved; `.` when nothing is left, a final slash kept. */
function normalizePath(path: string): string {
  const absolute = path.startsWith("/");
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part !== "..") parts.push(part);
    else if (parts.length > 0 && parts[parts.length - 1] !== "..") parts.pop();
    else if (!absolute) parts.push("..");
  }
  const body = parts.join("/");
  const trailing = path.endsWith("/") ? "/" : "";
  if (absolute) return body === "" ? "/" : `/${body}${trailing}`;
  return body === "" ? (trailing === "" ? "." : "./") : `${body}${trailing}`;
}
