/**
 * `use openapi` (lang/dandori/openapi.ts, docs/dandori.md#api-descriptions): how a description is
 * read (a missing file, an absolute path, a link out of the repository, a file too large, JSON nested
 * too deep or malformed, YAML, another version: each one E016 at the `use` line), what the match says
 * beyond the golden flows (`$ref` outside the document, `anyOf`, `form`, an unknown API), and what a
 * matched task lowers to (URL, method, query or body, form).
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { MAX_INPUT_BYTES } from "../../commands/io.ts";
import { MAX_JSON_DEPTH } from "../../lang/common/json.ts";
import { MAX_REF_CHAIN } from "../../lang/dandori/openapi_schemas.ts";
import { runCli } from "../support/run.ts";

interface Diag {
  readonly code: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
  readonly notes: readonly string[];
}

const INTENT = {
  type: "object",
  required: ["id", "status"],
  properties: {
    id: { type: "string" },
    status: { type: "string", enum: ["open", "paid"] },
    payer: {
      anyOf: [{ type: "string" }, { type: "object", properties: { id: { type: "string" } } }],
    },
    note: { oneOf: [{ type: "string" }, { type: "integer" }] },
  },
};

/** A description with one operation of each kind the tests call. */
function description(extra: Record<string, unknown> = {}): string {
  const ok200 = (schema: unknown) => ({
    "200": { description: "ok", content: { "application/json": { schema } } },
  });
  return JSON.stringify({
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    servers: [{ url: "https://{region}.pay.example/api", variables: { region: { default: "eu" } } }],
    paths: {
      "/intents": {
        post: {
          requestBody: {
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["amount"],
                  properties: {
                    amount: { type: "integer", minimum: 1 },
                    payer: { $ref: "#/components/schemas/payer" },
                    meta: { type: "object", additionalProperties: { type: "string" } },
                    address: { type: "object", properties: { city: { type: "string" } } },
                  },
                },
              },
            },
          },
          responses: ok200({ $ref: "#/components/schemas/intent" }),
        },
      },
      "/intents/{id}": {
        get: {
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string" } },
            { name: "expand", in: "query", schema: { type: "string" } },
          ],
          responses: ok200({ $ref: "#/components/schemas/intent" }),
        },
      },
      "/intents/{id}/pay": {
        post: {
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          requestBody: {
            content: {
              "application/x-www-form-urlencoded": {
                schema: {
                  type: "object",
                  properties: {
                    method: { type: "string" },
                    tags: { type: "array", items: { type: "string" } },
                  },
                },
              },
            },
          },
          responses: ok200({ $ref: "#/components/schemas/intent" }),
        },
      },
      "/far": {
        get: { responses: ok200({ $ref: "other.json#/components/schemas/intent" }) },
      },
      "/loop": {
        get: { responses: ok200({ $ref: "#/components/schemas/loop" }) },
      },
      "/never": {
        get: { responses: ok200(false) },
      },
      "/members": {
        post: {
          requestBody: {
            content: {
              "application/json": {
                schema: {
                  allOf: [{ $ref: "#/components/schemas/person" }, {
                    properties: { name: { type: "string" } },
                  }],
                },
              },
            },
          },
          responses: ok200({ type: "string" }),
        },
      },
      "/free": {
        post: {
          requestBody: { content: { "application/json": { schema: { type: "object" } } } },
          responses: ok200({ type: "string" }),
        },
      },
      "/near": {
        servers: [{ url: "https://near.pay.example" }],
        get: { responses: ok200({ type: "string" }) },
      },
      "/signed": {
        servers: [{ url: "https://signed.pay.example" }],
        get: {
          parameters: [{ name: "X-Signature", in: "header", required: true, schema: { type: "string" } }],
          responses: ok200({ type: "string" }),
        },
      },
    },
    components: {
      schemas: {
        intent: INTENT,
        loop: { $ref: "#/components/schemas/loop" },
        person: {
          type: "object",
          required: ["email"],
          properties: { email: { type: "string", format: "date" } },
        },
        payer: { anyOf: [{ type: "string" }, { type: "object", properties: { email: { type: "string" } } }] },
      },
    },
    ...extra,
  });
}

const HEAD = "workflow w v1\n";
const USE = 'use openapi pay from "specs/pay.json"\n';
const TAIL = "\nflow\n  pass\n";

function check(
  flow: string,
  files: Record<string, string | Uint8Array> = { "specs/pay.json": description() },
  more: { links?: Record<string, string>; repository?: string } = {},
): { code: number; diags: Diag[] } {
  const run = runCli(["dandori", "check", "shop/w.flow", "--format", "json"], {
    files: {
      "shop/w.flow": flow,
      ...Object.fromEntries(Object.entries(files).map(([p, v]) => [`shop/${p}`, v])),
    },
    ...more,
  });
  return { code: run.code, diags: JSON.parse(run.stdout).files[0].diagnostics };
}

function only(flow: string, files?: Record<string, string | Uint8Array>): Diag {
  const { diags } = check(flow, files);
  strictEqual(diags.length, 1, JSON.stringify(diags, null, 1));
  return diags[0];
}

Deno.test("a description that cannot be read is one E016 at the `use`'s path, saying why", () => {
  const cases: [Record<string, string | Uint8Array>, string][] = [
    [{}, "there is no such file"],
    [{ "specs/pay.json": '{\n  "openapi": "3.0.0",\n  "paths": {,}\n}' }, "it is not JSON (3:13"],
    [
      { "specs/pay.json": `${"[".repeat(MAX_JSON_DEPTH + 1)}${"]".repeat(MAX_JSON_DEPTH + 1)}` },
      `more than ${MAX_JSON_DEPTH} deep`,
    ],
    [{ "specs/pay.json": '{"swagger": "2.0", "paths": {}}' }, "dandori reads OpenAPI 3.0 and 3.1"],
    [{ "specs/pay.json": '{"openapi": "3.1.0"}' }, "it has no `paths` object"],
    [{ "specs/pay.json": "[]" }, "it is not a JSON object"],
  ];
  for (const [files, why] of cases) {
    const d = only(`${HEAD}${USE}${TAIL}`, files);
    deepStrictEqual([d.code, d.line, d.col], ["E016", 2, 22], why);
    ok(d.message.startsWith('the OpenAPI description "specs/pay.json" cannot be read: '), d.message);
    ok(d.message.includes(why), `${why}: ${d.message}`);
  }
  const yaml = only(`${HEAD}use openapi pay from "specs/pay.yaml"\n${TAIL}`, {
    "specs/pay.yaml": "openapi: 3.1.0\n",
  });
  ok(yaml.message.includes("it is YAML, and dandori reads OpenAPI descriptions as JSON only"), yaml.message);
  const absolute = only(`${HEAD}use openapi pay from "/etc/pay.json"\n${TAIL}`);
  ok(absolute.message.endsWith("cannot be read: the path is absolute"), absolute.message);
});

Deno.test("on disk: a description larger than the input limit is one E016 naming the limit", () => {
  const dir = Deno.makeTempDirSync({ dir: new URL("../../", import.meta.url).pathname });
  try {
    Deno.writeTextFileSync(`${dir}/w.flow`, `${HEAD}${USE}${TAIL}`);
    Deno.mkdirSync(`${dir}/specs`);
    const f = Deno.openSync(`${dir}/specs/pay.json`, { write: true, create: true });
    f.truncateSync(MAX_INPUT_BYTES + 1);
    f.close();
    const run = runCli(["dandori", "check", `${dir}/w.flow`, "--format", "json"]);
    const diags: Diag[] = JSON.parse(run.stdout).files[0].diagnostics;
    deepStrictEqual(diags.map((d) => [d.code, d.line]), [["E016", 2]]);
    ok(
      diags[0].message.includes(`is larger than the ${MAX_INPUT_BYTES} bytes an input may have`),
      diags[0].message,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a description is read beside the flow; a link out of the repository is refused, one inside is read", () => {
  const beside = runCli(["dandori", "check", "shop/w.flow"], {
    files: {
      "shop/w.flow": `${HEAD}use openapi pay from "../common/pay.json"\n${TAIL}`,
      "common/pay.json": description(),
    },
  });
  strictEqual(beside.stdout, "shop/w.flow: ok\n");
  const out = runCli(["dandori", "check", "shop/w.flow"], {
    files: {
      "shop/w.flow": `${HEAD}use openapi pay from "linked/pay.json"\n${TAIL}`,
      "outside/pay.json": description(),
    },
    links: { "shop/linked": "../outside" },
    repository: "/memory/shop",
  });
  strictEqual(out.code, 1);
  ok(out.stdout.includes("E016"), out.stdout);
  ok(out.stdout.includes("is /memory/outside/pay.json, outside the repository /memory/shop"), out.stdout);
  const inside = check(`${HEAD}use openapi pay from "linked/pay.json"\n${TAIL}`, {
    "specs/pay.json": description(),
  }, {
    links: { "shop/linked": "specs" },
    repository: "/memory/shop",
  });
  deepStrictEqual(inside.diags, []);
});

Deno.test("a description without a server needs `url`; only `url` is written under `use openapi`", () => {
  const bare = { "specs/pay.json": description({ servers: [] }) };
  const d = only(`${HEAD}${USE}${TAIL}`, bare);
  deepStrictEqual([d.code, d.line], ["E016", 2]);
  ok(d.message.includes("names no server"), d.message);
  deepStrictEqual(check(`${HEAD}${USE}  url "https://pay.example"\n${TAIL}`, bare).diags, []);
  const item = only(`${HEAD}${USE}  plaintext "inside"\n${TAIL}`);
  deepStrictEqual([item.code, item.line], ["E007", 3]);
});

Deno.test("`$ref` outside the document, `form`, an unknown API, and a URL the server makes wrong", () => {
  const far = only(`${HEAD}${USE}task f() -> json\n  http GET pay "/far"\n${TAIL}`);
  deepStrictEqual([far.code, far.line], ["E016", 3]);
  ok(
    far.message.includes('`$ref` "other.json#/components/schemas/intent" points outside the description'),
    far.message,
  );
  deepStrictEqual(far.notes, [
    "in the description `pay` at #/paths/~1far/get/responses/200/content/application~1json/schema",
  ]);
  const form = only(`${HEAD}${USE}task f(id: string)\n  http POST pay "/intents/{id}/pay" form\n${TAIL}`);
  deepStrictEqual([form.code, form.line, form.col], ["E007", 4, 37]);
  const unpassed = only(`${HEAD}${USE}task f() -> json\n  http POST pay "/intents/{id}/pay"\n${TAIL}`);
  deepStrictEqual([unpassed.code, unpassed.line, unpassed.col], ["E016", 3, 6]);
  ok(
    unpassed.message.endsWith("the task has no argument `id` for the path parameter `{id}`"),
    unpassed.message,
  );
  const unknown = only(`${HEAD}${USE}task f(id: string)\n  http POST pai "/intents/{id}/pay"\n${TAIL}`);
  deepStrictEqual([unknown.code, unknown.line, unknown.col, unknown.message], [
    "E002",
    4,
    13,
    "there is no API `pai`",
  ]);
  const spaced = only(
    `${HEAD}${USE}  url "https://pay.example/a b"\ntask f(id: string)\n  http POST pay "/intents/{id}/pay"\n${TAIL}`,
  );
  deepStrictEqual([spaced.code, spaced.line, spaced.col], ["E016", 5, 17]);
  ok(spaced.message.includes("https://pay.example/a b/intents/{id}/pay"), spaced.message);
});

Deno.test("a `$ref` loop stops at MAX_REF_CHAIN; `false` takes nothing; a required header cannot be sent", () => {
  const loop = only(`${HEAD}${USE}task f() -> json\n  http GET pay "/loop"\n${TAIL}`);
  ok(
    loop.message.includes(`more than ${MAX_REF_CHAIN} \`$ref\`s in a row: the description loops`),
    loop.message,
  );
  const never = only(`${HEAD}${USE}task f() -> json\n  http GET pay "/never"\n${TAIL}`);
  ok(never.message.includes("the description allows no value here (`false`)"), never.message);
  const header = only(`${HEAD}${USE}task f() -> string\n  http GET pay "/signed"\n${TAIL}`);
  deepStrictEqual([header.code, header.line, header.col], ["E016", 3, 6]);
  ok(
    header.message.includes("requires the header parameter `X-Signature`, which an `http` task cannot send"),
    header.message,
  );
});

Deno.test("`allOf` is one schema: its members' properties and required names together", () => {
  const task = (params: string) =>
    `${HEAD}${USE}task f(${params}) -> string\n  http POST pay "/members"\n${TAIL}`;
  deepStrictEqual(check(task("email: date, name: string")).diags, []);
  const lacking = only(task("name: string"));
  ok(
    lacking.message.includes("the task does not pass `email`, which the operation requires (in the body)"),
    lacking.message,
  );
  const typed = only(task("email: string, name: string"));
  deepStrictEqual(typed.notes, ["in the description `pay` at #/components/schemas/person/properties/email"]);
});

Deno.test("a plain-HTTP `url` is W902 unless the task says why with `plaintext`, which an https server refuses", () => {
  const task = (use: string, item: string) =>
    `${HEAD}${use}task f(id: string) -> json\n  http GET pay "/intents/{id}"\n${item}flow\n  let x = f(id: "a")\n`;
  const plain = `${USE}  url "http://pay.internal"\n`;
  deepStrictEqual(check(task(plain, "")).diags.map((d) => [d.code, d.line]), [["W902", 5]]);
  deepStrictEqual(check(task(plain, '  plaintext "inside the mesh"\n')).diags, []);
  const https = only(task(USE, '  plaintext "inside the mesh"\n'));
  deepStrictEqual([https.code, https.line], ["E007", 5]);
});

Deno.test("a record argument: its fields are the object's properties, or go to `additionalProperties`", () => {
  const task = (fields: string, arg: string) =>
    `${HEAD}${USE}record R\n${fields}task f(amount: int range >=1 <=9, ${arg}) -> json\n  http POST pay "/intents"\n${TAIL}`;
  deepStrictEqual(check(task("  note : string\n", "meta: R")).diags, []);
  const typed = only(task("  count : int\n", "meta: R"));
  deepStrictEqual(typed.notes, [
    "in the description `pay` at #/paths/~1intents/post/requestBody/content/application~1json/schema/properties/meta/additionalProperties",
  ]);
  deepStrictEqual(check(task("  email : string\n", "payer: R")).diags, []);
  const misspelt = only(task("  town : string\n", "address: R"));
  ok(misspelt.message.includes("`R` has the field `town`, which is not taken here"), misspelt.message);
});

Deno.test("names an object's prototype has are no parameters, properties or fields of a description", () => {
  const body = only(
    `${HEAD}${USE}task f(constructor: string) -> string\n  http POST pay "/free"\n${TAIL}`,
  );
  ok(body.message.endsWith("the operation takes no argument `constructor`"), body.message);
  const query = only(
    `${HEAD}${USE}task f(id: string, toString: string) -> json\n  http GET pay "/intents/{id}"\n${TAIL}`,
  );
  ok(query.message.endsWith("the operation takes no argument `toString`"), query.message);
  const path = only(`${HEAD}${USE}task f() -> json\n  http GET pay "/__proto__"\n${TAIL}`);
  ok(path.message.endsWith("the description has no operation GET /__proto__"), path.message);
});

Deno.test("the servers nearest the operation win, and `url` replaces them all", () => {
  const urlOf = (use: string, path: string) => {
    const run = runCli(["dandori", "plan", "shop/w.flow"], {
      files: {
        "shop/w.flow": `${HEAD}${use}task f() -> string\n  http GET pay "${path}"\nflow\n  let x = f()\n`,
        "shop/specs/pay.json": description(),
      },
    });
    strictEqual(run.code, 0, run.stdout + run.stderr);
    return JSON.parse(run.stdout).tasks[0].callee.url;
  };
  deepStrictEqual(urlOf(USE, "/near"), [{ text: "https://near.pay.example/near" }]);
  deepStrictEqual(urlOf(`${USE}  url "https://pay.test/"\n`, "/near"), [{ text: "https://pay.test/near" }]);
});

Deno.test("a record, list or json argument in a form body or a query is refused, not sent as JSON text", () => {
  const form = only(
    `${HEAD}${USE}task f(id: string, tags: list[string]) -> json\n  http POST pay "/intents/{id}/pay"\n${TAIL}`,
  );
  deepStrictEqual([form.code, form.line, form.col], ["E016", 3, 20]);
  ok(
    form.message.includes("`tags` goes into the form, where dandori sends a `list[string]` as its JSON text"),
    form.message,
  );
  const query = only(
    `${HEAD}${USE}task f(id: string, expand: json) -> json\n  http GET pay "/intents/{id}"\n${TAIL}`,
  );
  ok(query.message.includes("`expand` goes into the query"), query.message);
});

Deno.test("`anyOf`: an argument fits one alternative; a result must read every one", () => {
  const fits =
    `${HEAD}${USE}task f(amount: int range >=1 <=9, payer: string) -> json\n  http POST pay "/intents"\n${TAIL}`;
  deepStrictEqual(check(fits).diags, []);
  const none = only(
    `${HEAD}${USE}task f(amount: int range >=1 <=9, payer: bool) -> json\n  http POST pay "/intents"\n${TAIL}`,
  );
  ok(
    none.message.includes(
      "`bool` does not fit what the operation takes here: it fits none of its alternatives",
    ),
    none.message,
  );
  const reads = only(
    `${HEAD}${USE}record R\n  id : string\n  note : string?\ntask f(id: string) -> R\n  http GET pay "/intents/{id}"\n${TAIL}`,
  );
  deepStrictEqual([reads.code, reads.line], ["E016", 5]);
  ok(reads.message.includes("cannot be read as `string`: it is integer"), reads.message);
  deepStrictEqual(reads.notes, [
    "in the description `pay` at #/components/schemas/intent/properties/note/oneOf/1",
  ]);
});

Deno.test("a matched task lowers to the server and path, the method, the query or the body, and the form the description says", () => {
  const flow = `${HEAD}${USE}task make(amount: int range >=1 <=9) -> json
  http POST pay "/intents"
task look(id: string, expand: string) -> json
  http GET pay "/intents/{id}"
task settle(id: string, method: string) -> json
  http POST pay "/intents/{id}/pay"
flow
  let a = make(amount: 1)
  let b = look(id: "x", expand: "payer")
  let c = settle(id: "x", method: "card")
`;
  const run = runCli(["dandori", "plan", "shop/w.flow"], {
    files: { "shop/w.flow": flow, "shop/specs/pay.json": description() },
  });
  strictEqual(run.code, 0, run.stdout + run.stderr);
  const plan = JSON.parse(run.stdout);
  const callee = (name: string) => plan.tasks.find((t: { name: string }) => t.name === name).callee;
  deepStrictEqual(callee("make"), {
    kind: "http",
    method: "POST",
    url: [{ text: "https://eu.pay.example/api/intents" }],
    form: false,
    rest: ["amount"],
    restIn: "body",
    connect: null,
  });
  deepStrictEqual(callee("look"), {
    kind: "http",
    method: "GET",
    url: [{ text: "https://eu.pay.example/api/intents/" }, { param: "id" }],
    form: false,
    rest: ["expand"],
    restIn: "query",
    connect: null,
  });
  deepStrictEqual(callee("settle").form, true);
  deepStrictEqual(callee("settle").restIn, "body");
});
