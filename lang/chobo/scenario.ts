/**
 * Scenarios: reading them against a book, running them on the reference interpreter, and writing
 * them as JSON (docs/formats.md#scenarios-chobo-run---scenario-chobo-scenarios; what `pass` and
 * `together` mean: docs/design/chobo.md#time-and-expiry, docs/design/chobo.md#together).
 *
 * A scenario is `{"name", "tenant"?, "steps": [...]}`; a step is a call
 * `{"call": "<transfer>.<op>", "args": {...}}`, a `{"pass": "31 minutes"}` (or seconds), or a
 * `{"together": [[call, …], …]}` of calls from separate callers at once. Amounts are integers in
 * the unit's smallest unit, read and written exactly.
 * @module
 */

import { stringProblem } from "./arguments.ts";
import { type Json, JsonError, parseJson } from "../common/json.ts";
import { type Text, tr } from "../common/text.ts";
import { type Call, callArgs, type Hold, Ledger, type OpName, type Outcome } from "./interp.ts";
import { type Book, MAX_AMOUNT, type Transfer, type Unit } from "./model.ts";
import { parseQuantity } from "./resolve.ts";
import { TIME_WORDS } from "./syntax.ts";
import { quantityText } from "./words.ts";

/**
 * At most this many calls in one `together` (docs/design/chobo.md#together): 8! orders is the most
 * enumerated.
 */
export const MAX_TOGETHER_OPS = 8;

/** One step of a scenario. */
export type Step =
  | { readonly kind: "call"; readonly call: Call }
  | { readonly kind: "pass"; readonly seconds: bigint; readonly text: string }
  | { readonly kind: "together"; readonly callers: readonly (readonly Call[])[] };

/** A scenario read against a book. */
export interface Scenario {
  readonly name: string;
  /** The Japanese title `chobo scenarios` writes beside the English name (docs/design/chobo.md#scenarios). */
  readonly titleJa?: string;
  readonly tenant: string;
  readonly steps: readonly Step[];
}

/** The result of one step in one outcome. */
export type StepResult =
  | { readonly kind: "call"; readonly call: Call; readonly outcome: Outcome }
  | {
    readonly kind: "pass";
    readonly text: string;
    readonly seconds: bigint;
    readonly expired: readonly Hold[];
  }
  | {
    readonly kind: "together";
    readonly callers: readonly (readonly { call: Call; outcome: Outcome }[])[];
    /** Which caller's next call ran at each turn: the order this outcome came from. */
    readonly order: readonly number[];
  };

/** One possible outcome of a scenario: every step's result and the ledger at the end. */
export interface Branch {
  readonly steps: readonly StepResult[];
  readonly ledger: Ledger;
}

/** Why a scenario file cannot be read: the scenario, the step, and what is wrong. */
export class ScenarioError extends Error {
  constructor(readonly text: Text) {
    super(text.en);
  }
}

/** The operations a transfer has: `do`, or `hold`, `post`, `void` when it holds. */
export function operationsOf(t: Transfer): readonly OpName[] {
  return t.pending === null ? ["do"] : ["hold", "post", "void"];
}

/**
 * Reads a scenario file (one scenario or an array; bytes are read as UTF-8) against a book; throws `ScenarioError` with
 * the scenario and step position when anything does not fit.
 */
export function readScenarios(book: Book, text: string | Uint8Array): Scenario[] {
  let json: Json;
  try {
    json = parseJson(text);
  } catch (e) {
    if (!(e instanceof JsonError)) throw e;
    throw new ScenarioError(
      tr(
        `not JSON at ${e.line}:${e.col}: ${e.text.en}`,
        `${e.line}:${e.col} が JSON として読めません: ${e.text.ja}`,
      ),
    );
  }
  const list = Array.isArray(json) ? json : [json];
  if (list.length === 0) {
    throw new ScenarioError(
      tr(
        "an empty list: the file holds no scenario to run",
        "空のリストです。流すシナリオがファイルにありません",
      ),
    );
  }
  return list.map((s, i) => readScenario(book, s, i + 1));
}

function isObject(v: Json): v is { [key: string]: Json } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function onlyKeys(v: { [key: string]: Json }, allowed: readonly string[], where: Text): void {
  for (const k of Object.keys(v)) {
    if (!allowed.includes(k)) {
      throw new ScenarioError(
        tr(`${where.en}: unknown key "${k}"`, `${where.ja}: 知らないキー "${k}" があります`),
      );
    }
  }
}

function readScenario(book: Book, s: Json, index: number): Scenario {
  const at = tr(`scenario ${index}`, `シナリオ ${index}`);
  if (!isObject(s)) {
    throw new ScenarioError(tr(`${at.en}: not an object`, `${at.ja}: オブジェクトではありません`));
  }
  onlyKeys(s, ["name", "title_ja", "tenant", "steps"], at);
  if (typeof s.name !== "string") {
    throw new ScenarioError(tr(`${at.en}: "name" must be a string`, `${at.ja}: "name" は文字列です`));
  }
  const named = tr(`scenario ${index} (${s.name})`, `シナリオ ${index}(${s.name})`);
  if (s.tenant !== undefined && typeof s.tenant !== "string") {
    throw new ScenarioError(
      tr(`${named.en}: "tenant" must be a string`, `${named.ja}: "tenant" は文字列です`),
    );
  }
  const tenantProblem = s.tenant === undefined ? null : stringProblem("tenant", s.tenant);
  if (tenantProblem !== null) {
    throw new ScenarioError(tr(`${named.en}: ${tenantProblem.en}`, `${named.ja}: ${tenantProblem.ja}`));
  }
  if (!Array.isArray(s.steps)) {
    throw new ScenarioError(tr(`${named.en}: "steps" must be a list`, `${named.ja}: "steps" はリストです`));
  }
  const steps = s.steps.map((step, i) => {
    const where = tr(`${named.en}, step ${i + 1}`, `${named.ja}のステップ ${i + 1}`);
    return readStep(book, step, where);
  });
  if (s.title_ja !== undefined && typeof s.title_ja !== "string") {
    throw new ScenarioError(
      tr(`${named.en}: "title_ja" must be a string`, `${named.ja}: "title_ja" は文字列です`),
    );
  }
  const titleJa = s.title_ja as string | undefined;
  return { name: s.name, titleJa, tenant: (s.tenant as string | undefined) ?? "", steps };
}

function readStep(book: Book, step: Json, where: Text): Step {
  if (!isObject(step)) {
    throw new ScenarioError(tr(`${where.en}: not an object`, `${where.ja}: オブジェクトではありません`));
  }
  if ("call" in step) return { kind: "call", call: readCall(book, step, where) };
  if ("pass" in step) {
    onlyKeys(step, ["pass"], where);
    return readPass(step.pass, where);
  }
  if ("together" in step) {
    onlyKeys(step, ["together"], where);
    const callers = step.together;
    if (
      !Array.isArray(callers) || callers.length === 0 ||
      !callers.every((c) => Array.isArray(c) && c.length > 0)
    ) {
      throw new ScenarioError(
        tr(
          `${where.en}: "together" is a list of callers, each a non-empty list of calls`,
          `${where.ja}: "together" は呼び出し元のリストで、どれも空でない呼び出しのリストです`,
        ),
      );
    }
    const read = callers.map((c, ci) =>
      (c as Json[]).map((call, k) => {
        const w = tr(
          `${where.en}, caller ${ci + 1}, call ${k + 1}`,
          `${where.ja}、呼び出し元 ${ci + 1} の ${k + 1} つ目`,
        );
        if (!isObject(call)) {
          throw new ScenarioError(tr(`${w.en}: not an object`, `${w.ja}: オブジェクトではありません`));
        }
        return readCall(book, call, w);
      })
    );
    const total = read.reduce((n, c) => n + c.length, 0);
    if (total > MAX_TOGETHER_OPS) {
      throw new ScenarioError(
        tr(
          `${where.en}: ${total} calls in one together; at most ${MAX_TOGETHER_OPS}, or the orders to enumerate grow too many`,
          `${where.ja}: 一つの together に ${total} 個の呼び出しがあります。数え上げる順序が多くなりすぎるので、${MAX_TOGETHER_OPS} 個までです`,
        ),
      );
    }
    return { kind: "together", callers: read };
  }
  throw new ScenarioError(
    tr(
      `${where.en}: a step is a "call", a "pass" or a "together"`,
      `${where.ja}: ステップは "call"、"pass"、"together" のどれかです`,
    ),
  );
}

function readPass(v: Json, where: Text): Step {
  if (typeof v === "bigint" && v >= 0n) return { kind: "pass", seconds: v, text: `${v} seconds` };
  if (typeof v === "string") {
    const m = /^([0-9]+) ([a-z]+)$/.exec(v);
    const per = m === null ? undefined : TIME_WORDS.get(m[2]);
    if (m !== null && per !== undefined) return { kind: "pass", seconds: BigInt(m[1]) * per, text: v };
  }
  throw new ScenarioError(
    tr(
      `${where.en}: "pass" is "<n> seconds|minutes|hours|days" or a whole number of seconds`,
      `${where.ja}: "pass" は "<数> seconds|minutes|hours|days" か、秒の整数です`,
    ),
  );
}

function readCall(book: Book, step: { [key: string]: Json }, where: Text): Call {
  onlyKeys(step, ["call", "args"], where);
  const name = step.call;
  if (typeof name !== "string" || !name.includes(".")) {
    throw new ScenarioError(
      tr(`${where.en}: "call" is "<transfer>.<operation>"`, `${where.ja}: "call" は "<振替>.<操作>" です`),
    );
  }
  const dot = name.lastIndexOf(".");
  const transfer = book.transfers.find((t) => t.name === name.slice(0, dot));
  if (transfer === undefined) {
    throw new ScenarioError(
      tr(
        `${where.en}: the book has no transfer ${name.slice(0, dot)}`,
        `${where.ja}: 帳簿に振替 ${name.slice(0, dot)} はありません`,
      ),
    );
  }
  const op = name.slice(dot + 1) as OpName;
  const ops = operationsOf(transfer);
  if (!ops.includes(op)) {
    throw new ScenarioError(
      tr(
        `${where.en}: ${transfer.name} has no operation ${name.slice(dot + 1)}; it has ${ops.join(", ")}`,
        `${where.ja}: ${transfer.name} に操作 ${name.slice(dot + 1)} はありません。操作は ${
          ops.join("、")
        } です`,
      ),
    );
  }
  const given = step.args ?? {};
  if (!isObject(given)) {
    throw new ScenarioError(
      tr(`${where.en}: "args" must be an object`, `${where.ja}: "args" はオブジェクトです`),
    );
  }
  const keyParams = transfer.params.filter((p) => transfer.key.includes(p.name));
  const amountParams = transfer.params.filter((p) => p.type.kind === "amount");
  let expected = transfer.params;
  if (op === "void") expected = keyParams;
  if (op === "post") {
    const partial = amountParams.some((p) => p.name in given);
    expected = partial ? [...keyParams, ...amountParams] : keyParams;
  }
  const strings = new Map<string, string>();
  const amounts = new Map<string, bigint>();
  for (const p of expected) {
    const v = given[p.name];
    if (v === undefined) {
      const missing = op === "post" && p.type.kind === "amount"
        ? tr(
          `${where.en}: a partial post passes every amount, and ${p.name} is missing`,
          `${where.ja}: 一部の確定には額の引数を全部渡します。${p.name} がありません`,
        )
        : tr(`${where.en}: the argument ${p.name} is missing`, `${where.ja}: 引数 ${p.name} がありません`);
      throw new ScenarioError(missing);
    }
    if (p.type.kind === "string") {
      if (typeof v !== "string") {
        throw new ScenarioError(
          tr(`${where.en}: ${p.name} is a string`, `${where.ja}: ${p.name} は文字列です`),
        );
      }
      strings.set(p.name, v);
    } else {
      amounts.set(p.name, readAmount(v, p.name, p.type.unit, where));
    }
  }
  for (const k of Object.keys(given)) {
    if (!strings.has(k) && !amounts.has(k)) {
      throw new ScenarioError(
        tr(
          `${where.en}: ${transfer.name}.${op} takes no argument ${k}`,
          `${where.ja}: ${transfer.name}.${op} は引数 ${k} を取りません`,
        ),
      );
    }
  }
  return { transfer, op, strings, amounts };
}

/**
 * An amount argument: a whole number of the unit's smallest unit, or a string in the unit's scale
 * as the book writes it (`"12.50"` for 1250 at scale 2, with at most `scale` decimals).
 */
function readAmount(v: Json, name: string, unit: Unit, where: Text): bigint {
  if (typeof v === "bigint" && v >= 0n && v <= MAX_AMOUNT) return v;
  const read = typeof v === "string" ? parseQuantity(v, unit.scale, false) : null;
  if (typeof read === "bigint") return read;
  const example = quantityText(1250n, unit.scale);
  const why = read === null ? tr("", "") : tr(` (${read.en})`, `(${read.ja})`);
  throw new ScenarioError(
    tr(
      `${where.en}: ${name} is an amount of ${unit.name}${why.en}: a whole number from 0 to 2⁶³ − 1 in its smallest unit, or a string in its scale with at most ${unit.scale} decimal places such as "${example}"`,
      `${where.ja}: ${name} は ${unit.name} の額です${why.ja}。いちばん小さい単位で 0 から 2⁶³ − 1 までの整数か、"${example}" のように単位の桁で小数 ${unit.scale} 桁までで書いた文字列です`,
    ),
  );
}

function outcomeKey(o: Outcome): string {
  return o.kind === "refused" ? `refused:${o.reason}` : o.kind;
}

/**
 * The most outcomes a run keeps of one scenario (docs/reference.md#limits): every outcome is a
 * ledger of its own and is printed whole, and `together` steps whose outcomes multiply would
 * otherwise fill memory.
 */
export const MAX_OUTCOMES = 1000;

/**
 * The most steps a run keeps over all the outcomes of one scenario, every outcome keeping every step
 * (docs/reference.md#limits): what `chobo run` prints grows with it. A scenario without `together`
 * has one outcome, and no scenario file of 8 MiB holds this many steps.
 */
export const MAX_OUTCOME_STEPS = 1_000_000;

/** One outcome's results, newest first; outcomes that branched from one share what came before. */
interface Trail {
  readonly step: StepResult;
  readonly before: Trail | null;
}

/** An outcome while the scenario runs: its results so far, and its ledger, which the next step changes. */
interface Running {
  readonly trail: Trail | null;
  /** Equal for two outcomes of one step exactly when their results so far are equal. */
  readonly results: number;
  readonly ledger: Ledger;
}

/**
 * The outcomes after one step, merged as they come: two with equal results so far and equal
 * balances and holds are one (docs/decisions.md#the-interpreter), the first found kept. Past
 * `MAX_OUTCOMES` or `MAX_OUTCOME_STEPS` it throws a `ScenarioError` naming the step.
 */
class NextOutcomes {
  readonly list: Running[] = [];
  private readonly ids = new Map<string, number>();
  private readonly byResults = new Map<number, { outcome: Running; snapshot: string | null }[]>();

  /**
   * After `before` outcomes, at step `step` of `scenario`. From one outcome there is nothing to merge
   * across: `tryOrders` already merged the orders of one state.
   */
  constructor(
    private readonly scenario: Scenario,
    private readonly step: number,
    private readonly before: number,
  ) {}

  /**
   * Adds the outcome that follows `before` by `step` (its results written `key`), in the state
   * `live` is in now; `keep` gives the ledger to keep, called only when the outcome is new.
   */
  add(before: Running, step: StepResult, key: string, live: Ledger, keep: () => Ledger): void {
    const path = `${before.results}|${key}`;
    const results = this.ids.get(path) ?? this.ids.size;
    this.ids.set(path, results);
    const same = this.byResults.get(results) ?? [];
    if (this.before > 1 && same.length > 0) {
      const snapshot = live.snapshot();
      for (const other of same) {
        other.snapshot ??= other.outcome.ledger.snapshot();
        if (other.snapshot === snapshot) return;
      }
    }
    this.checkRoom();
    const outcome = { trail: { step, before: before.trail }, results, ledger: keep() };
    same.push({ outcome, snapshot: null });
    this.byResults.set(results, same);
    this.list.push(outcome);
  }

  private checkRoom(): void {
    const count = this.list.length + 1;
    const steps = this.scenario.steps.length;
    if (count <= MAX_OUTCOMES && count * steps <= MAX_OUTCOME_STEPS) return;
    const where = tr(
      `scenario (${this.scenario.name}), step ${this.step}`,
      `シナリオ(${this.scenario.name})のステップ ${this.step}`,
    );
    if (count > MAX_OUTCOMES) {
      throw new ScenarioError(
        tr(
          `${where.en}: more than ${MAX_OUTCOMES} possible outcomes, the most a run keeps (MAX_OUTCOMES); split the scenario, or give its together steps fewer callers`,
          `${where.ja}: とりうる結果が ${MAX_OUTCOMES} 通りを超えます。一度の実行で持てるのは ${MAX_OUTCOMES} 通りまでです(MAX_OUTCOMES)。シナリオを分けるか、together の呼び出し元を減らしてください`,
        ),
      );
    }
    throw new ScenarioError(
      tr(
        `${where.en}: ${count} possible outcomes of ${steps} steps each are more than ${MAX_OUTCOME_STEPS} steps, the most a run keeps (MAX_OUTCOME_STEPS); split the scenario`,
        `${where.ja}: ${steps} ステップの結果が ${count} 通りで、一度の実行で持てる ${MAX_OUTCOME_STEPS} ステップを超えます(MAX_OUTCOME_STEPS)。シナリオを分けてください`,
      ),
    );
  }
}

/**
 * Tries every order of the callers' calls that keeps each caller's own order, from the state
 * `ledger` is in (which it is in again afterwards), and says each outcome that differs from the
 * ones before in its results or in the balances and holds. Orders that reach the same state with
 * the same results after the same calls go on alike, so only the first is followed: the outcomes
 * and the order each is shown with are those of trying every order, first found first.
 */
function tryOrders(
  ledger: Ledger,
  callers: readonly (readonly Call[])[],
  found: (step: StepResult, key: string, keep: () => Ledger) => void,
): void {
  const total = callers.reduce((n, c) => n + c.length, 0);
  const done = callers.map(() => 0);
  const results = callers.map(() => [] as { call: Call; outcome: Outcome }[]);
  const order: number[] = [];
  const followed = new Set<string>();
  const ends = new Set<string>();
  const resultsKey = () => JSON.stringify(results.map((r) => r.map((x) => outcomeKey(x.outcome))));
  const go = (): void => {
    if (order.length === total) {
      const key = resultsKey();
      const end = `${key}\n${ledger.changesSince(0, false)}`;
      if (ends.has(end)) return;
      ends.add(end);
      const step: StepResult = { kind: "together", callers: results.map((r) => [...r]), order: [...order] };
      found(step, key, () => ledger.clone());
      return;
    }
    const state = `${done.join(",")}\n${resultsKey()}\n${ledger.changesSince(0, true)}`;
    if (followed.has(state)) return;
    followed.add(state);
    callers.forEach((calls, c) => {
      if (done[c] === calls.length) return;
      const mark = ledger.mark();
      const call = calls[done[c]];
      done[c]++;
      results[c].push({ call, outcome: ledger.apply(call) });
      order.push(c);
      go();
      order.pop();
      results[c].pop();
      done[c]--;
      ledger.undo(mark);
    });
  };
  ledger.trial(go);
}

function stepsOf(trail: Trail | null): StepResult[] {
  const steps: StepResult[] = [];
  for (let t = trail; t !== null; t = t.before) steps.push(t.step);
  return steps.reverse();
}

/**
 * Runs a scenario on the reference interpreter. A `together` branches into every order of its
 * calls; identical outcomes (results per step, balances and holds) are merged, first found first.
 * The time and memory grow with the steps times the outcomes; a scenario that would keep more than
 * `MAX_OUTCOMES` outcomes or `MAX_OUTCOME_STEPS` steps is a `ScenarioError` naming the step.
 */
export function runScenario(book: Book, scenario: Scenario): Branch[] {
  let running: Running[] = [{
    trail: null,
    results: 0,
    ledger: Ledger.empty(book.accounts.map((a) => a.name)),
  }];
  scenario.steps.forEach((step, i) => {
    const next = new NextOutcomes(scenario, i + 1, running.length);
    for (const r of running) {
      const keep = () => r.ledger;
      switch (step.kind) {
        case "call": {
          const outcome = r.ledger.apply(step.call);
          next.add(r, { kind: "call", call: step.call, outcome }, outcomeKey(outcome), r.ledger, keep);
          break;
        }
        case "pass": {
          const expired = r.ledger.pass(step.seconds);
          const result: StepResult = { kind: "pass", text: step.text, seconds: step.seconds, expired };
          const key = JSON.stringify(expired.map((h) => [h.transfer, ...h.key]));
          next.add(r, result, key, r.ledger, keep);
          break;
        }
        case "together":
          tryOrders(
            r.ledger,
            step.callers,
            (result, key, keepLeaf) => next.add(r, result, key, r.ledger, keepLeaf),
          );
          break;
      }
    }
    running = next.list;
  });
  return running.map((r) => ({ steps: stepsOf(r.trail), ledger: r.ledger }));
}

function callStepJson(call: Call): Record<string, unknown> {
  return { call: `${call.transfer.name}.${call.op}`, args: Object.fromEntries(callArgs(call)) };
}

/** A scenario as the JSON a scenario file holds (amounts as `bigint`; write with `stringifyJson`). */
export function scenarioJson(s: Scenario): Record<string, unknown> {
  return {
    name: s.name,
    title_ja: s.titleJa,
    tenant: s.tenant === "" ? undefined : s.tenant,
    steps: s.steps.map((step) => {
      switch (step.kind) {
        case "call":
          return callStepJson(step.call);
        case "pass":
          return { pass: step.text };
        case "together":
          return { together: step.callers.map((c) => c.map(callStepJson)) };
      }
    }),
  };
}
