/**
 * `chobo run --show postgres`: what each step of a scenario sends to PostgreSQL, with the tenant
 * `""` — the statements every client must send, byte for byte (docs/targets.md#postgres-the-sql).
 * @module
 */

import type { Book } from "../../../lang/chobo/model.ts";
import type { Scenario } from "../../../lang/chobo/scenario.ts";
import { type Lang, tr } from "../../../lang/common/text.ts";
import { displayWidth } from "../../../lang/common/width.ts";
import { callStatement, expireStatement, type Statement } from "./calls.ts";
import { callText } from "../../../lang/chobo/words.ts";

/** One step's statements: a call's, a pass's `expire()`, or each caller's calls. */
export interface SentStep {
  readonly label: string;
  readonly statements: readonly {
    readonly caller: number | null;
    readonly call: string | null;
    readonly statement: Statement;
  }[];
}

/** What a scenario sends, step by step. */
export function sentSteps(book: Book, s: Scenario): SentStep[] {
  return s.steps.map((step) => {
    if (step.kind === "call") {
      return {
        label: callText(step.call),
        statements: [{
          caller: null,
          call: `${step.call.transfer.name}.${step.call.op}`,
          statement: callStatement(book, step.call, ""),
        }],
      };
    }
    if (step.kind === "pass") {
      return {
        label: `pass ${step.text}`,
        statements: [{ caller: null, call: null, statement: expireStatement(book) }],
      };
    }
    return {
      label: "together",
      statements: step.callers.flatMap((calls, i) =>
        calls.map((c) => ({
          caller: i + 1,
          call: `${c.transfer.name}.${c.op}`,
          statement: callStatement(book, c, ""),
        }))
      ),
    };
  });
}

function valuesText(values: readonly (string | null)[]): string {
  return values.map((v, i) => `$${i + 1} = ${v === null ? "null" : `'${v.replaceAll("'", "''")}'`}`).join(
    ", ",
  );
}

/** The text of `run --show postgres` for one scenario. */
export function sentText(file: string, book: Book, s: Scenario, lang: Lang): string {
  const steps = sentSteps(book, s);
  const n = steps.length;
  const lines = [
    `${file} (${s.name}): ${
      tr(`${n} step${n === 1 ? "" : "s"}, sent to PostgreSQL`, `${n} ステップ、PostgreSQL に送るもの`)[lang]
    }`,
  ];
  const width = String(n).length;
  steps.forEach((step, i) => {
    lines.push(`  ${String(i + 1).padStart(width)}  ${step.label}`);
    const pad = " ".repeat(width + 6);
    for (const { caller, statement } of step.statements) {
      const who = caller === null ? "" : `${tr(`caller ${caller}`, `呼び出し元 ${caller}`)[lang]}: `;
      lines.push(`${pad}${who}${statement.text}`);
      if (statement.values.length > 0) {
        lines.push(`${pad}${" ".repeat(displayWidth(who))}${valuesText(statement.values)}`);
      }
    }
  });
  return lines.join("\n") + "\n";
}

/** The JSON of `run --show postgres --format json` for one scenario. */
export function sentJson(book: Book, s: Scenario): Record<string, unknown> {
  return {
    scenario: s.name,
    steps: sentSteps(book, s).map((step) => ({
      statements: step.statements.map(({ caller, call, statement }) => ({
        caller: caller ?? undefined,
        call: call ?? undefined,
        text: statement.text,
        values: statement.values,
      })),
    })),
  };
}
