/**
 * Nothing a flow writes reaches Step Functions' JSONata as an expression (docs/targets.md#step-functions):
 * the addresses of AWS resources are held to their shapes (E007, arns.ts) and written as literals,
 * and every other string of the flow is a JSONata string literal inside an expression the target
 * writes. Searched for in every definition the tests and examples build and in definitions of
 * flows whose every string is hostile (quotes, backslashes, `{%`, `%}`, `$`, backquotes, JSON
 * escapes): a string asl-validator and Step Functions read as `{% … %}` is one of the target's
 * expressions, and in its syntax tree the flow's text is only ever inside string literals.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import jsonata from "jsonata";
import { checkFlow } from "../../lang/dandori/check.ts";
import { NO_SUCH_FILE } from "../../lang/dandori/env.ts";
import { lower } from "../../lang/dandori/lower.ts";
import type { Definition } from "../../targets/dandori/stepfunctions/asl.ts";
import { buildDefinition, validate } from "../../verify/dandori/stepfunctions.ts";
import { everyRunnableFlow, type RunnableFlow } from "../support/flows.ts";
import { runCli } from "../support/run.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** What only the hostile text holds: no name the flows below declare has it. */
const MARK = "PWN";

/** Hostile texts, each as a flow's string literal writes it (`{{` is a brace, `\"` a quote, `\\` a backslash). */
const HOSTILE: readonly { readonly written: string; readonly text: string }[] = [
  { written: "{{% $PWN %}}", text: "{% $PWN %}" },
  { written: "%}} & $PWN & {{%", text: "%} & $PWN & {%" },
  { written: '\\" & $PWN & \\"', text: '" & $PWN & "' },
  { written: '\\\\\\" & $PWN & \\\\\\"', text: '\\" & $PWN & \\"' },
  { written: "' & $PWN & '", text: "' & $PWN & '" },
  { written: "` & $PWN & `", text: "` & $PWN & `" },
  { written: "\\\\u0022 & $PWN & \\\\u0022", text: "\\u0022 & $PWN & \\u0022" },
  { written: " {{%PWN%}} ", text: " {%PWN%} " },
  { written: "$states.input.PWN", text: "$states.input.PWN" },
];

/** A flow whose every string — description, values, arguments, reasons, outputs — is `h`. */
function hostileFlow(h: string): string {
  return `workflow hostile v1
description "${h}"

inputs
  card : string
  go   : bool

outputs
  said : string

task note(text: string, items: list[string]) -> json
  lambda "arn:aws:lambda:eu-west-2:123456789012:function:note"

task post(id: string, text: string)
  http POST "https://api.example.com/v1/{id}/$PWN'()*!~"
  connection "arn:aws:events:eu-west-2:123456789012:connection/api/1"

task publish(Message: string, TopicArn: string)
  aws sns:publish

flow
  let a = "${h}"
  let r = note(text: "${h}", items: ["${h}", a])
  post(id: "${h}", text: "${h}{a}${h}{card}")
  publish(Message: "${h}", TopicArn: "${h}")
  match go
    true => succeed said = "${h} {a}"
    false => fail Refused "${h}{card}"
`;
}

function runnable(text: string): RunnableFlow {
  const result = checkFlow("hostile.flow", text, { read: () => NO_SUCH_FILE });
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  deepStrictEqual(errors.map((d) => `${d.code} ${d.line}: ${d.message.en}`), []);
  if (result.checked === null) throw new Error("the hostile flow checks");
  return { path: "hostile.flow", checked: result.checked, plan: lower(result.checked) };
}

/** Every string value of a definition (not its keys), with where it is. */
function strings(v: unknown, at: string, out: [string, string][]): [string, string][] {
  if (typeof v === "string") out.push([at, v]);
  else if (Array.isArray(v)) v.forEach((x, i) => strings(x, `${at}[${i}]`, out));
  else if (typeof v === "object" && v !== null) {
    for (const [k, x] of Object.entries(v)) strings(x, `${at}.${k}`, out);
  }
  return out;
}

/** The syntax tree of a JSONata expression with the values of its string literals taken out, and those values. */
function split(expression: string): { code: string; literals: string[] } {
  const literals: string[] = [];
  const code = JSON.stringify(jsonata(expression).ast(), (_k, node) => {
    if (typeof node === "object" && node !== null && node.type === "string") {
      literals.push(String(node.value));
      return { ...node, value: "" };
    }
    return node;
  });
  return { code, literals };
}

/**
 * The strings of a definition Step Functions and asl-validator read as `{% … %}` (trimmed, starting
 * with `{%` or ending with `%}`): each must be one the target wrote, `{% <expression> %}` exactly, and
 * parse; returns their string literals. Every other string is a literal of the definition.
 */
function expressions(d: Definition): { where: string; code: string; literals: string[] }[] {
  return strings(d, "$", []).flatMap(([where, s]) => {
    const t = s.trim();
    if (!t.startsWith("{%") && !t.endsWith("%}")) return [];
    ok(s.startsWith("{% ") && s.endsWith(" %}"), `${where}: ${s}`);
    return [{ where, ...split(s.slice(3, -3)) }];
  });
}

Deno.test("the issue's Lambda function written as a JSONata template is E007, and Step Functions' build stops there", () => {
  const flow = `workflow w v1

inputs
  card : string secret

task charge(card: string)
  lambda "{% 'arn:aws:lambda:eu-west-2:1:function:' & $card %}"

flow
  charge(card: card)
`;
  const run = runCli(["dandori", "build", "w.flow", "--target", "stepfunctions", "--out", "out"], {
    files: { "w.flow": flow },
  });
  strictEqual(run.code, 1, run.stderr);
  ok(
    run.stderr.includes("error[E007]: w.flow:7:10: `lambda` of `charge` is not a Lambda function"),
    run.stderr,
  );
  deepStrictEqual(run.written, {});
});

Deno.test("every string of every definition the tests and examples build is a literal or one of the target's expressions", () => {
  let built = 0;
  let read = 0;
  for (const f of everyRunnableFlow()) {
    const b = buildDefinition(f, Deno.readTextFileSync(`${ROOT}${f.path}`));
    if (b.kind === "skipped") continue;
    built++;
    read += expressions(b.definition).length;
  }
  ok(built >= 24 && read > 1000, `${built} definitions, ${read} expressions`);
});

Deno.test("in definitions of flows whose every string is hostile, the flow's text is only ever inside JSONata string literals", () => {
  for (const h of HOSTILE) {
    const b = buildDefinition(runnable(hostileFlow(h.written)), hostileFlow(h.written));
    if (b.kind === "skipped") throw new Error(b.why);
    deepStrictEqual(validate(b.definition), [], h.text);
    const found = expressions(b.definition);
    for (const e of found) {
      ok(!e.code.includes(MARK), `${h.text}: ${e.where} reads the flow's text as code: ${e.code}`);
    }
    const literals = found.flatMap((e) => e.literals);
    // The text arrives whole, as data: in the value, the arguments, the reason and the output.
    ok(
      literals.filter((l) => l === h.text).length >= 8,
      `${h.text}: ${literals.filter((l) => l.includes(MARK))}`,
    );
    // Outside the expressions, the flow's text is where nothing is evaluated: the Comment, the URL's fixed text.
    for (const [where, s] of strings(b.definition, "$", [])) {
      if (s.includes(MARK) && !s.trim().startsWith("{%")) ok(where === "$.Comment", `${where}: ${s}`);
    }
  }
});

Deno.test("an address holding hostile text is E007 wherever it is written: a task's lambda, connection, state machine, durable function, a book's lambda", () => {
  for (const h of HOSTILE) {
    const flow = `workflow w v1

use book stock from "stock.book"
  lambda "${h.written}"

task charge(card: string)
  lambda "${h.written}"

task call(id: string)
  http POST "https://api.example.com/v1/{id}"
  connection "arn:aws:events:eu-west-2:123456789012:connection/${h.written}"

task deliver(id: string)
  state machine "arn:aws:states:eu-west-2:123456789012:stateMachine:${h.written}"
  durable function "arn:aws:lambda:eu-west-2:123456789012:function:${h.written}"
  workflow "deliver"

flow
  charge(card: "4242")
  call(id: "1")
  deliver(id: "1")
`;
    const result = checkFlow("w.flow", flow, {
      read: (p) =>
        p === "stock.book"
          ? { bytes: Deno.readFileSync(`${ROOT}tests/dandori/flows/books/stock.book`), real: p }
          : NO_SUCH_FILE,
    });
    deepStrictEqual(
      result.diagnostics.filter((d) => d.code === "E007").map((d) => d.line),
      [4, 7, 11, 14, 15],
      h.text,
    );
  }
});
