/**
 * `chobo build --target tigerbeetle-typescript` (seed chobo 4.2, 4.3): one file `<book>.ts` with the
 * surface of the PostgreSQL client (`postgres-typescript`) on TigerBeetle — the book's types and
 * members, the book's definition as data, then the runtime every book shares, copied byte for
 * byte after a line `// chobo runtime`. The runtime computes the ids of seed 4.3 and builds the
 * chains of `chain.ts`, so the client sends exactly what `chobo run --show tigerbeetle` prints.
 *
 * `tigerbeetle(client, { tenant })` takes tigerbeetle-node 0.17.9's client (`createClient(…)`) or
 * anything with its `createAccounts`, `createTransfers`, `lookupAccounts` and `lookupTransfers`;
 * the file itself imports only `node:crypto`. There is no `expire()`: TigerBeetle gives expired
 * holds back by itself (seed 4.2 「有効期限」).
 * @module
 */

import { definitionHash } from "../../../lang/chobo/api.ts";
import type { Account, Book, Param, Transfer } from "../../../lang/chobo/model.ts";
import { BUILTIN_REASONS } from "../../../lang/chobo/resolve.ts";
import { members } from "../names.ts";
import { RUNTIME_MARK } from "../postgres/typescript.ts";

/** The runtime every TigerBeetle TypeScript client ends with, byte for byte. */
const TYPESCRIPT_RUNTIME: string = Deno.readTextFileSync(
  new URL("./runtime/runtime.ts", import.meta.url),
);

const IDENTIFIER = /^[\p{ID_Start}_$][\p{ID_Continue}$\u200C\u200D]*$/u;

/** A property name: bare when it is an identifier, else quoted (`"t⃝"`). */
function prop(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** Reading a property: `args.sku`, `args["t⃝"]`, `amounts?.数` of an object that may be missing. */
function read(object: string, name: string, optional = false): string {
  const chain = optional ? "?." : "";
  return IDENTIFIER.test(name)
    ? `${object}${chain || "."}${name}`
    : `${object}${chain}[${JSON.stringify(name)}]`;
}

/** A description inside a comment, its star-slash escaped so that it cannot end the comment. */
function commentText(description: string): string {
  return description.replaceAll("*/", "*\\/");
}

/** A JSDoc line from a book's description, or nothing. */
function doc(description: string | null, indent: string): string {
  return description === null ? "" : `${indent}/** ${commentText(description)} */\n`;
}

/**
 * The stems of the type names `<stem>Args`, `<stem>Account` …, one per member, as the PostgreSQL
 * client names them: a character an identifier cannot hold becomes `_`, a stem that then
 * collides gets `_2`, `_3` … The runtime's names end otherwise, so none of them collides.
 */
function typeNames(names: readonly string[]): Map<string, string> {
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

/** The parameters an operation takes, in declared order: all for `do`/`hold`, else the key (and `post`'s amounts). */
function paramsOf(t: Transfer, op: "do" | "hold" | "post" | "void" | "status"): readonly Param[] {
  if (op === "do" || op === "hold") return t.params;
  return t.params.filter((p) => t.key.includes(p.name) || (op === "post" && p.type.kind === "amount"));
}

function fields(params: readonly Param[], names: ReadonlyMap<string, string>): string {
  return params.map((p) =>
    `  readonly ${prop(names.get(p.name)!)}: ${p.type.kind === "string" ? "string" : "bigint"};\n`
  ).join("");
}

/** The reasons a call of this book may be refused with: its bounds' in declared order, then chobo's. */
function reasonsOf(book: Book): string[] {
  const bound = book.accounts.flatMap((a) => [a.lower, a.upper]).flatMap((b) => b === null ? [] : [b.reason]);
  return [...new Set([...bound, ...BUILTIN_REASONS])];
}

/** A bigint literal. */
function big(v: bigint): string {
  return `${v}n`;
}

/** The book as the runtime's `BookDefinition`, as TypeScript source. */
function definitionSource(book: Book): string {
  const unitAt = (name: string) => book.units.findIndex((u) => u.name === name);
  const accountAt = (name: string) => book.accounts.findIndex((a) => a.name === name);
  const str = (s: string) => JSON.stringify(s);
  const list = (xs: readonly string[]) => `[${xs.map(str).join(", ")}]`;
  const bound = (b: Account["lower"]) =>
    b === null ? "null" : `{ value: ${big(b.value)}, reason: ${str(b.reason)} }`;
  const units = book.units.map((u) => `    { name: ${str(u.name)}, scale: ${u.scale} },\n`).join("");
  const accounts = book.accounts.map((a) =>
    `    { name: ${str(a.name)}, params: ${list(a.params)}, unit: ${unitAt(a.unit.name)}, lower: ${
      bound(a.lower)
    }, upper: ${bound(a.upper)} },\n`
  ).join("");
  const transfers = book.transfers.map((t) => {
    const pending = t.pending === null
      ? "null"
      : `{ timeout: ${t.pending.expires === "after" ? Number(t.pending.seconds) : 0} }`;
    const params = t.params.map((p) => `{ name: ${str(p.name)}, amount: ${p.type.kind === "amount"} }`);
    const moves = t.moves.map((m) => {
      const amount = m.amount.kind === "param"
        ? `{ param: ${str(m.amount.param)} }`
        : `{ literal: ${big(m.amount.value)} }`;
      const side = (s: "from" | "to") =>
        `{ account: ${accountAt(m[s].account.name)}, args: ${list(m[s].args)} }`;
      return `        { amount: ${amount}, unit: ${unitAt(m.unit.name)}, from: ${side("from")}, to: ${
        side("to")
      } },\n`;
    }).join("");
    return `    {
      name: ${str(t.name)},
      params: [${params.join(", ")}],
      key: ${list(t.key)},
      pending: ${pending},
      definition_hash: ${str(definitionHash(t))},
      moves: [
${moves}      ],
    },
`;
  }).join("");
  return `const DEFINITION: BookDefinition = {
  name: ${str(book.name)},
  units: [
${units}  ],
  accounts: [
${accounts}  ],
  transfers: [
${transfers}  ],
};
`;
}

/** The TigerBeetle client of one book: `<book>.ts`. */
export function tigerbeetleTypescriptClient(
  book: Book,
  origin: { readonly file: string; readonly sha: string; readonly version: string },
): Map<string, string> {
  const m = members(book, "typescript");
  const transferTypes = typeNames(book.transfers.map((t) => m.transfers.get(t.name)!));
  const accountTypes = typeNames(book.accounts.map((a) => m.accounts.get(a.name)!));
  const typeOf = (t: Transfer) => transferTypes.get(m.transfers.get(t.name)!)!;
  const accountType = (a: Account) => `${accountTypes.get(m.accounts.get(a.name)!)!}Account`;
  const transferArgs = (t: Transfer) => m.transferParams.get(t.name)!;
  const accountArgs = (a: Account) => m.accountParams.get(a.name)!;
  const holds = (t: Transfer) => t.pending !== null;
  const amounts = (t: Transfer) => t.params.filter((p) => p.type.kind === "amount");

  const out: string[] = [
    `// Code generated by chobo ${origin.version}. DO NOT EDIT.\n`,
    `// Source: ${origin.file} (book ${book.name} v${book.version}, sha256:${origin.sha})\n`,
    `// Sends the book's TigerBeetle chains (seed chobo 4.2) through tigerbeetle-node 0.17.9's client.\n`,
  ];

  out.push(`
/** Every reason a call may be refused with: the book's bounds', then chobo's own (seed chobo 2.7). */
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
    out.push(
      `\n/** The arguments of ${t.name}.${holds(t) ? "hold" : "do"}. */\nexport interface ${name}Args {\n${
        fields(t.params, names)
      }}\n`,
    );
    if (!holds(t)) continue;
    out.push(
      `\n/** The key of a ${t.name} hold. */\nexport interface ${name}Key {\n${
        fields(paramsOf(t, "void"), names)
      }}\n`,
    );
    if (amounts(t).length > 0) {
      out.push(
        `\n/** The amounts of a partial ${t.name}.post: every one of them. */\nexport interface ${name}Amounts {\n${
          fields(amounts(t), names)
        }}\n`,
      );
    }
  }
  for (const a of book.accounts) {
    if (a.params.length === 0) continue;
    const names = accountArgs(a);
    out.push(
      `\n/** Which ${a.name} account. */\nexport interface ${accountType(a)} {\n${
        a.params.map((p) => `  readonly ${prop(names.get(p)!)}: string;\n`).join("")
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
    return `${doc(t.description, "  ")}  readonly ${prop(m.transfers.get(t.name)!)}: {\n${
      ops.map((o) => `    ${o}\n`).join("")
    }  };\n`;
  }).join("");
  const accountMembers = book.accounts.map((a) => {
    const args = a.params.length === 0 ? "" : `account: ${accountType(a)}`;
    return `${doc(a.description, "    ")}    ${prop(m.accounts.get(a.name)!)}(${args}): Promise<Balance>;\n`;
  }).join("");
  out.push(`
/**
 * The book ${book.name} v${book.version} on TigerBeetle, for one tenant.${
    book.description === null ? "" : `\n *\n * ${commentText(book.description)}`
  }
 */
export interface Book {
${transferMembers}  /** The numbers of an account; an account never written reads 0, 0, 0. */
  readonly balance: {
${accountMembers}  };
}

/** The book as data: the runtime builds every id and chain from it. */
${definitionSource(book)}`);

  const values = (t: Transfer, op: "do" | "hold" | "post" | "void" | "status", object: string) =>
    `[${
      paramsOf(t, op).map((p) => {
        const name = transferArgs(t).get(p.name)!;
        return op === "post" && p.type.kind === "amount" ? read("amounts", name, true) : read(object, name);
      }).join(", ")
    }]`;
  const transferValues = book.transfers.map((t, i) => {
    const ops = holds(t)
      ? [
        `hold: (args) => c.move(${i}, "hold", ${values(t, "hold", "args")}),`,
        `post: (key${amounts(t).length > 0 ? ", amounts" : ""}) => c.settle(${i}, "post", ${
          values(t, "post", "key")
        }),`,
        `void: (key) => c.settle(${i}, "void", ${values(t, "void", "key")}),`,
        `status: (key) => c.status(${i}, ${values(t, "status", "key")}),`,
      ]
      : [`do: (args) => c.move(${i}, "do", ${values(t, "do", "args")}),`];
    return `    ${prop(m.transfers.get(t.name)!)}: {\n${ops.map((o) => `      ${o}\n`).join("")}    },\n`;
  }).join("");
  const balanceValues = book.accounts.map((a, i) => {
    const names = accountArgs(a);
    const args = a.params.map((p) => read("account", names.get(p)!)).join(", ");
    return `      ${prop(m.accounts.get(a.name)!)}: (${
      a.params.length === 0 ? "" : "account"
    }) => c.balance(${i}, [${args}]),\n`;
  }).join("");
  out.push(`
/**
 * The book on \`client\` (tigerbeetle-node 0.17.9's \`createClient(…)\`) for \`tenant\` (default ""):
 * each \`do\`, \`hold\`, \`post\` and \`void\` is one chain in one request, after the accounts and
 * openings it uses (sent once per book value) or, for \`post\` and \`void\`, a lookup of the hold.
 */
export function tigerbeetle(client: TigerBeetleClient, options: { readonly tenant?: string } = {}): Book {
  const c = calls(client, DEFINITION, options.tenant ?? "", REASONS);
  return {
${transferValues}    balance: {
${balanceValues}    },
  };
}

${RUNTIME_MARK}
${TYPESCRIPT_RUNTIME}`);
  return new Map([[`${book.name}.ts`, out.join("")]]);
}
