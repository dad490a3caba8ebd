/**
 * `deno task verify <target> [path…]`: plays every scenario of the books or flows of `path…` (files,
 * and directories searched for `.book` or `.flow` files; every test and example book or flow when
 * none is given) on a target for real and compares it with the reference interpreter — chobo's books
 * on PostgreSQL and TigerBeetle (`verify/chobo/runs.ts`), dandori's flows on Step Functions'
 * definitions (`verify/dandori/stepfunctions.ts`), on Temporal (`verify/dandori/temporal.ts`) and on
 * pydantic-graph (`verify/dandori/pydantic_graph.ts`);
 * exits 1 when anything disagrees, 2 for an unknown target or a path that does not exist.
 * @module
 */

import { DEFAULT_PATHS, verifyPostgres, verifyTigerBeetle } from "./chobo/runs.ts";
import { verifyDurable } from "./dandori/durable.ts";
import { verifyPydanticGraph } from "./dandori/pydantic_graph.ts";
import { verifyStepFunctions } from "./dandori/stepfunctions.ts";
import { verifyTemporal } from "./dandori/temporal.ts";

/** The runs by target name. */
const TARGETS: Record<string, (paths: readonly string[]) => Promise<number>> = {
  postgres: (paths) => verifyPostgres(paths.length === 0 ? DEFAULT_PATHS : paths),
  tigerbeetle: (paths) => verifyTigerBeetle(paths.length === 0 ? DEFAULT_PATHS : paths),
  stepfunctions: verifyStepFunctions,
  "temporal-typescript": verifyTemporal,
  durable: verifyDurable,
  "pydantic-graph": verifyPydanticGraph,
};
const [name, ...given] = Deno.args;
const target = TARGETS[name ?? ""];
const usage = `usage: deno task verify <${Object.keys(TARGETS).join("|")}> [path…]`;
if (target === undefined) {
  console.error(usage);
  Deno.exit(2);
}
const absent = given.filter((p) => {
  try {
    Deno.statSync(p);
    return false;
  } catch {
    return true;
  }
});
if (absent.length > 0) {
  console.error(`deno task verify: no such file or directory: ${absent.join(", ")}\n${usage}`);
  Deno.exit(2);
}
Deno.exit(await target(given));
