/**
 * What the builders of the Go runners share (`runner.ts` on PostgreSQL, `tigerbeetle.ts` on
 * TigerBeetle). Go cannot load a generated package at run time, so a runner is one Go module —
 * every book's generated client under `clients/b<i>/<package>`, the protocol's Go files (copied)
 * and a generated `main.go` whose tables map `"<transfer>.<op>"` to the client's typed methods —
 * built into one binary.
 * @module
 */

import type { Book, Transfer } from "../../../../lang/chobo/model.ts";
import { members } from "../../../../targets/chobo/names.ts";

/** The binary a runner's build writes into its directory. */
const GO_RUNNER_BINARY = "chobo-go-runner";

/** Runs a command in `cwd`; throws with its output when it fails. */
export async function go(args: readonly string[], cwd: string): Promise<string> {
  const out = await new Deno.Command("go", { args: [...args], cwd, stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`go ${args.join(" ")} (in ${cwd}) failed:\n${text}`);
  return text;
}

/** True when the `go` command runs here. */
export async function hasGo(): Promise<boolean> {
  try {
    return (await new Deno.Command("go", { args: ["version"], stdout: "null", stderr: "null" }).output())
      .success;
  } catch {
    return false;
  }
}

/** One book of a runner: the book jobs name, its generated package's name and files. */
export interface GoBook {
  /** The book whose transfers make the tables; jobs name it by `book.name`. */
  readonly book: Book;
  readonly pkg: string;
  /** `<pkg>/<file>` → text, as the target's generator writes them. */
  readonly files: ReadonlyMap<string, string>;
}

/** What makes one runner's module: its protocol, and how main.go makes a book value. */
export interface GoRunnerSpec {
  /** Who generates main.go, for its header: `<function> (<file>)`. */
  readonly builder: string;
  readonly module: string;
  readonly goMod: string;
  /** The protocol's Go files, copied into the module under their own names. */
  readonly sources: readonly URL[];
  /** The Go type of the `books` map's values, which make a book value for a job. */
  readonly value: { readonly params: string; readonly result: string };
  /**
   * The expression that makes one book value, where `<alias>` names the book's package, `ops<i>`
   * its operations, `answer` reads its Result, and (with `statuses`) `states<i>` reads its holds.
   */
  readonly make: (alias: string, i: number) => string;
  /** Whether main.go holds, per book, a table of its transfers' `Status`. */
  readonly statuses: boolean;
  /** The protocol's function main.go hands the command line and the books to. */
  readonly run: string;
}

/** How one transfer's typed methods are called in main.go: its member, and its structs of a step's values. */
function typed(alias: string, book: Book, t: Transfer) {
  const m = members(book, "go");
  const member = m.transfers.get(t.name)!;
  const params = m.transferParams.get(t.name)!;
  const value = (name: string) =>
    t.params.find((p) => p.name === name)!.type.kind === "string"
      ? `s.text(${JSON.stringify(name)})`
      : `s.amount(${JSON.stringify(name)})`;
  const literal = (type: string, names: readonly string[]) =>
    `${alias}.${member}${type}{${names.map((n) => `${params.get(n)!}: ${value(n)}`).join(", ")}}`;
  const key = literal("Key", t.params.filter((p) => t.key.includes(p.name)).map((p) => p.name));
  return { member, literal, key };
}

/** An entry of a table: `name` → a function of a book value and a step. */
function entry(alias: string, name: string, result: string, body: string): string {
  return `\tops[${
    JSON.stringify(name)
  }] = func(ctx context.Context, b *${alias}.Book, s step) (${alias}.${result}, error) {\n${body}\t}\n`;
}

/** The operations of one transfer: `"<transfer>.<op>"` → a call of the typed method. */
function operations(alias: string, book: Book, t: Transfer): string[] {
  const { member, literal, key } = typed(alias, book, t);
  const all = t.params.map((p) => p.name);
  const op = (name: string, body: string) => entry(alias, `${t.name}.${name}`, "Result", body);
  if (t.pending === null) return [op("do", `\t\treturn b.${member}.Do(ctx, ${literal("Args", all)})\n`)];
  const amounts = t.params.filter((p) => p.type.kind === "amount").map((p) => p.name);
  const post = amounts.length === 0
    ? `\t\treturn b.${member}.Post(ctx, ${key})\n`
    : `\t\tvar amounts *${alias}.${member}Amounts\n\t\tif s.partial() {\n\t\t\tamounts = &${
      literal("Amounts", amounts)
    }\n\t\t}\n\t\treturn b.${member}.Post(ctx, ${key}, amounts)\n`;
  return [
    op("hold", `\t\treturn b.${member}.Hold(ctx, ${literal("Args", all)})\n`),
    op("post", post),
    op("void", `\t\treturn b.${member}.Void(ctx, ${key})\n`),
  ];
}

/** The reader of a transfer's holds: `"<transfer>"` → its `Status` of the step's key. */
function status(alias: string, book: Book, t: Transfer): string[] {
  if (t.pending === null) return [];
  const { member, key } = typed(alias, book, t);
  return [entry(alias, t.name, "HoldState", `\t\treturn b.${member}.Status(ctx, ${key})\n`)];
}

/** A function of main.go that returns one book's table, `name<i>`. */
function table(name: string, what: string, result: string, alias: string, i: number, entries: string[]) {
  const type = `map[string]func(context.Context, *${alias}.Book, step) (${alias}.${result}, error)`;
  return `// ${name}${i} holds ${what}.\nfunc ${name}${i}() ${type} {\n\tops := ${type}{}\n${
    entries.join("")
  }\treturn ops\n}\n`;
}

/** The generated `main.go`: per book, its tables and how to make a book value. */
export function runnerMain(spec: GoRunnerSpec, books: readonly GoBook[]): string {
  const imports = books.map(({ pkg }, i) => `\tb${i} "${spec.module}/clients/b${i}/${pkg}"\n`)
    .sort((a, b) => a.slice(a.indexOf('"')) < b.slice(b.indexOf('"')) ? -1 : 1); // gofmt sorts by path
  const tables = books.flatMap(({ book }, i) => {
    const alias = `b${i}`;
    const ops = book.transfers.flatMap((t) => operations(alias, book, t));
    const out = [
      table("table", `the operations of ${book.name} by "<transfer>.<op>"`, "Result", alias, i, ops),
    ];
    if (spec.statuses) {
      const states = book.transfers.flatMap((t) => status(alias, book, t));
      out.push(
        table("statuses", `the hold readers of ${book.name} by "<transfer>"`, "HoldState", alias, i, states),
      );
    }
    return out;
  });
  const { params, result } = spec.value;
  const register = books.map(({ book }, i) =>
    `\tops${i} := table${i}()\n` +
    (spec.statuses ? `\tstates${i} := statuses${i}()\n` : "") +
    `\tbooks[${JSON.stringify(book.name)}] = func(${params}) ${result} {\n` +
    `\t\tanswer := func(r b${i}.Result) (string, string) { return string(r.Outcome), r.Reason }\n` +
    `\t\treturn ${spec.make(`b${i}`, i)}\n` +
    `\t}\n`
  );
  return `// Code generated by chobo's ${spec.builder}. DO NOT EDIT.

package main

import (
\t"context"
\t"fmt"
\t"os"

${imports.join("")})

${tables.join("\n")}
func main() {
\tbooks := map[string]func(${params}) ${result}{}
${register.join("")}\tif err := ${spec.run}(os.Args, books); err != nil {
\t\tfmt.Fprintln(os.Stderr, "runner:", err)
\t\tos.Exit(1)
\t}
}
`;
}

/**
 * Writes the runner module of `spec` with `books` into `dir` and builds it; returns the binary's
 * path. The first build downloads the modules through the Go module proxy; later ones come from
 * Go's module and build caches.
 */
export async function buildRunner(
  dir: string,
  spec: GoRunnerSpec,
  books: readonly GoBook[],
): Promise<string> {
  Deno.mkdirSync(dir, { recursive: true });
  Deno.writeTextFileSync(`${dir}/go.mod`, spec.goMod);
  for (const source of spec.sources) {
    Deno.writeTextFileSync(`${dir}/${source.pathname.split("/").pop()}`, Deno.readTextFileSync(source));
  }
  Deno.writeTextFileSync(`${dir}/main.go`, runnerMain(spec, books));
  for (const [i, { files }] of books.entries()) {
    for (const [path, text] of files) {
      const target = `${dir}/clients/b${i}/${path}`;
      Deno.mkdirSync(target.slice(0, target.lastIndexOf("/")), { recursive: true });
      Deno.writeTextFileSync(target, text);
    }
  }
  await go(["mod", "tidy"], dir);
  await go(["build", "-o", GO_RUNNER_BINARY, "."], dir);
  return `${dir}/${GO_RUNNER_BINARY}`;
}
