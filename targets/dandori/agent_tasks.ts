/**
 * Agent tasks on the targets (docs/dandori.md#agents). The plan holds each agent's request
 * (lang/dandori/agent_requests.ts) and the interpreter runs it, its `transport` view being the request.
 * Step Functions sends it as an HTTP Task (stepfunctions/agent.ts); every other target's written task
 * through its `Transport`'s agent (typescript/task_bodies.ts, python/task_bodies.ts,
 * temporal_go/activities_go.ts), told here whom the request goes to (`agentProvider`) and where a
 * Claude answer's enum values are (`enumShape`).
 * @module
 */

import { lookup, unreachable } from "../../lang/common/assert.ts";
import { agentEndpoint, type AgentPlan } from "../../lang/dandori/agent_requests.ts";
import type { Plan, TypePlan } from "../../lang/dandori/plan.ts";

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
