/**
 * The temporal-go target's default `Transport` for real (docs/targets.md#temporal-go): every HTTP,
 * Lambda and AWS call of the scenarios of the flows this target builds, sent by the generated
 * activity (`Activities(nil, transport)` in `activities.go`), run in the Go SDK's test activity
 * environment, through the generated `io.go`'s own `NewTransport` — net/http to a local HTTP server
 * (the URL's scheme and host replaced by it), the AWS SDK for Go v2 to the same server for Lambda's
 * Invoke and to moto's server mode for SNS and SQS. What arrives must equal the `transport` view,
 * what the activity makes of the answer must equal what it makes of the same answer from a stub
 * `Transport` that answers as the verify run's does, AWS answers are moto's own and must succeed,
 * and `sns:publish` to a topic that does not exist must reach the flow as moto's NotFound. A request
 * of a task whose `http` line names a `use openapi` description is validated against it. The
 * session, the calls and the comparison of what arrived are `wire.ts`'s, as for the other targets.
 *
 * One Go module holds every flow's package (`f<i>/`, as `dandori build` writes it), the runner
 * (`temporal_go_wire/wire.go`) and `packages.go`, written here, which hands the runner each package's
 * activities with either Transport; it is built once, with the Go cache the tests share. Nothing
 * leaves the machine. @module
 */

import { stringifyJson } from "../../lang/common/json.ts";
import type { Plan } from "../../lang/dandori/plan.ts";
import { goPackage } from "../../targets/dandori/go/names.ts";
import { callsAws, hasAgents, usesBooks } from "../../targets/dandori/temporal_go/io_go.ts";
import { TEMPORAL_GO } from "../../targets/dandori/temporal_go/target.ts";
import { buildFlowTarget, DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import { runRunnerOutput } from "../differential.ts";
import type { RunnableFlow } from "./flows.ts";
import { go, goModText } from "./temporal_go_build.ts";
import { GO_SDK } from "./temporal_sdk.ts";
import {
  AWS_ERROR,
  awsErrorProblem,
  CONTROL,
  drivenCalls,
  httpAnswer,
  lambdaResult,
  sendable,
  type Sent,
  type WireCall,
  wireCalls,
  type WireReport,
  withDescribed,
  withWire,
} from "./wire.ts";

const ORIGIN = { file: "wire.flow", path: "wire.flow", text: "", sha: "0".repeat(16), version: "wire" };

/** The module's path. */
const MODULE = "dandori.invalid/gowire";

/** The binary the build writes into the module's directory. */
const BINARY = "temporal-go-wire";

/** One flow's package in the module: its directory, its plan, its files. */
interface Held {
  readonly dir: string;
  readonly plan: Plan;
  readonly files: ReadonlyMap<string, string>;
}

/**
 * Sends every call of the flows temporal-go builds through `io.go`'s default `Transport`; null when
 * moto is not installed. `mutate` changes a package's files before the build, as a test breaks the code.
 */
export function verifyGoWire(
  flows: readonly RunnableFlow[],
  mutate?: (files: Map<string, string>) => void,
): Promise<WireReport | null> {
  return withWire(async (session) => {
    const dir = Deno.makeTempDirSync({ prefix: "dandori-gowire-" });
    const counts = { http: 0, lambda: 0, aws: 0 };
    const sent: WireCall[] = [];
    const jobs: Record<string, unknown>[] = [];
    const held: Held[] = [];
    try {
      for (const [i, f] of flows.entries()) {
        const built = buildFlowTarget(TEMPORAL_GO, f.plan, ORIGIN, DEFAULT_BUILD);
        if ("diagnostics" in built) continue;
        const calls = wireCalls(f, "temporal");
        if (calls.length === 0) continue;
        const files = new Map(built.files);
        mutate?.(files);
        held.push({ dir: `f${i}`, plan: f.plan, files });
        for (const c of calls) {
          counts[c.task.callee.kind as "http" | "lambda" | "aws"]++;
          if (!sendable(c)) continue;
          jobs.push({
            id: String(sent.length),
            package: `f${i}`,
            task: c.task.name,
            kind: c.task.callee.kind,
            args: c.args,
            call: c.call,
            answer: stubAnswer(c),
          });
          sent.push(c);
        }
      }
      const erring = held.find((h) => callsSns(h.plan));
      const binary = await buildWireModule(dir, held, erring?.dir ?? null);
      const failuresOf = drivenCalls(session, sent, GO_SDK.compared);
      const { results, rest } = await runRunnerOutput<Sent, { aws_error: string | null }>(
        "temporal-go wire",
        [binary, `${dir}/jobs.json`],
        `${dir}/jobs.json`,
        JSON.parse(stringifyJson({
          local: session.local.url,
          control: CONTROL,
          moto: session.motoUrl,
          region: Deno.env.get("AWS_REGION"),
          aws_error: { package: erring?.dir ?? "", ...AWS_ERROR },
          calls: jobs,
        } as never)),
      );
      const failures = failuresOf(results);
      if (erring !== undefined) failures.push(...awsErrorProblem(rest.aws_error ?? "{}"));
      else if (counts.aws > 0) failures.push("no flow calls sns, so sns:publish to no topic was not tried");
      return await withDescribed(session, { ...counts, failures });
    } finally {
      session.local.control = null;
      Deno.removeSync(dir, { recursive: true });
    }
  });
}

/** What the stub answers a call with, as the verify run's stub does: an HTTP response or a Lambda result. */
function stubAnswer(c: WireCall): Record<string, unknown> {
  if (c.task.callee.kind === "http") return { http: httpAnswer(c.task, c.answer) };
  if (c.task.callee.kind === "lambda") return { lambda: lambdaResult(c.task, c.answer) };
  return {};
}

/** Whether the flow calls SNS, so that its default Transport has an SNS client for `AWS_ERROR`. */
function callsSns(plan: Plan): boolean {
  return plan.tasks.some((t) => t.callee.kind === "aws" && t.callee.service === AWS_ERROR.service);
}

/**
 * Writes the wire runner's module into `dir` (the packages, the runner, `packages.go`; `erring`
 * the package whose Transport tries `AWS_ERROR`) and builds its binary; gives the binary's path.
 */
export async function buildWireModule(
  dir: string,
  held: readonly Held[],
  erring: string | null,
): Promise<string> {
  Deno.writeTextFileSync(`${dir}/go.mod`, goModText(MODULE));
  Deno.copyFileSync(new URL("./temporal_go_wire/wire.go", import.meta.url), `${dir}/wire.go`);
  for (const h of held) {
    Deno.mkdirSync(`${dir}/${h.dir}`);
    for (const [name, text] of h.files) Deno.writeTextFileSync(`${dir}/${h.dir}/${name}`, text);
  }
  Deno.writeTextFileSync(`${dir}/packages.go`, packagesGo(held, erring));
  await go(["mod", "tidy"], dir);
  await go(["build", "-o", BINARY, "."], dir);
  return `${dir}/${BINARY}`;
}

/**
 * `packages.go`: for each package, a stub `Transport` of its own types (its agents answer `{"answer":
 * …}` or refuse, as the verify run's stub does) and the entry the runner reads (`flowPackage`); the
 * AWS call of `AWS_ERROR` through the default Transport of `erring`.
 */
function packagesGo(held: readonly Held[], erring: string | null): string {
  const imports = held.map((h) => `\t${h.dir} "${MODULE}/${h.dir}"`);
  const parts = held.map((h) => {
    const p = h.dir;
    const options = `${p}.TransportOptions{HTTPClient: o.HTTP${callsAws(h.plan) ? ", AWS: o.AWS" : ""}}`;
    const stub = `stub${p}`;
    const lines = [
      `// ${stub} answers ${goPackage(h.plan, ORIGIN.file)}'s calls as the verify run's stub does.`,
      `type ${stub} struct{ a answer }`,
      "",
      `func (s ${stub}) HTTP(context.Context, ${p}.HTTPRequest) (${p}.HTTPResponse, error) {`,
      `\treturn ${p}.HTTPResponse{Status: s.a.HTTP.Status, Body: s.a.HTTP.Body}, nil`,
      "}",
      "",
      `func (s ${stub}) Lambda(context.Context, string, any) (${p}.LambdaResult, error) {`,
      `\treturn ${p}.LambdaResult{Payload: s.a.Lambda.Payload, ErrorType: s.a.Lambda.ErrorType, ErrorMessage: s.a.Lambda.ErrorMessage}, nil`,
      "}",
      "",
      `func (s ${stub}) AWS(context.Context, string, string, map[string]any) (any, error) {`,
      `\treturn nil, errors.New("an AWS call's answer is moto's own")`,
      "}",
      ...(usesBooks(h.plan)
        ? [
          "",
          `func (s ${stub}) Book(context.Context, ${p}.BookCall) (${p}.BookResult, error) {`,
          `\treturn ${p}.BookResult{}, errors.New("no book on the wire")`,
          "}",
        ]
        : []),
      ...(hasAgents(h.plan)
        ? [
          "",
          `func (s ${stub}) Agent(context.Context, ${p}.AgentRequest) (any, error) {`,
          '\tif v, ok := s.a.Agent["ok"]; ok {',
          '\t\treturn map[string]any{"answer": v}, nil',
          "\t}",
          `\treturn nil, &${p}.AgentStopped{Reason: "refused"}`,
          "}",
        ]
        : []),
      "",
      "func init() {",
      `\tpackages[${JSON.stringify(p)}] = flowPackage{`,
      "\t\tsent: func(o options) map[string]any {",
      `\t\t\treturn activitiesOf(${p}.Activities(nil, ${p}.NewTransport(${options})))`,
      "\t\t},",
      `\t\tstub: func(a answer) map[string]any { return activitiesOf(${p}.Activities(nil, ${stub}{a})) },`,
      ...(p === erring
        ? [
          "\t\taws: func(o options, service, operation string, args map[string]any) string {",
          `\t\t\tout, err := ${p}.NewTransport(${options}).AWS(context.Background(), service, operation, args)`,
          `\t\t\tvar e *${p}.AWSError`,
          "\t\t\tif errors.As(err, &e) {",
          '\t\t\t\treturn text(map[string]any{"error": e.Name, "message": e.Message})',
          "\t\t\t}",
          "\t\t\tif err != nil {",
          "\t\t\t\treturn failureText(err)",
          "\t\t\t}",
          '\t\t\treturn text(map[string]any{"ok": out})',
          "\t\t},",
        ]
        : []),
      "\t}",
      "}",
    ];
    return lines.join("\n");
  });
  return [
    "// The flows' packages of the temporal-go wire runner, written by verify/dandori/temporal_go_wire.ts.",
    "",
    "package main",
    "",
    "import (",
    '\t"context"',
    '\t"errors"',
    "",
    ...imports,
    ")",
    "",
    parts.join("\n\n"),
    "",
  ].join("\n");
}
