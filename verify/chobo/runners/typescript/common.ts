/**
 * What the TypeScript runners of `verify/chobo/runners/README.md` share, on PostgreSQL and on
 * TigerBeetle: a job's steps, calling a generated client's member by the book's names, loading the
 * clients, and deciding when a job is late.
 * @module
 */

import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** One call of a job: the transfer's name in the book, the operation, and its arguments. */
export interface CallStep {
  readonly call: string;
  readonly op: "do" | "hold" | "post" | "void";
  readonly strings: Readonly<Record<string, string>>;
  /** Decimal strings; absent or empty in a post in full and a void. */
  readonly amounts?: Readonly<Record<string, string>>;
}

/** The member names of one book in TypeScript (`targets/chobo/names.ts`). */
export interface Members {
  readonly transfers: Readonly<Record<string, string>>;
  readonly params: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** A step's output: a call's answer, a pass (null or a word), or per caller per call. */
export type StepOutput = string | null | string[][];

type Answer = { readonly result: string; readonly reason?: string };
type Operation = (args: Record<string, string | bigint>, amounts?: Record<string, bigint>) => Promise<Answer>;

/** A generated book value, seen without its book's types. */
export interface ClientBook {
  readonly [member: string]: unknown;
}

function answerText(a: Answer): string {
  return a.result === "refused" ? `refused:${a.reason}` : a.result;
}

/** An error's message, for a `failed:` step. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The step's strings under the client's names. */
export function clientStrings(
  members: Members,
  step: Pick<CallStep, "call" | "strings">,
): Record<string, string> {
  const names = members.params[step.call];
  return Object.fromEntries(Object.entries(step.strings).map(([k, v]) => [names[k], v]));
}

/** One call through the client: the step's names become the client's, amounts become bigints. */
export async function callClient(book: ClientBook, members: Members, step: CallStep): Promise<string> {
  const names = members.params[step.call];
  const strings = clientStrings(members, step);
  const amounts = Object.fromEntries(
    Object.entries(step.amounts ?? {}).map(([k, v]) => [names[k], BigInt(v)]),
  );
  const transfer = book[members.transfers[step.call]] as Readonly<Record<string, Operation>>;
  try {
    switch (step.op) {
      case "do":
      case "hold":
        return answerText(await transfer[step.op]({ ...strings, ...amounts }));
      case "post":
        return answerText(
          await transfer.post(strings, Object.keys(amounts).length > 0 ? amounts : undefined),
        );
      case "void":
        return answerText(await transfer.void(strings));
    }
  } catch (e) {
    return `failed:${messageOf(e)}`;
  }
}

/** Imports each book's generated `<book>.ts` (a directory names the place it was written to). */
export async function loadClients<M>(clients: Readonly<Record<string, string>>): Promise<Map<string, M>> {
  const modules = new Map<string, M>();
  for (const [book, written] of Object.entries(clients)) {
    const file = Deno.statSync(written).isDirectory ? `${written}/${book}.ts` : written;
    modules.set(book, await import(pathToFileURL(resolve(file)).href));
  }
  return modules;
}

/**
 * A job's clock of holds: when each `done` hold returned, and whether a step came more than
 * `expiryMs` after the first of them since the last pass (`late`, README). A hold's expiry counts
 * from inside its call, before the answer comes back, so lateness counts from the start of the step
 * that made the first hold (`check` marks it): from its answer, a read that came after the expiry
 * but less than the call's own time after it was not late, and saw the hold expired.
 */
export class HoldClock {
  late = false;
  private readonly times: number[] = [];
  private since: number | null = null;
  private stepStart = Date.now();

  constructor(private readonly expiryMs: number, private readonly marginMs: number) {}

  /** Notes a call's answer. */
  answered(step: CallStep, answer: string): void {
    if (step.op !== "hold" || answer !== "done") return;
    this.times.push(Date.now());
    this.since ??= this.stepStart;
  }

  /** Marks the job late when now is past the first hold's expiry since the last pass; a step starts. */
  check(): void {
    this.stepStart = Date.now();
    if (this.since !== null && this.stepStart > this.since + this.expiryMs) this.late = true;
  }

  /** Waits until every hold is `marginMs` past its expiry; the pass itself follows. */
  async pass(): Promise<void> {
    const wait = Math.max(0, ...this.times) + this.expiryMs + this.marginMs - Date.now();
    if (this.times.length > 0 && wait > 0) await new Promise((r) => setTimeout(r, wait));
    this.since = null;
  }
}

/** Plays every job at once and prints `{ "results": [...] }`; `close` runs after, also on failure. */
export async function playAll<J, R>(
  jobs: readonly J[],
  play: (job: J, index: number) => Promise<R>,
  close: () => unknown,
): Promise<void> {
  try {
    const results = await Promise.all(jobs.map(play));
    console.log(JSON.stringify({ results }));
  } finally {
    await close();
  }
}
