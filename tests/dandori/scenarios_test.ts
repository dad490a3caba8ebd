/**
 * `dandori scenarios` reaches the edges every target must handle (issue 31): on every test and
 * example flow, each end of every range in a task's result (a record's field at any depth, a
 * list's items, a `T?`'s value; numbers, amounts, dates and times) is answered just outside it in a
 * run that ends `Dandori.BadResponse`, and each declared error a task retries is answered at every
 * attempt until the retries run out. The check reads the runs themselves (not the scenarios'
 * labels), and is shown to fail when those runs are left out; a target that leaves out one end of a
 * result's range check is caught by those runs, and was not before. The families stop at
 * `MAX_FAMILY_TRIES`, and `dandori scenarios` says so.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { stringifyJson } from "../../lang/common/json.ts";
import type { CheckedFlow } from "../../lang/dandori/checked.ts";
import { type Run, runFlow } from "../../lang/dandori/interp.ts";
import { dayText } from "../../lang/dandori/ranges.ts";
import { timestampText } from "../../lang/dandori/rules.ts";
import { readFlowScenarios, ScenarioAnswers } from "../../lang/dandori/scenario.ts";
import {
  generatedJson,
  type GeneratedScenario,
  generateFlowScenarios,
  MAX_FAMILY_TRIES,
} from "../../lang/dandori/scenarios.ts";
import type { Range, Ty, TypeTable } from "../../lang/dandori/types.ts";
import { isRecord, type Value } from "../../lang/dandori/values.ts";
import { buildDefinition, playScenario } from "../../verify/dandori/stepfunctions.ts";
import { checkedFlow, everyRunnableFlow } from "../support/flows.ts";
import { runCli } from "../support/run.ts";

/** Each generated scenario run on the interpreter, as the differential runs play it. */
function runsOf(flow: CheckedFlow, scenarios: readonly GeneratedScenario[]): Run[] {
  return readFlowScenarios(flow, stringifyJson(scenarios.map(generatedJson))).map((s, i) =>
    runFlow(flow, {
      input: s.input,
      now: s.now,
      answers: new ScenarioAnswers(s.answers),
      execution: `run-${i + 1}`,
      children: false,
    })
  );
}

/** One end of one range in a task's result: where it is written, and the value just outside it. */
interface Edge {
  /** A record's field (`<record>.<field>`), or "" for the result itself. */
  readonly key: string;
  readonly end: "below" | "above";
  readonly outside: Value;
}

/** Every end of every range written in `t` (placed under `range`), each record's fields once. */
function edgesOf(types: TypeTable, t: Ty, range: Range | null): Edge[] {
  const out: Edge[] = [];
  const walked = new Set<string>();
  const walk = (t: Ty, range: Range | null, key: string): void => {
    if (t.kind === "optional") return walk(t.inner, range, key);
    if (t.kind === "list") return walk(t.element, range, key);
    if (t.kind === "record") {
      if (walked.has(t.name)) return;
      walked.add(t.name);
      for (const f of recordOf(types, t.name).fields) walk(f.type, f.range, `${t.name}.${f.name}`);
      return;
    }
    if (range === null) return;
    const text = (n: bigint): Value =>
      range.kind === "number" ? n : range.kind === "date" ? dayText(n) : timestampText(Number(n) * 1000);
    if (range.lo !== null) out.push({ key, end: "below", outside: text(range.lo - 1n) });
    if (range.hi !== null) out.push({ key, end: "above", outside: text(range.hi + 1n) });
  };
  walk(t, range, "");
  return out;
}

function recordOf(types: TypeTable, name: string) {
  const r = types.records.get(name);
  ok(r !== undefined, name);
  return r;
}

/** Every value in `v`, of type `t`, where `key` is written: through every list's items and `T?`'s value. */
function valuesAt(types: TypeTable, t: Ty, v: Value, key: string, here = ""): Value[] {
  if (v === null || v === undefined) return [];
  if (t.kind === "optional") return valuesAt(types, t.inner, v, key, here);
  if (t.kind === "list") {
    return Array.isArray(v) ? v.flatMap((x) => valuesAt(types, t.element, x, key, here)) : [];
  }
  if (t.kind === "record") {
    if (!isRecord(v)) return [];
    return recordOf(types, t.name).fields.flatMap((f) =>
      valuesAt(types, f.type, v[f.name] ?? null, key, `${t.name}.${f.name}`)
    );
  }
  return here === key ? [v] : [];
}

/**
 * What the runs miss: for every task some run calls, each end of each range in its result with no
 * run that answers a call of it with a result just outside that end and ends `Dandori.BadResponse`,
 * and each declared error its `retry … on` retries with no call answered with it at every attempt
 * until the retries run out. `checked` counts what was looked for.
 */
function missing(flow: CheckedFlow, runs: readonly Run[], checked: { n: number }): string[] {
  const out: string[] = [];
  for (const task of flow.model.tasks.values()) {
    if (!runs.some((r) => r.calls.some((c) => c.task === task.name))) continue;
    if (task.result !== null && task.book === null) {
      const { type, range } = task.result;
      for (const edge of edgesOf(flow.model.types, type, range)) {
        checked.n++;
        const found = runs.some((r) =>
          r.ending.kind === "fail" && r.ending.error === "Dandori.BadResponse" &&
          r.calls.some((c) =>
            c.task === task.name && c.answer.kind === "ok" && c.then === "bad response" &&
            valuesAt(flow.model.types, type, c.answer.value, edge.key).some((v) =>
              stringifyJson(v) === stringifyJson(edge.outside)
            )
          )
        );
        if (!found) {
          const where = [task.name, edge.key].filter((x) => x !== "").join(" ");
          out.push(`${flow.model.file}: ${where} ${edge.end}: no run answers ${stringifyJson(edge.outside)}`);
        }
      }
    }
    const retry = task.retry;
    for (const error of retry?.on?.filter((e) => task.errors.has(e)) ?? []) {
      checked.n++;
      const times = retry?.times ?? 0;
      const found = runs.some((r) =>
        r.calls.some((c, i) => {
          const attempts = r.calls.slice(i, i + times + 1);
          return c.attempt === 1 && attempts.length === times + 1 &&
            attempts.every((x, k) =>
              x.task === task.name && x.place === c.place && x.attempt === k + 1 &&
              x.answer.kind === "error" && x.answer.error === error
            ) && attempts[times].then !== "retried";
        })
      );
      if (!found) {
        out.push(`${flow.model.file}: ${task.name}: no run answers ${error} until its retries run out`);
      }
    }
  }
  return out;
}

Deno.test("every flow's scenarios answer each end of every ranged result just outside it, and every retried declared error until the retries run out", async (t) => {
  const checked = { n: 0 };
  for (const f of everyRunnableFlow()) {
    await t.step(f.path, () => {
      const generated = generateFlowScenarios(f.checked, f.plan);
      strictEqual(generated.familiesCapped, false);
      deepStrictEqual(missing(f.checked, runsOf(f.checked, generated.scenarios), checked), []);
    });
  }
  ok(checked.n >= 40, `only ${checked.n} edges and retried errors in the flows`);
});

Deno.test("without the runs made for them, the edges are missed: the check above can fail", () => {
  const f = checkedFlow("tests/dandori/flows/results_run.flow");
  ok(f !== null, "results_run.flow checks");
  const made = (s: GeneratedScenario) =>
    s.covers.some((c) => c.includes(":outside ") || c.endsWith(" out of retries"));
  const rest = generateFlowScenarios(f.checked, f.plan).scenarios.filter((s) => !made(s));
  deepStrictEqual(missing(f.checked, runsOf(f.checked, rest), { n: 0 }), [
    "tests/dandori/flows/results_run.flow: quote Quote.price below: no run answers -1",
    "tests/dandori/flows/results_run.flow: quote Quote.price above: no run answers 100001",
    "tests/dandori/flows/results_run.flow: quote Quote.weight below: no run answers 0",
    "tests/dandori/flows/results_run.flow: quote Quote.weight above: no run answers 30001",
    'tests/dandori/flows/results_run.flow: quote Quote.ships below: no run answers "2025-12-31"',
    'tests/dandori/flows/results_run.flow: quote Quote.ships above: no run answers "2027-01-01"',
    'tests/dandori/flows/results_run.flow: quote Quote.expires below: no run answers "2025-12-31T14:59:59Z"',
    "tests/dandori/flows/results_run.flow: quote Line.quantity below: no run answers 0",
    "tests/dandori/flows/results_run.flow: quote Line.quantity above: no run answers 100",
    "tests/dandori/flows/results_run.flow: quote Quote.rebate above: no run answers 51",
    "tests/dandori/flows/results_run.flow: quote: no run answers busy until its retries run out",
    "tests/dandori/flows/results_run.flow: stock below: no run answers -1",
    "tests/dandori/flows/results_run.flow: stock above: no run answers 11",
    "tests/dandori/flows/results_run.flow: stock: no run answers busy until its retries run out",
  ]);
});

Deno.test("the ASL runner with the lower end of Quote.price's check left out disagrees on the run made for it, and only there", async () => {
  const f = checkedFlow("tests/dandori/flows/results_run.flow");
  ok(f !== null, "results_run.flow checks");
  const built = buildDefinition(f, Deno.readTextFileSync(new URL("flows/results_run.flow", import.meta.url)));
  ok(built.kind === "built", "results_run.flow builds for Step Functions");
  const check = "$states.input.`price` >= 0 and ";
  const text = JSON.stringify(built.definition);
  strictEqual(
    text.split(JSON.stringify(check).slice(1, -1)).length,
    2,
    "the definition checks price >= 0 once",
  );
  const broken = JSON.parse(text.replace(JSON.stringify(check).slice(1, -1), ""));
  const disagree: string[] = [];
  for (const [i, s] of generateFlowScenarios(f.checked, f.plan).scenarios.entries()) {
    strictEqual((await playScenario(f, built.definition, s, `run-${i + 1}`)).differences.length, 0, s.name);
    if ((await playScenario(f, broken, s, `run-${i + 1}`)).differences.length > 0) {
      disagree.push(s.covers.join(", "));
    }
  }
  deepStrictEqual(disagree, ["s48:outside quote.price below"]);
});

Deno.test("the families are the same twice, and come after the runs the exploration kept", () => {
  const f = checkedFlow("tests/dandori/flows/results_run.flow");
  ok(f !== null, "results_run.flow checks");
  const a = generateFlowScenarios(f.checked, f.plan).scenarios;
  deepStrictEqual(generateFlowScenarios(f.checked, f.plan).scenarios, a);
  const first = a.findIndex((s) => s.covers.some((c) => c.includes(":outside ")));
  ok(
    first > 0 && a.slice(first).every((s) => s.covers.length === 1),
    "one family run after another, at the end",
  );
});

/** A flow whose one task's result has `fields` ranged fields, each with two ends. */
function wideFlow(fields: number): string {
  const lines = Array.from({ length: fields }, (_, k) => `  f${k} : int  range >=0 <=9`);
  return [
    "workflow wide v1",
    "",
    "record Wide",
    ...lines,
    "",
    "inputs",
    "  order : string",
    "",
    "task look(order: string) -> Wide",
    '  lambda "arn:aws:lambda:eu-west-2:123456789012:function:look"',
    "",
    "flow",
    "  look(order: order)",
    "",
  ].join("\n");
}

Deno.test("families stop at MAX_FAMILY_TRIES, and dandori scenarios says so in English and Japanese", () => {
  const fields = MAX_FAMILY_TRIES / 2 + 1;
  const files = { "wide.flow": wideFlow(fields) };
  const en = runCli(["dandori", "scenarios", "wide.flow"], { files });
  strictEqual(en.code, 0, en.stderr);
  ok(
    en.stderr.includes(
      `wide.flow: the families after the exploration stopped after ${MAX_FAMILY_TRIES} runs`,
    ),
    en.stderr,
  );
  const written = JSON.parse(en.stdout) as { covers: string[] }[];
  const outside = written.filter((s) => s.covers.some((c) => c.includes(":outside "))).length;
  strictEqual(outside, MAX_FAMILY_TRIES, "every run the families tried reached its end");
  const ja = runCli(["dandori", "scenarios", "wide.flow", "--lang", "ja"], { files });
  ok(ja.stderr.includes(`探索のあとの実行は ${MAX_FAMILY_TRIES} 回で止まりました`), ja.stderr);
});
