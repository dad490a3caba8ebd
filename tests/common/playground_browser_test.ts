/// <reference lib="dom" />
/// <reference lib="deno.ns" />
/**
 * The playground (docs/playground.md) as `ritsu playground --out` writes it, opened from `file://` in
 * headless Chromium: it requests nothing but its own two files and logs no error; every preset
 * loads; typing an error shows its diagnostic and marks its line, and fixing it clears both, with
 * the keyboard alone; every preset, in English and Japanese, gives through the page's own bundle the
 * command line's `check --format json`, `scenarios` and `run` of every scenario, byte for byte; at
 * 360 and 1280 px, light and dark, nothing is wider than the window and no pane lies over another
 * (screenshots when RITSU_SCREENSHOTS names a directory). It prints the bundle's size (under `MAX_BUNDLE_GZIP_BYTES`)
 * and how long a 200-line book and flow take from a keystroke to their diagnostics.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { main } from "../../cli.ts";
import { denoIo } from "../../commands/io.ts";
import type { Answers } from "../../lang/playground/answers.ts";
import { PAUSE_MS } from "../../lang/playground/html.ts";
import { type Browser, chromiumInstalled, launchChromium, type Tab, VERSIONS } from "../support/mermaid.ts";
import { screenshot, screenshotsDir, screenshotsLine } from "../support/pages.ts";
import { runCli } from "../support/run.ts";
import { longBook, longFlow } from "../support/playground.ts";

/** The issue's bound on the bundle, gzipped (issue 38). */
const MAX_BUNDLE_GZIP_BYTES = 2 * 1024 * 1024;

interface Playground {
  answer(path: string, text: string, lang: "en" | "ja"): Answers;
  files(): string[];
  timing(): { checkMs: number; allMs: number };
}

/** Every .book and .flow under examples/, as `git ls-files` would name them, sorted. */
function examplesOnDisk(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(`${dir}/${e.name}`);
      else if (/\.(book|flow)$/.test(e.name)) out.push(`${dir}/${e.name}`);
    }
  };
  walk("examples");
  return out.sort();
}

async function gzipSize(path: string): Promise<number> {
  const stream = (await Deno.open(path)).readable.pipeThrough(new CompressionStream("gzip"));
  let size = 0;
  for await (const chunk of stream) size += chunk.length;
  return size;
}

/** Opens the page and waits until it has shown its first file; errors and foreign requests are collected. */
async function openPage(browser: Browser, dir: string, width: number, scheme: "light" | "dark") {
  const tab = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
  const errors: string[] = [];
  const requests: string[] = [];
  const own = [`file://${dir}/index.html`, `file://${dir}/playground.js`];
  tab.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  tab.on("pageerror", (e) => errors.push(e.message));
  tab.on("request", (r) => {
    if (!own.includes(r.url()) && !r.url().startsWith("about:")) requests.push(r.url());
  });
  await tab.goto(own[0]);
  await shownAfter(tab, 0);
  return { tab, errors, requests };
}

async function closePage(opened: { tab: Tab; errors: string[]; requests: string[] }): Promise<void> {
  await opened.tab.close();
  deepStrictEqual(opened.errors, [], "no console error");
  deepStrictEqual(opened.requests, [], "no request but the page's own files");
}

function shownCount(tab: Tab): Promise<number> {
  return tab.evaluate(() => Number(document.body.dataset.shown ?? "0"));
}

/** Waits until every pane has been shown more than `before` times. */
async function shownAfter(tab: Tab, before: number): Promise<void> {
  await tab.waitForFunction((n) => Number(document.body.dataset.shown ?? "0") > n, before);
}

function diagnosticLines(tab: Tab) {
  return tab.evaluate(() => ({
    listed: [...document.querySelectorAll<HTMLElement>("#diagnostic-list li")].map((li) => ({
      code: li.dataset.code ?? "",
      line: Number(li.dataset.line),
    })),
    marked: [...document.querySelectorAll<HTMLElement>("#gutter span.error, #gutter span.warning")].map((s) =>
      Number(s.dataset.line)
    ),
  }));
}

interface Rect {
  readonly id: string;
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

function apart(a: Rect, b: Rect): boolean {
  return a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
}

Deno.test({
  name: "ritsu playground: in Chromium from file://, as the command line answers",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    if (!chromiumInstalled()) {
      console.log("SKIP: ritsu: playground: chromium is not installed");
      return;
    }
    const dir = await Deno.makeTempDir({ prefix: "ritsu_playground_" });
    strictEqual(await main(["playground", "--out", dir], denoIo()), 0);
    const gzipped = await gzipSize(`${dir}/playground.js`);
    ok(gzipped < MAX_BUNDLE_GZIP_BYTES, `the bundle is ${gzipped} bytes gzipped`);
    const browser = await launchChromium();
    const shots = await screenshotsDir("playground");
    console.log(`chromium ${browser.version()}, playwright-core ${VERSIONS.playwrightCore}`);
    console.log(`playground.js: ${(await Deno.stat(`${dir}/playground.js`)).size} bytes, ${gzipped} gzipped`);
    try {
      const opened = await openPage(browser, dir, 1280, "light");
      const tab = opened.tab;
      const paths = await tab.evaluate(() =>
        (globalThis as unknown as { ritsuPlayground: Playground }).ritsuPlayground.files()
      );

      await t.step("every preset loads: no diagnostics, a chart, scenarios and a run", async () => {
        deepStrictEqual(paths, examplesOnDisk(), "every book and flow of examples/, in path order");
        for (const path of paths) {
          const before = await shownCount(tab);
          await tab.selectOption("#preset", path);
          await shownAfter(tab, before);
          const seen = await tab.evaluate(() => ({
            file: document.getElementById("file")?.textContent,
            listed: document.querySelectorAll("#diagnostic-list li").length,
            chart: !(document.getElementById("page") as HTMLIFrameElement).hidden,
            scenarios: (document.getElementById("scenario") as HTMLSelectElement).options.length,
            run: document.getElementById("run-text")?.textContent ?? "",
          }));
          deepStrictEqual([seen.file, seen.listed, seen.chart], [path, 0, true], path);
          ok(seen.scenarios > 0 && seen.run.length > 0, `${path}: scenarios and a run`);
        }
      });

      await t.step(
        "typing an error shows its diagnostic at its line; fixing it clears it (keyboard only)",
        async () => {
          const before = await shownCount(tab);
          await tab.selectOption("#preset", "examples/orders/orders.flow");
          await shownAfter(tab, before);
          await tab.focus("#lang");
          await tab.keyboard.press("Shift+Tab");
          await tab.keyboard.press("Shift+Tab");
          await tab.keyboard.press("Tab");
          await tab.keyboard.press("Tab");
          await tab.keyboard.press("Tab");
          strictEqual(
            await tab.evaluate(() => document.activeElement?.id),
            "source",
            "Tab reaches the editor",
          );
          await tab.keyboard.press("Control+Home");
          const typed = await shownCount(tab);
          await tab.keyboard.type("flow flow flow\n");
          await shownAfter(tab, typed);
          const broken = await diagnosticLines(tab);
          ok(broken.listed.length > 0, "a diagnostic is shown");
          ok(broken.listed.some((d) => d.line === 1), JSON.stringify(broken.listed));
          ok(broken.marked.includes(1), "line 1 is marked");
          const fixed = await shownCount(tab);
          await tab.keyboard.press("Control+Home");
          for (let i = 0; i < "flow flow flow\n".length; i++) await tab.keyboard.press("Delete");
          await shownAfter(tab, fixed);
          // On a busy machine a pause between two Deletes checks the text half fixed (a CI run saw
          // E001 still listed): wait up to 30 s for a check of the text as it is now.
          await tab.waitForFunction(
            () => document.querySelectorAll("#diagnostic-list li, #gutter span.error").length === 0,
            undefined,
            { timeout: 30_000 },
          ).catch(() => {});
          deepStrictEqual(
            await diagnosticLines(tab),
            { listed: [], marked: [] },
            "fixed: nothing listed or marked",
          );
        },
      );

      await t.step("a clicked code is explained", async () => {
        // The broken line goes in with one input event, so one check follows it: typed key by key, a
        // busy machine checked a half-typed line and replaced the list under the click (a CI run
        // explained nothing).
        const before = await shownCount(tab);
        await tab.evaluate(() => {
          const source = document.getElementById("source") as HTMLTextAreaElement;
          source.value = "flow flow flow\n" + source.value;
          source.dispatchEvent(new Event("input"));
        });
        await shownAfter(tab, before);
        await tab.click("#diagnostic-list li button:last-child");
        await tab.waitForFunction(
          () => document.getElementById("explain-code")?.textContent !== "",
          undefined,
          {
            timeout: 10_000,
          },
        ).catch(() => {});
        const explained = await tab.evaluate(() => ({
          code: document.getElementById("explain-code")?.textContent ?? "",
          text: document.getElementById("explain")?.textContent ?? "",
        }));
        ok(explained.code !== "" && explained.text.startsWith(explained.code), explained.text.slice(0, 80));
      });

      await t.step("every preset in en and ja: the command line's answers, byte for byte", async () => {
        let compared = 0;
        for (const path of paths) {
          const text = await Deno.readTextFile(path);
          const tool = path.endsWith(".book") ? "chobo" : "dandori";
          for (const lang of ["en", "ja"] as const) {
            const page = await tab.evaluate(
              ([p, s, l]) =>
                (globalThis as unknown as { ritsuPlayground: Playground }).ritsuPlayground.answer(p, s, l),
              [path, text, lang] as const,
            );
            const check = runCli([tool, "check", path, "--format", "json", "--lang", lang]);
            const scenarios = runCli([tool, "scenarios", path, "--lang", lang]);
            const file = await Deno.makeTempFile({ dir, suffix: ".scenarios.json" });
            await Deno.writeTextFile(file, scenarios.stdout);
            const run = runCli([tool, "run", path, "--scenario", file, "--lang", lang]);
            strictEqual(page.checkJson, check.stdout, `${path} ${lang}: check --format json`);
            strictEqual(page.scenariosJson, scenarios.stdout, `${path} ${lang}: scenarios`);
            strictEqual(page.runs.join("\n"), run.stdout, `${path} ${lang}: run`);
            strictEqual(run.code, 0);
            compared += 1 + page.runs.length;
          }
        }
        console.log(`${paths.length} presets in en and ja: ${compared} answers equal to the command line's`);
      });

      await t.step("a 200-line book and flow: from a keystroke to the diagnostics", async () => {
        for (const [name, text] of [["book", longBook()], ["flow", longFlow()]] as const) {
          strictEqual(text.split("\n").length - 1, 200, `the ${name} has 200 lines`);
          const path = name === "book" ? "examples/refunds/refunds.book" : "examples/shipping/shipping.flow";
          let before = await shownCount(tab);
          await tab.selectOption("#preset", path);
          await shownAfter(tab, before);
          await tab.fill("#source", text);
          before = await shownCount(tab);
          await tab.focus("#source");
          await tab.keyboard.press("End");
          await tab.keyboard.type(" ");
          await shownAfter(tab, before);
          const listed = await diagnosticLines(tab);
          strictEqual(listed.listed.filter((d) => d.code.startsWith("E")).length, 0, JSON.stringify(listed));
          const timing = await tab.evaluate(() =>
            (globalThis as unknown as { ritsuPlayground: Playground }).ritsuPlayground.timing()
          );
          console.log(
            `200-line ${name}: diagnostics ${Math.round(timing.checkMs)} ms after the keystroke (${
              Math.round(timing.checkMs - PAUSE_MS)
            } ms after the ${PAUSE_MS} ms pause), every pane ${Math.round(timing.allMs)} ms`,
          );
        }
      });
      await closePage(opened);

      await t.step(
        "360 and 1280 px, light and dark: nothing wider than the window, no pane over another",
        async () => {
          for (const scheme of ["light", "dark"] as const) {
            for (const width of [360, 1280]) {
              const o = await openPage(browser, dir, width, scheme);
              const seen = await o.tab.evaluate(() => ({
                scrollWidth: document.documentElement.scrollWidth,
                boxes: [
                  ...document.querySelectorAll<HTMLElement>(
                    ".panes > section:not([hidden]), header .controls > *",
                  ),
                ].map((e) => {
                  const r = e.getBoundingClientRect();
                  return {
                    id: e.id || e.tagName,
                    left: r.left,
                    right: r.right,
                    top: r.top,
                    bottom: r.bottom,
                  };
                }),
              }));
              ok(seen.scrollWidth <= width, `${width} px ${scheme}: the page is ${seen.scrollWidth} px wide`);
              for (const [i, a] of seen.boxes.entries()) {
                for (const b of seen.boxes.slice(i + 1)) {
                  ok(apart(a, b), `${width} ${scheme}: ${a.id} and ${b.id} overlap`);
                }
              }
              await screenshot(o.tab, shots, `playground-${width}-${scheme}.png`);
              await closePage(o);
            }
          }
        },
      );
    } finally {
      await browser.close();
    }
    console.log(screenshotsLine("playground", shots));
  },
});
