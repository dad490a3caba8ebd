/**
 * The imports of a TypeScript module, read from its tokens rather than matched line by line, so that
 * every form is found and nothing that only looks like one is: `import … from "…"`, `import type …
 * from "…"`, `import "…";` (for its side effects), `export … from "…"`, and `import("…")` with a
 * literal specifier (an `import("…")` type too, which reads as a call: form `dynamic`). Comments, strings, regular expressions and template
 * literals are skipped whole, so the code a generator writes inside a template (`import … from
 * "./runtime.ts"`) is not an import of the generator. A dynamic import of a computed specifier names
 * no module and is not listed.
 * @module
 */

/** How a module is imported. */
export type ImportForm = "static" | "type-only" | "side-effect" | "export-from" | "dynamic";

/** One import: the specifier as written, and its form. */
export interface Import {
  readonly specifier: string;
  readonly form: ImportForm;
}

type Token =
  | { readonly kind: "word"; readonly text: string }
  | { readonly kind: "punct"; readonly text: string }
  | { readonly kind: "string"; readonly value: string }
  /** A template literal or a regular expression: opaque. */
  | { readonly kind: "opaque" };

/** Words after which a `/` begins a regular expression, not a division. */
const BEFORE_EXPRESSION = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
]);

const WORD = /[\p{ID_Continue}$\u200c\u200d]/u;

/** The tokens of `src` from `start`; with `inTemplate`, up to the `}` that closes a `${`. */
function lex(src: string, start: number, inTemplate: boolean): { tokens: Token[]; end: number } {
  const tokens: Token[] = [];
  let depth = 0;
  let i = start;
  const regexAllowed = () => {
    const last = tokens[tokens.length - 1];
    if (last === undefined) return true;
    if (last.kind === "punct") return ![")", "]", "}"].includes(last.text);
    if (last.kind === "word") return BEFORE_EXPRESSION.has(last.text);
    return false;
  };
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
    } else if (src.startsWith("//", i)) {
      const nl = src.indexOf("\n", i);
      i = nl < 0 ? src.length : nl;
    } else if (src.startsWith("/*", i)) {
      const close = src.indexOf("*/", i + 2);
      i = close < 0 ? src.length : close + 2;
    } else if (c === '"' || c === "'") {
      let value = "";
      i++;
      while (i < src.length && src[i] !== c) {
        if (src[i] === "\\") i++;
        value += src[i];
        i++;
      }
      i++;
      tokens.push({ kind: "string", value });
    } else if (c === "`") {
      i = templateEnd(src, i + 1);
      tokens.push({ kind: "opaque" });
    } else if (c === "/" && regexAllowed()) {
      i = regexEnd(src, i + 1);
      tokens.push({ kind: "opaque" });
    } else if (WORD.test(c)) {
      let j = i;
      while (j < src.length && WORD.test(src[j])) j++;
      tokens.push({ kind: "word", text: src.slice(i, j) });
      i = j;
    } else {
      if (c === "{") depth++;
      if (c === "}") {
        if (inTemplate && depth === 0) return { tokens, end: i + 1 };
        depth--;
      }
      tokens.push({ kind: "punct", text: c });
      i++;
    }
  }
  return { tokens, end: i };
}

/** Where a template literal whose text begins at `i` ends (after its closing backquote). */
function templateEnd(src: string, i: number): number {
  while (i < src.length && src[i] !== "`") {
    if (src[i] === "\\") i += 2;
    else if (src.startsWith("${", i)) i = lex(src, i + 2, true).end;
    else i++;
  }
  return i + 1;
}

/** Where a regular expression whose body begins at `i` ends (after its flags). */
function regexEnd(src: string, i: number): number {
  let inClass = false;
  while (i < src.length && src[i] !== "\n") {
    const c = src[i];
    if (c === "\\") i++;
    else if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    else if (c === "/" && !inClass) break;
    i++;
  }
  i++;
  while (i < src.length && WORD.test(src[i])) i++;
  return i;
}

function isWord(t: Token | undefined, text: string): boolean {
  return t?.kind === "word" && t.text === text;
}

function isPunct(t: Token | undefined, text: string): boolean {
  return t?.kind === "punct" && t.text === text;
}

/** The specifier after the `from` at or after `i`, within the clause of one import or export; null if none. */
function fromAt(tokens: readonly Token[], i: number): string | null {
  for (let j = i; j < tokens.length; j++) {
    const t = tokens[j];
    if (isWord(t, "from")) {
      const s = tokens[j + 1];
      return s?.kind === "string" ? s.value : null;
    }
    if (t.kind === "string" || t.kind === "opaque" || isPunct(t, ";") || isPunct(t, "=")) return null;
  }
  return null;
}

/** The index after the `}` that closes the `{` at `i`. */
function closeBrace(tokens: readonly Token[], i: number): number {
  let depth = 0;
  for (let j = i; j < tokens.length; j++) {
    if (isPunct(tokens[j], "{")) depth++;
    if (isPunct(tokens[j], "}") && --depth === 0) return j + 1;
  }
  return tokens.length;
}

/** Every import of the module `src`, in the order written. */
export function importsIn(src: string): Import[] {
  const tokens = lex(src, 0, false).tokens;
  const out: Import[] = [];
  tokens.forEach((t, i) => {
    if (isPunct(tokens[i - 1], ".")) return;
    const next = tokens[i + 1];
    if (isWord(t, "import")) {
      if (isPunct(next, "(")) {
        const s = tokens[i + 2];
        if (s?.kind === "string" && (isPunct(tokens[i + 3], ")") || isPunct(tokens[i + 3], ","))) {
          out.push({ specifier: s.value, form: "dynamic" });
        }
      } else if (next?.kind === "string") {
        out.push({ specifier: next.value, form: "side-effect" });
      } else if (next !== undefined && !isPunct(next, ".")) {
        const specifier = fromAt(tokens, i + 1);
        const typeOnly = isWord(next, "type") && !isWord(tokens[i + 2], "from") &&
          !isPunct(tokens[i + 2], ",");
        if (specifier !== null) out.push({ specifier, form: typeOnly ? "type-only" : "static" });
      }
    } else if (isWord(t, "export")) {
      let j = i + 1;
      if (isWord(tokens[j], "type")) j++;
      if (isPunct(tokens[j], "{")) j = closeBrace(tokens, j);
      else if (!isPunct(tokens[j], "*")) return;
      const specifier = fromAt(tokens, j);
      if (specifier !== null) out.push({ specifier, form: "export-from" });
    }
  });
  return out;
}
