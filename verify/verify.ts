/**
 * `deno task verify <target> [<flow or dir> …]`: plays every scenario on a target for real and compares it with the
 * reference interpreter (`verify/chobo/runs.ts`); exits 1 when anything disagrees, 2 for an
 * unknown target.
 * @module
 */

import { verifyPostgres, verifyTigerBeetle } from "./chobo/runs.ts";
import { verifyDurable } from "./dandori/durable.ts";
import { verifyTemporal } from "./dandori/temporal.ts";

/** The runs by target name. */
const TARGETS: Record<string, (args: readonly string[]) => Promise<number>> = {
  postgres: verifyPostgres,
  tigerbeetle: verifyTigerBeetle,
  "temporal-typescript": verifyTemporal,
  durable: verifyDurable,
};
const target = TARGETS[Deno.args[0] ?? ""];
if (target === undefined) {
  console.error(`usage: deno task verify <${Object.keys(TARGETS).join("|")}>`);
  Deno.exit(2);
}
Deno.exit(await target(Deno.args.slice(1)));
