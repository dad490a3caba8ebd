/**
 * `chobo build --target postgres-go` (docs/targets.md#postgresql-clients): a Go package that calls the
 * SQL functions of `--target postgres` — `<package>/book.go` with the book's types and methods,
 * and `<package>/runtime.go`, the shared runtime (`runtime/runtime.go`) with its package clause
 * changed. The output is gofmt'd as written, and the statements are those of `calls.ts`.
 * @module
 */

import type { OpName } from "../../../lang/chobo/interp.ts";
import type { Account, Book, Param, Transfer } from "../../../lang/chobo/model.ts";
import { lookup } from "../../../lang/common/assert.ts";
import { type Members, members } from "../names.ts";
import {
  described,
  durationText,
  goNameProblems,
  goPackageName,
  goRuntimeCopy,
  goType,
  header,
  keyText,
} from "../go_names.ts";
import { balanceStatement, callSql, expireStatement, statusStatement } from "./calls.ts";
import { GO_RUNTIME } from "./runtimes.ts";
import { sourceLine } from "../target.ts";

/** The runtime every book's package shares, copied but for its package clause. */
export const GO_RUNTIME_URL: URL = new URL("./runtime/runtime.go", import.meta.url);

export { GO_RUNTIME_PACKAGE_LINE } from "../go_names.ts";

/** A Go string literal: raw when it can be, as every statement can. */
function goString(s: string): string {
  return /^[^`\r]*$/.test(s) ? `\`${s}\`` : JSON.stringify(s);
}

/** Struct fields as gofmt aligns them: the types start one column after the longest name, in runes. */
function fields(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(...rows.map(([name]) => [...name].length));
  return rows.map(([name, type]) => `\t${name}${" ".repeat(width - [...name].length + 1)}${type}\n`).join("");
}

function struct(name: string, rows: readonly (readonly [string, string])[]): string {
  return rows.length === 0 ? `type ${name} struct{}\n` : `type ${name} struct {\n${fields(rows)}}\n`;
}

function expiryText(t: Transfer): string {
  if (t.pending?.expires !== "after") return "until Post or Void";
  return `until Post or Void, or until it expires ${durationText(t.pending.seconds)} after it was made`;
}

const FUNC = (recv: string, name: string, params: string, returns: string, body: string) =>
  `func (${recv}) ${name}(ctx context.Context${params}) ${returns} {\n${body}}\n`;

function transferCode(book: Book, t: Transfer, names: Members): string {
  const member = lookup(names.transfers, t.name, "transfer");
  const params = lookup(names.transferParams, t.name, "transfer");
  const field = (p: Param) => lookup(params, p.name, "parameter");
  const args = `${member}Args`;
  const key = `${member}Key`;
  const amounts = `${member}Amounts`;
  const amountParams = t.params.filter((p) => p.type.kind === "amount");
  const keyParams = t.params.filter((p) => t.key.includes(p.name));
  const recv = `t *${member}Transfer`;
  const text = (op: OpName) => goString(callSql(book, t, op));
  const out: string[] = [];
  out.push(
    `// ${described(`${member}Transfer is the transfer ${t.name}`, t.description)}\n` +
      `type ${member}Transfer struct{ c caller }\n`,
  );
  out.push(
    `// ${args} are the arguments of ${t.name}.\n` + struct(args, t.params.map((p) => [field(p), goType(p)])),
  );
  const namesOf = (ps: readonly Param[]) => `[]string{${ps.map((p) => goString(p.name)).join(", ")}}`;
  const writeArgs = `, ${namesOf(t.params)}${t.params.map((p) => `, a.${field(p)}`).join("")}`;
  if (t.pending === null) {
    out.push(
      `// Do runs ${t.name} once per key ${keyText(t)}.\n` +
        FUNC(
          recv,
          "Do",
          `, a ${args}`,
          "(Result, error)",
          `\treturn t.c.write(ctx, ${text("do")}${writeArgs})\n`,
        ),
    );
    return out.join("\n");
  }
  out.push(
    `// ${key} is the key of a hold of ${t.name}.\n` +
      struct(key, keyParams.map((p) => [field(p), "string"])),
  );
  if (amountParams.length > 0) {
    out.push(
      `// ${amounts} are the amounts of a partial post of ${t.name}.\n` +
        struct(amounts, amountParams.map((p) => [field(p), "int64"])),
    );
  }
  out.push(
    `// Hold holds ${t.name} once per key ${keyText(t)}, ${expiryText(t)}.\n` +
      FUNC(
        recv,
        "Hold",
        `, a ${args}`,
        "(Result, error)",
        `\treturn t.c.write(ctx, ${text("hold")}${writeArgs})\n`,
      ),
  );
  const postParams = t.params.filter((p) => t.key.includes(p.name) || p.type.kind === "amount");
  if (amountParams.length === 0) {
    out.push(
      `// Post posts the hold of the key.\n` +
        FUNC(
          recv,
          "Post",
          `, key ${key}`,
          "(Result, error)",
          `\treturn t.c.write(ctx, ${text("post")}, ${namesOf(keyParams)}${
            keyParams.map((p) => `, key.${field(p)}`).join("")
          })\n`,
        ),
    );
  } else {
    const slots = postParams.map((p) => p.type.kind === "amount" ? "nil" : `key.${field(p)}`);
    const fill = postParams.map((p, i) =>
      p.type.kind === "amount" ? `\t\targs[${i}] = amounts.${field(p)}\n` : ""
    )
      .join("");
    out.push(
      `// Post posts the hold of the key: in full when amounts is nil, else these amounts.\n` +
        FUNC(
          recv,
          "Post",
          `, key ${key}, amounts *${amounts}`,
          "(Result, error)",
          `\targs := []any{${slots.join(", ")}}\n\tif amounts != nil {\n${fill}\t}\n` +
            `\treturn t.c.write(ctx, ${text("post")}, ${namesOf(postParams)}, args...)\n`,
        ),
    );
  }
  const keyArgs = `, ${namesOf(keyParams)}${keyParams.map((p) => `, key.${field(p)}`).join("")}`;
  out.push(
    `// Void gives the hold of the key back.\n` +
      FUNC(
        recv,
        "Void",
        `, key ${key}`,
        "(Result, error)",
        `\treturn t.c.write(ctx, ${text("void")}${keyArgs})\n`,
      ),
  );
  const status = goString(statusStatement(book, t, keyParams.map(() => ""), "").text);
  out.push(
    `// Status is the state of the hold of the key, or "" when there is none.\n` +
      FUNC(
        recv,
        "Status",
        `, key ${key}`,
        "(HoldState, error)",
        `\treturn t.c.status(ctx, ${status}${keyArgs})\n`,
      ),
  );
  return out.join("\n");
}

function accountCode(book: Book, a: Account, names: Members): string {
  const member = lookup(names.accounts, a.name, "account");
  const params = lookup(names.accountParams, a.name, "account");
  const field = (p: string) => lookup(params, p, "parameter");
  const text = goString(balanceStatement(book, a, a.params.map(() => ""), "").text);
  const name = a.params.length === 0 ? a.name : `${a.name}(${a.params.join(", ")})`;
  if (a.params.length === 0) {
    return `// ${described(`${member} reads the account ${name}`, a.description)}\n` +
      FUNC("b *Balances", member, "", "(Balance, error)", `\treturn b.c.balance(ctx, ${text}, nil)\n`);
  }
  const type = `${member}Account`;
  return `// ${type} names one account ${a.name}.\n` +
    struct(type, a.params.map((p) => [field(p), "string"])) + "\n" +
    `// ${described(`${member} reads the account ${name}`, a.description)}\n` +
    FUNC(
      "b *Balances",
      member,
      `, a ${type}`,
      "(Balance, error)",
      `\treturn b.c.balance(ctx, ${text}, []string{${a.params.map((p) => goString(p)).join(", ")}}${
        a.params.map((p) => `, a.${field(p)}`).join("")
      })\n`,
    );
}

function bookGo(book: Book, pkg: string, origin: { file: string; sha: string; version: string }): string {
  const names = members(book, "go");
  const transfers = book.transfers.map((t) => lookup(names.transfers, t.name, "transfer"));
  const parts: string[] = [];
  parts.push(
    header(origin.version) +
      `// ${sourceLine(book, origin)}\n\n` +
      `// ${
        described(
          `Package ${pkg} calls the PostgreSQL functions of the chobo book ${book.name} v${book.version}`,
          book.description,
        )
      }\n` +
      `//\n` +
      `// The functions come from chobo build --target postgres; each write is one function in one\n` +
      `// transaction. pgx v5 brings in golang.org/x/text: require v0.42.0 or later in go.mod (go get\n` +
      `// golang.org/x/text@v0.42.0), since versions before v0.39.0 have GO-2026-5970, which pgx's SCRAM\n` +
      `// authentication reaches.\n` +
      `package ${pkg}\n\nimport "context"\n`,
  );
  parts.push(
    `// Book is the book ${book.name} for one tenant: a member per transfer, Balance and Expire.\n` +
      struct("Book", [...transfers.map((m) => [m, `*${m}Transfer`] as const), ["Balance", "*Balances"], [
        "c",
        "caller",
      ]]),
  );
  parts.push(
    `// Postgres returns the book on q (a *pgx.Conn, *pgxpool.Pool, *pgxpool.Conn or pgx.Tx) for one tenant\n` +
      `// ("" unless the book keeps several independent sets of balances). An argument past\n` +
      `// docs/reference.md#limits, the tenant too, is an *ArgumentError, and nothing is sent.\n` +
      `func Postgres(q Querier, tenant string) *Book {\n` +
      `\tc := caller{q: q, tenant: tenant}\n` +
      `\tb := &Book{Balance: &Balances{c}, c: c}\n` +
      transfers.map((m) => `\tb.${m} = &${m}Transfer{c}\n`).join("") +
      `\treturn b\n}\n`,
  );
  parts.push(
    `// Expire gives back up to 1000 holds past their expiry, of every tenant, and says how many.\n` +
      FUNC(
        "b *Book",
        "Expire",
        "",
        "(int, error)",
        `\treturn b.c.expire(ctx, ${goString(expireStatement(book).text)})\n`,
      ),
  );
  parts.push(...book.transfers.map((t) => transferCode(book, t, names)));
  parts.push(`// Balances reads the accounts of the book.\ntype Balances struct{ c caller }\n`);
  parts.push(...book.accounts.map((a) => accountCode(book, a, names)));
  return parts.join("\n");
}

/** The runtime file as one book's package has it. */
export function goRuntime(pkg: string, version: string): string {
  return goRuntimeCopy(GO_RUNTIME, pkg, version);
}

/**
 * The Go client of a book: `<package>/book.go` and `<package>/runtime.go`. Throws when a name
 * of the book cannot be a Go identifier (see `goNameProblems`).
 *
 * @example
 * ```ts
 * const files = goClient(book, { file: "在庫.book", sha: "0123456789abcdef", version: "0.1.0" });
 * files.get("book/book.go"); // b := book.Postgres(pool, ""); b.X引当.Hold(ctx, book.X引当Args{…})
 * ```
 */
export function goClient(
  book: Book,
  origin: { file: string; sha: string; version: string },
): Map<string, string> {
  const problems = goNameProblems(book);
  if (problems.length > 0) {
    throw new Error(`chobo: postgres-go: ${book.name}: names Go cannot spell: ${problems.join(", ")}`);
  }
  const pkg = goPackageName(book);
  return new Map([
    [`${pkg}/book.go`, bookGo(book, pkg, origin)],
    [`${pkg}/runtime.go`, goRuntime(pkg, origin.version)],
  ]);
}
