/**
 * dandori's meaning: the reference interpreter, `dandori run`, scenario files and `dandori
 * scenarios`. Every test and example flow's scenarios generate deterministically and each runs to
 * an ending; the generated scenarios and their runs (JSON, and text in English and Japanese) are
 * pinned by golden files; the acceptance cases of retries, timeouts, malformed answers and inputs
 * outside their range; scenario files that do not fit; and `--books computed` equal to the
 * replayed scenario.
 */

import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { parseJson, stringifyJson } from "../../lang/common/json.ts";
import { BooksComputed } from "../../lang/dandori/computed.ts";
import { type Answer, type Run, runFlow, ScenarioError } from "../../lang/dandori/interp.ts";
import { runJson, runText } from "../../lang/dandori/run.ts";
import { type FlowScenario, readFlowScenarios, ScenarioAnswers } from "../../lang/dandori/scenario.ts";
import { generatedJson, generateFlowScenarios } from "../../lang/dandori/scenarios.ts";
import { replayOf } from "../../commands/dandori_run.ts";
import { checkedFlow, everyRunnableFlow, type RunnableFlow, TolerantAnswers } from "../support/flows.ts";
import { assertGolden } from "../support/golden.ts";
import { runCli } from "../support/run.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const GOLDEN = `${ROOT}tests/dandori/golden/runs/`;

function scenariosOf(f: RunnableFlow): FlowScenario[] {
  const generated = generateFlowScenarios(f.checked, f.plan);
  return readFlowScenarios(f.checked, stringifyJson(generated.scenarios.map(generatedJson)));
}

function play(f: RunnableFlow, s: FlowScenario, index: number): Run {
  const answers = new ScenarioAnswers(s.answers);
  const run = runFlow(f.checked, {
    input: s.input,
    now: s.now,
    answers,
    execution: `run-${index}`,
    children: false,
  });
  answers.finish();
  return run;
}

/** Where a flow's run goldens go: beside an example, under tests/dandori/golden/runs for a test flow. */
function goldenStem(path: string): string {
  return path.startsWith("examples/")
    ? `${ROOT}${path.replace(/\.flow$/, "")}`
    : `${GOLDEN}${path.replace(/^tests\/dandori\/flows\//, "").replace(/\.flow$/, "")}`;
}

const FLOWS = everyRunnableFlow();

Deno.test("the runnable flows are the test and example flows that pass the check", () => {
  const paths = FLOWS.map((f) => f.path);
  for (
    const p of [
      "examples/orders/orders.flow",
      "examples/shipping/shipping.ja.flow",
      "tests/dandori/flows/calls_run.flow",
    ]
  ) {
    ok(paths.includes(p), p);
  }
  ok(FLOWS.length >= 20, `${FLOWS.length} flows`);
});

Deno.test("every flow's scenarios generate deterministically, run to an ending, and are pinned with their runs", async (t) => {
  let scenarios = 0;
  for (const f of FLOWS) {
    await t.step(f.path, () => {
      const a = stringifyJson(generateFlowScenarios(f.checked, f.plan).scenarios.map(generatedJson), 2);
      const b = stringifyJson(generateFlowScenarios(f.checked, f.plan).scenarios.map(generatedJson), 2);
      strictEqual(a, b, "the same flow gives the same scenarios");
      const list = scenariosOf(f);
      ok(list.length > 0);
      scenarios += list.length;
      const runs = list.map((s, i) => play(f, s, i + 1));
      const stem = goldenStem(f.path);
      assertGolden(`${stem}.scenarios.json`, a + "\n");
      assertGolden(
        `${stem}.runs.json`,
        stringifyJson(runs.map((r, i) => runJson(f.path, f.plan, "transport", list[i], r, null)), 2) + "\n",
      );
      if (!f.path.startsWith("examples/")) {
        for (const lang of ["en", "ja"] as const) {
          assertGolden(
            `${stem}.${lang}.txt`,
            runs.map((r, i) => runText(f.path, f.plan, "transport", list[i], r, lang)).join("\n"),
          );
        }
      }
    });
  }
  ok(scenarios > 200, `${scenarios} scenarios`);
});

function calls(): RunnableFlow {
  const f = checkedFlow("tests/dandori/flows/calls_run.flow");
  if (f === null) throw new Error("calls_run.flow has errors");
  return f;
}

const APPROVED: Answer = { kind: "ok", value: { approved: true } };
const INPUT = parseJson('{"order": "o-1", "amount": 5, "by": "2026-04-01T00:00:00Z"}');

function runCalls(answers: readonly Answer[], input = INPUT): Run {
  const f = calls();
  return runFlow(f.checked, {
    input,
    now: ["2026-03-31T15:30:00Z", "2026-03-31T15:30:00Z"],
    answers: new ScenarioAnswers(answers),
    execution: "run-1",
    children: false,
  });
}

Deno.test("acceptance: retry 2 times every 5 seconds backoff 3 with timeout 20 seconds: failure, timeout, ok succeed 40 s after now", () => {
  const run = runCalls([
    APPROVED,
    { kind: "error", error: "failure", cause: null },
    { kind: "error", error: "timeout", cause: null },
    { kind: "ok", value: { id: "c-1", amount: 5n } },
    { kind: "ok", value: { id: "c-1", amount: 5n } },
    { kind: "ok", value: null },
    { kind: "ok", value: null },
  ]);
  const charge = run.calls.filter((c) => c.task === "charge");
  deepStrictEqual(charge.map((c) => [c.attempt, c.at]), [
    [1, "2026-03-31T15:30:00Z"],
    [2, "2026-03-31T15:30:05Z"],
    [3, "2026-03-31T15:30:40Z"],
  ]);
  deepStrictEqual(run.ending, { kind: "succeed", outputs: { outcome: "charged", charge: "c-1" } });
  strictEqual(new Date(run.clockMs).toISOString(), "2026-03-31T15:30:40.000Z");
});

Deno.test("acceptance: a declared error is not retried", () => {
  const run = runCalls([APPROVED, { kind: "error", error: "declined", cause: null }]);
  strictEqual(run.calls.filter((c) => c.task === "charge").length, 1);
  deepStrictEqual(run.ending, { kind: "succeed", outputs: { outcome: "declined", charge: null } });
});

Deno.test("acceptance: a malformed answer ends Dandori.BadResponse and on failure does not run", () => {
  const f = checkedFlow("examples/orders/orders.flow");
  if (f === null) throw new Error("orders.flow has errors");
  const run = runFlow(f.checked, {
    input: parseJson(
      '{"order": {"id": "o-1", "sku": "s-1", "quantity": 2, "price": 100, "pay_by": "2026-04-01T00:00:00Z"}}',
    ),
    now: ["2026-03-31T15:30:00Z", "2026-03-31T15:30:00Z"],
    answers: new ScenarioAnswers([{ kind: "ok", value: { result: "done" } }, { kind: "ok", value: {} }]),
    execution: "run-1",
    children: false,
  });
  strictEqual(run.calls.length, 2, "no put_back: on failure does not run");
  deepStrictEqual(run.ending, {
    kind: "fail",
    error: "Dandori.BadResponse",
    reason: "line 62: the answer from confirm does not have the declared shape",
  });
});

Deno.test("acceptance: an input outside its range ends Dandori.BadInput with no call", () => {
  const run = runCalls([], parseJson('{"order": "o-1", "amount": 1001, "by": "2026-04-01T00:00:00Z"}'));
  strictEqual(run.calls.length, 0);
  deepStrictEqual(run.ending, {
    kind: "fail",
    error: "Dandori.BadInput",
    reason: "the execution's input does not have the declared shape",
  });
});

Deno.test("a timed-out wait until a time takes until that time, at least one second", () => {
  const run = runCalls([{ kind: "error", error: "timeout", cause: null }]);
  strictEqual(new Date(run.clockMs).toISOString(), "2026-04-01T00:00:00.000Z");
  const late = runCalls(
    [{ kind: "error", error: "timeout", cause: null }],
    parseJson('{"order": "o-1", "amount": 5, "by": "2026-03-01T00:00:00Z"}'),
  );
  strictEqual(new Date(late.clockMs).toISOString(), "2026-03-31T15:30:01.000Z");
});

Deno.test("a scenario that does not fit names the call, its line and the answer's index", () => {
  const f = calls();
  const cases: [string, RegExp][] = [
    [
      '{"input": {"order": "o", "amount": 1, "by": "2026-04-01T00:00:00Z"}, "answers": []}',
      /line 55: approve \(attempt 1\) needs answer 1, and the scenario has 0/,
    ],
    [
      '{"input": {"order": "o", "amount": 1, "by": "2026-04-01T00:00:00Z"}, "answers": [{"error": "nope"}]}',
      /needs answer 1: "nope" is not an error of approve \(timeout, failure\)/,
    ],
    [
      '{"input": {"order": "o", "amount": 1, "by": "2026-04-01T00:00:00Z"}, "answers": [{"cancel": true}]}',
      /a cancel cannot arrive here/,
    ],
    [
      '{"input": {"order": "o", "amount": 1, "by": "2026-04-01T00:00:00Z"}, "answers": [{"error": "timeout"}, {"ok": 1}]}',
      /the run used 1 answers, and the scenario has 2/,
    ],
    ['{"input": {}, "answers": [], "extra": 1}', /scenario 1: unknown key "extra"/],
    ["[]", /the file holds no scenario/],
    ['{"input": {}, "answers": [{"ok": 1, "error": "x"}]}', /answer 1: unknown key "error"/],
  ];
  for (const [text, message] of cases) {
    throws(
      () => {
        for (const [i, s] of readFlowScenarios(f.checked, text).entries()) play(f, s, i + 1);
      },
      (e: unknown) => e instanceof ScenarioError && message.test(e.text.en),
      text,
    );
  }
});

Deno.test("dandori run: exit 1 and the reason for a scenario that does not fit, in both languages", () => {
  const flow = "tests/dandori/flows/calls_run.flow";
  const files = {
    [flow]: Deno.readTextFileSync(`${ROOT}${flow}`),
    "s.json": '{"input": {"order": "o", "amount": 1, "by": "2026-04-01T00:00:00Z"}, "answers": []}',
  };
  const en = runCli(["dandori", "run", flow, "--scenario", "s.json"], { files });
  strictEqual(en.code, 1);
  ok(en.stderr.startsWith("dandori run: s.json: line 55: approve (attempt 1) needs answer 1"), en.stderr);
  const ja = runCli(["dandori", "run", flow, "--scenario", "s.json", "--lang", "ja"], { files });
  ok(ja.stderr.includes("55 行: approve(1 回目)が答え 1 を要ります"), ja.stderr);
});

/** The flows with books, each with its generated scenarios run with the books computed. */
Deno.test("--books computed equals the run of the replayed scenario, on every flow that uses a book", async (t) => {
  let compared = 0;
  for (const f of FLOWS.filter((x) => x.checked.model.books.size > 0)) {
    await t.step(f.path, () => {
      const books = new Set(f.plan.tasks.filter((t) => t.callee.kind === "book").map((t) => t.name));
      for (const [i, s] of scenariosOf(f).entries()) {
        const rest = play(f, s, i + 1).calls.filter((c) => !books.has(c.task)).map((c) => c.answer);
        const computed = runFlow(f.checked, {
          input: s.input,
          now: s.now,
          answers: new BooksComputed(f.checked, s, Date.parse(s.now[0]), new TolerantAnswers(rest)),
          execution: `run-${i + 1}`,
          children: false,
        });
        const replay = readFlowScenarios(f.checked, stringifyJson(replayOf(s, computed)))[0];
        const replayed = play(f, replay, i + 1);
        strictEqual(
          stringifyJson(runJson(f.path, f.plan, "transport", replay, replayed, null)),
          stringifyJson(runJson(f.path, f.plan, "transport", replay, computed, null)),
          `${f.path}: ${s.name}`,
        );
        compared++;
      }
    });
  }
  ok(compared > 50, `${compared} scenarios`);
});

Deno.test("--books computed: a hold left past its expiry is answered expired by chobo's interpreter", () => {
  const flow = "examples/orders/orders.flow";
  const scenario = {
    input: { order: { id: "o-1", sku: "s-1", quantity: 2, price: 100, pay_by: "2026-03-31T16:30:00Z" } },
    books: { stock: [{ call: "receive.do", args: { delivery: "d-1", sku: "s-1", qty: 10 } }] },
    answers: [{ error: "timeout" }],
  };
  const run = runCli(
    ["dandori", "run", flow, "--scenario", "s.json", "--books", "computed", "--format", "json"],
    {
      files: {
        [flow]: Deno.readTextFileSync(`${ROOT}${flow}`),
        "examples/inventory/inventory.book": Deno.readTextFileSync(
          `${ROOT}examples/inventory/inventory.book`,
        ),
        "s.json": JSON.stringify(scenario),
      },
    },
  );
  strictEqual(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  deepStrictEqual(out.calls.map((c: { task: string; answer: unknown }) => [c.task, c.answer]), [
    ["reserve", { ok: { result: "done" } }],
    ["confirm", { error: "timeout" }],
    ["put_back", { error: "expired" }],
  ]);
  deepStrictEqual(out.ending, { succeed: { outcome: "expired", charge: null } });
  deepStrictEqual(out.replay.answers, [{ ok: { result: "done" } }, { error: "timeout" }, {
    error: "expired",
  }]);
});

Deno.test("--children run: the child flow runs on the parent's arguments with the next answers", () => {
  const flow = "tests/dandori/flows/children_run.flow";
  const files = {
    [flow]: Deno.readTextFileSync(`${ROOT}${flow}`),
    "tests/dandori/flows/children/deliver.flow": Deno.readTextFileSync(
      `${ROOT}tests/dandori/flows/children/deliver.flow`,
    ),
    "s.json": JSON.stringify({
      input: { order: "o-1", address: "a-1", weight: 5 },
      answers: [{ error: "failure" }, { ok: "track-2" }],
    }),
  };
  const run = runCli([
    "dandori",
    "run",
    flow,
    "--scenario",
    "s.json",
    "--children",
    "run",
    "--format",
    "json",
  ], { files });
  strictEqual(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  deepStrictEqual(out.calls.map((c: { task: string; answer: unknown }) => [c.task, c.answer]), [
    ["deliver", { error: "NoVan", cause: "no carrier could take o-1" }],
    ["deliver", { ok: { tracking: "track-2", eta: "2026-10-01T10:00:00Z" } }],
  ]);
  deepStrictEqual(out.calls[0].child.map((c: { view: unknown }) => c.view), [
    { task: "book_carrier", args: { order: "o-1", carrier: "van", address: "a-1" } },
  ]);
  deepStrictEqual(out.ending, { succeed: { outcome: "sent", tracking: "track-2" } });
});
