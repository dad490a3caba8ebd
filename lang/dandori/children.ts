/**
 * Child flows (docs/design/dandori.md#child-flows): a `flow "<path>"` task runs another `.flow`, which is
 * checked on its own, and the task must fit it (E015): its arguments are the child's inputs, its result's
 * fields the child's outputs, its errors the child's `fail` names. Types compare by shape, since
 * the two files declare their own records and enums; ranges compare in the direction values go.
 * @module
 */

import type { Reporter } from "../common/reporter.ts";
import { type Text, tr } from "../common/text.ts";
import type { DandoriCode } from "./codes.ts";
import type { StmtAst } from "./ast.ts";
import type { CheckEnv, CheckFlow, ChildScope, FileBytes, FlowCheck } from "./env.ts";
import { MAX_CHILD_FLOWS } from "./limits.ts";
import type { CheckedFlow } from "./checked.ts";
import type { FlowModel, TaskDef } from "./model.ts";
import { rangeText } from "./ranges.ts";
import { besideFlow } from "./resolve.ts";
import { type FieldDef, type Range, showTy, type Ty, type TypeTable } from "./types.ts";
import { sameUnit } from "./units.ts";

/** Why a value of `from` (in `ft`) cannot go where `to` (in `tt`) is, or null when it can. */
function shapeMismatch(from: Ty, ft: TypeTable, to: Ty, tt: TypeTable, seen: Set<string>): Text | null {
  if (to.kind === "json") return null;
  if (to.kind === "optional") {
    return shapeMismatch(from.kind === "optional" ? from.inner : from, ft, to.inner, tt, seen);
  }
  if (from.kind === "optional") {
    return tr(
      "an optional value goes only where an optional value is taken",
      "オプショナルな値は、オプショナルな値を受け取るところにしか渡せません",
    );
  }
  if (from.kind === "list" && to.kind === "list") {
    return shapeMismatch(from.element, ft, to.element, tt, seen);
  }
  if (from.kind === "num" && to.kind === "num") {
    return sameUnit(from.unit, to.unit) ? null : tr(
      `\`${from.unit.spelling}\` is not \`${to.unit.spelling}\``,
      `\`${from.unit.spelling}\` と \`${to.unit.spelling}\` は違う単位です`,
    );
  }
  if (from.kind === "enum" && to.kind === "enum") {
    const taken = tt.enums.get(to.name)?.values ?? [];
    const extra = (ft.enums.get(from.name)?.values ?? []).filter((v) => !taken.includes(v));
    return extra.length === 0 ? null : tr(
      `the receiving \`${to.name}\` has no value ${extra.join(", ")}`,
      `受け取る側の \`${to.name}\` に値 ${extra.join("、")} がありません`,
    );
  }
  if (from.kind === "record" && to.kind === "record") {
    const pair = `${from.name}→${to.name}`;
    if (seen.has(pair)) return null;
    seen.add(pair);
    const fromFields = ft.records.get(from.name)?.fields ?? [];
    for (const f of tt.records.get(to.name)?.fields ?? []) {
      const g = fromFields.find((x) => x.name === f.name);
      if (g === undefined) {
        if (f.type.kind === "optional") continue;
        return tr(
          `\`${from.name}\` has no field \`${f.name}\`, which \`${to.name}\` needs`,
          `\`${from.name}\` には、\`${to.name}\` が要るフィールド \`${f.name}\` がありません`,
        );
      }
      const why = shapeMismatch(g.type, ft, f.type, tt, seen);
      if (why !== null) {
        return tr(`the field \`${f.name}\`: ${why.en}`, `フィールド \`${f.name}\`: ${why.ja}`);
      }
    }
    return null;
  }
  if (from.kind === to.kind && !["num", "enum", "record", "list"].includes(from.kind)) return null;
  return tr(
    `\`${showTy(from)}\` is not \`${showTy(to)}\``,
    `\`${showTy(from)}\` と \`${showTy(to)}\` は違う型です`,
  );
}

/** Why values in `from` may fall outside `to`, or null when they cannot. */
function rangeMismatch(from: Range | null, to: Range | null): Text | null {
  if (to === null) return null;
  if (from === null) {
    return tr(
      `it has no range, and the receiving side takes \`${rangeText(to)}\``,
      `範囲が無く、受け取る側は \`${rangeText(to)}\` です`,
    );
  }
  const below = to.lo !== null && (from.lo === null || from.lo < to.lo);
  const above = to.hi !== null && (from.hi === null || from.hi > to.hi);
  return below || above
    ? tr(
      `\`${rangeText(from)}\` is not inside \`${rangeText(to)}\``,
      `\`${rangeText(from)}\` は \`${rangeText(to)}\` に収まりません`,
    )
    : null;
}

/** Every name the child may `fail` with. */
function failNames(child: FlowModel): Set<string> {
  const names = new Set<string>();
  const walk = (ss: readonly StmtAst[]) => {
    for (const s of ss) {
      if (s.kind === "fail") names.add(s.error.text);
      if (s.kind === "call") { for (const h of s.handlers) walk(h.body); }
      if (s.kind === "match") { for (const a of s.arms) walk(a.body); }
      if (s.kind === "repeat" || s.kind === "for") walk(s.body);
    }
  };
  for (const b of [child.flow, child.onFailure, child.onCancel]) if (b !== null) walk(b.body);
  return names;
}

function fit(t: TaskDef, child: FlowModel, parent: FlowModel, r: Reporter<DandoriCode>): void {
  const bad = (at: { line: number; col: number }, message: Text, extra: { note?: Text; hint?: Text } = {}) =>
    r.error("E015", at, message, {
      ...(extra.note === undefined ? {} : { notes: [extra.note] }),
      ...(extra.hint === undefined ? {} : { hint: extra.hint }),
    });
  const childName = `\`${t.child!.path}\``;
  for (const p of t.params) {
    const input = child.inputs.find((i) => i.name === p.name);
    if (input === undefined) {
      bad(
        p,
        tr(
          `the child ${childName} has no input \`${p.name}\``,
          `子 ${childName} に入力 \`${p.name}\` はありません`,
        ),
        { note: inputsNote(child.inputs) },
      );
      continue;
    }
    const why = shapeMismatch(p.type, parent.types, input.type, child.types, new Set()) ??
      rangeMismatch(p.range, input.range);
    if (why !== null) {
      bad(
        p,
        tr(
          `the argument \`${p.name}\` does not fit the input \`${input.name}\` of ${childName}: ${why.en}`,
          `引数 \`${p.name}\` が ${childName} の入力 \`${input.name}\` に合いません。${why.ja}`,
        ),
      );
    }
  }
  for (const input of child.inputs) {
    if (input.type.kind === "optional" || t.params.some((p) => p.name === input.name)) continue;
    bad(
      t,
      tr(
        `\`${t.name}\` does not pass the input \`${input.name}\` that ${childName} needs`,
        `\`${t.name}\` は、${childName} が要る入力 \`${input.name}\` を渡しません`,
      ),
      {
        hint: tr(
          `add \`${input.name}: ${showTy(input.type)}\` to the task's arguments`,
          `タスクの引数に \`${input.name}: ${showTy(input.type)}\` を足してください`,
        ),
      },
    );
  }
  const result = t.result;
  if (result !== null && result.type.kind !== "json") {
    if (result.type.kind !== "record") {
      bad(
        t,
        tr(
          `a child flow answers with a record of its outputs, and \`${t.name}\` returns \`${
            showTy(result.type)
          }\``,
          `子のフローは出力のレコードで答えますが、\`${t.name}\` の結果は \`${showTy(result.type)}\` です`,
        ),
      );
    } else {
      for (const f of parent.types.records.get(result.type.name)?.fields ?? []) {
        const out = child.outputs.find((o) => o.name === f.name);
        if (out === undefined) {
          if (f.type.kind !== "optional") {
            bad(
              t,
              tr(
                `${childName} has no output \`${f.name}\` for the field \`${f.name}\` of \`${result.type.name}\``,
                `${childName} に、\`${result.type.name}\` のフィールド \`${f.name}\` になる出力 \`${f.name}\` がありません`,
              ),
              { note: outputsNote(child.outputs) },
            );
          }
          continue;
        }
        const why = shapeMismatch(out.type, child.types, f.type, parent.types, new Set()) ??
          rangeMismatch(out.range, f.range);
        if (why !== null) {
          bad(
            t,
            tr(
              `the output \`${out.name}\` of ${childName} does not fit the field \`${f.name}\` of \`${result.type.name}\`: ${why.en}`,
              `${childName} の出力 \`${out.name}\` が \`${result.type.name}\` のフィールド \`${f.name}\` に合いません。${why.ja}`,
            ),
          );
        }
      }
    }
  }
  const fails = failNames(child);
  for (const [name, at] of t.errors) {
    if (!fails.has(name)) {
      bad(
        at,
        tr(
          `${childName} never fails with \`${name}\``,
          `${childName} が \`${name}\` で失敗することはありません`,
        ),
        {
          note: tr(
            `it fails with ${[...fails].join(", ") || "no name of its own"}`,
            `子が失敗する名前は ${[...fails].join("、") || "ありません"}`,
          ),
        },
      );
    }
  }
}

function inputsNote(fields: readonly FieldDef[]): Text {
  return tr(
    `its inputs: ${fields.map((f) => f.name).join(", ") || "none"}`,
    `入力は ${fields.map((f) => f.name).join("、") || "ありません"}`,
  );
}

function outputsNote(fields: readonly FieldDef[]): Text {
  return tr(
    `its outputs: ${fields.map((f) => f.name).join(", ") || "none"}`,
    `出力は ${fields.map((f) => f.name).join("、") || "ありません"}`,
  );
}

/**
 * E015 for every `flow` task that does not fit its child, or whose child cannot be read or
 * checked; the checked child of every task whose child passes, by the task's name. Each child is
 * checked once in `scope`, by its real path, and at most `MAX_CHILD_FLOWS` of them.
 */
export function checkChildren(
  m: FlowModel,
  env: CheckEnv,
  scope: ChildScope,
  r: Reporter<DandoriCode>,
  check: CheckFlow,
): Map<string, CheckedFlow> {
  const children = new Map<string, CheckedFlow>();
  for (const t of m.tasks.values()) {
    if (t.child === null) continue;
    const path = besideFlow(m.file, t.child.path);
    const at = { line: t.child.line, col: t.child.col };
    const got = env.read(path);
    if (!("bytes" in got)) {
      r.error(
        "E015",
        at,
        tr(
          `the child flow "${t.child.path}" cannot be read: ${got.unreadable.en}`,
          `子のフロー "${t.child.path}" を読めません。${got.unreadable.ja}`,
        ),
        {
          notes: [
            tr(
              `looked for ${path}; the path is read from the directory of the .flow file`,
              `${path} を探しました。パスは .flow のあるディレクトリから読みます`,
            ),
          ],
        },
      );
      continue;
    }
    if (scope.chain.some((l) => l.real === got.real || l.path === path)) {
      const flows = [...scope.chain.map((l) => l.path), path].join(" → ");
      r.error(
        "E015",
        at,
        tr(
          `\`${t.name}\` runs ${path}, which is running already: a flow cannot run itself`,
          `\`${t.name}\` が走らせる ${path} はもう走っています。フローは自分自身を走らせられません`,
        ),
        {
          notes: [tr(`the flows: ${flows}`, `フローの並び: ${flows}`)],
          hint: tr(
            "loops are written with `repeat` or `for`, with a bound (P4)",
            "繰り返しは、上限を書いた `repeat` か `for` で書きます(P4)",
          ),
        },
      );
      continue;
    }
    const child = scope.checked.get(got.real) ?? checkChild(t.child, path, got, env, scope, r, check);
    if (child === null) continue;
    if (child.model === null) {
      const first = child.diagnostics.find((d) => d.severity === "error");
      r.error(
        "E015",
        at,
        tr(
          `the child flow "${t.child.path}" does not pass the check`,
          `子のフロー "${t.child.path}" は検査を通りません`,
        ),
        {
          notes: [
            ...(first === undefined ? [] : [
              tr(
                `${first.file}:${first.line}:${first.col}: ${first.code}: ${first.message.en}`,
                `${first.file}:${first.line}:${first.col}: ${first.code}: ${first.message.ja}`,
              ),
            ]),
            ...(scope.unchecked.size === 0 ? [] : [limitNote(scope)]),
          ],
          hint: tr(`run \`dandori check ${path}\``, `\`dandori check ${path}\` で確かめてください`),
        },
      );
      continue;
    }
    fit(t, child.model, m, r);
    if (child.checked !== null) children.set(t.name, child.checked);
  }
  return children;
}

/**
 * The check of a child read for the first time in `scope`, kept there by its real path; null (and
 * E015 at the task) when it is not UTF-8 text or `scope` holds `MAX_CHILD_FLOWS` children already.
 */
function checkChild(
  child: NonNullable<TaskDef["child"]>,
  path: string,
  got: FileBytes,
  env: CheckEnv,
  scope: ChildScope,
  r: Reporter<DandoriCode>,
  check: CheckFlow,
): FlowCheck | null {
  const at = { line: child.line, col: child.col };
  // The children read are those checked and those under way (the chain but the flow given).
  if (scope.checked.size + scope.chain.length - 1 >= MAX_CHILD_FLOWS) {
    scope.unchecked.add(got.real);
    r.error(
      "E015",
      at,
      tr(
        `the child flow "${child.path}" is not checked: this check has read ${MAX_CHILD_FLOWS} child flows, its limit (MAX_CHILD_FLOWS)`,
        `子のフロー "${child.path}" は検査しません。この検査は上限の ${MAX_CHILD_FLOWS} 個(MAX_CHILD_FLOWS)の子のフローを読みました`,
      ),
      {
        hint: tr(
          "a flow and the flows under it run at most that many different child flows; each is checked once, however many tasks run it",
          "一つのフローとその下のフローが走らせる子のフローは、その数までです。同じ子は、いくつのタスクが走らせても一度だけ検査します",
        ),
      },
    );
    return null;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(got.bytes);
  } catch {
    r.error(
      "E015",
      at,
      tr(
        `the child flow "${child.path}" is not UTF-8 text`,
        `子のフロー "${child.path}" は UTF-8 のテキストではありません`,
      ),
    );
    return null;
  }
  const checked = check(path, text, env, {
    chain: [...scope.chain, { path, real: got.real }],
    checked: scope.checked,
    unchecked: scope.unchecked,
  });
  scope.checked.set(got.real, checked);
  return checked;
}

/** Says that the check of a tree of flows stopped reading children at `MAX_CHILD_FLOWS`. */
function limitNote(scope: ChildScope): Text {
  const n = scope.unchecked.size;
  return tr(
    `this check read ${MAX_CHILD_FLOWS} child flows, its limit (MAX_CHILD_FLOWS), and left ${n} more unchecked`,
    `この検査は上限の ${MAX_CHILD_FLOWS} 個(MAX_CHILD_FLOWS)の子のフローを読み、ほかの ${n} 個は検査していません`,
  );
}
