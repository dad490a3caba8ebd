/**
 * What stops an Argo Workflows build (docs/targets.md#argo):
 *
 * - **E040**: one run may make more nodes than the estimate's bound (10,000). A Workflow holds every
 *   node's status and is at most 1 MiB (`MAX_WORKFLOW_SIZE`; past it Argo compresses the nodes, and
 *   without a database for them cannot store the Workflow): a node took 510–612 bytes as JSON and about
 *   60 compressed in the seed's runs (002 §3), so 10,000 leaves room for values larger than the tests'.
 *   The count is taken from the WorkflowTemplate itself (`workflow.ts`): every template's node, every
 *   step group's, every skipped step's, every try of a retried step, a loop's most iterations.
 * - **E050**: what Argo cannot run or express: `on cancel` (`argo stop` would run no handler dandori
 *   writes), a task that waits for an `event` (no step is resumed by name yet), a task with no way of
 *   calling it Argo runs (an own task needs `image`), `retry` on a callback's task (Argo retries the step
 *   that hands the id on, never the wait), declared errors and `timeout` of a child flow (a failed
 *   Workflow, stopped at its deadline or not, reaches its parent only as a failed step, with no name), a
 *   `workflow` task without `workflow template`, a
 *   `workflow template` that is no Kubernetes name or a child whose name has none, an `image` that is
 *   no image reference, and `history encrypted` (a Workflow keeps every parameter of every step in the
 *   clear, and Argo has no key to encrypt them with).
 * - **E006**: the flow's own name with no Kubernetes spelling, and the names of `caller/`'s TypeScript.
 * @module
 */

import type { Diagnostic } from "../../../lang/common/diagnostic.ts";
import { Reporter } from "../../../lang/common/reporter.ts";
import { tr } from "../../../lang/common/text.ts";
import type { DandoriCode } from "../../../lang/dandori/codes.ts";
import { workflowTemplateName } from "../../../lang/dandori/kubernetes.ts";
import type { Plan } from "../../../lang/dandori/plan.ts";
import { namingCheck, type Refused } from "../naming.ts";
import type { FlowOrigin } from "../target.ts";
import { tsNames } from "../typescript/names.ts";
import { workflowTemplate } from "./workflow.ts";

/** The most nodes one run may make (the Workflow's 1 MiB at about 60 compressed bytes a node, with room). */
export const MAX_NODES = 10_000;

/** A Kubernetes name a label can hold (a WorkflowTemplate's, which Argo writes into its Workflows' labels). */
const KUBERNETES_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** A container image reference: `[host[:port]/]path[:tag][@sha256:digest]`, as the distribution reference grammar reads one. */
const IMAGE =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]+)?\/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/;

/** The WorkflowTemplate's name of a flow, or null when Kubernetes cannot take it (E006). */
export function templateName(plan: Plan): string | null {
  return workflowTemplateName(plan.workflow.name, plan.workflow.version);
}

/** The diagnostics that stop the build; none when Argo can run the flow. */
export function argoCheck(plan: Plan, origin: FlowOrigin): readonly Diagnostic[] {
  const r = new Reporter<DandoriCode>(origin.path, origin.text);
  const head = { line: 1, col: 1 };
  const stop = (line: number, en: string, ja: string, hintEn: string, hintJa: string) =>
    r.error("E050", { line, col: 1 }, tr(en, ja), { hint: tr(hintEn, hintJa) });
  if (plan.blocks.cancel !== null) {
    stop(
      plan.blockLines.cancel ?? 1,
      "Argo Workflows (argo) cannot run `on cancel`: a Workflow that is stopped runs no handler dandori writes",
      "Argo Workflows(argo)では `on cancel` を動かせません。止めた Workflow は dandori が書く処理を走らせません",
      "build it for temporal-typescript, or write it without `on cancel`",
      "temporal-typescript に組むか、`on cancel` を外してください",
    );
  }
  if (plan.workflow.historyEncrypted) {
    stop(
      1,
      "Argo Workflows (argo) cannot keep the history encrypted: a Workflow holds every step's parameters in the clear, and Argo has no key to encrypt them with",
      "Argo Workflows(argo)では履歴を暗号化できません。Workflow はどのステップのパラメーターも平文で持ち、Argo にはそれを暗号化する鍵がありません",
      "build it for a target that encrypts its history, or write it without `history encrypted`",
      "履歴を暗号化する出力先に組むか、`history encrypted` を外してください",
    );
  }
  for (const t of plan.tasks) {
    const c = t.callee;
    if (c.kind === "event") {
      stop(
        t.line,
        `Argo Workflows (argo) cannot run the task \`${t.name}\`: no step of a Workflow waits for an \`event\` by name yet`,
        `Argo Workflows(argo)では、タスク \`${t.name}\` を動かせません。Workflow のステップが名前で \`event\` を待つ形は、まだありません`,
        "make it a `callback` task, whose id the sender is given",
        "送る側に ID を渡す `callback` のタスクにしてください",
      );
    }
    if (c.kind === "own" && t.image === null) {
      stop(
        t.line,
        `Argo Workflows (argo) cannot run the task \`${t.name}\`: Argo runs every task in a container, and an own task's is its \`image\``,
        `Argo Workflows(argo)では、タスク \`${t.name}\` を動かせません。Argo はどのタスクもコンテナで動かし、自分で書くタスクのコンテナは \`image\` です`,
        "give the task the `image` it runs in",
        "タスクを動かす `image` を書いてください",
      );
    }
    if (t.image !== null && !IMAGE.test(t.image)) {
      stop(
        t.line,
        `Argo Workflows (argo) cannot run the image ${
          JSON.stringify(t.image)
        } of \`${t.name}\`: it is no container image reference`,
        `Argo Workflows(argo)では、\`${t.name}\` のイメージ ${
          JSON.stringify(t.image)
        } を動かせません。コンテナのイメージの参照ではありません`,
        "write it as `[registry/]name[:tag][@sha256:digest]`",
        "`[レジストリ/]名前[:タグ][@sha256:ダイジェスト]` の形で書いてください",
      );
    }
    if (t.callback !== null && t.retries > 0) {
      stop(
        t.line,
        `Argo Workflows (argo) cannot retry the callback \`${t.name}\`: Argo retries the step that hands the id on, never the wait for the answer`,
        `Argo Workflows(argo)では、コールバック \`${t.name}\` をリトライできません。Argo がリトライできるのは ID を渡すステップで、答えの待ちはリトライできません`,
        "write it without `retry`, or retry it around the call in the flow",
        "`retry` を外すか、フローの中で呼び出しを繰り返してください",
      );
    }
    if (c.kind !== "flow" && c.kind !== "child") continue;
    if (t.errors.length > 0) {
      stop(
        t.line,
        `Argo Workflows (argo) cannot tell the child \`${t.name}\`'s declared errors: a failed Workflow reaches its parent only as a failed step`,
        `Argo Workflows(argo)では、子 \`${t.name}\` の宣言したエラーを見分けられません。失敗した Workflow は、親には失敗したステップとしてしか届きません`,
        "handle the child's failure as `failure`",
        "子の失敗は `failure` として扱ってください",
      );
    }
    if (t.timeout !== null && t.timeout.kind === "after" && t.timeout.written) {
      stop(
        t.line,
        `Argo Workflows (argo) cannot limit the child \`${t.name}\` with \`timeout\`: a child's Workflow stopped at its deadline reaches its parent as a failed step, not a timeout`,
        `Argo Workflows(argo)では、子 \`${t.name}\` を \`timeout\` で限れません。期限で止めた子の Workflow は、親には時間切れではなく失敗したステップとして届きます`,
        "leave the `timeout` to the child flow itself",
        "`timeout` は子のフローの側に任せてください",
      );
    }
    const written = c.platforms.workflowTemplate;
    if (written !== null && !KUBERNETES_NAME.test(written)) {
      stop(
        t.line,
        `Argo Workflows (argo) cannot create the child \`${t.name}\` from ${
          JSON.stringify(written)
        }: a WorkflowTemplate's name is lower-case letters, digits and \`-\`, at most 63`,
        `Argo Workflows(argo)では、子 \`${t.name}\` を ${
          JSON.stringify(written)
        } から作れません。WorkflowTemplate の名前は小文字・数字・\`-\` で 63 文字までです`,
        "write the child's WorkflowTemplate as Kubernetes names it",
        "子の WorkflowTemplate の名前を Kubernetes の名前の形で書いてください",
      );
    }
    const none = written === null &&
      (c.kind === "child" || workflowTemplateName(c.workflow, c.version) === null);
    if (none) {
      stop(
        t.line,
        `Argo Workflows (argo) cannot create the child \`${t.name}\`: it names no WorkflowTemplate${
          c.kind === "flow" ? ", and Kubernetes cannot name the child flow's" : ""
        }`,
        `Argo Workflows(argo)では、子 \`${t.name}\` を作れません。WorkflowTemplate の名前がありません${
          c.kind === "flow" ? "(子のフローの名前は Kubernetes の名前にできません)" : ""
        }`,
        'write `workflow template "<name>"` under the task',
        'タスクの下に `workflow template "<名前>"` を書いてください',
      );
    }
  }
  const name = templateName(plan);
  if (name !== null && r.diagnostics.length === 0) {
    const nodes = workflowTemplate(plan, name).nodes;
    if (nodes > MAX_NODES) {
      r.error(
        "E040",
        head,
        tr(
          `one Argo run may make ${nodes} nodes, more than the ${MAX_NODES} a Workflow of at most 1 MiB is estimated to hold`,
          `Argo の一回の実行が ${nodes} 個のノードを作ることがあり、1 MiB までの Workflow に収まると見積もる ${MAX_NODES} 個を超えます`,
        ),
        {
          quote: false,
          hint: tr(
            "lower the loops' `at most` or the retries, or run the largest loop's iterations as child flows",
            "ループの `at most` かリトライの回数を下げるか、いちばん大きいループのイテレーションを子のフローにしてください",
          ),
        },
      );
    }
  }
  const refused: Refused[] = name !== null ? [] : [{
    name: plan.workflow.name,
    what: "workflow",
    line: 1,
    why: tr(
      `a WorkflowTemplate's name is \`<workflow>-v<version>\` as Kubernetes names it (lower-case letters, digits and \`-\`, not at either end, at most 63; other letters through Punycode), and this one has none`,
      `WorkflowTemplate の名前は \`<ワークフロー>-v<バージョン>\` を Kubernetes の名前にしたもの(小文字・数字・\`-\` で、\`-\` は両端に置かず 63 文字まで。ほかの文字は Punycode)で、この名前はそうできません`,
    ),
  }];
  const names = tsNames(plan);
  return [
    ...r.diagnostics,
    ...namingCheck("Argo Workflows", names.spelled, [...names.refused, ...refused], origin),
  ];
}
