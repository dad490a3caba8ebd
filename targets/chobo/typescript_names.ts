/**
 * What the TypeScript clients of both targets share: how names, fields and comments are written,
 * the reasons a book may refuse with, and the line before the runtime, so that both clients spell
 * a book the same way.
 * @module
 */

import { BUILTIN_REASONS } from "../../lang/chobo/resolve.ts";
import type { Account, Book, Param, Transfer } from "../../lang/chobo/model.ts";
import { lookup } from "../../lang/common/assert.ts";
import { oneLine } from "../../lang/common/visible.ts";
import { distinctSpellings, members, pascalCase } from "./names.ts";

/** The line between a client's book part and the runtime it ends with, in both targets. */
export const RUNTIME_MARK = "// chobo runtime";

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

/** A description inside a comment: on one line, its star-slash escaped, so that it cannot end the comment. */
export function commentText(description: string): string {
  return oneLine(description).replaceAll("*/", "*\\/");
}

/** A JSDoc line from a book's description, or nothing. */
export function doc(description: string | null, indent: string): string {
  return description === null ? "" : `${indent}/** ${commentText(description)} */\n`;
}

/**
 * The stems of the type names `<stem>Args`, `<stem>Account` …, one per name of a book's transfers
 * or of its accounts: PascalCase of a name made of ASCII words (`take_back` → `TakeBack`), any
 * other name as written but for a character an identifier cannot hold (a chobo name may carry an
 * enclosing mark), which becomes `_`; a stem that collides gets `_2`, `_3` … Every suffix ends
 * differently, so stems of transfers and of accounts never make the same name.
 */
export function typeNames(names: readonly string[]): Map<string, string> {
  return distinctSpellings(
    names,
    (n) => [...pascalCase(n)].map((c, i) => IDENTIFIER.test(i === 0 ? c : `_${c}`) ? c : "_").join(""),
  );
}

/** The parameters an operation's function takes after the tenant, in declared order (`calls.ts`). */
export function paramsOf(t: Transfer, op: "do" | "hold" | "post" | "void" | "status"): readonly Param[] {
  if (op === "do" || op === "hold") return t.params;
  return t.params.filter((p) => t.key.includes(p.name) || (op === "post" && p.type.kind === "amount"));
}

/** The fields of an arguments type: strings and `bigint` amounts. */
export function fields(params: readonly Param[], names: ReadonlyMap<string, string>): string {
  return params.map((p) =>
    `  readonly ${prop(lookup(names, p.name, "parameter"))}: ${
      p.type.kind === "string" ? "string" : "bigint"
    };\n`
  ).join("");
}

/** The reasons a call of this book may be refused with: its bounds' in declared order, then chobo's. */
export function reasonsOf(book: Book): string[] {
  const bound = book.accounts.flatMap((a) => [a.lower, a.upper]).flatMap((b) => b === null ? [] : [b.reason]);
  return [...new Set([...bound, ...BUILTIN_REASONS])];
}

/** How a client names the types and members of a book, the same in both targets. */
export function surfaceNames(book: Book) {
  const m = members(book, "typescript");
  const transferTypes = typeNames(book.transfers.map((t) => t.name));
  const accountTypes = typeNames(book.accounts.map((a) => a.name));
  const typeOf = (t: Transfer) => lookup(transferTypes, t.name, "transfer");
  const accountType = (a: Account) => `${lookup(accountTypes, a.name, "account")}Account`;
  const transferMember = (t: Transfer) => lookup(m.transfers, t.name, "transfer");
  const accountMember = (a: Account) => lookup(m.accounts, a.name, "account");
  const transferArgs = (t: Transfer) => lookup(m.transferParams, t.name, "transfer");
  const accountArgs = (a: Account) => lookup(m.accountParams, a.name, "account");
  const holds = (t: Transfer) => t.pending !== null;
  const amounts = (t: Transfer) => t.params.filter((p) => p.type.kind === "amount");
  return { typeOf, accountType, transferMember, accountMember, transferArgs, accountArgs, holds, amounts };
}

/**
 * A client's types: the reasons, each transfer's arguments, key and amounts, each account's
 * arguments, and the `Book` interface with `extra` members (PostgreSQL's `expire()`) at its end.
 */
export function surfaceTypes(book: Book, on: string, extra: string): string {
  const { typeOf, accountType, transferMember, accountMember, transferArgs, accountArgs, holds, amounts } =
    surfaceNames(book);
  const parts: string[] = [];
  parts.push(`
/** Every reason a call may be refused with: the book's bounds', then chobo's own (docs/reference.md#meaning). */
const REASONS = [
${reasonsOf(book).map((r) => `  ${JSON.stringify(r)},\n`).join("")}] as const;

/** Why a call is refused. */
export type Reason = typeof REASONS[number];

/** The answer of \`do\`, \`hold\`, \`post\` and \`void\`. */
export type Result = Outcome<Reason>;
`);

  for (const t of book.transfers) {
    const names = transferArgs(t);
    const name = typeOf(t);
    parts.push(
      `\n/** The arguments of ${t.name}.${holds(t) ? "hold" : "do"}. */\nexport interface ${name}Args {\n${
        fields(t.params, names)
      }}\n`,
    );
    if (!holds(t)) continue;
    parts.push(
      `\n/** The key of a ${t.name} hold. */\nexport interface ${name}Key {\n${
        fields(paramsOf(t, "void"), names)
      }}\n`,
    );
    if (amounts(t).length > 0) {
      parts.push(
        `\n/** The amounts of a partial ${t.name}.post: every one of them. */\nexport interface ${name}Amounts {\n${
          fields(amounts(t), names)
        }}\n`,
      );
    }
  }
  for (const a of book.accounts) {
    if (a.params.length === 0) continue;
    const names = accountArgs(a);
    parts.push(
      `\n/** Which ${a.name} account. */\nexport interface ${accountType(a)} {\n${
        a.params.map((p) => `  readonly ${prop(lookup(names, p, "parameter"))}: string;\n`).join("")
      }}\n`,
    );
  }

  const transferMembers = book.transfers.map((t) => {
    const name = typeOf(t);
    const ops = holds(t)
      ? [
        `hold(args: ${name}Args): Promise<Result>;`,
        amounts(t).length > 0
          ? `/** Without amounts it posts in full. */\n    post(key: ${name}Key, amounts?: ${name}Amounts): Promise<Result>;`
          : `post(key: ${name}Key): Promise<Result>;`,
        `void(key: ${name}Key): Promise<Result>;`,
        `/** null when there is no hold. */\n    status(key: ${name}Key): Promise<HoldState | null>;`,
      ]
      : [`do(args: ${name}Args): Promise<Result>;`];
    return `${doc(t.description, "  ")}  readonly ${prop(transferMember(t))}: {\n${
      ops.map((o) => `    ${o}\n`).join("")
    }  };\n`;
  }).join("");
  const accountMembers = book.accounts.map((a) => {
    const args = a.params.length === 0 ? "" : `account: ${accountType(a)}`;
    return `${doc(a.description, "    ")}    ${prop(accountMember(a))}(${args}): Promise<Balance>;\n`;
  }).join("");
  parts.push(`
/**
 * The book ${book.name} v${book.version} on ${on}, for one tenant.${
    book.description === null ? "" : `\n *\n * ${commentText(book.description)}`
  }
 */
export interface Book {
${transferMembers}  /** The numbers of an account; an account never written reads 0, 0, 0. */
  readonly balance: {
${accountMembers}  };
${extra}}
`);
  return parts.join("");
}
