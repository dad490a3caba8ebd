/**
 * Text from a book or a flow written into Markdown so that Markdown shows it and does not read
 * it: no tag of a description reaches the page, no backtick of a value closes its code span or its
 * fenced block, no `*`, `_`, `[` or `]` makes emphasis or a link. Both pages (`chobo doc`,
 * `dandori doc`) write their user text through here.
 * @module
 */

/** Text for HTML content: `&`, `<` and `>` as entities. */
export function escapeHtml(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/**
 * Text as Markdown shows it, not as Markdown reads it: HTML is escaped and the characters that make
 * links, emphasis and code are written with a backslash.
 */
export function inline(s: string): string {
  return escapeHtml(s).replace(/[\\`*_[\]]/g, "\\$&");
}

/** A fenced block of `lines`, its fence longer than any run of backticks in them, so none can close it. */
export function fenced(info: string, lines: readonly string[]): string[] {
  const longest = Math.max(2, ...lines.flatMap((l) => (l.match(/`+/g) ?? []).map((run) => run.length)));
  const fence = "`".repeat(longest + 1);
  return [`${fence}${info}`, ...lines, fence];
}

/**
 * A code span of `s`, its backticks more than any run of them in `s` (with a space inside when `s`
 * starts or ends with one), so no character of `s` ends it.
 */
export function code(s: string): string {
  const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = "`".repeat(longest + 1);
  const pad = s.startsWith("`") || s.endsWith("`") ? " " : "";
  return `${ticks}${pad}${s}${pad}${ticks}`;
}
