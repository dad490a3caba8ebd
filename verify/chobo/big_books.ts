/**
 * Big books `deno task bench check` checks one by one (README.md#performance): one transfer of many
 * moves, many moves over many bounded account kinds, a book of about 1 MB, and a book with one line
 * written many times over. Each is text, so it goes through the whole checker.
 * @module
 */

/** One transfer of `moves` moves, all from one account kind with a lower bound, filled by another. */
export function manyMoves(moves: number): string {
  const head = [
    "book many_moves v1",
    "unit pcs",
    "account stock(sku: string) : pcs",
    "  at least 0 refused as out_of_stock",
    "account world : pcs outside",
    "transfer receive(delivery: string, sku: string, qty: pcs)",
    "  key delivery, sku",
    "  move qty from world to stock(sku)",
    "transfer ship(order: string, sku: string, qty: pcs)",
    "  key order, sku",
  ];
  return [...head, ...Array.from({ length: moves }, () => "  move qty from stock(sku) to world")].join("\n") +
    "\n";
}

/** One transfer of `moves` moves, each from an account kind of its own with a bound and a reason of its own. */
export function manyAccounts(moves: number): string {
  const out = ["book many_accounts v1", "unit pcs", "account world : pcs outside"];
  for (let i = 0; i < moves; i++) {
    out.push(`account shelf${i}(sku: string) : pcs`, `  at least 0 refused as short${i}`);
  }
  out.push("transfer receive(delivery: string, sku: string, qty: pcs)", "  key delivery, sku");
  for (let i = 0; i < moves; i++) out.push(`  move qty from world to shelf${i}(sku)`);
  out.push("transfer ship(order: string, sku: string, qty: pcs)", "  key order, sku");
  for (let i = 0; i < moves; i++) out.push(`  move qty from shelf${i}(sku) to world`);
  return out.join("\n") + "\n";
}

/** A book of about `bytes` bytes: pairs of an account kind and two transfers, one filling, one taking. */
export function manyTransfers(bytes: number): string {
  const out = ["book many_transfers v1", "unit pcs", "account world : pcs outside"];
  let size = out.join("\n").length;
  for (let i = 0; size < bytes; i++) {
    const chunk = [
      `account stock${i}(sku: string) : pcs`,
      `  at least 0 refused as out${i}`,
      `transfer receive${i}(delivery: string, sku: string, qty: pcs)`,
      "  key delivery, sku",
      `  move qty from world to stock${i}(sku)`,
      `transfer ship${i}(order: string, sku: string, qty: pcs)`,
      "  key order, sku",
      `  move qty from stock${i}(sku) to world`,
    ];
    size += chunk.join("\n").length + 1;
    if (size > bytes) break;
    out.push(...chunk);
  }
  return out.join("\n") + "\n";
}

/** `text` with its line `line` (0-based) written `times` times. */
export function repeatedLine(text: string, line: number, times: number): string {
  const lines = text.split("\n");
  return [
    ...lines.slice(0, line),
    ...Array.from({ length: times }, () => lines[line]),
    ...lines.slice(line + 1),
  ]
    .join("\n");
}
