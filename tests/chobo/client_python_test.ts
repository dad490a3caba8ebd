/**
 * The postgres-python client (docs/targets.md#postgresql-clients): every test and example book's client
 * passes `mypy --strict` (with the runner and a caller on psycopg 3 and psycopg2), ends with the runtime
 * byte for byte, and is the same bytes for the same book; on a disposable server the runner plays
 * jobs through it and the client sends exactly `calls.ts`'s statements, retries serialization
 * failures under REPEATABLE READ, and raises the first error inside the caller's failed transaction.
 */

import { mypyCache } from "../support/mypy.ts";
import { whileRowsHeldIn } from "../support/held_rows.ts";
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";

import type { Book } from "../../lang/chobo/model.ts";
import { members } from "../../targets/chobo/names.ts";
import { callStatement, expireStatement, type Statement } from "../../targets/chobo/postgres/calls.ts";
import { PYTHON_RUNTIME_MARK, pythonClient } from "../../targets/chobo/postgres/python.ts";
import { PYTHON_RUNTIME } from "../../targets/chobo/postgres/runtimes.ts";
import { postgresSql } from "../../targets/chobo/postgres/sql.ts";
import { findPgBin, startCluster } from "../../verify/services/pg_cluster.ts";
import { serverDb } from "../../verify/services/pg_db.ts";
import { loadBook as load } from "../support/books.ts";
import { HOSTILE_STRINGS } from "../support/hostile.ts";
import { jobCall } from "../support/calls.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const RUNTIME_FILE = `${ROOT}targets/chobo/postgres/runtime/runtime.py`;
const RUNNER = `${ROOT}verify/chobo/runners/python/runner.py`;
const ORIGIN = { sha: "0123456789abcdef", version: "0.1.0" };

/** Names a Python client must survive: keywords, `self`, the book's own members and types. */
const NAMES_BOOK = `book names v1
unit pcs

account str(self: string, class: string) : pcs
  at least 0 refused as short
account Balance : pcs outside
account _db : pcs outside
account _chobo_str : pcs outside

transfer balance(int: string, str: string, Result: string, n: pcs)
  key int, str, Result
  move n from Balance to str(int, str)

transfer expire(_db: string, None: string, n: pcs)
  key _db, None
  pending expires after 1 seconds
  move n from str(_db, None) to _db

transfer _db(import: string, lambda: pcs)
  key import
  pending never expires
  move lambda from _db to Balance
`;

/** Every test and example book, and the names book. */
function books(): { path: string; text: string }[] {
  const paths: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(`${dir}/${e.name}`);
      else if (e.name.endsWith(".book")) paths.push(`${dir}/${e.name}`);
    }
  };
  for (const e of Deno.readDirSync(`${ROOT}tests/chobo/books`)) {
    if (e.name.endsWith(".book")) paths.push(`${ROOT}tests/chobo/books/${e.name}`);
  }
  walk(`${ROOT}examples`);
  return [
    ...paths.sort().map((path) => ({ path, text: Deno.readTextFileSync(path) })),
    { path: "names.book", text: NAMES_BOOK },
  ];
}

function generate(path: string, text: string): [string, string] {
  const files = pythonClient(load(path, text), { file: path.split("/").pop()!, ...ORIGIN });
  strictEqual(files.size, 1);
  return [...files][0];
}

interface Ran {
  readonly ok: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

async function python(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<Ran> {
  try {
    const out = await new Deno.Command("python3", { args, ...options, stdout: "piped", stderr: "piped" })
      .output();
    const text = new TextDecoder();
    return { ok: out.success, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      return { ok: false, stdout: "", stderr: "python3 is not installed" };
    }
    throw e;
  }
}

const hasMypy = async () => (await python(["-m", "mypy", "--version"])).ok;
/** The drivers of `verify/requirements.txt`: psycopg 3 with its pool, and psycopg2. */
const hasDrivers = async () => (await python(["-c", "import psycopg, psycopg_pool, psycopg2"])).ok;

async function mypyStrict(cwd: string, files: string[]): Promise<void> {
  const run = await python(["-m", "mypy", "--strict", "--cache-dir", mypyCache("chobo-python"), ...files], {
    cwd,
  });
  ok(run.ok, `mypy --strict ${files.join(" ")}:\n${run.stdout}${run.stderr}`);
  ok(run.stdout.startsWith("Success: no issues found"), run.stdout);
}

Deno.test("every book's client passes mypy --strict, and so do the runtime, the runner and callers on both drivers", async () => {
  if (!(await hasMypy())) {
    console.log("SKIP: chobo: postgres-python: mypy is not installed");
    return;
  }
  const dir = Deno.makeTempDirSync({ prefix: "chobo-py-" });
  try {
    // Modules are named by their books, so books of the same name go to different directories.
    const groups: Map<string, string>[] = [];
    for (const { path, text } of books()) {
      const [file, content] = generate(path, text);
      let group = groups.find((g) => !g.has(file));
      if (group === undefined) groups.push(group = new Map());
      group.set(file, content);
    }
    for (const [i, group] of groups.entries()) {
      Deno.mkdirSync(`${dir}/${i}`);
      for (const [file, content] of group) Deno.writeTextFileSync(`${dir}/${i}/${file}`, content);
      await mypyStrict(`${dir}/${i}`, [...group.keys()]);
    }
    await mypyStrict(dir, [RUNTIME_FILE]);
    if (!(await hasDrivers())) {
      console.log("SKIP: chobo: postgres-python: the runner and the callers: psycopg is not installed");
      return;
    }
    // Checked, not run: psycopg 3's and psycopg2's connections are what `postgres()` takes.
    Deno.writeTextFileSync(
      `${dir}/0/use.py`,
      `import psycopg
import psycopg2
from psycopg.rows import dict_row

import 在庫


def use() -> None:
    on_tuples = psycopg.connect("", autocommit=True)
    on_dicts = psycopg.connect("", autocommit=True, row_factory=dict_row)
    on_psycopg2 = psycopg2.connect("")
    for book in (在庫.postgres(on_tuples, tenant="t"), 在庫.postgres(on_dicts), 在庫.postgres(on_psycopg2, "t")):
        result: 在庫.Result = book.入荷.do(納品書="d", sku="s", 数=1)
        state: 在庫.HoldState | None = book.引当.status(注文="o", sku="s")
        balance: 在庫.Balance = book.balance.在庫(sku="s")
        given_back: int = book.expire()
        print(result, state, balance, given_back)
`,
    );
    await mypyStrict(`${dir}/0`, ["use.py", "在庫.py"]);
    await mypyStrict(dir, [RUNNER]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("every client ends with the runtime byte for byte, and the same book gives the same bytes", () => {
  const runtime = Deno.readTextFileSync(RUNTIME_FILE);
  strictEqual(PYTHON_RUNTIME, runtime);
  ok(!runtime.includes(PYTHON_RUNTIME_MARK), "the runtime does not contain the mark");
  for (const { path, text } of books()) {
    const [file, content] = generate(path, text);
    const parts = content.split(`\n${PYTHON_RUNTIME_MARK}\n`);
    strictEqual(parts.length, 2, `${file}: one runtime mark`);
    strictEqual(parts[1], runtime, `${file}: the runtime part`);
    const book = load(path, text);
    ok(
      parts[0].startsWith(
        `# Code generated by chobo 0.1.0. DO NOT EDIT.\n# Source: ${
          path.split("/").pop()
        } (book ${book.name} v${book.version}, sha256:0123456789abcdef)\n`,
      ),
    );
    deepStrictEqual(generate(path, text), [file, content], `${file}: same bytes`);
  }
});

/** A `do`/`hold`/`post`/`void` step of a job, with what `calls.ts` says it sends. */
interface CallStep {
  readonly call: string;
  readonly op: "do" | "hold" | "post" | "void";
  readonly strings: Record<string, string>;
  readonly amounts?: Record<string, string>;
}

function expected(book: Book, step: CallStep, tenant: string): Statement {
  return callStatement(book, jobCall(book, step), tenant);
}

function membersJson(book: Book) {
  const m = members(book, "python");
  return {
    transfers: Object.fromEntries(m.transfers),
    accounts: Object.fromEntries(m.accounts),
    params: Object.fromEntries([...m.transferParams].map(([k, v]) => [k, Object.fromEntries(v)])),
  };
}

interface Output {
  results: {
    id: string;
    steps: unknown[];
    late: boolean;
    sent: Statement[];
    accounts: string[][];
    holds: string[][];
  }[];
}

/** Runs `f` on a disposable server with 在庫.book's SQL (1-second holds) and its Python client. */
async function onServer(
  what: string,
  f: (
    ctx: { socketDir: string; book: Book; client: string; db: ReturnType<typeof serverDb> },
  ) => Promise<void>,
) {
  const bin = findPgBin();
  if (bin === null) {
    console.log(`SKIP: chobo: postgres-python: ${what}: no initdb/pg_ctl on this machine`);
    return;
  }
  if (!(await hasDrivers())) {
    console.log(`SKIP: chobo: postgres-python: ${what}: psycopg is not installed`);
    return;
  }
  const path = `${ROOT}tests/chobo/books/在庫.book`;
  const book = load(path, Deno.readTextFileSync(path).replace("30 minutes", "1 seconds"));
  const dir = Deno.makeTempDirSync({ prefix: "chobo-py-" });
  const cluster = await startCluster(bin);
  const db = serverDb(cluster.socketDir);
  try {
    await db.exec(postgresSql(book, "在庫.book", "test", "test"));
    for (const [file, content] of pythonClient(book, { file: "在庫.book", ...ORIGIN })) {
      Deno.writeTextFileSync(`${dir}/${file}`, content);
    }
    await f({ socketDir: cluster.socketDir, book, client: `${dir}/在庫.py`, db });
  } finally {
    await db.end();
    await cluster.stop();
    Deno.removeSync(dir, { recursive: true });
  }
}

async function runJobs(
  dir: string,
  jobs: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<Output> {
  const file = `${dir}/jobs.json`;
  Deno.writeTextFileSync(file, JSON.stringify(jobs));
  const run = await python([RUNNER, file], { env });
  ok(run.ok, run.stderr);
  return JSON.parse(run.stdout);
}

Deno.test("server: the runner plays jobs through the client, which sends calls.ts's statements", async () => {
  await onServer("the runner", async ({ socketDir, book, client, db }) => {
    const dir = client.replace(/\/[^/]+$/, "");
    const run = `py-${Date.now()}`;
    const [first, second] = [`${run}/在庫#1/1`, `${run}/在庫#2/1`];
    const hold = (order: string): CallStep => ({
      call: "引当",
      op: "hold",
      strings: { 注文: order, sku: "s" },
      amounts: { 数: "1" },
    });
    const receive: CallStep = {
      call: "入荷",
      op: "do",
      strings: { 納品書: "d-1", sku: "s" },
      amounts: { 数: "2" },
    };
    const post: CallStep = { call: "引当", op: "post", strings: { 注文: "o-1", sku: "s" } };
    const negative: CallStep = { ...receive, amounts: { 数: "-1" } };
    const noHold: CallStep = { call: "引当", op: "void", strings: { 注文: "o-9", sku: "s" } };
    const output = await runJobs(dir, {
      socket_dir: socketDir,
      pool: 4,
      expiry_ms: 1000,
      margin_ms: 200,
      clients: { "在庫": dir },
      jobs: [
        {
          id: "在庫#1",
          book: "在庫",
          tenant: first,
          steps: [
            receive,
            hold("o-1"),
            { together: [[hold("o-2")], [hold("o-3")]] },
            post,
            { pass: true },
            receive,
          ],
        },
        { id: "在庫#2", book: "在庫", tenant: second, steps: [negative, noHold, hold("o-9")] },
      ],
      members: { "在庫": membersJson(book) },
    });
    const [one, two] = output.results;
    strictEqual(one.id, "在庫#1");
    const [received, held, together, posted, passed, again] = one.steps;
    deepStrictEqual([received, held, posted, passed, again], ["done", "done", "done", null, "done_before"]);
    deepStrictEqual((together as string[][]).flat().sort(), ["done", "refused:在庫切れ"]);
    strictEqual(one.late, false);
    const callerA = one.sent[2];
    const rival = [expected(book, hold("o-2"), first), expected(book, hold("o-3"), first)];
    deepStrictEqual(one.sent, [
      expected(book, receive, first),
      expected(book, hold("o-1"), first),
      ...(callerA.values[1] === "o-2" ? rival : rival.reverse()),
      expected(book, post, first),
      expireStatement(book),
      expected(book, receive, first),
    ]);
    strictEqual(one.sent[4].values.at(-1), null, "a post in full sends a null amount");
    // expire() gave the winner's hold back, so it was sent after that hold's expiry.
    const winner = (together as string[][])[0][0] === "done" ? "o-2" : "o-3";
    const holds = await db.query({
      text: `select key, state from "在庫".holds where tenant = $1 order by key`,
      values: [first],
    });
    deepStrictEqual(holds.map((h) => [JSON.parse(h.key as string)[0], h.state]).sort(), [
      ["o-1", "posted"],
      [winner, "expired"],
    ]);
    const [balance] = await db.query({
      text: `select posted::text, held_in::text, held_out::text from "在庫"."balance_在庫"($1, 's')`,
      values: [first],
    });
    deepStrictEqual(balance, { posted: "1", held_in: "0", held_out: "0" });
    // The rows the runner read at the job's end are the tenant's rows.
    const rows = async (text: string) =>
      (await db.query({ text: `${text} where tenant = $1 order by id`, values: [first] })).map(Object.values);
    deepStrictEqual(
      one.accounts,
      await rows(`select id::text, posted::text, held_in::text, held_out::text from "在庫".balances`),
    );
    deepStrictEqual(one.holds, await rows(`select id::text, state from "在庫".holds`));
    strictEqual(one.holds.length, 2);

    strictEqual(two.id, "在庫#2");
    strictEqual(two.steps.length, 3);
    ok(String(two.steps[0]).startsWith("failed:chobo: 数 is an amount"), String(two.steps[0]));
    deepStrictEqual(two.steps.slice(1), ["refused:no_such_hold", "refused:在庫切れ"]);
    // The amount −1 is refused by the client (ChoboArgumentError): it is never sent.
    deepStrictEqual(two.sent, [noHold, hold("o-9")].map((s) => expected(book, s, second)));
  });
});

Deno.test("server: under REPEATABLE READ, 4 callers × 50 do into one account all end done through retries", async () => {
  await onServer("retries", async ({ socketDir, book, client, db }) => {
    const dir = client.replace(/\/[^/]+$/, "");
    const tenant = `py-rr-${Date.now()}`;
    const callers = Array.from({ length: 4 }, (_, c) =>
      Array.from({ length: 50 }, (_, n) => ({
        call: "入荷",
        op: "do",
        strings: { 納品書: `d-${c}-${n}`, sku: "s" },
        amounts: { 数: "1" },
      })));
    const jobsOf = (steps: unknown[]) => ({
      socket_dir: socketDir,
      pool: 4,
      expiry_ms: 1000,
      margin_ms: 200,
      clients: { "在庫": `${dir}/在庫.py` },
      jobs: [{ id: "在庫#rr", book: "在庫", tenant, steps }],
      members: { "在庫": membersJson(book) },
    });
    const env = { PGOPTIONS: "-c default_transaction_isolation=repeatable\\ read" };
    const made = { call: "入荷", op: "do", strings: { 納品書: "first", sku: "s" }, amounts: { 数: "1" } };
    deepStrictEqual((await runJobs(dir, jobsOf([made]), env)).results[0].steps, ["done"]);
    const output = await whileRowsHeldIn(
      db,
      '"在庫"',
      tenant,
      () => runJobs(dir, jobsOf([{ together: callers }]), env),
    );
    const [job] = output.results;
    deepStrictEqual(job.steps, [callers.map((c) => c.map(() => "done"))]);
    // A statement sent more than once is a try after a serialization failure: the callers that waited
    // for the held rows had one.
    ok(job.sent.length > 200, `no call was retried (${job.sent.length} statements)`);
    const [balance] = await db.query({
      text: `select posted::text from "在庫"."balance_在庫"($1, 's')`,
      values: [tenant],
    });
    deepStrictEqual(balance, { posted: "201" });
  });
});

/** Plays the client on one driver: every operation, a failure, and 40001 in the caller's transaction. */
const DRIVER_SCRIPT = String.raw`
import importlib.util
import json
import sys

kind, path, socket_dir, tenant, hostile = sys.argv[1:]
spec = importlib.util.spec_from_file_location("chobo_client", path)
client = importlib.util.module_from_spec(spec)
spec.loader.exec_module(client)
rr = "-c default_transaction_isolation=repeatable\\ read"
if kind == "psycopg":
    import psycopg
    from psycopg.rows import dict_row
    auto = psycopg.connect(host=socket_dir, user="postgres", dbname="postgres", autocommit=True, row_factory=dict_row)
    tx = psycopg.connect(host=socket_dir, user="postgres", dbname="postgres", options=rr)
    code = lambda e: e.sqlstate
else:
    import psycopg2
    auto = psycopg2.connect(host=socket_dir, user="postgres", dbname="postgres")
    auto.autocommit = True
    tx = psycopg2.connect(host=socket_dir, user="postgres", dbname="postgres", options=rr)
    code = lambda e: e.pgcode


class Counting:
    def __init__(self, conn):
        self.conn = conn
        self.sent = 0

    def cursor(self):
        outer, cursor = self, self.conn.cursor()

        class Cursor:
            def execute(self, query, params):
                outer.sent += 1
                return cursor.execute(query, params)

            def fetchone(self):
                return cursor.fetchone()

            def close(self):
                return cursor.close()

        return Cursor()


book = client.postgres(auto, tenant)
out = {
    "do": book.入荷.do(納品書="d-0", sku="s", 数=5),
    "hold": book.引当.hold(注文="o-1", sku="s", 数=2),
    "status": book.引当.status(注文="o-1", sku="s"),
    "no hold": book.引当.status(注文="o-2", sku="s"),
    "partial post": book.引当.post(注文="o-1", sku="s", 数=1),
    "balance": book.balance.在庫(sku="s"),
    "outside": book.balance.客(),
    "expire": type(book.expire()).__name__,
    "refused": book.引当.hold(注文="o-3", sku="s", 数=100),
}
try:
    book.入荷.do(納品書="d-x", sku="s", 数=-1)
except client.ChoboArgumentError as e:
    out["negative"] = type(e).__name__
counted = Counting(auto)
strings = client.postgres(counted, tenant + "-strings")
answers = []
for i, sku in enumerate(json.loads(hostile)):
    try:
        answers.append(strings.入荷.do(納品書=f"h-{i}", sku=sku, 数=1).result)
    except client.ChoboArgumentError as e:
        answers.append(str(e).split(":")[0] + ": " + type(e).__name__)
out["hostile strings"] = [answers, counted.sent]
try:
    client.postgres(auto, "t" * 257)
except client.ChoboArgumentError as e:
    out["long tenant"] = str(e)
cursor = tx.cursor()
cursor.execute("select 1")
cursor.fetchone()
book.入荷.do(納品書="d-1", sku="s", 数=1)
counting = Counting(tx)
try:
    client.postgres(counting, tenant).入荷.do(納品書="d-2", sku="s", 数=1)
except Exception as e:
    out["in a failed transaction"] = [code(e), counting.sent]
tx.rollback()
out["after the rollback"] = client.postgres(tx, tenant).入荷.do(納品書="d-2", sku="s", 数=1)
tx.commit()
out["at the end"] = book.balance.在庫(sku="s")
print(json.dumps(out, ensure_ascii=False))
`;

Deno.test("server: on psycopg 3 and psycopg2 every operation answers, and 40001 in the caller's transaction is raised", async () => {
  await onServer("drivers", async ({ socketDir, client }) => {
    for (const kind of ["psycopg", "psycopg2"]) {
      const run = await python([
        "-c",
        DRIVER_SCRIPT,
        kind,
        client,
        socketDir,
        `py-driver-${kind}-${Date.now()}`,
        JSON.stringify(HOSTILE_STRINGS.map((h) => h.sku)),
      ]);
      ok(run.ok, run.stderr);
      deepStrictEqual(JSON.parse(run.stdout), {
        "do": ["done", null],
        "hold": ["done", null],
        "status": "held",
        "no hold": null,
        "partial post": ["done", null],
        "balance": [4, 0, 0],
        "outside": [1, 0, 0],
        "expire": "int",
        "refused": ["refused", "在庫切れ"],
        "negative": "ChoboArgumentError",
        "hostile strings": [
          HOSTILE_STRINGS.map((h) => h.failed ? "chobo: ChoboArgumentError" : "done"),
          HOSTILE_STRINGS.filter((h) => !h.failed).length,
        ],
        "long tenant": "chobo: tenant is 257 UTF-8 bytes, longer than the 256 a string argument may be",
        "in a failed transaction": ["40001", 2],
        "after the rollback": ["done", null],
        "at the end": [6, 0, 0],
      }, kind);
    }
  });
});
