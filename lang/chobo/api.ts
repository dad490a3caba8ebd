/**
 * `chobo api <book>` (docs/design/chobo.md#what-other-tools-read): how to call a book, what each operation
 * may be refused with, how ids are made, and each hold's state machine, as JSON, so a tool outside ritsu can
 * build the calls without reading the book or the generated code. Keys are English snake_case; amounts are
 * `bigint` in the unit's smallest unit (write the object with `stringifyJson`).
 *
 * The shape, abbreviated (from `tests/chobo/books/在庫.book`; `tests/chobo/golden/api/` has it whole):
 *
 * ```json
 * {
 *   "book": { "name": "在庫", "version": 1, "description": "SKU ごとの在庫。…" },
 *   "units": [{ "name": "個", "scale": 0, "ledger": 1653847866 }],
 *   "accounts": [{ "name": "在庫", "params": ["sku"], "unit": "個", "outside": false,
 *                  "lower": { "value": 0, "reason": "在庫切れ" }, "upper": null, "description": "倉庫の棚にある数" }],
 *   "transfers": [{
 *     "name": "引当", "description": "確定は出荷、取消はキャンセル",
 *     "params": [{ "name": "注文", "type": "string" }, …, { "name": "数", "type": "amount", "unit": "個" }],
 *     "key": ["注文", "sku"],
 *     "pending": { "expires": "after", "seconds": 1800 },
 *     "moves": [{ "amount": { "param": "数" }, "from": { "account": "在庫", "args": ["sku"] },
 *                 "to": { "account": "客", "args": [] } }],
 *     "operations": [{ "op": "hold", "refusals": [{ "reason": "在庫切れ",
 *       "bound": { "account": "在庫", "side": "lower", "value": 0 }, "key_used": true,
 *       "operations": [{ "call": "引当.hold", "args": { … }, "result": "refused", "reason": "在庫切れ" }] }] }, …],
 *     "code": 47038, "definition_hash": "30e55274…5b0832"
 *   }, …],
 *   "ids": { "hash": "sha256", "prefix": "chobo/1", "roles": [{ "role": "account", "parts": […], "result": "id" }, …], … },
 *   "machines": [{ "name": "引当", "over": "引当", "carry": { "input": "state", "output": "next_state", "enum": "state" },
 *     "held": [], "never": [], "once": [], "states": ["held", "posted", "voided", "expired"], "initial": "held",
 *     "final": ["posted", "voided", "expired"], "events": ["post", "void", "expire"], "external": ["expire"],
 *     "certificate": { "machine": { "table": 0, "carry": 0, "axis": 1, "initial": 0, "finals": [1, 2, 3],
 *                                   "rows": [{ "to": 1 }, …, { "stay": true }] },
 *                      "tables": [{ "axes": ["event", "state"], "decides": ["next_state", "refused", "reason"],
 *                                   "rows": [{ "row": 1, "accepts": [[0], [0]], "produces": [1, false, null] }, …] }],
 *                      "enums": { "event": […], "state": […], "reason": ["key_conflict", …] }, "types": { … } } }]
 * }
 * ```
 *
 * - `units[].tax` is there only for a unit that writes `incl_tax` or `excl_tax`
 *   (docs/design/chobo.md#units-and-amounts); `ledger` is the unit's TigerBeetle ledger (the role `ledger`
 *   of docs/targets.md#ids).
 * - `transfers[].operations` has the refusals `chobo check` reports (docs/design/chobo.md#the-checker), each
 *   with the operations that get there as the interpreter answers them.
 * - `code` is the role `code` (docs/targets.md#ids) with the parts (book, `transfer`, name): the first 2
 *   bytes of the digest as a big-endian number, 0 read as 1.
 * - `definition_hash` is the SHA-256, in lowercase hex, of the UTF-8 of the compact JSON
 *   (strings as `JSON.stringify` writes them, integers as digits) of the transfer's definition:
 *   `{"params", "key", "pending", "moves"}` in that order, parameters as `{"name","type":"string"}`
 *   or `{"name","type":"amount","unit":{"name","scale"}}`, the pending as in `transfers[]`, each
 *   move as `{"amount":{"param"}|{"literal"},"from","to"}`, an account there as
 *   `{"account":{"name","params","unit":{"name","scale"},"outside","lower","upper"},"args"}` and a
 *   bound as `{"value","reason"}` or null. That is what E051 compares, and, since the content id holds
 *   the definition with its moves and bounds (docs/design/chobo.md#tigerbeetle), the accounts the moves touch
 *   as E050 compares them: every E051 on the transfer and every E050 on an account it touches changes the
 *   hash. The transfer's name, descriptions and `tax` are left out: they change no balance and no answer.
 * - `ids` is the id rule of docs/targets.md#ids as data; see `idsJson`.
 * - `machines` has one machine per pending transfer, written from `holdTable` (holds.ts); see
 *   `machineJson`.
 * @module
 */

import { EXTERNAL_EVENTS, HOLD_FINALS, HOLD_INITIAL, HOLD_STATES, holdEvents, holdTable } from "./holds.ts";
import type { HoldState } from "./interp.ts";
import type { AccountRef, Book, Transfer } from "./model.ts";
import type { OpRefusals } from "./refusals.ts";
import { operationsJson } from "./report.ts";
import { play } from "./search.ts";
import {
  amountJson,
  boundJson,
  definitionHash,
  ID_PREFIX,
  ledgerOf,
  pendingJson,
  transferCode,
} from "./ids.ts";

function transferJson(book: Book, t: Transfer, report: readonly OpRefusals[]) {
  const ref = (r: AccountRef) => ({ account: r.account.name, args: r.args });
  return {
    name: t.name,
    description: t.description,
    params: t.params.map((p) =>
      p.type.kind === "string"
        ? { name: p.name, type: "string" }
        : { name: p.name, type: "amount", unit: p.type.unit.name }
    ),
    key: t.key,
    pending: pendingJson(t.pending),
    moves: t.moves.map((m) => ({ amount: amountJson(m), from: ref(m.from), to: ref(m.to) })),
    operations: report.filter((r) => r.transfer.name === t.name).map((r) => ({
      op: r.op,
      refusals: r.refusals.map((x) => ({
        reason: x.reason,
        bound: x.bound === null
          ? null
          : { account: x.bound.account.name, side: x.bound.side, value: x.bound.bound.value },
        key_used: x.keyUsed,
        operations: operationsJson(play(book, x.example)),
      })),
    })),
    code: transferCode(book, t),
    definition_hash: definitionHash(t),
  };
}

/** A part of an id's hash input: `repeated` parts stand for a list, `format` says how a number is written. */
function part(name: string, extra: Record<string, unknown> = {}) {
  return { part: name, ...extra };
}

/**
 * The id rule (docs/targets.md#ids) as data, so another tool computes the same ids. Each role hashes
 * `prefix`, the role and its parts, each written as `encoding` says; `results` says how many
 * leading bytes of the digest make the number and which values are replaced. `parts` says what
 * each part is. Two choices the design left open (docs/design/chobo.md#ids): hex is lowercase, and a chain's
 * position counts from 0.
 */
export function idsJson(): Record<string, unknown> {
  const accountId = part("account_id", { format: "hex32" });
  return {
    hash: "sha256",
    prefix: ID_PREFIX,
    encoding: { length: "uint32_big_endian", text: "utf8" },
    roles: [
      {
        role: "account",
        parts: [part("book"), part("tenant"), part("account"), part("args", { repeated: true })],
        result: "id",
      },
      { role: "floor", parts: [accountId], result: "id" },
      { role: "room", parts: [accountId], result: "id" },
      { role: "sink", parts: [part("book"), part("tenant"), part("unit")], result: "id" },
      { role: "opening", parts: [accountId], result: "id" },
      {
        role: "transfer",
        parts: [
          part("book"),
          part("tenant"),
          part("transfer"),
          part("op"),
          part("key_values", { repeated: true }),
          part("position", { format: "decimal" }),
        ],
        result: "id",
      },
      { role: "kind", parts: [part("book"), part("tenant"), part("account")], result: "id" },
      {
        role: "content",
        parts: [
          part("book"),
          part("tenant"),
          part("transfer"),
          part("op"),
          part("definition_hash"),
          part("content"),
        ],
        result: "id",
      },
      { role: "ledger", parts: [part("unit"), part("scale", { format: "decimal" })], result: "ledger" },
      {
        role: "code",
        parts: [part("book"), part("of", { one_of: ["account", "transfer", "sink"] }), part("name")],
        result: "code",
      },
    ],
    results: {
      id: { bytes: 16, replace: [{ from: 0n, to: 1n }, { from: (1n << 128n) - 1n, to: (1n << 128n) - 2n }] },
      ledger: { bytes: 4, replace: [{ from: 0n, to: 1n }] },
      code: { bytes: 2, replace: [{ from: 0n, to: 1n }] },
    },
    parts: {
      book: "the book's name (not its version)",
      tenant: "the tenant's name; the empty string by default",
      account: "the account kind's name",
      args: "the account's argument values, in declaration order, one part each",
      account_id:
        "the id of the account the bound belongs to (floor, room) or of the floor or room account (opening), as 32 lowercase hex digits",
      unit: "the unit's name",
      transfer: "the transfer kind's name",
      op: "do, hold, post or void",
      key_values: "the values of the transfer's key, in the key's order, one part each",
      position: "the place in the operation's chain, from 0",
      definition_hash: "the transfer's definition_hash",
      content:
        "the operation's content (docs/design/chobo.md#keys-and-content) as compact JSON: for do and hold every argument in parameter order as a string (amounts in decimal), for post each move's posted amount in decimal as a string, for void []",
      scale: "the unit's scale",
      of: "what the code is for",
      name: "the account or transfer kind's name, or the unit's name for a sink",
    },
  };
}

/**
 * One pending transfer's hold as a state machine (docs/design/chobo.md#what-other-tools-read), in the keys
 * rulec's `api` gives a state machine, every part from `holdTable`:
 * - `carry` names the table's column holding the current state (`input`), the one deciding the
 *   next state (`output`) and the enum of the states (`enum`).
 * - `certificate.machine`: `table` is the index in `tables`, `axis` the index of the state axis in
 *   its `axes`, `carry` the index of the next state in its `decides`; `initial`, `finals` and each
 *   row's `to` are state numbers (indexes in `states`), `{"stay": true}` a row that keeps the state.
 * - `certificate.tables[0].rows` are the cells of docs/design/chobo.md#holds state by state, `row` numbered
 *   from 1; `accepts` has, per axis, the indexes of the values the row accepts in that axis's enum;
 *   `produces` has, per decided column, the index in its enum, `true`/`false` for `refused`, or null (stays,
 *   not refused). Without expiry the `expire` event and rows are left out and rows are numbered anew.
 * - `enums` lists each enum's values; `reason` has the reasons of the rows in first-use order.
 *   `types` gives every column's type.
 */
export function machineJson(t: Transfer): Record<string, unknown> {
  const expires = t.pending?.expires === "after";
  const rows = holdTable(expires);
  const events = holdEvents(expires);
  const reasons = [...new Set(rows.flatMap((r) => r.refused === null ? [] : [r.refused]))];
  const state = (s: HoldState) => HOLD_STATES.indexOf(s as typeof HOLD_STATES[number]);
  return {
    name: t.name,
    over: t.name,
    carry: { input: "state", output: "next_state", enum: "state" },
    held: [],
    never: [],
    once: [],
    states: HOLD_STATES,
    initial: HOLD_INITIAL,
    final: HOLD_FINALS,
    events,
    external: events.filter((e) => EXTERNAL_EVENTS.includes(e)),
    certificate: {
      machine: {
        table: 0,
        carry: 0,
        axis: 1,
        initial: state(HOLD_INITIAL),
        finals: HOLD_FINALS.map(state),
        rows: rows.map((r) => r.next === null ? { stay: true } : { to: state(r.next) }),
      },
      tables: [{
        axes: ["event", "state"],
        decides: ["next_state", "refused", "reason"],
        rows: rows.map((r, i) => ({
          row: i + 1,
          accepts: [[events.indexOf(r.event)], [state(r.state)]],
          produces: [
            r.next === null ? null : state(r.next),
            r.refused !== null,
            r.refused === null ? null : reasons.indexOf(r.refused),
          ],
        })),
      }],
      enums: { event: events, state: HOLD_STATES, reason: reasons },
      types: {
        event: { kind: "enum", enum: "event", nullable: false },
        state: { kind: "enum", enum: "state", nullable: false },
        next_state: { kind: "enum", enum: "state", nullable: true },
        refused: { kind: "bool", nullable: false },
        reason: { kind: "enum", enum: "reason", nullable: true },
      },
    },
  };
}

/**
 * The JSON of `chobo api` for a book that checked without errors and its report (`checkBook`'s
 * `book` and `report`); see the module's notes for the shape.
 *
 * @example
 * ```ts
 * const { book, report } = checkBook("stock.book", text);
 * console.log(stringifyJson(apiJson(book!, report!), 2));
 * ```
 */
export function apiJson(book: Book, report: readonly OpRefusals[]): Record<string, unknown> {
  return {
    book: { name: book.name, version: book.version, description: book.description },
    units: book.units.map((u) => ({
      name: u.name,
      scale: u.scale,
      ledger: ledgerOf(u),
      ...(u.tax === null ? {} : { tax: u.tax }),
    })),
    accounts: book.accounts.map((a) => ({
      name: a.name,
      params: a.params,
      unit: a.unit.name,
      outside: a.outside,
      lower: boundJson(a.lower),
      upper: boundJson(a.upper),
      description: a.description,
    })),
    transfers: book.transfers.map((t) => transferJson(book, t, report)),
    ids: idsJson(),
    machines: book.transfers.filter((t) => t.pending !== null).map(machineJson),
  };
}
