/**
 * The records of the disposable servers (`verify/services/procs.ts`): a leftover record kills its
 * process only while that pid is still the process it names (pids wrap, and a pid alone may since
 * belong to another process, such as a server another run has just started); and a leftover whose
 * directory is already gone (removed by hand, or by another test file's cleaning) is cleaned, not a
 * failure of every start after it; and a process's CPU seconds are read from `/proc`.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  alive,
  cpuSecondsOf,
  deadRecords,
  exists,
  killRecorded,
  removeGone,
  startedAt,
} from "../../verify/services/procs.ts";
import { findPgBin, PG_RECORDS, startCluster } from "../../verify/services/pg_cluster.ts";

Deno.test("a record kills its pid only when the pid started when the record says; an older record without the time kills nothing", async () => {
  const child = new Deno.Command("sleep", { args: ["30"] }).spawn();
  try {
    const started = startedAt(child.pid);
    ok(started !== null && /^\d+$/.test(started), `started ${started}`);
    killRecorded(child.pid, String(Number(started) - 1));
    ok(alive(child.pid), "another process's start time kills nothing");
    killRecorded(child.pid, undefined);
    ok(alive(child.pid), "a record without a start time kills nothing");
    killRecorded(child.pid, started);
    strictEqual((await child.status).signal, "SIGKILL");
  } finally {
    try {
      child.kill("SIGKILL");
    } catch {
      // Killed above.
    }
  }
});

Deno.test("a dead run's record whose directory is already gone is cleaned, not a failure of every later start", () => {
  const records = Deno.makeTempDirSync({ prefix: "ritsu-records-" });
  try {
    // A pid no process has: the kernel's pids stop below 2^22.
    const dead = 2 ** 22 + 1;
    const gone = `${records}/cluster-removed-by-hand`;
    Deno.writeTextFileSync(`${records}/${dead}-a`, gone);
    Deno.writeTextFileSync(`${records}/${dead}-b`, gone);
    const found = deadRecords(records);
    strictEqual(found.length, 2);
    for (const record of found) {
      removeGone(record.text);
      record.remove();
    }
    // What another test file's cleaning took in between is no failure either.
    found[0].remove();
    removeGone(gone);
    deepStrictEqual([...Deno.readDirSync(records)], []);
    deepStrictEqual(deadRecords(records), []);
  } finally {
    Deno.removeSync(records, { recursive: true });
  }
});

Deno.test("a disposable PostgreSQL server starts where a killed run's record names a directory removed by hand", async () => {
  const bin = findPgBin();
  if (bin === null) return console.log("SKIP: postgres: no initdb/pg_ctl on this machine");
  // What a run killed mid-test and a hand that then removed its cluster leave: a record, its directory gone.
  const gone = Deno.makeTempDirSync({ prefix: "chobo-pg-" });
  Deno.removeSync(gone);
  Deno.mkdirSync(PG_RECORDS, { recursive: true });
  const record = `${PG_RECORDS}/${2 ** 22 + 1}-${gone.split("/").pop()}`;
  Deno.writeTextFileSync(record, gone);
  const cluster = await startCluster(bin);
  await cluster.stop();
  ok(!exists(record), "the record is cleaned");
});

Deno.test("a process's CPU seconds grow while it computes, and a gone process has none", async () => {
  const child = new Deno.Command("sh", { args: ["-c", "while :; do :; done"] }).spawn();
  try {
    const first = cpuSecondsOf(child.pid);
    ok(first !== null && first >= 0, `first ${first}`);
    // On a machine busy with CI's other runs, the loop may get a small share of a core: wait for growth.
    const until = Date.now() + 20_000;
    let later: number | null = first;
    while (later === first && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      later = cpuSecondsOf(child.pid);
    }
    ok(later !== null && later > first, `${first} then ${later}`);
  } finally {
    child.kill("SIGKILL");
    await child.status;
  }
  strictEqual(cpuSecondsOf(child.pid), null);
});
