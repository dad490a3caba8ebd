/**
 * No generator reads a file: the runtime files copied into generated output are embedded as
 * string modules (`targets/chobo/*\/runtimes.ts`), and each must equal its file. After a runtime
 * file changes, `RITSU_BLESS=1 deno test -A tests/common/embedded_test.ts` writes the module anew.
 * And `mod.ts` imports with no permission at all and checks a book and a flow.
 */

import { strictEqual } from "node:assert/strict";
import * as postgres from "../../targets/chobo/postgres/runtimes.ts";
import * as tigerbeetle from "../../targets/chobo/tigerbeetle/runtimes.ts";
import * as durable from "../../targets/dandori/durable/runtimes.ts";
import * as stepfunctions from "../../targets/dandori/stepfunctions/runtimes.ts";
import * as temporal from "../../targets/dandori/temporal/runtimes.ts";
import * as temporalGo from "../../targets/dandori/temporal_go/runtimes.ts";
import * as pydanticGraph from "../../targets/dandori/pydantic_graph/runtimes.ts";
import * as python from "../../targets/dandori/python/runtimes.ts";
import * as temporalPython from "../../targets/dandori/temporal_python/runtimes.ts";
import * as typescript from "../../targets/dandori/typescript/runtimes.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Each embedded runtime by its module, constant and file. */
const EMBEDDED: readonly {
  folder: string;
  values: Record<string, string>;
  files: [string, string, string][];
}[] = [
  {
    folder: "targets/chobo/postgres",
    values: postgres,
    files: [
      [
        "TYPESCRIPT_RUNTIME",
        "runtime.ts",
        "`runtime/runtime.ts`: the end of every postgres-typescript client.",
      ],
      ["PYTHON_RUNTIME", "runtime.py", "`runtime/runtime.py`: the end of every postgres-python client."],
      [
        "GO_RUNTIME",
        "runtime.go",
        "`runtime/runtime.go`: the runtime file of every postgres-go package, before its package line is set.",
      ],
    ],
  },
  {
    folder: "targets/chobo/tigerbeetle",
    values: tigerbeetle,
    files: [
      [
        "TYPESCRIPT_RUNTIME",
        "runtime.ts",
        "`runtime/runtime.ts`: the end of every tigerbeetle-typescript client.",
      ],
      ["PYTHON_RUNTIME", "runtime.py", "`runtime/runtime.py`: the end of every tigerbeetle-python client."],
      [
        "GO_RUNTIME",
        "runtime.go",
        "`runtime/runtime.go`: the runtime file of every tigerbeetle-go package, before its package line is set.",
      ],
    ],
  },
  {
    folder: "targets/dandori/stepfunctions",
    values: stepfunctions,
    files: [
      [
        "BOOK_RUNTIME",
        "dandori_book.py",
        "`runtime/dandori_book.py`: `lambda/dandori_book.py` beside every book's Lambda.",
      ],
    ],
  },
  {
    folder: "targets/dandori/typescript",
    values: typescript,
    files: [
      [
        "RULES",
        "rules.ts",
        "`runtime/rules.ts`: `rules.ts` of every temporal-typescript and durable package.",
      ],
    ],
  },
  {
    folder: "targets/dandori/temporal",
    values: temporal,
    files: [
      ["RUNTIME", "runtime.ts", "`runtime/runtime.ts`: `runtime.ts` of every temporal-typescript package."],
      ["IO_RUNTIME", "io.ts", "`runtime/io.ts`: the start of `io.ts` of every temporal-typescript package."],
      [
        "CODEC",
        "codec.ts",
        "`runtime/codec.ts`: `codec.ts` of every temporal-typescript package of a `history encrypted` flow.",
      ],
      [
        "FAILURE",
        "failure.ts",
        "`runtime/failure.ts`: `failure.ts` of every temporal-typescript package of a `history encrypted` flow.",
      ],
    ],
  },
  {
    folder: "targets/dandori/temporal_go",
    values: temporalGo,
    files: [
      [
        "RUNTIME",
        "runtime.go",
        "`runtime/runtime.go`: `runtime.go` of every temporal-go package, before its package clause is set.",
      ],
      [
        "VALUES",
        "values.go",
        "`runtime/values.go`: `values.go` of every temporal-go package, before its package clause is set.",
      ],
      ["IO_RUNTIME", "io.go", "`runtime/io.go`: the start of `io.go` of every temporal-go package."],
      [
        "AWS_RUNTIME",
        "io_aws.go",
        "`runtime/io_aws.go`: the start of `io_aws.go` of a temporal-go package that calls AWS.",
      ],
      [
        "BOOKS_RUNTIME",
        "io_books.go",
        "`runtime/io_books.go`: the start of `io_books.go` of a temporal-go package that uses books.",
      ],
      [
        "AGENTS_RUNTIME",
        "io_agents.go",
        "`runtime/io_agents.go`: `io_agents.go` of a temporal-go package with an agent task, before its package clause is set.",
      ],
      [
        "CODEC",
        "codec.go",
        "`runtime/codec.go`: `codec.go` of every temporal-go package of a `history encrypted` flow, before its package clause is set.",
      ],
    ],
  },
  {
    folder: "targets/dandori/durable",
    values: durable,
    files: [["RUNTIME", "runtime.ts", "`runtime/runtime.ts`: `runtime.ts` of every durable package."]],
  },
  {
    folder: "targets/dandori/pydantic_graph",
    values: pydanticGraph,
    files: [
      ["RUNTIME", "runtime.py", "`runtime/runtime.py`: `runtime.py` of every pydantic-graph package."],
    ],
  },
  {
    folder: "targets/dandori/temporal_python",
    values: temporalPython,
    files: [
      ["RUNTIME", "runtime.py", "`runtime/runtime.py`: `runtime.py` of every temporal-python package."],
      [
        "CODEC",
        "codec.py",
        "`runtime/codec.py`: `codec.py` of every temporal-python package of a `history encrypted` flow.",
      ],
    ],
  },
  {
    folder: "targets/dandori/python",
    values: python,
    files: [
      [
        "RULES",
        "rules.py",
        "`runtime/rules.py`: `rules.py` of every pydantic-graph and temporal-python package.",
      ],
      [
        "IO_RUNTIME",
        "io.py",
        "`runtime/io.py`: the start of `io.py` of every pydantic-graph and temporal-python package.",
      ],
    ],
  },
];

/** The text of an embedded module, as this test writes it. */
function moduleText(folder: string, files: readonly [string, string, string][]): string {
  const lines = [
    "// Code generated by tests/common/embedded_test.ts from the files of runtime/. DO NOT EDIT.",
    "// RITSU_BLESS=1 deno test -A tests/common/embedded_test.ts writes it anew after a runtime file changes.",
    "",
    "/**",
    " * The runtime files of this target, embedded so that no generator reads a file: each is",
    " * copied into generated output byte for byte. A test keeps each equal to its file.",
    " * @module",
    " */",
    "",
  ];
  for (const [name, file, doc] of files) {
    lines.push(
      `/** ${doc} */`,
      `export const ${name}: string = ${
        JSON.stringify(Deno.readTextFileSync(`${ROOT}${folder}/runtime/${file}`))
      };`,
      "",
    );
  }
  return lines.join("\n");
}

Deno.test("every embedded runtime equals its file", () => {
  for (const e of EMBEDDED) {
    if (Deno.env.get("RITSU_BLESS") === "1") {
      Deno.writeTextFileSync(`${ROOT}${e.folder}/runtimes.ts`, moduleText(e.folder, e.files));
      continue;
    }
    for (const [name, file] of e.files) {
      strictEqual(
        e.values[name],
        Deno.readTextFileSync(`${ROOT}${e.folder}/runtime/${file}`),
        `${e.folder}/runtimes.ts ${name} is not runtime/${file}: run RITSU_BLESS=1 deno test -A tests/common/embedded_test.ts`,
      );
    }
  }
});

Deno.test("mod.ts imports with no permission, and checks a book and a flow", async () => {
  const probe = Deno.makeTempFileSync({ suffix: ".ts" });
  try {
    Deno.writeTextFileSync(
      probe,
      `import { checkBook, checkFlow } from ${JSON.stringify(`${ROOT}mod.ts`)};
const book = checkBook("a.book", "book a v1\\nunit pcs\\naccount s(k: string) : pcs\\n  at least 0 refused as empty\\naccount o : pcs outside\\ntransfer t(id: string, k: string, n: pcs)\\n  key id\\n  move n from o to s(k)\\n");
const flow = checkFlow("a.flow", "workflow a v1\\ninputs\\n  x : string\\nflow\\n  succeed\\n", { read: () => ({ unreadable: { en: "none", ja: "なし" } }) });
console.log(JSON.stringify([book.book !== null, flow.checked !== null]));
`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "--config", `${ROOT}deno.json`, probe],
      stdout: "piped",
      stderr: "piped",
    }).output();
    strictEqual(
      new TextDecoder().decode(out.stderr).includes("NotCapable"),
      false,
      new TextDecoder().decode(out.stderr),
    );
    strictEqual(out.code, 0, new TextDecoder().decode(out.stderr));
    strictEqual(new TextDecoder().decode(out.stdout).trim(), "[true,true]");
  } finally {
    Deno.removeSync(probe);
  }
});
