/**
 * The book Lambdas of `dandori build --target stepfunctions` for real
 * (docs/targets.md#the-book-lambdas): every distinct sequence of book operations the example and test
 * flows' runs make is sent, as the Tasks send it, to the flow's generated `book_<book>_handler.py` on
 * chobo's Python client of the book, and every answer must be the one chobo's reference interpreter
 * gives for the same operations. Each sequence runs on a book of its own (a tenant): once on the empty
 * book, and once after the book is filled from outside (every transfer that only takes from outside
 * accounts, with the strings the sequence uses), then again on that same book (every operation done
 * before). On PostgreSQL (a disposable server, psycopg 3) and, when `CHOBO_TIGERBEETLE` names a
 * replica's binary, on TigerBeetle; where it does not, on the TigerBeetle test double's bridge (not
 * TigerBeetle: it keeps the Python client's path through the book Lambdas exercised). The handlers, with the clients of both targets and a caller of
 * each, pass `mypy --strict`.
 */

import { mypyCache } from "../support/mypy.ts";
import { deepStrictEqual, ok } from "node:assert/strict";
import { createHash } from "node:crypto";
import { assert, findOne, lookup } from "../../lang/common/assert.ts";
import { stringifyJson } from "../../lang/common/json.ts";
import { type Call, Ledger, type OpName, type Outcome } from "../../lang/chobo/interp.ts";
import type { Book } from "../../lang/chobo/model.ts";
import type { Value } from "../../lang/dandori/values.ts";
import { viewOf } from "../../lang/dandori/views.ts";
import { transferMembers } from "../../targets/chobo/names.ts";
import { pythonClient } from "../../targets/chobo/postgres/python.ts";
import { postgresSql } from "../../targets/chobo/postgres/sql.ts";
import { tigerbeetlePythonClient } from "../../targets/chobo/tigerbeetle/python.ts";
import { bookHandler, bookHandlerFile } from "../../targets/dandori/stepfunctions/books.ts";
import { BOOK_RUNTIME } from "../../targets/dandori/stepfunctions/runtimes.ts";
import { findPgBin, startCluster } from "../../verify/services/pg_cluster.ts";
import { serverDb } from "../../verify/services/pg_db.ts";
import { startReplica } from "../../verify/services/tb_replica.ts";
import type { Where } from "../../verify/chobo/tigerbeetle.ts";
import { startBridge } from "../support/tigerbeetle_bridge.ts";
import { generatedRuns } from "../../verify/dandori/flows.ts";
import { everyRunnableFlow, type RunnableFlow } from "../support/flows.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const RUNNER = `${ROOT}verify/dandori/runners/book_lambda.py`;
const ORIGIN = { sha: "0123456789abcdef", version: "0.1.0" };

/** An amount large enough that filling a book is refused by no lower bound. */
const FILL_AMOUNT = 1_000_000n;

/** The operations one run makes on one book of its flow, as its Tasks send them. */
interface Sequence {
  readonly flow: RunnableFlow;
  /** The flow's name for the book (`use book <name>`). */
  readonly use: string;
  readonly book: Book;
  readonly events: readonly Value[];
}

/** Every distinct sequence of book operations of every test and example flow's generated runs. */
function sequences(): Sequence[] {
  const out = new Map<string, Sequence>();
  for (const flow of everyRunnableFlow()) {
    if (flow.plan.books.length === 0) continue;
    for (const { run } of generatedRuns(flow)) {
      const byBook = new Map<string, Value[]>();
      for (const c of run.calls) {
        const view = viewOf("transport", flow.plan, c) as Record<string, Value>;
        if (typeof view.book !== "string") continue;
        const { book, ...payload } = view;
        byBook.set(book, [...(byBook.get(book) ?? []), payload]);
      }
      for (const [use, events] of byBook) {
        const key = stringifyJson([flow.path, use, events]);
        const book = lookup(flow.checked.model.books, use, "book").chobo;
        if (!out.has(key)) out.set(key, { flow, use, book, events });
      }
    }
  }
  return [...out.values()];
}

/** An operation of a payload as chobo's interpreter takes it. */
function callOf(book: Book, event: Value): Call {
  const e = event as {
    transfer: string;
    op: OpName;
    args: Record<string, Value>;
    amounts?: Record<string, Value>;
  };
  const transfer = findOne(book.transfers, (t) => t.name === e.transfer, `transfer ${e.transfer}`);
  const strings = new Map<string, string>();
  const amounts = new Map<string, bigint>();
  for (const [k, v] of Object.entries({ ...e.args, ...(e.amounts ?? {}) })) {
    const p = findOne(transfer.params, (x) => x.name === k, `parameter ${k}`);
    if (p.type.kind === "string") strings.set(k, String(v));
    else {
      assert(typeof v === "bigint", "an amount is a whole number");
      amounts.set(k, v);
    }
  }
  return { transfer, op: e.op, strings, amounts };
}

/** The operations that fill the book from outside before a sequence: one per transfer from outside accounts and strings used. */
function fill(book: Book, events: readonly Value[]): Value[] {
  const filling = book.transfers.filter((t) =>
    t.pending === null && t.moves.every((m) => m.from.account.outside && !m.to.account.outside)
  );
  const out = new Map<string, Value>();
  for (const e of events) {
    const args = (e as { args: Record<string, Value> }).args;
    for (const t of filling) {
      const given: Record<string, Value> = {};
      for (const p of t.params) {
        given[p.name] = p.type.kind === "string"
          ? (typeof args[p.name] === "string" ? args[p.name] : `fill-${p.name}`)
          : FILL_AMOUNT;
      }
      const event = { transfer: t.name, op: "do", args: given };
      out.set(stringifyJson(event), event);
    }
  }
  return [...out.values()];
}

/** What the handler answers for an outcome of chobo's interpreter. */
function expected(o: Outcome): Record<string, string> {
  switch (o.kind) {
    case "done":
    case "done_before":
      return { result: o.kind };
    case "refused":
      return { refused: o.reason };
    case "failed":
      return { error: o.why.en };
  }
}

/**
 * One tenant's operations: those that fill it first (sent to chobo's client directly: the flow's
 * Lambda takes only the flow's own operations), then the events sent to the Lambda, and what the
 * interpreter answers each.
 */
interface Job {
  readonly id: string;
  readonly sequence: Sequence;
  readonly tenant: string;
  readonly fill: readonly Value[];
  readonly events: readonly Value[];
  readonly expected: readonly Record<string, string>[];
}

function jobs(list: readonly Sequence[]): Job[] {
  return list.flatMap((s, i) => {
    const runs: [string, Value[], Value[]][] = [
      [`s${i}-empty`, [], [...s.events]],
      [`s${i}-filled`, fill(s.book, s.events), [...s.events, ...s.events]],
    ];
    return runs.map(([tenant, filling, events]) => {
      const ledger = Ledger.empty(s.book.accounts.map((a) => a.name));
      for (const e of filling) {
        const o = ledger.apply(callOf(s.book, e));
        assert(o.kind === "done", `filling ${s.book.name} is done`);
      }
      const answers = events.map((e) => expected(ledger.apply(callOf(s.book, e))));
      return {
        id: `${s.flow.path} ${s.use} ${tenant}`,
        sequence: s,
        tenant,
        fill: filling,
        events,
        expected: answers,
      };
    });
  });
}

async function python(args: string[], cwd?: string): Promise<{ ok: boolean; out: string }> {
  try {
    const r = await new Deno.Command("python3", { args, cwd, stdout: "piped", stderr: "piped" }).output();
    const text = new TextDecoder();
    return { ok: r.success, out: text.decode(r.stdout) + text.decode(r.stderr) };
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { ok: false, out: "python3 is not installed" };
    throw e;
  }
}

function sha(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 12);
}

/** The files of one flow's book Lambda with chobo's client of `target`, in `dir`; the handler's module name. */
function writeLambda(
  dir: string,
  s: Sequence,
  target: "postgres" | "tigerbeetle",
): { handler: string; client: string } {
  Deno.mkdirSync(dir, { recursive: true });
  Deno.writeTextFileSync(`${dir}/dandori_book.py`, BOOK_RUNTIME);
  const use = findOne(s.flow.plan.books, (b) => b.name === s.use, `book ${s.use}`);
  const origin = { file: s.flow.path.split("/").pop() ?? "", path: s.flow.path, text: "", ...ORIGIN };
  const handlerFile = bookHandlerFile(s.use).replace(/^lambda\//, "");
  Deno.writeTextFileSync(`${dir}/${handlerFile}`, bookHandler(s.flow.plan, use, origin));
  const client = (target === "postgres" ? pythonClient : tigerbeetlePythonClient)(s.book, {
    file: "book",
    ...ORIGIN,
  });
  const [file, text] = [...client][0];
  Deno.writeTextFileSync(`${dir}/${file}`, text);
  return { handler: handlerFile.replace(/\.py$/, ""), client: `${dir}/${file}` };
}

/** An operation as chobo's Python client is called: the member of the transfer and the keyword arguments. */
function pythonCall(s: Sequence, event: Value): Value {
  const e = event as { transfer: string; op: string; args: Record<string, Value> };
  const use = findOne(s.flow.plan.books, (b) => b.name === s.use, `book ${s.use}`);
  const m = transferMembers(use.transfers, "python");
  const params = lookup(m.transferParams, e.transfer, "transfer");
  return {
    transfer: lookup(m.transfers, e.transfer, "transfer"),
    op: e.op,
    args: Object.fromEntries(Object.entries(e.args).map(([k, v]) => [lookup(params, k, "parameter"), v])),
  };
}

/** Where the runner finds each target: a PostgreSQL server's socket and databases, or a TigerBeetle `Where`. */
type Connection =
  | { readonly target: "postgres"; readonly host: string; readonly databases: Record<string, string> }
  | { readonly target: "tigerbeetle"; readonly where: Where };

/** Plays the jobs on one target through the runner; the answers by job id. */
async function play(
  list: readonly Job[],
  dir: string,
  connection: Connection,
): Promise<Map<string, Record<string, string>[]>> {
  const target = connection.target;
  const dirs = new Map<string, { handler: string; client: string; dir: string }>();
  const written = list.map((j) => {
    const key = `${j.sequence.flow.path} ${j.sequence.use}`;
    let d = dirs.get(key);
    if (d === undefined) {
      const at = `${dir}/${target}-${dirs.size}`;
      d = { ...writeLambda(at, j.sequence, target), dir: at };
      dirs.set(key, d);
    }
    return {
      id: j.id,
      dir: d.dir,
      handler: d.handler,
      client: d.client,
      book: sha(postgresSql(j.sequence.book, "book", "0", "0")),
      target,
      tenant: j.tenant,
      fill: JSON.parse(stringifyJson(j.fill.map((e) => pythonCall(j.sequence, e)))),
      events: JSON.parse(stringifyJson(j.events)),
    };
  });
  const where = connection.target === "postgres"
    ? { host: connection.host, databases: connection.databases }
    : connection.where;
  Deno.writeTextFileSync(`${dir}/jobs.json`, JSON.stringify({ jobs: written, [target]: where }));
  const r = await python([RUNNER, `${dir}/jobs.json`]);
  ok(r.ok, r.out);
  const results = JSON.parse(r.out) as { results: { id: string; answers: Record<string, string>[] }[] };
  return new Map(results.results.map((x) => [x.id, x.answers]));
}

function compare(list: readonly Job[], got: ReadonlyMap<string, Record<string, string>[]>): void {
  let compared = 0;
  for (const j of list) {
    deepStrictEqual(
      got.get(j.id),
      j.expected,
      `${j.id}: the book Lambda answers ${JSON.stringify(got.get(j.id))}`,
    );
    compared += j.events.length;
  }
  ok(compared > 0);
  console.log(`${list.length} tenants, ${compared} operations agree with chobo's interpreter`);
}

Deno.test("the book Lambdas on PostgreSQL: every distinct book-operation sequence answers as chobo's interpreter does", async () => {
  const bin = findPgBin();
  if (bin === null) {
    console.log("SKIP: postgres: no PostgreSQL server binaries (initdb, pg_ctl)");
    return;
  }
  if (!(await python(["-c", "import psycopg"])).ok) {
    console.log("SKIP: python: psycopg is not installed (pip install -r verify/requirements.txt)");
    return;
  }
  const list = jobs(sequences());
  ok(list.length >= 20, `${list.length} tenants`);
  const cluster = await startCluster(bin);
  const dir = Deno.makeTempDirSync({ prefix: "dandori-book-lambda-" });
  try {
    const admin = serverDb(cluster.socketDir);
    const databases: Record<string, string> = {};
    try {
      for (const j of list) {
        const key = sha(postgresSql(j.sequence.book, "book", "0", "0"));
        if (key in databases) continue;
        const name = `book_${key}`;
        await admin.exec(`create database ${name}`);
        const db = serverDb(cluster.socketDir, name);
        try {
          await db.exec(postgresSql(j.sequence.book, "book", "0", "0"));
        } finally {
          await db.end();
        }
        databases[key] = name;
      }
    } finally {
      await admin.end();
    }
    compare(list, await play(list, dir, { target: "postgres", host: cluster.socketDir, databases }));
  } finally {
    Deno.removeSync(dir, { recursive: true });
    await cluster.stop();
  }
});

/** Plays every job on TigerBeetle at `where` and compares; false when the Python library is missing. */
async function onTigerBeetle(where: Where): Promise<boolean> {
  if (!(await python(["-c", "import tigerbeetle"])).ok) {
    console.log(
      "SKIP: python: tigerbeetle is not installed (pip install -r verify/requirements-tigerbeetle.txt)",
    );
    return false;
  }
  const list = jobs(sequences());
  const dir = Deno.makeTempDirSync({ prefix: "dandori-book-lambda-tb-" });
  try {
    compare(list, await play(list, dir, { target: "tigerbeetle", where }));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
  return true;
}

Deno.test("the book Lambdas on TigerBeetle: every distinct book-operation sequence answers as chobo's interpreter does", async () => {
  const bin = Deno.env.get("CHOBO_TIGERBEETLE");
  if (bin === undefined || bin === "") {
    console.log("SKIP: tigerbeetle: CHOBO_TIGERBEETLE is not set");
    return;
  }
  const replica = await startReplica(bin);
  try {
    await onTigerBeetle({ addresses: replica.address });
  } finally {
    await replica.stop();
  }
});

Deno.test("the book Lambdas on the TigerBeetle test double (not TigerBeetle): the same answers, through the runner's connection", async () => {
  const bridge = startBridge();
  try {
    await onTigerBeetle({ double: bridge.url });
  } finally {
    await bridge.stop();
  }
});

Deno.test("the book Lambdas of the Step Functions flows pass mypy --strict with chobo's clients of both targets and a caller", async () => {
  if (!(await python(["-m", "mypy", "--version"])).ok) {
    console.log("SKIP: mypy: not installed (pip install -r verify/requirements.txt)");
    return;
  }
  const flows = everyRunnableFlow().filter((f) => f.plan.books.some((b) => b.lambda !== null));
  ok(flows.length >= 4, `${flows.length} flows with a book Lambda`);
  const dir = Deno.makeTempDirSync({ prefix: "dandori-book-mypy-" });
  try {
    for (const [i, f] of flows.entries()) {
      for (const use of f.plan.books) {
        const book = lookup(f.checked.model.books, use.name, "book").chobo;
        const s: Sequence = { flow: f, use: use.name, book, events: [] };
        for (const target of ["postgres", "tigerbeetle"] as const) {
          const at = `${dir}/${i}-${use.name}-${target}`;
          const { handler, client } = writeLambda(at, s, target);
          const module = client.split("/").pop()?.replace(/\.py$/, "") ?? "";
          const open = target === "postgres"
            ? `${module}.postgres(psycopg.connect("", autocommit=True), tenant="t")`
            : `${module}.tigerbeetle(tigerbeetle.ClientSync(cluster_id=0, replica_addresses="3000"), tenant="t")`;
          Deno.writeTextFileSync(
            `${at}/app.py`,
            `import ${
              target === "postgres" ? "psycopg" : "tigerbeetle"
            }\n\nimport ${module}\nfrom ${handler} import make_handler\nfrom dandori_book import Handler\n\nhandler: Handler = make_handler(lambda: ${open})\n`,
          );
          const r = await python([
            "-m",
            "mypy",
            "--strict",
            "--cache-dir",
            mypyCache("stepfunctions-books"),
            ".",
          ], at);
          ok(
            r.ok && r.out.startsWith("Success: no issues found"),
            `${f.path} ${use.name} ${target}:\n${r.out}`,
          );
        }
      }
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
