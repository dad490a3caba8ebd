/**
 * The client runners `deno task verify postgres` plays through, one per client language: each
 * writes the generated clients of the books' test copies and starts the runner of
 * `verify/runners/README.md`.
 * @module
 */

import { pythonClient } from "../targets/chobo/postgres/python.ts";
import { typescriptClient } from "../targets/chobo/postgres/typescript.ts";
import { buildGoRunner } from "./runners/go/runner.ts";
import type { ClientRunner, Subject } from "./chobo_postgres.ts";

const ORIGIN = { sha: "test", version: "test" };

/** The TypeScript client on `pg`, in a Deno process. */
export const TYPESCRIPT_RUNNER: ClientRunner = {
  lang: "typescript",
  writeClients: (list: readonly Subject[], dir: string) => {
    const clients: Record<string, string> = {};
    for (const s of list) {
      for (const [name, text] of typescriptClient(s.copy, { file: s.path, ...ORIGIN })) {
        Deno.writeTextFileSync(`${dir}/${name}`, text);
        clients[s.copy.name] = `${dir}/${name}`;
      }
    }
    return Promise.resolve(clients);
  },
  command: (jobs) => [
    Deno.execPath(),
    "run",
    "-A",
    new URL("./runners/typescript/runner.ts", import.meta.url).pathname,
    jobs,
  ],
};

/** The Python client on psycopg 3, in a Python process. */
export const PYTHON_RUNNER: ClientRunner = {
  lang: "python",
  writeClients: (list: readonly Subject[], dir: string) => {
    const clients: Record<string, string> = {};
    for (const s of list) {
      for (const [name, text] of pythonClient(s.copy, { file: s.path, ...ORIGIN })) {
        Deno.writeTextFileSync(`${dir}/${name}`, text);
        clients[s.copy.name] = `${dir}/${name}`;
      }
    }
    return Promise.resolve(clients);
  },
  command: (jobs) => ["python3", new URL("./runners/python/runner.py", import.meta.url).pathname, jobs],
};

/**
 * The Go client on pgx, in one binary the runner module builds: Go cannot load a generated package
 * at run time, so the clients are compiled in (seed 6: "Go はテストが組み立てる一つのバイナリ").
 */
export function goRunner(binary: { path: string | null }): ClientRunner {
  return {
    lang: "go",
    writeClients: async (list: readonly Subject[], dir: string) => {
      binary.path = await buildGoRunner(
        `${dir}/go`,
        list.map((s) => ({ book: s.copy, sqlName: s.copy.name })),
      );
      return Object.fromEntries(list.map((s) => [s.copy.name, binary.path!]));
    },
    command: (jobs) => [binary.path!, jobs],
  };
}
