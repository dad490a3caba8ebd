/**
 * The case analysis (docs/design/dandori.md#cases): the flow is run over abstract states, each holding,
 * for every case, the state its record says and the state the case may be in outside
 * (docs/design/dandori.md#two-states-per-case), the variables that hold a value, and the steps that got
 * there. From them: a variable read before it has a value (E012), a case called before it starts or started
 * twice (E013), a case left in a state that is not final at an end (E020), an operation refused in every
 * state (E021), a refusal not declared or not handled (E022), a failure that leaves a case open with nothing
 * to settle it (W101), a refusal handler that never runs (W102), and the arms of a `match` on a case's state
 * that are missing or never taken (E010, E011). The analysis is bounded (`MAX_STATES`,
 * `MAX_LOOP_ROUNDS`); where it reaches a bound it says so (E023) instead of passing a flow it did
 * not follow to the end.
 *
 * Every diagnostic carries the steps of one run that gets there.
 * @module
 */

import { assert, lookup, unreachable } from "../common/assert.ts";
import type { Reporter } from "../common/reporter.ts";
import { type Text, tr } from "../common/text.ts";
import type { DandoriCode } from "./codes.ts";
import type {
  BodyAst,
  CallStmtAst,
  ExprAst,
  ForStmtAst,
  HandlerAst,
  MatchStmtAst,
  Pos,
  RepeatStmtAst,
  StmtAst,
} from "./ast.ts";
import { type CasePair, FactsBuilder, type FlowFacts } from "./facts.ts";
import { MAX_LOOP_ROUNDS, MAX_STATES } from "./limits.ts";
import { lineOf } from "./lints.ts";
import { externalClosure, type Machine, rowOf } from "./machine.ts";
import { BUILTIN_ERRORS, type CaseDef, type FlowModel, type TaskDef } from "./model.ts";
import { type Block, exprText, patternText, type Typed } from "./typing.ts";

/** One step of a run: a line (null for what happens outside) and what happened. */
interface Step {
  readonly line: number | null;
  readonly text: Text;
  readonly prev: Step | null;
}

/** A case's pair: what its record says, and where it may be outside; null before it starts. */
interface CaseSt {
  readonly record: string | null;
  readonly actual: string | null;
}

/**
 * What the flow knows at a point on the ways with the same case pairs: the variables that hold a
 * value on every one of those ways, for each variable missing on some way the steps of one such
 * way (to show with E012), and the steps of the first way found.
 */
/** How many names `Names.with` adds on a shared set before it copies them into a set of their own. */
const NAMES_CHAINED = 32;

/**
 * A set of names that a state makes one bigger without copying it each time: names added lie in a
 * short list beside a set shared with the state they came from, copied into one set every
 * `NAMES_CHAINED` names (a flow of 10,000 `let`s copied its set at each: 5.4 s of `dandori
 * scenarios`' 10 s).
 */
class Names implements Iterable<string> {
  static readonly NONE: Names = new Names(new Set(), []);

  private constructor(
    private readonly shared: ReadonlySet<string>,
    private readonly added: readonly string[],
  ) {}

  has(name: string): boolean {
    return this.added.includes(name) || this.shared.has(name);
  }

  /** These names and `name`. */
  with(name: string): Names {
    if (this.has(name)) return this;
    return this.added.length < NAMES_CHAINED
      ? new Names(this.shared, [...this.added, name])
      : new Names(new Set([...this, name]), []);
  }

  /** The names also in `other`. */
  both(other: Names): Names {
    return other === this ? this : new Names(new Set([...this].filter((n) => other.has(n))), []);
  }

  *[Symbol.iterator](): Iterator<string> {
    yield* this.shared;
    yield* this.added;
  }
}

interface State {
  readonly cases: ReadonlyMap<string, CaseSt>;
  readonly assigned: Names;
  readonly missing: ReadonlyMap<string, Step | null>;
  readonly trace: Step | null;
}

/**
 * Each cases map's key, made once: a state one step on keeps its cases map, and many sets take the
 * same state (the E023 test's flow made 16,384 keys at each of its statements before).
 */
const KEYS = new WeakMap<ReadonlyMap<string, CaseSt>, string>();

function keyOf(s: State): string {
  const known = KEYS.get(s.cases);
  if (known !== undefined) return known;
  const key = [...s.cases].map(([k, v]) => `${k}=${v.record ?? "-"}/${v.actual ?? "-"}`).join(",");
  KEYS.set(s.cases, key);
  return key;
}

/**
 * States by their case pairs. Two ways with the same pairs merge: a variable holds a value only
 * if it does on both, and the first way's steps are kept (the shortest found). Keeping every set
 * of assigned variables apart would double the states at every call whose failure is passed over.
 */
class States {
  readonly byKey = new Map<string, State>();

  /** `full` hears of every state a set already holding `MAX_STATES` cannot take. */
  constructor(private readonly full: (dropped: State) => void, states: Iterable<State> = []) {
    for (const s of states) this.add(s);
  }

  /** Adds a state; returns what it stores when that is new or changed, else null. */
  add(s: State): State | null {
    const key = keyOf(s);
    const old = this.byKey.get(key);
    if (old === undefined) {
      if (this.byKey.size >= MAX_STATES) {
        this.full(s);
        return null;
      }
      this.byKey.set(key, s);
      return s;
    }
    const lost = old.assigned === s.assigned ? [] : [...old.assigned].filter((v) => !s.assigned.has(v));
    if (lost.length === 0) return null;
    const missing = new Map(old.missing);
    for (const v of lost) missing.set(v, s.missing.get(v) ?? s.trace);
    const merged = { ...old, assigned: old.assigned.both(s.assigned), missing };
    this.byKey.set(key, merged);
    return merged;
  }

  addAll(ss: Iterable<State>): void {
    for (const s of ss) this.add(s);
  }

  get size(): number {
    return this.byKey.size;
  }

  [Symbol.iterator](): Iterator<State> {
    return this.byKey.values();
  }
}

/** The state one step on: the step goes on its run and on every witness of a missing variable. */
function step(s: State, line: number | null, text: Text): State {
  const missing = new Map([...s.missing].map(([v, t]) => [v, { line, text, prev: t }]));
  return { ...s, missing, trace: { line, text, prev: s.trace } };
}

/** The steps of a way on which `name` has no value: its witness, or the state's own run. */
function witness(s: State, name: string): Step | null {
  const w = s.missing.get(name);
  return w === undefined ? s.trace : w;
}

/** The pair of `s`'s case `name`: every state has a pair for every case of the flow. */
function caseOf(s: State, name: string): CaseSt {
  return lookup(s.cases, name, "case");
}

/** A case's pairs from `c` once the outside has moved it (docs/design/dandori.md#external-events): what the page says a case can be in. */
function movedPairs(c: CaseDef, { record, actual }: CaseSt): [string, CasePair][] {
  if (actual === null) return [[c.name, { record, actual }]];
  return externalClosure(c.machine, actual).map((
    x,
  ): [string, CasePair] => [c.name, { record, actual: x.state }]);
}

/** Where `s`'s case `name` is outside, for a case the caller knows has started. */
function actualOf(s: State, name: string): string {
  const actual = caseOf(s, name).actual;
  assert(actual !== null, `the case ${name} has started`);
  return actual;
}

/** The value of `key` in `map`, put there by `make` when it is missing. */
function getOrAdd<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  const found = map.get(key);
  if (found !== undefined) return found;
  const made = make();
  map.set(key, made);
  return made;
}

/**
 * The pairs states have held, one object for each: equal pairs are the same object, so the facts of a
 * point meet each pair of a case once however many states hold it. Only a shortcut: the facts are
 * gathered by the pairs' text, so two objects of one pair cost time and change nothing. The table is
 * emptied when it holds `PAIRS_KEPT`, so that a long process (a watch, the playground) that checks
 * many machines does not keep every pair it met.
 */
const PAIRS = new Map<string, CaseSt>();

/** How many pairs `PAIRS` keeps before it starts again. */
const PAIRS_KEPT = 10_000;

function pairOf(c: CaseSt): CaseSt {
  if (PAIRS.size >= PAIRS_KEPT) PAIRS.clear();
  return getOrAdd(PAIRS, `${c.record ?? "-"}/${c.actual ?? "-"}`, () => c);
}

function withCase(s: State, name: string, c: CaseSt): State {
  const cases = new Map(s.cases);
  cases.set(name, pairOf(c));
  return { ...s, cases };
}

function withVar(s: State, name: string): State {
  if (s.assigned.has(name)) return s;
  const missing = new Map(s.missing);
  missing.delete(name);
  return { ...s, assigned: s.assigned.with(name), missing };
}

/** The steps of a run in order. */
function stepsOf(trace: Step | null): Step[] {
  const steps: Step[] = [];
  for (let t = trace; t !== null; t = t.prev) steps.push(t);
  return steps.reverse();
}

/** The steps of a run, one line each, as the design's diagnostics print them. */
function operations(trace: Step | null): Text[] {
  return stepsOf(trace).map((t) => {
    const line = t.line === null ? "    " : String(t.line).padStart(4);
    return tr(`${line}  ${t.text.en}`, `${line}  ${t.text.ja}`);
  });
}

/**
 * The states the outside can move `s`'s case `name` to (docs/design/dandori.md#external-events), with a step
 * for each event.
 */
function expand(s: State, name: string, m: Machine): State[] {
  const c = caseOf(s, name);
  const actual = c.actual;
  if (actual === null) return [s];
  return externalClosure(m, actual).map((x) => {
    let t = s;
    let from = actual;
    for (const e of x.events) {
      const to = rowOf(m, from, e).next ?? from;
      t = step(
        t,
        null,
        tr(
          `outside, \`${e}\` happens: ${name} ${from} → ${to}`,
          `外部のサービスで \`${e}\` が起きる: ${name} ${from} → ${to}`,
        ),
      );
      from = to;
    }
    return withCase(t, name, { record: c.record, actual: x.state });
  });
}

/** What the analysis remembers about one call of a book operation on a case, across every run. */
interface CaseCall {
  readonly stmt: CallStmtAst;
  readonly task: TaskDef;
  /** What the call sends to its case: the book operation, `post` or `void`. */
  readonly event: string;
  readonly c: CaseDef;
  runs: number;
  accepted: boolean;
  /** Each refusal reached, with a state that reaches it. */
  readonly reasons: Map<string, State>;
  /** The states of the case in which the call was refused. */
  readonly states: Set<string>;
  firstRefused: State | null;
}

/** What the analysis remembers about one `match` on a case's state. */
interface CaseMatch {
  readonly stmt: MatchStmtAst;
  readonly c: CaseDef;
  readonly said: Set<string>;
  readonly missing: Map<string, State>;
}

type EndKind = "succeed" | "fail" | "cancel";

/** The blocks that clean up after the flow: `on failure` and `on cancel`. */
type Cleanup = Exclude<Block, "flow">;

interface Ctx {
  readonly block: Block;
  readonly breaks: States | null;
}

class Analysis {
  /** The innermost statement being run: where a limit reached is said to be (E023). */
  private at: Pos;
  private readonly failures = this.states();
  private readonly cancels = this.states();
  private readonly caseCalls = new Map<CallStmtAst, CaseCall>();
  /** The lines of the statements the analysis ran: the statements some run of the flow reaches. */
  readonly reached = new Set<number>();
  /** What the analysis saw at each point, for the page. */
  readonly facts: FactsBuilder;
  private readonly caseMatches = new Map<MatchStmtAst, CaseMatch>();
  /** First example per diagnostic key, emitted at the end in a stable order. */
  private readonly found = new Map<
    string,
    { code: DandoriCode; at: Pos; message: Text; hint: Text | null; trace: Step | null }
  >();
  /** Per case and block, the first failure that may leave the case open (W101), and its other lines. */
  private readonly open = new Map<
    string,
    { trace: Step | null; lines: Set<number>; cleanup: Cleanup | null; at: Pos; caseName: string; in: string }
  >();
  private readonly readVars: ReadonlySet<string>;

  constructor(
    private readonly m: FlowModel,
    private readonly t: Typed,
    private readonly r: Reporter<DandoriCode>,
  ) {
    this.readVars = new Set(t.vars.keys());
    this.at = m.flow;
    this.facts = new FactsBuilder(m.cases);
  }

  /** `movedPairs` of each case and pair, made once. */
  private readonly moved = new Map<CaseDef, Map<CaseSt, [string, CasePair][]>>();

  /**
   * Each case's pairs in every state of `states`, the outside's moves included. A pair many states
   * share is taken once (equal pairs are one object, `pairOf`), and its moves are made once for the
   * whole check: a point of a flow with many cases holds thousands of states but a few pairs of each
   * case, and a loop's points are met again every round (the E023 tests' flows spent half their
   * checks here before).
   */
  private pairs(states: Iterable<State>): [string, CasePair][] {
    const maps = new Set<ReadonlyMap<string, CaseSt>>();
    const met = new Map<string, Set<CaseSt>>();
    const out: [string, CasePair][] = [];
    for (const x of states) {
      if (maps.has(x.cases)) continue;
      maps.add(x.cases);
      for (const [name, c] of x.cases) {
        const pairs = getOrAdd(met, name, () => new Set());
        if (pairs.has(c)) continue;
        pairs.add(c);
        const def = lookup(this.m.cases, name, "case");
        out.push(...getOrAdd(getOrAdd(this.moved, def, () => new Map()), c, () => movedPairs(def, c)));
      }
    }
    return out;
  }

  /** A set of states that says E023 where it is full (MAX_STATES). */
  private states(states: Iterable<State> = []): States {
    return new States((dropped) => this.tooManyStates(dropped), states);
  }

  /** Runs `f` with `at` as the statement being run. */
  private within<T>(at: Pos, f: () => T): T {
    const outer = this.at;
    this.at = at;
    try {
      return f();
    } finally {
      this.at = outer;
    }
  }

  /** E023: a state the analysis cannot keep, so the runs through it are not followed. */
  private tooManyStates(dropped: State): void {
    this.note(
      "E023:states",
      "E023",
      lineOf(this.at),
      tr(
        `the case analysis gives up here: more than ${MAX_STATES} combinations of the cases' states reach this statement (its limit, MAX_STATES), so the runs past it are not followed and the check of this flow is incomplete`,
        `案件の解析はここで打ち切られます。この文に来る案件の状態の組み合わせが上限の ${MAX_STATES} 個(MAX_STATES)を超えるので、それを超えた実行は追わず、このフローの検査は完全ではありません`,
      ),
      dropped.trace,
      tr(
        'start fewer cases whose outcome is undecided at once: settle one before the next starts, or move a part of the flow into a child flow (`flow "…"`), which is checked on its own',
        '成り行きの決まらない案件を一度にたくさん開かないでください。次を始める前に片付けるか、フローの一部を子のフロー(`flow "…"`)に移してください。子は別に検査します',
      ),
    );
  }

  /**
   * E023: a loop whose states still grow after `MAX_LOOP_ROUNDS` rounds. It shows no run: one
   * that goes round the loop that often is as long as the rounds times the body.
   */
  private tooManyRounds(loop: RepeatStmtAst | ForStmtAst): void {
    this.note(
      `E023:rounds:${loop.line}`,
      "E023",
      lineOf(loop),
      tr(
        `the case analysis gives up on this loop: after ${MAX_LOOP_ROUNDS} rounds (its limit, MAX_LOOP_ROUNDS) its body still reaches combinations of the cases' states it has not seen, so the rounds after are not followed and the check of this flow is incomplete`,
        `案件の解析はこのループで打ち切られます。上限の ${MAX_LOOP_ROUNDS} 周(MAX_LOOP_ROUNDS)を回っても、本体がまだ見ていない案件の状態の組み合わせに来るので、その先の周は追わず、このフローの検査は完全ではありません`,
      ),
      null,
      tr(
        'let the loop\'s body move fewer cases on one after another: split the loop into loops one after the other, or move it into a child flow (`flow "…"`), which is checked on its own',
        'ループの本体で、順に進める案件を少なくしてください。ループを続けて並ぶいくつかのループに分けるか、子のフロー(`flow "…"`)に移してください。子は別に検査します',
      ),
    );
  }

  run(): void {
    const start: State = {
      cases: new Map([...this.m.cases.keys()].map((k) => [k, pairOf({ record: null, actual: null })])),
      assigned: Names.NONE,
      missing: new Map(),
      trace: null,
    };
    const flowEnds = tr("`flow` ends and the workflow succeeds", "`flow` が終わり、ワークフローが成功する");
    this.block(this.m.flow, [start], "flow", "succeed", null, flowEnds);
    const onFailure = this.m.onFailure;
    if (onFailure !== null) {
      const ends = tr(
        "`on failure` ends and the workflow fails",
        "`on failure` が終わり、ワークフローが失敗する",
      );
      this.block(onFailure, this.failures, "failure", "fail", tr("on failure", "on failure"), ends);
    } else {
      for (const s of this.failures) this.leftOpen(s, null);
    }
    const onCancel = this.m.onCancel;
    if (onCancel !== null) {
      const ends = tr(
        "`on cancel` ends and the workflow is cancelled",
        "`on cancel` が終わり、ワークフローがキャンセルで終わる",
      );
      this.block(onCancel, this.cancels, "cancel", "cancel", tr("on cancel", "on cancel"), ends);
    }
    this.afterRuns();
    this.emit();
  }

  /**
   * Runs a block from its entries and checks the cases where it ends. The steps name the block's
   * first statement as where it is entered and its last as where it ends, as a diagnostic's run prints
   * them (docs/design/dandori.md#two-states-per-case).
   */
  private block(
    b: BodyAst,
    entries: Iterable<State>,
    block: Block,
    kind: EndKind,
    entered: Text | null,
    ends: Text,
  ): void {
    const first = b.body[0] ?? b;
    const last = b.body[b.body.length - 1] ?? b;
    this.within(b, () => {
      const start = this.states(
        entered === null ? entries : [...entries].map((s) => step(s, first.line, entered)),
      );
      const done = this.exec(b.body, start, { block, breaks: null });
      if (done.size > 0) this.facts.end({ kind: "end", block }, this.pairs(done));
      for (const s of done) this.end(step(s, last.line, ends), last, kind, []);
    });
  }

  /**
   * The states a cancel that arrives here stops the workflow in, for a flow without `on cancel`
   * (the analysis follows no run past it, but the page says where such a run ends).
   */
  private stoppedAtOnce(states: Iterable<State>, ctx: Ctx): void {
    if (ctx.block !== "cancel" && this.m.onCancel === null) {
      this.facts.end({ kind: "cancelled" }, this.pairs(states));
    }
  }

  /** Whether a cancel here is followed: into the flow's `on cancel`, when there is one, from outside it. */
  private followsCancel(ctx: Ctx): boolean {
    return ctx.block !== "cancel" && this.m.onCancel !== null;
  }

  /** Keeps the first state that reaches a diagnostic, one per key, so the rounds of a loop say it once. */
  private note(
    key: string,
    code: DandoriCode,
    at: Pos,
    message: Text,
    trace: Step | null,
    hint: Text | null = null,
  ): void {
    if (!this.found.has(key)) this.found.set(key, { code, at, message, hint, trace });
  }

  // -------------------------------------------------------------------------------------------
  // Statements

  private exec(ss: readonly StmtAst[], input: States, ctx: Ctx): States {
    let states = input;
    for (const s of ss) {
      if (states.size === 0) break;
      this.reached.add(s.line);
      this.facts.entry(s.line, this.pairs(states));
      const before = states;
      states = this.within(s, () => this.stmt(s, before, ctx));
    }
    return states;
  }

  private stmt(s: StmtAst, input: States, ctx: Ctx): States {
    switch (s.kind) {
      case "let":
        this.reads(s.value, input, s);
        return this.states([...input].map((x) => withVar(x, s.name.text)));
      case "wait":
        if (s.until !== null) this.reads(s.until, input, s);
        this.stoppedAtOnce(input, ctx);
        if (this.followsCancel(ctx)) {
          for (const x of input) {
            this.cancels.add(
              step(x, s.line, tr("cancelled while waiting", "待っているあいだにキャンセルされる")),
            );
          }
        }
        return input;
      case "call":
        return this.call(s, input, ctx);
      case "match":
        return this.match(s, input, ctx);
      case "repeat":
        return this.loop(s, input, ctx);
      case "for":
        this.reads(s.list, input, s);
        return this.loop(s, input, ctx);
      case "yield":
        this.reads(s.value, input, s);
        return input;
      case "break":
        ctx.breaks?.addAll(input);
        return this.states();
      case "succeed":
        for (const o of s.outputs) this.reads(o.value, input, s);
        this.facts.end({ kind: "statement", line: s.line }, this.pairs(input));
        for (const x of input) this.end(step(x, s.line, tr("succeed", "succeed")), s, "succeed", []);
        return this.states();
      case "fail": {
        if (s.reason !== null) this.reads(s.reason, input, s);
        const leaving = s.leaving.map((w) => w.text);
        this.facts.end({ kind: "statement", line: s.line }, this.pairs(input));
        for (const x of input) {
          this.end(step(x, s.line, tr(`fail ${s.error.text}`, `fail ${s.error.text}`)), s, "fail", leaving);
        }
        return this.states();
      }
      case "pass":
      case "elided":
        return input;
      default:
        return unreachable(s, "statement");
    }
  }

  /**
   * Runs a loop's body round after round from the states not yet seen at its top, until a round
   * meets none (E023 after `MAX_LOOP_ROUNDS`). A `for` may run no round: its list may be empty.
   */
  private loop(s: RepeatStmtAst | ForStmtAst, input: States, ctx: Ctx): States {
    const variable = s.kind === "for" ? s.variable.text : null;
    const collect = s.kind === "for" ? s.bind?.text ?? null : null;
    const breaks = this.states();
    const outs = this.states();
    const seen = this.states(input);
    let entry = this.states([...input].map((x) => variable === null ? x : withVar(x, variable)));
    for (let round = 0; round < MAX_LOOP_ROUNDS && entry.size > 0; round++) {
      const out = this.exec(s.body, entry, { block: ctx.block, breaks });
      outs.addAll(out);
      const next = this.states();
      for (const x of out) {
        const stored = seen.add(x);
        if (stored !== null) next.add(variable === null ? stored : withVar(stored, variable));
      }
      entry = next;
    }
    if (entry.size > 0) this.tooManyRounds(s);
    const exit = this.states([...breaks, ...outs, ...(s.kind === "for" ? input : [])]);
    return collect === null ? exit : this.states([...exit].map((x) => withVar(x, collect)));
  }

  /** E012: a variable read where it may have no value, or a case's record read before it starts. */
  private reads(e: ExprAst, input: States, at: Pos): void {
    for (const name of readsOf(e)) {
      const isCase = this.m.cases.has(name);
      if (!isCase && !this.readVars.has(name)) continue;
      for (const x of input) {
        const missing = isCase ? caseOf(x, name).record === null : !x.assigned.has(name);
        if (!missing) continue;
        this.note(
          `E012:${at.line}:${name}`,
          "E012",
          lineOf(at),
          isCase
            ? tr(
              `the case \`${name}\` may not have started here, so its record has no value to read`,
              `ここで案件 \`${name}\` は始まっていないことがあり、レコードに読む値がありません`,
            )
            : tr(`\`${name}\` may have no value here`, `ここで \`${name}\` は値を持っていないことがあります`),
          isCase ? x.trace : witness(x, name),
          isCase
            ? tr(
              `split it with \`match ${name}.state\` and its \`none\` arm first`,
              `先に \`match ${name}.state\` の \`none\` の分岐で分けてください`,
            )
            : tr(
              "give it a value on every way that gets here, or read it only where it has one",
              "ここに来るどの道でも値を入れるか、値のあるところでだけ読んでください",
            ),
        );
        break;
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // Calls (docs/design/dandori.md#refusals-and-failures, docs/design/dandori.md#holds-of-a-book)

  private call(s: CallStmtAst, input: States, ctx: Ctx): States {
    const task = this.t.calls.get(s);
    for (const a of s.call.args) if (a.kind === "arg") this.reads(a.value, input, s);
    if (task === undefined) return input;
    const outcomes = this.outcomes(s, task, input);
    for (const [outcome, states] of outcomes) this.facts.after(s.line, outcome ?? "ok", this.pairs(states));
    this.stoppedAtOnce([...input, ...outcomes.get("failure") ?? []], ctx);
    if (this.followsCancel(ctx)) {
      const running = tr(
        `cancelled while \`${task.name}\` runs`,
        `\`${task.name}\` の実行中にキャンセルされる`,
      );
      for (const x of input) this.cancels.add(step(x, s.line, running));
      for (const x of outcomes.get("failure") ?? []) this.cancels.add(step(x, s.line, running));
    }
    return this.handle(s, task, outcomes, ctx);
  }

  /** What a call may end with, by error name (null: done), with the states each leaves. */
  private outcomes(s: CallStmtAst, task: TaskDef, input: States): Map<string | null, State[]> {
    const outcomes = new Map<string | null, State[]>();
    const add = (k: string | null, x: State) => getOrAdd(outcomes, k, () => []).push(x);
    const c = s.bind?.kind === "case" ? lookup(this.m.cases, s.bind.name.text, "case") : null;
    if (c !== null && task.book !== null) {
      if (task.book.op === "hold") this.starts(s, task, c, input, add);
      else this.sends(s, task, task.book.op, c, input, add);
      return outcomes;
    }
    for (const x of input) {
      add(null, s.bind?.kind === "let" ? withVar(x, s.bind.name.text) : x);
      for (const e of [...task.errors.keys(), ...BUILTIN_ERRORS]) add(e, x);
    }
    return outcomes;
  }

  /** Runs each outcome of a call into the handler that takes it; the rest leave the block failing. */
  private handle(
    s: CallStmtAst,
    task: TaskDef,
    outcomes: ReadonlyMap<string | null, readonly State[]>,
    ctx: Ctx,
  ): States {
    const after = this.states(outcomes.get(null) ?? []);
    const unhandled: string[] = [];
    const entries = new Map<HandlerAst, States>();
    for (const [error, states] of outcomes) {
      if (error === null) continue;
      const h = s.handlers.find((x) => x.errors.some((e) => e.text === error));
      if (h === undefined) {
        unhandled.push(error);
        continue;
      }
      const into = getOrAdd(entries, h, () => this.states());
      const refusal = isRefusal(task, error);
      for (const x of states) {
        into.add(
          refusal ? x : step(
            x,
            h.line,
            tr(
              `${task.name} fails: on ${h.errors.map((w) => w.text).join(", ")}`,
              `${task.name} が失敗する: on ${h.errors.map((w) => w.text).join(", ")}`,
            ),
          ),
        );
      }
    }
    this.unhandled(s, task, unhandled, outcomes, ctx);
    for (const [h, states] of entries) after.addAll(this.exec(h.body, states, ctx));
    return after;
  }

  /** The outcomes no handler takes: in `flow` they go to `on failure`, in a cleanup they may leave a case open (W101). */
  private unhandled(
    s: CallStmtAst,
    task: TaskDef,
    errors: readonly string[],
    outcomes: ReadonlyMap<string | null, readonly State[]>,
    ctx: Ctx,
  ): void {
    const failing = errors.filter((e) => !isRefusal(task, e));
    const fails = tr(
      `${task.name} fails (${failing.join(", ")})`,
      `${task.name} が失敗する(${failing.join("、")})`,
    );
    for (const error of errors) {
      const refusal = isRefusal(task, error);
      for (const x of lookup(outcomes, error, "outcome")) {
        const failed = refusal ? x : step(x, s.line, fails);
        if (ctx.block === "flow") this.failures.add(failed);
        else this.leftOpen(failed, ctx.block);
      }
    }
  }

  private starts(
    s: CallStmtAst,
    task: TaskDef,
    c: CaseDef,
    input: States,
    add: (k: string | null, x: State) => void,
  ): void {
    const m = c.machine;
    for (const x of input) {
      if (caseOf(x, c.name).record !== null) {
        this.note(
          `E013:${s.line}:${c.name}`,
          "E013",
          lineOf(s),
          tr(
            `the case \`${c.name}\` may have started already here, and \`${task.name}\` starts it again`,
            `ここで案件 \`${c.name}\` はもう始まっていることがあり、\`${task.name}\` がもう一度始めます`,
          ),
          x.trace,
          tr(
            "start a case once; use another case for a second hold",
            "案件は一度だけ始めます。二つ目の仮押さえには別の案件を使ってください",
          ),
        );
      }
      add(
        null,
        withCase(
          step(
            x,
            s.line,
            tr(
              `${task.name}: ${c.name} starts in ${m.initial}`,
              `${task.name}: ${c.name} が ${m.initial} で始まる`,
            ),
          ),
          c.name,
          { record: m.initial, actual: m.initial },
        ),
      );
      // A hold that fails or is refused has not started (docs/design/dandori.md#refusals-and-failures): the
      // workflow cannot name a hold it has no record of.
      for (const e of task.errors.keys()) {
        add(
          e,
          step(
            x,
            s.line,
            tr(`${task.name}: hold is refused (${e})`, `${task.name}: hold が拒否される(${e})`),
          ),
        );
      }
      for (const e of BUILTIN_ERRORS) add(e, x);
    }
  }

  /**
   * A `post` or `void` sent to a case (docs/design/dandori.md#holds-of-a-book), from every state the outside
   * may have moved it to.
   */
  private sends(
    s: CallStmtAst,
    task: TaskDef,
    event: string,
    c: CaseDef,
    input: States,
    add: (k: string | null, x: State) => void,
  ): void {
    const info = this.caseCall(s, task, event, c);
    for (const before of input) {
      if (caseOf(before, c.name).record === null) {
        this.note(
          `E013:${s.line}:${c.name}`,
          "E013",
          lineOf(s),
          tr(
            `the case \`${c.name}\` may not have started here, and \`${task.name}\` sends \`${event}\` to it`,
            `ここで案件 \`${c.name}\` は始まっていないことがあり、\`${task.name}\` がそれに \`${event}\` を送ります`,
          ),
          before.trace,
          tr(
            `split it with \`match ${c.name}.state\` and call \`${task.name}\` only where it has started`,
            `\`match ${c.name}.state\` で分け、始まっているところでだけ \`${task.name}\` を呼んでください`,
          ),
        );
        continue;
      }
      for (const x of expand(before, c.name, c.machine)) this.sendFrom(s, info, x, add);
      for (const e of task.errors.keys()) {
        if (!c.machine.rows.some((r) => r.refused === e)) add(e, before);
      }
    }
  }

  /**
   * The outcomes of a call's event on its case in one state `x` it may be in
   * (docs/design/dandori.md#refusals-and-failures).
   */
  private sendFrom(
    s: CallStmtAst,
    info: CaseCall,
    x: State,
    add: (k: string | null, x: State) => void,
  ): void {
    const { task, c, event } = info;
    const record = caseOf(x, c.name).record;
    const from = actualOf(x, c.name);
    const row = rowOf(c.machine, from, event);
    info.runs++;
    if (row.refused !== null) {
      info.states.add(from);
      info.firstRefused ??= x;
      if (!info.reasons.has(row.refused)) info.reasons.set(row.refused, x);
      const refused = step(
        x,
        s.line,
        tr(
          `${task.name}: ${event} is refused (${row.refused})`,
          `${task.name}: ${event} が拒否される(${row.refused})`,
        ),
      );
      add(task.errors.has(row.refused) ? row.refused : "failure", refused);
      for (const e of BUILTIN_ERRORS) add(e, x);
      return;
    }
    info.accepted = true;
    const to = row.next ?? from;
    const moved = step(
      x,
      s.line,
      to === from
        ? tr(
          `${task.name}: ${c.name} stays ${from} (done before)`,
          `${task.name}: ${c.name} は ${from} のまま(前にしたとして通る)`,
        )
        : tr(`${task.name}: ${c.name} ${from} → ${to}`, `${task.name}: ${c.name} が ${from} → ${to}`),
    );
    add(null, withCase(moved, c.name, { record: to, actual: to }));
    // A call that fails may have done its work outside before it failed
    // (docs/design/dandori.md#two-states-per-case): the record stays, the case may have moved.
    for (const e of BUILTIN_ERRORS) {
      add(e, x);
      if (to !== from) add(e, withCase(moved, c.name, { record, actual: to }));
    }
  }

  private caseCall(s: CallStmtAst, task: TaskDef, event: string, c: CaseDef): CaseCall {
    return getOrAdd(this.caseCalls, s, () => ({
      stmt: s,
      task,
      event,
      c,
      runs: 0,
      accepted: false,
      reasons: new Map(),
      states: new Set(),
      firstRefused: null,
    }));
  }

  // -------------------------------------------------------------------------------------------
  // Matches

  private match(s: MatchStmtAst, input: States, ctx: Ctx): States {
    const kind = this.t.matches.get(s);
    if (kind?.kind === "case") return this.caseMatch(s, kind.case, input, ctx);
    this.reads(s.subject, input, s);
    const out = this.states();
    for (const arm of s.arms) {
      const text = arm.patterns.map(patternText).join(", ");
      let states = this.states(
        [...input].map((x) =>
          step(
            x,
            arm.line,
            tr(`match ${exprText(s.subject)}: ${text}`, `match ${exprText(s.subject)}: ${text}`),
          )
        ),
      );
      for (const p of arm.patterns) {
        if (p.kind === "some") states = this.states([...states].map((x) => withVar(x, p.name.text)));
      }
      out.addAll(this.exec(arm.body, states, ctx));
    }
    return out;
  }

  /** A `match` on a case's state: each state goes only to the arm of what its record says. */
  private caseMatch(s: MatchStmtAst, c: CaseDef, input: States, ctx: Ctx): States {
    const info = getOrAdd(this.caseMatches, s, () => ({ stmt: s, c, said: new Set(), missing: new Map() }));
    const into = new Map<number, States>();
    for (const x of input) {
      const said = caseOf(x, c.name).record ?? "none";
      info.said.add(said);
      const arm = s.arms.findIndex((a) => a.patterns.some((p) => patternText(p) === said));
      if (arm < 0) {
        if (!info.missing.has(said)) info.missing.set(said, x);
        continue;
      }
      getOrAdd(into, arm, () => this.states()).add(
        step(
          x,
          s.arms[arm].line,
          tr(`match ${exprText(s.subject)}: ${said}`, `match ${exprText(s.subject)}: ${said}`),
        ),
      );
    }
    const out = this.states();
    for (const [arm, states] of into) out.addAll(this.exec(s.arms[arm].body, states, ctx));
    return out;
  }

  // -------------------------------------------------------------------------------------------
  // Ends (docs/design/dandori.md#ends, docs/design/dandori.md#on-failure-and-on-cancel)

  private end(x: State, at: Pos, kind: EndKind, leaving: readonly string[]): void {
    for (const c of this.m.cases.values()) {
      if (leaving.includes(c.name)) continue;
      const open = openIn(x, c);
      if (open === null) continue;
      const hint = kind === "succeed"
        ? tr(
          `settle the case before the end, or hand it over with \`fail … leaving ${c.name}\``,
          `終わる前に案件を片付けるか、\`fail … leaving ${c.name}\` で引き渡してください`,
        )
        : null;
      // A trace that ends in the end statement itself keeps the external events after it in order.
      const message = endMessage(kind, c, actualOf(open, c.name));
      this.note(`E020:${at.line}:${c.name}`, "E020", lineOf(at), message, open.trace, hint);
    }
  }

  /** A failure nothing handles (docs/design/dandori.md#ends): W101 for every case it may leave open. */
  private leftOpen(x: State, cleanup: Cleanup | null): void {
    this.facts.end({ kind: "unhandled" }, this.pairs([x]));
    for (const c of this.m.cases.values()) {
      const open = openIn(x, c);
      if (open === null) continue;
      const line = x.trace?.line ?? 0;
      const key = `${cleanup ?? "flow"}:${c.name}`;
      const seen = this.open.get(key);
      if (seen !== undefined) {
        seen.lines.add(line);
        continue;
      }
      this.open.set(key, {
        trace: open.trace,
        lines: new Set([line]),
        cleanup,
        at: { line, col: 1 },
        caseName: c.name,
        in: actualOf(open, c.name),
      });
    }
  }

  // -------------------------------------------------------------------------------------------
  // After every run: what the calls and matches met across runs

  private afterRuns(): void {
    for (const info of this.caseCalls.values()) {
      if (info.runs === 0) continue;
      if (!info.accepted && info.firstRefused !== null) {
        this.refusedEverywhere(info, info.firstRefused);
        continue;
      }
      this.refusalsUnhandled(info);
      this.handlersNeverRun(info);
    }
    for (const info of this.caseMatches.values()) {
      this.armsMissing(info);
      this.armsNeverTaken(info);
    }
  }

  /** E021: the book refuses the call's operation in every state its case can be in here. */
  private refusedEverywhere(info: CaseCall, refused: State): void {
    const { stmt, task, event, c } = info;
    this.note(
      `E021:${stmt.line}`,
      "E021",
      lineOf(stmt),
      tr(
        `the book refuses \`${event}\` here in every state \`${c.name}\` can be in (${
          [...info.states].join(", ")
        })`,
        `ここでは \`${c.name}\` がどの状態(${
          [...info.states].join("・")
        })でも、帳簿は \`${event}\` を拒否します`,
      ),
      refused.trace,
      tr(`do not call \`${task.name}\` here`, `ここでは \`${task.name}\` を呼ばないでください`),
    );
  }

  /** E022: a refusal the call may meet that its task does not declare or no handler takes. */
  private refusalsUnhandled(info: CaseCall): void {
    const { stmt, task, event, c } = info;
    for (const [reason, x] of info.reasons) {
      const state = actualOf(x, c.name);
      const declared = task.errors.has(reason);
      const handled = stmt.handlers.some((h) => h.errors.some((e) => e.text === reason));
      if (declared && handled) continue;
      this.note(
        `E022:${stmt.line}:${reason}`,
        "E022",
        lineOf(stmt),
        declared
          ? tr(
            `here the book can refuse \`${event}\` with \`${reason}\` (when \`${c.name}\` is ${state}); handle it with \`on ${reason} =>\` under the call`,
            `ここでは帳簿が \`${event}\` を \`${reason}\` で拒否することがあります(\`${c.name}\` が ${state} のとき)。呼び出しの下の \`on ${reason} =>\` で処理してください`,
          )
          : tr(
            `here the book can refuse \`${event}\` with \`${reason}\` (when \`${c.name}\` is ${state}); write \`${reason}\` in the \`errors\` of \`${task.name}\` and handle it with \`on ${reason} =>\``,
            `ここでは帳簿が \`${event}\` を \`${reason}\` で拒否することがあります(\`${c.name}\` が ${state} のとき)。\`${task.name}\` の \`errors\` に \`${reason}\` を書き、\`on ${reason} =>\` で処理してください`,
          ),
        x.trace,
      );
    }
  }

  /** W102: a handler of refusals only, none of which the book gives the call here. */
  private handlersNeverRun(info: CaseCall): void {
    const { stmt, event, c } = info;
    const rowReasons = new Set(c.machine.rows.flatMap((r) => r.refused === null ? [] : [r.refused]));
    for (const h of stmt.handlers) {
      const listed = h.errors.map((e) => e.text);
      if (listed.length === 0 || !listed.every((e) => rowReasons.has(e))) continue;
      const never = listed.filter((e) => !info.reasons.has(e));
      if (never.length < listed.length) continue;
      this.r.warning(
        "W102",
        lineOf(h),
        tr(
          `\`on ${listed.join(", ")}\` never runs: here the book does not refuse \`${event}\` with ${
            listed.length === 1 ? "it" : "them"
          }`,
          `\`on ${
            listed.join(", ")
          }\` は動きません。ここで帳簿が \`${event}\` をその理由で拒否することはありません`,
        ),
        {
          hint: tr("remove the handler", "ハンドラーを消してください"),
          notes: [caseStatesNote(c, info.states.size > 0 ? [...info.states] : null)],
        },
      );
    }
  }

  /** E010: a value the case's record can have here that no arm of the `match` takes. */
  private armsMissing(info: CaseMatch): void {
    for (const [said, x] of info.missing) {
      this.note(
        `E010:${info.stmt.line}:${said}`,
        "E010",
        lineOf(info.stmt),
        tr(
          `\`match\` has no arm for ${said}; here \`${exprText(info.stmt.subject)}\` can be that value`,
          `\`match\` に ${said} の分岐がありません。ここで \`${
            exprText(info.stmt.subject)
          }\` はその値を取りえます`,
        ),
        x.trace,
        tr(
          `add \`${said} => …\` (\`pass\` to do nothing)`,
          `\`${said} => …\` を足してください(何もしないなら \`pass\`)`,
        ),
      );
    }
  }

  /** E011: an arm of a `match` on a case's state that no state reaching it takes. */
  private armsNeverTaken(info: CaseMatch): void {
    if (info.said.size === 0) return;
    const said = info.c.machine.states.filter((st) => info.said.has(st));
    if (info.said.has("none")) said.unshift("none");
    for (const arm of info.stmt.arms) {
      for (const p of arm.patterns) {
        const text = patternText(p);
        if (info.said.has(text) || p.kind === "elided") continue;
        this.r.error(
          "E011",
          lineOf(arm),
          tr(
            `the arm \`${text}\` is never taken: here \`${exprText(info.stmt.subject)}\` can only be ${
              said.join(", ")
            }`,
            `分岐 \`${text}\` は通りません。ここで \`${exprText(info.stmt.subject)}\` がとりうる値は ${
              said.join("・")
            } だけです`,
          ),
          { notes: text === "expired" ? [EXPIRY_NOTE] : [] },
        );
      }
    }
  }

  /** Keeps a diagnostic's run for the page, which lights it on the chart. */
  private example(code: DandoriCode, at: Pos, message: Text, trace: Step | null): void {
    if (trace === null) return;
    this.facts.example({
      code,
      line: at.line,
      message,
      steps: stepsOf(trace).map((t) => ({ line: t.line, text: t.text })),
    });
  }

  private emit(): void {
    for (const f of this.found.values()) {
      this.example(f.code, f.at, f.message, f.trace);
      this.r.error(f.code, f.at, f.message, {
        operations: operations(f.trace),
        ...(f.hint === null ? {} : { hint: f.hint }),
      });
    }
    for (const o of this.open.values()) {
      const others = [...o.lines].filter((l) => l !== o.at.line).sort((a, b) => a - b);
      const where = o.cleanup === null ? null : `on ${o.cleanup}`;
      const message = where === null
        ? tr(
          `a call can fail here with an error nothing handles, and the workflow fails with the case \`${o.caseName}\` in ${o.in}, which is not final: there is no \`on failure\` to settle it`,
          `ここで呼び出しが処理されないエラーで失敗すると、案件 \`${o.caseName}\` が ${o.in} のままワークフローが失敗します。片付ける \`on failure\` がありません`,
        )
        : tr(
          `this call in \`${where}\` can fail with an error nothing handles, and the workflow fails with the case \`${o.caseName}\` in ${o.in}, which is not final`,
          `\`${where}\` の中のこの呼び出しが処理されないエラーで失敗すると、案件 \`${o.caseName}\` が ${o.in} のままワークフローが失敗します`,
        );
      this.example("W101", o.at, message, o.trace);
      this.r.warning(
        "W101",
        o.at,
        message,
        {
          operations: operations(o.trace),
          notes: others.length === 0 ? [] : [
            tr(
              `the same can happen on line${others.length > 1 ? "s" : ""} ${others.join(", ")}`,
              `${others.join("・")} 行でも同じことが起きます`,
            ),
          ],
          hint: where === null
            ? tr(
              "write `on failure` to settle the case, or handle the call's errors with `on … =>`",
              "案件を片付ける `on failure` を書くか、呼び出しのエラーを `on … =>` で処理してください",
            )
            : tr(
              "handle the cleanup call's errors, and end with `fail … leaving` when the case cannot be settled",
              "片付けの呼び出しのエラーを処理し、片付けられないときは `fail … leaving` で終えてください",
            ),
        },
      );
    }
  }
}

/**
 * A state the outside may move `x` to in which the case `c` is not final
 * (docs/design/dandori.md#external-events), or null when there is none.
 */
function openIn(x: State, c: CaseDef): State | null {
  return expand(x, c.name, c.machine).find((y) => {
    const actual = caseOf(y, c.name).actual;
    return actual !== null && !c.machine.finals.includes(actual);
  }) ?? null;
}

/** E020's message: the workflow ends in the way `kind` says with the case `c` in `state`. */
function endMessage(kind: EndKind, c: CaseDef, state: string): Text {
  const finals = c.machine.finals;
  switch (kind) {
    case "succeed":
      return tr(
        `the workflow can end here with the case \`${c.name}\` in ${state}, which is not final (${
          finals.join(", ")
        } are)`,
        `案件 \`${c.name}\` が ${state} のまま、ここでワークフローが終わることがあります(終わりの状態は ${
          finals.join("・")
        })`,
      );
    case "fail":
      return tr(
        `the workflow can fail here with the case \`${c.name}\` in ${state}, which is not final (${
          finals.join(", ")
        } are); settle it first, or write \`leaving ${c.name}\` to hand it over as it is`,
        `案件 \`${c.name}\` が ${state} のまま、ここでワークフローが失敗することがあります(終わりの状態は ${
          finals.join("・")
        })。先に片付けるか、\`leaving ${c.name}\` と書いてそのまま引き渡してください`,
      );
    case "cancel":
      return tr(
        `the workflow can end cancelled here with the case \`${c.name}\` in ${state}, which is not final (${
          finals.join(", ")
        } are); settle it in \`on cancel\`, or end it with \`fail … leaving ${c.name}\``,
        `案件 \`${c.name}\` が ${state} のまま、ここでワークフローがキャンセルで終わることがあります(終わりの状態は ${
          finals.join("・")
        })。\`on cancel\` で片付けるか、\`fail … leaving ${c.name}\` で終えてください`,
      );
    default:
      return unreachable(kind, "end");
  }
}

/** Why a `match` on a hold's state never meets `expired` (E011). */
const EXPIRY_NOTE: Text = tr(
  "a hold's record says what its operations returned (held, posted, voided); an expiry shows only as an `expired` refusal",
  "仮押さえのレコードは操作の結果(held・posted・voided)を言います。期限切れは `expired` の拒否でだけ分かります",
);

/** A book's refusal says so on the call's line already; a failure gets its own step. */
function isRefusal(task: TaskDef, error: string): boolean {
  return task.book !== null && task.errors.has(error);
}

function caseStatesNote(c: CaseDef, states: string[] | null): Text {
  return states === null
    ? tr(
      `here the book does not refuse the call whatever state \`${c.name}\` is in`,
      `ここでは \`${c.name}\` がどの状態でも、帳簿は呼び出しを拒否しません`,
    )
    : tr(
      `here the call is refused only when \`${c.name}\` is ${states.join(", ")}`,
      `ここで呼び出しが拒否されるのは、\`${c.name}\` が ${states.join("・")} のときだけです`,
    );
}

/** The names a value reads: variables and cases at the head of its paths. */
function readsOf(e: ExprAst): string[] {
  switch (e.kind) {
    case "path":
      return [e.parts[0].text];
    case "string":
      return e.parts.flatMap((p) => p.kind === "hole" ? readsOf(p.value) : []);
    case "record":
      return e.fields.flatMap((f) => readsOf(f.value));
    case "list":
      return e.items.flatMap(readsOf);
    case "number":
    case "bool":
    case "none":
    case "now":
    case "elided":
      return [];
    default:
      return unreachable(e, "value");
  }
}

/** What the case analysis gives besides its diagnostics. */
export interface CaseAnalysis {
  /** The lines of the statements it reached: every statement some run can get to. */
  readonly reached: ReadonlySet<number>;
  readonly facts: FlowFacts;
}

/** Runs the case analysis of a typed flow and reports what it finds. */
export function checkCases(m: FlowModel, typed: Typed, r: Reporter<DandoriCode>): CaseAnalysis {
  const a = new Analysis(m, typed, r);
  a.run();
  return { reached: a.reached, facts: a.facts.facts() };
}
