/**
 * The proof's summary (verify/summary.ts): made from records alone; a line per platform, then the
 * stated rules, the runs played again and the skips with their reasons (pinned by a golden file); it
 * fails when a platform has no record or two, or when a scenario played disagrees, and not for a skip.
 * Records go through a directory and come back the same; a file that is not a list of records is named
 * with what is wrong. `deno task verify <target> --records <dir>` writes its records there, and a test
 * writes its own only when `RITSU_PROOF_RECORDS` is set (it prints its runs played again always). Past
 * 20 runs played again, the summary counts them and leaves each to the log above. README's table "What is
 * proven where" has the counts each corpus plays.
 */

import { deepStrictEqual, match, ok, strictEqual, throws } from "node:assert/strict";
import {
  CI_PLATFORMS,
  type Platform,
  type ProofRecord,
  readRecords,
  recordFromTest,
  RECORDS_ENV,
  skippedRecord,
  summary,
  writeRecords,
} from "../../verify/summary.ts";
import { assertGolden } from "../support/golden.ts";
import { generateFlowScenarios } from "../../lang/dandori/scenarios.ts";
import { DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import { TEMPORAL_TYPESCRIPT } from "../../targets/dandori/temporal/target.ts";
import { TEMPORAL_PYTHON } from "../../targets/dandori/temporal_python/target.ts";
import { TEMPORAL_GO } from "../../targets/dandori/temporal_go/target.ts";
import { subjects } from "../../verify/chobo/differential.ts";
import { DEFAULT_PATHS } from "../../verify/chobo/runs.ts";
import { argoSubjectOf } from "../../verify/dandori/argo.ts";
import { durableSubjectOf } from "../../verify/dandori/durable.ts";
import { type RunnableFlow, runnableFlows } from "../../verify/dandori/flows.ts";
import { FLOW_DIRS as GRAPH_DIRS, subjectOf as graphSubjectOf } from "../../verify/dandori/pydantic_graph.ts";
import { buildDefinition } from "../../verify/dandori/stepfunctions.ts";
import { FLOW_DIRS as TEMPORAL_DIRS } from "../../verify/dandori/temporal.ts";
import { crossExcluded } from "../../verify/dandori/temporal_cross.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const GOLDEN = `${ROOT}tests/common/golden/proof_summary.txt`;

/** A record of `platform` where every scenario played agrees. */
function agreeing(platform: Platform, played: number): ProofRecord {
  return {
    platform,
    of: /^(PostgreSQL|PGlite|TigerBeetle)/.test(platform) ? "books" : "flows",
    subjects: 10,
    played,
    agreed: played,
    excluded: [],
    ranAgain: [],
    skipped: [],
    seconds: 1.5,
  };
}

/** One record for every platform of CI: some with rules, runs again and skips, TigerBeetle's server skipped. */
function everyPlatform(): ProofRecord[] {
  return CI_PLATFORMS.map((p): ProofRecord => {
    if (p.startsWith("TigerBeetle: ")) {
      return skippedRecord(p, "books", "a TigerBeetle replica", "CHOBO_TIGERBEETLE is not set");
    }
    const r = agreeing(p, 100);
    if (p === "durable functions") {
      return {
        ...r,
        excluded: [{
          rule: "a callback times out, and the local runner never times a callback out",
          count: 7,
        }],
        skipped: [
          { what: "a.flow", reason: "E050 Lambda durable functions cannot run `on cancel`" },
          { what: "b.flow", reason: "E050 Lambda durable functions cannot run the task `reply`" },
          { what: "c.flow", reason: "E040 a run may use more than 3,000 operations" },
        ],
      };
    }
    if (p === "PostgreSQL: Python client") {
      return { ...r, ranAgain: ["tests/chobo/books/hold.book: expires"] };
    }
    return r;
  });
}

Deno.test("the summary of a CI run's records: a line per platform, the rules, the runs again, the skips", () => {
  const { lines, ok: holds } = summary(everyPlatform());
  ok(holds, lines.join("\n"));
  assertGolden(GOLDEN, lines.join("\n") + "\n");
  strictEqual(lines.at(-1), "proof: holds: 1,900 of 1,900 scenarios agree on 19 of 22 platforms");
});

Deno.test("the proof fails when a platform has no record, has two, or a scenario disagrees; a skip alone does not", () => {
  const all = everyPlatform();
  const without = summary(all.filter((r) => r.platform !== "pydantic-graph"));
  strictEqual(without.ok, false);
  ok(
    without.lines.includes("NO RECORD: pydantic-graph: its run did not record what it played"),
    without.lines.join("\n"),
  );
  const twice = summary([...all, agreeing("PGlite: SQL", 100)]);
  strictEqual(twice.ok, false);
  ok(twice.lines.some((l) => l.startsWith("TWICE: PGlite: SQL: 2 records")), twice.lines.join("\n"));
  const disagreeing = summary(
    all.map((r) => r.platform === "Temporal TypeScript" ? { ...r, agreed: 97 } : r),
  );
  strictEqual(disagreeing.ok, false);
  ok(
    disagreeing.lines.includes("DISAGREE: Temporal TypeScript: 3 of 100 scenarios"),
    disagreeing.lines.join("\n"),
  );
  match(disagreeing.lines.at(-1) ?? "", /^proof: FAILS: 1,897 of 1,900 scenarios agree/);
  const skipped = summary(
    all.map((r) =>
      r.platform === "Step Functions: LocalStack"
        ? skippedRecord(r.platform, "flows", "LocalStack 4.14.0", "no Python with localstack-core 4.14.0")
        : r
    ),
  );
  strictEqual(skipped.ok, true);
  ok(
    skipped.lines.includes(
      "  Step Functions: LocalStack: LocalStack 4.14.0: no Python with localstack-core 4.14.0",
    ),
    skipped.lines.join("\n"),
  );
});

Deno.test("past 20 runs played again, the summary counts them and leaves each to the log above", () => {
  const many = Array.from({ length: 21 }, (_, i) => `tests/chobo/books/hold.book: expires ${i + 1}`);
  const all = everyPlatform().map((r) => r.platform === "PGlite: SQL" ? { ...r, ranAgain: many } : r);
  const { lines, ok: holds } = summary(all);
  ok(holds);
  ok(
    lines.includes('run again because late: 22, more than 20: each is in the log above ("run again: …")'),
    lines.join("\n"),
  );
  deepStrictEqual(lines.filter((l) => l.includes("hold.book: expires")), []);
  ok(
    lines.includes(
      "  PGlite: SQL                                       10 books       100/100         0         21        0      1.5",
    ),
    lines.join("\n"),
  );
});

Deno.test("records written to a directory are read back the same; a file that is no list of records is named", () => {
  const dir = Deno.makeTempDirSync({ prefix: "proof-records-" });
  try {
    const all = everyPlatform();
    writeRecords(dir, all.slice(0, 5));
    writeRecords(dir, all.slice(5));
    deepStrictEqual(
      readRecords(dir).sort((a, b) => a.platform.localeCompare(b.platform)),
      [...all].sort((a, b) => a.platform.localeCompare(b.platform)),
    );
    const bad = `${dir}/bad.json`;
    for (
      const [text, problem] of [
        ["{", /bad\.json: not JSON/],
        ["{}", /bad\.json: not a list of records/],
        [JSON.stringify([{ ...all[0], platform: "Argo" }]), /bad\.json: record 1: no platform of CI: Argo/],
        [JSON.stringify([{ ...all[0], agreed: 101 }]), /more scenarios agree than were played/],
        [
          JSON.stringify([{ ...all[0], excluded: [{ rule: "", count: 1 }] }]),
          /excluded is not a list of rules/,
        ],
        [JSON.stringify([{ ...all[0], seconds: -1 }]), /seconds is not a duration/],
      ] as const
    ) {
      Deno.writeTextFileSync(bad, text);
      throws(() => readRecords(dir), problem);
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a test prints its runs played again, and writes its records only when RITSU_PROOF_RECORDS names a directory", () => {
  const dir = Deno.makeTempDirSync({ prefix: "proof-records-" });
  const before = Deno.env.get(RECORDS_ENV);
  try {
    Deno.env.delete(RECORDS_ENV);
    const printed: string[] = [];
    const log = console.log;
    console.log = (line: string) => printed.push(line);
    try {
      recordFromTest([{ ...agreeing("PGlite: SQL", 3), ranAgain: ["a.book: late"] }]);
    } finally {
      console.log = log;
    }
    deepStrictEqual(printed, ["run again: PGlite: SQL: a.book: late"]);
    deepStrictEqual([...Deno.readDirSync(dir)], []);
    Deno.env.set(RECORDS_ENV, dir);
    recordFromTest([agreeing("PGlite: SQL", 3)]);
    deepStrictEqual(readRecords(dir), [agreeing("PGlite: SQL", 3)]);
  } finally {
    if (before === undefined) Deno.env.delete(RECORDS_ENV);
    else Deno.env.set(RECORDS_ENV, before);
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("deno task verify <target> --records <dir> writes its records there; the summary reads them", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "proof-records-" });
  try {
    const env = { ...Deno.env.toObject(), CHOBO_TIGERBEETLE: "" };
    const verify = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${ROOT}verify/verify.ts`, "tigerbeetle", "--records", dir],
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    strictEqual(verify.code, 0, new TextDecoder().decode(verify.stderr));
    deepStrictEqual(
      readRecords(dir).map((r) => [r.platform, r.played, r.skipped.map((s) => s.reason)]),
      ["TypeScript", "Python", "Go"].map((
        l,
      ) => [`TigerBeetle: ${l} runner`, 0, ["CHOBO_TIGERBEETLE is not set"]]),
    );
    const shown = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${ROOT}verify/summary.ts`, dir],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const lines = new TextDecoder().decode(shown.stdout).trimEnd().split("\n");
    strictEqual(shown.code, 1, "the other platforms have no record");
    ok(
      lines.includes("NO RECORD: Temporal TypeScript: its run did not record what it played"),
      lines.join("\n"),
    );
    strictEqual(lines.at(-1), "proof: FAILS: 0 of 0 scenarios agree on 0 of 22 platforms");
    const missing = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${ROOT}verify/verify.ts`, "tigerbeetle", "--records", `${dir}/none`],
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    strictEqual(missing.code, 2);
    match(new TextDecoder().decode(missing.stderr), /no such file or directory: .*\/none\n/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

/** README's row of the table "What is proven where" whose first cell is `platform`: its cells. */
function readmeRow(readme: string, platform: string): string[] {
  const section = readme.slice(readme.indexOf("### What is proven where"));
  const rows = section.split("\n").filter((l) => l.startsWith("| ")).map((l) =>
    l.slice(2, -2).split(" | ").map((c) => c.trim())
  );
  const row = rows.find((r) => r[0] === platform);
  ok(row !== undefined, `README's table has a row for ${platform}`);
  return row;
}

Deno.test("README's table of what is proven where has the counts each corpus plays", async () => {
  const readme = Deno.readTextFileSync(`${ROOT}README.md`);
  const check = (platform: string, flows: number, played: number, excluded: number, notBuilt: number) => {
    const [, , plays, agree, rule, skipped] = readmeRow(readme, platform);
    ok(
      new RegExp(`^(the same )?${flows} flows\\b`).test(plays),
      `${platform}: ${plays}`,
    );
    strictEqual(agree, `${played} / ${played}`, platform);
    strictEqual(rule === "—" ? 0 : Number(rule.split(":")[0]), excluded, platform);
    strictEqual(skipped, notBuilt === 0 ? "—" : `${notBuilt} flows (E050)`, platform);
  };
  const dandori = runnableFlows(ROOT, TEMPORAL_DIRS);
  const origin = (f: RunnableFlow) => ({
    file: f.path,
    path: f.path,
    text: "",
    sha: "0".repeat(16),
    version: "t",
  });
  const temporal = dandori.filter((f) =>
    TEMPORAL_TYPESCRIPT.check(f.plan, origin(f), DEFAULT_BUILD).length === 0
  );
  const scenarios = (fs: readonly RunnableFlow[]) =>
    fs.reduce((n, f) => n + generateFlowScenarios(f.checked, f.plan).scenarios.length, 0);
  check("Temporal TypeScript", temporal.length, scenarios(temporal), 0, dandori.length - temporal.length);
  const python = dandori.filter((f) => TEMPORAL_PYTHON.check(f.plan, origin(f), DEFAULT_BUILD).length === 0);
  check("Temporal Python", python.length, scenarios(python), 0, dandori.length - python.length);
  const go = dandori.filter((f) => TEMPORAL_GO.check(f.plan, origin(f), DEFAULT_BUILD).length === 0);
  check("Temporal Go", go.length, scenarios(go), 0, dandori.length - go.length);
  const excludedAcross = dandori.filter((f) => crossExcluded(f.plan) !== null);
  const across = temporal.filter((f) => python.includes(f) && crossExcluded(f.plan) === null);
  const goAcross = temporal.filter((f) => go.includes(f) && crossExcluded(f.plan) === null);
  for (
    const [p, flows] of [
      ["Temporal: TypeScript workflow, Python activities", across],
      ["Temporal: Python workflow, TypeScript activities", across],
      ["Temporal: Go workflow, TypeScript activities", goAcross],
    ] as const
  ) {
    check(
      p,
      flows.length,
      scenarios(flows),
      scenarios(excludedAcross),
      dandori.length - excludedAcross.length - flows.length,
    );
  }
  const durable = dandori.map(durableSubjectOf).flatMap((s) => "skipped" in s ? [] : [s]);
  check(
    "durable functions",
    durable.length,
    durable.reduce((n, s) => n + s.jobs.length, 0),
    durable.reduce((n, s) => n + s.excluded, 0),
    dandori.length - durable.length,
  );
  const argo = (await Promise.all(dandori.map((f) => argoSubjectOf(f)))).flatMap((s) =>
    "skipped" in s ? [] : [s]
  );
  check(
    "Argo Workflows: controller in-process",
    argo.length,
    argo.reduce((n, s) => n + s.jobs.length, 0),
    argo.reduce((n, s) => n + s.excluded, 0),
    dandori.length - argo.length,
  );
  const graphFlows = runnableFlows(ROOT, GRAPH_DIRS);
  const graph = graphFlows.map(graphSubjectOf).flatMap((s) => "skipped" in s ? [] : [s]);
  check(
    "pydantic-graph",
    graph.length,
    graph.reduce((n, s) => n + s.jobs.length, 0),
    graph.reduce((n, s) => n + s.excluded.length, 0),
    graphFlows.length - graph.length,
  );
  const asl = dandori.filter((f) =>
    buildDefinition(f, Deno.readTextFileSync(`${ROOT}${f.path}`)).kind === "built"
  );
  for (const p of ["Step Functions: ASL runner", "Step Functions: LocalStack"]) {
    check(p, asl.length, scenarios(asl), 0, dandori.length - asl.length);
  }
  const books = subjects(DEFAULT_PATHS.map((p) => `${ROOT}${p}`));
  const played = books.reduce((n, b) => n + b.scenarios.length, 0);
  for (
    const p of [
      "PostgreSQL: SQL, and the TypeScript, Python and Go clients",
      "TigerBeetle test double: the TypeScript, Python and Go runners",
    ]
  ) {
    strictEqual(readmeRow(readme, p)[3], `${played} / ${played}, each`, p);
  }
  strictEqual(readmeRow(readme, "PGlite: SQL")[3], `${played} / ${played}`);
  ok(
    readmeRow(readme, "PostgreSQL: SQL, and the TypeScript, Python and Go clients")[2].startsWith(
      `${books.length} books `,
    ),
  );
});
