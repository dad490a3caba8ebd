/**
 * The naming layer (targets/dandori/naming.ts, docs/dandori.md#names-in-generated-code): every
 * target's renaming is one-to-one, two names one scope spells alike and a name a host cannot take
 * are E006 naming both in both languages with nothing written, chobo's Python clients read names
 * as Python does, and a Mermaid label cannot carry a directive. The hostile flows of
 * tests/dandori/flows/hostile/ run on every target in the differential runs (each target's test
 * compiles every flow's package), and the property test (names_property_test.ts) builds many more.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { avoidTaken } from "../../targets/dandori/naming.ts";
import { ident as tsIdent, typeName as tsTypeName } from "../../targets/dandori/typescript/names.ts";
import { ident as pyIdent } from "../../targets/dandori/pydantic_graph/names.ts";
import { typeName as pyTypeName } from "../../targets/dandori/python/names.ts";
import { ident as temporalPyIdent } from "../../targets/dandori/temporal_python/names.ts";
import { variableNames } from "../../targets/dandori/stepfunctions/names.ts";
import { labelText } from "../../lang/dandori/mermaid.ts";
import { members } from "../../targets/chobo/names.ts";
import { checkBook } from "../../lang/chobo/check.ts";
import { assertGolden } from "../support/golden.ts";
import { runCli } from "../support/run.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const GOLDEN = `${ROOT}tests/dandori/golden/names/`;

/** Names built of every taken word and `_`s after it, beside plain ones. */
const FAMILY = ["E", "e", "input", "cases", "class", "str", "list", "number", "dd_x", "a_s12", "Object", "ok"]
  .flatMap((n) => [n, `${n}_`, `${n}__`, `${n}___`]);

Deno.test("every target's spelling keeps distinct names distinct, and renames only by a trailing _", () => {
  for (const spell of [tsIdent, tsTypeName, pyIdent, pyTypeName, temporalPyIdent]) {
    const spelled = FAMILY.map(spell);
    strictEqual(new Set(spelled).size, FAMILY.length, spell.name);
    FAMILY.forEach((n, i) => ok(spelled[i] === n || spelled[i] === `${n}_`, `${n} → ${spelled[i]}`));
  }
  const sf = variableNames(FAMILY);
  strictEqual(new Set(sf.values()).size, FAMILY.length);
  deepStrictEqual(
    ["class", "E", "e", "input", "Promise", "ok"].map(tsIdent),
    ["class_", "E_", "e_", "input_", "Promise_", "ok"],
  );
  deepStrictEqual(["number", "string", "Order"].map(tsTypeName), ["number_", "string_", "Order"]);
  deepStrictEqual(["class", "ｎｏｔｅ", "ﬁ", "str", "dd_x", "typing"].map(pyIdent), [
    "class_",
    "note",
    "fi",
    "str_",
    "dd_x_",
    "typing_",
  ]);
  deepStrictEqual(["self", "resume", "e", "got_s12", "dd_run", "ﬁ", "activity"].map(temporalPyIdent), [
    "self_",
    "resume_",
    "e_",
    "got_s12_",
    "dd_run_",
    "fi",
    "activity_",
  ]);
  strictEqual(avoidTaken("_", () => true), "_", "a name of only _ has no base to take");
});

/** Flows whose names a target cannot keep apart or cannot spell, by golden name and target. */
const CLASHES: readonly { readonly name: string; readonly target: string; readonly text: string }[] = [
  {
    name: "nfkc",
    target: "pydantic-graph",
    text: `workflow nfkc v1

task note(text: string) -> string
  lambda "arn:aws:lambda:ap-northeast-1:123456789012:function:note"

flow
  let ｎｏｔｅ = note(text: "a")
  let note = note(text: ｎｏｔｅ)
`,
  },
  {
    name: "dunder",
    target: "pydantic-graph",
    text: `workflow dunder v1

task __init__(text: string) -> string
  lambda "arn:aws:lambda:ap-northeast-1:123456789012:function:init"

flow
  let __x = __init__(text: "a")
`,
  },
  {
    name: "types",
    target: "pydantic-graph",
    text: `workflow types v1

record Parcel
  id : string

record is_Parcel
  id : string

inputs
  parcel : Parcel
  other  : is_Parcel

flow
  pass
`,
  },
  {
    name: "hold_record",
    target: "temporal-typescript",
    text: `workflow hold_record v1

use book stock from "stock.book"

record stock_reserve
  order : string

inputs
  r : stock_reserve

flow
  pass
`,
  },
  {
    name: "mark",
    target: "durable",
    text: `workflow mark v1

inputs
  t\u20dd : string

task send(text: string)
  lambda "arn:aws:lambda:ap-northeast-1:123456789012:function:send"

flow
  let x\u20dd = "a"
  send(text: x\u20dd)
`,
  },
];

const STOCK = Deno.readTextFileSync(`${ROOT}tests/dandori/flows/books/stock.book`);

Deno.test("names a target cannot keep apart or spell are E006 in both languages, naming both, and nothing is written", () => {
  for (const c of CLASHES) {
    const file = `${c.name}.flow`;
    strictEqual(
      runCli(["dandori", "check", file], { files: { [file]: c.text, "stock.book": STOCK } }).code,
      0,
    );
    for (const lang of ["en", "ja"] as const) {
      const run = runCli(["dandori", "build", file, "--target", c.target, "--out", "out", "--lang", lang], {
        files: { [file]: c.text, "stock.book": STOCK },
      });
      strictEqual(run.code, 1, `${c.name}: ${run.stderr}`);
      strictEqual(Object.keys(run.written).length, 0, "nothing is written");
      ok(run.stderr.includes("E006"), run.stderr);
      assertGolden(`${GOLDEN}${c.name}.${lang}.txt`, run.stderr);
    }
  }
});

Deno.test("durable refuses an input named toString, which its SDK cannot log, with E050", () => {
  const text = `workflow logged v1

inputs
  toString : string

flow
  pass
`;
  for (const lang of ["en", "ja"] as const) {
    const run = runCli([
      "dandori",
      "build",
      "logged.flow",
      "--target",
      "durable",
      "--out",
      "out",
      "--lang",
      lang,
    ], {
      files: { "logged.flow": text },
    });
    strictEqual(run.code, 1);
    strictEqual(Object.keys(run.written).length, 0);
    assertGolden(`${GOLDEN}durable_tostring.${lang}.txt`, run.stderr);
  }
  const other = runCli(
    ["dandori", "build", "logged.flow", "--target", "temporal-typescript", "--out", "out"],
    {
      files: { "logged.flow": text },
    },
  );
  strictEqual(other.code, 0, other.stderr);
});

const NFKC_BOOK = `book folded v1

unit pcs

account ｃａｓｈ : pcs
  at least 0 refused as short
account cash : pcs
  at least 0 refused as short
account suppliers : pcs outside

transfer give(ﬁ: string, fi: string, qty: pcs)
  key ﬁ, fi
  move qty from suppliers to cash
`;

Deno.test("chobo's Python clients read names after NFKC: names that fold alike get _2, and __ names are E061", () => {
  const book = checkBook("folded.book", NFKC_BOOK).book;
  ok(book !== null);
  const m = members(book, "python");
  deepStrictEqual([...m.accounts.values()], ["cash", "cash_2", "suppliers"]);
  deepStrictEqual([...(m.transferParams.get("give")?.values() ?? [])], ["fi", "fi_2", "qty"]);
  const dunder = NFKC_BOOK.replace("account cash : pcs", "account __cash : pcs").replace(
    "to cash",
    "to __cash",
  );
  for (const target of ["postgres-python", "tigerbeetle-python"]) {
    for (const lang of ["en", "ja"] as const) {
      const run = runCli([
        "chobo",
        "build",
        "folded.book",
        "--target",
        target,
        "--out",
        "out",
        "--lang",
        lang,
      ], {
        files: { "folded.book": dunder },
      });
      strictEqual(run.code, 1, run.stderr);
      strictEqual(Object.keys(run.written).length, 0);
      assertGolden(`${GOLDEN}chobo_${target}.${lang}.txt`, run.stderr);
    }
  }
  const ts = runCli(["chobo", "build", "folded.book", "--target", "postgres-typescript", "--out", "out"], {
    files: { "folded.book": dunder },
  });
  strictEqual(ts.code, 0, ts.stderr);
});

Deno.test("a Mermaid label cannot make a directive, end its quotes or open a tag", () => {
  const label = labelText('%%{init: {"theme": "dark"}}%% "x" <b>|`');
  ok(!/[%"<>|`]/.test(label), label);
  const run = runCli(["dandori", "doc", "styled.flow"], {
    files: {
      "styled.flow": `workflow styled v1

flow
  fail Styled "%%{{init: {{theme: dark}}}}%%"
`,
    },
  });
  strictEqual(run.code, 0, run.stderr);
  const charts = run.stdout.split("```mermaid").slice(1).map((c) => c.split("```")[0]);
  ok(charts.length > 0, "the page has charts");
  for (const c of charts) ok(!c.includes("%%"), c);
});
