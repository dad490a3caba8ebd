/**
 * The OpenAPI check of Step Functions' HTTP Tasks: no engine here sends an HTTP Task's request
 * (LocalStack 4.14.0 does not know the HTTP Task), and the verify runs show that the arguments each
 * Task evaluates are the interpreter's `stepfunctions` view. So every distinct described call of the
 * scenarios of the flows Step Functions builds has the request its arguments describe
 * (`verify/dandori/sent.ts`'s `httpTaskRequest`, as AWS documents the HTTP Task) validated against its
 * `use openapi` description by openapi-core, as the wire checks of the other targets validate what arrived.
 */

import { deepStrictEqual, match, ok } from "node:assert/strict";
import { stringifyJson } from "../../lang/common/json.ts";
import { viewOf } from "../../lang/dandori/views.ts";
import { STEPFUNCTIONS } from "../../targets/dandori/stepfunctions/target.ts";
import { DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import { generatedRuns, type RunnableFlow } from "../../verify/dandori/flows.ts";
import { httpTaskRequest } from "../../verify/dandori/sent.ts";
import type { Plain } from "../../verify/dandori/asl_run.ts";
import { describedBy, type DescribedRequest, validateDescribed } from "../../verify/dandori/wire.ts";
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
