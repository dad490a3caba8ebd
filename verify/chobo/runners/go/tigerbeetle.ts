/**
 * The Go runner of `verify/chobo/runners/README.md` 「TigerBeetle」: `buildTbGoRunner` writes one Go
 * module — every book's `tigerbeetle-go` client, the runner's protocol (`tigerbeetle.go` and
 * `common.go`, copied) and a generated `main.go` whose tables map `"<transfer>.<op>"` and
 * `"<transfer>"` to the client's typed methods and its `Status` — and builds it into one binary
 * (`build.ts`, which the PostgreSQL runner shares). The module requires tigerbeetle-go v0.17.9,
 * which is cgo: a build needs a C compiler.
 * @module
 */

import type { Book } from "../../../../lang/chobo/model.ts";
import { goPackageName } from "../../../../targets/chobo/go_names.ts";
import { TB_GO_MODULE, tigerbeetleGoClient } from "../../../../targets/chobo/tigerbeetle/go.ts";
import { buildRunner, type GoRunnerSpec } from "./build.ts";
import { GO_MODULES } from "./runner.ts";

/** The runner's module path. */
const MODULE = "chobo.invalid/tbgorunner";

/** The TigerBeetle runner's module: a book value is a `tbBook` of `TigerBeetle(c, tenant)`. */
const SPEC: GoRunnerSpec = {
  builder: "buildTbGoRunner (verify/chobo/runners/go/tigerbeetle.ts)",
  module: MODULE,
  // As `go mod tidy` leaves it: tigerbeetle-go requires no other module.
  goMod: `module ${MODULE}\n\ngo ${GO_MODULES.go}\n\nrequire ${TB_GO_MODULE.path} ${TB_GO_MODULE.version}\n`,
  sources: [new URL("./common.go", import.meta.url), new URL("./tigerbeetle.go", import.meta.url)],
  value: { params: "c tigerBeetle, tenant string", result: "tbBook" },
  make: (alias, i) => `tigerBeetleBook(${alias}.TigerBeetle(c, tenant), ops${i}, answer, states${i})`,
  statuses: true,
  run: "runTigerBeetle",
};

/**
 * Writes the Go TigerBeetle runner of `books` into `dir` and builds it; returns the binary's path.
 * Jobs name a book by `book.name`.
 */
export async function buildTbGoRunner(dir: string, books: readonly Book[]): Promise<string> {
  return await buildRunner(
    dir,
    SPEC,
    books.map((book) => ({
      book,
      pkg: goPackageName(book),
      files: tigerbeetleGoClient(book, { file: `${book.name}.book`, sha: "runner", version: "runner" }),
    })),
  );
}
