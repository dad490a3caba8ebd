/**
 * The README's tour (README.md#the-tour-on-a-running-database): the refunds book from TypeScript,
 * through the client `chobo build --target postgres-typescript` writes next to this file. `pg` reads
 * PGHOST, PGPORT, PGUSER and PGDATABASE. Run by tests/chobo/tour_test.ts.
 *
 * ```sh
 * deno run -A /tmp/tour/ts/tour.ts
 * ```
 * @module
 */

// deno-lint-ignore no-import-prefix
import pg from "npm:pg@8.23.1";
import { postgres, type Result } from "./refunds.ts";

const said = (r: Result) => r.result === "refused" ? `refused ${r.reason}` : r.result;

const client = new pg.Client();
await client.connect();
try {
  const book = postgres(client);
  const order = "order-ts";
  console.log(`sale.do: ${said(await book.sale.do({ order, amount: 3000n }))}`);
  console.log(`refund.hold r-1: ${said(await book.refund.hold({ refundId: "r-1", order, amount: 2000n }))}`);
  console.log(`refund.hold r-2: ${said(await book.refund.hold({ refundId: "r-2", order, amount: 2000n }))}`);
  console.log(`refund.post r-1: ${said(await book.refund.post({ refundId: "r-1", order }))}`);
  const b = await book.balance.refundable({ order });
  console.log(`refundable(${order}): posted ${b.posted}, held_in ${b.held_in}, held_out ${b.held_out}`);
} finally {
  await client.end();
}
