/**
 * `chobo build --target tigerbeetle-python` (docs/targets.md#tigerbeetle): one file `<book>.py` that
 * builds each operation's TigerBeetle chain and sends it through the official client
 * (`tigerbeetle.ClientSync` of tigerbeetle 0.17.9) — a class per transfer, the balances and
 * `tigerbeetle(client, tenant="")`, the book's definition as data, then the runtime every book
 * shares, copied byte for byte after a line `# chobo runtime`. The runtime is `chain.ts`,
 * `results.ts` and `client.ts` in Python, so the client sends exactly what `chobo run --show
 * tigerbeetle` prints; the names and arguments are the postgres-python client's (`names.ts`), so a
 * caller switches targets without changing its code. `mypy --strict` passes on every file. A book
 * E060 stops (a do or hold chain over 253 transfers) is an error here: the build reports E060 first.
 * @module
 */

import { definitionHash } from "../../../lang/chobo/ids.ts";
import type { Account, Book, Bound, Move, Param, Transfer, Unit } from "../../../lang/chobo/model.ts";
import { lookup } from "../../../lang/common/assert.ts";
import { members } from "../names.ts";
import { docstring, fresh, pythonLiteral, signature, tuple } from "../python_names.ts";
import { chainLength, MAX_CHAIN } from "./plan.ts";
import { PYTHON_RUNTIME } from "./runtimes.ts";
import { sourceLine } from "../target.ts";

/** The line between the book's part and the runtime. */
export const TIGERBEETLE_PYTHON_RUNTIME_MARK = "# chobo runtime";

type Op = "do" | "hold" | "post" | "void" | "status";

/** The parameters an operation takes, in declared order: all for do and hold, the key (and for a post the amounts) else. */
function paramsOf(t: Transfer, op: Op): Param[] {
  if (op === "do" || op === "hold") return [...t.params];
  return t.params.filter((p) => t.key.includes(p.name) || (op === "post" && p.type.kind === "amount"));
}

function unitData(u: Unit): string {
  return `_Unit(${pythonLiteral(u.name, '"')}, ${u.scale})`;
}

function boundData(b: Bound | null): string {
  return b === null ? "None" : `_Bound(${b.value}, ${pythonLiteral(b.reason, '"')})`;
}

function accountData(a: Account): string {
  return `_Account(${pythonLiteral(a.name, '"')}, ${tuple(a.params.map((x) => pythonLiteral(x, '"')))}, ${
    unitData(a.unit)
  }, ${boundData(a.lower)}, ${boundData(a.upper)})`;
}

function moveData(m: Move): string {
  const side = (s: Move["from"]) =>
    `_Side(${pythonLiteral(s.account.name, '"')}, ${tuple(s.args.map((x) => pythonLiteral(x, '"')))})`;
  const amount = m.amount.kind === "param"
    ? `${pythonLiteral(m.amount.param, '"')}, 0`
    : `None, ${m.amount.value}`;
  return `_Move(${unitData(m.unit)}, ${side(m.from)}, ${side(m.to)}, ${amount})`;
}

function transferData(t: Transfer): string {
  const params = t.params.map((p) =>
    `_Param(${pythonLiteral(p.name, '"')}, ${p.type.kind === "amount" ? "True" : "False"})`
  );
  const timeout = t.pending?.expires === "after" ? t.pending.seconds : 0n;
  return [
    `            _Transfer(`,
    `                ${pythonLiteral(t.name, '"')},`,
    `                ${tuple(params)},`,
    `                ${tuple(t.key.map((x) => pythonLiteral(x, '"')))},`,
    `                ${timeout},`,
    `                (`,
    ...t.moves.map((m) => `                    ${moveData(m)},`),
    `                ),`,
    `                ${pythonLiteral(definitionHash(t), '"')},`,
    `            ),`,
  ].join("\n");
}

/** The book as the runtime reads it. */
function definition(book: Book): string {
  return `def _definition() -> _BookDef:
    """The book's accounts and transfers as the runtime reads them; each transfer ends with its
    definition hash, a part of the \`content\` id in every chain's \`user_data_128\`
    (docs/targets.md#ids)."""
    return _BookDef(
        ${pythonLiteral(book.name, '"')},
        (
${book.accounts.map((a) => `            ${accountData(a)},\n`).join("")}        ),
        (
${book.transfers.map((t) => `${transferData(t)}\n`).join("")}        ),
    )
`;
}

/** The client of one book: `<book>.py`. */
export function tigerbeetlePythonClient(
  book: Book,
  origin: { readonly file: string; readonly sha: string; readonly version: string },
): Map<string, string> {
  // `chobo build` stops such a book with E060 before any TigerBeetle generator runs.
  const long = book.transfers.filter((t) => chainLength(t) > MAX_CHAIN);
  if (long.length > 0) {
    throw new Error(
      `chobo: tigerbeetle-python: ${book.name}: E060: chains longer than ${MAX_CHAIN}: ${
        long.map((t) => `${t.name} (${chainLength(t)})`).join(", ")
      }`,
    );
  }
  const m = members(book, "python");
  const accountMembers = new Set(book.accounts.map((a) => lookup(m.accounts, a.name, "account")));
  const className = (t: Transfer) => `_Transfer_${lookup(m.transfers, t.name, "transfer")}`;

  // A method of `_Accounts` named like a type would hide that type from the annotations after it
  // (mypy reads them in the class's scope), so such a type is named through an alias.
  const aliases: string[] = [];
  const typeName = (name: string, value: string) => {
    if (!accountMembers.has(name)) return name;
    const alias = fresh(`_chobo_${name}`, accountMembers);
    aliases.push(`${alias}: TypeAlias = ${value}\n`);
    return alias;
  };
  const strType = typeName("str", "str");
  const balanceType = typeName("Balance", `"Balance"`);
  const runtimeType = typeName("_TigerBeetle", `"_TigerBeetle"`);
  const accountsTb = fresh("_tb", accountMembers);

  const out: string[] = [
    `# Code generated by chobo ${origin.version}. DO NOT EDIT.\n`,
    `# ${sourceLine(book, origin)}\n`,
    `# Builds the TigerBeetle chains of each operation and sends them with the official client (tigerbeetle 0.17.9).\n`,
    `\nfrom __future__ import annotations\n`,
  ];
  if (aliases.length > 0) out.push(`\nfrom typing import TypeAlias\n\n${aliases.join("")}`);

  const doc = (description: string | null, indent: string) =>
    description === null ? "" : `${indent}${docstring(description, '"')}\n\n`;

  for (const t of book.transfers) {
    const names = lookup(m.transferParams, t.name, "transfer");
    const arg = (p: Param) => lookup(names, p.name, "parameter");
    const typed = (p: Param, op: Op) =>
      p.type.kind === "string"
        ? `${arg(p)}: str`
        : op === "post"
        ? `${arg(p)}: int | None = None`
        : `${arg(p)}: int`;
    const args = (op: Op) =>
      `{${paramsOf(t, op).map((p) => `${pythonLiteral(p.name, '"')}: ${arg(p)}`).join(", ")}}`;
    const method = (op: Op, returns: string, call: string, help: string | null) => {
      const params = paramsOf(t, op);
      return `\n    def ${op}(${signature(params.map((p) => typed(p, op)))}) -> ${returns}:\n${
        help === null ? "" : `        ${docstring(help, '"')}\n`
      }        return self._tb.${call}\n`;
    };
    const write = (op: "do" | "hold" | "post" | "void", help: string | null) =>
      method(
        op,
        "Result",
        `write(${pythonLiteral(t.name, '"')}, ${pythonLiteral(op, '"')}, ${args(op)})`,
        help,
      );
    const ops = t.pending === null ? [write("do", null)] : [
      write("hold", null),
      write(
        "post",
        t.params.some((p) => p.type.kind === "amount")
          ? "Posts the hold: in full without amounts, else every amount given."
          : "Posts the hold in full.",
      ),
      write("void", null),
      method(
        "status",
        "HoldState | None",
        `status(${pythonLiteral(t.name, '"')}, ${args("status")})`,
        "The hold's state, or None when there is no hold.",
      ),
    ];
    out.push(`

class ${className(t)}:
${doc(t.description, "    ")}    def __init__(self, tb: _TigerBeetle) -> None:
        self._tb = tb
${ops.join("")}`);
  }

  const accountMethods = book.accounts.map((a) => {
    const names = lookup(m.accountParams, a.name, "account");
    const params = a.params.map((p) => lookup(names, p, "parameter"));
    return `\n    def ${lookup(m.accounts, a.name, "account")}(${
      signature(params.map((p) => `${p}: ${strType}`))
    }) -> ${balanceType}:\n${
      a.description === null ? "" : `        ${docstring(a.description, '"')}\n`
    }        return self.${accountsTb}.balance(${pythonLiteral(a.name, '"')}, ${tuple(params)})\n`;
  }).join("");
  out.push(`

class _Accounts:
    """The numbers of an account; an account never written reads 0, 0, 0."""

    def __init__(self, tb: ${runtimeType}) -> None:
        self.${accountsTb} = tb
${accountMethods}`);

  const bookDoc = `${book.name} v${book.version} on TigerBeetle, for one tenant.${
    book.description === null ? "" : ` ${book.description}`
  }`;
  out.push(`

class Book:
    ${docstring(bookDoc, '"')}

    def __init__(self, tb: _TigerBeetle) -> None:
        self.balance = _Accounts(tb)
${
    book.transfers.map((t) =>
      `        self.${lookup(m.transfers, t.name, "transfer")} = ${className(t)}(tb)\n`
    ).join("")
  }

def tigerbeetle(client: Client, tenant: str = "") -> Book:
    """The book on \`client\` (a \`tigerbeetle.ClientSync\`, tigerbeetle 0.17.9) for \`tenant\`.

    Each write sends one chain in one request, after the accounts and openings it uses (once per
    book value: keep the value). A post or void reads the hold first. There is no \`expire()\`:
    TigerBeetle gives expired holds back by itself. What the client cannot read as a result raises
    \`ChoboError\` (see the runtime's first lines).
    """
    return Book(_TigerBeetle(_definition(), client, tenant))


${definition(book)}

${TIGERBEETLE_PYTHON_RUNTIME_MARK}
${PYTHON_RUNTIME}`);
  return new Map([[`${book.name}.py`, out.join("")]]);
}
