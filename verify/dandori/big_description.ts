/**
 * A big OpenAPI description `deno task bench check` checks a flow against (README.md#performance,
 * issue 36's "8 MB" row): the Stripe-shaped `tests/dandori/flows/apis/payments.json` with operations
 * added, each with a schema of its own, until the file is `bytes` long, and a flow that calls one of the
 * original operations. The checker must read the file (it is JSON) but walk only what the task reaches.
 * @module
 */

const PAYMENTS = new URL("../../tests/dandori/flows/apis/payments.json", import.meta.url);

/** The description, at least `bytes` long once written as JSON (one more operation passes it). */
export function bigDescription(bytes: number): string {
  const doc = JSON.parse(Deno.readTextFileSync(PAYMENTS));
  const text = () => JSON.stringify(doc);
  const size = text().length;
  const one = filler(0);
  const each = JSON.stringify(one.path).length + JSON.stringify(one.schema).length + 40;
  const count = Math.ceil((bytes - size) / each);
  for (let i = 0; i < count; i++) {
    const f = filler(i);
    doc.paths[`/v1/filler_${i}/{id}`] = f.path;
    doc.components.schemas[`filler_${i}`] = f.schema;
  }
  return text();
}

/** One added operation: a GET of `/v1/filler_<i>/{id}` and its response's schema of 20 properties. */
function filler(i: number): { path: unknown; schema: unknown } {
  const properties = Object.fromEntries(
    Array.from({ length: 20 }, (_, p) => [`field_${p}`, { type: p % 2 === 0 ? "string" : "integer" }]),
  );
  return {
    path: {
      get: {
        operationId: `GetFiller${i}`,
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: {
          "200": {
            description: "a filler",
            content: { "application/json": { schema: { $ref: `#/components/schemas/filler_${i}` } } },
          },
        },
      },
    },
    schema: { type: "object", required: ["field_0"], properties },
  };
}

/** A flow calling one operation of the description written beside it as `big.json`. */
export const ONE_OPERATION_FLOW = `workflow big v1

use openapi payments from "big.json"

enum Status = canceled | processing | requires_action | requires_capture | requires_confirmation | requires_payment_method | succeeded

record Intent
  id     : string
  status : Status

task look(intent: string) -> Intent
  http GET payments "/v1/payment_intents/{intent}"

flow
  let seen = look(intent: "pi_1")
  pass
`;
