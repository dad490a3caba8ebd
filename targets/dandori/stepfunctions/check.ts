/**
 * What stops a Step Functions build
 * (docs/targets.md#what-step-functions-cannot-build-and-where-it-differs): E050 for what a state
 * machine cannot do or an item it needs, E031 for what an Express state machine cannot do (with
 * `--express`), and E040 when the longest run's history can pass Step Functions' 25,000 events. Each
 * diagnostic is at the task, block or statement it is about, in English and Japanese.
 *
 * The history is counted from above (`ASL_COST`): every state a run enters and leaves, every try
 * of every call as often as its retriers allow, every loop round `at most` times, every arm and
 * handler as the costliest one, and `on failure` after all of it. Near the limit it says too much
 * rather than too little.
 * @module
 */

import { assert, unreachable } from "../../../lang/common/assert.ts";
import type { Diagnostic } from "../../../lang/common/diagnostic.ts";
import { Reporter } from "../../../lang/common/reporter.ts";
import { tr } from "../../../lang/common/text.ts";
import type { DandoriCode } from "../../../lang/dandori/codes.ts";
import type { SentField } from "../../../lang/dandori/connect.ts";
import {
  innerLists,
  type Plan,
  type StmtPlan,
  type TaskPlan,
  valueInUrlPath,
} from "../../../lang/dandori/plan.ts";
import type { BuildOptions, FlowOrigin } from "../target.ts";

/** Step Functions' most events in one execution's history. */
export const MAX_HISTORY_EVENTS = 25_000;

/** An HTTP Task's request is cut at 60 seconds, so a longer `timeout` cannot be kept. */
export const MAX_HTTP_SECONDS = 60;

/** The longest an Express state machine runs: five minutes. */
export const EXPRESS_SECONDS = 300;

/**
 * The events one piece of a run adds to the history, from above: a state entered and left; a
 * Task's try (scheduled, started, ended, and a callback's token handed on); a Map's start and end;
 * one of its iterations; the execution's start and end.
 */
export const ASL_COST = { state: 2, attempt: 4, map: 4, iteration: 2, execution: 2 } as const;

/** What stops the build of `plan` for Step Functions. */
export function checkStepFunctions(
  plan: Plan,
  origin: FlowOrigin,
  options: BuildOptions,
): readonly Diagnostic[] {
  const r = new Reporter<DandoriCode>(origin.path, origin.text);
  const called = calledTasks(plan);
  for (const task of plan.tasks) if (called.has(task.name)) cannot(r, plan, task);
  if (plan.blockLines.cancel !== null) {
    r.error(
      "E050",
      { line: plan.blockLines.cancel, col: 1 },
      tr(
        "Step Functions cannot build `on cancel`: a stopped execution runs nothing more",
        "Step Functions では `on cancel` を組めません。止めた実行はそれ以上何も走らせません",
      ),
    );
  }
  if (options.express) express(r, plan, called);
  history(r, plan);
  inheritedKeys(r, plan);
  return r.diagnostics;
}

/** The members every JavaScript object has, which JSONata's objects have too. */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * E050 for a field, parameter, input or output named as a member of every JavaScript object
 * (`toString`, `constructor`, `__proto__` …): JSONata (jsonata-js 2.0.6) reads an absent one as the
 * inherited member (`$exists(x.\`toString\`)` is true of `{}`), and builds objects in a plain object
 * (a key `hasOwnProperty` breaks its object constructor), so the state machine could not mean what the
 * flow says. A `connect` task's JSON names (of its request and of every message its answer is filled
 * in) are said at the task. Each name is said once, at its first declaration.
 */
function inheritedKeys(r: Reporter<DandoriCode>, plan: Plan): void {
  const fields = [
    ...plan.inputs,
    ...plan.outputs,
    ...plan.records.flatMap((x) => x.fields),
    ...plan.tasks.flatMap((t) => t.params.map((p) => ({ ...p, line: t.line }))),
    ...plan.tasks.flatMap((t) => connectNames(t).map((name) => ({ name, line: t.line }))),
  ];
  const said = new Set<string>();
  for (const f of [...fields].sort((a, b) => a.line - b.line)) {
    if (!INHERITED.has(f.name) || said.has(f.name)) continue;
    said.add(f.name);
    r.error(
      "E050",
      { line: f.line, col: 1 },
      tr(
        `Step Functions cannot carry a field named \`${f.name}\`: JSONata reads it from every object when it is absent, and cannot build an object with it`,
        `Step Functions では \`${f.name}\` という名前のフィールドを運べません。JSONata は、無いときにどのオブジェクトからもそれを読み、それを持つオブジェクトを作れません`,
      ),
      { hint: tr("rename it", "名前を変えてください") },
    );
  }
}

/** The JSON names a `connect` task's body is written with and its answer is filled with (connect.ts). */
function connectNames(task: TaskPlan): string[] {
  if (task.callee.kind !== "http" || task.callee.connect === null) return [];
  const sent = (fields: readonly SentField[]): string[] =>
    fields.flatMap((f) => [f.json, ...(f.sent.kind === "message" ? sent(f.sent.fields) : [])]);
  const { request, fill } = task.callee.connect;
  return [...sent(request), ...fill.messages.flatMap((m) => m.fields.map((f) => f.json))];
}

/** The names of the tasks some statement calls. */
function calledTasks(plan: Plan): Set<string> {
  const out = new Set<string>();
  const walk = (ss: readonly StmtPlan[]) => {
    for (const s of ss) {
      for (const inner of innerLists(s)) walk(inner);
      if (s.kind === "call") out.add(s.call.task);
    }
  };
  walk(plan.blocks.flow);
  walk(plan.blocks.failure ?? []);
  walk(plan.blocks.cancel ?? []);
  return out;
}

/** E050 for a task Step Functions cannot call as it is written. */
function cannot(r: Reporter<DandoriCode>, plan: Plan, task: TaskPlan): void {
  const at = { line: task.line, col: 1 };
  const name = task.name;
  const callee = task.callee;
  switch (callee.kind) {
    case "own":
      r.error(
        "E050",
        at,
        tr(
          `Step Functions cannot call \`${name}\`: it has no way of calling (lambda, http, aws, book, state machine), and a state machine runs no code of its own`,
          `Step Functions では \`${name}\` を呼べません。呼び出し方(lambda・http・aws・book・state machine)が無く、ステートマシンは自分のコードを走らせません`,
        ),
      );
      return;
    case "event":
      r.error(
        "E050",
        at,
        tr(
          `Step Functions cannot wait for the event \`${name}\`: a state machine takes a value only through the token a Task hands on; make it a \`callback\` through \`lambda\``,
          `Step Functions ではイベント \`${name}\` を待てません。ステートマシンが値を受け取れるのは Task が渡すトークンを通してだけです。\`lambda\` で渡す \`callback\` にしてください`,
        ),
      );
      return;
    case "flow":
    case "child":
      if (callee.platforms.stateMachine === null) {
        r.error(
          "E050",
          at,
          tr(
            `\`${name}\` needs \`state machine "<arn>"\` on Step Functions: where the child is deployed cannot be known from the flow`,
            `Step Functions では \`${name}\` に \`state machine "<ARN>"\` が要ります。子を配った先はフローからは分かりません`,
          ),
        );
      }
      if (task.errors.length > 0) {
        r.error(
          "E050",
          at,
          tr(
            `Step Functions cannot tell the declared errors of \`${name}\` (${
              task.errors.map((e) => e.name).join(", ")
            }): a nested execution's failure reaches the parent as States.TaskFailed, the child's error only inside Cause; handle it as failure`,
            `Step Functions では \`${name}\` の宣言したエラー(${
              task.errors.map((e) => e.name).join("、")
            })を見分けられません。ネストした実行の失敗は親に States.TaskFailed として届き、子のエラーは Cause の中にしかありません。failure として処理してください`,
          ),
        );
      }
      return;
    case "http": {
      const head = callee.url[0];
      httpTask(r, task, at, head !== undefined && "text" in head ? head.text : "");
      return;
    }
    case "book":
      if ((plan.books.find((b) => b.name === callee.book)?.lambda ?? null) === null) {
        r.error(
          "E050",
          at,
          tr(
            `\`${name}\` needs the Lambda function of the book \`${callee.book}\` on Step Functions: write \`lambda "<arn>"\` under \`use book ${callee.book}\``,
            `Step Functions では \`${name}\` に帳簿 \`${callee.book}\` の Lambda 関数が要ります。\`use book ${callee.book}\` の下に \`lambda "<ARN>"\` を書いてください`,
          ),
        );
      }
      return;
    case "lambda":
    case "aws":
      return;
    case "agent":
      httpTask(r, task, at, callee.endpoint);
      return;
    default:
      return unreachable(callee, "callee");
  }
}

/**
 * E050 for an `http` task or an agent an HTTP Task cannot send: no connection, a `timeout` past 60 s,
 * a URL (`url`, the agent's endpoint) not written as HTTPS.
 */
function httpTask(
  r: Reporter<DandoriCode>,
  task: TaskPlan,
  at: { line: number; col: number },
  url: string,
): void {
  const name = task.name;
  if (task.connection === null) {
    r.error(
      "E050",
      at,
      tr(
        `\`${name}\` needs \`connection "<arn>"\` on Step Functions: an HTTP Task authenticates through an EventBridge connection`,
        `Step Functions では \`${name}\` に \`connection "<ARN>"\` が要ります。HTTP Task は EventBridge の接続を通して認証します`,
      ),
    );
  }
  if (task.timeout !== null && task.timeout.kind === "after" && task.timeout.seconds > MAX_HTTP_SECONDS) {
    r.error(
      "E050",
      at,
      tr(
        `the timeout of \`${name}\` is ${task.timeout.seconds} seconds, and an HTTP Task's request is cut at ${MAX_HTTP_SECONDS}`,
        `\`${name}\` のタイムアウトは ${task.timeout.seconds} 秒で、HTTP Task のリクエストは ${MAX_HTTP_SECONDS} 秒で打ち切られます`,
      ),
    );
  }
  if (!url.startsWith("https://")) {
    r.error(
      "E050",
      at,
      tr(
        `\`${name}\` sends to a URL that is not written as https://: an HTTP Task calls HTTPS APIs only`,
        `\`${name}\` の送り先は https:// で書かれていません。HTTP Task が呼べるのは HTTPS の API だけです`,
      ),
    );
  }
}

/** E031: what an Express state machine cannot run (five minutes at most, at least once, no callbacks). */
function express(r: Reporter<DandoriCode>, plan: Plan, called: ReadonlySet<string>): void {
  for (const task of plan.tasks) {
    if (!called.has(task.name)) continue;
    const at = { line: task.line, col: 1 };
    if (task.callback !== null) {
      r.error(
        "E031",
        at,
        tr(
          `an Express state machine cannot wait for the callback of \`${task.name}\``,
          `Express のステートマシンは \`${task.name}\` のコールバックを待てません`,
        ),
      );
    }
    if (task.callee.kind === "flow" || task.callee.kind === "child") {
      r.error(
        "E031",
        at,
        tr(
          `an Express state machine cannot wait for the nested execution of \`${task.name}\``,
          `Express のステートマシンは \`${task.name}\` のネストした実行を待てません`,
        ),
      );
    }
    if (task.key === null && !task.idempotent && task.callee.kind !== "book" && task.callback === null) {
      r.error(
        "E031",
        at,
        tr(
          `\`${task.name}\` has no \`key\` and is not \`idempotent\`, and an Express state machine may run a call twice`,
          `\`${task.name}\` には \`key\` も \`idempotent\` も無く、Express のステートマシンは呼び出しを二度走らせることがあります`,
        ),
      );
    }
  }
  const waits = (ss: readonly StmtPlan[]) => {
    for (const s of ss) {
      for (const inner of innerLists(s)) waits(inner);
      if (s.kind === "wait" && s.seconds > EXPRESS_SECONDS) {
        r.error(
          "E031",
          { line: s.line, col: 1 },
          tr(
            `the wait of ${s.seconds} seconds is longer than an Express state machine runs (${EXPRESS_SECONDS})`,
            `${s.seconds} 秒の待ちは、Express のステートマシンが走る長さ(${EXPRESS_SECONDS} 秒)を超えます`,
          ),
        );
      }
      if (s.kind === "wait until") {
        r.error(
          "E031",
          { line: s.line, col: 1 },
          tr(
            `\`wait until\` may wait longer than an Express state machine runs (${EXPRESS_SECONDS} seconds)`,
            `\`wait until\` は、Express のステートマシンが走る長さ(${EXPRESS_SECONDS} 秒)を超えて待つことがあります`,
          ),
        );
      }
    }
  };
  waits(plan.blocks.flow);
  waits(plan.blocks.failure ?? []);
}

/** E040 when the longest run's history can pass Step Functions' limit. */
function history(r: Reporter<DandoriCode>, plan: Plan): void {
  const tasks = new Map(plan.tasks.map((t) => [t.name, t]));
  const cost = (ss: readonly StmtPlan[]): number => ss.reduce((sum, s) => sum + stmtCost(s), 0);
  const stmtCost = (s: StmtPlan): number => {
    const state = ASL_COST.state;
    switch (s.kind) {
      case "call": {
        const task = tasks.get(s.call.task);
        assert(task !== undefined, "a call's task is in the plan");
        const tries = 1 + task.retry.reduce((n, x) => n + x.maxAttempts, 0);
        // The Task and its result's Choice, and the Choice on the URL before an `http` call's Task.
        const states = valueInUrlPath(task.callee) ? 3 : 2;
        return states * state + tries * ASL_COST.attempt +
          Math.max(0, ...s.call.handlers.map((h) => cost(h.body)));
      }
      case "match":
        return 2 * state + Math.max(0, ...s.arms.map((a) => cost(a.body)));
      case "repeat":
        return 2 * state + s.atMost * (2 * state + cost(s.body));
      case "for":
        return s.parallel === null
          ? 4 * state + s.atMost * (2 * state + cost(s.body))
          : 4 * state + ASL_COST.map + s.atMost * (ASL_COST.iteration + 2 * state + cost(s.body));
      case "period":
        return 3 * state;
      case "let":
      case "wait":
      case "wait until":
      case "yield":
      case "break":
      case "pass":
      case "succeed":
      case "fail":
        return state;
      default:
        return unreachable(s, "statement");
    }
  };
  const start = ASL_COST.execution + 2 * ASL_COST.state + (plan.period === null ? 0 : 2 * ASL_COST.state);
  const total = start + cost(plan.blocks.flow) + cost(plan.blocks.failure ?? []) + 2 * ASL_COST.state;
  if (total <= MAX_HISTORY_EVENTS) return;
  const costliest = plan.blocks.flow.reduce((a, b) => stmtCost(b) > stmtCost(a) ? b : a);
  r.error(
    "E040",
    { line: costliest.line, col: 1 },
    tr(
      `a run can write up to ${total} events into Step Functions' history, past its ${MAX_HISTORY_EVENTS}; this statement alone writes up to ${
        stmtCost(costliest)
      }`,
      `一回の実行が Step Functions の履歴に ${total} 件まで書きえて、上限の ${MAX_HISTORY_EVENTS} 件を超えます。この文だけで ${
        stmtCost(costliest)
      } 件まで書きます`,
    ),
  );
}
