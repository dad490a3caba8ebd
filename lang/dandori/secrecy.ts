/**
 * Where a flow's secrets go, and how it calls URLs (docs/dandori.md#secrets-and-plain-http):
 *
 * | code | severity | what it sees                                              | how to say it is meant                |
 * | ---- | -------- | --------------------------------------------------------- | ------------------------------------- |
 * | E906 | error    | a secret sent to a party outside the project              | `discloses <argument>, … "<reason>"`  |
 * | W904 | warning  | a secret kept in a platform's history                     | `history encrypted` under `workflow`  |
 * | W902 | warning  | a task calling `http://` off this machine                 | `plaintext "<reason>"` under the task |
 *
 * Outside the project are the parties the flow names only by an address: a Lambda function, an
 * `http` URL that is not this machine, an AWS service. A book, a child flow and a task of the
 * user's own code are inside: their files are the project's. What a value carries is carried.ts's.
 * Every line these diagnostics quote is masked by the reporter, and every step they list here.
 * @module
 */

import { unreachable } from "../common/assert.ts";
import type { Reporter } from "../common/reporter.ts";
import { maskText } from "../common/secrets.ts";
import { type Text, tr } from "../common/text.ts";
import type { CallStmtAst, ExprAst, Pos, StmtAst } from "./ast.ts";
import {
  type Carried,
  joinSecrets,
  type Mark,
  markOn,
  secretName,
  secretsOfPlace,
  secretsOfResult,
  SecretValues,
  type Step,
} from "./carried.ts";
import type { DandoriCode } from "./codes.ts";
import { lineOf } from "./lints.ts";
import type { FlowModel, TaskDef } from "./model.ts";
import type { FieldDef } from "./types.ts";
import { exprText, type Typed } from "./typing.ts";
import { readUrl, type UrlTemplate } from "./urls.ts";

type Codes = "E906" | "W902" | "W904";

const HISTORY_NOTE = tr(
  "Temporal, Step Functions, Lambda durable functions and Argo Workflows keep the inputs and outputs of the workflow and of every call in the history, which whoever may read the executions can read",
  "Temporal・Step Functions・Lambda durable functions・Argo Workflows は、ワークフローとすべての呼び出しの入力と出力を履歴に残し、実行を読める人はだれでもそれを読めます",
);

const HISTORY_HINT = tr(
  "pass a reference instead (an ID, the name of a secret) and fetch the value inside the task; if the history is encrypted with a key you hold (Temporal: a payload codec; Step Functions and Lambda durable functions: a customer managed KMS key), write `history encrypted` under `workflow`",
  "代わりに参照(ID、シークレットの名前)を渡し、値はタスクの中で取ってきてください。履歴を自分の持つ鍵で暗号化しているなら(Temporal はペイロードのコーデック、Step Functions と Lambda durable functions はカスタマー管理の KMS キー)、`workflow` の下に `history encrypted` と書いてください",
);

/** Where a task sends to by a URL it writes: an `http` task's URL, or an agent's `url`; null for another task. */
function urlOf(t: TaskDef): TaskDef["url"] {
  return t.url ?? t.agent?.url ?? null;
}

/** The URL a task writes as the parser reads it; null for none, or a URL E007 refuses. */
function template(t: TaskDef): UrlTemplate | null {
  const url = urlOf(t);
  if (url === null) return null;
  const reading = readUrl(url.text, t.params.map((p) => p.name));
  return reading.ok ? reading.template : null;
}

/** Who a task sends its arguments to outside the project, or null when it sends them inside. */
function outsideParty(t: TaskDef): Text | null {
  switch (t.method) {
    case "lambda":
      return tr(`the Lambda function \`${t.callee}\``, `Lambda の関数 \`${t.callee}\``);
    case "aws":
      return tr(`AWS (\`${t.callee}\`)`, `AWS(\`${t.callee}\`)`);
    case "http": {
      const url = template(t);
      if (url === null || url.local) return null;
      return tr(`\`${url.origin}\``, `\`${url.origin}\``);
    }
    case "agent": {
      if (t.agent === null || t.agent.url === null) {
        return t.agent?.provider === "claude"
          ? tr("the model provider Anthropic (Claude)", "モデルのプロバイダー Anthropic(Claude)")
          : tr("the model provider OpenAI", "モデルのプロバイダー OpenAI");
      }
      const url = template(t);
      if (url === null || url.local) return null;
      return tr(`\`${url.origin}\``, `\`${url.origin}\``);
    }
    // A book, a child flow and the user's own code are the project's; an event sends nothing.
    case "book":
    case "flow":
    case "child":
    case "own":
    case "event":
      return null;
    case "connect":
      return tr(`the Connect service \`${t.callee}\``, `Connect のサービス \`${t.callee}\``);
    // This stops at E018 before a flow is checked this far (support.ts).
    case "jev":
      return null;
    default:
      return unreachable(t.method, "method");
  }
}

/** The notes that say where each mark of a secret is written. */
function markNotes(c: Carried): Text[] {
  return c.marks.map((m: Mark) =>
    tr(
      `the mark is \`secret\` on ${m.on.en}, line ${m.line}`,
      `印は ${m.line} 行の、${m.on.ja} の \`secret\` です`,
    )
  );
}

/**
 * The statements that carried a secret, then the one where it goes, one line each as the case
 * analysis prints its steps; none when the secret is read where it goes (the quoted line says it).
 */
function operations(c: Carried, last: Step | null): Text[] {
  if (c.steps.length === 0) return [];
  return [...c.steps, ...(last === null ? [] : [last])].map((s) => {
    const line = `${String(s.line).padStart(4)}  ${s.text}`;
    return tr(line, line);
  });
}

function named(c: Carried): string {
  return maskText(secretName(c));
}

class Secrecy {
  private readonly values: SecretValues;

  constructor(
    private readonly m: FlowModel,
    private readonly t: Typed,
    private readonly r: Reporter<Codes>,
  ) {
    this.values = new SecretValues(m, t);
  }

  run(): void {
    for (const task of this.m.tasks.values()) this.plainHttp(task);
    const kept = this.m.ast.workflows[0]?.historyEncrypted == null;
    if (kept) this.declarations();
    for (const body of [this.m.flow, this.m.onFailure, this.m.onCancel]) {
      if (body !== null) this.stmts(body.body, kept);
    }
  }

  // -------------------------------------------------------------------------------------------
  // W902

  private plainHttp(task: TaskDef): void {
    const at = urlOf(task);
    const url = template(task);
    if (at === null || url === null || url.protocol !== "http:" || url.local || task.plaintext) return;
    const origin = url.origin;
    this.r.warning(
      "W902",
      at,
      tr(
        `\`${task.name}\` calls \`${origin}\` in plain HTTP, off this machine: whoever is on the way can read what it sends and change what comes back`,
        `\`${task.name}\` は、このマシンの外の \`${origin}\` を暗号化しない HTTP で呼びます。途中のだれでも、送るものを読み、返るものを書き換えられます`,
      ),
      {
        notes: [
          tr(
            "Step Functions' HTTP Task calls HTTPS only, so a build for it stops at E050 whatever the flow says",
            "Step Functions の HTTP Task は HTTPS しか呼ばないので、そのビルドはフローに何を書いても E050 で止まります",
          ),
        ],
        hint: tr(
          'call `https://`; if plain HTTP is meant (a network you trust end to end), write `plaintext "<reason>"` under the task',
          '`https://` で呼んでください。暗号化しない HTTP を意図しているなら(端から端まで信頼できるネットワーク)、タスクの下に `plaintext "<理由>"` と書いてください',
        ),
      },
    );
  }

  // -------------------------------------------------------------------------------------------
  // W904 at declarations: inputs, outputs, and the results of the tasks the flow calls

  private declarations(): void {
    const ports: [readonly FieldDef[], Port][] = [[this.m.inputs, "input"], [this.m.outputs, "output"]];
    for (const [fields, port] of ports) {
      for (const f of fields) {
        for (const c of this.declared(f, port)) {
          this.kept({ line: f.line, col: 1 }, c, asPort(port, f.name), null);
        }
      }
    }
    const called = new Map<string, CallStmtAst>();
    for (const [s, task] of this.t.calls) if (!called.has(task.name)) called.set(task.name, s);
    for (const [name, s] of called) {
      const task = this.m.tasks.get(name);
      if (task?.result == null) continue;
      const bound = s.bind?.kind === "let" ? s.bind.name.text : `${name}(…)`;
      for (const c of secretsOfResult(this.m.types, name, task.result, bound)) {
        this.kept(
          { line: task.line, col: 1 },
          c,
          tr(`as the result of \`${name}\``, `\`${name}\` の結果として`),
          null,
        );
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // The statements: call arguments (E906, W904), `succeed` and `fail` (W904)

  private stmts(ss: readonly StmtAst[], kept: boolean): void {
    for (const s of ss) this.stmt(s, kept);
  }

  private stmt(s: StmtAst, kept: boolean): void {
    switch (s.kind) {
      case "call":
        this.call(s, kept);
        for (const h of s.handlers) this.stmts(h.body, kept);
        return;
      case "match":
        for (const arm of s.arms) this.stmts(arm.body, kept);
        return;
      case "repeat":
      case "for":
        this.stmts(s.body, kept);
        return;
      case "succeed":
        if (!kept) return;
        for (const o of s.outputs) {
          const out = this.m.outputs.find((x) => x.name === o.name.text);
          // A marked output is said once, where it is declared.
          if (out === undefined || this.declared(out, "output").length > 0) continue;
          for (const c of this.values.of(o.value)) {
            this.kept(
              lineOf(s),
              c,
              asPort("output", out.name),
              step(s, `succeed ${o.name.text} = ${exprText(o.value)}`),
            );
          }
        }
        return;
      case "fail":
        if (!kept || s.reason === null) return;
        for (const c of this.values.of(s.reason)) {
          this.kept(
            lineOf(s),
            c,
            tr(`in the reason of \`fail ${s.error.text}\``, `\`fail ${s.error.text}\` の理由として`),
            step(s, `fail ${s.error.text} ${exprText(s.reason)}`),
          );
        }
        return;
      case "let":
      case "wait":
      case "yield":
      case "break":
      case "pass":
      case "elided":
        return;
      default:
        return unreachable(s, "statement");
    }
  }

  /** What an input or an output holds that is secret, by its own mark or its type's. */
  private declared(f: FieldDef, port: Port): Carried[] {
    const own = f.secret === null ? null : markOn(f.secret, portText(port, f.name));
    return secretsOfPlace(this.m.types, f.type, own, f.name);
  }

  private call(s: CallStmtAst, kept: boolean): void {
    const task = this.t.calls.get(s);
    if (task === undefined) return;
    const party = outsideParty(task);
    for (const a of s.call.args) {
      if (a.kind !== "arg") continue;
      const param = task.params.find((p) => p.name === a.name.text);
      if (param === undefined) continue;
      const carried = joinSecrets([...this.values.of(a.value), ...paramSecret(task, param, a.value)]);
      const last = step(s, `${task.name}(${a.name.text}: ${exprText(a.value)})`);
      for (const c of carried) {
        if (kept) {
          const as = tr(
            `as the argument \`${param.name}\` of \`${task.name}\``,
            `\`${task.name}\` の引数 \`${param.name}\` として`,
          );
          this.kept(lineOf(s), c, as, last);
        }
        if (party !== null && !task.discloses.has(param.name)) this.sent(s, task, param, party, c, last);
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // The diagnostics

  private kept(at: Pos, c: Carried, as: Text, last: Step | null): void {
    const name = named(c);
    this.r.warning(
      "W904",
      at,
      tr(
        `the secret \`${name}\` is kept in the history of the workflow, ${as.en}`,
        `秘密の値 \`${name}\` が、${as.ja}ワークフローの履歴に残ります`,
      ),
      { notes: [...markNotes(c), HISTORY_NOTE], operations: operations(c, last), hint: HISTORY_HINT },
    );
  }

  private sent(s: CallStmtAst, task: TaskDef, param: FieldDef, party: Text, c: Carried, last: Step): void {
    const name = named(c);
    this.r.error(
      "E906",
      lineOf(s),
      tr(
        `the task \`${task.name}\` sends the secret \`${name}\` to ${party.en}, outside the project, as its argument \`${param.name}\``,
        `タスク \`${task.name}\` が、秘密の値 \`${name}\` を、引数 \`${param.name}\` としてプロジェクトの外の ${party.ja} に送ります`,
      ),
      {
        notes: markNotes(c),
        operations: operations(c, last),
        hint: tr(
          `send a reference, or only what the party needs; if sending it there is meant, write \`discloses ${param.name} "<reason>"\` under the task`,
          `参照か、相手に要るものだけを送ってください。そこへ送ることを意図しているなら、タスクの下に \`discloses ${param.name} "<理由>"\` と書いてください`,
        ),
      },
    );
  }
}

/** The workflow's inputs and outputs: what the history keeps of every execution. */
type Port = "input" | "output";

function portText(port: Port, name: string): Text {
  return port === "input" ? tr(`the input \`${name}\``, `入力 \`${name}\``) : tr(
    `the output \`${name}\``,
    `出力 \`${name}\``,
  );
}

function asPort(port: Port, name: string): Text {
  const p = portText(port, name);
  return tr(`as ${p.en}`, `${p.ja} として`);
}

/** What a task's argument marked `secret` makes of the value given to it, whatever that value is. */
function paramSecret(task: TaskDef, param: FieldDef, value: ExprAst): Carried[] {
  if (param.secret === null) return [];
  const on = tr(
    `the argument \`${param.name}\` of \`${task.name}\``,
    `\`${task.name}\` の引数 \`${param.name}\``,
  );
  return [{
    name: maskText(exprText(value)),
    inner: [],
    fresh: false,
    marks: [markOn(param.secret, on)],
    steps: [],
  }];
}

function step(at: Pos, text: string): Step {
  return { line: at.line, text: maskText(text) };
}

/** E906, W904 and W902 over a typed flow (docs/dandori.md#secrets-and-plain-http). */
export function checkSecrets(m: FlowModel, typed: Typed, r: Reporter<DandoriCode>): void {
  new Secrecy(m, typed, r).run();
}
