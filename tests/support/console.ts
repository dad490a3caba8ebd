/**
 * The `console` blocks of the docs a user reads, for tests/common/docs_test.ts and
 * tests/chobo/tour_test.ts: each `$ ` line is a command, the lines under it what it prints (`…` stands
 * for lines left out).
 * @module
 */

import { ok } from "node:assert/strict";

/** One command of a console block, with the lines shown under it. */
export interface Shown {
  readonly command: string;
  readonly shown: string[];
  /** Which block of the page it is in, from 0. */
  readonly block: number;
}

/** The `console` blocks of a page: each command with the lines shown under it. */
export function consoleBlocks(text: string): Shown[] {
  const out: Shown[] = [];
  for (const [i, block] of [...text.matchAll(/```console\n([\s\S]*?)```/g)].entries()) {
    for (const line of block[1].split("\n")) {
      if (line.startsWith("$ ")) out.push({ command: line.slice(2), shown: [], block: i });
      else if (line !== "" && out.length > 0) out[out.length - 1].shown.push(line);
    }
  }
  return out;
}

/** The heading of README's part that runs on a database: tests/chobo/tour_test.ts runs its blocks. */
export const TOUR_HEADING = "### The tour on a running database";

/** README split into its part on a database (from `TOUR_HEADING` to the next `## `) and the rest. */
export function tourPart(readme: string): { tour: string; rest: string } {
  const from = readme.indexOf(`\n${TOUR_HEADING}\n`);
  ok(from >= 0, `README has no "${TOUR_HEADING}"`);
  const to = readme.indexOf("\n## ", from + 1);
  const end = to < 0 ? readme.length : to;
  return { tour: readme.slice(from, end), rest: readme.slice(0, from) + readme.slice(end) };
}

/**
 * Asserts that `printed` holds the lines `shown`, in order; `…` skips. With `trimEnd`, lines are
 * compared without trailing blanks (psql pads its columns; the page does not).
 */
export function assertShown(where: string, printed: string, shown: readonly string[], trimEnd = false): void {
  const norm = (l: string) => trimEnd ? l.trimEnd() : l;
  const lines = printed.split("\n").map(norm);
  let from = 0;
  for (const want of shown) {
    if (want === "…") continue;
    const found = lines.indexOf(norm(want), from);
    ok(found >= 0, `${where}: the line\n${want}\nis not printed (in order) in\n${printed}`);
    from = found + 1;
  }
}
