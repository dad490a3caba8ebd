/**
 * The resolved flow: declarations with their names bound, types and ranges read, tasks with what
 * they call, cases with the machine they follow. The statements stay the syntax tree's; the
 * checks after resolution read both.
 * @module
 */

import type { OpName } from "../chobo/interp.ts";
import type { Reporter } from "../common/reporter.ts";
import type { Provider } from "./agents.ts";
import type { BodyAst, FlowAst, TypeAst } from "./ast.ts";
import type { BookPort, BookTransfer } from "./books.ts";
import type { ConnectCall } from "./connect.ts";
import type { Machine } from "./machine.ts";
import type { FieldDef, Range, SecretMark, Ty, TypeTable } from "./types.ts";

/**
 * How a task is called (docs/design/dandori.md#ways-of-calling-a-task). `own` is a task with no call written:
 * the user's own code.
 */
export type Method =
  | "lambda"
  | "http"
  | "aws"
  | "connect"
  | "agent"
  | "jev"
  | "book"
  | "flow"
  | "event"
  | "child"
  | "own";

/** What a book task does: the book, the transfer and the operation. */
export interface BookCall {
  readonly book: string;
  readonly transfer: BookTransfer;
  readonly op: OpName;
}

/** A task: parameters, result, errors, and what it does to a case. */
export interface TaskDef {
  readonly name: string;
  readonly line: number;
  readonly col: number;
  readonly params: readonly FieldDef[];
  readonly result:
    | { readonly type: Ty; readonly range: Range | null; readonly secret: SecretMark | null }
    | null;
  readonly method: Method;
  /** The HTTP method of an `http` task, the operation of an `aws` one. */
  readonly verb: string | null;
  /**
   * The URL an `http` task calls (values in braces), with where it is written: as written, or for
   * an operation of a `use openapi`, the description's server (or the `use`'s `url`) and the path.
   */
  readonly url: { readonly text: string; readonly line: number; readonly col: number } | null;
  /** True when an `http` task sends its body as a form: `form` written, or the description says so. */
  readonly form: boolean;
  /** Who a `lambda`, `aws` or `connect` task calls: the function as written, `<service>:<operation>`, or `<api> <Service>/<Method>`. */
  readonly callee: string | null;
  /** The arguments `discloses` lets the task send outside the project (docs/dandori.md#secrets-and-plain-http). */
  readonly discloses: ReadonlySet<string>;
  /** True when the task says why it calls its `http://` URL in plain text (`plaintext "<reason>"`). */
  readonly plaintext: boolean;
  readonly book: BookCall | null;
  /** The child `.flow` of a `flow` task, as written. */
  readonly child: { readonly path: string; readonly line: number; readonly col: number } | null;
  /** Declared errors, by name, with the line they are declared on. */
  readonly errors: ReadonlyMap<string, { readonly line: number; readonly col: number }>;
  /** `retry`, as it reads with its defaults; null without one. */
  readonly retry: Retry | null;
  /** How long one attempt may take: `timeout`, or the day an `event` or `callback` task waits without one. */
  readonly timeout: Timeout | null;
  readonly key: boolean;
  readonly idempotent: boolean;
  readonly event: boolean;
  readonly callback: boolean;
  /** `starts <machine>`: the machine's name. */
  readonly starts: string | null;
  /** `sends <event>`. */
  readonly sends: string | null;
  /** What an `agent` task sends its model (docs/dandori.md#agents); null for another task. */
  readonly agent: AgentDef | null;
  /**
   * What a `connect` task calls once it matches its method (connect.ts): the `url` of its `use proto`
   * and the call; null for another task, or one that does not match.
   */
  readonly connect: { readonly url: string; readonly call: ConnectCall } | null;
}

/**
 * An agent task as written: the provider (`agent "…"` is `openai`), the instructions, the model,
 * the base URL of an Open Responses server (`url`), and the effort level when one is written.
 */
export interface AgentDef {
  readonly provider: Provider;
  readonly instructions: string;
  readonly model: string;
  readonly url: { readonly text: string; readonly line: number; readonly col: number } | null;
  readonly effort: string | null;
}

/**
 * `retry <n> times [every <time>] [backoff <k>] [on <error>, …]` (docs/design/dandori.md#retries):
 * at most `times` retries in all, the k-th after `everySeconds × backoff^(k − 1)`.
 */
export interface Retry {
  readonly line: number;
  readonly col: number;
  readonly times: number;
  /** `every`, else `DEFAULT_RETRY_INTERVAL_SECONDS`. */
  readonly everySeconds: number;
  /** `backoff` as decimal text, else `DEFAULT_BACKOFF`. */
  readonly backoff: string;
  /** The errors `on` names; null without `on` (then `timeout` and `failure`, never a declared error). */
  readonly on: readonly string[] | null;
}

/**
 * How long one attempt of a task may take (docs/design/dandori.md#timeouts): `timeout <time>` (or, for
 * an `event` or `callback` task without one, `DEFAULT_ANSWER_SECONDS`, not written), or until the
 * time a `timestamp` argument gives.
 */
export type Timeout =
  | { readonly kind: "after"; readonly seconds: number; readonly written: boolean }
  | { readonly kind: "until"; readonly param: string };

/** The interval and backoff of a `retry` that writes none: Step Functions' defaults. */
export const DEFAULT_RETRY_INTERVAL_SECONDS = 1;
export const DEFAULT_BACKOFF = "2.0";
/** How long an `event` or `callback` task waits without a `timeout` (docs/design/dandori.md#timeouts): one day. */
export const DEFAULT_ANSWER_SECONDS = 86_400;

/** A case (docs/design/dandori.md#cases): the record it is, the machine it follows. */
export interface CaseDef {
  readonly name: string;
  /** The line the case is declared on. */
  readonly line: number;
  readonly machine: Machine;
  /** The record type of the case: `<book>.<transfer>`. */
  readonly record: string;
}

/** A flow whose declarations resolved. */
export interface FlowModel {
  readonly file: string;
  readonly name: string;
  readonly ast: FlowAst;
  readonly types: TypeTable;
  readonly inputs: readonly FieldDef[];
  readonly outputs: readonly FieldDef[];
  /** `now range …` under `workflow`: the period the workflow runs in. */
  readonly period: Range | null;
  readonly books: ReadonlyMap<string, BookPort>;
  readonly tasks: ReadonlyMap<string, TaskDef>;
  readonly cases: ReadonlyMap<string, CaseDef>;
  readonly flow: BodyAst;
  readonly onFailure: BodyAst | null;
  readonly onCancel: BodyAst | null;
  /**
   * Reads a type written in a statement (`let x: T`), reporting to `r` unless it is null: E002 for
   * a type that does not exist, E003 for a list of lists.
   */
  readonly typeOf: (t: TypeAst, r: Reporter<"E002" | "E003" | "E006"> | null) => Ty | null;
}

/** The errors every call may end with besides its declared ones (`timeout`, `failure`). */
export const BUILTIN_ERRORS: readonly string[] = ["timeout", "failure"];
