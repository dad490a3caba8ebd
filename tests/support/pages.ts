/**
 * A page opened in the browser for the doc pages' tests: what it logs as errors and what it
 * requests besides itself are collected, and checked empty when it closes.
 * @module
 */

import { deepStrictEqual } from "node:assert/strict";
import type { Browser, Tab } from "./mermaid.ts";

/** A tab with the console errors it logged and the requests it made. */
export interface Opened {
  readonly tab: Tab;
  readonly errors: string[];
  readonly requests: string[];
}

/** Opens `url` at `width` in a colour scheme, listening for errors and requests. */
export async function open(
  browser: Browser,
  url: string,
  width: number,
  scheme: "light" | "dark",
): Promise<Opened> {
  const tab = await browser.newPage({ viewport: { width, height: 800 }, colorScheme: scheme });
  const errors: string[] = [];
  const requests: string[] = [];
  const own = url.replace(/#.*/, "");
  tab.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  tab.on("pageerror", (e) => errors.push(e.message));
  tab.on("request", (r) => {
    if (r.url() !== own && !r.url().startsWith("about:")) requests.push(r.url());
  });
  await tab.goto(url);
  return { tab, errors, requests };
}

/** Closes the tab: it must have logged no error and requested nothing but the page itself. */
export async function close({ tab, errors, requests }: Opened): Promise<void> {
  await tab.close();
  deepStrictEqual(errors, [], "no console error");
  deepStrictEqual(requests, [], "no request but the page itself");
}

/** How many times a screenshot is tried: Chromium now and then answers "Unable to capture screenshot". */
const SCREENSHOT_TRIES = 3;

/** The environment variable that keeps the page tests' screenshots: the directory they are written into. */
export const SCREENSHOTS_ENV = "RITSU_SCREENSHOTS";

/**
 * Where the page test `name` writes its screenshots: `$RITSU_SCREENSHOTS/<name>`, made here, or null when
 * RITSU_SCREENSHOTS is not set. Screenshots are for a person to look at and no test reads them, so a
 * run nobody looks at (CI's) takes none: they were an eighth of the CPU of `dandori doc`'s page test.
 */
export async function screenshotsDir(name: string): Promise<string | null> {
  const root = Deno.env.get(SCREENSHOTS_ENV);
  if (root === undefined || root === "") return null;
  const dir = `${root}/${name}`;
  await Deno.mkdir(dir, { recursive: true });
  return dir;
}

/** The line a page test prints about its screenshots: where they are, or how to keep them. */
export function screenshotsLine(name: string, dir: string | null): string {
  return dir === null
    ? `${name} screenshots: none taken (${SCREENSHOTS_ENV}=<dir> keeps them)`
    : `${name} screenshots: ${dir}`;
}

/**
 * A full-page screenshot of the tab as `file` in `dir` (`screenshotsDir`), for a person to look at; none
 * when `dir` is null. A try that Chromium could not capture is taken again; a third failure is the test's.
 */
export async function screenshot(tab: Tab, dir: string | null, file: string): Promise<void> {
  if (dir === null) return;
  for (let tries = 1;; tries++) {
    try {
      await tab.screenshot({ path: `${dir}/${file}`, fullPage: true });
      return;
    } catch (e) {
      if (tries === SCREENSHOT_TRIES || !String(e).includes("Unable to capture screenshot")) throw e;
    }
  }
}
