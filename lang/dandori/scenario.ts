/**
 * dandori's scenario files (docs/design/dandori.md#the-reference-interpreter; `docs/formats.md` 「dandori scenarios」): a scenario is
 * `{"name"?, "input", "now"?, "answers", "books"?, "covers"?}`, a file holds one or a list.
 * `answers` holds one answer per attempt of a call, in the order the calls happen:
 * `{"ok": <value>}`, `{"error": "<declared name>|timeout|failure", "cause"?: "…"}` or
 * `{"cancel": true}`. `books` gives each book's chobo steps to run before the flow starts
 * (`--books computed`). JSON is read with exact integers; objects are read by their own keys.
 *
 * A scenario that does not fit the flow is a `ScenarioError` naming the call, its line and the
 * answer's index: too few answers, one that cannot be the next call's (an undeclared error name,
 * a cancel where none can arrive), unknown keys, and answers left over.
 * @module
 */

import { unreachable } from "../common/assert.ts";
import { type Json, JsonError, parseJson, stringifyJson } from "../common/json.ts";
import { type Text, tr } from "../common/text.ts";
import {
  readScenarios as readBookScenarios,
  type Scenario as BookScenario,
  ScenarioError as BookScenarioError,
} from "../chobo/scenario.ts";
import type { CheckedFlow } from "./checked.ts";
import { type Answer, type Answers, type Attempt, DEFAULT_NOW, ScenarioError } from "./interp.ts";
import { timestampMs } from "./rules.ts";
import { isRecord, member, type Value } from "./values.ts";

/** A scenario read against a flow. */
export interface FlowScenario {
  readonly name: string | null;
  readonly input: Value;
  /** The time at the start, and the time every later statement reads (the same when one is given). */
  readonly now: readonly [string, string];
  /** Whether the file wrote `now` as a pair. */
  readonly nowPair: boolean;
  readonly answers: readonly Answer[];
  /** Each book's steps before the run, by the flow's name for the book. */
  readonly books: ReadonlyMap<string, BookScenario>;
  readonly covers: readonly string[];
}

const SCENARIO_KEYS = ["name", "input", "now", "answers", "books", "covers"] as const;

function fail(text: Text): never {
  throw new ScenarioError(text);
}

function onlyKeys(v: { [key: string]: Json }, allowed: readonly string[], where: Text): void {
  for (const k of Object.keys(v)) {
    if (!allowed.includes(k)) {
      fail(tr(`${where.en}: unknown key "${k}"`, `${where.ja}: 知らないキー "${k}" があります`));
    }
  }
}

/**
 * Reads a scenario file against a flow: one scenario or a list of them (bytes are read as UTF-8).
 *
 * @example
 * ```ts
 * const [s] = readFlowScenarios(checked, '{"input": {"order": {"id": "o-1"}}, "answers": [{"ok": {"paid": true}}]}');
 * ```
 */
export function readFlowScenarios(flow: CheckedFlow, text: string | Uint8Array): FlowScenario[] {
  let json: Json;
  try {
    json = parseJson(text);
  } catch (e) {
    if (!(e instanceof JsonError)) throw e;
    return fail(
      tr(
        `not JSON at ${e.line}:${e.col}: ${e.text.en}`,
        `${e.line}:${e.col} が JSON として読めません: ${e.text.ja}`,
      ),
    );
  }
  const list = Array.isArray(json) ? json : [json];
  if (list.length === 0) fail(tr("the file holds no scenario", "ファイルにシナリオがありません"));
  return list.map((s, i) => readScenario(flow, s, i + 1));
}

function readScenario(flow: CheckedFlow, s: Json, index: number): FlowScenario {
  const at = tr(`scenario ${index}`, `シナリオ ${index}`);
  if (!isRecord(s)) fail(tr(`${at.en}: not an object`, `${at.ja}: オブジェクトではありません`));
  onlyKeys(s, SCENARIO_KEYS, at);
  const name = member(s, "name");
  if (name !== undefined && typeof name !== "string") {
    fail(tr(`${at.en}: "name" must be a string`, `${at.ja}: "name" は文字列です`));
  }
  const input = member(s, "input");
  if (input === undefined) fail(tr(`${at.en}: "input" is missing`, `${at.ja}: "input" がありません`));
  const now = readNow(member(s, "now"), at);
  const answers = member(s, "answers");
  if (!Array.isArray(answers)) {
    fail(tr(`${at.en}: "answers" must be a list`, `${at.ja}: "answers" はリストです`));
  }
  const covers = member(s, "covers") ?? [];
  if (!Array.isArray(covers) || covers.some((c) => typeof c !== "string")) {
    fail(tr(`${at.en}: "covers" must be a list of strings`, `${at.ja}: "covers" は文字列のリストです`));
  }
  return {
    name: name ?? null,
    input,
    now: now.times,
    nowPair: now.pair,
    answers: answers.map((a, i) => readAnswer(a, tr(`${at.en}, answer ${i + 1}`, `${at.ja}の答え ${i + 1}`))),
    books: readBooks(flow, member(s, "books"), at),
    covers: covers as string[],
  };
}

function readNow(v: Json | undefined, at: Text): { times: [string, string]; pair: boolean } {
  if (v === undefined) return { times: [DEFAULT_NOW, DEFAULT_NOW], pair: false };
  const time = (x: Json): string => {
    if (typeof x === "string" && timestampMs(x) !== null) return x;
    return fail(
      tr(
        `${at.en}: "now" is a UTC time (2026-03-31T15:30:00Z) or a list of two`,
        `${at.ja}: "now" は UTC の時刻(2026-03-31T15:30:00Z)か、その二つの並びです`,
      ),
    );
  };
  if (Array.isArray(v)) {
    if (v.length !== 2) time(null);
    return { times: [time(v[0]), time(v[1])], pair: true };
  }
  const t = time(v);
  return { times: [t, t], pair: false };
}

function readAnswer(a: Json, where: Text): Answer {
  if (!isRecord(a)) fail(tr(`${where.en}: not an object`, `${where.ja}: オブジェクトではありません`));
  if (Object.hasOwn(a, "ok")) {
    onlyKeys(a, ["ok"], where);
    return { kind: "ok", value: a.ok };
  }
  if (Object.hasOwn(a, "error")) {
    onlyKeys(a, ["error", "cause"], where);
    const cause = member(a, "cause");
    if (typeof a.error !== "string" || (cause !== undefined && typeof cause !== "string")) {
      fail(
        tr(`${where.en}: "error" and "cause" are strings`, `${where.ja}: "error" と "cause" は文字列です`),
      );
    }
    return { kind: "error", error: a.error, cause: cause ?? null };
  }
  if (Object.hasOwn(a, "cancel")) {
    onlyKeys(a, ["cancel"], where);
    if (a.cancel !== true) fail(tr(`${where.en}: "cancel" is true`, `${where.ja}: "cancel" は true です`));
    return { kind: "cancel" };
  }
  return fail(
    tr(
      `${where.en}: an answer is {"ok": …}, {"error": …} or {"cancel": true}`,
      `${where.ja}: 答えは {"ok": …}、{"error": …}、{"cancel": true} のどれかです`,
    ),
  );
}

function readBooks(flow: CheckedFlow, v: Json | undefined, at: Text): Map<string, BookScenario> {
  const out = new Map<string, BookScenario>();
  if (v === undefined) return out;
  if (!isRecord(v)) {
    fail(tr(`${at.en}: "books" is an object of books`, `${at.ja}: "books" は帳簿ごとのオブジェクトです`));
  }
  for (const name of Object.keys(v)) {
    const book = flow.model.books.get(name);
    if (book === undefined) {
      fail(tr(`${at.en}: the flow uses no book "${name}"`, `${at.ja}: フローは帳簿 "${name}" を使いません`));
    }
    try {
      const [scenario] = readBookScenarios(book.chobo, stringifyJson({ name, steps: v[name] }));
      if (scenario.steps.some((s) => s.kind === "together")) {
        fail(
          tr(
            `${at.en}: the steps of "${name}" cannot be together`,
            `${at.ja}: "${name}" のステップに together は書けません`,
          ),
        );
      }
      out.set(name, scenario);
    } catch (e) {
      if (!(e instanceof BookScenarioError)) throw e;
      fail(tr(`${at.en}, book "${name}": ${e.text.en}`, `${at.ja}の帳簿 "${name}": ${e.text.ja}`));
    }
  }
  return out;
}

/** The answers of a scenario, one per attempt in order, checked against each call as it comes. */
export class ScenarioAnswers implements Answers {
  private used = 0;

  constructor(private readonly answers: readonly Answer[]) {}

  next(a: Attempt): Answer {
    const index = this.used + 1;
    const where = tr(
      `line ${a.line}: ${a.task.name} (attempt ${a.attempt}) needs answer ${index}`,
      `${a.line} 行: ${a.task.name}(${a.attempt} 回目)が答え ${index} を要ります`,
    );
    const answer = this.answers[this.used];
    if (answer === undefined) {
      fail(
        tr(
          `${where.en}, and the scenario has ${this.used}`,
          `${where.ja}が、シナリオには ${this.used} 個しかありません`,
        ),
      );
    }
    this.used++;
    if (answer.kind === "cancel" && !a.cancellable) {
      fail(
        tr(
          `${where.en}: a cancel cannot arrive here (the flow has no \`on cancel\`, or this is in it)`,
          `${where.ja}: ここにはキャンセルが届きません(フローに \`on cancel\` が無いか、その中です)`,
        ),
      );
    }
    if (answer.kind === "error" && !errorNames(a).includes(answer.error)) {
      fail(
        tr(
          `${where.en}: "${answer.error}" is not an error of ${a.task.name} (${errorNames(a).join(", ")})`,
          `${where.ja}: "${answer.error}" は ${a.task.name} のエラーではありません(${
            errorNames(a).join("、")
          })`,
        ),
      );
    }
    return answer;
  }

  /** Throws when answers are left over after the run. */
  finish(): void {
    if (this.used < this.answers.length) {
      fail(
        tr(
          `the run used ${this.used} answers, and the scenario has ${this.answers.length}`,
          `実行が使った答えは ${this.used} 個で、シナリオには ${this.answers.length} 個あります`,
        ),
      );
    }
  }
}

/** The errors an attempt may end with: the task's declared ones, `timeout` and `failure`. */
export function errorNames(a: Pick<Attempt, "task">): string[] {
  return [...a.task.errors.keys(), "timeout", "failure"];
}

/** An answer as a scenario writes it. */
export function answerJson(a: Answer): Value {
  switch (a.kind) {
    case "ok":
      return { ok: a.value };
    case "error":
      return a.cause === null ? { error: a.error } : { error: a.error, cause: a.cause };
    case "cancel":
      return { cancel: true };
    default:
      return unreachable(a, "answer");
  }
}
