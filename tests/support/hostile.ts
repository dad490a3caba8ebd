/**
 * Hostile arguments every chobo target is tested with (docs/reference.md#limits): a book with string
 * parameters, and strings at and past the limits with what the reference interpreter answers.
 */

/** A book whose `receive.do` takes two strings, its key, and an amount. */
export const LIMITS_BOOK = `book limits v1

unit pcs

account stock(sku: string) : pcs
  at least 0 refused as out_of_stock
account suppliers : pcs outside

transfer receive(delivery: string, sku: string, qty: pcs)
  key delivery, sku
  move qty from suppliers to stock(sku)

transfer ship(order: string, sku: string, qty: pcs)
  key order
  move qty from stock(sku) to suppliers
`;

/** String arguments at and past docs/reference.md#limits, with what the interpreter answers. */
export const HOSTILE_STRINGS: readonly { readonly sku: string; readonly failed: boolean }[] = [
  { sku: "x".repeat(256), failed: false },
  { sku: "x".repeat(257), failed: true },
  { sku: "在".repeat(85), failed: false },
  { sku: "在".repeat(86), failed: true },
  { sku: "a\u0000b", failed: true },
  { sku: "\ud800", failed: true },
  { sku: "\udbff", failed: true },
  { sku: '\u{1F600}\u0001"\\', failed: false },
];
