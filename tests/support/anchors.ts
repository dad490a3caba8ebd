/**
 * The anchors of a Markdown page's headings, and the `docs/<page>.md#<anchor>` references that
 * generated files and the code's comments cite, so tests can say that each names a heading.
 * @module
 */

/** A reference into the docs as files and comments write it: `docs/design/chobo.md#ids`. */
export const DOCS_LINK: RegExp = /docs\/((?:[a-z-]+\/)*[a-z-]+\.md)#([\p{L}\p{N}_-]+)/gu;

/**
 * The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as `-`,
 * repeats numbered. Headings inside fenced blocks are not headings.
 *
 * @example
 * ```ts
 * anchorsOf("# A\n## Keys and content\n## Keys and content\n"); // {"a", "keys-and-content", "keys-and-content-1"}
 * ```
 */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "");
  for (const [, title] of prose.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = title.trim().toLowerCase().replace(/[^\p{L}\p{N}\p{M} _-]/gu, "").replaceAll(" ", "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}
