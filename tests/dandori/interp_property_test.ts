/**
 * Properties of the reference interpreter, with a fixed seed:
 * - what `dandori check` promised holds on every test and example flow × every generated
 *   scenario, with the books computed by chobo (so every refusal is one the book really gives):
 *   no run ends by `succeed`, by a `fail` statement (but the cases it leaves) or at the end of
 *   `on cancel` with a case outside its final states (E020); no refusal arrives unhandled (E022);
 *   no variable is read unset (E012: the interpreter asserts it);
 * - on random flows, the interpreter never throws, every run ends, and a run makes at most the
 *   calls its loops' limits allow (P4).
 */

import { NO_SUCH_FILE } from "../../lang/dandori/env.ts";
import { ok, strictEqual } from "node:assert/strict";
import { checkFlow } from "../../lang/dandori/check.ts";
import type { CheckedFlow } from "../../lang/dandori/checked.ts";
import { BooksComputed } from "../../lang/dandori/computed.ts";
import { type Run, runFlow } from "../../lang/dandori/interp.ts";
import { lower } from "../../lang/dandori/lower.ts";
import type { Plan, StmtPlan } from "../../lang/dandori/plan.ts";
import { readFlowScenarios } from "../../lang/dandori/scenario.ts";
import { generatedJson, generateFlowScenarios } from "../../lang/dandori/scenarios.ts";
import { stringifyJson } from "../../lang/common/json.ts";
import { isRecord } from "../../lang/dandori/values.ts";
import { everyRunnableFlow, TolerantAnswers } from "../support/flows.ts";
import { generator } from "../support/random.ts";

/** The cases a run leaves outside their final states where the checker promised it would not. */
function openCases(flow: CheckedFlow, run: Run): string[] {
  const e = run.ending;
  const promised = e.kind === "succeed" || (e.kind === "fail" && e.leaving !== undefined) ||
    (e.kind === "cancelled" && flow.model.onCancel !== null);
  if (!promised) return [];
  const leaving = e.kind === "fail" ? e.leaving ?? [] : [];
  const out: string[] = [];
  for (const [name, record] of run.cases) {
    if (record === null || leaving.includes(name)) continue;
    const c = flow.model.cases.get(name);
    const state = isRecord(record) ? record.state : null;
    if (c !== undefined && typeof state === "string" && !c.machine.finals.includes(state)) {
      out.push(`${name} ${state}`);
    }
  }
  return out;
}

Deno.test("what check promised holds on every flow × every generated scenario, with the books computed", async (t) => {
  let runs = 0;
  for (const f of everyRunnableFlow()) {
    await t.step(f.path, () => {
      const generated = generateFlowScenarios(f.checked, f.plan).scenarios.map(generatedJson);
      const books = new Set(f.plan.tasks.filter((x) => x.callee.kind === "book").map((x) => x.name));
      for (const s of readFlowScenarios(f.checked, stringifyJson(generated))) {
        const rest = new TolerantAnswers(s.answers);
        const run = runFlow(f.checked, {
          input: s.input,
          now: s.now,
          answers: books.size === 0 ? rest : new BooksComputed(f.checked, s, Date.parse(s.now[0]), rest),
          execution: "run-1",
          children: false,
        });
        runs++;
        strictEqual(openCases(f.checked, run).join(", "), "", `${f.path}: ${s.name}: E020`);
        for (const c of run.calls) {
          if (!books.has(c.task) || c.answer.kind !== "error") continue;
          const declared = f.checked.model.tasks.get(c.task)?.errors.has(c.answer.error) ?? false;
          ok(
            !declared || c.then === "handled",
            `${f.path}: ${s.name}: line ${c.line}: ${c.answer.error} unhandled (E022)`,
          );
        }
      }
    });
  }
  ok(runs > 200, `${runs} runs`);
});

// ---------------------------------------------------------------------------------------------
// Random flows

const TASKS = `
record R
  ok   : bool
  n    : int  range >=1 <=9
  tags : list[string]

task get(x: string) -> R
  lambda "arn:aws:lambda:ap-northeast-1:123456789012:function:get"
  key
  errors nope
  retry 2 times every 1 second

task put(x: string, n: int)
  http POST "https://example.com/v1/things/{x}"
  key
  timeout 5 seconds

task ask(x: string) -> R
  callback
  timeout 1 hour
  key
  retry 1 times on failure
`;

/** A random body: calls, matches, loops, waits, with `x` always set. */
function body(rand: () => number, depth: number, indent: string, names: { n: number }): string[] {
  const lines: string[] = [];
  const count = 1 + Math.floor(rand() * 3);
  for (let i = 0; i < count; i++) {
    const pick = Math.floor(rand() * (depth > 2 ? 4 : 8));
    const v = `v${names.n++}`;
    switch (pick) {
      case 0:
        lines.push(`${indent}let ${v} = get(x: x)`, `${indent}  on nope => pass`);
        lines.push(`${indent}put(x: x, n: 3)`);
        break;
      case 1:
        lines.push(`${indent}put(x: x, n: 2)`, `${indent}  on timeout => wait 1 minute`);
        break;
      case 2:
        lines.push(`${indent}wait ${1 + Math.floor(rand() * 5)} minutes`);
        break;
      case 3:
        lines.push(
          `${indent}let ${v} = ask(x: x)`,
          `${indent}  on timeout, failure => fail Gone "no answer for {x}"`,
        );
        lines.push(`${indent}match ${v}.ok`);
        lines.push(`${indent}  true => put(x: x, n: ${v}.n)`, `${indent}  false => pass`);
        break;
      case 4:
        lines.push(`${indent}repeat at most ${1 + Math.floor(rand() * 3)} times`);
        lines.push(`${indent}  let ${v} = get(x: x)`);
        lines.push(`${indent}  match ${v}.ok`, `${indent}    true => break`, `${indent}    false => pass`);
        break;
      case 5:
        lines.push(`${indent}let ${v} = get(x: x)`, `${indent}for t${v} in ${v}.tags at most 3`);
        lines.push(...body(rand, depth + 1, `${indent}  `, names));
        break;
      case 6:
        lines.push(`${indent}for p${v} in xs at most 2 in parallel`, `${indent}  put(x: p${v}, n: 1)`);
        break;
      default:
        lines.push(`${indent}let ${v} = get(x: x)`, `${indent}match ${v}.ok`, `${indent}  true =>`);
        lines.push(...body(rand, depth + 1, `${indent}    `, names));
        lines.push(`${indent}  false => pass`);
        break;
    }
  }
  return lines;
}

function randomFlow(rand: () => number, index: number): string {
  const failure = rand() < 0.5
    ? ["", "on failure", "  put(x: x, n: 1)", "    on timeout, failure => pass"]
    : [];
  return [
    `workflow random_${index} v1`,
    TASKS,
    "inputs",
    "  x  : string",
    "  xs : list[string]",
    "",
    "flow",
    ...body(rand, 0, "  ", { n: 1 }),
    "  succeed",
    ...failure,
    "",
  ].join("\n");
}

/** The most calls a run of the plan can make: each call's attempts × the limits of the loops around it. */
function callBound(plan: Plan): number {
  const attempts = new Map(
    plan.tasks.map((t) => [t.name, 1 + t.retry.reduce((a, r) => a + r.maxAttempts, 0)]),
  );
  const walk = (ss: readonly StmtPlan[], times: number): number =>
    ss.reduce((sum, s) => {
      switch (s.kind) {
        case "call":
          return sum + times * (attempts.get(s.call.task) ?? 1) +
            s.call.handlers.reduce((a, h) => a + walk(h.body, times), 0);
        case "match":
          return sum + s.arms.reduce((a, arm) => a + walk(arm.body, times), 0);
        case "repeat":
        case "for":
          return sum + walk(s.body, times * s.atMost);
        default:
          return sum;
      }
    }, 0);
  return walk(plan.blocks.flow, 1) + walk(plan.blocks.failure ?? [], 1) + walk(plan.blocks.cancel ?? [], 1);
}

Deno.test("random flows: the interpreter never throws, every run ends, the calls stay within the loops' bound", () => {
  const rand = generator(20261201);
  let flows = 0;
  let runs = 0;
  for (let i = 0; flows < 300 && i < 3000; i++) {
    const text = randomFlow(rand, i);
    const checked = checkFlow(`random_${i}.flow`, text, { read: () => NO_SUCH_FILE }).checked;
    if (checked === null) continue;
    flows++;
    const plan = lower(checked);
    const bound = callBound(plan);
    for (
      const s of readFlowScenarios(
        checked,
        stringifyJson(generateFlowScenarios(checked, plan).scenarios.map(generatedJson)),
      )
    ) {
      const run = runFlow(checked, {
        input: s.input,
        now: s.now,
        answers: new TolerantAnswers(s.answers),
        execution: "run-1",
        children: false,
      });
      runs++;
      ok(["succeed", "fail", "cancelled"].includes(run.ending.kind));
      ok(run.calls.length <= bound, `random_${i}: ${run.calls.length} calls, more than ${bound}\n${text}`);
    }
  }
  ok(flows >= 300, `${flows} flows that check`);
  ok(runs > 3000, `${runs} runs`);
});
