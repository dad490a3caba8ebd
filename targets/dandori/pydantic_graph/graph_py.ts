/**
 * `graph.py`: the flow as a pydantic-graph 2.x graph (docs/targets.md#pydantic-graph), one
 * `BaseNode` per statement, printed from the plan: each node's statement from the structured
 * form, where it goes from the control-flow graph's edges, so the `run` return type of every node
 * lists every node it may go to and `graph.render()` is the flow's chart.
 *
 * | statement | node |
 * |---|---|
 * | call | `dd.attempt` over `Deps.tasks.<task>` (the callback's wait through `Deps.callbacks`), each attempt of a task with `timeout` in `dd.within` (`asyncio.wait_for`); a handled error goes to its handler's first node, an unhandled one to `OnFailure` or `Unhandled`; before an `http` call whose values go into its URL's path, `Dandori.BadInput` when they make a segment `.` or `..` |
 * | `match` | one node that goes to its arm's first node; no arm: `Dandori.UnexpectedValue` / `Dandori.UnexpectedState` |
 * | `repeat`, `for` | `S<place>` starts the loop, `S<place>_again` counts the next iteration (the end of the body goes there) |
 * | `for … in parallel` | the body is a graph of its own, run on a copy of `State` per iteration, `k` at a time (`dd.rounds`) |
 * | `wait`, retries | `Deps.clock` |
 * | `succeed`, `fail` | `End(outputs)`; `dd.Failure` raised out of the graph |
 *
 * Variables, loop counters and each `now` read are fields of `State`; the ones the graph keeps
 * for itself start with `dd_`.
 * @module
 */

import { assert, unreachable } from "../../../lang/common/assert.ts";
import {
  type CallPlan,
  type EdgePlan,
  type ExprPlan,
  innerLists,
  type Plan,
  readsNow,
  stmtExprs,
  type StmtPlan,
  taskOf,
  type TaskPlan,
  type TimeoutPlan,
  valueInUrlPath,
} from "../../../lang/dandori/plan.ts";
import { dotSegmentReason } from "../../../lang/dandori/rules.ts";
import { conditionCode, end, pyExpr, type PyReads, taskTables, tooMany, tuple } from "../python/code.ts";
import { placeName as py, str } from "../python/names.ts";
import { urlOf } from "../python/task_bodies.ts";
import { checkExpr } from "../python/types_py.ts";
import { ident, nodeClass } from "./names.ts";

/** How a node reads values: variables from `State`, inputs from its input, cases from its records. */
const READS: PyReads = {
  name: (from, name) =>
    from === "case"
      ? `s.dd_cases.get(${str(name)})`
      : from === "input"
      ? `dd.field(s.dd_input, ${str(name)})`
      : `s.${ident(name)}`,
  now: (place) => `s.dd_now_${py(place)}`,
};

/** The return hint of a node that ends its graph. */
const END = "End[typing.Any]";

/** What is in scope where a statement's node is printed. */
interface Ctx {
  /** The graph the node belongs to: `main`, or the place of the parallel loop whose body it is. */
  readonly graph: string;
  /** The loops around, outermost first. */
  readonly loops: readonly { readonly place: string; readonly collect: string | null }[];
  /** The `State` field a `yield` appends to. */
  readonly collect: string | null;
  readonly block: "flow" | "failure";
}

/** Where an edge goes, as the lines that go there and the class the `run` hint lists. */
interface Goto {
  readonly lines: readonly string[];
  readonly hint: string | null;
}

class Printer {
  readonly nodes: string[] = [];
  /** The node classes of each graph, in printed order; the first node of each iteration graph. */
  readonly members = new Map<string, string[]>([["main", []]]);
  readonly firsts = new Map<string, string>();
  readonly used = new Set<string>();
  private readonly edges = new Map<string, EdgePlan[]>();
  private readonly stmts = new Map<string, StmtPlan>();
  /** The places whose `now` a period check reads before them. */
  private readonly checked = new Set<string>();

  constructor(readonly plan: Plan) {
    for (const e of plan.graph.edges) this.edges.set(e.from, [...this.edges.get(e.from) ?? [], e]);
    const walk = (ss: readonly StmtPlan[]) => {
      for (const s of ss) {
        this.stmts.set(s.place, s);
        if (s.kind === "period") this.checked.add(s.before);
        for (const b of innerLists(s)) walk(b);
      }
    };
    walk(plan.blocks.flow);
    if (plan.blocks.failure !== null) walk(plan.blocks.failure);
  }

  /** The edge from `from` of one of `kinds` (and `index`, for arms and handlers). */
  edge(from: string, kinds: readonly EdgePlan["when"]["kind"][], index?: number): EdgePlan {
    const e = (this.edges.get(from) ?? []).find((x) =>
      kinds.includes(x.when.kind) && (index === undefined || ("index" in x.when && x.when.index === index))
    );
    assert(e !== undefined, `the plan's graph has an edge from ${from} (${kinds.join(", ")})`);
    return e;
  }

  /** Going along an edge that ends nothing: to a node, the next iteration, or the flow's end. */
  go(e: EdgePlan, ctx: Ctx): Goto {
    const to = e.to;
    if (to === "flow:end") {
      assert(ctx.graph === "main", "the flow ends in the main graph");
      return { lines: [`return End(${this.plan.outputs.length === 0 ? "None" : "{}"})`], hint: END };
    }
    if (to === "unhandled" || to === "failure" || to === "failure:end") {
      return this.leave(to, "s.dd_error", ctx);
    }
    const s = this.stmts.get(to);
    assert(s !== undefined, `the edge's end ${to} is a statement`);
    if (e.when.kind === "again") {
      if (to === ctx.graph) return { lines: [`return End(s.dd_coll_${py(to)})`], hint: END };
      const cls = nodeClass(to, true);
      return { lines: [`return ${cls}()`], hint: cls };
    }
    return { lines: [`return ${nodeClass(to)}()`], hint: nodeClass(to) };
  }

  /** Leaving with a task's error `error` (an expression): to `on failure` or the run's failure; out of an iteration's graph. */
  leave(to: string, error: string, ctx: Ctx): Goto {
    if (ctx.graph !== "main") return { lines: [`raise ${error}`], hint: null };
    const cls = to === "failure" ? "OnFailure" : "Unhandled";
    this.used.add(cls);
    const set = error === "s.dd_error" ? [] : [`s.dd_error = ${error}`];
    return { lines: [...set, `return ${cls}()`], hint: cls };
  }

  /** Prints one node class into its graph. */
  node(cls: string, doc: string, ctx: Ctx, hints: readonly (string | null)[], body: readonly string[]): void {
    const seen = [...new Set(hints.filter((h): h is string => h !== null))];
    const members = this.members.get(ctx.graph);
    assert(members !== undefined, `the graph ${ctx.graph} is known`);
    members.push(cls);
    this.nodes.push(
      [
        "@dataclass",
        `class ${cls}(BaseNode[State, Deps, typing.Any]):`,
        `    """${doc}"""`,
        "",
        `    async def run(self, ctx: GraphRunContext[State, Deps]) -> ${
          seen.length === 0 ? END : seen.join(" | ")
        }:`,
        "        s = ctx.state",
        "        d = ctx.deps",
        ...body.map((l) => l === "" ? "" : `        ${l}`),
      ].join("\n"),
    );
  }

  block(ss: readonly StmtPlan[], ctx: Ctx): void {
    for (const s of ss) this.stmt(s, ctx);
  }

  stmt(s: StmtPlan, ctx: Ctx): void {
    const now = stmtExprs(s).some(readsNow) && !this.checked.has(s.place)
      ? [`s.dd_now_${py(s.place)} = d.clock.now()`]
      : [];
    const doc = `line ${s.line}: ${s.kind}`;
    const cls = nodeClass(s.place);
    const next = (kinds: readonly EdgePlan["when"]["kind"][]) =>
      this.go(this.edge(s.place, [...kinds, "again"]), ctx);
    switch (s.kind) {
      case "call":
        return this.call(s, s.call, ctx, now);
      case "let": {
        const g = next(["next"]);
        return this.node(cls, doc, ctx, [g.hint], [
          ...now,
          `s.${ident(s.name)} = ${this.expr(s.value, s.place)}`,
          ...g.lines,
        ]);
      }
      case "match":
        return this.match(s, ctx, now);
      case "wait": {
        const g = next(["next"]);
        return this.node(cls, doc, ctx, [g.hint], [`await d.clock.sleep(${s.seconds})`, ...g.lines]);
      }
      case "wait until": {
        const g = next(["next"]);
        return this.node(cls, doc, ctx, [g.hint], [
          ...now,
          `await dd.wait_until(d.clock, ${this.expr(s.at, s.place)})`,
          ...g.lines,
        ]);
      }
      case "repeat":
      case "for":
        return s.kind === "for" && s.parallel !== null ? this.parallel(s, ctx, now) : this.loop(s, ctx, now);
      case "yield": {
        assert(ctx.collect !== null, "a `yield` is inside a collecting loop");
        const g = next(["next"]);
        return this.node(cls, doc, ctx, [g.hint], [
          ...now,
          `s.${ctx.collect}.append(${this.expr(s.value, s.place)})`,
          ...g.lines,
        ]);
      }
      case "break": {
        const loop = ctx.loops[ctx.loops.length - 1];
        assert(loop !== undefined, "a `break` is inside a loop");
        const g = this.go(this.edge(s.place, ["break"]), ctx);
        const keep = loop.collect === null ? [] : [`s.${loop.collect} = s.dd_coll_${py(loop.place)}`];
        return this.node(cls, doc, ctx, [g.hint], [...keep, ...g.lines]);
      }
      case "pass": {
        const g = next(["next"]);
        return this.node(cls, doc, ctx, [g.hint], [...g.lines]);
      }
      case "succeed": {
        const outputs = this.outputs(s);
        const end = ctx.graph === "main" ? `return End(${outputs})` : `raise dd.Succeeded(${outputs})`;
        return this.node(cls, doc, ctx, [ctx.graph === "main" ? END : null], [...now, end]);
      }
      case "fail":
        return this.node(cls, doc, ctx, [], [
          ...now,
          `raise dd.Failure(${str(s.error)}, ${s.reason === null ? "None" : this.expr(s.reason, s.place)})`,
        ]);
      case "period":
        return this.period(s, ctx);
      default:
        return unreachable(s, "statement");
    }
  }

  outputs(s: Extract<StmtPlan, { kind: "succeed" }>): string {
    if (this.plan.outputs.length === 0) return "None";
    const given = new Map(s.outputs.map((o) => [o.name, o.value]));
    return `{${
      this.plan.outputs.map((o) => {
        const e = given.get(o.name);
        return `${str(o.name)}: ${e === undefined ? "None" : this.expr(e, s.place)}`;
      }).join(", ")
    }}`;
  }

  period(s: Extract<StmtPlan, { kind: "period" }>, ctx: Ctx): void {
    const p = this.plan.period;
    assert(p !== null, "a period check is in a flow with a period");
    const now = `s.dd_now_${py(s.before)}`;
    const inside = this.go(this.edge(s.place, ["inside", "again"]), ctx);
    const error = `dd.TaskError("Dandori.OutOfPeriod", "Dandori.OutOfPeriod", ${
      str(`line ${s.line}: now is `)
    } + ${now} + ${str(`, outside the period the workflow runs in, ${p.text}`)})`;
    const outside = this.leave(this.edge(s.place, ["outside"]).to, error, ctx);
    this.node(nodeClass(s.place), `line ${s.line}: the workflow's period`, ctx, [inside.hint, outside.hint], [
      `${now} = d.clock.now()`,
      `if not dd.time_in(${now}, ${end(p.first)}, ${end(p.after)}):`,
      ...outside.lines.map((l) => `    ${l}`),
      ...inside.lines,
    ]);
  }

  call(s: StmtPlan, c: CallPlan, ctx: Ctx, now: readonly string[]): void {
    assert(s.kind === "call", "a call statement");
    const task = taskOf(this.plan, c.task);
    const fields = c.args.map((a) => `${str(a.name)}: ${this.expr(a.value, s.place)}`);
    const loops = `[${
      c.loops.map((place) => {
        assert(ctx.loops.some((l) => l.place === place), `the loop ${place} around the call is in scope`);
        return `s.dd_i_${py(place)}`;
      }).join(", ")
    }]`;
    const key = task.key === null ? [] : [`"key": dd.key(d.run_id, ${str(s.place)}, ${loops})`];
    const method = `d.tasks.${ident(task.name)}`;
    const sent = `${method}(a, {${key.join(", ")}})`;
    const limit = task.timeout?.kind === "after" && task.callback === null ? task.timeout.seconds : null;
    const one = task.callback === null
      ? [
        "async def one(n: int) -> typing.Any:",
        `    return await ${limit === null ? sent : `dd.within(${sent}, ${limit})`}`,
      ]
      : [
        "async def one(n: int) -> typing.Any:",
        `    id_ = dd.callback_id(d.run_id, ${str(s.place)}, ${loops}, n)`,
        `    return await d.callbacks.wait(id_, d.clock, ${waitOf(task.timeout)}, lambda: ${method}(a, {${
          [...key, '"callback_id": id_'].join(", ")
        }}))`,
      ];
    const rule = `dd.CallRule(${s.line}, ${str(task.name)}, E[${str(task.name)}], R[${str(task.name)}])`;
    const hints: (string | null)[] = [];
    const handled: string[] = [];
    c.handlers.forEach((h, i) => {
      const g = this.go(this.edge(s.place, ["handler"], i), ctx);
      hints.push(g.hint);
      handled.push(`    if e.error in ${tuple(h.errors.map(str))}:`, ...g.lines.map((l) => `        ${l}`));
    });
    const unhandled = c.routes.some((r) => typeof r.to !== "number")
      ? this.leave(this.edge(s.place, ["unhandled"]).to, "e", ctx)
      : { lines: ["raise"], hint: null };
    hints.push(unhandled.hint);
    const ok = this.go(this.edge(s.place, ["ok", "again"]), ctx);
    hints.push(ok.hint);
    const dots = task.callee.kind === "http" && valueInUrlPath(task.callee)
      ? [
        `if dd.has_dot_segment(${urlOf(task.callee, "a")}):`,
        `    raise dd.Failure("Dandori.BadInput", ${str(dotSegmentReason(s.line, task.name))})`,
      ]
      : [];
    this.node(nodeClass(s.place), `line ${s.line}: ${task.name}`, ctx, hints, [
      ...now,
      `a: dict[str, typing.Any] = {${fields.join(", ")}}`,
      ...dots,
      "",
      ...one,
      "",
      "try:",
      `    got = await dd.attempt(${rule}, one, d.clock)`,
      "except dd.TaskError as e:",
      ...handled,
      ...unhandled.lines.map((l) => `    ${l}`),
      ...this.result(s, task),
      ...ok.lines,
    ]);
    for (const h of c.handlers) this.block(h.body, ctx);
  }

  /** The answer's check and where it goes: a variable, or a case with the record the book operation leaves. */
  result(s: StmtPlan, task: TaskPlan): string[] {
    assert(s.kind === "call", "a call statement");
    const bad = `    raise dd.Failure("Dandori.BadResponse", ${
      str(`line ${s.line}: the answer from ${task.name} does not have the declared shape`)
    })`;
    const lines: string[] = [];
    const callee = task.callee;
    let value = "got";
    if (callee.kind === "book") {
      lines.push('if not (dd.is_object(got) and got.get("result") in ("done", "done_before")):', bad);
      const state = callee.op === "hold" ? "held" : callee.op === "post" ? "posted" : "voided";
      value = callee.op === "do"
        ? "None"
        : `{${
          [...callee.key.map((k) => `${str(k)}: a.get(${str(k)})`), `"state": ${str(state)}`].join(", ")
        }}`;
    } else if (task.result !== null) {
      lines.push(`if not ${checkExpr(task.result.type, task.result.range, "got", "T.")}:`, bad);
    }
    const bind = s.bind;
    if (bind === null) return lines;
    if (bind.kind === "let") return [...lines, `s.${ident(bind.name)} = ${value}`];
    assert(this.plan.cases.some((x) => x.name === bind.name), `the case ${bind.name} is the plan's`);
    return [...lines, `s.dd_cases[${str(bind.name)}] = ${value}`];
  }

  match(s: Extract<StmtPlan, { kind: "match" }>, ctx: Ctx, now: readonly string[]): void {
    const subject = s.subject.kind === "case"
      ? `dd.field(s.dd_cases.get(${str(s.subject.case)}), "state")`
      : this.expr(s.subject.value, s.place);
    const hints: string[] = [];
    const lines = [...now, `m = ${subject}`];
    s.arms.forEach((arm, i) => {
      const g = this.go(this.edge(s.place, ["arm"], i), ctx);
      if (g.hint !== null) hints.push(g.hint);
      lines.push(`if ${arm.conditions.map((c) => conditionCode(c, "m")).join(" or ")}:`);
      for (const c of arm.conditions) if (c.kind === "some") lines.push(`    s.${ident(c.bind)} = m`);
      lines.push(...g.lines.map((l) => `    ${l}`));
    });
    const error = s.subject.kind === "case" ? "Dandori.UnexpectedState" : "Dandori.UnexpectedValue";
    lines.push(
      `raise dd.Failure(${str(error)}, ${
        str(`line ${s.line}: no arm of the match takes `)
      } + dd.json_text("none" if m is None else m))`,
    );
    this.node(nodeClass(s.place), `line ${s.line}: match`, ctx, hints, lines);
    for (const arm of s.arms) this.block(arm.body, ctx);
  }

  loop(s: Extract<StmtPlan, { kind: "repeat" | "for" }>, ctx: Ctx, now: readonly string[]): void {
    const p = s.place;
    const collect = s.kind === "for" && s.collect !== null ? ident(s.collect.name) : null;
    const start = [...now, `s.dd_i_${py(p)} = 0`];
    if (s.kind === "for") {
      start.push(
        `s.dd_list_${py(p)} = ${this.expr(s.list, p)}`,
        ...tooMany(s.line, `s.dd_list_${py(p)}`, s.atMost, "dd.Failure"),
      );
      start.push(`s.dd_coll_${py(p)} = []`);
    }
    const again = nodeClass(p, true);
    this.node(nodeClass(p), `line ${s.line}: ${s.kind}`, ctx, [again], [...start, `return ${again}()`]);
    const done = this.go(this.edge(p, ["done", "again"]), ctx);
    const inner: Ctx = {
      ...ctx,
      loops: [...ctx.loops, { place: p, collect }],
      collect: s.kind === "for" ? `dd_coll_${py(p)}` : ctx.collect,
    };
    const iteration = this.go(this.edge(p, ["iteration", "again"]), inner);
    const most = s.kind === "for" ? `len(s.dd_list_${py(p)})` : String(s.atMost);
    this.node(again, `line ${s.line}: the next iteration`, ctx, [done.hint, iteration.hint], [
      `s.dd_i_${py(p)} += 1`,
      `if s.dd_i_${py(p)} > ${most}:`,
      ...(collect === null ? [] : [`    s.${collect} = s.dd_coll_${py(p)}`]),
      ...done.lines.map((l) => `    ${l}`),
      ...(s.kind === "for" ? [`s.${ident(s.variable)} = s.dd_list_${py(p)}[s.dd_i_${py(p)} - 1]`] : []),
      ...iteration.lines,
    ]);
    this.block(s.body, inner);
  }

  parallel(s: Extract<StmtPlan, { kind: "for" }>, ctx: Ctx, now: readonly string[]): void {
    assert(s.parallel !== null, "a parallel loop");
    const p = s.place;
    const inner: Ctx = {
      ...ctx,
      graph: p,
      loops: [...ctx.loops, { place: p, collect: null }],
      collect: `dd_coll_${py(p)}`,
    };
    this.members.set(p, []);
    const first = this.edge(p, ["iteration"]).to;
    this.firsts.set(p, nodeClass(first));
    const done = this.go(this.edge(p, ["done", "again"]), ctx);
    const k = s.parallel.atATime === null ? "len(items)" : String(s.parallel.atATime);
    const succeeded = ctx.graph === "main"
      ? { lines: ["return End(e.outputs)"], hint: END }
      : { lines: ["raise"], hint: null };
    const failed = this.leave(
      ctx.block === "flow" && this.plan.blocks.failure !== null ? "failure" : "unhandled",
      "f",
      ctx,
    );
    this.node(
      nodeClass(p),
      `line ${s.line}: for in parallel`,
      ctx,
      [done.hint, succeeded.hint, failed.hint],
      [
        ...now,
        `items: list[typing.Any] = ${this.expr(s.list, p)}`,
        ...tooMany(s.line, "items", s.atMost, "dd.Failure"),
        "",
        "async def one(item: typing.Any, count: int) -> list[typing.Any]:",
        "    c = copy.copy(s)",
        `    c.${ident(s.variable)} = item`,
        `    c.dd_i_${py(p)} = count`,
        `    c.dd_coll_${py(p)} = []`,
        `    out: list[typing.Any] = await G_${py(p)}.run(state=c, deps=d, inputs=${nodeClass(first)}())`,
        "    return out",
        "",
        "try:",
        `    ys = await dd.rounds(dd.at_a_time(${k}), items, one)`,
        "except dd.Succeeded as e:",
        ...succeeded.lines.map((l) => `    ${l}`),
        "except dd.TaskError as f:",
        ...failed.lines.map((l) => `    ${l}`),
        ...(s.collect === null ? [] : [`s.${ident(s.collect.name)} = ys`]),
        ...done.lines,
      ],
    );
    this.block(s.body, inner);
  }

  /** An expression's code; `place` names the statement whose `dd_now_<place>` `now` reads. */
  expr(e: ExprPlan, place: string): string {
    return pyExpr(e, place, READS);
  }
}

function waitOf(t: TimeoutPlan | null): string {
  if (t === null) return "dd.ANSWER_WAIT_SECONDS";
  if (t.kind === "after") return String(t.seconds);
  return `str(a.get(${str(t.param)}))`;
}

/** The `State` fields of a flow: its variables, and each loop's and `now`'s own. */
function stateFields(plan: Plan): string[] {
  const vars = new Set<string>();
  const own: string[] = [];
  const walk = (ss: readonly StmtPlan[]) => {
    for (const s of ss) {
      if (stmtExprs(s).some(readsNow)) own.push(`dd_now_${py(s.place)}: str = ""`);
      switch (s.kind) {
        case "call":
          if (s.bind?.kind === "let") vars.add(s.bind.name);
          break;
        case "let":
          vars.add(s.name);
          break;
        case "match":
          for (const a of s.arms) for (const c of a.conditions) if (c.kind === "some") vars.add(c.bind);
          break;
        case "repeat":
          own.push(`dd_i_${py(s.place)}: int = 0`);
          break;
        case "for":
          vars.add(s.variable);
          if (s.collect !== null) vars.add(s.collect.name);
          own.push(`dd_i_${py(s.place)}: int = 0`);
          if (s.parallel === null) {
            own.push(`dd_list_${py(s.place)}: list[typing.Any] = field(default_factory=list)`);
          }
          own.push(`dd_coll_${py(s.place)}: list[typing.Any] = field(default_factory=list)`);
          break;
        case "period":
          own.push(`dd_now_${py(s.before)}: str = ""`);
          break;
        case "wait":
        case "wait until":
        case "yield":
        case "break":
        case "pass":
        case "succeed":
        case "fail":
          break;
        default:
          unreachable(s, "statement");
      }
      for (const b of innerLists(s)) walk(b);
    }
  };
  walk(plan.blocks.flow);
  if (plan.blocks.failure !== null) walk(plan.blocks.failure);
  return [...[...vars].map((v) => `${ident(v)}: typing.Any = None`), ...new Set(own)];
}

/** The text of `graph.py` after its header. */
export function graphModule(plan: Plan): string {
  const p = new Printer(plan);
  const main: Ctx = { graph: "main", loops: [], collect: null, block: "flow" };
  const startEdge = p.edge(plan.period === null ? "start" : "period:start", ["next", "inside"]);
  const entry = p.go(startEdge, main);
  const period = plan.period === null ? [] : [
    `if not dd.time_in(s.dd_start, ${end(plan.period.first)}, ${end(plan.period.after)}):`,
    `    raise dd.Failure("Dandori.OutOfPeriod", "the run starts at " + s.dd_start + ${
      str(`, outside the period the workflow runs in, ${plan.period.text}`)
    })`,
  ];
  p.node("Start", "The run's start: the input's check and the time it starts at.", main, [entry.hint], [
    "if not T.is_WorkflowInput(s.dd_input):",
    `    raise dd.Failure("Dandori.BadInput", "the execution's input does not have the declared shape")`,
    "s.dd_start = d.clock.now()",
    ...period,
    ...entry.lines,
  ]);
  p.block(plan.blocks.flow, main);
  if (plan.blocks.failure !== null) {
    const g = p.go(p.edge("failure", ["next"]), main);
    p.node("OnFailure", "`on failure`: a task's error nothing handled.", main, [g.hint], [...g.lines]);
    p.block(plan.blocks.failure, { ...main, block: "failure" });
  }
  if (p.used.has("Unhandled") || plan.blocks.failure !== null) {
    p.node("Unhandled", "The run fails with the task's error nothing handled.", main, [], [
      'assert s.dd_error is not None, "a task\'s error is on its way"',
      "raise dd.failed(s.dd_error)",
    ]);
  }
  const cases = plan.cases.map((c) => `${str(c.name)}: None`).join(", ");
  const graphs = [...p.members].filter(([g]) => g !== "main").reverse().map(([g, members]) =>
    `G_${py(g)} = _graph(${str(`${plan.workflow.name}.${g}`)}, ${p.firsts.get(g)}, [${members.join(", ")}])`
  );
  return [
    [
      "from __future__ import annotations",
      "",
      "import copy",
      "import typing",
      "from dataclasses import dataclass, field",
      "",
      "from pydantic_graph import BaseNode, End, Graph, GraphBuilder, GraphRunContext",
      "",
      "from . import runtime as dd",
      "from . import types as T",
      "from .tasks import Tasks",
    ].join("\n"),
    [
      "@dataclass",
      "class State:",
      '    """A run\'s variables (JSON values as they are), its cases\' records, and what the graph keeps."""',
      "",
      "    dd_input: typing.Any",
      "    dd_cases: dict[str, typing.Any] = field(default_factory=dict)",
      '    dd_start: str = ""',
      "    dd_error: dd.TaskError | None = None",
      ...stateFields(plan).map((f) => `    ${f}`),
    ].join("\n"),
    [
      "@dataclass",
      "class Deps:",
      '    """What a run reaches the outside through: its tasks, its name (in keys and callback ids), the clock, the callbacks."""',
      "",
      "    tasks: Tasks",
      "    run_id: str",
      "    clock: dd.Clock = field(default_factory=dd.SystemClock)",
      "    callbacks: dd.Callbacks = field(default_factory=dd.Callbacks)",
    ].join("\n"),
    taskTables(plan).join("\n"),
    ...p.nodes,
    [
      "def _graph(",
      "    name: str, first: type[BaseNode[State, Deps, typing.Any]], nodes: list[type[BaseNode[State, Deps, typing.Any]]]",
      ") -> Graph:",
      "    g = GraphBuilder(",
      "        name=name, state_type=State, deps_type=Deps, input_type=first, output_type=typing.Any",
      "    )",
      "    g.add(*(g.node(n) for n in nodes), g.edge_from(g.start_node).to(first))",
      "    return g.build()",
    ].join("\n"),
    [
      ...graphs,
      `graph = _graph(${str(plan.workflow.name)}, Start, [${p.members.get("main")?.join(", ")}])`,
    ].join("\n"),
    [
      "def initial_state(input: typing.Any) -> State:",
      '    """The state a run starts from: its input, and no case started."""',
      `    return State(dd_input=input, dd_cases={${cases}})`,
    ].join("\n"),
    [
      "async def run(input: typing.Any, deps: Deps) -> typing.Any:",
      '    """Runs one execution: its outputs (None without outputs); raises `dd.Failure` when it fails."""',
      "    return await graph.run(state=initial_state(input), deps=deps, inputs=Start())",
    ].join("\n"),
  ].join("\n\n\n") + "\n";
}
