/**
 * The pydantic-graph target's default `Transport` for real (docs/targets.md#pydantic-graph): every
 * HTTP, Lambda and AWS call of the scenarios of the flows this target builds, sent by the generated
 * task (`make_tasks(own, transport)` in `tasks.py`) through the generated `io.py`'s own
 * `transport()` — urllib to a local HTTP server (the URL's scheme and host replaced by it), boto3 to
 * the same server for Lambda's Invoke (`AWS_ENDPOINT_URL_LAMBDA`) and to moto's server mode for SNS
 * and SQS (`AWS_ENDPOINT_URL`). What arrives must equal the `transport` view, and what the task makes
 * of the answer must equal what it makes of the same answer from the verify run's stub `Transport`;
 * AWS answers are moto's own, so they must succeed, and `sns:publish` to a topic that does not exist
 * must reach the flow as moto's NotFound. The session, the calls and the comparison of what arrived
 * are `wire.ts`'s, as for Temporal (`temporal_wire.ts`). One Python process
 * (`pydantic_graph_wire_runner.py`) sends every call, telling the local server before and after
 * each, so the server answers it and checks what arrived. Nothing leaves the machine. @module
 */

import { stringifyJson } from "../../lang/common/json.ts";
import { answerJson } from "../../lang/dandori/scenario.ts";
import { ident } from "../../targets/dandori/pydantic_graph/names.ts";
import { PYDANTIC_GRAPH } from "../../targets/dandori/pydantic_graph/target.ts";
import { DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import { runRunnerOutput } from "../differential.ts";
import type { RunnableFlow } from "./flows.ts";
import {
  AWS_ERROR,
  awsErrorProblem,
  drivenCalls,
  sendable,
  type Sent,
  type WireCall,
  wireCalls,
  wireOf,
  type WireReport,
  withDescribed,
  withWire,
} from "./wire.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const ORIGIN = { file: "wire.flow", path: "wire.flow", text: "", sha: "0".repeat(16), version: "wire" };

/**
 * Sends every call of the flows this target builds through `io.py`'s default `Transport`; null when
 * moto is not installed. `mutate` changes a package's files first, as a test breaks the code.
 */
export function verifyPythonWire(
  flows: readonly RunnableFlow[],
  mutate?: (files: Map<string, string>) => void,
): Promise<WireReport | null> {
  return withWire(async (session) => {
    const dir = Deno.makeTempDirSync({ prefix: "dandori-pywire-" });
    const counts = { http: 0, lambda: 0, aws: 0 };
    const sent: WireCall[] = [];
    const jobs: Record<string, unknown>[] = [];
    try {
      for (const [i, f] of flows.entries()) {
        if (PYDANTIC_GRAPH.check(f.plan, ORIGIN, DEFAULT_BUILD).length > 0) continue;
        const calls = wireCalls(f, "pydantic-graph");
        if (calls.length === 0) continue;
        Deno.mkdirSync(`${dir}/p${i}`);
        const files = new Map(PYDANTIC_GRAPH.generate(f.plan, ORIGIN, DEFAULT_BUILD));
        mutate?.(files);
        for (const [file, text] of files) Deno.writeTextFileSync(`${dir}/p${i}/${file}`, text);
        for (const c of calls) {
          counts[c.task.callee.kind as "http" | "lambda" | "aws"]++;
          if (!sendable(c)) continue;
          jobs.push({
            id: String(sent.length),
            package: `p${i}`,
            task: ident(c.task.name),
            kind: c.task.callee.kind,
            args: c.args,
            call: c.call,
            answer: answerJson(c.answer),
            wire: c.answer.kind === "error" ? wireOf(c.task, c.answer.error) : null,
          });
          sent.push(c);
        }
      }
      const failuresOf = drivenCalls(session, sent);
      const { results, rest } = await runRunnerOutput<Sent, { aws_error: string | null }>(
        "pydantic-graph wire",
        ["python3", `${ROOT}verify/dandori/pydantic_graph_wire_runner.py`, `${dir}/jobs.json`],
        `${dir}/jobs.json`,
        JSON.parse(
          stringifyJson({ dir, local: session.local.url, aws_error: AWS_ERROR, calls: jobs } as never),
        ),
      );
      const failures = failuresOf(results);
      if (rest.aws_error !== null) failures.push(...awsErrorProblem(rest.aws_error));
      return await withDescribed(session, { ...counts, failures });
    } finally {
      session.local.control = null;
      Deno.removeSync(dir, { recursive: true });
    }
  });
}
