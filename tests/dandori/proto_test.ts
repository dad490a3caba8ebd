/**
 * `use proto` (lang/dandori/proto.ts, docs/dandori.md#api-descriptions): how a `.proto` is read (a
 * missing file, an absolute path, not UTF-8, not proto3, not parsed: each one E016 at the `use`; only
 * `url` under it), what it imports (well-known types without files, a file beside it or at buf's module
 * root, one that cannot be read named where a type it would give is met), and what the match says
 * beyond the golden flows (`proto_models.flow`, `proto_calls.flow`): an API no `use proto` declares, a
 * message that contains itself (bounded), the items a `connect` task does not take.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { MAX_MESSAGE_DEPTH, MAX_PROTO_FILES } from "../../lang/dandori/proto.ts";
import { runCli } from "../support/run.ts";

interface Diag {
  readonly code: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
}

const PROTO = `syntax = "proto3";
package shop.v1;
import "google/protobuf/timestamp.proto";
service Stock { rpc Get(GetRequest) returns (Item); rpc Walk(Node) returns (Node); }
message GetRequest { string sku = 1; }
message Item { string sku = 1; google.protobuf.Timestamp at = 2; }
message Node { string name = 1; Node next = 2; }
`;

const HEAD = "workflow w v1\n";
const USE = 'use proto shop from "specs/shop.proto"\n  url "https://shop.example"\n';
const TAIL = "\nflow\n  pass\n";

function check(flow: string, files: Record<string, string | Uint8Array> = { "specs/shop.proto": PROTO }) {
  const run = runCli(["dandori", "check", "repo/w.flow", "--format", "json"], {
    files: {
      "repo/w.flow": flow,
      ...Object.fromEntries(Object.entries(files).map(([p, v]) => [`repo/${p}`, v])),
    },
  });
  const diags: Diag[] = JSON.parse(run.stdout).files[0].diagnostics;
  return { code: run.code, diags };
}

function only(flow: string, files?: Record<string, string | Uint8Array>): Diag {
  const { diags } = check(flow, files);
  strictEqual(diags.length, 1, JSON.stringify(diags, null, 1));
  return diags[0];
}

/** A flow of `use proto shop` and one task `t` called by `connect shop "<method>"`. */
function task(line: string, items = '  connect shop "Stock/Get"\n', before = ""): string {
  return `${HEAD}${USE}${before}\ntask t${line}\n${items}${TAIL}`;
}

Deno.test("a .proto that cannot be read is one E016 at the `use`'s path, saying why", () => {
  const cases: [Record<string, string | Uint8Array>, string][] = [
    [{}, "there is no such file"],
    [{ "specs/shop.proto": new Uint8Array([0x73, 0xff, 0xfe]) }, "it is not UTF-8"],
    [
      { "specs/shop.proto": 'syntax = "proto2";\nmessage A { optional string a = 1; }\n' },
      "it is not proto3",
    ],
    [{ "specs/shop.proto": 'edition = "2023";\nmessage A { string a = 1; }\n' }, "it is not proto3"],
    [{ "specs/shop.proto": 'syntax = "proto3";\nmessage A { string a = 1 }\n' }, "specs/shop.proto: "],
  ];
  for (const [files, why] of cases) {
    const d = only(`${HEAD}${USE}${TAIL}`, files);
    deepStrictEqual([d.code, d.line, d.col], ["E016", 2, 21], why);
    ok(d.message.startsWith('the proto description "specs/shop.proto" cannot be read: '), d.message);
    ok(d.message.includes(why), `${why}: ${d.message}`);
  }
  const absolute = only(`${HEAD}use proto shop from "/etc/shop.proto"\n${TAIL}`);
  ok(absolute.message.endsWith("cannot be read: the path is absolute"), absolute.message);
});

Deno.test("only `url` is written under `use proto` (E007); a clean `use proto` says nothing", () => {
  const item = only(
    `${HEAD}${USE}  connection "arn:aws:events:ap-northeast-1:123456789012:connection/x/y"\n${TAIL}`,
  );
  deepStrictEqual([item.code, item.line], ["E007", 4]);
  deepStrictEqual(check(`${HEAD}${USE}${TAIL}`).diags, []);
});

Deno.test("a task that fits its method is checked clean", () => {
  const { code, diags } = check(
    task("(sku: string) -> Item", undefined, "\nrecord Item\n  sku : string\n  at  : timestamp?\n"),
  );
  strictEqual(code, 0);
  deepStrictEqual(diags, []);
});

Deno.test("imports: a file at buf's module root or beside the file is read; one that cannot be read is named where its type is met", () => {
  const common = 'syntax = "proto3";\npackage shop.v1;\nmessage Money { int32 units = 1; }\n';
  const importing = `syntax = "proto3";
package shop.v1;
import "shop/v1/money.proto";
import "google/api/annotations.proto";
service Stock { rpc Price(PriceRequest) returns (Money); rpc Odd(PriceRequest) returns (Gone); }
message PriceRequest { string sku = 1; }
`;
  const use = 'use proto shop from "specs/shop/v1/shop.proto"\n  url "https://shop.example"\n';
  const files = { "specs/shop/v1/shop.proto": importing, "specs/shop/v1/money.proto": common };
  const price =
    `${HEAD}${use}\nrecord Money\n  units : int\n\ntask t(sku: string) -> Money\n  connect shop "Stock/Price"\n${TAIL}`;
  deepStrictEqual(check(price, files).diags.map((d) => d.code), []);
  const odd = only(price.replace("Stock/Price", "Stock/Odd"), files);
  strictEqual(odd.code, "E016");
  ok(odd.message.includes("google/api/annotations.proto could not be read"), odd.message);
});

Deno.test("an API no `use proto` declares is E002; a message that contains itself is matched without end", () => {
  const unknown = only(task("(sku: string)", '  connect shoo "Stock/Get"\n'));
  deepStrictEqual([unknown.code, unknown.line], ["E002", 6]);
  ok(unknown.message.includes("`shoo`"), unknown.message);
  const node = "\nrecord Node\n  name : string\n  next : json?\n";
  deepStrictEqual(
    check(task("(name: string) -> Node", '  connect shop "Stock/Walk"\n', node)).diags.map((d) => d.code),
    ["E016"],
  );
});

Deno.test("a `connect` task takes `key` and Connect codes of distinct HTTP statuses, not `key <argument>`, a callback or `plaintext` (E007)", () => {
  for (const item of ["  key sku\n", "  callback\n", '  plaintext "test server"\n']) {
    const d = only(task("(sku: string)", `  connect shop "Stock/Get"\n${item}`));
    strictEqual(d.code, "E007", item);
  }
  deepStrictEqual(
    check(task("(sku: string)", '  connect shop "Stock/Get"\n  key\n  errors missing = not_found\n')).diags
      .map((d) => d.code),
    [],
  );
  const apart = only(
    task(
      "(sku: string)",
      '  connect shop "Stock/Get"\n  errors bad = invalid_argument, late = out_of_range\n',
    ),
  );
  deepStrictEqual([apart.code, apart.line], ["E007", 7]);
  ok(apart.message.includes("`bad` names a code of the same HTTP status (400)"), apart.message);
});

Deno.test("a .proto that imports more than MAX_PROTO_FILES - 1 files is refused, saying so; one nested too deep is not parsed", () => {
  const many = Array.from({ length: MAX_PROTO_FILES }, (_, i) => `import "f${i}.proto";`).join("\n");
  const d = only(`${HEAD}${USE}${TAIL}`, { "specs/shop.proto": `syntax = "proto3";\n${many}\n` });
  ok(d.message.includes(`more than ${MAX_PROTO_FILES - 1} files (MAX_PROTO_FILES)`), d.message);
  const deep = `syntax = "proto3";\n${"message M { ".repeat(5000)}${"}".repeat(5000)}\n`;
  const nested = only(`${HEAD}${USE}${TAIL}`, { "specs/shop.proto": deep });
  ok(nested.message.includes("cannot be read: specs/shop.proto: "), nested.message);
});

Deno.test("reaching MAX_MESSAGE_DEPTH is said: records nested deeper, and a service in a package nested deeper", () => {
  const node = 'syntax = "proto3";\npackage shop.v1;\nservice Stock { rpc Walk(Node) returns (Node); }\n' +
    "message Node { string name = 1; Node next = 2; }\n";
  const records = Array.from(
    { length: MAX_MESSAGE_DEPTH + 2 },
    (_, i) => `record R${i}\n  name : string\n${i <= MAX_MESSAGE_DEPTH ? `  next : R${i + 1}?\n` : ""}`,
  ).join("");
  const deep = only(task("(name: string) -> R0", '  connect shop "Stock/Walk"\n', `\n${records}`), {
    "specs/shop.proto": node,
  });
  strictEqual(deep.code, "E016");
  ok(deep.message.includes(`nest more than ${MAX_MESSAGE_DEPTH} deep (MAX_MESSAGE_DEPTH)`), deep.message);
  const pkg = Array.from({ length: MAX_MESSAGE_DEPTH + 2 }, (_, i) => `p${i}`).join(".");
  const nested =
    `syntax = "proto3";\npackage ${pkg};\nservice Stock { rpc Get(GetRequest) returns (GetRequest); }\n` +
    "message GetRequest { string sku = 1; }\n";
  const hidden = only(task("(sku: string)"), { "specs/shop.proto": nested });
  strictEqual(hidden.code, "E016");
  ok(hidden.message.includes("were not searched"), hidden.message);
});
