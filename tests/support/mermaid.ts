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
import { type Browser, chromium } from "npm:playwright-core@1.65.1";
// deno-lint-ignore no-import-prefix
import playwrightPackage from "npm:playwright-core@1.65.1/package.json" with { type: "json" };
// `deno install` (the first step of the test tasks) puts the package in node_modules, where the bundle is read.
// deno-lint-ignore no-import-prefix
import mermaidPackage from "npm:mermaid@12.3.0/package.json" with { type: "json" };

export type { Browser, Page as Tab } from "npm:playwright-core@1.65.1";

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

/**
 * Renders each Mermaid text in Chromium and returns the SVGs; throws with Mermaid's message for
 * every text it refuses. Uses `browser` when given, else starts and stops one.
 *
 * @example
 * ```ts
 * await validateMermaid(["flowchart LR\n    a0 --> a1"]);
 * ```
 */
export async function validateMermaid(texts: readonly string[], browser?: Browser): Promise<string[]> {
  const own = browser ?? await launchChromium();
  try {
    const page = await own.newPage();
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    const bundle = createRequire(import.meta.url).resolve("mermaid/dist/mermaid.min.js");
    await page.addScriptTag({ content: Deno.readTextFileSync(bundle) });
    const results = await page.evaluate(async (texts) => {
      const mermaid = (globalThis as unknown as { mermaid: MermaidApi }).mermaid;
      mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });
      const out: { svg: string; error: string }[] = [];
      for (const [i, text] of texts.entries()) {
        try {
          out.push({ svg: (await mermaid.render(`chart${i}`, text)).svg, error: "" });
        } catch (e) {
          out.push({ svg: "", error: e instanceof Error ? e.message : String(e) });
        }
      }
      return out;
    }, texts);
    await page.close();
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
