/**
 * Books for real through the pydantic-graph target's `io.py` (docs/targets.md#pydantic-graph): every
 * distinct sequence of book operations the flows' runs make (`temporal_books.ts`'s sequences, of the
 * flows this target builds) goes through the generated `io.py`'s `transport(books)` into chobo's
 * generated `postgres-python` client over psycopg 3, on a disposable PostgreSQL cluster, three
 * ways: on an empty book, on a book first filled by the transfers that bring amounts in from
 * outside (straight through the client), and again on that book. Every answer must be chobo's
 * reference interpreter's to the same operation on the same book. The runner is
 * `pydantic_graph_books_runner.py`.
 * @module
 */

import { lookup } from "../../lang/common/assert.ts";
import { stringifyJson } from "../../lang/common/json.ts";
import { Ledger } from "../../lang/chobo/interp.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { members } from "../../targets/chobo/names.ts";
import { pythonClient } from "../../targets/chobo/postgres/python.ts";
import { postgresSql } from "../../targets/chobo/postgres/sql.ts";
import { DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import { PYDANTIC_GRAPH } from "../../targets/dandori/pydantic_graph/target.ts";
import { runRunner } from "../differential.ts";
import type { Cluster } from "../services/pg_cluster.ts";
import type { RunnableFlow } from "./flows.ts";
import {
  type BookCall,
  type BookSequence,
  bookSequences,
  booksOf,
  type BooksReport,
  choboCall,
  fillCalls,
} from "./temporal_books.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const ORIGIN = { file: "books.flow", path: "books.flow", text: "", sha: "0".repeat(16), version: "books" };

/** The sequences of the flows this target builds. */
export function pythonBookSequences(flows: readonly RunnableFlow[]): BookSequence[] {
  return bookSequences(flows.filter((f) => PYDANTIC_GRAPH.check(f.plan, ORIGIN, DEFAULT_BUILD).length === 0));
}

/** A fill as the runner calls it straight on the client: the transfer's member and its keywords. */
function fillOf(book: Book, c: BookCall): { book: string; member: string; kwargs: Record<string, unknown> } {
  const m = members(book, "python");
  const params = lookup(m.transferParams, c.transfer, "transfer's parameters");
  return {
    book: c.book,
    member: lookup(m.transfers, c.transfer, "transfer"),
    kwargs: Object.fromEntries(Object.entries(c.args).map(([n, v]) => [lookup(params, n, "parameter"), v])),
  };
}

function answerOf(kind: string, reason?: string): string {
  return kind === "refused" ? `refused ${reason}` : kind;
}

/**
 * Plays every sequence three ways on `cluster`: loads each book's SQL through `exec`, writes the
 * clients and the flows' packages into `dir`, runs the runner, and compares each answer with chobo's.
 */
export async function playPythonBooks(
  sequences: readonly BookSequence[],
  cluster: Cluster,
  exec: (sql: string) => Promise<void>,
  dir: string,
): Promise<BooksReport> {
  const clients: Record<string, string> = {};
  for (const [name, { book, path }] of booksOf(sequences)) {
    await exec(postgresSql(book, path, "test", "test"));
    const at = `${dir}/pgpy-${Object.keys(clients).length}`;
    Deno.mkdirSync(at);
    for (
      const [file, text] of pythonClient(book, {
        file: path.split("/").pop() ?? path,
        sha: "0".repeat(16),
        version: "test",
      })
    ) {
      Deno.writeTextFileSync(`${at}/${file}`, text);
      clients[name] = `${at}/${file}`;
    }
  }
  Deno.mkdirSync(`${dir}/flows`);
  const packages = new Map<RunnableFlow, string>();
  const expected: { where: string; call: string; want: string }[][] = [];
  const jobs = sequences.map((s, n) => {
    let pkg = packages.get(s.flow);
    if (pkg === undefined) {
      pkg = `p${packages.size}`;
      Deno.mkdirSync(`${dir}/flows/${pkg}`);
      for (const [file, text] of PYDANTIC_GRAPH.generate(s.flow.plan, ORIGIN, DEFAULT_BUILD)) {
        Deno.writeTextFileSync(`${dir}/flows/${pkg}/${file}`, text);
      }
      packages.set(s.flow, pkg);
    }
    const chobo = (use: string) => lookup(s.flow.checked.model.books, use, "book").chobo;
    const fresh = () =>
      new Map(
        s.flow.plan.books.map((b) => [b.name, Ledger.empty(chobo(b.name).accounts.map((a) => a.name))]),
      );
    const wants: { where: string; call: string; want: string }[] = [];
    const play = (ledgers: Map<string, Ledger>, calls: readonly BookCall[], way: string) => {
      for (const c of calls) {
        const got = lookup(ledgers, c.book, "ledger").apply(choboCall(chobo(c.book), c));
        wants.push({
          where: `${s.where} (${way})`,
          call: stringifyJson(c as never),
          want: answerOf(got.kind, got.kind === "refused" ? got.reason : undefined),
        });
      }
    };
    play(fresh(), s.calls, "empty");
    const filled = fresh();
    const fills = s.flow.plan.books.flatMap((b) => fillCalls(chobo(b.name), b.name, s.calls));
    play(filled, fills, "fill");
    play(filled, s.calls, "filled");
    play(filled, s.calls, "again");
    expected.push(wants);
    const tenant = `python/${n}`;
    return {
      id: String(n),
      package: pkg,
      books: Object.fromEntries(s.flow.plan.books.map((b) => [b.name, chobo(b.name).name])),
      ways: [
        { tenant, fills: [], calls: s.calls },
        { tenant: `${tenant}/filled`, fills: fills.map((c) => fillOf(chobo(c.book), c)), calls: s.calls },
        { tenant: `${tenant}/filled`, fills: [], calls: s.calls },
      ],
    };
  });
  const results = await runRunner<{ id: string; answers: string[] }>(
    "pydantic-graph books",
    ["python3", `${ROOT}verify/dandori/pydantic_graph_books_runner.py`, `${dir}/jobs.json`],
    `${dir}/jobs.json`,
    JSON.parse(
      stringifyJson(
        {
          socket: cluster.socketDir,
          user: cluster.user,
          flows: `${dir}/flows`,
          clients,
          sequences: jobs,
        } as never,
      ),
    ),
  );
  const failures: string[] = [];
  let operations = 0;
  expected.forEach((wants, n) => {
    const got = results.get(String(n))?.answers ?? [];
    wants.forEach((w, i) => {
      operations++;
      if (got[i] !== w.want) {
        failures.push(`${w.where}: ${w.call}: ${got[i] ?? "no answer"}, chobo says ${w.want}`);
      }
    });
  });
  return { sequences: sequences.length, operations, failures };
}
