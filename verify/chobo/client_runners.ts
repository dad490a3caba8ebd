/**
 * The client runners `deno task verify postgres|tigerbeetle` plays through, one per client
 * language and target: each writes the generated clients of the books' test copies and starts the
 * runner of `verify/chobo/runners/README.md`.
 * @module
 */

import type { Book } from "../../lang/chobo/model.ts";
import { pythonClient } from "../../targets/chobo/postgres/python.ts";
import { typescriptClient } from "../../targets/chobo/postgres/typescript.ts";
import { tigerbeetlePythonClient } from "../../targets/chobo/tigerbeetle/python.ts";
import { tigerbeetleTypescriptClient } from "../../targets/chobo/tigerbeetle/typescript.ts";
import { buildGoRunner } from "./runners/go/runner.ts";
import { buildTbGoRunner } from "./runners/go/tigerbeetle.ts";
import type { ClientRunner, Subject } from "./differential.ts";

const ORIGIN = { sha: "test", version: "test" };

type Generate = (book: Book, origin: { file: string; sha: string; version: string }) => Map<string, string>;

/** What running `command` says is missing, or null when it runs: `what` when it cannot start or fails. */
async function missing(command: readonly string[], what: string): Promise<string | null> {
  const [cmd, ...args] = command;
  try {
    const out = await new Deno.Command(cmd, { args, stdout: "null", stderr: "piped" }).output();
    if (out.success) return null;
    const said = new TextDecoder().decode(out.stderr).trim().split("\n").pop() ?? "";
    return `${what} (${said})`;
  } catch {
    return `${what} (${cmd} is not on PATH)`;
  }
}

const NOTHING = (): Promise<string | null> => Promise.resolve(null);

/** The Python packages a runner imports: what to install when they are missing. */
function pythonLacks(modules: string, requirements: string): () => Promise<string | null> {
  return () =>
    missing(
      ["python3", "-c", `import ${modules}`],
      `python3 cannot import ${modules}: pip install -r ${requirements}`,
    );
}

/** A runner of a language whose clients are files the runner loads: it writes each book's client. */
function fileRunner(
  lang: ClientRunner["lang"],
  generate: Generate,
  command: (jobs: string) => string[],
  lacks: () => Promise<string | null>,
): ClientRunner {
  return {
    lang,
    lacks,
    writeClients: (list: readonly Subject[], dir: string) => {
      const clients: Record<string, string> = {};
      for (const s of list) {
        for (const [name, text] of generate(s.copy, { file: s.path, ...ORIGIN })) {
          Deno.writeTextFileSync(`${dir}/${name}`, text);
          clients[s.copy.name] = `${dir}/${name}`;
        }
      }
      return Promise.resolve(clients);
    },
    command,
  };
}

const runnerPath = (path: string) => new URL(path, import.meta.url).pathname;

/** The TypeScript client on `pg`, in a Deno process. */
export const TYPESCRIPT_RUNNER: ClientRunner = fileRunner(
  "typescript",
  typescriptClient,
  (jobs) => [Deno.execPath(), "run", "-A", runnerPath("./runners/typescript/runner.ts"), jobs],
  NOTHING,
);

/** The Python client on psycopg 3, in a Python process. */
export const PYTHON_RUNNER: ClientRunner = fileRunner(
  "python",
  pythonClient,
  (jobs) => ["python3", runnerPath("./runners/python/runner.py"), jobs],
  pythonLacks("psycopg, psycopg_pool", "verify/requirements.txt"),
);

/** The TypeScript client on tigerbeetle-node 0.17.9, in a Deno process. */
export const TB_TYPESCRIPT_RUNNER: ClientRunner = fileRunner(
  "typescript",
  tigerbeetleTypescriptClient,
  (jobs) => [Deno.execPath(), "run", "-A", runnerPath("./runners/typescript/tigerbeetle.ts"), jobs],
  NOTHING,
);

/** The Python client on tigerbeetle 0.17.9's `ClientSync`, in a Python process. */
export const TB_PYTHON_RUNNER: ClientRunner = fileRunner(
  "python",
  tigerbeetlePythonClient,
  (jobs) => ["python3", runnerPath("./runners/python/tigerbeetle_runner.py"), jobs],
  pythonLacks("tigerbeetle", "verify/requirements-tigerbeetle.txt"),
);

/**
 * The Go client on pgx, in one binary the runner module builds: Go cannot load a generated package
 * at run time, so the clients are compiled in (docs/design/chobo.md#differential-verification).
 */
export function goRunner(binary: { path: string | null }): ClientRunner {
  return {
    lang: "go",
    lacks: () => missing(["go", "version"], "go does not run: install Go (https://go.dev/dl/)"),
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

/** The Go client on tigerbeetle-go v0.17.9, in one binary the runner module builds (as `goRunner`). */
export function tbGoRunner(binary: { path: string | null }): ClientRunner {
  return {
    ...goRunner(binary),
    writeClients: async (list: readonly Subject[], dir: string) => {
      binary.path = await buildTbGoRunner(`${dir}/go`, list.map((s) => s.copy));
      return Object.fromEntries(list.map((s) => [s.copy.name, binary.path!]));
    },
  };
}
