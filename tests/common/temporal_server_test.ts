/**
 * The Temporal dev server of a verification keeps its clients' connections for the whole run
 * (`MAX_CONNECTION_AGE`): at the server's default of 5 minutes it sends an HTTP/2 GOAWAY, on which
 * Deno's `node:http2` aborted a TypeScript runner with all of its runs (CI49).
 * @module
 */

import { ok } from "node:assert/strict";
import {
  findTemporal,
  MAX_CONNECTION_AGE,
  startTemporal,
  VERIFY_SERVER,
} from "../../verify/services/temporal_server.ts";

Deno.test("a verification's dev server is started keeping its clients' connections for the day", async () => {
  const bin = await findTemporal();
  if (bin === null) return console.log("SKIP: temporal: the temporal CLI 1.9.1 is not installed");
  const server = await startTemporal(bin, [], VERIFY_SERVER);
  try {
    const args = Deno.readTextFileSync(`/proc/${server.pid}/cmdline`).split("\0");
    const at = args.indexOf(`frontend.keepAliveMaxConnectionAge="${MAX_CONNECTION_AGE}"`);
    ok(at > 0 && args[at - 1] === "--dynamic-config-value", args.join(" "));
  } finally {
    await server.stop();
  }
});
