/**
 * The recorded Go histories of `tests/histories/go/` (the longest run of every example flow outside
 * `stepfunctions/` on the Go runner, its continuations included) replay on the Go code the
 * temporal-go target generates today, as a run's code copy; a generator change that running
 * executions could not replay fails here. `RITSU_BLESS=1` records them anew on a dev server (to be
 * reviewed as a diff). Never bless `temporal_histories_test.ts` for this: that one records the
 * TypeScript histories.
 */

import { deepStrictEqual, ok } from "node:assert/strict";
import { findTemporal } from "../../verify/services/temporal_server.ts";
import {
  goHistoryFile,
  goHistoryFlows,
  recordGoHistories,
  replayGoRecorded,
} from "../../verify/dandori/temporal_go_histories.ts";
import { hasGo } from "../../verify/dandori/temporal_go_build.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test({
  name: "the recorded Go histories of at least five example flows replay on today's generated Go code",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    if (!(await hasGo())) return console.log("SKIP: go: the go command is not installed");
    const paths = goHistoryFlows();
    ok(paths.length >= 5, `${paths.length} flows`);
    if (Deno.env.get("RITSU_BLESS") === "1") {
      const bin = await findTemporal();
      if (bin === null) {
        return console.log("SKIP: temporal: RITSU_BLESS=1 records on a dev server, and there is none");
      }
      for (const f of await recordGoHistories(bin, paths)) console.log(`recorded ${f}`);
    }
    const replayed = await replayGoRecorded(paths);
    deepStrictEqual(
      replayed.map((r) => [r.file, r.replay]),
      paths.map((p) => [`${ROOT}${goHistoryFile(p)}`, null]),
    );
    for (const r of replayed) ok(r.histories >= 1, `${r.file}: at least one run`);
    console.log(
      `temporal-go: ${
        replayed.reduce((n, r) => n + r.histories, 0)
      } recorded histories of ${replayed.length} flows replay`,
    );
  },
});
