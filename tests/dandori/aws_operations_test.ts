/**
 * `aws <service>:<operation>` names an operation of the service's API (docs/dandori.md#aws-operations):
 * the table `lang/dandori/aws_operations.ts` is botocore 1.43.11's service models for the services
 * of Step Functions' table (aws.ts), read again here when that botocore is installed (and written
 * anew with `RITSU_BLESS=1`); `aws s3:generatePresignedPost`, a helper of the SDK that hands out
 * the worker's credentials, is E007 with the spelling of what is near; and the Python and TypeScript
 * runtimes call only an operation of the service's model (boto3's method for it, the client's
 * command), refusing any other client method before anything is sent.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { AWS_MODELS } from "../../lang/dandori/aws_operations.ts";
import { AWS_SERVICES } from "../../lang/dandori/aws.ts";
import { assertGolden } from "../support/golden.ts";
import { runCli } from "../support/run.ts";
import { RUNTIME } from "../../targets/dandori/pydantic_graph/runtimes.ts";
import { IO_RUNTIME, RULES } from "../../targets/dandori/python/runtimes.ts";
import { IO_RUNTIME as TS_IO_RUNTIME } from "../../targets/dandori/temporal/runtimes.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const TABLE = `${ROOT}lang/dandori/aws_operations.ts`;
const BOTOCORE = "1.43.11";

/** Each service's botocore model found by its `serviceId` (Step Functions writes it in lower case, without spaces). */
const READ_MODELS = `
import json, re, sys
import botocore, botocore.session
if botocore.__version__ != sys.argv[1]:
    print(json.dumps({"version": botocore.__version__}))
    sys.exit(0)
session = botocore.session.get_session()
by_id = {}
for name in session.get_available_services():
    model = session.get_service_model(name)
    key = re.sub(r"[^a-z0-9]", "", model.metadata.get("serviceId", "").lower())
    for k in {key, re.sub(r"service$", "", key), name.replace("-", "")}:
        by_id.setdefault(k, set()).add(name)
out = {}
for service in json.loads(sys.argv[2]):
    found = sorted(by_id.get(service, set()))
    if len(found) > 1:
        found = [n for n in found if n.replace("-", "") == service] or found[:1]
    if found:
        names = session.get_service_model(found[0]).operation_names
        out[service] = {"model": found[0], "operations": sorted(n[0].lower() + n[1:] for n in names)}
print(json.dumps({"version": botocore.__version__, "services": out}))
`;

/** The module's text for the models read. */
function table(models: Record<string, { model: string; operations: string[] }>): string {
  const lines = [
    "/**",
    " * The operations of each AWS service's API, as Step Functions' AWS SDK integrations name them",
    " * (`arn:aws:states:::aws-sdk:<service>:<operation>`, the operation in camelCase): an `aws` task",
    " * calls one of them or is E007 (docs/dandori.md#aws-operations). Read from the service models of",
    ` * ${AWS_MODELS}, the Smithy models every AWS SDK is generated from, for the services of aws.ts`,
    " * (each by its model's `serviceId`); a service of that table whose model botocore no longer has",
    " * (a service AWS discontinued) has none. Written by tests/dandori/aws_operations_test.ts",
    " * (`RITSU_BLESS=1`), which reads the models again when that botocore is installed.",
    " * @module",
    " */",
    "",
    "/** Where the operations were read from. */",
    `export const AWS_MODELS = ${JSON.stringify(AWS_MODELS)};`,
    "",
    "/** Service → its operations, space-separated, in lines of the module. */",
    "const OPERATIONS: { readonly [service: string]: readonly string[] } = {",
  ];
  for (const service of [...AWS_SERVICES.keys()].sort()) {
    const m = models[service];
    if (m === undefined) continue;
    const chunks: string[] = [];
    let line = "";
    for (const op of m.operations) {
      if (line !== "" && line.length + op.length + 1 > 104) {
        chunks.push(line);
        line = "";
      }
      line = line === "" ? op : `${line} ${op}`;
    }
    if (line !== "") chunks.push(line);
    const key = /^[a-z][a-z0-9]*$/.test(service) ? service : JSON.stringify(service);
    lines.push(`  ${key}: [`, ...chunks.map((c) => `    ${JSON.stringify(c)},`), "  ],");
  }
  lines.push(
    "};",
    "",
    "/** The operations of `service`'s API; none for a service whose model is not known. */",
    "export function awsOperations(service: string): ReadonlySet<string> {",
    '  return new Set(Object.hasOwn(OPERATIONS, service) ? OPERATIONS[service].join(" ").split(" ") : []);',
    "}",
    "",
  );
  return lines.join("\n");
}

Deno.test(`the table of operations is ${AWS_MODELS}'s service models for Step Functions' services`, async () => {
  const run = await new Deno.Command("python3", {
    args: ["-c", READ_MODELS, BOTOCORE, JSON.stringify([...AWS_SERVICES.keys()])],
    stdout: "piped",
    stderr: "piped",
  }).output().catch(() => null);
  if (run === null || !run.success) {
    return console.log(`SKIP: botocore: python3 cannot import it (pip install botocore==${BOTOCORE})`);
  }
  const read = JSON.parse(new TextDecoder().decode(run.stdout));
  if (read.version !== BOTOCORE) {
    return console.log(`SKIP: botocore: ${read.version} is installed, the table was read from ${BOTOCORE}`);
  }
  strictEqual(AWS_MODELS, `botocore ${BOTOCORE}`);
  assertGolden(TABLE, table(read.services));
  const known = Object.keys(read.services).length;
  ok(known >= 240, `${known} of ${AWS_SERVICES.size} services have a model`);
  console.log(
    `aws operations: ${known} of ${AWS_SERVICES.size} services have a model in botocore ${BOTOCORE}`,
  );
});

function check(item: string): string[] {
  const flow = `workflow w v1\n\ntask t(Bucket: string)\n  ${item}\n\nflow\n  t(Bucket: "b")\n`;
  const run = runCli(["dandori", "check", "w.flow", "--format", "json"], { files: { "w.flow": flow } });
  return JSON.parse(run.stdout).files[0].diagnostics.map((
    d: { code: string; message: string; hint?: string },
  ) => `${d.code} ${d.message}${d.hint === undefined ? "" : ` / ${d.hint}`}`);
}

Deno.test("an operation the service's API does not have is E007: the SDK's helpers, a misspelling, a capital", () => {
  deepStrictEqual(check("aws s3:getObject"), []);
  deepStrictEqual(check("aws sfn:startSyncExecution"), []);
  deepStrictEqual(check("aws s3:generatePresignedPost"), [
    "E007 `s3` has no operation `generatePresignedPost` in its API (the SDKs' helpers, such as presigned URLs, paginators and waiters, are no operations) / Step Functions calls the operations of botocore 1.43.11's model of `s3`, in camelCase",
  ]);
  deepStrictEqual(check("aws s3:GetObject"), [
    "E007 `s3` has no operation `GetObject` in its API (the SDKs' helpers, such as presigned URLs, paginators and waiters, are no operations) / did you mean `getObject`?",
  ]);
  deepStrictEqual(check("aws sqs:sendMesage").length, 1);
});

Deno.test("the Python runtime calls an operation of the service's model by boto3's name, and refuses any other client method", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/dd`);
    await Deno.writeTextFile(`${dir}/dd/__init__.py`, "");
    await Deno.writeTextFile(`${dir}/dd/runtime.py`, RUNTIME);
    await Deno.writeTextFile(`${dir}/dd/rules.py`, RULES);
    await Deno.writeTextFile(`${dir}/dd/io.py`, `${IO_RUNTIME}\nBOOK_NAMES: dict[str, Any] = {}\n`);
    const script = `
import boto3, json
from dd import io
sts = boto3.client("sts", region_name="eu-west-2")
s3 = boto3.client("s3", region_name="eu-west-2")
out = {"saml": io._method(sts, "assumeRoleWithSAML"), "get": io._method(s3, "getObject")}
for op in ["generatePresignedPost", "generatePresignedUrl", "getPaginator", "close", "GetObject", "__init__"]:
    try:
        io._method(s3, op)
        out[op] = "called"
    except io.TaskFailure as e:
        out[op] = [e.kind, e.message]
print(json.dumps(out))
`;
    const run = await new Deno.Command("python3", {
      args: ["-c", script],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    })
      .output().catch(() => null);
    if (run === null) return console.log("SKIP: python3: not installed");
    const err = new TextDecoder().decode(run.stderr);
    if (!run.success && err.includes("No module named 'boto3'")) {
      return console.log("SKIP: boto3: not installed");
    }
    ok(run.success, err);
    deepStrictEqual(JSON.parse(new TextDecoder().decode(run.stdout)), {
      saml: "assume_role_with_saml",
      get: "get_object",
      generatePresignedPost: ["Error", "dandori: s3 has no operation generatePresignedPost in its API"],
      generatePresignedUrl: ["Error", "dandori: s3 has no operation generatePresignedUrl in its API"],
      getPaginator: ["Error", "dandori: s3 has no operation getPaginator in its API"],
      close: ["Error", "dandori: s3 has no operation close in its API"],
      GetObject: ["Error", "dandori: s3 has no operation GetObject in its API"],
      __init__: ["Error", "dandori: s3 has no operation __init__ in its API"],
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the TypeScript runtime sends only a command of the service's client: no helper, no capital", async () => {
  // io.ts is the runtime followed by the flow's book tables; a file beside the tests resolves its packages.
  const file = await Deno.makeTempFile({ dir: `${ROOT}tests/dandori`, prefix: ".io-", suffix: ".ts" });
  try {
    await Deno.writeTextFile(file, `${TS_IO_RUNTIME}\nconst BOOK_NAMES: { [book: string]: never } = {};\n`);
    const io = await import(file);
    const refusals: string[] = [];
    for (const op of ["paginateListQueues", "waitUntilQueueExists", "constructor", "SendMessage"]) {
      await io.transport().aws("sqs", op, {}).then(
        () => refusals.push(`${op}: sent`),
        (e: Error) => refusals.push(e.message),
      );
    }
    deepStrictEqual(refusals, [
      "dandori: sqs has no operation paginateListQueues in its API",
      "dandori: sqs has no operation waitUntilQueueExists in its API",
      "dandori: sqs has no operation constructor in its API",
      "dandori: sqs has no operation SendMessage in its API",
    ]);
  } finally {
    await Deno.remove(file);
  }
});
