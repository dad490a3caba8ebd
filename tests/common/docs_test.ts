/**
 * The docs a user reads: every `console` block's `chobo` and `dandori` command in README and docs/
 * still prints the lines shown, in order (`…` stands for lines left out); README's counts are the
 * repository's; relative links resolve; the keyword table of docs/reference.md is the parser's; the
 * pre-commit hook and the Action's script check what they say.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { parse } from "yaml";
import { CODES as CHOBO_CODES } from "../../lang/chobo/codes.ts";
import { KEYWORDS } from "../../lang/chobo/syntax.ts";
import { CODES as DANDORI_CODES } from "../../lang/dandori/codes.ts";
import { generateFlowScenarios } from "../../lang/dandori/scenarios.ts";
import { bookPaths } from "../../verify/chobo/books.ts";
import { subjects } from "../../verify/chobo/differential.ts";
import { runnableFlows } from "../../verify/dandori/flows.ts";
import { anchorsOf } from "../support/anchors.ts";
import { assertShown, consoleBlocks, tourPart } from "../support/console.ts";
import { runCli } from "../support/run.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** README and every Markdown page under docs/, its folders (docs/design/) included. */
function pages(): string[] {
  const under = (dir: string): string[] =>
    [...Deno.readDirSync(`${ROOT}${dir}`)].flatMap((e) =>
      e.isDirectory ? under(`${dir}/${e.name}`) : e.name.endsWith(".md") ? [`${dir}/${e.name}`] : []
    );
  return ["README.md", ...under("docs").sort()];
}

/**
 * The exit a console block shows: 0, unless a line it shows is an error (1), or E018, which says what
 * this toolchain cannot read (2).
 */
function shownExit(shown: readonly string[]): number {
  if (shown.some((l) => /^(error|エラー)\[E018\]/.test(l))) return 2;
  return shown.some((l) => /^(error|エラー)\[/.test(l)) ? 1 : 0;
}

/**
 * README's part on a running database is left out: tests/chobo/tour_test.ts runs its blocks, every
 * command in order, on a server.
 */
Deno.test("every console block's chobo and dandori command prints the lines shown, in order", () => {
  let commands = 0;
  for (const page of pages()) {
    const text = Deno.readTextFileSync(ROOT + page);
    for (const { command, shown } of consoleBlocks(page === "README.md" ? tourPart(text).rest : text)) {
      const words = command.split(" ");
      const at = words.findIndex((w) => w === "chobo" || w === "dandori");
      if (at < 0) continue;
      commands++;
      const run = runCli(words.slice(at));
      strictEqual(run.code, shownExit(shown), `${page}: ${command}\n${run.stdout}${run.stderr}`);
      assertShown(`${page}: ${command}`, run.stdout, shown);
    }
  }
  ok(commands >= 4, `only ${commands} commands found`);
});

/** The one number README writes where `pattern`'s group is. */
function readmeNumber(readme: string, pattern: RegExp): number {
  const found = [...readme.matchAll(new RegExp(pattern.source, "g"))].map((m) => Number(m[1]));
  strictEqual(found.length, 1, `README writes ${pattern} ${found.length} times`);
  return found[0];
}

/** Every `.flow` under `dir` of the repository, as `deno task bench check` counts them. */
function flowCount(dir: string): number {
  let n = 0;
  for (const e of Deno.readDirSync(ROOT + dir)) {
    if (e.isDirectory) n += flowCount(`${dir}/${e.name}`);
    else if (e.name.endsWith(".flow")) n++;
  }
  return n;
}

Deno.test("README's counts are the repository's: codes, books, flows and scenarios", () => {
  const readme = Deno.readTextFileSync(`${ROOT}README.md`);
  strictEqual(readmeNumber(readme, /what each of the (\d+) codes means/), CHOBO_CODES.length);
  strictEqual(readmeNumber(readme, /what each of its (\d+) codes means/), DANDORI_CODES.length);
  strictEqual(readmeNumber(readme, /\((\d+) books\)/), bookPaths([`${ROOT}tests`, `${ROOT}examples`]).length);
  strictEqual(readmeNumber(readme, /\((\d+) flows\)/), flowCount("tests"));
  const flows = runnableFlows(ROOT, ["tests/dandori/flows/", "examples/"]);
  strictEqual(readmeNumber(readme, /\((\d+) flows, \d+ scenarios\)/), flows.length);
  strictEqual(
    readmeNumber(readme, /\(\d+ flows, (\d+) scenarios\)/),
    flows.reduce((n, f) => n + generateFlowScenarios(f.checked, f.plan).scenarios.length, 0),
  );
  const played = subjects(["tests/chobo/books", "examples"]).reduce((n, s) => n + s.scenarios.length, 0);
  strictEqual(readmeNumber(readme, /every test and example book \((\d+)\)/), played);
  strictEqual(readmeNumber(readme, /\((\d+)\/\d+ agree in each language\)/), played);
});

Deno.test("relative links in README and docs/ resolve, and their anchors name headings", () => {
  ok(
    pages().includes("docs/design/chobo.md") && pages().includes("docs/design/dandori.md"),
    "the design pages",
  );
  for (const page of pages()) {
    const text = Deno.readTextFileSync(ROOT + page);
    for (const m of text.matchAll(/\]\(([^)#\s]*)(?:#([^)]*))?\)/g)) {
      const [, target, anchor] = m;
      if (/^[a-z]+:/.test(target)) continue;
      const dir = page.includes("/") ? page.slice(0, page.lastIndexOf("/") + 1) : "";
      const path = target === "" ? ROOT + page : ROOT + dir + target;
      let exists = true;
      try {
        Deno.statSync(path);
      } catch {
        exists = false;
      }
      ok(exists, `${page}: ${target} does not exist`);
      if (anchor === undefined || !path.endsWith(".md")) continue;
      ok(anchorsOf(Deno.readTextFileSync(path)).has(anchor), `${page}: ${target}#${anchor} names no heading`);
    }
  }
});

Deno.test("docs/reference.md's keyword table is the parser's KEYWORDS, in order", () => {
  const text = Deno.readTextFileSync(`${ROOT}docs/reference.md`);
  const rows = [...text.matchAll(/^\| (line|modifier|type|time) +\| (.+) \|$/gm)].map((m) => ({
    position: m[1],
    words: [...m[2].matchAll(/`([^`]+)`/g)].map((w) => w[1]),
  }));
  deepStrictEqual(rows, KEYWORDS.map((k) => ({ position: k.position, words: [...k.words] })));
});

async function sh(
  args: string[],
  cwd = ROOT,
  env: Record<string, string> = {},
): Promise<{ code: number; out: string }> {
  const out = await new Deno.Command(args[0], {
    args: args.slice(1),
    cwd,
    env,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  return { code: out.code, out: new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr) };
}

Deno.test("the pre-commit hooks check the books and flows they are given", async () => {
  const hooks = parse(Deno.readTextFileSync(`${ROOT}.pre-commit-hooks.yaml`));
  strictEqual(hooks[0].id, "chobo-check");
  const [tool] = hooks[0].entry.split(" ").slice(1);
  strictEqual(tool, "chobo");
  strictEqual((await sh([`${ROOT}hooks/check`, "chobo", "examples/refunds/refunds.book"])).code, 0);
  const broken = await sh([`${ROOT}hooks/check`, "chobo", "tests/chobo/fixtures/no_bound.book"]);
  strictEqual(broken.code, 1);
  ok(broken.out.includes("error[E020]"));
  strictEqual(hooks[1].id, "dandori-check");
  strictEqual((await sh([`${ROOT}hooks/check`, "dandori", "tests/dandori/flows/order_stock.flow"])).code, 0);
  const flow = await sh([`${ROOT}hooks/check`, "dandori", "tests/dandori/flows/order_stock_no_void.flow"]);
  strictEqual(flow.code, 1);
  ok(flow.out.includes("error[E020]"), flow.out);
});

Deno.test("the Action's script checks the books changed since the base, against it", async () => {
  const action = parse(Deno.readTextFileSync(`${ROOT}action.yml`));
  strictEqual(action.runs.using, "composite");
  ok(action.runs.steps[0].run.includes("hooks/check-changed"));
  const repo = Deno.makeTempDirSync();
  try {
    const git = (...args: string[]) =>
      sh(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", ...args], repo);
    await git("init", "-q");
    Deno.writeTextFileSync(`${repo}/a.book`, Deno.readTextFileSync(`${ROOT}examples/refunds/refunds.book`));
    Deno.writeTextFileSync(
      `${repo}/b.book`,
      Deno.readTextFileSync(`${ROOT}tests/chobo/fixtures/no_bound.book`),
    );
    await git("add", ".");
    await git("commit", "-qm", "base");
    const base = (await git("rev-parse", "HEAD")).out.trim();
    strictEqual((await sh([`${ROOT}hooks/check-changed`, base], repo)).code, 0, "nothing changed");
    Deno.writeTextFileSync(
      `${repo}/a.book`,
      Deno.readTextFileSync(`${ROOT}examples/refunds/refunds.book`).replace("at least 0.00", "at least 1.00"),
    );
    const changed = await sh([`${ROOT}hooks/check-changed`, base], repo);
    strictEqual(changed.code, 1);
    ok(changed.out.includes("error[E050]") && !changed.out.includes("b.book"), changed.out);
    // A pull request that adds a .book symlink to the process's environment gets it refused, not printed.
    Deno.symlinkSync("/proc/self/environ", `${repo}/leak.book`);
    Deno.symlinkSync("/dev/zero", `${repo}/zero.book`);
    await git("add", "leak.book", "zero.book");
    const linked = await sh([`${ROOT}hooks/check-changed`, base], repo, { LEAK_MARK: "leaked-value-1234" });
    strictEqual(linked.code, 1);
    ok(linked.out.includes("leak.book") && linked.out.includes("zero.book"), linked.out);
    ok(!linked.out.includes("leaked-value-1234") && !linked.out.includes("PATH="), linked.out);
  } finally {
    Deno.removeSync(repo, { recursive: true });
  }
});

Deno.test("deno task compile makes one binary, or says SKIP where Deno's runtime cannot be downloaded", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const out = await sh([
      Deno.execPath(),
      "compile",
      "-A",
      "--output",
      `${dir}/ritsu`,
      `${ROOT}cli.ts`,
    ]);
    if (out.code !== 0) {
      ok(/dl\.deno\.land|denort|network|dns|error sending request/i.test(out.out), out.out);
      console.log("SKIP: chobo: compile: deno compile cannot download Deno's runtime (denort) here");
      return;
    }
    const run = await sh([`${dir}/ritsu`, "chobo", "check", "examples/refunds/refunds.book"]);
    strictEqual(run.code, 0, run.out);
    const built = await sh([
      `${dir}/ritsu`,
      "chobo",
      "build",
      "examples/refunds/refunds.book",
      "--target",
      "postgres-go",
      "--out",
      dir,
    ]);
    strictEqual(built.code, 0, built.out);
    Deno.symlinkSync(`${dir}/ritsu`, `${dir}/chobo`);
    strictEqual((await sh([`${dir}/chobo`, "--version"])).out.trim().split(" ")[0], "chobo");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
