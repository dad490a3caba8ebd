/**
 * A state machine a case follows (docs/design/dandori.md#cases), as data: states, where it starts, where
 * it ends, the events, which of them the outside raises, and one row per state and event.
 * @module
 */

/** One row: in `state`, `event` leads to `next` (null: stays), or is refused with `refused`. */
export interface MachineRow {
  readonly state: string;
  readonly event: string;
  readonly next: string | null;
  readonly refused: string | null;
}

/** A state machine. */
export interface Machine {
  /** How a flow names it: `<book>.<transfer>`. */
  readonly name: string;
  readonly states: readonly string[];
  readonly initial: string;
  readonly finals: readonly string[];
  readonly events: readonly string[];
  /** Events that happen without the workflow (docs/design/dandori.md#external-events): a hold's `expire`. */
  readonly external: readonly string[];
  readonly rows: readonly MachineRow[];
}

/** The row of `event` in `state`; a pair the machine has no row for stays and is not refused. */
export function rowOf(m: Machine, state: string, event: string): MachineRow {
  return m.rows.find((r) => r.state === state && r.event === event) ??
    { state, event, next: null, refused: null };
}

/**
 * The states the outside can move a case to from `state`, each with the events that lead
 * there in order; `state` itself first, with no events.
 */
export function externalClosure(m: Machine, state: string): { state: string; events: string[] }[] {
  const out = [{ state, events: [] as string[] }];
  for (let i = 0; i < out.length; i++) {
    for (const e of m.external) {
      const row = rowOf(m, out[i].state, e);
      if (row.refused !== null || row.next === null) continue;
      if (out.some((o) => o.state === row.next)) continue;
      out.push({ state: row.next, events: [...out[i].events, e] });
    }
  }
  return out;
}
