/**
 * The records of the disposable servers (`verify/services/procs.ts`): a leftover record kills its
 * process only while that pid is still the process it names (pids wrap, and a pid alone may since
 * belong to another process, such as a server another run has just started).
 */

import { ok, strictEqual } from "node:assert/strict";
import { alive, killRecorded, startedAt } from "../../verify/services/procs.ts";

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
