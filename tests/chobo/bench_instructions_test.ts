/**
 * Case (g) of `deno task bench postgres` (verify/chobo/bench_instructions.ts) counts what it says: a
 * function that does more counts more instructions, by about what the extra work costs, and two
 * counts of one function agree to 1%, which is what lets a busy machine measure a change.
 */

import { ok } from "node:assert/strict";
import { instructionsPerCall, instructionsSkipped } from "../../verify/chobo/bench_instructions.ts";
import { findPgBin, startCluster } from "../../verify/services/pg_cluster.ts";
import { serverDb } from "../../verify/services/pg_db.ts";

const FUNCTIONS = `
create table t (k text primary key);
create function one_insert(p_key text) returns int language plpgsql as $$
begin
  insert into t values (p_key);
  return 1;
end $$;
create function three_inserts(p_key text) returns int language plpgsql as $$
begin
  insert into t values (p_key);
  insert into t values (p_key || '-2');
  insert into t values (p_key || '-3');
  return 3;
end $$;`;

Deno.test("callgrind counts instructions per call: repeatable, and more for more work", async () => {
  const pgBin = findPgBin();
  const skipped = instructionsSkipped();
  if (pgBin === null || skipped !== null) {
    console.log(
      pgBin === null ? "SKIP: postgres: no initdb/pg_ctl on this machine" : `SKIP: valgrind: ${skipped}`,
    );
    return;
  }
  const cluster = await startCluster(pgBin);
  try {
    const db = serverDb(cluster.socketDir);
    await db.exec(FUNCTIONS);
    await db.end();
    const counted = await instructionsPerCall(cluster, [
      { what: "one", call: (key) => `select one_insert(${key})` },
      { what: "three", call: (key) => `select three_inserts(${key})` },
      { what: "one again", call: (key) => `select one_insert(${key})` },
    ], () => {});
    const [one, three, again] = counted.map((c) => c.instructions);
    ok(one > 10_000, `one insert counted ${one} instructions`);
    ok(Math.abs(again - one) / one < 0.01, `one insert counted ${one}, then ${again}`);
    ok(three > one * 1.3, `three inserts counted ${three}, one ${one}`);
  } finally {
    await cluster.stop();
  }
});
