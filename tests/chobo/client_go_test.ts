/**
 * `postgres-go` (docs/targets.md#postgresql-clients): every test and example book's Go client is gofmt-clean
 * and passes go vet, carries the runtime file but for its package clause, and is the same bytes
 * twice; the runtime retries as docs/targets.md says; the Go runner plays jobs on a real server
 * and sends the statements of calls.ts; under REPEATABLE READ concurrent callers all end done.
 */

import { whileRowsHeldIn } from "../support/held_rows.ts";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { checkBook } from "../../lang/chobo/check.ts";
import type { OpName } from "../../lang/chobo/interp.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { callStatement, expireStatement, type Statement } from "../../targets/chobo/postgres/calls.ts";
import { goNameProblems, goPackageName } from "../../targets/chobo/go_names.ts";
import { GO_RUNTIME_PACKAGE_LINE, GO_RUNTIME_URL, goClient } from "../../targets/chobo/postgres/go.ts";
import { postgresSql } from "../../targets/chobo/postgres/sql.ts";
import { findPgBin, startCluster } from "../../verify/services/pg_cluster.ts";
import { serverDb } from "../../verify/services/pg_db.ts";
import { jobCall } from "../support/calls.ts";
import { buildGoRunner, go, goMod, hasGo } from "../../verify/chobo/runners/go/runner.ts";

const BOOKS = new URL("./books/", import.meta.url).pathname;
const EXAMPLES = new URL("../../examples/", import.meta.url).pathname;
const RUNTIME_TEST = new URL("./fixtures/go/runtime_test.go", import.meta.url).pathname;
const ORIGIN = { sha: "0123456789abcdef", version: "0.1.0" };
const GO = await hasGo();

/**
 * Names Go must export (docs/targets.md): `balance`/`expire` transfers, and snake_case that becomes
 * CamelCase, twice the same.
 */
const NAMES_BOOK = `book names v1

unit pcs

account shop_sales(shop_id: string) : pcs
  at least 0 refused as short
account src : pcs outside

transfer balance(k: string, n: pcs)
  key k
  move n from src to shop_sales(k)

transfer expire(k: string)
  key k
  pending never expires
  move 1 from shop_sales(k) to src

transfer take_back(return_id: string, n: pcs)
  key return_id
  move n from src to shop_sales(return_id)

transfer takeBack(order_id: string, n: pcs)
  key order_id
  pending never expires
  move n from src to shop_sales(order_id)
`;

/** What the names book's Go names are, as its book.go declares them. */
const NAMES_GO = [
  "\tBalance_2  *Balance_2Transfer",
  "\tExpire_2   *Expire_2Transfer",
  "\tTakeBack   *TakeBackTransfer",
  "\tTakeBack_2 *TakeBack_2Transfer",
  "func (t *TakeBackTransfer) Do(ctx context.Context, a TakeBackArgs) (Result, error) {",
  "func (t *TakeBack_2Transfer) Post(ctx context.Context, key TakeBack_2Key, amounts *TakeBack_2Amounts) (Result, error) {",
  "type TakeBackArgs struct {\n\tReturnId string\n\tN        int64\n}",
  "type TakeBack_2Key struct {\n\tOrderId string\n}",
  "func (b *Balances) ShopSales(ctx context.Context, a ShopSalesAccount) (Balance, error) {",
  "type ShopSalesAccount struct {\n\tShopId string\n}",
];

function skipWithoutGo(): boolean {
  if (!GO) console.log("SKIP: chobo: postgres-go: go is not installed");
  return !GO;
}

function bookPaths(): string[] {
  const paths: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(`${dir}/${e.name}`);
      else if (e.name.endsWith(".book")) paths.push(`${dir}/${e.name}`);
    }
  };
  walk(EXAMPLES);
  for (const e of Deno.readDirSync(BOOKS)) if (e.name.endsWith(".book")) paths.push(`${BOOKS}${e.name}`);
  return paths.sort();
}

function load(path: string, text = Deno.readTextFileSync(path)): Book {
  const { book, diagnostics } = checkBook(path, text);
  if (book === null) throw new Error(`${path}: ${diagnostics.map((d) => d.message).join("; ")}`);
  return book;
}

function clientOf(path: string): Map<string, string> {
  return goClient(load(path), { file: path.slice(path.lastIndexOf("/") + 1), ...ORIGIN });
}

function write(dir: string, files: ReadonlyMap<string, string>): void {
  for (const [path, text] of files) {
    const target = `${dir}/${path}`;
    Deno.mkdirSync(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    Deno.writeTextFileSync(target, text);
  }
}

Deno.test("postgres-go: every book's client and the names book's are gofmt-clean, pass go vet, and the runtime passes go test", async () => {
  if (skipWithoutGo()) return;
  const dir = Deno.makeTempDirSync({ prefix: "chobo-go-clients-" });
  try {
    Deno.writeTextFileSync(`${dir}/go.mod`, goMod("chobo.invalid/clients"));
    const paths = bookPaths();
    ok(paths.length >= 20, `${paths.length} books`);
    let stock = "";
    for (const [i, path] of paths.entries()) {
      write(`${dir}/b${i}`, clientOf(path));
      if (path === `${BOOKS}在庫.book`) stock = `./b${i}/book`;
    }
    write(`${dir}/names`, goClient(load("names.book", NAMES_BOOK), { file: "names.book", ...ORIGIN }));
    ok(stock !== "");
    Deno.copyFileSync(RUNTIME_TEST, `${dir}/${stock}/runtime_test.go`);
    await go(["mod", "tidy"], dir);
    strictEqual(await gofmt(dir), "");
    await go(["vet", "./..."], dir);
    await go(["test", "-count=1", stock], dir);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

/** What `gofmt -l .` lists: the files gofmt would change. gofmt ships in the Go installation's bin. */
async function gofmt(dir: string): Promise<string> {
  const root = (await go(["env", "GOROOT"], dir)).trim();
  const out = await new Deno.Command(`${root}/bin/gofmt`, { args: ["-l", "."], cwd: dir, stdout: "piped" })
    .output();
  ok(out.success);
  return new TextDecoder().decode(out.stdout);
}

Deno.test("postgres-go: runtime.go is the runtime file but for its package clause, and the same book gives the same bytes", () => {
  const runtime = Deno.readTextFileSync(GO_RUNTIME_URL).split("\n");
  const at = runtime.indexOf(GO_RUNTIME_PACKAGE_LINE);
  ok(at >= 0);
  const packages = new Set<string>();
  for (const path of bookPaths()) {
    const files = clientOf(path);
    const pkg = goPackageName(load(path));
    packages.add(pkg);
    deepStrictEqual([...files.keys()], [`${pkg}/book.go`, `${pkg}/runtime.go`]);
    const book = files.get(`${pkg}/book.go`)!.split("\n");
    strictEqual(book[0], `// Code generated by chobo ${ORIGIN.version}. DO NOT EDIT.`);
    ok(book[1].startsWith(`// Source: ${path.slice(path.lastIndexOf("/") + 1)} (book `), book[1]);
    ok(book[1].endsWith(` v${load(path).version}, sha256:${ORIGIN.sha})`), book[1]);
    ok(book.includes(`package ${pkg}`));
    const lines = files.get(`${pkg}/runtime.go`)!.split("\n");
    deepStrictEqual(lines.slice(0, 2), [book[0], ""]);
    const copied = lines.slice(2);
    strictEqual(copied.length, runtime.length);
    const differ = copied.flatMap((line, i) => line === runtime[i] ? [] : [i]);
    deepStrictEqual(differ, pkg === "book" ? [] : [at]);
    strictEqual(copied[at], `package ${pkg}`);
    deepStrictEqual(clientOf(path), files, `${path}: same book, same bytes`);
  }
  ok(packages.has("book") && packages.has("wallet"), [...packages].join(" "));
});

Deno.test("postgres-go: names: packages, members, and names Go cannot spell", () => {
  const stock = load(`${BOOKS}在庫.book`);
  strictEqual(goPackageName(stock), "book");
  strictEqual(goPackageName({ ...stock, name: "wallet" }), "wallet");
  strictEqual(goPackageName({ ...stock, name: "type" }), "book");
  strictEqual(goPackageName({ ...stock, name: "main" }), "book");
  const go = goClient(stock, { file: "在庫.book", ...ORIGIN }).get("book/book.go")!;
  for (
    const want of [
      "func Postgres(q Querier, tenant string) *Book {",
      "func (t *X引当Transfer) Hold(ctx context.Context, a X引当Args) (Result, error) {",
      "func (t *X引当Transfer) Post(ctx context.Context, key X引当Key, amounts *X引当Amounts) (Result, error) {",
      "func (t *X引当Transfer) Status(ctx context.Context, key X引当Key) (HoldState, error) {",
      "func (b *Balances) X在庫(ctx context.Context, a X在庫Account) (Balance, error) {",
      "func (b *Book) Expire(ctx context.Context) (int, error) {",
      '\treturn t.c.write(ctx, `select result, reason from "在庫"."引当_hold"($1, $2, $3, $4)`, []string{`注文`, `sku`, `数`}, a.X注文, a.Sku, a.X数)',
    ]
  ) {
    ok(go.includes(want), want);
  }
  const names = goClient(load("names.book", NAMES_BOOK), { file: "names.book", ...ORIGIN }).get(
    "names/book.go",
  )!;
  for (const want of NAMES_GO) ok(names.includes(want), want);
  // A transfer that shares its name with an account keeps its own parameters.
  const shared = load(
    "shared.book",
    "book shared v1\nunit pcs\n\naccount shelf(item: string) : pcs\n  at least 0 refused as sold_out\n" +
      "account wholesaler : pcs outside\n\ntransfer shelf(slip: string, item: string, qty: pcs)\n" +
      "  key slip, item\n  move qty from wholesaler to shelf(item)\n",
  );
  const sharedGo = goClient(shared, { file: "shared.book", ...ORIGIN }).get("shared/book.go")!;
  ok(sharedGo.includes("a.Slip, a.Item, a.Qty)"), sharedGo);
  // chobo's names may hold combining marks and letter numbers; Go's may not.
  const text = Deno.readTextFileSync(`${BOOKS}在庫.book`);
  for (const name of ["नाम", "Ⅻ"]) {
    const book = load("x.book", text.replaceAll("sku", name));
    deepStrictEqual(goNameProblems(book), [`X${name}`]);
    throws(() => goClient(book, { file: "x.book", ...ORIGIN }), /names Go cannot spell/);
  }
});

/** A step of jobs.json. */
type JobStep =
  | { call: string; op: OpName; strings: Record<string, string>; amounts?: Record<string, string> }
  | { pass: true }
  | { together: JobStep[][] };

interface RunnerOutput {
  results: {
    id: string;
    steps: (string | null | string[][])[];
    late: boolean;
    sent: { text: string; values: (string | null)[] }[];
  }[];
}

async function runJobs(
  binary: string,
  dir: string,
  jobs: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<RunnerOutput> {
  Deno.writeTextFileSync(`${dir}/jobs.json`, JSON.stringify(jobs));
  const out = await new Deno.Command(binary, {
    args: [`${dir}/jobs.json`],
    env,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const stderr = new TextDecoder().decode(out.stderr);
  ok(out.success, stderr);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** The statement calls.ts says a step sends. */
function expected(book: Book, tenant: string, step: JobStep): Statement {
  if (!("call" in step)) throw new Error("not a call");
  return callStatement(book, jobCall(book, step), tenant);
}

function plain(s: Statement): { text: string; values: (string | null)[] } {
  return { text: s.text, values: [...s.values] };
}

Deno.test("postgres-go: the runner plays jobs on a real server, sends the statements of calls.ts, and retries under REPEATABLE READ", async (t) => {
  if (skipWithoutGo()) return;
  const bin = findPgBin();
  if (bin === null) {
    console.log("SKIP: chobo: postgres-go: no PostgreSQL server binaries (initdb, pg_ctl)");
    return;
  }
  // The test copy: holds last 1 second.
  const text = Deno.readTextFileSync(`${BOOKS}在庫.book`).replace(
    /pending expires after .*/,
    "pending expires after 1 second",
  );
  const book = load("在庫.book", text);
  const dir = Deno.makeTempDirSync({ prefix: "chobo-go-runner-" });
  const cluster = await startCluster(bin);
  const db = serverDb(cluster.socketDir);
  try {
    const [binary] = await Promise.all([
      buildGoRunner(`${dir}/runner`, [{ book, sqlName: book.name }]),
      db.exec(postgresSql(book, "在庫.book", "test", "test")),
    ]);
    strictEqual(await gofmt(`${dir}/runner`), "", "the runner's module is gofmt-clean");
    await go(["vet", "./..."], `${dir}/runner`);
    const base = {
      socket_dir: cluster.socketDir,
      pool: 4,
      expiry_ms: 1000,
      margin_ms: 300,
      clients: { [book.name]: `${dir}/runner` },
    };

    await t.step("steps, sent statements and a pass", async () => {
      const hold = (order: string): JobStep => ({
        call: "引当",
        op: "hold",
        strings: { 注文: order, sku: "A-1" },
        amounts: { 数: "1" },
      });
      const steps: JobStep[] = [
        { call: "入荷", op: "do", strings: { 納品書: "d-1", sku: "A-1" }, amounts: { 数: "2" } },
        hold("o-1"),
        { together: [[hold("o-2")], [hold("o-3")]] },
        { call: "引当", op: "post", strings: { 注文: "o-1", sku: "A-1" } },
        { pass: true },
        hold("o-4"),
        { call: "引当", op: "post", strings: { 注文: "o-4", sku: "A-1" }, amounts: { 数: "1" } },
        { call: "引当", op: "void", strings: { 注文: "o-1", sku: "A-1" } },
      ];
      const keys: JobStep[] = [
        { call: "入荷", op: "do", strings: { 納品書: "d-1", sku: "A-1" }, amounts: { 数: "2" } },
        { call: "入荷", op: "do", strings: { 納品書: "d-1", sku: "A-1" }, amounts: { 数: "3" } },
        { call: "入荷", op: "do", strings: { 納品書: "d-1", sku: "A-1" }, amounts: { 数: "2" } },
      ];
      const jobs = [
        { id: "在庫#1", book: book.name, tenant: "go/在庫#1/1", steps },
        { id: "在庫#2", book: book.name, tenant: "go/在庫#2/1", steps: keys },
      ];
      const started = Date.now();
      const out = await runJobs(binary, dir, { ...base, jobs });
      const elapsed = Date.now() - started;
      const [first, second] = out.results;
      strictEqual(first.id, "在庫#1");
      const together = first.steps[2] as string[][];
      deepStrictEqual(together.map((c) => c.join()).sort(), ["done", "refused:在庫切れ"]);
      deepStrictEqual(first.steps, [
        "done",
        "done",
        together,
        "done",
        null,
        "done", // only when expire() gave the expired hold's unit back
        "done",
        "refused:already_posted",
      ]);
      strictEqual(first.late, false);
      const sent = first.sent;
      const want = steps.flatMap((s) =>
        "pass" in s ? [expireStatement(book)] : "together" in s ? [] : [expected(book, jobs[0].tenant, s)]
      ).map(plain);
      // The together's two statements, in the order the callers sent them.
      const pair = sent.slice(2, 4);
      deepStrictEqual(
        pair.map((s) => JSON.stringify(s)).sort(),
        [hold("o-2"), hold("o-3")].map((s) => JSON.stringify(plain(expected(book, jobs[0].tenant, s))))
          .sort(),
      );
      deepStrictEqual([...sent.slice(0, 2), ...sent.slice(4)], want);
      deepStrictEqual(sent[4].values, [jobs[0].tenant, "o-1", "A-1", null], "a post in full sends null");
      deepStrictEqual(sent[5], { text: `select "在庫".expire() as n`, values: [] });
      ok(elapsed >= 1300, `the pass waited ${elapsed} ms`);
      const holds = await db.query({
        text: `select key, state from "在庫".holds where tenant = $1 order by key`,
        values: [jobs[0].tenant],
      });
      const winner = together[0][0] === "done" ? "o-2" : "o-3";
      deepStrictEqual(
        holds.map((h) => [h.key, h.state]),
        [
          ['["o-1", "A-1"]', "posted"],
          [`["${winner}", "A-1"]`, "expired"],
          ['["o-4", "A-1"]', "posted"],
        ],
      );
      deepStrictEqual(second.steps, ["done", "refused:key_conflict", "done_before"]);
      deepStrictEqual(second.sent, keys.map((s) => plain(expected(book, jobs[1].tenant, s))));
    });

    await t.step("4 callers × 50 do into one account under REPEATABLE READ all end done", async () => {
      const CALLERS = 4;
      const CALLS = 50;
      const callers = Array.from(
        { length: CALLERS },
        (_, c) =>
          Array.from({ length: CALLS }, (_, n): JobStep => ({
            call: "入荷",
            op: "do",
            strings: { 納品書: `c${c}-${n}`, sku: "R-1" },
            amounts: { 数: "1" },
          })),
      );
      const tenant = "go/repeatable-read";
      const env = { PGOPTIONS: "-c default_transaction_isolation=repeatable\\ read" };
      const jobsOf = (steps: JobStep[] | { together: JobStep[][] }[]) => ({
        ...base,
        jobs: [{ id: "在庫#rr", book: book.name, tenant, steps }],
      });
      const made: JobStep = {
        call: "入荷",
        op: "do",
        strings: { 納品書: "first", sku: "R-1" },
        amounts: { 数: "1" },
      };
      deepStrictEqual((await runJobs(binary, dir, jobsOf([made]), env)).results[0].steps, ["done"]);
      const out = await whileRowsHeldIn(
        db,
        '"在庫"',
        tenant,
        () => runJobs(binary, dir, jobsOf([{ together: callers }]), env),
      );
      const [result] = out.results;
      deepStrictEqual(result.steps, [callers.map((c) => c.map(() => "done"))]);
      const tries = result.sent.length;
      ok(tries > CALLERS * CALLS, `${tries} statements for ${CALLERS * CALLS} calls: some were retried`);
      const [balance] = await db.query({
        text: `select posted::text from "在庫"."balance_在庫"($1, $2)`,
        values: [tenant, "R-1"],
      });
      strictEqual(balance.posted, String(CALLERS * CALLS + 1));
      console.log(`REPEATABLE READ: ${CALLERS * CALLS} calls took ${tries} tries`);
    });
  } finally {
    await db.end();
    await cluster.stop();
    Deno.removeSync(dir, { recursive: true });
  }
});
