/**
 * The tigerbeetle-python client (docs/targets.md#tigerbeetle): every test and example book's client passes
 * `mypy --strict` (with a caller that hands it a `tigerbeetle.ClientSync`), ends with the runtime
 * byte for byte and is the same bytes for the same book; for every operation of every scenario of
 * every test and example book (and the bounds book of `tests/chobo/fixtures/tigerbeetle/`) it sends
 * exactly what `chobo run --show tigerbeetle --format json` prints, and concludes what the
 * reference interpreter concludes; it reads TigerBeetle's results as docs/targets.md#results says; an
 * account or opening that exists with other fields raises an error naming what changed.
 *
 * No TigerBeetle server runs here. `tests/chobo/fixtures/tigerbeetle/play.py` hands the generated client
 * a scripted client that answers each request with the answer the reference client logic
 * (`TigerBeetleBook` of client.ts) got from the test double (`tests/support/tigerbeetle_double.ts`,
 * which answers as the records of docs/design/chobo.md#what-tigerbeetle-answered say; it is not TigerBeetle)
 * for the same operation, recorded here, and reports every request exactly as the Python client built it. A
 * request that differs from `--show`'s fails the test whatever it was answered, so replaying is as strict as
 * a second double in Python, with one double to trust instead of two.
 */

import { mypyCache } from "../support/mypy.ts";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";

import { accountId } from "../../lang/chobo/ids.ts";
import { type AccountId, type Call, callArgs, keyValues, type Outcome } from "../../lang/chobo/interp.ts";
import { lookup } from "../../lang/common/assert.ts";
import type { Book, Transfer } from "../../lang/chobo/model.ts";
import { readScenarios, runScenario, type Scenario } from "../../lang/chobo/scenario.ts";
import { generateScenarios } from "../../lang/chobo/scenarios.ts";
import { type Json, parseJson, stringifyJson } from "../../lang/common/json.ts";
import { members } from "../../targets/chobo/names.ts";
import {
  moveSends,
  requests,
  statusChain,
  type TbAccount,
  type TbTransfer,
} from "../../targets/chobo/tigerbeetle/chain.ts";
import { type AccountFlag, lowerChains, type TransferFlag } from "../../targets/chobo/tigerbeetle/plan.ts";
import {
  randomId,
  type SentRequest,
  TigerBeetleBook,
  type TigerBeetleRequests,
} from "../../targets/chobo/tigerbeetle/client.ts";
import {
  TIGERBEETLE_PYTHON_RUNTIME_MARK,
  tigerbeetlePythonClient,
} from "../../targets/chobo/tigerbeetle/python.ts";
import { PYTHON_RUNTIME } from "../../targets/chobo/tigerbeetle/runtimes.ts";
import { accountsFailure } from "../../targets/chobo/tigerbeetle/results.ts";
import { sentTigerBeetleJson } from "../../targets/chobo/tigerbeetle/show.ts";
import { type Sums, TigerBeetleDouble } from "../support/tigerbeetle_double.ts";
import { HOSTILE_STRINGS } from "../support/hostile.ts";
import { loadBook as load } from "../support/books.ts";
import {
  assertTbVectors,
  type TbVectorPlay,
  TIGERBEETLE_VECTORS_FILE,
  tigerbeetleVectors,
} from "../support/tigerbeetle_vectors.ts";
import { callOf } from "../support/calls.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const RUNTIME_FILE = `${ROOT}targets/chobo/tigerbeetle/runtime/runtime.py`;
const PLAYER = `${ROOT}tests/chobo/fixtures/tigerbeetle/play.py`;
const BATCHING = `${ROOT}tests/chobo/fixtures/tigerbeetle/batching.py`;
const BOUNDS = `${ROOT}tests/chobo/fixtures/tigerbeetle/bounds.book`;
const ORIGIN = { sha: "0123456789abcdef", version: "0.1.0" };
const MAX_ID = (1n << 128n) - 1n;

/** Names a Python client must survive: keywords, `self`, the book's own members, types and the runtime's. */
const NAMES_BOOK = `book names v1
unit pcs

account str(self: string, class: string) : pcs
  at least 0 refused as short
account Balance : pcs outside
account _tb : pcs outside
account _TigerBeetle : pcs outside
account _chobo_str : pcs outside

transfer balance(int: string, str: string, Result: string, n: pcs)
  key int, str, Result
  move n from Balance to str(int, str)

transfer expire(_tb: string, None: string, n: pcs)
  key _tb, None
  pending expires after 1 seconds
  move n from str(_tb, None) to _tb

transfer _definition(import: string, lambda: pcs, tb: string)
  key import, tb
  pending never expires
  move lambda from _TigerBeetle to Balance
`;

/** Every `.book` under `dir`, sorted. */
function booksUnder(dir: string): string[] {
  const paths: string[] = [];
  const walk = (d: string) => {
    for (const e of Deno.readDirSync(d)) {
      if (e.isDirectory) walk(`${d}/${e.name}`);
      else if (e.name.endsWith(".book")) paths.push(`${d}/${e.name}`);
    }
  };
  walk(dir);
  return paths.sort();
}

/** The test and example books and the bounds book: the books whose scenarios are played. */
function playedPaths(): string[] {
  return [...booksUnder(`${ROOT}tests/chobo/books`), ...booksUnder(`${ROOT}examples`), BOUNDS];
}

/** Every played book and the names book. */
function books(): { path: string; text: string }[] {
  return [
    ...playedPaths().map((path) => ({ path, text: Deno.readTextFileSync(path) })),
    { path: "names.book", text: NAMES_BOOK },
  ];
}

function generate(path: string, text: string): [string, string] {
  const files = tigerbeetlePythonClient(load(path, text), { file: path.split("/").pop()!, ...ORIGIN });
  strictEqual(files.size, 1);
  return [...files][0];
}

interface Ran {
  readonly ok: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

async function python(args: string[], options: { cwd?: string } = {}): Promise<Ran> {
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
/** The package of `verify/requirements-tigerbeetle.txt`; importing it loads its native library. */
const hasTigerBeetle = async () => (await python(["-c", "import tigerbeetle"])).ok;

async function skipWithoutTigerBeetle(what: string): Promise<boolean> {
  if (await hasTigerBeetle()) return false;
  console.log(`SKIP: chobo: tigerbeetle-python: ${what}: the tigerbeetle package (0.17.9) is not installed`);
  return true;
}

async function mypyStrict(cwd: string, files: string[]): Promise<void> {
  const run = await python([
    "-m",
    "mypy",
    "--strict",
    "--cache-dir",
    mypyCache("chobo-tigerbeetle-python"),
    ...files,
  ], {
    cwd,
  });
  ok(run.ok, `mypy --strict ${files.join(" ")}:\n${run.stdout}${run.stderr}`);
  ok(run.stdout.startsWith("Success: no issues found"), run.stdout);
}

Deno.test("every book's client passes mypy --strict, and so do the runtime, the player and a caller on tigerbeetle.ClientSync", async () => {
  if (!(await hasMypy())) {
    console.log("SKIP: chobo: tigerbeetle-python: mypy is not installed");
    return;
  }
  if (await skipWithoutTigerBeetle("mypy --strict")) return;
  const dir = Deno.makeTempDirSync({ prefix: "chobo-tb-py-" });
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
    await mypyStrict(dir, [RUNTIME_FILE, PLAYER]);
    // Checked, not run: the official client is what `tigerbeetle()` takes, and the surface is typed.
    Deno.writeTextFileSync(
      `${dir}/0/use.py`,
      `import tigerbeetle as tb

import 在庫


def use() -> None:
    with tb.ClientSync(cluster_id=0, replica_addresses="3000") as client:
        book = 在庫.tigerbeetle(client, tenant="t")
        done: 在庫.Result = book.入荷.do(納品書="d", sku="s", 数=1)
        held: 在庫.Result = book.引当.hold(注文="o", sku="s", 数=1)
        partial: 在庫.Result = book.引当.post(注文="o", sku="s", 数=1)
        full: 在庫.Result = book.引当.post(注文="o", sku="s")
        voided: 在庫.Result = book.引当.void(注文="o", sku="s")
        state: 在庫.HoldState | None = book.引当.status(注文="o", sku="s")
        balance: 在庫.Balance = book.balance.在庫(sku="s")
        print(done, held, partial, full, voided, state, balance, 在庫.tigerbeetle(client))
`,
    );
    await mypyStrict(`${dir}/0`, ["use.py", "在庫.py"]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("every client ends with the runtime byte for byte, and the same book gives the same bytes", () => {
  const runtime = Deno.readTextFileSync(RUNTIME_FILE);
  strictEqual(PYTHON_RUNTIME, runtime);
  ok(!runtime.includes(TIGERBEETLE_PYTHON_RUNTIME_MARK), "the runtime does not contain the mark");
  for (const { path, text } of books()) {
    const [file, content] = generate(path, text);
    const book = load(path, text);
    strictEqual(file, `${book.name}.py`);
    const parts = content.split(`\n${TIGERBEETLE_PYTHON_RUNTIME_MARK}\n`);
    strictEqual(parts.length, 2, `${file}: one runtime mark`);
    strictEqual(parts[1], runtime, `${file}: the runtime part`);
    ok(
      parts[0].startsWith(
        `# Code generated by chobo 0.1.0. DO NOT EDIT.\n# Source: ${
          path.split("/").pop()
        } (book ${book.name} v${book.version}, sha256:0123456789abcdef)\n`,
      ),
    );
    deepStrictEqual(generate(path, text), [file, content], `${file}: same bytes`);
  }
  // A chain over 253 transfers is stopped by E060 before the generator runs; alone it refuses too.
  const long = `${ROOT}tests/chobo/fixtures/build/long_chain.book`;
  throws(() => generate(long, Deno.readTextFileSync(long)), /E060: chains longer than 253: spread \(258\)/);
});

// ---------------------------------------------------------------------------------------------
// Requests as the Python client builds them: every field of `tigerbeetle.Account` / `Transfer`.

/** TigerBeetle's flag bits (`AccountFlags`, `TransferFlags` of tigerbeetle 0.17.9), bit 0 first. */
const ACCOUNT_FLAG_BITS: readonly AccountFlag[] = [
  "linked",
  "debits_must_not_exceed_credits",
  "credits_must_not_exceed_debits",
  "history",
  "imported",
  "closed",
];
const TRANSFER_FLAG_BITS: readonly TransferFlag[] = [
  "linked",
  "pending",
  "post_pending_transfer",
  "void_pending_transfer",
  "balancing_debit",
  "balancing_credit",
  "closing_debit",
  "closing_credit",
  "imported",
];

function bits(flags: readonly string[], order: readonly string[]): bigint {
  return flags.reduce((n, f) => {
    const bit = order.indexOf(f);
    if (bit < 0) throw new Error(`no flag ${f}`);
    return n | (1n << BigInt(bit));
  }, 0n);
}

type Fields = Record<string, bigint | "random">;
type Request =
  | { readonly kind: "create_accounts" | "create_transfers"; readonly events: Fields[] }
  | { readonly kind: "lookup_accounts" | "lookup_transfers"; readonly ids: bigint[] };

const ZERO_SUMS: Sums = { debits_pending: 0n, debits_posted: 0n, credits_pending: 0n, credits_posted: 0n };

function accountFields(a: TbAccount, sums: Sums = ZERO_SUMS): Fields {
  return {
    id: a.id,
    debits_pending: sums.debits_pending,
    debits_posted: sums.debits_posted,
    credits_pending: sums.credits_pending,
    credits_posted: sums.credits_posted,
    user_data_128: a.user_data_128,
    user_data_64: a.user_data_64,
    user_data_32: BigInt(a.user_data_32),
    ledger: BigInt(a.ledger),
    code: BigInt(a.code),
    flags: bits(a.flags, ACCOUNT_FLAG_BITS),
    timestamp: 0n,
  };
}

/** A transfer's fields; `random` stands for the status chain's random ids. */
function transferFields(t: Omit<TbTransfer, "id"> & { readonly id: bigint | "random" }): Fields {
  return {
    id: t.id,
    debit_account_id: t.debit_account_id,
    credit_account_id: t.credit_account_id,
    amount: t.amount,
    pending_id: t.pending_id,
    user_data_128: t.user_data_128,
    user_data_64: t.user_data_64,
    user_data_32: BigInt(t.user_data_32),
    timeout: BigInt(t.timeout),
    ledger: BigInt(t.ledger),
    code: BigInt(t.code),
    flags: bits(t.flags, TRANSFER_FLAG_BITS),
    timestamp: 0n,
  };
}

/** A request of `TigerBeetleBook.sent` as the Python client would build it. */
function sentFields(r: SentRequest): Request {
  switch (r.kind) {
    case "create_accounts":
      return { kind: r.kind, events: r.events.map((a) => accountFields(a)) };
    case "create_transfers":
      return { kind: r.kind, events: r.events.map(transferFields) };
    case "lookup_transfers":
      return { kind: r.kind, ids: [...r.ids] };
  }
}

/** One operation of `--show tigerbeetle --format json`. */
interface ShownOperation {
  readonly call: string;
  readonly answered?: string;
  readonly lookup_transfers?: bigint[];
  readonly create_accounts?: TbAccount[][];
  readonly openings?: TbTransfer[][];
  readonly chain: (Omit<TbTransfer, "id"> & { readonly id: bigint | "random" })[];
}

/**
 * What a client sends for one shown operation: the lookups, the accounts and openings the book
 * value has not created yet (in requests of 253), the chain. `created` is the book value's memory.
 */
function expectedRequests(op: ShownOperation, created: Set<bigint>): Request[] {
  const out: Request[] = [];
  if (op.lookup_transfers !== undefined) out.push({ kind: "lookup_transfers", ids: op.lookup_transfers });
  const accounts = (op.create_accounts ?? []).flat().filter((a) => !created.has(a.id));
  for (const batch of requests(accounts)) {
    out.push({ kind: "create_accounts", events: batch.map((a) => accountFields(a)) });
  }
  const openings = (op.openings ?? []).flat().filter((o) => !created.has(o.id));
  for (const batch of requests(openings)) {
    out.push({ kind: "create_transfers", events: batch.map(transferFields) });
  }
  for (const x of [...accounts, ...openings]) created.add(x.id);
  if (op.chain.length > 0) out.push({ kind: "create_transfers", events: op.chain.map(transferFields) });
  return out;
}

/**
 * What Python sent, as `Request`s: where `expected` has a random id, the id sent must be a
 * 128-bit id TigerBeetle takes (not 0, not 2¹²⁸ − 1) and is then compared as `random`.
 */
function actualRequests(sent: Json, expected: readonly Request[], where: string): Request[] {
  const requests = sent as unknown as Request[];
  return requests.map((r, i) => {
    const want = expected[i];
    if (r.kind !== "create_transfers" || want === undefined || want.kind !== "create_transfers") return r;
    return {
      kind: r.kind,
      events: r.events.map((e, j) => {
        if (want.events[j]?.id !== "random") return e;
        const id = e.id as bigint;
        ok(id > 0n && id < MAX_ID, `${where}: a random id TigerBeetle does not take: ${id}`);
        return { ...e, id: "random" as const };
      }),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Recording the reference client's answers, and the script the Python player plays.

type Answer =
  | { readonly kind: "create_accounts" | "create_transfers"; readonly results: readonly string[] }
  | { readonly kind: "lookup_transfers"; readonly transfers: Fields[] }
  | { readonly kind: "lookup_accounts"; readonly accounts: Fields[] };

/** The double, answering `TigerBeetleBook`, with every answer kept for the Python player. */
class Recorder implements TigerBeetleRequests {
  private answers: Answer[] = [];

  constructor(readonly tb: TigerBeetleDouble) {}

  async createAccounts(events: readonly TbAccount[]): Promise<readonly string[]> {
    const results = await this.tb.createAccounts(events);
    this.answers.push({ kind: "create_accounts", results });
    return results;
  }

  async createTransfers(events: readonly TbTransfer[]): Promise<readonly string[]> {
    const results = await this.tb.createTransfers(events);
    this.answers.push({ kind: "create_transfers", results });
    return results;
  }

  async lookupTransfers(ids: readonly bigint[]): Promise<readonly TbTransfer[]> {
    const found = await this.tb.lookupTransfers(ids);
    this.answers.push({ kind: "lookup_transfers", transfers: found.map(transferFields) });
    return found;
  }

  /** What `lookup_accounts` answers for one account (TigerBeetleBook never reads a balance). */
  lookupAccount(id: bigint): Answer {
    const a = this.tb.sums(id) as (TbAccount & Sums) | null;
    return { kind: "lookup_accounts", accounts: a === null ? [] : [accountFields(a, a)] };
  }

  /** The answers since the last take. */
  take(): Answer[] {
    const out = this.answers;
    this.answers = [];
    return out;
  }
}

/** One call the player makes: `book.<member>.<method>(**kwargs)` with its answers. */
interface PlayerCall {
  readonly path: [string, string];
  readonly kwargs: Record<string, string | bigint>;
  readonly answers: Answer[];
}

interface PlayerRun {
  readonly module: string;
  readonly tenant: string;
  readonly calls: PlayerCall[];
}

interface Played {
  readonly sent: Json;
  readonly outcome: string;
  readonly left: bigint;
}

/** An outcome as the player writes it: a failure is the `ChoboError` of the same text. */
function outcomeKey(o: Outcome): string {
  if (o.kind === "refused") return `refused:${o.reason}`;
  if (o.kind === "failed") return `failed:chobo: ${o.why.en}`;
  return o.kind;
}

/** Writes each book's client once and runs the player over `runs` (and the vectors through `vectors`'s module). */
async function runPlayer(
  dir: string,
  modules: ReadonlyMap<string, Book>,
  runs: readonly PlayerRun[],
  vectors?: string,
): Promise<{ runs: { calls: Played[] }[]; vectors?: TbVectorPlay[] }> {
  const paths: Record<string, string> = {};
  for (const [name, book] of modules) {
    Deno.mkdirSync(`${dir}/${name}`, { recursive: true });
    for (const [file, content] of tigerbeetlePythonClient(book, { file: `${name}.book`, ...ORIGIN })) {
      Deno.writeTextFileSync(`${dir}/${name}/${file}`, content);
      paths[name] = `${dir}/${name}/${file}`;
    }
  }
  const script = `${dir}/script.json`;
  const given = vectors === undefined ? {} : { vectors: { module: vectors, file: TIGERBEETLE_VECTORS_FILE } };
  Deno.writeTextFileSync(script, stringifyJson({ modules: paths, runs, ...given }));
  const run = await python([PLAYER, script]);
  ok(run.ok, run.stderr);
  // structuredClone makes the codec's prototype-less objects plain ones, as the expected requests are.
  const out = structuredClone(parseJson(run.stdout)) as unknown as {
    runs: { calls: Played[] }[];
    vectors?: TbVectorPlay[];
  };
  strictEqual(out.runs.length, runs.length);
  return out;
}

async function playScript(
  dir: string,
  modules: ReadonlyMap<string, Book>,
  runs: readonly PlayerRun[],
): Promise<Played[][]> {
  return (await runPlayer(dir, modules, runs)).runs.map((r) => r.calls);
}

function kwargsOf(book: Book, call: Call): Record<string, string | bigint> {
  const names = members(book, "python").transferParams.get(call.transfer.name)!;
  return Object.fromEntries(callArgs(call).map(([k, v]) => [lookup(names, k, "parameter name"), v]));
}

function pathOf(book: Book, call: Call): [string, string] {
  return [members(book, "python").transfers.get(call.transfer.name)!, call.op];
}

// ---------------------------------------------------------------------------------------------
// THE equality: every operation of every scenario.

/** What one call of a scenario's run is for, and what it must send and answer. */
type Check =
  | {
    readonly kind: "operation";
    readonly step: number;
    readonly caller: number | null;
    readonly expected: Request[];
    readonly reference: string;
  }
  | { readonly kind: "balance"; readonly id: AccountId; readonly expected: Request[] }
  | {
    readonly kind: "status";
    readonly transfer: Transfer;
    readonly key: string[];
    readonly expected: Request[];
    readonly reference: string;
  };

interface Subject {
  readonly path: string;
  readonly module: string;
  readonly book: Book;
  readonly scenario: Scenario;
  readonly checks: Check[];
}

function scenariosOf(path: string, book: Book): Scenario[] {
  let more: Scenario[] = [];
  try {
    more = readScenarios(book, Deno.readTextFileSync(path.replace(/\.book$/, ".more.json")));
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return [...generateScenarios(book), ...more];
}

/** Plays a scenario through `TigerBeetleBook` and the double, keeping each call's answers for Python. */
async function record(module: string, path: string, book: Book, scenario: Scenario) {
  const tb = new TigerBeetleDouble();
  const recorder = new Recorder(tb);
  const client = new TigerBeetleBook(recorder, book, "", randomId);
  const shown = sentTigerBeetleJson(book, scenario) as unknown as {
    steps: { operations: ShownOperation[] }[];
  };
  const created = new Set<bigint>();
  const calls: PlayerCall[] = [];
  const checks: Check[] = [];
  for (const [i, step] of scenario.steps.entries()) {
    if (step.kind === "pass") {
      tb.advance(step.seconds);
      continue;
    }
    // Callers one after another, as --show plays them: one of the interpreter's orders.
    const ops = step.kind === "call"
      ? [{ call: step.call, caller: null }]
      : step.callers.flatMap((cs, c) => cs.map((call) => ({ call, caller: c + 1 })));
    for (const [k, { call, caller }] of ops.entries()) {
      const expected = expectedRequests(shown.steps[i].operations[k], created);
      const before = client.sent.length;
      const reference = outcomeKey(await client.call(call));
      // The reference client sends what --show prints too, so its answers are the answers to it.
      deepStrictEqual(
        actualRequests(client.sent.slice(before).map(sentFields) as unknown as Json, expected, path),
        expected,
        `${path}: ${scenario.name}: step ${i + 1}: the reference client`,
      );
      calls.push({ path: pathOf(book, call), kwargs: kwargsOf(book, call), answers: recorder.take() });
      checks.push({ kind: "operation", step: i, caller, expected, reference });
    }
  }
  // The balances of every account the interpreter names, and the state of every hold.
  const m = members(book, "python");
  const ids = new Map<string, AccountId>();
  for (const b of runScenario(book, scenario)) {
    for (const { id } of b.ledger.accounts()) ids.set(JSON.stringify([id.account, ...id.args]), id);
  }
  for (const id of ids.values()) {
    const a = book.accounts.find((x) => x.name === id.account)!;
    const names = m.accountParams.get(a.name)!;
    const own = accountId(book, "", a.name, id.args);
    calls.push({
      path: ["balance", m.accounts.get(a.name)!],
      kwargs: Object.fromEntries(a.params.map((p, j) => [names.get(p)!, id.args[j]])),
      answers: [recorder.lookupAccount(own)],
    });
    checks.push({ kind: "balance", id, expected: [{ kind: "lookup_accounts", ids: [own] }] });
  }
  const holds = new Map<string, [Transfer, string[]]>();
  for (const step of scenario.steps) {
    const cs = step.kind === "call" ? [step.call] : step.kind === "together" ? step.callers.flat() : [];
    for (const c of cs) {
      if (c.transfer.pending === null) continue;
      const key = keyValues(c);
      holds.set(JSON.stringify([c.transfer.name, ...key]), [c.transfer, key]);
    }
  }
  for (const [t, key] of holds.values()) {
    const read = await client.status(t, key);
    const names = m.transferParams.get(t.name)!;
    calls.push({
      path: [m.transfers.get(t.name)!, "status"],
      kwargs: Object.fromEntries(t.key.map((k, j) => [names.get(k)!, key[j]])),
      answers: recorder.take(),
    });
    const chain = statusChain(lowerChains(book), "", t, key, [0n, 0n]);
    checks.push({
      kind: "status",
      transfer: t,
      key,
      expected: [{
        kind: "create_transfers",
        events: chain.map((e) => transferFields({ ...e.transfer, id: "random" })),
      }],
      reference: "failed" in read ? `failed:chobo: ${read.failed.en}` : `state:${read.state ?? "none"}`,
    });
  }
  const subject: Subject = { path, module, book, scenario, checks };
  return { run: { module, tenant: "", calls } satisfies PlayerRun, subject };
}

/** Why the Python run is not this branch of the interpreter, or null when it is. */
function disagreement(s: Subject, played: readonly Played[], b: ReturnType<typeof runScenario>[number]) {
  for (const [i, step] of b.steps.entries()) {
    const mine = s.checks.flatMap((c, j) =>
      c.kind === "operation" && c.step === i ? [{ c, p: played[j] }] : []
    );
    if (step.kind === "call") {
      if (mine[0].p.outcome !== outcomeKey(step.outcome)) {
        return `step ${i + 1}: ${mine[0].p.outcome}, the interpreter says ${outcomeKey(step.outcome)}`;
      }
    } else if (step.kind === "together") {
      const want = step.callers.map((cs) => cs.map((r) => outcomeKey(r.outcome)));
      const got = step.callers.map((_, c) =>
        mine.filter(({ c: x }) => x.kind === "operation" && x.caller === c + 1).map(({ p }) => p.outcome)
      );
      if (JSON.stringify(got) !== JSON.stringify(want)) return `step ${i + 1}: ${JSON.stringify(got)}`;
    }
  }
  for (const [j, c] of s.checks.entries()) {
    if (c.kind === "balance") {
      const n = b.ledger.balance(c.id);
      const want = `balance:${n.posted},${n.heldIn},${n.heldOut}`;
      if (played[j].outcome !== want) {
        return `${c.id.account}(${c.id.args}): ${played[j].outcome} for ${want}`;
      }
    }
    if (c.kind === "status") {
      const h = b.ledger.holds().find((x) =>
        x.transfer === c.transfer.name && x.key.join("\u0000") === c.key.join("\u0000")
      );
      const want = `state:${h?.state ?? "none"}`;
      if (played[j].outcome !== want) {
        return `hold ${c.transfer.name}(${c.key}): ${played[j].outcome} for ${want}`;
      }
    }
  }
  return null;
}

interface Counts {
  scenarios: number;
  operations: number;
  together: number;
  overHold: number;
  noSuchHold: number;
  balances: number;
  statuses: number;
}

/** Records every scenario of `subjects`, plays them in Python, and checks every call and scenario. */
async function playAndCheck(
  subjects: readonly { path: string; book: Book; scenarios: Scenario[] }[],
): Promise<Counts> {
  const modules = new Map<string, Book>();
  const runs: PlayerRun[] = [];
  const recorded: Subject[] = [];
  for (const [n, { path, book, scenarios }] of subjects.entries()) {
    const module = `b${n}`;
    modules.set(module, book);
    for (const scenario of scenarios) {
      const { run, subject } = await record(module, path, book, scenario);
      runs.push(run);
      recorded.push(subject);
    }
  }
  const dir = Deno.makeTempDirSync({ prefix: "chobo-tb-py-" });
  let played: Played[][];
  try {
    played = await playScript(dir, modules, runs);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
  const counts: Counts = {
    scenarios: 0,
    operations: 0,
    together: 0,
    overHold: 0,
    noSuchHold: 0,
    balances: 0,
    statuses: 0,
  };
  for (const [r, s] of recorded.entries()) {
    const calls = played[r];
    strictEqual(calls.length, s.checks.length);
    for (const [j, c] of s.checks.entries()) {
      const where = `${s.path}: ${s.scenario.name}: ${
        c.kind === "operation"
          ? `step ${c.step + 1}${c.caller === null ? "" : ` caller ${c.caller}`}`
          : c.kind
      }`;
      const p = calls[j];
      ok(!p.outcome.startsWith("error:"), `${where}: ${p.outcome}`);
      deepStrictEqual(actualRequests(p.sent, c.expected, where), c.expected, `${where}: what Python sent`);
      strictEqual(p.left, 0n, `${where}: answers left`);
      if (c.kind !== "balance") {
        strictEqual(p.outcome, c.reference, `${where}: the reference client's conclusion`);
      }
      if (c.kind === "operation") {
        counts.operations++;
        if (p.outcome === "refused:over_hold") counts.overHold++;
        if (p.outcome === "refused:no_such_hold") counts.noSuchHold++;
      } else if (c.kind === "balance") counts.balances++;
      else counts.statuses++;
    }
    const branches = runScenario(s.book, s.scenario);
    const why: string[] = [];
    for (const b of branches) {
      const d = disagreement(s, calls, b);
      if (d === null) break;
      why.push(d);
    }
    ok(why.length < branches.length, `${s.path}: ${s.scenario.name}: ${why.join("; ")}`);
    counts.scenarios++;
    if (s.scenario.steps.some((st) => st.kind === "together")) counts.together++;
  }
  return counts;
}

Deno.test("every operation of every scenario: the Python client sends what --show tigerbeetle prints, and concludes what the interpreter does", async () => {
  if (await skipWithoutTigerBeetle("the scenarios")) return;
  const names = load("names.book", NAMES_BOOK);
  const counts = await playAndCheck([
    ...playedPaths().map((path) => {
      const book = load(path);
      return { path, book, scenarios: scenariosOf(path, book) };
    }),
    // Keywords, `self` and the runtime's own names as arguments, members and transfers.
    { path: "names.book", book: names, scenarios: generateScenarios(names) },
  ]);
  ok(counts.scenarios > 400, `only ${counts.scenarios} scenarios`);
  ok(counts.operations > 1000, `only ${counts.operations} operations`);
  ok(counts.together > 20, `only ${counts.together} scenarios with together`);
  ok(counts.overHold > 5, `only ${counts.overHold} posts over the hold`);
  ok(counts.noSuchHold > 5, `only ${counts.noSuchHold} no_such_hold`);
  ok(counts.balances > 1000 && counts.statuses > 300, JSON.stringify(counts));
});

Deno.test("arguments with quotes, backslashes, control, separator and astral characters: the same ids and contents as --show", async () => {
  if (await skipWithoutTigerBeetle("odd strings")) return;
  const path = `${ROOT}tests/chobo/books/在庫.book`;
  const book = load(path);
  // Every character JSON escapes differently in other languages, and one outside the BMP.
  const odd = ['d"1\\', "\n\t\u0001\u001f\u007f", "\u2028\u2029", "é😀", ""];
  const steps = odd.flatMap((v, i) => [
    { call: "入荷.do", args: { 納品書: v, sku: odd[(i + 1) % odd.length], 数: 5 } },
    { call: "引当.hold", args: { 注文: v, sku: odd[(i + 1) % odd.length], 数: 2 } },
    { call: "引当.post", args: { 注文: v, sku: odd[(i + 1) % odd.length], 数: 1 } },
  ]);
  const scenarios = readScenarios(book, stringifyJson([{ name: "odd strings", steps }]));
  const counts = await playAndCheck([{ path, book, scenarios }]);
  strictEqual(counts.operations, steps.length);
});

// ---------------------------------------------------------------------------------------------
// The result table of docs/targets.md#results: the shared vectors, through the Python client.

Deno.test("tests/vectors/tigerbeetle_answers.json: every case sends its requests and answers its outcome", async () => {
  if (await skipWithoutTigerBeetle("the shared vectors")) return;
  const vectors = tigerbeetleVectors();
  const dir = Deno.makeTempDirSync({ prefix: "chobo-tb-py-" });
  try {
    const out = await runPlayer(dir, new Map([["bounds", load(`${ROOT}${vectors.book}`)]]), [], "bounds");
    const played = out.vectors!.map((p) => ({ ...p, left: Number(p.left) }));
    assertTbVectors("python", played, (o) => o.startsWith("failed:chobo: "));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("writes made at once by threads on one book value share requests up to request_limit, each chain whole, each answer its own", async () => {
  if (await skipWithoutTigerBeetle("batching")) return;
  const dir = Deno.makeTempDirSync({ prefix: "chobo-tb-py-" });
  try {
    const [file, text] = generate(BOUNDS, Deno.readTextFileSync(BOUNDS));
    Deno.writeTextFileSync(`${dir}/${file}`, text);
    const play = async (limit: number, takes: number) => {
      const run = await python([BATCHING, `${dir}/${file}`, String(limit), String(takes)]);
      ok(run.ok, run.stderr);
      return JSON.parse(run.stdout) as { sizes: number[]; outcomes: string[] };
    };
    // The first chain goes alone; the 49 that came while it was in flight go as 42 and 7 chains.
    const small = await play(253, 253);
    deepStrictEqual(small.sizes, [6, 252, 42]);
    deepStrictEqual(small.outcomes, Array(50).fill("done"));
    const large = await play(8189, 8189);
    deepStrictEqual(large.sizes, [6, 294]);
    deepStrictEqual(large.outcomes, Array(50).fill("done"));
    // A request the replica refuses is every chain's error in it, and only theirs.
    const refused = await play(253, 200);
    deepStrictEqual(refused.sizes, [6, 252, 42]);
    strictEqual(refused.outcomes.filter((o) => o === "done").length, 1 + 7);
    ok(refused.outcomes.slice(1).every((o) => o === "done" || o.startsWith("error:Too much data")));
    // Under 253 a chain E060 lets through would not fit.
    const low = await python([
      "-c",
      `import importlib.util as u
s = u.spec_from_file_location("b", "${dir}/${file}"); m = u.module_from_spec(s); s.loader.exec_module(m)
try:
    m.tigerbeetle(None, "", request_limit=252)
except m.ChoboError as e:
    print(e)`,
    ]);
    strictEqual(
      low.stdout.trim(),
      "chobo: request_limit is 252, less than the 253 transfers of E060's chain",
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("amounts a book cannot hold and strings past the limits raise before anything is sent", async () => {
  if (await skipWithoutTigerBeetle("arguments")) return;
  const book = load(BOUNDS);
  const runs: PlayerRun[] = [{
    module: "bounds",
    tenant: "",
    calls: [
      { path: ["reserve", "hold"], kwargs: { order: "o", sku: "s", qty: -1n }, answers: [] },
      { path: ["reserve", "hold"], kwargs: { order: "o", sku: "s", qty: 1n << 63n }, answers: [] },
      { path: ["reserve", "post"], kwargs: { order: "o", sku: "s", qty: -1n }, answers: [] },
      // Strings past docs/reference.md#limits, the probe's lone surrogates among them.
      ...HOSTILE_STRINGS.filter((h) => h.failed).map((h): PlayerCall => ({
        path: ["reserve", "hold"],
        kwargs: { order: h.sku, sku: "s", qty: 1n },
        answers: [],
      })),
    ],
  }];
  const dir = Deno.makeTempDirSync({ prefix: "chobo-tb-py-" });
  let played: Played[][];
  try {
    played = await playScript(dir, new Map([["bounds", book]]), runs);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
  const [negative, tooLarge, badPost, ...hostile] = played[0];
  for (const [p, what] of [[negative, "-1"], [tooLarge, String(1n << 63n)], [badPost, "-1"]] as const) {
    strictEqual(
      p.outcome,
      `error:ChoboArgumentError: chobo: qty is an amount, a whole number from 0 to 2⁶³ − 1, got ${what}`,
    );
    deepStrictEqual(p.sent, []);
  }
  strictEqual(hostile.length, HOSTILE_STRINGS.filter((h) => h.failed).length);
  for (const p of hostile) {
    ok(p.outcome.startsWith("error:ChoboArgumentError: chobo: order "), p.outcome);
    deepStrictEqual(p.sent, []);
  }
});

// ---------------------------------------------------------------------------------------------
// docs/design/chobo.md#versions-of-a-book: an account or opening that exists with other fields is an error
// naming what changed.

Deno.test("an account or an opening that exists with other fields raises an error naming what changed", async () => {
  if (await skipWithoutTigerBeetle("a changed book")) return;
  const text = Deno.readTextFileSync(BOUNDS);
  const book = load(BOUNDS, text);
  const change = (from: string, to: string) => {
    ok(text.includes(from), from);
    return load(BOUNDS, text.replace(from, to));
  };
  // plain's lower bound goes from 0 to -3, so its account loses debits_must_not_exceed_credits;
  // cap's upper bound goes from 10 to 12, so the opening of its room is another amount.
  const unflagged = change("at least 0 refused as plain_short", "at least -3 refused as plain_short");
  const wider = change("at most 10 refused as cap_full", "at most 12 refused as cap_full");
  const empty = (b: Book, id: string) => callOf(b, "empty", "do", { empty_id: id, sku: "s-1", qty: 0n });

  // One double, one tenant: the first book value creates the accounts, the changed books meet them.
  const tb = new TigerBeetleDouble();
  const recorder = new Recorder(tb);
  strictEqual(outcomeKey(await new TigerBeetleBook(recorder, book, "").call(empty(book, "e-1"))), "done");
  recorder.take();
  const runs: PlayerRun[] = [];
  const references: { outcome: string; sent: Request[] }[] = [];
  for (const [changed, id] of [[unflagged, "e-2"], [wider, "e-3"]] as const) {
    const client = new TigerBeetleBook(recorder, changed, "");
    const call = empty(changed, id);
    references.push({ outcome: outcomeKey(await client.call(call)), sent: client.sent.map(sentFields) });
    runs.push({
      module: changed === unflagged ? "unflagged" : "wider",
      tenant: "",
      calls: [{ path: pathOf(changed, call), kwargs: kwargsOf(changed, call), answers: recorder.take() }],
    });
  }
  // Every kind of account field, as TigerBeetle names it, on the first account of a request.
  const spread = callOf(book, "spread", "do", { batch: "b", sku: "s", qty: 2n });
  const sends = moveSends(lowerChains(book), "", spread)!;
  const fields = ["flags", "user_data_128", "user_data_64", "user_data_32", "ledger", "code"];
  for (const field of fields) {
    const results = sends.accounts.map((_, i) => i === 1 ? `exists_with_different_${field}` : "exists");
    runs.push({
      module: "bounds",
      tenant: "",
      calls: [{
        path: pathOf(book, spread),
        kwargs: kwargsOf(book, spread),
        answers: [{ kind: "create_accounts", results }],
      }],
    });
  }
  const dir = Deno.makeTempDirSync({ prefix: "chobo-tb-py-" });
  let played: Played[][];
  try {
    played = await playScript(
      dir,
      new Map([["unflagged", unflagged], ["wider", wider], ["bounds", book]]),
      runs,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
  const [[flagged], [opening]] = played;
  strictEqual(
    flagged.outcome,
    "failed:chobo: the TigerBeetle account of plain(s-1) exists with different flags: the book's account definition changed (docs/targets.md#changing-a-book); make a new account kind instead",
  );
  strictEqual(
    opening.outcome,
    "failed:chobo: the opening of room of cap(s-1) exists with another amount: the book's bound changed (docs/targets.md#changing-a-book); make a new account kind instead",
  );
  for (const [i, p] of [flagged, opening].entries()) {
    strictEqual(p.outcome, references[i].outcome, "the reference client's error");
    deepStrictEqual(p.sent, references[i].sent, "the requests up to the error, and no chain after it");
    strictEqual(p.left, 0n);
  }
  for (const [i, field] of fields.entries()) {
    const [p] = played[2 + i];
    const results = sends.accounts.map((_, j) => j === 1 ? `exists_with_different_${field}` : "exists");
    strictEqual(p.outcome, `failed:chobo: ${accountsFailure(sends.accounts, results)!.en}`, field);
    ok(p.outcome.includes(`bin(s) exists with different ${field}`), p.outcome);
    strictEqual((p.sent as unknown as Request[]).length, 1, `${field}: nothing sent after the accounts`);
  }
});
