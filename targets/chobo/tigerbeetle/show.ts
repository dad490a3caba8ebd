/**
 * `chobo run --show tigerbeetle [--format json]`: what each step of a scenario sends to
 * TigerBeetle with the tenant `""` (docs/targets.md#chobo-run---show-tigerbeetle): per operation the hold ids
 * read before a post or void, the accounts and openings to create (all an operation uses: a client
 * sends each once per book value, so what it sends is part of this), and the chain with every
 * field. The status chain's ids are random and shown as `random`.
 *
 * A post's chain depends on the hold it reads, so the scenario is played on the reference
 * interpreter alongside, a `together` caller by caller. A `pass` sends nothing: TigerBeetle
 * gives expired holds back by itself (docs/design/chobo.md#time-and-expiry).
 *
 * In the text, 128-bit ids and `user_data_128` are 32 lower-case hex digits (0 as `0`); the JSON
 * has them as integers (write it with `stringifyJson`).
 * @module
 */

import { type Call, keyValues, Ledger } from "../../../lang/chobo/interp.ts";
import type { Book } from "../../../lang/chobo/model.ts";
import type { BuiltinReason } from "../../../lang/chobo/resolve.ts";
import type { Scenario } from "../../../lang/chobo/scenario.ts";
import { findOne } from "../../../lang/common/assert.ts";
import { type Lang, tr } from "../../../lang/common/text.ts";
import {
  type AccountEvent,
  type ChainEntry,
  holdLookups,
  moveSends,
  requests,
  settleSends,
  type TbAccount,
  type TbTransfer,
} from "./chain.ts";
import { lowerChains, type TbPlan } from "./plan.ts";
import { accountWhatText, chainEntryText } from "./labels.ts";
import { hex32 } from "./ids.ts";
import { callText } from "../../../lang/chobo/words.ts";

/** What one operation sends. */
export interface SentOperation {
  readonly caller: number | null;
  readonly call: Call;
  /** `lookup_transfers` before a post or void. */
  readonly lookups: readonly bigint[];
  readonly accounts: readonly AccountEvent[];
  readonly openings: readonly TbTransfer[];
  readonly chain: readonly ChainEntry[];
  /** What the client answers without sending (more): `same_account` or `no_such_hold`. */
  readonly answered: Extract<BuiltinReason, "same_account" | "no_such_hold"> | null;
}

/** One step: a call, a pass (nothing sent), or each caller's calls. */
export interface SentTigerBeetleStep {
  readonly label: string;
  readonly operations: readonly SentOperation[];
}

/** The ids the status chain shows for its random ones. */
const SHOWN_RANDOM: readonly [bigint, bigint] = [0n, 0n];

function sentOperation(
  plan: TbPlan,
  tenant: string,
  ledger: Ledger,
  call: Call,
  caller: number | null,
): SentOperation {
  const none = { caller, call, lookups: [], accounts: [], openings: [], chain: [], answered: null };
  if (call.op === "do" || call.op === "hold") {
    const sends = moveSends(plan, tenant, call);
    return sends === null ? { ...none, answered: "same_account" } : { ...none, ...sends };
  }
  const key = keyValues(call);
  const lookups = holdLookups(plan, tenant, call.transfer, key);
  const hold = ledger.holds().find((h) =>
    h.transfer === call.transfer.name && h.key.length === key.length && h.key.every((v, i) => v === key[i])
  );
  if (hold === undefined) return { ...none, lookups, answered: "no_such_hold" };
  const { chain } = settleSends(plan, tenant, call, hold.moves.map((m) => m.amount), SHOWN_RANDOM);
  return { ...none, lookups, chain };
}

/**
 * What a scenario sends, step by step, for `tenant` (`""` for `--show`; `deno task verify
 * tigerbeetle` gives each scenario a tenant of its own). The status chain's random ids are 0.
 */
export function sentTigerBeetleSteps(book: Book, s: Scenario, tenant = ""): SentTigerBeetleStep[] {
  const plan = lowerChains(book);
  const ledger = Ledger.empty(book.accounts.map((a) => a.name));
  const run = (call: Call, caller: number | null) => {
    const sent = sentOperation(plan, tenant, ledger, call, caller);
    ledger.apply(call);
    return sent;
  };
  return s.steps.map((step) => {
    if (step.kind === "call") return { label: callText(step.call), operations: [run(step.call, null)] };
    if (step.kind === "pass") {
      ledger.pass(step.seconds);
      return { label: `pass ${step.text}`, operations: [] };
    }
    return {
      label: "together",
      operations: step.callers.flatMap((calls, i) => calls.map((c) => run(c, i + 1))),
    };
  });
}

/** True for the status chain's two transfers, whose ids are random. */
export const isRandom = (e: ChainEntry): boolean => e.role === "status_void" || e.role === "status_refusal";

function idText(v: bigint): string {
  return v === 0n ? "0" : hex32(v);
}

function accountLines(a: TbAccount): string[] {
  return [
    `id ${idText(a.id)}  ledger ${a.ledger}  code ${a.code}  flags ${a.flags.join("|") || "-"}`,
    `user_data_128 ${
      idText(a.user_data_128)
    }  user_data_64 ${a.user_data_64}  user_data_32 ${a.user_data_32}`,
  ];
}

function transferLines(t: TbTransfer, random: boolean): string[] {
  return [
    `id ${random ? "random" : idText(t.id)}  debit_account_id ${
      idText(t.debit_account_id)
    }  credit_account_id ${idText(t.credit_account_id)}`,
    `amount ${t.amount}  pending_id ${
      idText(t.pending_id)
    }  timeout ${t.timeout}  ledger ${t.ledger}  code ${t.code}  flags ${t.flags.join("|") || "-"}`,
    `user_data_128 ${
      idText(t.user_data_128)
    }  user_data_64 ${t.user_data_64}  user_data_32 ${t.user_data_32}`,
  ];
}

function operationLines(op: SentOperation, lang: Lang): string[] {
  const lines: string[] = [];
  const requestHeads = (what: string, n: number) =>
    Array.from(
      { length: n },
      (_, i) =>
        n === 1 ? what : `${what} (${tr(`request ${i + 1} of ${n}`, `リクエスト ${i + 1}/${n}`)[lang]})`,
    );
  if (op.lookups.length > 0) lines.push(`lookup_transfers ${op.lookups.map(idText).join(" ")}`);
  const accountRequests = requests(op.accounts);
  requestHeads("create_accounts", accountRequests.length).forEach((head, i) => {
    lines.push(head);
    for (const a of accountRequests[i]) {
      lines.push(`  ${accountWhatText(a.what)[lang]}`, ...accountLines(a.event).map((l) => `    ${l}`));
    }
  });
  const openingRequests = requests(op.openings);
  const openingHead = tr("create_transfers (openings)", "create_transfers(開始の振替)")[lang];
  requestHeads(openingHead, openingRequests.length).forEach((head, i) => {
    lines.push(head);
    for (const o of openingRequests[i]) {
      const of = findOne(op.accounts, (a) => a.event.id === o.credit_account_id, "account an opening opens");
      lines.push(
        `  ${
          tr(`opening of ${accountWhatText(of.what).en}`, `${accountWhatText(of.what).ja} の開始の振替`)[lang]
        }`,
        ...transferLines(o, false).map((l) => `    ${l}`),
      );
    }
  });
  if (op.answered !== null) {
    lines.push(tr(`nothing more sent: ${op.answered}`, `これ以上は送らない(${op.answered})`)[lang]);
  }
  if (op.chain.length > 0) {
    const n = op.chain.length;
    lines.push(tr(`create_transfers (chain of ${n})`, `create_transfers(${n} 件のチェーン)`)[lang]);
    const width = String(n - 1).length;
    // A post or void passes only the key's strings: the others show as their parameter's name.
    const arg = (name: string) => op.call.strings.get(name) ?? null;
    op.chain.forEach((e, i) => {
      lines.push(
        `  ${String(i).padStart(width)}  ${chainEntryText(op.call.transfer, e, op.call.op, arg)[lang]}`,
      );
      lines.push(...transferLines(e.transfer, isRandom(e)).map((l) => `  ${" ".repeat(width)}  ${l}`));
    });
  }
  return lines;
}

/** The text of `run --show tigerbeetle` for one scenario. */
export function sentTigerBeetleText(file: string, book: Book, s: Scenario, lang: Lang): string {
  const steps = sentTigerBeetleSteps(book, s);
  const n = steps.length;
  const lines = [
    `${file} (${s.name}): ${
      tr(`${n} step${n === 1 ? "" : "s"}, sent to TigerBeetle`, `${n} ステップ、TigerBeetle に送るもの`)[lang]
    }`,
  ];
  const width = String(n).length;
  const pad = " ".repeat(width + 4);
  steps.forEach((step, i) => {
    lines.push(`  ${String(i + 1).padStart(width)}  ${step.label}`);
    if (step.operations.length === 0) {
      lines.push(
        `${pad}  ${
          tr(
            "nothing sent: TigerBeetle gives expired holds back by itself",
            "何も送らない。期限の切れた仮押さえは TigerBeetle が自分で戻す",
          )[lang]
        }`,
      );
    }
    for (const op of step.operations) {
      let indent = `${pad}  `;
      if (op.caller !== null) {
        lines.push(
          `${indent}${tr(`caller ${op.caller}`, `呼び出し元 ${op.caller}`)[lang]}: ${callText(op.call)}`,
        );
        indent += "  ";
      }
      lines.push(...operationLines(op, lang).map((l) => indent + l));
    }
  });
  return lines.join("\n") + "\n";
}

function accountJson(a: AccountEvent): Record<string, unknown> {
  const what = a.what.kind === "sink"
    ? { role: "sink", unit: a.what.unit.name }
    : { role: a.what.kind, account: a.what.account.name, args: a.what.args };
  return { ...what, ...a.event };
}

function chainEntryJson(e: ChainEntry): Record<string, unknown> {
  return {
    role: e.role,
    move: e.move ?? undefined,
    ...e.transfer,
    id: isRandom(e) ? "random" : e.transfer.id,
  };
}

/** The JSON of `run --show tigerbeetle --format json` for one scenario. */
export function sentTigerBeetleJson(book: Book, s: Scenario): Record<string, unknown> {
  return {
    scenario: s.name,
    steps: sentTigerBeetleSteps(book, s).map((step) => ({
      operations: step.operations.map((op) => ({
        caller: op.caller ?? undefined,
        call: `${op.call.transfer.name}.${op.call.op}`,
        answered: op.answered ?? undefined,
        lookup_transfers: op.call.op === "post" || op.call.op === "void" ? op.lookups : undefined,
        create_accounts: op.call.op === "do" || op.call.op === "hold"
          ? requests(op.accounts).map((r) => r.map(accountJson))
          : undefined,
        openings: op.call.op === "do" || op.call.op === "hold" ? requests(op.openings) : undefined,
        chain: op.chain.map(chainEntryJson),
      })),
    })),
  };
}
