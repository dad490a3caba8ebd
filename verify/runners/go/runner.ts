/**
 * The Go runner of `verify/runners/README.md`. Go cannot load a generated package at run time, so
 * `buildGoRunner` writes one Go module — every book's client (`goClient`), the runner's protocol
 * (`runner.go`, copied) and a generated `main.go` whose table maps `"<transfer>.<op>"` to the
 * client's typed methods — and builds it into one binary.
 * @module
 */

import type { Book, Transfer } from "../../../lang/chobo/model.ts";
import { goClient, goPackageName } from "../../../targets/chobo/postgres/go.ts";
import { members } from "../../../targets/chobo/names.ts";

/**
 * The modules a Go module with the clients requires (seed chobo 4.3): pgx v5, and golang.org/x/text
 * raised past GO-2026-5970 (fixed in v0.39.0) with the golang.org/x/sync it requires. Versions are
 * fixed so every run builds the same thing; x/text v0.42.0 asks for Go 1.26.
 */
export const GO_MODULES = {
  go: "1.26.0",
  pgx: "v5.12.0",
  text: "v0.42.0",
  sync: "v0.23.0",
  puddle: "v2.2.3",
  pgpassfile: "v1.0.0",
  pgservicefile: "v0.0.0-20240606120523-5a60cdf6a761",
} as const;

/** The go.mod of a module that holds generated clients, as `go mod tidy` leaves it for the runner. */
export function goMod(module: string): string {
  const m = GO_MODULES;
  return `module ${module}

go ${m.go}

require github.com/jackc/pgx/v5 ${m.pgx}

require (
\tgithub.com/jackc/pgpassfile ${m.pgpassfile} // indirect
\tgithub.com/jackc/pgservicefile ${m.pgservicefile} // indirect
\tgithub.com/jackc/puddle/v2 ${m.puddle} // indirect
\tgolang.org/x/sync ${m.sync} // indirect
\tgolang.org/x/text ${m.text} // indirect
)
`;
}

/** The runner's module path. */
const MODULE = "chobo.invalid/gorunner";

/** The runner's protocol, the same for every set of books. */
const RUNNER_GO = new URL("./runner.go", import.meta.url);

/** The binary `buildGoRunner` writes into its directory. */
export const GO_RUNNER_BINARY = "chobo-go-runner";

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

/** The operations of one transfer in the table: `"<transfer>.<op>"` → a call of the typed method. */
function operations(alias: string, book: Book, t: Transfer): string[] {
  const m = members(book, "go");
  const member = m.transfers.get(t.name)!;
  const params = m.transferParams.get(t.name)!;
  const value = (name: string) =>
    t.params.find((p) => p.name === name)!.type.kind === "string"
      ? `s.text(${JSON.stringify(name)})`
      : `s.amount(${JSON.stringify(name)})`;
  const literal = (type: string, names: readonly string[]) =>
    `${alias}.${member}${type}{${names.map((n) => `${params.get(n)!}: ${value(n)}`).join(", ")}}`;
  const entry = (op: string, body: string) =>
    `\tops[${
      JSON.stringify(`${t.name}.${op}`)
    }] = func(ctx context.Context, b *${alias}.Book, s step) (${alias}.Result, error) {\n${body}\t}\n`;
  const all = t.params.map((p) => p.name);
  if (t.pending === null) return [entry("do", `\t\treturn b.${member}.Do(ctx, ${literal("Args", all)})\n`)];
  const key = literal("Key", t.params.filter((p) => t.key.includes(p.name)).map((p) => p.name));
  const amounts = t.params.filter((p) => p.type.kind === "amount").map((p) => p.name);
  const post = amounts.length === 0
    ? `\t\treturn b.${member}.Post(ctx, ${key})\n`
    : `\t\tvar amounts *${alias}.${member}Amounts\n\t\tif s.partial() {\n\t\t\tamounts = &${
      literal("Amounts", amounts)
    }\n\t\t}\n\t\treturn b.${member}.Post(ctx, ${key}, amounts)\n`;
  return [
    entry("hold", `\t\treturn b.${member}.Hold(ctx, ${literal("Args", all)})\n`),
    entry("post", post),
    entry("void", `\t\treturn b.${member}.Void(ctx, ${key})\n`),
  ];
}

/** The generated `main.go`: per book, its operations table and how to make a book value. */
export function runnerMain(books: readonly { book: Book; sqlName: string }[]): string {
  const imports = books.map(({ book, sqlName }, i) =>
    `\tb${i} "${MODULE}/clients/b${i}/${goPackageName({ ...book, name: sqlName })}"\n`
  ).sort((a, b) => a.slice(a.indexOf('"')) < b.slice(b.indexOf('"')) ? -1 : 1); // gofmt sorts by path
  const tables = books.map(({ book }, i) =>
    `// table${i} holds the operations of ${book.name} by "<transfer>.<op>".\n` +
    `func table${i}() map[string]func(context.Context, *b${i}.Book, step) (b${i}.Result, error) {\n` +
    `\tops := map[string]func(context.Context, *b${i}.Book, step) (b${i}.Result, error){}\n` +
    book.transfers.flatMap((t) => operations(`b${i}`, book, t)).join("") +
    `\treturn ops\n}\n`
  );
  const register = books.map(({ book }, i) =>
    `\tops${i} := table${i}()\n` +
    `\tbooks[${JSON.stringify(book.name)}] = func(q *recorder, tenant string) client {\n` +
    `\t\tanswer := func(r b${i}.Result) (string, string) { return string(r.Outcome), r.Reason }\n` +
    `\t\treturn bookClient(b${i}.Postgres(q, tenant), ops${i}, answer, (*b${i}.Book).Expire)\n` +
    `\t}\n`
  );
  return `// Code generated by chobo's buildGoRunner (verify/runners/go/runner.ts). DO NOT EDIT.

package main

import (
\t"context"
\t"fmt"
\t"os"

${imports.join("")})

${tables.join("\n")}
func main() {
\tbooks := map[string]func(q *recorder, tenant string) client{}
${register.join("")}\tif err := run(os.Args, books); err != nil {
\t\tfmt.Fprintln(os.Stderr, "runner:", err)
\t\tos.Exit(1)
\t}
}
`;
}

/**
 * Writes the Go runner of `books` into `dir` and builds it; returns the binary's path. Each entry's
 * client is generated from the book under its SQL name (`sqlName`, the schema its SQL was loaded
 * as); jobs name the book by `book.name`. The first build downloads the modules through the Go
 * module proxy; later ones come from Go's module and build caches.
 */
export async function buildGoRunner(
  dir: string,
  books: readonly { book: Book; sqlName: string }[],
): Promise<string> {
  Deno.mkdirSync(dir, { recursive: true });
  Deno.writeTextFileSync(`${dir}/go.mod`, goMod(MODULE));
  Deno.writeTextFileSync(`${dir}/runner.go`, Deno.readTextFileSync(RUNNER_GO));
  Deno.writeTextFileSync(`${dir}/main.go`, runnerMain(books));
  for (const [i, { book, sqlName }] of books.entries()) {
    const files = goClient({ ...book, name: sqlName }, {
      file: `${book.name}.book`,
      sha: "runner",
      version: "runner",
    });
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
