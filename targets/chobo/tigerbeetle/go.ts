/**
 * `chobo build --target tigerbeetle-go` (docs/targets.md#tigerbeetle): a Go package that
 * builds each operation's chain and sends it to TigerBeetle — `<package>/book.go` with the book's
 * types, methods and the table of its definition, and `<package>/runtime.go`, the shared runtime
 * (`runtime/runtime.go`) with its package clause changed. The surface is that of `postgres-go`
 * (`TigerBeetle(c, tenant)` in place of `Postgres(q, tenant)`, no `Expire`: TigerBeetle gives
 * expired holds back by itself). The output is gofmt'd as written. The runtime imports
 * tigerbeetle-go (`TB_GO_MODULE`), whose types the package speaks in.
 * @module
 */

import type { Account, Book, Param, Transfer } from "../../../lang/chobo/model.ts";
import { lookup } from "../../../lang/common/assert.ts";
import { type Members, members } from "../names.ts";
import {
  described,
  durationText,
  goNameProblems,
  goPackageName,
  goRuntimeCopy,
  goType,
  header,
  keyText,
} from "../go_names.ts";
import { type AccountRef, chainLength, lowerChains, MAX_CHAIN, type TbPiece } from "./plan.ts";
import { GO_RUNTIME } from "./runtimes.ts";
import { sourceLine } from "../target.ts";

/** The runtime every book's package shares, copied but for its package clause. */
export const TB_GO_RUNTIME_URL: URL = new URL("./runtime/runtime.go", import.meta.url);

export { GO_RUNTIME_PACKAGE_LINE as TB_GO_RUNTIME_PACKAGE_LINE } from "../go_names.ts";

/**
 * The module the runtime imports (cgo over a bundled static library: a build needs a C compiler).
 * The go.mod of a module that holds a book's package requires this version.
 */
export const TB_GO_MODULE = { path: "github.com/tigerbeetle/tigerbeetle-go", version: "v0.17.9" } as const;

/** A Go string literal (the same escapes as JSON; a BOM would stop the Go compiler). */
function goString(s: string): string {
  return JSON.stringify(s).replaceAll("\ufeff", "\\ufeff");
}

/** Struct fields as gofmt aligns them: the types start one column after the longest name, in runes. */
function struct(name: string, rows: readonly (readonly [string, string])[]): string {
  if (rows.length === 0) return `type ${name} struct{}\n`;
  const width = Math.max(...rows.map(([field]) => [...field].length));
  const fields = rows.map(([field, type]) =>
    `\t${field}${" ".repeat(width - [...field].length + 1)}${type}\n`
  );
  return `type ${name} struct {\n${fields.join("")}}\n`;
}

/**
 * The elements of a keyed composite literal, one per line, as gofmt aligns them: in each run of
 * one-line elements the values start one column after the longest key; an element whose value
 * spans lines ends the run and is not padded.
 */
function keyed(rows: readonly (readonly [string, string])[], indent: string): string {
  const out: string[] = [];
  let run: (readonly [string, string])[] = [];
  const flush = () => {
    const width = Math.max(...run.map(([k]) => k.length));
    for (const [k, v] of run) out.push(`${indent}${k}:${" ".repeat(width - k.length + 1)}${v},\n`);
    run = [];
  };
  for (const row of rows) {
    if (row[1].includes("\n")) {
      flush();
      out.push(`${indent}${row[0]}: ${row[1]},\n`);
    } else run.push(row);
  }
  flush();
  return out.join("");
}

function expiryText(t: Transfer): string {
  if (t.pending?.expires !== "after") return "until Post or Void";
  return `until Post or Void, or until TigerBeetle lets it expire ${
    durationText(t.pending.seconds)
  } after it was made`;
}

const FUNC = (recv: string, name: string, params: string, returns: string, body: string) =>
  `func (${recv}) ${name}(ctx context.Context${params}) ${returns} {\n${body}}\n`;

function transferCode(t: Transfer, index: number, names: Members): string {
  const member = lookup(names.transfers, t.name, "transfer");
  const params = lookup(names.transferParams, t.name, "transfer");
  const field = (p: Param) => lookup(params, p.name, "parameter");
  const args = `${member}Args`;
  const key = `${member}Key`;
  const amounts = `${member}Amounts`;
  const amountParams = t.params.filter((p) => p.type.kind === "amount");
  const keyParams = t.params.filter((p) => t.key.includes(p.name));
  const recv = `t *${member}Transfer`;
  const out: string[] = [];
  out.push(
    `// ${described(`${member}Transfer is the transfer ${t.name}`, t.description)}\n` +
      `type ${member}Transfer struct{ c *client }\n`,
  );
  out.push(
    `// ${args} are the arguments of ${t.name}.\n` + struct(args, t.params.map((p) => [field(p), goType(p)])),
  );
  const writeArgs = t.params.map((p) => `, a.${field(p)}`).join("");
  const write = (op: string, rest: string) => `\treturn t.c.write(ctx, ${index}, ${op}${rest})\n`;
  if (t.pending === null) {
    out.push(
      `// Do runs ${t.name} once per key ${keyText(t)}.\n` +
        FUNC(recv, "Do", `, a ${args}`, "(Result, error)", write("opDo", writeArgs)),
    );
    return out.join("\n");
  }
  out.push(
    `// ${key} is the key of a hold of ${t.name}.\n` +
      struct(key, keyParams.map((p) => [field(p), "string"])),
  );
  if (amountParams.length > 0) {
    out.push(
      `// ${amounts} are the amounts of a partial post of ${t.name}.\n` +
        struct(amounts, amountParams.map((p) => [field(p), "int64"])),
    );
  }
  out.push(
    `// Hold holds ${t.name} once per key ${keyText(t)}, ${expiryText(t)}.\n` +
      FUNC(recv, "Hold", `, a ${args}`, "(Result, error)", write("opHold", writeArgs)),
  );
  const keyArgs = t.params.map((p) => t.key.includes(p.name) ? `, key.${field(p)}` : ", nil").join("");
  if (amountParams.length === 0) {
    out.push(
      `// Post posts the hold of the key.\n` +
        FUNC(recv, "Post", `, key ${key}`, "(Result, error)", write("opPost", keyArgs)),
    );
  } else {
    const slots = t.params.map((p) => t.key.includes(p.name) ? `key.${field(p)}` : "nil");
    const fill = t.params.map((p, i) =>
      p.type.kind === "amount" ? `\t\targs[${i}] = amounts.${field(p)}\n` : ""
    )
      .join("");
    out.push(
      `// Post posts the hold of the key: in full when amounts is nil, else these amounts.\n` +
        FUNC(
          recv,
          "Post",
          `, key ${key}, amounts *${amounts}`,
          "(Result, error)",
          `\targs := []any{${slots.join(", ")}}\n\tif amounts != nil {\n${fill}\t}\n` +
            write("opPost", ", args..."),
        ),
    );
  }
  out.push(
    `// Void gives the hold of the key back.\n` +
      FUNC(recv, "Void", `, key ${key}`, "(Result, error)", write("opVoid", keyArgs)),
  );
  out.push(
    `// Status is the state of the hold of the key, or "" when there is none.\n` +
      FUNC(
        recv,
        "Status",
        `, key ${key}`,
        "(HoldState, error)",
        `\treturn t.c.status(ctx, ${index}${keyArgs})\n`,
      ),
  );
  return out.join("\n");
}

function accountCode(a: Account, index: number, names: Members): string {
  const member = lookup(names.accounts, a.name, "account");
  const params = lookup(names.accountParams, a.name, "account");
  const field = (p: string) => lookup(params, p, "parameter");
  const name = a.params.length === 0 ? a.name : `${a.name}(${a.params.join(", ")})`;
  const doc = `// ${described(`${member} reads the account ${name}`, a.description)}\n`;
  if (a.params.length === 0) {
    return doc + FUNC("b *Balances", member, "", "(Balance, error)", `\treturn b.c.balance(ctx, ${index})\n`);
  }
  const type = `${member}Account`;
  return `// ${type} names one account ${a.name}.\n` +
    struct(type, a.params.map((p) => [field(p), "string"])) + "\n" + doc +
    FUNC(
      "b *Balances",
      member,
      `, a ${type}`,
      "(Balance, error)",
      `\treturn b.c.balance(ctx, ${index}${a.params.map((p) => `, a.${field(p)}`).join("")})\n`,
    );
}

/** `[]int{0, 1}`, or nil for none. */
function ints(ns: readonly number[]): string | null {
  return ns.length === 0 ? null : `[]int{${ns.join(", ")}}`;
}

/** An inline keyed literal without the fields whose value is null. */
function inline(type: string, fields: readonly (readonly [string, string | null])[]): string {
  return `${type}{${fields.filter(([, v]) => v !== null).map(([k, v]) => `${k}: ${v}`).join(", ")}}`;
}

/** The runtime's constant of each flag the plan sets. */
const GO_FLAGS: ReadonlyMap<string, string> = new Map([
  ["linked", "flagLinked"],
  ["pending", "flagPending"],
  ["post_pending_transfer", "flagPostPending"],
  ["void_pending_transfer", "flagVoidPending"],
  ["debits_must_not_exceed_credits", "flagDebitsMustNotExceedCredits"],
]);

function goFlags(flags: readonly string[]): string | null {
  return flags.length === 0
    ? null
    : flags.map((f) => lookup(GO_FLAGS, f, "flag the Go runtime sets")).join(" | ");
}

const GO_KINDS = { account: "kindAccount", floor: "kindFloor", room: "kindRoom", sink: "kindSink" } as const;

/** The book's `TbPlan` as the runtime's `planDef`: parameters as indices into the transfer's. */
function definitionCode(book: Book): string {
  const plan = lowerChains(book);
  const units = `[]unitDef{${
    plan.units.map((u) =>
      inline("", [["name", goString(u.name)], ["ledger", String(u.ledger)], [
        "sinkCode",
        String(u.sink_code),
      ]])
    ).join(", ")
  }}`;
  const accounts = `[]accountDef{\n${
    plan.accounts.map((a) =>
      `\t\t${
        inline("", [
          ["name", goString(a.name)],
          ["unit", String(a.unit)],
          ["ledger", String(a.ledger)],
          ["code", String(a.code)],
          ["flags", goFlags(a.flags)],
          ["floor", a.floor === null ? "noBound" : String(a.floor)],
          ["room", a.room === null ? "noBound" : String(a.room)],
        ])
      },\n`
    ).join("")
  }\t}`;
  const transfers = plan.transfers.map((t) => {
    const param = (name: string) => String(t.params.findIndex((p) => p.name === name));
    const ref = (type: string, r: AccountRef) =>
      r.kind === "sink"
        ? inline(type, [["kind", GO_KINDS.sink], ["index", String(r.unit)]])
        : inline(type, [["kind", GO_KINDS[r.kind]], ["index", String(r.account)], [
          "args",
          ints(r.args.map((a) => Number(param(a)))),
        ]]);
    const piece = (p: TbPiece) => {
      const amount: [string, string | null][] = p.amount.kind === "param"
        ? [["amount", "amountParam"], ["param", param(p.amount.param)]]
        : p.amount.kind === "literal"
        ? [["amount", "amountLiteral"], ["value", String(p.amount.value)]]
        : [["amount", "amountSettled"], ["move", String(p.amount.move)]];
      const pending: [string, string | null][] = p.pending.kind === "none"
        ? []
        : [["pending", p.pending.kind === "piece" ? "pendingPiece" : "pendingHold"], [
          "pendingAt",
          String(p.pending.position),
        ]];
      return inline("", [
        ["role", goString(p.role)],
        ["random", p.id === "random" ? "true" : null],
        ["debit", p.debit === null ? null : ref("&refDef", p.debit)],
        ["credit", p.credit === null ? null : ref("&refDef", p.credit)],
        ...amount,
        ...pending,
        ["content", p.user_data_128 === "content" ? "true" : null],
        ["timeout", p.timeout === 0 ? null : String(p.timeout)],
        ["ledger", p.ledger === 0 ? null : String(p.ledger)],
        ["code", p.code === 0 ? null : String(p.code)],
        ["flags", goFlags(p.flags)],
        ["exceedsCredits", p.exceeds_credits === null ? null : goString(p.exceeds_credits)],
      ]);
    };
    const chains = `map[string]chainDef{\n${
      Object.entries(t.chains).map(([op, c]) =>
        `\t\t\t\t${goString(op)}: {${c.content === "params" ? "params: true, " : ""}${
          c.content === "amounts" ? "amounts: true, " : ""
        }pieces: []pieceDef{\n${c.pieces.map((p) => `\t\t\t\t\t${piece(p)},\n`).join("")}\t\t\t\t}},\n`
      ).join("")
    }\t\t\t}`;
    const moves = `[]moveDef{\n${
      t.moves.map((m) =>
        `\t\t\t\t${
          inline("", [
            ["param", m.amount.kind === "param" ? param(m.amount.param) : "-1"],
            ["from", ref("refDef", m.from)],
            ["to", ref("refDef", m.to)],
          ])
        },\n`
      ).join("")
    }\t\t\t}`;
    const params = `[]paramDef{${
      t.params.map((p) => inline("", [["name", goString(p.name)], ["amount", p.amount ? "true" : null]]))
        .join(", ")
    }}`;
    const rows: [string, string][] = [["name", goString(t.name)], ["params", params], [
      "key",
      ints(t.key.map((k) => Number(param(k)))) ?? "nil",
    ]];
    if (t.chains.hold !== undefined) rows.push(["holds", "true"]);
    rows.push(
      ["moves", moves],
      ["chains", chains],
      ["lookups", ints([...t.lookups]) ?? "nil"],
      ["definitionHash", goString(t.definition_hash)],
    );
    return `\t\t{\n${keyed(rows, "\t\t\t")}\t\t},\n`;
  });
  const rows: [string, string][] = [
    ["version", String(plan.version)],
    ["name", goString(plan.book)],
    ["units", units],
    ["accounts", accounts],
    ["transfers", `[]transferDef{\n${transfers.join("")}\t}`],
    [
      "refusals",
      `map[string]string{${
        Object.entries(plan.refusals).map(([k, v]) => `${goString(k)}: ${goString(v)}`).join(", ")
      }}`,
    ],
    [
      "status",
      `[]statusRow{${
        plan.status.map(([a, b, st]) => `{${goString(a)}, ${goString(b)}, ${goString(st ?? "")}}`).join(", ")
      }}`,
    ],
    [
      "overHold",
      `map[HoldState]string{${
        Object.entries(plan.over_hold).map(([k, v]) => `${goString(k)}: ${goString(v)}`).join(", ")
      }}`,
    ],
  ];
  return `// bookDefinition is the TigerBeetle plan of the book ${book.name} (targets/chobo/tigerbeetle/plan.ts):\n` +
    `// the runtime fills its chains (docs/targets.md#tigerbeetle).\n` +
    `var bookDefinition = planDef{\n${keyed(rows, "\t")}}\n`;
}

function bookGo(book: Book, pkg: string, origin: { file: string; sha: string; version: string }): string {
  const names = members(book, "go");
  const transfers = book.transfers.map((t) => lookup(names.transfers, t.name, "transfer"));
  const parts: string[] = [];
  parts.push(
    header(origin.version) +
      `// ${sourceLine(book, origin)}\n\n` +
      `// ${
        described(
          `Package ${pkg} sends the chobo book ${book.name} v${book.version} to TigerBeetle`,
          book.description,
        )
      }\n` +
      `//\n` +
      `// Each write is one chain of linked transfers in one create_transfers request, built from the\n` +
      `// book's definition (chobo build --target tigerbeetle-go). TigerBeetle takes a TigerBeetleClient,\n` +
      `// such as the Client of tigerbeetle-go ${TB_GO_MODULE.version}: the module that holds this package requires\n` +
      `// ${TB_GO_MODULE.path} ${TB_GO_MODULE.version}, which builds with cgo.\n` +
      `package ${pkg}\n\nimport "context"\n`,
  );
  parts.push(
    `// Book is the book ${book.name} for one tenant: a member per transfer, and Balance.\n` +
      struct("Book", [...transfers.map((m) => [m, `*${m}Transfer`] as const), ["Balance", "*Balances"]]),
  );
  parts.push(
    `// TigerBeetle returns the book on c for one tenant ("" unless the book keeps several independent\n` +
      `// sets of balances). The value remembers the accounts it created, so it sends each once, and packs\n` +
      `// the chains of operations made at once into shared requests (RequestLimit): keep it.\n` +
      `func TigerBeetle(c TigerBeetleClient, tenant string, options ...Option) *Book {\n` +
      `\tcl := newClient(c, tenant, &bookDefinition, options)\n` +
      `\tb := &Book{Balance: &Balances{cl}}\n` +
      transfers.map((m) => `\tb.${m} = &${m}Transfer{cl}\n`).join("") +
      `\treturn b\n}\n`,
  );
  parts.push(...book.transfers.map((t, i) => transferCode(t, i, names)));
  parts.push(`// Balances reads the accounts of the book.\ntype Balances struct{ c *client }\n`);
  parts.push(...book.accounts.map((a, i) => accountCode(a, i, names)));
  parts.push(definitionCode(book));
  return parts.join("\n");
}

/** The runtime file as one book's package has it. */
export function tigerbeetleGoRuntime(pkg: string, version: string): string {
  return goRuntimeCopy(GO_RUNTIME, pkg, version);
}

/**
 * The TigerBeetle Go client of a book: `<package>/book.go` and `<package>/runtime.go`. Throws when
 * a name of the book cannot be a Go identifier (see `goNameProblems`) or a chain is longer than
 * one request holds (E060).
 *
 * @example
 * ```ts
 * const files = tigerbeetleGoClient(book, { file: "在庫.book", sha: "0123456789abcdef", version: "0.1.0" });
 * files.get("book/book.go"); // b := book.TigerBeetle(client, ""); b.X引当.Hold(ctx, book.X引当Args{…})
 * ```
 */
export function tigerbeetleGoClient(
  book: Book,
  origin: { file: string; sha: string; version: string },
): Map<string, string> {
  const problems = goNameProblems(book);
  if (problems.length > 0) {
    throw new Error(`chobo: tigerbeetle-go: ${book.name}: names Go cannot spell: ${problems.join(", ")}`);
  }
  const long = book.transfers.filter((t) => chainLength(t) > MAX_CHAIN);
  if (long.length > 0) {
    throw new Error(
      `chobo: tigerbeetle-go: ${book.name}: E060: chains longer than ${MAX_CHAIN}: ${
        long.map((t) => `${t.name} (${chainLength(t)})`).join(", ")
      }`,
    );
  }
  const pkg = goPackageName(book);
  return new Map([
    [`${pkg}/book.go`, bookGo(book, pkg, origin)],
    [`${pkg}/runtime.go`, tigerbeetleGoRuntime(pkg, origin.version)],
  ]);
}
