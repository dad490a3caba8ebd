/**
 * The playground's page (docs/playground.md): one HTML file with its style and the examples as
 * presets, beside the one script the bundler made of `main.ts` (`playground.js`, a classic script, so
 * the page works opened from disk as from any static host and loads nothing else). The panes carry
 * `data-testid` (`source`, `diagnostics`, `chart`, `scenarios`, `run`) for tests and users' own
 * automation; their words are `words.ts`'s, English until the script sets the chosen language.
 * @module
 */

import { pageStyle } from "../common/style.ts";
import type { Lang } from "../common/text.ts";
import { esc } from "../dandori/layout.ts";
import { type WordKey, WORDS } from "./words.ts";

/** One file the page holds: a preset, and a file a preset's flow may name. */
export interface PresetFile {
  /** Its path from the repository's top (`examples/orders/orders.flow`), as the command line names it. */
  readonly path: string;
  readonly text: string;
}

/** How long typing must pause before the page checks the text again. */
export const PAUSE_MS = 120;

/** The file name of the script the page loads, beside it. */
export const SCRIPT_FILE = "playground.js";

function word(key: WordKey, lang: Lang, tag = "span", attrs = ""): string {
  return `<${tag} data-word="${key}"${attrs}>${esc(WORDS[key][lang])}</${tag}>`;
}

/** JSON inside a `<script>`: no `<` can close it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

const STYLE = `
.panes { display: grid; gap: 1rem; grid-template-columns: minmax(0, 1fr); }
.panes > section { min-width: 0; }
.panes h2 { margin-top: 0.5rem; }
@media (min-width: 64rem) {
  main.wide { max-width: none; }
  .panes { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); align-items: start; }
  .panes .editor { grid-row: span 3; position: sticky; top: 0; }
}
.editor-box { display: flex; border: 1px solid var(--rule); border-radius: 6px; background: var(--panel); height: 32rem; max-height: 80vh; overflow: hidden; }
#gutter { margin: 0; padding: 0.5rem 0.25rem; overflow: hidden; text-align: right; color: var(--muted); user-select: none; border-radius: 0; flex: none; min-width: 3.5ch; }
#gutter span { display: block; padding: 0 0.25rem; }
#gutter span.error { background: var(--refused-bg); color: var(--refused); font-weight: 700; }
#gutter span.warning { background: var(--changed-bg); font-weight: 700; }
#source { flex: 1; min-width: 0; margin: 0; padding: 0.5rem; border: 0; resize: none; background: var(--bg); color: var(--fg); white-space: pre; overflow: auto; tab-size: 2; }
#gutter, #source { font-family: ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.875rem; line-height: 1.25rem; }
#source:focus-visible, button:focus-visible, select:focus-visible, summary:focus-visible { outline: 2px solid var(--lit); outline-offset: 2px; }
#diagnostic-list { list-style: none; padding: 0; margin: 0; }
#diagnostic-list li { margin: 0.5rem 0; }
#diagnostic-list li.error pre { border-left: 4px solid var(--refused); }
#diagnostic-list li.warning pre { border-left: 4px solid var(--muted); }
#diagnostic-list pre, .out { overflow-x: auto; white-space: pre; max-height: 24rem; }
#page { width: 100%; height: 36rem; max-height: 80vh; border: 1px solid var(--rule); border-radius: 6px; background: var(--bg); }
#status { color: var(--muted); }
[hidden] { display: none !important; }
`;

/** The page, holding `files` (the presets first, in the order the list shows them) and in `lang` until the script runs. */
export function playgroundHtml(files: readonly PresetFile[], lang: Lang = "en"): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(WORDS.title[lang])}</title>
<style>${pageStyle("")}${STYLE}</style>
</head>
<body>
<main class="wide">
<header>
${word("title", lang, "h1")}
${word("intro", lang, "p")}
<noscript>${word("noscript", lang, "p")}</noscript>
<div class="controls">
<label>${word("preset", lang)} <select id="preset"></select></label>
<label>${
    word("language", lang)
  } <select id="lang"><option value="en">English</option><option value="ja">日本語</option></select></label>
<span id="status" role="status"></span>
</div>
</header>
<div class="panes">
<section class="editor" aria-labelledby="h-source">
<h2 id="h-source">${word("source", lang)} <code id="file"></code></h2>
<div class="editor-box"><pre id="gutter" aria-hidden="true"></pre><textarea id="source" data-testid="source" spellcheck="false" autocapitalize="off" autocomplete="off" wrap="off" aria-labelledby="h-source"></textarea></div>
</section>
<section id="diagnostics" data-testid="diagnostics" aria-labelledby="h-diagnostics">
<h2 id="h-diagnostics">${word("diagnostics", lang)}</h2>
<p id="summary" aria-live="polite"></p>
<ul id="diagnostic-list"></ul>
<div id="explain-box" hidden><h3>${
    word("explain", lang)
  } <code id="explain-code"></code></h3><pre id="explain" class="out" tabindex="0"></pre></div>
</section>
<section id="chart" data-testid="chart" aria-labelledby="h-chart">
<h2 id="h-chart">${word("chart", lang)}</h2>
${word("noChart", lang, "p", ' id="no-chart"')}
<iframe id="page" title="${esc(WORDS.chart[lang])}" hidden></iframe>
</section>
<section id="scenarios" data-testid="scenarios" aria-labelledby="h-scenarios">
<h2 id="h-scenarios">${word("scenarios", lang)}</h2>
${word("noScenarios", lang, "p", ' id="no-scenarios"')}
<div class="controls" id="scenario-box" hidden><label>${
    word("scenario", lang)
  } <select id="scenario"></select></label></div>
<details id="scenarios-details" hidden><summary>${
    word("scenariosJson", lang)
  }</summary><pre id="scenarios-json" class="out" tabindex="0"></pre></details>
</section>
<section id="run" data-testid="run" aria-labelledby="h-run">
<h2 id="h-run">${word("run", lang)}</h2>
<pre id="run-text" class="out" tabindex="0"></pre>
</section>
<section id="detail" aria-labelledby="h-detail" hidden>
<h2 id="h-detail"></h2>
<pre id="detail-text" class="out" tabindex="0"></pre>
</section>
<section id="notes" aria-labelledby="h-notes" hidden>
<h2 id="h-notes">${word("notes", lang)}</h2>
<ul id="note-list"></ul>
</section>
</div>
</main>
<script type="application/json" id="files">${scriptJson(files)}</script>
<script src="${SCRIPT_FILE}"></script>
</body>
</html>
`;
}
