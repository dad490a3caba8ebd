/**
 * `history encrypted` on Temporal, the three SDKs (docs/targets.md#the-payload-codec-of-history-encrypted):
 *
 * - the encrypted flows build on `temporal-typescript`, `temporal-python` and `temporal-go`, the
 *   same bytes twice; for every flow, declaring it adds the codec files and changes `client` and
 *   `worker` alone (and in Go `doc.go`, which names the protobuf module `codec.go` imports);
 * - their packages pass `tsc --strict`, `mypy --strict`, `ruff check` and `go vet` beside a program
 *   that gives them a codec, and one that does not is a type error at each of its calls;
 * - the TypeScript, the Python and the Go codec pass the shared vectors
 *   (`tests/vectors/payload_codec.json`: tampered payloads refused) and each reads the others' payloads;
 * - on a real dev server, each encrypted flow's scenarios (stub tasks, failures whose causes hold
 *   the secret) run on the TypeScript and the Python SDK to the interpreter's endings, every history
 *   replays with the codec, each SDK's client reads the other's endings, and the stored history
 *   (`temporal workflow show` and `describe`) and the query's raw payloads hold no secret in clear,
 *   in base64 or in any payload but the codec's, while decrypting them with the key finds the secret input.
 * - on a real dev server, the Go runner plays every scenario of the encrypted flows with a codec of
 *   the key the harness gives: each replays with it, and the histories stored hold no secret input and only
 *   the codec's payloads.
 *
 * That every generated scenario agrees step by step is the differential run's (`deno task verify
 * temporal-typescript`, `temporal-python`, `temporal-go`, and across SDKs `temporal-cross`).
 */

import { mypyCache } from "../support/mypy.ts";
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { stringifyJson } from "../../lang/common/json.ts";
import { runFlow } from "../../lang/dandori/interp.ts";
import type { Plan } from "../../lang/dandori/plan.ts";
import { endingJson } from "../../lang/dandori/run.ts";
import { answerJson, ScenarioAnswers } from "../../lang/dandori/scenario.ts";
import type { Answer } from "../../lang/dandori/interp.ts";
import { generateFlowScenarios } from "../../lang/dandori/scenarios.ts";
import type { Value } from "../../lang/dandori/values.ts";
import { type DandoriTarget, DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import { TEMPORAL_TYPESCRIPT } from "../../targets/dandori/temporal/target.ts";
import { CODEC as TS_CODEC, FAILURE } from "../../targets/dandori/temporal/runtimes.ts";
import { TEMPORAL_PYTHON } from "../../targets/dandori/temporal_python/target.ts";
import { TEMPORAL_GO } from "../../targets/dandori/temporal_go/target.ts";
import { CODEC as PY_CODEC } from "../../targets/dandori/temporal_python/runtimes.ts";
import { AesGcmCodec, CodecError, ENCODING } from "../../targets/dandori/temporal/runtime/codec.ts";
import { CODEC as GO_CODEC } from "../../targets/dandori/temporal_go/runtimes.ts";
import { runtimeBody } from "../../targets/dandori/temporal_go/go_text.ts";
import { checkedFlowAt, type RunnableFlow, runnableFlows } from "../../verify/dandori/flows.ts";
import { go, goModText, hasGo } from "../support/go_module.ts";
import { findTemporal, startTemporal } from "../../verify/services/temporal_server.ts";
import { subjectOf } from "../../verify/dandori/temporal.ts";
import { playFlow } from "../../verify/dandori/temporal_play.ts";
import { GO_SDK } from "../../verify/dandori/temporal_sdk.ts";
import { tsc } from "../support/tsc.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const ORIGIN = { file: "f.flow", path: "f.flow", text: "", sha: "0123456789abcdef", version: "test" };

/** The flows that write `history encrypted`. */
const ENCRYPTED = [
  "tests/dandori/flows/secret_encrypted.flow",
  "tests/dandori/flows/履歴の暗号化.flow",
  "tests/dandori/encrypted/sealed.flow",
];

/** Every test and example flow. */
const FLOW_DIRS = [
  "tests/dandori/flows/",
  "tests/dandori/pydantic_graph/",
  "tests/dandori/versions/",
  "tests/dandori/encrypted/",
  "examples/",
];

/** A file that is a runtime file after the header, as TypeScript and Python copy one. */
const copiedWhole = (runtime: string, file: string) => file.endsWith(`\n\n${runtime}`);

/** A Go file that is a runtime file but for its package clause, the description after that clause. */
function copiedGo(runtime: string, file: string): boolean {
  const clause = "\npackage dandori\n";
  const at = runtime.indexOf(clause);
  return at > 0 && file.includes(runtime.slice(0, at + 1)) &&
    file.endsWith(runtime.slice(at + clause.length));
}

/**
 * Each Temporal target: the files `history encrypted` adds (as the runtime holds them) before the
 * file `before`, how a package holds them, and the files it changes.
 */
const TARGETS: readonly {
  readonly target: DandoriTarget;
  readonly added: Readonly<Record<string, string>>;
  readonly copied: (runtime: string, file: string) => boolean;
  readonly before: string;
  readonly changed: readonly string[];
}[] = [
  {
    target: TEMPORAL_TYPESCRIPT,
    added: { "codec.ts": TS_CODEC, "failure.ts": FAILURE },
    copied: copiedWhole,
    before: "client.ts",
    changed: ["client.ts", "worker.ts"],
  },
  {
    target: TEMPORAL_PYTHON,
    added: { "codec.py": PY_CODEC },
    copied: copiedWhole,
    before: "client.py",
    changed: ["client.py", "worker.py"],
  },
  {
    // doc.go names google.golang.org/protobuf, which codec.go imports.
    target: TEMPORAL_GO,
    added: { "codec.go": GO_CODEC },
    copied: copiedGo,
    before: "client.go",
    changed: ["doc.go", "client.go", "worker.go"],
  },
];

function declared(plan: Plan, historyEncrypted: boolean): Plan {
  return { ...plan, workflow: { ...plan.workflow, historyEncrypted } };
}

function encryptedFlows(): RunnableFlow[] {
  return ENCRYPTED.map((p) => {
    const f = checkedFlowAt(ROOT, p);
    ok(f !== null, `${p} checks`);
    ok(f.plan.workflow.historyEncrypted, `${p} writes history encrypted`);
    return f;
  });
}

Deno.test("history encrypted builds on the three Temporal targets, the same bytes twice; for every flow it adds the codec files and changes client and worker alone (and doc.go's modules in Go)", () => {
  for (const f of encryptedFlows()) {
    for (const t of TARGETS) {
      deepStrictEqual(
        t.target.check(f.plan, ORIGIN, DEFAULT_BUILD),
        [],
        `${f.path} builds on ${t.target.name}`,
      );
      const a = t.target.generate(f.plan, ORIGIN, DEFAULT_BUILD);
      const b = t.target.generate(f.plan, ORIGIN, DEFAULT_BUILD);
      deepStrictEqual([...a], [...b], `${f.path} ${t.target.name}: the same bytes twice`);
      for (const [name, text] of Object.entries(t.added)) ok(t.copied(text, a.get(name) ?? ""), name);
    }
  }
  let compared = 0;
  for (const f of runnableFlows(ROOT, FLOW_DIRS)) {
    for (const t of TARGETS) {
      if (t.target.check(f.plan, ORIGIN, DEFAULT_BUILD).length > 0) continue;
      const plain = t.target.generate(declared(f.plan, false), ORIGIN, DEFAULT_BUILD);
      const sealed = t.target.generate(declared(f.plan, true), ORIGIN, DEFAULT_BUILD);
      const added = Object.keys(t.added);
      const names = [...plain.keys()];
      const at = names.indexOf(t.before);
      deepStrictEqual([...sealed.keys()], [...names.slice(0, at), ...added, ...names.slice(at)], f.path);
      for (const [name, text] of plain) {
        const same = !t.changed.includes(name);
        strictEqual(sealed.get(name) === text, same, `${f.path} ${t.target.name} ${name}`);
      }
      compared++;
    }
  }
  ok(compared >= 180, `${compared} packages compared`);
  console.log(
    `history encrypted: ${compared} packages of the three targets differ in client and worker alone (and doc.go in Go)`,
  );
});

/** A tool's run in `cwd`: its exit code and output, or null when the program is not there. */
async function run(
  program: string,
  args: readonly string[],
  cwd: string,
  stdin?: string,
): Promise<{ code: number; out: string; err: string } | null> {
  try {
    const child = new Deno.Command(program, {
      args: [...args],
      cwd,
      stdin: stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    if (stdin !== undefined) {
      const w = child.stdin.getWriter();
      await w.write(new TextEncoder().encode(stdin));
      await w.close();
    }
    const out = await child.output();
    const text = new TextDecoder();
    return { code: out.code, out: text.decode(out.stdout), err: text.decode(out.stderr) };
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    return null;
  }
}

/** Why the Python side cannot run (`temporalio` 1.35 and `cryptography`), or null when it can. */
async function missingPython(): Promise<string | null> {
  const got = await run(
    "python3",
    ["-c", "import cryptography, temporalio; print(temporalio.__version__)"],
    ROOT,
  );
  if (got === null) return "python3 is not on this machine";
  if (got.code !== 0) {
    return "temporalio or cryptography is not installed (pip install -r verify/requirements-temporal.txt)";
  }
  return got.out.trim().startsWith("1.35.") ? null : `temporalio ${got.out.trim()}, not 1.35`;
}

/** A program that gives the TypeScript package a codec: it type-checks. */
const USES_TS = `import { Connection } from "@temporalio/client";
import { NativeConnection, Worker } from "@temporalio/worker";
import type { OwnTasks } from "./activities.ts";
import { encryptedClient, histories, start } from "./client.ts";
import { AesGcmCodec } from "./codec.ts";
import type { Transport } from "./io.ts";
import type * as T from "./types.ts";
import { replay, workerOptions } from "./worker.ts";

export async function uses(key: Uint8Array, own: OwnTasks, transport: Transport, input: T.WorkflowInput): Promise<void> {
  const codec = new AesGcmCodec({ id: "k1", key });
  const client = encryptedClient(await Connection.connect(), codec, { namespace: "default" });
  const worker = await Worker.create(workerOptions({ connection: await NativeConnection.connect(), own, transport, codec }));
  await worker.runUntil(async () => {
    const handle = await start(client, input, { id: "x" });
    await replay(await histories(client, "x", (await handle.describe()).runId), codec);
  });
}
`;

/** A program that forgets the codec: each marked call is a type error. */
const FORGETS_TS = `import { Client, type Connection } from "@temporalio/client";
import type { NativeConnection } from "@temporalio/worker";
import type { OwnTasks } from "./activities.ts";
import { start } from "./client.ts";
import type { Transport } from "./io.ts";
import type * as T from "./types.ts";
import { replay, workerOptions } from "./worker.ts";

export function forgets(connection: Connection, native: NativeConnection, own: OwnTasks, transport: Transport, input: T.WorkflowInput) {
  start(new Client({ connection }), input, { id: "x" }); // TS2345
  workerOptions({ connection: native, own, transport }); // TS2741
  return replay([]); // TS2554
}
`;

const USES_PY = `from temporalio.client import WorkflowHistory

from .activities import OwnTasks
from .client import connect, start
from .codec import AesGcmCodec, CodecKey
from .io import Transport
from .types import WorkflowInput
from .worker import make_worker, replay


async def uses(key: bytes, own: OwnTasks, transport: Transport, input: WorkflowInput, h: WorkflowHistory) -> None:
    codec = AesGcmCodec(CodecKey("k1", key))
    client = await connect("127.0.0.1:7233", codec, namespace="default")
    async with make_worker(client, own, transport):
        await start(client, input, id="x")
    await replay([h], codec)
`;

const FORGETS_PY = `from temporalio.client import Client

from .activities import OwnTasks
from .client import start
from .io import Transport
from .types import WorkflowInput
from .worker import make_worker, replay


async def forgets(client: Client, own: OwnTasks, transport: Transport, input: WorkflowInput) -> None:
    await start(client, input, id="x")  # arg-type
    make_worker(client, own, transport)  # arg-type
    await replay([])  # call-arg
`;

/** The lines of `text` marked `// <code>` or `# <code>`, as `<line>:<code>`. */
function marked(text: string): string[] {
  return text.split("\n").flatMap((l, i) => {
    const m = l.match(/(?:\/\/|#) (TS\d+|[a-z-]+)$/);
    return m === null ? [] : [`${i + 1}:${m[1]}`];
  });
}

Deno.test("the encrypted packages pass tsc --strict, mypy --strict and ruff beside a program that gives a codec; one that does not is a type error at each call", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "dandori-codec-types-" });
  try {
    Deno.writeTextFileSync(`${dir}/package.json`, `{ "type": "module" }\n`);
    Deno.symlinkSync(`${ROOT}node_modules`, `${dir}/node_modules`);
    const tsFiles: string[] = [];
    const packages: string[] = [];
    for (const [i, f] of encryptedFlows().entries()) {
      Deno.mkdirSync(`${dir}/ts${i}`);
      Deno.mkdirSync(`${dir}/py${i}`);
      const ts = new Map([
        ...TEMPORAL_TYPESCRIPT.generate(f.plan, ORIGIN, DEFAULT_BUILD),
        ["uses.ts", USES_TS],
        ["forgets.ts", FORGETS_TS],
      ]);
      for (const [name, text] of ts) {
        Deno.writeTextFileSync(`${dir}/ts${i}/${name}`, text);
        tsFiles.push(`ts${i}/${name}`);
      }
      const py = new Map([
        ...TEMPORAL_PYTHON.generate(f.plan, ORIGIN, DEFAULT_BUILD),
        ["uses.py", USES_PY],
        ["forgets.py", FORGETS_PY],
      ]);
      for (const [name, text] of py) Deno.writeTextFileSync(`${dir}/py${i}/${name}`, text);
      packages.push(`py${i}`);
    }

    const checked = await tsc(tsFiles, dir);
    if (checked !== null) {
      // Each error is a line of its own; what explains it follows on indented lines.
      const errors = checked.out.trim().split("\n").filter((l) => !l.startsWith(" ")).map((l) =>
        l.match(/^(ts\d)\/(\w+\.ts)\((\d+),\d+\): error (TS\d+)/)
      );
      ok(errors.every((m) => m !== null), checked.out);
      deepStrictEqual(
        errors.map((m) => `${m?.[1]}/${m?.[2]}:${m?.[3]}:${m?.[4]}`),
        packages.flatMap((_, i) => marked(FORGETS_TS).map((l) => `ts${i}/forgets.ts:${l}`)),
        checked.out,
      );
    }

    const missing = await missingPython();
    if (missing !== null) return console.log(`SKIP: mypy: ${missing}`);
    const mypy = await run(
      "python3",
      ["-m", "mypy", "--strict", "--cache-dir", mypyCache("temporal-codec"), ...packages],
      dir,
    );
    if (mypy === null || mypy.out.includes("No module named mypy")) {
      return console.log("SKIP: mypy: not installed (pip install -r verify/requirements.txt)");
    }
    const found = mypy.out.trim().split("\n").flatMap((l) => {
      const m = l.match(/^(py\d)\/(\w+\.py):(\d+): error: .*\[([a-z-]+)\]$/);
      return m === null ? [] : [`${m[1]}/${m[2]}:${m[3]}:${m[4]}`];
    });
    deepStrictEqual(
      found.sort(),
      packages.flatMap((p) => marked(FORGETS_PY).map((l) => `${p}/forgets.py:${l}`)),
      mypy.out,
    );
    ok(
      mypy.out.trim().endsWith(
        `Found ${found.length} errors in ${packages.length} files (checked ${
          packages.length * 12
        } source files)`,
      ),
      mypy.out,
    );
    const ruff = await run("python3", ["-m", "ruff", "check", "--no-cache", ...packages], dir);
    if (ruff === null || ruff.code === 1 && ruff.err.includes("No module named ruff")) {
      return console.log("SKIP: ruff: not installed (pip install -r verify/requirements-temporal.txt)");
    }
    strictEqual(ruff.out.trim(), "All checks passed!", ruff.out + ruff.err);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

/** A Go program that gives the package (imported as `flow`) a codec: it builds and passes go vet. */
const USES_GO = `package main

import (
\t"context"

\t"go.temporal.io/sdk/client"

\tflow "dandori.invalid/codectypes/PKG"
)

func uses(ctx context.Context, key []byte, own flow.OwnTasks, transport flow.Transport, input flow.WorkflowInput) error {
\tcodec, err := flow.NewAesGcmCodec(flow.CodecKey{ID: "k1", Key: key})
\tif err != nil {
\t\treturn err
\t}
\tc, err := flow.Dial(client.Options{HostPort: "127.0.0.1:7233"}, codec)
\tif err != nil {
\t\treturn err
\t}
\tdefer c.Close()
\tw := flow.NewWorker(c, flow.WorkerConfig{Own: own, Transport: transport})
\tif err := w.Start(); err != nil {
\t\treturn err
\t}
\tdefer w.Stop()
\trun, err := flow.Start(ctx, c, input, flow.StartOptions{ID: "x"})
\tif err != nil {
\t\treturn err
\t}
\thistories, err := flow.Histories(ctx, c, "x", run.GetRunID())
\tif err != nil {
\t\treturn err
\t}
\treturn flow.Replay(histories, codec)
}

func main() {
\t_ = uses
}
`;

/** A Go program that forgets the codec: each marked line is a compile error. */
const FORGETS_GO = `package main

import (
\t"context"

\t"go.temporal.io/sdk/client"

\tflow "dandori.invalid/codectypes/PKG"
)

func forgets(ctx context.Context, c client.Client, own flow.OwnTasks, transport flow.Transport) {
\t_, _ = flow.Start(ctx, c, nil, flow.StartOptions{ID: "x"}) // cannot use c
\t_ = flow.NewWorker(c, flow.WorkerConfig{Own: own, Transport: transport}) // cannot use c
\t_, _ = flow.Status(ctx, flow.EncryptedClient(c), "x") // cannot convert c
\t_ = flow.Replay(nil) // not enough arguments
}

func main() {
\t_ = forgets
}
`;

/** The lines of a Go program marked \`// <what the compiler says>\`, as \`<line>:<what>\`. */
function markedGo(text: string): string[] {
  return text.split("\n").flatMap((l, i) => {
    const m = l.match(/ \/\/ (cannot use c|cannot convert c|not enough arguments)$/);
    return m === null ? [] : [`${i + 1}:${m[1]}`];
  });
}

Deno.test("the encrypted Go packages build and pass go vet beside a program that gives a codec; one that does not is a compile error at each call", async () => {
  if (!(await hasGo())) return console.log("SKIP: go: the go command is not on this machine");
  const dir = Deno.makeTempDirSync({ prefix: "dandori-codec-go-types-" });
  try {
    Deno.writeTextFileSync(`${dir}/go.mod`, goModText("dandori.invalid/codectypes"));
    const flows = encryptedFlows();
    for (const [i, f] of flows.entries()) {
      const files = TEMPORAL_GO.generate(f.plan, ORIGIN, DEFAULT_BUILD);
      const pkg = `g${i}`;
      for (const [sub, text] of [[pkg, ""], [`uses${i}`, USES_GO], [`forgets${i}`, FORGETS_GO]]) {
        Deno.mkdirSync(`${dir}/${sub}`);
        if (text !== "") Deno.writeTextFileSync(`${dir}/${sub}/main.go`, text.replace("PKG", pkg));
      }
      for (const [name, text] of files) Deno.writeTextFileSync(`${dir}/${pkg}/${name}`, text);
    }
    await go(["mod", "tidy"], dir);
    const good = flows.flatMap((_, i) => [`./g${i}`, `./uses${i}`]);
    await go(["vet", ...good], dir);
    for (const [i] of flows.entries()) {
      const failed = await go(["build", "-o", "/dev/null", `./forgets${i}`], dir).then(
        () => "",
        (e: Error) => e.message,
      );
      const found = [
        ...failed.matchAll(
          /forgets\d\/main\.go:(\d+):\d+: (cannot use c|cannot convert c|not enough arguments)/g,
        ),
      ]
        .map((m) => `${m[1]}:${m[2]}`);
      deepStrictEqual(found, markedGo(FORGETS_GO), failed);
    }
    console.log(
      `history encrypted in Go: ${flows.length} packages pass go vet with a codec; without one, ${
        markedGo(FORGETS_GO).length
      } compile errors each`,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

/** A payload as JSON: metadata and data in base64, as the CLI's history writes them. */
interface PayloadJson {
  readonly metadata: Record<string, string>;
  readonly data: string;
}

const b64 = (b: Uint8Array | null | undefined) => btoa(String.fromCharCode(...(b ?? [])));
const unb64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const hex = (s: string) => Uint8Array.from(s.match(/../g) ?? [], (h) => parseInt(h, 16));

function toPayload(j: PayloadJson): { metadata: Record<string, Uint8Array>; data: Uint8Array } {
  return {
    metadata: Object.fromEntries(Object.entries(j.metadata).map(([k, v]) => [k, unb64(v)])),
    data: unb64(j.data),
  };
}

function toJson(p: { metadata?: Record<string, Uint8Array> | null; data?: Uint8Array | null }): PayloadJson {
  const metadata = Object.entries(p.metadata ?? {}).sort(([a], [b]) => a < b ? -1 : 1);
  return { metadata: Object.fromEntries(metadata.map(([k, v]) => [k, b64(v)])), data: b64(p.data) };
}

/** The shared vectors of the payload codec. */
const VECTORS = JSON.parse(Deno.readTextFileSync(`${ROOT}tests/vectors/payload_codec.json`)) as {
  readonly keys: readonly { readonly id: string; readonly key: string }[];
  readonly cases: readonly {
    readonly name: string;
    readonly encoded: PayloadJson;
    readonly decoded?: PayloadJson;
    readonly refused?: true;
  }[];
};

function tsCodec(keys: readonly { id: string; key: string }[]): AesGcmCodec {
  const [first, ...rest] = keys.map((k) => ({ id: k.id, key: hex(k.key) }));
  return new AesGcmCodec(first, rest);
}

/** What the Python or the Go codec made of a request: each payload decoded or refused, each encoded, each construction's error. */
interface CodecReply {
  readonly decoded: unknown[];
  readonly encoded: PayloadJson[];
  readonly constructed: (string | null)[];
}

/** A request to the Python or the Go codec (`temporal_codec_check.py`, `codec_check_main.go`). */
interface CodecRequest {
  readonly keys: readonly { readonly id: string; readonly key: string }[];
  readonly decode: readonly PayloadJson[];
  readonly encode: readonly PayloadJson[];
  readonly construct: readonly (readonly { readonly id: string; readonly key: string }[])[];
}

/** What the Python codec makes of a request (`temporal_codec_check.py`), or null after a SKIP line. */
async function pythonCodec(request: CodecRequest): Promise<CodecReply | null> {
  const missing = await missingPython();
  if (missing !== null) {
    console.log(`SKIP: python: ${missing}`);
    return null;
  }
  const got = await run(
    "python3",
    [
      `${ROOT}tests/dandori/temporal_codec_check.py`,
      `${ROOT}targets/dandori/temporal_python/runtime/codec.py`,
    ],
    ROOT,
    JSON.stringify(request),
  );
  ok(got !== null && got.code === 0, got?.err);
  return JSON.parse(got.out);
}

/**
 * The Go codec: a module of `codec.go` (as every temporal-go package of an encrypted flow has it,
 * its package clause `codec`) and `fixtures/temporal_go/codec_check_main.go`, built once; `ask`
 * runs it on a request. Null after a SKIP line when Go is not here.
 */
async function goCodec(): Promise<{ ask(r: CodecRequest): Promise<CodecReply>; remove(): void } | null> {
  if (!(await hasGo())) {
    console.log("SKIP: go: the go command is not on this machine");
    return null;
  }
  const dir = Deno.makeTempDirSync({ prefix: "dandori-codec-go-" });
  const remove = () => Deno.removeSync(dir, { recursive: true });
  try {
    Deno.writeTextFileSync(
      `${dir}/go.mod`,
      goModText("dandori.invalid/codeccheck", [
        "go.temporal.io/sdk",
        "go.temporal.io/api",
        "google.golang.org/protobuf",
      ]),
    );
    Deno.mkdirSync(`${dir}/codec`);
    Deno.writeTextFileSync(`${dir}/codec/codec.go`, runtimeBody(GO_CODEC, "codec"));
    Deno.copyFileSync(`${ROOT}tests/dandori/fixtures/temporal_go/codec_check_main.go`, `${dir}/main.go`);
    await go(["mod", "tidy"], dir);
    await go(["build", "-o", "codec-check", "."], dir);
  } catch (e) {
    remove();
    throw e;
  }
  return {
    ask: async (r) => {
      const got = await run(`${dir}/codec-check`, [], dir, JSON.stringify(r));
      ok(got !== null && got.code === 0, got?.err);
      return JSON.parse(got.out);
    },
    remove,
  };
}

/** Payloads as the SDKs write them: JSON with a secret, null, several metadata, nothing at all. */
const SAMPLES: readonly PayloadJson[] = [
  toJson({
    metadata: { encoding: new TextEncoder().encode("json/plain") },
    data: new TextEncoder().encode('"account_number-2"'),
  }),
  toJson({ metadata: { encoding: new TextEncoder().encode("binary/null") }, data: new Uint8Array() }),
  toJson({
    metadata: {
      encoding: new TextEncoder().encode("json/plain"),
      messageType: new TextEncoder().encode("口座"),
    },
    data: new TextEncoder().encode('{"口座番号":"口座番号-2"}'),
  }),
  toJson({ metadata: {}, data: new Uint8Array() }),
];

/** That another SDK's codec passed the vectors, read `others` (the payloads it was given after them, by whose), and refused what TypeScript refuses. */
function checkReply(
  sdk: string,
  reply: CodecReply,
  others: readonly string[],
  refusedKeys: number,
): void {
  for (const [i, c] of VECTORS.cases.entries()) {
    const got = reply.decoded[i] as Record<string, unknown>;
    if (c.refused === true) ok(typeof got.refused === "string", `${sdk} ${c.name}: ${JSON.stringify(got)}`);
    else deepStrictEqual(sortedMetadata(got as unknown as PayloadJson), c.decoded, `${sdk} ${c.name}`);
  }
  for (const [n, whose] of others.entries()) {
    const at = VECTORS.cases.length + n * SAMPLES.length;
    deepStrictEqual(
      reply.decoded.slice(at, at + SAMPLES.length).map((p) => sortedMetadata(p as PayloadJson)),
      SAMPLES,
      `${sdk} reads ${whose}'s payloads`,
    );
  }
  strictEqual(reply.decoded.length, VECTORS.cases.length + others.length * SAMPLES.length, sdk);
  deepStrictEqual(
    reply.constructed.map((e) => e === null),
    [true, ...Array.from({ length: refusedKeys }, () => false)],
    `${sdk} refuses the same keys`,
  );
}

Deno.test("the TypeScript, the Python and the Go codec pass the shared vectors, refusing every tampered payload, and each reads the others' payloads", async () => {
  const codec = tsCodec(VECTORS.keys);
  for (const c of VECTORS.cases) {
    const got = await codec.decode([toPayload(c.encoded)]).then((ps) => toJson(ps[0]), (e: unknown) => e);
    if (c.refused === true) ok(got instanceof CodecError, `TypeScript ${c.name}: ${got}`);
    else deepStrictEqual(got, c.decoded, `TypeScript ${c.name}`);
  }
  const fromTs = await codec.encode(SAMPLES.map(toPayload));
  const again = await codec.encode(SAMPLES.map(toPayload));
  for (const [i, p] of fromTs.entries()) {
    strictEqual(new TextDecoder().decode(p.metadata?.encoding ?? undefined), ENCODING);
    ok(b64(p.data) !== b64(again[i].data), "every encoding takes a new nonce");
    ok(!new TextDecoder().decode(p.data ?? undefined).includes("account_number-2"));
  }
  const key = (id: string, bytes: number) => ({ id, key: randomBytes(bytes).toString("hex") });
  const refusedKeys = [[key("", 32)], [key("k", 31)], [key("k", 33)], [key("k", 32), key("k", 32)], [
    key("x".repeat(201), 32),
  ]];
  for (const ks of refusedKeys) {
    let refused = false;
    try {
      tsCodec(ks);
    } catch (e) {
      refused = e instanceof RangeError;
    }
    ok(
      refused,
      `TypeScript refuses the keys ${JSON.stringify(ks.map((k) => [k.id.length, k.key.length / 2]))}`,
    );
  }
  const vectors = VECTORS.cases.map((c) => c.encoded);
  const construct = [[key("k", 32)], ...refusedKeys];
  const goSide = await goCodec();
  try {
    const goFirst = await goSide?.ask({
      keys: VECTORS.keys,
      decode: [...vectors, ...fromTs.map(toJson)],
      encode: SAMPLES,
      construct,
    }) ?? null;
    const fromGo = goFirst?.encoded ?? [];
    const py = await pythonCodec({
      keys: VECTORS.keys,
      decode: [...vectors, ...fromTs.map(toJson), ...fromGo],
      encode: SAMPLES,
      construct,
    });
    const goSecond = await goSide?.ask({
      keys: VECTORS.keys,
      decode: [...vectors, ...(py?.encoded ?? [])],
      encode: [],
      construct: [[key("k", 32)]],
    }) ?? null;
    const read: string[] = [];
    if (goFirst !== null && goSecond !== null) {
      checkReply("Go", goFirst, ["TypeScript"], refusedKeys.length);
      for (const p of goFirst.encoded) strictEqual(atob(p.metadata.encoding), ENCODING);
      deepStrictEqual(
        (await codec.decode(fromGo.map(toPayload))).map(toJson),
        SAMPLES,
        "TypeScript reads Go's payloads",
      );
      read.push("Go reads TypeScript's", "TypeScript reads Go's");
    }
    if (py !== null) {
      checkReply("Python", py, goFirst === null ? ["TypeScript"] : ["TypeScript", "Go"], refusedKeys.length);
      deepStrictEqual(
        (await codec.decode(py.encoded.map(toPayload))).map(toJson),
        SAMPLES,
        "TypeScript reads Python's payloads",
      );
      read.push("Python reads TypeScript's", "TypeScript reads Python's");
      if (goSecond !== null) {
        checkReply("Go", goSecond, ["Python"], 0);
        read.push("Python reads Go's", "Go reads Python's");
      }
    }
    console.log(
      `payload codec: ${VECTORS.cases.length} vectors on TypeScript${goFirst === null ? "" : ", Go"}${
        py === null ? "" : ", Python"
      }; ${SAMPLES.length} payloads each: ${read.join(", ")}; ${refusedKeys.length} key sets refused`,
    );
  } finally {
    goSide?.remove();
  }
});

function sortedMetadata(p: PayloadJson): PayloadJson {
  return {
    metadata: Object.fromEntries(Object.entries(p.metadata).sort(([a], [b]) => a < b ? -1 : 1)),
    data: p.data,
  };
}

/** Where each encrypted flow keeps its secrets: the input marked `secret`, and the fields of answers marked `secret`. */
const SECRETS: Readonly<Record<string, { readonly input: string; readonly fields: readonly string[] }>> = {
  "tests/dandori/flows/secret_encrypted.flow": { input: "account_number", fields: [] },
  "tests/dandori/flows/履歴の暗号化.flow": { input: "口座番号", fields: [] },
  "tests/dandori/encrypted/sealed.flow": { input: "account_number", fields: ["number", "digits"] },
};

/** What the copies the server runs shorten (each text found exactly once): a timed-out activity takes 3 s, not 30. */
const SHORTENED: Readonly<Record<string, readonly [string, string]>> = {
  "runtime.ts": ["export const HEARTBEAT_TIMEOUT_MS = 30_000;", "export const HEARTBEAT_TIMEOUT_MS = 3_000;"],
  "runtime.py": ["\nHEARTBEAT_TIMEOUT_MS = 30_000\n", "\nHEARTBEAT_TIMEOUT_MS = 3_000\n"],
};

function shortened(files: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map(files);
  for (const [name, [from, to]] of Object.entries(SHORTENED)) {
    const text = out.get(name);
    if (text === undefined) continue;
    strictEqual(text.split(from).length, 2, `${name} has ${JSON.stringify(from)} once`);
    out.set(name, text.replace(from, to));
  }
  return out;
}

/** One scenario as both play programs take it, with the interpreter's ending. */
interface Played {
  readonly id: string;
  readonly input: Value;
  readonly answers: Value[];
  readonly ending: Value;
}

/** A flow's scenarios for one SDK (ids `<sdk>-<flow>-<n>`), and how many were left out. */
function scenariosOf(
  f: RunnableFlow,
  flow: number,
  sdk: string,
  secret: string,
): { played: Played[]; left: number } {
  const played: Played[] = [];
  let left = 0;
  for (const [n, s] of generateFlowScenarios(f.checked, f.plan).scenarios.entries()) {
    // A failure's cause holds the secret: a failure kept in clear would show it.
    const answers: Answer[] = s.answers.map((a) =>
      a.kind === "error" && a.error === "failure" ? { ...a, cause: `the bank refused ${secret}` } : a
    );
    const id = `${sdk}-${flow}-${n + 1}`;
    const run = runFlow(f.checked, {
      input: s.input,
      now: s.now,
      answers: new ScenarioAnswers(answers),
      execution: id,
      children: false,
    });
    // A callback or an event that times out waits its task's `timeout` (an hour, a day): the differential
    // run's copy shortens it; these runs keep the generated waits.
    const waits = run.calls.some((c) => {
      const task = f.plan.tasks.find((t) => t.name === c.task);
      const waiting = task?.callee.kind === "event" || task?.callback !== null;
      return waiting && c.answer.kind === "error" && c.answer.error === "timeout";
    });
    if (waits || answers.some((a) => a.kind === "cancel")) {
      left++;
      continue;
    }
    played.push({ id, input: s.input, answers: answers.map(answerJson), ending: endingJson(run.ending) });
  }
  return { played, left };
}

/**
 * The ways a JSON writer may spell `secret`: as it is, and with every character beyond ASCII as a
 * `\\u` escape in either case (Python's `json.dumps` writes `\\u53e3`).
 */
function spellings(secret: string): string[] {
  const escaped = (upper: boolean) =>
    Array.from({ length: secret.length }, (_, i) => {
      const unit = secret.charCodeAt(i);
      if (unit < 0x80) return secret[i];
      const h = unit.toString(16).padStart(4, "0");
      return `\\u${upper ? h.toUpperCase() : h}`;
    }).join("");
  return [...new Set([secret, escaped(false), escaped(true)])];
}

/** Where `secret` shows in `text` (the JSON a reader of the server gets): as text, in base64, or inside any base64 value. */
function shows(text: string, secret: string): string[] {
  const where: string[] = [];
  for (const spelt of spellings(secret)) {
    const bytes = new TextEncoder().encode(spelt);
    if (text.includes(spelt) || text.includes(JSON.stringify(spelt).slice(1, -1))) {
      where.push(`${spelt} as text`);
    }
    for (let o = 0; o < 3; o++) {
      const all = b64(new Uint8Array([...new Uint8Array(o), ...bytes]));
      const inner = all.slice(Math.ceil((8 * o) / 6), Math.floor((8 * (o + bytes.length)) / 6));
      if (text.includes(inner)) where.push(`${spelt} in base64 at offset ${o}`);
    }
    const latin = String.fromCharCode(...bytes);
    for (const m of text.matchAll(/"([A-Za-z0-9+/]{4,}={0,2})"/g)) {
      if (m[1].length % 4 === 0 && String.fromCharCode(...unb64(m[1])).includes(latin)) {
        where.push(`${spelt} inside the base64 value ${m[1].slice(0, 12)}…`);
      }
    }
  }
  return where;
}

/** Every payload of a JSON document by its path: objects whose `metadata` names an `encoding`. */
function payloadsOf(x: unknown, path = ""): { path: string; payload: PayloadJson }[] {
  if (Array.isArray(x)) return x.flatMap((v, i) => payloadsOf(v, `${path}[${i}]`));
  if (x === null || typeof x !== "object") return [];
  const o = x as Record<string, unknown>;
  const meta = o.metadata;
  if (meta !== null && typeof meta === "object" && "encoding" in meta) {
    return [{ path, payload: { metadata: meta as Record<string, string>, data: String(o.data ?? "") } }];
  }
  return Object.entries(o).flatMap(([k, v]) => payloadsOf(v, `${path}.${k}`));
}

/** A play program's output. */
interface PlayOutput {
  readonly results: readonly {
    readonly id: string;
    readonly ending: unknown;
    readonly received: readonly unknown[];
    readonly answered: boolean;
    readonly rawQuery: readonly PayloadJson[];
  }[];
  readonly replayed: number | string;
  readonly readAlso: Readonly<Record<string, unknown>>;
}

Deno.test({
  name:
    "on a real dev server, the encrypted flows run to the interpreter's endings on both SDKs, each reads the other's, and the stored history holds no secret in clear",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const bin = await findTemporal();
    if (bin === null) return console.log("SKIP: temporal: the temporal CLI 1.9.1 is not installed");
    const missing = await missingPython();
    if (missing !== null) return console.log(`SKIP: temporalio: ${missing}`);
    const dir = Deno.makeTempDirSync({ prefix: "dandori-codec-server-" });
    const server = await startTemporal(bin);
    try {
      Deno.writeTextFileSync(`${dir}/package.json`, `{ "type": "module" }\n`);
      Deno.symlinkSync(`${ROOT}node_modules`, `${dir}/node_modules`);
      const key = { id: "test-key-1", hex: randomBytes(32).toString("hex") };
      const codec = tsCodec([{ id: key.id, key: key.hex }]);
      const cli = async (args: string[]): Promise<string> => {
        const got = await run(bin, [...args, "--address", server.address, "--output", "json"], dir);
        ok(got !== null && got.code === 0, got?.err);
        return got.out;
      };
      const play = async (sdk: "ts" | "py", i: number, scenarios: Played[], readAlso: string[]) => {
        const jobs = `${dir}/${sdk}${i}.jobs.json`;
        const common = { address: server.address, keyId: key.id, key: key.hex, scenarios, readAlso };
        const args = sdk === "ts"
          ? ["run", "-A", "--config", `${ROOT}deno.json`, `${ROOT}tests/dandori/temporal_codec_play.ts`, jobs]
          : [`${ROOT}tests/dandori/temporal_codec_play.py`, jobs];
        const more = sdk === "ts" ? { dir: `${dir}/ts${i}` } : { root: dir, package: `py${i}` };
        Deno.writeTextFileSync(jobs, stringifyJson({ ...common, ...more } as unknown as Value));
        const got = await run(sdk === "ts" ? Deno.execPath() : "python3", args, dir);
        ok(got !== null && got.code === 0, `${sdk} ${i}: exit ${got?.code}: ${got?.err}`);
        return JSON.parse(got.out.trim().split("\n").at(-1) ?? "") as PlayOutput;
      };
      let previous: { ids: string[]; endings: Map<string, unknown> } = { ids: [], endings: new Map() };
      let runs = 0;
      let left = 0;
      for (const [i, f] of encryptedFlows().entries()) {
        const secret = SECRETS[f.path];
        for (const [sdk, target] of [["ts", TEMPORAL_TYPESCRIPT], ["py", TEMPORAL_PYTHON]] as const) {
          Deno.mkdirSync(`${dir}/${sdk}${i}`);
          for (const [name, text] of shortened(target.generate(f.plan, ORIGIN, DEFAULT_BUILD))) {
            Deno.writeTextFileSync(`${dir}/${sdk}${i}/${name}`, text);
          }
        }
        const input = (s: Played) => String((s.input as Record<string, Value>)[secret.input]);
        const ts = scenariosOf(f, i, "ts", "");
        const secretInput = input(ts.played[0]);
        const both = (["ts", "py"] as const).map((sdk) => ({ sdk, ...scenariosOf(f, i, sdk, secretInput) }));
        left += both[0].left + both[1].left;
        const outputs = new Map<string, PlayOutput>();
        outputs.set("ts", await play("ts", i, both[0].played, previous.ids));
        outputs.set("py", await play("py", i, both[1].played, both[0].played.map((s) => s.id)));
        for (const [id, ending] of Object.entries(outputs.get("ts")?.readAlso ?? {})) {
          deepStrictEqual(
            ending,
            previous.endings.get(id),
            `TypeScript's client reads ${id}, which Python ran`,
          );
        }
        for (const [id, ending] of Object.entries(outputs.get("py")?.readAlso ?? {})) {
          const s = both[0].played.find((p) => p.id === id);
          deepStrictEqual(
            ending,
            JSON.parse(stringifyJson(s?.ending ?? null)),
            `Python's client reads ${id}, which TypeScript ran`,
          );
        }
        for (const { sdk, played } of both) {
          const out = outputs.get(sdk);
          ok(out !== undefined);
          strictEqual(out.replayed, played.length, `${f.path} ${sdk}: every history replays with the codec`);
          const secrets = new Set<string>();
          const decrypted: string[] = [];
          for (const s of played) {
            const r: PlayOutput["results"][number] | undefined = out.results.find((x) => x.id === s.id);
            ok(r !== undefined, s.id);
            deepStrictEqual(r.ending, JSON.parse(stringifyJson(s.ending)), `${f.path} ${s.id}`);
            ok(r.answered, `${s.id}: every answer was taken`);
            secrets.add(input(s));
            for (const a of s.answers as Record<string, Record<string, Value>>[]) {
              for (const field of secret.fields) {
                const v = a.ok?.[field];
                if (typeof v === "string") secrets.add(v);
              }
            }
            ok(JSON.stringify(r.received).includes(input(s)), `${s.id}: the secret reached a task in clear`);
            const history = await cli(["workflow", "show", "--workflow-id", s.id]);
            const described = await cli(["workflow", "describe", "--workflow-id", s.id]);
            const stored: string[] = [history, described, JSON.stringify(r.rawQuery)];
            for (const text of stored) {
              for (const x of secrets) deepStrictEqual(shows(text, x), [], `${s.id}: ${x}`);
            }
            const payloads: ReturnType<typeof payloadsOf> = [
              ...payloadsOf(JSON.parse(history)),
              ...payloadsOf(JSON.parse(described)),
              ...payloadsOf(r.rawQuery),
            ];
            for (const p of payloads) {
              const encoding = new TextDecoder().decode(unb64(p.payload.metadata.encoding));
              if (p.path.includes(".indexedFields.")) continue;
              strictEqual(encoding, ENCODING, `${s.id} ${p.path}`);
              const [inner] = await codec.decode([toPayload(p.payload)]);
              decrypted.push(new TextDecoder().decode(inner.data ?? undefined));
            }
            runs++;
          }
          for (const x of secrets) {
            ok(
              decrypted.some((d) => spellings(x).some((spelt) => d.includes(spelt))),
              `${f.path} ${sdk}: the key finds ${x} in the stored payloads`,
            );
          }
        }
        previous = {
          ids: both[1].played.map((s) => s.id),
          endings: new Map(both[1].played.map((s) => [s.id, JSON.parse(stringifyJson(s.ending))])),
        };
      }
      console.log(
        `history encrypted on the dev server: ${runs} runs of ${ENCRYPTED.length} flows on both SDKs at the interpreter's endings, no secret in their stored histories; ${left} left to the differential run (a callback's or an event's timeout)`,
      );
    } finally {
      await server.stop();
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "on a real dev server, the Go runner plays every scenario of the encrypted flows with a codec of the harness's key: each replays with the codec, and the histories the server stored hold no secret input and no payload but the codec's",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    if (!(await hasGo())) return console.log("SKIP: go: the go command is not on this machine");
    const bin = await findTemporal();
    if (bin === null) return console.log("SKIP: temporal: the temporal CLI 1.9.1 is not installed");
    const cases = checkedFlowAt(ROOT, "tests/dandori/encrypted/sealed_cases.flow");
    ok(cases !== null);
    const subjects = [...encryptedFlows(), cases].map((f) => {
      const s = subjectOf(f, GO_SDK);
      ok(!("skipped" in s), `${f.path} plays on Go`);
      return s;
    });
    const { runner, remove } = await GO_SDK.runner(subjects);
    let runs = 0;
    let payloads = 0;
    try {
      for (const subject of subjects) {
        const path = subject.flow.path;
        const file = Deno.makeTempFileSync({ suffix: ".json" });
        try {
          const played = await playFlow(bin, subject, subject.jobs, { runner, historiesFile: file });
          for (const job of subject.jobs) {
            const r = played.get(job.id);
            ok(
              r !== undefined && r.problems.length === 0,
              `${path} ${job.run}: ${r?.problems.map((p) => p.en)}`,
            );
            runs++;
          }
          const text = Deno.readTextFileSync(file);
          const secret = SECRETS[path]?.input;
          for (const job of secret === undefined ? [] : subject.jobs) {
            const value = String((job.input as Record<string, Value>)[secret]);
            deepStrictEqual(shows(text, value), [], `${path} ${job.run}: ${value}`);
          }
          for (const p of payloadsOf(JSON.parse(text))) {
            if (p.path.includes(".indexedFields.")) continue;
            strictEqual(
              new TextDecoder().decode(unb64(p.payload.metadata.encoding)),
              ENCODING,
              `${path} ${p.path}`,
            );
            payloads++;
          }
        } finally {
          Deno.removeSync(file);
        }
      }
    } finally {
      remove();
    }
    ok(payloads > runs, `${payloads} payloads in ${runs} runs`);
    console.log(
      `history encrypted on Go: ${runs} runs of ${subjects.length} flows replay with the codec; their stored histories hold ${payloads} payloads, each the codec's, and no secret input`,
    );
  },
});
