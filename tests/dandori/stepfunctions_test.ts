/**
 * The Step Functions target (docs/targets.md#step-functions): every test and example flow Step
 * Functions can build passes asl-validator 4.0.0 and agrees with the reference interpreter on every
 * generated scenario on the ASL runner (what `deno task verify stepfunctions` runs); those it cannot
 * build are skipped with E050's reason. A copy with a retrier's order swapped, with a catcher taken
 * away, whose Map iteration assigns a variable of the machine, or whose `connect` Tasks do not fill
 * their answer's zero values is caught. `dandori build` writes the
 * examples' Step Functions versions in both languages, the same bytes every time, with their text only
 * in the definition's `Comment` and Python comment lines; `--express` says E031; a history past 25,000
 * events is E040 and an event task E050, Step Functions' parts of the shared build codes; an AWS
 * service Step Functions does not know is E007.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { generateFlowScenarios } from "../../lang/dandori/scenarios.ts";
import type { Definition } from "../../targets/dandori/stepfunctions/asl.ts";
import {
  aslRecord,
  buildDefinition,
  playScenario,
  validate,
  verifyFlows,
} from "../../verify/dandori/stepfunctions.ts";
import { recordFromTest, secondsSince } from "../../verify/summary.ts";
import { checkedFlow, everyRunnableFlow, type RunnableFlow } from "../support/flows.ts";
import { runCli } from "../support/run.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const read = (path: string) => Deno.readTextFileSync(`${ROOT}${path}`);

/** The examples' Step Functions versions, English and Japanese. */
const EXAMPLES = ["orders/orders", "billing/billing", "shipping/shipping"].flatMap((n) =>
  ["", ".ja"].map((lang) => `examples/${n.split("/")[0]}/stepfunctions/${n.split("/")[1]}${lang}.flow`)
);

function flow(path: string): RunnableFlow {
  const f = checkedFlow(path);
  if (f === null) throw new Error(`${path} has errors`);
  return f;
}

function built(f: RunnableFlow): Definition {
  const b = buildDefinition(f, read(f.path));
  if (b.kind === "skipped") throw new Error(`${f.path}: ${b.why}`);
  return b.definition;
}

Deno.test("every flow Step Functions can build is valid and agrees with the interpreter on every scenario; the rest are E050", async () => {
  const started = performance.now();
  const report = await verifyFlows(everyRunnableFlow(), read);
  recordFromTest([aslRecord(report, secondsSince(started))]);
  deepStrictEqual(report.failures, []);
  strictEqual(report.agreed, report.scenarios);
  ok(report.flows >= 24, `${report.flows} flows built`);
  ok(report.scenarios >= 350, `${report.scenarios} scenarios`);
  const skipped = new Map(report.skipped.map((s) => [s.path, s.why]));
  for (
    const path of [
      "examples/orders/orders.flow",
      "examples/shipping/shipping.flow",
      "tests/dandori/flows/cancel_run.flow",
    ]
  ) {
    ok(skipped.get(path)?.startsWith("E050 "), `${path}: ${skipped.get(path)}`);
  }
  for (const path of EXAMPLES) ok(!skipped.has(path), `${path} is built`);
  console.log(
    `stepfunctions: ${report.flows} flows, ${report.scenarios} scenarios agree; ${report.skipped.length} flows skipped (E050)`,
  );
});

/** How many scenarios of a flow disagree on a copy of its definition changed by `change`. */
async function disagreeing(
  path: string,
  change: (d: Definition & Record<string, unknown>) => void,
): Promise<string[]> {
  const f = flow(path);
  const copy = structuredClone(built(f)) as Definition & Record<string, unknown>;
  change(copy);
  const out: string[] = [];
  for (const [i, s] of generateFlowScenarios(f.checked, f.plan).scenarios.entries()) {
    const played = await playScenario(f, copy, s, `run-${i + 1}`);
    if (played.differences.length > 0) out.push(`${s.name}: ${played.differences[0]}`);
  }
  return out;
}

type Mutable = Record<string, unknown> & { Retry?: unknown[]; Catch?: unknown[] };

function stateEnding(d: Definition, suffix: string): Mutable {
  const name = Object.keys(d.States).find((k) => k.endsWith(suffix));
  if (name === undefined) throw new Error(`no state ${suffix}`);
  return d.States[name] as unknown as Mutable;
}

Deno.test("a broken copy is caught: a Task's retriers swapped, or a catcher taken away", async () => {
  const orders = "examples/orders/stepfunctions/orders.flow";
  const swapped = await disagreeing(orders, (d) => {
    const retry = stateEnding(d, " charge_card").Retry;
    ok(retry !== undefined && retry.length === 2, "charge_card stops `declined` before retrying every error");
    retry.reverse();
  });
  ok(swapped.length > 0, "swapping the retriers retries a declared error");
  // Step Functions takes the swapped copy as valid: only running it shows the difference.
  const copy = structuredClone(built(flow(orders)));
  stateEnding(copy, " charge_card").Retry?.reverse();
  deepStrictEqual(validate(copy), []);
  const uncaught = await disagreeing(orders, (d) => {
    const c = stateEnding(d, " charge_card").Catch;
    ok(c !== undefined);
    c.shift();
  });
  ok(uncaught.length > 0, "without its catcher, `declined` is not handled");
});

Deno.test("a copy that does not fill a Connect answer's zero values disagrees on exactly the runs that leave them out", async () => {
  const path = "tests/dandori/flows/proto_calls.flow";
  const leftOut = generateFlowScenarios(flow(path).checked, flow(path).plan).scenarios.flatMap((s) =>
    s.covers.some((c) => c.includes(":zeros left out ")) ? [s.name] : []
  );
  strictEqual(leftOut.length, 2, "one run for each connect task");
  const bare = "{% ($exists($states.result.ResponseBody) ? $states.result.ResponseBody : null) %}";
  let unfilled = 0;
  const failing = await disagreeing(path, (d) => {
    for (const state of Object.values(d.States) as Mutable[]) {
      const filled = (v: unknown) => typeof v === "string" && v.startsWith("{% ($dd_fill0 := function");
      if (!filled(state.Output)) continue;
      state.Output = bare;
      const assign = state.Assign as Record<string, unknown>;
      for (const k of Object.keys(assign)) if (filled(assign[k])) assign[k] = bare;
      unfilled++;
    }
  });
  strictEqual(unfilled, 2, "both connect Tasks fill their answer");
  deepStrictEqual(failing.map((f) => f.slice(0, f.indexOf(":"))), leftOut);
});

Deno.test("an agent's Task: a Claude answer read without the enum fold, or a model setting added, is caught on the runs it changes", async () => {
  const path = "tests/dandori/flows/stepfunctions/agents.flow";
  const scenarios = generateFlowScenarios(flow(path).checked, flow(path).plan).scenarios;
  const changed = scenarios.flatMap((s) =>
    s.covers.some((c) => c.includes(":enum case changed ")) ? [s.name] : []
  );
  deepStrictEqual(changed, ["run 18"], "one run answers read_inquiry with its enum values' case changed");
  const unfolded = await disagreeing(path, (d) => {
    const read = stateEnding(d, " read_inquiry");
    const bare =
      '{% ($states.result.ResponseBody.stop_reason = "end_turn" ? $lookup($parse($join($states.result.ResponseBody.content[type = "text"].text)), "answer") : $error("stopped")) %}';
    ok(String(read.Output).includes("$lowercase"), "read_inquiry folds its answer's enum values");
    read.Output = bare;
    read.Assign = { reading: bare };
  });
  deepStrictEqual(unfolded.map((f) => f.slice(0, f.indexOf(":"))), changed);
  const setting = await disagreeing(path, (d) => {
    const args = stateEnding(d, " choose_tone").Arguments as Record<string, string>;
    ok(args.RequestBody.includes('"reasoning": {"effort": "low"}'), "choose_tone sends its effort");
    args.RequestBody = args.RequestBody.replace(
      '"reasoning": {"effort": "low"}',
      '"reasoning": {"effort": "low"}, "temperature": 0',
    );
  });
  ok(setting.length > 0 && setting.every((f) => f.includes("choose_tone")), setting.join("\n"));
  ok(setting[0].startsWith("run 1: "), setting[0]);
});

Deno.test("an iteration that assigns a variable of the machine fails as Step Functions would", async () => {
  const problems = await disagreeing("tests/dandori/flows/loops_run.flow", (d) => {
    const map = stateEnding(d, " map") as {
      ItemProcessor: { StartAt: string; States: Record<string, Mutable> };
    };
    const start = map.ItemProcessor.States[map.ItemProcessor.StartAt] as { Assign: Record<string, unknown> };
    start.Assign.packed = "{% [] %}";
  });
  ok(problems.some((p) => p.includes("assigns packed, a variable of an outer scope")), problems.join("\n"));
});

Deno.test("dandori build writes the examples' Step Functions versions in both languages, the same bytes each time", () => {
  for (const path of EXAMPLES) {
    const run = runCli(["dandori", "build", path, "--target", "stepfunctions", "--out", "out"]);
    strictEqual(run.code, 0, run.stderr);
    const again = runCli(["dandori", "build", path, "--target", "stepfunctions", "--out", "out"]);
    deepStrictEqual(again.written, run.written, `${path}: the same bytes`);
    const definition = JSON.parse(run.written["out/statemachine.asl.json"]) as Definition;
    deepStrictEqual(validate(definition), [], path);
    strictEqual(definition.QueryLanguage, "JSONata");
    ok(
      definition.Comment.startsWith("Code generated by dandori 0.1.0. DO NOT EDIT.\nSource: "),
      definition.Comment,
    );
    const books = flow(path).plan.books.map((b) => `out/lambda/book_${b.name}_handler.py`);
    for (const b of books) ok(b in run.written, `${path}: ${b}`);
    if (books.length > 0) ok("out/lambda/dandori_book.py" in run.written);
    strictEqual(run.stderr, Object.keys(run.written).map((p) => `${p}\n`).join(""));
  }
});

Deno.test("the flow's text stays in the Comment and in comment lines, whatever it holds", () => {
  // Characters some host language ends a line at (U+2028, U+0085), and what ends a comment or an expression.
  const description = "first\u2028import os\u0085second */ %} {{% x %}}";
  const book = "stock\u2028import os.book";
  const text = read("examples/orders/stepfunctions/orders.flow")
    .replace(/^description ".*"$/m, `description "${description}"`)
    .replace('"../../inventory/inventory.book"', `"${book}"`);
  const run = runCli([
    "dandori",
    "build",
    "o\u2028import os.flow",
    "--target",
    "stepfunctions",
    "--out",
    "out",
  ], {
    files: { "o\u2028import os.flow": text, [book]: read("examples/inventory/inventory.book") },
  });
  strictEqual(run.code, 0, run.stderr);
  const definition = JSON.parse(run.written["out/statemachine.asl.json"]) as Definition;
  ok(definition.Comment.split("\n").includes(description), definition.Comment);
  const python = run.written["out/lambda/book_stock_handler.py"];
  ok(python.includes("import os"), "the names are in the comments");
  for (const line of python.split(/\r\n|[\n\r\u0085\u2028\u2029]/)) ok(!line.startsWith("import os"), line);
});

Deno.test("--express says what an Express state machine cannot run (E031), and writes nothing", () => {
  const run = runCli([
    "dandori",
    "build",
    "examples/orders/stepfunctions/orders.flow",
    "--target",
    "stepfunctions",
    "--express",
    "--out",
    "out",
  ]);
  strictEqual(run.code, 1);
  deepStrictEqual(run.written, {});
  ok(
    run.stderr.includes(
      "error[E031]: examples/orders/stepfunctions/orders.flow:39:1: an Express state machine cannot wait for the callback of `confirm`",
    ),
    run.stderr,
  );
  const ja = runCli([
    "dandori",
    "build",
    "tests/dandori/flows/loops_run.flow",
    "--target",
    "stepfunctions",
    "--express",
    "--lang",
    "ja",
    "--out",
    "out",
  ]);
  strictEqual(ja.code, 1);
  ok(ja.stderr.includes("600 秒の待ちは、Express のステートマシンが走る長さ(300 秒)を超えます"), ja.stderr);
});

Deno.test("dandori run --target stepfunctions shows what the Tasks send, and E050 for a flow Step Functions cannot build", () => {
  const ok_ = runCli([
    "dandori",
    "run",
    "examples/orders/stepfunctions/orders.flow",
    "--scenario",
    "examples/orders/stepfunctions/orders.scenarios.json",
    "--target",
    "stepfunctions",
    "--format",
    "json",
  ]);
  strictEqual(ok_.code, 0, ok_.stderr);
  ok(
    ok_.stdout.includes('"task_token": "{\\"workflow\\":\\"run-1\\",\\"call\\":\\"s67/1\\"}"'),
    ok_.stdout.slice(0, 2000),
  );
  const no = runCli([
    "dandori",
    "run",
    "examples/orders/orders.flow",
    "--scenario",
    "examples/orders/orders.scenarios.json",
    "--target",
    "stepfunctions",
  ]);
  strictEqual(no.code, 1);
  ok(no.stderr.includes("error[E050]"), no.stderr);
  strictEqual(no.stdout, "");
});

Deno.test("an AWS service Step Functions does not call is E007, in both languages", () => {
  const text = `workflow putting v1

task put(TableName: string)
  aws dynamo:putItem

flow
  put(TableName: "items")
`;
  for (
    const [lang, words] of [["en", "`dynamo` is not an AWS service Step Functions calls"], [
      "ja",
      "`dynamo` は Step Functions が呼ぶ AWS のサービス",
    ]]
  ) {
    const run = runCli(["dandori", "check", "p.flow", "--lang", lang], { files: { "p.flow": text } });
    strictEqual(run.code, 1);
    ok(run.stdout.includes("E007") && run.stdout.includes(words), run.stdout);
  }
  const known = runCli(["dandori", "check", "p.flow"], {
    files: { "p.flow": text.replace("dynamo:", "dynamodb:") },
  });
  strictEqual(known.code, 0, known.stderr);
});

/** The Step Functions side of the shared build codes E040 (whose registry example is Temporal's) and E050 (whose example is this event). */
const STEP_FUNCTIONS_STOPS: readonly { code: string; flow: string; en: string; ja: string }[] = [
  {
    code: "E040",
    flow: `workflow poller v1

inputs
  job : string

task poll(job: string) -> bool
  lambda "arn:aws:lambda:ap-northeast-1:123456789012:function:poll"
  idempotent
  retry 3 times

flow
  repeat at most 2000 times
    let done = poll(job: job)
    match done
      true => break
      false => wait 1 minute
`,
    en: "events into Step Functions' history, past its 25000",
    ja: "件まで書きえて、上限の 25000 件を超えます",
  },
  {
    code: "E050",
    flow: `workflow approval v1

task approved() -> bool
  event
  timeout 3 days

flow
  let ok = approved()
`,
    en: "Step Functions cannot wait for the event `approved`",
    ja: "Step Functions ではイベント `approved` を待てません",
  },
];

Deno.test("a Step Functions build says E040 past 25,000 history events and E050 for an event, in both languages, and writes nothing; Temporal builds both flows", () => {
  for (const s of STEP_FUNCTIONS_STOPS) {
    for (const lang of ["en", "ja"] as const) {
      const run = runCli(
        ["dandori", "build", "p.flow", "--target", "stepfunctions", "--out", "out", "--lang", lang],
        { files: { "p.flow": s.flow } },
      );
      strictEqual(run.code, 1, `${s.code} ${lang}: ${run.stderr}`);
      deepStrictEqual(Object.keys(run.written).filter((p) => p.startsWith("out")), [], s.code);
      ok(run.stderr.includes(`[${s.code}]: p.flow:`), run.stderr);
      ok(run.stderr.includes(lang === "en" ? s.en : s.ja), run.stderr);
    }
    const temporal = runCli(
      ["dandori", "build", "p.flow", "--target", "temporal-typescript", "--out", "out"],
      {
        files: { "p.flow": s.flow },
      },
    );
    strictEqual(
      temporal.code,
      0,
      `${s.code} is Step Functions' own; Temporal builds the flow: ${temporal.stderr}`,
    );
  }
});
