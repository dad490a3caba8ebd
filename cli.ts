/**
 * The one entry point: `ritsu <chobo|dandori> <command> …`. Started through a link named `chobo`
 * (or `dandori`), it is that tool. Exit codes: 0 fine (or warnings only), 1 errors, 2 usage or internal error.
 * @module
 */

import process from "node:process";
import {
  parseCommandLine,
  renderCommandHelp,
  renderToolHelp,
  renderUsageError,
  type ToolSpec,
} from "./commands/table.ts";
import { denoIo, type Io, shownIo } from "./commands/io.ts";
import { chooseLang, type Lang, tr } from "./lang/common/text.ts";
import { VERSION } from "./lang/common/version.ts";
import { CHOBO } from "./commands/chobo.ts";
import { DANDORI } from "./commands/dandori.ts";

const TOOLS: readonly ToolSpec[] = [CHOBO, DANDORI];

/** The language a command line asks for, before it is fully parsed (for usage errors too). */
function langOf(argv: readonly string[], tool: string, io: Io): Lang {
  let flag: string | undefined;
  argv.forEach((w, i) => {
    if (w === "--lang") flag = argv[i + 1];
    else if (w.startsWith("--lang=")) flag = w.slice("--lang=".length);
  });
  return chooseLang(flag, tool, io.env);
}

function ritsuHelp(lang: Lang): string {
  const lines = [
    `ritsu ${VERSION}: ${
      tr("a toolchain for small business languages", "業務のための小さな言語の処理系")[lang]
    }`,
    "",
    `${tr("usage", "使い方")[lang]}: ritsu <tool> <command> … [--lang en|ja]`,
    "",
    `${tr("tools", "ツール")[lang]}:`,
    ...TOOLS.map((t) => `  ${t.name.padEnd(8)}${t.summary[lang]}`),
  ];
  return lines.join("\n") + "\n";
}

/**
 * Runs one command line (the words after `ritsu`) and returns the exit code. Never throws: an
 * unexpected exception is reported in one line as an internal error, exit 2. Everything it prints
 * goes through `shownIo`: no key and no terminal control reaches the output.
 */
export function main(argv: readonly string[], world: Io): number {
  const io = shownIo(world);
  const [toolName, ...rest] = argv;
  const tool = TOOLS.find((t) => t.name === toolName);
  const lang = langOf(argv, tool?.name ?? "ritsu", io);
  if (tool === undefined) {
    if (toolName === undefined || toolName === "--help" || toolName === "help") {
      io.stdout(ritsuHelp(lang));
      return 0;
    }
    if (toolName === "--version") {
      io.stdout(`ritsu ${VERSION}\n`);
      return 0;
    }
    io.stderr(
      `ritsu: ${tr(`unknown tool ${toolName}`, `知らないツールです: ${toolName}`)[lang]}\n${ritsuHelp(lang)}`,
    );
    return 2;
  }
  try {
    const parsed = parseCommandLine(tool, rest);
    switch (parsed.kind) {
      case "tool-help":
        io.stdout(renderToolHelp(tool, lang));
        return 0;
      case "version":
        io.stdout(`${tool.name} ${tool.version}\n`);
        return 0;
      case "help":
        io.stdout(renderCommandHelp(tool, parsed.command, lang));
        return 0;
      case "usage":
        io.stderr(renderUsageError(tool, parsed, lang));
        return 2;
      case "run": {
        const result = parsed.command.run(parsed.args, parsed.flags, io, lang);
        if (typeof result === "number") return result;
        io.stderr(renderUsageError(tool, { command: parsed.command, message: result.usage }, lang));
        return 2;
      }
    }
  } catch (e) {
    const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    io.stderr(`${tool.name}: ${tr("internal error", "内部の異常")[lang]}: ${what}\n`);
    return 2;
  }
}

/** `chobo` when started through a link of that name, else the words as given. */
function commandLine(): string[] {
  const self = process.argv0.split("/").pop() ?? "";
  const tool = TOOLS.find((t) => t.name === self);
  return tool === undefined ? Deno.args : [tool.name, ...Deno.args];
}

if (import.meta.main) Deno.exit(main(commandLine(), denoIo()));
