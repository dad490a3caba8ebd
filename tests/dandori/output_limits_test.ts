/**
 * The limits of what `dandori scenarios` and `dandori doc` make of a flow (lang/dandori/limits.ts):
 * a flow whose exploration passes `MAX_SCENARIO_CHOICES`, or whose page would draw more than
 * `MAX_PAGE_STATEMENTS` statements, is refused with the limit named, in both languages, and
 * nothing is written; a smaller flow of the same shape is written.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import process from "node:process";
import { MAX_PAGE_STATEMENTS, MAX_SCENARIO_CHOICES } from "../../lang/dandori/limits.ts";
import { runCli } from "../support/run.ts";

/** A flow of `calls` calls one after another, each of a task of its own (or all of one task). */
function sequence(calls: number, oneTask = false): string {
  const tasks = Array.from(
    { length: oneTask ? 1 : calls },
    (_, i) =>
      `task step_${i}(order: string) -> string\n  lambda "arn:aws:lambda:eu-west-2:123456789012:function:step-${i}"\n`,
  );
  const body = Array.from(
    { length: calls },
    (_, i) => `  let r_${i} = step_${oneTask ? 0 : i}(order: order)\n`,
  );
  return `workflow long v1\n\ninputs\n  order : string\n\n${tasks.join("\n")}\nflow\n${
    body.join("")
  }  succeed\n`;
}

Deno.test(`scenarios and doc refuse a flow whose exploration passes MAX_SCENARIO_CHOICES (${MAX_SCENARIO_CHOICES})`, () => {
  const files = { "long.flow": sequence(150) };
  const said = {
    en:
      `went past ${MAX_SCENARIO_CHOICES} choices of inputs and answers (MAX_SCENARIO_CHOICES), so nothing was written`,
    ja: `上限の ${MAX_SCENARIO_CHOICES} 個(MAX_SCENARIO_CHOICES)を超えたので、何も書いていません`,
  };
  for (const lang of ["en", "ja"] as const) {
    for (const command of [["scenarios"], ["doc"], ["doc", "--format", "html"]]) {
      const run = runCli(["dandori", ...command, "long.flow", "--out", "out", "--lang", lang], { files });
      strictEqual(run.code, 1, `${command.join(" ")}: ${run.stderr}`);
      ok(run.stderr.includes(said[lang]), run.stderr);
      deepStrictEqual(run.written, {});
    }
  }
  const smaller = runCli(["dandori", "scenarios", "long.flow"], { files: { "long.flow": sequence(50) } });
  strictEqual(smaller.code, 0, smaller.stderr);
  ok(JSON.parse(smaller.stdout).length > 150);
});

Deno.test(`doc refuses a flow of more than MAX_PAGE_STATEMENTS (${MAX_PAGE_STATEMENTS}) statements`, () => {
  const files = { "long.flow": sequence(MAX_PAGE_STATEMENTS, true) };
  const said = {
    en: `the flow has ${
      MAX_PAGE_STATEMENTS + 1
    } statements, more than the ${MAX_PAGE_STATEMENTS} a page draws`,
    ja: `フローの文が ${MAX_PAGE_STATEMENTS + 1} 個あり、ページに描く上限の ${MAX_PAGE_STATEMENTS} 個`,
  };
  for (const lang of ["en", "ja"] as const) {
    const run = runCli(["dandori", "doc", "long.flow", "--out", "out", "--lang", lang], { files });
    strictEqual(run.code, 1, run.stderr);
    ok(run.stderr.includes(said[lang]), run.stderr);
    deepStrictEqual(run.written, {});
  }
});

/**
 * Held to the CPU time the refusal takes, which the load of the machine does not stretch (CI runs
 * this beside the differential runs); the wall time is printed beside it.
 */
Deno.test("a flow of 10,000 tasks is refused by doc and scenarios, each within 10 s of CPU time", () => {
  const files = { "long.flow": sequence(10_000) };
  for (const command of [["scenarios"], ["doc"]]) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const run = runCli(["dandori", ...command, "long.flow", "--out", "out"], { files });
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    const wallMs = performance.now() - started;
    console.log(
      `dandori ${command[0]} of 10,000 tasks: refused in ${(cpuMs / 1000).toFixed(1)} s of CPU, ${
        (wallMs / 1000).toFixed(1)
      } s of wall time`,
    );
    strictEqual(run.code, 1, run.stderr);
    ok(/MAX_SCENARIO_CHOICES|MAX_PAGE_STATEMENTS/.test(run.stderr), run.stderr);
    deepStrictEqual(run.written, {});
    ok(cpuMs < 10_000, `${command[0]} took ${cpuMs} ms of CPU`);
  }
});
