/**
 * The `targets` section of `chobo api` (docs/formats.md#chobo-api): what each target names, so that a tool
 * builds its calls without reading the generated code. The names come from the functions the
 * generators spell them with (`sql_names.ts`, `names.ts`, `typescript_names.ts`, `go_names.ts`,
 * `tigerbeetle/plan.ts`); a test holds every one of them to the generated files.
 *
 * ```json
 * {
 *   "stops": { "postgres": [], …, "tigerbeetle-go": ["E060"] },
 *   "postgres": { "schema": "在庫", "tenant": "p_tenant",
 *     "functions": [{ "transfer": "引当", "op": "post", "name": "引当_post",
 *                     "params": ["p_tenant", "p_注文", "p_sku", "p_数"], "default_null": ["p_数"] }, …],
 *     "balances": [{ "account": "在庫", "name": "balance_在庫", "params": ["p_tenant", "p_sku"] }],
 *     "expire": "expire" },
 *   "typescript": { "file": "在庫.ts", "constructors": { "postgres": "postgres", "tigerbeetle": "tigerbeetle" },
 *     "transfers": [{ "transfer": "引当", "member": "引当", "args": "引当Args", "key": "引当Key",
 *                     "amounts": "引当Amounts", "params": [{ "param": "注文", "name": "注文" }, …] }],
 *     "accounts": [{ "account": "在庫", "member": "在庫", "type": "在庫Account", "params": […] }] },
 *   "python": { "file": "在庫.py", "constructors": { … }, "transfers": [{ "transfer", "member", "params" }],
 *     "accounts": [{ "account", "member", "params" }] },
 *   "go": { "package": "book", "files": ["book/book.go", "book/runtime.go"],
 *     "constructors": { "postgres": "Postgres", "tigerbeetle": "TigerBeetle" },
 *     "transfers": [{ "transfer": "引当", "field": "X引当", "type": "X引当Transfer", "args": "X引当Args",
 *                     "key": "X引当Key", "amounts": "X引当Amounts", "params": [{ "param": "数", "name": "X数" }, …] }],
 *     "accounts": [{ "account": "在庫", "method": "X在庫", "type": "X在庫Account", "params": […] }] },
 *   "tigerbeetle": { "max_batch": 253,
 *     "chains": [{ "transfer": "引当", "op": "hold", "pieces": [{ "move": 1, "role": "move" }, …] }, …] }
 * }
 * ```
 *
 * - `stops` gives, for each target of `chobo build`, the codes that stop its build (E060, E061, a
 *   name Go cannot spell); the names of a stopped target are still written.
 * - A name is null where the client has no such thing: `key` and `amounts` of a transfer done at once,
 *   `amounts` of a hold without amount parameters, an account `type` where the account has no parameters.
 * - `params` of a function are in call order, the tenant first; `default_null` are those a full post
 *   leaves null. `status` is a function too.
 * - `chains` has one chain per operation (`do`, or `hold`, `post`, `void` and `status`): the role of each
 *   transfer and its move (docs/targets.md#tigerbeetle); `status`'s second has no move (null).
 * @module
 */

import { lookup } from "../../lang/common/assert.ts";
import type { Account, Book, Transfer } from "../../lang/chobo/model.ts";
import { goPackageName } from "./go_names.ts";
import { type ClientLang, members } from "./names.ts";
import { functionParams } from "./postgres/calls.ts";
import { balanceName, functionName, paramName, TENANT_PARAM } from "./postgres/sql_names.ts";
import type { Origin } from "./target.ts";
import { CHOBO_TARGETS } from "./targets.ts";
import { chainRoles } from "./tigerbeetle/chain.ts";
import { lowerChains, MAX_BATCH } from "./tigerbeetle/plan.ts";
import { surfaceNames } from "./typescript_names.ts";

/** The operations of a transfer, as the clients and the SQL have them: a hold's status too. */
function operations(t: Transfer): ("do" | "hold" | "post" | "void" | "status")[] {
  return t.pending === null ? ["do"] : ["hold", "post", "void", "status"];
}

function postgresJson(book: Book) {
  return {
    schema: book.name,
    tenant: TENANT_PARAM,
    functions: book.transfers.flatMap((t) =>
      operations(t).map((op) => {
        const params = functionParams(t, op === "status" ? "void" : op);
        return {
          transfer: t.name,
          op,
          name: functionName(t, op),
          params: [TENANT_PARAM, ...params.map((p) => paramName(p.name))],
          default_null: op === "post"
            ? params.filter((p) => p.type.kind === "amount").map((p) => paramName(p.name))
            : [],
        };
      })
    ),
    balances: book.accounts.map((a) => ({
      account: a.name,
      name: balanceName(a),
      params: [TENANT_PARAM, ...a.params.map(paramName)],
    })),
    expire: "expire",
  };
}

/** `[{ param, name }]`: each parameter of the book and the name a client gives it. */
function paramNames(names: ReadonlyMap<string, string>) {
  return [...names].map(([param, name]) => ({ param, name }));
}

function hasAmounts(t: Transfer): boolean {
  return t.params.some((p) => p.type.kind === "amount");
}

function typescriptJson(book: Book) {
  const n = surfaceNames(book);
  return {
    file: `${book.name}.ts`,
    constructors: { postgres: "postgres", tigerbeetle: "tigerbeetle" },
    transfers: book.transfers.map((t) => ({
      transfer: t.name,
      member: n.transferMember(t),
      args: `${n.typeOf(t)}Args`,
      key: t.pending === null ? null : `${n.typeOf(t)}Key`,
      amounts: t.pending === null || !hasAmounts(t) ? null : `${n.typeOf(t)}Amounts`,
      params: paramNames(n.transferArgs(t)),
    })),
    accounts: book.accounts.map((a) => ({
      account: a.name,
      member: n.accountMember(a),
      type: a.params.length === 0 ? null : n.accountType(a),
      params: paramNames(n.accountArgs(a)),
    })),
  };
}

/** The members of a book in one language, looked up by transfer or account. */
function spelt(book: Book, lang: ClientLang) {
  const m = members(book, lang);
  return {
    transfer: (t: Transfer) => lookup(m.transfers, t.name, "transfer"),
    account: (a: Account) => lookup(m.accounts, a.name, "account"),
    transferParams: (t: Transfer) => paramNames(lookup(m.transferParams, t.name, "transfer")),
    accountParams: (a: Account) => paramNames(lookup(m.accountParams, a.name, "account")),
  };
}

function pythonJson(book: Book) {
  const m = spelt(book, "python");
  return {
    file: `${book.name}.py`,
    constructors: { postgres: "postgres", tigerbeetle: "tigerbeetle" },
    transfers: book.transfers.map((t) => ({
      transfer: t.name,
      member: m.transfer(t),
      params: m.transferParams(t),
    })),
    accounts: book.accounts.map((a) => ({
      account: a.name,
      member: m.account(a),
      params: m.accountParams(a),
    })),
  };
}

function goJson(book: Book) {
  const m = spelt(book, "go");
  const pkg = goPackageName(book);
  return {
    package: pkg,
    files: [`${pkg}/book.go`, `${pkg}/runtime.go`],
    constructors: { postgres: "Postgres", tigerbeetle: "TigerBeetle" },
    transfers: book.transfers.map((t) => {
      const field = m.transfer(t);
      return {
        transfer: t.name,
        field,
        type: `${field}Transfer`,
        args: `${field}Args`,
        key: t.pending === null ? null : `${field}Key`,
        amounts: t.pending === null || !hasAmounts(t) ? null : `${field}Amounts`,
        params: m.transferParams(t),
      };
    }),
    accounts: book.accounts.map((a) => ({
      account: a.name,
      method: m.account(a),
      type: a.params.length === 0 ? null : `${m.account(a)}Account`,
      params: m.accountParams(a),
    })),
  };
}

function tigerbeetleJson(book: Book) {
  const plan = lowerChains(book);
  return {
    max_batch: MAX_BATCH,
    chains: book.transfers.flatMap((t) =>
      operations(t).map((op) => ({
        transfer: t.name,
        op,
        pieces: chainRoles(plan, t, op).map(({ move, role }) => ({ move, role })),
      }))
    ),
  };
}

/**
 * The `targets` section of `chobo api` for a checked book: what stops each build, and the names each
 * target gives the book's functions, members, types and chains. `origin` is what the targets' checks
 * read.
 */
export function targetsJson(book: Book, origin: Origin): Record<string, unknown> {
  return {
    stops: Object.fromEntries(
      CHOBO_TARGETS.map((t) => [t.name, [...new Set(t.check(book, origin).map((d) => d.code))]]),
    ),
    postgres: postgresJson(book),
    typescript: typescriptJson(book),
    python: pythonJson(book),
    go: goJson(book),
    tigerbeetle: tigerbeetleJson(book),
  };
}
