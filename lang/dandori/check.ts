/**
 * `dandori check` on one file, with the stop rules of chobo's checker: an unreadable line stops
 * before names are resolved; a construct this dandori cannot read stops there with one E018; a
 * name or type error stops before the checks along the flow (the secrets among them); key-shaped
 * values are looked for in any case (W901).
 * @module
 */

import { sortDiagnostics } from "../common/diagnostic.ts";
import { decodeSource, Reporter, reportKeyShapedValues } from "../common/reporter.ts";
import { type Text, tr } from "../common/text.ts";
import type { DandoriCode } from "./codes.ts";
import { checkCases } from "./cases.ts";
import type { CheckedFlow, TypedFlow } from "./checked.ts";
import { checkChildren } from "./children.ts";
import type { CheckEnv, ChildScope, FlowCheck } from "./env.ts";
import { checkAlongFlow } from "./lints.ts";
import type { FlowModel } from "./model.ts";
import { resolveFlow } from "./resolve.ts";
import { firstUnsupported } from "./support.ts";
import { checkSecrets } from "./secrecy.ts";
import { parseFlow } from "./syntax.ts";
import { typeFlow } from "./typing.ts";

export type { CheckEnv, FlowCheck } from "./env.ts";

const FLOW: Text = tr("flow", "フロー");

/**
 * Checks the text of one flow. `file` is the name diagnostics show and the directory the flow's
 * books and child flows are read from.
 *
 * @example
 * ```ts
 * const result = checkFlow("order.flow", text, { read: (p) => ({ bytes: Deno.readFileSync(p), real: p }) });
 * ```
 */
export function checkFlow(file: string, text: string, env: CheckEnv): FlowCheck {
  return checkInScope(file, text, env, {
    chain: [{ path: file, real: file }],
    checked: new Map(),
    unchecked: new Set(),
  });
}

/** Checks one flow of a tree of flows, its children checked once in `scope`. */
function checkInScope(file: string, text: string, env: CheckEnv, scope: ChildScope): FlowCheck {
  const r = new Reporter<DandoriCode>(file, text);
  const result = (
    model: FlowModel | null,
    unsupported = false,
    typedFlow: TypedFlow | null = null,
  ): FlowCheck => {
    reportKeyShapedValues(text, r, FLOW);
    const ok = model !== null && !r.hasErrors();
    const checked: CheckedFlow | null = ok && typedFlow !== null ? { ...typedFlow, passed: true } : null;
    return {
      file,
      diagnostics: sortDiagnostics(r.diagnostics),
      model: ok ? model : null,
      checked,
      typedFlow,
      unsupported,
    };
  };
  const ast = parseFlow(text, r);
  for (const at of ast.elisions) {
    r.error(
      "E001",
      at,
      tr(
        "`…` stands for text left out, and a flow cannot leave anything out",
        "`…` は省いた文の印で、フローには省いたところを残せません",
      ),
      {
        hint: tr("write what the `…` stands for", "`…` のところを書いてください"),
      },
    );
  }
  if (r.hasErrors()) return result(null);
  const unsupported = firstUnsupported(ast);
  if (unsupported !== null) {
    r.error("E018", unsupported.at, unsupported.message, { notes: [unsupported.note] });
    return result(null, true);
  }
  const model = resolveFlow(ast, { file, read: env.read }, r);
  if (model === null) return result(null);
  const children = checkChildren(model, env, scope, r, checkInScope);
  const typed = typeFlow(model, r);
  if (r.hasErrors()) return result(model);
  checkAlongFlow(model, typed, r);
  checkSecrets(model, typed, r);
  const { reached, facts } = checkCases(model, typed, r);
  // A variable typing left without a type (a collecting loop with its `yield` misplaced, E009) has
  // not resolved: such a flow is not given to the stages after the checker, even to draw it.
  const resolved = [...typed.vars.values()].every((v) => v.type !== null);
  return result(model, false, resolved ? { model, typed, children, reached, facts } : null);
}

/** Checks a flow given as bytes: text that is not UTF-8 is one E001 at its first bad byte. */
export function checkFlowBytes(file: string, bytes: Uint8Array, env: CheckEnv): FlowCheck {
  const r = new Reporter<DandoriCode>(file, "");
  const text = decodeSource(bytes, r, FLOW);
  if (text !== null) return checkFlow(file, text, env);
  return {
    file,
    diagnostics: r.diagnostics,
    model: null,
    checked: null,
    typedFlow: null,
    unsupported: false,
  };
}
