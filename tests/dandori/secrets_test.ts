/**
 * Secrets and plain HTTP (docs/dandori.md): the acceptance of E906, W904 and W902 on the test
 * flows (whose whole output the goldens of check_test.ts pin), the way a secret is named and
 * followed, what counts as this machine, and masking of every line a diagnostic quotes or lists.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { checkFlow } from "../../lang/dandori/check.ts";
import { NO_SUCH_FILE } from "../../lang/dandori/env.ts";
import { findSecrets } from "../../lang/common/secrets.ts";
import type { Diagnostic } from "../../lang/common/diagnostic.ts";
import { readUrl } from "../../lang/dandori/urls.ts";
import { runCli } from "../support/run.ts";

const FLOWS = "tests/dandori/flows/";

interface Json {
  readonly code: string;
  readonly line: number;
  readonly message: string;
  readonly notes: readonly string[];
  readonly excerpt: string;
  readonly operations: readonly string[];
}

function check(name: string, lang: "en" | "ja" = "en"): { code: number; diagnostics: Json[] } {
  const run = runCli(["dandori", "check", FLOWS + name, "--lang", lang, "--format", "json"]);
  return { code: run.code, diagnostics: JSON.parse(run.stdout).files[0].diagnostics };
}

const codeLines = (ds: readonly Json[]) => ds.map((d) => `${d.code}:${d.line}`);

Deno.test("acceptance: a secret input sent to an http task off this machine is E906, and W904 as the input and the argument", () => {
  for (
    const [name, line, secret] of [
      ["secret_sent.flow", 14, "account_number"],
      ["秘密を送る.flow", 13, "口座番号"],
    ] as const
  ) {
    const { code, diagnostics } = check(name);
    strictEqual(code, 1, name);
    deepStrictEqual(codeLines(diagnostics), [`W904:${line - 6}`, `E906:${line}`, `W904:${line}`], name);
    const sent = diagnostics[1];
    ok(sent.message.includes(`the secret \`${secret}\``), sent.message);
    ok(sent.message.includes("`https://bank.example.com`, outside the project"), sent.message);
    deepStrictEqual(sent.notes, [`the mark is \`secret\` on the input \`${secret}\`, line ${line - 6}`]);
  }
});

Deno.test("acceptance: with discloses the send passes and W904 stays; with history encrypted too, nothing is said", () => {
  for (const name of ["secret_disclosed.flow", "秘密を明かす.flow"]) {
    const { code, diagnostics } = check(name);
    strictEqual(code, 0, name);
    deepStrictEqual(diagnostics.map((d) => d.code), ["W904", "W904"], name);
  }
  for (const name of ["secret_encrypted.flow", "履歴の暗号化.flow"]) {
    const run = runCli(["dandori", "check", FLOWS + name]);
    strictEqual(run.code, 0);
    strictEqual(run.stdout, `${FLOWS}${name}: ok\n`);
  }
});

Deno.test("acceptance: http:// off this machine is W902; localhost, 127.0.0.1, ::1, .localhost, https and plaintext are not", () => {
  for (const name of ["plain_http.flow", "平文の通信.flow"]) {
    const { code, diagnostics } = check(name);
    strictEqual(code, 0, name);
    deepStrictEqual(codeLines(diagnostics), ["W902:6", "W902:9", "W902:12"], name);
    ok(diagnostics[0].message.includes("`http://hooks.example.com` in plain HTTP"), diagnostics[0].message);
    // The quoted line holds a made-up key: it is masked, and W901 is silenced by the marker.
    ok(diagnostics[1].excerpt.includes('key=AIza…"'), diagnostics[1].excerpt);
    deepStrictEqual(findSecrets(diagnostics[1].excerpt), []);
  }
});

Deno.test("a secret is named as the flow reads it and followed through variables, records, loops and collected lists", () => {
  const { diagnostics } = check("secrets.flow");
  const at = (code: string, line: number) => {
    const d = diagnostics.find((x) => x.code === code && x.line === line);
    ok(d !== undefined, `${code} on line ${line}: ${codeLines(diagnostics).join(" ")}`);
    return d;
  };
  const notice = at("E906", 56);
  ok(
    notice.message.includes("`notify` sends the secret `account.number` to the Lambda function"),
    notice.message,
  );
  deepStrictEqual(notice.operations, [
    "  51  let reference = account.number",
    '  56  notify(notice: {account_id: account.id, text: "your payout {reference} is on its way"})',
  ]);
  ok(at("E906", 57).message.includes("to AWS (`sqs:sendMessage`)"));
  ok(at("W904", 19).message.includes("the secret `accounts[].number`"));
  ok(at("W904", 61).message.includes("the secret `slip.number`"));
  deepStrictEqual(at("W904", 67).operations, [
    "  65  for n in accounts …",
    "  65  let numbers = for n … yield n.number",
    "  67  archive(lines: numbers)",
  ]);
  deepStrictEqual(at("W904", 58).notes.slice(0, 2), [
    "the mark is `secret` on the input `pin`, line 20",
    "the mark is `secret` on the argument `pin` of `check_pin`, line 41",
  ]);
  ok(at("W904", 26).message.includes("as the result of `fetch_token`"));
  ok(at("W904", 73).message.includes("in the reason of `fail PayoutFailed`"));
  // Inside the project (a book, own code, this machine): kept in the history, not sent outside.
  for (const line of [58, 61, 64, 68, 69]) {
    strictEqual(diagnostics.some((d) => d.code === "E906" && d.line === line), false, `line ${line}`);
  }
  // The holders are no secret, nor is what a book task's result makes.
  strictEqual(diagnostics.some((d) => d.line === 64), false);
});

Deno.test("every line an E906 or a W904 quotes or lists is masked", () => {
  const key = "AKIA" + "QWERTYUIOPASDFGH";
  const flow = `workflow leak v1

inputs
  card : string secret

task charge(reference: string)
  lambda "arn:aws:lambda:eu-west-2:123456789012:function:charge"

flow
  let reference = "${key} {card}" # ritsu: test secret
  charge(reference: reference) # ${key}
`;
  const result = checkFlow("leak.flow", flow, { read: () => NO_SUCH_FILE });
  const ds: readonly Diagnostic[] = result.diagnostics.filter((d) => d.code !== "W901");
  deepStrictEqual(ds.map((d) => d.code), ["W904", "E906", "W904"]);
  for (const d of ds) {
    for (const text of [d.excerpt ?? "", ...d.operations.flatMap((o) => [o.en, o.ja]), d.message.en]) {
      strictEqual(text.includes(key), false, text);
    }
  }
  ok(ds[1].operations.some((o) => o.en.includes('let reference = "AKIA… {card}"')), ds[1].operations[0].en);
});

/** True when the URL reads (E007 refuses it otherwise) and its host is this machine. */
function isThisMachine(url: string): boolean {
  const reading = readUrl(url, ["host"]);
  return reading.ok && reading.template.local;
}

Deno.test("this machine: localhost, a name under .localhost, 127.0.0.0/8 and ::1, with any port", () => {
  for (
    const url of [
      "http://localhost",
      "http://localhost:8080/x",
      "http://a.b.localhost/x",
      "http://127.0.0.1:9/",
      "http://127.255.0.9",
      "http://[::1]:81/x",
    ]
  ) {
    strictEqual(isThisMachine(url), true, url);
  }
  for (
    const url of [
      "http://example.com",
      "http://localhost.example.com/",
      "http://128.0.0.1/",
      "http://127.0.0.256/",
      "http://{host}/x",
      "http://10.0.0.1/",
      "localhost",
    ]
  ) {
    strictEqual(isThisMachine(url), false, url);
  }
});
