/**
 * The Go runner of `verify/chobo/runners/README.md` on PostgreSQL. Go cannot load a generated package at
 * run time, so `buildGoRunner` writes one Go module — every book's client (`goClient`), the
 * runner's protocol (`runner.go` and `common.go`, copied) and a generated `main.go` whose table
 * maps `"<transfer>.<op>"` to the client's typed methods — and builds it into one binary
 * (`build.ts`, which the TigerBeetle runner shares).
 * @module
 */

import type { Book } from "../../../../lang/chobo/model.ts";
import { goClient } from "../../../../targets/chobo/postgres/go.ts";
import { goPackageName } from "../../../../targets/chobo/go_names.ts";
import { buildRunner, type GoRunnerSpec } from "./build.ts";

export { go, hasGo } from "./build.ts";

/**
 * The modules a Go module with the clients requires (docs/targets.md#postgresql-clients): pgx v5, and
 * golang.org/x/text raised past GO-2026-5970 (fixed in v0.39.0) with the golang.org/x/sync it requires.
 * Versions are fixed so every run builds the same thing; x/text v0.42.0 asks for Go 1.26.
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

/** The PostgreSQL runner's module: a book value is a `client` of `Postgres(q, tenant)`. */
const SPEC: GoRunnerSpec = {
  builder: "buildGoRunner (verify/chobo/runners/go/runner.ts)",
  module: MODULE,
  goMod: goMod(MODULE),
  sources: [new URL("./common.go", import.meta.url), new URL("./runner.go", import.meta.url)],
  value: { params: "q *recorder, tenant string", result: "client" },
  make: (alias, i) => `bookClient(${alias}.Postgres(q, tenant), ops${i}, answer, (*${alias}.Book).Expire)`,
  statuses: false,
  run: "run",
};

/**
 * Writes the Go runner of `books` into `dir` and builds it; returns the binary's path. Each entry's
 * client is generated from the book under its SQL name (`sqlName`, the schema its SQL was loaded
 * as); jobs name the book by `book.name`.
 */
export async function buildGoRunner(
  dir: string,
  books: readonly { book: Book; sqlName: string }[],
): Promise<string> {
  return await buildRunner(
    dir,
    SPEC,
    books.map(({ book, sqlName }) => {
      const named = { ...book, name: sqlName };
      const files = goClient(named, { file: `${book.name}.book`, sha: "runner", version: "runner" });
      return { book, pkg: goPackageName(named), files };
    }),
  );
}
