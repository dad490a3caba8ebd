/**
 * The lowering: a checked flow → its plan (`plan.ts`), once, for every printer and the page.
 * Pure: it reads the model, what typing found and the children's models, and nothing else.
 *
 * Decisions the lowering makes (`docs/design/dandori.md` gives them, or `docs/dandori.md` writes them down):
 * - a task's `retry` (as the model reads it, defaults and all) becomes Step Functions' retriers:
 *   without `on`, its declared errors first with `maxAttempts: 0`, then `*` with `n`; with
 *   `on e, …`, one retrier for those;
 * - a task's timeout is the model's (the day an `event` or `callback` task waits without one included);
 * - an `http` task sends the arguments its URL does not take as the query of a GET or DELETE,
 *   else as the body (JSON, or a form with `form` or when its OpenAPI operation takes only a form);
 *   an operation of a `use openapi` calls the description's first server (or the `use`'s `url`)
 *   followed by its path;
 * - a period check (`s<line>:period`) comes before every statement of the body that reads `now`
 *   (`places.ts`, docs/design/dandori.md#the-workflow-period), with the period's ends written out
 *   as a time range compares them.
 *
 * The reference interpreter reads none of this: it applies the model's `retry`, timeout and period
 * itself, so a mistake made here shows in every differential run.
 * @module
 */

import { assert, findOne, lookup, unreachable } from "../common/assert.ts";
import type {
  BodyAst,
  CallStmtAst,
  ErrorDeclAst,
  ExprAst,
  ForStmtAst,
  MatchStmtAst,
  PatternAst,
  StmtAst,
  TaskAst,
  TaskItemAst,
  UseAst,
} from "./ast.ts";
import type { TypedFlow } from "./checked.ts";
import { agentEndpoint, answerSchema } from "./agent_requests.ts";
import { CONNECT_STATUS, declaredCode } from "./connect.ts";
import type { Machine } from "./machine.ts";
import type { FlowModel, Retry, TaskDef } from "./model.ts";
import {
  type ArmCondition,
  type ArmPlan,
  type CalleePlan,
  type CallPlan,
  type CasePlan,
  type ChildPlatforms,
  type EdgeCondition,
  type EdgePlan,
  type ExprPlan,
  type FieldPlan,
  type HandlerPlan,
  type KeyPlan,
  type MatchSubject,
  type NodePlan,
  type Plan,
  PLAN_VERSION,
  type RangePlan,
  type RetrierPlan,
  type StmtPlan,
  type TaskPlan,
  type TypePlan,
  valueInUrlPath,
} from "./plan.ts";
import { dayText, type Range, rangeText } from "./ranges.ts";
import { secondText } from "./rules.ts";
import type { FieldDef, Ty } from "./types.ts";
import type { Block } from "./typing.ts";
import { durationSeconds } from "./lexer.ts";
import { placeOf, readsNow } from "./places.ts";
import { urlParts } from "./urls.ts";

/**
 * How long one attempt of a callback task may take to hand its id on (docs/design/dandori.md#timeouts): 60 seconds on every
 * platform, Temporal's limit on the activity that hands it on; past it the attempt is a `timeout`.
 */
export const CALLBACK_HAND_ON_SECONDS = 60;

/** A type as the plan writes it. */
export function typePlan(t: Ty): TypePlan {
  switch (t.kind) {
    case "int":
    case "string":
    case "bool":
    case "timestamp":
    case "date":
    case "json":
      return { kind: t.kind };
    case "num":
      return { kind: "num", unit: t.unit.spelling };
    case "enum":
    case "record":
      return { kind: t.kind, name: t.name };
    case "list":
      return { kind: "list", element: typePlan(t.element) };
    case "optional":
      return { kind: "optional", inner: typePlan(t.inner) };
    default:
      return unreachable(t, "type");
  }
}

/** A range with its ends written out as every platform compares them. */
export function rangePlan(r: Range): RangePlan {
  const text = rangeText(r);
  switch (r.kind) {
    case "number":
      return { kind: "number", lower: r.lo?.toString() ?? null, upper: r.hi?.toString() ?? null, text };
    case "date":
      return {
        kind: "date",
        first: r.lo === null ? null : dayText(r.lo),
        last: r.hi === null ? null : dayText(r.hi),
        text,
      };
    case "time":
      return {
        kind: "time",
        first: r.lo === null ? null : secondText(Number(r.lo) * 1000),
        after: r.hi === null ? null : secondText((Number(r.hi) + 1) * 1000),
        text,
      };
    default:
      return unreachable(r.kind, "range kind");
  }
}

/**
 * A field; one a `use` made (line 0: a hold record's, a type made from a `.proto`) is placed on
 * `bookLine`, the line of its `use`.
 */
function fieldPlan(f: FieldDef, bookLine = 0): FieldPlan {
  return {
    name: f.name,
    line: f.line === 0 ? bookLine : f.line,
    type: typePlan(f.type),
    range: f.range === null ? null : rangePlan(f.range),
  };
}

function machinePlan(name: string, line: number, record: string, m: Machine): CasePlan {
  return {
    name,
    line,
    machine: record,
    states: m.states,
    initial: m.initial,
    finals: m.finals,
    events: m.events,
    external: m.external,
    rows: m.rows.map((r) => ({ state: r.state, event: r.event, next: r.next, refused: r.refused })),
  };
}

/** The item of a kind; a member whose `kind` is a union of words counts for each of them. */
type Item<K extends TaskItemAst["kind"]> = TaskItemAst & { readonly kind: K };

function itemOf<K extends TaskItemAst["kind"]>(t: TaskAst, kind: K): Item<K> | null {
  return t.items.find((i): i is Item<K> => i.kind === kind) ?? null;
}

/** Lowers one flow; `file` names it in nothing but is kept for the caller's messages. */
class Lowering {
  private readonly nodes: NodePlan[] = [];
  private readonly edges: EdgePlan[] = [];

  constructor(private readonly flow: TypedFlow) {}

  private get m(): FlowModel {
    return this.flow.model;
  }

  plan(): Plan {
    const m = this.m;
    const blocks = {
      flow: this.body(m.flow, "flow"),
      failure: m.onFailure === null ? null : this.body(m.onFailure, "failure"),
      cancel: m.onCancel === null ? null : this.body(m.onCancel, "cancel"),
    };
    const tasks = m.ast.tasks.map((t) => this.task(t, lookup(m.tasks, t.name.text, "task")));
    const checked = new Set(
      tasks.filter((t) => t.result !== null || t.callee.kind === "book").map((t) => t.name),
    );
    const urlChecked = new Set(tasks.filter((t) => valueInUrlPath(t.callee)).map((t) => t.name));
    new Graph(this.nodes, this.edges, m.period !== null, checked, urlChecked).draw(blocks);
    const w = m.ast.workflows[0];
    return {
      v: PLAN_VERSION,
      workflow: {
        name: m.name,
        version: Number(w.version.text.slice(1)),
        description: m.ast.descriptions[0]?.text ?? null,
        historyEncrypted: w.historyEncrypted !== null,
      },
      period: m.period === null ? null : (() => {
        const r = rangePlan(m.period);
        assert(r.kind === "time", "a period is a range of times");
        return { first: r.first, after: r.after, text: r.text };
      })(),
      inputs: m.inputs.map((f) => fieldPlan(f)),
      outputs: m.outputs.map((f) => fieldPlan(f)),
      records: [...m.types.records.values()].map((r) => {
        const line = r.line === 0 ? this.useLine(r.name) : r.line;
        return { name: r.name, line, fields: r.fields.map((f) => fieldPlan(f, line)) };
      }),
      enums: [...m.types.enums.values()].map((e) => ({
        name: e.name,
        line: e.line === 0 ? this.useLine(e.name) : e.line,
        values: e.values,
      })),
      books: m.ast.uses.filter((u) => u.source.text === "book").map((u) => ({
        name: u.name.text,
        line: u.name.line,
        path: u.path.text,
        lambda: useLambda(u),
        transfers: lookup(m.books, u.name.text, "book").chobo.transfers.map((t) => ({
          name: t.name,
          params: t.params.map((p) => p.name),
        })),
      })),
      tasks,
      cases: [...m.cases.values()].map((c) => machinePlan(c.name, c.line, c.record, c.machine)),
      blocks,
      blockLines: { failure: m.onFailure?.line ?? null, cancel: m.onCancel?.line ?? null },
      graph: { nodes: this.nodes, edges: this.edges },
    };
  }

  /**
   * The line of the `use` a type made from it comes from: a hold's record or states
   * (`<book>.<transfer>…`), or a type made from a `.proto` (`<api>.<Name>`).
   */
  private useLine(name: string): number {
    const source = name.split(".")[0];
    return findOne(this.m.ast.uses, (u) => u.name.text === source, `use ${source}`).name.line;
  }

  // -------------------------------------------------------------------------------------------
  // Tasks

  private task(ast: TaskAst, def: TaskDef): TaskPlan {
    // A `connect` task's error is its Connect code's HTTP status on the wire (connect.ts).
    const wire = (e: ErrorDeclAst): string | null => {
      if (def.method === "connect") return String(CONNECT_STATUS[declaredCode(e)]);
      return e.value === null ? null : e.value.kind === "status" ? e.value.status.text : e.value.name.text;
    };
    const errors = ast.items.flatMap((i) =>
      i.kind === "errors" ? i.errors.map((e) => ({ name: e.name.text, wire: wire(e) })) : []
    );
    return {
      name: def.name,
      line: def.line,
      params: def.params.map(fieldPlan),
      result: def.result === null ? null : {
        type: typePlan(def.result.type),
        range: def.result.range === null ? null : rangePlan(def.result.range),
      },
      callee: this.callee(ast, def),
      errors,
      retry: def.retry === null ? [] : retriers(def.retry, errors.map((e) => e.name)),
      retries: def.retry?.times ?? 0,
      timeout: def.timeout,
      key: this.key(ast, def),
      idempotent: def.idempotent,
      callback: !def.callback ? null : {
        via: def.method === "lambda" ? "lambda" : def.method === "aws" ? "sqs" : "own",
        handOnSeconds: CALLBACK_HAND_ON_SECONDS,
      },
      effect: def.starts !== null
        ? { kind: "starts", machine: def.starts }
        : def.sends !== null
        ? { kind: "sends", event: def.sends }
        : null,
      connection: itemOf(ast, "connection")?.value.text ?? null,
      image: itemOf(ast, "image")?.value.text ?? null,
    };
  }

  private key(ast: TaskAst, def: TaskDef): KeyPlan | null {
    const k = itemOf(ast, "key");
    if (k === null) return null;
    if (k.param !== null) return { in: "argument", name: k.param.text };
    return def.method === "http" || def.method === "connect"
      ? { in: "header", name: "Idempotency-Key" }
      : { in: "payload", name: "idempotency_key" };
  }

  private callee(ast: TaskAst, def: TaskDef): CalleePlan {
    switch (def.method) {
      case "lambda":
        return { kind: "lambda", function: lookupItem(itemOf(ast, "lambda"), def).value.text };
      case "http": {
        const h = lookupItem(itemOf(ast, "http"), def);
        assert(def.url !== null, "a checked http task has its URL");
        const url = urlParts(def.url.text, def.params.map((p) => p.name));
        const inUrl = new Set(url.flatMap((p) => "param" in p ? [p.param] : []));
        const method = h.method.text.toUpperCase();
        return {
          kind: "http",
          method,
          url,
          form: def.form,
          rest: def.params.map((p) => p.name).filter((n) => !inUrl.has(n)),
          restIn: method === "GET" || method === "DELETE" ? "query" : "body",
          connect: null,
        };
      }
      case "connect": {
        assert(def.connect !== null, "a checked connect task has its call");
        const { url, call } = def.connect;
        return {
          kind: "http",
          method: "POST",
          url: [{ text: `${url.replace(/\/$/, "")}${call.path}` }],
          form: false,
          rest: def.params.map((p) => p.name),
          restIn: "body",
          connect: { request: call.request, fill: call.fill },
        };
      }
      case "aws": {
        const a = lookupItem(itemOf(ast, "aws"), def);
        return { kind: "aws", service: a.service.text, operation: a.operation.text };
      }
      case "book": {
        assert(def.book !== null, "a book task has its call");
        const b = def.book;
        const takes = b.op === "post" || b.op === "void"
          ? b.transfer.params.filter((p) =>
            b.transfer.key.includes(p.name) || (b.op === "post" && p.amount !== null)
          )
          : b.transfer.params;
        const given = new Set(def.params.map((p) => p.name));
        const use = this.m.ast.uses.find((u) => u.source.text === "book" && u.name.text === b.book);
        return {
          kind: "book",
          book: b.book,
          transfer: b.transfer.name,
          op: b.op,
          lambda: use === undefined ? null : useLambda(use),
          strings: takes.filter((p) => p.amount === null && given.has(p.name)).map((p) => p.name),
          amounts: takes.filter((p) => p.amount !== null && given.has(p.name)).map((p) => p.name),
          key: b.transfer.key,
        };
      }
      case "flow": {
        const child = lookup(this.flow.children, def.name, "child flow").model;
        const name = `${child.name}_v${Number(child.ast.workflows[0].version.text.slice(1))}`;
        const platforms = this.platforms(ast);
        return {
          kind: "flow",
          path: lookupItem(def.child, def).path,
          workflow: child.name,
          version: Number(child.ast.workflows[0].version.text.slice(1)),
          platforms: { ...platforms, workflow: platforms.workflow ?? name, queue: platforms.queue ?? name },
        };
      }
      case "child":
        return { kind: "child", platforms: this.platforms(ast) };
      case "event":
        return { kind: "event" };
      case "own":
        return { kind: "own" };
      case "agent": {
        assert(def.agent !== null && def.result !== null, "a checked agent has its request and a result");
        const a = def.agent;
        return {
          kind: "agent",
          provider: a.provider,
          model: a.model,
          instructions: a.instructions,
          endpoint: agentEndpoint(a.provider, a.url?.text ?? null),
          effort: a.effort,
          schema: answerSchema(def.result.type, this.m.types),
        };
      }
      // Decision-model tasks stop at E018 in the check (support.ts).
      case "jev":
        throw new Error(`dandori: ${def.method} tasks stop at E018 before the lowering`);
      default:
        return unreachable(def.method, "call method");
    }
  }

  private platforms(ast: TaskAst): ChildPlatforms {
    const of = (p: Item<"child">["platform"]) =>
      ast.items.find((i): i is Item<"child"> => i.kind === "child" && i.platform === p)?.value.text ?? null;
    return {
      workflow: of("workflow"),
      queue: itemOf(ast, "queue")?.value.text ?? null,
      stateMachine: of("state machine"),
      durableFunction: of("durable function"),
      workflowTemplate: of("workflow template"),
    };
  }

  // -------------------------------------------------------------------------------------------
  // Statements

  private body(b: BodyAst, block: Block): StmtPlan[] {
    return this.stmts(b.body, block, []);
  }

  private stmts(ss: readonly StmtAst[], block: Block, loops: readonly string[]): StmtPlan[] {
    return ss.flatMap((s) => {
      const lowered = this.stmt(s, block, loops);
      if (lowered === null) return [];
      return block === "flow" && this.m.period !== null && readsNow(s)
        ? [
          { place: `${placeOf(s)}:period`, line: s.line, kind: "period", before: placeOf(s) } as StmtPlan,
          lowered,
        ]
        : [lowered];
    });
  }

  private stmt(s: StmtAst, block: Block, loops: readonly string[]): StmtPlan | null {
    const at = { place: placeOf(s), line: s.line };
    switch (s.kind) {
      case "call":
        return { ...at, ...this.callStmt(s, block, loops) };
      case "let":
        return {
          ...at,
          kind: "let",
          name: s.name.text,
          type: this.varType(s.name.text),
          value: this.expr(s.value),
        };
      case "match":
        return { ...at, kind: "match", ...this.match(s, block, loops) };
      case "wait":
        if (s.until !== null) return { ...at, kind: "wait until", at: this.expr(s.until) };
        assert(s.duration !== null, "a wait has a length or a time");
        return { ...at, kind: "wait", seconds: durationSeconds(s.duration) };
      case "repeat":
        return {
          ...at,
          kind: "repeat",
          atMost: Number(s.atMost.text),
          body: this.stmts(s.body, block, [...loops, at.place]),
        };
      case "for":
        return { ...at, ...this.forStmt(s, block, loops) };
      case "yield":
        return { ...at, kind: "yield", value: this.expr(s.value) };
      case "break":
        return { ...at, kind: "break" };
      case "pass":
        return { ...at, kind: "pass" };
      case "succeed":
        return {
          ...at,
          kind: "succeed",
          outputs: s.outputs.map((o) => ({ name: o.name.text, value: this.expr(o.value) })),
        };
      case "fail":
        return {
          ...at,
          kind: "fail",
          error: s.error.text,
          reason: s.reason === null ? null : this.expr(s.reason),
          leaving: s.leaving.map((w) => w.text),
        };
      case "elided":
        throw new Error("dandori: `…` stops at E001 before the lowering");
      default:
        return unreachable(s, "statement");
    }
  }

  private callStmt(s: CallStmtAst, block: Block, loops: readonly string[]) {
    const t = lookup(this.flow.typed.calls, s, "call's task");
    const given = new Map(
      s.call.args.flatMap((a) => a.kind === "arg" ? [[a.name.text, a.value] as const] : []),
    );
    const handlers: HandlerPlan[] = s.handlers.map((h) => ({
      line: h.line,
      errors: h.errors.map((e) => e.text),
      body: this.stmts(h.body, block, loops),
    }));
    const unhandled = block === "flow" && this.m.onFailure !== null ? "on failure" : "fail";
    const routes = [...t.errors.keys(), "timeout", "failure"].map((error) => {
      const i = handlers.findIndex((h) => h.errors.includes(error));
      return { error, to: i >= 0 ? i : unhandled } as const;
    });
    const call: CallPlan = {
      task: t.name,
      args: t.params.flatMap((p) => {
        const v = given.get(p.name);
        return v === undefined ? [] : [{ name: p.name, value: this.expr(v) }];
      }),
      handlers,
      routes,
      case: s.bind?.kind === "case"
        ? {
          name: s.bind.name.text,
          effect: t.starts !== null
            ? { kind: "starts", machine: t.starts }
            : { kind: "sends", event: t.sends ?? "" },
        }
        : null,
      loops,
    };
    const bind = s.bind === null
      ? null
      : s.bind.kind === "case"
      ? { kind: "case" as const, name: s.bind.name.text }
      : { kind: "let" as const, name: s.bind.name.text, type: this.varType(s.bind.name.text) };
    return { kind: "call" as const, call, bind };
  }

  private match(
    s: MatchStmtAst,
    block: Block,
    loops: readonly string[],
  ): { subject: MatchSubject; arms: ArmPlan[] } {
    const kind = lookup(this.flow.typed.matches, s, "match's kind");
    const arms = s.arms.map((a) => ({
      line: a.line,
      conditions: a.patterns.map((p) => condition(p)),
      body: this.stmts(a.body, block, loops),
    }));
    switch (kind.kind) {
      case "case": {
        const c = kind.case;
        return { subject: { kind: "case", case: c.name, states: c.machine.states }, arms };
      }
      case "values":
        return { subject: { kind: "value", value: this.expr(s.subject) }, arms };
      case "some":
        return { subject: { kind: "optional", value: this.expr(s.subject) }, arms };
      default:
        return unreachable(kind, "match kind");
    }
  }

  private forStmt(s: ForStmtAst, block: Block, loops: readonly string[]) {
    const list = this.expr(s.list);
    assert(list.type.kind === "list", "`for` goes over a list");
    return {
      kind: "for" as const,
      variable: s.variable.text,
      element: list.type.element,
      list,
      atMost: Number(s.atMost.text),
      parallel: s.parallel === null
        ? null
        : { atATime: s.parallel.together === null ? null : Number(s.parallel.together.text) },
      collect: s.bind === null ? null : { name: s.bind.text, type: this.varType(s.bind.text) },
      body: this.stmts(s.body, block, [...loops, placeOf(s)]),
    };
  }

  private varType(name: string): TypePlan {
    const v = lookup(this.flow.typed.vars, name, "variable");
    assert(v.type !== null, `a checked flow types every variable: ${name}`);
    return typePlan(v.type);
  }

  // -------------------------------------------------------------------------------------------
  // Expressions

  private expr(e: ExprAst): ExprPlan {
    const type = typePlan(lookup(this.flow.typed.types, e, "value's type"));
    switch (e.kind) {
      case "path":
        return this.path(e, type);
      case "number":
        return { kind: "int", value: BigInt(e.text).toString(), type };
      case "string":
        return {
          kind: "string",
          parts: e.parts.map((p) => p.kind === "text" ? { text: p.text } : { value: this.expr(p.value) }),
          type,
        };
      case "bool":
        return { kind: "bool", value: e.value, type };
      case "none":
        return { kind: "none", type };
      case "now":
        return { kind: "now", type };
      case "record":
        return {
          kind: "record",
          fields: e.fields.map((f) => ({ name: f.name.text, value: this.expr(f.value) })),
          type,
        };
      case "list":
        return { kind: "list", items: e.items.map((i) => this.expr(i)), type };
      case "elided":
        throw new Error("dandori: `…` stops at E001 before the lowering");
      default:
        return unreachable(e, "value");
    }
  }

  /** A name as typing reads it: a variable, else an input, else a case, else a value of the enum expected. */
  private path(e: Extract<ExprAst, { kind: "path" }>, type: TypePlan): ExprPlan {
    const [head, ...fields] = e.parts;
    const m = this.m;
    const from = this.flow.typed.vars.has(head.text)
      ? "variable"
      : m.inputs.some((i) => i.name === head.text)
      ? "input"
      : m.cases.has(head.text)
      ? "case"
      : null;
    if (from === null) {
      assert(fields.length === 0 && type.kind === "enum", `${head.text} is an enum value`);
      return { kind: "enum", value: head.text, type };
    }
    let t: Ty = from === "variable"
      ? nonNull(lookup(this.flow.typed.vars, head.text, "variable").type, head.text)
      : from === "input"
      ? nonNull(m.inputs.find((i) => i.name === head.text)?.type ?? null, head.text)
      : { kind: "record", name: lookup(m.cases, head.text, "case").record };
    const root = typePlan(t);
    const path = fields.map((f) => {
      assert(t.kind === "record", `${head.text}: a field is read of a record`);
      const field = lookup(m.types.records, t.name, "record").fields.find((x) => x.name === f.text);
      assert(field !== undefined, `${t.name} has the field ${f.text}`);
      t = field.type;
      return { field: f.text, type: typePlan(t) };
    });
    return { kind: "read", from, name: head.text, path, type: path.length === 0 ? root : type };
  }
}

/**
 * Step Functions' retriers of a `retry` (docs/design/dandori.md#retries): with `on`, one for those
 * errors; without, the declared errors stopped first (`maxAttempts` 0), then `*`.
 */
function retriers(retry: Retry, declared: readonly string[]): RetrierPlan[] {
  const common = { intervalSeconds: retry.everySeconds, backoff: retry.backoff };
  if (retry.on !== null) return [{ errors: retry.on, maxAttempts: retry.times, ...common }];
  const stops = declared.length === 0 ? [] : [{ errors: declared, maxAttempts: 0, ...common }];
  return [...stops, { errors: ["*"], maxAttempts: retry.times, ...common }];
}

/** The `lambda "…"` under a `use`, or null. */
function useLambda(u: UseAst): string | null {
  for (const i of u.items) if (i.kind === "lambda") return i.value.text;
  return null;
}

function nonNull<T>(v: T | null, what: string): T {
  assert(v !== null, `a checked flow types ${what}`);
  return v;
}

function lookupItem<T>(item: T | null, def: TaskDef): T {
  assert(item !== null, `${def.name}'s way of calling has its item`);
  return item;
}

function condition(p: PatternAst): ArmCondition {
  switch (p.kind) {
    case "value":
      return { kind: "values", values: [p.name.text] };
    case "bool":
      return { kind: "values", values: [String(p.value)] };
    case "none":
      return { kind: "none" };
    case "some":
      return { kind: "some", bind: p.name.text };
    case "elided":
      throw new Error("dandori: `…` stops at E001 before the lowering");
    default:
      return unreachable(p, "pattern");
  }
}

/**
 * The control-flow graph of the structured form: a node per statement, the start and the ends,
 * and edges with what must happen to go along them.
 */
class Graph {
  /**
   * `checked`: the tasks whose answers are checked against a type (a result, or a book's done), so
   * may be malformed; `urlChecked`: the tasks whose values go into their URL's path, so may make a
   * dot segment there (`valueInUrlPath`).
   */
  constructor(
    private readonly nodes: NodePlan[],
    private readonly edges: EdgePlan[],
    private readonly period: boolean,
    private readonly checked: ReadonlySet<string>,
    private readonly urlChecked: ReadonlySet<string>,
  ) {}

  draw(blocks: Plan["blocks"]): void {
    this.node({ id: "start", line: 0, kind: "start", block: "flow", place: null });
    const failure = blocks.failure === null ? "unhandled" : "failure";
    const cancel = blocks.cancel === null ? "cancel:end" : "cancel";
    this.node({ id: "flow:end", line: 0, kind: "end", block: "flow", place: null });
    this.node({ id: "unhandled", line: 0, kind: "end", block: "flow", place: null });
    let first = "start";
    if (this.period) {
      this.node({ id: "period:start", line: 0, kind: "period", block: "flow", place: null });
      this.node({ id: "period:outside", line: 0, kind: "end", block: "flow", place: null });
      this.edge("start", "period:start", { kind: "next" });
      this.edge("period:start", "period:outside", { kind: "outside" });
      first = "period:start";
    }
    const entry = this.list(blocks.flow, "flow:end", {
      block: "flow",
      failure,
      failed: null,
      cancel,
      loop: null,
    });
    this.edge(first, entry, this.period ? { kind: "inside" } : { kind: "next" });
    if (blocks.failure !== null) {
      this.node({ id: "failure", line: 0, kind: "start", block: "failure", place: null });
      this.node({ id: "failure:end", line: 0, kind: "end", block: "failure", place: null });
      const f = this.list(blocks.failure, "failure:end", {
        block: "failure",
        failure: "unhandled",
        failed: null,
        cancel,
        loop: null,
      });
      this.edge("failure", f, { kind: "next" });
    }
    if (blocks.cancel !== null) {
      this.node({ id: "cancel", line: 0, kind: "start", block: "cancel", place: null });
      const c = this.list(blocks.cancel, "cancel:end", {
        block: "cancel",
        failure: "unhandled",
        failed: null,
        cancel: null,
        loop: null,
      });
      this.edge("cancel", c, { kind: "next" });
    }
    this.node({ id: "cancel:end", line: 0, kind: "end", block: "cancel", place: null });
  }

  private node(n: NodePlan): void {
    this.nodes.push(n);
  }

  private edge(from: string, to: string, when: EdgeCondition): void {
    this.edges.push({ from, to, when });
  }

  /** The edge to the statement after one: back to its loop's head it is the next iteration. */
  private onward(from: string, next: string, ctx: Ctx, when: EdgeCondition): void {
    this.edge(from, next, next === ctx.loop?.head ? { kind: "again" } : when);
  }

  /**
   * The ways out of a parallel loop once its last iteration has ended with a failure held (docs/design/dandori.md#parallel-iterations):
   * one for each kind of early end its iterations have, toward where that failure goes.
   */
  private held(head: string, ctx: Ctx): void {
    const into = this.edges.filter((e) => e.to === head).map((e) => e.when);
    const errors = [...new Set(into.flatMap((w) => w.kind === "unhandled" ? w.errors : []))];
    if (errors.length > 0) this.edge(head, ctx.failure, { kind: "unhandled", errors });
    if (into.some((w) => w.kind === "outside")) this.edge(head, ctx.failure, { kind: "outside" });
    if (into.some((w) => w.kind === "failed" || w.kind === "bad response")) {
      this.edge(head, ctx.failed ?? "unhandled", { kind: "failed" });
    }
  }

  /** Draws a list of statements; returns the id of its first node (`next` when it is empty). */
  private list(ss: readonly StmtPlan[], next: string, ctx: Ctx): string {
    let after = next;
    for (let i = ss.length - 1; i >= 0; i--) after = this.stmt(ss[i], after, ctx);
    return after;
  }

  private stmt(s: StmtPlan, next: string, ctx: Ctx): string {
    const node = (kind: NodePlan["kind"]) =>
      this.node({ id: s.place, line: s.line, kind, block: ctx.block, place: s.place });
    switch (s.kind) {
      case "call": {
        node("call");
        this.onward(s.place, next, ctx, { kind: "ok" });
        s.call.handlers.forEach((h, index) => {
          this.edge(s.place, this.list(h.body, next, ctx), { kind: "handler", index, errors: h.errors });
        });
        const unhandled = s.call.routes.filter((r) => typeof r.to !== "number").map((r) => r.error);
        if (unhandled.length > 0) this.edge(s.place, ctx.failure, { kind: "unhandled", errors: unhandled });
        if (this.checked.has(s.call.task)) {
          this.edge(s.place, ctx.failed ?? "unhandled", { kind: "bad response" });
        }
        // A value that makes a dot segment in the URL fails the run before the call (Dandori.BadInput):
        // in a parallel iteration, the iteration ends there, as at a `fail`.
        if (ctx.failed !== null && this.urlChecked.has(s.call.task)) {
          this.edge(s.place, ctx.failed, { kind: "failed" });
        }
        if (ctx.cancel !== null) this.edge(s.place, ctx.cancel, { kind: "cancel" });
        return s.place;
      }
      case "match":
        node("match");
        s.arms.forEach((a, index) => {
          this.edge(s.place, this.list(a.body, next, ctx), { kind: "arm", index, conditions: a.conditions });
        });
        return s.place;
      case "repeat":
      case "for": {
        node("loop");
        const parallel = s.kind === "for" && s.parallel !== null;
        const inner: Ctx = {
          ...ctx,
          loop: { head: s.place, exit: next },
          ...(parallel ? { failure: s.place, failed: s.place } : {}),
        };
        this.edge(s.place, this.list(s.body, s.place, inner), { kind: "iteration" });
        this.onward(s.place, next, ctx, { kind: "done" });
        if (parallel) this.held(s.place, ctx);
        return s.place;
      }
      case "break":
        node("pass");
        assert(ctx.loop !== null, "`break` is in a loop");
        this.edge(s.place, ctx.loop.exit, { kind: "break" });
        return s.place;
      case "period":
        this.node({ id: s.place, line: s.line, kind: "period", block: ctx.block, place: s.place });
        this.onward(s.place, next, ctx, { kind: "inside" });
        this.edge(s.place, ctx.failure, { kind: "outside" });
        return s.place;
      case "succeed":
        node(s.kind);
        return s.place;
      case "fail":
        node(s.kind);
        if (ctx.failed !== null) this.edge(s.place, ctx.failed, { kind: "failed" });
        return s.place;
      case "let":
      case "yield":
      case "pass":
        node(s.kind);
        this.onward(s.place, next, ctx, { kind: "next" });
        return s.place;
      case "wait":
      case "wait until":
        node("wait");
        this.onward(s.place, next, ctx, { kind: "next" });
        if (ctx.cancel !== null) this.edge(s.place, ctx.cancel, { kind: "cancel" });
        return s.place;
      default:
        return unreachable(s, "statement");
    }
  }
}

interface Ctx {
  readonly block: Block;
  /** Where an unhandled error goes: the block's rule, or the parallel loop whose iteration it ends. */
  readonly failure: string;
  /** Where a `fail` or a malformed answer goes when it does not end the workflow where it is: a parallel loop. */
  readonly failed: string | null;
  /** Where a cancel goes, or null where none arrives (`on cancel`). */
  readonly cancel: string | null;
  readonly loop: { readonly head: string; readonly exit: string } | null;
}

/**
 * The plan of a checked flow.
 *
 * @example
 * ```ts
 * const check = checkFlow("order.flow", text, env);
 * if (check.checked !== null) console.log(stringifyJson(lower(check.checked), 2));
 * ```
 */
export function lower(flow: TypedFlow): Plan {
  return new Lowering(flow).plan();
}
