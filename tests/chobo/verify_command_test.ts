/**
 * `chobo verify` (docs/targets.md#chobo-verify): an example book agrees with the interpreter on a
 * disposable PostgreSQL server and on PGlite; a planted disagreement (the SQL with one bound's
 * reason changed, loaded through a wrapper of PGlite) exits 1 and prints the scenario, the step
 * and both answers; SQL that needs what PGlite lacks says which; TigerBeetle plays on the test
 * double's bridge (which is not TigerBeetle), and on a replica only when `CHOBO_TIGERBEETLE` names
 * one. `chobo check` does not load PGlite or `pg`: only the verify command imports them, at run time.
 */

import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { verifyBooks } from "../../commands/chobo_verify.ts";
import { checkBook } from "../../lang/chobo/check.ts";
import { accountId, uuidText } from "../../lang/chobo/ids.ts";
import { readScenarios, runScenario } from "../../lang/chobo/scenario.ts";
import { disagreement, expectedStep } from "../../verify/chobo/disagreement.ts";
import { sqlStore, STORES, type Stores, tigerBeetleStore } from "../../verify/chobo/stores.ts";
import { findPgBin } from "../../verify/services/pg_cluster.ts";
import { type Db, pgliteDb } from "../../verify/services/pg_db.ts";
import { startBridge } from "../support/tigerbeetle_bridge.ts";
import { capturingIo, runCli, runCliAsync } from "../support/run.ts";

const REFUNDS = "examples/refunds/refunds.book";
const SHELVES = "tests/chobo/books/to_itself.book";

/** The real stores, but PGlite's SQL passed through `change` first: a store that is wrong on purpose. */
function plantedStores(change: (sql: string) => string): Stores {
  return {
    ...STORES,
    pglite: async () => {
      const lite = await pgliteDb();
      const planted: Db = { ...lite, exec: (sql) => lite.exec(change(sql)) };
      return sqlStore(planted, "PGlite (planted)", () => lite.end());
    },
  };
}

Deno.test("chobo verify: an example book agrees with the interpreter on PGlite; progress on stderr", async () => {
  const run = await runCliAsync(["chobo", "verify", REFUNDS, "--target", "pglite"]);
  strictEqual(run.code, 0, run.stdout + run.stderr);
  match(
    run.stdout,
    /^chobo verify: every scenario agrees with the interpreter on PGlite [0-9.]+ \(PostgreSQL [0-9.]+\): 19 scenarios of 1 book\n$/,
  );
  match(run.stderr, /^chobo verify: starting PGlite in this process\n/);
  ok(run.stderr.includes(`chobo verify: ${REFUNDS}: 19/19 scenarios agree\n`), run.stderr);
});

Deno.test("chobo verify: an example book agrees on a disposable PostgreSQL server, in Japanese too", async () => {
  if (findPgBin() === null) {
    console.log("SKIP: chobo: verify on postgres: no initdb/pg_ctl on this machine");
    return;
  }
  const run = await runCliAsync(["chobo", "verify", "examples/refunds/refunds.ja.book", "--lang", "ja"]);
  strictEqual(run.code, 0, run.stdout + run.stderr);
  match(run.stdout, /^chobo verify: PostgreSQL [0-9.]+ で、どのシナリオも参照インタプリタと一致しました/);
  match(run.stderr, /^chobo verify: 使い捨ての PostgreSQL サーバーを起動します\n/);
});

Deno.test("chobo verify: a planted disagreement exits 1 with the scenario, the step and both answers", async () => {
  for (const lang of ["en", "ja"] as const) {
    const { io, done } = capturingIo();
    const code = await verifyBooks(
      [SHELVES],
      "pglite",
      io,
      lang,
      plantedStores((sql) => sql.replaceAll("'shelf_short'", "'shelf_empty'")),
    );
    const run = done(code);
    strictEqual(run.code, 1, run.stdout + run.stderr);
    const [interpreter, planted] = lang === "en"
      ? ["  the interpreter: refused: shelf_short", "  PGlite (planted): refused: shelf_empty"]
      : ["  参照インタプリタ: shelf_short で拒否される", "  PGlite (planted): shelf_empty で拒否される"];
    const scenario = `${SHELVES}: bound: relocate.do leaves shelf(place) one beyond at least 0: ${
      lang === "en" ? "disagrees" : "一致しない"
    }: `;
    const at = run.stdout.indexOf(scenario);
    ok(at >= 0, run.stdout);
    const lines = run.stdout.slice(at + scenario.length).split("\n");
    match(lines[0], lang === "en" ? /^step 2: relocate\.do\(/ : /^ステップ 2: relocate\.do\(/);
    deepStrictEqual(lines.slice(1, 3), [interpreter, planted]);
    match(
      run.stdout,
      lang === "en"
        ? /\nchobo verify: [0-9]+ failures on PGlite \(planted\) \(10 scenarios of 1 book\)\n$/
        : /食い違いが/,
    );
  }
});

Deno.test("chobo verify: a disagreement at the end writes the balances in the unit's scale, as chobo run does", () => {
  const path = "tests/chobo/fixtures/run/purse.book";
  const book = checkBook(path, Deno.readTextFileSync(path)).book;
  ok(book !== null);
  const [scenario] = readScenarios(book, Deno.readTextFileSync("tests/chobo/fixtures/run/purse.json"));
  const branches = runScenario(book, scenario);
  const accounts = new Map<string, [bigint, bigint, bigint]>();
  for (const a of branches[0].ledger.accounts()) {
    const { posted, heldIn, heldOut } = a.balance;
    accounts.set(uuidText(accountId(book, "t", a.id.account, a.id.args)), [posted, heldIn, heldOut]);
  }
  const purse = uuidText(accountId(book, "t", "purse", ["member-2"]));
  accounts.set(purse, [700n, 0n, 25n]);
  const played = { steps: branches[0].steps.map(expectedStep), accounts, holds: new Map(), late: false };
  const text = disagreement(book, "t", branches, played, "PGlite");
  strictEqual(
    text.en,
    [
      "at the end, purse(member-2)",
      "  the interpreter: posted 7.25, held in 0.00, held out 0.00",
      "  PGlite: posted 7.00, held in 0.00, held out 0.25",
    ].join("\n"),
  );
  strictEqual(
    text.ja.split("\n")[1],
    "  参照インタプリタ: 確定 7.25、入ってくる仮押さえ 0.00、出ていく仮押さえ 0.00",
  );
});

Deno.test("chobo verify: SQL that needs an extension PGlite lacks says which, and exits 1", async () => {
  const { io, done } = capturingIo();
  const code = await verifyBooks(
    [SHELVES],
    "pglite",
    io,
    "en",
    plantedStores((sql) => `create extension pgcrypto;\n${sql}`),
  );
  const run = done(code);
  strictEqual(run.code, 1);
  match(
    run.stdout,
    /^chobo verify: tests\/chobo\/books\/to_itself\.book: the SQL does not load on PGlite \(planted\): .*pgcrypto.* \(PGlite \(planted\) lacks the extension pgcrypto, which the SQL needs\)\n$/,
  );
});

Deno.test("chobo verify --target tigerbeetle: on the test double's bridge (not TigerBeetle) every scenario agrees", async () => {
  const bridge = startBridge();
  try {
    const { io, done } = capturingIo();
    const stores: Stores = {
      ...STORES,
      tigerbeetle: () =>
        Promise.resolve(tigerBeetleStore({ double: bridge.url }, "the test double", () => Promise.resolve())),
    };
    const run = done(
      await verifyBooks(
        [SHELVES],
        "tigerbeetle",
        { ...io, env: { CHOBO_TIGERBEETLE: "double" } },
        "en",
        stores,
      ),
    );
    strictEqual(run.code, 0, run.stdout + run.stderr);
    strictEqual(
      run.stdout,
      "chobo verify: every scenario agrees with the interpreter on the test double: 10 scenarios of 1 book\n",
    );
  } finally {
    await bridge.stop();
  }
});

Deno.test("chobo verify --target tigerbeetle: on a replica of CHOBO_TIGERBEETLE, or it says that nothing was verified", async () => {
  const bin = Deno.env.get("CHOBO_TIGERBEETLE") ?? "";
  const unset = await runCliAsync(["chobo", "verify", SHELVES, "--target", "tigerbeetle"]);
  strictEqual(unset.code, 1);
  match(unset.stderr, /^chobo verify: CHOBO_TIGERBEETLE is not set: .* nothing was verified\n$/);
  strictEqual(unset.stdout, "");
  if (bin === "") {
    console.log("SKIP: tigerbeetle: CHOBO_TIGERBEETLE is not set");
    return;
  }
  const run = await runCliAsync(["chobo", "verify", REFUNDS, "--target", "tigerbeetle"], {
    env: { CHOBO_TIGERBEETLE: bin },
  });
  strictEqual(run.code, 0, run.stdout + run.stderr);
  match(run.stdout, /every scenario agrees with the interpreter on TigerBeetle 0\.17\.9/);
});

Deno.test("chobo verify: a book that cannot be read or has errors, or two books of one name, start nothing and exit 1", async () => {
  const missing = await runCliAsync(["chobo", "verify", "missing.book", "--target", "pglite"]);
  strictEqual(missing.code, 1);
  strictEqual(missing.stderr, "chobo verify: missing.book: no such file\n");
  const broken = await runCliAsync(["chobo", "verify", "b.book"], {
    files: { "b.book": "book b v1\nunit\n" },
  });
  strictEqual(broken.code, 1);
  ok(broken.stderr.startsWith("error[E001]: b.book:2:"), broken.stderr);
  ok(!broken.stderr.includes("starting"), broken.stderr);
  const text = Deno.readTextFileSync(SHELVES);
  const twice = await runCliAsync(["chobo", "verify", "a/x.book", "b/x.book", "--lang", "ja"], {
    files: { "a/x.book": text, "b/x.book": text },
  });
  strictEqual(twice.code, 1);
  strictEqual(
    twice.stderr,
    "chobo verify: b/x.book と a/x.book はどちらも帳簿 to_itself です。一度に流せるのは同じ名前の帳簿一つなので、一つずつ確かめてください\n",
  );
  const badMore = await runCliAsync(["chobo", "verify", "x.book"], {
    files: { "x.book": text, "x.more.json": "[]" },
  });
  strictEqual(badMore.code, 1);
  strictEqual(
    badMore.stderr,
    "chobo verify: x.more.json: an empty list: the file holds no scenario to run\n",
  );
  const long = "tests/chobo/fixtures/build/long_chain.book";
  const e060 = await runCliAsync(["chobo", "verify", long, "--target", "tigerbeetle"], {
    env: { CHOBO_TIGERBEETLE: "/nonexistent" },
  });
  strictEqual(e060.code, 1);
  ok(e060.stderr.includes("[E060]") && !e060.stderr.includes("starting"), e060.stderr);
  const usage = runCli(["chobo", "verify", REFUNDS, "--target", "mysql"]);
  strictEqual(usage.code, 2);
  ok(usage.stderr.includes("--target is one of postgres, pglite, tigerbeetle, not mysql"), usage.stderr);
});

Deno.test("chobo check loads neither PGlite nor pg: cli.ts imports them only at run time, from chobo verify", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL("../../cli.ts", import.meta.url).pathname],
    stdout: "piped",
    stderr: "piped",
  }).output();
  strictEqual(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: { specifier: string; dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[] }[];
  };
  const modules = new Map(info.modules.map((m) => [m.specifier, m]));
  const loaded = new Set<string>();
  const visit = (specifier: string) => {
    if (loaded.has(specifier)) return;
    loaded.add(specifier);
    for (const d of modules.get(specifier)?.dependencies ?? []) {
      if (d.code !== undefined && d.isDynamic !== true) visit(d.code.specifier);
    }
  };
  visit(info.roots[0]);
  ok(loaded.size > 100, `${loaded.size} modules`);
  deepStrictEqual([...loaded].filter((s) => s.startsWith("npm:")), []);
  ok(!loaded.has(new URL("../../verify/services/pg_db.ts", import.meta.url).href));
  const dynamic = info.modules.flatMap((m) => (m.dependencies ?? []).filter((d) => d.isDynamic === true));
  ok(
    dynamic.some((d) => d.code?.specifier.endsWith("/verify/services/pg_db.ts")),
    "pg_db.ts is imported at run time",
  );
});

Deno.test("deno task verify postgres <path>: a client language this machine cannot run says SKIP with what to install", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "chobo-verify-path-" });
  try {
    // Stand-ins named python3 and go: a Python without psycopg_pool, and a go that does not run.
    Deno.writeTextFileSync(
      `${dir}/python3`,
      "#!/bin/sh\necho \"ModuleNotFoundError: No module named 'psycopg_pool'\" >&2\nexit 1\n",
    );
    Deno.writeTextFileSync(`${dir}/go`, "#!/bin/sh\necho 'go: not here' >&2\nexit 1\n");
    Deno.chmodSync(`${dir}/python3`, 0o755);
    Deno.chmodSync(`${dir}/go`, 0o755);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../../verify/verify.ts", import.meta.url).pathname, "postgres", SHELVES],
      env: { PATH: `${dir}:${Deno.env.get("PATH") ?? ""}` },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    const stderr = new TextDecoder().decode(out.stderr);
    strictEqual(out.code, 0, stdout + stderr);
    ok(!stderr.includes("Traceback") && !stdout.includes("Traceback"), stdout + stderr);
    ok(stdout.includes("PGlite × SQL: 10/10 scenarios agree"), stdout);
    if (findPgBin() !== null) {
      ok(
        stdout.includes(
          "SKIP: chobo: postgres server × python: python3 cannot import psycopg, psycopg_pool: pip install -r verify/requirements.txt (ModuleNotFoundError: No module named 'psycopg_pool')",
        ),
        stdout,
      );
      ok(stdout.includes("SKIP: chobo: postgres server × go: go does not run: install Go"), stdout);
      ok(stdout.includes("postgres server × typescript: 10/10 scenarios agree"), stdout);
    }
    const absent = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../../verify/verify.ts", import.meta.url).pathname, "postgres", "no.book"],
      stdout: "piped",
      stderr: "piped",
    }).output();
    strictEqual(absent.code, 2);
    match(
      new TextDecoder().decode(absent.stderr),
      /^deno task verify: no such file or directory: no\.book\n/,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
