/**
 * The one look of the pages both tools write (`chobo doc`, `dandori doc`): colours for light and
 * dark, type, tables and frames that scroll sideways inside themselves, the controls and the
 * stepper. A page puts the rules of its own chart into the middle (`pageStyle`), so the cascade
 * is the same for both and a page's chart rules can rely on every shared rule before them.
 * @module
 */

/** The stylesheet of a page, with `chart` (the page's own rules, each on a line of its own after a newline) in its place. */
export function pageStyle(chart: string): string {
  return `${BEFORE_CHART}${chart}${AFTER_CHART}`;
}

/** The monospace fonts every chart and code block asks for, in order. */
export const MONOSPACE = 'ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace';

const BEFORE_CHART = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --rule: #d1d9e0; --panel: #f6f8fa;
  --box: #f6f8fa; --arrow: #59636e; --lit: #0969da; --lit-bg: #ddf4ff;
  --refused: #cf222e; --refused-bg: #ffebe9; --changed-bg: #fff8c5;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --rule: #3d444d; --panel: #151b23;
    --box: #151b23; --arrow: #9198a1; --lit: #4493f8; --lit-bg: #0c2d6b;
    --refused: #f85149; --refused-bg: #490202; --changed-bg: #3b2e00;
  }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", "Noto Sans", "Hiragino Sans", sans-serif;
}
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
h1, h2, h3, h4, p, li, summary { overflow-wrap: anywhere; }
h1 { font-size: 1.8rem; margin: 0.5rem 0; }
h2 { font-size: 1.4rem; margin: 2rem 0 0.75rem; padding-bottom: 0.25rem; border-bottom: 1px solid var(--rule); }
h3 { font-size: 1.15rem; margin: 1.5rem 0 0.5rem; }
h3 code { font-size: 1.1rem; }
h4 { font-size: 1rem; margin: 1rem 0 0.25rem; }
.description { font-size: 1.1rem; }
code, pre { font-family: ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.875rem; }
pre { margin: 0; padding: 0.5rem 0.75rem; background: var(--panel); border-radius: 6px; }
.frame { overflow-x: auto; max-width: 100%; margin: 0.5rem 0; }
table { border-collapse: collapse; }
caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
th, td { border: 1px solid var(--rule); padding: 0.3rem 0.6rem; text-align: left; vertical-align: top; }
th { background: var(--panel); white-space: nowrap; }
td:first-child, .bound { white-space: nowrap; }
.accounts td:last-child { min-width: 12rem; }
td details { margin-top: 0.25rem; }
td pre { margin-top: 0.25rem; }
summary { cursor: pointer; color: var(--muted); }
.chart svg { display: block; max-width: none; }`;

const AFTER_CHART = `.controls { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; margin: 0.5rem 0; }
.controls label { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.5rem; max-width: 100%; min-width: 0; }
.controls label[hidden] { display: none; }
select { max-width: 100%; min-width: 0; font: inherit; }
button { font: inherit; color: inherit; background: var(--panel); border: 1px solid var(--rule); border-radius: 6px; padding: 0.3rem 0.7rem; cursor: pointer; }
button:disabled { opacity: 0.45; cursor: default; }
.nav { display: flex; align-items: center; gap: 0.5rem; flex-wrap: wrap; }
#steps { margin: 0.5rem 0; padding-left: 2rem; max-height: 24rem; overflow-y: auto; }
#steps li { margin: 0.2rem 0; }
#steps button { display: block; width: 100%; text-align: left; white-space: pre-line; overflow-wrap: anywhere; background: transparent; }
#steps button[aria-current] { background: var(--lit-bg); border-color: var(--lit); font-weight: 600; }
#steps .call { display: block; font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.85rem; }
#steps .result { display: block; color: var(--muted); font-size: 0.85rem; }
#steps .result.refused { color: var(--refused); }
#steps .result.refused::before { content: "✗ "; }
.stepper > div { min-width: 0; }
tr.changed td.changed { background: var(--changed-bg); font-weight: 700; }
#holds-box[hidden] { display: none; }
@media (min-width: 64rem) {
  .stepper { display: grid; grid-template-columns: minmax(16rem, 2fr) 3fr; gap: 1.5rem; align-items: start; }
}
`;
