/**
 * The toolchain's version, read from `deno.json` so there is one place to change it.
 * @module
 */

import config from "../../deno.json" with { type: "json" };

/** The version every tool prints with `--version` and writes into generated headers. */
export const VERSION: string = config.version;
