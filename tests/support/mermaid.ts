/**
 * Headless Chromium for the page tests (Debian's `chromium`, driven by playwright-core), and
 * Mermaid run inside it to prove that the Markdown page's chart text is Mermaid that renders.
 * Nothing is fetched: Mermaid's bundle is read from its npm package and put into a blank page.
 * @module
 */

import { createRequire } from "node:module";
// Full specifiers because deno.json does not name these test-only packages (yet): move them to its
// "imports" when another file needs them, and drop the lint exceptions.
// deno-lint-ignore no-import-prefix
import { type Browser, chromium, type Page } from "npm:playwright-core@1.65.1";
// deno-lint-ignore no-import-prefix
import playwrightPackage from "npm:playwright-core@1.65.1/package.json" with { type: "json" };
// `deno install` (the first step of the test tasks) puts the package in node_modules, where the bundle is read.
// deno-lint-ignore no-import-prefix
import mermaidPackage from "npm:mermaid@12.3.0/package.json" with { type: "json" };

export type { Browser, ConsoleMessage, Page as Tab, Request } from "npm:playwright-core@1.65.1";

/** Where Debian's `apt-get install chromium` puts the browser. */
export const CHROMIUM = "/usr/bin/chromium";

/** The versions the browser tests run with, for their log. */
export const VERSIONS = { playwrightCore: playwrightPackage.version, mermaid: mermaidPackage.version };

/** True when Chromium is installed here; tests that need it print a SKIP line otherwise. */
export function chromiumInstalled(): boolean {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
}

/** Starts headless Chromium with nothing that reaches the network on its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-quic",
      "--no-first-run",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

interface MermaidApi {
  initialize(config: { startOnLoad: boolean; securityLevel: string }): void;
  render(id: string, text: string): Promise<{ svg: string }>;
}

/** A blank page of a browser with Mermaid's bundle in it, every request it made, and how many charts it drew. */
interface MermaidTab {
  readonly tab: Page;
  readonly requests: string[];
  drawn: number;
}

/**
 * Each browser's Mermaid page, made by the first `validateMermaid` given that browser and kept while
 * it runs: the bundle is 3 MB of script that every page test's checks would otherwise load again.
 */
const MERMAID_TABS = new WeakMap<Browser, Promise<MermaidTab>>();

async function mermaidTab(browser: Browser): Promise<MermaidTab> {
  const tab = await browser.newPage();
  const requests: string[] = [];
  tab.on("request", (r) => requests.push(r.url()));
  const bundle = createRequire(import.meta.url).resolve("mermaid/dist/mermaid.min.js");
  await tab.addScriptTag({ content: Deno.readTextFileSync(bundle) });
  await tab.evaluate(() =>
    (globalThis as unknown as { mermaid: MermaidApi }).mermaid.initialize({
      startOnLoad: false,
      securityLevel: "strict",
    })
  );
  return { tab, requests, drawn: 0 };
}

/**
 * Renders each Mermaid text in Chromium and returns the SVGs; throws with Mermaid's message for
 * every text it refuses. Uses `browser`'s Mermaid page when given, else starts and stops a browser.
 *
 * @example
 * ```ts
 * await validateMermaid(["flowchart LR\n    a0 --> a1"]);
 * ```
 */
export async function validateMermaid(texts: readonly string[], browser?: Browser): Promise<string[]> {
  const own = browser ?? await launchChromium();
  try {
    let made = MERMAID_TABS.get(own);
    if (made === undefined) {
      made = mermaidTab(own);
      MERMAID_TABS.set(own, made);
    }
    const drawing = await made;
    const { tab, requests } = drawing;
    // Every chart has an id the page has not used before, whatever an earlier render left behind.
    const first = drawing.drawn;
    drawing.drawn += texts.length;
    const results = await tab.evaluate(async ({ texts, first }) => {
      const mermaid = (globalThis as unknown as { mermaid: MermaidApi }).mermaid;
      const out: { svg: string; error: string }[] = [];
      for (const [i, text] of texts.entries()) {
        try {
          out.push({ svg: (await mermaid.render(`chart${first + i}`, text)).svg, error: "" });
        } catch (e) {
          out.push({ svg: "", error: e instanceof Error ? e.message : String(e) });
        }
      }
      return out;
    }, { texts, first });
    const refused = results.flatMap((r, i) =>
      r.error !== "" || !r.svg.startsWith("<svg") ? [`${texts[i]}\n→ ${r.error || "no <svg>"}`] : []
    );
    if (refused.length > 0) throw new Error(`Mermaid refused:\n${refused.join("\n\n")}`);
    if (requests.length > 0) throw new Error(`Mermaid fetched ${requests.join(", ")}`);
    return results.map((r) => r.svg);
  } finally {
    if (browser === undefined) await own.close();
  }
}
