/**
 * The recorded histories of `tests/histories/` (the longest run of every example flow, its
 * continuations included) replay on the code the temporal-typescript target generates today, as
 * a run's code copy; a generator change that running executions could not replay fails here.
 * `RITSU_BLESS=1` records them anew on a dev server (to be reviewed as a diff, and shipped as a
 * new version or with Worker Deployment Versioning).
 */

import { ok } from "node:assert/strict";
import { findTemporal } from "../../verify/services/temporal_server.ts";
import { historyFlows, recordHistories, replayRecorded } from "../../verify/dandori/temporal_histories.ts";

for (const path of historyFlows()) {
  Deno.test({
    name: `${path}: its recorded histories replay on today's generated code`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      if (Deno.env.get("RITSU_BLESS") === "1") {
        const bin = await findTemporal();
        if (bin === null) {
          return console.log("SKIP: temporal: RITSU_BLESS=1 records on a dev server, and there is none");
        }
        console.log(`recorded ${await recordHistories(bin, path)}`);
      }
      ok(await replayRecorded(path) >= 1, "at least one run replays");
    },
  });
}
