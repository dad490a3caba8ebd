/**
 * `ritsu playground --out <dir>` (docs/playground.md): writes the playground, a page where a book or
 * a flow is checked, drawn and run in the browser as it is typed — `index.html` with every book and
 * flow of `examples/` as presets, `playground.js` (`lang/playground/main.ts` bundled for the browser
 * by `deno bundle`, Deno's esbuild) and `.nojekyll` — a folder GitHub Pages serves as it is, and that
 * works opened from disk. Nothing is written unless all three are.
 * @module
 */

import { type Lang, tr } from "../lang/common/text.ts";
import { playgroundHtml, type PresetFile, SCRIPT_FILE } from "../lang/playground/html.ts";
import { languageOf } from "../lang/playground/answers.ts";
import { checkFlowBytes } from "../lang/dandori/check.ts";
import { flowReader } from "./flow_files.ts";
import { type Io, readInput } from "./io.ts";
import { command, type ToolSpec } from "./table.ts";
import { VERSION } from "../lang/common/version.ts";

const EXAMPLES = new URL("../examples/", import.meta.url);
const ENTRY = new URL("../lang/playground/main.ts", import.meta.url);

/**
 * Every book and flow under `examples/`, by its path from the repository's top, in path order; then
 * the other files their flows name (an OpenAPI description), which the page holds for the check but
 * does not list as presets.
 */
function presets(io: Io): PresetFile[] | { error: string } {
  const paths: string[] = [];
  const walk = (dir: URL, under: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(new URL(`${e.name}/`, dir), `${under}${e.name}/`);
      else if (e.isFile && languageOf(e.name) !== null) paths.push(`${under}${e.name}`);
    }
  };
  walk(EXAMPLES, "");
  const out: PresetFile[] = [];
  const named = new Map<string, Uint8Array>();
  for (const p of paths.sort()) {
    const path = new URL(p, EXAMPLES).pathname;
    const read = readInput(io, path);
    if ("error" in read) return { error: read.error.en };
    out.push({ path: `examples/${p}`, text: new TextDecoder().decode(read.bytes) });
    if (languageOf(p) !== "dandori") continue;
    const reader = flowReader(io, path);
    checkFlowBytes(path, read.bytes, {
      read: (file) => {
        const got = reader(file);
        const under = file.startsWith(EXAMPLES.pathname) ? file.slice(EXAMPLES.pathname.length) : null;
        if (under !== null && languageOf(under) === null && "bytes" in got) named.set(under, got.bytes);
        return got;
      },
    });
  }
  for (const [p, bytes] of [...named].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)) {
    out.push({ path: `examples/${p}`, text: new TextDecoder().decode(bytes) });
  }
  return out;
}

/** The page's script: `main.ts` bundled for the browser as one classic script, or why not. */
async function bundle(): Promise<{ js: string } | { error: string }> {
  const dir = await Deno.makeTempDir({ prefix: "ritsu_playground_" });
  try {
    const out = `${dir}/${SCRIPT_FILE}`;
    const done = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--platform",
        "browser",
        "--format",
        "iife",
        "--minify",
        "-o",
        out,
        ENTRY.pathname,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!done.success) return { error: new TextDecoder().decode(done.stderr).trim() };
    return { js: await Deno.readTextFile(out) };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function playground(out: string, io: Io, lang: Lang): Promise<number> {
  const files = presets(io);
  const script = "error" in files ? files : await bundle();
  if ("error" in script || "error" in files) {
    const why = "error" in files ? files.error : "error" in script ? script.error : "";
    io.stderr(
      `ritsu playground: ${
        tr(
          `the page could not be made, so nothing was written: ${why}`,
          `ページを作れなかったので、何も書いていません: ${why}`,
        )[lang]
      }\n`,
    );
    return 1;
  }
  const dir = out.replace(/\/$/, "");
  const written = io.writeFiles(
    new Map([
      [`${dir}/index.html`, playgroundHtml(files)],
      [`${dir}/${SCRIPT_FILE}`, script.js],
      [`${dir}/.nojekyll`, ""],
    ]),
  );
  if (written !== null) {
    io.stderr(`ritsu playground: ${written[lang]}\n`);
    return 1;
  }
  io.stderr(`${dir}/index.html\n`);
  return 0;
}

/** `ritsu`'s own commands, beside its tools. */
export const RITSU: ToolSpec = {
  name: "ritsu",
  version: VERSION,
  summary: tr("a toolchain for small business languages", "業務のための小さな言語の処理系"),
  commands: [
    command({
      name: "playground",
      summary: tr(
        "write the playground: a page where a book or a flow is checked, drawn and run as you type",
        "プレイグラウンドを書く(帳簿やフローを、書くそばから検査し、描き、流すページ)",
      ),
      args: { placeholder: "", min: 0, max: 0, help: tr("none", "なし") },
      flags: [
        {
          name: "out",
          value: "dir",
          required: true,
          help: tr(
            "the folder to write index.html, playground.js and .nojekyll into (ready for GitHub Pages)",
            "index.html、playground.js、.nojekyll を書くフォルダ(そのまま GitHub Pages に置ける)",
          ),
        },
      ],
      exits: [
        { code: 0, meaning: tr("the page was written", "ページを書いた") },
        {
          code: 1,
          meaning: tr("the page could not be made or written", "ページを作れなかった、または書けなかった"),
        },
        { code: 2, meaning: tr("a usage error, or an internal error", "使い方の誤り、または内部の異常") },
      ],
      examples: ["ritsu playground --out site"],
      run: ({ flags, io, lang }) => playground(flags.out, io, lang),
    }),
  ],
};
