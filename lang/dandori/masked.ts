/**
 * A run as `dandori run` shows it when its flow marks values `secret` (docs/dandori.md#secrets-in-a-run):
 * every value read from a marked place — an input, a call's argument or result, a record's field,
 * an output — and every value a call is given that carries one (as the checker follows secrets,
 * carried.ts) is `<secret>`; elsewhere, the text of each secret value is `<secret>` wherever it
 * appears (a string made from it keeps the rest: `payout to <secret>`; a number equal to a secret
 * number is masked whole). The scenario's input and the answers are masked as well, so neither the
 * text nor the JSON (nor its `replay`) holds a secret value.
 * @module
 */

import { secretsOfType, SecretValues, type Segment } from "./carried.ts";
import type { CheckedFlow } from "./checked.ts";
import type { Answer, CallRecord, Ending, Run } from "./interp.ts";
import type { FlowScenario } from "./scenario.ts";
import type { FieldDef, SecretMark, Ty, TypeTable } from "./types.ts";
import { isRecord, member, type Value } from "./values.ts";

/** What a secret value is shown as. */
export const SECRET_MASK = "<secret>";

type Path = readonly Segment[];

/** Where a place's secrets are in its value: all of it when the place is marked, else its type's marked fields. */
function placePaths(types: TypeTable, ty: Ty, mark: SecretMark | null): Path[] {
  return mark !== null ? [[]] : secretsOfType(types, ty, "").map((c) => c.inner);
}

function fieldPaths(types: TypeTable, f: FieldDef): Path[] {
  return placePaths(types, f.type, f.secret);
}

/** The text of every string and number under `path` in `v` (a bool or null is no text to look for). */
function textsAt(v: Value | undefined, path: Path, out: Set<string>): void {
  if (v === undefined || v === null) return;
  if (path.length > 0) {
    const [first, ...rest] = path;
    if (first !== "items") textsAt(member(v, first.field), rest, out);
    else if (Array.isArray(v)) { for (const x of v) textsAt(x, rest, out); }
    return;
  }
  if (typeof v === "string") {
    if (v !== "") out.add(v);
  } else if (typeof v === "number" || typeof v === "bigint") out.add(String(v));
  else if (Array.isArray(v)) { for (const x of v) textsAt(x, [], out); }
  else if (typeof v === "object") { for (const x of Object.values(v)) textsAt(x, [], out); }
}

/** A flow's secret places: its inputs', outputs', and each call's arguments (by line) and result. */
interface Places {
  readonly flow: CheckedFlow;
  readonly inputs: ReadonlyMap<string, Path[]>;
  readonly outputs: ReadonlyMap<string, Path[]>;
  /** Where the arguments of the call at each line are marked `secret` (by its task's parameters). */
  readonly marked: ReadonlyMap<number, ReadonlyMap<string, Path[]>>;
  /** Where they carry a secret they were made from (carried.ts), as the checker follows it. */
  readonly carried: ReadonlyMap<number, ReadonlyMap<string, Path[]>>;
}

function placesOf(flow: CheckedFlow): Places {
  const types = flow.model.types;
  const values = new SecretValues(flow.model, flow.typed);
  const marked = new Map<number, Map<string, Path[]>>();
  const carried = new Map<number, Map<string, Path[]>>();
  for (const [stmt, task] of flow.typed.calls) {
    marked.set(stmt.line, new Map(task.params.map((p) => [p.name, fieldPaths(types, p)])));
    carried.set(
      stmt.line,
      new Map(
        stmt.call.args.flatMap((a) =>
          a.kind === "arg" ? [[a.name.text, values.of(a.value).map((c) => c.inner)]] : []
        ),
      ),
    );
  }
  const fields = (fs: readonly FieldDef[]) => new Map(fs.map((f) => [f.name, fieldPaths(types, f)]));
  return { flow, inputs: fields(flow.model.inputs), outputs: fields(flow.model.outputs), marked, carried };
}

/**
 * Every secret text of a run: what it read at its flow's marked places, its children's too (a
 * value made from a secret is masked where it goes, not looked for as text: `payout to <secret>`).
 */
function secretTexts(p: Places, input: Value, calls: readonly CallRecord[], out: Set<string>): void {
  for (const [name, paths] of p.inputs) for (const path of paths) textsAt(member(input, name), path, out);
  for (const c of calls) {
    for (const [name, paths] of p.marked.get(c.line) ?? []) {
      for (const path of paths) textsAt(member(c.args, name), path, out);
    }
    const result = p.flow.model.tasks.get(c.task)?.result ?? null;
    const child = p.flow.children.get(c.task);
    const answer = c.answer.kind === "ok" ? c.answer.value : undefined;
    if (result !== null) {
      for (const path of placePaths(p.flow.model.types, result.type, result.secret)) {
        textsAt(answer, path, out);
      }
    }
    if (child === undefined) continue;
    // A child flow's answer is its outputs, marked in the child.
    const inChild = placesOf(child);
    for (const [name, paths] of inChild.outputs) {
      for (const path of paths) textsAt(member(answer ?? null, name), path, out);
    }
    if (c.child !== null) secretTexts(inChild, c.args, c.child.calls, out);
  }
}

/** Masks the texts of `secrets` in values, and whole values at secret places. */
class Masker {
  /** Longest first, so a secret inside another is not masked apart from it. */
  private readonly texts: readonly string[];

  constructor(secrets: ReadonlySet<string>) {
    this.texts = [...secrets].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  }

  /** `v` with the text of every secret masked, and each value at one of `paths` masked whole. */
  value(v: Value, paths: readonly Path[] = []): Value {
    let out = this.texts.length === 0 ? v : this.byText(v);
    for (const path of paths) out = this.at(out, path);
    return out;
  }

  text(s: string): string {
    let out = s;
    for (const t of this.texts) out = out.replaceAll(t, SECRET_MASK);
    return out;
  }

  private byText(v: Value): Value {
    if (typeof v === "string") return this.text(v);
    if (typeof v === "number" || typeof v === "bigint") {
      return this.texts.includes(String(v)) ? SECRET_MASK : v;
    }
    if (Array.isArray(v)) return v.map((x) => this.byText(x));
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.byText(x)]));
    }
    return v;
  }

  /** The value at `path` masked whole, unless it is a string whose secrets are masked already. */
  private at(v: Value, path: Path): Value {
    if (v === null) return v;
    if (path.length === 0) return typeof v === "string" && v.includes(SECRET_MASK) ? v : SECRET_MASK;
    const [first, ...rest] = path;
    if (first === "items") return Array.isArray(v) ? v.map((x) => this.at(x, rest)) : v;
    const inner = member(v, first.field);
    if (inner === undefined || typeof v !== "object" || Array.isArray(v)) return v;
    return { ...v, [first.field]: this.at(inner, rest) };
  }
}

function maskedArgs(m: Masker, p: Places, c: CallRecord): Record<string, Value> {
  const paths = (
    k: string,
  ) => [...p.marked.get(c.line)?.get(k) ?? [], ...p.carried.get(c.line)?.get(k) ?? []];
  return Object.fromEntries(Object.entries(c.args).map(([k, v]) => [k, m.value(v, paths(k))]));
}

function maskedAnswer(m: Masker, p: Places, c: CallRecord): Answer {
  const a = c.answer;
  if (a.kind === "error") return { ...a, cause: a.cause === null ? null : m.text(a.cause) };
  if (a.kind === "cancel") return a;
  const result = p.flow.model.tasks.get(c.task)?.result ?? null;
  const paths = result === null ? [] : placePaths(p.flow.model.types, result.type, result.secret);
  return { kind: "ok", value: m.value(a.value, paths) };
}

function maskedCalls(m: Masker, p: Places, calls: readonly CallRecord[]): CallRecord[] {
  return calls.map((c) => {
    const child = p.flow.children.get(c.task);
    return {
      ...c,
      args: maskedArgs(m, p, c),
      answer: maskedAnswer(m, p, c),
      child: c.child === null || child === undefined
        ? c.child
        : { ...c.child, calls: maskedCalls(m, placesOf(child), c.child.calls) },
    };
  });
}

function maskedEnding(m: Masker, p: Places, e: Ending): Ending {
  if (e.kind === "fail") return { ...e, reason: e.reason === null ? null : m.text(e.reason) };
  if (e.kind === "cancelled" || e.outputs === null) return e;
  return {
    ...e,
    outputs: Object.fromEntries(Object.entries(e.outputs).map(([k, v]) => [k, m.value(v, p.outputs.get(k))])),
  };
}

/**
 * The scenario and its run as `dandori run` shows them: every secret value masked.
 *
 * @example
 * ```ts
 * const shown = maskedRun(checked, scenario, runFlow(checked, plan, options));
 * shown.run.calls[0].args; // { account_id: "a-1", reference: "payout to <secret>" }
 * ```
 */
export function maskedRun(
  flow: CheckedFlow,
  s: FlowScenario,
  run: Run,
): { scenario: FlowScenario; run: Run } {
  const p = placesOf(flow);
  const secrets = new Set<string>();
  secretTexts(p, s.input, run.calls, secrets);
  const m = new Masker(secrets);
  const input = isRecord(s.input)
    ? Object.fromEntries(Object.entries(s.input).map(([k, v]) => [k, m.value(v, p.inputs.get(k))]))
    : s.input;
  return {
    scenario: { ...s, input },
    run: {
      ...run,
      calls: maskedCalls(m, p, run.calls),
      ending: maskedEnding(m, p, run.ending),
      cases: new Map([...run.cases].map(([k, v]) => [k, m.value(v)])),
    },
  };
}
