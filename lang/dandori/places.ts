/**
 * What the syntax tree says of a statement that the interpreter and the lowering both read: the
 * place every stage names it by (`s<line>`: a line holds one statement), and whether its own values
 * read `now` — a flow with a period checks the time before each such statement of its body
 * (docs/design/dandori.md#the-workflow-period).
 *
 * This is not lowering, so the interpreter may share it with `lower.ts`: nothing here is decided
 * for a platform or derived from one. A place is the statement's name, which keys, covers and
 * views carry alike; which statements read `now` is read off the syntax tree as the design
 * defines it. What the lowering decides (retriers in Step Functions' order, a plan's timeouts and
 * period ends, the graph) stays in `lower.ts`, and the interpreter computes the same meaning from
 * the checked flow itself, so a differential run still checks the lowering.
 * @module
 */

import { unreachable } from "../common/assert.ts";
import type { ExprAst, StmtAst } from "./ast.ts";

/** The place of a statement: `s<line>`. */
export function placeOf(at: { readonly line: number }): string {
  return `s${at.line}`;
}

/** True when a statement's own values (not the statements under it) read `now`. */
export function readsNow(s: StmtAst): boolean {
  const values: ExprAst[] = [];
  switch (s.kind) {
    case "call":
      for (const a of s.call.args) if (a.kind === "arg") values.push(a.value);
      break;
    case "let":
    case "yield":
      values.push(s.value);
      break;
    case "match":
      values.push(s.subject);
      break;
    case "wait":
      if (s.until !== null) values.push(s.until);
      break;
    case "for":
      values.push(s.list);
      break;
    case "succeed":
      values.push(...s.outputs.map((o) => o.value));
      break;
    case "fail":
      if (s.reason !== null) values.push(s.reason);
      break;
    case "repeat":
    case "break":
    case "pass":
    case "elided":
      break;
    default:
      return unreachable(s, "statement");
  }
  return values.some(hasNow);
}

function hasNow(e: ExprAst): boolean {
  switch (e.kind) {
    case "now":
      return true;
    case "string":
      return e.parts.some((p) => p.kind === "hole" && hasNow(p.value));
    case "record":
      return e.fields.some((f) => hasNow(f.value));
    case "list":
      return e.items.some(hasNow);
    case "path":
    case "number":
    case "bool":
    case "none":
    case "elided":
      return false;
    default:
      return unreachable(e, "value");
  }
}
