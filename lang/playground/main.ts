/// <reference lib="dom" />
/**
 * The playground's script (docs/playground.md), bundled into `playground.js`: it fills the preset
 * list from the files the page holds, and after each pause in typing (`PAUSE_MS`) checks the text
 * and shows the diagnostics with their lines marked; then, in a task of its own so the diagnostics
 * show first, the chart (the `doc` page in a frame, stepping through the chosen scenario), the
 * scenarios, the chosen scenario's run, and the book's report or the flow's plan. The same
 * functions answer `window.ritsuPlayground` (`answer`, and how long the last check took from the
 * keystroke), which the tests and the benchmark call.
 * @module
 */

import protobuf from "protobufjs";
import type { Lang } from "../common/text.ts";
import { type Pb, useProtobufjs } from "../dandori/proto.ts";
import { answer, check, type Checked, explainCode, type Explored, languageOf } from "./answers.ts";
import { PAUSE_MS, type PresetFile } from "./html.ts";
import { type WordKey, WORDS } from "./words.ts";

// The page checks a flow's `use proto` with the protobufjs bundled into it.
useProtobufjs(() => protobuf as Pb);

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the page has no #${id}`);
  return found as T;
}

const files = new Map<string, string>(
  (JSON.parse(element("files").textContent ?? "[]") as PresetFile[]).map((f) => [f.path, f.text]),
);
const preset = element<HTMLSelectElement>("preset");
const langSelect = element<HTMLSelectElement>("lang");
const source = element<HTMLTextAreaElement>("source");
const gutter = element("gutter");
const scenario = element<HTMLSelectElement>("scenario");
const frame = element<HTMLIFrameElement>("page");

let lang: Lang = "en";
let path = "";
let timer: ReturnType<typeof setTimeout> | undefined;
let typedAt = 0;
let explored: Explored | null = null;
let checked: Checked | null = null;
/** From the last keystroke (or choice) to the diagnostics shown, and to every pane shown, in ms. */
const timing = { checkMs: 0, allMs: 0 };

function say(key: WordKey): string {
  return WORDS[key][lang];
}

function relabel(): void {
  document.documentElement.lang = lang;
  document.title = say("title");
  for (const e of document.querySelectorAll<HTMLElement>("[data-word]")) {
    e.textContent = say(e.dataset.word as WordKey);
  }
  frame.title = say("chart");
}

function gutterLines(): void {
  const count = source.value.split("\n").length;
  const marks = new Map<number, string>();
  for (const d of checked?.diagnostics ?? []) {
    if (d.line > 0 && marks.get(d.line) !== "error") marks.set(d.line, d.severity);
  }
  const spans: HTMLElement[] = [];
  for (let line = 1; line <= count; line++) {
    const span = document.createElement("span");
    span.textContent = String(line);
    span.dataset.line = String(line);
    const severity = marks.get(line);
    if (severity !== undefined) span.className = severity;
    spans.push(span);
  }
  gutter.replaceChildren(...spans);
  gutter.scrollTop = source.scrollTop;
}

/** Moves the caret to the start of `line` and shows it. */
function goToLine(line: number): void {
  const lines = source.value.split("\n");
  const at = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  source.focus();
  source.setSelectionRange(at, at);
  const height = source.scrollHeight / Math.max(1, lines.length);
  source.scrollTop = Math.max(0, (line - 3) * height);
}

function showExplain(code: string): void {
  if (checked === null) return;
  const text = explainCode(checked.language, code, lang);
  element("explain-box").hidden = text === null;
  element("explain-code").textContent = code;
  element("explain").textContent = text ?? "";
}

function button(label: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  b.addEventListener("click", onClick);
  return b;
}

function showChecked(c: Checked): void {
  element("summary").textContent = c.diagnostics.length === 0 ? say("noDiagnostics") : c.summary.trimEnd();
  const items = c.diagnostics.map((d, i) => {
    const li = document.createElement("li");
    li.className = d.severity;
    li.dataset.code = d.code;
    li.dataset.line = String(d.line);
    const pre = document.createElement("pre");
    pre.textContent = c.rendered[i].trimEnd();
    const actions = document.createElement("div");
    actions.className = "nav";
    if (d.line > 0) actions.append(button(`${say("line")} ${d.line}`, () => goToLine(d.line)));
    actions.append(button(`${say("explain")} ${d.code}`, () => showExplain(d.code)));
    li.append(pre, actions);
    return li;
  });
  element("diagnostic-list").replaceChildren(...items);
  gutterLines();
}

function showRun(): void {
  const index = Number(scenario.value);
  const runs = explored?.runs ?? [];
  element("run-text").textContent = runs.length === 0 ? say("noRun") : runs[index] ?? "";
  if (!frame.hidden && runs.length > 0) {
    frame.contentWindow?.location.replace(`#scenario=${index + 1}&step=1`);
  }
}

function showExplored(e: Explored): void {
  explored = e;
  element("no-chart").hidden = e.page !== null;
  frame.hidden = e.page === null;
  if (e.page !== null) frame.srcdoc = e.page;
  const has = e.scenariosJson !== null;
  element("no-scenarios").hidden = has;
  element("scenario-box").hidden = !has;
  element("scenarios-details").hidden = !has;
  element("scenarios-json").textContent = e.scenariosJson ?? "";
  const chosen = Math.min(Number(scenario.value) || 0, Math.max(0, e.scenarioNames.length - 1));
  scenario.replaceChildren(
    ...e.scenarioNames.map((name, i) => new Option(`${i + 1}. ${name}`, String(i), false, i === chosen)),
  );
  element("run-text").textContent = e.runs.length === 0 ? say("noRun") : e.runs[chosen];
  element("detail").hidden = e.detail === null;
  element("h-detail").textContent = checked?.language === "chobo" ? say("refusals") : say("plan");
  element("detail-text").textContent = e.detail ?? "";
  element("notes").hidden = e.notes.length === 0;
  element("note-list").replaceChildren(...e.notes.map((n) => {
    const li = document.createElement("li");
    li.textContent = n;
    return li;
  }));
}

function failed(e: unknown): void {
  element("summary").textContent = `${say("internal")}: ${e instanceof Error ? e.message : String(e)}`;
}

/** Checks the text now, shows the diagnostics, then the rest in a task of its own. */
function refresh(): void {
  files.set(path, source.value);
  try {
    checked = check(files, path, lang);
  } catch (e) {
    failed(e);
    return;
  }
  showChecked(checked);
  timing.checkMs = performance.now() - typedAt;
  element("status").textContent = `${say("checked")} ${Math.round(timing.checkMs)} ms`;
  const mine = checked;
  setTimeout(() => {
    if (mine !== checked) return;
    try {
      showExplored(mine.explore());
    } catch (e) {
      failed(e);
    }
    timing.allMs = performance.now() - typedAt;
    document.body.dataset.shown = String(Number(document.body.dataset.shown ?? "0") + 1);
  }, 0);
}

function load(chosen: string): void {
  path = chosen;
  element("file").textContent = path;
  source.value = files.get(path) ?? "";
  source.scrollTop = 0;
  element("explain-box").hidden = true;
  scenario.value = "0";
  typedAt = performance.now();
  refresh();
}

/** The books and flows the page offers; the other files are what their flows name. */
const presets = [...files.keys()].filter((p) => languageOf(p) !== null);

preset.replaceChildren(...presets.map((p) => new Option(p.replace(/^examples\//, ""), p)));
preset.addEventListener("change", () => load(preset.value));
langSelect.addEventListener("change", () => {
  lang = langSelect.value === "ja" ? "ja" : "en";
  relabel();
  typedAt = performance.now();
  refresh();
});
source.addEventListener("input", () => {
  typedAt = performance.now();
  clearTimeout(timer);
  timer = setTimeout(refresh, PAUSE_MS);
});
source.addEventListener("scroll", () => {
  gutter.scrollTop = source.scrollTop;
});
scenario.addEventListener("change", showRun);

Object.assign(globalThis, {
  ritsuPlayground: {
    answer: (p: string, text: string, l: Lang) => answer(new Map(files).set(p, text), p, l),
    files: () => [...presets],
    timing: () => ({ ...timing }),
  },
});

relabel();
load(preset.value);
