/**
 * `deno task verify tigerbeetle` (docs/targets.md#deno-task-verify-tigerbeetle): without `CHOBO_TIGERBEETLE`
 * it says SKIP and passes; a binary that is not 0.17.9, or a replica that does not start, fails the run and
 * leaves nothing behind (nor what a killed run left). No TigerBeetle server runs here, so the replica's
 * part is played by a shell script named as a test double, which makes no claim about TigerBeetle.
 *
 * The runners of the three languages are played against the TEST DOUBLE of
 * `tests/support/tigerbeetle_double.ts` (not TigerBeetle) through its HTTP bridge: every scenario
 * of every test and example book must agree with the interpreter and send what `run --show
 * tigerbeetle` prints. That checks the runners and the comparison, not TigerBeetle; and the
 * comparison is shown to fail on a changed field, a reused random id and a missing request.
 */

import { deepStrictEqual, match, ok, rejects, strictEqual } from "node:assert/strict";

import {
  type ClientRunner,
  jobsOf,
  runJobs,
  subjects,
  swapTransfers,
} from "../../verify/chobo/differential.ts";
import {
  expectedRequests,
  sentProblems,
  type SentRequest,
  verifyOnTigerBeetle,
} from "../../verify/chobo/tigerbeetle.ts";
import { TB_PYTHON_RUNNER, TB_TYPESCRIPT_RUNNER, tbGoRunner } from "../../verify/chobo/client_runners.ts";
import { sentTigerBeetleSteps } from "../../targets/chobo/tigerbeetle/show.ts";
import { alive, exists } from "../../verify/services/procs.ts";
import { startReplica } from "../../verify/services/tb_replica.ts";
import { startBridge } from "../support/tigerbeetle_bridge.ts";
import { choboRecord, DEFAULT_PATHS, ON_TIGERBEETLE_DOUBLE } from "../../verify/chobo/runs.ts";
import { recordFromTest, secondsSince, skippedRecord } from "../../verify/summary.ts";

const VERIFY = new URL("../../verify/verify.ts", import.meta.url).pathname;
const RECORDS = "/tmp/chobo-tb-runs";

async function verify(env: Record<string, string>, tmp: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", VERIFY, "tigerbeetle"],
    env: { ...env, TMPDIR: tmp },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const out = await child.output();
  return {
    pid: child.pid,
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/**
 * A TEST DOUBLE of the `tigerbeetle` binary (not TigerBeetle): `version` says `says`, `format`
 * creates the file it is given, `start` fails; each call is written to `<dir>/calls` with its
 * `TMPDIR`.
 */
function fakeBinary(dir: string, says: string): string {
  const path = `${dir}/tigerbeetle`;
  Deno.writeTextFileSync(
    path,
    `#!/bin/sh
echo "TMPDIR=$TMPDIR $*" >> "${dir}/calls"
case "$1" in
  version) echo "${says}" ;;
  format) for a in "$@"; do f="$a"; done; : > "$f" ;;
  start) echo "the test double does not start" >&2; exit 3 ;;
esac
`,
  );
  Deno.chmodSync(path, 0o755);
  return path;
}

Deno.test("without CHOBO_TIGERBEETLE, verify tigerbeetle says SKIP and passes", async () => {
  const tmp = Deno.makeTempDirSync({ prefix: "chobo-verify-tb-" });
  try {
    const r = await verify({ CHOBO_TIGERBEETLE: "" }, tmp);
    strictEqual(r.code, 0, r.stderr);
    strictEqual(r.stdout, "SKIP: chobo: tigerbeetle: CHOBO_TIGERBEETLE is not set\n");
  } finally {
    Deno.removeSync(tmp, { recursive: true });
  }
});

Deno.test("a CHOBO_TIGERBEETLE that is not 0.17.9, or is missing, fails the run without a stack trace", async () => {
  const tmp = Deno.makeTempDirSync({ prefix: "chobo-verify-tb-" });
  try {
    const old = await verify({ CHOBO_TIGERBEETLE: fakeBinary(tmp, "TigerBeetle version 0.16.1") }, tmp);
    strictEqual(old.code, 1);
    match(old.stdout, /is not TigerBeetle 0\.17\.9 \(it says "TigerBeetle version 0\.16\.1"\)/);
    const missing = await verify({ CHOBO_TIGERBEETLE: `${tmp}/nothing-here` }, tmp);
    strictEqual(missing.code, 1);
    match(missing.stdout, /verify tigerbeetle: 1 failures/);
    ok(!/at .*\.ts:\d+/.test(missing.stdout + missing.stderr), missing.stdout + missing.stderr);
  } finally {
    Deno.removeSync(tmp, { recursive: true });
  }
});

Deno.test("a replica that does not start fails the run; its data file and record are removed, and so is what a killed run left", async () => {
  const tmp = Deno.makeTempDirSync({ prefix: "chobo-verify-tb-" });
  try {
    // What a killed run left: a record whose process is gone, and its directory.
    Deno.mkdirSync(RECORDS, { recursive: true });
    const left = Deno.makeTempDirSync({ prefix: "chobo-tb-replica-" });
    const leftRecord = `${RECORDS}/999999999-${left.split("/").pop()}`;
    Deno.writeTextFileSync(leftRecord, JSON.stringify({ dir: left }));

    const r = await verify({ CHOBO_TIGERBEETLE: fakeBinary(tmp, "TigerBeetle version 0.17.9") }, tmp);
    strictEqual(r.code, 1, r.stdout);
    match(r.stdout, /the replica exited \(code 3\): the test double does not start/);
    // format and start got one replica of cluster 0 in a --development data file in a temp dir,
    // which was their TMPDIR.
    const calls = Deno.readTextFileSync(`${tmp}/calls`).trim().split("\n");
    strictEqual(calls.length, 3, calls.join("\n"));
    match(calls[0], /^TMPDIR=\S* version$/);
    const [, dir] = calls[1].match(/^TMPDIR=(\S+) format /) ?? [];
    ok(dir?.startsWith(`${tmp}/chobo-tb-replica-`), calls[1]);
    strictEqual(
      calls[1],
      `TMPDIR=${dir} format --cluster=0 --replica=0 --replica-count=1 --development ${dir}/0_0.tigerbeetle`,
    );
    match(
      calls[2],
      new RegExp(
        `^TMPDIR=${dir} start --addresses=127\\.0\\.0\\.1:\\d+ --development ${dir}/0_0\\.tigerbeetle$`,
      ),
    );
    const dirs = [...Deno.readDirSync(tmp)].map((e) => e.name).filter((n) =>
      n.startsWith("chobo-tb-replica-")
    );
    deepStrictEqual(dirs, [], "the replica's directory is removed");
    ok([...Deno.readDirSync(RECORDS)].every((e) => !e.name.startsWith(`${r.pid}-`)), "its record is removed");
    ok(!exists(left) && !exists(leftRecord), "what the killed run left is removed");
  } finally {
    Deno.removeSync(tmp, { recursive: true });
  }
});

Deno.test("a replica that listens is given to the run by its address, and stop() ends it and removes its directory and record", async () => {
  const tmp = Deno.makeTempDirSync({ prefix: "chobo-verify-tb-" });
  const bin = `${tmp}/tigerbeetle`;
  // A TEST DOUBLE of the binary whose `start` listens on the port of --addresses (and does nothing else).
  Deno.writeTextFileSync(
    bin,
    `#!/bin/sh
case "$1" in
  format) for a in "$@"; do f="$a"; done; : > "$f" ;;
  start) port="\${2##*:}"; exec python3 -c "import socket, time
s = socket.socket(); s.bind(('127.0.0.1', int('$port'))); s.listen(); time.sleep(600)" ;;
esac
`,
  );
  Deno.chmodSync(bin, 0o755);
  try {
    const replica = await startReplica(bin);
    match(replica.address, /^127\.0\.0\.1:\d+$/);
    const [record] = [...Deno.readDirSync(RECORDS)].filter((e) =>
      JSON.parse(Deno.readTextFileSync(`${RECORDS}/${e.name}`)).pid !== undefined &&
      e.name.startsWith(`${Deno.pid}-`)
    );
    ok(record, "the run records the replica's pid");
    const { dir, pid } = JSON.parse(Deno.readTextFileSync(`${RECORDS}/${record.name}`));
    ok(exists(`${dir}/0_0.tigerbeetle`) && alive(pid));
    const [host, port] = replica.address.split(":");
    (await Deno.connect({ hostname: host, port: Number(port) })).close();
    await replica.stop();
    ok(!alive(pid), "the replica is stopped");
    ok(!exists(dir) && !exists(`${RECORDS}/${record.name}`), "its directory and record are removed");
  } finally {
    Deno.removeSync(tmp, { recursive: true });
  }
});

Deno.test("a runner that does not finish (a client retrying for ever) is killed at the limit", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "chobo-verify-tb-" });
  try {
    const hanging: ClientRunner = {
      lang: "typescript",
      lacks: () => Promise.resolve(null),
      writeClients: () => Promise.resolve({}),
      command: () => ["sleep", "30"],
    };
    const started = performance.now();
    await rejects(
      runJobs(hanging, [], dir, 1, {}, { jobs: [] }, 300),
      /typescript runner did not finish within 0\.3 s/,
    );
    ok(performance.now() - started < 5000);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("the comparison with --show fails on a changed field, a reused random id and a missing request", () => {
  const list = subjects(["tests/chobo/books"]);
  let statusChains = 0;
  let compared = 0;
  for (const job of jobsOf(list)) {
    const { copy } = job.subject;
    const tenant = `t/${job.id}`;
    // What a faithful client sends: --show's requests, with distinct ids for the random ones.
    let next = 1n;
    const own = new Set<bigint>();
    const onCopy = { ...job.s, steps: job.s.steps.map((st) => swapTransfers(copy, st)) };
    const sent = sentTigerBeetleSteps(copy, onCopy, tenant).map((step) => {
      const callers = new Map<number, Set<bigint>>();
      return step.operations.map((op) => {
        const created = op.caller === null ? own : callers.get(op.caller) ?? new Set<bigint>();
        if (op.caller !== null) callers.set(op.caller, created);
        const requests = expectedRequests(op, created).map((r): SentRequest =>
          "events" in r
            ? { ...r, events: r.events.map((e) => e.id === "random" ? { ...e, id: String(next++) } : e) }
            : r
        );
        return { requests };
      });
    });
    deepStrictEqual(sentProblems(copy, job.s, tenant, sent), [], job.id);
    compared++;
    const first = sent.findIndex((ops) => ops.some((o) => o.requests.some((r) => "events" in r)));
    if (first < 0) continue;
    const k = sent[first].findIndex((o) => o.requests.some((r) => "events" in r));
    const at = sent[first][k].requests.findIndex((r) => "events" in r);
    const changed = structuredClone(sent);
    const { events } = changed[first][k].requests[at] as Extract<SentRequest, { events: unknown }>;
    events[0] = { ...events[0], user_data_32: String(Number(events[0].user_data_32) + 1) };
    strictEqual(sentProblems(copy, job.s, tenant, changed).length, 1, `${job.id}: a changed field`);
    const dropped = structuredClone(sent);
    dropped[first][k].requests.splice(at, 1);
    strictEqual(sentProblems(copy, job.s, tenant, dropped).length, 1, `${job.id}: a missing request`);
    // The status chain's two ids are the small ones given above; the second takes the first's.
    const reused = structuredClone(sent);
    const status = reused.flat().map((o) => o.requests.at(-1)).find((r) =>
      r !== undefined && "events" in r && r.events.length === 2 && r.events.every((e) => BigInt(e.id) < next)
    ) as Extract<SentRequest, { events: unknown }> | undefined;
    if (status !== undefined) {
      status.events[1] = { ...status.events[1], id: status.events[0].id };
      strictEqual(sentProblems(copy, job.s, tenant, reused).length, 1, `${job.id}: a reused random id`);
      statusChains++;
    }
  }
  ok(compared > 100, `only ${compared} scenarios`);
  ok(statusChains > 0, "no status chain to reuse an id in");
});

async function succeeds(cmd: string, args: string[]): Promise<boolean> {
  try {
    return (await new Deno.Command(cmd, { args, stdout: "null", stderr: "null" }).output()).success;
  } catch {
    return false;
  }
}

/** Null when the runner's language can run here; else why not. */
const MISSING: Record<ClientRunner["lang"], () => Promise<string | null>> = {
  typescript: () => Promise.resolve(null),
  python: async () =>
    await succeeds("python3", ["-c", "import tigerbeetle"])
      ? null
      : "the tigerbeetle package (0.17.9) is not installed (pip install -r verify/requirements-tigerbeetle.txt)",
  go: async () =>
    !await succeeds("go", ["version"])
      ? "go is not installed"
      : !await succeeds("sh", ["-c", '[ "$(go env CGO_ENABLED)" = 1 ]'])
      ? "cgo is off (CGO_ENABLED=0 or no C compiler), and tigerbeetle-go needs it"
      : null,
};

const RUNNERS: readonly ClientRunner[] = [TB_TYPESCRIPT_RUNNER, TB_PYTHON_RUNNER, tbGoRunner({ path: null })];

for (const runner of RUNNERS) {
  Deno.test(`the ${runner.lang} TigerBeetle runner, on the test double's bridge: every scenario agrees with the interpreter and sends run --show's requests`, async () => {
    const platform = ON_TIGERBEETLE_DOUBLE[runner.lang];
    const missing = await MISSING[runner.lang]();
    if (missing !== null) {
      console.log(`SKIP: chobo: tigerbeetle-${runner.lang} runner: ${missing}`);
      recordFromTest([skippedRecord(platform, "books", `the ${runner.lang} runner`, missing)]);
      return;
    }
    const list = subjects(DEFAULT_PATHS);
    const bridge = startBridge();
    try {
      const started = performance.now();
      const report = await verifyOnTigerBeetle({ double: bridge.url }, list, runner, `double-${Date.now()}`);
      recordFromTest([choboRecord(platform, list.length, report, secondsSince(started))]);
      deepStrictEqual(report.failures, []);
      strictEqual(report.agreed, report.scenarios);
      ok(report.scenarios >= 396 && report.together >= 24, `${report.scenarios} scenarios`);
    } finally {
      await bridge.stop();
    }
  });
}
