/**
 * The TigerBeetle targets: clients that send linked chains in TypeScript, Python and Go. E060
 * stops each of them (PostgreSQL takes a transfer of any length); a Go build also stops at
 * names Go cannot spell.
 * @module
 */

import { goNameDiagnostics } from "../go_check.ts";
import { pythonNameDiagnostics } from "../python_check.ts";
import type { ChoboTarget } from "../target.ts";
import { e060Diagnostics } from "./e060.ts";
import { tigerbeetleGoClient } from "./go.ts";
import { tigerbeetlePythonClient } from "./python.ts";
import { tigerbeetleTypescriptClient } from "./typescript.ts";

/** `tigerbeetle-typescript`: `<book>.ts`, a client on tigerbeetle-node. */
export const TIGERBEETLE_TYPESCRIPT: ChoboTarget<"tigerbeetle-typescript"> = {
  name: "tigerbeetle-typescript",
  check: e060Diagnostics,
  generate: tigerbeetleTypescriptClient,
};

/** `tigerbeetle-python`: `<book>.py`, a client on the tigerbeetle package. */
export const TIGERBEETLE_PYTHON: ChoboTarget<"tigerbeetle-python"> = {
  name: "tigerbeetle-python",
  check: (book, origin) => {
    const long = e060Diagnostics(book, origin);
    return long.length > 0 ? long : pythonNameDiagnostics(book, origin);
  },
  generate: tigerbeetlePythonClient,
};

/** `tigerbeetle-go`: a Go package on tigerbeetle-go. */
export const TIGERBEETLE_GO: ChoboTarget<"tigerbeetle-go"> = {
  name: "tigerbeetle-go",
  check: (book, origin) => {
    const long = e060Diagnostics(book, origin);
    return long.length > 0 ? long : goNameDiagnostics(book, origin);
  },
  generate: tigerbeetleGoClient,
};
