/**
 * Checks along a typed flow that need no case states (docs/design/dandori.md#checks): statements
 * in the wrong place (E009), `match` arms missing or never taken (E010, E011), values that may
 * fall outside a range (E014) or whose range is not known (W104), and retries without a key of
 * calls that change outside data (E030, W030).
 * @module
 */

import { unreachable } from "../common/assert.ts";
import type { Reporter } from "../common/reporter.ts";
import { type Text, tr } from "../common/text.ts";
import type { DandoriCode } from "./codes.ts";
import type { CallStmtAst, ExprAst, ForStmtAst, MatchStmtAst, Pos, StmtAst } from "./ast.ts";
import type { FlowModel, TaskDef } from "./model.ts";
import {
  dayNumber,
  type Est,
  estLiteral,
  estOfRange,
  estOpen,
  estText,
  estUnion,
  fit,
  rangeText,
} from "./ranges.ts";
import { fieldOf, type Range, type Ty } from "./types.ts";
import { type Block, exprText, patternText, type Typed } from "./typing.ts";

/** Where a flow-level diagnostic points: the statement's line, column 1 (docs/design/dandori.md#checks). */
export function lineOf(at: Pos): { line: number; col: number } {
  return { line: at.line, col: 1 };
}

/** HTTP methods that change nothing on the server (RFC 9110 safe methods). */
export const SAFE_HTTP: readonly string[] = ["GET", "HEAD", "OPTIONS"];
/** HTTP methods that write (E030 when retried without a key). */
const WRITING_HTTP: readonly string[] = ["POST", "PUT", "PATCH", "DELETE"];
/** AWS operations that only read, by the start of their name. */
export const READING_AWS = /^(get|list|describe|query|scan|head|batchGet|select)/i;

interface Place {
  readonly inLoop: "none" | "sequential" | "parallel";
  readonly parallel: boolean;
  readonly block: Block;
}

class Lints {
  /** Variables given a value inside a parallel iteration, and outside any. */
  private readonly inside = new Map<string, Pos>();
  private readonly outside = new Map<string, Pos>();

  constructor(
    private readonly m: FlowModel,
    private readonly t: Typed,
    private readonly r: Reporter<DandoriCode>,
  ) {}

  run(): void {
    const bodies: [readonly StmtAst[] | undefined, Block][] = [
      [this.m.flow.body, "flow"],
      [this.m.onFailure?.body, "failure"],
      [this.m.onCancel?.body, "cancel"],
    ];
    for (const [body, block] of bodies) {
      if (body !== undefined) this.stmts(body, { inLoop: "none", parallel: false, block });
    }
    for (const [name, at] of this.inside) {
      const outside = this.outside.get(name);
      if (outside === undefined) continue;
      this.r.error(
        "E009",
        lineOf(at),
        tr(
          `\`${name}\` is given a value inside a parallel iteration and outside it (line ${outside.line})`,
          `\`${name}\` に、並列のイテレーションの中と外(${outside.line} 行)の両方で値を入れています`,
        ),
        {
          hint: tr(
            "each iteration has its own variables: use another name inside",
            "イテレーションは自分の変数を持ちます。中では別の名前にしてください",
          ),
        },
      );
    }
    for (const task of this.m.tasks.values()) this.retry(task);
  }

  private assigned(name: string, at: Pos, p: Place): void {
    const map = p.parallel ? this.inside : this.outside;
    if (!map.has(name)) map.set(name, at);
  }

  private stmts(ss: readonly StmtAst[], p: Place, collecting: ForStmtAst | null = null): void {
    ss.forEach((s, i) => this.stmt(s, p, collecting !== null && i === ss.length - 1 ? collecting : null));
  }

  private stmt(s: StmtAst, p: Place, lastOf: ForStmtAst | null): void {
    const misplaced = (why: Text, hint?: Text) =>
      this.r.error("E009", lineOf(s), why, hint === undefined ? {} : { hint });
    switch (s.kind) {
      case "let":
        this.assigned(s.name.text, s, p);
        this.give(
          s.value,
          null,
          tr(`the variable \`${s.name.text}\``, `変数 \`${s.name.text}\``),
          s,
          p.block,
        );
        return;
      case "call":
        this.call(s, p);
        return;
      case "match":
        this.match(s);
        for (const arm of s.arms) {
          for (const pat of arm.patterns) if (pat.kind === "some") this.assigned(pat.name.text, pat, p);
          this.stmts(arm.body, p);
        }
        return;
      case "repeat":
        this.stmts(s.body, { ...p, inLoop: "sequential" });
        return;
      case "for": {
        if (s.bind !== null) this.assigned(s.bind.text, s, p);
        const inner: Place = {
          ...p,
          inLoop: s.parallel === null ? "sequential" : "parallel",
          parallel: p.parallel || s.parallel !== null,
        };
        this.assigned(s.variable.text, s, inner);
        if (s.bind !== null && s.body[s.body.length - 1]?.kind !== "yield") {
          misplaced(
            tr(
              `the body of \`let ${s.bind.text} = for …\` does not end with \`yield <value>\``,
              `\`let ${s.bind.text} = for …\` の本体が \`yield <値>\` で終わっていません`,
            ),
            tr(
              "the list is what each iteration yields on its last line",
              "リストは、各イテレーションが最後の行で `yield` した値です",
            ),
          );
        }
        this.stmts(s.body, inner, s.bind === null ? null : s);
        return;
      }
      case "yield":
        if (lastOf === null) {
          misplaced(
            tr(
              "`yield` is written only as the last line of the body of `let r = for …`",
              "`yield` を書けるのは、`let r = for …` の本体の最後の行だけです",
            ),
          );
        }
        return;
      case "break":
        if (p.inLoop === "none") {
          misplaced(tr("`break` is outside any loop", "`break` がループの外にあります"));
        } else if (p.inLoop === "parallel") {
          misplaced(
            tr(
              "`break` cannot stop a parallel iteration: the others run on",
              "並列のイテレーションは `break` で止められません。ほかのイテレーションは回り続けます",
            ),
          );
        }
        return;
      case "succeed":
        if (p.block !== "flow") {
          misplaced(
            tr(
              `\`succeed\` cannot be written in \`on ${p.block}\`: the workflow ${
                p.block === "failure" ? "has failed" : "is being cancelled"
              }`,
              `\`on ${p.block}\` の中に \`succeed\` は書けません。ワークフローは${
                p.block === "failure" ? "失敗しています" : "キャンセルされています"
              }`,
            ),
            tr("end it with `fail`, or let the block end", "`fail` で終えるか、塊の終わりまで流してください"),
          );
        } else if (p.parallel) {
          misplaced(
            tr(
              "`succeed` cannot be written in a parallel iteration",
              "並列のイテレーションの中に `succeed` は書けません",
            ),
          );
        }
        for (const o of s.outputs) {
          this.give(
            o.value,
            this.m.outputs.find((x) => x.name === o.name.text)?.range ?? null,
            tr(`the output \`${o.name.text}\``, `出力 \`${o.name.text}\``),
            s,
            p.block,
          );
        }
        return;
      case "wait":
      case "fail":
      case "pass":
      case "elided":
        return;
      default:
        return unreachable(s, "statement");
    }
  }

  private call(s: CallStmtAst, p: Place): void {
    if (s.bind?.kind === "let") this.assigned(s.bind.name.text, s, p);
    const task = this.t.calls.get(s);
    if (p.parallel && s.bind?.kind === "case") {
      this.r.error(
        "E009",
        lineOf(s),
        tr(
          "a case cannot be moved in a parallel iteration",
          "並列のイテレーションの中では案件を動かせません",
        ),
        {
          hint: tr("move the case before or after the loop", "案件はループの前かあとで動かしてください"),
        },
      );
    }
    if (p.parallel && task?.event) {
      this.r.error(
        "E009",
        lineOf(s),
        tr(
          `\`${task.name}\` waits for an event, which a parallel iteration cannot: every iteration would wait for the same name`,
          `\`${task.name}\` はイベントを待ちますが、並列のイテレーションでは待てません。どのイテレーションも同じ名前を待つことになります`,
        ),
      );
    }
    const handled = new Map<string, number>();
    for (const h of s.handlers) {
      for (const e of h.errors) {
        const before = handled.get(e.text);
        if (before !== undefined) {
          this.r.error(
            "E011",
            lineOf(h),
            tr(
              `\`on ${e.text}\` never runs: the handler on line ${before} handles \`${e.text}\``,
              `\`on ${e.text}\` は動きません。${before} 行のハンドラーが \`${e.text}\` を処理します`,
            ),
          );
        } else handled.set(e.text, h.line);
      }
      this.stmts(h.body, p);
    }
    if (task === undefined) return;
    for (const a of s.call.args) {
      if (a.kind !== "arg") continue;
      const param = task.params.find((x) => x.name === a.name.text);
      if (param !== undefined) {
        this.give(
          a.value,
          param.range,
          tr(
            `the argument \`${param.name}\` of \`${task.name}\``,
            `\`${task.name}\` の引数 \`${param.name}\``,
          ),
          s,
          p.block,
        );
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // E010, E011 for matches over values (cases are split by their states in cases.ts)

  private match(s: MatchStmtAst): void {
    const kind = this.t.matches.get(s);
    if (kind === undefined || kind.kind === "case") return;
    const what = exprText(s.subject);
    const taken = new Set<string>();
    for (const arm of s.arms) {
      for (const pat of arm.patterns) {
        if (pat.kind === "elided") continue;
        const key = pat.kind === "some" ? "some" : patternText(pat);
        if (taken.has(key)) {
          this.r.error(
            "E011",
            lineOf(arm),
            tr(
              `the arm \`${patternText(pat)}\` is never taken: an earlier arm takes it`,
              `分岐 \`${patternText(pat)}\` は通りません。前の分岐が受けます`,
            ),
          );
        }
        taken.add(key);
      }
    }
    const missing = kind.kind === "values"
      ? [...(kind.none ? ["none"] : []), ...kind.values].filter((v) => !taken.has(v))
      : ["none", "some"].filter((v) => !taken.has(v));
    if (missing.length === 0) return;
    const words = missing.map((v) => v === "some" ? "some …" : v);
    this.r.error(
      "E010",
      lineOf(s),
      tr(
        `\`match\` has no arm for ${words.join(", ")}; here \`${what}\` can be ${
          missing.length === 1 ? "that value" : "those values"
        }`,
        `\`match\` に ${words.join("・")} の分岐がありません。ここで \`${what}\` はその値を取りえます`,
      ),
      {
        hint: tr(
          `add \`${words.join(", ")} => …\` (\`pass\` to do nothing)`,
          `\`${words.join(", ")} => …\` を足してください(何もしないなら \`pass\`)`,
        ),
      },
    );
  }

  // -------------------------------------------------------------------------------------------
  // E014, W104 (docs/design/dandori.md#ranges)

  /** Checks a value given to a place with `range`, and the fields of the records it writes. */
  private give(e: ExprAst, range: Range | null, place: Text, at: Pos, block: Block): void {
    this.range(e, range, place, at, block);
    if (e.kind === "list") { for (const item of e.items) this.give(item, null, place, at, block); }
    if (e.kind !== "record") return;
    const t = this.t.types.get(e);
    const def = t?.kind === "record" ? this.m.types.records.get(t.name) : undefined;
    if (def === undefined) return;
    for (const f of e.fields) {
      const field = def.fields.find((x) => x.name === f.name.text);
      if (field === undefined) continue;
      this.give(
        f.value,
        field.range,
        tr(
          `the field \`${field.name}\` of \`${def.name}\``,
          `\`${def.name}\` のフィールド \`${field.name}\``,
        ),
        at,
        block,
      );
    }
  }

  private range(e: ExprAst, range: Range | null, place: Text, at: Pos, block: Block): void {
    if (range === null) return;
    const est = this.est(e, range.kind, block, new Set());
    if (est === null) return;
    const verdict = fit(est, range);
    const value = exprText(e);
    const accepted = rangeText(range);
    if (verdict === "outside") {
      this.r.error(
        "E014",
        lineOf(at),
        est.literal !== null
          ? tr(
            `\`${est.literal}\` is outside the range \`${accepted}\` of ${place.en}`,
            `\`${est.literal}\` は ${place.ja} の範囲 \`${accepted}\` の外です`,
          )
          : tr(
            `\`${value}\` is \`${estText(est)}\` and can be outside the range \`${accepted}\` of ${place.en}`,
            `\`${value}\` は \`${
              estText(est)
            }\` で、${place.ja} の範囲 \`${accepted}\` を外れることがあります`,
          ),
        est.literal !== null ? {} : {
          hint: tr(
            "narrow the range where the value comes from, or split the variable: a variable's range is every value put into it",
            "値の出どころの範囲を狭めるか、変数を分けてください。変数の範囲は、入れるすべての値を合わせたものです",
          ),
        },
      );
    } else if (verdict === "unknown") {
      const why = est.open[0];
      this.r.warning(
        "W104",
        lineOf(at),
        tr(
          `the range of \`${value}\` is not known (${why.en}); ${place.en} takes \`${accepted}\``,
          `\`${value}\` の範囲が分かりません(${why.ja})。${place.ja} が受け取るのは \`${accepted}\` です`,
        ),
        {
          hint: tr(
            "write a range where the value comes from; it is checked there when the workflow runs",
            "値の出どころに範囲を書いてください。走らせたときに、そこで確かめます",
          ),
        },
      );
    }
  }

  /** What a value may be, for a place whose range is of `kind`; null when the value carries no such thing. */
  private est(e: ExprAst, kind: Range["kind"], block: Block, seen: Set<string>): Est | null {
    switch (e.kind) {
      case "number":
        return kind === "number" && /^-?[0-9]+$/.test(e.text)
          ? estLiteral("number", BigInt(e.text), e.text)
          : null;
      case "string": {
        if (kind === "number" || e.parts.some((p) => p.kind === "hole")) return null;
        const text = e.parts.map((p) => p.kind === "text" ? p.text : "").join("");
        const day = dayNumber(text.slice(0, 10));
        if (day === null) return null;
        if (kind === "date") return estLiteral("date", day, `"${text}"`);
        const [h, m, sec] = text.slice(11, 19).split(":").map(Number);
        return estLiteral("time", day * 86400n + BigInt(h * 3600 + m * 60 + sec), `"${text}"`);
      }
      case "now":
        if (kind !== "time") return null;
        if (block !== "flow") {
          return estOpen(
            "time",
            tr(
              "`now` in `on failure` and `on cancel` has no range",
              "`on failure` と `on cancel` の中の `now` に範囲がありません",
            ),
          );
        }
        return this.m.period === null
          ? estOpen(
            "time",
            tr(
              "the workflow has no `now range` under `workflow`",
              "`workflow` の下に `now range` がありません",
            ),
          )
          : estOfRange(this.m.period);
      case "list":
        return estUnion(e.items.flatMap((i) => this.est(i, kind, block, seen) ?? []));
      case "path":
        return this.pathEst(e, kind, block, seen);
      case "bool":
      case "none":
      case "record":
      case "elided":
        return null;
      default:
        return unreachable(e, "value");
    }
  }

  private pathEst(
    e: Extract<ExprAst, { kind: "path" }>,
    kind: Range["kind"],
    block: Block,
    seen: Set<string>,
  ): Est | null {
    const [head, ...fields] = e.parts;
    const input = this.m.inputs.find((i) => i.name === head.text);
    const variable = this.t.vars.get(head.text);
    if (fields.length > 0) {
      const c = this.m.cases.get(head.text);
      const start: Ty | null = input?.type ?? variable?.type ??
        (c === undefined ? null : { kind: "record", name: c.record });
      if (start === null) return null;
      let t: Ty = start;
      let last = null;
      for (const f of fields) {
        const base = t.kind === "optional" ? t.inner : t;
        last = fieldOf(this.m.types, base, f.text);
        if (last === null) return null;
        t = last.type;
      }
      if (last === null) return null;
      const owner = fields.length === 1
        ? (start.kind === "record" ? start.name : head.text)
        : fields[fields.length - 2].text;
      return last.range !== null && last.range.kind === kind ? estOfRange(last.range) : estOpen(
        kind,
        tr(
          `the field \`${last.name}\` of \`${owner}\` has no range`,
          `\`${owner}\` のフィールド \`${last.name}\` に範囲がありません`,
        ),
      );
    }
    if (input !== undefined) {
      return input.range !== null && input.range.kind === kind ? estOfRange(input.range) : estOpen(
        kind,
        tr(`the input \`${input.name}\` has no range`, `入力 \`${input.name}\` に範囲がありません`),
      );
    }
    if (variable === undefined || seen.has(head.text)) return null;
    seen.add(head.text);
    const parts: Est[] = [];
    for (const s of variable.sources) {
      let est: Est | null = null;
      switch (s.kind) {
        case "value":
        case "element":
        case "some":
          est = this.est(
            s.kind === "value" ? s.expr : s.kind === "element" ? s.list : s.subject,
            kind,
            block,
            seen,
          );
          break;
        case "call": {
          const task = this.t.calls.get(s.stmt);
          if (task?.result == null) break;
          est = task.result.range !== null && task.result.range.kind === kind
            ? estOfRange(task.result.range)
            : estOpen(
              kind,
              tr(`the result of \`${task.name}\` has no range`, `\`${task.name}\` の結果に範囲がありません`),
            );
          break;
        }
        case "collect": {
          const last = s.loop.body[s.loop.body.length - 1];
          if (last?.kind === "yield") est = this.est(last.value, kind, block, seen);
          break;
        }
        default:
          unreachable(s, "source");
      }
      if (est !== null) parts.push(est);
    }
    seen.delete(head.text);
    return estUnion(parts);
  }

  // -------------------------------------------------------------------------------------------
  // E030, W030

  private retry(t: TaskDef): void {
    // An agent changes no outside data (docs/dandori.md#agents): a retry of it needs no key.
    if (t.retry === null || t.key || t.idempotent || t.book !== null || t.event || t.method === "agent") {
      return;
    }
    if (t.method === "http" && t.verb !== null && SAFE_HTTP.includes(t.verb)) return;
    if (t.method === "aws" && t.verb !== null && READING_AWS.test(t.verb)) return;
    const at = { line: t.retry.line, col: t.retry.col };
    const surely = t.starts !== null || t.sends !== null ||
      (t.method === "http" && t.verb !== null && WRITING_HTTP.includes(t.verb));
    const fix = tr(
      "write `key` under the task so a second try is the same request, or `idempotent` when two calls do what one does",
      "二度目の試しが同じリクエストになるよう、タスクの下に `key` を書くか、二度呼んでも一度と同じなら `idempotent` と書いてください",
    );
    if (surely) {
      this.r.error(
        "E030",
        at,
        tr(
          `\`${t.name}\` changes outside data and is retried without a key: a try that timed out may have done it, and the next does it again`,
          `\`${t.name}\` は外部のデータを変えるのに、キーなしでリトライします。タイムアウトした試しが済ませていても、次の試しがもう一度します`,
        ),
        { hint: fix },
      );
    } else {
      this.r.warning(
        "W030",
        at,
        tr(
          `\`${t.name}\` may change outside data and is retried without a key`,
          `\`${t.name}\` は外部のデータを変えるかもしれないのに、キーなしでリトライします`,
        ),
        { hint: fix },
      );
    }
  }
}

/** The checks along a typed flow that need no case states: E009, E010, E011, E014, W104, E030, W030. */
export function checkAlongFlow(m: FlowModel, typed: Typed, r: Reporter<DandoriCode>): void {
  new Lints(m, typed, r).run();
}
