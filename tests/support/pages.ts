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

/**
 * A full-page screenshot of the tab at `path`, for a person to look at (no test reads it). A try
 * that Chromium could not capture is taken again; a third failure is the test's.
 */
export async function screenshot(tab: Tab, path: string): Promise<void> {
  for (let tries = 1;; tries++) {
    try {
      await tab.screenshot({ path, fullPage: true });
      return;
    } catch (e) {
      if (tries === SCREENSHOT_TRIES || !String(e).includes("Unable to capture screenshot")) throw e;
    }
  }
}
