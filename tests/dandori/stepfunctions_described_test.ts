/**
 * The OpenAPI check of Step Functions' HTTP Tasks: no engine here sends an HTTP Task's request
 * (LocalStack 4.14.0 does not know the HTTP Task), and the verify runs show that the arguments each
 * Task evaluates are the interpreter's `stepfunctions` view. So every distinct described call of the
 * scenarios of the flows Step Functions builds has the request its arguments describe
 * (`verify/dandori/sent.ts`'s `httpTaskRequest`, as AWS documents the HTTP Task) validated against its
 * `use openapi` description by openapi-core, as the wire checks of the other targets validate what arrived;
 * and every distinct `connect` HTTP Task call, as its arguments ask for it (`ApiEndpoint`'s path,
 * `Headers`, `RequestBody`), is taken by a real Connect server built from its `.proto`
 * (`verify/dandori/connect_server.ts`), which refuses them all without `Connect-Protocol-Version`.
 */

import { deepStrictEqual, match, ok } from "node:assert/strict";
import { stringifyJson } from "../../lang/common/json.ts";
import { viewOf } from "../../lang/dandori/views.ts";
import { STEPFUNCTIONS } from "../../targets/dandori/stepfunctions/target.ts";
import { DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import { generatedRuns, type RunnableFlow } from "../../verify/dandori/flows.ts";
import { httpTaskRequest } from "../../verify/dandori/sent.ts";
import type { Plain } from "../../verify/dandori/asl_run.ts";
import { type ConnectServer, refusal, startConnectServer } from "../../verify/dandori/connect_server.ts";
import {
  describedBy,
  type DescribedRequest,
  methodPath,
  protoOf,
  validateDescribed,
} from "../../verify/dandori/wire.ts";
import { everyRunnableFlow } from "../support/flows.ts";

const ORIGIN = { file: "f.flow", path: "f.flow", text: "", sha: "0".repeat(16), version: "test" };

/** Every distinct described HTTP Task call of the scenarios of the flows Step Functions builds, as its arguments ask for it. */
function describedRequests(flows: readonly RunnableFlow[]): DescribedRequest[] {
  const seen = new Set<string>();
  const out: DescribedRequest[] = [];
  for (const f of flows) {
    if (!f.checked.model.ast.uses.some((u) => u.source.text === "openapi")) continue;
    if (STEPFUNCTIONS.check(f.plan, ORIGIN, DEFAULT_BUILD).length > 0) continue;
    for (const { n, run } of generatedRuns(f)) {
      for (const c of run.calls) {
        const task = f.plan.tasks.find((t) => t.name === c.task);
        if (task?.callee.kind !== "http" || c.answer.kind === "cancel") continue;
        const described = describedBy(f, task);
        if (described === null) continue;
        const view = viewOf("stepfunctions", f.plan, c) as { http: Plain };
        const http = httpTaskRequest(JSON.parse(stringifyJson(view.http as never)));
        const id = JSON.stringify([described.file, http]);
        if (seen.has(id)) continue;
        seen.add(id);
        out.push({ where: `${f.path} run-${n} line ${c.line}`, described, http });
      }
    }
  }
  return out;
}

Deno.test("the request each described HTTP Task's arguments ask for is one its OpenAPI description takes; a form body sent as JSON is not", async () => {
  const requests = describedRequests(everyRunnableFlow());
  ok(requests.length > 0, "some HTTP Task calls a described operation");
  const report = await validateDescribed(requests);
  if ("missing" in report) {
    return console.log(
      `SKIP: openapi-core: ${report.missing} (pip install -r verify/requirements-temporal.txt)`,
    );
  }
  console.log(
    `stepfunctions: ${requests.length} HTTP Task requests validated against their OpenAPI description`,
  );
  deepStrictEqual(report.failures, []);
  const form = requests.filter((r) => r.http.type === "application/x-www-form-urlencoded");
  ok(form.length > 0, "some described call sends a form");
  const asJson = form.map((r) => ({
    ...r,
    http: {
      ...r.http,
      type: "application/json",
      body: JSON.stringify(Object.fromEntries(new URLSearchParams(r.http.body))),
    },
  }));
  const broken = await validateDescribed(asJson);
  ok(!("missing" in broken));
  deepStrictEqual(broken.failures.length, form.length, "every form sent as JSON is refused");
  match(broken.failures.join("\n"), /api_calls\.flow run-1 line 47: the description .* refuses it/);
});

/** A `connect` HTTP Task's request as its arguments ask for it: where, its `.proto`, its method's path, headers and body. */
interface ConnectRequest {
  readonly where: string;
  readonly proto: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Every distinct `connect` HTTP Task call of the scenarios of the flows Step Functions builds. */
function connectRequests(flows: readonly RunnableFlow[]): ConnectRequest[] {
  const seen = new Set<string>();
  const out: ConnectRequest[] = [];
  for (const f of flows) {
    if (!f.checked.model.ast.uses.some((u) => u.source.text === "proto")) continue;
    if (STEPFUNCTIONS.check(f.plan, ORIGIN, DEFAULT_BUILD).length > 0) continue;
    for (const { n, run } of generatedRuns(f)) {
      for (const c of run.calls) {
        const task = f.plan.tasks.find((t) => t.name === c.task);
        if (task?.callee.kind !== "http" || task.callee.connect === null || c.answer.kind === "cancel") {
          continue;
        }
        const proto = protoOf(f, task);
        ok(proto !== null, `${task.name} names its .proto`);
        const args = (JSON.parse(stringifyJson(viewOf("stepfunctions", f.plan, c))) as {
          http: { ApiEndpoint: string; Headers: Record<string, string>; RequestBody: unknown };
        }).http;
        const request = {
          where: `${f.path} run-${n} line ${c.line}`,
          proto,
          path: methodPath(new URL(args.ApiEndpoint).pathname),
          headers: args.Headers,
          body: JSON.stringify(args.RequestBody),
        };
        const id = JSON.stringify([proto, request.path, request.headers, request.body]);
        if (seen.has(id)) continue;
        seen.add(id);
        out.push(request);
      }
    }
  }
  return out;
}

Deno.test("a real Connect server built from the .proto takes the request each connect HTTP Task's arguments ask for; without Connect-Protocol-Version it takes none", async () => {
  const requests = connectRequests(everyRunnableFlow());
  ok(requests.length > 0, "some HTTP Task calls a Connect method");
  const servers = new Map<string, ConnectServer>();
  try {
    const refused = async (r: ConnectRequest, headers: Record<string, string>) => {
      let server = servers.get(r.proto);
      if (server === undefined) {
        const started = await startConnectServer(r.proto);
        if ("missing" in started) return { skip: started.missing };
        server = started;
        servers.set(r.proto, server);
      }
      const why = await refusal(server, r.path, headers, r.body);
      return why === null ? null : `${r.where}: ${why}`;
    };
    const taken: string[] = [];
    const broken: string[] = [];
    for (const r of requests) {
      const said = await refused(r, r.headers);
      if (said !== null && typeof said === "object") return console.log(`SKIP: buf: ${said.skip}`);
      if (said !== null) taken.push(said);
      const { ["Connect-Protocol-Version"]: _, ...without } = r.headers;
      const unheaded = await refused(r, without);
      if (typeof unheaded === "string") broken.push(unheaded);
    }
    console.log(`stepfunctions: ${requests.length} connect HTTP Task requests taken by a Connect server`);
    deepStrictEqual(taken, []);
    deepStrictEqual(broken.length, requests.length, "without the header, every request is refused");
    match(
      broken[0],
      /^tests\/dandori\/flows\/proto_calls\.flow run-1 line 49: 400 .*Connect-Protocol-Version/,
    );
  } finally {
    for (const server of servers.values()) await server.close();
  }
});
