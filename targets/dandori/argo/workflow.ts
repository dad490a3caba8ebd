/**
 * The WorkflowTemplate of a flow (docs/targets.md#argo), built from the plan's structured
 * form, statement by statement.
 *
 * **State.** Argo has no variables, so the run's state is in global output parameters: `v<n>` for the
 * flow's variables and inputs, `c<n>` for its cases (each a JSON text), `dd_ctl` (how the flow goes
 * on: `next`, `break`, `succeed`, `fail` — a failure that skips `on failure` — or `task` — an error
 * that runs it), `dd_error` (`{"error", "reason"}`), `dd_output`, and the clock's `dd_now_<place>`. A
 * parallel iteration's own variables, `dd_ctl` and `dd_error` carry `_<loop place>_<iteration>` after
 * their names. They are read only by the output expressions of **value templates**: a template of
 * one step that never runs, whose outputs Argo evaluates once, when the template is reached, over
 * every global written so far, and never again. A step's `when` and arguments read only the outputs
 * of steps of its own template that always run (a reference to a step that was skipped never
 * resolves, and Argo would wait for it for ever); a steps template reads the globals as they were when
 * it was entered, so it never reads them itself.
 *
 * **Lists.** A list of statements is a steps template; every statement after one that may stop the
 * flow runs only when the gate before it (`dd-gate`, a value template) finds `dd_ctl` still `next`.
 * A statement that holds steps of its own (a call, a `match`, a loop) is a template of its own.
 *
 * **Calls.** The arguments are a value template's output (`DANDORI_CALL`: the task, its arguments,
 * the key, the callback's id); the task runs in a container (the `caller/` image, or the task's own
 * `image`) that writes `/tmp/dandori/answer.json`, or `error.json` and exits 3 for a declared error,
 * 143 for a timeout (a killed Pod's 137 too) and anything else for a failure; the step continues on
 * failure and error, and the value template after it reads how it ended and writes the result, the
 * case, `dd_ctl` and `dd_error`, and which handler runs. `retry` is the container's `retryStrategy`,
 * whose `expression` picks the errors the plan's retriers retry; `timeout` is its
 * `activeDeadlineSeconds`. A child flow is a `resource` step that creates a Workflow from the child's
 * WorkflowTemplate and waits for it; its result is the child's `dd_output`. A callback hands its id on
 * in a container (at most 60 s), then waits in a `suspend` step whose output `answer` the one who
 * answers sets (`argo node set`, then `argo resume`, both selecting `inputs.parameters.callback_id`).
 *
 * **Loops** are `withSequence` steps over an iteration template, one at a time (`parallelism: 1`) or
 * `k` at a time; every iteration first asks whether the flow still goes on (an iteration after a
 * `break` stops there), and a parallel one keeps its own `dd_ctl` and `dd_error`, the first failure
 * in list order deciding once every iteration has ended.
 *
 * **Expressions** never fail, whatever they read (`expr.ts`): an expression that fails would
 * fail its step group whatever `continueOn` says, and the run would end without its error.
 * @module
 */

import { assert, lookup, unreachable } from "../../../lang/common/assert.ts";
import { workflowTemplateName } from "../../../lang/dandori/kubernetes.ts";
import {
  type CallPlan,
  type ExprPlan,
  innerLists,
  type MatchSubject,
  type Plan,
  readsNow,
  stmtExprs,
  type StmtPlan,
  taskOf,
  type TaskPlan,
  valueInUrlPath,
} from "../../../lang/dandori/plan.ts";
import { DOT_SEGMENT, dotSegmentReason } from "../../../lang/dandori/rules.ts";
import { planVariables } from "../naming.ts";
import { expr, type ExprEnv, field, fits, lit, parsed, parsedOne, text, typeTables } from "./expr.ts";

/** What a run reads the clock with: the time to the second, in UTC (the verify copy replaces `now()`). */
export const CLOCK = 'now().UTC().Format("2006-01-02T15:04:05Z")';

/** The template that reads the clock at the start, for the period check (the verify copy gives it the scenario's first time). */
export const START_CLOCK = "dd-start-now";

/** Where the caller writes its answer and its error (docs/targets.md#argo). */
export const ANSWER_PATH = "/tmp/dandori/answer.json";
export const ERROR_PATH = "/tmp/dandori/error.json";

/** The exit codes a call's container ends with: a declared error, and what a timeout leaves (the caller's, a killed Pod's). */
export const DECLARED_EXIT = "3";
export const TIMEOUT_EXITS = ["143", "137"] as const;

/** The workflow parameter naming the image built from `caller/`. */
export const CALLER_IMAGE = "caller_image";

/** The command the caller's image runs. */
export const CALLER_COMMAND: readonly string[] = ["node", "/app/call.ts"];

/** A parameter of a template's inputs or outputs, or of a step's arguments. */
export interface Param {
  readonly name: string;
  readonly value?: string;
  readonly globalName?: string;
  readonly valueFrom?: {
    readonly expression?: string;
    readonly path?: string;
    readonly jsonPath?: string;
    readonly supplied?: Record<string, never>;
    readonly default?: string;
  };
}

/** A step of a steps template. */
export interface Step {
  readonly name: string;
  readonly template: string;
  readonly arguments?: { readonly parameters: readonly Param[] };
  readonly when?: string;
  readonly continueOn?: { readonly failed: true; readonly error: true };
  readonly withSequence?: { readonly count: string; readonly start: string };
}

/** A template of the WorkflowTemplate. */
export interface Template {
  readonly name: string;
  readonly inputs?: { readonly parameters: readonly Param[] };
  readonly outputs?: { readonly parameters: readonly Param[] };
  readonly parallelism?: number;
  readonly steps?: readonly (readonly Step[])[];
  readonly suspend?: { readonly duration?: string };
  readonly container?: {
    readonly image: string;
    readonly command?: readonly string[];
    readonly env: readonly { readonly name: string; readonly value: string }[];
  };
  readonly resource?: {
    readonly action: "create";
    readonly manifest: string;
    readonly successCondition: string;
    readonly failureCondition: string;
  };
  readonly retryStrategy?: {
    readonly limit: number;
    readonly retryPolicy: "Always";
    readonly backoff: { readonly duration: string; readonly factor: number };
    readonly expression: string;
  };
  readonly activeDeadlineSeconds?: number;
}

/** The WorkflowTemplate. */
export interface WorkflowTemplateDoc {
  readonly apiVersion: "argoproj.io/v1alpha1";
  readonly kind: "WorkflowTemplate";
  readonly metadata: { readonly name: string; readonly annotations?: Readonly<Record<string, string>> };
  readonly spec: {
    readonly entrypoint: string;
    readonly arguments: { readonly parameters: readonly Param[] };
    readonly templates: readonly Template[];
  };
}

/** A loop around the statements being built. */
interface Loop {
  readonly place: string;
  readonly parallel: boolean;
}

/** Where a statement is built. */
interface Ctx {
  /** The loops around it, outermost first: each template takes their counts as `n_<place>`. */
  readonly loops: readonly Loop[];
  /** The nearest `for` whose `yield`s a `yield` appends to. */
  readonly collect: string | null;
}

/** A global output parameter: its name, with the suffix of each parallel iteration that owns it. */
interface Global {
  readonly base: string;
  /** The parallel loops whose iterations own it, outermost first. */
  readonly owners: readonly string[];
}

/** An output of a value template. */
interface Output {
  readonly name: string;
  readonly global?: Global;
  readonly value: string;
}

/** How the steps of a group are counted by the node estimate: all of them, or the largest (only one runs). */
type GroupKind = "all" | "one";

/** What the node estimate knows of a steps template beyond its YAML: each group's kind, each loop's most iterations. */
interface Shape {
  readonly groups: GroupKind[];
  /** The most iterations of a `withSequence` step, by step name. */
  readonly iterations: Map<string, number>;
}

/** The parameter that holds a loop's iteration count (1 for the first). */
function countParam(place: string): string {
  return `n_${place}`;
}

/** The JSON of a value, as a global holds it. */
function json(x: string): string {
  return `toJson(${x})`;
}

/** `{"error": …, "reason": …}` as `dd_error` holds it (the reason an expression, or nil). */
function errorJson(error: string, reason: string): string {
  return json(`{"error": ${error}, "reason": ${reason}}`);
}

/** A when that runs a step when a step's output `go` (or another) says so. */
function whenOutput(step: string, output: string, value: string): string {
  return `{{steps.${step}.outputs.parameters.${output}}} == ${value}`;
}

/** The template that never runs: the one step of every value template refers to it. */
const NEVER = "dd-never";

/** The gate: whether the flow still goes on, read from the `dd_ctl` a step names. */
const GATE = "dd-gate";

/** The WorkflowTemplate of a flow, with the most nodes one run makes (E040). */
export interface Built {
  readonly doc: WorkflowTemplateDoc;
  readonly nodes: number;
}

/** Builds the WorkflowTemplate of `plan`, named `name` (the flow's Kubernetes name). */
export function workflowTemplate(plan: Plan, name: string): Built {
  return new Builder(plan).build(name);
}

class Builder {
  private readonly templates = new Map<string, Template>();
  private readonly shapes = new Map<string, Shape>();
  private readonly types;
  private readonly vars = new Map<string, string>();
  private readonly cases = new Map<string, string>();
  /** The parallel loop whose iterations own each variable bound inside one (the innermost). */
  private readonly owner = new Map<string, string>();

  constructor(private readonly plan: Plan) {
    this.types = typeTables(plan);
    planVariables(plan).forEach((v, i) => this.vars.set(v.name, `v${i + 1}`));
    plan.cases.forEach((c, i) => this.cases.set(c.name, `c${i + 1}`));
    const walk = (ss: readonly StmtPlan[], parallel: string | null) => {
      for (const s of ss) {
        if (parallel !== null) { for (const n of bound(s)) this.owner.set(n, parallel); }
        if (s.kind === "for" && s.parallel !== null) {
          this.owner.set(s.variable, s.place);
          walk(s.body, s.place);
        } else for (const inner of innerLists(s)) walk(inner, parallel);
      }
    };
    walk(plan.blocks.flow, null);
    walk(plan.blocks.failure ?? [], null);
  }

  build(name: string): Built {
    const p = this.plan;
    this.add({ name: NEVER, suspend: {} });
    this.add(this.value(GATE, [], ["ctl"], [{
      name: "go",
      value: `string(workflow.outputs.parameters[inputs.parameters.ctl] == "next")`,
    }]));
    const top: Ctx = { loops: [], collect: null };
    const groups: Step[][] = [[{
      name: "start",
      template: this.start(),
      arguments: { parameters: [{ name: "input", value: "{{workflow.parameters.input}}" }] },
    }]];
    let go = "start";
    if (p.period !== null) {
      groups.push([{ name: "start-now", template: this.clock(START_CLOCK, top, "dd_now_start") }]);
      groups.push([{ name: "period", template: this.periodAtStart() }]);
      go = "period";
    }
    const flow = this.list("dd-flow", p.blocks.flow, top);
    if (flow !== null) groups.push([{ name: "flow", template: flow, when: whenOutput(go, "go", "true") }]);
    let failed = "false";
    if (p.blocks.failure !== null) {
      groups.push([{ name: "after-flow", template: this.afterFlow() }]);
      const failure = this.list("dd-failure", p.blocks.failure, top);
      if (failure !== null) {
        groups.push([{
          name: "failure",
          template: failure,
          when: whenOutput("after-flow", "failure", "true"),
        }]);
      }
      failed = "{{steps.after-flow.outputs.parameters.failure}}";
    }
    groups.push([{
      name: "end",
      template: this.end(),
      arguments: { parameters: [{ name: "failed", value: failed }] },
    }]);
    groups.push([{
      name: "fail",
      template: this.failContainer(),
      arguments: { parameters: [{ name: "error", value: "{{steps.end.outputs.parameters.error}}" }] },
      when: whenOutput("end", "failed", "true"),
    }]);
    this.steps("dd-main", [], groups);
    const templates = [...this.templates.values()];
    const doc: WorkflowTemplateDoc = {
      apiVersion: "argoproj.io/v1alpha1",
      kind: "WorkflowTemplate",
      metadata: {
        name,
        ...(p.workflow.description === null
          ? {}
          : { annotations: { "workflows.argoproj.io/description": p.workflow.description } }),
      },
      spec: {
        entrypoint: "dd-main",
        arguments: {
          parameters: [{ name: "input" }, { name: CALLER_IMAGE, value: `${name}-caller` }],
        },
        templates: [
          lookup(this.templates, "dd-main", "template"),
          ...templates.filter((t) => t.name !== "dd-main"),
        ],
      },
    };
    return { doc, nodes: this.nodes("dd-main") };
  }

  // -------------------------------------------------------------------------------------------
  // Templates

  private add(t: Template): string {
    assert(!this.templates.has(t.name), `a template's name is unique: ${t.name}`);
    this.templates.set(t.name, t);
    return t.name;
  }

  /** A steps template; `kinds` says which groups run one step of their steps. */
  private steps(name: string, loops: readonly Loop[], groups: Step[][], shape?: Partial<Shape>): string {
    this.shapes.set(name, {
      groups: shape?.groups ?? groups.map(() => "all"),
      iterations: shape?.iterations ?? new Map(),
    });
    return this.add({ name, ...this.inputs(loops, []), steps: groups });
  }

  private inputs(loops: readonly Loop[], more: readonly string[]): { inputs?: { parameters: Param[] } } {
    const names = [...loops.map((l) => countParam(l.place)), ...more];
    return names.length === 0 ? {} : { inputs: { parameters: names.map((n) => ({ name: n })) } };
  }

  /** The arguments that hand a template the loop counts of `ctx`, and `more`. */
  private pass(ctx: Ctx, more: readonly Param[] = []): { arguments?: { parameters: readonly Param[] } } {
    const params = [
      ...ctx.loops.map((l) => ({
        name: countParam(l.place),
        value: `{{inputs.parameters.${countParam(l.place)}}}`,
      })),
      ...more,
    ];
    return params.length === 0 ? {} : { arguments: { parameters: params } };
  }

  /**
   * A value template: one step that never runs, and outputs computed by expressions, each after the
   * `let`s of `lets` (the values it reads, parsed once).
   */
  private value(
    name: string,
    loops: readonly Loop[],
    more: readonly string[],
    outputs: readonly Output[],
    lets = "",
  ): Template {
    return {
      name,
      ...this.inputs(loops, more),
      steps: [[{ name: "never", template: NEVER, when: "false" }]],
      outputs: {
        parameters: outputs.map((o) => ({
          name: o.name,
          ...(o.global === undefined ? {} : { globalName: this.globalName(o.global) }),
          valueFrom: { expression: `${lets}${o.value}` },
        })),
      },
    };
  }

  /** A value template added to the WorkflowTemplate, with the `let`s of the values an `env` read. */
  private valued(
    name: string,
    ctx: Ctx,
    more: readonly string[],
    outputs: readonly Output[],
    env: Env,
  ): string {
    return this.add(this.value(name, ctx.loops, more, outputs, env.lets()));
  }

  // -------------------------------------------------------------------------------------------
  // Globals

  /** A global's name as an output writes it: its base, then `_<place>_<count>` of each owner. */
  private globalName(g: Global): string {
    return g.base + g.owners.map((o) => `_${o}_{{inputs.parameters.${countParam(o)}}}`).join("");
  }

  /** The expression that reads a global's text (nil when it was never written). */
  private read(g: Global): string {
    if (g.owners.length === 0) return `workflow.outputs.parameters.${g.base}`;
    const name = [lit(g.base), ...g.owners.map((o) => `"_${o}_" + inputs.parameters.${countParam(o)}`)];
    return `workflow.outputs.parameters[${name.join(" + ")}]`;
  }

  /** The parallel loops of `ctx` (the owners of what every iteration keeps: `dd_ctl`, `dd_error` …). */
  private chain(ctx: Ctx): string[] {
    return ctx.loops.filter((l) => l.parallel).map((l) => l.place);
  }

  /** The parallel loops of `ctx` up to and including `place` (or before it, `through` false). */
  private chainTo(ctx: Ctx, place: string, through: boolean): string[] {
    const i = ctx.loops.findIndex((l) => l.place === place);
    assert(i >= 0, `${place} is a loop around the statement`);
    return ctx.loops.slice(0, through ? i + 1 : i).filter((l) => l.parallel).map((l) => l.place);
  }

  private ctl(ctx: Ctx): Global {
    return { base: "dd_ctl", owners: this.chain(ctx) };
  }

  private error(ctx: Ctx): Global {
    return { base: "dd_error", owners: this.chain(ctx) };
  }

  /** The global of a flow variable or case. */
  private variable(name: string, ctx: Ctx): Global {
    const c = this.cases.get(name);
    if (c !== undefined) return { base: c, owners: [] };
    const owner = this.owner.get(name);
    return {
      base: lookup(this.vars, name, "variable"),
      owners: owner === undefined ? [] : this.chainTo(ctx, owner, true),
    };
  }

  private env(ctx: Ctx, now: string): Env {
    return new Env((n) => this.read(this.variable(n, ctx)), now);
  }

  /** The time a statement reads (its clock template's). */
  private nowOf(place: string, ctx: Ctx): string {
    return `(${this.read({ base: `dd_now_${place}`, owners: this.chain(ctx) })} ?? "")`;
  }

  // -------------------------------------------------------------------------------------------
  // The start and the end

  /** `dd-start`: checks the input (`Dandori.BadInput`) and writes every global the run starts with. */
  private start(): string {
    const p = this.plan;
    const top: Ctx = { loops: [], collect: null };
    const tests = p.inputs.map((i) => {
      const v = field("dd_in", i.name);
      const absent = i.type.kind === "optional" || i.type.kind === "json";
      return `(${lit(i.name)} in dd_in ? ${fits(this.types, i.type, i.range, v)} : ${absent})`;
    });
    const lets = `let dd_p = ${parsed("inputs.parameters.input")}; let dd_in = ${
      parsedOne("dd_p")
    } ? dd_p[0] : nil; let dd_ok = type(dd_in) == "map"${tests.map((t) => ` && ${t}`).join("")}; `;
    const outputs: Output[] = [
      { name: "go", value: "string(dd_ok)" },
      { name: "ctl", global: this.ctl(top), value: 'dd_ok ? "next" : "fail"' },
      {
        name: "error",
        global: this.error(top),
        value: `dd_ok ? "null" : ${
          errorJson(lit("Dandori.BadInput"), lit("the execution's input does not have the declared shape"))
        }`,
      },
      { name: "output", global: { base: "dd_output", owners: [] }, value: '"null"' },
      ...p.inputs.map((i) => ({
        name: lookup(this.vars, i.name, "input"),
        global: { base: lookup(this.vars, i.name, "input"), owners: [] },
        value: json(`dd_ok ? ${field("dd_in", i.name)} : nil`),
      })),
      ...p.cases.map((c) => ({
        name: lookup(this.cases, c.name, "case"),
        global: { base: lookup(this.cases, c.name, "case"), owners: [] },
        value: '"null"',
      })),
    ];
    return this.add(this.value("dd-start", [], ["input"], outputs, lets));
  }

  /** A clock template: the time, into the global `dd_now_<place>` a statement then reads. */
  private clock(name: string, ctx: Ctx, base: string): string {
    return this.add(this.value(name, ctx.loops, [], [{
      name: "now",
      global: { base, owners: this.chain(ctx) },
      value: CLOCK,
    }]));
  }

  /** The period check at the start (`Dandori.OutOfPeriod`), after the input's. */
  private periodAtStart(): string {
    const period = this.plan.period;
    assert(period !== null, "a period check is of a flow with a period");
    const top: Ctx = { loops: [], collect: null };
    const now = `(workflow.outputs.parameters.dd_now_start ?? "")`;
    const lets = `let dd_c = workflow.outputs.parameters.dd_ctl; let dd_out = dd_c == "next" && !(${
      inPeriod(period, now)
    }); `;
    return this.add(this.value("dd-period-start", [], [], [
      { name: "go", value: 'string(dd_c == "next" && !dd_out)' },
      { name: "ctl", global: this.ctl(top), value: 'dd_out ? "fail" : dd_c' },
      {
        name: "error",
        global: this.error(top),
        value: `dd_out ? ${
          errorJson(
            lit("Dandori.OutOfPeriod"),
            `${lit("the run starts at ")} + ${now} + ${
              lit(`, outside the period the workflow runs in, ${period.text}`)
            }`,
          )
        } : workflow.outputs.parameters.dd_error`,
      },
    ], lets));
  }

  /** After the flow's body: whether `on failure` runs (a task's error), which starts with `dd_ctl` at `next`. */
  private afterFlow(): string {
    const top: Ctx = { loops: [], collect: null };
    const lets = "let dd_c = workflow.outputs.parameters.dd_ctl; ";
    return this.add(this.value("dd-after-flow", [], [], [
      { name: "failure", value: 'string(dd_c == "task")' },
      { name: "ctl", global: this.ctl(top), value: 'dd_c == "task" ? "next" : dd_c' },
    ], lets));
  }

  /**
   * The run's ending: `dd_ctl` `succeed` or `fail`, `dd_output` and `dd_error` as a run reads them. A
   * flow that falls off its end succeeds (outputs `{}`, or null without outputs); after `on failure`
   * ran to its end, the run fails again with the error that ran it.
   */
  private end(): string {
    const top: Ctx = { loops: [], collect: null };
    const none = this.plan.outputs.length === 0 ? '"null"' : '"{}"';
    const lets =
      'let dd_c = workflow.outputs.parameters.dd_ctl; let dd_failed = dd_c in ["fail", "task"] || ' +
      '(inputs.parameters.failed == "true" && dd_c in ["next", "break"]); ';
    return this.add(this.value("dd-end", [], ["failed"], [
      { name: "failed", value: "string(dd_failed)" },
      { name: "error", value: 'dd_failed ? workflow.outputs.parameters.dd_error : "null"' },
      { name: "ctl", global: this.ctl(top), value: 'dd_failed ? "fail" : "succeed"' },
      {
        name: "output",
        global: { base: "dd_output", owners: [] },
        value: `dd_failed ? "null" : dd_c == "succeed" ? workflow.outputs.parameters.dd_output : ${none}`,
      },
      {
        name: "dd_error",
        global: this.error(top),
        value: 'dd_failed ? workflow.outputs.parameters.dd_error : "null"',
      },
    ], lets));
  }

  /** The container that fails a run that failed, with its error: the Workflow's phase is `Failed`. */
  private failContainer(): string {
    return this.add({
      name: "dd-fail",
      inputs: { parameters: [{ name: "error" }] },
      container: {
        image: `{{workflow.parameters.${CALLER_IMAGE}}}`,
        command: CALLER_COMMAND,
        env: [{ name: "DANDORI_FAIL", value: "{{inputs.parameters.error}}" }],
      },
    });
  }

  // -------------------------------------------------------------------------------------------
  // Statements

  /** A list of statements as a steps template, or null when it has no step (only `pass`). */
  private list(name: string, ss: readonly StmtPlan[], ctx: Ctx): string | null {
    const groups: Step[][] = [];
    let gate: string | null = null;
    ss.forEach((s, i) => {
      const clocked = i > 0 && ss[i - 1].kind === "period";
      const built = this.stmt(s, ctx, clocked);
      if (built.length === 0) return;
      const when = gate === null ? undefined : whenOutput(gate, "go", "true");
      for (const g of built) groups.push(g.map((step) => when === undefined ? step : { ...step, when }));
      if (stops(s) && i < ss.length - 1) {
        gate = `g-${s.place.replace(":", "-")}`;
        groups.push([{
          name: gate,
          template: GATE,
          arguments: { parameters: [{ name: "ctl", value: this.globalName(this.ctl(ctx)) }] },
        }]);
      }
    });
    return groups.length === 0 ? null : this.steps(name, ctx.loops, groups);
  }

  /** A statement's groups of steps in its list; `clocked` when a period check read the clock before it. */
  private stmt(s: StmtPlan, ctx: Ctx, clocked: boolean): Step[][] {
    const out: Step[][] = [];
    if (!clocked && stmtExprs(s).some(readsNow)) {
      const name = `${s.place}-now`;
      out.push([{ name, template: this.clock(name, ctx, `dd_now_${s.place}`), ...this.pass(ctx) }]);
    }
    const one = (template: string): Step[][] => [...out, [{ name: s.place, template, ...this.pass(ctx) }]];
    const env = this.env(ctx, this.nowOf(s.place, ctx));
    switch (s.kind) {
      case "period":
        return this.period(s.before, s.line, ctx);
      case "call":
        return one(this.call(s.place, s.line, s.call, s.bind, ctx, env));
      case "let": {
        const value = json(expr(s.value, env));
        return one(
          this.valued(`${s.place}-let`, ctx, [], [{
            name: "value",
            global: this.variable(s.name, ctx),
            value,
          }], env),
        );
      }
      case "match":
        return one(this.match(s.place, s.line, s.subject, s.arms, ctx, env));
      case "wait":
        return one(
          this.add({
            name: `${s.place}-wait`,
            ...this.inputs(ctx.loops, []),
            suspend: { duration: String(s.seconds) },
          }),
        );
      case "wait until":
        return [...out, ...this.waitUntil(s.place, s.at, ctx, env)];
      case "repeat":
        return one(this.repeat(s.place, s.atMost, s.body, ctx));
      case "for":
        return one(s.parallel === null ? this.sequential(s, ctx, env) : this.parallel(s, ctx, env));
      case "yield": {
        assert(ctx.collect !== null, "`yield` is in a `for`");
        const yields = this.yields(ctx, ctx.collect);
        const value = json(`concat(fromJSON(${this.read(yields)} ?? "[]"), [${expr(s.value, env)}])`);
        return one(
          this.valued(`${s.place}-yield`, ctx, [], [{ name: "yields", global: yields, value }], env),
        );
      }
      case "break":
        return one(
          this.valued(
            `${s.place}-break`,
            ctx,
            [],
            [{ name: "ctl", global: this.ctl(ctx), value: '"break"' }],
            env,
          ),
        );
      case "pass":
        return out;
      case "succeed": {
        const given = new Map(s.outputs.map((o) => [o.name, o.value]));
        const fields = this.plan.outputs.map((o) => {
          const v = given.get(o.name);
          return `${lit(o.name)}: ${v === undefined ? "nil" : expr(v, env)}`;
        });
        const value = this.plan.outputs.length === 0 ? '"null"' : json(`{${fields.join(", ")}}`);
        return one(this.valued(`${s.place}-succeed`, ctx, [], [
          { name: "output", global: { base: "dd_output", owners: [] }, value },
          { name: "ctl", global: this.ctl(ctx), value: '"succeed"' },
        ], env));
      }
      case "fail": {
        const reason = s.reason === null ? "nil" : text(expr(s.reason, env));
        return one(this.valued(`${s.place}-fail`, ctx, [], [
          { name: "error", global: this.error(ctx), value: errorJson(lit(s.error), reason) },
          { name: "ctl", global: this.ctl(ctx), value: '"fail"' },
        ], env));
      }
      default:
        return unreachable(s, "statement");
    }
  }

  /** The period before a statement that reads `now`: outside, `Dandori.OutOfPeriod` goes as a task's error. */
  private period(before: string, line: number, ctx: Ctx): Step[][] {
    const period = this.plan.period;
    assert(period !== null, "a period check is of a flow with a period");
    const clock = `${before}-now`;
    const now = this.nowOf(before, ctx);
    const lets = `let dd_out = !(${inPeriod(period, now)}); `;
    const check = this.add(this.value(`${before}-period`, ctx.loops, [], [
      { name: "ctl", global: this.ctl(ctx), value: 'dd_out ? "task" : "next"' },
      {
        name: "error",
        global: this.error(ctx),
        value: `dd_out ? ${
          errorJson(
            lit("Dandori.OutOfPeriod"),
            `${lit(`line ${line}: now is `)} + ${now} + ${
              lit(`, outside the period the workflow runs in, ${period.text}`)
            }`,
          )
        } : ${this.read(this.error(ctx))}`,
      },
    ], lets));
    return [
      [{ name: clock, template: this.clock(clock, ctx, `dd_now_${before}`), ...this.pass(ctx) }],
      [{ name: `${before}-period`, template: check, ...this.pass(ctx) }],
    ];
  }

  /** `wait until`: the seconds left, computed once from one read of the clock, then a suspend that long. */
  private waitUntil(place: string, at: ExprPlan, ctx: Ctx, env: Env): Step[][] {
    const until = this.valued(`${place}-until`, ctx, [], [{
      name: "seconds",
      value: `let dd_s = int(ceil(float(date(${
        expr(at, env)
      }).UnixMilli() - now().UnixMilli()) / 1000)); string(dd_s > 0 ? dd_s : 0)`,
    }], env);
    const wait = this.add({
      name: `${place}-wait`,
      ...this.inputs(ctx.loops, ["seconds"]),
      suspend: { duration: "{{inputs.parameters.seconds}}" },
    });
    return [
      [{ name: `${place}-until`, template: until, ...this.pass(ctx) }],
      [{
        name: place,
        template: wait,
        ...this.pass(ctx, [{
          name: "seconds",
          value: `{{steps.${place}-until.outputs.parameters.seconds}}`,
        }]),
      }],
    ];
  }

  // -------------------------------------------------------------------------------------------
  // match

  private match(
    place: string,
    line: number,
    subject: MatchSubject,
    arms: Extract<StmtPlan, { kind: "match" }>["arms"],
    ctx: Ctx,
    env: Env,
  ): string {
    const value = subject.kind === "case" ? env.value(subject.case) : expr(subject.value, env);
    const tests = arms.map((arm) =>
      arm.conditions.map((c) => {
        switch (c.kind) {
          case "none":
            return "dd_v == nil";
          case "some":
            return "dd_v != nil";
          case "values":
            return subject.kind === "case"
              ? `(type(dd_v) == "map" && type(dd_v["state"]) == "string" && dd_v["state"] in [${
                c.values.map(lit).join(", ")
              }])`
              : `(${c.values.map((v) => `dd_v == ${armValue(v, subject)}`).join(" || ")})`;
          default:
            return unreachable(c, "arm condition");
        }
      }).join(" || ")
    );
    const pick = tests.reduceRight((rest, t, i) => `${t} ? ${i} : ${rest}`, "-1");
    const shown = subject.kind === "case"
      ? '(dd_v == nil ? "none" : dd_v["state"])'
      : '(dd_v == nil ? "none" : dd_v)';
    const noArm = errorJson(
      lit(subject.kind === "case" ? "Dandori.UnexpectedState" : "Dandori.UnexpectedValue"),
      `${lit(`line ${line}: no arm of the match takes `)} + toJson(${shown})`,
    );
    const outputs: Output[] = [
      { name: "arm", value: "string(dd_arm)" },
      { name: "ctl", global: this.ctl(ctx), value: 'dd_arm < 0 ? "fail" : "next"' },
      {
        name: "error",
        global: this.error(ctx),
        value: `dd_arm < 0 ? ${noArm} : ${this.read(this.error(ctx))}`,
      },
    ];
    arms.forEach((arm, i) => {
      for (const c of arm.conditions) {
        if (c.kind !== "some") continue;
        const g = this.variable(c.bind, ctx);
        outputs.push({
          name: `some${i}`,
          global: g,
          value: `dd_arm == ${i} ? toJson(dd_v) : (${this.read(g)} ?? "null")`,
        });
      }
    });
    const lets = `${env.lets()}let dd_v = ${value}; let dd_arm = ${pick}; `;
    const decide = this.add(this.value(`${place}-match`, ctx.loops, [], outputs, lets));
    const bodies = arms.flatMap((arm, i) => {
      const body = this.list(`${place}-a${i}`, arm.body, ctx);
      return body === null
        ? []
        : [{ name: `a${i}`, template: body, when: whenOutput("match", "arm", String(i)), ...this.pass(ctx) }];
    });
    const groups: Step[][] = [[{ name: "match", template: decide, ...this.pass(ctx) }]];
    if (bodies.length > 0) groups.push(bodies);
    return this.steps(place, ctx.loops, groups, {
      groups: ["all", "one"].slice(0, groups.length) as GroupKind[],
    });
  }

  // -------------------------------------------------------------------------------------------
  // Loops

  /** The global a `yield` appends to: the collecting loop's, each parallel iteration's own. */
  private yields(ctx: Ctx, place: string): Global {
    return { base: `dd_yields_${place}`, owners: this.chainTo(ctx, place, true) };
  }

  /** An iteration: whether the flow still goes on (and what the loop sets when it does), then the body. */
  private iteration(
    place: string,
    body: readonly StmtPlan[],
    inner: Ctx,
    start: readonly Output[],
    lets: string,
  ): string {
    const parallel = inner.loops[inner.loops.length - 1]?.parallel === true;
    const go = parallel ? '"true"' : `string(${this.read(this.ctl(inner))} == "next")`;
    const begin = this.add(
      this.value(`${place}-start`, inner.loops, [], [{ name: "go", value: go }, ...start], lets),
    );
    const groups: Step[][] = [[{ name: "start", template: begin, ...this.pass(inner) }]];
    const list = this.list(`${place}-body`, body, inner);
    if (list !== null) {
      groups.push([{
        name: "body",
        template: list,
        when: whenOutput("start", "go", "true"),
        ...this.pass(inner),
      }]);
    }
    return this.steps(`${place}-it`, inner.loops, groups);
  }

  /** After a loop: a `break` ends it and the flow goes on. */
  private doneCtl(ctx: Ctx): Output {
    const c = this.read(this.ctl(ctx));
    return { name: "ctl", global: this.ctl(ctx), value: `${c} == "break" ? "next" : ${c}` };
  }

  private repeat(place: string, atMost: number, body: readonly StmtPlan[], ctx: Ctx): string {
    const inner: Ctx = { ...ctx, loops: [...ctx.loops, { place, parallel: false }] };
    const it = this.iteration(place, body, inner, [], "");
    const done = this.add(this.value(`${place}-done`, ctx.loops, [], [this.doneCtl(ctx)]));
    return this.loop(place, ctx, null, it, String(atMost), done, atMost, 1);
  }

  /** The loop's template: its first value template (or none), the iterations, and the value template after. */
  private loop(
    place: string,
    ctx: Ctx,
    first: string | null,
    it: string,
    count: string,
    done: string,
    atMost: number,
    parallelism: number | null,
  ): string {
    const groups: Step[][] = [];
    if (first !== null) groups.push([{ name: "for", template: first, ...this.pass(ctx) }]);
    groups.push([{
      name: "it",
      template: it,
      withSequence: { count, start: "1" },
      ...this.pass(ctx, [{ name: countParam(place), value: "{{item}}" }]),
    }]);
    groups.push([{
      name: "done",
      template: done,
      ...this.pass(
        ctx,
        first === null ? [] : [{ name: "count", value: "{{steps.for.outputs.parameters.count}}" }],
      ),
    }]);
    this.shapes.set(place, { groups: groups.map(() => "all"), iterations: new Map([["it", atMost]]) });
    return this.add({
      name: place,
      ...this.inputs(ctx.loops, []),
      ...(parallelism === null ? {} : { parallelism }),
      steps: groups,
    });
  }

  /** A `for`'s first value template: the list (`Dandori.TooManyItems` past `at most`) and its count. */
  private forStart(
    s: Extract<StmtPlan, { kind: "for" }>,
    ctx: Ctx,
    env: Env,
    extra: readonly Output[],
  ): string {
    const list: Global = { base: `dd_list_${s.place}`, owners: this.chain(ctx) };
    const items = expr(s.list, env);
    const lets = `${env.lets()}let dd_l = ${items}; let dd_n = len(dd_l); let dd_many = dd_n > ${s.atMost}; `;
    const tooMany = errorJson(
      lit("Dandori.TooManyItems"),
      `${lit(`line ${s.line}: the list has `)} + string(dd_n) + ${
        lit(` items, more than the ${s.atMost} the loop takes`)
      }`,
    );
    return this.add(this.value(`${s.place}-for`, ctx.loops, [], [
      { name: "count", value: 'dd_many ? "0" : string(dd_n)' },
      { name: "list", global: list, value: json("dd_l") },
      { name: "ctl", global: this.ctl(ctx), value: 'dd_many ? "fail" : "next"' },
      {
        name: "error",
        global: this.error(ctx),
        value: `dd_many ? ${tooMany} : ${this.read(this.error(ctx))}`,
      },
      ...extra,
    ], lets));
  }

  /** The item an iteration takes: the list's `n_<place>`-th. */
  private item(s: Extract<StmtPlan, { kind: "for" }>, inner: Ctx): string {
    const list = this.read({ base: `dd_list_${s.place}`, owners: this.chainTo(inner, s.place, false) });
    return `fromJSON(${list} ?? "[]")[int(inputs.parameters.${countParam(s.place)}) - 1]`;
  }

  private sequential(s: Extract<StmtPlan, { kind: "for" }>, ctx: Ctx, env: Env): string {
    const inner: Ctx = { loops: [...ctx.loops, { place: s.place, parallel: false }], collect: s.place };
    const yields = this.yields(inner, s.place);
    const first = this.forStart(s, ctx, env, [{ name: "yields", global: yields, value: '"[]"' }]);
    const variable = this.variable(s.variable, inner);
    const it = this.iteration(s.place, s.body, inner, [{
      name: "item",
      global: variable,
      value: `dd_go ? toJson(${this.item(s, inner)}) : (${this.read(variable)} ?? "null")`,
    }], `let dd_go = ${this.read(this.ctl(inner))} == "next"; `);
    const outputs = [this.doneCtl(ctx)];
    if (s.collect !== null) {
      outputs.push({
        name: "collect",
        global: this.variable(s.collect.name, ctx),
        value: `${this.read(yields)} ?? "[]"`,
      });
    }
    const done = this.add(this.value(`${s.place}-done`, ctx.loops, ["count"], outputs));
    return this.loop(s.place, ctx, first, it, "{{steps.for.outputs.parameters.count}}", done, s.atMost, 1);
  }

  private parallel(s: Extract<StmtPlan, { kind: "for" }>, ctx: Ctx, env: Env): string {
    const place = s.place;
    const inner: Ctx = { loops: [...ctx.loops, { place, parallel: true }], collect: place };
    const first = this.forStart(s, ctx, env, []);
    const own = (base: string): Global => ({ base, owners: this.chain(inner) });
    const it = this.iteration(place, s.body, inner, [
      { name: "ctl", global: own("dd_ctl"), value: '"next"' },
      { name: "error", global: own("dd_error"), value: '"null"' },
      { name: "yields", global: this.yields(inner, place), value: '"[]"' },
      { name: "item", global: this.variable(s.variable, inner), value: json(this.item(s, inner)) },
    ], "");
    const of = (base: string) =>
      `workflow.outputs.parameters[${
        [
          lit(base),
          ...this.chain(ctx).map((o) => `"_${o}_" + inputs.parameters.${countParam(o)}`),
          `"_${place}_"`,
        ]
          .join(" + ")
      } + string(#)]`;
    const lets = `let dd_ns = 1..int(inputs.parameters.count); let dd_ctls = map(dd_ns, {${
      of("dd_ctl")
    } ?? "next"}); let dd_f = findIndex(dd_ctls, {# in ["fail", "task"]}) ?? -1; `;
    const errorOf = `workflow.outputs.parameters[${
      [
        lit("dd_error"),
        ...this.chain(ctx).map((o) => `"_${o}_" + inputs.parameters.${countParam(o)}`),
        `"_${place}_"`,
      ]
        .join(" + ")
    } + string(dd_f + 1)]`;
    const outputs: Output[] = [
      { name: "ctl", global: this.ctl(ctx), value: `dd_f < 0 ? ${this.read(this.ctl(ctx))} : dd_ctls[dd_f]` },
      {
        name: "error",
        global: this.error(ctx),
        value: `dd_f < 0 ? ${this.read(this.error(ctx))} : ${errorOf}`,
      },
    ];
    if (s.collect !== null) {
      outputs.push({
        name: "collect",
        global: this.variable(s.collect.name, ctx),
        value: json(`reduce(dd_ns, concat(#acc, fromJSON(${of("dd_yields_" + place)} ?? "[]")), [])`),
      });
    }
    const done = this.add(this.value(`${place}-done`, ctx.loops, ["count"], outputs, lets));
    const k = s.parallel?.atATime ?? null;
    return this.loop(place, ctx, first, it, "{{steps.for.outputs.parameters.count}}", done, s.atMost, k);
  }

  // -------------------------------------------------------------------------------------------
  // Calls

  /** A call: its arguments, the step that runs it, what its ending means, and its handlers. */
  private call(
    place: string,
    line: number,
    call: CallPlan,
    bind: Extract<StmtPlan, { kind: "call" }>["bind"],
    ctx: Ctx,
    env: Env,
  ): string {
    const task = taskOf(this.plan, call.task);
    const args = this.args(place, line, task, call, ctx, env);
    const argsStep: Step = {
      name: "args",
      template: args,
      ...this.pass(ctx, [{ name: "wf", value: "{{workflow.name}}" }]),
    };
    if (task.callback !== null) return this.callback(place, line, task, call, bind, ctx, argsStep);
    const child = task.callee.kind === "flow" || task.callee.kind === "child";
    const input = child ? "input" : "call";
    const send = child ? this.resource(place, task) : this.container(place, task);
    const after = this.add(this.value(
      `${place}-after`,
      ctx.loops,
      child ? ["status", "answer", "call"] : ["status", "exit", "answer", "error", "call"],
      this.settle(line, task, call, bind, ctx),
      this.ending(task, !child),
    ));
    const handlers = this.handlerSteps(place, call, ctx, "after");
    /** The groups that send the call and settle it, reading the call's text from `from`. */
    const sending = (from: string): Step[][] => [
      [{
        name: "call",
        template: send,
        continueOn: { failed: true, error: true },
        arguments: { parameters: [{ name: input, value: from }] },
      }],
      [{
        name: "after",
        template: after,
        ...this.pass(ctx, [
          { name: "status", value: "{{steps.call.status}}" },
          ...(child ? [] : [{ name: "exit", value: "{{steps.call.exitCode}}" }]),
          { name: "answer", value: "{{steps.call.outputs.parameters.answer}}" },
          ...(child ? [] : [{ name: "error", value: "{{steps.call.outputs.parameters.error}}" }]),
          { name: "call", value: from },
        ]),
      }],
      ...(handlers.length === 0 ? [] : [handlers]),
    ];
    const kinds = (n: number): GroupKind[] => (["all", "all", "one"] as GroupKind[]).slice(0, n);
    if (!valueInUrlPath(task.callee)) {
      const groups = sending(`{{steps.args.outputs.parameters.${input}}}`);
      return this.steps(place, ctx.loops, [[argsStep], ...groups], {
        groups: ["all", ...kinds(groups.length)],
      });
    }
    const groups = sending(`{{inputs.parameters.${input}}}`);
    this.shapes.set(`${place}-send`, { groups: kinds(groups.length), iterations: new Map() });
    const inner = this.add({ name: `${place}-send`, ...this.inputs(ctx.loops, [input]), steps: groups });
    return this.steps(place, ctx.loops, [[argsStep], [{
      name: "send",
      template: inner,
      when: whenOutput("args", "go", "true"),
      ...this.pass(ctx, [{ name: input, value: `{{steps.args.outputs.parameters.${input}}}` }]),
    }]]);
  }

  /** The steps of a call's handlers, each when `from`'s output `handler` names it. */
  private handlerSteps(place: string, call: CallPlan, ctx: Ctx, from: string): Step[] {
    return call.handlers.flatMap((h, i) => {
      const body = this.list(`${place}-h${i}`, h.body, ctx);
      return body === null ? [] : [{
        name: `h${i}`,
        template: body,
        when: whenOutput(from, "handler", String(i)),
        ...this.pass(ctx),
      }];
    });
  }

  /**
   * The value template of a call's arguments: `call` (`DANDORI_CALL`: the task, the arguments in the
   * task's order, the key, the callback's id) or, for a child, `input` (the arguments as a JSON
   * string, which the Workflow's manifest takes as its `input`). An `http` call whose values go into
   * its URL's path also says whether they make a segment `.` or `..` (`Dandori.BadInput`).
   */
  private args(place: string, line: number, task: TaskPlan, call: CallPlan, ctx: Ctx, env: Env): string {
    const given = new Map(call.args.map((a) => [a.name, a.value]));
    const entries = task.params.flatMap((p) => {
      const v = given.get(p.name);
      return v === undefined ? [] : [`${lit(p.name)}: ${expr(v, env)}`];
    });
    const args = entries.length === 0 ? "{}" : `{${entries.join(", ")}}`;
    const key = [
      "inputs.parameters.wf",
      lit(`/${place}`),
      ...call.loops.map((l) => `"/" + inputs.parameters.${countParam(l)}`),
    ].join(" + ");
    const outputs: Output[] = [];
    const child = task.callee.kind === "flow" || task.callee.kind === "child";
    if (child) outputs.push({ name: "input", value: json(json(args)) });
    else {
      const fields = [`"task": ${lit(task.name)}`, `"args": ${args}`];
      if (task.key !== null) fields.push(`"key": dd_key`);
      if (task.callback !== null) fields.push(`"callback_id": dd_key + "/1"`);
      outputs.push({ name: "call", value: json(`{${fields.join(", ")}}`) });
      if (task.callback !== null) outputs.push({ name: "id", value: 'dd_key + "/1"' });
    }
    const callee = task.callee;
    const urlCheck = valueInUrlPath(callee) && callee.kind === "http"
      ? `let dd_bad = (${
        callee.url.map((p) => {
          if ("text" in p) return lit(p.text);
          const v = given.get(p.param);
          const x = v === undefined ? "nil" : expr(v, env);
          // Escaped as far as a path segment goes: `%` and `/` as encodeURIComponent escapes them.
          return `replace(replace(${x} == nil ? "" : type(${x}) == "string" ? ${x} : toJson(${x}), "%", "%25"), "/", "%2F")`;
        }).join(" + ")
      }) matches ${lit(`(?i)${DOT_SEGMENT}`)}; `
      : "";
    const lets = `${env.lets()}let dd_key = ${key}; ${urlCheck}`;
    if (urlCheck !== "") {
      outputs.push(
        { name: "go", value: "string(!dd_bad)" },
        { name: "ctl", global: this.ctl(ctx), value: 'dd_bad ? "fail" : "next"' },
        {
          name: "error",
          global: this.error(ctx),
          value: `dd_bad ? ${errorJson(lit("Dandori.BadInput"), lit(dotSegmentReason(line, task.name)))} : ${
            this.read(this.error(ctx))
          }`,
        },
      );
    }
    return this.add(this.value(`${place}-args`, ctx.loops, ["wf"], outputs, lets));
  }

  /** The container a call's task runs in: the caller's image, or the task's own. */
  private container(place: string, task: TaskPlan): string {
    const own = task.callee.kind === "own";
    const retry = this.retryStrategy(task);
    const deadline = task.callback !== null
      ? (own ? task.callback.handOnSeconds : null)
      : task.timeout?.kind === "after" && task.timeout.written
      ? task.timeout.seconds
      : null;
    return this.add({
      name: `${place}-task`,
      inputs: { parameters: [{ name: "call" }] },
      outputs: {
        parameters: [
          { name: "answer", valueFrom: { path: ANSWER_PATH, default: "" } },
          { name: "error", valueFrom: { path: ERROR_PATH, default: "" } },
        ],
      },
      ...(retry === null ? {} : { retryStrategy: retry }),
      ...(deadline === null ? {} : { activeDeadlineSeconds: deadline }),
      container: {
        image: own ? (task.image ?? "") : `{{workflow.parameters.${CALLER_IMAGE}}}`,
        ...(own ? {} : { command: CALLER_COMMAND }),
        env: [{ name: "DANDORI_CALL", value: "{{inputs.parameters.call}}" }],
      },
    });
  }

  /** A child flow: a Workflow created from its WorkflowTemplate, waited for; its result is its `dd_output`. */
  private resource(place: string, task: TaskPlan): string {
    const callee = task.callee;
    assert(callee.kind === "flow" || callee.kind === "child", "a resource step runs a child");
    const name = callee.platforms.workflowTemplate ??
      (callee.kind === "flow" ? workflowTemplateName(callee.workflow, callee.version) : null);
    assert(name !== null, "a child has a WorkflowTemplate (E050, E006 before)");
    const manifest =
      `{"apiVersion": "argoproj.io/v1alpha1", "kind": "Workflow", "metadata": {"generateName": ${
        JSON.stringify(`${name}-`)
      }}, "spec": {"workflowTemplateRef": {"name": ${
        JSON.stringify(name)
      }}, "arguments": {"parameters": [{"name": "input", "value": {{inputs.parameters.input}}}]}}}`;
    const retry = this.retryStrategy(task);
    return this.add({
      name: `${place}-task`,
      inputs: { parameters: [{ name: "input" }] },
      outputs: {
        parameters: [{
          name: "answer",
          valueFrom: { jsonPath: '{.status.outputs.parameters[?(@.name=="dd_output")].value}', default: "" },
        }],
      },
      ...(retry === null ? {} : { retryStrategy: retry }),
      resource: {
        action: "create",
        manifest,
        successCondition: "status.phase == Succeeded",
        failureCondition: "status.phase in (Failed, Error)",
      },
    });
  }

  /**
   * `retry` as Argo retries: `limit` the retries, the plan's interval as the backoff's `duration`
   * and its rate as the `factor` (a whole number in Argo: a rate that is not one is rounded up, so
   * no retry comes sooner than the flow says), and the `expression` that picks the errors the
   * retriers retry from how the last try ended: its exit code, and for a declared error the name
   * the container left as its termination message (the node's message ends with it).
   */
  private retryStrategy(task: TaskPlan): Template["retryStrategy"] | null {
    if (task.retries === 0) return null;
    const declared = task.errors.map((e) => e.name);
    const retried = [...declared, "timeout", "failure"].filter((e) => {
      const r = task.retry.find((x) => x.errors.includes(e) || x.errors.includes("*"));
      return r !== undefined && r.maxAttempts > 0;
    });
    if (retried.length === 0) return null;
    const r = task.retry.find((x) => x.maxAttempts > 0);
    assert(r !== undefined, "a retried error has a retrier");
    const exits = `[${[DECLARED_EXIT, ...TIMEOUT_EXITS].map(lit).join(", ")}]`;
    const tests = retried.map((e) => {
      switch (e) {
        case "timeout":
          return `lastRetry.exitCode in [${TIMEOUT_EXITS.map(lit).join(", ")}]`;
        case "failure":
          return `!(lastRetry.exitCode in ${exits})`;
        default:
          return `(lastRetry.exitCode == ${lit(DECLARED_EXIT)} && hasSuffix(lastRetry.message, ${
            lit(`: ${e}`)
          }))`;
      }
    });
    return {
      limit: task.retries,
      retryPolicy: "Always",
      backoff: { duration: `${r.intervalSeconds}s`, factor: Math.ceil(Number(r.backoff)) },
      expression: tests.join(" || "),
    };
  }

  /**
   * The `let`s that read how a call's step ended: `dd_err` (the error its handlers and the flow see:
   * `""` when it returned, a declared name, `timeout` or `failure`), `dd_msg` (its message), `dd_v` (its
   * answer, nil when there is none) and `dd_fine` (the answer has the declared shape).
   */
  private ending(task: TaskPlan, container: boolean): string {
    const answer =
      `let dd_a = ${parsed("inputs.parameters.answer")}; let dd_v = ${parsedOne("dd_a")} ? dd_a[0] : nil; ` +
      `let dd_fine = dd_ok && ${parsedOne("dd_a")} && ${this.fine(task, "dd_v")}; `;
    if (!container) {
      // A child's Workflow that failed is a failed step: no exit code, no name, no message (E050 before a declared error or a `timeout`).
      return `let dd_ok = inputs.parameters.status == "Succeeded"; let dd_msg = ""; let dd_err = dd_ok ? "" : "failure"; ${answer}`;
    }
    const declared = `[${task.errors.map((e) => lit(e.name)).join(", ")}]`;
    const timeouts = `[${TIMEOUT_EXITS.map(lit).join(", ")}]`;
    return `let dd_ok = inputs.parameters.status == "Succeeded"; let dd_code = inputs.parameters.exit; ` +
      `let dd_e0 = ${parsed("inputs.parameters.error")}; let dd_e = ${
        parsedOne("dd_e0")
      } && type(dd_e0[0]) == "map" ? dd_e0[0] : {}; ` +
      `let dd_named = type(dd_e["error"]) == "string" ? dd_e["error"] : ""; ` +
      `let dd_msg = type(dd_e["message"]) == "string" ? dd_e["message"] : ""; ` +
      `let dd_err = dd_ok ? "" : dd_code == ${lit(DECLARED_EXIT)} && dd_named in ${declared} ? dd_named : ` +
      `dd_code in ${timeouts} ? "timeout" : "failure"; ${answer}`;
  }

  /** True when a result has the declared shape: a book's is done or done before. */
  private fine(task: TaskPlan, v: string): string {
    if (task.callee.kind === "book") {
      return `(type(${v}) == "map" && type(${v}["result"]) == "string" && ${v}["result"] in ["done", "done_before"])`;
    }
    return task.result === null ? "true" : fits(this.types, task.result.type, task.result.range, v);
  }

  /**
   * The outputs that settle a call once its ending is known (`dd_err`, `dd_msg`, `dd_v`, `dd_fine`):
   * the handler that runs, `dd_ctl` and `dd_error` (a bad answer fails the run, an error no handler
   * takes goes on as a task's error), and what the call binds.
   */
  private settle(
    line: number,
    task: TaskPlan,
    call: CallPlan,
    bind: Extract<StmtPlan, { kind: "call" }>["bind"],
    ctx: Ctx,
  ): Output[] {
    const handled = call.handlers.map((h, i) => ({ i, errors: h.errors }));
    const pick = handled.reduceRight(
      (rest, h) => `dd_err in [${h.errors.map(lit).join(", ")}] ? ${h.i} : ${rest}`,
      "-1",
    );
    const cause = `(dd_msg == "" ? "" : ": " + dd_msg)`;
    const taskError = `dd_err == "timeout" ? ${
      errorJson(lit("Dandori.Timeout"), `${lit(`line ${line}: ${task.name} timed out`)} + ${cause}`)
    } : dd_err == "failure" ? ${
      errorJson(lit("Dandori.Failure"), `${lit(`line ${line}: ${task.name} failed`)} + ${cause}`)
    } : ${errorJson("dd_err", 'dd_msg == "" ? nil : dd_msg')}`;
    const bad = errorJson(
      lit("Dandori.BadResponse"),
      lit(`line ${line}: the answer from ${task.name} does not have the declared shape`),
    );
    const keep = this.read(this.error(ctx));
    const outputs: Output[] = [
      { name: "handler", value: `string(dd_err == "" ? -1 : ${pick})` },
      {
        name: "ctl",
        global: this.ctl(ctx),
        value: `dd_err == "" ? (dd_fine ? "next" : "fail") : (${pick}) >= 0 ? "next" : "task"`,
      },
      {
        name: "error",
        global: this.error(ctx),
        value: `dd_err == "" ? (dd_fine ? ${keep} : ${bad}) : (${pick}) >= 0 ? ${keep} : ${taskError}`,
      },
    ];
    if (bind !== null) {
      const g = bind.kind === "case"
        ? { base: lookup(this.cases, bind.name, "case"), owners: [] }
        : this.variable(bind.name, ctx);
      outputs.push({
        name: "bound",
        global: g,
        value: `dd_err == "" && dd_fine ? toJson(${this.result(task)}) : (${this.read(g)} ?? "null")`,
      });
    }
    return outputs;
  }

  /** What a call binds from its answer `dd_v`: the result, or a book's hold record made from the arguments. */
  private result(task: TaskPlan): string {
    const callee = task.callee;
    if (callee.kind !== "book") return "dd_v";
    if (callee.op === "do") return "nil";
    const state = callee.op === "hold" ? "held" : callee.op === "post" ? "posted" : "voided";
    const args = 'fromJSON(inputs.parameters.call)["args"]';
    return `{${
      [...callee.key.map((k) => `${lit(k)}: ${field(args, k)}`), `"state": ${lit(state)}`].join(", ")
    }}`;
  }

  /** The value template after a call's step: how it ended, and what that settles. */
  private after(
    place: string,
    line: number,
    task: TaskPlan,
    call: CallPlan,
    bind: Extract<StmtPlan, { kind: "call" }>["bind"],
    ctx: Ctx,
    container: boolean,
  ): string {
    const more = ["status", "exit", "answer", ...(container ? ["error"] : []), "call"];
    return this.add(
      this.value(
        `${place}-after`,
        ctx.loops,
        more,
        this.settle(line, task, call, bind, ctx),
        this.ending(task, container),
      ),
    );
  }

  /**
   * A callback: the container hands the id on; when that fails, its error settles the call at once
   * (`handed`); else a `suspend` step waits for the answer (`timeout until`: the seconds left, computed
   * once, are its duration), which the value template after it reads: `{"ok": value}`, `{"error":
   * name, "message": …}`, or nothing when the wait timed out. Either writes the handler into the global
   * `dd_handler`, which `pick` reads for the handlers' `when`s (a step that was skipped has no outputs).
   */
  private callback(
    place: string,
    line: number,
    task: TaskPlan,
    call: CallPlan,
    bind: Extract<StmtPlan, { kind: "call" }>["bind"],
    ctx: Ctx,
    argsStep: Step,
  ): string {
    const handler: Global = { base: "dd_handler", owners: this.chain(ctx) };
    const settle = this.settle(line, task, call, bind, ctx).map((o) =>
      o.name === "handler" ? { name: "handler", global: handler, value: o.value } : o
    );
    const handed = this.add(this.value(`${place}-handed`, ctx.loops, ["status", "exit", "error"], [
      { name: "wait", value: "string(dd_ok)" },
      ...settle.filter((o) => o.name !== "bound"),
    ], this.handOn(task)));
    const timeout = task.timeout;
    const until = timeout !== null && timeout.kind === "until" ? timeout.param : null;
    const suspend = this.add({
      name: `${place}-suspend`,
      inputs: { parameters: [{ name: "callback_id" }, ...(until === null ? [] : [{ name: "seconds" }])] },
      suspend: {
        duration: until !== null
          ? "{{inputs.parameters.seconds}}"
          : String(timeout?.kind === "after" ? timeout.seconds : 0),
      },
      outputs: { parameters: [{ name: "answer", valueFrom: { supplied: {}, default: "" } }] },
    });
    const declared = `[${task.errors.map((e) => lit(e.name)).join(", ")}]`;
    const answered =
      `let dd_a0 = ${parsed("inputs.parameters.answer")}; let dd_a = ${
        parsedOne("dd_a0")
      } && type(dd_a0[0]) == "map" ? dd_a0[0] : {}; ` +
      `let dd_named = type(dd_a["error"]) == "string" ? dd_a["error"] : ""; ` +
      `let dd_msg = type(dd_a["message"]) == "string" ? dd_a["message"] : ""; ` +
      `let dd_err = inputs.parameters.answer == "" ? "timeout" : "error" in dd_a ? ` +
      `(dd_named in ${declared} ? dd_named : "failure") : ""; ` +
      `let dd_v = dd_a["ok"]; let dd_fine = ${this.fine(task, "dd_v")}; `;
    const after = this.add(this.value(`${place}-after`, ctx.loops, ["answer", "call"], settle, answered));
    const waitGroups: Step[][] = [];
    if (until !== null) {
      const seconds = this.add(this.value(`${place}-until`, ctx.loops, ["call"], [{
        name: "seconds",
        value: `let dd_s = int(ceil(float(date(${
          field('fromJSON(inputs.parameters.call)["args"]', until)
        }).UnixMilli() - now().UnixMilli()) / 1000)); string(dd_s > 1 ? dd_s : 1)`,
      }]));
      waitGroups.push([{
        name: "until",
        template: seconds,
        ...this.pass(ctx, [{ name: "call", value: "{{inputs.parameters.call}}" }]),
      }]);
    }
    waitGroups.push([{
      name: "suspend",
      template: suspend,
      arguments: {
        parameters: [
          { name: "callback_id", value: "{{inputs.parameters.id}}" },
          ...(until === null
            ? []
            : [{ name: "seconds", value: "{{steps.until.outputs.parameters.seconds}}" }]),
        ],
      },
    }]);
    waitGroups.push([{
      name: "after",
      template: after,
      ...this.pass(ctx, [
        { name: "answer", value: "{{steps.suspend.outputs.parameters.answer}}" },
        { name: "call", value: "{{inputs.parameters.call}}" },
      ]),
    }]);
    this.shapes.set(`${place}-wait`, { groups: waitGroups.map(() => "all"), iterations: new Map() });
    const wait = this.add({
      name: `${place}-wait`,
      ...this.inputs(ctx.loops, ["id", "call"]),
      steps: waitGroups,
    });
    const pick = this.add(this.value(`${place}-pick`, ctx.loops, [], [{
      name: "handler",
      value: `${this.read(handler)} ?? "-1"`,
    }]));
    const handlers = this.handlerSteps(place, call, ctx, "pick");
    const groups: Step[][] = [
      [argsStep],
      [{
        name: "call",
        template: this.container(place, task),
        continueOn: { failed: true, error: true },
        arguments: { parameters: [{ name: "call", value: "{{steps.args.outputs.parameters.call}}" }] },
      }],
      [{
        name: "handed",
        template: handed,
        ...this.pass(ctx, [
          { name: "status", value: "{{steps.call.status}}" },
          { name: "exit", value: "{{steps.call.exitCode}}" },
          { name: "error", value: "{{steps.call.outputs.parameters.error}}" },
        ]),
      }],
      [{
        name: "wait",
        template: wait,
        when: whenOutput("handed", "wait", "true"),
        ...this.pass(ctx, [
          { name: "id", value: "{{steps.args.outputs.parameters.id}}" },
          { name: "call", value: "{{steps.args.outputs.parameters.call}}" },
        ]),
      }],
      [{ name: "pick", template: pick, ...this.pass(ctx) }],
      ...(handlers.length === 0 ? [] : [handlers]),
    ];
    const kinds: GroupKind[] = ["all", "all", "all", "all", "all", "one"];
    return this.steps(place, ctx.loops, groups, { groups: kinds.slice(0, groups.length) });
  }

  /**
   * The `let`s that read how the step that hands a callback's id on ended, as `ending` reads a call's,
   * with no answer: handing on is no result, so a step that ended well settles nothing (`dd_fine`).
   */
  private handOn(task: TaskPlan): string {
    const declared = `[${task.errors.map((e) => lit(e.name)).join(", ")}]`;
    const timeouts = `[${TIMEOUT_EXITS.map(lit).join(", ")}]`;
    return `let dd_ok = inputs.parameters.status == "Succeeded"; let dd_code = inputs.parameters.exit; ` +
      `let dd_e0 = ${parsed("inputs.parameters.error")}; let dd_e = ${
        parsedOne("dd_e0")
      } && type(dd_e0[0]) == "map" ? dd_e0[0] : {}; ` +
      `let dd_named = type(dd_e["error"]) == "string" ? dd_e["error"] : ""; ` +
      `let dd_msg = type(dd_e["message"]) == "string" ? dd_e["message"] : ""; ` +
      `let dd_err = dd_ok ? "" : dd_code == ${lit(DECLARED_EXIT)} && dd_named in ${declared} ? dd_named : ` +
      `dd_code in ${timeouts} ? "timeout" : "failure"; let dd_fine = true; `;
  }

  // -------------------------------------------------------------------------------------------
  // The node estimate (E040)

  /** The most nodes a run of template `name` makes (a value template: its node, its group and its skipped step). */
  private nodes(name: string, memo = new Map<string, number>()): number {
    const known = memo.get(name);
    if (known !== undefined) return known;
    const t = lookup(this.templates, name, "template");
    let n = 1;
    if (t.steps !== undefined) {
      const shape = this.shapes.get(name);
      t.steps.forEach((group, i) => {
        const each = group.map((s) => {
          const times = shape?.iterations.get(s.name) ?? 1;
          return times * this.nodes(s.template, memo);
        });
        const kind = shape?.groups[i] ?? "all";
        n += 1 +
          (kind === "one"
            ? Math.max(0, ...each) + Math.max(0, each.length - 1)
            : each.reduce((a, b) => a + b, 0));
      });
    }
    if (t.retryStrategy !== undefined) n += t.retryStrategy.limit + 1;
    memo.set(name, n);
    return n;
  }
}

/** The names a statement binds (not those of the statements under it). */
function bound(s: StmtPlan): string[] {
  switch (s.kind) {
    case "let":
      return [s.name];
    case "call":
      return s.bind?.kind === "let" ? [s.bind.name] : [];
    case "for":
      return s.collect === null ? [] : [s.collect.name];
    case "match":
      return s.arms.flatMap((a) => a.conditions.flatMap((c) => c.kind === "some" ? [c.bind] : []));
    case "wait":
    case "wait until":
    case "repeat":
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

/** True when a statement may stop the list it is in (the statements after it wait for a gate). */
function stops(s: StmtPlan): boolean {
  switch (s.kind) {
    case "call":
    case "match":
    case "repeat":
    case "for":
    case "break":
    case "succeed":
    case "fail":
    case "period":
      return true;
    case "let":
    case "wait":
    case "wait until":
    case "yield":
    case "pass":
      return false;
    default:
      return unreachable(s, "statement");
  }
}

/** A value of an arm, as the subject holds it: a bool is `true`/`false`, any other a string. */
function armValue(value: string, subject: MatchSubject): string {
  if (subject.kind === "case") return lit(value);
  const t = subject.value.type;
  const inner = t.kind === "optional" ? t.inner : t;
  return inner.kind === "bool" ? value : lit(value);
}

function inPeriod(period: NonNullable<Plan["period"]>, now: string): string {
  const tests: string[] = [];
  if (period.first !== null) tests.push(`${now}[0:19] >= ${lit(period.first)}`);
  if (period.after !== null) tests.push(`${now}[0:19] < ${lit(period.after)}`);
  return tests.length === 0 ? "true" : tests.join(" && ");
}

/** The values a template's expressions read, each bound once by a `let` before them. */
class Env implements ExprEnv {
  private readonly used = new Map<string, string>();
  constructor(private readonly global: (name: string) => string, readonly now: string) {}

  value(name: string): string {
    const local = `dd_var${this.used.size}`;
    const got = [...this.used].find(([n]) => n === name);
    if (got !== undefined) return got[1];
    this.used.set(name, local);
    return local;
  }

  lets(): string {
    return [...this.used].map(([n, local]) => `let ${local} = fromJSON(${this.global(n)} ?? "null"); `).join(
      "",
    );
  }
}
