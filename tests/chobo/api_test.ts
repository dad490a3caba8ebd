/**
 * `chobo api`: the JSON of the test books pinned by golden files, `tax` only where written, the
 * hold machine without `expire` for `never expires`, every row of the hold table checked against
 * the reference interpreter, and what the definition hash and `code` are made of.
 */

import { deepStrictEqual, notStrictEqual, ok, strictEqual } from "node:assert/strict";
import { createHash } from "node:crypto";
import { apiJson } from "../../lang/chobo/api.ts";
import { definitionHash } from "../../lang/chobo/ids.ts";
import { checkBook } from "../../lang/chobo/check.ts";
import { HOLD_EVENTS, HOLD_STATES, type HoldRow, holdTable } from "../../lang/chobo/holds.ts";
import { Ledger, type Outcome } from "../../lang/chobo/interp.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { stringifyJson } from "../../lang/common/json.ts";
import { callOf } from "../support/calls.ts";
import { assertGolden } from "../support/golden.ts";

const BOOKS = new URL("./books/", import.meta.url).pathname;
const GOLDEN = new URL("./golden/api/", import.meta.url).pathname;

function checked(name: string, text: string) {
  const { book, report, diagnostics } = checkBook(name, text);
  ok(book !== null && report !== null, `${name}: ${diagnostics.map((d) => d.code).join(", ")}`);
  return { book, report };
}

function api(name: string, text: string) {
  const { book, report } = checked(name, text);
  return apiJson(book, report) as Record<string, unknown> & {
    units: Record<string, unknown>[];
    transfers: Record<string, unknown>[];
    machines: Machine[];
  };
}

interface Machine {
  name: string;
  events: string[];
  external: string[];
  certificate: {
    machine: { rows: ({ to: number } | { stay: true })[] };
    tables: { rows: { row: number; accepts: number[][]; produces: unknown[] }[] }[];
    enums: { event: string[]; state: string[]; reason: string[] };
  };
}

Deno.test("golden JSON of the stock books in both languages", () => {
  for (const name of ["在庫.book", "stock_reservation.book"]) {
    const { book, report } = checked(name, Deno.readTextFileSync(BOOKS + name));
    assertGolden(
      `${GOLDEN}${name.replace(/\.book$/, "")}.json`,
      stringifyJson(apiJson(book, report), 2) + "\n",
    );
  }
});

Deno.test("tax is written only for the units that write it", () => {
  const out = api(
    "tax.book",
    `book shop v1
unit 円 incl_tax
unit 個

account 売上 : 円
  at most 1000 refused as 上限
account 客 : 円 outside
account 棚 : 個
  at least 0 refused as 品切れ
account 問屋 : 個 outside

transfer 売る(注文: string, 代金: 円, 数: 個)
  key 注文
  move 代金 from 客 to 売上
  move 数 from 棚 to 問屋
`,
  );
  strictEqual(out.units[0].tax, "incl_tax");
  ok(!Object.hasOwn(out.units[1], "tax"));
  ok(!stringifyJson(api("在庫.book", Deno.readTextFileSync(BOOKS + "在庫.book"))).includes('"tax"'));
});

Deno.test("a hold that never expires has no expire event and rows numbered from 1", () => {
  const out = api("分配.book", Deno.readTextFileSync(BOOKS + "分配.book"));
  strictEqual(out.machines.length, 1);
  const m = out.machines[0];
  strictEqual(m.name, "支払い");
  deepStrictEqual(m.events, ["post", "void"]);
  deepStrictEqual(m.external, []);
  deepStrictEqual(m.certificate.enums.event, ["post", "void"]);
  const rows = m.certificate.tables[0].rows;
  deepStrictEqual(rows.map((r) => r.row), [1, 2, 3, 4, 5, 6, 7, 8]);
  strictEqual(m.certificate.machine.rows.length, rows.length);
  // Every (event, state) pair once: the table decides every event in every state.
  const pairs = rows.map((r) =>
    `${m.certificate.enums.event[r.accepts[0][0]]} ${m.certificate.enums.state[r.accepts[1][0]]}`
  );
  strictEqual(new Set(pairs).size, 2 * HOLD_STATES.length);

  const expiring = api("在庫.book", Deno.readTextFileSync(BOOKS + "在庫.book")).machines[0];
  deepStrictEqual(expiring.events, [...HOLD_EVENTS]);
  deepStrictEqual(expiring.external, ["expire"]);
  strictEqual(expiring.certificate.tables[0].rows.length, HOLD_STATES.length * HOLD_EVENTS.length);
});

/** How to make one hold of a pending transfer of a test book, and what to fund it with first. */
interface HoldCase {
  readonly file: string;
  readonly transfer: string;
  readonly fund: readonly [string, Record<string, string | bigint>];
  readonly hold: Record<string, string | bigint>;
  readonly key: Record<string, string>;
  /** A partial post, a content other than the full post's. */
  readonly other: Record<string, bigint>;
}

const CASES: readonly HoldCase[] = [
  {
    file: "在庫.book",
    transfer: "引当",
    fund: ["入荷", { 納品書: "d-1", sku: "s-1", 数: 5n }],
    hold: { 注文: "o-1", sku: "s-1", 数: 3n },
    key: { 注文: "o-1", sku: "s-1" },
    other: { 数: 1n },
  },
  {
    file: "分配.book",
    transfer: "支払い",
    fund: ["売上", { 注文: "o-1", 店: "shop-1", 代金: 10n, 手数料: 1n }],
    hold: { 支払番号: "p-1", 店: "shop-1", 額: 3n },
    key: { 支払番号: "p-1", 店: "shop-1" },
    other: { 額: 1n },
  },
];

/** The hold's expiry in seconds as the book writes it; null for `never expires`. */
function expiry(book: Book, c: HoldCase): bigint | null {
  const pending = book.transfers.find((t) => t.name === c.transfer)!.pending!;
  return pending.expires === "after" ? pending.seconds : null;
}

function answer(o: Outcome): string {
  return o.kind === "refused" ? `refused: ${o.reason}` : o.kind;
}

/** A ledger whose one hold is in `state`, reached by real calls; null when the hold cannot get there. */
function ledgerIn(book: Book, c: HoldCase, state: HoldRow["state"]): Ledger | null {
  const ledger = Ledger.empty(book.accounts.map((a) => a.name));
  strictEqual(answer(ledger.apply(callOf(book, c.fund[0], "do", c.fund[1]))), "done");
  strictEqual(answer(ledger.apply(callOf(book, c.transfer, "hold", c.hold))), "done");
  switch (state) {
    case "held":
      break;
    case "posted":
      strictEqual(answer(ledger.apply(callOf(book, c.transfer, "post", c.key))), "done");
      break;
    case "voided":
      strictEqual(answer(ledger.apply(callOf(book, c.transfer, "void", c.key))), "done");
      break;
    case "expired":
      if (expiry(book, c) === null) return null;
      ledger.pass(expiry(book, c)!);
  }
  strictEqual(ledger.holds()[0].state, state);
  return ledger;
}

Deno.test("every row of the hold table is what the interpreter does", () => {
  for (const c of CASES) {
    const { book } = checked(c.file, Deno.readTextFileSync(BOOKS + c.file));
    const seconds = expiry(book, c);
    let driven = 0;
    for (const row of holdTable(seconds !== null)) {
      const where = `${c.transfer}: ${row.state} × ${row.event}`;
      const ledger = ledgerIn(book, c, row.state);
      if (ledger === null) {
        // Without expiry the clock never ends a hold, so the expired rows cannot be reached.
        const still = ledgerIn(book, c, "held")!;
        still.pass((1n << 32n) - 1n);
        strictEqual(still.holds()[0].state, "held", where);
        continue;
      }
      if (row.event === "expire") {
        ledger.pass(seconds!);
      } else {
        const expected = row.refused !== null
          ? `refused: ${row.refused}`
          : row.next !== null
          ? "done"
          : "done_before";
        if (row.sameContent !== null) {
          // The same content as the post that ended the hold; then another content.
          strictEqual(
            answer(ledger.apply(callOf(book, c.transfer, row.event, c.key))),
            row.sameContent,
            where,
          );
          const other = callOf(book, c.transfer, row.event, { ...c.key, ...c.other });
          strictEqual(answer(ledger.apply(other)), expected, where);
        } else {
          strictEqual(answer(ledger.apply(callOf(book, c.transfer, row.event, c.key))), expected, where);
        }
      }
      strictEqual(ledger.holds()[0].state, row.next ?? row.state, where);
      driven++;
    }
    strictEqual(driven, seconds === null ? 6 : 12, c.transfer);
  }
});

Deno.test("the definition hash follows moves, keys and the bounds they meet, not descriptions", () => {
  const text = Deno.readTextFileSync(BOOKS + "在庫.book");
  const hashes = (t: string) =>
    new Map(checked("在庫.book", t).book.transfers.map((x) => [x.name, definitionHash(x)]));
  const before = hashes(text);
  ok(/^[0-9a-f]{64}$/.test(before.get("引当")!));
  strictEqual(new Set(before.values()).size, 3);

  const moved = hashes(text.replace("move 数 from 在庫(sku) to 客", "move 数 from 在庫(sku) to 仕入先"));
  notStrictEqual(moved.get("引当"), before.get("引当"));
  strictEqual(moved.get("入荷"), before.get("入荷"));
  strictEqual(moved.get("返品"), before.get("返品"));

  const described = hashes(
    text.replace(`description "確定は出荷、取消はキャンセル"`, `description "出荷で確定"`)
      .replace(`description "倉庫の棚にある数"`, `description "棚"`),
  );
  deepStrictEqual(described, before);

  const keyed = hashes(text.replace("key 注文, sku\n  pending", "key sku, 注文\n  pending"));
  notStrictEqual(keyed.get("引当"), before.get("引当"));

  const bounded = hashes(text.replace("at least 0 refused as 在庫切れ", "at least 1 refused as 在庫切れ"));
  for (const name of before.keys()) notStrictEqual(bounded.get(name), before.get(name), name);
});

Deno.test("code is the first two bytes of the role code over book, transfer and name", () => {
  const out = api("在庫.book", Deno.readTextFileSync(BOOKS + "在庫.book"));
  const enc = (s: string) => {
    const bytes = new TextEncoder().encode(s);
    const length = new Uint8Array(4);
    new DataView(length.buffer).setUint32(0, bytes.length);
    return [length, bytes];
  };
  const hash = createHash("sha256");
  for (const s of ["chobo/1", "code", "在庫", "transfer", "引当"]) for (const b of enc(s)) hash.update(b);
  const digest = hash.digest();
  strictEqual(out.transfers[1].code, digest[0] * 256 + digest[1] || 1);
});
