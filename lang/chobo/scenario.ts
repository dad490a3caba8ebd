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

import { type Json, JsonError, parseJson } from "../common/json.ts";
import { type Text, tr } from "../common/text.ts";
import { type Call, callArgs, type Hold, Ledger, type OpName, type Outcome } from "./interp.ts";
import { type Book, MAX_AMOUNT, type Transfer } from "./model.ts";
import { TIME_WORDS } from "./syntax.ts";

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
      if (typeof v !== "bigint" || v < 0n || v > MAX_AMOUNT) {
        throw new ScenarioError(
          tr(
            `${where.en}: ${p.name} is an amount of ${p.type.unit.name}, a whole number from 0 to 2⁶³ − 1 in its smallest unit`,
            `${where.ja}: ${p.name} は ${p.type.unit.name} の額で、いちばん小さい単位で 0 から 2⁶³ − 1 までの整数です`,
          ),
        );
      }
      amounts.set(p.name, v);
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

function outcomeKey(o: Outcome): string {
  return o.kind === "refused" ? `refused:${o.reason}` : o.kind;
}

function stepKey(s: StepResult): unknown {
  switch (s.kind) {
    case "call":
      return outcomeKey(s.outcome);
    case "pass":
      return s.expired.map((h) => [h.transfer, ...h.key]);
    case "together":
      return s.callers.map((c) => c.map((r) => outcomeKey(r.outcome)));
  }
}

/** Every order of the callers' calls that keeps each caller's own order. */
function* interleavings(counts: readonly number[]): Generator<number[]> {
  const total = counts.reduce((a, b) => a + b, 0);
  const left = [...counts];
  const order: number[] = [];
  function* go(): Generator<number[]> {
    if (order.length === total) {
      yield [...order];
      return;
    }
    for (let c = 0; c < left.length; c++) {
      if (left[c] === 0) continue;
      left[c]--;
      order.push(c);
      yield* go();
      order.pop();
      left[c]++;
    }
  }
  yield* go();
}

/**
 * Runs a scenario on the reference interpreter. A `together` branches into every order of its
 * calls; identical outcomes (results per step, balances and holds) are merged, first found first.
 */
export function runScenario(book: Book, scenario: Scenario): Branch[] {
  let branches: Branch[] = [{ steps: [], ledger: Ledger.empty(book.accounts.map((a) => a.name)) }];
  for (const step of scenario.steps) {
    const next: Branch[] = [];
    for (const b of branches) {
      if (step.kind === "call") {
        const ledger = b.ledger.clone();
        next.push({
          steps: [...b.steps, { kind: "call", call: step.call, outcome: ledger.apply(step.call) }],
          ledger,
        });
      } else if (step.kind === "pass") {
        const ledger = b.ledger.clone();
        const expired = ledger.pass(step.seconds);
        next.push({
          steps: [...b.steps, { kind: "pass", text: step.text, seconds: step.seconds, expired }],
          ledger,
        });
      } else {
        for (const order of interleavings(step.callers.map((c) => c.length))) {
          const ledger = b.ledger.clone();
          const results = step.callers.map(() => [] as { call: Call; outcome: Outcome }[]);
          const done = step.callers.map(() => 0);
          for (const c of order) {
            const call = step.callers[c][done[c]++];
            results[c].push({ call, outcome: ledger.apply(call) });
          }
          next.push({ steps: [...b.steps, { kind: "together", callers: results, order }], ledger });
        }
      }
    }
    const seen = new Set<string>();
    branches = next.filter((b) => {
      const key = JSON.stringify([b.steps.map(stepKey), b.ledger.snapshot()]);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  return branches;
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
