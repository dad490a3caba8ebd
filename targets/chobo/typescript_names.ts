/**
 * What the TypeScript clients of both targets share: how names, fields and comments are written,
 * and the reasons a book may refuse with, so that both clients spell a book the same way.
 * @module
 */

import { BUILTIN_REASONS } from "../../lang/chobo/resolve.ts";
import type { Book, Param, Transfer } from "../../lang/chobo/model.ts";

const IDENTIFIER = /^[\p{ID_Start}_$][\p{ID_Continue}$\u200C\u200D]*$/u;

/** A property name: bare when it is an identifier, else quoted (`"t⃝"`). */
export function prop(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** Reading a property: `args.sku`, `args["t⃝"]`, `amounts?.数` of an object that may be missing. */
export function read(object: string, name: string, optional = false): string {
  const chain = optional ? "?." : "";
  return IDENTIFIER.test(name)
    ? `${object}${chain || "."}${name}`
    : `${object}${chain}[${JSON.stringify(name)}]`;
}

/** A description inside a comment, its star-slash escaped so that it cannot end the comment. */
export function commentText(description: string): string {
  return description.replaceAll("*/", "*\\/");
}

/** A JSDoc line from a book's description, or nothing. */
export function doc(description: string | null, indent: string): string {
  return description === null ? "" : `${indent}/** ${commentText(description)} */\n`;
}

/**
 * The stems of the type names `<stem>Args`, `<stem>Account` …, one per member: a character an
 * identifier cannot hold (a chobo name may carry an enclosing mark) becomes `_`, and a stem that
 * then collides gets `_2`, `_3` … Every suffix ends differently, so stems of transfers and of
 * accounts never make the same name.
 */
export function typeNames(names: readonly string[]): Map<string, string> {
  const used = new Set<string>();
  const out = new Map<string, string>();
  for (const n of names) {
    const base = [...n].map((c, i) => IDENTIFIER.test(i === 0 ? c : `_${c}`) ? c : "_").join("");
    let candidate = base;
    for (let i = 2; used.has(candidate); i++) candidate = `${base}_${i}`;
    used.add(candidate);
    out.set(n, candidate);
  }
  return out;
}

/** The parameters an operation's function takes after the tenant, in declared order (`calls.ts`). */
export function paramsOf(t: Transfer, op: "do" | "hold" | "post" | "void" | "status"): readonly Param[] {
  if (op === "do" || op === "hold") return t.params;
  return t.params.filter((p) => t.key.includes(p.name) || (op === "post" && p.type.kind === "amount"));
}

/** The fields of an arguments type: strings and `bigint` amounts. */
export function fields(params: readonly Param[], names: ReadonlyMap<string, string>): string {
  return params.map((p) =>
    `  readonly ${prop(names.get(p.name)!)}: ${p.type.kind === "string" ? "string" : "bigint"};\n`
  ).join("");
}

/** The reasons a call of this book may be refused with: its bounds' in declared order, then chobo's. */
export function reasonsOf(book: Book): string[] {
  const bound = book.accounts.flatMap((a) => [a.lower, a.upper]).flatMap((b) => b === null ? [] : [b.reason]);
  return [...new Set([...bound, ...BUILTIN_REASONS])];
}
