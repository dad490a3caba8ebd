/**
 * The proof's records and their summary. Every differential run — a `deno task verify` entry, or a test
 * that plays a whole corpus — gives one record per platform it played: how many flows or books, the
 * scenarios played and those that agree with the reference interpreter, those left out by a stated rule
 * (the rule and how many), those run again because they were late (each named), what was skipped and
 * why, and the seconds it took. A record is plain JSON, written to a directory that CI names
 * (`deno task verify <target> --records <dir>`, and `RITSU_PROOF_RECORDS` for the tests); CI's last
 * lines are `deno run -A verify/summary.ts <dir>`: one line per platform, then the rules, the runs played
 * again and the skips, then the verdict. The summary is made from the records alone, never from text a
 * run printed.
 *
 * ```ts
 * import { summary } from "./verify/summary.ts";
 * const { lines, ok } = summary([]);
 * // ok is false: every platform of CI_PLATFORMS lacks its record
 * ```
 * @module
 */

import { findOne } from "../lang/common/assert.ts";
import { displayWidth, padEnd } from "../lang/common/width.ts";
import { CODES } from "../lang/dandori/codes.ts";

/** Every platform a CI run proves, in the summary's order: each has exactly one record in a CI run. */
export const CI_PLATFORMS = [
  "Temporal TypeScript",
  "Temporal Python",
  "Temporal Go",
  "Temporal: TypeScript workflow, Python activities",
  "Temporal: Python workflow, TypeScript activities",
  "Temporal: Go workflow, TypeScript activities",
  "durable functions",
  "pydantic-graph",
  "Argo Workflows: controller in-process",
  "Step Functions: ASL runner",
  "Step Functions: LocalStack",
  "PostgreSQL: SQL",
  "PostgreSQL: TypeScript client",
  "PostgreSQL: Python client",
  "PostgreSQL: Go client",
  "PGlite: SQL",
  "TigerBeetle test double: TypeScript runner",
  "TigerBeetle test double: Python runner",
  "TigerBeetle test double: Go runner",
  "TigerBeetle: TypeScript runner",
  "TigerBeetle: Python runner",
  "TigerBeetle: Go runner",
] as const;

/**
 * The platforms played by hand and not in CI: three of the four directions across SDKs with Go (CI's 25
 * minutes hold TypeScript's and Python's two and Go→TypeScript, not these: with them CI took 25 min 20 s
 * and more than 26 min, README). Their records are not CI's: the summary refuses them.
 */
export const BY_HAND_PLATFORMS = [
  "Temporal: TypeScript workflow, Go activities",
  "Temporal: Go workflow, Python activities",
  "Temporal: Python workflow, Go activities",
] as const;

/** A platform a differential run plays on. */
export type Platform = typeof CI_PLATFORMS[number] | typeof BY_HAND_PLATFORMS[number];

/** Scenarios left out by a stated rule: the rule, and how many it left out. */
export interface Excluded {
  readonly rule: string;
  readonly count: number;
}

/** What a run did not play (a flow, a client language, the whole platform), and why. */
export interface Skipped {
  readonly what: string;
  readonly reason: string;
}

/** One differential run on one platform. */
export interface ProofRecord {
  readonly platform: Platform;
  /** What the run plays: dandori's flows or chobo's books. */
  readonly of: "flows" | "books";
  /** How many flows or books were played. */
  readonly subjects: number;
  /** The scenarios played (each once, however many times it ran). */
  readonly played: number;
  /** The scenarios that agree with the reference interpreter. */
  readonly agreed: number;
  readonly excluded: readonly Excluded[];
  /** The scenarios run again because they were late, each where it is. */
  readonly ranAgain: readonly string[];
  readonly skipped: readonly Skipped[];
  readonly seconds: number;
}

/** What a `deno task verify` entry gives: its exit code, and the records of what it played. */
export interface Verified {
  readonly exit: number;
  readonly records: readonly ProofRecord[];
}

/** The environment variable naming the directory a test writes its records to (unset: none are written). */
export const RECORDS_ENV = "RITSU_PROOF_RECORDS";

/** Writes `records` to a new file in `dir`: one file per run, so two runs of one platform are both seen. */
export function writeRecords(dir: string, records: readonly ProofRecord[]): void {
  const file = Deno.makeTempFileSync({ dir, prefix: "record-", suffix: ".json" });
  Deno.writeTextFileSync(file, JSON.stringify(records, null, 2) + "\n");
}

/**
 * A test's records: each run played again is printed (`run again: <platform>: <scenario>`, as the
 * `verify` entries print theirs), and the records are written to `RITSU_PROOF_RECORDS` when it is set
 * (CI sets it), otherwise kept nowhere.
 */
export function recordFromTest(records: readonly ProofRecord[]): void {
  for (const r of records) for (const w of r.ranAgain) console.log(`run again: ${r.platform}: ${w}`);
  const dir = Deno.env.get(RECORDS_ENV) ?? "";
  if (dir !== "") writeRecords(dir, records);
}

/** The record of a platform not played at all: what was not played, and why. */
export function skippedRecord(
  platform: Platform,
  of: "flows" | "books",
  what: string,
  reason: string,
): ProofRecord {
  return {
    platform,
    of,
    subjects: 0,
    played: 0,
    agreed: 0,
    excluded: [],
    ranAgain: [],
    skipped: [{ what, reason }],
    seconds: 0,
  };
}

/** The seconds since `started` (a `performance.now()`), to a tenth. */
export function secondsSince(started: number): number {
  return Math.round((performance.now() - started) / 100) / 10;
}

function isCount(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= 0;
}

function isText(v: unknown): v is string {
  return typeof v === "string" && v !== "";
}

/** What is wrong with `v` as a record, or null when it is one. */
function recordProblem(v: unknown): string | null {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return "not an object";
  const r = v as Record<string, unknown>;
  if (!(CI_PLATFORMS as readonly unknown[]).includes(r.platform)) return `no platform of CI: ${r.platform}`;
  if (r.of !== "flows" && r.of !== "books") return `of is neither flows nor books: ${r.of}`;
  for (const k of ["subjects", "played", "agreed"]) if (!isCount(r[k])) return `${k} is not a count`;
  if ((r.agreed as number) > (r.played as number)) return "more scenarios agree than were played";
  if (typeof r.seconds !== "number" || !(r.seconds >= 0)) return "seconds is not a duration";
  const list = (k: string, ok: (x: Record<string, unknown>) => boolean) =>
    Array.isArray(r[k]) &&
    (r[k] as unknown[]).every((x) => typeof x === "object" && x !== null && ok(x as never));
  if (!list("excluded", (x) => isText(x.rule) && isCount(x.count))) return "excluded is not a list of rules";
  if (!Array.isArray(r.ranAgain) || !r.ranAgain.every(isText)) return "ranAgain is not a list of runs";
  if (!list("skipped", (x) => isText(x.what) && isText(x.reason))) return "skipped is not a list of skips";
  return null;
}

/** Every record in the files of `dir`; throws naming the file whose text is not a list of records. */
export function readRecords(dir: string): ProofRecord[] {
  const files = [...Deno.readDirSync(dir)].filter((e) => e.isFile && e.name.endsWith(".json")).map((e) =>
    e.name
  )
    .sort();
  return files.flatMap((name) => {
    const path = `${dir}/${name}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(Deno.readTextFileSync(path));
    } catch (e) {
      throw new Error(`${path}: not JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!Array.isArray(parsed)) throw new Error(`${path}: not a list of records`);
    parsed.forEach((r, i) => {
      const problem = recordProblem(r);
      if (problem !== null) throw new Error(`${path}: record ${i + 1}: ${problem}`);
    });
    return parsed as ProofRecord[];
  });
}

/** `n` with thousands separated. */
function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** `n` flows or books (one flow, one book). */
function counted(n: number, of: ProofRecord["of"]): string {
  return `${count(n)} ${n === 1 ? of.slice(0, -1) : of}`;
}

/** A skip's reason as the summary groups it: the diagnostic code of dandori it starts with, or the whole reason. */
function skipGroup(reason: string): string {
  const code = /^E[0-9]{3}\b/.exec(reason);
  return code === null ? reason : code[0];
}

/**
 * One line per group of a record's skips: flows not built, by their diagnostic code and its title
 * (each flow's own reason is `dandori build`'s); anything else by its reason, with what it skipped.
 */
function skipLines(r: ProofRecord): string[] {
  const groups = new Map<string, string[]>();
  for (const s of r.skipped) {
    groups.set(skipGroup(s.reason), [...(groups.get(skipGroup(s.reason)) ?? []), s.what]);
  }
  return [...groups].map(([reason, whats]) => {
    if (!/^E[0-9]{3}$/.test(reason)) return `  ${r.platform}: ${whats.join(", ")}: ${reason}`;
    const title = findOne(CODES, (c) => c.code === reason, `dandori's code ${reason}`).title.en;
    return `  ${r.platform}: ${
      counted(whats.length, r.of)
    } not built (${reason}: ${title}; dandori explain ${reason})`;
  });
}

/** The most runs played again the summary lists one by one; past it, it counts them (the log above lists each). */
const MAX_AGAIN_LISTED = 20;

const HEADER = ["platform", "of", "agree/played", "excluded", "ran again", "skipped", "seconds"];

/** The table's row of one record. */
function row(r: ProofRecord): string[] {
  return [
    r.platform,
    counted(r.subjects, r.of),
    `${count(r.agreed)}/${count(r.played)}`,
    count(r.excluded.reduce((n, x) => n + x.count, 0)),
    count(r.ranAgain.length),
    count(r.skipped.length),
    r.seconds.toFixed(1),
  ];
}

/** The rows as aligned columns: the first left, the others right. */
function table(rows: readonly string[][]): string[] {
  const widths = HEADER.map((_, i) => Math.max(...rows.map((r) => displayWidth(r[i]))));
  return rows.map((r) =>
    r.map((cell, i) => i === 0 ? padEnd(cell, widths[i]) : " ".repeat(widths[i] - displayWidth(cell)) + cell)
      .join("  ").trimEnd()
  );
}

/**
 * The summary of a CI run's records: its lines, and whether the proof holds — every platform of
 * `CI_PLATFORMS` has exactly one record and every scenario played agrees. A skip does not fail it
 * (it is listed with its reason); a missing or doubled record does.
 */
export function summary(records: readonly ProofRecord[]): { lines: string[]; ok: boolean } {
  const by = new Map<Platform, ProofRecord[]>(CI_PLATFORMS.map((p) => [p, []]));
  for (const r of records) by.get(r.platform)?.push(r);
  const present = CI_PLATFORMS.flatMap((p) => by.get(p) ?? []);
  const missing = CI_PLATFORMS.filter((p) => by.get(p)?.length === 0);
  const doubled = CI_PLATFORMS.filter((p) => (by.get(p)?.length ?? 0) > 1);
  const disagree = present.filter((r) => r.agreed < r.played);
  const lines = ["proof: every differential run of this CI run, from its records (verify/summary.ts)"];
  lines.push(...table([HEADER, ...present.map(row)]).map((l) => `  ${l}`));
  const excluded = present.flatMap((r) =>
    r.excluded.map((x) => `  ${r.platform}: ${count(x.count)} scenario${x.count === 1 ? "" : "s"}: ${x.rule}`)
  );
  lines.push(`excluded by a stated rule:${excluded.length === 0 ? " none" : ""}`, ...excluded);
  const again = present.flatMap((r) => r.ranAgain.map((w) => `  ${r.platform}: ${w}`));
  lines.push(
    again.length === 0
      ? "run again because late: none"
      : again.length > MAX_AGAIN_LISTED
      ? `run again because late: ${
        count(again.length)
      }, more than ${MAX_AGAIN_LISTED}: each is in the log above ("run again: …")`
      : `run again because late: ${again.length}`,
    ...(again.length > MAX_AGAIN_LISTED ? [] : again),
  );
  const skipped = present.flatMap(skipLines);
  lines.push(`skipped:${skipped.length === 0 ? " none" : ""}`, ...skipped);
  for (const p of missing) lines.push(`NO RECORD: ${p}: its run did not record what it played`);
  for (const p of doubled) {
    lines.push(`TWICE: ${p}: ${by.get(p)?.length} records; one run of each corpus is enough`);
  }
  for (const r of disagree) {
    lines.push(`DISAGREE: ${r.platform}: ${count(r.played - r.agreed)} of ${count(r.played)} scenarios`);
  }
  const played = present.reduce((n, r) => n + r.played, 0);
  const agreed = present.reduce((n, r) => n + r.agreed, 0);
  const ok = missing.length === 0 && doubled.length === 0 && disagree.length === 0;
  lines.push(
    `proof: ${ok ? "holds" : "FAILS"}: ${count(agreed)} of ${count(played)} scenarios agree on ${
      present.filter((r) => r.played > 0).length
    } of ${CI_PLATFORMS.length} platforms`,
  );
  return { lines, ok };
}

if (import.meta.main) {
  const [dir, ...rest] = Deno.args;
  if (dir === undefined || rest.length > 0) {
    console.error("usage: deno run -A verify/summary.ts <records dir>");
    Deno.exit(2);
  }
  let records: ProofRecord[];
  try {
    records = readRecords(dir);
  } catch (e) {
    console.log(`proof: FAILS: ${e instanceof Error ? e.message : String(e)}`);
    Deno.exit(1);
  }
  const { lines, ok } = summary(records);
  for (const l of lines) console.log(l);
  Deno.exit(ok ? 0 : 1);
}
