/**
 * `dandori scenarios`: the scenarios a flow's targets are proven on, found by running the flow on
 * the reference interpreter (docs/design/dandori.md#scenarios).
 *
 * A run is made of choices: the values of the input (an optional value present or not, a list's
 * length, a bool, an enum's value) and the answer of every attempt of every call (the result,
 * each declared error, `timeout`, `failure`, a malformed result (`{}`, or `[]` for a `connect` task,
 * whose `{}` is a message of zero values), a cancel where one can arrive; a book's done, done before
 * and each refusal). The exploration:
 *
 * - at each place, an option not used yet is taken first; a place met again in the same run
 *   repeats its choice (so a loop goes round to its end);
 * - a run that reaches something new (a statement, an arm, a handler, a second iteration, an
 *   ending, an answer) is kept, and each of its choices is varied in turn, the rest following
 *   the rule above;
 * - strings and numbers are distinct within a run (`id-5`, `1003`); numbers, dates and times
 *   with a range are chosen inside it; a `connect` task's result is made as its service's protobuf
 *   writer could write it (`asWritten`: a 64-bit integer read as `string` is `"5"`, not `id-5`).
 *
 * Then the families that are not choices of a run: for every ranged place of the input, a run
 * with that place just outside its range (`input:outside`), and for dates and times a run at
 * each end (`input:at an end`); for a flow with a period, a run that starts just outside it
 * (`now:outside`) and one whose later `now` is outside (`<place>:outside`); the run with the
 * most calls again with every `json` and empty `T?` of the input left out (`json:omitted`); for
 * each end of each range written in a task's result (a record's field at any depth, a list's
 * items, a `T?`'s value), a run whose first call of the task is answered just outside that end
 * (`<place>:outside <task>.<path> below|above`, `Dandori.BadResponse`); for each `connect` task, a
 * run whose first call is answered with its zero values left out, as protobuf's JSON leaves them out
 * (`<place>:zeros left out <task>`: every platform fills them in as the interpreter does); for each
 * Claude agent whose result holds an enum, a run whose first call is answered with the enum values'
 * case changed (`<place>:enum case changed <task>`: every platform reads them as the declared
 * values); and for each declared error a task's `retry … on` retries, a run that answers it at every attempt until the retries
 * run out (`<place>:<error> out of retries`) unless a kept run already does. Each of these
 * starts from the first kept run that calls the task, its choices replayed up to that call.
 * A scenario is kept only when it reaches what it was made for. At most `MAX_TRIES` runs are
 * tried per flow by the exploration and `MAX_FAMILY_TRIES` by the families; reaching either is
 * said (`GeneratedScenarios.capped`, `familiesCapped`). Past `MAX_SCENARIO_CHOICES` choices made in
 * the runs tried and written in the variations made of them, the generation stops
 * (`GeneratedScenarios.tooLarge`) and no family is made.
 * @module
 */

import { assert, lookup, unreachable } from "../common/assert.ts";
import { type Text, tr } from "../common/text.ts";
import type { CheckedFlow } from "./checked.ts";
import {
  type Answer,
  type Answers,
  type Attempt,
  DEFAULT_NOW,
  type Run,
  runFlow,
  type Visit,
} from "./interp.ts";
import { MAX_SCENARIO_CHOICES } from "./limits.ts";
import type { Plan, StmtPlan } from "./plan.ts";
import { dayNumber, dayText, type Range } from "./ranges.ts";
import { secondText, timestampMs, timestampText } from "./rules.ts";
import type { Ty, TypeTable } from "./types.ts";
import { answerJson } from "./scenario.ts";
import { fits, isRecord, type Value } from "./values.ts";
import { filledFields, type FillTable, type ShapeField, type ShapeTable } from "./connect.ts";
import { mapEnumValues } from "./agent_requests.ts";
import { stringifyJson } from "../common/json.ts";
import type { TaskDef } from "./model.ts";
import { MAX_MESSAGE_DEPTH } from "./proto.ts";

/** The most runs the exploration tries for one flow. */
export const MAX_TRIES = 2_000;
/**
 * The most runs the families after the exploration try for one flow, all families together: each
 * range end of an input or a result and each retried declared error usually takes one. A flow
 * reaches it only with hundreds of ranges written in its results; the families not tried then
 * are said (`GeneratedScenarios.familiesCapped`), and the scenarios made before are kept.
 */
export const MAX_FAMILY_TRIES = 1_000;

/** One choice made in a run; `label` names a value's choice for the run's covers. */
interface Choice {
  readonly key: string;
  readonly option: number;
  readonly label?: string;
}

/** A generated scenario, as `dandori scenarios` writes it. */
export interface GeneratedScenario {
  readonly name: string;
  readonly input: Value;
  readonly now: readonly [string, string];
  readonly answers: readonly Answer[];
  readonly covers: readonly string[];
}

/** What the generator found. */
export interface GeneratedScenarios {
  readonly scenarios: readonly GeneratedScenario[];
  /** True when `MAX_TRIES` stopped the exploration before it had tried every variation. */
  readonly capped: boolean;
  /**
   * True when the exploration went past `MAX_SCENARIO_CHOICES` choices: it stopped, and the flow is
   * too large to explore whole.
   */
  readonly tooLarge: boolean;
  /** True when `MAX_FAMILY_TRIES` stopped the families before every one was tried. */
  readonly familiesCapped: boolean;
}

/** Makes the choices of one run: a script first, then the exploration's rule. */
class Chooser {
  readonly made: Choice[] = [];
  private readonly decided = new Map<string, number>();
  private following = true;

  /** `widths` collects how many options each place has, for the variations of a kept run. */
  constructor(
    private readonly script: readonly Choice[],
    private readonly used: ReadonlyMap<string, ReadonlySet<number>>,
    private readonly widths: Map<string, number>,
  ) {}

  choose(key: string, options: number, names?: readonly string[]): number {
    assert(options > 0, `a choice at ${key} has an option`);
    this.widths.set(key, Math.max(options, this.widths.get(key) ?? 0));
    const i = this.made.length;
    let option: number;
    const scripted = this.following ? this.script[i] : undefined;
    if (scripted !== undefined && scripted.key === key && scripted.option < options) option = scripted.option;
    else {
      this.following = false;
      const repeat = this.decided.get(key);
      if (repeat !== undefined && repeat < options) option = repeat;
      else {
        const used = this.used.get(key) ?? new Set<number>();
        option = [...Array(options).keys()].find((o) => !used.has(o)) ?? 0;
      }
    }
    this.decided.set(key, option);
    this.made.push(names === undefined ? { key, option } : { key, option, label: `${key} ${names[option]}` });
    return option;
  }
}

/** Distinct values within a run. */
class Counter {
  private n = 0;
  next(): number {
    return ++this.n;
  }
}

/** The values of a flow's types, made with choices. */
class Maker {
  constructor(
    readonly types: TypeTable,
    private readonly chooser: Chooser,
    private readonly counter: Counter,
    private readonly listMost: number,
  ) {}

  value(t: Ty, range: Range | null, key: string, name: string): Value {
    switch (t.kind) {
      case "optional":
        return this.chooser.choose(`${key}?`, 2, ["some", "none"]) === 0
          ? this.value(t.inner, range, key, name)
          : null;
      case "list": {
        const lengths = [1, 0, 2, this.listMost + 1];
        const n = lengths[this.chooser.choose(`${key}#`, lengths.length, lengths.map((l) => `length ${l}`))];
        return Array.from({ length: n }, () => this.value(t.element, range, `${key}[]`, name));
      }
      case "bool":
        return this.chooser.choose(key, 2, ["true", "false"]) === 0;
      case "enum": {
        const e = lookup(this.types.enums, t.name, "enum");
        return e.values[this.chooser.choose(key, e.values.length, e.values)];
      }
      case "int":
      case "num":
        return numberIn(range, 1000n + BigInt(this.counter.next()));
      case "string":
        return `${name}-${this.counter.next()}`;
      case "date":
        return dateIn(range, this.counter.next());
      case "timestamp":
        return timeIn(range, this.counter.next());
      case "json":
        return { note: `${name}-${this.counter.next()}` };
      case "record": {
        const r = lookup(this.types.records, t.name, "record");
        return Object.fromEntries(
          r.fields.map((f) => [f.name, this.value(f.type, f.range, `${key}.${f.name}`, f.name)]),
        );
      }
      default:
        return unreachable(t, "type");
    }
  }
}

/** `n` inside `range` (the range's own numbers when `n` is outside). */
function numberIn(range: Range | null, n: bigint): bigint {
  if (range === null || range.kind !== "number") return n;
  const lo = range.lo ?? (range.hi === null ? 0n : range.hi - 1000n);
  const hi = range.hi ?? lo + 1_000_000n;
  return lo + ((n - lo) % (hi - lo + 1n) + (hi - lo + 1n)) % (hi - lo + 1n);
}

/** A day inside `range`: from its first day (or 2026-04-01), `n` days on, within its last. */
function dateIn(range: Range | null, n: number): string {
  const first = range?.kind === "date" && range.lo !== null ? range.lo : dayNumber("2026-04-01") ?? 0n;
  let day = first + BigInt(n);
  if (range?.kind === "date" && range.hi !== null && day > range.hi) day = range.hi;
  return dayText(day);
}

/** A time inside `range`: 10:00 of its first day (or 2026-04-01), `n` hours on, within its end. */
function timeIn(range: Range | null, n: number): string {
  const firstDay = range?.kind === "time" && range.days?.lo != null
    ? range.days.lo
    : dayNumber("2026-04-01") ?? 0n;
  let ms = Number(firstDay) * 86_400_000 + 10 * 3_600_000 + n * 3_600_000;
  if (range?.kind === "time" && range.lo !== null) ms = Math.max(ms, Number(range.lo) * 1000);
  if (range?.kind === "time" && range.hi !== null) ms = Math.min(ms, Number(range.hi) * 1000);
  return timestampText(ms);
}

/** The answers of a generated run: chosen at every attempt. */
class ChosenAnswers implements Answers {
  constructor(private readonly maker: Maker, private readonly chooser: Chooser) {}

  next(a: Attempt): Answer {
    const options = answerOptions(a, this.maker);
    return options[this.chooser.choose(`${a.place}:${a.attempt}`, options.length)].answer();
  }
}

/** The answers an attempt may get, the expected first; each made only when chosen. */
function answerOptions(a: Attempt, maker: Maker): { answer: () => Answer }[] {
  const t = a.task;
  const ok = (value: () => Value) => ({ answer: (): Answer => ({ kind: "ok", value: value() }) });
  const error = (e: string) => ({ answer: (): Answer => ({ kind: "error", error: e, cause: null }) });
  const out: { answer: () => Answer }[] = [];
  if (t.book !== null) {
    out.push(ok(() => ({ result: "done" })), ok(() => ({ result: "done_before" })));
  } else if (t.result === null) out.push(ok(() => null));
  else {
    const r = t.result;
    out.push(ok(() => asWritten(maker.types, t, maker.value(r.type, r.range, `${a.place}:ok`, t.name))));
  }
  for (const e of t.errors.keys()) out.push(error(e));
  out.push(error("timeout"), error("failure"));
  if (
    t.book !== null ||
    (t.result !== null && t.result.type.kind !== "json" && t.result.type.kind !== "optional")
  ) {
    // A Connect service's `{}` is a message with every zero value left out, which reads as one: its
    // malformed answer is `[]` (connect.ts).
    out.push(ok(() => t.connect === null ? {} : []));
  }
  if (a.cancellable) out.push({ answer: () => ({ kind: "cancel" }) });
  return out;
}

/** What a run reached, as labels: statements, arms, handlers, iterations, answers and the ending. */
function labels(run: Run): Set<string> {
  const out = new Set<string>();
  for (const v of run.visits) {
    const label = visitLabel(v);
    if (label !== null) out.add(label);
  }
  for (const c of run.calls) out.add(`${c.place}:${answerLabel(c.answer)}`);
  const e = run.ending;
  out.add(e.kind === "fail" ? `end:fail ${e.error}` : `end:${e.kind}`);
  for (const [name, record] of run.cases) {
    out.add(`case ${name}:${isRecord(record) ? String(record.state) : "none"}`);
  }
  return out;
}

/**
 * What a visit adds to a run's covers; null for the visits the page needs and the exploration does
 * not (a period check inside goes with its statement's label; a cancel and a malformed answer with
 * the answer's; a held failure with the failing call's), so the covers stay as they were.
 */
function visitLabel(v: Visit): string | null {
  switch (v.kind) {
    case "stmt":
      return v.place;
    case "arm":
      return `${v.place}:arm ${v.index + 1}`;
    case "handler":
      return `${v.place}:handler ${v.index + 1}`;
    case "iteration":
      return v.count === 1 ? `${v.place}:once` : `${v.place}:again`;
    case "ok":
    case "done":
    case "unhandled":
    case "outside":
    case "bad input":
      return `${v.place}:${v.kind}`;
    case "inside":
    case "cancel":
    case "bad response":
    case "held":
      return null;
    default:
      return unreachable(v, "visit");
  }
}

function answerLabel(a: Answer): string {
  switch (a.kind) {
    case "ok":
      if (isRecord(a.value) && Object.keys(a.value).length === 0) return "{}";
      return isRecord(a.value) && a.value.result === "done_before" ? "done_before" : "ok";
    case "error":
      return a.error;
    case "cancel":
      return "cancel";
    default:
      return unreachable(a, "answer");
  }
}

/** One run of the exploration. */
interface Tried {
  readonly input: Value;
  readonly now: readonly [string, string];
  readonly run: Run;
  readonly choices: readonly Choice[];
}

/** An answer a family gives an attempt itself, or null to let the run choose (`counter` keeps values distinct). */
type Given = (a: Attempt, counter: Counter) => Answer | null;

/** The answers of a family's run: its own where it gives one, else chosen. */
class GivenAnswers implements Answers {
  constructor(
    private readonly given: Given,
    private readonly counter: Counter,
    private readonly chosen: ChosenAnswers,
  ) {}

  next(a: Attempt): Answer {
    return this.given(a, this.counter) ?? this.chosen.next(a);
  }
}

/** The explorer of one flow. */
class Explorer {
  private readonly used = new Map<string, Set<number>>();
  private readonly widths = new Map<string, number>();
  private readonly seen = new Set<string>();
  private tries = 0;
  /** The choices made in the runs tried and written in the variations made of them. */
  private choices = 0;
  private readonly listMost: number;
  readonly kept: { tried: Tried; covers: string[] }[] = [];
  /** True when `MAX_TRIES` stopped `explore` with variations left. */
  capped = false;

  constructor(
    private readonly flow: CheckedFlow,
    private readonly plan: Plan,
    private readonly now: readonly [string, string],
  ) {
    this.listMost = smallestFor(plan);
  }

  get tooLarge(): boolean {
    return this.choices > MAX_SCENARIO_CHOICES;
  }

  explore(): void {
    const queue: Choice[][] = [[]];
    const queued = new Set<string>([""]);
    while (queue.length > 0 && this.tries < MAX_TRIES && !this.tooLarge) {
      const script = queue.shift() ?? [];
      const tried = this.try(script, this.now);
      const reached = [
        ...labels(tried.run),
        ...tried.choices.flatMap((c) => c.label === undefined ? [] : [c.label]),
      ];
      const fresh = [...new Set(reached)].filter((l) => !this.seen.has(l));
      if (fresh.length === 0) continue;
      for (const l of fresh) this.seen.add(l);
      this.kept.push({ tried, covers: fresh });
      tried.choices.forEach((c, j) => {
        const options = this.optionsAt(tried.choices, j);
        for (let o = 0; o < options; o++) {
          if (o === c.option) continue;
          // A run of many choices has many variations, each as long as its place in the run.
          this.choices += j + 1;
          if (this.tooLarge) return;
          const next = [...tried.choices.slice(0, j), { key: c.key, option: o }];
          const id = next.map((x) => `${x.key}=${x.option}`).join("|");
          if (queued.has(id)) continue;
          queued.add(id);
          queue.push(next);
        }
      });
    }
    this.capped = queue.length > 0;
  }

  /** How many options the choice at `j` has. */
  private optionsAt(choices: readonly Choice[], j: number): number {
    return lookup(this.widths, choices[j].key, "choice's width");
  }

  /** One run: `script`'s choices, then the exploration's rule; `given` answers what a family gives itself. */
  try(script: readonly Choice[], now: readonly [string, string], input?: Value, given?: Given): Tried {
    this.tries++;
    const chooser = new Chooser(script, this.used, this.widths);
    const counter = new Counter();
    const maker = new Maker(this.flow.model.types, chooser, counter, this.listMost);
    const made = input ?? inputOf(this.flow, maker);
    const chosen = new ChosenAnswers(maker, chooser);
    const run = runFlow(this.flow, {
      input: made,
      now,
      answers: given === undefined ? chosen : new GivenAnswers(given, counter, chosen),
      execution: "run",
      children: false,
    });
    this.choices += chooser.made.length;
    for (const c of chooser.made) {
      const u = this.used.get(c.key) ?? new Set<number>();
      u.add(c.option);
      this.used.set(c.key, u);
    }
    return { input: made, now, run, choices: chooser.made };
  }
}

/** The smallest `at most` of the flow's `for` loops: a list one longer reaches `Dandori.TooManyItems`. */
function smallestFor(plan: Plan): number {
  let most = Infinity;
  const walk = (ss: readonly StmtPlan[]): void => {
    for (const s of ss) {
      if (s.kind === "for") most = Math.min(most, s.atMost);
      if (s.kind === "for" || s.kind === "repeat") walk(s.body);
      if (s.kind === "match") { for (const a of s.arms) walk(a.body); }
      if (s.kind === "call") { for (const h of s.call.handlers) walk(h.body); }
    }
  };
  walk(plan.blocks.flow);
  walk(plan.blocks.failure ?? []);
  walk(plan.blocks.cancel ?? []);
  return Number.isFinite(most) ? most : 2;
}

function inputOf(flow: CheckedFlow, maker: Maker): Value {
  return Object.fromEntries(
    flow.model.inputs.map((f) => [f.name, maker.value(f.type, f.range, `input:${f.name}`, f.name)]),
  );
}

/** The `now` of a flow's runs (docs/design/dandori.md#the-workflow-period): the default, or the nearest time inside the period. */
export function runNow(flow: CheckedFlow): string {
  const p = flow.model.period;
  if (p === null) return DEFAULT_NOW;
  const inside = (ms: number) =>
    (p.lo === null || ms >= Number(p.lo) * 1000) && (p.hi === null || ms <= Number(p.hi) * 1000);
  const base = timestampMs(DEFAULT_NOW) ?? 0;
  if (inside(base)) return DEFAULT_NOW;
  const candidates: number[] = [];
  for (let k = -240; k <= 240; k++) {
    const d = new Date(base);
    const t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + k + 1, 0, 15, 30, 0);
    if (inside(t)) candidates.push(t);
  }
  candidates.sort((a, b) => Math.abs(a - base) - Math.abs(b - base) || a - b);
  return timestampText(candidates[0] ?? Number(p.lo ?? 0n) * 1000);
}

/** The time just outside a period: the first second after it, or the last before it. */
function justOutside(range: Range): string | null {
  if (range.hi !== null) return timestampText((Number(range.hi) + 1) * 1000);
  if (range.lo !== null) return timestampText((Number(range.lo) - 1) * 1000);
  return null;
}

/**
 * Generates the scenarios of a checked flow.
 *
 * @example
 * ```ts
 * const { scenarios, capped } = generateFlowScenarios(checked, lower(checked));
 * ```
 */
export function generateFlowScenarios(flow: CheckedFlow, plan: Plan): GeneratedScenarios {
  const now = runNow(flow);
  const explorer = new Explorer(flow, plan, [now, now]);
  explorer.explore();
  const families = new Families(explorer);
  if (explorer.kept.length > 0 && !explorer.tooLarge) {
    inputFamilies(flow, families, now);
    periodFamilies(flow, families, now);
    omittedFamily(flow, families);
    resultFamilies(flow, families);
    zeroFamilies(flow, families);
    caseFamilies(flow, families);
    retryFamilies(flow, families);
  }
  return {
    scenarios: [...explorer.kept, ...families.out].map(({ tried, covers }, i) => ({
      name: `run ${i + 1}`,
      input: tried.input,
      now: tried.now,
      answers: tried.run.calls.map((c) => c.answer),
      covers,
    })),
    capped: explorer.capped,
    tooLarge: explorer.tooLarge,
    familiesCapped: families.capped,
  };
}

/** The runs of the families that are not choices of a run, each kept when it reaches what it is made for. */
class Families {
  readonly out: { tried: Tried; covers: string[] }[] = [];
  private tries = 0;
  /** True once a family's run was not tried for `MAX_FAMILY_TRIES`. */
  capped = false;

  constructor(readonly explorer: Explorer) {}

  /** One run (`Explorer.try`), or null when `MAX_FAMILY_TRIES` runs are spent. */
  try(script: readonly Choice[], now: readonly [string, string], input?: Value, given?: Given): Tried | null {
    if (this.tries >= MAX_FAMILY_TRIES) {
      this.capped = true;
      return null;
    }
    this.tries++;
    return this.explorer.try(script, now, input, given);
  }

  /** Keeps `tried` with `label` when `ok` says it reached what it was made for; true when kept. */
  keep(tried: Tried | null, label: string, ok: (r: Run) => boolean): boolean {
    if (tried === null || !ok(tried.run)) return false;
    this.out.push({ tried, covers: [label] });
    return true;
  }

  /** The first run the exploration kept. */
  get first(): Tried {
    return this.explorer.kept[0].tried;
  }
}

/** For each ranged place of the input, a run just outside it, and for dates and times a run at each end. */
function inputFamilies(flow: CheckedFlow, f: Families, now: string): void {
  const m = flow.model;
  const first = f.first;
  for (const place of rangedPlaces(m.types, m.inputs, first.input)) {
    const input = setAt(first.input, place.path, place.outside);
    f.keep(
      f.try([], [now, now], input),
      `input:outside ${place.text}`,
      (r) => r.ending.kind === "fail" && r.ending.error === "Dandori.BadInput",
    );
    for (const end of place.ends) {
      const at = setAt(first.input, place.path, end);
      const base = first.choices.filter((c) => !c.key.startsWith("input:"));
      f.keep(
        f.try(base, [now, now], at),
        `input:at an end ${place.text}`,
        (r) => !(r.ending.kind === "fail" && r.ending.error === "Dandori.BadInput"),
      );
    }
  }
}

/** For a flow with a period, a run that starts just outside it and one whose later `now` is outside it. */
function periodFamilies(flow: CheckedFlow, f: Families, now: string): void {
  const period = flow.model.period;
  const outside = period === null ? null : justOutside(period);
  if (outside === null) return;
  const first = f.first;
  f.keep(
    f.try([], [outside, outside], first.input),
    "now:outside",
    (r) => r.ending.kind === "fail" && r.ending.error === "Dandori.OutOfPeriod" && r.calls.length === 0,
  );
  const later = f.try(first.choices.filter((c) => !c.key.startsWith("input:")), [now, outside], first.input);
  const failedAt = later?.run.visits.find((v) => v.kind === "outside");
  if (failedAt !== undefined) f.keep(later, `${failedAt.place}:outside`, () => true);
}

/** The run with the most calls again, with every `json` and empty `T?` of the input left out. */
function omittedFamily(flow: CheckedFlow, f: Families): void {
  const m = flow.model;
  const most =
    [...f.explorer.kept].sort((a, b) => b.tried.run.calls.length - a.tried.run.calls.length)[0].tried;
  const omitted = omitOptional(m.types, m.inputs, most.input);
  if (omitted === null) return;
  f.keep(
    f.try(most.choices.filter((c) => !c.key.startsWith("input:")), most.now, omitted),
    "json:omitted",
    () => true,
  );
}

/** A kept run that calls a task: its choices before the task's first attempt, and where that is. */
interface Reaching {
  readonly tried: Tried;
  readonly script: readonly Choice[];
  readonly place: string;
}

/** The kept runs that call `task`, in the exploration's order (a family tries the first first). */
function reaching(explorer: Explorer, task: string): Reaching[] {
  return explorer.kept.flatMap(({ tried }) => {
    const call = tried.run.calls.find((c) => c.task === task);
    if (call === undefined) return [];
    const at = tried.choices.findIndex((c) => c.key === `${call.place}:${call.attempt}`);
    assert(at >= 0, "every attempt's answer is a choice of its run");
    return [{ tried, script: tried.choices.slice(0, at), place: call.place }];
  });
}

/**
 * For every task whose result has a range (in a record's field at any depth, a list's element, a
 * `T?`'s value), one run for each end of each range, whose first call of the task is answered with
 * a result just outside that end: the run ends `Dandori.BadResponse` there. The rest of the result
 * is a value of its type with every `T?` present and every list of one.
 */
function resultFamilies(flow: CheckedFlow, f: Families): void {
  const m = flow.model;
  for (const task of m.tasks.values()) {
    const result = task.result;
    if (result === null || task.book !== null) continue;
    const ends = rangedEnds(m.types, result.type, result.range);
    if (ends.length === 0) continue;
    const bases = reaching(f.explorer, task.name);
    for (const end of ends) {
      for (const base of bases) {
        let given = false;
        const tried = f.try(base.script, base.tried.now, undefined, (a, counter) => {
          if (given || a.task.name !== task.name) return null;
          given = true;
          const whole = asWritten(
            m.types,
            task,
            new Maker(m.types, new Chooser([], new Map(), new Map()), counter, 1)
              .value(result.type, result.range, `${a.place}:outside`, task.name),
          );
          return { kind: "ok", value: setAt(whole, end.path, end.value) };
        });
        const kept = f.keep(
          tried,
          `${base.place}:outside ${[task.name, ...end.path].join(".")} ${end.end}`,
          (r) =>
            r.ending.kind === "fail" && r.ending.error === "Dandori.BadResponse" &&
            r.visits.some((v) => v.kind === "bad response" && v.place === base.place),
        );
        if (kept || tried === null) break;
      }
    }
  }
}

/**
 * For every `connect` task with a result, one run whose first call of the task is answered as a
 * protobuf writer answers when the values are zero: a value of the result's type (every `T?` present,
 * every list of one) with each field the reader fills (connect.ts) left out where its type takes the
 * zero value, in the response and in each message in it, a list of messages kept with its one message
 * (`<place>:zeros left out <task>`). It is kept when the call is answered: every platform fills in
 * what was left out as the interpreter does, or the runs disagree.
 */
function zeroFamilies(flow: CheckedFlow, f: Families): void {
  const m = flow.model;
  for (const task of m.tasks.values()) {
    const result = task.result;
    if (task.connect === null || result === null) continue;
    const fill = task.connect.call.fill;
    for (const base of reaching(f.explorer, task.name)) {
      let given = false;
      const tried = f.try(base.script, base.tried.now, undefined, (a, counter) => {
        if (given || a.task.name !== task.name) return null;
        given = true;
        const whole = asWritten(
          m.types,
          task,
          new Maker(m.types, new Chooser([], new Map(), new Map()), counter, 1)
            .value(result.type, result.range, `${a.place}:zeros`, task.name),
        );
        return { kind: "ok", value: zerosLeftOut(m.types, fill, fill.top, result.type, whole) };
      });
      const kept = f.keep(
        tried,
        `${base.place}:zeros left out ${task.name}`,
        (r) => r.visits.some((v) => v.kind === "ok" && v.place === base.place),
      );
      if (kept || tried === null) break;
    }
  }
}

/**
 * For every Claude agent whose result holds an enum, one run whose first call of the task is answered
 * with a value of the result's type (every `T?` present, every list of one) whose enum values have
 * their case changed, as Claude's structured outputs may answer (`<place>:enum case changed <task>`).
 * It is kept when the call is answered: the answer reads as the declared values on every platform,
 * or the runs disagree.
 */
function caseFamilies(flow: CheckedFlow, f: Families): void {
  const m = flow.model;
  for (const task of m.tasks.values()) {
    const result = task.result;
    if (task.agent?.provider !== "claude" || result === null || !holdsEnum(m.types, result.type)) continue;
    for (const base of reaching(f.explorer, task.name)) {
      let given = false;
      const tried = f.try(base.script, base.tried.now, undefined, (a, counter) => {
        if (given || a.task.name !== task.name) return null;
        given = true;
        const whole = new Maker(m.types, new Chooser([], new Map(), new Map()), counter, 1)
          .value(result.type, result.range, `${a.place}:case`, task.name);
        return { kind: "ok", value: caseChanged(m.types, result.type, whole) };
      });
      const kept = f.keep(
        tried,
        `${base.place}:enum case changed ${task.name}`,
        (r) => r.visits.some((v) => v.kind === "ok" && v.place === base.place),
      );
      if (kept || tried === null) break;
    }
  }
}

/** True when a value of `t` may hold an enum value (no record holds itself: E003). */
function holdsEnum(types: TypeTable, t: Ty): boolean {
  switch (t.kind) {
    case "enum":
      return true;
    case "optional":
      return holdsEnum(types, t.inner);
    case "list":
      return holdsEnum(types, t.element);
    case "record":
      return lookup(types.records, t.name, "record").fields.some((f) => holdsEnum(types, f.type));
    default:
      return false;
  }
}

/** `v` with each enum value of `t` in it in upper case, or in lower case where it is in upper case already. */
function caseChanged(types: TypeTable, t: Ty, v: Value): Value {
  return mapEnumValues(t, types, v, (value) => {
    const upper = value.toUpperCase();
    return upper === value ? value.toLowerCase() : upper;
  });
}

/**
 * A result made for `task` as its service would write it: for a `connect` task, each field of the
 * answer's shape table (connect.ts) made a value of its kind where the flow's type takes one too, so a
 * protobuf writer (the wire checks' Connect server) can write the answer: a 64-bit integer or `bytes`
 * read as `string` as decimal text or base64 of the made text, a decimal read as `json` as a number,
 * a `ListValue` read as `json` as an array of the made value, a map read as `json` as an empty one,
 * and a field whose value is none left out (a `T?` the flow reads as none where it is missing); in
 * each message in it too. Another task's result is as made.
 */
function asWritten(types: TypeTable, task: TaskDef, value: Value): Value {
  if (task.connect === null || task.result === null) return value;
  const shape = task.connect.call.shape;
  return shaped(types, shape, shape.top, task.result.type, value, 0);
}

function shaped(
  types: TypeTable,
  shape: ShapeTable,
  message: string,
  t: Ty,
  value: Value,
  depth: number,
): Value {
  const bare = t.kind === "optional" ? t.inner : t;
  const fields = shape.messages.find((m) => m.name === message)?.fields;
  if (bare.kind !== "record" || !isRecord(value) || fields === undefined || depth > MAX_MESSAGE_DEPTH) {
    return value;
  }
  const record = lookup(types.records, bare.name, "record");
  const out: Record<string, Value> = { ...value };
  for (const field of record.fields) {
    const how = fields.find((x) => x.json === field.name);
    const v = out[field.name];
    // A protobuf writer writes no field as null: one without a value is left out.
    if (v === null) delete out[field.name];
    if (how === undefined || v === undefined || v === null) continue;
    const type = field.type.kind === "optional" ? field.type.inner : field.type;
    const one = (x: Value, at: Ty) => shapedField(types, shape, how, at, x, depth);
    out[field.name] = type.kind === "list" && Array.isArray(v)
      ? v.map((x) => one(x, type.element))
      : one(v, type);
  }
  return out;
}

function shapedField(
  types: TypeTable,
  shape: ShapeTable,
  how: ShapeField,
  t: Ty,
  v: Value,
  depth: number,
): Value {
  const bare = t.kind === "optional" ? t.inner : t;
  const digits = () => /(\d+)\D*$/.exec(stringifyJson(v))?.[1] ?? "0";
  switch (how.kind) {
    case "message":
      return how.message === undefined ? v : shaped(types, shape, how.message, t, v, depth + 1);
    case "int64":
      return bare.kind === "string" && typeof v === "string" ? digits() : v;
    case "bytes":
      return bare.kind === "string" && typeof v === "string"
        ? btoa(String.fromCharCode(...new TextEncoder().encode(v)))
        : v;
    case "decimal":
      return bare.kind === "json" && typeof v !== "bigint" ? BigInt(digits()) : v;
    case "list":
      return bare.kind === "json" && !Array.isArray(v) ? [v] : v;
    case "map":
      return bare.kind === "json" ? {} : v;
    default:
      return unreachable(how.kind, "shape");
  }
}

/** `value` (of type `t`, the message `message`) with each field the reader fills left out where `t`'s field takes its zero value. */
function zerosLeftOut(types: TypeTable, fill: FillTable, message: string, t: Ty, value: Value): Value {
  const bare = t.kind === "optional" ? t.inner : t;
  const fields = filledFields(fill, message);
  if (bare.kind !== "record" || !isRecord(value) || fields === null) return value;
  const record = lookup(types.records, bare.name, "record");
  const out: Record<string, Value> = { ...value };
  for (const field of record.fields) {
    const filled = fields.find((x) => x.json === field.name);
    const v = out[field.name];
    if (filled === undefined || v === undefined) continue;
    const inner = filled.message;
    if (inner === undefined) {
      if (filled.zero !== undefined && fits(types, field.type, field.range, filled.zero)) {
        delete out[field.name];
      }
    } else if (Array.isArray(v)) {
      const element = field.type.kind === "list" ? field.type.element : field.type;
      out[field.name] = v.map((x) => zerosLeftOut(types, fill, inner, element, x));
    } else {
      out[field.name] = zerosLeftOut(types, fill, inner, field.type, v);
    }
  }
  return out;
}

/**
 * For every declared error a task's `retry … on` retries, one run whose first call of the task is
 * answered with that error at every attempt until the retries run out: the error then goes to its
 * handler or leaves the block, as after no retry. None is added when a run already kept does that.
 */
function retryFamilies(flow: CheckedFlow, f: Families): void {
  for (const task of flow.model.tasks.values()) {
    const retry = task.retry;
    if (retry === null || retry.on === null) continue;
    const bases = reaching(f.explorer, task.name);
    for (const error of retry.on.filter((e) => task.errors.has(e))) {
      const runOut = (r: Run) => retriesRunOut(r, task.name, retry.times, error);
      if ([...f.explorer.kept, ...f.out].some((k) => runOut(k.tried.run))) continue;
      for (const base of bases) {
        let given = 0;
        const tried = f.try(base.script, base.tried.now, undefined, (a) => {
          if (given > retry.times || a.task.name !== task.name || a.place !== base.place) return null;
          given++;
          return { kind: "error", error, cause: null };
        });
        const kept = f.keep(tried, `${base.place}:${error} out of retries`, runOut);
        if (kept || tried === null) break;
      }
    }
  }
}

/**
 * True when a call of `task` in `run` got `error` at each of its `times + 1` attempts and was not
 * tried again after the last (a call's attempts are one after another in `run.calls`).
 */
function retriesRunOut(run: Run, task: string, times: number, error: string): boolean {
  return run.calls.some((c, i) =>
    c.task === task && c.attempt === times + 1 && c.then !== "retried" &&
    run.calls.slice(i - times, i + 1).every((x) =>
      x.task === task && x.place === c.place && x.answer.kind === "error" && x.answer.error === error
    )
  );
}

/** A ranged place of the input: its path, the value just outside, and the ends of a date or time range. */
interface RangedPlace {
  readonly path: readonly (string | number)[];
  readonly text: string;
  readonly outside: Value;
  readonly ends: readonly Value[];
}

function rangedPlaces(
  types: TypeTable,
  fields: readonly { name: string; type: Ty; range: Range | null }[],
  value: Value,
): RangedPlace[] {
  const out: RangedPlace[] = [];
  const walk = (t: Ty, range: Range | null, v: Value, path: (string | number)[]) => {
    if (v === null || v === undefined) return;
    if (t.kind === "optional") return walk(t.inner, range, v, path);
    if (t.kind === "list") {
      if (Array.isArray(v) && v.length > 0) walk(t.element, range, v[0], [...path, 0]);
      return;
    }
    if (t.kind === "record") {
      const r = lookup(types.records, t.name, "record");
      for (const f of r.fields) if (isRecord(v)) walk(f.type, f.range, v[f.name] ?? null, [...path, f.name]);
      return;
    }
    if (range === null) return;
    const outside = outsideEnds(range);
    const just = outside.find((o) => o.end === "above") ?? outside.find((o) => o.end === "below");
    if (just === undefined) return;
    const text = path.join(".");
    if (range.kind === "number") out.push({ path, text, outside: just.value, ends: [] });
    else if (range.kind === "date") {
      out.push({
        path,
        text,
        outside: just.value,
        ends: [range.lo, range.hi].filter((x): x is bigint => x !== null).map(dayText),
      });
    } else {
      out.push({
        path,
        text,
        outside: just.value,
        ends: [
          ...(range.lo === null ? [] : [timestampText(Number(range.lo) * 1000)]),
          ...(range.hi === null ? [] : [`${secondText(Number(range.hi) * 1000)}.5Z`]),
        ],
      });
    }
  };
  for (const f of fields) walk(f.type, f.range, isRecord(value) ? value[f.name] ?? null : null, [f.name]);
  return out;
}

/** A value just outside one end of a range: below its lower end, or above its upper. */
interface OutsideEnd {
  readonly end: "below" | "above";
  readonly value: Value;
}

/**
 * The values just outside each end a range has: a number one below or above, the day before or
 * after, the last second before a time range or the first second after it.
 */
function outsideEnds(range: Range): OutsideEnd[] {
  const at = (n: bigint): Value => {
    switch (range.kind) {
      case "number":
        return n;
      case "date":
        return dayText(n);
      case "time":
        return timestampText(Number(n) * 1000);
      default:
        return unreachable(range.kind, "range kind");
    }
  };
  return [
    ...(range.lo === null ? [] : [{ end: "below" as const, value: at(range.lo - 1n) }]),
    ...(range.hi === null ? [] : [{ end: "above" as const, value: at(range.hi + 1n) }]),
  ];
}

/**
 * Every end of every range in a value of type `t` (placed under `range`): where it is first met (a
 * record's field, a list's first element, a `T?`'s value) and the value just outside it. A record
 * met again on another path has the same fields, checked by the same code on every target, so it
 * is walked once: the ends are as many as the ranges written, not as the paths to them.
 */
function rangedEnds(
  types: TypeTable,
  t: Ty,
  range: Range | null,
): (OutsideEnd & { readonly path: readonly (string | number)[] })[] {
  const out: (OutsideEnd & { path: readonly (string | number)[] })[] = [];
  const walked = new Set<string>();
  const walk = (t: Ty, range: Range | null, path: readonly (string | number)[]): void => {
    if (t.kind === "optional") walk(t.inner, range, path);
    else if (t.kind === "list") walk(t.element, range, [...path, 0]);
    else if (t.kind === "record") {
      if (walked.has(t.name)) return;
      walked.add(t.name);
      for (const f of lookup(types.records, t.name, "record").fields) {
        walk(f.type, f.range, [...path, f.name]);
      }
    } else if (range !== null) out.push(...outsideEnds(range).map((e) => ({ ...e, path })));
  };
  walk(t, range, []);
  return out;
}

function setAt(v: Value, path: readonly (string | number)[], x: Value): Value {
  if (path.length === 0) return x;
  const [head, ...rest] = path;
  if (typeof head === "number") {
    assert(Array.isArray(v), "a list's place");
    return v.map((item, i) => i === head ? setAt(item, rest, x) : item);
  }
  assert(isRecord(v), "a record's place");
  return { ...v, [head]: setAt(v[head] ?? null, rest, x) };
}

/** The input without its `json` and empty `T?` fields (at any depth), or null when it has none to leave out. */
function omitOptional(
  types: TypeTable,
  fields: readonly { name: string; type: Ty }[],
  value: Value,
): Value | null {
  let changed = false;
  const strip = (fs: readonly { name: string; type: Ty }[], v: Value): Value => {
    if (!isRecord(v)) return v;
    const out: [string, Value][] = [];
    for (const f of fs) {
      if (!Object.hasOwn(v, f.name)) continue;
      const x = v[f.name];
      if (f.type.kind === "json" || (f.type.kind === "optional" && x === null)) {
        changed = true;
        continue;
      }
      const t = f.type.kind === "optional" ? f.type.inner : f.type;
      out.push([f.name, t.kind === "record" ? strip(lookup(types.records, t.name, "record").fields, x) : x]);
    }
    return Object.fromEntries(out);
  };
  const out = strip(fields, value);
  return changed ? out : null;
}

/** A generated scenario as a scenario file holds it (`now` only when it is not the default). */
export function generatedJson(s: GeneratedScenario): Record<string, Value> {
  const out: Record<string, Value> = { name: s.name, input: s.input };
  if (s.now[0] !== DEFAULT_NOW || s.now[1] !== DEFAULT_NOW) {
    out.now = s.now[0] === s.now[1] ? s.now[0] : [...s.now];
  }
  out.answers = s.answers.map(answerJson);
  out.covers = [...s.covers];
  return out;
}

/** Why a flow whose exploration went past `MAX_SCENARIO_CHOICES` gets no scenarios (nor page). */
export function tooLargeToExplore(path: string): Text {
  return tr(
    `${path}: the flow is too large to explore whole: the generation of its scenarios went past ${MAX_SCENARIO_CHOICES} choices of inputs and answers (MAX_SCENARIO_CHOICES), so nothing was written; split it into child flows, each explored on its own`,
    `${path}: フローが大きすぎて、全体をたどれません。シナリオを作るうちに、入力と答えの選択が上限の ${MAX_SCENARIO_CHOICES} 個(MAX_SCENARIO_CHOICES)を超えたので、何も書いていません。子のフローに分けてください。子はそれぞれたどります`,
  );
}
