/**
 * What every file of the Temporal Go package shares: the header and the flow's description as
 * comment lines, a runtime file copied but for its package clause, Go's import block, struct
 * fields aligned as gofmt aligns them, and lines of code at an indentation of tabs.
 * @module
 */

import { assert } from "../../../lang/common/assert.ts";
import type { Plan } from "../../../lang/dandori/plan.ts";
import { oneLine } from "../../../lang/common/visible.ts";
import { commentLines, type FlowOrigin, headerLines } from "../target.ts";

/** The package clause every runtime file is written with; the one line a copy changes. */
const RUNTIME_PACKAGE_LINE = "package dandori";

/**
 * A line of comment text: on one line, without U+FEFF (Go refuses it anywhere but a file's start)
 * and without trailing spaces (gofmt drops them).
 */
export function goComment(text: string): string {
  return oneLine(text).replaceAll("\ufeff", "\\ufeff").trimEnd();
}

/**
 * A file of the package: the header's two lines, then `body` (which holds its package clause) with
 * the workflow's description as comment lines after that clause — after it, so that no line of a
 * description (`+build …`) is ever read as a build constraint.
 */
export function goFile(plan: Plan, origin: FlowOrigin, pkg: string, body: string): string {
  const [first, second] = headerLines(plan, origin);
  const clause = `package ${pkg}\n`;
  const at = body.indexOf(clause);
  assert(at >= 0 && (at === 0 || body[at - 1] === "\n"), "a Go file has its package clause");
  const description = plan.workflow.description === null
    ? ""
    : `\n${
      commentLines(plan.workflow.description).map((l) => {
        const text = goComment(l);
        return text === "" ? "//" : `// ${text}`;
      }).join("\n")
    }\n`;
  const end = at + clause.length;
  return `// ${goComment(first)}\n// ${goComment(second)}\n\n${body.slice(0, end)}${description}${
    body.slice(end)
  }`;
}

/** A runtime file as one flow's package has it: its package clause set to `pkg`. */
export function runtimeBody(runtime: string, pkg: string): string {
  const lines = runtime.split("\n");
  const at = lines.indexOf(RUNTIME_PACKAGE_LINE);
  assert(
    at >= 0 && lines.indexOf(RUNTIME_PACKAGE_LINE, at + 1) < 0,
    `a runtime file has "${RUNTIME_PACKAGE_LINE}" once`,
  );
  lines[at] = `package ${pkg}`;
  return lines.join("\n");
}

/** An import block: the standard library's paths, then the others, each group sorted as gofmt sorts it. */
export function imports(standard: readonly string[], others: readonly string[]): string {
  const line = (path: string) => {
    const [p, alias] = path.split(" ");
    return alias === undefined ? `\t"${p}"` : `\t${alias} "${p}"`;
  };
  const byPath = (a: string, b: string) => a.split(" ")[0] < b.split(" ")[0] ? -1 : 1;
  const groups = [[...standard].sort(byPath), [...others].sort(byPath)].filter((g) => g.length > 0);
  if (groups.length === 0) return "";
  if (groups.length === 1 && groups[0].length === 1) return `import ${line(groups[0][0]).trim()}\n`;
  return `import (\n${groups.map((g) => g.map(line).join("\n")).join("\n\n")}\n)\n`;
}

/** Rows of cells aligned as gofmt aligns struct fields: each column one space wider than its widest cell, in runes. */
export function aligned(rows: readonly (readonly string[])[], indent: string): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      if (i < row.length - 1) widths[i] = Math.max(widths[i] ?? 0, [...cell].length);
    });
  }
  return rows.map((row) =>
    indent +
    row.map((cell, i) => i < row.length - 1 ? cell + " ".repeat(widths[i] - [...cell].length + 1) : cell)
      .join("")
  );
}

/** A struct type: `struct{}`, or its fields aligned. */
export function struct(name: string, rows: readonly (readonly string[])[]): string {
  return rows.length === 0
    ? `type ${name} struct{}`
    : `type ${name} struct {\n${aligned(rows, "\t").join("\n")}\n}`;
}

/** Lines of Go at an indentation of tabs. */
export class GoOut {
  readonly lines: string[] = [];
  line(depth: number, text: string): void {
    this.lines.push(`${"\t".repeat(depth)}${text}`);
  }
}
