/**
 * `deno task verify <target> [--records <dir>] [path…]`: plays every scenario of the books or flows of
 * `path…` (files, and directories searched for `.book` or `.flow` files; every test and example book or
 * flow when none is given) on a target for real and compares it with the reference interpreter — chobo's
 * books on PostgreSQL and TigerBeetle (`verify/chobo/runs.ts`), dandori's flows on Step Functions'
 * definitions and LocalStack (`verify/dandori/stepfunctions.ts`), on Temporal with the TypeScript, Python
 * and Go SDKs (`verify/dandori/temporal.ts`), on Lambda durable functions' local runner
 * (`verify/dandori/durable.ts`), on pydantic-graph (`verify/dandori/pydantic_graph.ts`) and on Argo
 * Workflows' controller in-process (`verify/dandori/argo.ts`). With `--records <dir>`, the records of what it played (one per
 * platform, `verify/summary.ts`) are written to a new file in `dir`, which CI's summary reads.
 * Exits 1 when anything disagrees, 2 for an unknown target or a path that does not exist.
 * @module
 */

import { DEFAULT_PATHS, verifyPostgres, verifyTigerBeetle } from "./chobo/runs.ts";
import { verifyArgo } from "./dandori/argo.ts";
import { verifyDurable } from "./dandori/durable.ts";
import { verifyPydanticGraph } from "./dandori/pydantic_graph.ts";
import { verifyLocalStack, verifyStepFunctions } from "./dandori/stepfunctions.ts";
import { verifyTemporal } from "./dandori/temporal.ts";
import { verifyCross } from "./dandori/temporal_cross.ts";
import { GO_SDK, PYTHON_SDK } from "./dandori/temporal_sdk.ts";
import { type Verified, writeRecords } from "./summary.ts";

/** The runs by target name. */
const TARGETS: Record<string, (paths: readonly string[]) => Promise<Verified>> = {
  postgres: (paths) => verifyPostgres(paths.length === 0 ? DEFAULT_PATHS : paths),
  tigerbeetle: (paths) => verifyTigerBeetle(paths.length === 0 ? DEFAULT_PATHS : paths),
  stepfunctions: verifyStepFunctions,
  "stepfunctions-localstack": verifyLocalStack,
  "temporal-typescript": (paths) => verifyTemporal(paths),
  "temporal-python": (paths) => verifyTemporal(paths, PYTHON_SDK),
  "temporal-go": (paths) => verifyTemporal(paths, GO_SDK),
  "temporal-cross": verifyCross,
  durable: verifyDurable,
  "pydantic-graph": verifyPydanticGraph,
  argo: verifyArgo,
};
const usage = `usage: deno task verify <${
  Object.keys(TARGETS).join("|")
}> [--records <dir>] [--pair <workflow>:<activities> (temporal-cross)] [path…]`;
const [name, ...rest] = Deno.args;
const target = TARGETS[name ?? ""];
const at = rest.indexOf("--records");
const recordsDir = at < 0 ? null : rest[at + 1] ?? "";
const given = at < 0 ? rest : rest.filter((_, i) => i !== at && i !== at + 1);
if (target === undefined || recordsDir === "") {
  console.error(usage);
  Deno.exit(2);
}
/** `--pair <workflow>:<activities>` (temporal-cross's direction) and its value are not paths. */
const paths = given.filter((_, i) => given[i] !== "--pair" && given[i - 1] !== "--pair");
const absent = [...paths, ...(recordsDir === null ? [] : [recordsDir])].filter((p) => {
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
const verified = await target(given);
if (recordsDir !== null) writeRecords(recordsDir, verified.records);
Deno.exit(verified.exit);
