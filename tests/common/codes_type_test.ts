/**
 * Diagnostic codes are types: a probe that emits a code its language's registry lacks is refused
 * by `deno check` (the check `deno task check` runs), and the same probe with registered codes
 * passes, so the failure is the code's and nothing else's. The probe is written to a temporary
 * directory and imports the repository's modules by URL.
 */

import { deepStrictEqual, ok } from "node:assert/strict";

const REPO = new URL("../../", import.meta.url);
const CONFIG = new URL("deno.json", REPO).pathname;

/** The probe: a chobo and a dandori reporter, and one made without its language's codes. */
function probe(codes: { chobo: string; dandori: string; untyped: string | null }): string {
  const module = (path: string) => JSON.stringify(new URL(path, REPO).href);
  return [
    `import { Reporter } from ${module("lang/common/reporter.ts")};`,
    `import type { ChoboCode } from ${module("lang/chobo/codes.ts")};`,
    `import type { DandoriCode } from ${module("lang/dandori/codes.ts")};`,
    `import { tr } from ${module("lang/common/text.ts")};`,
    `const at = { line: 1, col: 1 };`,
    `const message = tr("probe", "プローブ");`,
    `new Reporter<ChoboCode>("probe.book", "").error(${JSON.stringify(codes.chobo)}, at, message);`,
    `new Reporter<DandoriCode>("probe.flow", "").warning(${JSON.stringify(codes.dandori)}, at, message);`,
    codes.untyped === null
      ? ""
      : `new Reporter("probe.book", "").error(${JSON.stringify(codes.untyped)}, at, message);`,
    "",
  ].join("\n");
}

/** The lines 7, 8 and 9 of the probe hold its three emit sites. */
const EMIT_LINES = { chobo: 7, dandori: 8, untyped: 9 };

/** `deno check` on a probe: whether it passed, and each TS error as `TS<n> <line>: <message>`. */
async function check(text: string): Promise<{ passed: boolean; errors: string[] }> {
  const dir = await Deno.makeTempDir({ prefix: "ritsu-codes-" });
  try {
    const file = `${dir}/probe.ts`;
    await Deno.writeTextFile(file, text);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--config", CONFIG, file],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    const errors = [
      ...stderr.matchAll(/(TS\d+) \[ERROR\]: ([^\n]*)\n[\s\S]*?at file:\/\/\S*probe\.ts:(\d+):\d+/g),
    ]
      .map(([, code, message, line]) => `${code} ${line}: ${message}`);
    return { passed: out.success, errors };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("registered codes type-check in a chobo and a dandori reporter", async () => {
  const result = await check(probe({ chobo: "E020", dandori: "W030", untyped: null }));
  deepStrictEqual(result, { passed: true, errors: [] });
});

Deno.test("an unregistered code, another language's code, or a reporter without its language fail deno check", async () => {
  // E099 is in no registry; E060 is chobo's (a TigerBeetle build), not dandori's; a Reporter made
  // without its language's codes takes none, not every string.
  const result = await check(probe({ chobo: "E099", dandori: "E060", untyped: "E001" }));
  ok(!result.passed, "deno check passed a probe with unregistered codes");
  deepStrictEqual(result.errors.map((e) => e.slice(0, e.indexOf(" is not assignable"))), [
    `TS2345 ${EMIT_LINES.chobo}: Argument of type '"E099"'`,
    `TS2345 ${EMIT_LINES.dandori}: Argument of type '"E060"'`,
    `TS2345 ${EMIT_LINES.untyped}: Argument of type '"E001"'`,
  ]);
  ok(result.errors[2].endsWith("to parameter of type 'never'."), result.errors[2]);
});
