/**
 * The secrets a value carries (docs/dandori.md#secrets-and-plain-http): a value read from a place marked
 * `secret` (an input, an output, a record's field, a task's argument or result) is secret, and so
 * is every value made from it. A record carries the secrets of its fields, a list those of its
 * items, a string those of the values written into it, a `json` value whatever it was made from;
 * a variable carries what every place that gives it a value carries, wherever in the flow that
 * is, the way ranges are followed (ranges.ts). The checks that say where a secret goes are
 * secrecy.ts's.
 *
 * Each secret keeps its name as the flow reads it (`account.number`), the marks that make it
 * secret, and the statements that carried it from where it was read, so a diagnostic can say all
 * three.
 * @module
 */

import { unreachable } from "../common/assert.ts";
import { maskText } from "../common/secrets.ts";
import { type Text, tr } from "../common/text.ts";
import type { CallStmtAst, ExprAst, Pos } from "./ast.ts";
import type { FlowModel } from "./model.ts";
import type { FieldDef, SecretMark, Ty, TypeTable } from "./types.ts";
import { exprText, type Source, type Typed } from "./typing.ts";

/** A step into a value: a record's field by name, or the items of a list. */
export type Segment = { readonly field: string } | "items";

/** A `secret` mark, with what it is written on (`the field \`number\` of \`Account\``). */
export interface Mark extends SecretMark {
  readonly on: Text;
}

/** A statement that carried a secret on its way: its line and its text, keys masked. */
export interface Step {
  readonly line: number;
  readonly text: string;
}

/** One secret a value carries. */
export interface Carried {
  /** How the flow reads it, so far: `account`, `account.number`. */
  readonly name: string;
  /** Where the secret is inside the value: the fields and list items from the value to the secret. */
  readonly inner: readonly Segment[];
  /**
   * True while the name is the value's own: a field read next is added to it (`card` read as
   * `card.number`). A secret that came through a variable or into a made value keeps the name it
   * was read by.
   */
  readonly fresh: boolean;
  readonly marks: readonly Mark[];
  /** The statements that carried it here from where the flow read it, first first. */
  readonly steps: readonly Step[];
}

/** How a secret reads in a message: `account.number`, `accounts[].number`. */
export function secretName(c: Carried): string {
  return c.fresh ? c.name + innerText(c.inner) : c.name;
}

function innerText(inner: readonly Segment[]): string {
  return inner.map((s) => s === "items" ? "[]" : `.${s.field}`).join("");
}

/** The same secret, its name fixed as it reads now: it goes on inside another value. */
function settled(c: Carried): Carried {
  return { ...c, name: secretName(c), fresh: false };
}

/** Secrets of one name are one secret, with the marks and the first way of every one of them. */
export function joinSecrets(cs: readonly Carried[]): Carried[] {
  const out: Carried[] = [];
  for (const c of cs) {
    const i = out.findIndex((o) => secretName(o) === secretName(c) && sameInner(o.inner, c.inner));
    if (i < 0) {
      out.push(c);
      continue;
    }
    const marks = [...out[i].marks];
    for (const m of c.marks) if (!marks.some((n) => n.line === m.line && n.col === m.col)) marks.push(m);
    out[i] = { ...out[i], marks };
  }
  return out;
}

function sameInner(a: readonly Segment[], b: readonly Segment[]): boolean {
  return a.length === b.length && a.every((s, i) => innerText([s]) === innerText([b[i]]));
}

/** What a place marked `secret` is, for the note that says where the mark is. */
export function markOn(mark: SecretMark, on: Text): Mark {
  return { line: mark.line, col: mark.col, on };
}

/**
 * The secrets a value of type `ty` holds because of where it is kept: the marked fields of its
 * records, through lists and optional values, by the name `name` the flow reads it with.
 */
export function secretsOfType(types: TypeTable, ty: Ty, name: string): Carried[] {
  const out: Carried[] = [];
  const walk = (t: Ty, inner: readonly Segment[], seen: ReadonlySet<string>) => {
    switch (t.kind) {
      case "optional":
        return walk(t.inner, inner, seen);
      case "list":
        return walk(t.element, [...inner, "items"], seen);
      case "record": {
        // A record cannot contain itself (E003 stops the check before); `seen` keeps that so.
        if (seen.has(t.name)) return;
        for (const f of types.records.get(t.name)?.fields ?? []) {
          const here: Segment[] = [...inner, { field: f.name }];
          if (f.secret !== null) {
            out.push({ name, inner: here, fresh: true, marks: [fieldMark(t.name, f, f.secret)], steps: [] });
          } else walk(f.type, here, new Set([...seen, t.name]));
        }
        return;
      }
      case "int":
      case "string":
      case "bool":
      case "timestamp":
      case "date":
      case "json":
      case "num":
      case "enum":
        return;
      default:
        return unreachable(t, "type");
    }
  };
  walk(ty, [], new Set());
  return out;
}

function fieldMark(record: string, f: FieldDef, mark: SecretMark): Mark {
  return markOn(
    mark,
    tr(`the field \`${f.name}\` of \`${record}\``, `\`${record}\` のフィールド \`${f.name}\``),
  );
}

/**
 * What a place's own mark or, without one, the marks of its type make secret, read as `name`:
 * a place marked `secret` is secret whole, whatever its type marks inside.
 */
export function secretsOfPlace(types: TypeTable, ty: Ty, own: Mark | null, name: string): Carried[] {
  if (own === null) return secretsOfType(types, ty, name);
  return [{ name, inner: [], fresh: true, marks: [own], steps: [] }];
}

/** A statement as a step of a secret's way, keys masked like every quoted line. */
function stepOf(at: Pos, text: string): Step {
  return { line: at.line, text: maskText(text) };
}

/** The secrets carried by the values of a typed flow: one instance per check. */
export class SecretValues {
  /** What each variable carries, once worked out. */
  private readonly vars = new Map<string, Carried[]>();
  private readonly working = new Set<string>();

  constructor(private readonly m: FlowModel, private readonly t: Typed) {}

  /** The secrets a value carries. */
  of(e: ExprAst): Carried[] {
    switch (e.kind) {
      case "path":
        return this.path(e);
      case "string":
        return joinSecrets(
          e.parts.flatMap((p) =>
            p.kind === "hole" ? this.of(p.value).map((c) => ({ ...settled(c), inner: [] })) : []
          ),
        );
      case "list":
        return joinSecrets(
          e.items.flatMap((i) =>
            this.of(i).map((c) => ({ ...settled(c), inner: ["items", ...c.inner] as Segment[] }))
          ),
        );
      case "record":
        return joinSecrets(this.record(e));
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

  /** A `{…}` record: what its values carry, and the values it puts into its marked fields. */
  private record(e: Extract<ExprAst, { kind: "record" }>): Carried[] {
    const t = this.t.types.get(e);
    const def = t?.kind === "record" ? this.m.types.records.get(t.name) : undefined;
    return e.fields.flatMap((f) => {
      const inner: Segment[] = [{ field: f.name.text }];
      const carried = this.of(f.value).map((c) => ({ ...settled(c), inner: [...inner, ...c.inner] }));
      const field = def?.fields.find((x) => x.name === f.name.text);
      if (def === undefined || field === undefined || field.secret === null) return carried;
      const marked: Carried = {
        name: maskText(exprText(f.value)),
        inner,
        fresh: false,
        marks: [fieldMark(def.name, field, field.secret)],
        steps: [],
      };
      return [...carried, marked];
    });
  }

  /** `x`, `x.f.g`: what the name carries, then what is left of it in each field read. */
  private path(e: Extract<ExprAst, { kind: "path" }>): Carried[] {
    const [head, ...fields] = e.parts;
    let carried = this.root(head.text);
    for (const f of fields) {
      carried = carried.flatMap((c): Carried[] => {
        const name = c.fresh ? `${c.name}.${f.text}` : c.name;
        if (c.inner.length === 0) return [{ ...c, name }];
        const [first, ...rest] = c.inner;
        return first !== "items" && first.field === f.text ? [{ ...c, name, inner: rest }] : [];
      });
    }
    return carried;
  }

  private root(name: string): Carried[] {
    const input = this.m.inputs.find((i) => i.name === name);
    if (input !== undefined) {
      const own = input.secret === null
        ? null
        : markOn(input.secret, tr(`the input \`${name}\``, `入力 \`${name}\``));
      return secretsOfPlace(this.m.types, input.type, own, name);
    }
    if (this.t.vars.has(name)) return this.variable(name);
    // A case's record is the hold a book returns: its key and its state, never marked.
    return [];
  }

  /** What every place that gives `name` a value carries (a variable's sources, as its range). */
  private variable(name: string): Carried[] {
    const done = this.vars.get(name);
    if (done !== undefined) return done;
    if (this.working.has(name)) return [];
    this.working.add(name);
    const sources = this.t.vars.get(name)?.sources ?? [];
    const carried = joinSecrets(sources.flatMap((s) => this.source(name, s)));
    this.working.delete(name);
    this.vars.set(name, carried);
    return carried;
  }

  private source(name: string, s: Source): Carried[] {
    const via = (cs: readonly Carried[], step: Step) => cs.map((c) => ({ ...c, steps: [...c.steps, step] }));
    switch (s.kind) {
      case "value":
        return via(this.of(s.expr).map(settled), stepOf(s.at, `let ${name} = ${exprText(s.expr)}`));
      case "call":
        return via(this.result(s.stmt, name), stepOf(s.at, `let ${name} = ${callText(s.stmt)}`));
      case "element": {
        const items = this.of(s.list).flatMap((c): Carried[] => {
          if (c.inner.length === 0) return [{ ...c, name: c.fresh ? name : c.name }];
          const [first, ...rest] = c.inner;
          if (first !== "items") return [];
          return [c.fresh ? { ...c, name, inner: rest } : { ...c, inner: rest }];
        });
        return via(items, stepOf(s.at, `for ${name} in ${exprText(s.list)} …`));
      }
      case "some":
        return via(
          this.of(s.subject).map(settled),
          stepOf(s.at, `match ${exprText(s.subject)}: some ${name}`),
        );
      case "collect": {
        const last = s.loop.body[s.loop.body.length - 1];
        if (last?.kind !== "yield") return [];
        const items = this.of(last.value).map((c) => ({
          ...settled(c),
          inner: ["items", ...c.inner] as Segment[],
        }));
        return via(
          items,
          stepOf(s.at, `let ${name} = for ${s.loop.variable.text} … yield ${exprText(last.value)}`),
        );
      }
      default:
        return unreachable(s, "source");
    }
  }

  /** What a call's result carries, by the variable it goes into. */
  private result(s: CallStmtAst, name: string): Carried[] {
    const task = this.t.calls.get(s);
    if (task?.result == null) return [];
    return secretsOfResult(this.m.types, task.name, task.result, name);
  }
}

/** What a task's result carries: its own mark and its type's, read as `name`. */
export function secretsOfResult(
  types: TypeTable,
  task: string,
  result: { readonly type: Ty; readonly secret: SecretMark | null },
  name: string,
): Carried[] {
  const own = result.secret === null
    ? null
    : markOn(result.secret, tr(`the result of \`${task}\``, `\`${task}\` の結果`));
  return secretsOfPlace(types, result.type, own, name);
}

/** A call as a step reads: `pay(…)`. */
export function callText(s: CallStmtAst): string {
  return `${s.call.callee.map((w) => w.text).join(".")}(…)`;
}
