/**
 * Types of a flow's statements (docs/design/dandori.md#types): every variable's type from every value
 * put into it, every value checked against where it goes, calls against the task's parameters,
 * `succeed` against the outputs, `match` against what it splits. Reports E002, E003, E004, E006
 * and E008 (a case call written without its case).
 * @module
 */

import { lookup, unreachable } from "../common/assert.ts";
import { didYouMean } from "../common/nearest.ts";
import { hintOf, type Reporter } from "../common/reporter.ts";
import { type Text, tr } from "../common/text.ts";
import type { DandoriCode } from "./codes.ts";
import type {
  BodyAst,
  CallStmtAst,
  ExprAst,
  ForStmtAst,
  MatchStmtAst,
  PatternAst,
  Pos,
  StmtAst,
  Word,
} from "./ast.ts";
import { BUILTIN_ERRORS, type CaseDef, type FlowModel, type TaskDef } from "./model.ts";
import { dayNumber } from "./ranges.ts";
import { unreadBookCall } from "./tasks.ts";
import {
  assignable,
  BOOL,
  type FieldDef,
  fieldOf,
  INT,
  optional,
  sameTy,
  showTy,
  STRING,
  TIMESTAMP,
  type Ty,
} from "./types.ts";

/** Which block a statement is in: the body, `on failure` or `on cancel`. */
export type Block = "flow" | "failure" | "cancel";

/** Where a variable's value comes from. */
export type Source =
  | { readonly kind: "value"; readonly expr: ExprAst; readonly declared: Ty | null; readonly at: Pos }
  | { readonly kind: "call"; readonly stmt: CallStmtAst; readonly at: Pos }
  | { readonly kind: "element"; readonly list: ExprAst; readonly at: Pos }
  | { readonly kind: "some"; readonly subject: ExprAst; readonly at: Pos }
  | { readonly kind: "collect"; readonly loop: ForStmtAst; readonly at: Pos };

/** What a `match` splits. */
export type MatchKind =
  | { readonly kind: "case"; readonly case: CaseDef }
  | {
    readonly kind: "values";
    readonly values: readonly string[];
    readonly none: boolean;
  }
  | { readonly kind: "some"; readonly inner: Ty };

/** What typing found, for the checks after it. */
export interface Typed {
  readonly vars: ReadonlyMap<string, { readonly type: Ty | null; readonly sources: readonly Source[] }>;
  readonly calls: ReadonlyMap<CallStmtAst, TaskDef>;
  readonly matches: ReadonlyMap<MatchStmtAst, MatchKind>;
  /** The type of every value that typed. */
  readonly types: ReadonlyMap<ExprAst, Ty>;
}

/** What a value is given to, for messages. */
interface Target {
  readonly type: Ty;
  readonly what: Text;
}

class Typer {
  private readonly sources = new Map<string, Source[]>();
  private readonly varTypes = new Map<string, Ty | null>();
  private readonly computing = new Set<string>();
  readonly calls = new Map<CallStmtAst, TaskDef>();
  readonly matches = new Map<MatchStmtAst, MatchKind>();
  readonly types = new Map<ExprAst, Ty>();

  constructor(private readonly m: FlowModel, private readonly r: Reporter<DandoriCode>) {}

  run(): Typed {
    const bodies = [this.m.flow, this.m.onFailure, this.m.onCancel].filter((b): b is BodyAst => b !== null);
    for (const b of bodies) this.collect(b.body);
    for (const [name, ss] of this.sources) {
      const clash = this.m.inputs.some((i) => i.name === name)
        ? tr("an input", "入力")
        : this.m.cases.has(name)
        ? tr("a case", "案件")
        : null;
      if (clash !== null) {
        this.r.error(
          "E006",
          ss[0].at,
          tr(
            `\`${name}\` is ${clash.en}; a variable cannot take its name`,
            `\`${name}\` は${clash.ja}です。変数にその名前は使えません`,
          ),
          { hint: tr("give the variable another name", "変数に別の名前を付けてください") },
        );
      }
    }
    for (const name of this.sources.keys()) this.varType(name, true);
    for (const b of bodies) this.stmts(b.body);
    const vars = new Map(
      [...this.sources].map(([k, v]) => [k, { type: this.varTypes.get(k) ?? null, sources: v }]),
    );
    return { vars, calls: this.calls, matches: this.matches, types: this.types };
  }

  // -------------------------------------------------------------------------------------------
  // Variables (a name's type comes from every place that puts a value into it)

  private source(name: Word, s: Source): void {
    const list = this.sources.get(name.text) ?? [];
    list.push(s);
    this.sources.set(name.text, list);
  }

  private collect(ss: readonly StmtAst[]): void {
    for (const s of ss) {
      switch (s.kind) {
        case "let":
          this.source(s.name, {
            kind: "value",
            expr: s.value,
            declared: s.type === null ? null : this.m.typeOf(s.type, null),
            at: s,
          });
          break;
        case "call":
          if (s.bind?.kind === "let") this.source(s.bind.name, { kind: "call", stmt: s, at: s });
          for (const h of s.handlers) this.collect(h.body);
          break;
        case "match":
          for (const arm of s.arms) {
            for (const p of arm.patterns) {
              if (p.kind === "some") this.source(p.name, { kind: "some", subject: s.subject, at: p });
            }
            this.collect(arm.body);
          }
          break;
        case "for":
          this.source(s.variable, { kind: "element", list: s.list, at: s });
          if (s.bind !== null) this.source(s.bind, { kind: "collect", loop: s, at: s });
          this.collect(s.body);
          break;
        case "repeat":
          this.collect(s.body);
          break;
        case "wait":
        case "yield":
        case "break":
        case "succeed":
        case "fail":
        case "pass":
        case "elided":
          break;
        default:
          unreachable(s, "statement");
      }
    }
  }

  private varType(name: string, report: boolean): Ty | null {
    if (this.varTypes.has(name)) return lookup(this.varTypes, name, "variable's type");
    if (this.computing.has(name)) return null;
    this.computing.add(name);
    const ss = this.sources.get(name) ?? [];
    const declared = ss.flatMap((s) =>
      s.kind === "value" && s.declared !== null ? [{ s, t: s.declared }] : []
    );
    let result: Ty | null = null;
    if (declared.length > 0) {
      result = declared[0].t;
      for (const d of declared.slice(1)) {
        if (!sameTy(d.t, result) && report) this.conflict(name, d.s.at, d.t, result, declared[0].s.at);
      }
    } else {
      let none = false;
      let first: { t: Ty; at: Pos } | null = null;
      let bad = false;
      for (const s of ss) {
        const t = this.sourceType(s);
        if (t === "none") {
          none = true;
          continue;
        }
        if (t === null) continue;
        if (first === null) {
          first = { t, at: s.at };
          continue;
        }
        const a = t.kind === "optional" ? t.inner : t;
        const b = first.t.kind === "optional" ? first.t.inner : first.t;
        if (!sameTy(a, b)) {
          if (report) this.conflict(name, s.at, t, first.t, first.at);
          bad = true;
          break;
        }
        if (t.kind === "optional") first = { t, at: first.at };
      }
      if (!bad && first !== null) result = none ? optional(first.t) : first.t;
      if (!bad && first === null && none && report) {
        this.r.error(
          "E003",
          ss[0].at,
          tr(
            `the type of \`${name}\` is not known: it is only given \`none\``,
            `\`${name}\` の型が分かりません。\`none\` しか入れていません`,
          ),
          {
            hint: tr(
              `write its type: \`let ${name}: T? = none\``,
              `型を書いてください: \`let ${name}: T? = none\``,
            ),
          },
        );
      }
    }
    this.computing.delete(name);
    this.varTypes.set(name, result);
    return result;
  }

  private conflict(name: string, at: Pos, t: Ty, other: Ty, otherAt: Pos): void {
    this.r.error(
      "E003",
      at,
      tr(
        `\`${name}\` is given a \`${showTy(t)}\` here and a \`${
          showTy(other)
        }\` on line ${otherAt.line}; a variable has one type`,
        `\`${name}\` には、ここで \`${showTy(t)}\` を、${otherAt.line} 行で \`${
          showTy(other)
        }\` を入れています。変数の型は一つです`,
      ),
      { hint: tr("use two variables", "変数を二つに分けてください") },
    );
  }

  /** The type a source gives, `"none"` for a bare `none`, null when unknown (reported elsewhere). */
  private sourceType(s: Source): Ty | "none" | null {
    switch (s.kind) {
      case "value":
        if (s.expr.kind === "none") return "none";
        if (s.expr.kind === "record" || (s.expr.kind === "list" && s.expr.items.length === 0)) return null;
        return this.expr(s.expr, null, null);
      case "call": {
        const t = this.taskOf(s.stmt, null);
        const declared = s.stmt.bind?.kind === "let" && s.stmt.bind.type !== null
          ? this.m.typeOf(s.stmt.bind.type, null)
          : null;
        return declared ?? t?.result?.type ?? null;
      }
      case "element": {
        const t = this.expr(s.list, null, null);
        return t?.kind === "list" ? t.element : null;
      }
      case "some": {
        const t = this.expr(s.subject, null, null);
        return t?.kind === "optional" ? t.inner : null;
      }
      case "collect": {
        const last = s.loop.body[s.loop.body.length - 1];
        if (last?.kind !== "yield") return null;
        const t = this.expr(last.value, null, null);
        return t === null ? null : { kind: "list", element: t };
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // Statements

  private stmts(ss: readonly StmtAst[]): void {
    for (const s of ss) this.stmt(s);
  }

  private stmt(s: StmtAst): void {
    switch (s.kind) {
      case "let": {
        const declared = s.type === null ? null : this.m.typeOf(s.type, this.r);
        const target = this.varTypes.get(s.name.text) ?? declared;
        if (s.value.kind === "record" && target === null && declared === null) {
          this.r.error(
            "E003",
            s.value,
            tr("the type of `{…}` is not known here", "ここでは `{…}` の型が分かりません"),
            {
              hint: tr(
                `write it: \`let ${s.name.text}: T = {…}\``,
                `型を書いてください: \`let ${s.name.text}: T = {…}\``,
              ),
            },
          );
          return;
        }
        if (target === null) {
          // A bare `none` with no type is said once, by the variable's type (above).
          if (s.value.kind !== "none") this.expr(s.value, null, this.r);
          return;
        }
        this.give(s.value, {
          type: target,
          what: tr(`the variable \`${s.name.text}\``, `変数 \`${s.name.text}\``),
        });
        return;
      }
      case "call":
        this.call(s);
        return;
      case "match":
        this.match(s);
        return;
      case "wait":
        if (s.until !== null) {
          this.give(s.until, { type: TIMESTAMP, what: tr("`wait until`", "`wait until`") });
        }
        return;
      case "repeat":
        this.stmts(s.body);
        return;
      case "for": {
        const t = this.expr(s.list, null, this.r);
        if (t !== null && t.kind !== "list") {
          this.r.error(
            "E003",
            s.list,
            tr(
              `\`for\` goes over a list, and this is \`${showTy(t)}\``,
              `\`for\` が回るのはリストですが、これは \`${showTy(t)}\` です`,
            ),
          );
        }
        this.stmts(s.body);
        return;
      }
      case "yield":
        this.expr(s.value, null, this.r);
        return;
      case "succeed":
        this.succeed(s);
        return;
      case "fail":
        if (s.reason !== null) this.expr(s.reason, STRING, this.r);
        for (const c of s.leaving) {
          if (!this.m.cases.has(c.text)) {
            this.r.error(
              "E002",
              c,
              tr(`there is no case \`${c.text}\` to leave`, `引き渡す案件 \`${c.text}\` はありません`),
              hintOf(didYouMean(c.text, this.m.cases.keys())),
            );
          }
        }
        return;
      case "break":
      case "pass":
      case "elided":
        return;
      default:
        return unreachable(s, "statement");
    }
  }

  private succeed(s: Extract<StmtAst, { kind: "succeed" }>): void {
    const given = new Set<string>();
    for (const o of s.outputs) {
      const out = this.m.outputs.find((x) => x.name === o.name.text);
      if (out === undefined) {
        this.r.error(
          "E004",
          o.name,
          tr(
            `the workflow has no output \`${o.name.text}\``,
            `ワークフローに出力 \`${o.name.text}\` はありません`,
          ),
          hintOf(didYouMean(o.name.text, this.m.outputs.map((x) => x.name))),
        );
        continue;
      }
      if (given.has(o.name.text)) {
        this.r.error(
          "E004",
          o.name,
          tr(`the output \`${o.name.text}\` is given twice`, `出力 \`${o.name.text}\` を二度書いています`),
        );
        continue;
      }
      given.add(o.name.text);
      this.give(o.value, { type: out.type, what: tr(`the output \`${out.name}\``, `出力 \`${out.name}\``) });
    }
    const missing = this.m.outputs.filter((o) => o.type.kind !== "optional" && !given.has(o.name));
    if (missing.length > 0) {
      this.r.error(
        "E004",
        s,
        tr(
          `\`succeed\` does not give the output${missing.length > 1 ? "s" : ""} ${
            missing.map((o) => `\`${o.name}\``).join(", ")
          }`,
          `\`succeed\` に出力 ${missing.map((o) => `\`${o.name}\``).join("、")} がありません`,
        ),
        {
          hint: tr(
            "every output that is not `T?` is given when the workflow succeeds",
            "`T?` でない出力は、成功で終わるときにどれも書きます",
          ),
        },
      );
    }
  }

  /** The task a call names, or null (E002 reported when `report`). */
  private taskOf(s: CallStmtAst, report: Reporter<DandoriCode> | null): TaskDef | null {
    const name = s.call.callee.map((w) => w.text).join(".");
    const t = s.call.callee.length === 1 ? this.m.tasks.get(name) : undefined;
    if (t === undefined) {
      report?.error("E002", s.call, tr(`there is no task \`${name}\``, `タスク \`${name}\` はありません`), {
        hint: didYouMean(name, this.m.tasks.keys()) ??
          tr("declare it with `task`", "`task` で宣言してください"),
      });
      return null;
    }
    return t;
  }

  private call(s: CallStmtAst): void {
    const t = this.taskOf(s, this.r);
    for (const h of s.handlers) this.stmts(h.body);
    if (t === null) return;
    this.calls.set(s, t);
    const given = new Set<string>();
    for (const a of s.call.args) {
      if (a.kind !== "arg") continue;
      const p = t.params.find((x) => x.name === a.name.text);
      if (p === undefined) {
        this.r.error(
          "E004",
          a.name,
          tr(
            `\`${t.name}\` takes no argument \`${a.name.text}\``,
            `\`${t.name}\` は引数 \`${a.name.text}\` を取りません`,
          ),
          {
            notes: [
              tr(
                `its arguments: ${t.params.map((x) => x.name).join(", ") || "none"}`,
                `引数は ${t.params.map((x) => x.name).join("、") || "ありません"}`,
              ),
            ],
            ...hintOf(didYouMean(a.name.text, t.params.map((x) => x.name))),
          },
        );
        continue;
      }
      if (given.has(p.name)) {
        this.r.error(
          "E004",
          a.name,
          tr(`the argument \`${p.name}\` is given twice`, `引数 \`${p.name}\` を二度書いています`),
        );
        continue;
      }
      given.add(p.name);
      this.give(a.value, {
        type: p.type,
        what: tr(`the argument \`${p.name}\` of \`${t.name}\``, `\`${t.name}\` の引数 \`${p.name}\``),
      });
    }
    const elided = s.call.args.some((a) => a.kind === "elided");
    const missing = t.params.filter((p) => p.type.kind !== "optional" && !given.has(p.name));
    if (missing.length > 0 && !elided) {
      this.r.error(
        "E004",
        s.call,
        tr(
          `\`${t.name}\` needs the argument${missing.length > 1 ? "s" : ""} ${
            missing.map((p) => `\`${p.name}\``).join(", ")
          }`,
          `\`${t.name}\` には引数 ${missing.map((p) => `\`${p.name}\``).join("、")} が要ります`,
        ),
      );
    }
    for (const h of s.handlers) {
      for (const e of h.errors) {
        if (t.errors.has(e.text) || BUILTIN_ERRORS.includes(e.text)) continue;
        this.r.error(
          "E002",
          e,
          tr(
            `\`${t.name}\` declares no error \`${e.text}\``,
            `\`${t.name}\` はエラー \`${e.text}\` を宣言していません`,
          ),
          {
            hint: didYouMean(e.text, [...t.errors.keys(), ...BUILTIN_ERRORS]) ?? tr(
              `declare it under the task with \`errors ${e.text}\`, or handle failure or timeout`,
              `タスクの下に \`errors ${e.text}\` と書くか、failure か timeout を処理してください`,
            ),
          },
        );
      }
    }
    this.bind(s, t);
  }

  private bind(s: CallStmtAst, t: TaskDef): void {
    // What a book task that could not be read does to a case is not known: its diagnostic is said.
    if (unreadBookCall(t)) return;
    const acts = t.book !== null && t.book.op !== "do";
    if (s.bind?.kind === "case") {
      const c = this.m.cases.get(s.bind.name.text);
      if (c === undefined) {
        this.r.error(
          "E002",
          s.bind.name,
          tr(`there is no case \`${s.bind.name.text}\``, `案件 \`${s.bind.name.text}\` はありません`),
          {
            hint: didYouMean(s.bind.name.text, this.m.cases.keys()) ??
              tr("declare it with `case`", "`case` で宣言してください"),
          },
        );
        return;
      }
      if (!acts || t.book!.transfer.machine !== c.machine) {
        this.r.error(
          "E008",
          s,
          tr(
            `\`${t.name}\` does nothing to the case \`${c.name}\`, which follows \`${c.machine.name}\``,
            `\`${t.name}\` は、\`${c.machine.name}\` に従う案件 \`${c.name}\` に何もしません`,
          ),
          {
            hint: tr(
              `call a task of \`book ${c.machine.name}.hold|post|void\` with \`${c.name} <- …\``,
              `\`${c.name} <- …\` で呼ぶのは \`book ${c.machine.name}.hold|post|void\` のタスクです`,
            ),
          },
        );
      }
      return;
    }
    if (acts) {
      this.r.error(
        "E008",
        s,
        tr(
          `\`${t.name}\` acts on a hold, so it is called on its case: \`<case> <- ${t.name}(…)\``,
          `\`${t.name}\` は仮押さえに何かするので、案件に対して呼びます: \`<案件> <- ${t.name}(…)\``,
        ),
      );
      return;
    }
    if (s.bind?.kind === "let" && t.result === null) {
      this.r.error(
        "E003",
        s.bind.name,
        tr(
          `\`${t.name}\` returns nothing, so nothing goes into \`${s.bind.name.text}\``,
          `\`${t.name}\` は何も返さないので、\`${s.bind.name.text}\` に入れるものがありません`,
        ),
        {
          hint: tr(
            `call it without \`let\`, or give the task a result: \`-> T\``,
            `\`let\` なしで呼ぶか、タスクに結果 \`-> T\` を書いてください`,
          ),
        },
      );
    }
    if (s.bind?.kind === "let" && s.bind.type !== null && t.result !== null) {
      const declared = this.m.typeOf(s.bind.type, this.r);
      if (declared !== null && !assignable(t.result.type, declared)) {
        this.mismatch(s.bind.name, t.result.type, {
          type: declared,
          what: tr(`the variable \`${s.bind.name.text}\``, `変数 \`${s.bind.name.text}\``),
        }, tr(`\`${t.name}\``, `\`${t.name}\``));
      }
    }
  }

  private match(s: MatchStmtAst): void {
    for (const arm of s.arms) this.stmts(arm.body);
    const c = this.caseState(s.subject);
    if (c !== null) {
      this.matches.set(s, { kind: "case", case: c });
      for (const arm of s.arms) {
        for (const p of arm.patterns) {
          if (p.kind === "none" || p.kind === "elided") continue;
          if (p.kind === "value" && c.machine.states.includes(p.name.text)) continue;
          this.badPattern(
            p,
            tr(
              `\`${patternText(p)}\` is not a state of \`${c.machine.name}\``,
              `\`${patternText(p)}\` は \`${c.machine.name}\` の状態ではありません`,
            ),
            tr(
              `its states: ${c.machine.states.join(", ")}, and none before it starts`,
              `状態は ${c.machine.states.join("、")} と、始まる前の none です`,
            ),
            didYouMean(patternText(p), c.machine.states),
          );
        }
      }
      return;
    }
    const t = this.expr(s.subject, null, this.r);
    if (t === null) return;
    const subject = exprText(s.subject);
    const opt = t.kind === "optional";
    const inner = opt ? t.inner : t;
    let kind: MatchKind;
    if (inner.kind === "bool") kind = { kind: "values", values: ["true", "false"], none: opt };
    else if (inner.kind === "enum") {
      kind = {
        kind: "values",
        values: this.m.types.enums.get(inner.name)?.values ?? [],
        none: opt,
      };
    } else if (opt) kind = { kind: "some", inner };
    else {
      this.r.error(
        "E003",
        s.subject,
        tr(
          `\`match\` splits an enum, a bool or an optional value, and \`${subject}\` is \`${showTy(t)}\``,
          `\`match\` で分けられるのは列挙・bool・オプショナルな値で、\`${subject}\` は \`${showTy(t)}\` です`,
        ),
        {
          hint: tr(
            "decide it in a rule or a task, and match what it answers (P1)",
            "規則かタスクで判断し、その答えを `match` してください(P1)",
          ),
        },
      );
      return;
    }
    this.matches.set(s, kind);
    for (const arm of s.arms) {
      for (const p of arm.patterns) {
        if (p.kind === "elided") continue;
        if (p.kind === "none") {
          if (!opt) {
            this.badPattern(
              p,
              tr(
                `\`${subject}\` is never none: it is \`${showTy(t)}\``,
                `\`${subject}\` は \`${showTy(t)}\` で、none になりません`,
              ),
              null,
            );
          }
          continue;
        }
        if (kind.kind === "some") {
          if (p.kind !== "some") {
            this.badPattern(
              p,
              tr(
                `\`${subject}\` is \`${showTy(t)}\`: split it with \`none\` and \`some <name>\``,
                `\`${subject}\` は \`${showTy(t)}\` です。\`none\` と \`some <名前>\` で分けてください`,
              ),
              null,
            );
          }
          continue;
        }
        if (kind.kind !== "values") continue;
        const text = patternText(p);
        if (p.kind === "some") {
          this.badPattern(
            p,
            tr(
              `\`${subject}\` is split by its values, not with \`some\``,
              `\`${subject}\` は値で分け、\`some\` は使いません`,
            ),
            tr(`its values: ${kind.values.join(", ")}`, `値は ${kind.values.join("、")} です`),
          );
        } else if (!kind.values.includes(text) || (inner.kind === "enum" && p.kind === "bool")) {
          this.r.error(
            "E002",
            p,
            tr(
              `\`${text}\` is not a value of \`${showTy(inner)}\``,
              `\`${text}\` は \`${showTy(inner)}\` の値ではありません`,
            ),
            {
              notes: [tr(`its values: ${kind.values.join(", ")}`, `値は ${kind.values.join("、")} です`)],
              ...hintOf(didYouMean(text, kind.values)),
            },
          );
        }
      }
    }
  }

  private badPattern(p: PatternAst, message: Text, note: Text | null, hint: Text | null = null): void {
    this.r.error("E003", p, message, { ...(note === null ? {} : { notes: [note] }), ...hintOf(hint) });
  }

  /** The case a `match <case>.state` reads, or null when the subject is something else. */
  private caseState(e: ExprAst): CaseDef | null {
    if (e.kind !== "path" || e.parts.length !== 2 || e.parts[1].text !== "state") return null;
    return this.m.cases.get(e.parts[0].text) ?? null;
  }

  // -------------------------------------------------------------------------------------------
  // Values

  /** Types `e` for a place of type `target.type` and says E003 when it cannot go there. */
  private give(e: ExprAst, target: Target): void {
    const t = this.expr(e, target.type, this.r);
    if (t === null) return;
    if (e.kind === "number" && isNumberPlace(target.type)) return;
    if (!assignable(t, target.type)) {
      this.mismatch(e, t, target, tr(`\`${exprText(e)}\``, `\`${exprText(e)}\``));
    }
  }

  private mismatch(at: Pos, t: Ty, target: Target, value: Text): void {
    const optionalToPlain = t.kind === "optional" && assignable(t.inner, target.type);
    this.r.error(
      "E003",
      at,
      tr(
        `${value.en} is \`${showTy(t)}\`, and ${target.what.en} takes \`${showTy(target.type)}\``,
        `${value.ja} は \`${showTy(t)}\` ですが、${target.what.ja} が受け取るのは \`${
          showTy(target.type)
        }\` です`,
      ),
      optionalToPlain
        ? {
          hint: tr(
            "split it with `match` first: `none => …` and `some v => …`",
            "先に `match` で `none => …` と `some v => …` に分けてください",
          ),
        }
        : {},
    );
  }

  /** The type of a value; `expected` decides `{…}`, `[]`, `none`, dates in strings and enum values. */
  expr(e: ExprAst, expected: Ty | null, r: Reporter<DandoriCode> | null): Ty | null {
    const t = this.exprInner(e, expected, r);
    if (t !== null && r !== null) this.types.set(e, t);
    return t;
  }

  private exprInner(e: ExprAst, expected: Ty | null, r: Reporter<DandoriCode> | null): Ty | null {
    const want = expected?.kind === "optional" ? expected.inner : expected;
    switch (e.kind) {
      case "elided":
        return null;
      case "number":
        if (!/^-?[0-9]+$/.test(e.text)) {
          r?.error(
            "E003",
            e,
            tr(
              `\`${e.text}\` is not a whole number; the numbers of a flow are integers`,
              `\`${e.text}\` は整数ではありません。フローの数は整数です`,
            ),
            {
              hint: tr("count it in a smaller unit", "小さい単位で数えてください"),
            },
          );
          return null;
        }
        return want?.kind === "num" ? want : INT;
      case "bool":
        return BOOL;
      case "now":
        return TIMESTAMP;
      case "none":
        if (expected?.kind === "optional" || expected?.kind === "json") return expected;
        r?.error(
          "E003",
          e,
          tr(
            "`none` is written only where an optional value (`T?`) is expected",
            "`none` を書けるのは、オプショナルな値(`T?`)のところだけです",
          ),
        );
        return null;
      case "string":
        return this.string(e, want, r);
      case "list":
        return this.list(e, want, r);
      case "record":
        return this.record(e, want, r);
      case "path":
        return this.path(e, want, r);
    }
  }

  private string(
    e: Extract<ExprAst, { kind: "string" }>,
    want: Ty | null,
    r: Reporter<DandoriCode> | null,
  ): Ty | null {
    for (const part of e.parts) {
      if (part.kind !== "hole") continue;
      const t = this.expr(part.value, null, r);
      if (t === null) continue;
      if (!["string", "int", "num", "bool", "enum", "timestamp", "date"].includes(t.kind)) {
        r?.error(
          "E003",
          part.value,
          tr(
            `\`${exprText(part.value)}\` is \`${showTy(t)}\`, which cannot be written into a string`,
            `\`${exprText(part.value)}\` は \`${showTy(t)}\` で、文字列に埋め込めません`,
          ),
          {
            hint: t.kind === "optional"
              ? tr("split it with `match` first", "先に `match` で分けてください")
              : tr(
                "a string embeds strings, numbers, bools, enums, timestamps and dates",
                "文字列に埋め込めるのは、文字列・数・bool・列挙・timestamp・date です",
              ),
          },
        );
      }
    }
    if ((want?.kind === "date" || want?.kind === "timestamp") && e.parts.every((p) => p.kind === "text")) {
      const text = e.parts.map((p) => p.kind === "text" ? p.text : "").join("");
      const ok = want.kind === "date" ? dayNumber(text) !== null : isTimestamp(text);
      if (!ok) {
        r?.error(
          "E003",
          e,
          want.kind === "date"
            ? tr(`"${text}" is not a date (\`YYYY-MM-DD\`)`, `"${text}" は日付(\`YYYY-MM-DD\`)ではありません`)
            : tr(
              `"${text}" is not a UTC time (\`2026-10-01T10:00:00Z\`)`,
              `"${text}" は UTC の時刻(\`2026-10-01T10:00:00Z\`)ではありません`,
            ),
        );
        return null;
      }
      return want;
    }
    return STRING;
  }

  private list(
    e: Extract<ExprAst, { kind: "list" }>,
    want: Ty | null,
    r: Reporter<DandoriCode> | null,
  ): Ty | null {
    if (want?.kind === "list") {
      for (const item of e.items) {
        this.give(item, { type: want.element, what: tr("an item of the list", "リストの項目") });
      }
      return want;
    }
    if (e.items.length === 0) {
      r?.error("E003", e, tr("the type of `[]` is not known here", "ここでは `[]` の型が分かりません"), {
        hint: tr(
          "write the variable's type: `let xs: list[T] = []`",
          "変数の型を書いてください: `let xs: list[T] = []`",
        ),
      });
      return null;
    }
    const first = this.expr(e.items[0], null, r);
    if (first === null) return null;
    if (first.kind === "list") {
      r?.error("E003", e, tr("a list of lists cannot be written", "リストのリストは書けません"));
      return null;
    }
    for (const item of e.items.slice(1)) {
      const t = this.expr(item, first, r);
      if (t !== null && !(item.kind === "number" && isNumberPlace(first)) && !sameTy(t, first)) {
        r?.error(
          "E003",
          item,
          tr(
            `the items of a list have one type: this is \`${showTy(t)}\`, the first is \`${showTy(first)}\``,
            `リストの項目の型は一つです。これは \`${showTy(t)}\` で、最初の項目は \`${showTy(first)}\` です`,
          ),
        );
      }
    }
    return { kind: "list", element: first };
  }

  private record(
    e: Extract<ExprAst, { kind: "record" }>,
    want: Ty | null,
    r: Reporter<DandoriCode> | null,
  ): Ty | null {
    if (want?.kind !== "record") {
      r?.error(
        "E003",
        e,
        want === null || want.kind === "json"
          ? tr("the type of `{…}` is not known here", "ここでは `{…}` の型が分かりません")
          : tr(
            `\`{…}\` is a record, and \`${showTy(want)}\` is expected here`,
            `\`{…}\` はレコードですが、ここに来るのは \`${showTy(want)}\` です`,
          ),
      );
      return null;
    }
    const def = this.m.types.records.get(want.name);
    if (def === undefined) return null;
    const given = new Set<string>();
    for (const f of e.fields) {
      const field = def.fields.find((x) => x.name === f.name.text);
      if (field === undefined) {
        r?.error(
          "E002",
          f.name,
          tr(
            `the record \`${def.name}\` has no field \`${f.name.text}\``,
            `レコード \`${def.name}\` にフィールド \`${f.name.text}\` はありません`,
          ),
          {
            notes: [
              tr(
                `its fields: ${def.fields.map((x) => x.name).join(", ")}`,
                `フィールドは ${def.fields.map((x) => x.name).join("、")} です`,
              ),
            ],
            ...hintOf(didYouMean(f.name.text, def.fields.map((x) => x.name))),
          },
        );
        continue;
      }
      given.add(field.name);
      if (r !== null) {
        this.give(f.value, {
          type: field.type,
          what: tr(
            `the field \`${field.name}\` of \`${def.name}\``,
            `\`${def.name}\` のフィールド \`${field.name}\``,
          ),
        });
      }
    }
    const missing = def.fields.filter((f) => f.type.kind !== "optional" && !given.has(f.name));
    if (missing.length > 0) {
      r?.error(
        "E004",
        e,
        tr(
          `the record \`${def.name}\` needs ${missing.map((f) => `\`${f.name}\``).join(", ")}`,
          `レコード \`${def.name}\` には ${missing.map((f) => `\`${f.name}\``).join("、")} が要ります`,
        ),
      );
    }
    return want;
  }

  private path(
    e: Extract<ExprAst, { kind: "path" }>,
    want: Ty | null,
    r: Reporter<DandoriCode> | null,
  ): Ty | null {
    const [head, ...fields] = e.parts;
    let t = this.nameType(head, want);
    if (t === undefined) {
      const enumHint = want?.kind === "enum" ? this.m.types.enums.get(want.name) : undefined;
      const known = [
        ...this.sources.keys(),
        ...this.m.inputs.map((i) => i.name),
        ...this.m.cases.keys(),
        ...(enumHint?.values ?? []),
      ];
      const slip = hintOf(didYouMean(head.text, known));
      r?.error(
        "E002",
        head,
        enumHint !== undefined && fields.length === 0
          ? tr(
            `\`${head.text}\` is neither a variable nor a value of \`${enumHint.name}\``,
            `\`${head.text}\` は変数でも \`${enumHint.name}\` の値でもありません`,
          )
          : tr(`there is no variable \`${head.text}\``, `変数 \`${head.text}\` はありません`),
        enumHint !== undefined
          ? {
            notes: [
              tr(
                `the values of \`${enumHint.name}\`: ${enumHint.values.join(", ")}`,
                `\`${enumHint.name}\` の値は ${enumHint.values.join("、")} です`,
              ),
            ],
            ...slip,
          }
          : slip,
      );
      return null;
    }
    if (t === null) return null;
    let written = head.text;
    for (const f of fields) {
      if (t.kind === "optional") {
        r?.error(
          "E003",
          f,
          tr(
            `\`${written}\` may be none, so \`${written}.${f.text}\` cannot be read`,
            `\`${written}\` は none のことがあるので、\`${written}.${f.text}\` は読めません`,
          ),
          {
            hint: tr(
              `split it with \`match ${written}\` first: \`none => …\`, \`some v => …\``,
              `先に \`match ${written}\` で \`none => …\` と \`some v => …\` に分けてください`,
            ),
          },
        );
        return null;
      }
      const field: FieldDef | null = fieldOf(this.m.types, t, f.text);
      if (field === null) {
        r?.error(
          "E002",
          f,
          t.kind === "record"
            ? tr(
              `\`${written}\` (\`${t.name}\`) has no field \`${f.text}\``,
              `\`${written}\`(\`${t.name}\`)にフィールド \`${f.text}\` はありません`,
            )
            : tr(
              `\`${written}\` is \`${showTy(t)}\` and has no fields`,
              `\`${written}\` は \`${showTy(t)}\` で、フィールドがありません`,
            ),
          t.kind === "record"
            ? hintOf(didYouMean(f.text, this.m.types.records.get(t.name)?.fields.map((x) => x.name) ?? []))
            : {},
        );
        return null;
      }
      t = field.type;
      written += `.${f.text}`;
    }
    return t;
  }

  /** The type of a name in a value: a variable, an input, a case, or an enum value the place expects. Undefined: no such name. */
  private nameType(w: Word, want: Ty | null): Ty | null | undefined {
    if (this.sources.has(w.text)) return this.varType(w.text, false);
    const input = this.m.inputs.find((i) => i.name === w.text);
    if (input !== undefined) return input.type;
    const c = this.m.cases.get(w.text);
    if (c !== undefined) return { kind: "record", name: c.record };
    if (want?.kind === "enum" && this.m.types.enums.get(want.name)?.values.includes(w.text)) return want;
    return undefined;
  }
}

/** A place a bare integer literal may go: `int`, a unit type, `json`, in `T?` too. */
function isNumberPlace(t: Ty): boolean {
  const base = t.kind === "optional" ? t.inner : t;
  return base.kind === "int" || base.kind === "num" || base.kind === "json";
}

/** An RFC 3339 time in UTC, the form Step Functions' Wait takes. */
function isTimestamp(text: string): boolean {
  const m = /^([0-9]{4}-[0-9]{2}-[0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?Z$/.exec(text);
  return m !== null && dayNumber(m[1]) !== null && Number(m[2]) < 24 && Number(m[3]) < 60 &&
    Number(m[4]) < 60;
}

/** How a value reads in a message: as written. */
export function exprText(e: ExprAst): string {
  switch (e.kind) {
    case "path":
      return e.parts.map((p) => p.text).join(".");
    case "number":
      return e.text;
    case "bool":
      return String(e.value);
    case "none":
    case "now":
      return e.kind;
    case "string":
      return `"${e.parts.map((p) => p.kind === "text" ? p.text : `{${exprText(p.value)}}`).join("")}"`;
    case "record":
      return `{${e.fields.map((f) => `${f.name.text}: ${exprText(f.value)}`).join(", ")}}`;
    case "list":
      return `[${e.items.map(exprText).join(", ")}]`;
    case "elided":
      return "…";
  }
}

/** How a pattern reads: `held`, `true`, `none`, `some x`. */
export function patternText(p: PatternAst): string {
  switch (p.kind) {
    case "value":
      return p.name.text;
    case "bool":
      return String(p.value);
    case "none":
      return "none";
    case "some":
      return `some ${p.name.text}`;
    case "elided":
      return "…";
  }
}

/** Types the statements of a resolved flow. */
export function typeFlow(m: FlowModel, r: Reporter<DandoriCode>): Typed {
  return new Typer(m, r).run();
}
