/**
 * Agent tasks on the targets (docs/dandori.md#agents). The plan holds each agent's request
 * (lang/dandori/agent_requests.ts) and the interpreter runs it, its `transport` view being the request.
 * Step Functions sends it as an HTTP Task (stepfunctions/agent.ts); Temporal TypeScript's activity
 * through its `Transport`'s `agent` (typescript/task_bodies.ts), told here whom the request goes to
 * (`agentProvider`) and where a Claude answer's enum values are (`enumShape`). The targets that do
 * not send it yet stop a flow with an agent task with one E050 at each such task.
 * @module
 */

import { lookup, unreachable } from "../../lang/common/assert.ts";
import type { Diagnostic } from "../../lang/common/diagnostic.ts";
import { Reporter } from "../../lang/common/reporter.ts";
import { tr } from "../../lang/common/text.ts";
import { agentEndpoint, type AgentPlan } from "../../lang/dandori/agent_requests.ts";
import type { DandoriCode } from "../../lang/dandori/codes.ts";
import type { Plan, TypePlan } from "../../lang/dandori/plan.ts";
import type { FlowOrigin } from "./target.ts";

/**
 * Whom an agent's request goes to: Claude's Messages API, OpenAI's Responses API, or an Open
 * Responses server (a `url` that is not OpenAI's own API), which is sent no OpenAI key.
 */
export function agentProvider(agent: AgentPlan): "openai" | "claude" | "responses" {
  if (agent.provider === "claude") return "claude";
  return agent.endpoint === agentEndpoint("openai", null) ? "openai" : "responses";
}

/** Where a Claude answer's enum values are (the runtimes' `EnumShape`): an enum's values, a list's, a record's fields'. */
export type EnumShape =
  | { readonly enum: readonly string[] }
  | { readonly list: EnumShape }
  | { readonly record: { readonly [field: string]: EnumShape } };

/**
 * Where `t` holds an enum, or null when it holds none: a `T?` is its `T` (null is left as it is), a
 * record lists only the fields that hold one. The result type of an agent holds no record that
 * holds itself (E003), so the walk ends.
 */
export function enumShape(plan: Plan, t: TypePlan): EnumShape | null {
  switch (t.kind) {
    case "enum":
      return { enum: lookup(new Map(plan.enums.map((e) => [e.name, e])), t.name, "enum").values };
    case "optional":
      return enumShape(plan, t.inner);
    case "list": {
      const inner = enumShape(plan, t.element);
      return inner === null ? null : { list: inner };
    }
    case "record": {
      const fields = lookup(new Map(plan.records.map((r) => [r.name, r])), t.name, "record").fields.flatMap(
        (f) => {
          const inner = enumShape(plan, f.type);
          return inner === null ? [] : [[f.name, inner] as const];
        },
      );
      return fields.length === 0 ? null : { record: Object.fromEntries(fields) };
    }
    case "int":
    case "num":
    case "string":
    case "bool":
    case "date":
    case "timestamp":
    case "json":
      return null;
    default:
      return unreachable(t, "type");
  }
}

/** One E050 for each agent task of the plan, on `platform` (as the diagnostic names it). */
export function agentsUnbuilt(platform: string, plan: Plan, origin: FlowOrigin): readonly Diagnostic[] {
  const r = new Reporter<DandoriCode>(origin.path, origin.text);
  for (const t of plan.tasks) {
    if (t.callee.kind !== "agent") continue;
    r.error(
      "E050",
      { line: t.line, col: 1 },
      tr(
        `${platform} cannot build the agent task ${t.name} yet: it does not send an agent's request so far`,
        `${platform} はエージェントのタスク ${t.name} をまだ作れません。エージェントのリクエストを送る実装がまだありません`,
      ),
      {
        hint: tr(
          "`dandori run` runs the flow on the interpreter, and `--target transport` shows each request its model is sent",
          "`dandori run` はインタープリターでフローを実行し、`--target transport` はモデルに送る各リクエストを見せます",
        ),
      },
    );
  }
  return r.diagnostics;
}

/** Where a printer meets an agent task: never, as the target's check stopped the build with E050 before. */
export function agentUnbuilt(): never {
  throw new Error("dandori: this target builds no agent task yet (E050 before)");
}
