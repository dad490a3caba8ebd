/**
 * A page opened in the browser for the doc pages' tests: what it logs as errors and what it
 * requests besides itself are collected, and checked empty when it closes.
 * @module
 */

import { deepStrictEqual } from "node:assert/strict";
import type { Browser, ConsoleMessage, Request, Tab } from "./mermaid.ts";

/** A tab with the console errors it logged and the requests it made. */
export interface Opened {
  readonly tab: Tab;
  readonly errors: string[];
  readonly requests: string[];
  /** The browser whose spare tabs `close` gives the tab back to. */
  readonly browser: Browser;
  /** Takes this page's listeners off the tab. */
  readonly unlisten: () => void;
}

/**
 * Tabs `close` gave back, per browser, which `open` takes before it makes a new one: each new tab
 * was a renderer process of Chromium's own, and the page tests open some two hundred pages.
 */
const SPARE_TABS = new WeakMap<Browser, Tab[]>();

/** Opens `url` at `width` in a colour scheme, listening for errors and requests. */
export async function open(
  browser: Browser,
  url: string,
  width: number,
  scheme: "light" | "dark",
): Promise<Opened> {
  const viewport = { width, height: 800 };
  const spare = SPARE_TABS.get(browser)?.pop();
  const tab = spare ?? await browser.newPage({ viewport, colorScheme: scheme });
  if (spare !== undefined) {
    await tab.setViewportSize(viewport);
    await tab.emulateMedia({ colorScheme: scheme });
  }
  const errors: string[] = [];
  const requests: string[] = [];
  const own = url.replace(/#.*/, "");
  const onConsole = (m: ConsoleMessage) => {
    if (m.type() === "error") errors.push(m.text());
  };
  const onError = (e: Error) => errors.push(e.message);
  const onRequest = (r: Request) => {
    if (r.url() !== own && !r.url().startsWith("about:")) requests.push(r.url());
  };
  tab.on("console", onConsole);
  tab.on("pageerror", onError);
  tab.on("request", onRequest);
  const unlisten = () => {
    tab.off("console", onConsole);
    tab.off("pageerror", onError);
    tab.off("request", onRequest);
  };
  await tab.goto(url);
  return { tab, errors, requests, browser, unlisten };
}

/**
 * Leaves the page for `about:blank` and gives the tab back for the next `open`; the page must have
 * logged no error and requested nothing but itself.
 */
export async function close({ tab, errors, requests, browser, unlisten }: Opened): Promise<void> {
  unlisten();
  await tab.goto("about:blank");
  const spare = SPARE_TABS.get(browser) ?? [];
  spare.push(tab);
  SPARE_TABS.set(browser, spare);
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
