/**
 * A book and a flow of 200 lines each, for the playground's timing: many accounts and transfers,
 * many tasks called one after another; both check clean.
 * @module
 */

/** The lines the timing asks for (issue 38). */
export const LONG_LINES = 200;

function padded(head: string[], body: string[]): string {
  const comments = Array.from(
    { length: LONG_LINES - head.length - body.length },
    (_, i) => `# line ${i + 1}`,
  );
  return [...comments, ...head, ...body].join("\n") + "\n";
}

/** A book of `LONG_LINES` lines: 17 accounts with a sale and a held refund each. */
export function longBook(): string {
  const head = ["book long v1", "", "unit USD scale 2", "", "account customers : USD outside", ""];
  const body = Array.from({ length: 17 }, (_, i) => [
    `account refundable_${i}(order: string) : USD`,
    `  at least 0.00 refused as over_refund_${i}`,
    "",
    `transfer sale_${i}(order: string, amount: USD)`,
    "  key order",
    `  move amount from customers to refundable_${i}(order)`,
    "",
    `transfer refund_${i}(refund_id: string, order: string, amount: USD)`,
    "  key refund_id, order",
    `  move amount from refundable_${i}(order) to customers`,
    "",
  ]).flat();
  return padded(head, body);
}

/** A flow of `LONG_LINES` lines: 37 tasks, each called with what the one before answered. */
export function longFlow(): string {
  const tasks = 37;
  const head = [
    "workflow long v1",
    "",
    "inputs",
    "  shipment : string",
    "",
    "outputs",
    "  tracking : string",
    "",
  ];
  const body = [
    ...Array.from({ length: tasks }, (_, i) => [
      `task step_${i}(shipment: string) -> string`,
      `  lambda "arn:aws:lambda:ap-northeast-1:123456789012:function:step-${i}"`,
      "  timeout 20 seconds",
      "",
    ]).flat(),
    "flow",
    ...Array.from(
      { length: tasks },
      (_, i) => `  let t_${i} = step_${i}(shipment: ${i === 0 ? "shipment" : `t_${i - 1}`})`,
    ),
    `  succeed tracking = t_${tasks - 1}`,
  ];
  return padded(head, body);
}
