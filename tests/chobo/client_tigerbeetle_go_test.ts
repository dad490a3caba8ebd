/**
 * `tigerbeetle-go` (docs/targets.md#tigerbeetle): every test and example book's client (and the bounds
 * book of tests/chobo/fixtures/tigerbeetle-go) is gofmt-clean and passes go vet, carries the runtime file
 * but for its package clause, and is the same bytes twice; the runtime's white-box tests pass
 * (the result table of docs/targets.md#results, accounts and openings that changed); and for every operation of every
 * scenario, the generated Go client sends exactly what `run --show tigerbeetle --format json`
 * prints and ends each step as the reference interpreter says. The clients build in a module that
 * requires tigerbeetle-go v0.17.9 (`TB_GO_MODULE`), as a user's must: its Client is a
 * TigerBeetleClient, and each status the runtime reads has the number tigerbeetle-node gives its name.
 *
 * How the Go client is played without a server: each scenario is first played through the
 * TypeScript client (`TigerBeetleBook`, targets/chobo/tigerbeetle/client.ts) over the test double
 * (tests/support/tigerbeetle_double.ts, not TigerBeetle), recording every request and the
 * double's answer. A Go program (tests/chobo/fixtures/tigerbeetle-go/play.go) plays the same scenario
 * through the generated Go client over a fake TigerBeetleClient that checks each request against
 * the record and answers with the recorded answer. What Go sent is then compared with
 * `sentTigerBeetleJson`, and its outcomes, hold states and balances with the interpreter's.
 */

import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { checkBook } from "../../lang/chobo/check.ts";
import { accountId } from "../../lang/chobo/ids.ts";
import { type Call, type HoldState, keyValues, type Outcome } from "../../lang/chobo/interp.ts";
import type { Book, Transfer } from "../../lang/chobo/model.ts";
import { type Branch, readScenarios, runScenario, type Scenario } from "../../lang/chobo/scenario.ts";
import { generateScenarios } from "../../lang/chobo/scenarios.ts";
import { members } from "../../targets/chobo/names.ts";
import { goPackageName } from "../../targets/chobo/go_names.ts";
import { requests, type TbAccount, type TbTransfer } from "../../targets/chobo/tigerbeetle/chain.ts";
import { TigerBeetleBook, type TigerBeetleRequests } from "../../targets/chobo/tigerbeetle/client.ts";
import {
  TB_GO_MODULE,
  TB_GO_RUNTIME_PACKAGE_LINE,
  TB_GO_RUNTIME_URL,
  tigerbeetleGoClient,
} from "../../targets/chobo/tigerbeetle/go.ts";
import {
  CREATE_ACCOUNT_STATUS,
  CREATE_TRANSFER_STATUS,
} from "../../targets/chobo/tigerbeetle/runtime/runtime.ts";
import type { TbResult } from "../../targets/chobo/tigerbeetle/results.ts";
import { sentTigerBeetleJson } from "../../targets/chobo/tigerbeetle/show.ts";
import { go, hasGo } from "../../verify/chobo/runners/go/runner.ts";
import { type Sums, TigerBeetleDouble } from "../support/tigerbeetle_double.ts";
import {
  assertTbVectors,
  TIGERBEETLE_VECTORS_FILE,
  tigerbeetleVectors,
} from "../support/tigerbeetle_vectors.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const BOOKS = `${ROOT}tests/chobo/books/`;
const FIXTURES = `${ROOT}tests/chobo/fixtures/tigerbeetle-go/`;
const BOUNDS = `${FIXTURES}bounds.book`;
const ORIGIN = { sha: "0123456789abcdef", version: "0.1.0" };
const GO = await hasGo();
/** tigerbeetle-go is cgo: without a C compiler Go turns cgo off and cannot build it. */
const CGO = GO && (await go(["env", "CGO_ENABLED"], ROOT)).trim() === "1";

/** The module the tests write. */
const MODULE = "chobo.invalid/tigerbeetle-go";
const GO_VERSION = "1.26.0";

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
  if (!GO) console.log("SKIP: chobo: tigerbeetle-go: go is not installed");
  else if (!CGO) {
    console.log(
      "SKIP: chobo: tigerbeetle-go: cgo is off (CGO_ENABLED=0 or no C compiler), and tigerbeetle-go needs it",
    );
  }
  return !CGO;
}

/** The go.mod of a module that holds book packages: what the user's go.mod needs, as `go mod tidy` leaves it. */
const GO_MOD =
  `module ${MODULE}\n\ngo ${GO_VERSION}\n\nrequire ${TB_GO_MODULE.path} ${TB_GO_MODULE.version}\n`;

/**
 * `go mod tidy` over a module written with GO_MOD: it writes go.sum, fetching tigerbeetle-go through
 * the module proxy on a fresh machine, and leaves go.mod as it was, so the packages import the module.
 */
async function tidy(dir: string): Promise<void> {
  await go(["mod", "tidy"], dir);
  strictEqual(Deno.readTextFileSync(`${dir}/go.mod`), GO_MOD);
}

/**
 * Every example and test book, and the bounds book (every kind of bound of
 * docs/targets.md#one-move-up-to-6-transfers).
 */
function bookPaths(): string[] {
  const paths: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(`${dir}/${e.name}`);
      else if (e.name.endsWith(".book")) paths.push(`${dir}/${e.name}`);
    }
  };
  walk(`${ROOT}examples`);
  walk(`${ROOT}tests/chobo/books`);
  return [...paths.sort(), BOUNDS];
}

function load(path: string, text = Deno.readTextFileSync(path)): Book {
  const { book, diagnostics } = checkBook(path, text);
  if (book === null) throw new Error(`${path}: ${diagnostics.map((d) => d.message.en).join("; ")}`);
  return book;
}

function clientOf(path: string, book = load(path)): Map<string, string> {
  return tigerbeetleGoClient(book, { file: path.slice(path.lastIndexOf("/") + 1), ...ORIGIN });
}

/** The generated and hand-written (`<book>.more.json`) scenarios of a book. */
function scenariosOf(path: string, book: Book): Scenario[] {
  let more: Scenario[] = [];
  try {
    more = readScenarios(book, Deno.readTextFileSync(path.replace(/\.book$/, ".more.json")));
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return [...generateScenarios(book), ...more];
}

function write(dir: string, files: ReadonlyMap<string, string>): void {
  for (const [path, text] of files) {
    const target = `${dir}/${path}`;
    Deno.mkdirSync(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    Deno.writeTextFileSync(target, text);
  }
}

/** What `gofmt -l .` lists: the files gofmt would change. gofmt ships in the Go installation's bin. */
async function gofmt(dir: string): Promise<string> {
  const root = (await go(["env", "GOROOT"], dir)).trim();
  const out = await new Deno.Command(`${root}/bin/gofmt`, { args: ["-l", "."], cwd: dir, stdout: "piped" })
    .output();
  ok(out.success);
  return new TextDecoder().decode(out.stdout);
}

Deno.test("tigerbeetle-go: runtime.go is the runtime file but for its package clause, and the same book gives the same bytes", () => {
  const runtime = Deno.readTextFileSync(TB_GO_RUNTIME_URL).split("\n");
  const at = runtime.indexOf(TB_GO_RUNTIME_PACKAGE_LINE);
  ok(at >= 0);
  const packages = new Set<string>();
  for (const path of bookPaths()) {
    const book = load(path);
    const files = clientOf(path, book);
    const pkg = goPackageName(book);
    packages.add(pkg);
    deepStrictEqual([...files.keys()], [`${pkg}/book.go`, `${pkg}/runtime.go`]);
    const lines = files.get(`${pkg}/book.go`)!.split("\n");
    strictEqual(lines[0], `// Code generated by chobo ${ORIGIN.version}. DO NOT EDIT.`);
    ok(
      lines[1].startsWith(`// Source: ${path.slice(path.lastIndexOf("/") + 1)} (book ${book.name} `),
      lines[1],
    );
    ok(lines[1].endsWith(` v${book.version}, sha256:${ORIGIN.sha})`), lines[1]);
    ok(lines.includes(`package ${pkg}`));
    const copied = files.get(`${pkg}/runtime.go`)!.split("\n");
    deepStrictEqual(copied.slice(0, 2), [lines[0], ""]);
    strictEqual(copied.length - 2, runtime.length);
    const differ = copied.slice(2).flatMap((line, i) => line === runtime[i] ? [] : [i]);
    deepStrictEqual(differ, pkg === "book" ? [] : [at]);
    strictEqual(copied[2 + at], `package ${pkg}`);
    deepStrictEqual(clientOf(path, load(path)), files, `${path}: same book, same bytes`);
  }
  ok(packages.has("book") && packages.has("wallet") && packages.has("bounds"), [...packages].join(" "));
});

Deno.test("tigerbeetle-go: the surface of postgres-go, with TigerBeetle(c, tenant); names Go cannot spell and E060 stop it", () => {
  const stock = load(`${BOOKS}在庫.book`);
  const go = clientOf("在庫.book", stock).get("book/book.go")!;
  for (
    const want of [
      "func TigerBeetle(c TigerBeetleClient, tenant string, options ...Option) *Book {",
      "func (t *X入荷Transfer) Do(ctx context.Context, a X入荷Args) (Result, error) {",
      "func (t *X引当Transfer) Hold(ctx context.Context, a X引当Args) (Result, error) {",
      "func (t *X引当Transfer) Post(ctx context.Context, key X引当Key, amounts *X引当Amounts) (Result, error) {",
      "func (t *X引当Transfer) Void(ctx context.Context, key X引当Key) (Result, error) {",
      "func (t *X引当Transfer) Status(ctx context.Context, key X引当Key) (HoldState, error) {",
      "func (b *Balances) X在庫(ctx context.Context, a X在庫Account) (Balance, error) {",
      "func (b *Balances) X客(ctx context.Context) (Balance, error) {",
      "\treturn t.c.write(ctx, 1, opHold, a.X注文, a.Sku, a.X数)",
      "\treturn t.c.status(ctx, 1, key.X注文, key.Sku, nil)",
    ]
  ) {
    ok(go.includes(want), want);
  }
  ok(!go.includes("Expire"), "TigerBeetle gives expired holds back by itself");
  const namesGo = clientOf("names.book", load("names.book", NAMES_BOOK)).get("names/book.go")!;
  for (const want of NAMES_GO) ok(namesGo.includes(want), want);
  ok(
    go.includes(`// ${TB_GO_MODULE.path} ${TB_GO_MODULE.version}, which builds with cgo.`),
    "the requirement",
  );
  const runtime = Deno.readTextFileSync(TB_GO_RUNTIME_URL);
  for (
    const want of [
      "type TigerBeetleClient interface {",
      "\tCreateAccounts(accounts []Account) ([]CreateAccountResult, error)",
      "\tCreateTransfers(transfers []Transfer) ([]CreateTransferResult, error)",
      "\tLookupAccounts(accountIDs []Uint128) ([]Account, error)",
      "\tLookupTransfers(transferIDs []Uint128) ([]Transfer, error)",
      '\t"crypto/sha256"',
      `\ttb "${TB_GO_MODULE.path}"`,
    ]
  ) {
    ok(runtime.includes(want), want);
  }
  // The members are those of postgres-go (targets/chobo/names.ts), so a caller switches targets freely.
  const names = members(stock, "go");
  for (const m of names.transfers.values()) {
    ok(go.includes(`\t${m} `) && go.includes(`type ${m}Transfer struct`), m);
  }
  // Names Go cannot spell, and a chain longer than one request (E060), stop the build.
  const text = Deno.readTextFileSync(`${BOOKS}在庫.book`);
  throws(() => clientOf("x.book", load("x.book", text.replaceAll("sku", "Ⅻ"))), /names Go cannot spell/);
  const long = `${ROOT}tests/chobo/fixtures/build/long_chain.book`;
  throws(() => clientOf(long), /E060: chains longer than 253: spread \(258\)/);
});

// ---------------------------------------------------------------------------------------------
// Recording what the TypeScript client sends and what the double answers.

type J = Record<string, unknown>;

const dec = (v: bigint) => v.toString();

function accountJson(a: TbAccount): J {
  return {
    id: dec(a.id),
    user_data_128: dec(a.user_data_128),
    user_data_64: dec(a.user_data_64),
    user_data_32: a.user_data_32,
    ledger: a.ledger,
    code: a.code,
    flags: [...a.flags],
  };
}

function transferJson(t: TbTransfer, random: ReadonlySet<bigint> = new Set()): J {
  return {
    id: random.has(t.id) ? "random" : dec(t.id),
    debit_account_id: dec(t.debit_account_id),
    credit_account_id: dec(t.credit_account_id),
    amount: dec(t.amount),
    pending_id: dec(t.pending_id),
    user_data_128: dec(t.user_data_128),
    user_data_64: dec(t.user_data_64),
    user_data_32: t.user_data_32,
    timeout: t.timeout,
    ledger: t.ledger,
    code: t.code,
    flags: [...t.flags],
  };
}

/** The double's requests, recorded with their answers; the status chain's ids are recorded as `random`. */
class Recorder implements TigerBeetleRequests {
  readonly requests: J[] = [];
  constructor(private readonly tb: TigerBeetleDouble, private readonly random: ReadonlySet<bigint>) {}

  async createAccounts(events: readonly TbAccount[]): Promise<readonly TbResult[]> {
    const results = await this.tb.createAccounts(events);
    this.requests.push({ kind: "create_accounts", accounts: events.map(accountJson), results });
    return results;
  }

  async createTransfers(events: readonly TbTransfer[]): Promise<readonly TbResult[]> {
    const results = await this.tb.createTransfers(events);
    this.requests.push({
      kind: "create_transfers",
      transfers: events.map((t) => transferJson(t, this.random)),
      results,
    });
    return results;
  }

  async lookupTransfers(ids: readonly bigint[]): Promise<readonly TbTransfer[]> {
    const found = await this.tb.lookupTransfers(ids);
    this.requests.push({
      kind: "lookup_transfers",
      ids: ids.map(dec),
      found_transfers: found.map((t) => transferJson(t)),
    });
    return found;
  }

  /** What `lookup_accounts` would read: the double keeps every account's fields with its sums. */
  lookupAccount(id: bigint): void {
    const a = this.tb.sums(id) as (TbAccount & Sums) | null;
    const found = a === null ? [] : [{
      ...accountJson(a),
      debits_pending: dec(a.debits_pending),
      debits_posted: dec(a.debits_posted),
      credits_pending: dec(a.credits_pending),
      credits_posted: dec(a.credits_posted),
    }];
    this.requests.push({ kind: "lookup_accounts", ids: [dec(id)], found_accounts: found });
  }
}

function outcomeKey(o: Outcome): string {
  if (o.kind === "refused") return `refused:${o.reason}`;
  if (o.kind === "failed") return `failed:${o.why.en}`;
  return o.kind;
}

function stepJson(call: Call): J {
  const strings: Record<string, string> = {};
  const amounts: Record<string, string> = {};
  for (const [k, v] of call.strings) strings[k] = v;
  for (const [k, v] of call.amounts) amounts[k] = dec(v);
  return { call: `${call.transfer.name}.${call.op}`, strings, amounts };
}

/** The step outcomes of a branch, each step's operations in caller order, as the clients play them. */
function branchOutcomes(b: Branch): string[][] {
  return b.steps.map((s) =>
    s.kind === "call"
      ? [outcomeKey(s.outcome)]
      : s.kind === "pass"
      ? []
      : s.callers.flatMap((c) => c.map((r) => outcomeKey(r.outcome)))
  );
}

/** One scenario as the Go player reads it, with what the TypeScript client and the interpreter said. */
interface Recording {
  readonly scenario: Scenario;
  readonly input: J;
  readonly outcomes: string[][];
  readonly checks: string[];
}

/** Ids far from any hash's neighbourhood, so the record can name the status chain's ids. */
const RANDOM_BASE = 0x5a5a_5a5a_5a5a_5a5a_0000_0000_0000_0000n;

async function record(book: Book, s: Scenario, tenant: string, where: string): Promise<Recording> {
  const tb = new TigerBeetleDouble();
  const random = new Set<bigint>();
  const recorder = new Recorder(tb, random);
  const client = new TigerBeetleBook(recorder, book, tenant, () => {
    const id = RANDOM_BASE + BigInt(random.size + 1);
    random.add(id);
    return id;
  });
  const steps: J[] = [];
  const outcomes: string[][] = [];
  for (const step of s.steps) {
    if (step.kind === "call") {
      steps.push(stepJson(step.call));
      outcomes.push([outcomeKey(await client.call(step.call))]);
    } else if (step.kind === "pass") {
      tb.advance(step.seconds);
      steps.push({ pass: true });
      outcomes.push([]);
    } else {
      const out: string[] = [];
      for (const calls of step.callers) for (const c of calls) out.push(outcomeKey(await client.call(c)));
      steps.push({ together: step.callers.map((calls) => calls.map(stepJson)) });
      outcomes.push(out);
    }
  }
  // The interpreter's branch these outcomes are (a together's callers ran one after another).
  const branches = runScenario(book, s);
  const branch = branches.find((b) => JSON.stringify(branchOutcomes(b)) === JSON.stringify(outcomes));
  ok(
    branch !== undefined,
    `${where}: the TypeScript client over the double is none of the interpreter's branches`,
  );
  // Afterwards: the state of every hold the scenario named, and every account's balance.
  const checks: J[] = [];
  const expected: string[] = [];
  const holds = new Map<string, [Transfer, string[]]>();
  for (const step of s.steps) {
    const calls = step.kind === "call" ? [step.call] : step.kind === "together" ? step.callers.flat() : [];
    for (const c of calls) {
      if (c.transfer.pending === null) continue;
      const key = keyValues(c);
      holds.set(JSON.stringify([c.transfer.name, ...key]), [c.transfer, key]);
    }
  }
  for (const [t, key] of holds.values()) {
    checks.push({ status: t.name, strings: Object.fromEntries(t.key.map((k, i) => [k, key[i]])) });
    const state: HoldState | null = branch.ledger.holds().find((h) =>
      h.transfer === t.name && JSON.stringify(h.key) === JSON.stringify(key)
    )?.state ?? null;
    const read = await client.status(t, key);
    deepStrictEqual(read, { state }, `${where}: the TypeScript client reads ${t.name}(${key})`);
    expected.push(`state:${state ?? ""}`);
  }
  for (const { id, balance } of branch.ledger.accounts()) {
    const a = book.accounts.find((x) => x.name === id.account)!;
    checks.push({ balance: a.name, strings: Object.fromEntries(a.params.map((p, i) => [p, id.args[i]])) });
    recorder.lookupAccount(accountId(book, tenant, a.name, id.args));
    expected.push(`balance:${balance.posted},${balance.heldIn},${balance.heldOut}`);
  }
  return {
    scenario: s,
    input: { name: s.name, tenant, steps, checks, requests: recorder.requests },
    outcomes,
    checks: expected,
  };
}

// ---------------------------------------------------------------------------------------------
// The Go player: play.go copied into each book's package, its tables generated per book.

/** A Go string literal. */
const goString = (s: string) => JSON.stringify(s);

/** play_ops.go: per book, "<transfer>.<op>", "<transfer>" (status) and "<account>" (balance) → the typed method. */
function playOpsGo(book: Book, pkg: string): string {
  const m = members(book, "go");
  const fn = (returns: string) => `func(context.Context, *Book, playStep) (${returns}, error)`;
  const entry = (name: string, returns: string, body: string) =>
    `\tops[${goString(name)}] = func(ctx context.Context, b *Book, s playStep) (${returns}, error) {\n` +
    `\t\t${body}\n\t}\n`;
  const table = (name: string, returns: string, entries: string[]) =>
    `func ${name}() map[string]${fn(returns)} {\n\tops := map[string]${fn(returns)}{}\n${
      entries.join("")
    }\treturn ops\n}\n`;
  const ops: string[] = [];
  const statuses: string[] = [];
  for (const t of book.transfers) {
    const member = m.transfers.get(t.name)!;
    const params = m.transferParams.get(t.name)!;
    const value = (name: string) =>
      t.params.find((p) => p.name === name)!.type.kind === "string"
        ? `s.text(${goString(name)})`
        : `s.amount(${goString(name)})`;
    const literal = (type: string, names: readonly string[]) =>
      `${member}${type}{${names.map((n) => `${params.get(n)!}: ${value(n)}`).join(", ")}}`;
    const all = t.params.map((p) => p.name);
    if (t.pending === null) {
      ops.push(entry(`${t.name}.do`, "Result", `return b.${member}.Do(ctx, ${literal("Args", all)})`));
      continue;
    }
    const key = literal("Key", t.params.filter((p) => t.key.includes(p.name)).map((p) => p.name));
    const amounts = t.params.filter((p) => p.type.kind === "amount").map((p) => p.name);
    ops.push(entry(`${t.name}.hold`, "Result", `return b.${member}.Hold(ctx, ${literal("Args", all)})`));
    ops.push(entry(
      `${t.name}.post`,
      "Result",
      amounts.length === 0
        ? `return b.${member}.Post(ctx, ${key})`
        : `var amounts *${member}Amounts\n\t\tif s.partial() {\n\t\t\tamounts = &${
          literal("Amounts", amounts)
        }\n\t\t}\n\t\treturn b.${member}.Post(ctx, ${key}, amounts)`,
    ));
    ops.push(entry(`${t.name}.void`, "Result", `return b.${member}.Void(ctx, ${key})`));
    statuses.push(entry(t.name, "HoldState", `return b.${member}.Status(ctx, ${key})`));
  }
  const balances = book.accounts.map((a) => {
    const member = m.accounts.get(a.name)!;
    const params = m.accountParams.get(a.name)!;
    const arg = a.params.length === 0
      ? ""
      : `, ${member}Account{${a.params.map((p) => `${params.get(p)!}: s.text(${goString(p)})`).join(", ")}}`;
    return entry(a.name, "Balance", `return b.Balance.${member}(ctx${arg})`);
  });
  return `// Code generated by tests/chobo/client_tigerbeetle_go_test.ts for the scenario player. DO NOT EDIT.

package ${pkg}

import "context"

${table("playOps", "Result", ops)}
${table("playStatuses", "HoldState", statuses)}
${table("playBalances", "Balance", balances)}`;
}

/** main.go: reads `<n>.json` of book n from the directory given, writes `<n>.out.json`. */
function playMainGo(packages: readonly string[]): string {
  const imports = packages.map((pkg, i) => [`b${i}`, `${MODULE}/b${i}/${pkg}`] as const)
    .sort((a, b) => a[1] < b[1] ? -1 : 1); // gofmt sorts imports by path
  return `// Code generated by tests/chobo/client_tigerbeetle_go_test.ts for the scenario player. DO NOT EDIT.

package main

import (
\t"fmt"
\t"os"
\t"path/filepath"
\t"strconv"

${imports.map(([alias, path]) => `\t${alias} "${path}"\n`).join("")})

func main() {
\tplays := []func([]byte) ([]byte, error){${packages.map((_, i) => `b${i}.ChoboPlay`).join(", ")}}
\tfor i, play := range plays {
\t\tinput, err := os.ReadFile(filepath.Join(os.Args[1], strconv.Itoa(i)+".json"))
\t\tif err != nil {
\t\t\tfmt.Fprintln(os.Stderr, err)
\t\t\tos.Exit(1)
\t\t}
\t\toutput, err := play(input)
\t\tif err == nil {
\t\t\terr = os.WriteFile(filepath.Join(os.Args[1], strconv.Itoa(i)+".out.json"), output, 0o644)
\t\t}
\t\tif err != nil {
\t\t\tfmt.Fprintln(os.Stderr, "book", i, err)
\t\t\tos.Exit(1)
\t\t}
\t}
}
`;
}

/** Writes the module: every book's client with the player beside it, and main.go. */
function writeModule(dir: string, books: readonly { path: string; book: Book }[]): string[] {
  Deno.writeTextFileSync(`${dir}/go.mod`, GO_MOD);
  const play = Deno.readTextFileSync(`${FIXTURES}play.go`);
  const packages = books.map(({ path, book }, i) => {
    const pkg = goPackageName(book);
    write(`${dir}/b${i}`, clientOf(path, book));
    Deno.writeTextFileSync(`${dir}/b${i}/${pkg}/play.go`, play.replace(/^package book$/m, `package ${pkg}`));
    Deno.writeTextFileSync(`${dir}/b${i}/${pkg}/play_ops.go`, playOpsGo(book, pkg));
    return pkg;
  });
  Deno.mkdirSync(`${dir}/play`);
  Deno.writeTextFileSync(`${dir}/play/main.go`, playMainGo(packages));
  return packages;
}

/**
 * The package of the shared vectors' book under `dir`, with the player's tables, vectors_test.go and
 * the vectors in testdata/; its name.
 */
function writeVectorsPackage(dir: string): string {
  const path = `${ROOT}${tigerbeetleVectors().book}`;
  const book = load(path);
  const pkg = goPackageName(book);
  write(dir, clientOf(path, book));
  const play = Deno.readTextFileSync(`${FIXTURES}play.go`);
  Deno.writeTextFileSync(`${dir}/${pkg}/play.go`, play.replace(/^package book$/m, `package ${pkg}`));
  Deno.writeTextFileSync(`${dir}/${pkg}/play_ops.go`, playOpsGo(book, pkg));
  Deno.copyFileSync(`${FIXTURES}vectors_test.go`, `${dir}/${pkg}/vectors_test.go`);
  Deno.mkdirSync(`${dir}/${pkg}/testdata`);
  Deno.copyFileSync(TIGERBEETLE_VECTORS_FILE, `${dir}/${pkg}/testdata/tigerbeetle_answers.json`);
  return pkg;
}

// ---------------------------------------------------------------------------------------------
// Comparing what Go sent with `run --show tigerbeetle --format json`.

interface GoRequest {
  kind: string;
  accounts?: J[];
  transfers?: J[];
  ids?: string[];
}

interface GoOutput {
  name: string;
  steps: { requests: GoRequest[]; outcome: string }[][];
  checks: string[];
  failure?: string;
}

interface ShownOperation {
  call: string;
  answered?: string;
  lookup_transfers?: bigint[];
  create_accounts?: (TbAccount & J)[][];
  openings?: TbTransfer[][];
  chain: ShownTransfer[];
}

type ShownTransfer = Omit<TbTransfer, "id"> & { id: bigint | "random" };

function shownTransfer(t: ShownTransfer): J {
  return { ...transferJson({ ...t, id: 0n }), id: t.id === "random" ? "random" : dec(t.id) };
}

/**
 * The requests a client sends for one operation that `--show` prints: the lookups, the accounts
 * and openings this book value has not sent yet (in requests of at most 253), and the chain.
 */
function expectedRequests(op: ShownOperation, sent: Set<string>): GoRequest[] {
  if (op.answered === "same_account") return [];
  const out: GoRequest[] = [];
  if (op.lookup_transfers !== undefined) {
    out.push({ kind: "lookup_transfers", ids: op.lookup_transfers.map(dec) });
    if (op.answered === "no_such_hold") return out;
  }
  const accounts = (op.create_accounts ?? []).flat().map(accountJson).filter((a) =>
    !sent.has(a.id as string)
  );
  for (const batch of requests(accounts)) out.push({ kind: "create_accounts", accounts: batch });
  const openings = (op.openings ?? []).flat().map((t) => transferJson(t)).filter((t) =>
    !sent.has(t.id as string)
  );
  for (const batch of requests(openings)) out.push({ kind: "create_transfers", transfers: batch });
  for (const e of [...accounts, ...openings]) sent.add(e.id as string);
  out.push({ kind: "create_transfers", transfers: op.chain.map(shownTransfer) });
  return out;
}

/** What Go sent, its status chain's ids read as `random` where `--show` prints them so (checked first). */
function withRandomIds(got: GoRequest[], want: GoRequest[], where: string): GoRequest[] {
  return got.map((r, i) => {
    const shown = want[i]?.transfers;
    if (r.transfers === undefined || shown === undefined || !shown.some((t) => t.id === "random")) return r;
    const ids = r.transfers.map((t) => t.id as string);
    ok(new Set(ids).size === ids.length && !ids.includes("0"), `${where}: the status chain's ids ${ids}`);
    return {
      ...r,
      transfers: r.transfers.map((t, j) => shown[j]?.id === "random" ? { ...t, id: "random" } : t),
    };
  });
}

function assertSentAsShown(book: Book, s: Scenario, out: GoOutput, where: string): number {
  const shown = sentTigerBeetleJson(book, s) as { steps: { operations: ShownOperation[] }[] };
  const sent = new Set<string>();
  let operations = 0;
  strictEqual(out.steps.length, shown.steps.length, `${where}: steps`);
  shown.steps.forEach((step, i) => {
    strictEqual(out.steps[i].length, step.operations.length, `${where}: step ${i + 1}: operations`);
    step.operations.forEach((op, j) => {
      const at = `${where}: step ${i + 1}, operation ${j + 1} (${op.call})`;
      const want = expectedRequests(op, sent);
      deepStrictEqual(withRandomIds(out.steps[i][j].requests, want, at), want, at);
      operations++;
    });
  });
  return operations;
}

/** A failure's text is the client's own; only that it failed is compared. */
const kindOf = (outcome: string) => outcome.startsWith("failed:") ? "failed" : outcome;

Deno.test("tigerbeetle-go: gofmt, go vet and the runtime's tests; every operation of every scenario sends what --show tigerbeetle prints and ends as the interpreter says", async (t) => {
  if (skipWithoutGo()) return;
  const dir = Deno.makeTempDirSync({ prefix: "chobo-tigerbeetle-go-" });
  try {
    const books = [
      ...bookPaths().map((path) => ({ path, book: load(path) })),
      { path: `${ROOT}names.book`, book: load("names.book", NAMES_BOOK) },
    ];
    ok(books.length >= 20, `${books.length} books`);
    const packages = writeModule(dir, books);
    const bounds = books.findIndex((b) => b.path === BOUNDS);
    Deno.copyFileSync(`${FIXTURES}runtime_test.go`, `${dir}/b${bounds}/bounds/runtime_test.go`);
    await tidy(dir);

    await t.step("gofmt -l is silent and go vet passes over every client and the player", async () => {
      strictEqual(await gofmt(dir), "");
      await go(["vet", "./..."], dir);
    });

    await t.step(
      "the runtime's white-box tests: the result table, changed accounts and openings, balances",
      async () => {
        const out = await go(["test", "-count=1", "-v", `./b${bounds}/bounds`], dir);
        const passed = out.match(/^--- PASS/gm)?.length ?? 0;
        ok(passed >= 8 && !/^--- FAIL/m.test(out), out);
      },
    );

    await t.step(
      "the Go client over the recorded double: requests, outcomes, hold states, balances",
      async () => {
        const build = go(["build", "-o", `${dir}/player`, "./play"], dir);
        const recordings: Recording[][] = [];
        let recorded = 0;
        for (const [i, { path, book }] of books.entries()) {
          const name = path.slice(ROOT.length);
          const list: Recording[] = [];
          for (const s of scenariosOf(path, book)) list.push(await record(book, s, "", `${name}: ${s.name}`));
          // The same scenarios under another tenant: the Go client's requests equal the TypeScript
          // client's request by request (the fake checks them), ids with the tenant included.
          if (i % 4 === 0) {
            for (const s of scenariosOf(path, book).slice(0, 8)) {
              list.push(await record(book, s, "tenant/1", `${name}: ${s.name} (tenant/1)`));
            }
          }
          Deno.writeTextFileSync(`${dir}/${i}.json`, JSON.stringify(list.map((r) => r.input)));
          recordings.push(list);
          recorded += list.length;
        }
        await build;
        const run = await new Deno.Command(`${dir}/player`, { args: [dir], stderr: "piped" }).output();
        ok(run.success, new TextDecoder().decode(run.stderr));

        let operations = 0;
        let compared = 0;
        let checks = 0;
        const seen = new Set<string>();
        for (const [i, { path, book }] of books.entries()) {
          const outputs = JSON.parse(Deno.readTextFileSync(`${dir}/${i}.out.json`)) as GoOutput[];
          strictEqual(outputs.length, recordings[i].length);
          outputs.forEach((out, k) => {
            const r = recordings[i][k];
            const where = `${path.slice(ROOT.length)} (${packages[i]}): ${r.scenario.name} (tenant ${
              JSON.stringify(r.input.tenant)
            })`;
            strictEqual(out.failure, undefined, `${where}: ${out.failure}`);
            deepStrictEqual(
              out.steps.map((ops) => ops.map((op) => kindOf(op.outcome))),
              r.outcomes.map((ops) => ops.map(kindOf)),
              `${where}: outcomes`,
            );
            deepStrictEqual(out.checks, r.checks, `${where}: hold states and balances`);
            checks += out.checks.length;
            if (r.input.tenant === "") {
              operations += assertSentAsShown(book, r.scenario, out, where);
              compared++;
            }
            for (const ops of r.outcomes) for (const o of ops) seen.add(o.split(":")[0]);
          });
        }
        ok(compared > 400, `only ${compared} scenarios compared with --show`);
        ok(operations > 1000, `only ${operations} operations`);
        ok(checks > 1000, `only ${checks} hold states and balances`);
        deepStrictEqual([...seen].sort(), ["done", "done_before", "refused"]);
        console.log(
          `tigerbeetle-go: ${recorded} scenarios played, ${compared} compared with --show (${operations} operations), ${checks} hold states and balances`,
        );
      },
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("tigerbeetle-go: tests/vectors/tigerbeetle_answers.json: every case sends its requests and answers its outcome", async () => {
  if (skipWithoutGo()) return;
  const dir = Deno.makeTempDirSync({ prefix: "chobo-tigerbeetle-go-vectors-" });
  try {
    Deno.writeTextFileSync(`${dir}/go.mod`, GO_MOD);
    const pkg = writeVectorsPackage(dir);
    await tidy(dir);
    strictEqual(await gofmt(dir), "");
    await go(["vet", "./..."], dir);
    await go(["test", "-count=1", "-run", "^TestSharedVectors$", `./${pkg}`], dir);
    const played = JSON.parse(Deno.readTextFileSync(`${dir}/${pkg}/testdata/played.json`));
    assertTbVectors("go", played, (o) => o.startsWith("failed:chobo: "));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

/** statuses.go, beside the runtime in a book's package: what the runtime reads each status as. */
const STATUSES_GO = `package bounds

// ChoboStatuses is each status the runtime reads, by the name it reads it as, with its number.
func ChoboStatuses() (accounts, transfers [][2]any) {
\tfor status, name := range accountStatusNames {
\t\taccounts = append(accounts, [2]any{name, uint32(status)})
\t}
\tfor status, name := range transferStatusNames {
\t\ttransfers = append(transfers, [2]any{name, uint32(status)})
\t}
\treturn accounts, transfers
}
`;

/** statuses/main.go: prints ChoboStatuses as JSON; it compiles only if tigerbeetle-go's Client is a TigerBeetleClient. */
const STATUSES_MAIN_GO = `package main

import (
\t"encoding/json"
\t"os"

\ttb "${TB_GO_MODULE.path}"

\t"${MODULE}/bounds"
)

// The Client that tb.NewClient returns is a TigerBeetleClient.
var _ bounds.TigerBeetleClient = tb.Client(nil)

func main() {
\taccounts, transfers := bounds.ChoboStatuses()
\tif err := json.NewEncoder(os.Stdout).Encode([][][2]any{accounts, transfers}); err != nil {
\t\tpanic(err)
\t}
}
`;

Deno.test("tigerbeetle-go: its Client is a TigerBeetleClient, and each status the runtime reads has the number the TypeScript runtime gives its name, which tigerbeetle-node's bindings pin", async () => {
  if (skipWithoutGo()) return;
  const dir = Deno.makeTempDirSync({ prefix: "chobo-tigerbeetle-go-statuses-" });
  try {
    Deno.writeTextFileSync(`${dir}/go.mod`, GO_MOD);
    write(dir, clientOf(BOUNDS));
    Deno.writeTextFileSync(`${dir}/bounds/statuses.go`, STATUSES_GO);
    write(dir, new Map([["statuses/main.go", STATUSES_MAIN_GO]]));
    await tidy(dir);
    strictEqual(await gofmt(dir), "");
    await go(["vet", "./..."], dir);
    await go(["build", "-o", `${dir}/statuses-bin`, "./statuses"], dir);
    const run = await new Deno.Command(`${dir}/statuses-bin`, { stdout: "piped", stderr: "piped" }).output();
    ok(run.success, new TextDecoder().decode(run.stderr));
    const [accounts, transfers] = JSON.parse(new TextDecoder().decode(run.stdout)) as [string, number][][];
    for (
      const [read, table] of [[accounts, CREATE_ACCOUNT_STATUS], [transfers, CREATE_TRANSFER_STATUS]] as const
    ) {
      const names = read.map(([name]) => name);
      strictEqual(new Set(names).size, names.length, `a name read for two statuses: ${names}`);
      for (const [name, number] of read) {
        strictEqual(number, table[name], name);
      }
    }
    ok(accounts.length >= 9 && transfers.length >= 24, `${accounts.length} and ${transfers.length} statuses`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
