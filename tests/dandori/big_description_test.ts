/**
 * The big OpenAPI description of `deno task bench check` (verify/dandori/big_description.ts): as large
 * as asked and under the 8 MiB a file read may be, and its one-operation flow checks clean against it,
 * which is what the bench times.
 */

import { ok, strictEqual } from "node:assert/strict";
import { bigDescription, ONE_OPERATION_FLOW } from "../../verify/dandori/big_description.ts";
import { MAX_INPUT_BYTES } from "../../commands/io.ts";
import { runCli } from "../support/run.ts";

Deno.test("the bench's 8 MB description is at least 8 MB, under MAX_INPUT_BYTES, and its flow checks clean", () => {
  const json = bigDescription(8_000_000);
  ok(json.length >= 8_000_000 && json.length < MAX_INPUT_BYTES, `${json.length} bytes`);
  const run = runCli(["dandori", "check", "big/big.flow"], {
    files: { "big/big.flow": ONE_OPERATION_FLOW, "big/big.json": json },
  });
  strictEqual(run.stdout, "big/big.flow: ok\n");
  strictEqual(run.code, 0);
});
