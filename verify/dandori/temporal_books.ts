/**
 * Books for real (docs/targets.md#temporal-typescript): every distinct sequence of book
 * operations the test and example flows' runs make (as the `transport` view shows them to
 * `Transport.book`) goes through the generated `io.ts`'s `transport({ books })` into chobo's
 * generated TypeScript client — `postgres-typescript` on a disposable PostgreSQL cluster,
 * `tigerbeetle-typescript` on the replica `CHOBO_TIGERBEETLE` names — three ways: on an empty book, on
 * a book first filled by the transfers that bring amounts in from outside accounts, and again on that
 * same book (every operation done before). Every answer must be the one chobo's reference interpreter
 * gives to the same operation on the same book. @module
 */

import { assert, findOne, lookup } from "../../lang/common/assert.ts";
import { stringifyJson } from "../../lang/common/json.ts";
import { type Call, Ledger } from "../../lang/chobo/interp.ts";
import type { Book, Transfer } from "../../lang/chobo/model.ts";
import { viewOf } from "../../lang/dandori/views.ts";
import { typescriptClient as postgresClient } from "../../targets/chobo/postgres/typescript.ts";
import { postgresSql } from "../../targets/chobo/postgres/sql.ts";
import { tigerbeetleTypescriptClient } from "../../targets/chobo/tigerbeetle/typescript.ts";
import { members } from "../../targets/chobo/names.ts";
import { TEMPORAL_TYPESCRIPT } from "../../targets/dandori/temporal/target.ts";
import { DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import { generatedRuns, type RunnableFlow } from "./flows.ts";

const ORIGIN = { file: "books.flow", path: "books.flow", text: "", sha: "0".repeat(16), version: "books" };
/** What a fill brings in from outside per account: far above what any scenario takes. */
const FILL_AMOUNT = 1_000_000n;

/** One book operation as `Transport.book` gets it. */
export interface BookCall {
  readonly book: string;
  readonly transfer: string;
  readonly op: "do" | "hold" | "post" | "void";
  readonly args: Record<string, unknown>;
  readonly amounts?: Record<string, unknown>;
}

/** A sequence of one flow's run, with the books it reads. */
export interface BookSequence {
  readonly where: string;
  readonly flow: RunnableFlow;
  readonly calls: readonly BookCall[];
}

/** Every distinct sequence of book operations of the flows' runs. */
export function bookSequences(flows: readonly RunnableFlow[]): BookSequence[] {
  const seen = new Set<string>();
  const out: BookSequence[] = [];
  for (const f of flows) {
    if (f.plan.books.length === 0) continue;
    for (const { n, run } of generatedRuns(f)) {
      const calls = run.calls.filter((c) =>
        f.plan.tasks.find((t) => t.name === c.task)?.callee.kind === "book"
      )
        .map((c) => JSON.parse(stringifyJson(viewOf("transport", f.plan, c))) as BookCall);
      if (calls.length === 0) continue;
      const key = stringifyJson([f.plan.books.map((b) => b.path), calls as never]);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ where: `${f.path} run-${n}`, flow: f, calls });
    }
  }
  return out;
}

/** The transfers that bring amounts in from outside accounts only, with the account arguments they take. */
function fillers(book: Book): Transfer[] {
  return book.transfers.filter((t) =>
    t.pending === null && t.moves.every((m) => m.from.account.outside && !m.to.account.outside)
  );
}

/** The fill of a sequence: each filler once per distinct account argument the sequence names. */
export function fillCalls(book: Book, bookName: string, calls: readonly BookCall[]): BookCall[] {
  const out: BookCall[] = [];
  const seen = new Set<string>();
  for (const t of fillers(book)) {
    const accountArgs = [...new Set(t.moves.flatMap((m) => m.to.args))];
    for (const c of calls) {
      if (c.book !== bookName || !accountArgs.every((a) => Object.hasOwn(c.args, a))) continue;
      const args: Record<string, unknown> = {};
      for (const p of t.params) {
        args[p.name] = p.type.kind === "amount"
          ? FILL_AMOUNT
          : accountArgs.includes(p.name)
          ? c.args[p.name]
          : `fill-${accountArgs.map((a) => String(c.args[a])).join("-")}`;
      }
      const id = stringifyJson([t.name, args as never]);
      if (seen.has(id)) continue;
      seen.add(id);
      out.push({ book: bookName, transfer: t.name, op: "do", args });
    }
  }
  return out;
}

/** chobo's `Call` of a book operation. */
export function choboCall(book: Book, c: BookCall): Call {
  const transfer = findOne(book.transfers, (t) => t.name === c.transfer, `transfer ${c.transfer}`);
  const strings = new Map<string, string>();
  const amounts = new Map<string, bigint>();
  const given = { ...c.args, ...(c.amounts ?? {}) };
  for (const p of transfer.params) {
    const v = given[p.name];
    if (v === undefined || v === null) continue;
    if (p.type.kind === "string") strings.set(p.name, String(v));
    else amounts.set(p.name, BigInt(v as number | bigint));
  }
  return { transfer, op: c.op, strings, amounts };
}

/** A fill straight through the chobo client (a flow need not call the transfers that bring amounts in). */
function fill(book: Book, value: unknown, c: BookCall): Promise<{ result: string; reason?: string }> {
  const m = members(book, "typescript");
  const transfer = lookup(m.transfers, c.transfer, "transfer");
  const params = lookup(m.transferParams, c.transfer, "transfer's parameters");
  const t = findOne(book.transfers, (x) => x.name === c.transfer, `transfer ${c.transfer}`);
  const args = Object.fromEntries(t.params.map((p) => [
    lookup(params, p.name, "parameter"),
    p.type.kind === "amount" ? BigInt(c.args[p.name] as bigint | number) : c.args[p.name],
  ]));
  const member =
    (value as Record<string, { do(a: unknown): Promise<{ result: string; reason?: string }> }>)[transfer];
  return member.do(args);
}

/** An answer as both sides are compared: done, done before, or the reason refused. */
function answerOf(o: { result: string; reason?: string }): string {
  return o.result === "refused" ? `refused ${o.reason}` : o.result;
}

/**
 * A book value of the chobo book named `book`, for `tenant`: a chobo client's
 * `postgres(pool, { tenant })` or `tigerbeetle(client, { tenant })`.
 */
export type BookMaker = (book: string, tenant: string) => unknown;

/** What the books check found. */
export interface BooksReport {
  readonly sequences: number;
  readonly operations: number;
  readonly failures: readonly string[];
}

/** Plays every sequence three ways through the generated `io.ts` into `make`'s clients. */
export async function playBooks(
  sequences: readonly BookSequence[],
  make: BookMaker,
  dir: string,
  label: string,
): Promise<BooksReport> {
  const failures: string[] = [];
  let operations = 0;
  const ios = new Map<
    RunnableFlow,
    { transport(o: unknown): { book(c: BookCall): Promise<{ result: string; reason?: string }> } }
  >();
  for (const [n, s] of sequences.entries()) {
    let io = ios.get(s.flow);
    if (io === undefined) {
      const at = `${dir}/flow-${ios.size}`;
      Deno.mkdirSync(at);
      for (const [name, text] of TEMPORAL_TYPESCRIPT.generate(s.flow.plan, ORIGIN, DEFAULT_BUILD)) {
        Deno.writeTextFileSync(`${at}/${name}`, text);
      }
      io = await import(`${at}/io.ts`);
      assert(io !== undefined, "io.ts loads");
      ios.set(s.flow, io);
    }
    const tenant = `${label}/${n}`;
    const named = (use: string) => lookup(s.flow.checked.model.books, use, "book").chobo.name;
    const books = Object.fromEntries(s.flow.plan.books.map((b) => [b.name, make(named(b.name), tenant)]));
    let transport = io.transport({ books });
    const filledBooks = Object.fromEntries(
      s.flow.plan.books.map((b) => [b.name, make(named(b.name), `${tenant}/filled`)]),
    );
    const ledgers = new Map(s.flow.plan.books.map((b) => {
      const book = lookup(s.flow.checked.model.books, b.name, "book").chobo;
      return [b.name, { book, ledger: Ledger.empty(book.accounts.map((a) => a.name)) }];
    }));
    const fills = s.flow.plan.books.flatMap((b) =>
      fillCalls(lookup(ledgers, b.name, "ledger").book, b.name, s.calls)
    );
    const ways: [string, readonly BookCall[]][] = [["empty", s.calls], ["filled", s.calls], [
      "again",
      s.calls,
    ]];
    for (const [way, calls] of ways) {
      if (way === "filled") {
        for (const c of fills) {
          const { book, ledger } = lookup(ledgers, c.book, "ledger");
          const want = ledger.apply(choboCall(book, c));
          const got = await fill(book, filledBooks[c.book], c).then(
            answerOf,
            (e: unknown) => `failed ${String(e)}`,
          );
          if (got !== want.kind) {
            failures.push(`${label} ${s.where}: the fill ${stringifyJson(c as never)}: ${got}`);
          }
        }
      }
      for (const c of calls) {
        const { book, ledger } = lookup(ledgers, c.book, "ledger");
        const want = ledger.apply(choboCall(book, c));
        const expected = want.kind === "refused" ? `refused ${want.reason}` : want.kind;
        const got = await transport.book(c).then(answerOf, (e: unknown) => `failed ${String(e)}`);
        operations++;
        if (got !== expected) {
          failures.push(
            `${label} ${s.where} (${way}): ${stringifyJson(c as never)}: ${got}, chobo says ${expected}`,
          );
        }
      }
      if (way === "empty") {
        // The "filled" way starts over on a book of a new tenant, as chobo's interpreter does.
        for (const b of s.flow.plan.books) {
          const entry = lookup(ledgers, b.name, "ledger");
          ledgers.set(b.name, {
            book: entry.book,
            ledger: Ledger.empty(entry.book.accounts.map((a) => a.name)),
          });
        }
        transport = io.transport({ books: filledBooks });
      }
    }
  }
  return { sequences: sequences.length, operations, failures };
}

/** The chobo books the sequences read, by chobo's name for them (a book's SQL schema has its name). */
export function booksOf(sequences: readonly BookSequence[]): Map<string, { book: Book; path: string }> {
  const out = new Map<string, { book: Book; path: string }>();
  const shape = (book: Book) =>
    JSON.stringify(book.transfers.map((t) => [t.name, t.params.map((p) => p.name)]));
  for (const s of sequences) {
    for (const b of s.flow.plan.books) {
      const book = lookup(s.flow.checked.model.books, b.name, "book").chobo;
      const known = out.get(book.name);
      assert(
        known === undefined || shape(known.book) === shape(book),
        `the books named ${book.name} are one book`,
      );
      out.set(book.name, { book, path: b.path });
    }
  }
  return out;
}

/** The PostgreSQL side: each book's SQL and its `postgres-typescript` client in `dir`. */
export async function postgresBooks(
  books: ReadonlyMap<string, { book: Book; path: string }>,
  exec: (sql: string) => Promise<void>,
  dir: string,
): Promise<Map<string, { postgres(db: unknown, options: { tenant: string }): unknown }>> {
  const out = new Map<string, { postgres(db: unknown, options: { tenant: string }): unknown }>();
  for (const [name, { book, path }] of books) {
    await exec(postgresSql(book, path, "test", "test"));
    const files = postgresClient(book, {
      file: path.split("/").pop() ?? path,
      sha: "0".repeat(16),
      version: "test",
    });
    const at = `${dir}/pg-${name}`;
    Deno.mkdirSync(at);
    let module = "";
    for (const [file, text] of files) {
      Deno.writeTextFileSync(`${at}/${file}`, text);
      module = `${at}/${file}`;
    }
    out.set(name, await import(module));
  }
  return out;
}

/** The TigerBeetle side: each book's `tigerbeetle-typescript` client in `dir`. */
export async function tigerbeetleBooks(
  books: ReadonlyMap<string, { book: Book; path: string }>,
  dir: string,
): Promise<Map<string, { tigerbeetle(client: unknown, options: { tenant: string }): unknown }>> {
  const out = new Map<string, { tigerbeetle(client: unknown, options: { tenant: string }): unknown }>();
  for (const [name, { book, path }] of books) {
    const files = tigerbeetleTypescriptClient(book, {
      file: path.split("/").pop() ?? path,
      sha: "0".repeat(16),
      version: "test",
    });
    const at = `${dir}/tb-${name}`;
    Deno.mkdirSync(at);
    let module = "";
    for (const [file, text] of files) {
      Deno.writeTextFileSync(`${at}/${file}`, text);
      module = `${at}/${file}`;
    }
    out.set(name, await import(module));
  }
  return out;
}
