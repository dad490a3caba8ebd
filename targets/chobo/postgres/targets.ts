/**
 * The PostgreSQL targets: the SQL of the book, and the clients that call it in TypeScript,
 * Python and Go. E061 stops each of them (the clients call the functions by their names); a Go
 * build also stops at names Go cannot spell.
 * @module
 */

import { goNameDiagnostics } from "../go_check.ts";
import { pythonNameDiagnostics } from "../python_check.ts";
import type { ChoboTarget } from "../target.ts";
import { e061Diagnostics } from "./e061.ts";
import { goClient } from "./go.ts";
import { pythonClient } from "./python.ts";
import { postgresSql } from "./sql.ts";
import { typescriptClient } from "./typescript.ts";

/** `postgres`: `<book>.sql`, the schema, tables, constraints and functions. */
export const POSTGRES: ChoboTarget<"postgres"> = {
  name: "postgres",
  check: e061Diagnostics,
  generate: (book, origin) =>
    new Map([[`${book.name}.sql`, postgresSql(book, origin.file, origin.version, origin.sha)]]),
};

/** `postgres-typescript`: `<book>.ts`, a client on `pg`. */
export const POSTGRES_TYPESCRIPT: ChoboTarget<"postgres-typescript"> = {
  name: "postgres-typescript",
  check: e061Diagnostics,
  generate: typescriptClient,
};

/** `postgres-python`: `<book>.py`, a client on psycopg 3 or psycopg2. */
export const POSTGRES_PYTHON: ChoboTarget<"postgres-python"> = {
  name: "postgres-python",
  check: (book, origin) => {
    const long = e061Diagnostics(book, origin);
    return long.length > 0 ? long : pythonNameDiagnostics(book, origin);
  },
  generate: pythonClient,
};

/** `postgres-go`: a Go package on pgx. */
export const POSTGRES_GO: ChoboTarget<"postgres-go"> = {
  name: "postgres-go",
  check: (book, origin) => {
    const long = e061Diagnostics(book, origin);
    return long.length > 0 ? long : goNameDiagnostics(book, origin);
  },
  generate: goClient,
};
