/**
 * What this dandori cannot read yet (docs/design/dandori.md#what-this-toolchain-does-not-read): rules
 * and date files have no provider in this toolchain, and decision models and `implements` are not
 * checked. OpenAPI descriptions (openapi.ts), Smithy models (smithy.ts) and proto descriptions
 * (proto.ts) are read. A flow that uses one it cannot read gets a single E018 at the first such
 * construct and the command exits 2, instead of a check that would guess.
 * Agent tasks (agent_requests.ts) and `connect` tasks (connect.ts) are read on.
 * @module
 */

import { findOne, unreachable } from "../common/assert.ts";
import { type Text, tr } from "../common/text.ts";
import type { FlowAst, Pos } from "./ast.ts";

/** The first construct of a flow this dandori cannot read, with what to say about it. */
export interface Unsupported {
  readonly at: Pos;
  readonly message: Text;
  readonly note: Text;
}

const RUN_ELSEWHERE = tr(
  "this toolchain has no rule or date provider yet, and does not yet read decision models or implemented services; it checks flows that use books, OpenAPI descriptions, Smithy models, proto descriptions, child flows, agents and tasks called by lambda, http, aws, connect, event, callback or their own code",
  "この処理系には、まだ規則と日付を読む口が無く、判断のモデルと実装するサービスも読みません。確かめるのは、帳簿、OpenAPI の記述、Smithy のモデル、proto の記述、子のフロー、エージェント、lambda・http・aws・connect・event・callback・呼び出し方の無いタスクを使うフローです",
);

/** What this dandori cannot read: `use rule` and `use dates`, `implements`, and decision-model tasks. */
type Unreadable =
  | "rule"
  | "dates"
  | "implements"
  | "jev";

/** The sources of `use` but those read: the parser reads no other word there. */
const UNREAD_USES: readonly Unreadable[] = ["rule", "dates"];

/** The sources of `use` this dandori reads. */
const READ_USES: readonly string[] = ["book", "openapi", "smithy", "proto"];

function of(source: Unreadable): { message: Text; note: Text } {
  switch (source) {
    case "rule":
      return {
        message: tr(
          "this dandori cannot read rules: `use rule` needs rulec's rule port, and no rule provider is joined here",
          "この dandori は規則を読めません。`use rule` には rulec の規則の口が要りますが、ここにはつながっていません",
        ),
        note: RUN_ELSEWHERE,
      };
    case "dates":
      return {
        message: tr(
          "this dandori cannot read date files: `use dates` needs koyomi's date port, and no date provider is joined here",
          "この dandori は日付のファイルを読めません。`use dates` には koyomi の日付の口が要りますが、ここにはつながっていません",
        ),
        note: RUN_ELSEWHERE,
      };
    case "implements":
      return {
        message: tr(
          "this dandori does not check a workflow against the service it implements yet: `implements` is not supported",
          "この dandori は、まだワークフローを実装するサービスと突き合わせません。`implements` には対応していません",
        ),
        note: RUN_ELSEWHERE,
      };
    case "jev":
      return {
        message: tr(
          "this dandori does not check decision-model tasks yet: `jev` is not supported",
          "この dandori は、まだ判断のモデルのタスクを確かめません。`jev` には対応していません",
        ),
        note: RUN_ELSEWHERE,
      };
    default:
      return unreachable(source, "construct");
  }
}

/** The first construct (in reading order) that needs what this dandori does not have, or null. */
export function firstUnsupported(ast: FlowAst): Unsupported | null {
  const found: { at: Pos; source: Unreadable }[] = [];
  for (const u of ast.uses) {
    if (READ_USES.includes(u.source.text)) continue;
    found.push({ at: u, source: findOne(UNREAD_USES, (s) => s === u.source.text, `use ${u.source.text}`) });
  }
  for (const w of ast.workflows) {
    if (w.implements !== null) found.push({ at: w.implements.api, source: "implements" });
  }
  for (const t of ast.tasks) {
    for (const item of t.items) {
      if (item.kind === "jev") found.push({ at: item, source: item.kind });
    }
  }
  found.sort((a, b) => a.at.line - b.at.line || a.at.col - b.at.col);
  const first = found[0];
  return first === undefined ? null : { at: first.at, ...of(first.source) };
}
