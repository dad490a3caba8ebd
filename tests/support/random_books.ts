/**
 * Random books and operation sequences for the property tests, from a fixed seed: small books written
 * as text (so they go through the checker like any book) and calls with values from a small pool, so
 * that keys repeat and accounts coincide.
 * @module
 */

import type { Call, Ledger } from "../../lang/chobo/interp.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { operationsOf } from "../../lang/chobo/scenario.ts";
import { generator } from "./random.ts";

/** Integers, chances and picks from one seed. */
export class Random {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = generator(seed);
  }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
}

interface GenUnit {
  readonly name: string;
  readonly scale: number;
}

interface GenAccount {
  readonly name: string;
  readonly unit: GenUnit;
  readonly param: boolean;
}

/** An amount in the unit's smallest unit, written as a literal of that unit (`-0.05`, `1.00`). */
function literal(v: bigint, scale: number): string {
  if (scale === 0) return String(v);
  const sign = v < 0n ? "-" : "";
  const abs = v < 0n ? -v : v;
  const d = 10n ** BigInt(scale);
  return `${sign}${abs / d}.${String(abs % d).padStart(scale, "0")}`;
}

/** The largest amount and bound, 2⁶³ − 1. */
const MAX = (1n << 63n) - 1n;

/**
 * How a book's bounds are drawn: `small` ones near 0, or `edges`, at and next to the ends of what a
 * bound may be (±(2⁶³ − 1)) and next to 0, so that amounts, balances and bounds meet the 64-bit range.
 */
export type BoundDraw = "small" | "edges";

const EDGE_LOWERS: readonly bigint[] = [-MAX, -MAX + 1n, -MAX + 2n, -1n, 0n, 0n, 1n, MAX - 1n];
const EDGE_UPPERS: readonly bigint[] = [MAX, MAX, MAX - 1n, MAX - 2n, 0n, 1n];

/**
 * One small random book: 1–2 units, 2–5 accounts, 1–4 transfers of 1–3 moves, its bounds drawn as
 * `bounds` says.
 *
 * The shapes are weighted for the checker's operation search (docs/design/chobo.md#the-checker), which
 * `checkBook` runs on every book and whose cost grows with the moves, the amount parameters (every tried
 * amount of the unit each) and the bounds it has to feed: every unit gets an outside account to feed from,
 * and at most one transfer per book has two amount parameters (with two moves).
 */
export function genBook(rnd: Random, index: number, bounds: BoundDraw = "small"): string {
  const allUnits: GenUnit[] = [{ name: "pcs", scale: 0 }, { name: "USD", scale: 2 }];
  const units = rnd.chance(0.4) ? allUnits : [rnd.pick(allUnits)];
  const out: string[] = [`book gen${index} v1`, ""];
  for (const u of units) out.push(u.scale === 0 ? `unit ${u.name}` : `unit ${u.name} scale ${u.scale}`);
  out.push("");

  const accounts: GenAccount[] = [];
  const nAccounts = rnd.int(units.length + 1, 5);
  for (let i = 0; i < nAccounts; i++) {
    const unit = i < units.length ? units[i] : rnd.pick(units);
    const outside = i < units.length || rnd.chance(0.15);
    const param = !outside && rnd.chance(0.6);
    const a: GenAccount = { name: `a${i}`, unit, param };
    accounts.push(a);
    out.push(`account ${a.name}${param ? "(p: string)" : ""} : ${unit.name}${outside ? " outside" : ""}`);
    if (outside) continue;
    // An inside account has at least one bound (E020); a lower bound above 0 begins outside it.
    const hasUpper = rnd.chance(0.35);
    let lower: bigint | null = null;
    if (!hasUpper || rnd.chance(0.6)) {
      lower = bounds === "small"
        ? BigInt(rnd.pick([-10, -3, -1, 0, 0, 0, 0, 0, 0, 1, 5]))
        : rnd.pick(EDGE_LOWERS);
      out.push(`  at least ${literal(lower, unit.scale)} refused as low${i}`);
    }
    if (hasUpper) {
      const floor = lower !== null && lower > 0n ? lower : 0n;
      const edge = bounds === "edges" ? rnd.pick(EDGE_UPPERS) : 0n;
      const upper = bounds === "small"
        ? floor + BigInt(rnd.pick([0, 3, 10, 10, 100, 1000]))
        : edge < floor
        ? MAX
        : edge;
      out.push(`  at most ${literal(upper, unit.scale)} refused as high${i}`);
    }
  }
  out.push("");

  const nTransfers = rnd.pick([1, 2, 2, 3, 3, 4]);
  let twoAmounts = false;
  for (let t = 0; t < nTransfers; t++) {
    // A unit whose accounts allow a move between two different accounts.
    const viable = units.filter((u) => {
      const of = accounts.filter((a) => a.unit === u);
      return of.length >= 2 || of.some((a) => a.param);
    });
    if (viable.length === 0) break;
    const unit = rnd.pick(viable);
    const of = accounts.filter((a) => a.unit === unit);
    const keys = rnd.chance(0.5) ? ["k0", "k1"] : ["k0"];
    const two: boolean = !twoAmounts && rnd.chance(0.12);
    twoAmounts ||= two;
    const amounts = two ? ["q0", "q1"] : ["q0"];
    const params = [...keys.map((k) => `${k}: string`), ...amounts.map((q) => `${q}: ${unit.name}`)];
    out.push(`transfer t${t}(${params.join(", ")})`);
    out.push(`  key ${keys.join(", ")}`);
    const pending = rnd.int(0, 2);
    if (pending === 1) out.push(`  pending expires after ${rnd.int(1, 120)} seconds`);
    if (pending === 2) out.push("  pending never expires");
    const nMoves = two ? 2 : rnd.pick([1, 1, 1, 2, 2, 3]);
    const ref = (a: GenAccount) => a.param ? `${a.name}(${rnd.pick(keys)})` : a.name;
    for (let m = 0; m < nMoves; m++) {
      let from = "", to = "";
      // Never from an account to itself with the same arguments (E012).
      for (let tries = 0; tries < 20 && from === to; tries++) {
        from = ref(rnd.pick(of));
        to = ref(rnd.pick(of));
      }
      if (from === to) continue;
      const amount = m < amounts.length
        ? amounts[m]
        : rnd.chance(0.7)
        ? rnd.pick(amounts)
        : literal(BigInt(rnd.pick([0, 1, 2, 5])), unit.scale);
      out.push(`  move ${amount} from ${from} to ${to}`);
    }
    out.push("");
  }
  return out.join("\n");
}

/** One step of a random sequence: a call, or the clock moving on. */
export type Step = { readonly kind: "call"; readonly call: Call } | {
  readonly kind: "pass";
  readonly seconds: bigint;
};

const STRING_VALUES = ["x", "y", "x", "y", "z", "w"];
const AMOUNTS = [0n, 1n, 2n, 3n, 5n, 10n, 100n];

function amount(rnd: Random): bigint {
  return rnd.chance(0.04) ? 1n << 62n : rnd.pick(AMOUNTS);
}

/**
 * One step: a `pass` of 0–100 seconds, or a call with values from a small pool, so keys repeat
 * and accounts coincide. A `post` or `void` names an existing hold more often than not.
 */
export function genStep(rnd: Random, book: Book, ledger: Ledger): Step {
  if (rnd.chance(0.15)) return { kind: "pass", seconds: BigInt(rnd.int(0, 100)) };
  const transfer = rnd.pick(book.transfers);
  const ops = operationsOf(transfer);
  const op = ops.length === 1 ? ops[0] : rnd.pick(["hold", "hold", "post", "post", "void"] as const);
  const strings = new Map<string, string>();
  const amounts = new Map<string, bigint>();
  const partial = op === "post" && rnd.chance(0.5);
  const holds = ledger.holds().filter((h) => h.transfer === transfer.name);
  const existing = (op === "post" || op === "void") && holds.length > 0 && rnd.chance(0.6)
    ? rnd.pick(holds).key
    : null;
  for (const p of transfer.params) {
    if (p.type.kind === "string") {
      if (op === "do" || op === "hold" || transfer.key.includes(p.name)) {
        strings.set(p.name, existing?.[transfer.key.indexOf(p.name)] ?? rnd.pick(STRING_VALUES));
      }
    } else if (op === "do" || op === "hold" || partial) {
      amounts.set(p.name, amount(rnd));
    }
  }
  return { kind: "call", call: { transfer, op, strings, amounts } };
}
