/**
 * The recorded Python histories of `tests/histories/python/` (the longest run of every example flow
 * on the temporal-python package, its continuations included) replay on the code the temporal-python
 * target generates today, as a run's code copy, on `temporalio` 1.35's `Replayer`; a generator change
 * that running executions could not replay fails here. `RITSU_BLESS=1` records them anew on a dev
 * server (to be reviewed as a diff, and shipped as a new version or with Worker Deployment Versioning).
 */

import { ok } from "node:assert/strict";
import { findTemporal } from "../../verify/services/temporal_server.ts";
import { historyFlows, recordHistories, replayRecorded } from "../../verify/dandori/temporal_histories.ts";
import { PYTHON_SDK } from "../../verify/dandori/temporal_sdk.ts";

for (const path of historyFlows()) {
  Deno.test({
    name: `${path}: its recorded Python histories replay on today's generated code`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const lacks = await PYTHON_SDK.missing();
      if (lacks !== null) return console.log(`SKIP: ${lacks.tool}: ${lacks.why}`);
      if (Deno.env.get("RITSU_BLESS") === "1") {
        const bin = await findTemporal();
        if (bin === null) {
          return console.log("SKIP: temporal: RITSU_BLESS=1 records on a dev server, and there is none");
        }
        console.log(`recorded ${await recordHistories(bin, path, PYTHON_SDK)}`);
      }
      ok(await replayRecorded(path, PYTHON_SDK) >= 1, "at least one run replays");
    },
  });
}
