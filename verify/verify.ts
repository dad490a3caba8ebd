/**
 * `deno task verify <target> [<arg> …]`: plays every scenario on a target for real and compares it
 * with the reference interpreter — chobo's books on PostgreSQL and TigerBeetle
 * (`verify/chobo/runs.ts`), dandori's flows on Step Functions' definitions
 * (`verify/dandori/stepfunctions.ts`) and on Temporal (`verify/dandori/temporal.ts`), both of which
 * take flows or directories; exits 1 when anything disagrees, 2 for an unknown target.
 * @module
 */

import { verifyPostgres, verifyTigerBeetle } from "./chobo/runs.ts";
import { verifyStepFunctions } from "./dandori/stepfunctions.ts";
import { verifyTemporal } from "./dandori/temporal.ts";

/** The runs by target name. */
const TARGETS: Record<string, (args: readonly string[]) => Promise<number>> = {
  postgres: verifyPostgres,
  tigerbeetle: verifyTigerBeetle,
  stepfunctions: verifyStepFunctions,
  "temporal-typescript": verifyTemporal,
};
const target = TARGETS[Deno.args[0] ?? ""];
if (target === undefined) {
  console.error(`usage: deno task verify <${Object.keys(TARGETS).join("|")}> [<arg> …]`);
  Deno.exit(2);
}
Deno.exit(await target(Deno.args.slice(1)));
