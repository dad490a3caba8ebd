/**
 * What the case analysis saw at each point of a flow (docs/design/dandori.md#the-page): the states
 * every case can be in at the entry of each statement, after each way a call ends, and at each
 * ending, the outside's events (a hold's expiry) included. The page prints these as the checker
 * found them, so the page and the diagnostics cannot disagree.
 * @module
 */

import type { Text } from "../common/text.ts";
import type { CaseDef } from "./model.ts";
import type { Block } from "./typing.ts";

/**
 * One state a case can be in: what its record says and where it is outside (docs/design/dandori.md#two-states-per-case), both null
 * before it starts. They differ when the outside moved it (an expired hold whose record says held).
 */
export interface CasePair {
  readonly record: string | null;
  readonly actual: string | null;
}

/** Each case of the flow, by name, with every pair it can be in at one point, in the machine's order. */
export type CaseFacts = ReadonlyMap<string, readonly CasePair[]>;

/** Where a run ends. */
export type EndAt =
  /** A `succeed` or a `fail` statement, by its line. */
  | { readonly kind: "statement"; readonly line: number }
  /** A block runs to its last statement: `flow` succeeds, `on failure` fails, `on cancel` is cancelled. */
  | { readonly kind: "end"; readonly block: Block }
  /** The workflow fails with an error nothing handles (no `on failure`, or one raised inside a cleanup). */
  | { readonly kind: "unhandled" }
  /** A cancel stops a flow that has no `on cancel`. */
  | { readonly kind: "cancelled" };

/**
 * A run the analysis found that reaches a diagnostic, as the diagnostic prints it (the operations that get there):
 * each step on a line of the flow (null for what happens outside), in order.
 */
export interface Example {
  readonly code: string;
  readonly line: number;
  readonly message: Text;
  readonly steps: readonly { readonly line: number | null; readonly text: Text }[];
}

/** What the analysis saw, point by point. */
export interface FlowFacts {
  /** At the entry of each statement the analysis reached, by line. */
  readonly entry: ReadonlyMap<number, CaseFacts>;
  /** After each call, by line, by how it ended: `ok` or an error's name. */
  readonly after: ReadonlyMap<number, ReadonlyMap<string, CaseFacts>>;
  /** At each ending some run reaches, in the order the analysis met them. */
  readonly ends: readonly { readonly at: EndAt; readonly cases: CaseFacts }[];
  /** The runs its diagnostics show, in the order they are reported. */
  readonly examples: readonly Example[];
}

/** Pairs by case, each pair once (keyed by its text). */
type Gathered = Map<string, Map<string, CasePair>>;

function pairKey(p: CasePair): string {
  return `${p.record ?? "-"}/${p.actual ?? "-"}`;
}

function endKey(at: EndAt): string {
  return at.kind === "statement" ? `s${at.line}` : at.kind === "end" ? `end ${at.block}` : at.kind;
}

/** Gathers the pairs the analysis meets, then gives them in a stable order. */
export class FactsBuilder {
  private readonly entries = new Map<number, Gathered>();
  private readonly afters = new Map<number, Map<string, Gathered>>();
  private readonly endings = new Map<string, { at: EndAt; gathered: Gathered }>();
  private readonly examples: Example[] = [];

  constructor(private readonly cases: ReadonlyMap<string, CaseDef>) {}

  /** `pairs`: for one state of the analysis, each case's pairs once the outside has moved it. */
  entry(line: number, pairs: Iterable<readonly [string, CasePair]>): void {
    this.gather(getOr(this.entries, line, () => new Map()), pairs);
  }

  after(line: number, outcome: string, pairs: Iterable<readonly [string, CasePair]>): void {
    const byOutcome = getOr(this.afters, line, () => new Map<string, Gathered>());
    this.gather(getOr(byOutcome, outcome, () => new Map()), pairs);
  }

  end(at: EndAt, pairs: Iterable<readonly [string, CasePair]>): void {
    this.gather(getOr(this.endings, endKey(at), () => ({ at, gathered: new Map() })).gathered, pairs);
  }

  example(e: Example): void {
    this.examples.push(e);
  }

  facts(): FlowFacts {
    const after = new Map<number, ReadonlyMap<string, CaseFacts>>();
    for (const [line, byOutcome] of this.afters) {
      after.set(line, new Map([...byOutcome].map(([k, g]) => [k, this.sorted(g)])));
    }
    return {
      entry: new Map([...this.entries].map(([line, g]) => [line, this.sorted(g)])),
      after,
      ends: [...this.endings.values()].map((e) => ({ at: e.at, cases: this.sorted(e.gathered) })),
      examples: this.examples,
    };
  }

  private gather(into: Gathered, pairs: Iterable<readonly [string, CasePair]>): void {
    for (const [name, p] of pairs) getOr(into, name, () => new Map()).set(pairKey(p), p);
  }

  /** Every case of the flow, its pairs in the machine's order of states (not started first). */
  private sorted(g: Gathered): CaseFacts {
    return new Map([...this.cases.values()].map((c) => {
      const states = c.machine.states;
      const rank = (s: string | null) => s === null ? -1 : states.indexOf(s);
      const pairs = [...(g.get(c.name)?.values() ?? [])];
      pairs.sort((a, b) => rank(a.record) - rank(b.record) || rank(a.actual) - rank(b.actual));
      return [c.name, pairs];
    }));
  }
}

function getOr<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  const found = map.get(key);
  if (found !== undefined) return found;
  const made = make();
  map.set(key, made);
  return made;
}
