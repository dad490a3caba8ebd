/**
 * The checks of an agent task beyond the table of items (docs/dandori.md#agents), each E007: the
 * provider, the instructions and the model, the effort level the provider takes, `url` (an Open
 * Responses server's base URL, never Claude's), what a case task does (an agent does nothing to a
 * case), and the result type: there is one, a strict JSON Schema can say it, within the
 * provider's limits, and for Claude no enum in it has two values equal but for case.
 * @module
 */

import { didYouMean } from "../common/nearest.ts";
import { hintOf, type Reporter } from "../common/reporter.ts";
import { type Text, tr } from "../common/text.ts";
import { caseClashes, effortsOf, overLimits, PROVIDERS, schemaSize } from "./agents.ts";
import type { ElidedAst, Pos, TaskAst, TaskItemAst, Word } from "./ast.ts";
import type { DandoriCode } from "./codes.ts";
import type { AgentDef, TaskDef } from "./model.ts";
import type { TypeTable } from "./types.ts";
import { readUrl } from "./urls.ts";

type Item = Exclude<TaskItemAst, ElidedAst>;

/** The provider an `agent` item names (`agent "…"` is `openai`), or null for a name that is none. */
export function providerOf(item: Item & { readonly kind: "agent" }): AgentDef["provider"] | null {
  if (item.provider === null) return "openai";
  return PROVIDERS.find((p) => p === item.provider?.text) ?? null;
}

/** Every E007 of an agent task that the table of items does not say. */
export function checkAgentTask(
  r: Reporter<DandoriCode>,
  t: TaskAst,
  def: TaskDef,
  items: readonly Item[],
  types: TypeTable,
): void {
  const name = t.name.text;
  const no = (at: Pos, what: string, why: Text, hint: Text | null = null) =>
    r.error(
      "E007",
      at,
      tr(
        `\`${what}\` cannot be written under \`${name}\`: ${why.en}`,
        `\`${name}\` の下に \`${what}\` は書けません。${why.ja}`,
      ),
      hintOf(hint),
    );
  const agent = items.find((i): i is Item & { readonly kind: "agent" } => i.kind === "agent");
  if (agent === undefined || def.agent === null) return;
  const provider = providerOf(agent);
  if (provider === null && agent.provider !== null) unknownProvider(r, agent.provider);
  if (agent.instructions.text.trim() === "") {
    r.error(
      "E007",
      agent.instructions,
      tr(`the instructions of the agent \`${name}\` are empty`, `エージェント \`${name}\` の指示が空です`),
      {
        hint: tr(
          "say what the model is to do with the arguments",
          "引数で何をするかをモデルに書いてください",
        ),
      },
    );
  }
  const model = items.find((i) => i.kind === "model");
  if (model === undefined) {
    r.error(
      "E007",
      t.name,
      tr(`the agent \`${name}\` names no model`, `エージェント \`${name}\` にモデルがありません`),
      {
        hint: tr(
          'write `model "<name>"` under it: the request names the model, and no default is guessed',
          '下に `model "<名前>"` を書いてください。リクエストにはモデルの名前が要り、既定のモデルは決めません',
        ),
      },
    );
  } else if (model.kind === "model" && model.value.text.trim() === "") {
    no(model, "model", tr("the model's name is empty", "モデルの名前が空です"));
  }
  for (const item of items) {
    if (item.kind === "effort" && provider !== null) effort(item, item.level, provider);
    if (item.kind === "url") url(item, item.value.text, provider);
    if (item.kind === "starts" || item.kind === "sends" || item.kind === "observes") {
      no(
        item,
        item.kind,
        tr(
          "an agent reads or writes text and does nothing to a case",
          "エージェントは文を読むか書くだけで、案件に何もしません",
        ),
      );
    }
  }
  result(provider);

  function effort(at: Pos, level: Word, p: AgentDef["provider"]): void {
    const levels = effortsOf(p);
    if (levels.includes(level.text)) return;
    no(
      at,
      `effort ${level.text}`,
      tr(
        `${p === "claude" ? "Claude" : "OpenAI's Responses API"} takes the effort levels ${
          levels.join(", ")
        }`,
        `${p === "claude" ? "Claude" : "OpenAI の Responses API"} が受け付けるエフォートは ${
          levels.join("・")
        } です`,
      ),
      didYouMean(level.text, levels),
    );
  }

  function url(at: Pos, text: string, p: AgentDef["provider"] | null): void {
    if (p === "claude") {
      no(
        at,
        "url",
        tr(
          "Claude's agents speak Anthropic's Messages API, and `url` names a server of Open Responses, which Anthropic has not joined",
          "Claude のエージェントは Anthropic の Messages API を話します。`url` は Open Responses のサーバーを書くもので、Anthropic は Open Responses に加わっていません",
        ),
      );
      return;
    }
    const reading = readUrl(text, []);
    if (!reading.ok) {
      no(
        at,
        "url",
        tr(`the base URL ${reading.fault.why.en}`, `ベース URL ${reading.fault.why.ja}`),
        reading.fault.hint,
      );
    } else if (text.includes("?")) {
      no(
        at,
        "url",
        tr(
          "a base URL has no query: the request goes to `<base URL>/responses`",
          "ベース URL にクエリは書けません。リクエストは `<ベース URL>/responses` に送ります",
        ),
      );
    }
  }

  function result(p: AgentDef["provider"] | null): void {
    if (def.result === null) {
      if (t.result === null) {
        r.error(
          "E007",
          t.name,
          tr(
            `the agent \`${name}\` has no result type: the model is held to the schema of one`,
            `エージェント \`${name}\` に結果の型がありません。モデルは結果の型の Schema に従わせます`,
          ),
          { hint: tr("write `-> <type>` after the arguments", "引数のあとに `-> <型>` を書いてください") },
        );
      }
      return;
    }
    const at: Pos = t.result ?? t.name;
    const size = schemaSize(def.result.type, types);
    if ("fault" in size) {
      r.error(
        "E007",
        at,
        tr(
          `the result of the agent \`${name}\` has no JSON Schema: ${size.fault.en}`,
          `エージェント \`${name}\` の結果の型は JSON Schema に書けません。${size.fault.ja}`,
        ),
      );
      return;
    }
    if (p === null) return;
    for (const over of overLimits(size, p, def.agent?.url === null)) {
      const who = p === "claude" ? tr("Claude's structured outputs", "Claude の構造化出力が") : tr(
        "OpenAI's Structured Outputs",
        "OpenAI の Structured Outputs が",
      );
      const count = over.countingStopped ? `more than ${over.count - 1}` : `${over.count}`;
      r.error(
        "E007",
        at,
        tr(
          `the schema of the result of \`${name}\` has ${count} ${over.what.en}, more than the ${over.limit} ${who.en} takes (${over.name})`,
          `\`${name}\` の結果の Schema は ${over.count - (over.countingStopped ? 1 : 0)} ${over.what.ja}${
            over.countingStopped ? "を超え" : "を持ち"
          }、${who.ja}受け付ける ${over.limit} を超えます(${over.name})`,
        ),
      );
    }
    if (p !== "claude") return;
    for (const clash of caseClashes(def.result.type, types)) {
      const [a, b] = clash.values;
      r.error(
        "E007",
        at,
        tr(
          `the enum \`${clash.enumName}\` in the result of the Claude agent \`${name}\` has \`${a}\` and \`${b}\`, equal but for case: Claude's answer is read without case, and could not say which`,
          `Claude のエージェント \`${name}\` の結果にある列挙 \`${clash.enumName}\` に、大文字と小文字だけが違う \`${a}\` と \`${b}\` があります。Claude の応答は大文字と小文字を区別せずに読むので、どちらか決められません`,
        ),
      );
    }
  }
}

function unknownProvider(r: Reporter<DandoriCode>, w: Word): void {
  r.error(
    "E007",
    w,
    tr(
      `\`${w.text}\` is not a provider of agents: they are ${PROVIDERS.join(" and ")}`,
      `\`${w.text}\` はエージェントのプロバイダーではありません。プロバイダーは ${
        PROVIDERS.join(" と ")
      } です`,
    ),
    hintOf(didYouMean(w.text, PROVIDERS)),
  );
}
