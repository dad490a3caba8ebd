/**
 * The flow plan: what every dandori compiler and the page print from, lowered once from the
 * checked flow (`lower.ts`). Plain data, versioned, deterministic: `dandori plan --format json`
 * prints it, and a printer reads it without going back to the syntax tree or the model.
 *
 * The plan has two faces of the same lowering:
 * - the **structured form** (`blocks`): statements nested as the flow nests them, for the code
 *   targets (Temporal, durable functions);
 * - the **control-flow graph** (`graph`): nodes and edges with the condition of each edge, for
 *   the state-machine targets (Step Functions, Argo, pydantic-graph) and the page's chart.
 *
 * Nothing here is named for a host language: a printer applies its own naming. Every call
 * carries what its platform code needs (callee, arguments as expressions over named variables,
 * key, timeout, retriers in Step Functions' order, where each error goes, what it does to its
 * case), so no printer derives them again. `docs/formats.md` describes the JSON.
 * @module
 */

import { assert, unreachable } from "../common/assert.ts";
import type { AgentPlan } from "./agent_requests.ts";
import type { FillTable, SentField } from "./connect.ts";

/** The version of the plan's shape; a change a printer must follow raises it (2: the edges `bad response` and `failed`, a parallel loop's early ends, arms' and handlers' lines, a callback's hand-on; 3: an `http` call's `connect`; 4: the callee `agent`). */
export const PLAN_VERSION = 4;

/** A type, as written in the flow. */
export type TypePlan =
  | { readonly kind: "int" | "string" | "bool" | "timestamp" | "date" | "json" }
  | { readonly kind: "num"; readonly unit: string }
  | { readonly kind: "enum"; readonly name: string }
  | { readonly kind: "record"; readonly name: string }
  | { readonly kind: "list"; readonly element: TypePlan }
  | { readonly kind: "optional"; readonly inner: TypePlan };

/**
 * What a place accepts, with the ends every platform compares against written out: integers
 * in the type's unit as decimal text; dates as their first and last day (10 characters); times
 * as their first second and the first second after them (19 characters, compared with `>=` and `<`).
 */
export type RangePlan =
  | {
    readonly kind: "number";
    readonly lower: string | null;
    readonly upper: string | null;
    readonly text: string;
  }
  | {
    readonly kind: "date";
    readonly first: string | null;
    readonly last: string | null;
    readonly text: string;
  }
  | {
    readonly kind: "time";
    readonly first: string | null;
    readonly after: string | null;
    readonly text: string;
  };

/** An input, an output, a record field or a task parameter. */
export interface FieldPlan {
  readonly name: string;
  /** The line the name is declared on (a book's hold record: the line of its `use book`). */
  readonly line: number;
  readonly type: TypePlan;
  readonly range: RangePlan | null;
}

/** A record of the flow or of a book (a hold's record `<book>.<transfer>`). */
export interface RecordPlan {
  readonly name: string;
  /** The line the record is declared on (a book's hold record: the line of its `use book`). */
  readonly line: number;
  readonly fields: readonly FieldPlan[];
}

/** An enum and its values in written order. */
export interface EnumPlan {
  readonly name: string;
  /** The line the enum is declared on (a hold's states: the line of its book's `use book`). */
  readonly line: number;
  readonly values: readonly string[];
}

/** One piece of a string with values in it. */
export type TextPart = { readonly text: string } | { readonly value: ExprPlan };

/** A value, over named variables (docs/design/dandori.md#statements-and-values). Every expression carries its type. */
export type ExprPlan =
  | {
    readonly kind: "read";
    /** What the name is: a variable, an input of the workflow, or a case's record. */
    readonly from: "variable" | "input" | "case";
    readonly name: string;
    /** The fields read after the name, each with the type it reads. */
    readonly path: readonly { readonly field: string; readonly type: TypePlan }[];
    readonly type: TypePlan;
  }
  | { readonly kind: "int"; readonly value: string; readonly type: TypePlan }
  | { readonly kind: "string"; readonly parts: readonly TextPart[]; readonly type: TypePlan }
  | { readonly kind: "bool"; readonly value: boolean; readonly type: TypePlan }
  | { readonly kind: "enum"; readonly value: string; readonly type: TypePlan }
  | { readonly kind: "none"; readonly type: TypePlan }
  | { readonly kind: "now"; readonly type: TypePlan }
  | {
    readonly kind: "record";
    readonly fields: readonly { readonly name: string; readonly value: ExprPlan }[];
    readonly type: TypePlan;
  }
  | { readonly kind: "list"; readonly items: readonly ExprPlan[]; readonly type: TypePlan };

/** One piece of an `http` task's URL: text as written, or an argument's value (escaped when sent). */
export type UrlPart = { readonly text: string } | { readonly param: string };

/** Where a child workflow is on each platform (docs/design/dandori.md#ways-of-calling-a-task, docs/design/dandori.md#child-flows), as the task writes it. */
export interface ChildPlatforms {
  /** Temporal's workflow type; for a `flow` task, the child's `<name>_v<n>`. */
  readonly workflow: string | null;
  /** Temporal's task queue (`queue`); for a `flow` task without one, the child's `<name>_v<n>`. */
  readonly queue: string | null;
  readonly stateMachine: string | null;
  readonly durableFunction: string | null;
  readonly workflowTemplate: string | null;
}

/** A `connect` task's call, beside its `http` POST (lang/dandori/connect.ts): how the body is written, how the answer is filled. */
export interface ConnectPlan {
  readonly request: readonly SentField[];
  readonly fill: FillTable;
}

/** What a task calls (docs/design/dandori.md#ways-of-calling-a-task). */
export type CalleePlan =
  | { readonly kind: "lambda"; readonly function: string }
  | {
    readonly kind: "http";
    readonly method: string;
    readonly url: readonly UrlPart[];
    /** `form`: the body is `application/x-www-form-urlencoded`. */
    readonly form: boolean;
    /** The arguments the URL does not take: the query of a GET or DELETE, else the body. */
    readonly rest: readonly string[];
    readonly restIn: "query" | "body";
    /**
     * A `connect` task's call (connect.ts): the body written as protobuf's JSON (`request`), the
     * header `Connect-Protocol-Version: 1`, the answer filled (`fill`) before it is checked; null for
     * an `http` task.
     */
    readonly connect: ConnectPlan | null;
  }
  | { readonly kind: "aws"; readonly service: string; readonly operation: string }
  | {
    readonly kind: "book";
    readonly book: string;
    readonly transfer: string;
    readonly op: "do" | "hold" | "post" | "void";
    /** The Lambda function of the book (`use book … lambda`), or null. */
    readonly lambda: string | null;
    /** The transfer's parameters the operation takes: string ones and amounts, in the transfer's order. */
    readonly strings: readonly string[];
    readonly amounts: readonly string[];
    /** The transfer's key parameters, in the key's order. */
    readonly key: readonly string[];
  }
  | {
    readonly kind: "flow";
    /** The child `.flow` as written, and its workflow's name and version. */
    readonly path: string;
    readonly workflow: string;
    readonly version: number;
    readonly platforms: ChildPlatforms;
  }
  | { readonly kind: "child"; readonly platforms: ChildPlatforms }
  | { readonly kind: "event" }
  | { readonly kind: "own" }
  /** An agent task (agent_requests.ts): its provider, model, instructions, endpoint, effort and answer's schema. */
  | ({ readonly kind: "agent" } & AgentPlan);

/**
 * One retrier, as Step Functions orders them: the first retrier whose errors match an error
 * decides whether it is tried again. Errors are declared names, `timeout`, `failure`, or `*`
 * (every error). `maxAttempts` 0 stops an error from being retried.
 */
export interface RetrierPlan {
  readonly errors: readonly string[];
  readonly maxAttempts: number;
  readonly intervalSeconds: number;
  /** Step Functions' `BackoffRate`, as decimal text (`"2.0"`, `"1.5"`). */
  readonly backoff: string;
}

/** How long one attempt of a call may take. */
export type TimeoutPlan =
  | { readonly kind: "after"; readonly seconds: number; readonly written: boolean }
  | { readonly kind: "until"; readonly param: string };

/** How an idempotency key reaches the callee (docs/design/dandori.md#keys): a header, the payload, or an AWS argument. */
export type KeyPlan =
  | { readonly in: "header"; readonly name: "Idempotency-Key" }
  | { readonly in: "payload"; readonly name: "idempotency_key" }
  | { readonly in: "argument"; readonly name: string };

/**
 * How a callback's id reaches the one who answers (in the payload of a Lambda, an SQS body, or own
 * code), and how long handing it on may take in one attempt on every platform (docs/design/dandori.md#timeouts); the wait for
 * the answer comes after, as long as the task's `timeout`.
 */
export interface CallbackPlan {
  readonly via: "lambda" | "sqs" | "own";
  readonly handOnSeconds: number;
}

/** What a task does to a case (docs/design/dandori.md#holds-of-a-book): a hold starts it, a post or a void sends to it. */
export type CaseEffect =
  | { readonly kind: "starts"; readonly machine: string }
  | { readonly kind: "sends"; readonly event: string };

/** A task (docs/design/dandori.md#declarations): what it takes and returns, what it calls, and how it is tried. */
export interface TaskPlan {
  readonly name: string;
  readonly line: number;
  readonly params: readonly FieldPlan[];
  readonly result: { readonly type: TypePlan; readonly range: RangePlan | null } | null;
  readonly callee: CalleePlan;
  /** Declared errors, in written order, with what each stands for on the wire (an HTTP status, an AWS exception). */
  readonly errors: readonly { readonly name: string; readonly wire: string | null }[];
  readonly retry: readonly RetrierPlan[];
  /** The number of retries the task allows (0 without `retry`). */
  readonly retries: number;
  readonly timeout: TimeoutPlan | null;
  readonly key: KeyPlan | null;
  readonly idempotent: boolean;
  readonly callback: CallbackPlan | null;
  readonly effect: CaseEffect | null;
  /** `connection "<arn>"`: the EventBridge connection an HTTP Task authenticates through, or null. */
  readonly connection: string | null;
  /** `image "<image>"`: the container image Argo runs the task in (docs/targets.md#argo), or null. */
  readonly image: string | null;
}

/** Where a call's error goes when no handler of the call takes it. */
export type Unhandled = "on failure" | "fail";

/** The case a call acts on, and the states its record may say after each ending. */
export interface CaseCall {
  readonly name: string;
  readonly effect: CaseEffect;
}

/** A call of a task at one place. */
export interface CallPlan {
  readonly task: string;
  /** The arguments in the task's parameter order; a `T?` parameter not given is absent. */
  readonly args: readonly { readonly name: string; readonly value: ExprPlan }[];
  /** The handlers written under the call, in written order. */
  readonly handlers: readonly HandlerPlan[];
  /** Each error the call may end with (declared, `timeout`, `failure`) and where it goes: a handler's index, or the block's rule. */
  readonly routes: readonly { readonly error: string; readonly to: number | Unhandled }[];
  readonly case: CaseCall | null;
  /** The loops around the call, outermost first: their places make the key's loop counts. */
  readonly loops: readonly string[];
}

/** `on e1, e2 =>` and its body. */
export interface HandlerPlan {
  /** The line of `on … =>`. */
  readonly line: number;
  readonly errors: readonly string[];
  readonly body: readonly StmtPlan[];
}

/** One arm of a `match`: the values it takes, or `none`, or `some x`. */
export type ArmCondition =
  | { readonly kind: "values"; readonly values: readonly string[] }
  | { readonly kind: "none" }
  | { readonly kind: "some"; readonly bind: string };

/** What a `match` splits (docs/design/dandori.md#statements-and-values): an enum or a bool, an optional value, or a case's state. */
export type MatchSubject =
  | { readonly kind: "value"; readonly value: ExprPlan }
  | { readonly kind: "optional"; readonly value: ExprPlan }
  | { readonly kind: "case"; readonly case: string; readonly states: readonly string[] };

/** One arm: what it takes and its body. */
export interface ArmPlan {
  /** The line of `… =>`. */
  readonly line: number;
  readonly conditions: readonly ArmCondition[];
  readonly body: readonly StmtPlan[];
}

/** A statement, with its place (`s<line>`) and line. */
export type StmtPlan =
  & { readonly place: string; readonly line: number }
  & (
    | {
      readonly kind: "call";
      readonly call: CallPlan;
      readonly bind: { readonly kind: "let"; readonly name: string; readonly type: TypePlan } | {
        readonly kind: "case";
        readonly name: string;
      } | null;
    }
    | { readonly kind: "let"; readonly name: string; readonly type: TypePlan; readonly value: ExprPlan }
    | { readonly kind: "match"; readonly subject: MatchSubject; readonly arms: readonly ArmPlan[] }
    | { readonly kind: "wait"; readonly seconds: number }
    | { readonly kind: "wait until"; readonly at: ExprPlan }
    | { readonly kind: "repeat"; readonly atMost: number; readonly body: readonly StmtPlan[] }
    | {
      readonly kind: "for";
      readonly variable: string;
      readonly element: TypePlan;
      readonly list: ExprPlan;
      readonly atMost: number;
      /** `in parallel[, k at a time]`: k, or null for no limit. Null for one at a time. */
      readonly parallel: { readonly atATime: number | null } | null;
      /** `let r = for …`: the variable the yields are collected into. */
      readonly collect: { readonly name: string; readonly type: TypePlan } | null;
      readonly body: readonly StmtPlan[];
    }
    | { readonly kind: "yield"; readonly value: ExprPlan }
    | { readonly kind: "break" }
    | { readonly kind: "pass" }
    | {
      readonly kind: "succeed";
      readonly outputs: readonly { readonly name: string; readonly value: ExprPlan }[];
    }
    | {
      readonly kind: "fail";
      readonly error: string;
      readonly reason: ExprPlan | null;
      readonly leaving: readonly string[];
    }
    | {
      /**
       * The period check before a statement that reads `now` in the body (docs/design/dandori.md#the-workflow-period): outside, the flow
       * goes as after an unhandled task error.
       */
      readonly kind: "period";
      readonly before: string;
    }
  );

/** The period the workflow runs in (`now range …`), with its ends as a time range compares them. */
export interface PeriodPlan {
  readonly first: string | null;
  readonly after: string | null;
  readonly text: string;
}

/** A case (docs/design/dandori.md#cases): the machine it follows and the record it is. */
export interface CasePlan {
  readonly name: string;
  readonly line: number;
  /** `<book>.<transfer>`: both the machine and the record type. */
  readonly machine: string;
  readonly states: readonly string[];
  readonly initial: string;
  readonly finals: readonly string[];
  readonly events: readonly string[];
  /** Events that happen without the workflow (a hold's `expire`). */
  readonly external: readonly string[];
  /** In `state`, `event` leads to `next` (null: stays), or is refused with `refused`. */
  readonly rows: readonly {
    readonly state: string;
    readonly event: string;
    readonly next: string | null;
    readonly refused: string | null;
  }[];
}

/** A book the flow uses (`use book`). */
export interface BookUsePlan {
  readonly name: string;
  /** The line of `use book`. */
  readonly line: number;
  readonly path: string;
  readonly lambda: string | null;
  /**
   * Every transfer of the book in its declared order, with its parameters in theirs: the names
   * chobo's clients are made from (a client names a member apart from the others of its kind),
   * so a target that calls a client spells its members as chobo does.
   */
  readonly transfers: readonly { readonly name: string; readonly params: readonly string[] }[];
}

/** A node of the control-flow graph. */
export type NodePlan = {
  readonly id: string;
  readonly line: number;
  readonly kind:
    | "start"
    | "period"
    | "call"
    | "let"
    | "match"
    | "wait"
    | "loop"
    | "yield"
    | "pass"
    | "succeed"
    | "fail"
    | "end";
  /** The block the node is in. */
  readonly block: "flow" | "failure" | "cancel";
  /** For a statement, its place; the start, the ends and the loops' heads have their own ids. */
  readonly place: string | null;
};

/**
 * What must happen for the flow to go along an edge. An iteration of a parallel loop that ends
 * early ends at its loop (its `unhandled`, `outside`, `bad response` and `failed` edges go there),
 * and the loop, once its last iteration has ended, goes on with the first failure in list order
 * (docs/design/dandori.md#parallel-iterations): along its own `unhandled` or `outside` edge to where its block's errors go, or along its
 * `failed` edge to the workflow's failure.
 */
export type EdgeCondition =
  | { readonly kind: "next" }
  | { readonly kind: "ok" }
  | { readonly kind: "arm"; readonly index: number; readonly conditions: readonly ArmCondition[] }
  | { readonly kind: "handler"; readonly index: number; readonly errors: readonly string[] }
  | { readonly kind: "unhandled"; readonly errors: readonly string[] }
  /** The answer does not have the declared shape (`Dandori.BadResponse`): the workflow fails, `on failure` does not run. */
  | { readonly kind: "bad response" }
  /** A `fail` or a bad response ended a parallel iteration (to its loop), or the loop ends with it (to the workflow's failure). */
  | { readonly kind: "failed" }
  | { readonly kind: "iteration" }
  | { readonly kind: "again" }
  | { readonly kind: "done" }
  | { readonly kind: "break" }
  | { readonly kind: "inside" }
  | { readonly kind: "outside" }
  | { readonly kind: "cancel" };

/** An edge of the control-flow graph. */
export interface EdgePlan {
  readonly from: string;
  readonly to: string;
  readonly when: EdgeCondition;
}

/** The plan of one flow. */
export interface Plan {
  readonly v: typeof PLAN_VERSION;
  readonly workflow: {
    readonly name: string;
    readonly version: number;
    readonly description: string | null;
    readonly historyEncrypted: boolean;
  };
  readonly period: PeriodPlan | null;
  readonly inputs: readonly FieldPlan[];
  readonly outputs: readonly FieldPlan[];
  readonly records: readonly RecordPlan[];
  readonly enums: readonly EnumPlan[];
  readonly books: readonly BookUsePlan[];
  readonly tasks: readonly TaskPlan[];
  readonly cases: readonly CasePlan[];
  readonly blocks: {
    readonly flow: readonly StmtPlan[];
    readonly failure: readonly StmtPlan[] | null;
    readonly cancel: readonly StmtPlan[] | null;
  };
  /** The lines `on failure` and `on cancel` are written on (null where the flow has none), for a target's diagnostics. */
  readonly blockLines: { readonly failure: number | null; readonly cancel: number | null };
  readonly graph: { readonly nodes: readonly NodePlan[]; readonly edges: readonly EdgePlan[] };
}

/** The statement lists under a statement: a call's handlers, a match's arms, a loop's body. */
export function innerLists(s: StmtPlan): readonly (readonly StmtPlan[])[] {
  switch (s.kind) {
    case "call":
      return s.call.handlers.map((h) => h.body);
    case "match":
      return s.arms.map((a) => a.body);
    case "repeat":
    case "for":
      return [s.body];
    case "let":
    case "wait":
    case "wait until":
    case "yield":
    case "break":
    case "pass":
    case "succeed":
    case "fail":
    case "period":
      return [];
    default:
      return unreachable(s, "statement");
  }
}

/** The task of a name, which the plan holds. */
export function taskOf(plan: Plan, name: string): TaskPlan {
  const t = plan.tasks.find((x) => x.name === name);
  assert(t !== undefined, `the plan has the task ${name}`);
  return t;
}

/** Whether an expression reads `now` (every target reads it once before the statement that does: docs/design/dandori.md#the-workflow-period). */
export function readsNow(e: ExprPlan): boolean {
  switch (e.kind) {
    case "now":
      return true;
    case "string":
      return e.parts.some((p) => "value" in p && readsNow(p.value));
    case "record":
      return e.fields.some((f) => readsNow(f.value));
    case "list":
      return e.items.some(readsNow);
    case "read":
    case "int":
    case "bool":
    case "enum":
    case "none":
      return false;
    default:
      return unreachable(e, "expression");
  }
}

/** The expressions a statement reads itself (not those of the statements under it), for its `now`. */
export function stmtExprs(s: StmtPlan): ExprPlan[] {
  switch (s.kind) {
    case "call":
      return s.call.args.map((a) => a.value);
    case "let":
      return [s.value];
    case "match":
      return s.subject.kind === "case" ? [] : [s.subject.value];
    case "wait until":
      return [s.at];
    case "for":
      return [s.list];
    case "yield":
      return [s.value];
    case "succeed":
      return s.outputs.map((o) => o.value);
    case "fail":
      return s.reason === null ? [] : [s.reason];
    case "wait":
    case "repeat":
    case "break":
    case "pass":
    case "period":
      return [];
    default:
      return unreachable(s, "statement");
  }
}

/**
 * True when a value of an `http` call goes into its URL's path (after the host, before the query),
 * where a `.` or `..` would send the call to another path: such a call is checked before it is
 * sent, and fails with `Dandori.BadInput` when a value makes one (docs/dandori.md#urls).
 */
export function valueInUrlPath(callee: CalleePlan): boolean {
  if (callee.kind !== "http") return false;
  let text = "";
  for (const p of callee.url) {
    if ("text" in p) {
      text += p.text;
      continue;
    }
    const afterScheme = text.slice(text.indexOf("//") + 2);
    if (/^[^/?]*\//.test(afterScheme) && !afterScheme.includes("?")) return true;
    text += "v";
  }
  return false;
}

/** The variables a block assigns (not inside parallel iterations, which have their own), with their types. */
export function assigned(ss: readonly StmtPlan[], into: Map<string, TypePlan>): Map<string, TypePlan> {
  const add = (name: string, t: TypePlan) => {
    if (!into.has(name)) into.set(name, t);
  };
  for (const s of ss) {
    switch (s.kind) {
      case "call":
        if (s.bind?.kind === "let") add(s.bind.name, s.bind.type);
        for (const h of s.call.handlers) assigned(h.body, into);
        break;
      case "let":
        add(s.name, s.type);
        break;
      case "match":
        for (const a of s.arms) {
          for (const c of a.conditions) {
            if (c.kind === "some") {
              const t = s.subject.kind === "case" ? null : s.subject.value.type;
              assert(t !== null && t.kind === "optional", "`some x` binds an optional's value");
              add(c.bind, t.inner);
            }
          }
          assigned(a.body, into);
        }
        break;
      case "repeat":
        assigned(s.body, into);
        break;
      case "for":
        // A one-at-a-time loop's variable is the flow's variable: it keeps its last item after the
        // loop, as the interpreter's does; a parallel iteration's is its own.
        if (s.parallel === null) add(s.variable, s.element);
        if (s.collect !== null) add(s.collect.name, s.collect.type);
        if (s.parallel === null) assigned(s.body, into);
        break;
      case "wait":
      case "wait until":
      case "yield":
      case "break":
      case "pass":
      case "succeed":
      case "fail":
      case "period":
        break;
      default:
        unreachable(s, "statement");
    }
  }
  return into;
}

/**
 * The variables a parallel iteration declares for itself: what its body assigns, but its own
 * variable, which is the iteration function's parameter (a loop inside may assign it again).
 */
export function iterationVariables(s: Extract<StmtPlan, { kind: "for" }>): Map<string, TypePlan> {
  const vars = assigned(s.body, new Map());
  vars.delete(s.variable);
  return vars;
}
