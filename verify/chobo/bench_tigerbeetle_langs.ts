/**
 * The Python and Go columns of `deno task bench tigerbeetle`: the generated `tigerbeetle-python`
 * client on `tigerbeetle.ClientSync` (callers are threads) and the generated `tigerbeetle-go` client on
 * tigerbeetle-go (callers are goroutines), each in a process of its own on the bench's replica, with
 * the request limit the bench read. Each language has its own tenant, so its ids are its own; the
 * floor they are compared with is the TypeScript column's, in the same run. A language whose tools
 * are missing gives no column and says why (`SKIP:`).
 * @module
 */

import type { Book } from "../../lang/chobo/model.ts";
import { goPackageName } from "../../targets/chobo/go_names.ts";
import { members } from "../../targets/chobo/names.ts";
import { TB_GO_MODULE, tigerbeetleGoClient } from "../../targets/chobo/tigerbeetle/go.ts";
import { tigerbeetlePythonClient } from "../../targets/chobo/tigerbeetle/python.ts";
import { go, hasGo } from "./runners/go/runner.ts";

/** Stock received before the holds, as the TypeScript column's. */
const STOCK = "1000000000000";

/** One case of the bench as a language's program takes it. */
export interface LangCase {
  readonly op: "do" | "hold";
  readonly callers: number;
  readonly operations: number;
  readonly tenant: string;
}

/** Runs a case in one language: operations per second. */
export type LangRunner = (c: LangCase) => Promise<number>;

async function output(cmd: string, args: string[], cwd?: string): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder();
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")}: ${text.decode(out.stderr)}`);
  return text.decode(out.stdout);
}

/** The Python program: argv is address, tenant, op, callers, operations, request limit. */
function pythonProgram(book: Book, file: string): string {
  const m = members(book, "python");
  const receive = m.transfers.get("入荷")!;
  const hold = m.transfers.get("引当")!;
  const rp = m.transferParams.get("入荷")!;
  const hp = m.transferParams.get("引当")!;
  return `import importlib.util
import os
import sys
import threading
import time

import tigerbeetle as tb

spec = importlib.util.spec_from_file_location("book", ${JSON.stringify(file)})
assert spec is not None and spec.loader is not None
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
address, tenant, op = sys.argv[1], sys.argv[2], sys.argv[3]
callers, operations, limit = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
client = tb.ClientSync(cluster_id=0, replica_addresses=address)
book = m.tigerbeetle(client, tenant, request_limit=limit)
fill = book.${receive}.do(${rp.get("納品書")}="fill", ${rp.get("sku")}="s", ${rp.get("数")}=${STOCK})
assert fill.result in ("done", "done_before"), fill
lock = threading.Lock()
taken = [0]
failed: list[str] = []


def caller() -> None:
    while True:
        with lock:
            n = taken[0]
            taken[0] += 1
        if n >= operations or len(failed) > 0:
            return
        key = f"{op}-{n}"
        if op == "do":
            r = book.${receive}.do(${rp.get("納品書")}=key, ${rp.get("sku")}="s", ${rp.get("数")}=1)
        else:
            r = book.${hold}.hold(${hp.get("注文")}=key, ${hp.get("sku")}="s", ${hp.get("数")}=1)
        if r.result != "done":
            failed.append(f"operation {n} answered {r}")


threads = [threading.Thread(target=caller) for _ in range(callers)]
started = time.perf_counter()
for t in threads:
    t.start()
for t in threads:
    t.join()
elapsed = time.perf_counter() - started
print(failed[0] if failed else operations / elapsed, flush=True)
# The SDK's threads would abort its finalization (see the other runners): leave at once.
os._exit(0)
`;
}

/** The Go program: the same arguments as the Python one. */
function goProgram(book: Book, pkg: string): string {
  const m = members(book, "go");
  const receive = m.transfers.get("入荷")!;
  const hold = m.transfers.get("引当")!;
  const rp = m.transferParams.get("入荷")!;
  const hp = m.transferParams.get("引当")!;
  return `package main

import (
\t"context"
\t"fmt"
\t"os"
\t"strconv"
\t"sync"
\t"sync/atomic"
\t"time"

\ttb "${TB_GO_MODULE.path}"

\tbook "chobo.invalid/bench/${pkg}"
)

func number(s string) int {
\tn, err := strconv.Atoi(s)
\tif err != nil {
\t\tpanic(err)
\t}
\treturn n
}

func main() {
\taddress, tenant, op := os.Args[1], os.Args[2], os.Args[3]
\tcallers, operations, limit := number(os.Args[4]), number(os.Args[5]), number(os.Args[6])
\tc, err := tb.NewClient(tb.ToUint128(0), []string{address})
\tif err != nil {
\t\tpanic(err)
\t}
\tdefer c.Close()
\tb := book.TigerBeetle(c, tenant, book.RequestLimit(limit))
\tctx := context.Background()
\tfill, err := b.${receive}.Do(ctx, book.${receive}Args{${rp.get("納品書")}: "fill", ${rp.get("sku")}: "s", ${
    rp.get("数")
  }: ${STOCK}})
\tif err != nil || (fill.Outcome != book.Done && fill.Outcome != book.DoneBefore) {
\t\tpanic(fmt.Sprint("the stock was not received: ", fill, err))
\t}
\tvar next atomic.Int64
\tvar failed atomic.Value
\tvar wg sync.WaitGroup
\tstarted := time.Now()
\tfor range callers {
\t\twg.Add(1)
\t\tgo func() {
\t\t\tdefer wg.Done()
\t\t\tfor failed.Load() == nil {
\t\t\t\tn := int(next.Add(1) - 1)
\t\t\t\tif n >= operations {
\t\t\t\t\treturn
\t\t\t\t}
\t\t\t\tkey := fmt.Sprintf("%s-%d", op, n)
\t\t\t\tvar r book.Result
\t\t\t\tvar err error
\t\t\t\tif op == "do" {
\t\t\t\t\tr, err = b.${receive}.Do(ctx, book.${receive}Args{${rp.get("納品書")}: key, ${
    rp.get("sku")
  }: "s", ${rp.get("数")}: 1})
\t\t\t\t} else {
\t\t\t\t\tr, err = b.${hold}.Hold(ctx, book.${hold}Args{${hp.get("注文")}: key, ${hp.get("sku")}: "s", ${
    hp.get("数")
  }: 1})
\t\t\t\t}
\t\t\t\tif err != nil || r.Outcome != book.Done {
\t\t\t\t\tfailed.Store(fmt.Sprintf("operation %d answered %v %v", n, r, err))
\t\t\t\t}
\t\t\t}
\t\t}()
\t}
\twg.Wait()
\telapsed := time.Since(started)
\tif f := failed.Load(); f != nil {
\t\tfmt.Println(f)
\t\treturn
\t}
\tfmt.Println(float64(operations) / elapsed.Seconds())
}
`;
}

/** Reads a program's one line: operations per second, or what went wrong. */
function rate(line: string, what: string): number {
  const n = Number(line.trim());
  if (!Number.isFinite(n) || line.trim() === "") throw new Error(`${what}: ${line.trim()}`);
  return n;
}

/**
 * The runners of the languages whose tools are here, written into `dir` for the book and the
 * replica at `address`; each missing one is said on stderr as SKIP.
 */
export async function langRunners(
  book: Book,
  address: string,
  limit: number,
  dir: string,
): Promise<Map<string, LangRunner>> {
  const runners = new Map<string, LangRunner>();
  const args = (
    c: LangCase,
  ) => [address, c.tenant, c.op, String(c.callers), String(c.operations), String(limit)];
  const hasPython = await new Deno.Command("python3", { args: ["-c", "import tigerbeetle"], stderr: "null" })
    .output().then((o) => o.success, () => false);
  if (hasPython) {
    const [[name, text]] = tigerbeetlePythonClient(book, {
      file: "在庫.book",
      sha: "bench",
      version: "bench",
    });
    Deno.writeTextFileSync(`${dir}/${name}`, text);
    Deno.writeTextFileSync(`${dir}/bench.py`, pythonProgram(book, `${dir}/${name}`));
    runners.set(
      "Python",
      async (c) => rate(await output("python3", [`${dir}/bench.py`, ...args(c)]), `Python ${c.op}`),
    );
  } else console.error("SKIP: bench tigerbeetle: Python: the tigerbeetle package (0.17.9) is not installed");
  if (await hasGo()) {
    const module = `${dir}/go`;
    const pkg = goPackageName(book);
    for (
      const [path, text] of tigerbeetleGoClient(book, { file: "在庫.book", sha: "bench", version: "bench" })
    ) {
      Deno.mkdirSync(`${module}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
      Deno.writeTextFileSync(`${module}/${path}`, text);
    }
    Deno.mkdirSync(`${module}/bench`);
    Deno.writeTextFileSync(`${module}/bench/main.go`, goProgram(book, pkg));
    Deno.writeTextFileSync(
      `${module}/go.mod`,
      `module chobo.invalid/bench\n\ngo 1.26.0\n\nrequire ${TB_GO_MODULE.path} ${TB_GO_MODULE.version}\n`,
    );
    await go(["mod", "tidy"], module);
    await go(["build", "-o", `${dir}/bench-go`, "./bench"], module);
    runners.set("Go", async (c) => rate(await output(`${dir}/bench-go`, args(c)), `Go ${c.op}`));
  } else console.error("SKIP: bench tigerbeetle: Go: go is not installed");
  return runners;
}
