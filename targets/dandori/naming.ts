/**
 * The naming layer every dandori target spells a flow's names through (docs/dandori.md#names-in-generated-code).
 * A flow's names are Unicode identifiers chosen by its writer; generated code has its own names, and
 * its host language has keywords, built-in names and rules of its own (Python reads identifiers
 * after NFKC; JavaScript objects inherit `Object.prototype`'s members). Each target spells every
 * name it writes as code through its own spelling functions, which rename only by appending `_`
 * (`avoidTaken`), and its check then asks this module for what is still wrong: two names of one
 * scope that the host spells alike, or a name the host cannot take at all. Either is E006, naming
 * both names and the target, so that no two names of the flow silently become one in generated code.
 *
 * Names that stay data (record fields, task parameters, inputs and outputs, case names, enum values,
 * errors) are written as string keys or literals and keep their spelling; only where they become
 * code do they pass through here.
 * @module
 */

import { unreachable } from "../../lang/common/assert.ts";
import type { Diagnostic } from "../../lang/common/diagnostic.ts";
import { Reporter } from "../../lang/common/reporter.ts";
import { type Text, tr } from "../../lang/common/text.ts";
import type { DandoriCode } from "../../lang/dandori/codes.ts";
import { innerLists, type Plan, type StmtPlan } from "../../lang/dandori/plan.ts";
import type { FlowOrigin } from "./target.ts";

/**
 * `name`, or `name` with one more `_` when its base (the name without its trailing `_`s) is taken:
 * `E` → `E_`, `E_` → `E__`. Renaming a whole family of names alike keeps every spelling distinct: a
 * name that keeps its spelling never has a taken base, and within a family one more `_` is one-to-one.
 *
 * @example
 * ```ts
 * const taken = (base: string) => base === "class";
 * avoidTaken("class", taken); // "class_"
 * avoidTaken("class_", taken); // "class__"
 * avoidTaken("klass", taken); // "klass"
 * ```
 */
export function avoidTaken(name: string, taken: (base: string) => boolean): string {
  const base = name.replace(/_+$/, "");
  return base !== "" && taken(base) ? `${name}_` : name;
}

/** What a flow's name names, for messages. */
export type NameWhat =
  | "variable"
  | "input"
  | "output"
  | "field"
  | "record"
  | "enum"
  | "task"
  | "case"
  | "book"
  | "workflow";

const WHAT: Record<NameWhat, Text> = {
  variable: tr("the variable", "変数"),
  input: tr("the input", "入力"),
  output: tr("the output", "出力"),
  field: tr("the field", "フィールド"),
  record: tr("the record", "レコード"),
  enum: tr("the enum", "列挙"),
  task: tr("the task", "タスク"),
  case: tr("the case", "案件"),
  book: tr("the book", "帳簿"),
  workflow: tr("the workflow", "ワークフロー"),
};

/** One name of the flow as a target writes it: the host scope it is declared in, and its spelling there. */
export interface Spelled {
  /** The host scope (a module, a function's locals, a class's members): names meet only within one. */
  readonly scope: string;
  readonly name: string;
  readonly what: NameWhat;
  readonly line: number;
  readonly spelling: string;
}

/** A name the host cannot take, with why. */
export interface Refused {
  readonly name: string;
  readonly what: NameWhat;
  readonly line: number;
  readonly why: Text;
}

/** A variable of the flow: an input, or a name a statement binds, on the line it is first bound. */
export interface VariableName {
  readonly name: string;
  readonly what: "variable" | "input";
  readonly line: number;
}

function bound(s: StmtPlan): readonly string[] {
  switch (s.kind) {
    case "let":
      return [s.name];
    case "call":
      return s.bind?.kind === "let" ? [s.bind.name] : [];
    case "for":
      return s.collect === null ? [s.variable] : [s.variable, s.collect.name];
    case "match":
      return s.arms.flatMap((a) => a.conditions.flatMap((c) => c.kind === "some" ? [c.bind] : []));
    case "wait":
    case "wait until":
    case "repeat":
    case "yield":
    case "break":
    case "pass":
    case "succeed":
    case "fail":
    case "period":
      return [];
    default:
      return unreachable(s, "statement");
  }
}

/** Every variable of a plan once, inputs first, then in the order the blocks bind them. */
export function planVariables(plan: Plan): readonly VariableName[] {
  const out = new Map<string, VariableName>();
  for (const i of plan.inputs) out.set(i.name, { name: i.name, what: "input", line: i.line });
  const walk = (ss: readonly StmtPlan[]): void => {
    for (const s of ss) {
      for (const name of bound(s)) {
        if (!out.has(name)) out.set(name, { name, what: "variable", line: s.line });
      }
      for (const inner of innerLists(s)) walk(inner);
    }
  };
  walk(plan.blocks.flow);
  if (plan.blocks.failure !== null) walk(plan.blocks.failure);
  if (plan.blocks.cancel !== null) walk(plan.blocks.cancel);
  return [...out.values()];
}

/** The names whose spelling `identifier` does not take, refused with `why`. */
export function unspellable(spelled: readonly Spelled[], identifier: RegExp, why: Text): Refused[] {
  const out = new Map<string, Refused>();
  for (const s of spelled) {
    if (!identifier.test(s.spelling)) {
      out.set(`${s.what}\u0000${s.name}`, { name: s.name, what: s.what, line: s.line, why });
    }
  }
  return [...out.values()];
}

/**
 * E006 for every pair of names one scope spells alike (the later one reported, naming the earlier),
 * and for every name the host refuses; `target` names the target in the messages.
 */
export function namingCheck(
  target: string,
  spelled: readonly Spelled[],
  refused: readonly Refused[],
  origin: FlowOrigin,
): readonly Diagnostic[] {
  const r = new Reporter<DandoriCode>(origin.path, origin.text);
  for (const x of [...refused].sort((p, q) => p.line - q.line)) {
    const what = WHAT[x.what];
    r.error(
      "E006",
      { line: x.line, col: 1 },
      tr(
        `${target} cannot name ${what.en} ${x.name}: ${x.why.en}`,
        `${target} では${what.ja} ${x.name} の名前を書けません。${x.why.ja}`,
      ),
      { hint: tr("rename it", "名前を変えてください") },
    );
  }
  const first = new Map<string, Spelled>();
  const told = new Set<string>();
  for (const s of spelled) {
    const key = `${s.scope}\u0000${s.spelling}`;
    const met = first.get(key);
    if (met === undefined) {
      first.set(key, s);
      continue;
    }
    const pair = [met.what, met.name, s.what, s.name].join("\u0000");
    if ((met.name === s.name && met.what === s.what) || told.has(pair)) continue;
    told.add(pair);
    const a = WHAT[met.what];
    const b = WHAT[s.what];
    r.error(
      "E006",
      { line: s.line, col: 1 },
      tr(
        `${target} writes ${b.en} ${s.name} and ${a.en} ${met.name} (line ${met.line}) as one name, ${s.spelling}`,
        `${target} では${b.ja} ${s.name} と${a.ja} ${met.name}(${met.line} 行)が同じ名前 ${s.spelling} になります`,
      ),
      { hint: tr("rename one of the two", "どちらかの名前を変えてください") },
    );
  }
  return r.diagnostics;
}
