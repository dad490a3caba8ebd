/**
 * Temporal copies broken on purpose, several at once: each break changes one text of one file in the
 * package of its own flow, and every broken flow plays on one dev server with one runner (one build of
 * the Go runner), so a test shows each break caught without a server and a runner per break.
 */

import { ok, strictEqual } from "node:assert/strict";
import { basename } from "node:path";
import { checkedFlowAt } from "../../verify/dandori/flows.ts";
import { type FlowReport, subjectOf, verifyFlows } from "../../verify/dandori/temporal.ts";
import type { FlowSubject } from "../../verify/dandori/temporal_play.ts";
import { type TemporalSdk, TYPESCRIPT_SDK } from "../../verify/dandori/temporal_sdk.ts";

/** One copy broken on purpose: in the package of the flow at `path`, `from` in `file` replaced by `to`. */
export interface Break {
  readonly path: string;
  readonly file: string;
  readonly from: string;
  readonly to: string;
}

/**
 * Plays every break's flow with its copy broken, on one server by one runner of `sdk`; each flow's
 * report by its path. A package is told by the `Source:` line of its files' header (the flows' file
 * names differ, which this holds), and each break must be made (again for a round that plays a late run
 * again, which copies the package anew).
 */
export async function brokenReports(
  bin: string,
  root: string,
  breaks: readonly Break[],
  sdk: TemporalSdk = TYPESCRIPT_SDK,
): Promise<Map<string, FlowReport>> {
  const names = breaks.map((b) => basename(b.path));
  strictEqual(new Set(names).size, names.length, "each broken flow has a file name of its own");
  const subjects = breaks.map((b) => {
    const flow = checkedFlowAt(root, b.path);
    ok(flow !== null, `${b.path} checks`);
    const s = subjectOf(flow, sdk);
    ok(!("skipped" in s), `${b.path} builds on ${sdk.language}`);
    return s;
  });
  const made = new Set<string>();
  const reports = await reportsByFlow(bin, subjects, (files) => {
    for (const [i, b] of breaks.entries()) {
      const text = files.get(b.file);
      if (text === undefined || !text.includes(`// Source: ${names[i]} (`)) continue;
      ok(text.includes(b.from), `${b.path}: ${b.file} holds ${b.from}`);
      files.set(b.file, text.replace(b.from, b.to));
      made.add(b.path);
    }
  }, sdk);
  for (const b of breaks) ok(made.has(b.path), `${b.path}: its copy was broken`);
  return reports;
}

/**
 * Plays `subjects` on one dev server by one runner of `sdk`, each copy changed by `mutate` when given:
 * each flow's report by its path (a flow that could not be played fails the test).
 */
export async function reportsByFlow(
  bin: string,
  subjects: readonly FlowSubject[],
  mutate?: (files: Map<string, string>) => void,
  sdk: TemporalSdk = TYPESCRIPT_SDK,
): Promise<Map<string, FlowReport>> {
  const reports = new Map<string, FlowReport>();
  await verifyFlows(
    bin,
    subjects,
    (r) => {
      ok(!("error" in r), "error" in r ? `${r.flow}: ${r.error}` : "");
      reports.set(r.flow, r);
    },
    mutate,
    sdk,
  );
  return reports;
}

/** A flow's report from `brokenReports` or `reportsByFlow`; fails when the flow has none. */
export function reportOf(reports: ReadonlyMap<string, FlowReport>, path: string): FlowReport {
  const r = reports.get(path);
  ok(r !== undefined, `${path} was reported`);
  return r;
}
