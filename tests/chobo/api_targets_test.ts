/**
 * `chobo api`'s `targets` section (targets/chobo/api.ts): pinned by golden files for two books, and
 * held to what the generators write for every test and example book — each SQL function with its
 * parameters in order and those that default to null, each client's constructor, members, types,
 * argument names and Go fields, each TigerBeetle chain's roles as a call sends them — and to what
 * stops each build.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { checkBook } from "../../lang/chobo/check.ts";
import type { Call } from "../../lang/chobo/interp.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { parseJson, stringifyJson } from "../../lang/common/json.ts";
import { VERSION } from "../../lang/common/version.ts";
import { targetsJson } from "../../targets/chobo/api.ts";
import { ident } from "../../targets/chobo/postgres/sql_names.ts";
import { buildTarget, type Origin } from "../../targets/chobo/target.ts";
import { CHOBO_TARGETS, type ChoboTargetName, targetNamed } from "../../targets/chobo/targets.ts";
import { moveSends } from "../../targets/chobo/tigerbeetle/chain.ts";
import { lowerChains } from "../../targets/chobo/tigerbeetle/plan.ts";
import { prop } from "../../targets/chobo/typescript_names.ts";
import { assertGolden } from "../support/golden.ts";
import { runCli } from "../support/run.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const GOLDEN = `${ROOT}tests/chobo/golden/api/`;

type Names = { param: string; name: string }[];
interface Targets {
  stops: Record<ChoboTargetName, string[]>;
  postgres: {
    schema: string;
    functions: { name: string; params: string[]; default_null: string[] }[];
    balances: { name: string; params: string[] }[];
    expire: string;
  };
  typescript: {
    file: string;
    constructors: { postgres: string; tigerbeetle: string };
    transfers: { member: string; args: string; key: string | null; amounts: string | null; params: Names }[];
    accounts: { member: string; type: string | null; params: Names }[];
  };
  python: {
    file: string;
    constructors: { postgres: string; tigerbeetle: string };
    transfers: { member: string; params: Names }[];
    accounts: { member: string; params: Names }[];
  };
  go: {
    package: string;
    files: string[];
    constructors: { postgres: string; tigerbeetle: string };
    transfers: {
      transfer: string;
      field: string;
      type: string;
      args: string;
      key: string | null;
      amounts: string | null;
      params: Names;
    }[];
    accounts: { method: string; type: string | null; params: Names }[];
  };
  tigerbeetle: {
    max_batch: number;
    chains: { transfer: string; op: string; pieces: { move: number | null; role: string }[] }[];
  };
}

/**
 * Every book of tests/chobo/books, examples/ and tests/chobo/fixtures/build (which E060 and E061 stop), by
 * path from the repository's root.
 */
function books(): string[] {
  const out: string[] = [];
  const examples = [...Deno.readDirSync(`${ROOT}examples`)].map((e) => `examples/${e.name}`);
  for (const dir of ["tests/chobo/books", "tests/chobo/fixtures/build", ...examples]) {
    for (const e of Deno.readDirSync(`${ROOT}${dir}`)) {
      if (e.name.endsWith(".book")) out.push(`${dir}/${e.name}`);
    }
  }
  return out.sort();
}

function checked(path: string): { book: Book; origin: Origin } {
  const text = Deno.readTextFileSync(`${ROOT}${path}`);
  const { book, diagnostics } = checkBook(path, text);
  ok(book !== null, `${path}: ${diagnostics.map((d) => d.code).join(", ")}`);
  return { book, origin: { file: path.split("/").pop()!, text, sha: "0123456789abcdef", version: VERSION } };
}

function targetsOf(book: Book, origin: Origin): Targets {
  return targetsJson(book, origin) as unknown as Targets;
}

/** The one file of a build, or the file at `path` of it. */
function built(book: Book, origin: Origin, target: ChoboTargetName, path: string): string {
  const result = buildTarget(targetNamed(target), book, origin);
  ok("files" in result, `${book.name}: ${target}`);
  const text = result.files.get(path);
  ok(
    text !== undefined,
    `${book.name}: ${target} writes ${[...result.files.keys()].join(", ")}, not ${path}`,
  );
  return text;
}

/** The parameters of `create or replace function <schema>.<name>(…)` as the SQL declares them. */
function sqlParams(sql: string, schema: string, name: string): string[] {
  const head = `create or replace function ${ident(schema)}.${ident(name)}(`;
  const at = sql.indexOf(head);
  ok(at >= 0, head);
  const list = sql.slice(at + head.length, sql.indexOf(")\nreturns", at));
  return list === "" ? [] : list.split(", ");
}

function expectSql(t: Targets, sql: string): void {
  const pg = t.postgres;
  const quoted = (p: string) => p === "p_tenant" ? p : ident(p);
  for (const f of pg.functions) {
    const declared = sqlParams(sql, pg.schema, f.name);
    deepStrictEqual(declared.map((d) => d.split(" ")[0]), f.params.map(quoted), f.name);
    deepStrictEqual(
      declared.filter((d) => d.endsWith(" default null")).map((d) => d.split(" ")[0]),
      f.default_null.map(quoted),
      f.name,
    );
  }
  for (const b of pg.balances) {
    deepStrictEqual(
      sqlParams(sql, pg.schema, b.name).map((d) => d.split(" ")[0]),
      b.params.map(quoted),
      b.name,
    );
  }
  ok(sql.includes(`create or replace function ${ident(pg.schema)}.${pg.expire}(`));
}

/** The text of `export interface <name> {…}`, asserting it is there. */
function tsInterface(ts: string, name: string): string {
  const head = `export interface ${name} {\n`;
  const at = ts.indexOf(head);
  ok(at >= 0, head);
  return ts.slice(at + head.length, ts.indexOf("\n}", at));
}

function expectTypescript(t: Targets, ts: string, constructor: string): void {
  ok(ts.includes(`export function ${constructor}(`), constructor);
  for (const x of t.typescript.transfers) {
    ok(ts.includes(`  readonly ${prop(x.member)}: {\n`), x.member);
    const fields = tsInterface(ts, x.args);
    for (const p of x.params) ok(fields.includes(`  readonly ${prop(p.name)}: `), `${x.args}.${p.name}`);
    for (const other of [x.key, x.amounts]) {
      if (other === null) ok(!ts.includes(`export interface ${x.args.replace(/Args$/, "Key")} {`));
      else tsInterface(ts, other);
    }
  }
  for (const a of t.typescript.accounts) {
    ok(
      ts.includes(`    ${prop(a.member)}(${a.type === null ? "" : `account: ${a.type}`}): Promise<Balance>;`),
      a.member,
    );
    if (a.type === null) continue;
    const fields = tsInterface(ts, a.type);
    for (const p of a.params) {
      ok(fields.includes(`  readonly ${prop(p.name)}: string;`), `${a.type}.${p.name}`);
    }
  }
}

function expectPython(t: Targets, py: string, constructor: string): void {
  ok(py.includes(`\ndef ${constructor}(`), constructor);
  for (const x of t.python.transfers) {
    const made = py.match(new RegExp(`self\\.${RegExp.escape(x.member)} = ([^\\s(]+)\\(`, "u"));
    ok(made !== null, x.member);
    const body = py.slice(
      py.indexOf(`class ${made[1]}:`),
      py.indexOf("\nclass ", py.indexOf(`class ${made[1]}:`) + 1),
    );
    const write = body.match(/def (?:do|hold)\(self, \*, ([^)]*)\)/u);
    ok(write !== null, body);
    deepStrictEqual(write[1].split(", ").map((k) => k.split(":")[0]), x.params.map((p) => p.name), x.member);
  }
  for (const a of t.python.accounts) {
    const keywords = a.params.map((p) => `${p.name}: str`).join(", ");
    ok(
      py.includes(`    def ${a.member}(self${keywords === "" ? "" : `, *, ${keywords}`}) -> Balance:`),
      a.member,
    );
  }
}

/** The rows of `type <name> struct {…}` (or `struct{}`), as `name type`. */
function goStruct(go: string, name: string): string[] {
  if (go.includes(`type ${name} struct{}`)) return [];
  const head = `type ${name} struct {\n`;
  const at = go.indexOf(head);
  ok(at >= 0, head);
  return go.slice(at + head.length, go.indexOf("\n}", at)).split("\n").map((l) =>
    l.trim().replace(/\s+/g, " ")
  );
}

function expectGo(book: Book, t: Targets, go: string, constructor: string): void {
  ok(go.includes(`\npackage ${t.go.package}\n`), t.go.package);
  ok(go.includes(`\nfunc ${constructor}(`), constructor);
  const fields = goStruct(go, "Book");
  for (const x of t.go.transfers) {
    ok(fields.includes(`${x.field} *${x.type}`), x.field);
    const params = book.transfers.find((tr) => tr.name === x.transfer)!.params;
    const goType = (param: string) =>
      params.find((p) => p.name === param)!.type.kind === "string" ? "string" : "int64";
    deepStrictEqual(goStruct(go, x.args), x.params.map((p) => `${p.name} ${goType(p.param)}`), x.args);
    for (const other of [x.key, x.amounts]) if (other !== null) goStruct(go, other);
  }
  for (const a of t.go.accounts) {
    ok(
      go.includes(
        `func (b *Balances) ${a.method}(ctx context.Context${a.type === null ? "" : `, a ${a.type}`})`,
      ),
    );
    if (a.type !== null) {
      deepStrictEqual(
        goStruct(go, a.type),
        a.params.map((p) => `${p.name} string`),
        a.type,
      );
    }
  }
}

/** A `do` or `hold` call of `t` with a value of its own for every string and 1 for every amount. */
function someCall(book: Book, name: string, op: "do" | "hold"): Call {
  const transfer = book.transfers.find((t) => t.name === name)!;
  const strings = transfer.params.filter((p) => p.type.kind === "string");
  const amounts = transfer.params.filter((p) => p.type.kind === "amount");
  return {
    transfer,
    op,
    strings: new Map(strings.map((p, i) => [p.name, `v${i}`])),
    amounts: new Map(amounts.map((p) => [p.name, 1n])),
  };
}

Deno.test("chobo api: the targets section of two books, pinned", () => {
  for (const name of ["在庫.book", "stock_reservation.book"]) {
    const run = runCli(["chobo", "api", `tests/chobo/books/${name}`]);
    strictEqual(run.code, 0, run.stderr);
    const out = parseJson(run.stdout) as Record<string, unknown>;
    ok("targets" in out, Object.keys(out).join(", "));
    assertGolden(
      `${GOLDEN}${name.replace(/\.book$/, "")}.targets.json`,
      stringifyJson(out.targets, 2) + "\n",
    );
  }
});

Deno.test("chobo api: every name of the targets section is what the generators write, for every book", () => {
  const paths = books();
  ok(paths.length > 20, `${paths.length} books`);
  let stopped = 0;
  for (const path of paths) {
    const { book, origin } = checked(path);
    const t = targetsOf(book, origin);
    for (const target of CHOBO_TARGETS) {
      const result = buildTarget(target, book, origin);
      const codes = "diagnostics" in result ? [...new Set(result.diagnostics.map((d) => d.code))] : [];
      deepStrictEqual(t.stops[target.name], codes, `${path}: ${target.name}`);
    }
    stopped += CHOBO_TARGETS.filter((target) => t.stops[target.name].length > 0).length;
    if (t.stops.postgres.length === 0) expectSql(t, built(book, origin, "postgres", `${book.name}.sql`));
    for (
      const [target, constructor] of [["postgres-typescript", "postgres"], [
        "tigerbeetle-typescript",
        "tigerbeetle",
      ]] as const
    ) {
      strictEqual(t.typescript.constructors[constructor], constructor);
      if (t.stops[target].length > 0) continue;
      expectTypescript(t, built(book, origin, target, t.typescript.file), constructor);
    }
    for (
      const [target, constructor] of [["postgres-python", "postgres"], [
        "tigerbeetle-python",
        "tigerbeetle",
      ]] as const
    ) {
      if (t.stops[target].length > 0) continue;
      expectPython(t, built(book, origin, target, t.python.file), t.python.constructors[constructor]);
    }
    for (
      const [target, constructor] of [["postgres-go", "postgres"], ["tigerbeetle-go", "tigerbeetle"]] as const
    ) {
      if (t.stops[target].length > 0) continue;
      const result = buildTarget(targetNamed(target), book, origin);
      ok("files" in result);
      deepStrictEqual([...result.files.keys()], t.go.files, path);
      expectGo(book, t, result.files.get(t.go.files[0])!, t.go.constructors[constructor]);
    }
    for (const chain of t.tigerbeetle.chains) {
      if (chain.op !== "do" && chain.op !== "hold") continue;
      const sends = moveSends(lowerChains(book), "tenant", someCall(book, chain.transfer, chain.op));
      ok(sends !== null, `${path}: ${chain.transfer}`);
      deepStrictEqual(sends.chain.map((e) => ({ move: e.move, role: e.role })), chain.pieces, chain.transfer);
    }
  }
  ok(stopped >= 2, `${stopped} builds stopped`);
});
