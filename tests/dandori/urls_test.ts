/**
 * A task's URL template is read by one parser, the WHATWG URL parser `fetch` uses (urls.ts): what
 * it cannot read as written is E007 at its character (tests/dandori/flows/urls.flow pins each
 * text), every command stops there with it instead of an internal error, and W902 and E906 see
 * the host the parser reads.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { readUrl } from "../../lang/dandori/urls.ts";
import { runCli } from "../support/run.ts";

function flowWith(task: string, call: string, inputs = ""): string {
  return `workflow w v1\n${inputs}\n${task}\n\nflow\n  ${call}\n`;
}

function codes(flow: string): string[] {
  const run = runCli(["dandori", "check", "w.flow", "--format", "json"], { files: { "w.flow": flow } });
  return JSON.parse(run.stdout).files[0].diagnostics.map((d: { code: string; line: number; col: number }) =>
    `${d.code} ${d.line}:${d.col}`
  );
}

Deno.test("an unclosed `{` is E007 at it, and build, plan, doc and scenarios stop there, not at an internal error", () => {
  const flow = flowWith(
    'task get(id: string) -> json\n  http GET "https://x/{id}/{"',
    'let a = get(id: "1")',
  );
  deepStrictEqual(codes(flow), ["E007 4:28"]);
  for (
    const argv of [
      ["build", "w.flow", "--target", "temporal-typescript", "--out", "out"],
      ["plan", "w.flow"],
      ["doc", "w.flow"],
      ["scenarios", "w.flow"],
    ]
  ) {
    const run = runCli(["dandori", ...argv], { files: { "w.flow": flow } });
    strictEqual(run.code, 1, `${argv[0]}: ${run.stderr}`);
    ok((run.stdout + run.stderr).includes("E007") && !run.stderr.includes("internal error"), run.stderr);
    deepStrictEqual(run.written, {});
  }
});

Deno.test("a `{name}` the task has no argument for is E007, not an empty value", () => {
  const flow = flowWith(
    'task get(id: string) -> json\n  http GET "https://x/v1/{zzz}"',
    'let a = get(id: "1")',
  );
  deepStrictEqual(codes(flow), ["E007 4:26"]);
});

Deno.test("a secret sent to `http://attacker.example\\@localhost/…` is E007: no host after the last `@` passes for this machine", () => {
  const inputs = "\ninputs\n  card : string secret\n";
  for (
    const url of [
      "http://attacker.example\\\\@localhost/cards",
      "http://attacker.example@localhost/cards",
      "http://attacker.example%5C@localhost/cards",
    ]
  ) {
    const flow = flowWith(`task send(card: string)\n  http POST "${url}"`, "send(card: card)", inputs);
    const found = codes(flow);
    ok(found.some((c) => c.startsWith("E007 7:")), `${url}: ${found}`);
    ok(!found.some((c) => c.startsWith("E906") || c.startsWith("W902")), `${url}: ${found}`);
  }
  // The same secret to this machine, read by the parser, is neither sent outside nor plain HTTP off it.
  const send = (url: string) =>
    flowWith(`task send(card: string)\n  http POST "${url}"`, "send(card: card)", inputs);
  const local = send("http://localhost:8080/cards");
  deepStrictEqual(codes(local).filter((c) => !c.startsWith("W904")), []);
  deepStrictEqual(
    codes(send("http://cards.example.com/cards")).filter((c) => !c.startsWith("W904")).map((c) =>
      c.slice(0, 4)
    ),
    ["W902", "E906"],
  );
});

Deno.test("a URL that does not begin `http://` or `https://` is E007, where a leading space or `http:host` skipped W902", () => {
  for (
    const url of [" http://hooks.example.com/x", "http:hooks.example.com/x", "HTTP://hooks.example.com/x"]
  ) {
    deepStrictEqual(
      codes(flowWith(`task t(id: string)\n  http POST "${url}"`, 't(id: "1")')),
      ["E007 4:14"],
      url,
    );
  }
});

Deno.test("the parser's reading: the pieces, the scheme, the origin as written, and whether the host is this machine", () => {
  const read = (url: string) => {
    const r = readUrl(url, ["id", "host"]);
    return r.ok
      ? { ...r.template, parts: r.template.parts.map((p) => "text" in p ? p.text : `{${p.param}}`) }
      : r.fault.at;
  };
  deepStrictEqual(read("https://api.example.com/v1/{id}?q={host}"), {
    parts: ["https://api.example.com/v1/", "{id}", "?q=", "{host}"],
    protocol: "https:",
    origin: "https://api.example.com",
    local: false,
  });
  deepStrictEqual(read("http://{host}:8080/x"), {
    parts: ["http://", "{host}", ":8080/x"],
    protocol: "http:",
    origin: "http://{host}:8080",
    local: false,
  });
  // A value in the authority is not known: not this machine, even under .localhost.
  strictEqual((read("http://{id}.localhost/x") as { local: boolean }).local, false);
  strictEqual((read("http://127.0.0.1:9/x") as { local: boolean }).local, true);
  // An empty path is `/` to every client; a path the parser rewrites is refused at where it differs.
  strictEqual((read("https://api.example.com") as { origin: string }).origin, "https://api.example.com");
  strictEqual(read("https://api.example.com/a/./b"), 26);
  strictEqual(read("https://api.example.com/{{x}}"), 24);
});

Deno.test("a value `.` or `..` in a URL's path is not sent to another path: the run fails with Dandori.BadInput before the call, and `on failure` does not run", () => {
  const flow = `workflow w v1

inputs
  order : string
  a     : string

task refund(order: string)
  http POST "https://payments.example.com/v1/charges/{order}/refund"

task close(a: string, b: string)
  http POST "https://payments.example.com/v1/pairs/{a}{b}/close?why={b}"

task note(text: string)
  http POST "https://payments.example.com/v1/notes"

flow
  refund(order: order)
  close(a: a, b: ".")

on failure
  note(text: "failed")
`;
  const run = (order: string, a: string, answered = 0) => {
    const answers = Array.from({ length: answered }, () => ({ ok: null }));
    const scenario = JSON.stringify({ name: "r", input: { order, a }, answers });
    const r = runCli(["dandori", "run", "w.flow", "--scenario", "s.json", "--format", "json"], {
      files: { "w.flow": flow, "s.json": scenario },
    });
    strictEqual(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    return {
      sent: out.calls.map((c: { view: { http: { url: string } } }) => c.view.http.url),
      ending: out.ending,
    };
  };
  const refused = (line: number, task: string) => ({
    fail: {
      error: "Dandori.BadInput",
      reason: `line ${line}: a value given to ${task} makes a path segment . or .. in its URL`,
    },
  });
  deepStrictEqual(run("..", "x"), { sent: [], ending: refused(17, "refund") });
  deepStrictEqual(run(".", "x"), { sent: [], ending: refused(17, "refund") });
  // Together, `{a}{b}` make `..`; alone, neither does.
  deepStrictEqual(run("o-1", ".", 1).ending, refused(18, "close"));
  deepStrictEqual(run("%2e%2e", "x", 2), {
    sent: [
      "https://payments.example.com/v1/charges/%252e%252e/refund",
      "https://payments.example.com/v1/pairs/x./close?why=.",
    ],
    ending: { succeed: null },
  });
});

Deno.test("tests/vectors/dot_segment.json is the WHATWG URL parser's reading: a dot segment exactly where it rewrites the path", () => {
  const vectors = JSON.parse(Deno.readTextFileSync(new URL("../vectors/dot_segment.json", import.meta.url)));
  for (const c of vectors.cases as { url: string; dot: boolean }[]) {
    const afterHost = c.url.slice(c.url.indexOf("//") + 2);
    const path = /^[^/?]*(\/[^?]*)?/.exec(afterHost)?.[1] ?? "/";
    strictEqual(new URL(c.url).pathname !== path, c.dot, c.url);
  }
});
